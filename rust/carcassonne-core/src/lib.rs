//! `carcassonne-core`: a rules engine for Carcassonne, free of any Python dependency.
//!
//! Module map, from geometry up to whole games:
//! - `topology`: tile sides and the 12 slots (half-edges and centres) features occupy;
//! - `data`: one loader for every data file (built-in or user's; size limit, TOML
//!   decoding with bounded messages); `quote`: user input in error messages, cut short;
//! - `tileset`: tile data files (TOML), validation, per-rotation tables;
//! - `rules`: a validated configuration and the legality table derived from it;
//! - `board`: placed tiles and the open squares beside them;
//! - `clone`: copying a game in proportion to what is on the board (for search);
//! - `features`: union-find over tile segments with running totals per feature;
//! - `ferries`: ferry links on lake tiles, the nearest-ferry walk, moving a ferry;
//! - `scoring`: points for features (pure functions);
//! - `game`: turn flow, legal moves, checked and unchecked play, the event log;
//! - `ships`, `south_seas`, `friday`: ships and their payments, the South Seas turn
//!   (wares, boats, markets, deliveries), the Friday expansion;
//! - `action`: one action model (a placement or a decision) for every phase;
//!   `determinize`: reshuffling what the player to move cannot know (for search);
//! - `rng`, `players` (the `Player` trait, seat lineups, the random and greedy
//!   policies, Monte Carlo tree search), `simulate` (whole games in parallel,
//!   interruptible), `summary` (per-game results as columns or running totals);
//! - `record`: saving and loading games as JSON;
//! - `virtual_score`: every player's score if the game ended now (the greedy player's
//!   yardstick).

// Index loops over sides, slots and players read closer to the rules than iterator chains.
#![allow(clippy::needless_range_loop)]

pub mod action;
pub mod board;
mod clone;
pub mod data;
pub mod determinize;
pub mod features;
pub mod ferries;
pub mod friday;
pub mod game;
pub mod geometry;
pub mod map;
pub mod players;
pub mod quote;
pub mod record;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod ships;
pub mod simulate;
pub mod south_seas;
pub mod summary;
pub mod tileset;
pub mod topology;
pub mod virtual_score;

pub use action::Action;
pub use game::{Game, IllegalMove, Move, Placement, ScoreEvent};
pub use players::{Lineup, Player, Policy};
pub use rules::{DataSource, Rules, RulesError, RulesSpec};
