//! `carcassonne-core`: a rules engine for Carcassonne, free of any Python dependency.
//!
//! The folders are the layers, from the bottom up (a module imports only from its own
//! layer or those below; see `ARCHITECTURE.md`):
//! - `limits`, `topology`, `quote`, `rng`, `clone`: constants, tile sides and the 12 slots
//!   features occupy, user input cut short in messages, the random stream, field-by-field
//!   copies;
//! - `data`: one loader for every data file (size limit, bounded TOML messages), tile
//!   files (`tileset`) and map files (`map`: parse, check, summarise, generate);
//! - `board`: placed tiles, the grid and its open squares, the printed map board, and the
//!   union-find over segments with running totals per feature (`features`);
//! - `engine`: the validated rules, scoring, the `RuleSystem` trait (`system`) and the
//!   turn loop generic over it (`turn`), the game's state and shared primitives (`game`);
//! - `systems`: one folder per rule system implementing the trait (`classic`, `ferries`,
//!   `south_seas` with ships and Friday), and `Game`'s public entry points, which look
//!   the system up once per call (`any`);
//! - `play`: the action model (`action`), game records (`record`), players (random,
//!   greedy, Monte Carlo tree search), whole games in parallel (`simulate`), results
//!   (`summary`), `determinize`, `virtual_score`;
//! - `learn`: for learning agents, the integer action space of a rules configuration,
//!   its board window and the codec between actions and integer tokens, with masks.

// Index loops over sides, slots and players read closer to the rules than iterator chains.
#![allow(clippy::needless_range_loop)]

pub mod board;
mod clone;
pub mod data;
pub mod engine;
pub mod learn;
pub mod limits;
pub mod play;
pub mod quote;
pub mod rng;
pub mod systems;
pub mod topology;

pub use engine::game::{Game, IllegalMove, Move, Placement, ScoreEvent};
pub use engine::rules::{DataSource, Rules, RulesError, RulesSpec};
pub use play::action::Action;
pub use play::players::{Lineup, Player, Policy};
