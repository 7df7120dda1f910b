//! `Ferries` as a `RuleSystem`: classic Carcassonne plus the ferry choices of a turn (a
//! new ferry on a lake tile, ferry moves; decisions F-1..F-5) and the roads they join.

use crate::engine::game::{Game, IllegalMove, Joined, Move, Placement};
use crate::engine::system::RuleSystem;
use crate::engine::system_state::SystemKind;
use crate::systems::ferries::state::{FerryMoves, Movable};

/// Classic Carcassonne with The Ferries.
#[derive(Clone, Copy, Debug)]
pub struct Ferries;

impl RuleSystem for Ferries {
    const KIND: SystemKind = SystemKind::Ferries;
    const WATCHES_FERRIES: bool = true;

    fn reset(game: &mut Game) {
        game.ferries_mut().clear();
    }

    const HAS_PLACEMENT_CHOICES: bool = true;

    fn placement_choices(game: &Game, p: Placement) -> Vec<(Option<(u8, u8)>, FerryMoves)> {
        game.ferry_choices(p)
    }

    fn check_ferry_parts(game: &Game, mv: Move, cell: u32, tile: u16) -> Result<(), IllegalMove> {
        game.check_ferries(mv, cell, tile)
    }

    fn ferry_options(game: &Game, tile: u16, p: Placement) -> Option<(Option<u16>, Movable)> {
        let lake = game.rules().tiles[tile as usize].lake.then_some(tile);
        Some((lake, game.movable_ferries(p.cell, tile, p.rotation)))
    }

    fn choose_after_placing(
        game: &Game,
        mv: &mut Move,
        joined: &Joined,
        choose: impl FnOnce(&Game, Option<u16>, &Movable) -> (Option<(u8, u8)>, FerryMoves),
    ) {
        let movable = game.movable_after_placing(joined.placed, joined.ferry_roads);
        let tile = game.board().placed[joined.placed].tile;
        let lake = game.rules().tiles[tile as usize].lake.then_some(tile);
        // Most turns have no ferry choice to make.
        if movable.len > 0 || lake.is_some() {
            (mv.ferry, mv.ferry_moves) = choose(game, lake, &movable);
        }
    }

    fn end_turn(game: &mut Game, mv: Move, joined: &Joined) {
        // The new ferry, then the moves, then scoring (F-2).
        if let Some((a, b)) = mv.ferry {
            game.add_ferry(joined.placed as u16, a, b);
        }
        // The elements ferry moves changed (most turns move none: no array to fill then).
        let moved = (!mv.ferry_moves.is_empty()).then(|| game.move_ferries(&mv));
        let ferry_turn = mv.ferry.is_some() || moved.is_some();
        game.score_and_pass::<Ferries>(mv, joined, ferry_turn, moved);
    }

    fn finish(game: &mut Game) {
        game.finish_classic();
    }
}
