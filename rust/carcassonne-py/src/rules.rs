//! `Rules`: a validated configuration, its options, tiles and map, from Python.

use super::*;

// ----- Rules -----------------------------------------------------------------------

/// Validated rules: players, meeples, tile sets and rules options.
///
/// Immutable, hashable, comparable with ``==`` and picklable (through its JSON form).
///
/// ``Rules(...)`` takes every rules option by keyword (``Rules.options()`` lists them with
/// their kinds, rule systems and command-line flags; each has its property, the value in
/// effect); a value of None is the option's default. The rule system follows from the tile
/// sets: ``("south-seas",)`` plays South Seas. Raises RulesError (or TileDataError,
/// UnknownTileError) for an invalid configuration.
#[pyclass(frozen, module = "carcassonne._core")]
pub(crate) struct Rules {
    pub(crate) inner: Arc<CoreRules>,
}

/// The map(s) of `Rules(map=...)`: a built-in name or a map file, two of them joined (a
/// pair, or built-in names written "west+east").
pub(crate) fn map_sources(
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

/// A built-in data set of `kind`, or a `.toml` file read now (`DataSource::named`).
pub(crate) fn data_source(
    py: Python<'_>,
    item: &Bound<'_, PyAny>,
    kind: DataKind,
) -> PyResult<DataSource> {
    let os = py.import("os")?;
    let name: String = os.call_method1("fspath", (item,))?.extract()?;
    DataSource::named(kind, &name).map_err(|e| rules_err(e.into()))
}

#[pymethods]
impl Rules {
    // Every keyword is an option declared once in the core (`Rules.options()`); a value
    // of None is its default. The signature Python shows is made from the same
    // declarations (`options::add_signature`), so none is written here.
    #[new]
    #[pyo3(signature = (**options), text_signature = None)]
    pub(crate) fn new(py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(Rules {
            inner: Arc::new(crate::options::rules_of(py, options)?),
        })
    }

    /// Every rules option, in the order of ``Rules(...)``'s keywords: its name, kind,
    /// default, rule system, command-line flag and what it does.
    #[staticmethod]
    pub(crate) fn options() -> Vec<crate::options::RuleOption> {
        crate::options::rule_options()
    }

    /// The value of every option that acts in these rules (options of other rule
    /// systems left out), keyed by name: data files by their labels (a joined map as
    /// "first+second"); None where the default is the map's or the sets' own.
    pub(crate) fn option_values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let out = PyDict::new(py);
        for (option, value) in self.inner.option_values() {
            out.set_item(
                option.name,
                crate::options::value_to_py(py, option.kind, &value)?,
            )?;
        }
        Ok(out.into_any())
    }

    /// The integer action space of these rules for learning agents, with the default
    /// board window (``ActionSpace(rules, window=...)`` for another).
    #[getter]
    pub(crate) fn action_space(&self) -> PyResult<crate::learn::ActionSpace> {
        crate::learn::ActionSpace::of_rules(&self.inner, None)
    }

    /// The rule system of the tile sets: "classic" or "south-seas".
    #[getter]
    pub(crate) fn system(&self) -> &'static str {
        self.inner.system.name()
    }

    /// South Seas: the ship set, in file order (empty for classic rules).
    #[getter]
    pub(crate) fn ships(&self) -> Vec<Ship> {
        self.inner.ships.iter().map(Ship::from_core).collect()
    }

    /// Friday: ``(id, bonus)`` of the six Friday tiles (empty unless Friday is played).
    pub(crate) fn friday_tiles(&self) -> Vec<(String, String)> {
        self.inner
            .friday
            .iter()
            .map(|t| (t.id.clone(), t.bonus.describe()))
            .collect()
    }

    /// ``(source, how it was built)`` for every data set in use that is a reconstruction,
    /// not a transcription of the printed game (the built-in South Seas tiles and ships,
    /// the Friday bonuses); the source says which file, e.g. "south-seas (tiles)",
    /// "south-seas (ships)", "friday (Friday tiles)"; a built-in map is listed as an
    /// original layout, e.g. "continental (map)".
    pub(crate) fn reconstructions(&self) -> Vec<(String, String)> {
        self.inner.reconstructions.clone()
    }

    /// Carcassonne Maps: what the map holds (squares by kind, large cities, border pieces,
    /// ferries, islands, start squares) as JSON (see ``carcassonne.maps.summary``), or None
    /// without a map.
    pub(crate) fn map_summary_json(&self) -> Option<String> {
        let carcassonne_core::board::map_board::Geometry::Map(m) = &self.inner.geometry else {
            return None;
        };
        Some({
            // Cannot fail: the summary holds strings, numbers and lists only.
            serde_json::to_string(&carcassonne_core::data::map::summarize(&m.def))
                .expect("a summary serialises")
        })
    }

    /// Carcassonne Maps: the start squares used, as ``(column, row)`` in order (the start
    /// tile on the first); empty without a map.
    pub(crate) fn map_starts(&self) -> Vec<(usize, usize)> {
        self.inner.starts.iter().map(|s| s.at).collect()
    }

    /// Carcassonne Maps: the map's grid, one string per row in the map file's symbols
    /// (two joined maps as one grid, their half squares as ``o``); empty without a map.
    pub(crate) fn map_grid(&self) -> Vec<String> {
        match &self.inner.geometry {
            carcassonne_core::board::map_board::Geometry::Map(m) => m.def.grid_rows(),
            carcassonne_core::board::map_board::Geometry::Open => Vec::new(),
        }
    }

    /// Names of the built-in maps (original layouts, not the printed maps).
    #[staticmethod]
    pub(crate) fn maps() -> Vec<&'static str> {
        DataKind::Map.builtin_names()
    }
    /// Ids of every tile layout in the chosen sets.
    pub(crate) fn tile_ids(&self) -> Vec<String> {
        self.inner.tiles.iter().map(|t| t.id.clone()).collect()
    }
    /// The full deck (one id per tile copy of the sets taken ``tile_set_copies`` times, start
    /// tile excluded), in set order.
    pub(crate) fn full_deck(&self) -> Vec<String> {
        self.inner
            .full_deck
            .iter()
            .map(|t| self.inner.tiles[*t as usize].id.clone())
            .collect()
    }
    /// Features of a tile as meeple targets, in index order, described in board
    /// orientation for ``rotation`` (e.g. "city N", "road W E", "field EL WR", "monastery").
    ///
    /// Raises UnknownTileError for an unknown tile id.
    #[pyo3(signature = (tile, rotation=Int::of(0)))]
    #[pyo3(text_signature = "($self, tile, rotation=0)")]
    pub(crate) fn tile_features(&self, tile: &str, rotation: Int) -> PyResult<Vec<String>> {
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
    /// cathedrals, goods or wares, fish pairs, boats), in board orientation for ``rotation``.
    ///
    /// Raises UnknownTileError for an unknown tile id.
    #[pyo3(signature = (tile, rotation=Int::of(0)))]
    #[pyo3(text_signature = "($self, tile, rotation=0)")]
    pub(crate) fn tile_symbols(
        &self,
        tile: &str,
        rotation: Int,
    ) -> PyResult<Vec<tiles::TileFeature>> {
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
    /// Side kinds of a tile, N E S W, after ``rotation`` quarter turns clockwise, in the
    /// letters of its rule system's files: "CRFR" (C city, R road, F field) or "ISBS" (I
    /// island, B bridge, S sea).
    ///
    /// Raises UnknownTileError for an unknown tile id.
    #[pyo3(signature = (tile, rotation=Int::of(0)))]
    #[pyo3(text_signature = "($self, tile, rotation=0)")]
    pub(crate) fn tile_edges(&self, tile: &str, rotation: Int) -> PyResult<String> {
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
    /// The rules as JSON (the input of ``from_json``).
    pub(crate) fn to_json(&self) -> String {
        // Cannot fail: a spec holds strings, numbers, booleans and lists only.
        serde_json::to_string(&self.inner.spec).expect("rules serialise")
    }
    /// Rules from ``to_json`` output; raises RulesError if invalid.
    #[staticmethod]
    pub(crate) fn from_json(text: &str) -> PyResult<Rules> {
        let limit = carcassonne_core::play::record::MAX_RECORD_BYTES;
        if text.len() > limit {
            return Err(RulesError::new_err(format!(
                "the rules JSON has {} bytes, more than the {limit} it may have",
                text.len()
            )));
        }
        let spec: RulesSpec = serde_json::from_str(text)
            .map_err(|e| RulesError::new_err(message(format!("not a valid rules JSON: {e}"))))?;
        // Shared with earlier loads of the same spec: unpickling in a study's workers
        // validates each configuration once.
        Ok(Rules {
            inner: CoreRules::shared(&spec).map_err(rules_err)?,
        })
    }
    pub(crate) fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Rules>()
            .map(|o| o.get().inner.spec == self.inner.spec)
            .unwrap_or(false)
    }
    pub(crate) fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.to_json().hash(&mut h);
        h.finish()
    }
    /// ``Rules(...)`` with every option of the rule system (Maps' and Friday's only when
    /// played) as given; those left to the rule system (a map's start squares, the deck's
    /// size) are left out, so that evaluating it gives equal rules.
    pub(crate) fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let rules = &slf.get().inner;
        let mut parts = Vec::new();
        for (option, value) in rules.given_values(|o| o.scope.in_repr(rules)) {
            if !value.is_null() {
                let value = crate::options::value_to_py(py, option.kind, &value)?;
                parts.push(format!("{}={}", option.name, value.bind(py).repr()?));
            }
        }
        Ok(format!("Rules({})", parts.join(", ")))
    }
    pub(crate) fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let f = py.get_type::<Rules>().getattr("from_json")?;
        Ok((f, PyTuple::new(py, [slf.get().to_json()])?))
    }
}
