//! The greedy valuation's part of The Ferries: a lake tile, or a placement that lets
//! ferries move, has ferry choices whose effect reaches along whole roads: its moves are
//! played on a copy.

use super::GreedyValues;
use crate::engine::game::{Game, Placement};
use crate::systems::ferries::Ferries;

impl GreedyValues for Ferries {
    fn plays_out(game: &Game, tile: u16, p: Placement) -> bool {
        game.rules().tiles[tile as usize].lake
            || game.movable_ferries(p.cell, tile, p.rotation).len > 0
    }
}
