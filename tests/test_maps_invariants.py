"""Property tests for Carcassonne Maps: random games checked against an independent oracle.

Games on the built-in maps (``MAPS_CONFIGS``: one to four start squares, a short deck,
The Ferries' lake tiles on a map, islands and ferry connections, two half maps joined and
one alone, the small-town variants) are drawn with Hypothesis (deck seed and the seed of
the move choices) and checked move by move against an oracle written here in Python from
the map files and tile files alone (read with ``tomllib``; see ``oracle.py``),
``game.board`` and ``game.ferries``; no engine table of the map is used:

* the set-up: the printed pieces (large-city squares on their squares, border pieces on the
  outside square beyond their side, each ferry connection once, beyond its first end)
  stand on the board first, unturned, then the start tile on the first start square and
  tiles of the deck on the next start squares (on joined maps, both maps' start squares in
  reading order of the joined grid);
* the listed placements (square, rotation) are exactly the oracle's: a playable empty square
  next to a real tile or to a connected large city (M-8), or at the far end of a linked
  ferry connection (a real tile at either end links it); island squares only once a linked
  connection reaches their island (M-10); on joined maps each pair of half squares is one
  ordinary square, alone they take no tile; matching every neighbour, printed pieces
  included (a tile at either end of a ferry connection shows a road towards it); the
  listed meeple targets are the tile's features whose feature is free;
* a tile is discarded only when it fits nowhere;
* every listed move is accepted; large-city squares, waves, highlights, lone half squares,
  outside squares (a border piece's or ferry connection's squares, the outside next to a
  real tile, far away), squares not yet open (islands not reached), occupied squares and
  non-matching turns are refused and change nothing;
* a recount of every feature by flood fill (printed pieces as tiles of their features, a
  ferry connection one road piece touching both its ends; sides facing the outside
  without a printed piece, a wave, a highlight or a lone half square close what faces
  them; monastery rings of the squares that can be filled, M-9) agrees with
  ``features()``; the scorings of every turn and of the end follow from it, with coats of
  arms as pennants of the city (M-7) and 2 each on a completed border road or ferry
  connection (1 each at the end, M-5, M-6); a tile on an island square scores 2 per coat
  of arms printed there at once (kind "map");
* the small-town variants (squares ``t``): 1 covering one gives the same player an extra
  turn, never two in a row; 2 covering one costs 2 points (kind "map"); 3 a scored road
  gains 2 per uncovered small town beside a square of the road (real tiles and printed
  pieces on squares: not border pieces or ferry connections, which stand outside);
* meeples are conserved; the deck is used up (placed + discarded + start-square tiles);
* clones and JSON records of Maps games mid-game continue identically.

``simulate`` is not compared with ``Game``: its players draw from the engine's own random
numbers, which the Python API does not expose (no policy can be replayed move by move);
seeds, records and batch determinism of these configurations are covered by
``test_conformance.py``.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from dataclasses import dataclass
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carcassonne import (
    SCORE_KINDS,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    Rules,
)
from configs import MAPS_CONFIGS
from observe import board_meeples, pick, snapshot
from oracle import (
    DATA_DIR,
    DELTA,
    OPPOSITE,
    SIDES,
    Model,
    assert_same_game,
    event_key,
    facing,
    load_tiles,
    majority,
)

CONFIGS = MAPS_CONFIGS
RULES: dict[str, Rules] = {name: Rules(**kw) for name, kw in CONFIGS.items()}


TILES = load_tiles(sorted({s for r in RULES.values() for s in r.tile_sets}))
MODEL = Model(TILES)

seeds = st.integers(min_value=0, max_value=2**64 - 1)
choice_seeds = st.integers(min_value=0, max_value=2**32 - 1)

# Whole games with the full oracle take about a second each: a quarter of the profile's
# examples per configuration (5 in CI), more with HYPOTHESIS_PROFILE=dev or thorough.
GAMES = settings(max_examples=max(2, settings().max_examples // 4))

Seg = tuple[int, int, int]
XY = tuple[int, int]
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


@dataclass(frozen=True)
class Piece:
    """A printed piece: a large-city square, a border piece or a ferry connection."""

    at: XY
    edges: str  # N E S W
    parts: tuple[Part, ...]
    city: str | None  # the large city's name ("G", or "west.G" on joined maps); None otherwise
    # Where the piece stands and the map square each place faces (None: every side counts,
    # a large-city square). A ferry connection stands at two places: beyond both its ends.
    stands: tuple[tuple[XY, XY | None], ...] = ()
    ferry: bool = False


def halves(side: str) -> list[str]:
    return [side + "L", side + "R"]


def city_square_piece(at: XY, letter: str, edges: str, arms: int) -> Piece:
    """A large-city square: one city over its city sides with the coats of arms (M-7), a road
    ending in the city on each road side, and every half-edge of the other sides a small
    field of its own bordering the city."""
    parts = [Part("city", frozenset(s for s, e in zip(SIDES, edges) if e == "C"), pennants=arms)]
    for side, e in zip(SIDES, edges):
        if e == "C":
            continue
        if e == "R":
            parts.append(Part("road", frozenset(side)))
        for h in halves(side):
            parts.append(Part("field", frozenset([h]), borders=(0,)))
    return Piece(at, edges, tuple(parts), letter, ((at, None),))


def beyond(at: XY, side: str) -> XY:
    dx, dy = DELTA[side]
    return (at[0] + dx, at[1] + dy)


def border_piece(at: XY, side: str, kind: str, arms: int) -> Piece:
    """A printed road or city on the outside square beyond ``side`` of ``at``: it shows its
    feature on the side facing the map square and field everywhere else."""
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
    out = beyond(at, side)
    return Piece(out, edges, tuple(parts), None, ((out, at),))


def ferry_piece(ends: tuple[tuple[XY, str], tuple[XY, str]], arms: int) -> Piece:
    """A printed ferry connection: one road piece standing on the outside squares beyond
    both ends, with a road on each side facing an end (one side if both face the same way)
    and the route's coats of arms; each half-edge beside the road is a field of its own, and
    each other side one field. It is listed at the first end's outside square."""
    road = frozenset(OPPOSITE[side] for _, side in ends)
    edges = "".join("R" if s in road else "F" for s in SIDES)
    parts = [Part("road", road, road_arms=arms)]
    for s in SIDES:
        if s in road:
            parts += [Part("field", frozenset([s + "L"])), Part("field", frozenset([s + "R"]))]
        else:
            parts.append(Part("field", frozenset(halves(s))))
    stands = tuple((beyond(at, side), at) for at, side in ends)
    return Piece(stands[0][0], edges, tuple(parts), None, stands, ferry=True)


