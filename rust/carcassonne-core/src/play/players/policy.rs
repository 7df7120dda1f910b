//! The built-in players: uniform random over legal actions, and greedy (the action after
//! which the player leads the best opponent by the most, in virtual score: the score if
//! the game ended now, `Game::virtual_thirds`). Both draw only from the random stream
//! they are handed.
//!
//! Greedy sees the end-of-game value of unfinished features on every turn, not only on
//! the last one: with the points of the turn alone, the last tile of a game was the only
//! move that counted a meeple on an unfinished feature, and the player who placed it won
//! far more often. How the values are found without playing each action:
//! `greedy`. Between the two, the greedy player that takes the random player's action
//! with a given chance: `greedy_randomness`.

pub mod greedy;
pub mod greedy_randomness;

use serde::{Deserialize, Serialize};

use crate::board::grid::OpenSquare;
use crate::engine::decision::{Decision, Delivery, Phase};
use crate::engine::game::{Game, Move, Placement};
use crate::play::action::Action;
use crate::play::players::{Player, PlayerError, Scratch};
use crate::rng::Rng;
use crate::systems::any::for_system;
use crate::systems::ferries::state::{FerryMove, FerryMoves, Movable, lake_ends, pairs};
use greedy::{GreedyValues, for_each_decision_value, greedy_decision, greedy_move};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Uniform over the full set of legal moves (placement and meeple choice jointly).
    Random,
    /// The action after which the decider's virtual score (the score if the game ended
    /// now: completed features as scored, unfinished ones at their end-of-game value,
    /// fields, goods majorities, South Seas wares at a third of a point) exceeds the best
    /// opponent's by the most; ties uniform. Every decision, in every rule system
    /// (placements with their meeple, islander and ferry choices, deliveries, trades,
    /// market ships, Friday's moves, homecomings).
    Greedy,
}

