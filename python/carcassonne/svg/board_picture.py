"""SVG pictures of a game's board, for notebooks, reports and the command line.

>>> import carcassonne, carcassonne.svg
>>> game = carcassonne.Game(carcassonne.Rules(players=2), seed=1)
>>> picture = carcassonne.svg.board(game)     # an SVG document (a str)
>>> picture[:4]
'<svg'

Every tile is drawn from its feature data (``Rules.tile_features``), so every rule system
and every tile file of one's own is drawn the same way: fields (or sea) as the square's
ground, cities (or islands) as walls over the sides they cover, joined where one city
covers several sides, roads (or bridges) from the middle of their sides to the centre or
to each other, monasteries (or markets) as a building. Pennants, inns, cathedrals, goods and wares
(shells, bananas, fish) are marked where the tile has them; lakes and their ferries (The
Ferries), fishing-boat tokens (South Seas), the map's squares and printed pieces with
their coats of arms (Carcassonne Maps) too.
Meeples (islanders) stand in their player's colour on the feature they occupy (farmers
lie down); the last placed tile is outlined.

The document is built with ``xml.etree.ElementTree``, uses no external fonts or images,
and is deterministic: the same game gives the same bytes. Board coordinates: one square is
``SQUARE`` (100) user units, and the tile on square (x, y) is the group translated to
(100 x, 100 y) and turned by its rotation about the square's centre.
"""

from __future__ import annotations

import functools
import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field

from carcassonne._core import Game, PlacedTile, Rules

__all__ = ["COLORS", "SQUARE", "SvgWrapper", "board", "map"]

SQUARE = 100
"""User units per board square in the SVG's coordinates."""

COLORS: tuple[str, ...] = ("#d62728", "#1f4fd1", "#f2c200", "#1a1a1a", "#8e44ad", "#ff7f0e")
"""Player colours by seat: red, blue, yellow, black, purple, orange."""

Point = tuple[float, float]

# ----- colours of the picture --------------------------------------------------------

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
_MAP_SYMBOLS = {
    ".": "outside",
    "o": "land",
    "t": "town",
    "S": "start",
    "~": "wave",
    "^": "highlight",
    "i": "island",
    "h": "half",
}


class SvgWrapper(str):
    """An SVG document; notebooks (Jupyter) display it as a picture."""

    def _repr_svg_(self) -> SvgWrapper:
        return self


# ----- geometry of one square, in its own frame (0..100, y down, rotation 0) ---------

_SIDES = "NESW"
_CORNERS: tuple[Point, ...] = ((0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0))
"""NW, NE, SE, SW: side s runs clockwise from corner s to corner s + 1."""
_MIDS: tuple[Point, ...] = ((50.0, 0.0), (100.0, 50.0), (50.0, 100.0), (0.0, 50.0))
_INWARD: tuple[Point, ...] = ((0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0))
_CENTRE: Point = (50.0, 50.0)
_LAKE_RADIUS = 23.0
_BUILDING = 17.0  # half the size of a monastery or market


def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _add(a: Point, b: Point, k: float = 1.0) -> Point:
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def _half_edge(name: str) -> tuple[Point, Point]:
    """The two ends of a half-edge ("NL": the first half of side N, clockwise)."""
    s = _SIDES.index(name[0])
    start, end = _CORNERS[s], _CORNERS[(s + 1) % 4]
    mid = _MIDS[s]
    return (start, mid) if name[1] == "L" else (mid, end)


def _quad(p0: Point, c: Point, p1: Point, steps: int = 12) -> list[Point]:
    """Points of a quadratic Bezier curve, both ends included."""
    out = []
    for i in range(steps + 1):
        t = i / steps
        u = 1 - t
        out.append((u * u * p0[0] + 2 * u * t * c[0] + t * t * p1[0], u * u * p0[1] + 2 * u * t * c[1] + t * t * p1[1]))
    return out


def _fmt(v: float) -> str:
    """A number for the document: at most two decimals, no "-0"."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pt(p: Point) -> str:
    return f"{_fmt(p[0])},{_fmt(p[1])}"


def _rotate(p: Point, rotation: int) -> Point:
    """A point of the square turned ``rotation`` quarter turns clockwise about its centre."""
    x, y = p
    for _ in range(rotation % 4):
        x, y = 100.0 - y, x
    return (x, y)


def _dist_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _dist_to_polyline(p: Point, pts: Sequence[Point]) -> float:
    return min(_dist_to_segment(p, pts[i], pts[i + 1]) for i in range(len(pts) - 1))


def _inside(p: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd test of a point against a closed polygon."""
    inside = False
    n = len(polygon)
    for i in range(n):
        (x1, y1), (x2, y2) = polygon[i], polygon[(i + 1) % n]
        if (y1 > p[1]) != (y2 > p[1]) and p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _crosses(a: Point, b: Point, pts: Sequence[Point]) -> bool:
    """Whether segment a-b crosses the polyline."""

    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    for i in range(len(pts) - 1):
        c, d = pts[i], pts[i + 1]
        if orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0:
            return True
    return False


# ----- the layout of a tile from its features ------------------------------------------


