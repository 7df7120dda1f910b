//! Python classes of Carcassonne: South Seas: ships, deliveries and the South Seas event
//! log. The game and rules methods that use them live with `Game` and `Rules`.

use pyo3::prelude::*;

use carcassonne_core::engine::decision::Delivery as CoreDelivery;
use carcassonne_core::engine::rules::Rules as CoreRules;
use carcassonne_core::systems::south_seas::ships::{Ship as CoreShip, WARES};
use carcassonne_core::systems::south_seas::state::SeaEvent as CoreSeaEvent;

use crate::IllegalMoveError;
use crate::args::Int;

/// A South Seas ship token (a read-only view): its id, points, what it needs (as in the
/// ship file) and whether the rulebook prints it (a reconstructed set marks the others).
#[pyclass(frozen, get_all, module = "carcassonne._core")]
#[derive(Clone)]
pub struct Ship {
    /// Its id in the ship file.
    id: String,
    /// The points it scores when taken.
    points: u8,
    /// As in the ship file: "2 shell + 1 fish + 1 banana", "any 6", "4 identical", "3 + 1".
    needs: String,
    /// Printed in the rulebook (the rest of a reconstructed set is not).
    known: bool,
}

impl Ship {
    pub fn from_core(s: &CoreShip) -> Self {
        Ship {
            id: s.id.clone(),
            points: s.points,
            needs: s.need.describe(),
            known: s.known,
        }
    }
}

#[pymethods]
impl Ship {
    fn __repr__(&self) -> String {
        format!(
            "Ship(id='{}', points={}, needs='{}', known={})",
            self.id,
            self.points,
            self.needs,
            crate::py_bool(self.known)
        )
    }
}

/// What pickling a delivery rebuilds it from: the class and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (u8, (u8, u8, u8)));

/// South Seas step 4: wares ``(shells, bananas, fish)`` delivered to the face-up ship in
/// display slot ``ship``. Immutable, hashable, ordered and picklable.
///
/// ``Delivery(...)`` raises IllegalMoveError for a negative slot or ware count.
#[pyclass(frozen, eq, hash, ord, module = "carcassonne._core")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Delivery {
    pub inner: CoreDelivery,
}

#[pymethods]
impl Delivery {
    #[new]
    fn new(ship: Int, wares: (Int, Int, Int)) -> PyResult<Self> {
        let slot: u8 = ship.within("ship (a display slot)", 0, 255, IllegalMoveError::new_err)?;
        let count = |n: Int| -> PyResult<u8> {
            n.within("a ware count", 0, 255, IllegalMoveError::new_err)
        };
        Ok(Delivery {
            inner: CoreDelivery {
                ship: slot,
                pay: [count(wares.0)?, count(wares.1)?, count(wares.2)?],
            },
        })
    }

    /// The display slot of the face-up ship delivered to.
    #[getter]
    fn ship(&self) -> u8 {
        self.inner.ship
    }

    /// The wares delivered, ``(shells, bananas, fish)``.
    #[getter]
    fn wares(&self) -> (u8, u8, u8) {
        let p = self.inner.pay;
        (p[0], p[1], p[2])
    }

