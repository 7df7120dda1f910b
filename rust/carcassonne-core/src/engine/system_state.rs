//! The list of the rule systems (`register_systems!`, the one place that names them all)
//! and what a game holds of its rule system's own, beside the shared board, supplies and
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

use crate::data::tileset::System;
use crate::engine::rules::Rules;
use crate::systems::ferries::state::FerryLink;
use crate::systems::south_seas::state::{FridayState, SeaState};

/// Declares the rule systems, once: for each, its name, its own state and the type
/// implementing `RuleSystem`. It makes `SystemKind` (which system a game plays),
/// `SystemState` (one variant per system, holding that state) and `for_system!` (runs
/// code with `S` the system's type, one arm per system, matched once). The list is here,
/// below the systems' folders, because the engine holds the states: a system's
/// `state.rs` needs nothing of the engine, and its type is named only inside
/// `for_system!`'s expansion, so no module imports one that imports it back. (`$d` is the
/// `$` of the generated macro's own variables.)
macro_rules! register_systems {
    ($d:tt $($(#[$doc:meta])* $kind:ident($state:ty) => $system:path,)*) => {
        /// Which rule system plays a game of some rules: the tile sets' system, and within
        /// classic Carcassonne whether The Ferries is played (`Rules::kind`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum SystemKind {
            $($(#[$doc])* $kind,)*
        }

        /// The state of the rule system a game plays (`Game::system`).
        #[derive(Debug)]
        #[allow(clippy::large_enum_variant)] // in place on purpose: see the module's comment
        pub(crate) enum SystemState {
            $($(#[$doc])* $kind($state),)*
        }

        impl SystemState {
            /// A new game's state for rule system `kind`.
            pub(crate) fn new(kind: SystemKind) -> Self {
                match kind {
                    $(SystemKind::$kind => SystemState::$kind(<$state>::default()),)*
                }
            }
        }

        impl Clone for SystemState {
            fn clone(&self) -> Self {
                match self {
                    $(SystemState::$kind(s) => SystemState::$kind(s.clone()),)*
                }
            }

            /// A copy into a game of the same system reuses its buffers (`engine::copy`).
            fn clone_from(&mut self, source: &Self) {
                match (&mut *self, source) {
                    $((SystemState::$kind(s), SystemState::$kind(t)) => s.clone_from(t),)*
                    #[allow(unreachable_patterns)] // with one system registered
                    _ => *self = source.clone(),
                }
            }
        }

        /// Runs `body` with `S` the type of the rule system `kind` names: one arm per
        /// system, matched once
        /// (`for_system!(game.rules().kind(), S => game.play_unchecked_as::<S>(mv))`).
        macro_rules! for_system {
            ($d k:expr, $d S:ident => $d body:expr) => {
                match $d k {
                    $($crate::engine::system_state::SystemKind::$kind => {
                        type $d S = $system;
                        $d body
                    })*
                }
            };
        }
        pub(crate) use for_system;
    };
}

// The rule systems. Adding one: its folder under `systems/`, a line here, and the
// options that choose it in `Rules::kind` below.
register_systems! { $
    /// Classic Carcassonne with its expansions and the Maps boards: nothing of its own.
    Classic(()) => crate::systems::classic::Classic,
    /// The Ferries: the ferries on the board.
    Ferries(Vec<FerryLink>) => crate::systems::ferries::Ferries,
    /// Carcassonne: South Seas, with Friday's part (empty when Friday is not played).
    SouthSeas(SouthSeasState) => crate::systems::south_seas::SouthSeas,
}

impl Rules {
    /// The rule system a game of these rules plays.
    #[inline]
    pub fn kind(&self) -> SystemKind {
        match (self.system, self.ferries) {
            (System::SouthSeas, _) => SystemKind::SouthSeas,
            (System::Classic, true) => SystemKind::Ferries,
            (System::Classic, false) => SystemKind::Classic,
        }
    }
}

/// South Seas' own state: wares, ships, boats and the phase of the turn, and Friday's.
#[derive(Debug, Default)]
pub(crate) struct SouthSeasState {
    pub(crate) sea: SeaState,
    pub(crate) friday: FridayState,
}

crate::clone::clone_by_field!(SouthSeasState { sea, friday });

/// Names the variant a system's code expects: reached only by that system's code, in a
/// game of that system (the variant follows the rules, which a game never changes).
#[cold]
#[inline(never)]
fn wrong_system(expected: &str) -> ! {
    unreachable!("the state of {expected} asked of a game of another rule system")
}

impl SystemState {
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