@dataclass(frozen=True)
class Ferry:
    """A printed ferry connection: its two ends (square, side) and its coats of arms."""

    ends: tuple[tuple[XY, str], tuple[XY, str]]
    arms: int


def read_map_file(name: str) -> dict[str, Any]:
    data = tomllib.loads((DATA_DIR / "maps" / f"{name}.toml").read_text())
    assert data["name"] == name
    return data


def grid_rows(data: dict[str, Any]) -> list[str]:
    return [line for line in data["grid"].split("\n") if line.strip()]


class MapData:
    """A map as its file says, or two half maps joined ("west+east"): the first map's join
    column (E) lies on the second's (W), each pair of half squares (h) there becomes an
    ordinary square, and the second map's columns shift by the first's width - 1."""

    def __init__(self, name: str) -> None:
        files = name.split("+")
        assert 1 <= len(files) <= 2, name
        sources = [read_map_file(f) for f in files]
        self.name = name
        self.joined = len(files) == 2
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
        assert set(self.grid.values()) <= set(".otS~^ih") | letters
        for (x, _), c in self.grid.items():
            if c == "h":  # alone, a map's half squares stand in its join column
                join = sources[0]["join"]
                assert not self.joined and x == (self.width - 1 if join == "E" else 0), (name, x)
        self.starts = sorted((xy for xy, c in self.grid.items() if c == "S"), key=lambda p: (p[1], p[0]))
        self.pieces: dict[XY, Piece] = {}
        self.city_of: dict[XY, str] = {}  # large-city square -> the city's name
        self.bordered: set[tuple[XY, str]] = set()
        self.ferries: list[Ferry] = []
        self.arms: dict[XY, int] = {}  # coats of arms on island squares
        for data, shift, file in zip(sources, shifts, files):
            tag = f"{file}." if self.joined else ""

            def at_(v: list[Any], shift: int = shift) -> XY:
                return (v[0] + shift, v[1])

            for letter, city in data.get("cities", {}).items():
                for sq in city["squares"]:
                    at = at_(sq["at"])
                    assert self.grid[at] == letter, (name, letter, at)
                    self.pieces[at] = city_square_piece(at, tag + letter, sq["edges"], sq.get("arms", 0))
                    self.city_of[at] = tag + letter
            for b in data.get("border", []):
                at = at_(b["at"])
                piece = border_piece(at, b["side"], b["piece"], b.get("arms", 0))
                assert self.square(*piece.at) == "." and piece.at not in self.pieces
                self.pieces[piece.at] = piece
                self.bordered.add((at, b["side"]))
            for f in data.get("ferries", []):
                ends = ((at_(f["from"][:2]), f["from"][2]), (at_(f["to"][:2]), f["to"][2]))
                self.ferries.append(Ferry(ends, f.get("arms", 0)))
            for a in data.get("arms", []):
                self.arms[at_(a["at"])] = a["count"]
        self.city_squares = {xy for xy, c in self.grid.items() if c in letters}
        assert self.city_squares == set(self.city_of)
        # Ferry connections: one printed road piece beyond both ends, listed at the first.
        self.alias: dict[XY, XY] = {}  # the far end's outside square -> the piece's square
        self.ferry_at: dict[XY, Ferry] = {}  # the piece's square -> its connection
        for f in self.ferries:
            piece = ferry_piece(f.ends, f.arms)
            for (at, side), (out, _) in zip(f.ends, piece.stands):
                assert self.grid[at] in "otSi" and self.square(*out) == "." and out not in self.pieces
                assert out not in self.alias
                self.bordered.add((at, side))
            self.pieces[piece.at] = piece
            self.alias[piece.stands[1][0]] = piece.at
            self.ferry_at[piece.at] = f
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
        # Squares by what they are.
        self.playable = {xy for xy, c in self.grid.items() if c in "otSi"}  # ever take a tile
        self.towns = {xy for xy, c in self.grid.items() if c == "t"}
        self.halves = sorted(xy for xy, c in self.grid.items() if c == "h")  # alone: no square
        self.blocked = sorted(xy for xy, c in self.grid.items() if c in "~^")  # waves, highlights
        self.cities: dict[str, list[XY]] = {}
        for xy in sorted(self.city_squares):
            self.cities.setdefault(self.city_of[xy], []).append(xy)

    def square(self, x: int, y: int) -> str:
        return self.grid.get((x, y), ".")

    def in_ring(self, x: int, y: int) -> bool:
        """Squares that take a tile (island squares included) and large-city squares count
        as a monastery's neighbours (M-9)."""
        return (x, y) in self.playable or (x, y) in self.city_squares

    def closes(self, x: int, y: int, side: str) -> bool:
        """Whether ``side`` of square (x, y) closes the road or city facing it: the outside
        without a printed piece or ferry end, a wave, a highlight or a lone half square."""
        if not self.in_ring(x, y):
            return False
        dx, dy = DELTA[side]
        beyond = self.square(x + dx, y + dy)
        if beyond == ".":
            return ((x, y), side) not in self.bordered
        return beyond in "~^h"

    def ring(self, x: int, y: int) -> list[XY]:
        return [(x + a, y + b) for a, b in RING if self.in_ring(x + a, y + b)]


MAPS = {name: MapData(name) for name in sorted({r.map for r in RULES.values() if r.map is not None})}


