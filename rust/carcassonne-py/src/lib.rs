//! Python bindings: a thin layer that converts values and errors and releases the GIL for
//! batch work. No rules live here; everything is delegated to `carcassonne-core`.

use std::sync::Arc;

mod actions;
mod args;
mod interrupt;
mod maps;
mod players;
mod simulation;
mod south_seas;
mod tiles;
use args::{I32_MAX, I32_MIN, Int, U64_MAX};
use south_seas::{Delivery, SeaEvent, Ship};

use carcassonne_core::data::{DataKind, SourceError};
use carcassonne_core::ferries::{FerryMove, FerryMoves, MAX_FERRY_MOVES};
use carcassonne_core::game::{Game as CoreGame, IllegalMove, Move as CoreMove};
use carcassonne_core::quote::{cap, quote};
use carcassonne_core::record::{ENGINE_VERSION, RecordError as CoreRecordError};
use carcassonne_core::rules::{
    DataSource, MAX_DECK, MAX_MEEPLES, MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION, Rules as CoreRules,
    RulesError as CoreRulesError, RulesSpec,
};
use carcassonne_core::scoring::ScoreKind;
use carcassonne_core::south_seas::{Decision, Phase, Spot};
use carcassonne_core::tileset::{FeatureKind, NO_SEGMENT, System};
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
    "The base of every error this library raises for bad input or a refused action (a ValueError): catch it to catch them all."
);
create_exception!(
    _core,
    IllegalMoveError,
    CarcassonneError,
    "A move the rules do not allow; the game is unchanged."
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
    "An invalid rules configuration (players, meeples, tile sets, deck) or study setting (games, seed, threads)."
);
create_exception!(
    _core,
    TileDataError,
    RulesError,
    "A malformed, inconsistent or oversized data file (tiles, ships, Friday tiles); names the file, entry and fault."
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
    "A game record (JSON) that cannot be loaded; the fault found while loading is its __cause__."
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
        CoreRulesError::Data(_) | CoreRulesError::Source(SourceError::TooLarge { .. }) => {
            TileDataError::new_err(message(e))
        }
        CoreRulesError::UnknownTile(_) | CoreRulesError::UnknownStartTile(_) => {
            UnknownTileError::new_err(message(e))
        }
        _ => RulesError::new_err(message(e)),
    }
}

