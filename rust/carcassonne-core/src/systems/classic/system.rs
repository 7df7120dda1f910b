//! `Classic` as a `RuleSystem`: the shared turn with no part of its own.

use crate::engine::game::{Game, Joined, Move};
use crate::engine::system::RuleSystem;
use crate::engine::system_state::SystemKind;

/// Classic Carcassonne with its expansions (no ferries).
#[derive(Clone, Copy, Debug)]
pub struct Classic;

impl RuleSystem for Classic {
    const KIND: SystemKind = SystemKind::Classic;

    fn end_turn(game: &mut Game, mv: Move, joined: &Joined) {
        // No ferry is placed or moved in a classic game (`check` refuses both).
        game.score_and_pass::<Classic>(mv, joined, false, None);
    }

    fn finish(game: &mut Game) {
        game.finish_classic();
    }
}
