"""One placed tile drawn on the board: its ground, roads or bridges, cities or islands,
lake and ferry, building and printed symbols, turned by its rotation."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from carcassonne._core import PlacedTile
from carcassonne.svg.document import _el, _fmt, _pt
from carcassonne.svg.geometry import _CENTRE, _LAKE_RADIUS, SQUARE, _quad
from carcassonne.svg.glyphs import _GOODS_ORDER, _building, _cathedral, _inn, _pennant, _printed_boat, _ware
from carcassonne.svg.layout import _Layout, _symbol_spots
from carcassonne.svg.palette import (
    _BEACH,
    _BRIDGE,
    _BRIDGE_EDGE,
    _CITY,
    _CITY_WALL,
    _FIELD,
    _ISLAND,
    _LAKE,
    _LAKE_RIM,
    _PRINTED_FIELD,
    _ROAD,
    _ROAD_EDGE,
    _SEA,
    _TILE_EDGE,
)
from carcassonne.svg.symbols import _Symbols

_FERRY_ROUTE = "#3e2612"
"""The dark line under a ferry's route and its end marks."""

_PRINTED_FRAME = "#6b3f16"
"""The dashed frame of a piece printed on a map."""


# The quarter of a square next to each side (a triangle to the centre), in tile units.
_QUARTER = {
    "N": "M0,0 L100,0 L50,50 Z",
    "E": "M100,0 L100,100 L50,50 Z",
    "S": "M0,100 L100,100 L50,50 Z",
    "W": "M0,0 L0,100 L50,50 Z",
}