/// A Python action argument (`Move` or `Decision`) as the core's action.
fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<carcassonne_core::action::Action> {
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

// ----- Rules -----------------------------------------------------------------------

/// Validated rules: players, meeples, tile sets and rules options.
#[pyclass(frozen, module = "carcassonne._core")]
struct Rules {
    inner: Arc<CoreRules>,
}

/// The map(s) of `Rules(map=...)`: a built-in name or a map file, two of them joined (a
/// pair, or built-in names written "west+east").
fn map_sources(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
) -> PyResult<(DataSource, Option<DataSource>)> {
    if let Ok(pair) = obj.cast::<pyo3::types::PyTuple>() {
        if pair.len() != 2 {
            return Err(RulesError::new_err(format!(
                "map takes one map or a pair of half maps to join, got {} maps",
                pair.len()
            )));
        }
        return Ok((
            data_source(py, &pair.get_item(0)?, DataKind::Map)?,
            Some(data_source(py, &pair.get_item(1)?, DataKind::Map)?),
        ));
    }
    if let Ok(text) = obj.extract::<String>()
        && let Some((a, b)) = text.split_once('+')
        && DataKind::Map.builtin_text(a).is_some()
        && DataKind::Map.builtin_text(b).is_some()
    {
        return Ok((
            DataSource::Builtin(a.to_string()),
            Some(DataSource::Builtin(b.to_string())),
        ));
    }
    Ok((data_source(py, obj, DataKind::Map)?, None))
}

fn tile_set_source(py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<DataSource> {
    data_source(py, item, DataKind::Tiles)
}

/// A built-in data set of `kind`, or a `.toml` file (read now, so the rules are
/// self-contained; refused unread when it is not a regular file or is too large).
pub(crate) fn data_source(
    py: Python<'_>,
    item: &Bound<'_, PyAny>,
    kind: DataKind,
) -> PyResult<DataSource> {
    let os = py.import("os")?;
    let text: String = os.call_method1("fspath", (item,))?.extract()?;
    if kind.builtin_text(&text).is_some() {
        return Ok(DataSource::Builtin(text));
    }
    let path = std::path::Path::new(&text);
    // A path that exists is read as one (a directory or FIFO is refused unread below).
    if text.ends_with(".toml") || path.exists() {
        let cannot = |why: String| {
            TileDataError::new_err(message(format!(
                "{}: cannot read the {}: {why}",
                carcassonne_core::quote::path(&text),
                kind.file_noun()
            )))
        };
        let meta = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?;
        if !meta.is_file() {
            return Err(cannot("not a regular file".into()));
        }
        carcassonne_core::data::check_size(kind, &text, meta.len())
            .map_err(|e| rules_err(e.into()))?;
        // Read at most one byte past the limit, in case the file grew since.
        let mut bytes = Vec::new();
        use std::io::Read;
        std::fs::File::open(path)
            .and_then(|f| {
                f.take(carcassonne_core::data::MAX_DATA_FILE_BYTES as u64 + 1)
                    .read_to_end(&mut bytes)
            })
            .map_err(|e| cannot(e.to_string()))?;
        carcassonne_core::data::check_size(kind, &text, bytes.len() as u64)
            .map_err(|e| rules_err(e.into()))?;
        let toml = String::from_utf8(bytes).map_err(|e| cannot(e.to_string()))?;
        return Ok(DataSource::File { path: text, toml });
    }
    Err(rules_err(SourceError::UnknownBuiltin(kind, text).into()))
}

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (*, players=Int::of(2), meeples=None, tile_sets=None, start_tile=None, farmers=true,
                        inns_and_cathedrals_scoring=false, traders_goods=false, ferries_edition="C3",
                        ships=None, retrieve_only_when_supply_empty=false,
                        boat_evaluates_unoccupied=false, friday=false, friday_tiles=None,
                        map=None, start_squares=None, start_rotations=None, deck_size=None,
                        small_towns=None))]
    #[pyo3(
        text_signature = "(*, players=2, meeples=None, tile_sets=None, start_tile=None, farmers=True, inns_and_cathedrals_scoring=False, traders_goods=False, ferries_edition='C3', ships=None, retrieve_only_when_supply_empty=False, boat_evaluates_unoccupied=False, friday=False, friday_tiles=None, map=None, start_squares=None, start_rotations=None, deck_size=None, small_towns=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        players: Int,
        meeples: Option<Int>,
        tile_sets: Option<Bound<'_, PyAny>>,
        start_tile: Option<&str>,
        farmers: bool,
        inns_and_cathedrals_scoring: bool,
        traders_goods: bool,
        ferries_edition: &str,
        ships: Option<Bound<'_, PyAny>>,
        retrieve_only_when_supply_empty: bool,
        boat_evaluates_unoccupied: bool,
        friday: bool,
        friday_tiles: Option<Bound<'_, PyAny>>,
        map: Option<Bound<'_, PyAny>>,
        start_squares: Option<Bound<'_, PyAny>>,
        start_rotations: Option<Bound<'_, PyAny>>,
        deck_size: Option<Int>,
        small_towns: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let small_towns: Vec<u8> = match small_towns {
            None => Vec::new(),
            Some(obj) => {
                let mut out = Vec::new();
                for item in obj.try_iter()? {
                    let v: Int = item?.extract()?;
                    out.push(v.within("a small-town variant", 1, 3, RulesError::new_err)?);
                    if out.len() > 3 {
                        return Err(RulesError::new_err(
                            "small_towns lists the variants 1, 2 and 3, each at most once",
                        ));
                    }
                }
                out
            }
        };
        let (map, join_map) = match map {
            None => (None, None),
            Some(obj) => {
                let (first, second) = map_sources(py, &obj)?;
                (Some(first), second)
            }
        };
        let start_squares = start_squares
            .map(|obj| maps::start_squares(&obj))
            .transpose()?;
        let start_rotations = start_rotations
            .map(|obj| maps::start_rotations(&obj))
            .transpose()?
            .unwrap_or_default();
        let deck_size: Option<u32> = deck_size
            .map(|n| n.within("deck_size", 0, MAX_DECK as i128, RulesError::new_err))
            .transpose()?;
        let players: u32 = players.within(
            "players",
            MIN_PLAYERS as i128,
            MAX_PLAYERS as i128,
            RulesError::new_err,
        )?;
        let chosen_meeples: Option<u32> = meeples
            .map(|m| {
                m.within(
                    "meeples per player",
                    0,
                    MAX_MEEPLES as i128,
                    RulesError::new_err,
                )
            })
            .transpose()?;
        let sets = match tile_sets {
            // Maps recommend base + Inns & Cathedrals + Traders & Builders (M-3).
            None if map.is_some() => RulesSpec::maps("", players).tile_sets,
            None => vec![DataSource::Builtin("base".into())],
            Some(obj) => {
                if obj.is_instance_of::<pyo3::types::PyString>() {
                    return Err(RulesError::new_err(
                        "tile_sets must be a sequence of names or paths, e.g. (\"base\",)",
                    ));
                }
                let mut out = Vec::new();
                for item in obj.try_iter()? {
                    // Each set adds at least one tile: more sets than this make too large
                    // a deck, and an endless iterator must not hang.
                    if out.len() > MAX_DECK {
                        return Err(RulesError::new_err(format!(
                            "tile_sets lists more than {MAX_DECK} sets"
                        )));
                    }
                    out.push(tile_set_source(py, &item?)?);
                }
                out
            }
        };
        // Options of another rule system are refused, even when they name the default.
        let (ships_given, friday_tiles_given) = (ships.is_some(), friday_tiles.is_some());
        let ships = match ships {
            None => RulesSpec::default().ships,
            Some(obj) => data_source(py, &obj, DataKind::Ships)?,
        };
        let friday_tiles = match friday_tiles {
            None => RulesSpec::default().friday_tiles,
            Some(obj) => data_source(py, &obj, DataKind::Friday)?,
        };
        // Maps: 9 meeples each (the seed's setup).
        let default_meeples = match map {
            Some(_) => RulesSpec::maps("", players).meeples,
            None => RulesSpec::default().meeples,
        };
        let mut spec = RulesSpec {
            players,
            meeples: chosen_meeples.unwrap_or(default_meeples),
            tile_sets: sets,
            // Empty: the tile the sets mark as the start tile (base/D in classic games).
            start_tile: start_tile.unwrap_or("").to_string(),
            farmers,
            inns_and_cathedrals_scoring,
            traders_goods,
            ferries_edition: ferries_edition.to_string(),
            ships,
            retrieve_only_when_supply_empty,
            boat_evaluates_unoccupied,
            friday,
            friday_tiles,
            map,
            join_map,
            start_squares,
            start_rotations,
            deck_size,
            small_towns,
        };
        let mut rules = CoreRules::new(spec.clone()).map_err(rules_err)?;
        // South Seas players have 4 islanders unless told otherwise.
        if chosen_meeples.is_none() && rules.system == System::SouthSeas {
            spec.meeples = RulesSpec::south_seas(players).meeples;
            rules = CoreRules::new(spec).map_err(rules_err)?;
        }
        if ships_given && rules.system != System::SouthSeas {
            return Err(rules_err(CoreRulesError::ShipsNeedSouthSeas));
        }
        if friday_tiles_given && !rules.spec.friday {
            return Err(rules_err(CoreRulesError::FridayTilesNeedFriday));
        }
        Ok(Rules {
            inner: Arc::new(rules),
        })
    }

    #[getter]
    fn players(&self) -> u32 {
        self.inner.spec.players
    }
    #[getter]
    fn meeples(&self) -> u32 {
        self.inner.spec.meeples
    }
    #[getter]
    fn tile_sets(&self) -> Vec<String> {
        self.inner
            .spec
            .tile_sets
            .iter()
            .map(|s| s.label().to_string())
            .collect()
    }
    #[getter]
    fn start_tile(&self) -> String {
        self.inner.tiles[self.inner.start_tile as usize].id.clone()
    }

    /// "classic" or "south-seas", from the tile sets.
    #[getter]
    fn system(&self) -> &'static str {
        self.inner.system.name()
    }

    /// South Seas: the ships of the ship set, in file order (empty for classic rules).
    #[getter]
    fn ships(&self) -> Vec<Ship> {
        self.inner.ships.iter().map(Ship::from_core).collect()
    }

    #[getter]
    fn ship_set(&self) -> String {
        self.inner.spec.ships.label().to_string()
    }

    #[getter]
    fn retrieve_only_when_supply_empty(&self) -> bool {
        self.inner.spec.retrieve_only_when_supply_empty
    }

    #[getter]
    fn boat_evaluates_unoccupied(&self) -> bool {
        self.inner.spec.boat_evaluates_unoccupied
    }

    /// South Seas: the Friday expansion is played.
    #[getter]
    fn friday(&self) -> bool {
        self.inner.spec.friday
    }

    /// Friday: label of the bonus file (built-in name or path).
    #[getter]
    fn friday_set(&self) -> String {
        self.inner.spec.friday_tiles.label().to_string()
    }

    /// Friday: (id, bonus) of the six Friday tiles (empty unless Friday is played).
    fn friday_tiles(&self) -> Vec<(String, String)> {
        self.inner
            .friday
            .iter()
            .map(|t| (t.id.clone(), t.bonus.describe()))
            .collect()
    }

    /// Data sets in use that are reconstructions rather than transcriptions of the
    /// printed game, with the text each file gives about how it was built.
    fn reconstructions(&self) -> Vec<(String, String)> {
        self.inner.reconstructions.clone()
    }
    #[getter]
    fn farmers(&self) -> bool {
        self.inner.spec.farmers
    }
    #[getter]
    fn inns_and_cathedrals_scoring(&self) -> bool {
        self.inner.spec.inns_and_cathedrals_scoring
    }
    #[getter]
    fn traders_goods(&self) -> bool {
        self.inner.spec.traders_goods
    }
    /// Lake tile distribution of The Ferries: "C3" (3/3/2) or "C2" (3/4/1).
    #[getter]
    fn ferries_edition(&self) -> String {
        self.inner.spec.ferries_edition.clone()
    }
    /// Number of tiles in a full game's deck: all tiles but the start tile, or on a map
    /// the chosen number (the start squares after the first take theirs from it).
    #[getter]
    fn deck_size(&self) -> usize {
        self.inner.deck_limit
    }

    /// Carcassonne Maps: the map played on (a built-in name or a file's path), or None.
    #[getter]
    fn map(&self) -> Option<String> {
        let spec = &self.inner.spec;
        spec.map.as_ref().map(|m| match &spec.join_map {
            Some(j) => format!("{}+{}", m.label(), j.label()),
            None => m.label().to_string(),
        })
    }

    /// Carcassonne Maps: start squares given a tile before the first turn (None without
    /// a map).
    #[getter]
    fn start_squares(&self) -> Option<u32> {
        self.inner
            .spec
            .map
            .as_ref()
            .map(|_| self.inner.start_squares)
    }

    /// Carcassonne Maps: what the map holds (squares by kind, large cities, border pieces,
    /// ferries, islands, start squares) as JSON, or None without a map (see
    /// `carcassonne.maps.MapSummary`).
    fn map_summary_json(&self) -> Option<String> {
        let carcassonne_core::geometry::Geometry::Map(m) = &self.inner.geometry else {
            return None;
        };
        Some({
            // Cannot fail: the summary holds strings, numbers and lists only.
            serde_json::to_string(&carcassonne_core::map::summarize(&m.def))
                .expect("a summary serialises")
        })
    }

    /// Carcassonne Maps: the start squares used, as (column, row), in order (the start
    /// tile on the first); empty without a map.
    fn map_starts(&self) -> Vec<(usize, usize)> {
        self.inner.starts.iter().map(|s| s.at).collect()
    }

    /// Carcassonne Maps: the rotation asked for each start square's tile (None: the first
    /// that fits), one per start square used; empty without a map.
    #[getter]
    fn start_rotations(&self) -> Vec<Option<u8>> {
        self.inner.starts.iter().map(|s| s.rotation).collect()
    }

    /// Carcassonne Maps: the small-town variants played (1 extra turn, 2 penalty, 3 road
    /// bonus), sorted.
    #[getter]
    fn small_towns(&self) -> Vec<u32> {
        let r = &self.inner;
        [
            (1, r.town_extra_turn),
            (2, r.town_penalty),
            (3, r.town_road_bonus),
        ]
        .into_iter()
        .filter_map(|(v, on)| on.then_some(v))
        .collect()
    }

    /// Carcassonne Maps: the map's grid, one string per row in the map file's symbols
    /// (two joined maps as one grid); empty without a map.
    fn map_grid(&self) -> Vec<String> {
        match &self.inner.geometry {
            carcassonne_core::geometry::Geometry::Map(m) => m.def.grid_rows(),
            carcassonne_core::geometry::Geometry::Open => Vec::new(),
        }
    }

    /// Names of the built-in maps (original layouts, not the printed maps).
    #[staticmethod]
    fn maps() -> Vec<&'static str> {
        DataKind::Map.builtin_names()
    }
    /// Ids of every tile layout in the chosen sets.
    fn tile_ids(&self) -> Vec<String> {
        self.inner.tiles.iter().map(|t| t.id.clone()).collect()
    }
    /// The full deck (one id per tile copy, start tile excluded), in set order.
    fn full_deck(&self) -> Vec<String> {
        self.inner
            .full_deck
            .iter()
            .map(|t| self.inner.tiles[*t as usize].id.clone())
            .collect()
    }
    /// Features of a tile as meeple targets, in index order, described in board
    /// orientation for `rotation` (e.g. "city N", "road W E", "field EL WR", "monastery").
    #[pyo3(signature = (tile, rotation=Int::of(0)))]
    #[pyo3(text_signature = "($self, tile, rotation=0)")]
    fn tile_features(&self, tile: &str, rotation: Int) -> PyResult<Vec<String>> {
        let rotation = rotation_arg(rotation, RulesError::new_err)?;
        let i = self
            .inner
            .tile_index(tile)
            .ok_or_else(|| rules_err(CoreRulesError::UnknownTile(tile.into())))?;
        let def = &self.inner.tiles[i as usize];
        Ok((0..def.segments.len())
            .map(|s| def.describe_segment(s, rotation))
            .collect())
    }
    /// The features of a tile as data, with the symbols printed on each (pennants, inns,
    /// cathedrals, goods or wares, fish pairs, boats), in board orientation for `rotation`.
    #[pyo3(signature = (tile, rotation=Int::of(0)))]
    #[pyo3(text_signature = "($self, tile, rotation=0)")]
    fn tile_symbols(&self, tile: &str, rotation: Int) -> PyResult<Vec<tiles::TileFeature>> {
        let rotation = rotation_arg(rotation, RulesError::new_err)?;
        let i = self
            .inner
            .tile_index(tile)
            .ok_or_else(|| rules_err(CoreRulesError::UnknownTile(tile.into())))?;
        Ok(tiles::tile_features(
            &self.inner.tiles[i as usize],
            rotation,
        ))
    }
    /// Side kinds of a tile, N E S W, after `rotation` quarter turns clockwise ("CRFR").
    #[pyo3(signature = (tile, rotation=Int::of(0)))]
    #[pyo3(text_signature = "($self, tile, rotation=0)")]
    fn tile_edges(&self, tile: &str, rotation: Int) -> PyResult<String> {
        let rotation = rotation_arg(rotation, RulesError::new_err)?;
        let i = self
            .inner
            .tile_index(tile)
            .ok_or_else(|| rules_err(CoreRulesError::UnknownTile(tile.into())))?;
        // In the letters of the rule system's files: I B S for South Seas, C R F classic.
        let system = self.inner.system;
        Ok(self.inner.tiles[i as usize].edges_at[rotation as usize]
            .iter()
            .map(|e| system.edge_letter(*e))
            .collect())
    }
    fn to_json(&self) -> String {
        // Cannot fail: a spec holds strings, numbers, booleans and lists only.
        serde_json::to_string(&self.inner.spec).expect("rules serialise")
    }
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Rules> {
        let limit = carcassonne_core::record::MAX_RECORD_BYTES;
        if text.len() > limit {
            return Err(RulesError::new_err(format!(
                "the rules JSON has {} bytes, more than the {limit} it may have",
                text.len()
            )));
        }
        let spec: RulesSpec = serde_json::from_str(text)
            .map_err(|e| RulesError::new_err(message(format!("not a valid rules JSON: {e}"))))?;
        Ok(Rules {
            inner: Arc::new(CoreRules::new(spec).map_err(rules_err)?),
        })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Rules>()
            .map(|o| o.get().inner.spec == self.inner.spec)
            .unwrap_or(false)
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.to_json().hash(&mut h);
        h.finish()
    }
    fn __repr__(&self) -> String {
        let s = &self.inner.spec;
        if self.inner.system == System::SouthSeas {
            return format!(
                "Rules(players={}, meeples={}, tile_sets=[{}], start_tile='{}', ships='{}', retrieve_only_when_supply_empty={}, boat_evaluates_unoccupied={}, friday={}{})",
                s.players,
                s.meeples,
                self.tile_sets()
                    .iter()
                    .map(|t| format!("'{t}'"))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.start_tile(),
                s.ships.label(),
                py_bool(s.retrieve_only_when_supply_empty),
                py_bool(s.boat_evaluates_unoccupied),
                py_bool(s.friday),
                // Only with Friday: friday_tiles= without friday=True is refused.
                if s.friday {
                    format!(", friday_tiles='{}'", s.friday_tiles.label())
                } else {
                    String::new()
                },
            );
        }
        format!(
            "Rules(players={}, meeples={}, tile_sets=[{}], start_tile='{}', farmers={}, inns_and_cathedrals_scoring={}, traders_goods={}, ferries_edition='{}'{})",
            s.players,
            s.meeples,
            self.tile_sets()
                .iter()
                .map(|t| format!("'{t}'"))
                .collect::<Vec<_>>()
                .join(", "),
            self.start_tile(),
            py_bool(s.farmers),
            py_bool(s.inns_and_cathedrals_scoring),
            py_bool(s.traders_goods),
            s.ferries_edition,
            match self.map() {
                Some(m) => format!(
                    ", map='{}', start_squares={}{}, deck_size={}{}",
                    m,
                    match &s.start_squares {
                        Some(carcassonne_core::rules::StartSquares::At(list)) => format!(
                            "[{}]",
                            list.iter()
                                .map(|(c, r)| format!("({c}, {r})"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        _ => self.inner.start_squares.to_string(),
                    },
                    if s.start_rotations.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", start_rotations=[{}]",
                            s.start_rotations
                                .iter()
                                .map(|r| r.map_or("None".to_string(), |r| r.to_string()))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    },
                    self.inner.deck_limit,
                    if s.small_towns.is_empty() {
                        String::new()
                    } else {
                        format!(", small_towns={:?}", self.small_towns())
                    }
                ),
                None => String::new(),
            },
        )
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let f = py.get_type::<Rules>().getattr("from_json")?;
        Ok((f, PyTuple::new(py, [slf.get().to_json()])?))
    }
}

// ----- Move --------------------------------------------------------------------------

/// A move: square (x east, y south), rotation (quarter turns clockwise) and the index of
/// the tile feature that gets a meeple (see `Rules.tile_features`), or None.
#[pyclass(frozen, eq, hash, ord, module = "carcassonne._core")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Move {
    pub(crate) inner: CoreMove,
}

