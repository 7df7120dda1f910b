//! Carcassonne Maps arguments from Python: which start squares are used and how their
//! tiles are turned (M-12), checked here with the argument named, as `Int` checks numbers.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::RulesError;
use crate::args::Int;
use carcassonne_core::data::map::MAX_MAP_SIDE;
use carcassonne_core::engine::rules::StartSquares;

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
    let coord = |v: &Bound<'_, PyAny>, name: &str| -> PyResult<u32> {
        v.extract::<Int>().map_err(|_| bad())?.within(
            &format!("start_squares: a {name}"),
            0,
            MAX_MAP_SIDE as i128 - 1,
            RulesError::new_err,
        )
    };
    let squares = listed(obj, "start_squares", "squares", bad, |item| {
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
        Ok((coord(col, "column")?, coord(row, "row")?))
    })?;
    Ok(StartSquares::At(squares))
}

/// `start_rotations=`: an iterable of rotations (0 to 3 quarter turns clockwise) or None
/// (the first that fits), one per start square used.
pub fn start_rotations(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Option<u8>>> {
    let bad = || {
        RulesError::new_err(
            "start_rotations must be a list of rotations (0 to 3, or None for the first that fits), one per start square",
        )
    };
    listed(obj, "start_rotations", "rotations", bad, |item| {
        if item.is_none() {
            return Ok(None);
        }
        let r: Int = item.extract().map_err(|_| bad())?;
        Ok(Some(r.within(
            "a start rotation",
            0,
            3,
            RulesError::new_err,
        )?))
    })
}

/// The items of the iterable argument `name`, each read by `read`: a string is not a
/// list (`bad`), and at most `MAX_LISTED` items are read, so an endless iterator cannot
/// hang.
fn listed<T>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    items: &str,
    bad: impl Fn() -> PyErr,
    mut read: impl FnMut(&Bound<'_, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    if obj.is_instance_of::<PyString>() {
        return Err(bad());
    }
    let mut out = Vec::new();
    for item in obj.try_iter().map_err(|_| bad())? {
        if out.len() >= MAX_LISTED {
            return Err(RulesError::new_err(format!(
                "{name} lists more than {MAX_LISTED} {items}"
            )));
        }
        out.push(read(&item?)?);
    }
    Ok(out)
}

/// Reads and checks a map file or built-in map (see ``carcassonne.maps.check``): what
/// was read, its faults as (line, column, square or None, message), and the summary as
/// JSON when there is no fault. ``TileDataError`` for a file that cannot be read.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn check_map(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
) -> PyResult<(
    String,
    Vec<(usize, usize, Option<(usize, usize)>, String)>,
    Option<String>,
)> {
    use carcassonne_core::data::{DataKind, DataSource};
    let source = crate::data_source(py, source, DataKind::Map)?;
    let (label, text) = match &source {
        DataSource::Builtin(name) => (
            name.clone(),
            DataKind::Map
                .builtin_text(name)
                .expect("a built-in map's text")
                .to_string(),
        ),
        DataSource::File { path, toml } => (path.clone(), toml.clone()),
    };
    // Checking is linear in the file (at most 1 MB): no need to release the GIL.
    match carcassonne_core::data::map::check_map(&text) {
        Ok(map) => Ok((
            label,
            Vec::new(),
            // Cannot fail: the summary holds strings, numbers and lists only.
            Some(
                serde_json::to_string(&carcassonne_core::data::map::summarize(&map))
                    .expect("a summary serialises"),
            ),
        )),
        Err(faults) => Ok((
            label,
            faults
                .into_iter()
                .map(|f| (f.line, f.column, f.square, f.message))
                .collect(),
            None,
        )),
    }
}

/// The text of a random valid map file (see ``carcassonne.maps.generate``);
/// ``RulesError`` naming the argument for a shape no map can have.
#[pyfunction]
#[pyo3(signature = (seed, squares, large_cities, islands, ferries, border_pieces, waves, highlights, towns, start_squares))]
#[allow(clippy::too_many_arguments)]
pub fn generate_map(
    py: Python<'_>,
    seed: Int,
    squares: Int,
    large_cities: Int,
    islands: Int,
    ferries: Int,
    border_pieces: Int,
    waves: Int,
    highlights: Int,
    towns: Int,
    start_squares: Int,
) -> PyResult<String> {
    use carcassonne_core::data::map::{MAX_SQUARES, MapShape, generate};
    let seed: u64 = seed.within("seed", 0, crate::args::U64_MAX, RulesError::new_err)?;
    let n = |v: Int, name: &str, lo: i128, hi: i128| -> PyResult<u32> {
        v.within(name, lo, hi, RulesError::new_err)
    };
    let shape = MapShape {
        squares: n(squares, "squares", 1, MAX_SQUARES as i128)?,
        large_cities: n(large_cities, "large_cities", 0, 25)?,
        islands: n(islands, "islands", 0, 100)?,
        ferries: n(ferries, "ferries", 0, 100)?,
        border_pieces: n(border_pieces, "border_pieces", 0, 1_000)?,
        waves: n(waves, "waves", 0, 1_000)?,
        highlights: n(highlights, "highlights", 0, 1_000)?,
        towns: n(towns, "towns", 0, 1_000)?,
        start_squares: n(start_squares, "start_squares", 1, 100)?,
    };
    // The largest shape takes a fraction of a second: the GIL is released meanwhile.
    py.detach(|| generate(seed, &shape))
        .map_err(RulesError::new_err)
}
