//! Python bindings: a thin layer that converts values and errors and releases the GIL for
//! batch work. No rules live here; everything is delegated to `carcassonne-core`. This
//! file holds the exceptions, the argument helpers every class shares and the module's
//! registration; each class has its own module (rules, game, moves, views, ...).

use std::sync::Arc;

mod actions;
mod args;
mod deprecation;
mod exclusive;
mod ferries_view;
mod friday_view;
mod game;
mod interrupt;
mod learn;
mod maps;
mod moves;
mod options;
mod players;
mod rules;
mod sea_view;
mod search;
mod simulation;
mod south_seas;
mod system_view;
mod tiles;
mod value;
mod views;
use args::{I32_MAX, I32_MIN, Int, U64_MAX};
use deprecation::deprecated;
use ferries_view::FerriesView;
use friday_view::FridayView;
pub(crate) use game::Game;
pub(crate) use moves::Move;
pub(crate) use rules::{Rules, data_source};
use sea_view::SeaView;
use south_seas::{Delivery, SeaEvent, Ship};
pub(crate) use views::{Feature, PlacedTile, ScoreEvent};

use carcassonne_core::data::tileset::{FeatureKind, NO_SEGMENT, System};
use carcassonne_core::data::{DataKind, SourceError};
use carcassonne_core::engine::decision::{Decision, Phase, Spot};
use carcassonne_core::engine::game::{Game as CoreGame, IllegalMove, Move as CoreMove};
use carcassonne_core::engine::rules::{
    DataSource, MAX_DECK, RULES_VERSION, Rules as CoreRules, RulesError as CoreRulesError,
    RulesSpec,
};
use carcassonne_core::engine::scoring::ScoreKind;
use carcassonne_core::play::record::{ENGINE_VERSION, RecordError as CoreRecordError};
use carcassonne_core::quote::{cap, quote};
use carcassonne_core::systems::ferries::state::{FerryMove, FerryMoves, MAX_FERRY_MOVES};
use carcassonne_core::topology::{SLOT_NAMES, parse_slot};
use numpy::IntoPyArray;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

create_exception!(
    _core,
    CarcassonneError,
    PyValueError,
    "The base of every error this library raises for bad input or a refused action (a\n\
     ValueError): catch it to catch them all."
);
create_exception!(
    _core,
    IllegalMoveError,
    CarcassonneError,
    "A move the rules do not allow; the game is unchanged. Also a placement (or any\n\
     other action) while the Maps extra turn is to be decided (the message names the\n\
     pending ``extra_turn`` decision), and ``Decision.extra_turn`` when no extra turn is\n\
     offered."
);
create_exception!(
    _core,
    GameOverError,
    IllegalMoveError,
    "A move was played after the game ended."
);
create_exception!(
    _core,
    RulesError,
    CarcassonneError,
    "An invalid rules configuration (players, meeples, tile sets, deck) or study setting\n\
     (games, seed, threads, a study too large for memory)."
);
create_exception!(
    _core,
    TileDataError,
    RulesError,
    "A malformed, inconsistent or oversized data file (tiles, ships, Friday tiles); names\n\
     the file, entry and fault, quoting at most a short excerpt of the input."
);
create_exception!(
    _core,
    UnknownTileError,
    RulesError,
    "A tile id that none of the chosen tile sets defines."
);
create_exception!(
    _core,
    RecordError,
    CarcassonneError,
    "A game record (JSON) that cannot be loaded; the fault found while loading (an\n\
     invalid rules part, an illegal move) is its ``__cause__``."
);
create_exception!(
    _core,
    ActionSpaceError,
    CarcassonneError,
    "An action token or token sequence the action space does not have or that leads to\n\
     no legal action, a window the rules cannot take, or a game of other rules."
);
create_exception!(
    _core,
    WindowOverflowError,
    ActionSpaceError,
    "The game's played area has outgrown the action space's board window: use a larger\n\
     window."
);
create_exception!(
    _core,
    EvaluationError,
    CarcassonneError,
    "A search's evaluation function returned what the search cannot use: not a\n\
     (priors, values) pair, arrays of the wrong shape, a negative or non-finite prior, a\n\
     value outside -1 to 1; names the batch row."
);
create_exception!(
    _core,
    BusyError,
    CarcassonneError,
    "An object was used from inside one of its own calls (a search started from its\n\
     own evaluation); nothing was done. Calls from several threads wait for each other\n\
     instead."
);
create_exception!(
    _core,
    PositionError,
    CarcassonneError,
    "A question about the board naming a square or feature the position does not have."
);

