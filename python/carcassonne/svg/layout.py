"""The layout of one tile, computed from its feature data (``Rules.tile_features``): city
and island outlines, road and bridge lines, the building, where each meeple stands and
where printed symbols go. In the tile's rotation-0 frame; cached per tile kind."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

from carcassonne.svg.document import _pt
from carcassonne.svg.geometry import (
    _BUILDING,
    _CENTRE,
    _CORNERS,
    _INWARD,
    _LAKE_RADIUS,
    _MIDS,
    _SIDES,
    Point,
    _add,
    _crosses,
    _dist_to_polyline,
    _half_edge,
    _inside,
    _lerp,
    _quad,
)

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
