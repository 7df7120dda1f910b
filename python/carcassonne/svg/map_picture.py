"""The picture of a map alone (``map``), for transcribers, and the layer of the map's squares
that a board on a map is drawn over too."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from carcassonne._core import Rules
from carcassonne.svg.document import SvgWrapper, _el, _fmt, _label, _pt, _svg_root
from carcassonne.svg.geometry import SQUARE, Point
from carcassonne.svg.glyphs import _arms
from carcassonne.svg.palette import _CITY, _MAP_SQUARES, _PRINTED_FIELD, _TABLE

_MAP_SYMBOLS = {
    ".": "outside",
    "o": "land",
    "t": "town",
    "S": "start",
    "s": "start",
    "~": "wave",
    "^": "highlight",
    "i": "island",
    "h": "half",
}


def _map_layer(parent: ET.Element, grid: Sequence[str]) -> None:
    g = _el(parent, "g", **{"class": "map"})
    for row, line in enumerate(grid):
        for col, symbol in enumerate(line):
            kind = _MAP_SYMBOLS.get(symbol, "city" if symbol.isalpha() and symbol.isupper() else "land")
            x, y = col * SQUARE, row * SQUARE
            _el(
                g,
                "rect",
                x=str(x),
                y=str(y),
                width=str(SQUARE),
                height=str(SQUARE),
                fill=_MAP_SQUARES[kind],
                stroke="#cfc6a8" if kind != "outside" else "none",
                stroke_width="1",
                **{"class": f"square {kind}", "data-x": str(col), "data-y": str(row), "data-symbol": symbol},
            )
            if kind == "town" or symbol == "S":
                # A small town; a start square marked S is one too.
                _el(
                    g,
                    "path",
                    d=f"M{x + 38},{y + 62} V{y + 48} L{x + 50},{y + 38} L{x + 62},{y + 48} V{y + 62} Z",
                    fill="#d9cfae",
                    stroke="#a89c78",
                    stroke_width="2",
                )
            if kind == "start":
                # Red: a start square that is a small town (S); brown: one that is not (s).
                _el(
                    g,
                    "rect",
                    x=str(x + 6),
                    y=str(y + 6),
                    width="88",
                    height="88",
                    fill="none",
                    stroke="#b22222" if symbol == "S" else "#a0522d",
                    stroke_width="4",
                )
            elif kind == "wave":
                _el(
                    g,
                    "path",
                    d=f"M{x + 15},{y + 45} q9,-8 18,0 t18,0 t18,0 M{x + 15},{y + 65} q9,-8 18,0 t18,0 t18,0",
                    stroke="#ffffff",
                    stroke_width="3",
                    fill="none",
                )
            elif kind == "highlight":
                _el(
                    g,
                    "path",
                    d=f"M{x + 20},{y + 72} L{x + 42},{y + 35} L{x + 55},{y + 55} L{x + 64},{y + 44} L{x + 82},{y + 72} Z",
                    fill="#a9a08a",
                    stroke="#857c66",
                    stroke_width="2",
                )
            elif kind == "island":
                _el(
                    g,
                    "circle",
                    cx=str(x + 50),
                    cy=str(y + 50),
                    r="30",
                    fill="none",
                    stroke="#d8c27a",
                    stroke_width="3",
                    stroke_dasharray="5,4",
                )
            elif kind == "half":
                _el(g, "path", d=f"M{x},{y + 100} L{x + 100},{y}", stroke="#bdb395", stroke_width="2", fill="none")


_SIDE_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
_SIDE_DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _side_midpoint(col: int, row: int, side: str) -> Point:
    dx, dy = _SIDE_DELTA[side]
    return (col * SQUARE + 50 + 50 * dx, row * SQUARE + 50 + 50 * dy)


def map(rules: Rules, *, size: int | None = None, coordinates: bool = True) -> SvgWrapper:  # noqa: A001
    """An SVG picture of the map of ``rules`` alone, for holding beside the printed board
    while transcribing: every square by kind (land, small towns, start squares numbered in
    file order, waves, highlights, island squares with their coats of arms, half squares,
    the outside), each large-city square with its letter, the edges it shows (city sides
    walled, roads) and its coats of arms, each printed border piece on the side of the
    square it belongs to (a road or a city, numbered as in the file, with its coats of
    arms; several may face one outside square), each ferry as a dashed route between its
    two ends (numbered, with its coats of arms), and column and row numbers around it.
    ``ValueError`` without a map."""
    from carcassonne.maps import summary as map_summary

    info = map_summary(rules)
    grid = rules.map_grid()
    if size is not None and size < 1:
        raise ValueError(f"size must be at least 1 pixel, not {size}")
    margin = 60 if coordinates else 10
    vx, vy = -margin, -margin
    vw = info.width * SQUARE + 2 * margin
    vh = info.height * SQUARE + 2 * margin
    width = size if size is not None else max(1, (vw * 40) // SQUARE)
    height = max(1, round(width * vh / vw))
    svg = _svg_root((vx, vy, vw, vh), width, height, "carcassonne-map")
    title = ET.SubElement(svg, "title")
    title.text = f"Carcassonne map {info.name}" + (f": {info.title}" if info.title else "")
    _el(svg, "rect", x=str(vx), y=str(vy), width=str(vw), height=str(vh), fill=_TABLE, **{"class": "background"})
    _map_layer(svg, grid)
    if coordinates:
        axes = _el(svg, "g", **{"class": "coordinates"})
        for col in range(info.width):
            _label(axes, (col * SQUARE + 50, -30), str(col), 24, "#555555")
            _label(axes, (col * SQUARE + 50, info.height * SQUARE + 30), str(col), 24, "#555555")
        for row in range(info.height):
            _label(axes, (-30, row * SQUARE + 50), str(row), 24, "#555555")
            _label(axes, (info.width * SQUARE + 30, row * SQUARE + 50), str(row), 24, "#555555")
    # Start squares: their number in file order (the first takes the start tile).
    starts = _el(svg, "g", **{"class": "starts"})
    for k, (col, row) in enumerate(info.starts, 1):
        used = k <= info.start_squares
        _label(
            starts,
            (col * SQUARE + 50, row * SQUARE + 50),
            f"S{k}",
            30,
            "#a0522d" if used else "#8a7a6a",
            **{"class": "start", "data-x": str(col), "data-y": str(row), "data-order": str(k)},
        )
    # Large cities: each square's edges, letter and coats of arms.
    cities = _el(svg, "g", **{"class": "large-cities"})
    for city in info.cities:
        for col, row, edges, arms in city.squares:
            x, y = col * SQUARE, row * SQUARE
            g = _el(
                cities,
                "g",
                **{
                    "class": "city-square",
                    "data-x": str(col),
                    "data-y": str(row),
                    "data-city": city.letter,
                    "data-edges": edges,
                    "data-arms": str(arms),
                },
            )
            _el(g, "rect", x=str(x + 4), y=str(y + 4), width="92", height="92", fill=_CITY, stroke="#8a6a3a", stroke_width="2")
            for side, edge in zip("NESW", edges):
                a = _side_midpoint(col, row, side)
                if edge == "F":  # a wall
                    dx, dy = _SIDE_DELTA[side]
                    half = (50 * dy, 50 * dx)
                    _el(
                        g,
                        "line",
                        x1=_fmt(a[0] - half[0] - 6 * dx),
                        y1=_fmt(a[1] - half[1] - 6 * dy),
                        x2=_fmt(a[0] + half[0] - 6 * dx),
                        y2=_fmt(a[1] + half[1] - 6 * dy),
                        stroke="#5a4630",
                        stroke_width="8",
                        **{"class": "wall", "data-side": side},
                    )
                elif edge == "R":
                    _el(
                        g,
                        "line",
                        x1=_fmt(a[0]),
                        y1=_fmt(a[1]),
                        x2=_fmt(x + 50),
                        y2=_fmt(y + 50),
                        stroke="#ffffff",
                        stroke_width="10",
                        **{"class": "road", "data-side": side},
                    )
            _label(g, (x + 50, y + 42), city.letter, 34, "#3a2a10")
            if arms:
                _arms(g, (x + 74, y + 66), arms)
    # Printed border pieces: drawn in the triangle of the outside square next to the side
    # they belong to, so pieces facing one outside square stay apart.
    pieces = _el(svg, "g", **{"class": "border-pieces"})
    for k, b in enumerate(info.borders, 1):
        col, row = b.at
        dx, dy = _SIDE_DELTA[b.side]
        m = _side_midpoint(col, row, b.side)
        half = (50 * dy, 50 * dx)
        tip = (m[0] + 40 * dx, m[1] + 40 * dy)
        a, c = (m[0] - half[0], m[1] - half[1]), (m[0] + half[0], m[1] + half[1])
        g = _el(
            pieces,
            "g",
            **{
                "class": f"border-piece {b.piece}",
                "data-x": str(col),
                "data-y": str(row),
                "data-side": b.side,
                "data-number": str(k),
                "data-arms": str(b.arms),
            },
        )
        fill = _CITY if b.piece == "city" else _PRINTED_FIELD
        _el(g, "path", d=f"M{_pt(a)} L{_pt(tip)} L{_pt(c)} Z", fill=fill, stroke="#6b5a3a", stroke_width="2")
        if b.piece == "road":
            _el(g, "line", x1=_fmt(m[0]), y1=_fmt(m[1]), x2=_fmt(tip[0]), y2=_fmt(tip[1]), stroke="#ffffff", stroke_width="10")
        label = f"{'R' if b.piece == 'road' else 'C'}{k}" + (f"+{b.arms}" if b.arms else "")
        _label(g, (m[0] + 22 * dx, m[1] + 22 * dy), label, 18)
    # Ferries: a dashed route between the midpoints of their two sides.
    routes = _el(svg, "g", **{"class": "ferries"})
    for k, f in enumerate(info.ferries, 1):
        (x1, y1, s1, _), (x2, y2, s2, _) = f.ends
        a, b2 = _side_midpoint(x1, y1, s1), _side_midpoint(x2, y2, s2)
        g = _el(
            routes,
            "g",
            **{"class": "ferry", "data-number": str(k), "data-arms": str(f.arms), "data-ends": f"{x1},{y1},{s1};{x2},{y2},{s2}"},
        )
        _el(
            g,
            "line",
            x1=_fmt(a[0]),
            y1=_fmt(a[1]),
            x2=_fmt(b2[0]),
            y2=_fmt(b2[1]),
            stroke="#1f4f8f",
            stroke_width="6",
            stroke_dasharray="14,10",
        )
        for end in (a, b2):
            _el(g, "circle", cx=_fmt(end[0]), cy=_fmt(end[1]), r="9", fill="#1f4f8f")
        mid = ((a[0] + b2[0]) / 2, (a[1] + b2[1]) / 2)
        _label(g, mid, f"F{k}" + (f"+{f.arms}" if f.arms else ""), 22, "#1f4f8f")
    # Coats of arms printed on island squares.
    arms_layer = _el(svg, "g", **{"class": "island-arms"})
    for col, row, count in info.island_arms:
        g = _el(arms_layer, "g", **{"class": "island-arms", "data-x": str(col), "data-y": str(row), "data-arms": str(count)})
        _arms(g, (col * SQUARE + 72, row * SQUARE + 28), count)
    return SvgWrapper(ET.tostring(svg, encoding="unicode"))
