"""The Carcassonne Maps oracle, checking random games decision by decision.

Games on the built-in maps (``MAPS_CONFIGS``: one to four start squares, a short deck,
The Ferries' lake tiles on a map, islands and ferry connections, two half maps joined and
one alone, the small-town variants) and on small map files written here (``LOCAL_MAPS``:
a start square on the coast whose printed city turns the start tile, a bay where three
printed roads face one outside square, printed cities facing a highlight, a strait with
ferries across waves to an island that touches the mainland and is reached by three
ferries, one ending at a highlight, chosen start squares and rotations) are drawn with
Hypothesis (deck seed and the seed of the choices) and checked decision by decision against
an oracle written here in Python from the map files and tile files alone (read with
``tomllib``; see ``oracle.py``), ``game.board`` and ``game.ferries``; no engine table of
the map is used. Printed border pieces and ferry connections belong to sides of squares
(DECISIONS M-13): the oracle keys them by their tile id, real tiles and large-city squares
by their square, and a (square, side) -> piece table says what a tile meets across each
side:

* the set-up: the printed pieces (each id once; large-city squares on their squares,
  border pieces and ferry connections shown at the outside square beyond their first
  side, several possibly at one square) stand on the board first, unturned; then the
  start tile on the first of ``rules.map_starts()`` and tiles of the deck on the others,
  in order, each turned as ``rules.start_rotations`` asks or else by the first clockwise
  rotation whose edges fit what is printed on the square's sides, the large-city squares
  across and the start tiles already placed (M-12); a tile was discarded at turn 0 only
  if it did not fit the start square it was tried on, or fits nowhere after the set-up;
* the listed placements (square, rotation) are exactly the oracle's: a playable empty
  square next to a real tile or to a connected large city (M-8), or at the far end of a
  linked ferry connection (a real tile at either end links it); island squares only once
  a linked connection reaches their island (any of several, M-10, M-13), and then also
  beside a mainland tile; on joined maps each pair of half squares is one ordinary
  square, alone they take no tile; matching every neighbour across each side: a tile, a
  large-city square, or the printed piece on that side (a ferry end shows a road); the
  listed meeple targets are the tile's features whose feature is free;
* a tile is discarded only when it fits nowhere;
* every listed move is accepted; large-city squares, waves, highlights, lone half squares,
  outside squares (those printed pieces face, the outside next to a real tile, far
  away), squares not yet open (islands not reached), occupied squares and non-matching
  turns are refused and change nothing, and so are the extra-turn decisions outside their
  phase and South Seas' decisions; while an extra turn is offered, both decisions are
  accepted and every placement (those of the tile to come too) is refused;
* a recount of every feature by flood fill (each printed piece one piece of its feature,
  meeting only the squares it belongs to, through their sides; a ferry connection one
  road piece touching both its ends; a side facing the outside, a wave or a highlight
  without a piece, or a lone half square, closes what faces it; monastery rings of the
  squares that can be filled, M-9) agrees with ``features()`` (segments on real tiles,
  printed pieces by id in ``Feature.printed``); the scorings of every turn and of the end
  follow from it (a piece counts as one, also when two are shown at one outside square),
  with coats of arms as pennants of the city (M-7) and 2 each on a completed border road
  or ferry connection (1 each at the end, M-5, M-6); a tile on an island square scores 2
  per coat of arms printed there at once (kind "map");
* the small-town variants (squares ``t``, and start squares ``S`` left without a start
  tile; ``s`` is a start square that is no small town): 1 covering one, in a turn that is
  not itself an extra turn, offers the same player an extra turn if a tile still to come
  fits somewhere (phase "extra_turn": no tile in hand, exactly the two decisions listed,
  that player to decide, nothing drawn yet); taken, the same player draws the next tile
  and covering a small town in that turn offers none; declined, the next player draws;
  with no tile to come fitting, the game ends without an offer (``EXTRA_TURN_COUNTS``
  are what the oracle counts of them); 2 covering one costs 2 points (kind "map"); 3 a
  scored road gains 2 per uncovered small town beside a square of the road (real tiles
  and large-city squares: never border pieces or ferry connections, which stand on no
  square);
* every draw: the tile drawn is the first still to come that fits somewhere, those before
  it discarded at this turn (after the move, or after the extra-turn decision);
* the deck is used up (placed + discarded + start-square tiles); the record lists every
  extra-turn decision at its turn.

``MapsOracle`` and ``MapsProbe`` run it in the shared harness (``harness.py``), which also
checks what holds for every system (meeples conserved, clones and JSON records mid-game
continuing identically).

``MapData`` reads any map file (``MapData.load``: a built-in name, a path, or two joined;
``MapData.from_text``), so the oracle checks games on any map file with any rules.

``simulate`` is not compared with ``Game``: its players draw from the engine's own random
numbers, which the Python API does not expose (no policy can be replayed move by move);
seeds, records and batch determinism of the built-in configurations are covered by
``test_conformance.py``.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import tomllib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Union

import pytest

from carcassonne import (
    Decision,
    Game,
    Move,
    PositionError,
    Rules,
)
from configs import MAPS_CONFIGS
from hooks import Choice, Oracle, Probe
from observe import Action, ferry_links
from oracle import (
    DATA_DIR,
    DELTA,
    OPPOSITE,
    SIDES,
    Model,
    event_key,
    facing,
    load_tiles,
    majority,
    points_from_events,
)


# ----- small map files that use the freedom of M-12 and M-13 --------------------------------

# A start square on the coast with a printed city on its west side (the start tile turns to
# it); a bay: the outside square (3, 1) is faced by three squares whose sides facing it hold
# printed roads (two with a coat of arms); a highlight (3, 3) faced by two printed cities.
# One of the bay's squares, (3, 2), is a small town: small-town variant 3 counts it for a
# road beside it, never for the printed roads in the bay (they stand on no square).
BAY = """
name = "bay"
title = "Bay (oracle test map)"
tiles = 25
start_squares = 1
grid = '''
.........
.So.ooo..
.ootoooo.
.oo^oooo.
.ooooooo.
.........
'''

[[border]]
at = [1, 1]
side = "W"
piece = "city"

[[border]]
at = [2, 1]
side = "E"
piece = "road"
arms = 1

[[border]]
at = [4, 1]
side = "W"
piece = "road"
arms = 1

[[border]]
at = [3, 2]
side = "N"
piece = "road"

[[border]]
at = [2, 3]
side = "E"
piece = "city"
arms = 1

[[border]]
at = [3, 4]
side = "N"
piece = "city"
"""

# A strait: one island (columns 4-5) touching the mainland at (3, 3)-(4, 3), reached by
# three ferries: two across a wave each (both ends face the same wave square), one from
# a side facing a wave to a side facing a highlight, which a printed road on the island
# faces too; a large-city square on the island's edge (a tile beside it opens the island
# squares beside it); coats of arms on an island square.
STRAIT = """
name = "strait"
title = "Strait (oracle test map)"
tiles = 15
start_squares = 1
grid = '''
.......
.oo~iA.
.So~ii.
.oooii.
.oo~^i.
.......
'''

[cities.A]
name = "Harbour"
squares = [{ at = [5, 1], edges = "FFCF", arms = 1 }]

[[ferries]]
from = [2, 1, "E"]
to = [4, 1, "W"]
arms = 1

[[ferries]]
from = [2, 2, "E"]
to = [4, 2, "W"]

[[ferries]]
from = [2, 4, "E"]
to = [5, 4, "W"]
arms = 1

[[border]]
at = [4, 3]
side = "S"
piece = "road"

[[arms]]
at = [5, 3]
count = 1
"""

# Four start squares: (5, 1) with a printed road on its north side, (7, 2) beside a
# large-city square whose road faces it and no small town (s); the others are small
# towns too (S), counted by the small-town variants when no start tile lies there.
STARTS = """
name = "starts"
title = "Start squares (oracle test map)"
tiles = 22
start_squares = 2
grid = '''
..........
.oSooSooo.
.oooooAs..
.ooSooooo.
..........
'''

[cities.A]
name = "Gate"
squares = [{ at = [6, 2], edges = "CRFF", arms = 1 }]

