//! `carcassonne-core`: a rules engine for Carcassonne, free of any Python dependency.
//!
//! Module map: `topology` (tile sides and slots), `tileset` (tile data files), `rules`
//! (a validated configuration and its precomputed tables), `board` (placed tiles and open
//! squares), `features` (union-find over tile segments with running totals), `scoring`
//! (points for features), `game` (turn flow, moves, the event log), `rng`, `policy`
//! (random and greedy players), `simulate` (whole games in parallel), `record` (JSON).

pub mod tileset;
pub mod topology;