#[pymethods]
impl Move {
    #[new]
    #[pyo3(signature = (x, y, rotation=Int::of(0), meeple=None, ferry=None, ferry_moves=Vec::new(), retrieve=None))]
    #[pyo3(
        text_signature = "(x, y, rotation=0, meeple=None, ferry=None, ferry_moves=(), retrieve=None)"
    )]
    fn new(
        x: Int,
        y: Int,
        rotation: Int,
        meeple: Option<Int>,
        ferry: Option<(Int, Int)>,
        ferry_moves: Vec<(Int, Int, Int, Int)>,
        retrieve: Option<(Int, Int, Int)>,
    ) -> PyResult<Self> {
        let rotation = rotation_arg(rotation, IllegalMoveError::new_err)?;
        let meeple = meeple.map(|m| feature_index("meeple", m)).transpose()?;
        // Ferry ends are a set: stored smaller index first.
        let ends = |(a, b): (Int, Int)| -> PyResult<(u8, u8)> {
            let (a, b) = (
                feature_index("a ferry end", a)?,
                feature_index("a ferry end", b)?,
            );
            Ok((a.min(b), a.max(b)))
        };
        let ferry = ferry.map(ends).transpose()?;
        if ferry_moves.len() > MAX_FERRY_MOVES {
            return Err(IllegalMoveError::new_err(format!(
                "at most {MAX_FERRY_MOVES} ferries can move in one turn, got {}",
                ferry_moves.len()
            )));
        }
        let mut moves = Vec::with_capacity(ferry_moves.len());
        for (fx, fy, a, b) in ferry_moves {
            let (a, b) = ends((a, b))?;
            moves.push(FerryMove {
                x: short_coordinate("a ferry move's x", fx)?,
                y: short_coordinate("a ferry move's y", fy)?,
                a,
                b,
            });
        }
        // Ferry moves are a set too: stored in square order.
        moves.sort_unstable();
        // Cannot fail: at most MAX_FERRY_MOVES, checked above.
        let ferry_moves = FerryMoves::from_slice(&moves).expect("length checked");
        let retrieve = retrieve
            .map(|(rx, ry, seg)| spot_arg(rx, ry, seg))
            .transpose()?;
        Ok(Move {
            inner: CoreMove {
                x: coordinate("x", x)?,
                y: coordinate("y", y)?,
                rotation,
                meeple,
                ferry,
                ferry_moves,
                retrieve,
            },
        })
    }
    #[getter]
    fn x(&self) -> i32 {
        self.inner.x
    }
    #[getter]
    fn y(&self) -> i32 {
        self.inner.y
    }
    #[getter]
    fn rotation(&self) -> u8 {
        self.inner.rotation
    }
    #[getter]
    fn meeple(&self) -> Option<u8> {
        self.inner.meeple
    }
    /// The Ferries: road ends `(a, b)` of a lake tile that its new ferry joins.
    #[getter]
    fn ferry(&self) -> Option<(u8, u8)> {
        self.inner.ferry
    }
    /// The Ferries: `(x, y, a, b)` for each ferry moved to ends a, b of the lake at (x, y).
    #[getter]
    fn ferry_moves(&self) -> Vec<(i32, i32, u8, u8)> {
        self.inner
            .ferry_moves
            .as_slice()
            .iter()
            .map(|m| (m.x as i32, m.y as i32, m.a, m.b))
            .collect()
    }
    /// South Seas: the (x, y, feature) of the islander this move takes back, or None.
    #[getter]
    fn retrieve(&self) -> Option<(i32, i32, u8)> {
        self.inner
            .retrieve
            .map(|s| (s.x as i32, s.y as i32, s.segment))
    }
    fn __repr__(&self) -> String {
        let m = &self.inner;
        let mut text = format!("Move(x={}, y={}, rotation={}", m.x, m.y, m.rotation);
        if let Some(s) = m.meeple {
            text += &format!(", meeple={s}");
        }
        if let Some((a, b)) = m.ferry {
            text += &format!(", ferry=({a}, {b})");
        }
        if !m.ferry_moves.is_empty() {
            let items: Vec<String> = self
                .ferry_moves()
                .iter()
                .map(|t| format!("({}, {}, {}, {})", t.0, t.1, t.2, t.3))
                .collect();
            text += &format!(", ferry_moves=[{}]", items.join(", "));
        }
        if let Some((x, y, s)) = self.retrieve() {
            text += &format!(", retrieve=({x}, {y}, {s})");
        }
        text + ")"
    }
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let m = slf.get();
        let args = (
            m.inner.x,
            m.inner.y,
            m.inner.rotation,
            m.inner.meeple,
            m.inner.ferry,
            m.ferry_moves(),
            m.retrieve(),
        )
            .into_pyobject(py)?;
        Ok((py.get_type::<Move>().into_any(), args))
    }
}

