"""Shared pieces of the independent Python oracles of the property tests.

Used by ``test_invariants.py`` (classic games) and ``test_ferries_invariants.py`` (The
Ferries): the compass helpers, the tile data read straight from the TOML files with
``tomllib``, turned tiles, the edge-matching placement rule, the majority rule, a
comparable key of a scoring event and the check that two games are the same.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carcassonne import SCORE_KINDS, Game
from observe import movable_ferries, snapshot

SIDES = "NESW"
DELTA = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
DATA_DIR = Path(__file__).resolve().parents[1] / "rust" / "carcassonne-core" / "data"

Board = dict[tuple[int, int], Any]
EdgesOf = Callable[[str, int], str]


def rot_slot(slot: str, r: int) -> str:
    """A slot ("N", "NL", ...) of an unturned tile, on the tile turned r quarter turns."""
    return SIDES[(SIDES.index(slot[0]) + r) % 4] + slot[1:]


def facing(slot: str) -> str:
    """The slot of the neighbour across ``slot`` (N <-> S, NL <-> SR, ...)."""
    return OPPOSITE[slot[0]] + {"L": "R", "R": "L", "": ""}[slot[1:]]


# ----- the tile data, read straight from the TOML files ------------------------------------


@dataclass(frozen=True)
class TileFeature:
    kind: str  # "road", "city", "field", "monastery"
    slots: frozenset[str]  # unrotated: sides "N" for roads/cities, half-edges "NL" for fields
    pennant: bool = False
    cities: str = ""  # fields: sides of the cities on this tile the field borders


@dataclass
class TileDef:
    id: str
    edges: str
    features: list[TileFeature]
    lake: bool
    count: int
    counts: dict[str, int] = field(default_factory=dict)


def parse_feature(token: str) -> TileFeature | None:
    token = token.strip()
    if token in ("garden", "LAKE"):
        return None
    if token == "MONASTERY":
        return TileFeature("monastery", frozenset())
    head, _, cities = token.partition("~")
    body, _, flags = head.strip().partition("+")
    assert body[1] == "(" and body.endswith(")"), token
    kind = {"C": "city", "R": "road", "F": "field"}[body[0]]
    # An inner field ("F(I)", Inns & Cathedrals, Traders & Builders) touches no half-edge.
    slots = frozenset(s for s in body[2:-1].split() if not (kind == "field" and s == "I"))
    if kind == "field":
        assert all(len(s) == 2 and s[0] in SIDES and s[1] in "LR" for s in slots), token
    else:
        assert all(s in SIDES for s in slots), token
    return TileFeature(kind, slots, pennant=flags.strip() == "pennant", cities=cities.strip())


def load_tiles(sets: Iterable[str]) -> dict[str, TileDef]:
    """Every tile of the named built-in tile sets, by full id ("base/CRFR", ...)."""
    out = {}
    for name in sets:
        data = tomllib.loads((DATA_DIR / f"{name}.toml").read_text())
        assert data["name"] == name
        for t in data["tiles"]:
            tokens = [tok for tok in t["features"].split(";")]
            feats = [f for f in (parse_feature(tok) for tok in tokens) if f is not None]
            full = f"{name}/{t['id']}"
            out[full] = TileDef(
                full,
                t["edges"],
                feats,
                lake="LAKE" in [tok.strip() for tok in tokens],
                count=t["count"],
                counts=dict(t.get("counts", {})),
            )
    return out


class Model:
    """Turned tiles: board-oriented slots of every feature, and slot -> feature index."""

    def __init__(self, tiles: dict[str, TileDef]) -> None:
        self.tiles = tiles
        self._slots: dict[tuple[str, int], list[frozenset[str]]] = {}
        self._index: dict[tuple[str, int], dict[str, int]] = {}
        self._kinds: dict[str, list[str]] = {}
        self._edges: dict[tuple[str, int], str] = {}

    def edges(self, tile: str, r: int) -> str:
        key = (tile, r)
        if key not in self._edges:
            e = self.tiles[tile].edges
            self._edges[key] = "".join(e[(k - r) % 4] for k in range(4))
        return self._edges[key]

    def slots(self, tile: str, r: int) -> list[frozenset[str]]:
        key = (tile, r)
        if key not in self._slots:
            self._slots[key] = [frozenset(rot_slot(s, r) for s in f.slots) for f in self.tiles[tile].features]
            index: dict[str, int] = {}
            for i, s in enumerate(self._slots[key]):
                for slot in s:
                    assert slot not in index, (tile, slot)
                    index[slot] = i
            self._index[key] = index
        return self._slots[key]

    def index(self, tile: str, r: int) -> dict[str, int]:
        self.slots(tile, r)
        return self._index[(tile, r)]

    def kinds(self, tile: str) -> list[str]:
        if tile not in self._kinds:
            self._kinds[tile] = [f.kind for f in self.tiles[tile].features]
        return self._kinds[tile]

    def road_pairs(self, tile: str) -> list[tuple[int, int]]:
        roads = [i for i, k in enumerate(self.kinds(tile)) if k == "road"]
        return list(itertools.combinations(roads, 2))


# ----- placements ----------------------------------------------------------------------------


def fits(edges: EdgesOf, board: Board, tile: str, x: int, y: int, r: int) -> bool:
    """Whether ``tile`` turned r may go on the empty square (x, y): it touches a placed
    tile and every side matches the side across (``edges(tile, r)`` gives the sides N E S W
    of a turned tile)."""
    if (x, y) in board:
        return False
    mine = edges(tile, r)
    touching = False
    for k, side in enumerate(SIDES):
        dx, dy = DELTA[side]
        nb = board.get((x + dx, y + dy))
        if nb is None:
            continue
        touching = True
        if edges(nb.tile, nb.rotation)[SIDES.index(OPPOSITE[side])] != mine[k]:
            return False
    return touching


def fitting_placements(edges: EdgesOf, board: Board, tile: str) -> set[tuple[int, int, int]]:
    """Every (x, y, rotation) where ``tile`` fits."""
    squares = {(x + dx, y + dy) for x, y in board for dx, dy in DELTA.values()} - set(board)
    return {(x, y, r) for x, y in squares for r in range(4) if fits(edges, board, tile, x, y, r)}


# ----- scoring -------------------------------------------------------------------------------


def majority(meeples: list[int]) -> tuple[int, ...]:
    """The players with the most meeples on a feature (none if it holds none)."""
    best = max(meeples)
    return tuple(p for p, m in enumerate(meeples) if m == best) if best > 0 else ()


def event_key(e: Any) -> tuple[Any, ...]:
    """A scoring event as (kind, points, players, sorted tiles, goods, complete)."""
    return (e.kind, e.points, tuple(e.players), tuple(sorted(e.tiles)), tuple(e.goods), e.complete)


# ----- same game -----------------------------------------------------------------------------


def assert_same_game(a: Game, b: Game) -> None:
    assert a.to_json() == b.to_json()
    assert a.scores == b.scores
    assert a.legal_moves() == b.legal_moves()
    assert snapshot(a) == snapshot(b)
    assert a.points_by_kind == b.points_by_kind
    assert a.winners == b.winners
    assert a.goods == b.goods
    assert [repr(f) for f in a.features()] == [repr(f) for f in b.features()]
    assert a.rules == b.rules
    if not a.is_over:
        for m in a.legal_moves()[:20]:
            assert movable_ferries(a, m.x, m.y, m.rotation) == movable_ferries(b, m.x, m.y, m.rotation)


def points_from_events(game: Game) -> dict[str, list[int]]:
    """Each player's points by kind summed from the scoring log: what ``game.points_by_kind``
    must equal (every point scored is an event)."""
    by_kind = {k: [0] * game.rules.players for k in SCORE_KINDS}
    for e in game.events:
        for p in e.players:
            by_kind[e.kind][p] += e.points
    return by_kind