    fn __repr__(&self) -> String {
        let p = self.inner.pay;
        format!(
            "Delivery(ship={}, wares=({}, {}, {}))",
            self.inner.ship, p[0], p[1], p[2]
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let cls = py.get_type::<Delivery>().into_any();
        Ok((cls, (self.inner.ship, self.wares())))
    }
}

/// One South Seas entry of the event log (a read-only view). ``kind`` is "wares" (a
/// feature evaluated: each of ``players`` received ``wares``), "boat" (a token covered
/// ``fish`` fish on the tile at ``square``), "ship" (``players[0]`` took ``ship`` for
/// ``points``, paying ``wares``, or None at a completed market), "friday" (Friday arrived
/// on ``friday_tile``, revealed, or moved by ``players[0]``; a wares bonus gave every
/// player ``wares``), "homecoming" (``players[0]`` took his islander at ``square`` back)
/// or "trade" (``players[0]`` swapped ware ``trade[0]`` for ``trade[1]``).
#[pyclass(frozen, get_all, module = "carcassonne._core")]
pub struct SeaEvent {
    /// What happened: "wares", "boat", "ship", "friday", "homecoming" or "trade" (see
    /// the class).
    kind: &'static str,
    /// Turn in which it happened.
    turn: u32,
    /// The players it concerns: those receiving ``wares`` ("wares"), else the one who
    /// acted (empty for "boat", and for "friday" when nobody moved Friday).
    // usize, not u8: PyO3 turns a Vec<u8> into bytes.
    players: Vec<usize>,
    /// ``(shells, bananas, fish)`` received ("wares", a "friday" bonus) or paid ("ship";
    /// None for a ship taken at a completed market), else None.
    wares: Option<(u32, u32, u32)>,
    /// "bridge", "island" or "sea" for wares events.
    feature: Option<&'static str>,
    /// Squares of the evaluated feature ("wares").
    tiles: Vec<(i32, i32)>,
    /// Whether the evaluated feature was complete ("wares").
    complete: bool,
    /// Evaluated because a fishing boat was placed in the region.
    boat: bool,
    /// Whether this is part of the end-of-game scoring.
    final_scoring: bool,
    /// The square of the boat token ("boat") or of the islander taken back
    /// ("homecoming"), else None.
    square: Option<(i32, i32)>,
    /// The fish the boat token covered ("boat").
    fish: u8,
    /// Id of the ship taken ("ship"), else None.
    ship: Option<String>,
    /// The points of the ship taken ("ship").
    points: u8,
    /// Id of the Friday tile Friday arrived on ("friday").
    friday_tile: Option<String>,
    /// ``(ware given, ware taken)``, indices into ``WARES`` ("trade").
    trade: Option<(u8, u8)>,
}

impl SeaEvent {
    pub fn from_core(e: &CoreSeaEvent, rules: &CoreRules) -> Self {
        let blank = SeaEvent {
            kind: "",
            turn: 0,
            players: Vec::new(),
            wares: None,
            feature: None,
            tiles: Vec::new(),
            complete: false,
            boat: false,
            final_scoring: false,
            square: None,
            fish: 0,
            ship: None,
            points: 0,
            friday_tile: None,
            trade: None,
        };
        match e {
            CoreSeaEvent::Wares {
                turn,
                kind,
                players,
                wares,
                tiles,
                complete,
                boat,
                final_scoring,
            } => SeaEvent {
                kind: "wares",
                turn: *turn,
                players: players.iter().map(|p| *p as usize).collect(),
                wares: Some((wares[0], wares[1], wares[2])),
                feature: Some(kind.name()),
                tiles: tiles.clone(),
                complete: *complete,
                boat: *boat,
                final_scoring: *final_scoring,
                ..blank
            },
            CoreSeaEvent::Boat { turn, x, y, fish } => SeaEvent {
                kind: "boat",
                turn: *turn,
                square: Some((*x, *y)),
                fish: *fish,
                ..blank
            },
            CoreSeaEvent::Ship {
                turn,
                player,
                ship,
                points,
                paid,
            } => SeaEvent {
                kind: "ship",
                turn: *turn,
                players: vec![*player as usize],
                wares: paid.map(|p| (p[0] as u32, p[1] as u32, p[2] as u32)),
                ship: Some(rules.ships[*ship as usize].id.clone()),
                points: *points,
                ..blank
            },
            CoreSeaEvent::Friday {
                turn,
                tile,
                moved_by,
                wares,
            } => SeaEvent {
                kind: "friday",
                turn: *turn,
                players: moved_by.iter().map(|p| *p as usize).collect(),
                wares: Some((wares[0], wares[1], wares[2])),
                friday_tile: Some(rules.friday[*tile as usize].id.clone()),
                ..blank
            },
            CoreSeaEvent::Homecoming { turn, player, x, y } => SeaEvent {
                kind: "homecoming",
                turn: *turn,
                players: vec![*player as usize],
                square: Some((*x, *y)),
                ..blank
            },
            CoreSeaEvent::Trade {
                turn,
                player,
                give,
                take,
            } => SeaEvent {
                kind: "trade",
                turn: *turn,
                players: vec![*player as usize],
                trade: Some((*give, *take)),
                ..blank
            },
        }
    }
}

#[pymethods]
impl SeaEvent {
    fn __repr__(&self) -> String {
        match self.kind {
            "wares" => format!(
                "SeaEvent(kind='wares', turn={}, feature='{}', players={:?}, wares={:?}, complete={}, boat={}, final_scoring={})",
                self.turn,
                self.feature.unwrap_or(""),
                self.players,
                self.wares.unwrap_or_default(),
                crate::py_bool(self.complete),
                crate::py_bool(self.boat),
                crate::py_bool(self.final_scoring)
            ),
            "friday" => format!(
                "SeaEvent(kind='friday', turn={}, friday_tile='{}', players={:?}, wares={:?})",
                self.turn,
                self.friday_tile.as_deref().unwrap_or(""),
                self.players,
                self.wares.unwrap_or_default()
            ),
            "homecoming" => format!(
                "SeaEvent(kind='homecoming', turn={}, players={:?}, square={:?})",
                self.turn,
                self.players,
                self.square.unwrap_or_default()
            ),
            "trade" => format!(
                "SeaEvent(kind='trade', turn={}, players={:?}, trade={:?})",
                self.turn,
                self.players,
                self.trade.unwrap_or_default()
            ),
            "boat" => format!(
                "SeaEvent(kind='boat', turn={}, square={:?}, fish={})",
                self.turn,
                self.square.unwrap_or_default(),
                self.fish
            ),
            _ => format!(
                "SeaEvent(kind='ship', turn={}, players={:?}, ship='{}', points={}, wares={})",
                self.turn,
                self.players,
                self.ship.as_deref().unwrap_or(""),
                self.points,
                self.wares.map_or("None".to_string(), |w| format!(
                    "({}, {}, {})",
                    w.0, w.1, w.2
                ))
            ),
        }
    }
}

/// Ware names, in the order of every ware tuple.
pub fn ware_names() -> Vec<&'static str> {
    WARES.to_vec()
}
