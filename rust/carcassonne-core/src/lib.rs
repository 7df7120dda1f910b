//! `carcassonne-core`: a rules engine for Carcassonne, free of any Python dependency.
//!
//! Module map, from geometry up to whole games:
//! - `topology`: tile sides and the 12 slots (half-edges and centres) features occupy;
//! - `tileset`: tile data files (TOML), validation, per-rotation tables;
//! - `rules`: a validated configuration and the legality table derived from it;
//! - `board`: placed tiles and the open squares beside them;
//! - `features`: union-find over tile segments with running totals per feature;
//! - `ferries`: ferry links on lake tiles, the nearest-ferry walk, moving a ferry;
//! - `scoring`: points for features (pure functions);
//! - `game`: turn flow, legal moves, checked and unchecked play, the event log;
//! - `rng`, `policy` (random and greedy players), `simulate` (whole games in parallel);
//! - `record`: saving and loading games as JSON.

// Index loops over sides, slots and players read closer to the rules than iterator chains.
#![allow(clippy::needless_range_loop)]

pub mod board;
pub mod features;
pub mod ferries;
pub mod friday;
pub mod game;
pub mod policy;
pub mod record;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod ships;
pub mod simulate;
pub mod south_seas;
pub mod tileset;
pub mod topology;

pub use game::{Game, IllegalMove, Move, Placement, ScoreEvent};
pub use rules::{Rules, RulesError, RulesSpec, TileSetSource};
