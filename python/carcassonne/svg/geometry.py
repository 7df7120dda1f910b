"""Geometry of one square in its own frame (0..100, y down, rotation 0): its sides, corners
and centre, and the points, curves and distances the drawing of a tile is made of."""

from __future__ import annotations

import math
from collections.abc import Sequence

SQUARE = 100
"""User units per board square in the SVG's coordinates."""

Point = tuple[float, float]


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
