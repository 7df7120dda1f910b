//! Carcassonne: South Seas on the shared engine (decisions S-3..S-7): features evaluated into
//! wares instead of points, islanders taken back, fishing boats and their tokens, markets
//! and the ship display, deliveries, and the end of the game.
//!
//! Tiles, features, placement legality and islander placement are the classic engine's
//! (an islander is a meeple; bridges, islands, sea and markets are feature kinds on the
//! same topology). A turn has two decisions: the tile with its islander choice (a `Move`,
//! whose `retrieve` takes an islander back), then, when a delivery is possible, a
//! `Delivery` or none (`Game::deliver`).

use crate::data::tileset::FeatureKind;
use crate::engine::decision::{Decision, Delivery, Phase, Spot};
use crate::engine::game::{Game, IllegalMove};
use crate::engine::rules::Rules;
use crate::engine::scoring::ScoreKind;
use crate::limits::MAX_PLAYERS;
use crate::systems::south_seas::errors::IllegalSouthSeasPlay;
use crate::systems::south_seas::state::{
    DeliveryMemo, FISH, SeaEvent, SeaState, feature_wares, wares_points,
};
use crate::systems::south_seas::system::SouthSeas;

impl Game {
    /// South Seas' state: None for a game of another rule system.
    pub fn sea(&self) -> Option<&SeaState> {
        self.system.south_seas().map(|s| &s.sea)
    }

    /// Wares of `player` (shells, bananas, fish; zeros for a player not in the game).
    pub fn wares(&self, player: usize) -> [u32; 3] {
        // `get` costs the same bounds check as indexing.
        self.sea()
            .and_then(|sea| sea.wares.get(player))
            .copied()
            .unwrap_or_default()
    }

