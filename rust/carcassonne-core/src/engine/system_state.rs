//! What a game holds of its rule system's own, beside the shared board, supplies and
//! scores: one variant per system, each holding only its own state from its folder
//! (`systems/<system>/state.rs`). A classic game holds nothing more: no South Seas state
//! is made, reset or copied for it. The variant is chosen once, from the rules
//! (`Rules::kind`), when the game is made, and never changes: a system's code reaches its
//! own state through the accessors below, which name the one variant they expect.
//!
//! South Seas' state is held in place, not boxed: behind a pointer, each access costs a
//! load more, and a random South Seas game took 1.1% more instructions than in place
//! (121,717 against 120,432 per game, `tools/costs.py`, 2026-12-03). The price is the
//! enum's size in every game (that of South Seas' state, as before it moved here).

use crate::engine::rules::SystemKind;
use crate::systems::ferries::state::FerryLink;
use crate::systems::south_seas::state::{FridayState, SeaState};

/// The state of the rule system a game plays (`Game::system`).
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // in place on purpose: see the module's comment
pub(crate) enum SystemState {
    /// Classic Carcassonne (with its expansions and the Maps boards): nothing of its own.
    Classic,
    /// The Ferries: the ferries on the board.
    Ferries(Vec<FerryLink>),
    /// Carcassonne: South Seas, with Friday's part (empty when Friday is not played).
    SouthSeas(SouthSeasState),
}

/// South Seas' own state: wares, ships, boats and the phase of the turn, and Friday's.
#[derive(Debug, Default)]
pub(crate) struct SouthSeasState {
    pub(crate) sea: SeaState,
    pub(crate) friday: FridayState,
}

crate::clone::clone_by_field!(SouthSeasState { sea, friday });

impl Clone for SystemState {
    fn clone(&self) -> Self {
        match self {
            SystemState::Classic => SystemState::Classic,
            SystemState::Ferries(f) => SystemState::Ferries(f.clone()),
            SystemState::SouthSeas(s) => SystemState::SouthSeas(s.clone()),
        }
    }

    /// A copy into a game of the same system reuses its buffers (`engine::copy`).
    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (SystemState::Ferries(f), SystemState::Ferries(g)) => f.clone_from(g),
            (SystemState::SouthSeas(s), SystemState::SouthSeas(t)) => s.clone_from(t),
            (SystemState::Classic, SystemState::Classic) => {}
            (this, _) => *this = source.clone(),
        }
    }
}

/// Names the variant a system's code expects: reached only by that system's code, in a
/// game of that system (the variant follows the rules, which a game never changes).
#[cold]
#[inline(never)]
fn wrong_system(expected: &str) -> ! {
    unreachable!("the state of {expected} asked of a game of another rule system")
}

impl SystemState {
    /// A new game's state for rule system `kind`.
    pub(crate) fn new(kind: SystemKind) -> Self {
        match kind {
            SystemKind::Classic => SystemState::Classic,
            SystemKind::Ferries => SystemState::Ferries(Vec::new()),
            SystemKind::SouthSeas => SystemState::SouthSeas(SouthSeasState::default()),
        }
    }

    /// South Seas' state, if the game plays it.
    #[inline]
    pub(crate) fn south_seas(&self) -> Option<&SouthSeasState> {
        match self {
            SystemState::SouthSeas(s) => Some(s),
            _ => None,
        }
    }

    /// Empties the system's own event log (South Seas' wares, ships and boats).
    pub(crate) fn clear_events(&mut self) {
        if let SystemState::SouthSeas(s) = self {
            s.sea.events.clear();
        }
    }

    /// South Seas' whole state, its sea and Friday's (its code only).
    #[inline(always)]
    pub(crate) fn south_seas_state(&self) -> &SouthSeasState {
        match self {
            SystemState::SouthSeas(s) => s,
            _ => wrong_system("South Seas"),
        }
    }

    /// South Seas' state (its code only).
    #[inline(always)]
    pub(crate) fn sea(&self) -> &SeaState {
        match self {
            SystemState::SouthSeas(s) => &s.sea,
            _ => wrong_system("South Seas"),
        }
    }

    #[inline(always)]
    pub(crate) fn sea_mut(&mut self) -> &mut SeaState {
        match self {
            SystemState::SouthSeas(s) => &mut s.sea,
            _ => wrong_system("South Seas"),
        }
    }

    /// Friday's state (South Seas' code only).
    #[inline(always)]
    pub(crate) fn friday(&self) -> &FridayState {
        match self {
            SystemState::SouthSeas(s) => &s.friday,
            _ => wrong_system("South Seas"),
        }
    }

    #[inline(always)]
    pub(crate) fn friday_mut(&mut self) -> &mut FridayState {
        match self {
            SystemState::SouthSeas(s) => &mut s.friday,
            _ => wrong_system("South Seas"),
        }
    }

    /// The ferries on the board: none outside The Ferries.
    #[inline(always)]
    pub(crate) fn ferries(&self) -> &[FerryLink] {
        match self {
            SystemState::Ferries(f) => f,
            _ => &[],
        }
    }

    /// The ferries on the board (The Ferries' code only).
    #[inline(always)]
    pub(crate) fn ferries_mut(&mut self) -> &mut Vec<FerryLink> {
        match self {
            SystemState::Ferries(f) => f,
            _ => wrong_system("The Ferries"),
        }
    }
}
