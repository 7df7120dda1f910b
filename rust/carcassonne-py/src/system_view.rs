//! What the per-system views of a game (`Game.sea`, `Game.friday`, `Game.ferries`) share:
//! a reference to the game they show, read at each access.
//!
//! A view holds the game, not a copy of its state, so `game.sea.display` after a move is
//! the display after that move, and a view kept in a variable stays current too. A game's
//! rules never change, so a view handed out for a game of its system stays valid for the
//! game's whole life.

use pyo3::prelude::*;

use carcassonne_core::engine::game::Game as CoreGame;
use carcassonne_core::engine::rules::Rules as CoreRules;

use crate::Game;

/// The game a view shows.
pub(crate) struct GameRef(Py<Game>);

impl GameRef {
    /// Reads the game as it is now. Fails (a RuntimeError, not a panic) only if the game
    /// is being changed at this moment by another thread.
    pub(crate) fn read<R>(&self, py: Python<'_>, f: impl FnOnce(&CoreGame) -> R) -> PyResult<R> {
        Ok(f(&self.0.bind(py).try_borrow()?.inner))
    }

    /// A view's repr: its class and the game's (`SeaView(<Game turn=3 ...>)`), without the
    /// view's contents, which can be long (its properties give those).
    pub(crate) fn repr(&self, py: Python<'_>, class: &str) -> PyResult<String> {
        Ok(format!("{class}({})", self.0.bind(py).repr()?.to_str()?))
    }
}

/// The view `make` builds of `game`, or None when its rules do not play the system
/// (`plays` says whether they do).
pub(crate) fn view_of<V: pyo3::PyClass + Into<pyo3::PyClassInitializer<V>>>(
    game: &Bound<'_, Game>,
    plays: fn(&CoreRules) -> bool,
    make: fn(GameRef) -> V,
) -> PyResult<Option<Py<V>>> {
    if !plays(game.try_borrow()?.inner.rules()) {
        return Ok(None);
    }
    Py::new(game.py(), make(GameRef(game.clone().unbind()))).map(Some)
}
