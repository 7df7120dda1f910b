//! `Rules`: a validated configuration, its options, tiles and map, from Python.

use super::*;

// ----- Rules -----------------------------------------------------------------------

/// Validated rules: players, meeples, tile sets and rules options.
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
    /// Every keyword is an option declared once in the core (`Rules.options()`); a value
    /// of None is its default.
    #[new]
    #[pyo3(signature = (**options))]
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
        // In the declarations' order (a JSON map is sorted by key).
        let values = crate::options::option_values(&self.inner);
        let loads = py.import("json")?.getattr("loads")?;
        let out = PyDict::new(py);
        for option in carcassonne_core::engine::options::OPTIONS.iter() {
            if let Some(value) = values.get(option.name) {
                out.set_item(option.name, loads.call1((value.to_string(),))?)?;
            }
        }
        Ok(out.into_any())
    }

    #[getter]
    pub(crate) fn players(&self) -> u32 {
        self.inner.spec.players
    }
    #[getter]
    pub(crate) fn meeples(&self) -> u32 {
        self.inner.spec.meeples
    }
    #[getter]
    pub(crate) fn tile_sets(&self) -> Vec<String> {
        self.inner
            .spec
            .tile_sets
            .iter()
            .map(|s| s.label().to_string())
            .collect()
    }
    #[getter]
    pub(crate) fn start_tile(&self) -> String {
        self.inner.tiles[self.inner.start_tile as usize].id.clone()
    }

    /// "classic" or "south-seas", from the tile sets.
    #[getter]
    pub(crate) fn system(&self) -> &'static str {
        self.inner.system.name()
    }

    /// South Seas: the ships of the ship set, in file order (empty for classic rules).
    #[getter]
    pub(crate) fn ships(&self) -> Vec<Ship> {
        self.inner.ships.iter().map(Ship::from_core).collect()
    }

    #[getter]
    pub(crate) fn ship_set(&self) -> String {
        self.inner.spec.ships.label().to_string()
    }

    #[getter]
    pub(crate) fn retrieve_only_when_supply_empty(&self) -> bool {
        self.inner.spec.retrieve_only_when_supply_empty
    }

    #[getter]
    pub(crate) fn boat_evaluates_unoccupied(&self) -> bool {
        self.inner.spec.boat_evaluates_unoccupied
    }

    /// South Seas: the Friday expansion is played.
    #[getter]
    pub(crate) fn friday(&self) -> bool {
        self.inner.spec.friday
    }

    /// Friday: label of the bonus file (built-in name or path).
    #[getter]
    pub(crate) fn friday_set(&self) -> String {
        self.inner.spec.friday_tiles.label().to_string()
    }

    /// Friday: (id, bonus) of the six Friday tiles (empty unless Friday is played).
    pub(crate) fn friday_tiles(&self) -> Vec<(String, String)> {
        self.inner
            .friday
            .iter()
            .map(|t| (t.id.clone(), t.bonus.describe()))
            .collect()
    }

    /// Data sets in use that are reconstructions rather than transcriptions of the
    /// printed game, with the text each file gives about how it was built.
    pub(crate) fn reconstructions(&self) -> Vec<(String, String)> {
        self.inner.reconstructions.clone()
    }
    #[getter]
    pub(crate) fn farmers(&self) -> bool {
        self.inner.spec.farmers
    }
    #[getter]
    pub(crate) fn inns_and_cathedrals_scoring(&self) -> bool {
        self.inner.spec.inns_and_cathedrals_scoring
    }
    #[getter]
    pub(crate) fn traders_goods(&self) -> bool {
        self.inner.spec.traders_goods
    }
    /// Lake tile distribution of The Ferries: "C3" (3/3/2) or "C2" (3/4/1).
    #[getter]
    pub(crate) fn ferries_edition(&self) -> String {
        self.inner.spec.ferries_edition.clone()
    }
    /// Number of tiles in a full game's deck: all tiles but the start tile, or on a map
    /// the chosen number (the start squares after the first take theirs from it).
    #[getter]
    pub(crate) fn deck_size(&self) -> usize {
        self.inner.deck_limit
    }

    /// Carcassonne Maps: the map played on (a built-in name or a file's path), or None.
    #[getter]
    pub(crate) fn map(&self) -> Option<String> {
        let spec = &self.inner.spec;
        spec.map.as_ref().map(|m| match &spec.join_map {
            Some(j) => format!("{}+{}", m.label(), j.label()),
            None => m.label().to_string(),
        })
    }

    /// Carcassonne Maps: start squares given a tile before the first turn (None without
    /// a map).
    #[getter]
    pub(crate) fn start_squares(&self) -> Option<u32> {
        self.inner
            .spec
            .map
            .as_ref()
            .map(|_| self.inner.start_squares)
    }

    /// Carcassonne Maps: what the map holds (squares by kind, large cities, border pieces,
    /// ferries, islands, start squares) as JSON, or None without a map (see
    /// `carcassonne.maps.MapSummary`).
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

    /// Carcassonne Maps: the start squares used, as (column, row), in order (the start
    /// tile on the first); empty without a map.
    pub(crate) fn map_starts(&self) -> Vec<(usize, usize)> {
        self.inner.starts.iter().map(|s| s.at).collect()
    }

    /// Carcassonne Maps: the rotation asked for each start square's tile (None: the first
    /// that fits), one per start square used; empty without a map.
    #[getter]
    pub(crate) fn start_rotations(&self) -> Vec<Option<u8>> {
        self.inner.starts.iter().map(|s| s.rotation).collect()
    }

    /// Carcassonne Maps: the small-town variants played (1 extra turn, 2 penalty, 3 road
    /// bonus), sorted.
    #[getter]
    pub(crate) fn small_towns(&self) -> Vec<u32> {
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
    /// The full deck (one id per tile copy, start tile excluded), in set order.
    pub(crate) fn full_deck(&self) -> Vec<String> {
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
    /// cathedrals, goods or wares, fish pairs, boats), in board orientation for `rotation`.
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
    /// Side kinds of a tile, N E S W, after `rotation` quarter turns clockwise ("CRFR").
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
    pub(crate) fn to_json(&self) -> String {
        // Cannot fail: a spec holds strings, numbers, booleans and lists only.
        serde_json::to_string(&self.inner.spec).expect("rules serialise")
    }
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
        Ok(Rules {
            inner: Arc::new(CoreRules::new(spec).map_err(rules_err)?),
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
    pub(crate) fn __repr__(&self) -> String {
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
                        Some(carcassonne_core::engine::rules::StartSquares::At(list)) => format!(
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
    pub(crate) fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let f = py.get_type::<Rules>().getattr("from_json")?;
        Ok((f, PyTuple::new(py, [slf.get().to_json()])?))
    }
}
