//! A tile's features as data: kind, where they lie, and the symbols printed on them, for
//! pictures and encoders that would otherwise parse `Rules.tile_features` strings or put
//! the tile on a throwaway board to read its symbols.

use carcassonne_core::data::tileset::TileDef;
use pyo3::prelude::*;

/// One feature of a tile (``Rules.tile_symbols``), in board orientation: its index (a
/// ``Move``'s meeple), kind, where it lies and the symbols printed on it.
#[pyclass(frozen, get_all, module = "carcassonne._core")]
#[derive(Clone, Debug)]
pub struct TileFeature {
    /// Its index on the tile (the ``meeple`` of a ``Move``).
    pub index: usize,
    /// "road", "city", "monastery", "field", "island", "bridge", "market" or "sea".
    pub kind: &'static str,
    /// Where it lies, as in ``Rules.tile_features``: sides ("N", "E"...) for roads, cities,
    /// islands and bridges; half-edges ("NL", "ER"...) for fields and sea, ["I"] when enclosed;
    /// empty for a monastery or market.
    pub places: Vec<String>,
    /// Pennants printed on a city.
    pub pennants: u8,
    /// Inns printed on a road (Inns & Cathedrals).
    pub inns: u8,
    /// Cathedrals printed in a city (Inns & Cathedrals).
    pub cathedrals: u8,
    /// Traders & Builders goods (wine, grain, cloth) on a city; South Seas wares (shell,
    /// banana, fish) on an island, bridge or sea.
    pub goods: (u8, u8, u8),
    /// South Seas: fish printed as pairs (each also counted in ``goods``).
    pub fish_pairs: u8,
    /// South Seas: a fishing boat printed on this sea.
    pub boat: bool,
    /// For a field: the indices of the cities of this tile it borders.
    pub adjacent_cities: Vec<u8>,
}

#[pymethods]
impl TileFeature {
    fn __repr__(&self) -> String {
        format!(
            "TileFeature(index={}, kind={:?}, places={:?}, pennants={}, inns={}, cathedrals={}, goods={:?}, boat={})",
            self.index,
            self.kind,
            self.places,
            self.pennants,
            self.inns,
            self.cathedrals,
            self.goods,
            self.boat
        )
    }
}

/// Every feature of `def` turned `rotation` quarter turns clockwise.
pub fn tile_features(def: &TileDef, rotation: u8) -> Vec<TileFeature> {
    def.segments
        .iter()
        .enumerate()
        .map(|(index, seg)| {
            let description = def.describe_segment(index, rotation);
            TileFeature {
                index,
                kind: seg.kind.name(),
                places: description
                    .split_whitespace()
                    .skip(1)
                    .map(String::from)
                    .collect(),
                pennants: seg.pennants,
                inns: seg.inns,
                cathedrals: seg.cathedrals,
                goods: (seg.goods[0], seg.goods[1], seg.goods[2]),
                fish_pairs: seg.fish_pairs,
                boat: seg.boat,
                adjacent_cities: seg.adjacent_cities.clone(),
            }
        })
        .collect()
}
