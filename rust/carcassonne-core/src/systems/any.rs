//! A game of any rule system: the public entry points of `Game` look up the rule system
//! once per call (`for_system!`, made from the one list of the systems in
//! `engine::system_state`) and run its monomorphised turn code (`engine::turn`, generic
//! over `RuleSystem`), as shakmaty's `VariantPosition` dispatches to one position type per
//! variant. Self-play looks the system up once per game (`Policy::run`).
//!
//! Adding a rule system: a folder under `systems/` with a type implementing
//! `engine::system::RuleSystem`, one line in `engine::system_state`'s list (which makes
//! its `SystemKind`, its `SystemState` variant and its arm of `for_system!`), and its
//! choice from the options in `Rules::kind`.

use std::sync::Arc;

use crate::data::tileset::MAX_SEGMENTS;
use crate::engine::decision::{Decision, Phase};
use crate::engine::game::{Game, IllegalMove, Move, Placement};
use crate::engine::rules::Rules;
use crate::engine::system::RuleSystem;
use crate::engine::system_state::SystemState;
use crate::rng::Rng;

pub(crate) use crate::engine::system_state::for_system;

impl Game {
    /// A game drawing exactly `deck` (tile indices of `rules.tiles`) in order, after the
    /// start tile. Records the event log.
    ///
    /// Panics if an entry of `deck` is not an index of `rules.tiles`; the deck should hold
    /// at most 4000 tiles (the board is sized for it). `Rules::deck_from_ids` gives a
    /// checked deck, and loading a record (`Game::from_record`) uses it.
    pub fn new(rules: Arc<Rules>, deck: Vec<u16>) -> Self {
        let mut g = Game::blank(rules, deck.len() + 1);
        for_system!(g.rules.kind(), S => S::init(&mut g));
        g.reset(deck.into_iter());
        g
    }

    /// A South Seas game drawing exactly `deck`, with the ships in the order `ships`
    /// (indices into the rules' ships; the first four are face up at the start).
    /// Panics unless `ships` lists every ship once (`Rules::ships_from_ids` checks ids),
    /// and on a bad deck as `Game::new` does.
    pub fn with_ships(rules: Arc<Rules>, deck: Vec<u16>, ships: Vec<u16>) -> Self {
        let friday = (0..rules.friday.len() as u8).collect();
        Game::with_orders(rules, deck, ships, friday)
    }

    /// `with_ships`, with the Friday tiles revealed in the order `friday` (indices into
    /// the rules' Friday tiles, each once). Panics unless `ships` and `friday` each list
    /// every ship or Friday tile of the rules once (`Rules::ships_from_ids` and
    /// `Rules::friday_from_ids` check ids), and on a bad deck as `Game::new` does.
    pub fn with_orders(
        rules: Arc<Rules>,
        deck: Vec<u16>,
        ships: Vec<u16>,
        friday: Vec<u8>,
    ) -> Self {
        // Checked here, once per game: later the ship order indexes `rules.ships` freely.
        let mut sorted = ships.clone();
        sorted.sort_unstable();
        assert!(
            sorted.iter().copied().eq(0..rules.ships.len() as u16),
            "a ship order lists every ship of the rules once"
        );
        let mut sorted = friday.clone();
        sorted.sort_unstable();
        assert!(
            sorted.iter().copied().eq(0..rules.friday.len() as u8),
            "a Friday order lists every Friday tile of the rules once"
        );
        let mut g = Game::new(rules, Vec::new());
        // Other rule systems have neither (and the checks above leave both empty).
        if let SystemState::SouthSeas(s) = &mut g.system {
            s.sea.pile = ships;
            s.friday.order = friday;
        }
        g.reset(deck.into_iter());
        g
    }

    /// A game whose deck is the rules' full tile set shuffled by game `game_index` of the
    /// study with root `seed`.
    pub fn shuffled(rules: Arc<Rules>, seed: u64, game_index: u64) -> Self {
        let mut g = Game::new(rules, Vec::new());
        let mut rng = Rng::for_game(seed, game_index);
        g.reset_shuffled(&mut rng);
        g.seed = Some((seed, game_index));
        g
    }

    /// Starts again with the full tile set shuffled by `rng`, reusing every buffer.
    pub fn reset_shuffled(&mut self, rng: &mut Rng) {
        for_system!(self.rules.kind(), S => self.reset_shuffled_as::<S>(rng))
    }

    /// Starts again with the given draw order, reusing every buffer. Panics on a bad deck
    /// as `Game::new` does.
    pub fn reset(&mut self, deck: impl Iterator<Item = u16>) {
        self.deck.clear();
        self.deck.extend(deck);
        for_system!(self.rules.kind(), S => self.setup::<S>())
    }