@dataclass
class _Area:
    """A city or island: its outline (SVG path and polygon) over the sides it covers."""

    index: int
    path: str
    polygon: list[Point]
    wall: str


@dataclass
class _Line:
    """A road or bridge: its centre line (SVG path and polyline) and where a lone end stops."""

    index: int
    path: str
    points: list[Point]
    end_marker: Point | None


@dataclass
class _Layout:
    """Everything drawn on one tile, in its rotation-0 frame, and the meeple spots."""

    kinds: list[str]
    areas: list[_Area] = field(default_factory=list)
    lines: list[_Line] = field(default_factory=list)
    building: str | None = None  # "monastery" or "market"
    junction: bool = False
    anchors: dict[int, Point] = field(default_factory=dict)
    ends: dict[int, Point] = field(default_factory=dict)  # lake tiles: a road end's rim point
    directions: dict[int, Point] = field(default_factory=dict)  # a line's tangent at its anchor
    spots: dict[tuple[int, int], list[Point]] = field(default_factory=dict)  # symbol spots found


def _parse(description: str) -> tuple[str, list[str]]:
    kind, _, rest = description.partition(" ")
    return kind, rest.split()


def _area_outline(sides: list[int], others: set[int]) -> tuple[str, list[Point], str]:
    """City (or island) outline over the given sides: the square's edge along each covered
    side, and between runs of covered sides a wall bending into the square (far into it
    where another city of the tile covers the side between, leaving room for both).
    Returns the outline's path, its polygon and the path of its walls alone (the curves)."""
    covered = sorted(set(sides))
    if len(covered) == 4:
        pts = list(_CORNERS)
        return "M0,0 H100 V100 H0 Z", pts, ""
    walls: list[str] = []
    # Start at a covered side whose predecessor is not covered.
    first = next(s for s in covered if (s - 1) % 4 not in covered)
    path = [f"M{_pt(_CORNERS[first])}"]
    poly: list[Point] = [_CORNERS[first]]
    s = first
    while True:
        # Walk the run of covered sides.
        while True:
            end = _CORNERS[(s + 1) % 4]
            path.append(f"L{_pt(end)}")
            poly.append(end)
            if (s + 1) % 4 in covered:
                s = (s + 1) % 4
            else:
                break
        run_end = (s + 1) % 4  # corner index where the run stops
        gap = 0
        nxt = (s + 1) % 4
        while nxt not in covered:
            gap += 1
            nxt = (nxt + 1) % 4
        p0, p1 = _CORNERS[run_end], _CORNERS[nxt]
        if gap == 3:  # a single side: a cap bulging into the square
            control = _add(_MIDS[s], _INWARD[s], 62.0)
        elif gap == 1:  # an uncovered side between covered ones: the wall bows inward
            control = _lerp(_MIDS[run_end], _CENTRE, 1.8 if run_end in others else 0.95)
        else:  # two uncovered sides: a corner city, its wall bowing towards the corner
            corner = _CORNERS[s]  # corner shared by the run's two sides
            control = _lerp(_CENTRE, corner, 0.32)
        path.append(f"Q{_pt(control)} {_pt(p1)}")
        walls.append(f"M{_pt(p0)} Q{_pt(control)} {_pt(p1)}")
        poly.extend(_quad(p0, control, p1)[1:])
        s = nxt
        if s == first:
            break
    path.append("Z")
    return " ".join(path), poly[:-1], " ".join(walls)


def _area_anchor(sides: list[int]) -> Point:
    """Where a meeple stands on a city covering ``sides``."""
    if len(set(sides)) == 4:
        return _CENTRE
    dx = sum(-_INWARD[s][0] for s in sides) / len(sides)
    dy = sum(-_INWARD[s][1] for s in sides) / len(sides)
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return _CENTRE
    return (50.0 + 35.0 * dx, 50.0 + 35.0 * dy)


