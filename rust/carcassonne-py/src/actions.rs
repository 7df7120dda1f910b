//! The action model in Python: a `Decision` class for everything other than placing a
//! tile, and the conversions between Python actions (`Move` or `Decision`) and the core's
//! `Action`.

use pyo3::prelude::*;

use carcassonne_core::engine::decision::{Decision as CoreDecision, Delivery as CoreDelivery};
use carcassonne_core::play::action::Action;

use crate::args::Int;
use crate::south_seas::Delivery;
use crate::{IllegalMoveError, Move, spot_arg};

/// A decision other than placing a tile (South Seas step 4, a market pick, Friday's
/// move or homecoming, a Friday trade, the Carcassonne Maps extra turn), as
/// ``Game.legal_actions()`` lists it; build one with the static methods.
#[pyclass(frozen, eq, hash, module = "carcassonne._core")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decision {
    pub inner: CoreDecision,
}

#[pymethods]
impl Decision {
    /// South Seas step 4: deliver to a face-up ship, or (None) not deliver.
    #[staticmethod]
    #[pyo3(signature = (delivery=None))]
    fn deliver(delivery: Option<PyRef<'_, Delivery>>) -> Self {
        Decision {
            inner: CoreDecision::Deliver(delivery.map(|d| d.inner)),
        }
    }

    /// A completed market's owner takes the face-up ship in display slot ``slot``.
    #[staticmethod]
    pub(crate) fn market_ship(slot: Int) -> PyResult<Self> {
        let slot = slot.within("slot (a display slot)", 0, 255, IllegalMoveError::new_err)?;
        Ok(Decision {
            inner: CoreDecision::MarketShip(slot),
        })
    }

    /// Friday moves to the Friday tile with this index in ``Rules.friday_tiles()``.
    #[staticmethod]
    fn move_friday(tile: Int) -> PyResult<Self> {
        let tile = tile.within(
            "tile (an index into Rules.friday_tiles())",
            0,
            255,
            IllegalMoveError::new_err,
        )?;
        Ok(Decision {
            inner: CoreDecision::MoveFriday(tile),
        })
    }

    /// Friday's homecoming: the decider takes back his islander at (x, y, feature).
    #[staticmethod]
    pub(crate) fn take_home(x: Int, y: Int, feature: Int) -> PyResult<Self> {
        Ok(Decision {
            inner: CoreDecision::Homecoming(spot_arg(x, y, feature)?),
        })
    }

    /// Friday's trading: one ware ``give`` for one ware ``take`` (indices into ``WARES``).
    #[staticmethod]
    pub(crate) fn trade(give: Int, take: Int) -> PyResult<Self> {
        let ware = |w: Int| -> PyResult<u8> {
            w.within(
                "a ware (an index into WARES)",
                0,
                2,
                IllegalMoveError::new_err,
            )
        };
        Ok(Decision {
            inner: CoreDecision::Trade(ware(give)?, ware(take)?),
        })
    }

    /// Carcassonne Maps (small-town variant 1): after covering a small town, take
    /// another turn at once (``take=True``: the same player draws the next tile) or not
    /// (``False``: the next player draws).
    #[staticmethod]
    fn extra_turn(take: bool) -> Self {
        Decision {
            inner: CoreDecision::ExtraTurn(take),
        }
    }