    /// Elements holding an islander of `player`, in the order they were placed (none for
    /// a player not in the game).
    pub fn islanders_of(&self, player: usize) -> impl Iterator<Item = u32> + '_ {
        self.sea()
            .and_then(|sea| sea.islanders.get(player))
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied()
    }

    /// Islanders of the feature rooted at `root` go back to their owners.
    fn return_islanders(&mut self, root: u32) {
        let (supply, islanders) = (&mut self.supply, &mut self.system.sea_mut().islanders);
        self.features.return_meeples(root, |pl, e| {
            supply[pl as usize] += 1;
            forget_islander(&mut islanders[pl as usize], e);
        });
    }

    /// Where an islander stands. `e` is an element (from `islanders_of`); panics if it is
    /// not on the board, like `Features::node`.
    pub fn spot_of(&self, e: u32) -> Spot {
        let n = self.features.node(e);
        let p = &self.board.placed[n.placed as usize];
        Spot {
            x: p.x as i16,
            y: p.y as i16,
            segment: n.segment,
        }
    }

    /// The element of an islander spot, if a tile stands there with that segment.
    pub fn spot_element(&self, spot: Spot) -> Option<u32> {
        let cell = self.board.cell(spot.x as i32, spot.y as i32)?;
        let placed = self.board.placed_at(cell)?;
        let p = &self.board.placed[placed];
        let segments = self.rules.tiles[p.tile as usize].segments.len();
        ((spot.segment as usize) < segments).then(|| p.first_element + spot.segment as u32)
    }

    /// Whether the current player may take an islander back this turn (S-3).
    pub fn may_retrieve(&self) -> bool {
        let supply = self.supply[self.current];
        supply < self.rules.spec.meeples as u8
            && (!self.rules.spec.retrieve_only_when_supply_empty || supply == 0)
    }

    /// Checks the islander taken back by a move (`retrieve`), before the tile goes down.
    pub(crate) fn check_retrieve(&self, spot: Spot, meeple: Option<u8>) -> Result<(), IllegalMove> {
        if meeple.is_some() {
            return Err(IllegalSouthSeasPlay::PlaceAndRetrieve.into());
        }
        if self.rules.spec.retrieve_only_when_supply_empty && self.supply[self.current] > 0 {
            return Err(IllegalSouthSeasPlay::RetrieveWithSupply.into());
        }
        match self.spot_element(spot) {
            Some(e) if self.features.node(e).meeple as usize == self.current => Ok(()),
            _ => Err(IllegalSouthSeasPlay::NoOwnIslander {
                x: spot.x as i32,
                y: spot.y as i32,
                segment: spot.segment,
            }
            .into()),
        }
    }

    /// Takes `player`'s islander on element `e` back into his supply (taken back by a
    /// move, or Friday's homecoming).
    pub(crate) fn take_back(&mut self, player: usize, e: u32) {
        self.features.remove_meeple(e);
        self.supply[player] += 1;
        forget_islander(&mut self.system.sea_mut().islanders[player], e);
        if !self.system.sea().watched_markets.is_empty() {
            self.system
                .sea_mut()
                .watched_markets
                .retain(|(_, _, m)| *m != e);
        }
    }

    /// Steps 3 and 4 start: evaluates what the tile at `placed` triggered: its fishing
    /// boats, the features it completed, the markets around it. Then the current player
    /// delivers (if any delivery is possible) or the turn ends.
    /// `occupied`: segments that joined a feature holding an islander (see `Joined`).
    pub(crate) fn south_seas_evaluation(
        &mut self,
        placed: usize,
        meeple: Option<u8>,
        occupied: u16,
    ) {
        let p = self.board.placed[placed];
        // Boats first (S-4): the region is evaluated, then a token covers a group. A
        // region the tile also completes then has no islander left to evaluate again.
        let mut boats = self.rules.boats[p.tile as usize];
        while boats != 0 {
            let i = boats.trailing_zeros();
            boats &= boats - 1;
            let root = self.features.find(p.first_element + i);
            self.boat(root, p.x, p.y);
        }
        // Only occupied features give wares: those the tile joined with an islander on
        // them, and the one its own islander stands on; a market gives a ship instead
        // (below). The market is masked out rather than tested in the loop, and the loop
        // asks no segment kinds: both would be branches on the drawn tile.
        let market = self.rules.monastery[p.tile as usize];
        let mut candidates =
            (occupied | meeple.map_or(0, |m| 1 << m)) & !market.map_or(0, |m| 1 << m);
        while candidates != 0 {
            let i = candidates.trailing_zeros();
            candidates &= candidates - 1;
            let root = self.features.find(p.first_element + i);
            let n = self.features.node(root);
            if n.meeple_total > 0 && self.root_complete(root) {
                self.give_wares(root, true, false, false);
            }
        }
        // Markets: this tile's own (if its merchant was just placed) and those around it.
        if market.is_some() && meeple == market {
            self.system.sea_mut().watched_markets.push((
                p.x,
                p.y,
                // Cannot fail: `meeple == market` and `market` is Some.
                p.first_element + meeple.expect("a merchant") as u32,
            ));
        }
        // Most turns no merchant stands on the board: nothing to look at.
        if !self.system.sea().watched_markets.is_empty() {
            self.complete_markets(p.x, p.y);
        }
        self.continue_turn();
    }

    /// Moves the watched markets around (x, y) that are now surrounded into
    /// `pending_markets`, in picking order.
    fn complete_markets(&mut self, x: i32, y: i32) {
        let mut watched = std::mem::take(&mut self.system.sea_mut().watched_markets);
        let mut done = std::mem::take(&mut self.system.sea_mut().pending_markets);
        debug_assert!(done.is_empty(), "the last turn handed out every ship");
        watched.retain(|&(mx, my, e)| {
            let near = (mx - x).abs() <= 1 && (my - y).abs() <= 1;
            // Cannot fail: (mx, my) is the square of a tile already placed.
            let cell = self
                .board
                .cell(mx, my)
                .expect("a played square is on the board");
            if near && self.ring_complete(cell, None) {
                done.push((self.features.node(e).meeple, e));
                false
            } else {
                true
            }
        });
        self.system.sea_mut().watched_markets = watched;
        // Several markets at once: the active player first, then clockwise (S-6).
        let players = self.rules.players();
        let current = self.current;
        done.sort_by_key(|&(pl, e)| ((pl as usize + players - current) % players, e));
        self.system.sea_mut().pending_markets = done;
    }

    /// Hands out the ships of completed markets in order, stopping when a merchant must
    /// choose among tied ships; then step 4, or the end of the turn.
    #[inline(always)]
    fn continue_turn(&mut self) {
        while let Some(&(player, e)) = self.system.sea().pending_markets.first() {
            let top = self.top_ship_slots();
            if top.len() > 1 {
                self.system.sea_mut().phase = Phase::Market;
                return;
            }
            if let Some(&slot) = top.first() {
                self.take_ship(player as usize, slot as usize, None);
            }
            self.return_islanders(e);
            self.system.sea_mut().pending_markets.remove(0);
        }
        if self.delivery_possible() || self.may_trade() {
            self.system.sea_mut().phase = Phase::Deliver;
        } else {
            self.end_south_seas_turn();
        }
    }

    /// Display slots of the face-up ships with the most points.
    fn top_ship_slots(&self) -> Vec<u8> {
        let points =
            |slot: usize| self.rules.ships[self.system.sea().display[slot] as usize].points;
        let best = (0..self.system.sea().display.len()).map(points).max();
        (0..self.system.sea().display.len())
            .filter(|&i| Some(points(i)) == best)
            .map(|i| i as u8)
            .collect()
    }

    /// The player who decides South Seas' pending decision: the merchant's owner while a
    /// market ship is chosen, the next islander's owner in a homecoming, else the player
    /// whose turn it is (`Game::decider`).
    pub(crate) fn south_seas_decider(&self) -> usize {
        match self.phase() {
            // Cannot fail: the phase is Market only while a completed market waits
            // (`continue_turn` sets it with `pending_markets` not empty).
            Phase::Market => self.system.sea().pending_markets[0].0 as usize,
            Phase::Homecoming => self.homecoming_player(),
            _ => self.current,
        }
    }

    /// South Seas' decisions open in `phase` (`Game::legal_decisions`).
    pub(crate) fn south_seas_decisions(&self, phase: Phase) -> Vec<Decision> {
        match phase {
            Phase::Place | Phase::ExtraTurn => Vec::new(),
            Phase::Deliver => std::iter::once(Decision::Deliver(None))
                .chain(
                    self.legal_deliveries()
                        .into_iter()
                        .map(|d| Decision::Deliver(Some(d))),
                )
                .chain(
                    self.legal_trades()
                        .into_iter()
                        .map(|(g, t)| Decision::Trade(g, t)),
                )
                .collect(),
            Phase::MoveFriday => self
                .friday_targets()
                .into_iter()
                .map(Decision::MoveFriday)
                .collect(),
            Phase::Homecoming => self
                .homecoming_spots()
                .into_iter()
                .map(Decision::Homecoming)
                .collect(),
            Phase::Market => self
                .top_ship_slots()
                .into_iter()
                .map(Decision::MarketShip)
                .collect(),
        }
    }

    /// Checks a South Seas or Friday decision in a game that is not over
    /// (`Game::check_decision`).
    pub(crate) fn check_south_seas_decision(&self, d: Decision) -> Result<(), IllegalMove> {
        match d {
            Decision::Deliver(d) => self.check_delivery(d),
            Decision::MarketShip(slot) => {
                if self.phase() != Phase::Market {
                    return Err(IllegalSouthSeasPlay::NotMarketPhase.into());
                }
                let top = self.top_ship_slots();
                if !top.contains(&slot) {
                    return Err(IllegalSouthSeasPlay::NotTopShip { slot, top }.into());
                }
                Ok(())
            }
            _ => self.check_friday_decision(d),
        }
    }

    /// Makes a South Seas or Friday decision `check_south_seas_decision` accepts
    /// (`Game::decide_unchecked`).
    pub(crate) fn decide_south_seas(&mut self, d: Decision) {
        match d {
            Decision::Deliver(d) => self.deliver_unchecked(d),
            Decision::MarketShip(slot) => {
                self.decisions.push((self.turn, Decision::MarketShip(slot)));
                // Cannot fail when checked: the Market phase has a pending market (see
                // `south_seas_decider`), and `slot` is one of `top_ship_slots`, so on
                // display.
                let (player, e) = self.system.sea_mut().pending_markets.remove(0);
                self.take_ship(player as usize, slot as usize, None);
                self.return_islanders(e);
                self.system.sea_mut().phase = Phase::Place;
                self.continue_turn();
            }
            _ => {
                self.decisions.push((self.turn, d));
                if !self.apply_friday_decision(d) {
                    self.next_turn();
                }
            }
        }
    }

    /// A fishing boat placed in the sea region `root` (S-4, amended): an occupied region is
    /// evaluated whether or not fish are left (the majority receives the uncovered fish,
    /// possibly none, and the islanders go home); then a token covers a group, if any fish
    /// is uncovered. An unoccupied region is left alone unless `boat_evaluates_unoccupied`.
    fn boat(&mut self, root: u32, x: i32, y: i32) {
        let n = *self.features.node(root);
        if n.meeple_total > 0 {
            let complete = self.root_complete(root);
            self.give_wares(root, complete, true, false);
        } else if !self.rules.spec.boat_evaluates_unoccupied {
            return;
        }
        if n.goods[FISH] == 0 {
            return;
        }
        let sea = self.system.sea_mut();
        if sea.tokens_left == 0 {
            return;
        }
        sea.tokens_left -= 1;
        let node = self.features.node_mut(root);
        let fish = if node.fish_pairs > 0 {
            node.fish_pairs -= 1;
            2
        } else {
            1
        };
        node.goods[FISH] -= fish;
        if self.record_events {
            self.system.sea_mut().events.push(SeaEvent::Boat {
                turn: self.turn,
                x,
                y,
                fish: fish as u8,
            });
        }
    }

    /// Gives the wares of the feature rooted at `root` to the majority of its islanders
    /// (all tied players in full) and returns them, except at the end of the game.
    pub(crate) fn give_wares(
        &mut self,
        root: u32,
        complete: bool,
        boat: bool,
        final_scoring: bool,
    ) {
        let n = *self.features.node(root);
        let (winners, wares) = feature_wares(&n);
        if winners == 0 {
            return;
        }
        let held = &mut self.system.sea_mut().wares;
        for (p, held) in held.iter_mut().enumerate().take(self.rules.players()) {
            if winners & (1 << p) != 0 {
                for w in 0..3 {
                    held[w] += wares[w];
                }
            }
        }
        if self.record_events {
            let tiles = self.squares_of(root);
            self.system.sea_mut().events.push(SeaEvent::Wares {
                turn: self.turn,
                kind: n.kind,
                players: (0..self.rules.players() as u8)
                    .filter(|p| winners & (1 << p) != 0)
                    .collect(),
                wares,
                tiles,
                complete,
                boat,
                final_scoring,
            });
        }
        if !final_scoring {
            self.return_islanders(root);
        }
    }

    fn take_ship(&mut self, player: usize, slot: usize, paid: Option<[u8; 3]>) {
        // `slot` is on display: `check_delivery` refuses others (NoSuchShip), and market
        // picks come from `top_ship_slots` (checked: NotTopShip).
        let ship = self.system.sea_mut().display.remove(slot);
        let points = self.rules.ships[ship as usize].points;
        self.scores[player] += points as i32;
        self.by_kind[player][ScoreKind::Ships as usize] += points as i32;
        self.system.sea_mut().taken.push((player as u8, ship));
        if self.record_events {
            self.system.sea_mut().events.push(SeaEvent::Ship {
                turn: self.turn,
                player: player as u8,
                ship,
                points,
                paid,
            });
        }
        self.system.sea_mut().refill();
        self.update_least_need();
    }

    /// Recomputes `SeaState::least_need` after the display changed.
    pub(crate) fn update_least_need(&mut self) {
        let sea = self.system.sea_mut();
        sea.display_version = sea.display_version.wrapping_add(1);
        sea.least_need = sea
            .display
            .iter()
            .map(|&s| self.rules.ships[s as usize].need.total() as u32)
            .min()
            .unwrap_or(u32::MAX);
    }

    /// Whether the current player can deliver to some face-up ship.
    #[inline(always)]
    fn delivery_possible(&mut self) -> bool {
        let state = self.system.south_seas_state();
        let (sea, current) = (&state.sea, self.current);
        let have = sea.wares[current];
        let discount = state.friday.discount();
        match known_affordable(sea, current, have, discount) {
            Some(slots) => slots != 0,
            None => {
                let slots = affordable_slots(&self.rules, sea, have, discount);
                let sea = self.system.sea_mut();
                sea.delivery_memo[self.current] = Some(DeliveryMemo {
                    have,
                    discount,
                    display_version: sea.display_version,
                    affordable: slots,
                });
                slots != 0
            }
        }
    }

    /// Every delivery the current player can make now (step 4), by display slot, then
    /// payment. Not delivering is always allowed too.
    pub fn legal_deliveries(&self) -> Vec<Delivery> {
        let mut out = Vec::new();
        self.for_each_delivery(|d| out.push(d));
        out
    }

    /// Calls `f` with each delivery of `legal_deliveries`, in order, without allocating.
    pub(crate) fn for_each_delivery(&self, mut f: impl FnMut(Delivery)) {
        let Some(state) = self.system.south_seas() else {
            return;
        };
        let sea = &state.sea;
        if sea.phase != Phase::Deliver {
            return;
        }
        let have = sea.wares[self.current];
        let discount = state.friday.discount();
        // Most face-up ships are out of reach: one test each (usually remembered from the
        // start of step 4) instead of a walk.
        let slots = known_affordable(sea, self.current, have, discount)
            .unwrap_or_else(|| affordable_slots(&self.rules, sea, have, discount));
        for (slot, &s) in sea.display.iter().enumerate() {
            if slots & (1 << slot) == 0 {
                continue;
            }
            for &pay in &self.rules.ship_payments[s as usize][discount as usize] {
                // Sorted by shells first: the rest needs more shells still.
                if pay[0] as u32 > have[0] {
                    break;
                }
                if pay[1] as u32 <= have[1] && pay[2] as u32 <= have[2] {
                    f(Delivery {
                        ship: slot as u8,
                        pay,
                    });
                }
            }
        }
    }

    /// Checks a delivery decision; `None` is not delivering.
    pub fn check_delivery(&self, d: Option<Delivery>) -> Result<(), IllegalMove> {
        if self.over {
            return Err(IllegalMove::GameOver);
        }
        if self.phase() != Phase::Deliver {
            return Err(IllegalSouthSeasPlay::NotDeliveryPhase.into());
        }
        let Some(d) = d else {
            return Ok(());
        };
        let Some(&ship) = self.system.sea().display.get(d.ship as usize) else {
            return Err(IllegalSouthSeasPlay::NoSuchShip {
                slot: d.ship,
                display: self.system.sea().display.len(),
            }
            .into());
        };
        let have = self.system.sea().wares[self.current];
        if (0..3).any(|w| d.pay[w] as u32 > have[w]) {
            return Err(IllegalSouthSeasPlay::MissingWares { pay: d.pay, have }.into());
        }
        let need = self.rules.ships[ship as usize].need;
        if !need.accepts(d.pay, have, self.system.friday().discount()) {
            return Err(IllegalSouthSeasPlay::WrongWares {
                pay: d.pay,
                need: need.describe(),
            }
            .into());
        }
        Ok(())
    }

    /// Step 4: delivers (or not) and ends the turn. A refused decision changes nothing.
    pub fn deliver(&mut self, d: Option<Delivery>) -> Result<(), IllegalMove> {
        self.check_delivery(d)?;
        self.deliver_unchecked(d);
        Ok(())
    }

    /// Delivers as `check_delivery` accepts; like `decide_unchecked`, a refused delivery
    /// may panic (a slot off the display) or leave the game inconsistent.
    pub fn deliver_unchecked(&mut self, d: Option<Delivery>) {
        debug_assert_eq!(self.check_delivery(d), Ok(()));
        self.decisions.push((self.turn, Decision::Deliver(d)));
        if let Some(d) = d {
            let player = self.current;
            let held = &mut self.system.sea_mut().wares[player];
            for w in 0..3 {
                held[w] -= d.pay[w] as u32;
            }
            self.take_ship(player, d.ship as usize, Some(d.pay));
        }
        self.end_south_seas_turn();
    }

    /// After step 4: the game ends after the turn in which the last ship was taken (or,
    /// through the draw, the last tile placed); otherwise the next player draws.
    #[inline(always)]
    fn end_south_seas_turn(&mut self) {
        let sea = self.system.sea_mut();
        sea.phase = Phase::Place;
        if sea.ships_gone() {
            self.tile = None;
            self.finish::<SouthSeas>();
            return;
        }
        // Friday: a week that has just ended may need decisions first.
        if self.end_friday_weeks() {
            return;
        }
        self.next_turn();
    }

    /// The next player draws.
    #[inline(always)]
    pub(crate) fn next_turn(&mut self) {
        self.current += 1;
        if self.current == self.rules.players() {
            self.current = 0;
        }
        self.system.friday_mut().traded = false;
        self.draw::<SouthSeas>();
    }

    /// Final evaluation (S-7): incomplete bridges, islands and sea regions give their
    /// wares (islanders stay on the board for inspection); markets nothing; then 1 point
    /// per 3 wares left.
    pub(crate) fn finish_south_seas(&mut self) {
        let mut roots = std::mem::take(&mut self.scratch);
        self.end_wares_roots(&mut roots);
        for &e in &roots {
            let complete = self.root_complete(e);
            self.give_wares(e, complete, false, true);
        }
        self.scratch = roots;
        for p in 0..self.rules.players() {
            let points = wares_points(self.system.sea().wares[p]);
            self.scores[p] += points;
            self.by_kind[p][ScoreKind::Wares as usize] += points;
        }
    }

    /// South Seas virtual scores (`RuleSystem::virtual_thirds`): three times the points
    /// so far, the wares held at their exact value (a finished game's wares points taken
    /// back out: it holds the wares it evaluated at the end by then), and for a game not
    /// over the wares of every unfinished occupied feature to its majority.
    pub(crate) fn sea_virtual_thirds(&self, roots: &mut Vec<u32>) -> [i32; MAX_PLAYERS] {
        let players = self.rules.players();
        let mut v = [0i32; MAX_PLAYERS];
        for p in 0..players {
            v[p] = 3 * self.scores[p] + self.system.sea().wares[p].iter().sum::<u32>() as i32;
            if self.over {
                v[p] -= 3 * self.by_kind[p][ScoreKind::Wares as usize];
            }
        }
        if self.over {
            return v;
        }
        self.end_wares_roots(roots);
        for &e in roots.iter() {
            let (winners, wares) = feature_wares(self.features.node(e));
            let total = wares.iter().sum::<u32>() as i32;
            for p in 0..players {
                if winners & (1 << p) != 0 {
                    v[p] += total;
                }
            }
        }
        v
    }

    /// The features the final evaluation gives wares for, into `roots`: only features
    /// with islanders give anything, markets nothing. Found from the islanders, each
    /// feature once, in order of its root element.
    pub(crate) fn end_wares_roots(&self, roots: &mut Vec<u32>) {
        roots.clear();
        roots.extend(
            self.system
                .sea()
                .islanders
                .iter()
                .flatten()
                .map(|e| self.features.find(*e)),
        );
        roots.sort_unstable();
        roots.dedup();
        roots.retain(|e| self.features.node(*e).kind != FeatureKind::Market);
    }
}