@functools.lru_cache(maxsize=512)
def _layout(descriptions: tuple[str, ...], lake: bool) -> _Layout:
    """The drawing of a tile (rotation 0) from ``Rules.tile_features``; ``lake``: a lake
    (The Ferries) lies in its centre and its road ends stop at the shore."""
    parsed = [_parse(d) for d in descriptions]
    layout = _Layout(kinds=[k for k, _ in parsed])
    lone_ends = [i for i, (k, t) in enumerate(parsed) if k in ("road", "bridge") and len(t) == 1]
    building = next((k for k, t in parsed if k in ("monastery", "market")), None)
    layout.building = building
    hub = building is not None or len(lone_ends) >= 3
    layout.junction = building is None and not lake and len(lone_ends) >= 3

    area_sides = {
        i: {_SIDES.index(t) for t in tokens if t in _SIDES}
        for i, (kind, tokens) in enumerate(parsed)
        if kind in ("city", "island")
    }
    for i, (kind, tokens) in enumerate(parsed):
        if kind in ("city", "island"):
            sides = [_SIDES.index(t) for t in tokens if t in _SIDES]
            if not sides:
                continue
            others = set().union(*(v for k, v in area_sides.items() if k != i))
            path, poly, wall = _area_outline(sides, others)
            layout.areas.append(_Area(i, path, poly, wall))
            layout.anchors[i] = _area_anchor(sides)
        elif kind in ("road", "bridge"):
            sides = [_SIDES.index(t) for t in tokens if t in _SIDES]
            if not sides:
                continue
            if len(sides) == 1:
                s = sides[0]
                start = _MIDS[s]
                marker: Point | None = None
                if lake:
                    stop = _add(_CENTRE, _INWARD[s], -_LAKE_RADIUS)
                    layout.ends[i] = stop
                elif hub:
                    stop = _CENTRE
                else:
                    stop = _add(start, _INWARD[s], 36.0)
                    marker = stop
                pts = [start, stop]
                path = f"M{_pt(start)} L{_pt(stop)}"
                layout.anchors[i] = _add(start, _INWARD[s], 14.0 if lake or marker else 24.0)
                layout.directions[i] = _INWARD[s]
                layout.lines.append(_Line(i, path, pts, marker))
            elif len(sides) == 2 and (sides[0] - sides[1]) % 2 == 0:
                a, b = _MIDS[sides[0]], _MIDS[sides[1]]
                layout.lines.append(_Line(i, f"M{_pt(a)} L{_pt(b)}", [a, b], None))
                layout.anchors[i] = _CENTRE
                layout.directions[i] = _INWARD[sides[0]]
            elif len(sides) == 2:
                a, b = _MIDS[sides[0]], _MIDS[sides[1]]
                pts = _quad(a, _CENTRE, b)
                layout.lines.append(_Line(i, f"M{_pt(a)} Q{_pt(_CENTRE)} {_pt(b)}", pts, None))
                layout.anchors[i] = pts[len(pts) // 2]
                mid = len(pts) // 2
                d = (pts[mid + 1][0] - pts[mid - 1][0], pts[mid + 1][1] - pts[mid - 1][1])
                n = math.hypot(*d) or 1.0
                layout.directions[i] = (d[0] / n, d[1] / n)
            else:  # more sides (a printed piece): each to the centre
                for s in sides:
                    layout.lines.append(_Line(i, f"M{_pt(_MIDS[s])} L{_pt(_CENTRE)}", [_MIDS[s], _CENTRE], None))
                layout.anchors[i] = _add(_MIDS[sides[0]], _INWARD[sides[0]], 24.0)
                layout.directions[i] = _INWARD[sides[0]]
        elif kind in ("monastery", "market"):
            layout.anchors[i] = _CENTRE

    # A lone road end that runs into a city: its meeple stands nearer the side.
    for i, (kind, tokens) in enumerate(parsed):
        if kind in ("road", "bridge") and i in layout.anchors and len(tokens) == 1:
            if any(_inside(layout.anchors[i], a.polygon) for a in layout.areas):
                s = _SIDES.index(tokens[0])
                layout.anchors[i] = _add(_MIDS[s], _INWARD[s], 13.0)
    for i, (kind, tokens) in enumerate(parsed):
        if kind in ("field", "sea"):
            layout.anchors[i] = _field_anchor(tokens, layout, lake)
        elif i not in layout.anchors:  # a kind this module does not know: the centre
            layout.anchors[i] = _CENTRE
    return layout


def _clearance(p: Point, layout: _Layout, lake: bool) -> float:
    """How far a point lies from everything drawn on the tile but fields (negative inside)."""
    best = min(p[0], p[1], 100.0 - p[0], 100.0 - p[1]) + 6.0
    for area in layout.areas:
        d = _dist_to_polyline(p, [*area.polygon, area.polygon[0]])
        best = min(best, -d if _inside(p, area.polygon) else d)
    for line in layout.lines:
        best = min(best, _dist_to_polyline(p, line.points) - 6.0)
        if line.end_marker is not None:
            best = min(best, math.dist(p, line.end_marker) - 8.0)
    if layout.building is not None:
        best = min(best, max(abs(p[0] - 50.0), abs(p[1] - 50.0)) - _BUILDING)
    if lake:
        best = min(best, math.dist(p, _CENTRE) - _LAKE_RADIUS)
    return best


def _field_anchor(tokens: list[str], layout: _Layout, lake: bool) -> Point:
    """Where a farmer (fisher) lies on a field (sea) touching the given half-edges: their
    mean if that is clear of the tile's other features and reaches each half-edge without
    crossing a road, else the clearest point just inside one of its half-edges."""
    halves = [t for t in tokens if len(t) == 2 and t[0] in _SIDES and t[1] in "LR"]
    if not halves:  # an inner field ("I"): the clearest point of the square
        grid = [(float(x), float(y)) for y in range(20, 81, 5) for x in range(20, 81, 5)]
        return max(grid, key=lambda p: (_clearance(p, layout, lake), -math.dist(p, _CENTRE)))
    inner: list[Point] = []
    for h in halves:
        a, b = _half_edge(h)
        s = _SIDES.index(h[0])
        inner.append(_add(_lerp(a, b, 0.5), _INWARD[s], 15.0))
    mean = (sum(p[0] for p in inner) / len(inner), sum(p[1] for p in inner) / len(inner))
    walls = [line.points for line in layout.lines] + [[*a.polygon, a.polygon[0]] for a in layout.areas]
    if _clearance(mean, layout, lake) >= 12.0 and not any(_crosses(mean, q, w) for q in inner for w in walls):
        return mean
    candidates: list[Point] = []
    for h in halves:
        a, b = _half_edge(h)
        s = _SIDES.index(h[0])
        for depth in (12.0, 20.0, 28.0):
            for t in (0.5, 0.35, 0.65):
                candidates.append(_add(_lerp(a, b, t), _INWARD[s], depth))
    return max(candidates, key=lambda p: _clearance(p, layout, lake))


# ----- symbols printed on tiles (pennants, inns, cathedrals, goods, wares) ---------------


@dataclass(frozen=True)
class _Symbols:
    pennants: int = 0
    inns: int = 0
    cathedrals: int = 0
    goods: tuple[int, int, int] = (0, 0, 0)
    boat: bool = False
    """South Seas: a fishing boat printed on this sea."""

    def any(self) -> bool:
        return bool(self.pennants or self.inns or self.cathedrals or any(self.goods) or self.boat)


_NO_SYMBOLS = _Symbols()

_FERRY_ROUTE = "#3e2612"
"""The dark line under a ferry's route and its end marks."""


def _tile_symbols(rules: Rules, tile: str) -> dict[int, _Symbols]:
    """Symbols of each feature of a tile, by feature index (``Rules.tile_symbols``)."""
    if tile.startswith("map/"):
        return {}
    out: dict[int, _Symbols] = {}
    for f in rules.tile_symbols(tile):
        symbols = _Symbols(f.pennants, f.inns, f.cathedrals, f.goods, f.boat)
        if symbols.any():
            out[f.index] = symbols
    return out


def _board_symbols(game: Game, placed: Sequence[PlacedTile]) -> dict[tuple[int, int] | str, dict[int, _Symbols]]:
    """Symbols per feature index of each tile (by square) and printed piece (by id, as
    several may be shown at one outside square): the tiles' own, and on a map the coats of
    arms of the printed pieces (what their board features hold beyond the tiles' symbols)."""
    rules = game.rules
    out: dict[tuple[int, int] | str, dict[int, _Symbols]] = {}
    for p in placed:
        symbols = _tile_symbols(rules, p.tile)
        if symbols:
            out[(p.x, p.y)] = symbols
    printed = {(p.x, p.y) for p in placed if p.tile.startswith("map/")}
    if not printed:
        return out
    # A feature's printed pieces are named by id (border pieces and ferry connections stand
    # on no square); the coats of arms go on the first one whose feature 0 (a large-city
    # square's city, a border piece's road or city, a ferry's road) is of the feature's kind.
    where = {p.tile: k for k, p in enumerate(placed) if p.tile.startswith("map/")}
    for f in game.features():
        if not f.pennants:
            continue
        own = sum(out.get((x, y), {}).get(i, _NO_SYMBOLS).pennants for x, y, i in f.segments if (x, y) not in printed)
        arms = f.pennants - own
        spots = sorted(
            (where[t], t) for t in f.printed if t in where and rules.tile_features(t)[0].split()[0] == f.kind
        )
        if arms > 0 and spots:
            _, tile = spots[0]
            out.setdefault(tile, {})[0] = _Symbols(pennants=arms)
    return out


# ----- drawing ---------------------------------------------------------------------------


def _svg_root(view: tuple[int, int, int, int], width: int, height: int, cls: str) -> ET.Element:
    """The ``svg`` element of a picture: its view box in user units, its size in pixels."""
    vx, vy, vw, vh = view
    return ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "viewBox": f"{vx} {vy} {vw} {vh}",
            "width": str(width),
            "height": str(height),
            "class": cls,
        },
    )


