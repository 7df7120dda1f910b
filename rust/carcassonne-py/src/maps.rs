//! Carcassonne Maps arguments from Python: which start squares are used and how their
//! tiles are turned (M-12), checked here with the argument named, as `Int` checks numbers.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::RulesError;
use crate::args::Int;
use carcassonne_core::map::MAX_MAP_SIDE;
use carcassonne_core::rules::StartSquares;

/// Most entries read from an iterable argument: far more than any map has start squares
/// (a map has at most `MAX_MAP_SIDE`^2 squares), so an endless iterator cannot hang.
const MAX_LISTED: usize = MAX_MAP_SIDE * MAX_MAP_SIDE;

/// `start_squares=`: a number (how many, from the map's first) or an iterable of
/// (column, row) pairs (exactly which, in order).
pub fn start_squares(obj: &Bound<'_, PyAny>) -> PyResult<StartSquares> {
    if let Ok(n) = obj.extract::<Int>() {
        return Ok(StartSquares::Count(n.within(
            "start_squares",
            1,
            MAX_LISTED as i128,
            RulesError::new_err,
        )?));
    }
    let bad = || {
        RulesError::new_err(
            "start_squares must be a number of start squares or a list of (column, row) pairs, e.g. [(4, 2), (11, 7)]",
        )
    };
    if obj.is_instance_of::<PyString>() {
        return Err(bad());
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| bad())? {
        if out.len() >= MAX_LISTED {
            return Err(RulesError::new_err(format!(
                "start_squares lists more than {MAX_LISTED} squares"
            )));
        }
        let item = item?;
        if item.is_instance_of::<PyString>() {
            return Err(bad());
        }
        let pair: Vec<Bound<'_, PyAny>> = match item.try_iter() {
            Ok(it) => it.take(3).collect::<PyResult<_>>()?,
            Err(_) => return Err(bad()),
        };
        let [col, row] = pair.as_slice() else {
            return Err(bad());
        };
        let coord = |v: &Bound<'_, PyAny>, name: &str| -> PyResult<u32> {
            v.extract::<Int>().map_err(|_| bad())?.within(
                &format!("start_squares: a {name}"),
                0,
                MAX_MAP_SIDE as i128 - 1,
                RulesError::new_err,
            )
        };
        out.push((coord(col, "column")?, coord(row, "row")?));
    }
    Ok(StartSquares::At(out))
}

/// `start_rotations=`: an iterable of rotations (0 to 3 quarter turns clockwise) or None
/// (the first that fits), one per start square used.
pub fn start_rotations(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Option<u8>>> {
    let bad = || {
        RulesError::new_err(
            "start_rotations must be a list of rotations (0 to 3, or None for the first that fits), one per start square",
        )
    };
    if obj.is_instance_of::<PyString>() {
        return Err(bad());
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| bad())? {
        if out.len() >= MAX_LISTED {
            return Err(RulesError::new_err(format!(
                "start_rotations lists more than {MAX_LISTED} rotations"
            )));
        }
        let item = item?;
        if item.is_none() {
            out.push(None);
            continue;
        }
        let r: Int = item.extract().map_err(|_| bad())?;
        out.push(Some(r.within(
            "a start rotation",
            0,
            3,
            RulesError::new_err,
        )?));
    }
    Ok(out)
}
