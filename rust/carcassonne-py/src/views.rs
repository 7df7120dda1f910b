//! Read-only views of a position: placed tiles, features, scoring events.

use super::*;

// ----- read views --------------------------------------------------------------------

/// A tile on the board.
#[pyclass(frozen, get_all, module = "carcassonne._core")]
pub(crate) struct PlacedTile {
    pub(crate) x: i32,
    pub(crate) y: i32,
    pub(crate) tile: String,
    pub(crate) rotation: u8,
    /// `(player, feature index)` of the meeple standing on this tile, if any.
    pub(crate) meeple: Option<(u8, u8)>,
}

#[pymethods]
impl PlacedTile {
    pub(crate) fn __repr__(&self) -> String {
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
pub(crate) struct Feature {
    pub(crate) kind: String,
    /// Distinct squares the feature covers.
    pub(crate) tiles: Vec<(i32, i32)>,
    /// `(x, y, feature index)` of every tile segment in the feature.
    pub(crate) segments: Vec<(i32, i32, u8)>,
    pub(crate) complete: bool,
    /// Meeples per player.
    pub(crate) meeples: Vec<u32>,
    /// Open sides (roads and cities); 0 for monasteries and fields.
    pub(crate) open_sides: i32,
    pub(crate) pennants: u32,
    pub(crate) inns: u32,
    pub(crate) cathedrals: u32,
    /// Goods symbols (wine, grain, cloth).
    pub(crate) goods: (u16, u16, u16),
    /// Carcassonne Maps: ids of the map's printed pieces in the feature.
    pub(crate) printed: Vec<String>,
}

#[pymethods]
impl Feature {
    pub(crate) fn __repr__(&self) -> String {
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
pub(crate) struct ScoreEvent {
    pub(crate) turn: u32,
    /// "road", "city", "monastery", "field" or "goods".
    pub(crate) kind: String,
    /// Points each listed player receives.
    pub(crate) points: i32,
    pub(crate) players: Vec<u32>,
    pub(crate) tiles: Vec<(i32, i32)>,
    /// Carcassonne Maps: ids of the printed pieces in the scored feature.
    pub(crate) printed: Vec<String>,
    pub(crate) complete: bool,
    pub(crate) final_scoring: bool,
    /// Goods taken (wine, grain, cloth) for goods events.
    pub(crate) goods: (u16, u16, u16),
}

#[pymethods]
impl ScoreEvent {
    pub(crate) fn __repr__(&self) -> String {
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
