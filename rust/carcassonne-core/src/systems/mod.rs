//! The rule systems, one folder each: its `RuleSystem` type (`system`), its state
//! (`state`, which the engine holds) and its part of the turn (`turn` and friends, `impl
//! Game` blocks). `any` holds `Game`'s public entry points and `for_system!`, the one
//! list of the systems. Classic Carcassonne with Inns & Cathedrals, Traders & Builders
//! and the Maps boards plays the shared turn (`engine::turn`) with no part of its own.

pub mod any;
pub mod classic;
pub mod ferries;
pub mod south_seas;
