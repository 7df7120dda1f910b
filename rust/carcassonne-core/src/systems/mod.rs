//! What one rule system adds to the shared engine, one folder each: its state (`state`,
//! which the engine holds) and its part of the turn (`turn` and friends, `impl Game`
//! blocks). Classic Carcassonne with Inns & Cathedrals, Traders & Builders and Maps lives
//! in the engine itself.

pub mod ferries;
pub mod south_seas;