def _tile(
    parent: ET.Element,
    placed: PlacedTile,
    layout: _Layout,
    symbols: dict[int, _Symbols],
    ferry: tuple[int, int] | None,
    lake: bool,
    printed: bool,
    system: str,
    facing: str | None = None,
) -> None:
    """One placed tile: a group translated to its square and turned by its rotation.
    ``facing``: for a map's border piece or ferry end, the side of the outside square that
    faces the map square it belongs to; the piece is drawn in that quarter of the square
    only, so pieces facing one outside square (a bay) stay apart."""
    x0, y0 = placed.x * SQUARE, placed.y * SQUARE
    transform = f"translate({x0},{y0})"
    if placed.rotation % 4:
        transform += f" rotate({90 * (placed.rotation % 4)},50,50)"
    g = _el(
        parent,
        "g",
        transform=transform,
        **{
            "class": "tile printed" if printed else "tile",
            "data-x": str(placed.x),
            "data-y": str(placed.y),
            "data-tile": placed.tile,
            "data-rotation": str(placed.rotation),
        },
    )
    if facing is not None:
        clip_id = f"piece-{placed.tile.replace('/', '-').replace('+', '-')}"
        clip = _el(g, "clipPath", id=clip_id)
        _el(clip, "path", d=_QUARTER[facing])
        g = _el(g, "g", clip_path=f"url(#{clip_id})", **{"class": "piece-quarter", "data-facing": facing})
    # Houses and symbols keep upright: each is turned back by the tile's rotation.
    upright = f" rotate({-90 * (placed.rotation % 4)})" if placed.rotation % 4 else ""
    south_seas = system == "south-seas"
    ferry_piece = printed and "/ferry" in placed.tile
    ground = _SEA if south_seas or ferry_piece else (_PRINTED_FIELD if printed else _FIELD)
    _el(g, "rect", x="0", y="0", width="100", height="100", fill=ground)
    if south_seas:  # waves on the open sea
        _el(
            g,
            "path",
            d="M12,86 q5,-4 10,0 t10,0 M66,14 q5,-4 10,0 t10,0",
            stroke="#8cc3ec",
            stroke_width="1.5",
            fill="none",
        )
    # Roads (bridges) first: cities (islands) cover the ends that run into them.
    for line in layout.lines:
        if ferry_piece:  # a printed ferry connection: a dashed route over the water
            _el(
                g,
                "path",
                d=line.path,
                stroke="#ffffff",
                stroke_width="3",
                stroke_dasharray="6,4",
                fill="none",
                **{"class": "ferry-route"},
            )
            continue
        edge, top = (_BRIDGE_EDGE, _BRIDGE) if south_seas else (_ROAD_EDGE, _ROAD)
        cls = "bridge" if south_seas else "road"
        _el(
            g, "path", d=line.path, stroke=edge, stroke_width="11", fill="none", stroke_linecap="butt", **{"class": cls}
        )
        _el(g, "path", d=line.path, stroke=top, stroke_width="7", fill="none", stroke_linecap="butt")
        if south_seas:
            _el(g, "path", d=line.path, stroke=_BRIDGE_EDGE, stroke_width="7", stroke_dasharray="1,4", fill="none")
        if line.end_marker is not None:
            ex, ey = line.end_marker
            if south_seas:  # a crossing stone
                _el(g, "circle", cx=_fmt(ex), cy=_fmt(ey), r="7", fill="#9a9a9a", stroke="#555555", stroke_width="1.5")
            else:  # a farmhouse, upright
                h = _el(g, "g", transform=f"translate({_pt(line.end_marker)}){upright}", **{"class": "house"})
                _el(
                    h,
                    "rect",
                    x="-6",
                    y="-4",
                    width="12",
                    height="10",
                    fill="#efe4c8",
                    stroke="#5b3a1a",
                    stroke_width="1.2",
                )
                _el(h, "path", d="M-8,-4 L0,-11 L8,-4 Z", fill="#b5442e", stroke="#5b3a1a", stroke_width="1.2")
    if layout.junction and south_seas:  # bridges meeting on a crossing stone
        _el(
            g,
            "circle",
            cx="50",
            cy="50",
            r="10",
            fill="#9a9a9a",
            stroke="#555555",
            stroke_width="1.5",
            **{"class": "junction"},
        )
    elif layout.junction:
        _el(
            g,
            "rect",
            x="42",
            y="42",
            width="16",
            height="16",
            fill="#efe4c8",
            stroke="#5b3a1a",
            stroke_width="1.5",
            **{"class": "junction"},
        )
    for area in layout.areas:
        # The fill, then the walls (beaches) alone, so that joined cities show no seam.
        if south_seas:
            _el(g, "path", d=area.path, fill=_ISLAND, **{"class": "island", "data-feature": str(area.index)})
            if area.wall:
                _el(g, "path", d=area.wall, fill="none", stroke=_BEACH, stroke_width="6", stroke_linecap="round")
        else:
            _el(g, "path", d=area.path, fill=_CITY, **{"class": "city", "data-feature": str(area.index)})
            if area.wall:
                _el(g, "path", d=area.wall, fill="none", stroke=_CITY_WALL, stroke_width="3", stroke_linecap="round")
    if lake:
        _el(
            g,
            "circle",
            cx="50",
            cy="50",
            r=_fmt(_LAKE_RADIUS),
            fill=_LAKE,
            stroke=_LAKE_RIM,
            stroke_width="2.5",
            **{"class": "lake"},
        )
        if ferry is not None and ferry[0] in layout.ends and ferry[1] in layout.ends:
            a, b = layout.ends[ferry[0]], layout.ends[ferry[1]]
            route = _el(g, "g", **{"class": "ferry", "data-ends": f"{ferry[0]},{ferry[1]}"})
            # A dark route under a white dashed one, with the two linked road ends marked:
            # which ends the ferry joins reads at the default size.
            _el(route, "path", d=f"M{_pt(a)} Q50,50 {_pt(b)}", stroke=_FERRY_ROUTE, stroke_width="7", fill="none",
                stroke_linecap="round", **{"class": "ferry-route-under"})
            _el(route, "path", d=f"M{_pt(a)} Q50,50 {_pt(b)}", stroke="#ffffff", stroke_width="3",
                stroke_dasharray="5,3", fill="none")
            for end in (a, b):
                _el(route, "circle", cx=_fmt(end[0]), cy=_fmt(end[1]), r="5", fill=_FERRY_ROUTE,
                    stroke="#ffffff", stroke_width="1.5", **{"class": "ferry-end"})
            m = _quad(a, _CENTRE, b, 2)[1]
            boat = _el(g, "g", transform=f"translate({_pt(m)}){upright}", **{"class": "ferry-boat"})
            _el(boat, "path", d="M-11,-3 H11 L7,5 H-7 Z", fill="#8b5a2b", stroke="#3e2612", stroke_width="1.2")
            _el(
                boat, "rect", x="-5", y="-9", width="10", height="6", fill="#f4e3c1", stroke="#3e2612", stroke_width="1"
            )
    if ferry_piece:
        _el(
            g,
            "path",
            d="M42,48 H58 L54,55 H46 Z M50,48 V38 L57,46 Z",
            fill="#8b5a2b",
            stroke="#3e2612",
            stroke_width="1",
            **{"class": "ferry"},
        )
    if layout.building is not None:
        _building(g, layout.building, placed.rotation % 4)
    for index, sym in sorted(symbols.items()):
        glyphs: list[str] = ["pennant"] if sym.pennants else []
        glyphs += ["inn"] * sym.inns + ["cathedral"] * sym.cathedrals
        for name, count in zip(_GOODS_ORDER.get(system, _GOODS_ORDER["classic"]), sym.goods):
            glyphs += [name] * count
        glyphs += ["boat"] if sym.boat else []
        for glyph, at in zip(glyphs, _symbol_spots(layout, index, lake, len(glyphs))):
            if glyph == "boat":
                _printed_boat(g, at, upright)
            elif glyph == "pennant":
                _pennant(g, at, sym.pennants, upright)
            elif glyph == "inn":
                _inn(g, at, upright)
            elif glyph == "cathedral":
                _cathedral(g, at, upright)
            else:
                _ware(g, at, glyph, upright)
    _el(
        g,
        "rect",
        x="0",
        y="0",
        width="100",
        height="100",
        fill="none",
        stroke=_TILE_EDGE,
        stroke_width="1",
        stroke_dasharray="3,3" if printed else "none",
        **{"class": "edge"},
    )
    if printed and not ferry_piece:
        # Printed on the map, not placed: light stripes over it and a dashed frame of its
        # own, so a large-city square or border piece reads as the map's at any size.
        marks = _el(g, "g", **{"class": "printed-mark"})
        for k in (25, 50, 75, 100, 125, 150, 175):
            x0, y0 = max(0, k - 100), min(100, k)
            x1, y1 = min(100, k), max(0, k - 100)
            _el(marks, "path", d=f"M{x0},{y0} L{x1},{y1}", stroke="#ffffff", stroke_opacity="0.35", stroke_width="5")
        _el(marks, "rect", x="4", y="4", width="92", height="92", fill="none", stroke=_PRINTED_FRAME,
            stroke_width="4", stroke_dasharray="10,6")