def _el(parent: ET.Element, tag: str, **attrs: str) -> ET.Element:
    return ET.SubElement(parent, tag, {k.replace("_", "-"): v for k, v in attrs.items()})


def _pennant(parent: ET.Element, at: Point, count: int, upright: str, cls: str = "pennant") -> None:
    g = _el(parent, "g", transform=f"translate({_pt(at)}){upright}", **{"class": cls, "data-count": str(count)})
    _el(g, "path", d="M-6,-7 H6 V0 Q6,6 0,9 Q-6,6 -6,0 Z", fill="#2457a6", stroke="#ffffff", stroke_width="1.6")
    if count > 1:
        _el(g, "circle", cx="0", cy="0", r="2.2", fill="#ffffff")


def _inn(parent: ET.Element, at: Point, upright: str) -> None:
    g = _el(parent, "g", transform=f"translate({_pt(at)}){upright}", **{"class": "inn"})
    _el(g, "circle", cx="4", cy="5", r="4", fill=_LAKE)
    _el(g, "rect", x="-7", y="-3", width="9", height="7", fill="#f4e3c1", stroke="#5b3a1a", stroke_width="1")
    _el(g, "path", d="M-8.5,-3 L-2.5,-9 L3.5,-3 Z", fill="#b5442e", stroke="#5b3a1a", stroke_width="1")