impl Policy {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "random" => Some(Policy::Random),
            "greedy" => Some(Policy::Greedy),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
        }
    }

    /// Chooses a move for the current player in the "place" phase (other South Seas
    /// decisions: `choose_decision`). `buf` is scratch space reused between calls.
    /// Like the other choosers, it trusts the game's state: it needs the "place" phase of
    /// a game that is not over and may panic otherwise (self-play asks only then).
    pub fn choose_move(self, game: &Game, rng: &mut Rng, buf: &mut Vec<Placement>) -> Move {
        debug_assert_eq!(
            game.phase(),
            Phase::Place,
            "choose_decision decides other phases"
        );
        for_system!(game.rules().kind(), S => self.choose_move_as::<S>(game, rng, buf))
    }

    /// `choose_move` in a game of rule system `S`.
    fn choose_move_as<S: GreedyValues>(
        self,
        game: &Game,
        rng: &mut Rng,
        buf: &mut Vec<Placement>,
    ) -> Move {
        if self == Policy::Greedy {
            return greedy_move::<S>(game, rng, buf);
        }
        let c = if game.board().is_map() {
            self.choose_placement::<true>(game, rng, buf)
        } else {
            self.choose_placement::<false>(game, rng, buf)
        };
        let p = c.placement;
        let mut mv = base_move(game, c);
        // Cannot fail: `random_placement` found the tile already.
        let tile = game.tile().expect("game not over");
        if let Some((lake, movable)) = S::ferry_options(game, tile, p) {
            (mv.ferry, mv.ferry_moves) = choose_ferries(game, lake, &movable, rng);
        }
        mv
    }

    /// Chooses and plays an action for the decider: in the "place" phase the same move as
    /// `choose_move` with the same random stream, but the ferry choices are made once the
    /// tile is down, from the board lookups the placement has just made (the self-play
    /// fast path). Does nothing once the game is over; the action is applied unchecked
    /// (it is legal by construction).
    pub fn step(self, game: &mut Game, rng: &mut Rng, buf: &mut Vec<Placement>) {
        self.run(game, rng, buf, true)
    }

    /// `step` for a game of rule system `S` (`Policy::run` looks it up).
    #[inline(always)]
    fn step_as<S: GreedyValues>(self, game: &mut Game, rng: &mut Rng, buf: &mut Vec<Placement>) {
        if S::decision_pending(game) {
            let d = self.choose_decision(game, rng);
            game.decide_unchecked(d);
            return;
        }
        let c = if game.board().is_map() {
            self.choose_placement::<true>(game, rng, buf)
        } else {
            self.choose_placement::<false>(game, rng, buf)
        };
        let mv = base_move(game, c);
        game.play_choosing::<S>(mv, c.placement.cell, c.retrieve, |game, lake, movable| {
            // The greedy move's ferry choices were made with the rest of it.
            if self == Policy::Greedy {
                return greedy_ferries();
            }
            choose_ferries(game, lake, movable, rng)
        });
    }

    /// Plays the decider's actions with `step` until the game is over, or (`once`) just
    /// one, looking the rule system up once.
    pub fn run(self, game: &mut Game, rng: &mut Rng, buf: &mut Vec<Placement>, once: bool) {
        for_system!(game.rules().kind(), S => self.run_as::<S>(game, rng, buf, once))
    }

    /// `run` for a game of rule system `S`. The one function that inlines `step`: each more
    /// inlined copy made the compiler call `random_placement` out of line (+2,500
    /// instructions per random base game, callgrind), while the `once` test costs two
    /// instructions per action.
    #[inline(never)]
    fn run_as<S: GreedyValues>(
        self,
        game: &mut Game,
        rng: &mut Rng,
        buf: &mut Vec<Placement>,
        once: bool,
    ) {
        while !game.is_over() {
            self.step_as::<S>(game, rng, buf);
            if once {
                break;
            }
        }
    }

    /// The random player's placement and meeple choice (the greedy player chooses whole
    /// moves, `greedy_placement`, before this is reached). Kept as the one out-of-line call
    /// of the random loop, with the signature it always had: the random player's
    /// instruction count depends on how this is compiled. `ON_MAP`: the board is a map's
    /// (see `Board::across`), decided by the caller once per move, so the open grid's
    /// instance carries no map code.
    #[inline(never)]
    fn choose_placement<const ON_MAP: bool>(
        self,
        game: &Game,
        rng: &mut Rng,
        buf: &mut Vec<Placement>,
    ) -> Choice {
        match self {
            Policy::Random => random_placement::<ON_MAP>(game, rng),
            Policy::Greedy => greedy_placement(game, rng, buf),
        }
    }

    /// A South Seas decision after the placement. Random: uniform over the listed
    /// decisions (in step 4: not delivering, each delivery and, with Friday's trading, each
    /// swap). Greedy: the best lead in virtual score after it (`Policy::Greedy`), ties
    /// uniform. Needs a pending decision (a phase other than "place", game not over):
    /// panics otherwise, as there is nothing to choose from.
    pub fn choose_decision(self, game: &Game, rng: &mut Rng) -> Decision {
        match (self, game.phase()) {
            // The random player's arms keep the order they always had (the greedy
            // player's first): the random loop's branches stay as they were.
            (Policy::Greedy, Phase::Deliver) => greedy_decision(game, rng),
            (Policy::Random, Phase::Deliver) => random_step_four(game, rng),
            (Policy::Greedy, _) => greedy_decision(game, rng),
            // The same draws as from `legal_decisions`, without listing.
            // Cannot fail: Friday moves after week 7 on, when all 6 Friday tiles are
            // revealed, so 5 are targets (n > 0 and k < n).
            (_, Phase::MoveFriday) => {
                let n = game.friday_targets_iter().count();
                let k = rng.below(n as u32) as usize;
                Decision::MoveFriday(game.friday_targets_iter().nth(k).expect("k < n"))
            }
            // Cannot fail: a homecoming lists only players with an islander on the board,
            // and each takes back only his own (n > 0 and k < n).
            (_, Phase::Homecoming) => {
                let player = game.decider();
                let n = game.islanders_of(player).count();
                let k = rng.below(n as u32) as usize;
                let e = game.islanders_of(player).nth(k).expect("k < n");
                Decision::Homecoming(game.spot_of(e))
            }
            // Maps: take the extra turn or not, evens.
            (_, Phase::ExtraTurn) => Decision::ExtraTurn(rng.below(2) == 1),
            // A market pick: at least two tied ships. (In the "place" phase, or once the
            // game is over, the list is empty and this panics: see the doc comment.)
            _ => {
                let all = game.legal_decisions();
                all[rng.below(all.len() as u32) as usize]
            }
        }
    }

    /// South Seas step 4 for the current player: random is uniform over not delivering
    /// and every legal delivery; greedy takes the best lead in virtual score (a ship's
    /// points against the wares paid, a third of a point each; ties uniform).
    pub fn choose_delivery(self, game: &Game, rng: &mut Rng) -> Option<Delivery> {
        let all = game.legal_deliveries();
        match self {
            Policy::Random => {
                let k = rng.below(all.len() as u32 + 1) as usize;
                (k > 0).then(|| all[k - 1])
            }
            Policy::Greedy => {
                // The best lead among not delivering and the deliveries (trades aside).
                let mut best = i32::MIN;
                let mut ties = 0u32;
                let mut chosen = None;
                for_each_decision_value(game, |d, v| {
                    let Decision::Deliver(d) = d else { return };
                    if v > best {
                        (best, ties, chosen) = (v, 1, d);
                    } else if v == best {
                        ties += 1;
                        if rng.below(ties) == 0 {
                            chosen = d;
                        }
                    }
                });
                chosen
            }
        }
    }
}

