//! The rule-system trait: what the shared turn loop (`engine::turn`) asks of a rule
//! system. Each system is a zero-sized type implementing it in its folder under
//! `systems/` (`Classic`, `Ferries`, `SouthSeas`); the turn loop is generic over it and
//! compiled once per system, so a system's hot loop carries no other system's branches
//! (shakmaty's `Position` with one type per variant). Which system a game plays is looked
//! up once per public call (`systems::for_system!`, the one registration of the systems),
//! and once per whole game in self-play.
//!
//! A game holds its system's own state in one field, `Game::system`
//! (`engine::system_state::SystemState`: one variant per system, each holding only its
//! own state from its folder); a system's hooks are the only turn-loop code that touches
//! it.

use crate::engine::decision::Spot;
use crate::engine::game::{EndScratch, FeatureCounts, Game, IllegalMove, Joined, Move, Placement};
use crate::engine::system_state::SystemKind;
use crate::limits::MAX_PLAYERS;
use crate::rng::Rng;
use crate::systems::ferries::state::{FerryMoves, Movable};
use crate::systems::south_seas::errors::IllegalSouthSeasPlay;

/// A rule system's part of the turn. Every hook has the classic default except the end of
/// the turn and the final scoring, which each system says.
pub(crate) trait RuleSystem: Sized + 'static {
    /// The rules this system plays (checked against the game's in debug builds).
    const KIND: SystemKind;
    /// The union-find lists the elements meeples stand on (`Features::list_occupied`), so
    /// the classic end-of-game awards visit the occupied features alone; South Seas,
    /// which evaluates into wares and keeps its own list of islanders, does without.
    const LISTS_OCCUPIED: bool = true;
    /// Joining a tile reports which features already hold a meeple (`Joined::occupied`):
    /// South Seas evaluates only those.
    const WATCHES_OCCUPIED: bool = false;
    /// Joining a tile reports the sides whose road leads to a ferry (`Joined::ferry_roads`):
    /// The Ferries walks only from those.
    const WATCHES_FERRIES: bool = false;

    /// A new game's own fixed orders before any shuffle (South Seas: the ship pile and the
    /// Friday tiles in file order).
    fn init(_game: &mut Game) {}

    /// Shuffles the system's own piles after the deck, from the same random stream.
    fn shuffle(_game: &mut Game, _rng: &mut Rng) {}

    /// Clears the system's state for a new game, before the start tile is placed.
    fn reset(_game: &mut Game) {}

    /// Reshuffles what of the system's own the player to move cannot know (the face-down
    /// ships, the unrevealed Friday tiles), after the undrawn tiles (`Game::determinize`).
    fn shuffle_hidden(_game: &mut Game, _rng: &mut Rng) {}

    /// Puts what of the system's own the player to move cannot know in a fixed order
    /// (sorted), after the undrawn tiles (`Game::forget_hidden_order`).
    fn sort_hidden(_game: &mut Game) {}

    /// Refuses any move while a decision other than the placement is pending.
    fn check_phase(_game: &Game) -> Result<(), IllegalMove> {
        Ok(())
    }

    /// Whether the decider has a decision other than placing the tile (`Game::decide`):
    /// by default the Maps extra turn, offered on a map board only.
    #[inline(always)]
    fn decision_pending(game: &Game) -> bool {
        game.extra_turn_offered
    }

    /// Checks a move's `retrieve` part (an islander taken back instead of placed).
    fn check_retrieve(_game: &Game, _spot: Spot, _meeple: Option<u8>) -> Result<(), IllegalMove> {
        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NotSouthSeas))
    }

    /// Checks a move's ferry parts (the new ferry of a lake tile, the ferry moves) for
    /// `tile` placed at `cell`; a system without ferries refuses any
    /// (`Game::refuse_ferry_parts`).
    fn check_ferry_parts(game: &Game, mv: Move, _cell: u32, tile: u16) -> Result<(), IllegalMove> {
        game.refuse_ferry_parts(mv, tile)
    }

    /// Takes the current player's islander on element `e` back (a move's `retrieve`
    /// part, which only a system whose `check_retrieve` accepts it plays).
    #[inline(always)]
    fn take_back(_game: &mut Game, _e: u32) {
        debug_assert!(false, "{:?} takes nothing back", Self::KIND);
    }

    /// The islanders the current player may take back instead of placing one, as listed
    /// with every placement by `legal_moves`.
    fn retrievable(_game: &Game) -> Vec<Spot> {
        Vec::new()
    }

    /// Whether placements have choices beyond the meeple (`placement_choices`); when not,
    /// listing the moves asks nothing and allocates nothing per placement.
    const HAS_PLACEMENT_CHOICES: bool = false;

    /// Every way to make the choices that go with placement `p` beyond the meeple (The
    /// Ferries: the new ferry and the ferry moves), as `legal_moves` lists them.
    fn placement_choices(_game: &Game, _p: Placement) -> Vec<(Option<(u8, u8)>, FerryMoves)> {
        vec![(None, FerryMoves::NONE)]
    }

    /// The ferry choices placement `p` of `tile` opens, known before it is played: the
    /// lake tile, if it is one, and the ferries it lets move (The Ferries); None for a
    /// system without them. A player choosing a whole move asks this; self-play asks
    /// `choose_after_placing` instead, from the lookups the placement makes.
    fn ferry_options(_game: &Game, _tile: u16, _p: Placement) -> Option<(Option<u16>, Movable)> {
        None
    }

    /// Self-play: the choices that follow the placement of `joined`'s tile, asked of
    /// `choose` (given the lake tile placed, if it is one, and the ferries it lets move)
    /// and written into `mv`. Nothing to choose by default.
    #[inline(always)]
    fn choose_after_placing(
        _game: &Game,
        _mv: &mut Move,
        _joined: &Joined,
        _choose: impl FnOnce(&Game, Option<u16>, &Movable) -> (Option<(u8, u8)>, FerryMoves),
    ) {
    }

    /// Keeps track of the current player's meeple just placed on element `e`.
    #[inline(always)]
    fn on_meeple_placed(_game: &mut Game, _e: u32) {}

    /// The rest of the turn after the tile and its meeple: scoring, and the next player
    /// and tile (or the system's next decision).
    fn end_turn(game: &mut Game, mv: Move, joined: &Joined);

    /// Final scoring, once the game is over.
    fn finish(game: &mut Game);

    /// Drops the decisions pending when a game is ended early (`Game::end_now`).
    fn drop_pending(_game: &mut Game) {}

    /// Each player's score if the game ended now, in thirds of a point
    /// (`Game::virtual_thirds` says what it counts); classic: the points so far and the
    /// end-of-game awards of every unfinished feature.
    fn virtual_thirds(game: &Game, s: &mut EndScratch) -> [i32; MAX_PLAYERS] {
        let (roots, mut walk) = s.split();
        Self::virtual_thirds_counted(game, roots, &mut walk)
    }

    /// `virtual_thirds` with the features' counts from `counts` (`roots`: a buffer).
    fn virtual_thirds_counted(
        game: &Game,
        roots: &mut Vec<u32>,
        counts: &mut impl FeatureCounts,
    ) -> [i32; MAX_PLAYERS] {
        game.classic_virtual_thirds(roots, counts)
    }

    /// Points the current player would gain at once by placing tile `tile` (which fits)
    /// at `p`: `(without a meeple, extra gain for a meeple on segment i, legal meeple
    /// segments)`.
    fn immediate_gains(
        game: &Game,
        tile: u16,
        p: Placement,
    ) -> (i32, [i32; crate::data::tileset::MAX_SEGMENTS], u16) {
        game.immediate_gains_unchecked(tile, p)
    }
}