[[border]]
at = [5, 1]
side = "N"
piece = "road"
arms = 1
"""

LOCAL_MAPS = {"bay": BAY, "strait": STRAIT, "starts": STARTS}

# Rules read a map file when they are made (its text is then part of the rules), so the
# files only need to exist while the configurations below are built.
MAP_DIR = tempfile.TemporaryDirectory(prefix="maps-oracle-")


def write_map(text: str) -> str:
    """Writes a map file for ``Rules(map=...)``; returns its path."""
    name = tomllib.loads(text)["name"]
    path = Path(MAP_DIR.name) / f"{name}.toml"
    path.write_text(text)
    return str(path)


LOCAL_FILES = {name: write_map(text) for name, text in LOCAL_MAPS.items()}

LOCAL_CONFIGS: dict[str, dict[str, Any]] = {
    "bay-towns-2p": dict(players=2, map=LOCAL_FILES["bay"], small_towns=(1, 2, 3)),
    "strait-2p": dict(players=2, map=LOCAL_FILES["strait"]),
    # Chosen start squares in this order, the first two tiles turned as asked.
    "starts-chosen-2p": dict(
        players=2, map=LOCAL_FILES["starts"], start_squares=[(3, 3), (7, 2), (5, 1)], start_rotations=[1, 2, None]
    ),
    # The first three start squares, only the start tile's rotation asked.
    "starts-turned-3p": dict(players=3, map=LOCAL_FILES["starts"], start_squares=3, start_rotations=[3]),
    # Two start squares used: (3, 3), a small town, and (7, 2), none, left without a tile.
    "starts-towns-2p": dict(players=2, map=LOCAL_FILES["starts"], small_towns=(1, 2, 3)),
}

CONFIGS = {**MAPS_CONFIGS, **LOCAL_CONFIGS}

# Small-town variant 1 alone and all three variants, on the continental map and on the
# joined west+east map (the last one of ``MAPS_CONFIGS``): the extra turn, a choice, taken
# and declined in games checked by ``test_maps_invariants.py`` (not registered with the
# shared harness, which runs each of ``CONFIGS`` through every invariant test).
EXTRA_TURN_CONFIGS: dict[str, dict[str, Any]] = {
    "continental-extra-turn-2p": dict(players=2, map="continental", small_towns=(1,)),
    "continental-all-towns-2p": dict(players=2, map="continental", small_towns=(1, 2, 3)),
    "west-east-extra-turn-2p": dict(players=2, map="west+east", small_towns=(1,), deck_size=113),
    "west-east-towns-2p": MAPS_CONFIGS["west-east-towns-2p"],
}

RULES: dict[str, Rules] = {name: Rules(**kw) for name, kw in {**CONFIGS, **EXTRA_TURN_CONFIGS}.items()}


TILES = load_tiles(sorted({s for r in RULES.values() for s in r.tile_sets}))
MODEL = Model(TILES)


XY = tuple[int, int]
# What a board holds: a real tile or a large-city square (by its square), or a printed
# border piece or ferry connection (by its tile id: it stands on no square).
Key = Union[XY, str]
Seg = tuple[Key, int]
RING = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]


# ----- the map, read straight from its TOML file -----------------------------------------------


@dataclass(frozen=True)
class Part:
    """One feature of a tile or printed piece, in board orientation."""

    kind: str  # "road", "city", "field", "monastery"
    slots: frozenset[str]  # sides for roads and cities, half-edges for fields
    pennants: int = 0  # cities: pennants or coats of arms
    road_arms: int = 0  # roads: coats of arms of a printed border road
    borders: tuple[int, ...] = ()  # fields: indices of the city parts they border
    # False for a ferry connection's half-edges beside its road: a route over the water
    # holds no land there, so nothing joins through them (whichever way its ends face).
    touches: bool = True


@dataclass(frozen=True)
class Piece:
    """A printed piece: a large-city square, a border piece or a ferry connection."""

    id: str  # its tile id, "map/<map>/..."
    kind: str  # "city square", "border" or "ferry"
    shown: XY  # where game.board lists it: its square, or beyond its (first) side
    edges: str  # N E S W
    parts: tuple[Part, ...]
    city: str | None = None  # a large-city square's city ("G", or "west.G" on joined maps)
    # The sides of squares a border piece or ferry connection belongs to, (square, side):
    # one for a border piece, both ends for a ferry connection; none for a city square.
    sides: tuple[tuple[XY, str], ...] = ()
    arms: int = 0  # coats of arms: on the square, the border piece or the route
    feature: str = ""  # border pieces: "road" or "city"

    @property
    def key(self) -> Key:
        return self.shown if self.kind == "city square" else self.id


def halves(side: str) -> list[str]:
    return [side + "L", side + "R"]


def beyond(at: XY, side: str) -> XY:
    dx, dy = DELTA[side]
    return (at[0] + dx, at[1] + dy)


def city_square_piece(pid: str, at: XY, city: str, edges: str, arms: int) -> Piece:
    """A large-city square: one city over its city sides with the coats of arms (M-7), a road
    ending in the city on each road side, and every half-edge of the other sides a small
    field of its own bordering the city (M-11)."""
    parts = [Part("city", frozenset(s for s, e in zip(SIDES, edges) if e == "C"), pennants=arms)]
    for side, e in zip(SIDES, edges):
        if e == "C":
            continue
        if e == "R":
            parts.append(Part("road", frozenset(side)))
        for h in halves(side):
            parts.append(Part("field", frozenset([h]), borders=(0,)))
    return Piece(pid, "city square", at, edges, tuple(parts), city=city, arms=arms)


def border_piece(pid: str, at: XY, side: str, kind: str, arms: int) -> Piece:
    """A printed road or city on ``side`` of square ``at``: it shows its feature on the side
    facing the square and field everywhere else, and is shown beyond that side."""
    f = OPPOSITE[side]
    edges = "".join(("R" if kind == "road" else "C") if s == f else "F" for s in SIDES)
    rest = frozenset(h for s in SIDES if s != f for h in halves(s))
    if kind == "road":
        parts = [
            Part("road", frozenset(f), road_arms=arms),
            Part("field", frozenset([f + "L"])),
            Part("field", frozenset([f + "R"])),
            Part("field", rest),
        ]
    else:
        parts = [Part("city", frozenset(f), pennants=arms), Part("field", rest)]
    return Piece(pid, "border", beyond(at, side), edges, tuple(parts), sides=((at, side),), arms=arms, feature=kind)


def ferry_piece(pid: str, ends: tuple[tuple[XY, str], tuple[XY, str]], arms: int) -> Piece:
    """A printed ferry connection: one road piece belonging to both its ends' sides, with a
    road on each side facing an end (one side if both ends face the same way) and the
    route's coats of arms; each half-edge beside the road is a field of its own that touches
    nothing (no land beside a route over the water: the fields at its two ends never join
    through it), and each other side one field. It is shown beyond its first end."""
    road = frozenset(OPPOSITE[side] for _, side in ends)
    edges = "".join("R" if s in road else "F" for s in SIDES)
    parts = [Part("road", road, road_arms=arms)]
    for s in SIDES:
        if s in road:
            parts += [
                Part("field", frozenset([s + "L"]), touches=False),
                Part("field", frozenset([s + "R"]), touches=False),
            ]
        else:
            parts.append(Part("field", frozenset(halves(s))))
    return Piece(pid, "ferry", beyond(*ends[0]), edges, tuple(parts), sides=ends, arms=arms, feature="road")


MAPS_DIR = DATA_DIR / "maps"
BUILTIN_MAPS = {p.stem for p in MAPS_DIR.glob("*.toml")}


def read_map_file(source: str) -> dict[str, Any]:
    """A built-in map by name, or any map file by path."""
    if source in BUILTIN_MAPS:
        data = tomllib.loads((MAPS_DIR / f"{source}.toml").read_text())
        assert data["name"] == source
        return data
    return tomllib.loads(Path(source).read_text())


def grid_rows(data: dict[str, Any]) -> list[str]:
    return [line for line in data["grid"].split("\n") if line.strip()]


class MapData:
    """A map as its file says, or two half maps joined ("west+east"): the first map's join
    column (E) lies on the second's (W), each pair of half squares (h) there becomes an
    ordinary square, and the second map's columns shift by the first's width - 1.

    ``MapData.load`` takes a built-in map's name, a map file's path or two of them joined
    with "+" (what ``rules.map`` says); ``MapData.from_text`` a map file's text and its name."""

    def __init__(self, sources: list[dict[str, Any]]) -> None:
        assert 1 <= len(sources) <= 2
        name = "+".join(d["name"] for d in sources)
        self.name = name
        self.joined = len(sources) == 2
        self.tiles: int = sum(d["tiles"] for d in sources)
        self.start_squares: int = sum(d["start_squares"] for d in sources)
        shifts = [0]
        if self.joined:
            west, east = sources
            assert (west.get("join"), east.get("join")) == ("E", "W"), name
            assert len(grid_rows(west)) == len(grid_rows(east))
            shifts.append(max(len(r) for r in grid_rows(west)) - 1)
        self.grid: dict[XY, str] = {}
        self.half_joined: set[XY] = set()  # squares made of two half squares
        for data, shift in zip(sources, shifts):
            rows = grid_rows(data)
            width = max(len(r) for r in rows)
            for y, row in enumerate(rows):
                for x in range(width):
                    c = row[x] if x < len(row) else "."
                    c = "." if c == " " else c
                    xy = (x + shift, y)
                    if xy in self.grid:  # the join column
                        pair = (self.grid[xy], c)
                        assert pair in (("h", "h"), (".", ".")), f"{name}: {xy} joins {pair}"
                        if pair == ("h", "h"):
                            self.grid[xy] = "o"
                            self.half_joined.add(xy)
                        continue
                    self.grid[xy] = c
        self.height = 1 + max(y for _, y in self.grid)
        self.width = 1 + max(x for x, _ in self.grid)
        letters = set("ABCDEFGHIJKLMNOPQRTUVWXYZ")
        assert set(self.grid.values()) <= set(".otSs~^ih") | letters
        for (x, _), c in self.grid.items():
            if c == "h":  # alone, a map's half squares stand in its join column
                join = sources[0]["join"]
                assert not self.joined and x == (self.width - 1 if join == "E" else 0), (name, x)
        self.starts = sorted((xy for xy, c in self.grid.items() if c in "Ss"), key=lambda p: (p[1], p[0]))
        # Squares that ever take a tile (island squares included, M-10).
        self.playable = {xy for xy, c in self.grid.items() if c in "otSsi"}
        self.pieces: dict[str, Piece] = {}  # every printed piece, by tile id
        self.printed: dict[Key, Piece] = {}  # the same by key: large-city squares by square
        self.city_of: dict[XY, str] = {}  # large-city square -> the city's name
        # (square, side) -> the id of the border piece or ferry connection on that side
        self.side_piece: dict[tuple[XY, str], str] = {}
        self.ferries: list[Piece] = []
        self.arms: dict[XY, int] = {}  # coats of arms on island squares
        prefix = f"map/{name}/"
        counts = Counter[str]()

        def add(piece: Piece) -> None:
            assert piece.id not in self.pieces, piece.id
            self.pieces[piece.id] = piece
            self.printed[piece.key] = piece
            for at, side in piece.sides:
                # A piece belongs to a side of a square that takes a tile and faces off the
                # map, a wave or a highlight (M-13), one piece per side.
                assert at in self.playable, (name, piece.id, at)
                assert self.square(*beyond(at, side)) in ".~^", (name, piece.id, at, side)
                assert (at, side) not in self.side_piece, (name, piece.id, at, side)
                self.side_piece[(at, side)] = piece.id

        for data, shift in zip(sources, shifts):
            tag = f"{data['name']}." if self.joined else ""

            def at_(v: list[Any], shift: int = shift) -> XY:
                return (v[0] + shift, v[1])

            for letter, city in data.get("cities", {}).items():
                for k, sq in enumerate(city["squares"], start=1):
                    at = at_(sq["at"])
                    assert self.grid[at] == letter, (name, letter, at)
                    piece = city_square_piece(f"{prefix}{tag}{letter}{k}", at, tag + letter, sq["edges"], sq.get("arms", 0))
                    add(piece)
                    self.city_of[at] = tag + letter
            for b in data.get("border", []):
                counts["border"] += 1
                at = at_(b["at"])
                add(border_piece(f"{prefix}border{counts['border']}", at, b["side"], b["piece"], b.get("arms", 0)))
            for f in data.get("ferries", []):
                counts["ferry"] += 1
                ends = ((at_(f["from"][:2]), f["from"][2]), (at_(f["to"][:2]), f["to"][2]))
                assert ends[0][0] != ends[1][0], (name, f)
                piece = ferry_piece(f"{prefix}ferry{counts['ferry']}", ends, f.get("arms", 0))
                add(piece)
                self.ferries.append(piece)
            for a in data.get("arms", []):
                self.arms[at_(a["at"])] = a["count"]
        self.city_squares = {xy for xy, c in self.grid.items() if c in letters}
        assert self.city_squares == set(self.city_of)
        # The outside squares printed pieces face (off the map, waves, highlights).
        self.faced = {beyond(at, side) for at, side in self.side_piece}
        # Islands: the orthogonally connected groups of island squares.
        self.island_of: dict[XY, int] = {}
        for xy in sorted((xy for xy, c in self.grid.items() if c == "i"), key=lambda p: (p[1], p[0])):
            if xy in self.island_of:
                continue
            k = len(set(self.island_of.values()))
            stack = [xy]
            self.island_of[xy] = k
            while stack:
                x, y = stack.pop()
                for dx, dy in DELTA.values():
                    n = (x + dx, y + dy)
                    if self.square(*n) == "i" and n not in self.island_of:
                        self.island_of[n] = k
                        stack.append(n)
        assert set(self.arms) <= set(self.island_of)
        # The ferry connections reaching each island, in file order (M-13: any one opens it).
        self.island_ferries: dict[int, list[Piece]] = {}
        for f in self.ferries:
            for island in sorted({self.island_of[at] for at, _ in f.sides if at in self.island_of}):
                self.island_ferries.setdefault(island, []).append(f)
        # Squares by what they are.
        # Small towns: ``t``, and the start squares that are one (``S``; ``s`` is not).
        self.towns = {xy for xy, c in self.grid.items() if c in "tS"}
        self.halves = sorted(xy for xy, c in self.grid.items() if c == "h")  # alone: no square
        self.blocked = sorted(xy for xy, c in self.grid.items() if c in "~^")  # waves, highlights
        self.cities: dict[str, list[XY]] = {}
        for xy in sorted(self.city_squares):
            self.cities.setdefault(self.city_of[xy], []).append(xy)

    @classmethod
    def load(cls, source: str | os.PathLike[str]) -> MapData:
        """A built-in map's name, a map file's path, or two of them joined by "+"."""
        text = os.fspath(source)
        parts = text.split("+")
        if len(parts) != 2 or not all(p in BUILTIN_MAPS or p.endswith(".toml") for p in parts):
            parts = [text]
        return cls([read_map_file(p) for p in parts])

    @classmethod
    def from_text(cls, text: str, name: str) -> MapData:
        """A map file's text; ``name`` is the map's name, which its pieces' ids carry."""
        data = tomllib.loads(text)
        assert data["name"] == name, (data["name"], name)
        return cls([data])

    def square(self, x: int, y: int) -> str:
        return self.grid.get((x, y), ".")

    def grid_rows(self) -> list[str]:
        """The grid as ``Rules.map_grid()`` shows it (joined half squares as ``o``)."""
        return ["".join(self.grid[(x, y)] for x in range(self.width)) for y in range(self.height)]

    def in_ring(self, x: int, y: int) -> bool:
        """Squares that take a tile (island squares included) and large-city squares count
        as a monastery's neighbours (M-9)."""
        return (x, y) in self.playable or (x, y) in self.city_squares

    def closes(self, x: int, y: int, side: str) -> bool:
        """Whether ``side`` of square (x, y) closes the road or city facing it: a side
        facing the outside, a wave or a highlight without a printed piece or ferry end on
        it (M-13: a side with a piece never closes), or a lone half square."""
        if not self.in_ring(x, y):
            return False
        if ((x, y), side) in self.side_piece:
            return False
        return self.square(*beyond((x, y), side)) in ".~^h"

    def ring(self, x: int, y: int) -> list[XY]:
        return [(x + a, y + b) for a, b in RING if self.in_ring(x + a, y + b)]

    def inland(self, xy: XY) -> bool:
        """A mainland square with mainland squares that take a tile on all four sides."""
        return xy not in self.island_of and all(
            beyond(xy, s) in self.playable and beyond(xy, s) not in self.island_of for s in SIDES
        )