impl Player for Policy {
    fn name(&self) -> String {
        Policy::name(*self).to_string()
    }

    fn choose(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<Action, PlayerError> {
        Ok(if game.phase() == Phase::Place {
            Action::Place(self.choose_move(game, rng, &mut scratch.placements))
        } else {
            Action::Decide(self.choose_decision(game, rng))
        })
    }

    #[inline]
    fn play(
        &self,
        game: &mut Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<(), PlayerError> {
        self.run(game, rng, &mut scratch.placements, true);
        Ok(())
    }

    fn as_policy(&self) -> Option<Policy> {
        Some(*self)
    }
}

/// The random step-4 decision: the same draw as picking from `Game::legal_decisions` (not
/// delivering, each delivery, each swap), from a list on the stack (walked again in the
/// rare case of more deliveries than it holds).
fn random_step_four(game: &Game, rng: &mut Rng) -> Decision {
    const HELD: usize = 64;
    let mut deliveries = [Delivery::default(); HELD];
    let mut n = 0;
    game.for_each_delivery(|d| {
        if n < HELD {
            deliveries[n] = d;
        }
        n += 1;
    });
    let mut trades = [(0u8, 0u8); 6];
    let mut t = 0;
    game.for_each_trade(|give, take| {
        trades[t] = (give, take);
        t += 1;
    });
    let k = rng.below((1 + n + t) as u32) as usize;
    if k == 0 {
        return Decision::Deliver(None);
    }
    if k > n {
        let (give, take) = trades[k - 1 - n];
        return Decision::Trade(give, take);
    }
    if k <= HELD {
        return Decision::Deliver(Some(deliveries[k - 1]));
    }
    let mut i = 0;
    let mut chosen = None;
    game.for_each_delivery(|d| {
        i += 1;
        if i == k {
            chosen = Some(d);
        }
    });
    Decision::Deliver(chosen)
}

/// A placement with its islander (meeple) choice.
#[derive(Clone, Copy, Debug)]
struct Choice {
    placement: Placement,
    meeple: Option<u8>,
    /// South Seas: the element of the islander taken back.
    retrieve: Option<u32>,
}

impl Choice {
    fn new(placement: Placement, meeple: Option<u8>) -> Self {
        Choice {
            placement,
            meeple,
            retrieve: None,
        }
    }
}

fn base_move(game: &Game, c: Choice) -> Move {
    let (x, y) = game.board().xy(c.placement.cell);
    Move {
        retrieve: c.retrieve.map(|e| game.spot_of(e)),
        ..Move::place(x, y, c.placement.rotation, c.meeple)
    }
}

/// The Ferries choices, made uniformly at random by both policies: where the new ferry of
/// `lake` (the tile being placed, if it is a lake tile) goes, each pair of road ends alike,
/// and, for each movable ferry in (x, y) order, staying or each other pair alike.
fn choose_ferries(
    game: &Game,
    lake: Option<u16>,
    movable: &Movable,
    rng: &mut Rng,
) -> (Option<(u8, u8)>, FerryMoves) {
    let ferry = lake.map(|tile| random_pair(lake_ends(game.rules(), tile), None, rng));
    let mut moves = FerryMoves::NONE;
    let mut order = [(0i32, 0i32, 0usize); crate::systems::ferries::state::MAX_FERRY_MOVES];
    for (slot, f) in order.iter_mut().zip(movable.as_slice()) {
        let q = &game.board().placed[game.ferries()[*f].placed as usize];
        *slot = (q.x, q.y, *f);
    }
    let order = &mut order[..movable.len];
    order.sort_unstable();
    for &mut (fx, fy, f) in order {
        let link = game.ferries()[f];
        let lake = game.board().placed[link.placed as usize].tile;
        let ends = lake_ends(game.rules(), lake);
        // Staying is one option among (pairs - 1) moves.
        let n = pairs(ends).count() as u32;
        if rng.below(n) == 0 {
            continue;
        }
        let (a, b) = random_pair(ends, Some((link.a, link.b)), rng);
        moves.push(FerryMove {
            x: fx as i16,
            y: fy as i16,
            a,
            b,
        });
    }
    (ferry, moves)
}

/// A uniformly drawn pair of the given road ends, other than `except`.
fn random_pair(ends: u16, except: Option<(u8, u8)>, rng: &mut Rng) -> (u8, u8) {
    // Room for every pair: a lake's road ends sit at side centres (`parse_tileset`), so a
    // lake has at most 4 ends and 6 pairs.
    let mut all = [(0u8, 0u8); 16];
    let mut n = 0;
    for p in pairs(ends) {
        if Some(p) != except {
            all[n] = p;
            n += 1;
        }
    }
    all[rng.below(n as u32) as usize]
}

/// Uniform over all (placement, meeple option) pairs without listing them: draw a legal
/// placement uniformly (on the open grid an open square and a rotation, redrawn until the
/// rotation fits; on a map the k-th of the board's counted placements; symmetric tiles
/// fit only at their canonical rotations), then an option index in
/// `0..=segments`; if that option does not exist, start again. Each attempt picks every
/// legal (placement, option) pair with the same chance, so the accepted move is exactly
/// uniform over the joint set, and meeple options are computed only for drawn placements.
/// `ON_MAP`: the board is a map's (see `Board::across`).
fn random_placement<const ON_MAP: bool>(game: &Game, rng: &mut Rng) -> Choice {
    if ON_MAP {
        // On a map, where most squares fit few tiles: the k-th of the counted placements
        // (one draw and a walk over the squares).
        random_choice::<true>(game, rng, map_placement)
    } else {
        // On the open grid: square and rotation redrawn until they fit (about four draws
        // a move, cheaper than the walk).
        random_choice::<false>(game, rng, |game, _, legal, rng| {
            let open = &game.board().open;
            let squares = open.len() as u32;
            loop {
                let r = rng.below(squares * 4);
                let square = open[(r >> 2) as usize];
                let rotation = (r & 3) as u8;
                if legal[square.demand as usize] & (1 << rotation) != 0 {
                    break (square, rotation);
                }
            }
        })
    }
}

/// `random_placement` with `draw` drawing a uniform legal placement of the tile.
#[inline(always)]
fn random_choice<const ON_MAP: bool>(
    game: &Game,
    rng: &mut Rng,
    mut draw: impl FnMut(&Game, u16, &[u8; 256], &mut Rng) -> (OpenSquare, u8),
) -> Choice {
    // Cannot fail while the game is not over (the precondition of every chooser).
    let tile = game.tile().expect("game not over");
    let rules = game.rules();
    let player = game.current_player();
    // Counted without branches: the supply changes from turn to turn in South Seas.
    let supply = game.supply()[player] as u32;
    let meeple_options = rules.tiles[tile as usize].segments.len() as u32 * (supply > 0) as u32;
    // South Seas: each islander the player may take back is one more option
    // (`Game::may_retrieve`: any on the board, and with the English reading only with an
    // empty supply).
    let retrievable = if rules.takes_back {
        let may = !rules.spec.retrieve_only_when_supply_empty || supply == 0;
        (rules.spec.meeples - supply) * may as u32
    } else {
        0
    };
    debug_assert_eq!(retrievable > 0, rules.takes_back && game.may_retrieve());
    let options_bound = 1 + meeple_options + retrievable;
    let legal = rules.legal_row(tile);
    loop {
        // A uniformly drawn legal placement ...
        let (square, rotation) = draw(game, tile, legal, rng);
        // ... then a uniformly drawn option index; a missing option restarts both draws.
        let p = Placement {
            cell: square.cell,
            rotation,
        };
        let k = rng.below(options_bound);
        if k == 0 {
            return Choice::new(p, None);
        }
        if k > meeple_options {
            // Cannot fail: k - 1 - meeple_options < retrievable = islanders on the board
            // (every islander not in the supply stands on the board, listed once).
            let e = game
                .islanders_of(player)
                .nth((k - 1 - meeple_options) as usize)
                .expect("islanders on the board");
            return Choice {
                retrieve: Some(e),
                ..Choice::new(p, None)
            };
        }
        let seg = (k - 1) as u8;
        // A segment touching no placed neighbour is a feature of its own, free if a
        // meeple may stand on it at all; only the others need the full check.
        let neighbours = (0..4).fold(0u8, |m, side| {
            m | ((((square.demand >> (2 * side)) & 3 != 0) as u8) << side)
        });
        let alone = rules.segment_sides[tile as usize * 4 + rotation as usize][seg as usize]
            & neighbours
            == 0;
        let free = if alone {
            rules.meeple_segments[tile as usize] & (1 << seg) != 0
        } else {
            // A fitting placement (drawn from the legal rotations) and a segment of the
            // tile (seg < segments): the unchecked form is safe.
            game.meeple_allowed_on::<ON_MAP>(tile, p, seg)
        };
        if free {
            return Choice::new(p, Some(seg));
        }
    }
}

/// A uniformly drawn legal placement of `tile` on a map board, from the board's count of
/// its placements. Apart from `random_placement`, whose open-grid loop compiled with
/// this inlined kept the generator's state in memory (+1.7% instructions per base game).
#[inline(never)]
fn map_placement(game: &Game, tile: u16, legal: &[u8; 256], rng: &mut Rng) -> (OpenSquare, u8) {
    // Cannot fail: a map board counts every deck tile's placements.
    let total = game
        .board()
        .fit_count(tile)
        .expect("a map board counts placements") as u32;
    // A drawn tile has at least one placement (the draw discards the others).
    nth_placement(&game.board().open, legal, total, rng.below(total))
}

/// The `k`-th of a tile's `total` legal placements over the open squares `open`, in
/// their order and, on a square, by rotation (`legal`: the tile's legality row). The
/// walk starts from the nearer end, so it looks at a quarter of the squares on average.
#[inline]
fn nth_placement(open: &[OpenSquare], legal: &[u8; 256], total: u32, k: u32) -> (OpenSquare, u8) {
    // Distinct rotations per legality mask (4 bits), without the POPCNT instruction,
    // which the baseline x86-64 target lacks.
    const ROTATIONS: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
    let fits = |square: &OpenSquare| ROTATIONS[legal[square.demand as usize] as usize & 15] as u32;
    // The k-th set bit of a square's rotations.
    let rotation = |square: &OpenSquare, k: u32| {
        let mut mask = legal[square.demand as usize];
        for _ in 0..k {
            mask &= mask - 1;
        }
        mask.trailing_zeros() as u8
    };
    if k < total / 2 {
        let mut k = k;
        for square in open {
            let n = fits(square);
            if k < n {
                return (*square, rotation(square, k));
            }
            k -= n;
        }
    } else {
        // The same placement counted from the last one.
        let mut k = total - 1 - k;
        for square in open.iter().rev() {
            let n = fits(square);
            if k < n {
                return (*square, rotation(square, n - 1 - k));
            }
            k -= n;
        }
    }
    unreachable!("k is below the number of placements")
}

/// The greedy move as a placement with its islander choice; its ferry choices are kept
/// for `greedy_ferries` (`step` asks for them once the tile is down).
#[inline(never)]
fn greedy_placement(game: &Game, rng: &mut Rng, buf: &mut Vec<Placement>) -> Choice {
    let mv = for_system!(game.rules().kind(), S => greedy_move::<S>(game, rng, buf));
    GREEDY_FERRIES.with(|f| f.set((mv.ferry, mv.ferry_moves)));
    Choice {
        placement: Placement {
            // Cannot fail: the move is on the board (from `placements_unchecked`).
            cell: game.board().cell(mv.x, mv.y).expect("on the board"),
            rotation: mv.rotation,
        },
        meeple: mv.meeple,
        retrieve: mv.retrieve.and_then(|s| game.spot_element(s)),
    }
}

thread_local! {
    /// The ferry choices of the last greedy move of this thread.
    static GREEDY_FERRIES: std::cell::Cell<(Option<(u8, u8)>, FerryMoves)> =
        const { std::cell::Cell::new((None, FerryMoves::NONE)) };
}

/// The ferry choices of the greedy move `greedy_placement` just chose.
#[inline(never)]
fn greedy_ferries() -> (Option<(u8, u8)>, FerryMoves) {
    GREEDY_FERRIES.with(|f| f.get())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::rules::{DataSource, Rules, RulesSpec};

    /// More deliveries than `random_step_four` keeps on the stack (four "any 8" ships and
    /// plenty of wares: 4 x 45): the walk that takes over still draws exactly what a pick
    /// from `legal_decisions` draws.
    #[test]
    fn random_step_four_beyond_its_stack_list() {
        let mut ships = String::from("name = \"many-payments\"\n");
        for i in 0..5 {
            ships.push_str(&format!(
                "\n[[ships]]\nid = \"s{i}\"\npoints = 3\nneeds = \"any 8\"\n"
            ));
        }
        let rules = Arc::new(
            Rules::new(RulesSpec {
                ships: DataSource::File {
                    path: "many-payments.toml".into(),
                    toml: ships,
                },
                ..RulesSpec::south_seas(2)
            })
            .unwrap(),
        );
        let deck = rules.full_deck.clone();
        let mut game = Game::with_ships(Arc::clone(&rules), deck, (0..5).collect());
        let player = game.current_player();
        game.system.sea_mut().wares[player] = [8, 8, 8];
        game.system.sea_mut().phase = Phase::Deliver;
        let listed = game.legal_decisions();
        assert_eq!(listed.len(), 1 + 4 * 45);
        let mut beyond = 0;
        for seed in 0..400 {
            let mut rng = Rng::for_game(seed, 0);
            let expected = listed[rng.clone().below(listed.len() as u32) as usize];
            assert_eq!(random_step_four(&game, &mut rng), expected);
            if listed.iter().position(|d| *d == expected).unwrap() > 64 {
                beyond += 1;
            }
        }
        assert!(beyond > 0, "the walk beyond the stack list was drawn");
    }
}