def _printed_boat(parent: ET.Element, at: Point, upright: str) -> None:
    """A fishing boat printed on a South Seas sea (not the boat tokens the game adds)."""
    g = _el(parent, "g", transform=f"translate({_pt(at)}){upright}", **{"class": "printed-boat"})
    _el(g, "path", d="M-9,1 H9 L6,6 H-6 Z", fill="#7a4b12", stroke="#3e2612", stroke_width="0.8")
    _el(g, "path", d="M0,1 V-10 L7,-1 Z", fill="#fdfaf2", stroke="#3e2612", stroke_width="0.8")


def _cathedral(parent: ET.Element, at: Point, upright: str) -> None:
    g = _el(parent, "g", transform=f"translate({_pt(at)}){upright}", **{"class": "cathedral"})
    _el(g, "rect", x="-9", y="-4", width="18", height="12", fill="#ece6f5", stroke="#4b3b6b", stroke_width="1.2")
    _el(g, "path", d="M-3,-4 V-11 L0,-15 L3,-11 V-4 Z", fill="#6d5a99", stroke="#4b3b6b", stroke_width="1")
    _el(g, "path", d="M0,-19 V-14 M-2,-17 H2", stroke="#4b3b6b", stroke_width="1", fill="none")


_WARES = {
    # Traders & Builders goods (Feature.goods: wine, grain, cloth) ...
    "wine": "#7b1f5c",
    "grain": "#e1b12c",
    "cloth": "#3a7bd5",
    # ... and South Seas wares (Feature.goods there: shells, bananas, fish).
    "shell": "#f7d9c4",
    "banana": "#f4d03f",
    "fish": "#f39c12",
}
_GOODS_ORDER = {"classic": ("wine", "grain", "cloth"), "south-seas": ("shell", "banana", "fish")}


def _ware(parent: ET.Element, at: Point, name: str, upright: str) -> None:
    """One good (wine, grain, cloth) or ware (shell, banana, fish) printed on a tile."""
    kind = "goods" if name in ("wine", "grain", "cloth") else "ware"
    g = _el(parent, "g", transform=f"translate({_pt(at)}){upright}", **{"class": f"{kind} {name}"})
    colour = _WARES[name]
    if name == "wine":
        for cx, cy in ((-2.5, -2), (2.5, -2), (0, 2.5)):
            _el(g, "circle", cx=_fmt(cx), cy=_fmt(cy), r="2.8", fill=colour, stroke="#3a0f2b", stroke_width="0.6")
    elif name == "grain":
        _el(
            g,
            "path",
            d="M0,6 V-6 M0,-2 L-4,-6 M0,-2 L4,-6 M0,2 L-4,-2 M0,2 L4,-2",
            stroke="#a87d12",
            stroke_width="1.6",
            fill="none",
        )
        _el(g, "ellipse", cx="0", cy="-6", rx="2", ry="3", fill=colour)
    elif name == "cloth":
        _el(g, "rect", x="-5", y="-4", width="10", height="8", fill=colour, stroke="#1d3f73", stroke_width="1")
        _el(g, "path", d="M-5,0 H5", stroke="#ffffff", stroke_width="0.8")
    elif name == "shell":
        _el(
            g,
            "path",
            d="M0,5 L-6,-2 Q0,-8 6,-2 Z M0,5 L-3,-4 M0,5 V-5 M0,5 L3,-4",
            fill=colour,
            stroke="#9c5b3b",
            stroke_width="1",
        )
    elif name == "banana":
        _el(g, "path", d="M-6,-4 Q-4,6 6,3 Q-1,3 -3,-5 Z", fill=colour, stroke="#8a6d0b", stroke_width="1")
    else:  # fish
        _el(g, "path", d="M-6,0 Q0,-6 5,0 Q0,6 -6,0 Z M5,0 L9,-4 V4 Z", fill=colour, stroke="#8e4b0b", stroke_width="1")


def _symbol_spots(layout: _Layout, index: int, lake: bool, count: int) -> list[Point]:
    """Where ``count`` symbols of feature ``index`` go: inside its city (island), or clear
    of the tile's other features, away from the meeple's spot and from each other."""
    known = layout.spots.get((index, count))
    if known is not None:
        return known
    anchor = layout.anchors.get(index, _CENTRE)
    own = next((a.polygon for a in layout.areas if a.index == index), None)
    others = [a.polygon for a in layout.areas if a.index != index]
    candidates = [
        (
            min(92.0, max(8.0, anchor[0] + r * math.cos(k * math.pi / 4))),
            min(92.0, max(8.0, anchor[1] + r * math.sin(k * math.pi / 4))),
        )
        for r in (20.0, 28.0, 15.0, 36.0)
        for k in range(8)
    ]

    def room(p: Point) -> float:
        if own is None:
            return _clearance(p, layout, lake)
        if not _inside(p, own) or any(_inside(p, o) for o in others):
            return -100.0
        r = _dist_to_polyline(p, [*own, own[0]])
        if layout.building is not None:
            r = min(r, max(abs(p[0] - 50.0), abs(p[1] - 50.0)) - _BUILDING)
        return r

    chosen: list[Point] = []
    for _ in range(count):
        best = max(candidates, key=lambda p: min(room(p), min(math.dist(p, q) for q in [anchor, *chosen]) - 16.0))
        chosen.append(best)
    layout.spots[(index, count)] = chosen
    return chosen