MAPS: dict[str, MapData] = {}


def map_of(game: Game) -> MapData:
    name = game.rules.map
    assert name is not None
    if name not in MAPS:
        MAPS[name] = MapData.load(name)
    return MAPS[name]


for _rules in RULES.values():
    assert _rules.map is not None
    MAPS.setdefault(_rules.map, MapData.load(_rules.map))


def map_named(name: str) -> MapData:
    """A built-in map (or joined pair) or one of ``LOCAL_MAPS``, by name."""
    return MAPS[LOCAL_FILES.get(name, name)]


# ----- tiles and pieces on the board ------------------------------------------------------------


@cache
def tile_parts(tile: str, r: int) -> tuple[Part, ...]:
    tdef = TILES[tile]
    out = []
    for f, slots in zip(tdef.features, MODEL.slots(tile, r)):
        borders: tuple[int, ...] = ()
        if f.kind == "field":
            borders = tuple(
                next(k for k, g in enumerate(tdef.features) if g.kind == "city" and side in g.slots)
                for side in f.cities
            )
        out.append(Part(f.kind, slots, pennants=int(f.pennant and f.kind == "city"), borders=borders))
    return tuple(out)


@cache
def slot_index(parts: tuple[Part, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, p in enumerate(parts):
        for s in p.slots:
            assert s not in out
            out[s] = i
    return out


class Board:
    """The board as the oracle sees it: real tiles by square, printed pieces from the map
    (``placed`` is ``game.board`` or a first part of it)."""

    def __init__(self, mp: MapData, placed: Iterable[Any]) -> None:
        self.mp = mp
        self.real: dict[XY, Any] = {}
        printed: set[str] = set()
        for p in placed:
            xy = (p.x, p.y)
            if p.tile.startswith("map/"):
                piece = mp.pieces.get(p.tile)
                assert piece is not None, f"{p!r} is no printed piece of map {mp.name}"
                assert p.tile not in printed, f"{p!r} listed twice"
                assert not self.real, f"{p!r} listed after a tile"
                printed.add(p.tile)
                assert (xy, p.rotation, p.meeple) == (piece.shown, 0, None), f"{p!r}: {piece.id} is shown at {piece.shown}"
            else:
                assert xy not in self.real, f"two tiles on {xy}"
                assert xy in mp.playable, f"{p!r} stands on a square that takes no tile"
                self.real[xy] = p
        assert printed == set(mp.pieces), "printed pieces missing"
        self.keys: list[Key] = [*self.real, *mp.printed]
        self._parts: dict[Key, tuple[Part, ...]] = {k: p.parts for k, p in mp.printed.items()}
        for xy, p in self.real.items():
            self._parts[xy] = tile_parts(p.tile, p.rotation)
        # Worked out once (a board is never changed): the open squares, the demands.
        self._open: frozenset[XY] | None = None
        self._demands: dict[XY, str] = {}

    def neighbour(self, xy: XY, side: str) -> Key | None:
        """What a tile on square ``xy`` meets across ``side``: the printed piece on that
        side, else the real tile or large-city square beyond it, else nothing."""
        pid = self.mp.side_piece.get((xy, side))
        if pid is not None:
            return pid
        n = beyond(xy, side)
        if n in self.real or n in self.mp.city_of:
            return n
        return None

    def across(self, key: Key, side: str) -> list[tuple[Key | None, bool]]:
        """What side ``side`` of the tile or piece ``key`` meets, each as (the tile or piece,
        or None; whether that side closes): a square meets one neighbour across each side;
        a border piece or ferry connection only the squares it belongs to, through their
        sides (none elsewhere; both ends if both face the same way), and never closes."""
        if isinstance(key, str):
            piece = self.mp.pieces[key]
            return [(sq if sq in self.real else None, False) for sq, s in piece.sides if OPPOSITE[s] == side]
        n = self.neighbour(key, side)
        return [(n, n is None and self.mp.closes(key[0], key[1], side))]

    def parts(self, key: Key) -> tuple[Part, ...]:
        return self._parts[key]

    def edges(self, key: Key) -> str:
        if key in self.real:
            p = self.real[key]
            return MODEL.edges(p.tile, p.rotation)
        return self.mp.printed[key].edges

    def demand(self, x: int, y: int) -> str:
        """The edge a tile on (x, y) must show on each side N E S W ("." for any): the
        printed piece on that side, the large-city square or tile across."""
        known = self._demands.get((x, y))
        if known is not None:
            return known
        out = []
        for side in SIDES:
            n = self.neighbour((x, y), side)
            out.append("." if n is None else self.edges(n)[SIDES.index(OPPOSITE[side])])
        self._demands[(x, y)] = demand = "".join(out)
        return demand

    def connected_cities(self) -> set[str]:
        """Large cities with a real tile orthogonally next to one of their squares (M-8)."""
        return {
            name
            for name, squares in self.mp.cities.items()
            if any(beyond(sq, s) in self.real for sq in squares for s in SIDES)
        }

    def linked(self) -> tuple[set[int], set[XY]]:
        """The islands a linked ferry connection reaches (M-10; any one of several, M-13),
        and the squares at the far end of every linked connection: a connection is linked
        once a real tile stands at either of its ends."""
        islands: set[int] = set()
        far: set[XY] = set()
        for f in self.mp.ferries:
            (a, _), (b, _) = f.sides
            if a in self.real or b in self.real:
                islands |= {self.mp.island_of[sq] for sq in (a, b) if sq in self.mp.island_of}
                far |= {sq for sq, other in ((a, b), (b, a)) if other in self.real}
        return islands, far

    def open_squares(self) -> set[XY]:
        """Empty squares that take a tile now: next to a real tile or a connected large
        city, or at the far end of a linked connection; island squares only once their
        island is linked (then also beside a mainland tile, M-13)."""
        if self._open is None:
            self._open = frozenset(self.find_open_squares())
        return set(self._open)

    def find_open_squares(self) -> set[XY]:
        connected = self.connected_cities()
        islands, far = self.linked()
        out = set()
        for xy in self.mp.playable:
            if xy in self.real:
                continue
            if xy in self.mp.island_of and self.mp.island_of[xy] not in islands:
                continue  # an island no linked connection reaches
            if xy in far:
                out.add(xy)
                continue
            for side in SIDES:
                n = beyond(xy, side)
                if n in self.real or (n in self.mp.city_of and self.mp.city_of[n] in connected):
                    out.add(xy)
                    break
        return out

    def fits(self, tile: str, x: int, y: int, r: int) -> bool:
        return all(d in (".", e) for d, e in zip(self.demand(x, y), MODEL.edges(tile, r)))

    def placements(self, tile: str) -> set[tuple[int, int, int]]:
        out = set()
        for x, y in self.open_squares():
            demand = self.demand(x, y)
            for r in range(4):
                if all(d in (".", e) for d, e in zip(demand, MODEL.edges(tile, r))):
                    out.add((x, y, r))
        return out

    def fits_somewhere(self, tile: str) -> bool:
        """Whether ``placements(tile)`` is not empty (stops at the first)."""
        edges = [MODEL.edges(tile, r) for r in range(4)]
        for x, y in self.open_squares():
            demand = self.demand(x, y)
            if any(all(d in (".", e) for d, e in zip(demand, turned)) for turned in edges):
                return True
        return False

    def towns_beside(self, keys: Iterable[Key]) -> int:
        """Small-town variant 3: the uncovered small towns orthogonally beside a square of a
        feature (real tiles and large-city squares; border pieces and ferry connections
        stand on no square, so never count)."""
        towns = {
            beyond(xy, s)
            for xy in keys
            if not isinstance(xy, str)
            for s in SIDES
            if beyond(xy, s) in self.mp.towns and beyond(xy, s) not in self.real
        }
        return len(towns)


def equivalent_turns(tile: str, r: int, q: int) -> bool:
    """Whether turning the tile by q looks exactly like turning it by r."""

    def looks(turn: int) -> Counter[Any]:
        parts = tile_parts(tile, turn)
        return Counter(
            (p.kind, p.slots, p.pennants, frozenset(parts[c].slots for c in p.borders)) for p in parts
        )

    return MODEL.edges(tile, r) == MODEL.edges(tile, q) and looks(r) == looks(q)


# ----- the independent recount ----------------------------------------------------------------


@dataclass
class Group:
    kind: str
    segments: frozenset[Seg]
    keys: frozenset[Key]  # the tiles and printed pieces it covers: each counts as one
    squares: frozenset[XY]  # real tiles and large-city squares
    printed: frozenset[str]  # ids of its printed pieces (large-city squares included)
    real_segments: frozenset[tuple[int, int, int]]  # its segments on real tiles
    open_sides: int
    complete: bool
    meeples: list[int]
    pennants: int  # cities: pennants and coats of arms
    road_arms: int  # roads: coats of arms of printed border roads and ferry connections
    filled: int  # monasteries: filled squares of the ring
    borders: frozenset[Seg]  # fields: one segment of each city the field borders
    towns: int  # roads: uncovered small towns beside the road's squares (variant 3)


def recount(board: Board, ferries: list[tuple[int, int, int, int]], players: int) -> list[Group]:
    """Every feature from the board alone: union-find over segments that touch through
    matching slots (printed pieces through the sides they belong to), plus one link per
    lake ferry."""
    mp = board.mp
    parent: dict[Seg, Seg] = {}

    def find(a: Seg) -> Seg:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    parts_of = {key: board.parts(key) for key in board.keys}
    for key, parts in parts_of.items():
        for i in range(len(parts)):
            parent[(key, i)] = (key, i)
    opens: Counter[Seg] = Counter()
    for key, parts in parts_of.items():
        contacts = {side: board.across(key, side) for side in SIDES}
        for i, part in enumerate(parts):
            for slot in part.slots:
                for n, closed in contacts[slot[0]]:
                    if n is None:
                        if part.kind in ("road", "city") and not closed:
                            opens[(key, i)] += 1
                        continue
                    j = slot_index(parts_of[n]).get(facing(slot))
                    assert j is not None, f"{key} {slot} faces nothing on {n}"
                    assert parts_of[n][j].kind == part.kind, f"{key} meets another kind on {n} at {slot}"
                    if not (part.touches and parts_of[n][j].touches):
                        continue
                    ra, rb = find((key, i)), find((n, j))
                    if ra != rb:
                        parent[ra] = rb
    for x, y, a, b in ferries:
        ra, rb = find(((x, y), a)), find(((x, y), b))
        if ra != rb:
            parent[ra] = rb
    members: dict[Seg, list[Seg]] = {}
    for seg in parent:
        members.setdefault(find(seg), []).append(seg)
    open_at: Counter[Seg] = Counter()
    for seg, k in opens.items():
        open_at[find(seg)] += k
    owner = {((p.x, p.y), p.meeple[1]): p.meeple[0] for p in board.real.values() if p.meeple is not None}
    out = []
    for root, segs in members.items():
        parts = tuple(parts_of[key][i] for key, i in segs)
        kind = parts[0].kind
        assert all(p.kind == kind for p in parts), segs
        meeples = [0] * players
        for seg in segs:
            if seg in owner:
                meeples[owner[seg]] += 1
        n_open = open_at[root]
        filled = 0
        if kind in ("road", "city"):
            complete = n_open == 0
        elif kind == "monastery":
            ((key, _),) = segs
            assert not isinstance(key, str)
            ring = mp.ring(*key)
            filled = sum(1 for q in ring if q in board.real or q in mp.city_squares)
            complete = filled == len(ring)
        else:
            complete = False
        borders = frozenset(find((key, c)) for (key, _), p in zip(segs, parts) for c in p.borders)
        keys = frozenset(key for key, _ in segs)
        out.append(
            Group(
                kind,
                frozenset(segs),
                keys,
                frozenset(k for k in keys if not isinstance(k, str)),
                frozenset(mp.printed[k].id for k in keys if k not in board.real),
                frozenset((k[0], k[1], i) for k, i in segs if k in board.real and not isinstance(k, str)),
                n_open,
                complete,
                meeples,
                sum(p.pennants for p in parts) if kind == "city" else 0,
                sum(p.road_arms for p in parts) if kind == "road" else 0,
                filled,
                borders,
                board.towns_beside(keys) if kind == "road" else 0,
            )
        )
    return out


def show(entry: Any) -> str:
    """A compared feature, readably: kind, segments on real tiles, printed pieces, then
    complete, open sides, meeples, pennants."""
    kind, segs, printed, *rest = entry
    return f"{kind} {sorted(segs)} printed {sorted(printed)} complete/open/meeples/pennants {rest}"


def check_features(game: Game, board: Board, when: str = "") -> list[Group]:
    """Compares ``features()`` with the recount, each feature as (kind, its segments on real
    tiles, its printed pieces by id, complete, open sides, meeples, pennants): the feature
    indices of printed pieces are the engine's own business. Returns the recount."""
    mp = board.mp
    groups = recount(board, ferry_links(game) or [], game.rules.players)
    got: Counter[Any] = Counter()
    for f in game.features():
        segs = [tuple(s) for s in f.segments]
        assert len(set(segs)) == len(segs), f
        assert len(set(f.tiles)) == len(f.tiles), f
        assert set(f.tiles) == {(x, y) for x, y, _ in segs}, f
        squares = set(f.tiles)
        assert squares <= set(board.real) | mp.city_squares, f"{f}: on {sorted(squares)}"
        printed = frozenset(f.printed)
        assert len(printed) == len(f.printed) and printed <= set(mp.pieces), f"{f}: printed {f.printed}"
        # Large-city squares are squares and printed pieces; border pieces and ferry
        # connections stand on no square: they are named only in ``printed``.
        assert {mp.printed[xy].id for xy in squares & mp.city_squares} == {
            p for p in printed if mp.pieces[p].kind == "city square"
        }, f
        got[
            (
                f.kind,
                frozenset(s for s in segs if (s[0], s[1]) in board.real),
                printed,
                f.complete,
                f.open_sides if f.kind in ("road", "city") else 0,
                tuple(f.meeples),
                f.pennants if f.kind == "city" else 0,
            )
        ] += 1
    want: Counter[Any] = Counter()
    for g in groups:
        want[
            (
                g.kind,
                g.real_segments,
                g.printed,
                g.complete,
                g.open_sides,
                tuple(g.meeples),
                g.pennants if g.kind == "city" else 0,
            )
        ] += 1
    assert got == want, (
        f"features differ from the recount {when}: engine says {[show(e) for e in sorted(got - want, key=repr)][:6]}, "
        f"the rules say {[show(e) for e in sorted(want - got, key=repr)][:6]}"
    )
    return groups


# ----- scoring -----------------------------------------------------------------------------------


def score_key(e: Any) -> tuple[Any, ...]:
    """A scoring event as (kind, points, players, sorted squares, goods, complete, sorted
    printed pieces)."""
    return (*event_key(e), tuple(sorted(e.printed)))


def group_key(g: Group, points: int, players: tuple[int, ...], complete: bool) -> tuple[Any, ...]:
    return (g.kind, points, players, tuple(sorted(g.squares)), (0, 0, 0), complete, tuple(sorted(g.printed)))


def complete_points(g: Group, town_bonus: bool) -> int:
    n = len(g.keys)  # every tile and printed piece counts once (M-6)
    if g.kind == "road":
        return n + 2 * g.road_arms + (2 * g.towns if town_bonus else 0)
    if g.kind == "city":
        return 2 * (n + g.pennants)
    assert g.kind == "monastery"
    return 1 + g.filled


def expected_turn_events(
    game: Game, board: Board, groups: list[Group], before: dict[Seg, int], move: Move, player: int, seen: set[str]
) -> Counter[Any]:
    """Every complete road, city or monastery holding a meeple (where the meeples stood
    before the move, plus the new one) scores this turn; a tile on an island square scores
    2 per coat of arms printed there, and covering a small town costs 2 with variant 2
    (both kind "map", to the player who placed the tile)."""
    players = game.rules.players
    variants = set(game.rules.small_towns)
    ferries = {f.id for f in board.mp.ferries}
    out: Counter[Any] = Counter()
    at = (move.x, move.y)
    for g in groups:
        if not g.complete or g.kind == "field":
            continue
        meeples = [0] * players
        for s in g.segments:
            if s in before:
                meeples[before[s]] += 1
        if move.meeple is not None and (at, move.meeple) in g.segments:
            meeples[player] += 1
        if any(meeples):
            out[group_key(g, complete_points(g, 3 in variants), majority(meeples), True)] += 1
            if g.kind == "road" and g.towns and 3 in variants:
                seen.add("road town bonus, completed")
            if g.kind == "road" and g.printed & ferries:
                seen.add("ferry connection scored, completed")
    if at in board.mp.arms:
        out[("map", 2 * board.mp.arms[at], (player,), (at,), (0, 0, 0), True, ())] += 1
    if at in board.mp.towns and 2 in variants:
        out[("map", -2, (player,), (at,), (0, 0, 0), True, ())] += 1
    return out


def expected_final_events(game: Game, groups: list[Group], seen: set[str]) -> Counter[Any]:
    town_bonus = 3 in game.rules.small_towns
    complete_cities = {s for g in groups if g.kind == "city" and g.complete for s in g.segments}
    out: Counter[Any] = Counter()
    for g in groups:
        if not any(g.meeples):
            continue
        assert not g.complete or g.kind == "field", f"meeples stay on a complete {g}"
        n = len(g.keys)
        if g.kind == "road":
            points = n + g.road_arms + (2 * g.towns if town_bonus else 0)
            if g.towns and town_bonus:
                seen.add("road town bonus, at the end")
        elif g.kind == "city":
            points = n + g.pennants
        elif g.kind == "monastery":
            points = 1 + g.filled
        else:
            cities = sum(1 for root in g.borders if root in complete_cities)
            if not cities:
                continue
            points = 3 * cities
        out[group_key(g, points, majority(g.meeples), False)] += 1
    return out


# ----- the listed moves ----------------------------------------------------------------------------


def meeple_targets(
    game: Game, board: Board, groups: list[Group], x: int, y: int, r: int, group_of: dict[Seg, int] | None = None
) -> set[int]:
    """Features of the new tile that may take a meeple: those not joined to a feature that
    holds one (on a lake tile, before its new ferry joins anything, F-2). ``group_of``:
    each segment's index in ``groups``, if known."""
    if game.supply[game.current_player] == 0:
        return set()
    tile = game.tile
    assert tile is not None
    if group_of is None:
        group_of = {s: k for k, g in enumerate(groups) for s in g.segments}
    parent: dict[Any, Any] = {}

    def find(a: Any) -> Any:
        parent.setdefault(a, a)
        while parent[a] != a:
            a = parent[a]
        return a

    parts = tile_parts(tile, r)
    for i, part in enumerate(parts):
        find(("new", i))
        for slot in part.slots:
            n = board.neighbour((x, y), slot[0])
            if n is not None:
                j = slot_index(board.parts(n))[facing(slot)]
                if not board.parts(n)[j].touches:
                    continue
                parent[find(("new", i))] = find(("group", group_of[(n, j)]))
    busy = {find(("group", k)) for k, g in enumerate(groups) if any(g.meeples) and ("group", k) in parent}
    return {i for i in range(len(parts)) if find(("new", i)) not in busy}


def check_listed_moves(game: Game, board: Board, groups: list[Group], legal: list[Move]) -> None:
    tile = game.tile
    assert tile is not None
    assert legal == sorted(set(legal)), "legal moves are sorted and distinct"
    by_placement: dict[tuple[int, int, int], set[int | None]] = {}
    for m in legal:
        by_placement.setdefault((m.x, m.y, m.rotation), set()).add(m.meeple)
    listed = set(by_placement)
    fitting = board.placements(tile)
    assert listed <= fitting, (
        f"{tile}: listed placements the map rules refuse: {sorted(listed - fitting)[:8]} "
        f"(open squares {sorted(board.open_squares())})"
    )
    for x, y, r in fitting - listed:
        assert any((x, y, q) in listed and equivalent_turns(tile, r, q) for q in range(4) if q != r), (
            f"{tile} fits at ({x}, {y}) turned {r} by the map rules but is not listed"
        )
    group_of = {s: k for k, g in enumerate(groups) for s in g.segments}
    for (x, y, r), meeples in by_placement.items():
        expected = meeple_targets(game, board, groups, x, y, r, group_of)
        assert meeples == {None} | expected, (
            f"{tile} at ({x}, {y}) turned {r}: listed meeples {meeples}, rules say {expected}"
        )


def asked_starts(rules: Rules, mp: MapData) -> tuple[list[XY], list[int | None]] | None:
    """The start squares and rotations a configuration of ``CONFIGS`` asks for (None for
    rules made elsewhere): by default the map's recommended number from the first of the
    file, in reading order of the grid (on joined maps, of the joined grid)."""
    spec = CONFIGS_BY_RULES.get(rules)
    if spec is None:
        return None
    asked = spec.get("start_squares")
    if asked is None:
        squares = mp.starts[: mp.start_squares]
    elif isinstance(asked, int):
        squares = mp.starts[:asked]
    else:
        squares = [tuple(xy) for xy in asked]
    rotations = list(spec.get("start_rotations", []))
    return squares, rotations + [None] * (len(squares) - len(rotations))


def check_setup(game: Game, mp: MapData, board: Board) -> int:
    """The set-up (M-12, M-13); returns how many tiles of the deck stand on start squares."""
    rules = game.rules
    starts: list[XY] = [(x, y) for x, y in rules.map_starts()]
    rotations = list(rules.start_rotations)
    assert rules.start_squares == len(starts) >= 1
    assert len(set(starts)) == len(starts) and set(starts) <= set(mp.starts), starts
    assert len(rotations) == len(starts) and all(r is None or 0 <= r <= 3 for r in rotations), rotations
    asked = asked_starts(rules, mp)
    if asked is not None:
        assert (starts, rotations) == asked
    # The printed pieces first, each once, unturned (Board checks where each is shown).
    n = len(mp.pieces)
    assert sorted(p.tile for p in game.board[:n]) == sorted(mp.pieces)
    # Border pieces and ferry connections stand on no square: nothing is found where they
    # are shown (outside squares, waves, highlights).
    for xy in sorted({p.shown for p in mp.pieces.values() if p.kind != "city square"}):
        with pytest.raises(PositionError):
            game.feature_at(xy[0], xy[1], 0)
    setup = game.board[n:]
    assert 1 <= len(setup) <= len(starts) and not any(p.tile.startswith("map/") for p in setup)
    assert setup[0].tile == rules.start_tile
    assert all(p.tile in TILES and p.meeple is None for p in setup)
    # Replay the set-up: the start tile on the first start square; then for each next one
    # the deck's tiles in turn, each discarded (at turn 0) if it does not fit there, until
    # one does. A turned tile takes the rotation asked, or the first clockwise that fits.
    assert all(turn == 0 for turn, _ in game.discarded), game.discarded
    discarded = [t for _, t in game.discarded]
    queue = list(discarded)
    for k, p in enumerate(setup):
        at = starts[k]
        before = Board(mp, game.board[: n + k])

        def fitting(tile: str, at: XY = at, k: int = k, before: Board = before) -> list[int]:
            ok = [r for r in range(4) if before.fits(tile, at[0], at[1], r)]
            return ok if rotations[k] is None else [r for r in ok if r == rotations[k]]

        if k > 0:
            # Discards tried on this square did not fit it (a discard could also be one
            # tried on a later square or after the set-up: taking it here is as strict).
            while queue and not fitting(queue[0]):
                queue.pop(0)
        ok = fitting(p.tile)
        assert ok, f"{p!r} does not fit start square {at} (rotation asked {rotations[k]})"
        assert ((p.x, p.y), p.rotation) == (at, ok[0]), f"{p!r}: the rules say {at} turned {ok[0]}"
    if len(setup) < len(starts):
        # The deck ran out while tiles were tried on the next start square.
        assert game.tile is None and not game.remaining_tiles
        at = starts[len(setup)]
        k = len(setup)
        for t in queue:
            ok = [r for r in range(4) if board.fits(t, at[0], at[1], r)]
            assert not (ok if rotations[k] is None else rotations[k] in ok), f"{t} was discarded but fits {at}"
    else:
        # Tiles drawn for the first turn were discarded only if they fit nowhere.
        for t in queue:
            assert not board.placements(t), f"{t} was discarded but fits"
    deck = [p.tile for p in setup[1:]] + discarded + ([game.tile] if game.tile else []) + list(game.remaining_tiles)
    assert len(deck) == rules.deck_size
    assert not Counter(deck) - Counter(rules.full_deck())
    assert game.turn == 0 and game.current_player == 0 and game.moves == []
    assert game.scores == [0] * rules.players and game.events == []
    assert list(game.supply) == [rules.meeples] * rules.players and rules.meeples == 9
    assert ferry_links(game) in (None, [])  # no ferries, or no lake tiles at all
    return len(setup) - 1


CONFIGS_BY_RULES = {RULES[name]: kw for name, kw in {**CONFIGS, **EXTRA_TURN_CONFIGS}.items()}


# ----- squares no tile may take now --------------------------------------------------------


def unlisted_squares(board: Board, rnd: random.Random) -> list[tuple[str, XY]]:
    """Squares no tile may go on now, by reason: large-city squares, waves and highlights,
    the outside squares printed border pieces and ferry ends face (several pieces may face
    one; waves and highlights among them), lone half squares, the outside next to real
    tiles and far away, playable squares not yet open (next to a large city nobody has
    connected, on an island no linked connection reaches, if there is one), and occupied
    squares."""
    mp = board.mp

    def some(xs: Iterable[XY], k: int) -> list[XY]:
        xs = sorted(xs)
        return rnd.sample(xs, min(k, len(xs)))

    out: list[tuple[str, XY]] = []
    out += [("large-city square", xy) for xy in some(mp.city_squares, 2)]
    out += [("wave or highlight", xy) for xy in some(mp.blocked, 2)]
    out += [("outside square a printed piece faces", xy) for xy in some(mp.faced, 3)]
    out += [("lone half square", xy) for xy in some(mp.halves, 2)]
    outside_near = {beyond(xy, s) for xy in board.real for s in SIDES if mp.square(*beyond(xy, s)) == "."}
    out += [("outside next to a tile", xy) for xy in some(outside_near, 3)]
    out += [
        ("far outside", xy)
        for xy in ((-1, -1), (-1, mp.starts[0][1]), (mp.width, 0), (0, mp.height), (mp.width + 7, -3), (10**6, 10**6))
    ]
    open_now = board.open_squares()
    closed = [xy for xy in mp.playable if xy not in board.real and xy not in open_now]
    connected = board.connected_cities()
    by_city = [
        beyond(xy, s) for xy in mp.city_squares if mp.city_of[xy] not in connected for s in SIDES if beyond(xy, s) in closed
    ]
    out += [("not open, next to an unconnected large city", xy) for xy in some(by_city, 1)]
    islands, _ = board.linked()
    unlinked = [xy for xy in closed if xy in mp.island_of and mp.island_of[xy] not in islands]
    out += [("island no linked ferry connection reaches", xy) for xy in some(unlinked, 2)]
    beside_tiles = [xy for xy in unlinked if any(beyond(xy, s) in board.real for s in SIDES)]
    out += [("island square beside a tile, its island not linked", xy) for xy in some(beside_tiles, 1)]
    out += [("not open yet", xy) for xy in some(closed, 3)]
    out += [("occupied", xy) for xy in some(board.real, 2)]
    return out


# ----- the hooks of the shared harness --------------------------------------------------------


# Small-town variant 1: the decisions listed while an extra turn is offered, in this order.
EXTRA_TURN = [Decision.extra_turn(False), Decision.extra_turn(True)]

# What ``MapsOracle.extra_turns`` counts: extra turns offered, taken, declined; small towns
# covered in a taken extra turn (no offer); covered when no tile to come fits (the game
# ends, no offer); offered to the next player right after one declined.
EXTRA_TURN_COUNTS = (
    "offered",
    "taken",
    "declined",
    "covered in an extra turn",
    "covered, none to come",
    "offered after a decline",
)


def check_draw(game: Game, board: Board, remaining: list[str], discarded: int) -> None:
    """A draw (C-3): the tile drawn is the first of ``remaining`` (the tiles still to come,
    in order) that fits somewhere on ``board``, those before it discarded at this turn; with
    none fitting, all are discarded and the game is over."""
    new = game.discarded[discarded:]
    assert all(turn == game.turn for turn, _ in new), new
    k = next((i for i, t in enumerate(remaining) if board.fits_somewhere(t)), len(remaining))
    assert [t for _, t in new] == remaining[:k], f"discarded {new}, the rules say {remaining[:k]}"
    if k == len(remaining):
        assert game.is_over and game.tile is None and game.remaining_tiles == []
    else:
        assert not game.is_over and game.tile == remaining[k], (game.tile, remaining[k])
        assert list(game.remaining_tiles) == remaining[k + 1 :]


class MapsOracle(Oracle):
    """Every decision of a game on any map file (``map_of`` reads it) against the oracle:
    the set-up, the phase, who moves, the listed moves or extra-turn decisions, the recount
    and the scorings of every turn and of the end, every draw and its discards, the next
    player. ``seen`` collects the rule elements of the small-town variants and ferry
    connections the game went through (see ``rule_elements`` in ``test_maps_invariants.py``
    for the rest); ``extra_turns`` counts variant 1's offers and decisions
    (``EXTRA_TURN_COUNTS``)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.extra_turns: Counter[str] = Counter()
        # Variant 1: the turn being played is a taken extra turn; an extra turn is offered
        # to ``self.offered_to`` (None: none is); the last decision declined one.
        self.in_extra_turn = False
        self.offered_to: int | None = None
        self.declined = False
        self.decisions: list[Any] = []  # as the game's record lists them

    def start(self, game: Game) -> None:
        self.mp = map_of(game)
        self.board = Board(self.mp, game.board)
        self.start_tiles = check_setup(game, self.mp, self.board)
        self.groups = check_features(game, self.board)

    def before(self, game: Game, action: Action) -> None:
        mp, board = self.mp, self.board
        assert not game.is_over
        assert game.decider == game.current_player, (game.decider, game.current_player)
        self.player = game.current_player
        self.tile = game.tile
        self.scores = list(game.scores)
        self.events = len(game.events)
        self.discarded = len(game.discarded)
        self.remaining = list(game.remaining_tiles)
        if self.offered_to is not None:
            # Variant 1's offer: the player who covered the small town decides, before
            # the next tile is drawn; nothing else may be done.
            assert game.phase == "extra_turn", game.phase
            assert game.current_player == self.offered_to
            assert game.tile is None and game.legal_moves() == []
            assert game.legal_actions() == EXTRA_TURN
            assert all(game.is_legal(d) for d in EXTRA_TURN)
            assert action[0] == "extra_turn", action
            return
        assert game.phase == "place", f"turn {game.turn}: phase {game.phase}, the rules say place"
        assert not any(game.is_legal(d) for d in EXTRA_TURN), "an extra turn decision outside its phase"
        assert action[0] == "play", action
        legal = game.legal_moves()
        assert legal, "a game that is not over must have a legal move"
        assert game.legal_actions() == legal
        check_listed_moves(game, board, self.groups, legal)
        if mp.island_of and mp.city_squares:
            _, far = board.linked()
            if any(
                xy in mp.island_of and xy not in far and not any(beyond(xy, s) in board.real for s in SIDES)
                for xy in board.open_squares()
            ):
                self.seen.add("island square open beside a connected large city alone")
        self.meeples: dict[Seg, int] = {
            ((p.x, p.y), p.meeple[1]): p.meeple[0] for p in board.real.values() if p.meeple is not None
        }

    def after(self, game: Game, action: Action) -> None:
        if action[0] == "extra_turn":
            self.after_extra_turn(game, action)
        else:
            self.after_move(game, action)

    def after_extra_turn(self, game: Game, action: Action) -> None:
        """Taken, the same player draws the next tile and plays the extra turn; declined, the
        next player draws. Nothing else changes: the board, the scores, the events."""
        (take,) = action[1]
        assert isinstance(take, bool)
        player, players = self.player, game.rules.players
        assert len(game.board) == len(self.board.real) + len(self.mp.pieces)
        assert list(game.scores) == self.scores and len(game.events) == self.events
        check_draw(game, self.board, self.remaining, self.discarded)
        # The offer came only with a fitting tile to come: the game goes on.
        assert not game.is_over and game.phase == "place", game.phase
        want = player if take else (player + 1) % players
        assert game.current_player == want, (
            f"turn {game.turn}: extra turn {'taken' if take else 'declined'} by {player}, "
            f"next {game.current_player}, the rules say {want}"
        )
        self.offered_to = None
        self.in_extra_turn = take
        self.declined = not take
        self.decisions.append([game.turn, {"extra_turn": take}])
        self.extra_turns["taken" if take else "declined"] += 1
        self.seen.add("extra turn taken" if take else "extra turn declined")

    def after_move(self, game: Game, action: Action) -> None:
        (move,) = action[1]
        rules = game.rules
        players = rules.players
        variants = set(rules.small_towns)
        mp, player, tile, seen = self.mp, self.player, self.tile, self.seen
        self.board = board = Board(mp, game.board)
        # Scores add up from the events and never drop, except by small-town variant 2
        # (covering a small town costs 2 points: a rule).
        if 2 not in variants:
            assert all(a >= b for a, b in zip(game.scores, self.scores)), (self.scores, game.scores)
        from_events = [0] * players
        for e in game.events:
            for p in e.players:
                from_events[p] += e.points
        assert from_events == game.scores
        # The recount agrees, and this turn's scorings follow from it.
        self.groups = groups = check_features(game, board, f"after turn {game.turn} ({tile} played as {move})")
        for g in groups:
            assert not (g.complete and any(g.meeples)), f"meeples stay on a complete {g}"
        # ``feature_at`` names the new tile's features like ``features()``.
        at = (move.x, move.y)
        for g in groups:
            for key, i in g.segments:
                if key == at:
                    f = game.feature_at(move.x, move.y, i)
                    found = (str(f.kind), frozenset(f.tiles), frozenset(f.printed), f.complete)
                    assert found == (g.kind, g.squares, g.printed, g.complete), (found, g)
        new = [e for e in game.events[self.events :] if not e.final_scoring]
        assert all(e.turn == game.turn for e in new)
        got = Counter(score_key(e) for e in new)
        want = expected_turn_events(game, board, groups, self.meeples, move, player, seen)
        assert got == want, f"turn {game.turn}, {tile} played as {move}: scored {got}, rules say {want}"
        if want[("map", -2, (player,), ((move.x, move.y),), (0, 0, 0), True, ())]:
            seen.add("town penalty")
        # Variant 1: covering a small town, in a turn that is no extra turn itself, offers
        # an extra turn, before anything is drawn, if a tile still to come fits somewhere
        # (the tile drawn next is the first that fits, whoever draws it); with none, the
        # game ends as it would anyway.
        town = at in mp.towns
        due = 1 in variants and town and not self.in_extra_turn
        if due and any(board.fits_somewhere(t) for t in self.remaining):
            assert game.phase == "extra_turn", (
                f"turn {game.turn}: {tile} covered the small town {at}: phase {game.phase}, the rules say extra_turn"
            )
            assert not game.is_over and game.tile is None
            assert game.current_player == game.decider == player, (game.current_player, game.decider, player)
            assert list(game.remaining_tiles) == self.remaining and len(game.discarded) == self.discarded
            self.offered_to = player
            self.extra_turns["offered"] += 1
            seen.add("extra turn offered")
            if self.declined:
                # The player after one who declined covers a small town at once: his own
                # offer (declining passes the turn on, it takes nothing away).
                self.extra_turns["offered after a decline"] += 1
                seen.add("extra turn offered right after one declined")
        else:
            check_draw(game, board, self.remaining, self.discarded)
            if due:
                assert game.is_over
                self.extra_turns["covered, none to come"] += 1
                seen.add("small town covered with no tile to come: no extra turn")
            elif 1 in variants and town:
                self.extra_turns["covered in an extra turn"] += 1
                seen.add("no second extra turn in a row")
            if not game.is_over:
                assert game.phase == "place", f"turn {game.turn}, {tile} played as {move}: phase {game.phase}"
                assert game.current_player == (player + 1) % players, (
                    f"turn {game.turn}, {tile} played as {move} by {player}: next {game.current_player}, "
                    f"rules say {(player + 1) % players}"
                )
        self.in_extra_turn = False
        self.declined = False

    def end(self, game: Game) -> None:
        rules = game.rules
        assert self.offered_to is None, "the game ended with an extra turn offered"
        assert game.phase == "over"
        # The deck is used up; the final scoring is the recount's.
        assert game.turn + len(game.discarded) + self.start_tiles == rules.deck_size
        assert game.legal_moves() == [] and game.tile is None and game.remaining_tiles == []
        final = [e for e in game.events if e.final_scoring]
        assert all(e.turn == game.turn for e in final)
        got = Counter(score_key(e) for e in final)
        want = expected_final_events(game, self.groups, self.seen)
        assert got == want, f"final scoring {got - want} where the rules say {want - got}"
        assert game.points_by_kind == points_from_events(game)
        # The record keeps every extra-turn decision, at the turn it was made.
        # (A record with none leaves the list out.)
        assert json.loads(game.to_json()).get("decisions", []) == self.decisions


def other_decisions(game: Game) -> list[tuple[str, Choice]]:
    """Decisions of South Seas, which a game on a map never asks for."""
    x, y = (game.moves[-1].x, game.moves[-1].y) if game.moves else map_of(game).starts[0]
    return [
        ("a South Seas decision on a map", d)
        for d in (
            Decision.deliver(None),
            Decision.market_ship(0),
            Decision.move_friday(0),
            Decision.take_home(x, y, 0),
            Decision.trade(0, 1),
        )
    ]


class MapsProbe(Probe):
    """On the first turn and 3 others: every listed move played on a clone, and over the
    whole map and a margin exactly the listed placements legal; on every turn, squares no
    tile may take now (``unlisted_squares``) and turns that do not match on open squares
    refused, with or without a meeple, and so are the extra-turn decisions (outside their
    phase) and South Seas' decisions. Small-town variant 1's offer: both decisions played on
    clones (the right player draws next; after a taken extra turn, covering a small town
    offers none; after a declined one, the next player covering one is offered his own),
    while every placement (those the next tile will have among them) and South Seas'
    decisions are refused."""

    def __init__(self, game: Game, rnd: random.Random) -> None:
        self.mp = map_of(game)
        self.deep_turns = {0, *rnd.sample(range(game.rules.deck_size), 3)}
        self.checked = 0

    @staticmethod
    def ferry(game: Game) -> tuple[int, int] | None:
        """A lake tile always carries a ferry: its moves name one (any pair of its road ends)."""
        tile = game.tile
        assert tile is not None
        return MODEL.road_pairs(tile)[0] if TILES[tile].lake else None

    def listed(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[Choice]:
        if game.phase == "extra_turn":
            assert legal == EXTRA_TURN
            return legal
        if game.turn not in self.deep_turns:
            return []
        self.checked += 1
        mp = self.mp
        ferry = self.ferry(game)
        placements = {(m.x, m.y, m.rotation) for m in legal if isinstance(m, Move)}
        for x in range(-2, mp.width + 2):
            for y in range(-2, mp.height + 2):
                for r in range(4):
                    assert game.is_legal(Move(x, y, r, ferry=ferry)) == ((x, y, r) in placements), (x, y, r)
        return legal

    def accepted(self, game: Game, clone: Game, action: Choice) -> None:
        if not isinstance(action, Decision):
            super().accepted(game, clone, action)
            return
        assert action.kind == "extra_turn" and action.take is not None, action
        take = action.take
        player, players = game.current_player, game.rules.players
        assert clone.phase == "place" and clone.tile is not None, clone.phase
        assert clone.current_player == clone.decider == (player if take else (player + 1) % players)
        assert (clone.turn, clone.moves, clone.scores) == (game.turn, game.moves, game.scores)
        assert json.loads(clone.to_json())["decisions"][-1] == [game.turn, {"extra_turn": take}]
        # The next turn covering a small town, if its tile can: after a taken extra turn,
        # no offer (never two in a row); after a declined one, the next player's own offer,
        # if a tile still to come fits somewhere then.
        towns = [m for m in clone.legal_moves() if (m.x, m.y) in self.mp.towns]
        if not towns:
            return
        after = clone.clone()
        remaining = list(after.remaining_tiles)
        after.play(towns[0])
        if take:
            assert after.phase != "extra_turn", "a second extra turn in a row"
        elif any(Board(self.mp, after.board).fits_somewhere(t) for t in remaining):
            assert after.phase == "extra_turn" and after.decider == (player + 1) % players
        else:
            assert after.is_over

    def near(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[tuple[str, Choice]]:
        board = Board(self.mp, game.board)
        listed = set(legal)
        if game.phase == "extra_turn":
            # No tile in hand: every placement is refused, among them the moves the next
            # tile will have (as a clone taking the extra turn lists them).
            taken = game.clone()
            taken.apply(Decision.extra_turn(True))
            upcoming = taken.legal_moves()
            last = game.moves[-1]
            moves: list[tuple[str, Choice]] = [
                ("placement while an extra turn is offered", m) for m in rnd.sample(upcoming, min(6, len(upcoming)))
            ]
            moves.append(("placement on the square just covered, while offered", Move(last.x, last.y, 0)))
            moves += [
                (f"placement on a square no tile may take ({why}), while an extra turn is offered", Move(x, y, 0))
                for why, (x, y) in unlisted_squares(board, rnd)[:4]
            ]
            return moves + other_decisions(game)
        tile = game.tile
        assert tile is not None
        ferry = self.ferry(game)
        placements = {(m.x, m.y, m.rotation) for m in legal if isinstance(m, Move)}
        candidates = [
            (why, Move(x, y, rnd.randrange(4), meeple, ferry=ferry))
            for why, (x, y) in unlisted_squares(board, rnd)
            for meeple in (None, 0)
        ]
        fitting = board.placements(tile)
        for x, y in sorted(board.open_squares()):
            for r in range(4):
                if (x, y, r) not in fitting:
                    candidates.append(("edges do not match", Move(x, y, r, ferry=ferry)))
        out: list[tuple[str, Choice]] = []
        for why, mv in candidates[:40]:
            assert (mv.x, mv.y, mv.rotation) not in placements, f"{mv} is listed, but {why}"
            assert mv not in listed
            out.append((why, mv))
        out += [("an extra-turn decision outside its phase", d) for d in EXTRA_TURN]
        return out + other_decisions(game)

    def end(self, game: Game) -> None:
        assert self.checked >= 1


def over_actions(game: Game) -> list[Choice]:
    """Moves and extra-turn decisions tried once a game on a map is over."""
    return [*game.moves[-1:], Move(*map_of(game).starts[0], 0), *EXTRA_TURN]
