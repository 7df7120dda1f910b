//! `FridayView` (`Game.friday`): what only a game with South Seas' Friday expansion has,
//! read-only (the Friday tiles revealed and to come, where Friday stands, the weeks, the
//! choices of the "move_friday" and "homecoming" phases and of trading). Its decisions are
//! made with `Game.apply`.
//!
//! The functions below read a game; the view and the deprecated `Game` members that
//! moved here (`Game.friday_at`, `Game.friday_targets()`, ...) both call them.

use pyo3::prelude::*;

use carcassonne_core::engine::decision::Decision;
use carcassonne_core::engine::game::Game as CoreGame;
use carcassonne_core::engine::rules::Rules as CoreRules;

use crate::system_view::GameRef;

/// Whether a game of these rules has a `FridayView`.
pub(crate) fn plays(rules: &CoreRules) -> bool {
    rules.spec.friday
}

// Each reads Friday's state; a game without Friday has none, and the deprecated `Game`
// members that call these for it get empty lists and zeros, as before the views.

pub(crate) fn revealed(g: &CoreGame) -> Vec<String> {
    let rules = g.rules();
    g.friday().map_or_else(Vec::new, |f| {
        f.order[..f.revealed]
            .iter()
            .map(|t| rules.friday[*t as usize].id.clone())
            .collect()
    })
}

pub(crate) fn order(g: &CoreGame) -> Vec<String> {
    let rules = g.rules();
    g.friday().map_or_else(Vec::new, |f| {
        f.order
            .iter()
            .map(|t| rules.friday[*t as usize].id.clone())
            .collect()
    })
}

pub(crate) fn at(g: &CoreGame) -> Option<String> {
    let rules = g.rules();
    g.friday()?.at.map(|t| rules.friday[t as usize].id.clone())
}

pub(crate) fn bonus(g: &CoreGame) -> Option<String> {
    g.friday_bonus().map(|b| b.describe())
}

pub(crate) fn weeks_done(g: &CoreGame) -> usize {
    g.friday().map_or(0, |f| f.weeks_done)
}

pub(crate) fn targets(g: &CoreGame) -> Vec<String> {
    let rules = g.rules();
    g.legal_decisions()
        .into_iter()
        .filter_map(|d| match d {
            Decision::MoveFriday(t) => Some(rules.friday[t as usize].id.clone()),
            _ => None,
        })
        .collect()
}

pub(crate) fn homecoming_choices(g: &CoreGame) -> Vec<(i32, i32, u8)> {
    g.legal_decisions()
        .into_iter()
        .filter_map(|d| match d {
            Decision::Homecoming(s) => Some((s.x as i32, s.y as i32, s.segment)),
            _ => None,
        })
        .collect()
}

pub(crate) fn legal_trades(g: &CoreGame) -> Vec<(u8, u8)> {
    g.legal_decisions()
        .into_iter()
        .filter_map(|d| match d {
            Decision::Trade(give, take) => Some((give, take)),
            _ => None,
        })
        .collect()
}

/// South Seas' Friday expansion, read-only: ``Game.friday`` of a game with
/// ``Rules(friday=True)`` (None for other rules). It reads the game at each access, so it
/// is always current. Its decisions are made with ``Game.apply``.
#[pyclass(frozen, module = "carcassonne._core")]
pub(crate) struct FridayView {
    game: GameRef,
}

impl FridayView {
    pub(crate) fn new(game: GameRef) -> Self {
        FridayView { game }
    }
}

#[pymethods]
impl FridayView {
    /// The order in which the Friday tiles are (or will be) revealed (the hidden stack,
    /// like ``Game.remaining_tiles``).
    #[getter]
    fn order(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.game.read(py, order)
    }

    /// Ids of the Friday tiles revealed so far, in order.
    #[getter]
    fn revealed(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.game.read(py, revealed)
    }

    /// Id of the tile Friday stands on, or None before the first reveal.
    #[getter]
    fn at(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.game.read(py, at)
    }

    /// What the tile Friday stands on gives, or None.
    #[getter]
    fn bonus(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.game.read(py, bonus)
    }

    /// Weeks (stacks of 7 tiles) that have ended.
    #[getter]
    fn weeks_done(&self, py: Python<'_>) -> PyResult<usize> {
        self.game.read(py, weeks_done)
    }

    /// "move_friday" phase: ids of the tiles Friday may move to; empty in other phases.
    /// Move with ``Game.apply(Decision.move_friday(index))``, the index of the tile in
    /// ``Rules.friday_tiles()``.
    fn targets(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.game.read(py, targets)
    }

    /// "homecoming" phase: ``(x, y, feature)`` of the islanders ``Game.decider`` may take
    /// back; empty in other phases. Take one with ``Game.apply(Decision.take_home(x, y,
    /// feature))``.
    fn homecoming_choices(&self, py: Python<'_>) -> PyResult<Vec<(i32, i32, u8)>> {
        self.game.read(py, homecoming_choices)
    }

    /// Trading, in the "deliver" phase: ``(ware given, ware taken)`` indices into
    /// ``WARES`` of the swaps open now. Trade with ``Game.apply(Decision.trade(give,
    /// take))``.
    fn legal_trades(&self, py: Python<'_>) -> PyResult<Vec<(u8, u8)>> {
        self.game.read(py, legal_trades)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.game.repr(py, "FridayView")
    }
}