def _building(parent: ET.Element, kind: str, rotation: int) -> None:
    """A monastery or market in the square's centre, upright whatever the tile's rotation."""
    g = _el(parent, "g", **{"class": kind})
    if rotation:
        g.set("transform", f"rotate({-90 * rotation},50,50)")
    if kind == "monastery":
        _el(g, "rect", x="36", y="44", width="28", height="20", fill="#efe4c8", stroke="#5b3a1a", stroke_width="1.5")
        _el(g, "path", d="M33,45 L50,31 L67,45 Z", fill="#b5442e", stroke="#5b3a1a", stroke_width="1.5")
        _el(g, "rect", x="46", y="53", width="8", height="11", fill="#5b3a1a")
        _el(g, "path", d="M50,22 V32 M46,26 H54", stroke="#5b3a1a", stroke_width="2", fill="none")
    else:  # a South Seas market: a stall with a striped awning
        _el(g, "rect", x="36", y="46", width="28", height="16", fill="#f4e3c1", stroke="#5b3a1a", stroke_width="1.5")
        _el(g, "path", d="M33,47 L38,35 H62 L67,47 Z", fill="#e8e1d0", stroke="#5b3a1a", stroke_width="1.5")
        _el(g, "path", d="M41,35 L38,47 M49,35 L48,47 M57,35 L58,47", stroke="#c0392b", stroke_width="4", fill="none")
        for cx, colour in ((43, "#f2c200"), (50, "#e67e22"), (57, "#2e86c1")):
            _el(g, "circle", cx=str(cx), cy="52", r="3", fill=colour)


# The quarter of a square next to each side (a triangle to the centre), in tile units.
_QUARTER = {
    "N": "M0,0 L100,0 L50,50 Z",
    "E": "M100,0 L100,100 L50,50 Z",
    "S": "M0,100 L100,100 L50,50 Z",
    "W": "M0,0 L0,100 L50,50 Z",
}
_OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}


def _piece_quarters(rules: Rules) -> dict[str, str]:
    """For each printed border piece and ferry connection of the map of ``rules``, the side
    of the outside square it is shown at (beyond its first side) that faces its square."""
    from carcassonne.maps import summary as map_summary

    info = map_summary(rules)
    out = {f"map/{info.name}/border{k}": _OPPOSITE[b.side] for k, b in enumerate(info.borders, 1)}
    out |= {f"map/{info.name}/ferry{k}": _OPPOSITE[f.ends[0][2]] for k, f in enumerate(info.ferries, 1)}
    return out


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


_PRINTED_FRAME = "#6b3f16"
"""The dashed frame of a piece printed on a map."""

_MEEPLE = (
    "M-3,-4 L-10,-1.5 Q-12.5,0 -11,2.5 L-5,3 L-9,10.5 Q-9.5,12.5 -7,12.5 L-2.5,12.5 L0,8 L2.5,12.5 "
    "L7,12.5 Q9.5,12.5 9,10.5 L5,3 L11,2.5 Q12.5,0 10,-1.5 L3,-4 A5.2,5.2 0 1 0 -3,-4 Z"
)