/// Drops element `e` from a player's islanders, keeping the others in order (the order
/// the random player draws from).
/// The display slots `player`, holding `have`, can pay for, when known without looking at
/// the ships: none when he holds fewer wares than any face-up ship needs (most turns),
/// else as remembered for these wares, discount and display.
#[inline]
fn known_affordable(sea: &SeaState, player: usize, have: [u32; 3], discount: u8) -> Option<u8> {
    let least = sea.least_need.saturating_sub(discount as u32).max(1);
    if sea.least_need == u32::MAX || have.iter().sum::<u32>() < least {
        return Some(0);
    }
    let m = sea.delivery_memo[player]?;
    ((m.have, m.discount, m.display_version) == (have, discount, sea.display_version))
        .then_some(m.affordable)
}

/// Display slots (bit per slot) whose ship a player holding `have` can pay for.
fn affordable_slots(rules: &Rules, sea: &SeaState, have: [u32; 3], discount: u8) -> u8 {
    let mut slots = 0;
    for (slot, &s) in sea.display.iter().enumerate() {
        if rules.ship_afford[s as usize][discount as usize].affordable(have) {
            slots |= 1 << slot;
        }
    }
    slots
}

fn forget_islander(islanders: &mut Vec<u32>, e: u32) {
    if let Some(i) = islanders.iter().position(|x| *x == e) {
        islanders.remove(i);
    }
}