// ----- read views --------------------------------------------------------------------

/// A tile on the board.
#[pyclass(frozen, get_all, module = "carcassonne._core")]
struct PlacedTile {
    x: i32,
    y: i32,
    tile: String,
    rotation: u8,
    /// `(player, feature index)` of the meeple standing on this tile, if any.
    meeple: Option<(u8, u8)>,
}

#[pymethods]
impl PlacedTile {
    fn __repr__(&self) -> String {
        format!(
            "PlacedTile(x={}, y={}, tile='{}', rotation={}, meeple={})",
            self.x,
            self.y,
            self.tile,
            self.rotation,
            self.meeple
                .map_or_else(|| "None".to_string(), |(p, f)| format!("({p}, {f})"))
        )
    }
}

/// A feature on the board (a connected road, city, monastery or field).
#[pyclass(frozen, get_all, module = "carcassonne._core")]
struct Feature {
    kind: String,
    /// Distinct squares the feature covers.
    tiles: Vec<(i32, i32)>,
    /// `(x, y, feature index)` of every tile segment in the feature.
    segments: Vec<(i32, i32, u8)>,
    complete: bool,
    /// Meeples per player.
    meeples: Vec<u32>,
    /// Open sides (roads and cities); 0 for monasteries and fields.
    open_sides: i32,
    pennants: u32,
    inns: u32,
    cathedrals: u32,
    /// Goods symbols (wine, grain, cloth).
    goods: (u16, u16, u16),
    /// Carcassonne Maps: ids of the map's printed pieces in the feature.
    printed: Vec<String>,
}

#[pymethods]
impl Feature {
    fn __repr__(&self) -> String {
        format!(
            "Feature(kind='{}', tiles={:?}, complete={}, meeples={:?})",
            self.kind,
            self.tiles,
            if self.complete { "True" } else { "False" },
            self.meeples
        )
    }
}

