"""The small drawings on a tile or map: pennants and coats of arms, inns, cathedrals,
fishing boats, goods and wares, monasteries and markets, meeples."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from carcassonne._core import PlacedTile
from carcassonne.svg.document import _el, _fmt, _label, _pt
from carcassonne.svg.geometry import Point
from carcassonne.svg.palette import _LAKE

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


def _arms(parent: ET.Element, at: Point, count: int, cls: str = "pennant") -> None:
    """Coats of arms on the map: a large shield with the count. On a board, the arms of
    an island square are the map's, not a tile's (``cls`` tells them apart)."""
    _pennant(parent, at, count, " scale(2.2)", cls)
    _label(parent, (at[0] + 1, at[1] + 30), f"x{count}", 16, "#1f3f7f")
