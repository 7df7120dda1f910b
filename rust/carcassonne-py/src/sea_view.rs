//! `SeaView` (`Game.sea`): what only a Carcassonne: South Seas game has, read-only (the
//! wares, the ships, the boat tokens, the South Seas event log, the choices of the
//! "market" and "deliver" phases). Its decisions are made with `Game.apply`.
//!
//! The functions below read a game; the view and the deprecated `Game` members that
//! moved here (`Game.wares`, `Game.ship_display`, ...) both call them.

use pyo3::prelude::*;

use carcassonne_core::data::tileset::System;
use carcassonne_core::engine::decision::Decision;
use carcassonne_core::engine::game::Game as CoreGame;
use carcassonne_core::engine::rules::Rules as CoreRules;

use crate::south_seas::{Delivery, SeaEvent, Ship};
use crate::system_view::GameRef;

/// Whether a game of these rules has a `SeaView`.
pub(crate) fn plays(rules: &CoreRules) -> bool {
    rules.system == System::SouthSeas
}

pub(crate) fn wares(g: &CoreGame) -> Vec<(u32, u32, u32)> {
    (0..g.rules().players())
        .map(|p| {
            let w = g.wares(p);
            (w[0], w[1], w[2])
        })
        .collect()
}

// Each reads South Seas' state; a game of other rules has none, and the deprecated `Game`
// members that call these for it get empty lists and zeros, as before the views.

pub(crate) fn display(g: &CoreGame) -> Vec<Ship> {
    let rules = g.rules();
    g.sea().map_or_else(Vec::new, |sea| {
        sea.display
            .iter()
            .map(|s| Ship::from_core(&rules.ships[*s as usize]))
            .collect()
    })
}

pub(crate) fn pile(g: &CoreGame) -> Vec<String> {
    let rules = g.rules();
    g.sea().map_or_else(Vec::new, |sea| {
        sea.pile[sea.next_ship..]
            .iter()
            .map(|s| rules.ships[*s as usize].id.clone())
            .collect()
    })
}

pub(crate) fn ships_taken(g: &CoreGame) -> Vec<(u8, String)> {
    let rules = g.rules();
    g.sea().map_or_else(Vec::new, |sea| {
        sea.taken
            .iter()
            .map(|(p, s)| (*p, rules.ships[*s as usize].id.clone()))
            .collect()
    })
}

pub(crate) fn boat_tokens_left(g: &CoreGame) -> u8 {
    g.sea().map_or(0, |sea| sea.tokens_left)
}

pub(crate) fn events(g: &CoreGame) -> Vec<SeaEvent> {
    let rules = g.rules();
    g.sea().map_or_else(Vec::new, |sea| {
        sea.events
            .iter()
            .map(|e| SeaEvent::from_core(e, rules))
            .collect()
    })
}

pub(crate) fn market_ships(g: &CoreGame) -> Vec<usize> {
    // usize, not u8: PyO3 turns a Vec<u8> into bytes.
    g.legal_decisions()
        .into_iter()
        .filter_map(|d| match d {
            Decision::MarketShip(slot) => Some(slot as usize),
            _ => None,
        })
        .collect()
}

pub(crate) fn legal_deliveries(g: &CoreGame) -> Vec<Delivery> {
    g.legal_deliveries()
        .into_iter()
        .map(|inner| Delivery { inner })
        .collect()
}

/// Carcassonne: South Seas, read-only: ``Game.sea`` of a South Seas game (None for other
/// rules). It reads the game at each access, so it is always current (also when kept in a
/// variable across moves). Its decisions are made with ``Game.apply``.
#[pyclass(frozen, module = "carcassonne._core")]
pub(crate) struct SeaView {
    game: GameRef,
}

impl SeaView {
    pub(crate) fn new(game: GameRef) -> Self {
        SeaView { game }
    }
}

#[pymethods]
impl SeaView {
    /// Each player's (shells, bananas, fish).
    #[getter]
    fn wares(&self, py: Python<'_>) -> PyResult<Vec<(u32, u32, u32)>> {
        self.game.read(py, wares)
    }

    /// The face-up ships, by display slot.
    #[getter]
    fn display(&self, py: Python<'_>) -> PyResult<Vec<Ship>> {
        self.game.read(py, display)
    }

    /// Ids of the ships still face down, in draw order.
    #[getter]
    fn pile(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        self.game.read(py, pile)
    }

    /// ``(player, ship id)`` of every ship taken, in order.
    #[getter]
    fn ships_taken(&self, py: Python<'_>) -> PyResult<Vec<(u8, String)>> {
        self.game.read(py, ships_taken)
    }

    /// Fishing-boat tokens not yet placed (19 at the start).
    #[getter]
    fn boat_tokens_left(&self, py: Python<'_>) -> PyResult<u8> {
        self.game.read(py, boat_tokens_left)
    }

    /// Wares given, boat tokens placed, ships taken, Friday's arrivals, homecomings and
    /// trades, in order.
    #[getter]
    fn events(&self, py: Python<'_>) -> PyResult<Vec<SeaEvent>> {
        self.game.read(py, events)
    }

    /// "market" phase: display slots of the face-up ships tied for the most points,
    /// among which the merchant's owner (``Game.decider``) chooses (S-6); empty in other
    /// phases. Take one with ``Game.apply(Decision.market_ship(slot))``.
    fn market_ships(&self, py: Python<'_>) -> PyResult<Vec<usize>> {
        self.game.read(py, market_ships)
    }

    /// Every delivery the current player can make (only in the "deliver" phase); not
    /// delivering is always allowed then. Make one with
    /// ``Game.apply(Decision.deliver(delivery))``, or ``Decision.deliver(None)``.
    fn legal_deliveries(&self, py: Python<'_>) -> PyResult<Vec<Delivery>> {
        self.game.read(py, legal_deliveries)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        self.game.repr(py, "SeaView")
    }
}