    /// "deliver", "market_ship", "move_friday", "take_home", "trade" or "extra_turn".
    #[getter]
    fn kind(&self) -> &'static str {
        match self.inner {
            CoreDecision::ExtraTurn(_) => "extra_turn",
            CoreDecision::Deliver(_) => "deliver",
            CoreDecision::MarketShip(_) => "market_ship",
            CoreDecision::MoveFriday(_) => "move_friday",
            CoreDecision::Homecoming(_) => "take_home",
            CoreDecision::Trade(..) => "trade",
        }
    }

    /// "deliver": the delivery, or None for not delivering.
    #[getter]
    fn delivery(&self) -> Option<Delivery> {
        match self.inner {
            CoreDecision::Deliver(d) => d.map(|inner| Delivery { inner }),
            _ => None,
        }
    }

    /// "market_ship": the display slot taken.
    #[getter]
    fn slot(&self) -> Option<u8> {
        match self.inner {
            CoreDecision::MarketShip(s) => Some(s),
            _ => None,
        }
    }

    /// "move_friday": the Friday tile's index in ``Rules.friday_tiles()``.
    #[getter]
    fn friday_tile(&self) -> Option<u8> {
        match self.inner {
            CoreDecision::MoveFriday(t) => Some(t),
            _ => None,
        }
    }

    /// "take_home": (x, y, feature) of the islander taken back.
    #[getter]
    fn spot(&self) -> Option<(i32, i32, u8)> {
        match self.inner {
            CoreDecision::Homecoming(s) => Some((s.x as i32, s.y as i32, s.segment)),
            _ => None,
        }
    }

    /// "trade": (ware given, ware taken).
    #[getter]
    fn trade_wares(&self) -> Option<(u8, u8)> {
        match self.inner {
            CoreDecision::Trade(g, t) => Some((g, t)),
            _ => None,
        }
    }

    /// "extra_turn": whether the extra turn is taken.
    #[getter]
    fn take(&self) -> Option<bool> {
        match self.inner {
            CoreDecision::ExtraTurn(t) => Some(t),
            _ => None,
        }
    }

    fn __repr__(&self) -> String {
        match self.inner {
            CoreDecision::Deliver(None) => "Decision.deliver(None)".into(),
            CoreDecision::Deliver(Some(CoreDelivery { ship, pay })) => format!(
                "Decision.deliver(Delivery({ship}, ({}, {}, {})))",
                pay[0], pay[1], pay[2]
            ),
            CoreDecision::MarketShip(s) => format!("Decision.market_ship({s})"),
            CoreDecision::MoveFriday(t) => format!("Decision.move_friday({t})"),
            CoreDecision::Homecoming(s) => {
                format!("Decision.take_home({}, {}, {})", s.x, s.y, s.segment)
            }
            CoreDecision::Trade(g, t) => format!("Decision.trade({g}, {t})"),
            CoreDecision::ExtraTurn(true) => "Decision.extra_turn(True)".into(),
            CoreDecision::ExtraTurn(false) => "Decision.extra_turn(False)".into(),
        }
    }

    /// Pickles as the JSON of the decision (the record format).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let py = slf.py();
        let f = py.get_type::<Decision>().getattr("_from_json")?;
        // Cannot fail: a decision is plain data.
        let json = serde_json::to_string(&slf.get().inner).expect("a decision serializes");
        Ok((f, (json,)))
    }

    /// A decision from the JSON ``__reduce__`` pickles (the record format).
    #[staticmethod]
    fn _from_json(text: &str) -> PyResult<Self> {
        serde_json::from_str(text)
            .map(|inner| Decision { inner })
            .map_err(|e| IllegalMoveError::new_err(format!("not a decision: {e}")))
    }
}

/// A Python action (`Move` or `Decision`) as the core's; `None` for anything else.
pub fn action_of(obj: &Bound<'_, PyAny>) -> Option<Action> {
    if let Ok(mv) = obj.cast::<Move>() {
        return Some(Action::Place(mv.get().inner));
    }
    if let Ok(d) = obj.cast::<Decision>() {
        return Some(Action::Decide(d.get().inner));
    }
    None
}

/// The core's action as a Python `Move` or `Decision`.
pub fn action_to_py(py: Python<'_>, action: Action) -> PyResult<Py<PyAny>> {
    Ok(match action {
        Action::Place(inner) => Py::new(py, Move { inner })?.into_any(),
        Action::Decide(inner) => Py::new(py, Decision { inner })?.into_any(),
    })
}

/// One legal action after a search (``Game.analyse``): how often the search chose it and
/// its mean reward for the decider, from 0 to 1 (0 if never visited). With the default
/// cut-off a playout stops after a few tiles and its reward is a logistic of the
/// decider's virtual margin over the best other player (0.5 when level, about 0.73 five
/// points ahead); with ``cutoff=None`` playouts run to the end and the reward is 0.9 x the
/// share of the win + 0.1 x a logistic of the final margin (20 points: about 0.73).
#[pyclass(frozen, get_all, module = "carcassonne._core")]
pub struct ActionValue {
    /// The legal action, a ``Move`` or a ``Decision``.
    pub action: Py<PyAny>,
    /// How often the search chose it.
    pub visits: u32,
    /// Its mean reward for the decider, from 0 to 1 (0 if never visited).
    pub value: f64,
}

#[pymethods]
impl ActionValue {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "ActionValue(action={}, visits={}, value={:.4})",
            self.action.bind(py).repr()?,
            self.visits,
            self.value
        ))
    }
}