/// One scoring in the event log.
#[pyclass(frozen, get_all, module = "carcassonne._core")]
struct ScoreEvent {
    turn: u32,
    /// "road", "city", "monastery", "field" or "goods".
    kind: String,
    /// Points each listed player receives.
    points: i32,
    players: Vec<u32>,
    tiles: Vec<(i32, i32)>,
    /// Carcassonne Maps: ids of the printed pieces in the scored feature.
    printed: Vec<String>,
    complete: bool,
    final_scoring: bool,
    /// Goods taken (wine, grain, cloth) for goods events.
    goods: (u16, u16, u16),
}

#[pymethods]
impl ScoreEvent {
    fn __repr__(&self) -> String {
        format!(
            "ScoreEvent(turn={}, kind='{}', points={}, players={:?}, tiles={:?}, complete={}, final_scoring={})",
            self.turn,
            self.kind,
            self.points,
            self.players,
            self.tiles,
            if self.complete { "True" } else { "False" },
            if self.final_scoring { "True" } else { "False" }
        )
    }
}

// ----- Game --------------------------------------------------------------------------

/// A game in progress. See the package documentation for the full API.
#[pyclass(module = "carcassonne._core")]
pub(crate) struct Game {
    pub(crate) inner: CoreGame,
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules, *, seed=Int::of(0), deck=None, game_index=Int::of(0), ships=None, friday=None))]
    #[pyo3(text_signature = "(rules, *, seed=0, deck=None, game_index=0, ships=None, friday=None)")]
    fn new(
        rules: &Rules,
        seed: Int,
        deck: Option<Vec<String>>,
        game_index: Int,
        ships: Option<Vec<String>>,
        friday: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
        let game_index: u64 = game_index.within("game_index", 0, U64_MAX, RulesError::new_err)?;
        let r = Arc::clone(&rules.inner);
        if ships.is_some() && r.system != System::SouthSeas {
            return Err(RulesError::new_err(
                "ships= orders the ships of a South Seas game; these rules have none",
            ));
        }
        if friday.is_some() && !r.spec.friday {
            return Err(RulesError::new_err(
                "friday= orders the Friday tiles; these rules do not play Friday",
            ));
        }
        let inner = match (deck, ships, friday) {
            (None, None, None) => CoreGame::shuffled(r, seed, game_index),
            (deck, ships, friday) => {
                // A fixed part (tile or ship order); the other part is shuffled by the seed.
                let shuffled = CoreGame::shuffled(Arc::clone(&r), seed, game_index);
                let deck = match deck {
                    Some(ids) => r.deck_from_ids(&ids).map_err(rules_err)?,
                    None => shuffled.deck().to_vec(),
                };
                let ships = match ships {
                    Some(ids) => r.ships_from_ids(&ids).map_err(rules_err)?,
                    None => shuffled.sea().pile.clone(),
                };
                let friday = match friday {
                    Some(ids) => r.friday_from_ids(&ids).map_err(rules_err)?,
                    None => shuffled.friday().order.clone(),
                };
                if r.system == System::SouthSeas {
                    CoreGame::with_orders(r, deck, ships, friday)
                } else {
                    CoreGame::new(r, deck)
                }
            }
        };
        Ok(Game { inner })
    }

    /// The phase, a `Phase` (a `str` enum: it equals "place", "deliver", "market",
    /// "move_friday", "homecoming" or "over"): "place" while the current player places
    /// the drawn tile, a South Seas decision otherwise (see `legal_actions`), "over" once
    /// the game has ended.
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let name = if self.inner.is_over() {
            "over"
        } else {
            match self.inner.phase() {
                Phase::Place => "place",
                Phase::Deliver => "deliver",
                Phase::Market => "market",
                Phase::MoveFriday => "move_friday",
                Phase::Homecoming => "homecoming",
            }
        };
        static PHASE: pyo3::sync::PyOnceLock<Py<PyAny>> = pyo3::sync::PyOnceLock::new();
        let phase = PHASE.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
            Ok(py.import("carcassonne.phase")?.getattr("Phase")?.unbind())
        })?;
        phase.bind(py).call1((name,))
    }

    /// The player who makes the pending decision: the merchant's owner in the "market"
    /// phase, else `current_player`.
    #[getter]
    fn decider(&self) -> usize {
        self.inner.decider()
    }

    /// South Seas "market" phase: display slots of the face-up ships tied for the most
    /// points, among which the merchant's owner chooses (S-6).
    fn market_ships(&self) -> Vec<usize> {
        // usize, not u8: PyO3 turns a Vec<u8> into bytes.
        self.inner
            .legal_decisions()
            .into_iter()
            .filter_map(|d| match d {
                Decision::MarketShip(slot) => Some(slot as usize),
                _ => None,
            })
            .collect()
    }

    /// South Seas: the merchant of a completed market takes the face-up ship in `slot`
    /// (one of `market_ships()`). Raises IllegalMoveError otherwise, changing nothing.
    fn take_market_ship(&mut self, slot: Int) -> PyResult<()> {
        let slot: u8 = slot.within("slot (a display slot)", 0, 255, IllegalMoveError::new_err)?;
        self.inner
            .decide(Decision::MarketShip(slot))
            .map_err(move_err)
    }

    /// South Seas: each player's wares as (shells, bananas, fish).
    #[getter]
    fn wares(&self) -> Vec<(u32, u32, u32)> {
        (0..self.inner.rules().players())
            .map(|p| {
                let w = self.inner.wares(p);
                (w[0], w[1], w[2])
            })
            .collect()
    }

    /// South Seas: the face-up ships, by display slot.
    #[getter]
    fn ship_display(&self) -> Vec<Ship> {
        let rules = self.inner.rules();
        self.inner
            .sea()
            .display
            .iter()
            .map(|s| Ship::from_core(&rules.ships[*s as usize]))
            .collect()
    }

    /// South Seas: ships still face down, in draw order.
    #[getter]
    fn ship_pile(&self) -> Vec<String> {
        let (rules, sea) = (self.inner.rules(), self.inner.sea());
        sea.pile[sea.next_ship..]
            .iter()
            .map(|s| rules.ships[*s as usize].id.clone())
            .collect()
    }

    /// South Seas: ships taken, in order, as (player, ship id).
    #[getter]
    fn ships_taken(&self) -> Vec<(u8, String)> {
        let rules = self.inner.rules();
        self.inner
            .sea()
            .taken
            .iter()
            .map(|(p, s)| (*p, rules.ships[*s as usize].id.clone()))
            .collect()
    }

    /// South Seas: fishing-boat tokens not yet placed.
    #[getter]
    fn boat_tokens_left(&self) -> u8 {
        self.inner.sea().tokens_left
    }

    /// South Seas: every delivery the current player can make now (empty outside the
    /// "deliver" phase). Not delivering, `deliver(None)`, is always allowed then.
    fn legal_deliveries(&self) -> Vec<Delivery> {
        self.inner
            .legal_deliveries()
            .into_iter()
            .map(|inner| Delivery { inner })
            .collect()
    }

    /// South Seas step 4: delivers to a face-up ship and takes it, or (None) does not;
    /// then the turn ends. A refused delivery raises IllegalMoveError and changes nothing.
    #[pyo3(signature = (delivery))]
    fn deliver(&mut self, delivery: Option<PyRef<'_, Delivery>>) -> PyResult<()> {
        self.inner
            .deliver(delivery.map(|d| d.inner))
            .map_err(move_err)
    }

    /// Friday: ids of the Friday tiles revealed so far, in order.
    #[getter]
    fn friday_revealed(&self) -> Vec<String> {
        let (rules, f) = (self.inner.rules(), self.inner.friday());
        f.order[..f.revealed]
            .iter()
            .map(|t| rules.friday[*t as usize].id.clone())
            .collect()
    }

    /// Friday: the order in which the Friday tiles are (or will be) revealed, as ids (the
    /// hidden stack, like `remaining_tiles`).
    #[getter]
    fn friday_order(&self) -> Vec<String> {
        let rules = self.inner.rules();
        if !rules.spec.friday {
            return Vec::new();
        }
        self.inner
            .friday()
            .order
            .iter()
            .map(|t| rules.friday[*t as usize].id.clone())
            .collect()
    }

    /// Friday: the id of the tile Friday stands on, or None before the first reveal.
    #[getter]
    fn friday_at(&self) -> Option<String> {
        let rules = self.inner.rules();
        self.inner
            .friday()
            .at
            .map(|t| rules.friday[t as usize].id.clone())
    }

    /// Friday: what the tile Friday stands on gives, or None.
    #[getter]
    fn friday_bonus(&self) -> Option<String> {
        self.inner.friday_bonus().map(|b| b.describe())
    }

    /// Friday: weeks (stacks of 7 tiles) that have ended.
    #[getter]
    fn weeks_done(&self) -> usize {
        self.inner.friday().weeks_done
    }

    /// Friday "move_friday" phase: ids of the tiles Friday may move to.
    fn friday_targets(&self) -> Vec<String> {
        let rules = self.inner.rules();
        self.inner
            .legal_decisions()
            .into_iter()
            .filter_map(|d| match d {
                Decision::MoveFriday(t) => Some(rules.friday[t as usize].id.clone()),
                _ => None,
            })
            .collect()
    }

    /// Friday: the player who emptied one of stacks 7-10 moves Friday to the tile `tile`
    /// (one of `friday_targets()`); IllegalMoveError otherwise, changing nothing.
    fn move_friday(&mut self, tile: &str) -> PyResult<()> {
        let index = self
            .inner
            .rules()
            .friday
            .iter()
            .position(|t| t.id == tile)
            .ok_or_else(|| {
                IllegalMoveError::new_err(format!(
                    "{} is not a Friday tile of these rules",
                    quote(tile)
                ))
            })?;
        self.inner
            .decide(Decision::MoveFriday(index as u8))
            .map_err(move_err)
    }

    /// Friday "homecoming" phase: (x, y, feature) of the islanders `decider` may take back.
    fn homecoming_choices(&self) -> Vec<(i32, i32, u8)> {
        self.inner
            .legal_decisions()
            .into_iter()
            .filter_map(|d| match d {
                Decision::Homecoming(s) => Some((s.x as i32, s.y as i32, s.segment)),
                _ => None,
            })
            .collect()
    }

    /// Friday's homecoming: `decider` takes his islander at (x, y, feature) back.
    fn take_home(&mut self, x: Int, y: Int, feature: Int) -> PyResult<()> {
        let spot = spot_arg(x, y, feature)?;
        self.inner
            .decide(Decision::Homecoming(spot))
            .map_err(move_err)
    }

    /// Friday's trading (in the "deliver" phase, before delivering): the swaps open now,
    /// as (ware given, ware taken) indices into `WARES`.
    fn legal_trades(&self) -> Vec<(u8, u8)> {
        self.inner
            .legal_decisions()
            .into_iter()
            .filter_map(|d| match d {
                Decision::Trade(g, t) => Some((g, t)),
                _ => None,
            })
            .collect()
    }

    /// Friday's trading: swap 1 ware `give` for 1 ware `take` (indices into `WARES`), once
    /// per turn before delivering; IllegalMoveError otherwise, changing nothing.
    fn trade(&mut self, give: Int, take: Int) -> PyResult<()> {
        let ware = |w: Int| -> PyResult<u8> {
            w.within(
                "a ware (an index into WARES)",
                0,
                2,
                IllegalMoveError::new_err,
            )
        };
        self.inner
            .decide(Decision::Trade(ware(give)?, ware(take)?))
            .map_err(move_err)
    }

    /// South Seas: wares given, boat tokens placed, ships taken, in order.
    #[getter]
    fn sea_events(&self) -> Vec<SeaEvent> {
        let rules = self.inner.rules();
        self.inner
            .sea()
            .events
            .iter()
            .map(|e| SeaEvent::from_core(e, rules))
            .collect()
    }

    #[getter]
    fn rules(&self) -> Rules {
        Rules {
            inner: Arc::clone(self.inner.rules()),
        }
    }
    #[getter]
    fn current_player(&self) -> usize {
        self.inner.current_player()
    }
    /// Id of the tile the current player must place, or None when the game is over.
    #[getter]
    fn tile(&self) -> Option<String> {
        self.inner
            .tile()
            .map(|t| self.inner.rules().tiles[t as usize].id.clone())
    }
    #[getter]
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }
    /// Number of tiles placed so far (the start tile not counted).
    #[getter]
    fn turn(&self) -> u32 {
        self.inner.turn()
    }
    #[getter]
    fn scores(&self) -> Vec<i32> {
        self.inner.scores().to_vec()
    }
    /// Each player's score if the game ended now: the points scored so far plus the
    /// end-of-game scoring of every unfinished occupied feature (and South Seas wares),
    /// what the greedy player and the MCTS cut-off judge by. Once the game is over, the
    /// final scores. Pending South Seas decisions are not anticipated.
    fn virtual_scores(&self) -> Vec<i32> {
        self.inner.virtual_scores()[..self.inner.rules().players()].to_vec()
    }
    /// Meeples each player has in supply.
    #[getter]
    fn supply(&self) -> Vec<u32> {
        self.inner.supply().iter().map(|m| *m as u32).collect()
    }
    /// Goods (wine, grain, cloth) each player holds (Traders & Builders).
    #[getter]
    fn goods(&self) -> Vec<(u16, u16, u16)> {
        (0..self.inner.scores().len())
            .map(|p| {
                let g = self.inner.goods(p);
                (g[0], g[1], g[2])
            })
            .collect()
    }
    /// Points per player by kind: {"road": [...], "city": [...], ...}.
    #[getter]
    fn points_by_kind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for k in ScoreKind::ALL {
            let v: Vec<i32> = (0..self.inner.scores().len())
                .map(|p| self.inner.points_by_kind(p)[k as usize])
                .collect();
            d.set_item(k.name(), v)?;
        }
        Ok(d)
    }
    /// Players with the highest score (all of them on a tie); meaningful once over.
    #[getter]
    fn winners(&self) -> Vec<usize> {
        let w = self.inner.winners();
        (0..self.inner.scores().len())
            .filter(|p| w & (1 << p) != 0)
            .collect()
    }
    /// Ids of the tiles not yet drawn, in draw order.
    #[getter]
    fn remaining_tiles(&self) -> Vec<String> {
        let r = self.inner.rules();
        self.inner
            .remaining()
            .iter()
            .map(|t| r.tiles[*t as usize].id.clone())
            .collect()
    }
    /// `(turn, tile id)` of every tile removed because it could not be placed.
    #[getter]
    fn discarded(&self) -> Vec<(u32, String)> {
        let r = self.inner.rules();
        self.inner
            .discarded()
            .iter()
            .map(|(t, k)| (*t, r.tiles[*k as usize].id.clone()))
            .collect()
    }
    /// Moves played so far.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.inner
            .moves()
            .iter()
            .map(|m| Move { inner: *m })
            .collect()
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.inner
            .legal_moves()
            .into_iter()
            .map(|m| Move { inner: m })
            .collect()
    }
    /// Plays a move; raises IllegalMoveError (a ValueError) and changes nothing if illegal.
    fn play(&mut self, mv: PyRef<'_, Move>) -> PyResult<()> {
        self.inner.play(mv.inner).map_err(move_err)
    }
    /// Whether an action (a `Move` or a `Decision`) is legal now.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.check_action(action_arg(action)?).is_ok())
    }

    /// Every legal action of `decider`, in a fixed order: the sorted `legal_moves()` in
    /// the "place" phase, else the decisions open (`Decision`s); empty once the game is
    /// over. The one list players, search and learning agents choose from.
    fn legal_actions(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        self.inner
            .legal_actions()
            .into_iter()
            .map(|a| actions::action_to_py(py, a))
            .collect()
    }

    /// Applies an action (a `Move` or a `Decision`) for `decider`; raises
    /// IllegalMoveError (a ValueError) and changes nothing if it is not legal now.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.apply(action_arg(action)?).map_err(move_err)
    }

    /// The action `player` chooses now for `decider` (a name, a `carcassonne.players`
    /// settings object or a function; default "mcts"), searching a copy with the GIL
    /// released (Ctrl-C raises KeyboardInterrupt at once). `seed` fixes the player's
    /// random choices. Raises GameOverError once the game is over, PlayerError if the
    /// player cannot be used or fails.
    #[pyo3(signature = (player=None, *, seed=Int::of(0)))]
    #[pyo3(text_signature = "($self, player='mcts', *, seed=0)")]
    fn best_move(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        player: Option<&Bound<'_, PyAny>>,
        seed: Int,
    ) -> PyResult<Py<PyAny>> {
        let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
        // The search runs on a copy, without holding the game: other threads may read and
        // play it meanwhile (the answer is for the position when the call began).
        let game = slf.borrow().inner.clone();
        if game.is_over() {
            return Err(move_err(IllegalMove::GameOver));
        }
        let default = pyo3::types::PyString::new(py, "mcts");
        let spec = player.unwrap_or(default.as_any());
        let mut python = Vec::new();
        let chooser = players::player(spec, &mut python)?;
        let chosen = interrupt::interruptible(py, &python, |stop| {
            let mut rng = carcassonne_core::rng::Rng::for_game(seed, u64::MAX);
            let mut scratch = carcassonne_core::players::Scratch {
                stop: stop.clone(),
                ..Default::default()
            };
            chooser.choose(&game, &mut rng, &mut scratch)
        })?;
        match chosen {
            Ok(action) => actions::action_to_py(py, action),
            Err(e) => {
                let err = players::PlayerError::new_err(format!("{}: {e}", chooser.name()));
                if let Some(cause) = python.iter().find_map(|p| p.take_raised()) {
                    err.set_cause(py, Some(cause));
                }
                Err(err)
            }
        }
    }

    /// Searches the position with MCTS (a `carcassonne.players.MCTS`, or "mcts" for the
    /// default settings) and returns every legal action of `decider` once, in
    /// `legal_actions()` order, with the search's visits and mean reward; the GIL is
    /// released while it searches. `seed` fixes the search. Raises GameOverError once the
    /// game is over, PlayerError for another player or bad settings.
    #[pyo3(signature = (player=None, *, seed=Int::of(0)))]
    #[pyo3(text_signature = "($self, player='mcts', *, seed=0)")]
    fn analyse(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        player: Option<&Bound<'_, PyAny>>,
        seed: Int,
    ) -> PyResult<Vec<actions::ActionValue>> {
        let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
        // A copy, as in `best_move`: the game is not held while the search runs.
        let game = slf.borrow().inner.clone();
        if game.is_over() {
            return Err(move_err(IllegalMove::GameOver));
        }
        let search = match player {
            None => carcassonne_core::players::mcts::Mcts::default(),
            Some(p) => players::mcts_settings(p)?,
        };
        let values = interrupt::interruptible(py, &[], |stop| {
            let mut rng = carcassonne_core::rng::Rng::for_game(seed, u64::MAX);
            let mut scratch = carcassonne_core::players::Scratch {
                stop: stop.clone(),
                ..Default::default()
            };
            search.analyse(&game, &mut rng, &mut scratch)
        })?;
        values
            .into_iter()
            .map(|v| {
                Ok(actions::ActionValue {
                    action: actions::action_to_py(py, v.action)?,
                    visits: v.visits,
                    value: v.value,
                })
            })
            .collect()
    }

    /// Reshuffles, in place, everything `decider` cannot know: the order of the tiles
    /// still to come (with a Maps deck shorter than the tile set, which tiles they are,
    /// drawn from every tile not yet seen), of the face-down ships and of the Friday
    /// tiles not yet revealed. Everything visible stays: the board, the current tile,
    /// scores, supplies, wares, the ship display. Use it on a `clone()` before looking
    /// ahead, so that a search never reads the true order. `seed` fixes the reshuffle.
    #[pyo3(signature = (seed=Int::of(0)))]
    #[pyo3(text_signature = "($self, seed=0)")]
    fn determinize(&mut self, seed: Int) -> PyResult<()> {
        let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
        // A stream of its own: game index 2**64 - 1 of the seed, apart from the streams a
        // study gives its games (which count up from 0).
        let mut rng = carcassonne_core::rng::Rng::for_game(seed, u64::MAX);
        self.inner.determinize(&mut rng);
        Ok(())
    }
    /// Builds a move for the current tile, naming the meeple's feature by index, by a
    /// board-oriented side or half-edge it touches ("N", "EL", ...), "I" for an inner
    /// field, or "monastery". The move is not checked; `play` does that.
    #[pyo3(signature = (x, y, rotation=Int::of(0), meeple=None, ferry=None, ferry_moves=Vec::new()))]
    #[pyo3(text_signature = "($self, x, y, rotation=0, meeple=None, ferry=None, ferry_moves=())")]
    fn make_move(
        &self,
        x: Int,
        y: Int,
        rotation: Int,
        meeple: Option<Bound<'_, PyAny>>,
        ferry: Option<(Int, Int)>,
        ferry_moves: Vec<(Int, Int, Int, Int)>,
    ) -> PyResult<Move> {
        let base = Move::new(x, y, rotation, None, ferry, ferry_moves.clone(), None)?;
        let Some(m) = meeple else { return Ok(base) };
        if let Ok(i) = m.extract::<Int>() {
            return Move::new(x, y, rotation, Some(i), ferry, ferry_moves, None);
        }
        let name: String = m.extract()?;
        let tile = self.inner.tile().ok_or_else(|| {
            GameOverError::new_err("the game is over; no more moves can be played")
        })?;
        let def = &self.inner.rules().tiles[tile as usize];
        let r = base.inner.rotation;
        let seg = if name == "monastery" {
            def.segments
                .iter()
                .position(|s| s.kind == FeatureKind::Monastery)
        } else if name == "I" {
            def.segments
                .iter()
                .position(|s| s.kind == FeatureKind::Field && s.slots == 0)
        } else {
            parse_slot(&name).and_then(|s| def.segment_at(r, s))
        };
        let seg = seg.ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "{} turned {} has no feature at {}; name a side or half-edge ({}), \"I\" or \"monastery\"",
                def.id,
                r,
                quote(&name),
                SLOT_NAMES.join(" ")
            ))
        })?;
        Move::new(
            x,
            y,
            rotation,
            Some(Int::of(seg as i64)),
            ferry,
            ferry_moves,
            None,
        )
    }
    /// Description of the meeple target of a move for the current tile ("city N", ...).
    fn describe_meeple(&self, mv: PyRef<'_, Move>) -> PyResult<Option<String>> {
        let Some(seg) = mv.inner.meeple else {
            return Ok(None);
        };
        let tile = self
            .inner
            .tile()
            .ok_or_else(|| GameOverError::new_err("the game is over"))?;
        let def = &self.inner.rules().tiles[tile as usize];
        if seg as usize >= def.segments.len() {
            return Err(move_err(IllegalMove::NoSuchSegment {
                tile: def.id.clone(),
                segment: seg,
                segments: def.segments.len(),
            }));
        }
        Ok(Some(def.describe_segment(seg as usize, mv.inner.rotation)))
    }

    fn clone(&self) -> Game {
        Game {
            inner: self.inner.clone(),
        }
    }
    fn __copy__(&self) -> Game {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.clone()
    }
    fn to_json(&self) -> String {
        self.inner.to_json()
    }
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Game> {
        Ok(Game {
            inner: CoreGame::from_json(text).map_err(|e| record_err(py, e))?,
        })
    }
    /// The board as SVG (`carcassonne.svg.board`), so that notebooks (Jupyter) show a
    /// game as its picture. Drawn in Python: the picture is not on any hot path.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py()
            .import("carcassonne.svg")?
            .getattr("board")?
            .call1((slf,))?
            .extract()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let f = py.get_type::<Game>().getattr("from_json")?;
        Ok((f, PyTuple::new(py, [slf.borrow().inner.to_json()])?))
    }

    /// Tiles on the board in placement order (the start tile first).
    #[getter]
    fn board(&self) -> Vec<PlacedTile> {
        let g = &self.inner;
        let rules = g.rules();
        g.placed()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let def = &rules.tiles[p.tile as usize];
                let meeple = (0..def.segments.len()).find_map(|s| {
                    let m = g.features().node(g.element(i, s)).meeple;
                    (m != carcassonne_core::features::NO_PLAYER).then_some((m, s as u8))
                });
                PlacedTile {
                    x: p.x,
                    y: p.y,
                    tile: def.id.clone(),
                    rotation: p.rotation,
                    meeple,
                }
            })
            .collect()
    }

    /// Every feature on the board, ordered by their first segment.
    fn features(&self) -> Vec<Feature> {
        let f = self.inner.features();
        let mut out: Vec<Feature> = (0..f.len() as u32)
            .filter(|e| f.is_root(*e))
            .map(|e| self.feature_view(e))
            .collect();
        out.sort_by(|a, b| a.segments.cmp(&b.segments));
        out
    }

    /// The feature containing feature `index` of the tile at (x, y).
    fn feature_at(&self, x: Int, y: Int, index: Int) -> PyResult<Feature> {
        let g = &self.inner;
        let (x, y) = match (x.value(), y.value()) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                return Err(PositionError::new_err(format!(
                    "no tile at ({}, {})",
                    x.describe(),
                    y.describe()
                )));
            }
        };
        // A tile or large-city square; printed border pieces and ferry connections stand
        // on no square.
        let placed = (0..g.placed().len())
            .find(|&i| {
                let p = &g.placed()[i];
                i128::from(p.x) == x && i128::from(p.y) == y && g.board().on_square(i)
            })
            .ok_or_else(|| PositionError::new_err(format!("no tile at ({x}, {y})")))?;
        let def = &g.rules().tiles[g.placed()[placed].tile as usize];
        let index = index
            .value()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i < def.segments.len())
            .ok_or_else(|| {
                PositionError::new_err(format!(
                    "{} has no feature {}; its features are 0 to {}",
                    def.id,
                    index.describe(),
                    def.segments.len() - 1
                ))
            })?;
        Ok(self.feature_view(g.features().find(g.element(placed, index))))
    }

    /// The Ferries: `(x, y, a, b)` of every ferry, joining road ends a and b of the lake
    /// tile at (x, y) (feature indices, see `Rules.tile_features`).
    #[getter]
    fn ferries(&self) -> Vec<(i32, i32, u8, u8)> {
        let g = &self.inner;
        g.ferries()
            .iter()
            .map(|f| {
                let p = &g.placed()[f.placed as usize];
                (p.x, p.y, f.a, f.b)
            })
            .collect()
    }

    /// The Ferries: squares of the lakes whose ferry may move if the current tile is placed
    /// at (x, y) with `rotation` (the nearest ferry on each road the tile extends).
    fn movable_ferries(&self, x: Int, y: Int, rotation: Int) -> PyResult<Vec<(i32, i32)>> {
        let rotation = rotation_arg(rotation, IllegalMoveError::new_err)?;
        let (x, y) = (coordinate("x", x)?, coordinate("y", y)?);
        let g = &self.inner;
        let tile = g
            .tile()
            .ok_or_else(|| GameOverError::new_err("the game is over"))?;
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

    /// The squares a tile may go on now (next to a placed tile; on a map, only squares
    /// that take a tile now), sorted. Whether the current tile fits is `legal_moves`.
    fn open_squares(&self) -> Vec<(i32, i32)> {
        let b = self.inner.board();
        let mut out: Vec<(i32, i32)> = b.open.iter().map(|o| b.xy(o.cell)).collect();
        out.sort_unstable();
        out
    }

    /// Every scoring so far, in order.
    #[getter]
    fn events(&self) -> Vec<ScoreEvent> {
        self.inner
            .events()
            .iter()
            .map(|e| ScoreEvent {
                turn: e.turn,
                kind: e.kind.name().to_string(),
                points: e.points,
                players: e.players.iter().map(|p| *p as u32).collect(),
                tiles: e.tiles.clone(),
                printed: e.printed.clone(),
                complete: e.complete,
                final_scoring: e.final_scoring,
                goods: (e.goods[0], e.goods[1], e.goods[2]),
            })
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Game turn={} player={} tile={} scores={:?}{}>",
            self.inner.turn(),
            self.inner.current_player(),
            self.tile()
                .map_or_else(|| "None".to_string(), |t| format!("'{t}'")),
            self.inner.scores(),
            if self.inner.is_over() { " over" } else { "" }
        )
    }
}

