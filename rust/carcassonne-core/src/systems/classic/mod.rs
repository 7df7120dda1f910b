//! Classic Carcassonne (3rd edition tiles, Inns & Cathedrals, Traders & Builders, and the
//! Carcassonne Maps boards): the rule system whose turn is the shared one. Its rules live
//! in the engine (`engine::turn`, `engine::game`, `engine::scoring`); the maps' boards
//! are a board geometry (`board::map_board`), chosen once per placement, not a system.

pub mod system;

pub use system::Classic;
