//! `carcassonne-core`: a rules engine for Carcassonne, free of any Python dependency.
//!
//! Module map: `topology` (tile sides and slots), `tileset` (tile data files), `rules`
//! (a validated configuration and its precomputed tables), `board` (placed tiles and open
//! squares), `features` (union-find over tile segments with running totals), `scoring`
//! (points for features), `game` (turn flow, moves, the event log), `rng`, `policy`
//! (random and greedy players), `simulate` (whole games in parallel), `record` (JSON).

pub mod board;
pub mod features;
pub mod game;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod tileset;
pub mod topology;

pub use game::{Game, IllegalMove, Move, Placement, ScoreEvent};
pub use rules::{Rules, RulesError, RulesSpec, TileSetSource};
pub mod policy;
pub mod record;
pub mod simulate;
