//! The learned evaluation: per-seat facts of a position a player may see, a linear value
//! over their differences, the one-ply player that picks the action whose position after
//! it it values most, the two-ply expectimax over the next draw, the MCTS that judges its
//! leaves by the value, the value as a PUCT search's evaluation, and the value's
//! TD(lambda) self-play training. The Python package keeps the weights in versioned files
//! (`carcassonne.learn.value`), stamped with `LAYOUT`.
//!
//! The facts of seat `s` (`facts`): its virtual score (in thirds of a point, so that
//! South Seas wares count), its meeples in supply, and for roads, cities and fields
//! (South Seas: bridges, islands and sea regions, their value the wares on them)
//! bucketed by how far they are from done (open sides; for a field, the unfinished
//! cities it borders), the points pending where `s` holds the majority, its meeples
//! there, and the points where another player outnumbers it. The value of a position for seat `s` is `tanh(w . (f_s - f_o))` (two players: `o` the
//! other seat), with weights blended between three stages of the game by the share of
//! the deck on the board, so that the same lead counts for more near the end.
//!
//! The one-ply player values each legal action on a copy of the game whose unseen tiles
//! were reshuffled first (`Game::determinize`): what it sees after an action never
//! depends on the true order of the deck.

mod expectimax;
mod facts;
mod linear;
mod puct;
mod search;
mod training;

/// The name of the input layout (the facts, their order and scaling, the stages): it
/// changes whenever they do, so that weights learned on another layout are refused.
pub const LAYOUT: &str = "linear-facts-30x3/4";

pub use expectimax::Expectimax;
pub use facts::{FACTS, FactsScratch, STAGES, WEIGHTS, facts};
pub use linear::{Learned, LinearValue, WeightsError};
pub use puct::ValueEvaluation;
pub use search::LearnedSearch;
pub use training::{Td, Training};
