"""Colours of the pictures: the players' (``COLORS``, by seat) and those of the board, its
tiles and the map's squares."""

from __future__ import annotations



COLORS: tuple[str, ...] = ("#d62728", "#1f4fd1", "#f2c200", "#1a1a1a", "#8e44ad", "#ff7f0e")
"""Player colours by seat: red, blue, yellow, black, purple, orange."""


_TABLE = "#ece7dc"
_FIELD = "#8cbf4f"
_PRINTED_FIELD = "#b9d48e"
_CITY = "#d3ae74"
_CITY_WALL = "#7a5230"
_ROAD = "#f5f1e6"
_ROAD_EDGE = "#6f6250"
_SEA = "#3f8fd2"
_ISLAND = "#79b94f"
_BEACH = "#ecd9a0"
_BRIDGE = "#c49a6c"
_BRIDGE_EDGE = "#6b4423"
_LAKE = "#4a90d9"
_LAKE_RIM = "#2b6cb0"
_TILE_EDGE = "#3b3b3b"
_LAST_MOVE = "#ff2d95"
_MAP_SQUARES = {
    "outside": "#bfe0f5",
    "land": "#eee6c8",
    "town": "#eee6c8",
    "start": "#eee6c8",
    "wave": "#9fcdee",
    "highlight": "#cfc8b4",
    "city": "#eee6c8",
    "island": "#f2e2a6",
    "half": "#e4ddc2",
}