/// Error messages reach Python cut to a few kilobytes, whatever input they repeat.
fn message(e: impl std::fmt::Display) -> String {
    cap(e.to_string())
}

fn rules_err(e: CoreRulesError) -> PyErr {
    match e {
        CoreRulesError::Data(_)
        | CoreRulesError::Source(SourceError::TooLarge { .. } | SourceError::Unreadable { .. }) => {
            TileDataError::new_err(message(e))
        }
        CoreRulesError::UnknownTile(_) | CoreRulesError::UnknownStartTile(_) => {
            UnknownTileError::new_err(message(e))
        }
        _ => RulesError::new_err(message(e)),
    }
}

/// A Python action argument (`Move` or `Decision`) as the core's action.
fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<carcassonne_core::play::action::Action> {
    actions::action_of(action).ok_or_else(|| {
        IllegalMoveError::new_err(format!(
            "an action is a Move or a Decision, not {}",
            type_name(action)
        ))
    })
}

/// The type of a Python value, for error messages.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "an unknown type".into())
}

pub(crate) fn move_err(e: IllegalMove) -> PyErr {
    match e {
        IllegalMove::GameOver => GameOverError::new_err(message(e)),
        _ => IllegalMoveError::new_err(message(e)),
    }
}

/// Why a question about the tile in hand has no answer now that no tile is in hand: the
/// game is over (GameOverError), or the Maps extra turn is to be decided first
/// (IllegalMoveError, as a placement then is).
pub(crate) fn no_tile_err(g: &CoreGame) -> PyErr {
    if !g.is_over() && g.phase() == Phase::ExtraTurn {
        move_err(IllegalMove::ExtraTurnPending)
    } else {
        move_err(IllegalMove::GameOver)
    }
}

/// Every refused record is a RecordError; the underlying fault (an invalid rules part, an
/// illegal move) is chained as its cause.
fn record_err(py: Python<'_>, e: CoreRecordError) -> PyErr {
    let err = RecordError::new_err(message(&e));
    // The fault itself, also inside the note that the record is of older rules.
    let mut inner = &e;
    while let CoreRecordError::OlderRules { error, .. } = inner {
        inner = error;
    }
    let cause = match inner {
        CoreRecordError::Rules(r) => Some(rules_err(r.clone())),
        CoreRecordError::Move { error, .. } => Some(move_err(error.clone())),
        _ => None,
    };
    err.set_cause(py, cause);
    err
}

/// A board coordinate of a move (any i32; squares off the board are refused by `play`).
fn coordinate(name: &str, v: Int) -> PyResult<i32> {
    v.within(name, I32_MIN, I32_MAX, IllegalMoveError::new_err)
}

/// A square named inside a move's parts (an islander's, a lake's): the engine keeps these
/// in 16 bits.
fn short_coordinate(name: &str, v: Int) -> PyResult<i16> {
    v.within(
        name,
        i16::MIN as i128,
        i16::MAX as i128,
        IllegalMoveError::new_err,
    )
}

/// A tile feature index (0 to 254; 255 marks "no feature" inside the engine).
fn feature_index(name: &str, v: Int) -> PyResult<u8> {
    v.within(name, 0, NO_SEGMENT as i128 - 1, IllegalMoveError::new_err)
}

