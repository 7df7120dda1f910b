//! Read-only views of a position: placed tiles, features, scoring events.

use super::*;

// ----- read views --------------------------------------------------------------------

/// A tile on the board (a read-only view; not constructible from Python).
#[pyclass(frozen, get_all, module = "carcassonne._core")]
pub(crate) struct PlacedTile {
    /// Column of the square.
    pub(crate) x: i32,
    /// Row of the square.
    pub(crate) y: i32,
    /// Tile id.
    pub(crate) tile: String,
    /// Quarter turns clockwise, 0 to 3.
    pub(crate) rotation: u8,
    /// ``(player, feature index)`` of the meeple standing on this tile, if any.
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

/// A feature on the board (a connected road, city, monastery or field); a read-only view.
#[pyclass(frozen, get_all, module = "carcassonne._core")]
pub(crate) struct Feature {
    /// Classic: "road", "city", "monastery" or "field"; South Seas: "bridge", "island",
    /// "market" or "sea".
    pub(crate) kind: String,
    /// Distinct squares the feature covers (tiles and a map's large-city squares).
    pub(crate) tiles: Vec<(i32, i32)>,
    /// ``(x, y, feature index)`` of every tile segment in the feature.
    pub(crate) segments: Vec<(i32, i32, u8)>,
    /// Whether the feature is complete.
    pub(crate) complete: bool,
    /// Meeples per player.
    pub(crate) meeples: Vec<u32>,
    /// Open sides (roads and cities); 0 for monasteries and fields.
    pub(crate) open_sides: i32,
    /// Pennants (cities).
    pub(crate) pennants: u32,
    /// Inns (roads).
    pub(crate) inns: u32,
    /// Cathedrals (cities).
    pub(crate) cathedrals: u32,
    /// Goods symbols (wine, grain, cloth).
    pub(crate) goods: (u16, u16, u16),
    /// Carcassonne Maps: ids of the map's printed pieces in the feature ("map/<map>/A1",
    /// ".../border2", ".../ferry1"); empty otherwise. Border pieces and ferry connections
    /// belong to sides of squares and stand on no square: they are named here, not in
    /// ``tiles`` or ``segments``.
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

/// One scoring in the event log; a read-only view.
#[pyclass(frozen, get_all, module = "carcassonne._core")]
pub(crate) struct ScoreEvent {
    /// Turn in which the scoring happened.
    pub(crate) turn: u32,
    /// One of "road", "city", "monastery", "field" or "goods".
    pub(crate) kind: String,
    /// Points each listed player receives.
    pub(crate) points: i32,
    /// Players who receive the points.
    pub(crate) players: Vec<u32>,
    /// Squares of the scored feature (tiles and a map's large-city squares; its border
    /// pieces and ferry connections are in ``printed``).
    pub(crate) tiles: Vec<(i32, i32)>,
    /// Carcassonne Maps: ids of the map's printed pieces in the scored feature
    /// ("map/<map>/A1", ".../border2", ".../ferry1"); empty otherwise.
    pub(crate) printed: Vec<String>,
    /// Whether the scored feature was complete.
    pub(crate) complete: bool,
    /// Whether this is part of the end-of-game scoring.
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
