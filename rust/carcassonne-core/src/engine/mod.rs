//! The shared engine: a validated configuration (`rules`) and its options declared once
//! (`options`), points for features (`scoring`), what a rule system adds to a turn (the
//! `RuleSystem` trait, `system`), the turn loop generic over it (`turn`), the game's state,
//! queries and shared primitives (`game`) and its copy (`copy`), and the one list of the
//! rule systems with their own state in a game (`system_state`).

mod copy;
pub mod decision;
mod extra_turn;
pub mod game;
pub mod options;
pub mod rules;
pub mod scoring;
pub mod system;
pub(crate) mod system_state;
mod turn;

pub use system_state::SystemKind;
pub(crate) use turn::MoveLists;
