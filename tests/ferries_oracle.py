"""The Ferries' independent oracle, written in Python from the tile files (read with
``tomllib``, see ``oracle.py``), ``game.board`` and ``game.ferries`` only: one ferry per
lake tile, always joining two different road ends of its own lake, and exactly where the
played moves put them; the listed moves (a lake tile always carries a ferry, the other tiles
never do; ferry moves only of the nearest ferry in each direction along the roads the new
tile extends, found by an independent walk over the road graph, each ferry at most once, to
another pair of ends; for every placement exactly meeple x new ferry x ferry moves); a full
recount of every feature (roads through matching sides and ferry links, a road end at a lake
without the ferry being closed) and the scorings of every turn and of the end from it. The
hooks ``FerriesOracle`` and ``FerriesProbe`` run it in the shared harness (``harness.py``)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from carcassonne import Game, IllegalMoveError, Move
from configs import SETS
from hooks import Choice, Oracle, Probe
from observe import Action, board_meeples
from oracle import (
    DELTA,
    OPPOSITE,
    SIDES,
    Model,
    event_key,
    facing,
    fitting_placements,
    load_tiles,
    majority,
)

Seg = tuple[int, int, int]

# ----- the tile data, read straight from the TOML files (see oracle.py) --------------------

TILES = load_tiles(SETS)
MODEL = Model(TILES)


def is_lake(tile: str) -> bool:
    return TILES[tile].lake


# ----- the independent recount ---------------------------------------------------------------


@dataclass
class Group:
    kind: str
    segments: frozenset[Seg]
    open_sides: int
    complete: bool
    meeples: list[int]
    pennants: int


def board_map(game: Game) -> dict[tuple[int, int], Any]:
    return {(p.x, p.y): p for p in game.board}


def meeples_at(board: dict[tuple[int, int], Any]) -> dict[Seg, int]:
    return {(p.x, p.y, p.meeple[1]): p.meeple[0] for p in board.values() if p.meeple is not None}


_LINKS: dict[tuple[str, int], list[tuple[int, str, bool, list[tuple[int, int, str, bool]]]]] = {}


def links(tile: str, r: int) -> list[tuple[int, str, bool, list[tuple[int, int, str, bool]]]]:
    """Per feature of a turned tile: (index, kind, pennant, [(dx, dy, facing slot, whether
    this slot is a whole side of a road or city, which is open if nothing is there)])."""
    key = (tile, r)
    if key not in _LINKS:
        out = []
        for i, (f, slots) in enumerate(zip(TILES[tile].features, MODEL.slots(tile, r))):
            ls = [(*DELTA[slot[0]], facing(slot), f.kind in ("road", "city")) for slot in sorted(slots)]
            out.append((i, f.kind, f.pennant, ls))
        _LINKS[key] = out
    return _LINKS[key]


def recount(
    board: dict[tuple[int, int], Any], ferries: list[tuple[int, int, int, int]], players: int
) -> list[Group]:
    """Every feature, from the board and the ferries alone (union-find over segments that
    touch through matching slots, plus one link per ferry)."""
    parent: dict[Seg, Seg] = {}
    kind_of: dict[Seg, str] = {}
    pennant: dict[Seg, bool] = {}

    def find(a: Seg) -> Seg:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def union(a: Seg, b: Seg) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    for (x, y), p in board.items():
        for i, kind, pen, _ls in links(p.tile, p.rotation):
            parent[(x, y, i)] = (x, y, i)
            kind_of[(x, y, i)] = kind
            pennant[(x, y, i)] = pen
    opens: Counter[Seg] = Counter()
    for (x, y), p in board.items():
        for i, kind, _pen, ls in links(p.tile, p.rotation):
            for dx, dy, other, side in ls:
                nb = board.get((x + dx, y + dy))
                if nb is None:
                    if side:
                        opens[(x, y, i)] += 1
                    continue
                j = MODEL.index(nb.tile, nb.rotation).get(other)
                assert j is not None, f"{p!r} faces nothing on {nb!r} at {other}"
                seg = (nb.x, nb.y, j)
                assert kind_of[seg] == kind, f"{p!r} meets another kind on {nb!r} at {other}"
                union((x, y, i), seg)
    for x, y, a, b in ferries:
        union((x, y, a), (x, y, b))
    groups: dict[Seg, list[Seg]] = {}
    for seg in parent:
        groups.setdefault(find(seg), []).append(seg)
    owner = meeples_at(board)
    out = []
    for segs in groups.values():
        (kind,) = {kind_of[seg] for seg in segs}
        meeples = [0] * players
        for seg in segs:
            if seg in owner:
                meeples[owner[seg]] += 1
        n_open = sum(opens[seg] for seg in segs)
        if kind in ("road", "city"):
            complete = n_open == 0
        elif kind == "monastery":
            ((x, y, _),) = segs
            complete = all((x + a, y + b) in board for a in (-1, 0, 1) for b in (-1, 0, 1))
        else:
            complete = False
        pennants = sum(pennant[seg] for seg in segs)
        out.append(Group(kind, frozenset(segs), n_open, complete, meeples, pennants))
    return out


def check_features(game: Game) -> list[Group]:
    """Compares ``features()`` with the recount; returns the recount."""
    board = board_map(game)
    expected = recount(board, game.ferries.links, game.rules.players)
    by_segments = {g.segments: g for g in expected}
    features = game.features()
    got = [frozenset(f.segments) for f in features]
    assert len(set(got)) == len(got) == len(features)
    assert set(got) == set(by_segments), (
        "features differ from the recount: engine-only "
        f"{sorted(sorted(s) for s in set(got) - set(by_segments))}, recount-only "
        f"{sorted(sorted(s) for s in set(by_segments) - set(got))}"
    )
    for f in features:
        g = by_segments[frozenset(f.segments)]
        assert len(f.segments) == len(g.segments), f
        assert f.kind == g.kind, f
        assert sorted(f.tiles) == sorted({(x, y) for x, y, _ in g.segments}), f
        assert len(set(f.tiles)) == len(f.tiles), f
        assert list(f.meeples) == g.meeples, f
        if f.kind in ("road", "city"):
            assert f.open_sides == g.open_sides, (f, g)
        else:
            assert f.open_sides == 0, f
        assert f.complete == g.complete, (f, g)
        if f.kind == "city":
            assert f.pennants == g.pennants, f
        if f.kind == "road":
            assert f.inns == 0, f
    return expected


# ----- the nearest ferry in each direction ----------------------------------------------------


def nearest_ferries(
    board: dict[tuple[int, int], Any], ferries: list[tuple[int, int, int, int]], tile: str, x: int, y: int, r: int
) -> set[tuple[int, int]]:
    """Lake squares whose ferry may move when ``tile`` is placed at (x, y) turned r: walk
    the road graph from every road side of the new tile that meets a placed tile, stopping at
    the first ferry on each branch (and at the new tile itself)."""
    ferry_end = {(fx, fy, e) for fx, fy, a, b in ferries for e in (a, b)}
    found: set[tuple[int, int]] = set()
    edges = MODEL.edges(tile, r)
    for k, side in enumerate(SIDES):
        if edges[k] != "R":
            continue
        dx, dy = DELTA[side]
        nb = board.get((x + dx, y + dy))
        if nb is None:
            continue
        start = (nb.x, nb.y, MODEL.index(nb.tile, nb.rotation)[OPPOSITE[side]])
        seen = {start}
        todo = [start]
        while todo:
            sx, sy, i = seg = todo.pop()
            if seg in ferry_end:
                found.add((sx, sy))
                continue  # the ferry of this lake is the nearest one on this branch
            p = board[(sx, sy)]
            for slot in MODEL.slots(p.tile, p.rotation)[i]:
                ddx, ddy = DELTA[slot]
                q = (sx + ddx, sy + ddy)
                if q == (x, y) or q not in board:
                    continue
                n = board[q]
                nxt = (q[0], q[1], MODEL.index(n.tile, n.rotation)[facing(slot)])
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    return found


# ----- placements and meeple targets ----------------------------------------------------------


def meeple_targets(
    game: Game, board: dict[tuple[int, int], Any], group_of: dict[Seg, int], groups: list[Group], x: int, y: int, r: int
) -> set[int]:
    """Feature indices of the new tile that may take a meeple: the road ends of a lake are
    looked at before the new ferry joins any of them (F-2)."""
    if game.supply[game.current_player] == 0:
        return set()
    tile = game.tile
    assert tile is not None
    # The new tile's segments and the groups they touch, joined (the new tile can merge
    # groups, e.g. two fields of the new tile through one field around a neighbour).
    parent: dict[Any, Any] = {}

    def find(a: Any) -> Any:
        parent.setdefault(a, a)
        while parent[a] != a:
            a = parent[a]
        return a

    slots_of = MODEL.slots(tile, r)
    for i, slots in enumerate(slots_of):
        find(("new", i))
        for slot in slots:
            dx, dy = DELTA[slot[0]]
            nb = board.get((x + dx, y + dy))
            if nb is not None:
                k = group_of[(nb.x, nb.y, MODEL.index(nb.tile, nb.rotation)[facing(slot)])]
                parent[find(("new", i))] = find(("group", k))
    busy = {find(("group", k)) for k, g in enumerate(groups) if any(g.meeples) and ("group", k) in parent}
    return {i for i in range(len(slots_of)) if find(("new", i)) not in busy}


def equivalent_turns(tile: str, r: int, q: int) -> bool:
    """Whether turning the tile by q looks exactly like turning it by r."""
    kinds = MODEL.kinds(tile)
    a = Counter(zip(kinds, MODEL.slots(tile, r)))
    b = Counter(zip(kinds, MODEL.slots(tile, q)))
    return MODEL.edges(tile, r) == MODEL.edges(tile, q) and a == b


# ----- checks of the listed moves -------------------------------------------------------------


def ferry_move_options(
    board: dict[tuple[int, int], Any], where: dict[tuple[int, int], tuple[int, int]], lakes: set[tuple[int, int]]
) -> list[list[tuple[int, int, int, int] | None]]:
    """Per movable lake: stay, or go to any other pair of road ends of that lake."""
    out = []
    for lx, ly in sorted(lakes):
        here = where[(lx, ly)]
        others = [(lx, ly, a, b) for a, b in MODEL.road_pairs(board[(lx, ly)].tile) if (a, b) != here]
        out.append([None, *others])
    return out


def check_listed_moves(game: Game, legal: list[Move], groups: list[Group]) -> dict[tuple[int, int, int], set[tuple[int, int]]]:
    """The listed moves against the rules, placement by placement. Returns movable lakes."""
    tile = game.tile
    assert tile is not None
    board = board_map(game)
    ferries = game.ferries.links
    where = {(x, y): (a, b) for x, y, a, b in ferries}
    assert legal == sorted(set(legal)), "legal moves are sorted and distinct"
    group_of = {s: k for k, g in enumerate(groups) for s in g.segments}
    by_placement: dict[tuple[int, int, int], set[Move]] = {}
    for m in legal:
        by_placement.setdefault((m.x, m.y, m.rotation), set()).add(m)
    # Placements: exactly the fitting ones, up to turns that look the same.
    fitting = fitting_placements(MODEL.edges, board, tile)
    assert set(by_placement) <= fitting, sorted(set(by_placement) - fitting)
    for x, y, r in fitting - set(by_placement):
        assert any((x, y, q) in by_placement and equivalent_turns(tile, r, q) for q in range(r)), (tile, x, y, r)
    movable_by_placement = {}
    lake = is_lake(tile)
    pairs = MODEL.road_pairs(tile) if lake else [None]
    for (x, y, r), moves in by_placement.items():
        movable = game.ferries.movable(x, y, r)
        assert len(movable) == len(set(movable)), movable
        movable_set = set(movable)
        movable_by_placement[(x, y, r)] = movable_set
        assert (x, y) not in movable_set, f"the ferry of the tile being placed is listed as movable at {(x, y)}"
        for lx, ly in movable_set:
            assert is_lake(board[(lx, ly)].tile) and (lx, ly) in where, (lx, ly)
        expected_movable = nearest_ferries(board, ferries, tile, x, y, r)
        assert movable_set == expected_movable, (
            f"{tile} at ({x}, {y}) turned {r}: movable_ferries {sorted(movable_set)}, "
            f"nearest ferries along the extended roads {sorted(expected_movable)}"
        )
        for m in moves:
            if lake:
                assert m.ferry is not None and m.ferry in pairs, m
            else:
                assert m.ferry is None, m
            lakes = [(lx, ly) for lx, ly, _a, _b in m.ferry_moves]
            assert len(lakes) == len(set(lakes)), f"{m} moves a ferry twice"
            for lx, ly, a, b in m.ferry_moves:
                assert (lx, ly) in movable_set, f"{m} moves the ferry at {(lx, ly)}, not movable"
                assert (lx, ly) != (x, y)
                assert (a, b) in MODEL.road_pairs(board[(lx, ly)].tile), m
                assert (a, b) != where[(lx, ly)], f"{m} leaves a ferry where it is"
        # The listed moves are exactly: meeple (or none) x new ferry x any choice of moves.
        targets = meeple_targets(game, board, group_of, groups, x, y, r)
        choices = [
            [c for c in choice if c is not None]
            for choice in itertools.product(*ferry_move_options(board, where, movable_set))
        ]
        expected = {
            Move(x, y, r, meeple, ferry=pair, ferry_moves=fm)
            for meeple in [None, *sorted(targets)]
            for pair in pairs
            for fm in choices
        }
        assert moves == expected, (
            f"{tile} at ({x}, {y}) turned {r}: listed-only {sorted(moves - expected)[:5]}, "
            f"missing {sorted(expected - moves)[:5]}"
        )
    return movable_by_placement


# ----- moves near the listed ones ----------------------------------------------------------------


def near_moves(game: Game, legal: list[Move], rnd: random.Random, limit: int = 150) -> set[Move]:
    """Unlisted variations of ferry choices: perturbed new-ferry pairs, a missing ferry on a
    lake tile, a ferry on another tile, ferry moves of ferries that may not move, a ferry moved
    twice, to where it is, to a bad pair, on a square with no lake."""
    tile = game.tile
    assert tile is not None
    board = board_map(game)
    where = {(x, y): (a, b) for x, y, a, b in game.ferries.links}
    nfeat = len(TILES[tile].features)
    sample = rnd.sample(legal, min(len(legal), 12))
    with_moves = [m for m in legal if m.ferry_moves]
    sample += rnd.sample(with_moves, min(len(with_moves), 8))
    out: set[Move] = set()

    def mk(m: Move, **kw: Any) -> None:
        args: dict[str, Any] = dict(meeple=m.meeple, ferry=m.ferry, ferry_moves=m.ferry_moves)
        args.update(kw)
        try:
            out.add(Move(m.x, m.y, m.rotation, args["meeple"], ferry=args["ferry"], ferry_moves=args["ferry_moves"]))
        except IllegalMoveError:
            pass  # not even a Move (e.g. five ferry moves)

    for m in sample:
        movable = set(game.ferries.movable(m.x, m.y, m.rotation))
        if is_lake(tile):
            mk(m, ferry=None)
            assert m.ferry is not None
            a, b = m.ferry
            for bad in ((a, a), (b, b), (a, nfeat - 1), (a, nfeat), (b, 200), (0, nfeat + 1)):
                mk(m, ferry=bad)
        else:
            mk(m, ferry=(0, 1))
            mk(m, ferry=(1, 2))
        # The new tile's own square as a ferry move.
        for a, b in MODEL.road_pairs(tile)[:2]:
            mk(m, ferry_moves=[*m.ferry_moves, (m.x, m.y, a, b)])
        # Ferries that may not move, squares without a lake, empty squares.
        for (lx, ly), (a, b) in where.items():
            if (lx, ly) in movable:
                continue
            elsewhere = next(p for p in MODEL.road_pairs(board[(lx, ly)].tile) if p != (a, b))
            mk(m, ferry_moves=[*m.ferry_moves, (lx, ly, *elsewhere)])
        for p in list(board.values())[:3]:
            if not is_lake(p.tile):
                mk(m, ferry_moves=[*m.ferry_moves, (p.x, p.y, 0, 1)])
        mk(m, ferry_moves=[*m.ferry_moves, (m.x + 1000, m.y, 0, 1)])
        for lx, ly in movable:
            pairs = MODEL.road_pairs(board[(lx, ly)].tile)
            rest = [fm for fm in m.ferry_moves if (fm[0], fm[1]) != (lx, ly)]
            here = where[(lx, ly)]
            mk(m, ferry_moves=[*rest, (lx, ly, *here)])  # "moved" to where it is
            other = [p for p in pairs if p != here]
            mk(m, ferry_moves=[*rest, (lx, ly, *other[0]), (lx, ly, *other[0])])  # twice, same
            mk(m, ferry_moves=[*rest, (lx, ly, *other[0]), (lx, ly, *other[-1])])  # twice
            mk(m, ferry_moves=[*rest, (lx, ly, *other[0]), (lx, ly, *here)])
            ends = sorted({e for p in pairs for e in p})
            nl = len(TILES[board[(lx, ly)].tile].features)
            for bad in ((ends[0], ends[0]), (ends[0], nl - 1), (ends[0], nl), (ends[-1], 99)):
                mk(m, ferry_moves=[*rest, (lx, ly, *bad)])
    for m in sample:
        if m.ferry_moves:
            fm = m.ferry_moves
            mk(m, ferry_moves=[*fm, fm[0]])
    moves = sorted(out)
    rnd.shuffle(moves)
    return set(moves[:limit])


def check_ferries(game: Game) -> dict[tuple[int, int], tuple[int, int]]:
    """One ferry per lake tile, on two different road ends of its own lake."""
    board = board_map(game)
    ferries = game.ferries.links
    squares = [(x, y) for x, y, _a, _b in ferries]
    assert len(squares) == len(set(squares)), f"two ferries on one lake: {ferries}"
    lakes = {xy for xy, p in board.items() if is_lake(p.tile)}
    assert set(squares) == lakes, f"ferries on {sorted(squares)}, lake tiles on {sorted(lakes)}"
    for x, y, a, b in ferries:
        tile = board[(x, y)].tile
        assert tile.startswith("ferries/"), (x, y, tile)
        assert a < b, (x, y, a, b)
        assert (a, b) in MODEL.road_pairs(tile), f"ferry {(x, y, a, b)} is not on two road ends of {tile}"
    return {(x, y): (a, b) for x, y, a, b in ferries}


def expected_turn_events(
    groups: list[Group], before: dict[Seg, int], move: Move, player: int, players: int
) -> Counter[Any]:
    """Every complete road, city or monastery that holds a meeple (counted where the meeples
    stood before the move, plus the new one) scores once: closing a road by a ferry move
    scores it, a re-opened road scores again when it is closed again."""
    out: Counter[Any] = Counter()
    for g in groups:
        if not g.complete:
            continue
        meeples = [0] * players
        for s in g.segments:
            if s in before:
                meeples[before[s]] += 1
        if move.meeple is not None and (move.x, move.y, move.meeple) in g.segments:
            meeples[player] += 1
        if not any(meeples):
            continue
        tiles = tuple(sorted({(x, y) for x, y, _ in g.segments}))
        n = len(tiles)
        points = {"road": n, "city": 2 * (n + g.pennants), "monastery": 9}[g.kind]
        out[(g.kind, points, majority(meeples), tiles, (0, 0, 0), True)] += 1
    return out


def expected_final_events(groups: list[Group], board: dict[tuple[int, int], Any]) -> Counter[Any]:
    city_of = {s: g for g in groups if g.kind == "city" for s in g.segments}
    out: Counter[Any] = Counter()
    for g in groups:
        if not any(g.meeples):
            continue
        assert not g.complete or g.kind == "field"
        tiles = tuple(sorted({(x, y) for x, y, _ in g.segments}))
        n = len(tiles)
        if g.kind == "road":
            points = n
        elif g.kind == "city":
            points = n + g.pennants
        elif g.kind == "monastery":
            ((x, y),) = tiles
            points = sum((x + a, y + b) in board for a in (-1, 0, 1) for b in (-1, 0, 1))
        else:
            cities = set()
            for x, y, i in g.segments:
                tdef = TILES[board[(x, y)].tile]
                for side in tdef.features[i].cities:
                    (c,) = [k for k, f in enumerate(tdef.features) if f.kind == "city" and side in f.slots]
                    city = city_of[(x, y, c)]
                    if city.complete:
                        cities.add(city.segments)
            if not cities:
                continue
            points = 3 * len(cities)
        out[(g.kind, points, majority(g.meeples), tiles, (0, 0, 0), False)] += 1
    return out

# ----- whole games, move by move --------------------------------------------------------------


@dataclass
class Before:
    """What a move is checked against: the game as it was just before the move."""

    player: int
    tile: str
    turn: int
    ferries: dict[tuple[int, int], tuple[int, int]]
    meeples: dict[Seg, int]
    scores: list[int]
    events: int

    @staticmethod
    def of(game: Game) -> Before:
        assert game.tile is not None
        return Before(
            game.current_player,
            game.tile,
            game.turn,
            {(x, y): (a, b) for x, y, a, b in game.ferries.links},
            meeples_at(board_map(game)),
            list(game.scores),
            len(game.events),
        )


def check_played(before: Before, game: Game, move: Move) -> list[Group]:
    """Everything that must hold after ``move`` was played from ``before``; returns the
    recount of the features."""
    players = game.rules.players
    assert game.moves[-1] == move and game.turn == before.turn + 1 == len(game.moves)
    placed = game.board[-1]
    assert (placed.x, placed.y, placed.rotation, placed.tile) == (move.x, move.y, move.rotation, before.tile)
    # The ferries: the new one where the move put it, the moved ones moved, the rest kept.
    where = check_ferries(game)
    expected = dict(before.ferries)
    if move.ferry is not None:
        expected[(move.x, move.y)] = move.ferry
    for lx, ly, a, b in move.ferry_moves:
        expected[(lx, ly)] = (a, b)
    assert where == expected, (move, before.ferries, where)
    # Meeples are conserved; scores never drop and add up from the events.
    on_board = board_meeples(game)
    for p in range(players):
        assert game.supply[p] + on_board[p] == 7, (p, list(game.supply), on_board)
    assert all(a >= b for a, b in zip(game.scores, before.scores)), (before.scores, game.scores)
    totals = [0] * players
    for e in game.events:
        for p in e.players:
            totals[p] += e.points
    assert totals == game.scores
    # The recount agrees, no meeple stays on a closed feature, and the scorings of this
    # turn are exactly the closed features that held meeples.
    groups = check_features(game)
    for g in groups:
        assert not (g.complete and any(g.meeples)), f"meeples stay on a complete {g}"
    new = [e for e in game.events[before.events :] if not e.final_scoring]
    assert all(e.turn == game.turn for e in new)
    got = Counter(event_key(e) for e in new)
    want = expected_turn_events(groups, before.meeples, move, before.player, players)
    assert got == want, (move, got, want)
    if game.is_over:
        # The end: the deck is used up; final scoring of what still holds meeples (the
        # meeples are still shown on the board).
        assert game.turn + len(game.discarded) == game.rules.deck_size
        assert game.legal_moves() == [] and game.tile is None
        final = Counter(event_key(e) for e in game.events if e.final_scoring)
        assert final == expected_final_events(groups, board_map(game))
    else:
        assert game.current_player == (before.player + 1) % players
    return groups



# ----- the hooks of the shared harness --------------------------------------------------------


class FerriesOracle(Oracle):
    """Every move of a game with The Ferries: the listed moves against the rules before it,
    everything ``check_played`` checks after it."""

    def start(self, game: Game) -> None:
        assert game.ferries.links == []
        assert game.rules.meeples == 7
        self.groups = check_features(game)

    def before(self, game: Game, action: Action) -> None:
        check_listed_moves(game, game.legal_moves(), self.groups)
        self.state = Before.of(game)

    def after(self, game: Game, action: Action) -> None:
        (move,) = action[1]
        self.groups = check_played(self.state, game, move)


class FerriesProbe(Probe):
    """On the turns of a lake tile or with ferry moves (and 5% of the others): every listed
    move played on a clone, the ferries where it says (a few of them, most of those that move
    ferries, checked in full by ``check_played``), and the unlisted variations of the ferry
    choices (``near_moves``) refused."""

    def __init__(self, game: Game, rnd: random.Random) -> None:
        self.checked = 0

    def listed(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[Choice]:
        tile = game.tile
        assert tile is not None
        moves = [m for m in legal if isinstance(m, Move)]
        with_moves = [m for m in moves if m.ferry_moves]
        if not (is_lake(tile) or with_moves or rnd.random() < 0.05):
            self.deep: set[Move] = set()
            return []
        self.checked += 1
        self.state = Before.of(game)
        self.deep = set(rnd.sample(with_moves, min(len(with_moves), 3)))
        self.deep |= set(rnd.sample(moves, min(len(moves), 1)))
        return legal

    def near(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[tuple[str, Choice]]:
        if not self.deep:
            return []
        moves = [m for m in legal if isinstance(m, Move)]
        return [("unlisted ferry choice", m) for m in near_moves(game, moves, rnd)]

    def accepted(self, game: Game, clone: Game, action: Choice) -> None:
        super().accepted(game, clone, action)
        assert isinstance(action, Move)
        if action in self.deep:
            check_played(self.state, clone, action)
            return
        where = {(x, y): (a, b) for x, y, a, b in clone.ferries.links}
        expected = dict(self.state.ferries)
        if action.ferry is not None:
            expected[(action.x, action.y)] = action.ferry
        for lx, ly, a, b in action.ferry_moves:
            expected[(lx, ly)] = (a, b)
        assert where == expected, action

    def end(self, game: Game) -> None:
        assert self.checked > 0


def over_actions(game: Game) -> list[Choice]:
    """Moves tried once a game with The Ferries is over."""
    return [game.moves[-1], Move(0, 0, 0, ferry=(0, 1))]