    /// Checks a move without playing it.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        for_system!(self.rules.kind(), S => self.check_as::<S>(mv))
    }

    /// Every legal move, sorted by (x, y, rotation, meeple), no meeple first.
    pub fn legal_moves(&self) -> Vec<Move> {
        for_system!(self.rules.kind(), S => self.legal_moves_as::<S>())
    }

    /// The legal moves at placement `p` of the current tile (one that fits), in
    /// `legal_moves`' order, into `out` (cleared first): the action codec lists the
    /// chosen placement's moves alone.
    pub(crate) fn moves_at(&self, p: Placement, out: &mut Vec<Move>) {
        out.clear();
        let Some(tile) = self.tile else { return };
        for_system!(self.rules.kind(), S => {
            let mut retrievable = S::retrievable(self);
            retrievable.sort_unstable();
            self.moves_at_as::<S>(tile, p, &retrievable, &mut Vec::new(), out);
        });
    }

    /// Plays a move after checking it; a refused move leaves the game unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        for_system!(self.rules.kind(), S => {
            self.check_as::<S>(mv)?;
            self.play_unchecked_as::<S>(mv);
        });
        Ok(())
    }

    /// Plays a move known to be legal (from `legal_moves` or a policy). Debug builds
    /// check it; a move `check` refuses may panic or leave the game inconsistent.
    pub fn play_unchecked(&mut self, mv: Move) {
        for_system!(self.rules.kind(), S => self.play_unchecked_as::<S>(mv))
    }

    /// Points the current player would gain immediately by placing the tile at `p`:
    /// `(without a meeple, extra gain for a meeple on segment i, legal meeple segments)`.
    /// Classic rules: in South Seas, placing a tile scores no points (features give
    /// wares), so the gains are 0 there. All zeros when the game is over or the tile does
    /// not fit at `p`.
    pub fn immediate_gains(&self, p: Placement) -> (i32, [i32; MAX_SEGMENTS], u16) {
        match self.fitting(p) {
            None => (0, [0; MAX_SEGMENTS], 0),
            Some(tile) => for_system!(self.rules.kind(), S => S::immediate_gains(self, tile, p)),
        }
    }

    /// Ends the game now, with the final scoring (`Game::end_now`).
    pub(crate) fn finish_now(&mut self) {
        for_system!(self.rules.kind(), S => self.finish::<S>())
    }
}

impl Game {
    /// The decision the game waits for: the placement, South Seas' and Friday's decisions,
    /// or the Maps extra turn. Over, a game stays in its last phase (the placement).
    #[inline(always)]
    pub fn phase(&self) -> Phase {
        match self.system.south_seas() {
            Some(s) => s.sea.phase,
            None if self.extra_turn_offered => Phase::ExtraTurn,
            None => Phase::Place,
        }
    }

    /// The player who makes the pending decision: in South Seas the merchant's owner while
    /// a market ship is chosen and the next islander's owner in a homecoming, else the
    /// player whose turn it is (who also decides on his extra turn).
    pub fn decider(&self) -> usize {
        match self.system.south_seas() {
            Some(_) => self.south_seas_decider(),
            None => self.current,
        }
    }

    /// The decisions open now (empty in the "place" phase, where `legal_moves` applies,
    /// and once the game is over). The extra turn: declining, then taking.
    pub fn legal_decisions(&self) -> Vec<Decision> {
        if self.over {
            return Vec::new();
        }
        match self.phase() {
            Phase::Place => Vec::new(),
            Phase::ExtraTurn => vec![Decision::ExtraTurn(false), Decision::ExtraTurn(true)],
            phase => self.south_seas_decisions(phase),
        }
    }

    /// Checks a decision; a refused one changes nothing.
    pub fn check_decision(&self, d: Decision) -> Result<(), IllegalMove> {
        if self.over {
            return Err(IllegalMove::GameOver);
        }
        match (d, self.phase()) {
            (Decision::ExtraTurn(_), Phase::ExtraTurn) => Ok(()),
            (Decision::ExtraTurn(_), _) => Err(IllegalMove::NoExtraTurn),
            (_, Phase::ExtraTurn) => Err(IllegalMove::ExtraTurnPending),
            _ => self.check_south_seas_decision(d),
        }
    }

    /// Makes a decision (after checking it).
    pub fn decide(&mut self, d: Decision) -> Result<(), IllegalMove> {
        self.check_decision(d)?;
        self.decide_unchecked(d);
        Ok(())
    }

    /// Makes a decision `check_decision` accepts (from `legal_decisions` or a policy).
    /// Debug builds check it; a refused one may panic or leave the game inconsistent.
    pub fn decide_unchecked(&mut self, d: Decision) {
        debug_assert_eq!(self.check_decision(d), Ok(()));
        match d {
            Decision::ExtraTurn(take) => {
                for_system!(self.rules.kind(), S => self.decide_extra_turn::<S>(take))
            }
            _ => self.decide_south_seas(d),
        }
    }
}