impl Game {
    fn feature_view(&self, root: u32) -> Feature {
        let g = &self.inner;
        let f = g.features();
        let n = f.node(root);
        // Printed border pieces and ferry connections stand on no square: they are named
        // in `printed` only.
        let mut segments: Vec<(i32, i32, u8)> = f
            .members(root)
            .filter(|m| g.board().on_square(f.node(*m).placed as usize))
            .map(|m| {
                let node = f.node(m);
                let p = &g.placed()[node.placed as usize];
                (p.x, p.y, node.segment)
            })
            .collect();
        segments.sort_unstable();
        Feature {
            kind: n.kind.name().to_string(),
            tiles: g.feature_tiles(root),
            segments,
            complete: g.is_complete(root),
            meeples: n.meeples[..g.scores().len()]
                .iter()
                .map(|m| *m as u32)
                .collect(),
            open_sides: if n.kind.closes_by_edges() {
                n.open as i32
            } else {
                0
            },
            pennants: n.pennants as u32,
            inns: n.inns as u32,
            cathedrals: n.cathedrals as u32,
            goods: (n.goods[0], n.goods[1], n.goods[2]),
            printed: g.feature_printed(root),
        }
    }
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Rules>()?;
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
    m.add_class::<SeaEvent>()?;
    m.add_function(wrap_pyfunction!(maps::check_map, m)?)?;
    m.add_function(wrap_pyfunction!(maps::generate_map, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::simulate_batch, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::simulate_totals, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::replay_game, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::check_rows_fit, m)?)?;
    m.add_function(wrap_pyfunction!(simulation::max_threads_py, m)?)?;
    m.add("CarcassonneError", py.get_type::<CarcassonneError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GameOverError", py.get_type::<GameOverError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("TileDataError", py.get_type::<TileDataError>())?;
    m.add("UnknownTileError", py.get_type::<UnknownTileError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("PlayerError", py.get_type::<players::PlayerError>())?;
    m.add(
        "MAX_DATA_FILE_BYTES",
        carcassonne_core::data::MAX_DATA_FILE_BYTES,
    )?;
    m.add(
        "MAX_RECORD_BYTES",
        carcassonne_core::record::MAX_RECORD_BYTES,
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