def map_of(game: Game) -> MapData:
    name = game.rules.map
    assert name is not None
    return MAPS[name]


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
    """The board as the oracle sees it: real tiles by square, printed pieces from the map."""

    def __init__(self, mp: MapData, game: Game) -> None:
        self.mp = mp
        self.placed: dict[XY, Any] = {}
        self.real: dict[XY, Any] = {}
        for p in game.board:
            xy = (p.x, p.y)
            assert xy not in self.placed, f"two tiles on {xy}"
            assert xy not in mp.alias, f"{p!r} stands on a ferry connection's far end"
            self.placed[xy] = p
            if p.tile.startswith("map/"):
                assert xy in mp.pieces and p.tile.startswith(f"map/{mp.name}/") and p.rotation == 0, p
                assert p.meeple is None, p
            else:
                assert xy in mp.playable, f"{p!r} stands on a square that takes no tile"
                self.real[xy] = p
        assert set(self.placed) - set(self.real) == set(mp.pieces), "printed pieces missing or moved"

    def key(self, n: XY) -> XY | None:
        """Where the tile or printed piece standing on ``n`` is listed: a ferry connection
        stands beyond both its ends but is listed at the first."""
        if n in self.placed:
            return n
        return self.mp.alias.get(n)

    def stands(self, xy: XY) -> tuple[tuple[XY, XY | None], ...]:
        """The places of the tile or piece listed at ``xy``, each with the one map square
        it faces (None: all four sides count)."""
        if xy in self.real:
            return ((xy, None),)
        return self.mp.pieces[xy].stands

    def parts(self, xy: XY) -> tuple[Part, ...]:
        if xy in self.real:
            p = self.real[xy]
            return tile_parts(p.tile, p.rotation)
        return self.mp.pieces[xy].parts

    def edges(self, xy: XY) -> str:
        if xy in self.real:
            p = self.real[xy]
            return MODEL.edges(p.tile, p.rotation)
        return self.mp.pieces[xy].edges

    def connected_cities(self) -> set[str]:
        """Large cities with a real tile orthogonally next to one of their squares (M-8)."""
        return {
            name
            for name, squares in self.mp.cities.items()
            if any((x + dx, y + dy) in self.real for x, y in squares for dx, dy in DELTA.values())
        }

    def linked(self) -> tuple[set[int], set[XY]]:
        """The islands a linked ferry connection reaches (M-10), and the squares at the far
        end of every linked connection: a connection is linked once a real tile stands at
        either of its ends."""
        islands: set[int] = set()
        far: set[XY] = set()
        for f in self.mp.ferries:
            (a, _), (b, _) = f.ends
            if a in self.real or b in self.real:
                islands |= {self.mp.island_of[sq] for sq in (a, b) if sq in self.mp.island_of}
                far |= {sq for sq, other in ((a, b), (b, a)) if other in self.real}
        return islands, far

    def open_squares(self) -> set[XY]:
        connected = self.connected_cities()
        islands, far = self.linked()
        out = set()
        for x, y in self.mp.playable:
            if (x, y) in self.placed:
                continue
            if (x, y) in self.mp.island_of and self.mp.island_of[(x, y)] not in islands:
                continue  # an island no linked connection reaches
            if (x, y) in far:
                out.add((x, y))
                continue
            for dx, dy in DELTA.values():
                n = (x + dx, y + dy)
                if n in self.real or (n in self.mp.city_squares and self.mp.city_of[n] in connected):
                    out.add((x, y))
                    break
        return out

    def fits(self, tile: str, x: int, y: int, r: int) -> bool:
        mine = MODEL.edges(tile, r)
        for k, side in enumerate(SIDES):
            dx, dy = DELTA[side]
            n = self.key((x + dx, y + dy))
            if n is not None and self.edges(n)[SIDES.index(OPPOSITE[side])] != mine[k]:
                return False
        return True

    def placements(self, tile: str) -> set[tuple[int, int, int]]:
        return {(x, y, r) for x, y in self.open_squares() for r in range(4) if self.fits(tile, x, y, r)}

    def towns_beside(self, tiles: frozenset[XY]) -> int:
        """Small-town variant 3: the uncovered small towns orthogonally beside a square of a
        feature (real tiles and printed pieces on squares, i.e. large-city squares; border
        pieces and ferry connections stand outside the map)."""
        squares = [xy for xy in tiles if xy in self.mp.playable or xy in self.mp.city_squares]
        towns = {
            (x + dx, y + dy)
            for x, y in squares
            for dx, dy in DELTA.values()
            if (x + dx, y + dy) in self.mp.towns and (x + dx, y + dy) not in self.real
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
    tiles: frozenset[XY]
    open_sides: int
    complete: bool
    meeples: list[int]
    pennants: int  # cities: pennants and coats of arms
    road_arms: int  # roads: coats of arms of printed border roads
    filled: int  # monasteries: filled squares of the ring
    borders: frozenset[Seg]  # fields: one segment of each city the field borders
    towns: int  # roads: uncovered small towns beside the road's squares (variant 3)


def recount(board: Board, ferries: list[tuple[int, int, int, int]], players: int) -> list[Group]:
    """Every feature from the board alone: union-find over segments that touch through
    matching slots (printed pieces included), plus one link per ferry."""
    mp = board.mp
    parent: dict[Seg, Seg] = {}

    def find(a: Seg) -> Seg:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for (x, y) in board.placed:
        for i in range(len(board.parts((x, y)))):
            parent[(x, y, i)] = (x, y, i)
    opens: Counter[Seg] = Counter()
    for key in board.placed:
        own_parts = board.parts(key)
        # A ferry connection stands beyond both its ends: each place touches its own end.
        for (x, y), faces in board.stands(key):
            for i, part in enumerate(own_parts):
                for slot in part.slots:
                    dx, dy = DELTA[slot[0]]
                    if faces is not None and (x + dx, y + dy) != faces:
                        continue
                    n = board.key((x + dx, y + dy))
                    if n is None:
                        if part.kind in ("road", "city") and not mp.closes(x, y, slot):
                            opens[(key[0], key[1], i)] += 1
                        continue
                    j = slot_index(board.parts(n)).get(facing(slot))
                    assert j is not None, f"{(x, y)} {slot} faces nothing on {n}"
                    assert board.parts(n)[j].kind == part.kind, f"{(x, y)} meets another kind on {n} at {slot}"
                    ra, rb = find((key[0], key[1], i)), find((n[0], n[1], j))
                    if ra != rb:
                        parent[ra] = rb
    for x, y, a, b in ferries:
        ra, rb = find((x, y, a)), find((x, y, b))
        if ra != rb:
            parent[ra] = rb
    members: dict[Seg, list[Seg]] = {}
    for seg in parent:
        members.setdefault(find(seg), []).append(seg)
    owner = {(p.x, p.y, p.meeple[1]): p.meeple[0] for p in board.real.values() if p.meeple is not None}
    city_root = {}
    for seg in parent:
        x, y, i = seg
        if board.parts((x, y))[i].kind == "city":
            city_root[seg] = find(seg)
    out = []
    for segs in members.values():
        parts = [board.parts((x, y))[i] for x, y, i in segs]
        (kind,) = {p.kind for p in parts}
        meeples = [0] * players
        for seg in segs:
            if seg in owner:
                meeples[owner[seg]] += 1
        n_open = sum(opens[seg] for seg in segs)
        filled = 0
        if kind in ("road", "city"):
            complete = n_open == 0
        elif kind == "monastery":
            ((x, y, _),) = segs
            ring = mp.ring(x, y)
            filled = sum(1 for q in ring if q in board.real or q in mp.city_squares)
            complete = filled == len(ring)
        else:
            complete = False
        borders = frozenset(
            city_root[(x, y, c)] for (x, y, i), p in zip(segs, parts) for c in p.borders
        )
        out.append(
            Group(
                kind,
                frozenset(segs),
                frozenset((x, y) for x, y, _ in segs),
                n_open,
                complete,
                meeples,
                sum(p.pennants for p in parts),
                sum(p.road_arms for p in parts),
                filled,
                borders,
                board.towns_beside(frozenset((x, y) for x, y, _ in segs)) if kind == "road" else 0,
            )
        )
    return out


def feature_key(kind: str, segments: Any, printed: set[XY]) -> tuple[Any, ...]:
    """A feature as (kind, its segments on real tiles, its printed squares): the feature
    indices of printed pieces are the engine's own business."""
    return (
        kind,
        frozenset(s for s in segments if (s[0], s[1]) not in printed),
        frozenset((s[0], s[1]) for s in segments if (s[0], s[1]) in printed),
    )


def show(entry: Any) -> str:
    """A compared feature, readably: kind, segments on real tiles, printed squares, then
    complete, open sides, meeples, pennants."""
    (kind, segs, printed), *rest = entry
    return f"{kind} {sorted(segs)} printed {sorted(printed)} complete/open/meeples/pennants {rest}"


def check_features(game: Game, board: Board, when: str = "") -> list[Group]:
    """Compares ``features()`` with the recount; returns the recount."""
    groups = recount(board, game.ferries, game.rules.players)
    printed = set(board.mp.pieces)
    got: Counter[Any] = Counter()
    for f in game.features():
        segs = [tuple(s) for s in f.segments]
        assert len(set(segs)) == len(segs), f
        assert len(set(f.tiles)) == len(f.tiles), f
        assert set(f.tiles) == {(x, y) for x, y, _ in segs}, f
        got[
            (
                feature_key(f.kind, segs, printed),
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
                feature_key(g.kind, g.segments, printed),
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


def complete_points(g: Group, town_bonus: bool) -> int:
    n = len(g.tiles)
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
    out: Counter[Any] = Counter()
    for g in groups:
        if not g.complete or g.kind == "field":
            continue
        meeples = [0] * players
        for s in g.segments:
            if s in before:
                meeples[before[s]] += 1
        if move.meeple is not None and (move.x, move.y, move.meeple) in g.segments:
            meeples[player] += 1
        if any(meeples):
            out[(g.kind, complete_points(g, 3 in variants), majority(meeples), tuple(sorted(g.tiles)), (0, 0, 0), True)] += 1
            if g.kind == "road" and g.towns and 3 in variants:
                seen.add("road town bonus, completed")
            if g.kind == "road" and g.tiles & set(board.mp.ferry_at):
                seen.add("ferry connection scored, completed")
    at = (move.x, move.y)
    if at in board.mp.arms:
        out[("map", 2 * board.mp.arms[at], (player,), (at,), (0, 0, 0), True)] += 1
    if at in board.mp.towns and 2 in variants:
        out[("map", -2, (player,), (at,), (0, 0, 0), True)] += 1
    return out


def expected_final_events(game: Game, groups: list[Group], seen: set[str]) -> Counter[Any]:
    town_bonus = 3 in game.rules.small_towns
    complete_cities = {s for g in groups if g.kind == "city" and g.complete for s in g.segments}
    out: Counter[Any] = Counter()
    for g in groups:
        if not any(g.meeples):
            continue
        assert not g.complete or g.kind == "field", f"meeples stay on a complete {g}"
        n = len(g.tiles)
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
        out[(g.kind, points, majority(g.meeples), tuple(sorted(g.tiles)), (0, 0, 0), False)] += 1
    return out


# ----- the listed moves ----------------------------------------------------------------------------


def meeple_targets(game: Game, board: Board, groups: list[Group], x: int, y: int, r: int) -> set[int]:
    """Features of the new tile that may take a meeple: those not joined to a feature that
    holds one (on a lake tile, before its new ferry joins anything, F-2)."""
    if game.supply[game.current_player] == 0:
        return set()
    tile = game.tile
    assert tile is not None
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
            dx, dy = DELTA[slot[0]]
            n = board.key((x + dx, y + dy))
            if n is not None:
                j = slot_index(board.parts(n))[facing(slot)]
                parent[find(("new", i))] = find(("group", group_of[(n[0], n[1], j)]))
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
    for (x, y, r), meeples in by_placement.items():
        expected = meeple_targets(game, board, groups, x, y, r)
        assert meeples == {None} | expected, (
            f"{tile} at ({x}, {y}) turned {r}: listed meeples {meeples}, rules say {expected}"
        )


def check_setup(game: Game, mp: MapData, board: Board) -> None:
    rules = game.rules
    k = rules.start_squares
    assert k is not None and 1 <= k <= len(mp.starts)
    if "start_squares" not in CONFIGS_BY_RULES[rules]:
        assert k == mp.start_squares
    n = len(mp.pieces)
    # The printed pieces first, then the start tile and the start squares' tiles, unturned.
    assert {(p.x, p.y) for p in game.board[:n]} == set(mp.pieces)
    assert all(p.tile.startswith(f"map/{mp.name}/") for p in game.board[:n])
    assert len({p.tile for p in game.board[:n]}) == n
    starts = game.board[n:]
    assert len(starts) == k
    assert [(p.x, p.y, p.rotation, p.meeple) for p in starts] == [(x, y, 0, None) for x, y in mp.starts[:k]]
    assert starts[0].tile == rules.start_tile == "base/D"
    assert all(p.tile in TILES for p in starts)
    deck = [p.tile for p in starts[1:]] + [t for _, t in game.discarded] + [game.tile] + list(game.remaining_tiles)
    assert len(deck) == rules.deck_size
    assert not Counter(deck) - Counter(rules.full_deck())
    assert game.turn == 0 and game.current_player == 0 and game.moves == []
    assert game.scores == [0] * rules.players and game.events == []
    assert list(game.supply) == [rules.meeples] * rules.players and rules.meeples == 9
    assert game.ferries == []
    # Tiles drawn before the first turn were discarded only if they fit nowhere.
    for _turn, t in game.discarded:
        assert not board.placements(t), f"{t} was discarded but fits"


CONFIGS_BY_RULES = {RULES[name]: kw for name, kw in CONFIGS.items()}


# ----- the data the oracle reads --------------------------------------------------------------------


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_tile_and_map_data_match_the_engine(config: str) -> None:
    rules = RULES[config]
    mp = MAPS[rules.map or ""]
    assert rules.system == "classic"
    assert not rules.inns_and_cathedrals_scoring and not rules.traders_goods and rules.farmers
    real_ids = [t for t in rules.tile_ids() if not t.startswith("map/")]
    assert set(real_ids) == {t for t in TILES if t.split("/")[0] in rules.tile_sets}
    for tid in real_ids:
        for r in range(4):
            assert rules.tile_edges(tid, r) == MODEL.edges(tid, r), (tid, r)
            described = rules.tile_features(tid, r)
            parts = tile_parts(tid, r)
            assert len(described) == len(parts), (tid, described)
            for text, part in zip(described, parts):
                kind, *places = text.split()
                assert kind == part.kind, (tid, r, text)
                if kind in ("road", "city"):
                    assert set(places) == set(part.slots), (tid, r, text)
                elif kind == "field":
                    assert set(places) - {"I"} == set(part.slots), (tid, r, text)
    # A fresh game is set up as the map says, and its features are the recount's.
    game = Game(rules, seed=5)
    board = Board(mp, game)
    check_setup(game, mp, board)
    groups = check_features(game, board)
    # Before the first turn, only the squares next to the start squares' tiles are open.
    near_starts = {
        (x + dx, y + dy) for x, y in mp.starts[: rules.start_squares or 1] for dx, dy in DELTA.values()
    }
    assert board.open_squares() == near_starts
    check_listed_moves(game, board, groups, game.legal_moves())


def test_printed_pieces_are_tiles_the_rules_describe() -> None:
    """``Rules.tile_ids()`` lists the printed pieces' ids ("map/<name>/..."), and they are the
    tiles of ``game.board``; so ``tile_edges`` and ``tile_features`` describe them like any
    listed tile, and the edges and features are those of the map file (a large-city square's
    listed edges, a border piece's road or city on the side facing its square, a ferry
    connection's road on the sides facing its two ends)."""
    for config in ("continental-2p", "northern-3p", "coastal-2p", "west-east-3p", "west-alone-2p"):
        rules = RULES[config]
        mp = MAPS[rules.map or ""]
        game = Game(rules, seed=1)
        ids = set(rules.tile_ids())
        printed = [p for p in game.board if p.tile.startswith("map/")]
        assert len(printed) == len(mp.pieces)
        for p in printed:
            assert p.tile in ids, p
            assert rules.tile_edges(p.tile) == mp.pieces[(p.x, p.y)].edges, p
            described = sorted((t.split()[0], frozenset(t.split()[1:])) for t in rules.tile_features(p.tile))
            assert described == sorted((part.kind, part.slots) for part in mp.pieces[(p.x, p.y)].parts), p


# ----- whole games, move by move ---------------------------------------------------------------------


@pytest.mark.parametrize("config", sorted(CONFIGS))
@GAMES
@given(seed=seeds, choice_seed=choice_seeds)
def test_every_move_matches_the_maps_oracle(config: str, seed: int, choice_seed: int) -> None:
    play_checked(Game(RULES[config], seed=seed), random.Random(choice_seed))


Choose = Callable[[Game, list[Move], random.Random], Move]


def play_checked(game: Game, rnd: random.Random, choose: Choose | None = None) -> set[str]:
    """Plays a whole game at random (or by ``choose``), checking every turn and the end
    against the oracle; returns the rule elements of the small-town variants and ferry
    connections the oracle saw the game go through (see ``rule_elements`` for the rest)."""
    rules = game.rules
    players = rules.players
    variants = set(rules.small_towns)
    mp = map_of(game)
    board = Board(mp, game)
    check_setup(game, mp, board)
    groups = check_features(game, board)
    start_tiles = (rules.start_squares or 1) - 1
    seen: set[str] = set()
    in_extra_turn = False  # variant 1: the turn being played is an extra turn
    while not game.is_over:
        legal = game.legal_moves()
        assert legal, "a game that is not over must have a legal move"
        check_listed_moves(game, board, groups, legal)
        move = pick(legal, rnd) if choose is None else choose(game, legal, rnd)
        player = game.current_player
        tile = game.tile
        turn = game.turn
        scores_before = list(game.scores)
        n_events = len(game.events)
        n_discarded = len(game.discarded)
        meeples_before = {
            (p.x, p.y, p.meeple[1]): p.meeple[0] for p in board.real.values() if p.meeple is not None
        }
        game.play(move)
        board = Board(mp, game)

        # Turn flow.
        assert game.moves[-1] == move and game.turn == turn + 1 == len(game.moves)
        placed = game.board[-1]
        assert (placed.x, placed.y, placed.rotation, placed.tile) == (move.x, move.y, move.rotation, tile)
        # Meeples are conserved; scores add up from the events and never drop, except by
        # small-town variant 2 (covering a small town costs 2 points: a rule).
        on_board = board_meeples(game)
        for p in range(players):
            assert game.supply[p] + on_board[p] == rules.meeples, (p, list(game.supply), on_board)
        if 2 not in variants:
            assert all(a >= b for a, b in zip(game.scores, scores_before)), (scores_before, game.scores)
        from_events = [0] * players
        for e in game.events:
            for p in e.players:
                from_events[p] += e.points
        assert from_events == game.scores
        # The recount agrees, and this turn's scorings follow from it.
        groups = check_features(game, board, f"after turn {game.turn} ({tile} played as {move})")
        for g in groups:
            assert not (g.complete and any(g.meeples)), f"meeples stay on a complete {g}"
        new = [e for e in game.events[n_events:] if not e.final_scoring]
        assert all(e.turn == game.turn for e in new)
        got = Counter(event_key(e) for e in new)
        want = expected_turn_events(game, board, groups, meeples_before, move, player, seen)
        assert got == want, f"turn {game.turn}, {tile} played as {move}: scored {got}, rules say {want}"
        if want[("map", -2, (player,), ((move.x, move.y),), (0, 0, 0), True)]:
            seen.add("town penalty")
        # A tile is discarded only when it fits nowhere.
        for t_turn, t in game.discarded[n_discarded:]:
            assert t_turn == game.turn
            assert not board.placements(t), f"{t} was discarded at turn {t_turn} but fits"
        # The next player: the same one once after covering a small town with variant 1
        # (never two extra turns in a row).
        extra = 1 in variants and (move.x, move.y) in mp.towns and not in_extra_turn
        if not game.is_over:
            assert game.current_player == (player if extra else (player + 1) % players), (
                f"turn {game.turn}, {tile} played as {move} by {player}: next {game.current_player}, "
                f"rules say {player if extra else (player + 1) % players}"
            )
            if extra:
                seen.add("extra turn")
            elif in_extra_turn and (move.x, move.y) in mp.towns:
                seen.add("no second extra turn in a row")
        in_extra_turn = extra

    # The end: the deck is used up; the final scoring is the recount's.
    assert game.turn + len(game.discarded) + start_tiles == rules.deck_size
    assert game.legal_moves() == [] and game.tile is None and game.remaining_tiles == []
    final = [e for e in game.events if e.final_scoring]
    assert all(e.turn == game.turn for e in final)
    got = Counter(event_key(e) for e in final)
    want = expected_final_events(game, groups, seen)
    assert got == want, f"final scoring {got - want} where the rules say {want - got}"
    by_kind = {k: [0] * players for k in SCORE_KINDS}
    for e in game.events:
        for p in e.players:
            by_kind[e.kind][p] += e.points
    assert game.points_by_kind == by_kind
    best = max(game.scores)
    assert game.winners == [p for p in range(players) if game.scores[p] == best]
    before_end = snapshot(game)
    for mv in (game.moves[-1], Move(*mp.starts[0], 0)):
        assert not game.is_legal(mv)
        with pytest.raises(GameOverError):
            game.play(mv)
    assert snapshot(game) == before_end
    return seen


def rule_elements(game: Game) -> set[str]:
    """The map's rule elements this game's scorings and tiles went through."""
    mp = map_of(game)
    borders = {xy: p for xy, p in mp.pieces.items() if p.city is None and not p.ferry}
    ferries = set(mp.ferry_at)
    real = {(p.x, p.y) for p in game.board if not p.tile.startswith("map/")}
    seen = set()
    for e in game.events:
        tiles = set(e.tiles)
        when = "at the end" if e.final_scoring else "completed"
        if e.kind == "road" and any(borders[xy].parts[0].road_arms for xy in tiles & set(borders)):
            seen.add(f"road with a printed border road's coats of arms, {when}")
        if e.kind == "city" and tiles & set(borders):
            seen.add(f"city with a printed border city, {when}")
        if e.kind == "city" and tiles & mp.city_squares:
            seen.add(f"large city, {when}")
        if e.kind == "road" and tiles & mp.city_squares:
            seen.add("road into a large city")
        if e.kind == "road" and tiles & ferries:
            seen.add(f"ferry connection scored, {when}")
            if any(mp.ferry_at[xy].arms for xy in tiles & ferries):
                seen.add(f"ferry connection with coats of arms scored, {when}")
        if e.kind == "field" and tiles & mp.city_squares:
            seen.add("field beside a large city")
        if e.kind == "monastery" and len(mp.ring(*e.tiles[0])) < 8:
            seen.add(f"monastery beside squares that take no tile, {when}")
        if e.kind == "map" and e.points > 0:
            assert set(e.tiles) <= set(mp.arms)
            seen.add("island square with coats of arms played")
        if e.kind in ("road", "city") and e.complete:
            for x, y in tiles - set(mp.pieces):
                for side in SIDES:
                    dx, dy = DELTA[side]
                    if mp.closes(x, y, side):
                        closer = {"~": "wave", "^": "highlight", "h": "lone half square"}
                        seen.add("closed by a " + closer.get(mp.square(x + dx, y + dy), "neutral border"))
    if real & set(mp.island_of):
        seen.add("island square played")
    if real & mp.half_joined:
        seen.add("joined half square played")
    if game.discarded:
        seen.add("tile discarded")
    return seen


# What random games of some configurations are to go through, at least once: (the
# configurations, played in turn, the deck seed, the rule elements).
REACHED: list[tuple[tuple[str, ...], int, set[str]]] = [
    (
        ("northern-3p", "continental-2p"),
        11,
        {
            "large city, completed",
            "large city, at the end",
            "city with a printed border city, completed",
            "city with a printed border city, at the end",
            "road with a printed border road's coats of arms, completed",
            "road into a large city",
            "field beside a large city",
            "monastery beside squares that take no tile, completed",
            "monastery beside squares that take no tile, at the end",
            "closed by a neutral border",
            "closed by a wave",
            "closed by a highlight",
            "tile discarded",
        },
    ),
    (
        ("coastal-towns-3p",),
        23,
        {
            "ferry connection scored, completed",
            "ferry connection scored, at the end",
            "ferry connection with coats of arms scored, completed",
            "ferry connection with coats of arms scored, at the end",
            "island square played",
            "island square with coats of arms played",
            "extra turn",
            "no second extra turn in a row",
            "town penalty",
            "road town bonus, completed",
            "road town bonus, at the end",
        },
    ),
    (("west-east-3p",), 11, {"joined half square played"}),
    (("west-alone-2p",), 11, {"closed by a lone half square"}),
]


def test_random_games_reach_the_map_rules() -> None:
    """The checked random games do go through the maps' rule elements, so the oracle's
    checks of them are not empty: games of the configurations, each checked in full, until
    all of their elements were seen."""
    for configs, seed, wanted in REACHED:
        seen: set[str] = set()
        for game_index in range(12):
            for config in configs:
                game = Game(RULES[config], seed=seed, game_index=game_index)
                seen |= play_checked(game, random.Random(game_index))
                seen |= rule_elements(game)
            if wanted <= seen:
                break
        assert wanted <= seen, (configs, sorted(wanted - seen))


def steer_along(route: list[tuple[XY, str | None]], avoid: set[XY]) -> Choose:
    """A player that covers the squares of ``route`` in turn, each with a road on the given
    side (None: any tile), the last with a meeple on a road that ends there; it gets closer
    to the next square where it can, never covers a square of ``avoid`` if it has another
    move, and plays every other tile as far from them as it can, without meeples."""

    def dist(m: Move, sq: XY) -> int:
        return abs(m.x - sq[0]) + abs(m.y - sq[1])

    def choose(game: Game, legal: list[Move], rnd: random.Random) -> Move:
        tile = game.tile
        assert tile is not None
        real = {(p.x, p.y) for p in game.board if not p.tile.startswith("map/")}
        todo = [(sq, side) for sq, side in route if sq not in real]
        keep = avoid | {sq for sq, _ in todo}
        free = [m for m in legal if (m.x, m.y) not in keep and m.meeple is None]
        if todo:
            sq, side = todo[0]
            for m in legal:
                if (m.x, m.y) != sq:
                    continue
                parts = tile_parts(tile, m.rotation)
                road = next((i for i, p in enumerate(parts) if p.kind == "road" and side in p.slots), None)
                if len(todo) > 1 and m.meeple is None and (side is None or road is not None):
                    return m
                if len(todo) == 1 and road is not None and m.meeple == road and parts[road].slots == {side}:
                    return m
            near = min(abs(x - sq[0]) + abs(y - sq[1]) for x, y in real)
            closer = [m for m in free if dist(m, sq) < near]
            if closer:
                return min(closer, key=lambda m: (dist(m, sq), m))
        if free:
            return max(free, key=lambda m: (min(dist(m, a) for a in keep), rnd.random()))
        return legal[rnd.randrange(len(legal))]

    return choose


def test_a_road_over_a_ferry_connection_gains_nothing_for_a_town_at_its_open_end() -> None:
    """Small-town variant 3 counts the uncovered small towns beside the road's squares (real
    tiles and printed pieces on squares); a ferry connection stands outside the map, on no
    square. On the coastal map, connection 3 joins the small town (19, 10) to the island
    square (23, 8): a directed game (checked in full by the oracle) builds a road from
    (23, 8) onto the connection, with a meeple, over Gullrock and Thornholm, and leaves
    (19, 10) uncovered to the end: the road scores 2 tiles + 1 coat of arms, and nothing for
    the town at the far end of the route."""
    mp = MAPS["coastal"]
    route = [((19, 5), "E"), ((24, 3), "S"), ((26, 3), "S"), ((24, 7), "N"), ((23, 7), None), ((23, 8), "W")]
    (town, _), (island_end, side) = mp.ferries[2].ends
    assert town in mp.towns and (island_end, side) == route[-1] and island_end in mp.island_of
    game = Game(RULES["coastal-towns-3p"], seed=3)
    play_checked(game, random.Random(0), steer_along(route, {town}))
    real = {(p.x, p.y) for p in game.board if not p.tile.startswith("map/")}
    ferry = mp.pieces[beyond(town, "E")]
    assert ferry.ferry and town not in real
    assert [
        (e.points, e.complete)
        for e in game.events
        if e.kind == "road" and e.final_scoring and set(e.tiles) == {ferry.at, island_end}
    ] == [(3, False)]


# ----- listed moves accepted, others refused -------------------------------------------------------


def quick_snapshot(game: Game) -> tuple[Any, ...]:
    return (game.to_json(), list(game.supply), list(game.scores), game.current_player, game.tile, game.turn)


def unlisted_squares(board: Board, rnd: random.Random) -> list[tuple[str, XY]]:
    """Squares no tile may go on now, by reason: large-city squares, waves and highlights,
    printed border pieces' and ferry connections' squares (both ends), lone half squares,
    the outside next to real tiles and far away, playable squares not yet open (next to a
    large city nobody has connected, on an island no linked connection reaches, if there
    is one), and occupied squares."""
    mp = board.mp

    def some(xs: list[XY], k: int) -> list[XY]:
        xs = sorted(xs)
        return rnd.sample(xs, min(k, len(xs)))

    out: list[tuple[str, XY]] = []
    out += [("large-city square", xy) for xy in some(list(mp.city_squares), 2)]
    out += [("wave or highlight", xy) for xy in some(mp.blocked, 2)]
    borders = [xy for xy in mp.pieces if xy not in mp.city_squares]
    out += [("border piece or ferry connection", xy) for xy in some(borders, 2)]
    out += [("ferry connection's far end", xy) for xy in some(list(mp.alias), 2)]
    out += [("lone half square", xy) for xy in some(mp.halves, 2)]
    outside_near = {
        (x + dx, y + dy)
        for x, y in board.real
        for dx, dy in DELTA.values()
        if mp.square(x + dx, y + dy) == "." and (x + dx, y + dy) not in mp.pieces and (x + dx, y + dy) not in mp.alias
    }
    out += [("outside next to a tile", xy) for xy in some(list(outside_near), 3)]
    out += [
        ("far outside", xy)
        for xy in ((-1, -1), (-1, mp.starts[0][1]), (mp.width, 0), (0, mp.height), (mp.width + 7, -3), (10**6, 10**6))
    ]
    open_now = board.open_squares()
    closed = [xy for xy in mp.playable if xy not in board.placed and xy not in open_now]
    connected = board.connected_cities()
    by_city = [
        (x + dx, y + dy)
        for xy in mp.city_squares
        if mp.city_of[xy] not in connected
        for x, y in [xy]
        for dx, dy in DELTA.values()
        if (x + dx, y + dy) in closed
    ]
    out += [("not open, next to an unconnected large city", xy) for xy in some(by_city, 1)]
    islands, _ = board.linked()
    unlinked = [xy for xy in closed if xy in mp.island_of and mp.island_of[xy] not in islands]
    out += [("island no linked ferry connection reaches", xy) for xy in some(unlinked, 2)]
    out += [("not open yet", xy) for xy in some(closed, 3)]
    out += [("occupied", xy) for xy in some(list(board.real), 2)]
    return out


def check_refused(game: Game, mv: Move, why: str) -> None:
    before = quick_snapshot(game)
    assert not game.is_legal(mv), f"{mv} ({why}) is legal"
    with pytest.raises(IllegalMoveError) as info:
        game.play(mv)
    assert not isinstance(info.value, GameOverError), mv
    assert str(info.value), mv
    assert quick_snapshot(game) == before, f"the refused {mv} ({why}) changed the game"


@pytest.mark.parametrize("config", sorted(CONFIGS))
@GAMES
@given(seed=seeds, choice_seed=choice_seeds)
def test_listed_moves_are_accepted_and_others_refused(config: str, seed: int, choice_seed: int) -> None:
    game = Game(RULES[config], seed=seed)
    rules = game.rules
    mp = map_of(game)
    rnd = random.Random(choice_seed)
    deep_turns = {0, *rnd.sample(range(rules.deck_size), 3)}
    checked = 0
    while not game.is_over:
        legal = game.legal_moves()
        listed = set(legal)
        placements = {(m.x, m.y, m.rotation) for m in legal}
        board = Board(mp, game)
        tile = game.tile
        assert tile is not None
        full_before = snapshot(game)
        player = game.current_player
        # A lake tile always carries a ferry: its moves name one (any pair of its road ends).
        ferry = MODEL.road_pairs(tile)[0] if TILES[tile].lake else None
        if game.turn in deep_turns:
            checked += 1
            # Every listed move is accepted (on a clone).
            for mv in legal:
                assert game.is_legal(mv), mv
                c = game.clone()
                c.play(mv)
                assert c.moves[-1] == mv and c.turn == game.turn + 1
                assert c.supply[player] + board_meeples(c)[player] == rules.meeples
                last = c.board[-1]
                assert (last.x, last.y, last.rotation, last.tile) == (mv.x, mv.y, mv.rotation, tile)
                if mv.meeple is None:
                    assert last.meeple is None
                elif last.meeple is None:
                    # Its feature closed at once: it scored and the meeple came back.
                    assert any(e.turn == c.turn and e.complete and player in e.players for e in c.events), mv
                else:
                    assert last.meeple == (player, mv.meeple)
            # Over the whole map and a margin, exactly the listed placements are legal.
            for x in range(-2, mp.width + 2):
                for y in range(-2, mp.height + 2):
                    for r in range(4):
                        assert game.is_legal(Move(x, y, r, ferry=ferry)) == ((x, y, r) in placements), (x, y, r)
        # Squares no tile may take now are refused, with or without a meeple, and so are
        # turns that do not match on open squares.
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
        for why, mv in candidates[:40]:
            assert (mv.x, mv.y, mv.rotation) not in placements, f"{mv} is listed, but {why}"
            assert mv not in listed
            check_refused(game, mv, why)
        assert snapshot(game) == full_before
        assert game.legal_moves() == legal
        game.play(pick(legal, rnd))
    assert checked >= 1


# ----- clones and records --------------------------------------------------------------------------


@pytest.mark.parametrize("config", sorted(CONFIGS))
@GAMES
@given(seed=seeds, choice_seed=choice_seeds, split=st.floats(0.0, 1.0), game_index=st.integers(0, 2**64 - 1))
def test_clone_and_json_round_trip_mid_game(config: str, seed: int, choice_seed: int, split: float, game_index: int) -> None:
    game = Game(RULES[config], seed=seed, game_index=game_index)
    rnd = random.Random(choice_seed)
    stop = int(split * game.rules.deck_size)
    while not game.is_over and game.turn < stop:
        game.play(pick(game.legal_moves(), rnd))
    clone = game.clone()
    restored = Game.from_json(game.to_json())
    assert_same_game(clone, game)
    assert_same_game(restored, game)
    # All three continue identically with the same moves.
    while not game.is_over:
        mv = pick(game.legal_moves(), rnd)
        for g in (game, clone, restored):
            g.play(mv)
        assert clone.to_json() == restored.to_json() == game.to_json()
    assert_same_game(clone, game)
    assert_same_game(restored, game)
    assert_same_game(Game.from_json(game.to_json()), game)
    assert clone.scores == restored.scores == game.scores
    assert [repr(p) for p in clone.board] == [repr(p) for p in game.board]