def _meeple(
    parent: ET.Element, at: Point, colour: str, player: int, placed: PlacedTile, index: int, kind: str, lying: bool
) -> None:
    transform = f"translate({_pt(at)})"
    if lying:
        transform += " rotate(-90)"
    transform += " scale(0.8)"  # about 22 units across: inside the square from 12 units in
    g = _el(
        parent,
        "g",
        transform=transform,
        **{
            "class": "meeple",
            "data-player": str(player),
            "data-x": str(placed.x),
            "data-y": str(placed.y),
            "data-feature": str(index),
            "data-kind": kind,
        },
    )
    outline = "#ffffff" if colour.lower() in ("#1a1a1a", "#000000", "#000", "black") else "#111111"
    _el(g, "path", d=_MEEPLE, fill=colour, stroke=outline, stroke_width="1.4", stroke_linejoin="round")


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
            if kind == "town":
                _el(
                    g,
                    "path",
                    d=f"M{x + 38},{y + 62} V{y + 48} L{x + 50},{y + 38} L{x + 62},{y + 48} V{y + 62} Z",
                    fill="#d9cfae",
                    stroke="#a89c78",
                    stroke_width="2",
                )
            elif kind == "start":
                _el(
                    g,
                    "rect",
                    x=str(x + 6),
                    y=str(y + 6),
                    width="88",
                    height="88",
                    fill="none",
                    stroke="#a0522d",
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


def board(
    game: Game,
    *,
    size: int | None = None,
    last_move: bool = True,
    colors: Sequence[str] | None = None,
    legend: bool = True,
) -> SvgWrapper:
    """An SVG picture of the board of ``game``, of any rule system.

    ``size``: the picture's width in pixels (default: 50 per square; the height follows).
    ``last_move``: outline the tile of the last move. ``colors``: one CSS colour per
    player instead of ``COLORS``. ``legend``: a row under the board with each player's
    colour and score.
    """
    rules = game.rules
    if size is not None and size < 1:
        raise ValueError(f"size must be at least 1 pixel, not {size}")
    palette = tuple(colors) if colors is not None else COLORS
    if len(palette) < rules.players:
        raise ValueError(f"colors names {len(palette)} colours for {rules.players} players")
    placed = game.board
    grid = rules.map_grid()
    system = rules.system

    squares: list[tuple[int, int]] = [(p.x, p.y) for p in placed]
    squares += [(c, r) for r, line in enumerate(grid) for c in range(len(line))]
    min_x = min(x for x, _ in squares)
    max_x = max(x for x, _ in squares)
    min_y = min(y for _, y in squares)
    max_y = max(y for _, y in squares)
    margin = 0 if grid else 25
    vx, vy = min_x * SQUARE - margin, min_y * SQUARE - margin
    vw = (max_x - min_x + 1) * SQUARE + 2 * margin
    board_h = (max_y - min_y + 1) * SQUARE + 2 * margin
    labels = _labels(game)
    column = 60 + 15 * max(len(t) for t in labels)  # a swatch and the text (26-unit sans-serif)
    per_row = max(1, min(rules.players, vw // column))
    legend_h = 60 * math.ceil(rules.players / per_row) if legend else 0
    friday = _friday_cards(game)
    friday_h = _FRIDAY_ROW if friday else 0
    vh = board_h + friday_h + legend_h
    width = size if size is not None else max(1, (vw * 50) // SQUARE)
    height = max(1, round(width * vh / vw))

    svg = _svg_root((vx, vy, vw, vh), width, height, f"carcassonne-board {system}")
    title = ET.SubElement(svg, "title")
    title.text = f"Carcassonne board: {len(placed)} tiles, turn {game.turn}" + (", game over" if game.is_over else "")
    _el(svg, "rect", x=str(vx), y=str(vy), width=str(vw), height=str(vh), fill=_TABLE, **{"class": "background"})
    if grid:
        _map_layer(svg, grid)

    ferries = {(x, y): (a, b) for x, y, a, b in game.ferries}
    symbols = _board_symbols(game, placed)
    quarters = _piece_quarters(rules) if grid else {}
    tiles = _el(svg, "g", **{"class": "tiles"})
    layouts: dict[tuple[int, int], _Layout] = {}
    for p in placed:
        lake = (p.x, p.y) in ferries
        layout = _layout(tuple(rules.tile_features(p.tile, 0)), lake)
        layouts[(p.x, p.y)] = layout
        _tile(
            tiles,
            p,
            layout,
            symbols.get(p.tile if p.tile.startswith("map/") else (p.x, p.y), {}),
            ferries.get((p.x, p.y)),
            lake,
            p.tile.startswith("map/"),
            system,
            quarters.get(p.tile),
        )

    if system == "south-seas":
        boats = _el(svg, "g", **{"class": "boat-tokens"})
        seen: set[tuple[int, int]] = set()
        for event in game.sea_events:
            if event.kind == "boat" and event.square is not None and event.square not in seen:
                seen.add(event.square)
                bx, by = event.square[0] * SQUARE + 80, event.square[1] * SQUARE + 82
                _el(
                    boats,
                    "path",
                    d=f"M{bx - 11},{by} H{bx + 11} L{bx + 7},{by + 7} H{bx - 7} Z M{bx},{by} V{by - 14} L{bx + 9},{by - 3} Z",
                    fill="#f5f0e1",
                    stroke="#3e2612",
                    stroke_width="1.3",
                    **{"class": "boat-token", "data-x": str(event.square[0]), "data-y": str(event.square[1])},
                )

    moves = game.moves
    if last_move and moves:
        m = moves[-1]
        _el(
            svg,
            "rect",
            x=str(m.x * SQUARE + 3),
            y=str(m.y * SQUARE + 3),
            width=str(SQUARE - 6),
            height=str(SQUARE - 6),
            fill="none",
            stroke=_LAST_MOVE,
            stroke_width="6",
            **{"class": "last-move", "data-x": str(m.x), "data-y": str(m.y)},
        )

    meeples = _el(svg, "g", **{"class": "meeples"})
    for p in placed:
        if p.meeple is None:
            continue
        player, index = p.meeple
        layout = layouts[(p.x, p.y)]
        anchor = _rotate(layout.anchors.get(index, _CENTRE), p.rotation)
        kind = layout.kinds[index] if index < len(layout.kinds) else ""
        at = (p.x * SQUARE + anchor[0], p.y * SQUARE + anchor[1])
        _meeple(meeples, at, palette[player], player, p, index, kind, lying=kind == "field")

    if grid:
        from carcassonne.maps import summary as map_summary

        # Coats of arms printed on the map's island squares, over whatever tile lies there.
        arms_layer = _el(svg, "g", **{"class": "island-arms"})
        for col, row, count in map_summary(rules).island_arms:
            g = _el(arms_layer, "g", **{"class": "island-arms", "data-x": str(col), "data-y": str(row), "data-arms": str(count)})
            _arms(g, (col * SQUARE + 78, row * SQUARE + 22), count, "island-shield")
    if friday:
        _friday_panel(svg, friday, vx, vy + board_h, vw)
    if legend:
        _legend(svg, labels, palette, vx, vy + board_h + friday_h, vw, per_row)
    return SvgWrapper(ET.tostring(svg, encoding="unicode"))


_FRIDAY_ROW = 120
"""Height of the row of revealed Friday tiles under a South Seas board with Friday."""


def _friday_cards(game: Game) -> list[tuple[str, str, bool]]:
    """(id, bonus, Friday stands here) of each Friday tile revealed so far, in order."""
    if not game.rules.friday:
        return []
    bonuses = dict(game.rules.friday_tiles())
    return [(tile, bonuses.get(tile, ""), tile == game.friday_at) for tile in game.friday_revealed]


def _friday_panel(svg: ET.Element, cards: Sequence[tuple[str, str, bool]], x0: int, y0: int, width: int) -> None:
    """The revealed Friday tiles as cards in a row, each with its bonus; the one Friday
    stands on is outlined and carries his figure."""
    g = _el(svg, "g", **{"class": "friday"})
    heading = _el(g, "text", x=str(x0 + 20), y=str(y0 + 64), fill="#222222", font_family="sans-serif", font_size="24")
    heading.text = "Friday:"
    card_w = max(60, min(170, (width - 130) // max(1, len(cards)) - 10))
    for i, (tile, bonus, here) in enumerate(cards):
        x, y = x0 + 120 + i * (card_w + 10), y0 + 8
        _el(
            g,
            "rect",
            x=str(x),
            y=str(y),
            width=str(card_w),
            height="100",
            rx="8",
            fill="#f3e2b3" if here else "#efe9da",
            stroke="#7a4b12" if here else "#8a8170",
            stroke_width="6" if here else "2",
            **{"class": "friday-tile" + (" friday-here" if here else ""), "data-tile": tile},
        )
        _label(g, (x + card_w / 2, y + 30), tile, size=24)
        # The bonus in two short lines ("wares: every player" / "takes 1 fish").
        words = bonus.split()
        half = (len(words) + 1) // 2
        for line, text in enumerate((" ".join(words[:half]), " ".join(words[half:]))):
            _label(g, (x + card_w / 2, y + 58 + line * 20), text, size=max(9, min(15, int(1.9 * card_w / max(1, len(text))))))
        if here:
            # Friday: a small figure on the card's corner.
            cx, cy = x + card_w - 16, y + 18
            _el(g, "circle", cx=str(cx), cy=str(cy - 6), r="6", fill="#3e2612", **{"class": "friday-figure"})
            _el(g, "path", d=f"M{cx - 8},{cy + 12} L{cx},{cy} L{cx + 8},{cy + 12} Z", fill="#3e2612")


def _labels(game: Game) -> list[str]:
    """Each player's legend text: score (South Seas: and ships), a star for the winners, a
    triangle for the player who decides next."""
    rules = game.rules
    winners = set(game.winners) if game.is_over else set()
    out = []
    for player in range(rules.players):
        # Seats are numbered from 0, as in every other output.
        parts = [f"Seat {player}: {game.scores[player]}"]
        if rules.system == "south-seas":
            ships = sum(1 for who, _ in game.ships_taken if who == player)
            parts.append(f"({ships} ship{'' if ships == 1 else 's'})")
        if player in winners:
            parts.append("\u2605")
        elif not game.is_over and player == game.decider:
            parts.append("\u25c0")
        out.append(" ".join(parts))
    return out


def _legend(
    svg: ET.Element, labels: Sequence[str], palette: Sequence[str], x0: int, y0: int, width: int, per_row: int
) -> None:
    g = _el(svg, "g", **{"class": "legend"})
    column = width // per_row
    for player, label in enumerate(labels):
        x = x0 + (player % per_row) * column + 20
        y = y0 + (player // per_row) * 60 + 12
        _el(
            g,
            "rect",
            x=str(x),
            y=str(y),
            width="36",
            height="36",
            rx="6",
            fill=palette[player],
            stroke="#111111",
            stroke_width="2",
            **{"class": "swatch", "data-player": str(player)},
        )
        text = _el(g, "text", x=str(x + 48), y=str(y + 27), fill="#222222", font_family="sans-serif", font_size="26")
        text.text = label


# ----- the map alone (for transcribers) --------------------------------------------------------

_SIDE_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
_SIDE_DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def _side_midpoint(col: int, row: int, side: str) -> Point:
    dx, dy = _SIDE_DELTA[side]
    return (col * SQUARE + 50 + 50 * dx, row * SQUARE + 50 + 50 * dy)


def _label(parent: ET.Element, at: Point, text: str, size: int = 22, fill: str = "#222222", **attrs: str) -> None:
    t = _el(
        parent,
        "text",
        x=_fmt(at[0]),
        y=_fmt(at[1]),
        fill=fill,
        font_family="sans-serif",
        font_size=str(size),
        text_anchor="middle",
        dominant_baseline="central",
        **attrs,
    )
    t.text = text


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


def _arms(parent: ET.Element, at: Point, count: int, cls: str = "pennant") -> None:
    """Coats of arms on the map: a large shield with the count. On a board, the arms of
    an island square are the map's, not a tile's (``cls`` tells them apart)."""
    _pennant(parent, at, count, " scale(2.2)", cls)
    _label(parent, (at[0] + 1, at[1] + 30), f"x{count}", 16, "#1f3f7f")
