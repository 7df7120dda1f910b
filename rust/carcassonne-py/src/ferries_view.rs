//! `FerriesView` (`Game.ferries`): what only a game with The Ferries' lake tiles has,
//! read-only (where every ferry is, which ferries a placement may move).
//!
//! The functions below read a game; the view and the deprecated `Game.movable_ferries`
//! both call them.

use pyo3::prelude::*;

use carcassonne_core::engine::game::{Game as CoreGame, IllegalMove};
use carcassonne_core::engine::rules::Rules as CoreRules;

use crate::args::Int;
use crate::system_view::GameRef;
use crate::{IllegalMoveError, coordinate, move_err, no_tile_err, rotation_arg};

/// Whether a game of these rules has a `FerriesView`: any lake tile in its sets.
pub(crate) fn plays(rules: &CoreRules) -> bool {
    rules.ferries
}

pub(crate) fn links(g: &CoreGame) -> Vec<(i32, i32, u8, u8)> {
    g.ferries()
        .iter()
        .map(|f| {
            let p = &g.placed()[f.placed as usize];
            (p.x, p.y, f.a, f.b)
        })
        .collect()
}

pub(crate) fn movable(g: &CoreGame, x: Int, y: Int, rotation: Int) -> PyResult<Vec<(i32, i32)>> {
    let rotation = rotation_arg(rotation, IllegalMoveError::new_err)?;
    let (x, y) = (coordinate("x", x)?, coordinate("y", y)?);
    let tile = g.tile().ok_or_else(|| no_tile_err(g))?;
    let Some(cell) = g
        .board()
        .cell(x, y)
        .filter(|c| g.board().open_index(*c).is_some())
    else {
        return Err(move_err(IllegalMove::NotAdjacent { x, y }));
    };
    let mut out: Vec<(i32, i32)> = g
        .movable_ferries(cell, tile, rotation)
        .as_slice()
        .iter()
        .map(|f| {
            let p = &g.placed()[g.ferries()[*f].placed as usize];
            (p.x, p.y)
        })
        .collect();
    out.sort_unstable();
    Ok(out)
}

/// The Ferries, read-only: ``Game.ferries`` of a game whose tile sets have lake tiles
/// (None for other rules). It reads the game at each access, so it is always current.
#[pyclass(frozen, module = "carcassonne._core")]
pub(crate) struct FerriesView {
    game: GameRef,
}

impl FerriesView {
    pub(crate) fn new(game: GameRef) -> Self {
        FerriesView { game }
    }
}

#[pymethods]
impl FerriesView {
    /// ``(x, y, a, b)`` of every ferry, joining road ends a and b of the lake tile at
    /// (x, y) (feature indices, see ``Rules.tile_features``).
    #[getter]
    fn links(&self, py: Python<'_>) -> PyResult<Vec<(i32, i32, u8, u8)>> {
        self.game.read(py, links)
    }

    /// Squares of the lakes whose ferry may move if the current tile is placed at (x, y)
    /// with ``rotation`` (the nearest ferry on each road it extends).
    fn movable(&self, py: Python<'_>, x: Int, y: Int, rotation: Int) -> PyResult<Vec<(i32, i32)>> {
        self.game.read(py, |g| movable(g, x, y, rotation))?
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.game.repr(py, "FerriesView")
    }
}