/// An islander's place from Python arguments.
pub(crate) fn spot_arg(x: Int, y: Int, feature: Int) -> PyResult<Spot> {
    Ok(Spot {
        x: short_coordinate("an islander's x", x)?,
        y: short_coordinate("an islander's y", y)?,
        segment: feature_index("an islander's feature", feature)?,
    })
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// A rotation, 0 to 3; `error` is the exception class of the caller (a move's rotation is
/// an IllegalMoveError, a query's a PositionError).
fn rotation_arg(rotation: Int, error: fn(String) -> PyErr) -> PyResult<u8> {
    rotation
        .value()
        .filter(|r| (0..4).contains(r))
        .map(|r| r as u8)
        .ok_or_else(|| {
            error(format!(
                "rotation must be 0, 1, 2 or 3 (quarter turns clockwise), got {}",
                rotation.describe()
            ))
        })
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Rules>()?;
    m.add_class::<options::RuleOption>()?;
    options::add_option_properties(py)?;
    options::add_signature(py)?;
    m.add_class::<Move>()?;
    m.add_class::<Game>()?;
    m.add_class::<PlacedTile>()?;
    m.add_class::<Feature>()?;
    m.add_class::<tiles::TileFeature>()?;
    m.add_class::<ScoreEvent>()?;
    m.add_class::<Ship>()?;
    m.add_class::<Delivery>()?;
    m.add_class::<actions::Decision>()?;
    m.add_class::<actions::ActionValue>()?;
    m.add_class::<learn::ActionSpace>()?;
    m.add_class::<learn::ActionBlock>()?;
    m.add_class::<learn::ObservationSpace>()?;
    m.add_class::<learn::VectorEnv>()?;
    m.add_class::<search::PuctSearch>()?;
    m.add_class::<search::SearchReport>()?;
    m.add_class::<SeaEvent>()?;
    m.add_class::<SeaView>()?;
    m.add_class::<FridayView>()?;
    m.add_class::<FerriesView>()?;
    m.add_function(wrap_pyfunction!(maps::check_map, m)?)?;
    m.add_function(wrap_pyfunction!(maps::generate_map, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::simulate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::simulate_totals, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::replay_game, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::check_rows_fit, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::max_threads_py, m)?)?;
    m.add_function(wrap_pyfunction!(value::learned_values, m)?)?;
    m.add_function(wrap_pyfunction!(value::train_value, m)?)?;
    m.add("LEARNED_LAYOUT", carcassonne_core::learn::value::LAYOUT)?;
    m.add("LEARNED_WEIGHTS", carcassonne_core::learn::value::WEIGHTS)?;
    m.add("CarcassonneError", py.get_type::<CarcassonneError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("TileDataError", py.get_type::<TileDataError>())?;
    m.add("UnknownTileError", py.get_type::<UnknownTileError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("ActionSpaceError", py.get_type::<ActionSpaceError>())?;
    m.add("WindowOverflowError", py.get_type::<WindowOverflowError>())?;
    m.add("EvaluationError", py.get_type::<EvaluationError>())?;
    m.add("BusyError", py.get_type::<BusyError>())?;
    m.add("PlayerError", py.get_type::<players::PlayerError>())?;
    m.add(
        "MAX_DATA_FILE_BYTES",
        carcassonne_core::data::MAX_DATA_FILE_BYTES,
    )?;
    m.add(
        "MAX_RECORD_BYTES",
        carcassonne_core::play::record::MAX_RECORD_BYTES,
    )?;
    // Load numpy's C API now: loaded lazily, it would run Python code (numpy's import)
    // after a long simulate, where a pending Ctrl-C made rust-numpy panic.
    let _ = Vec::<u8>::new().into_pyarray(py);
    m.add("RULES_VERSION", RULES_VERSION)?;
    m.add("ENGINE_VERSION", ENGINE_VERSION)?;
    m.add("TILE_SETS", DataKind::Tiles.builtin_names())?;
    m.add("WARES", south_seas::ware_names())?;
    m.add(
        "SCORE_KINDS",
        ScoreKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>(),
    )?;
    Ok(())
}
