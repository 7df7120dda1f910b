"""The classic games' independent oracle: the placement and meeple rules recomputed in
Python from ``Rules.tile_edges`` / ``Rules.tile_features`` and the board and feature views,
a flood-fill recount of every feature, and the scorings of every turn and of the end
recounted from it; with the hooks (``ClassicOracle``, ``ClassicProbe``) that let the shared
harness (``harness.py``) run them over random games of the classic configurations."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import carcassonne
from carcassonne import SCORE_KINDS, Game, Move, Rules
from hooks import Choice, Oracle, Probe
from observe import Action, board_meeples
from oracle import DATA_DIR, DELTA, event_key, facing, fitting_placements, majority, points_from_events

def feature_meeples(game: Game) -> list[int]:
    counts = [0] * game.rules.players
    for f in game.features():
        for p in range(game.rules.players):
            counts[p] += f.meeples[p]
    return counts



class PlacementOracle:
    """Placement and meeple rules recomputed in Python from the tile descriptions."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._edges: dict[tuple[str, int], str] = {}
        self._slots: dict[tuple[str, int], list[tuple[str, set[str]]]] = {}

    def edges(self, tile: str, rotation: int) -> str:
        key = (tile, rotation)
        if key not in self._edges:
            e = self.rules.tile_edges(tile, rotation)
            assert len(e) == 4 and set(e) <= set("CRF"), e
            self._edges[key] = e
        return self._edges[key]

    def segments(self, tile: str, rotation: int) -> list[tuple[str, set[str]]]:
        """(kind, board-oriented slot names) of every feature of a turned tile."""
        key = (tile, rotation)
        if key not in self._slots:
            out = []
            for text in self.rules.tile_features(tile, rotation):
                kind, *places = text.split()
                slots: set[str] = set()
                for p in places:
                    if kind == "city":
                        slots |= {p + "L", p, p + "R"}
                    elif kind == "road":
                        slots.add(p)
                    elif kind == "field" and p != "I":
                        slots.add(p)
                assert kind in ("city", "road", "field", "monastery"), text
                out.append((kind, slots))
            self._slots[key] = out
        return self._slots[key]

    def segment_at(self, tile: str, rotation: int, slot: str) -> int | None:
        for i, (_kind, slots) in enumerate(self.segments(tile, rotation)):
            if slot in slots:
                return i
        return None

    def placements(self, board: dict[tuple[int, int], Any], tile: str) -> set[tuple[int, int, int]]:
        return fitting_placements(self.edges, board, tile)

    def meeple_options(self, game: Game, board: dict[tuple[int, int], Any], x: int, y: int, r: int) -> set[int]:
        player = game.current_player
        if game.supply[player] == 0:
            return set()
        tile = game.tile
        assert tile is not None
        owner: dict[tuple[int, int, int], int] = {}
        occupied: list[bool] = []
        for k, f in enumerate(game.features()):
            occupied.append(sum(f.meeples) > 0)
            for seg in f.segments:
                owner[seg] = k
        segs = self.segments(tile, r)
        # Union-find over new segments ("s", i) and board features ("f", k).
        parent: dict[Any, Any] = {}

        def find(a: Any) -> Any:
            parent.setdefault(a, a)
            while parent[a] != a:
                a = parent[a]
            return a

        for i, (_kind, slots) in enumerate(segs):
            find(("s", i))
            for slot in slots:
                dx, dy = DELTA[slot[0]]
                nb = board.get((x + dx, y + dy))
                if nb is None:
                    continue
                nseg = self.segment_at(nb.tile, nb.rotation, facing(slot))
                assert nseg is not None, (nb, slot)
                k = owner[(nb.x, nb.y, nseg)]
                parent[find(("s", i))] = find(("f", k))
        busy = {find(("f", k)) for k in range(len(occupied)) if occupied[k] and ("f", k) in parent}
        farmers = game.rules.farmers
        return {
            i
            for i, (kind, _slots) in enumerate(segs)
            if (farmers or kind != "field") and find(("s", i)) not in busy
        }


def check_against_oracle(game: Game, oracle: PlacementOracle, legal: list[Move]) -> None:
    board = {(p.x, p.y): p for p in game.board}
    tile = game.tile
    assert tile is not None
    fitting = oracle.placements(board, tile)
    listed = {(m.x, m.y, m.rotation) for m in legal}
    # Every listed placement fits by the edges.
    assert listed <= fitting, sorted(listed - fitting)
    # Every fitting placement is listed, or is a turn of a symmetric tile whose
    # identical-looking smaller rotation is listed.
    for x, y, r in fitting - listed:
        same = [
            q
            for q in range(r)
            if (x, y, q) in listed
            and oracle.edges(tile, q) == oracle.edges(tile, r)
            and sorted(oracle.rules.tile_features(tile, q)) == sorted(oracle.rules.tile_features(tile, r))
        ]
        assert same, f"{tile} fits at ({x}, {y}) turned {r} but no equivalent placement is listed"
    # Meeple options per placement.
    by_placement: dict[tuple[int, int, int], set[int]] = {}
    for m in legal:
        opts = by_placement.setdefault((m.x, m.y, m.rotation), set())
        if m.meeple is not None:
            opts.add(m.meeple)
    for (x, y, r), opts in by_placement.items():
        expected = oracle.meeple_options(game, board, x, y, r)
        assert opts == expected, f"{tile} at ({x}, {y}) turned {r}: listed meeples {opts}, rules say {expected}"


def perturbations(game: Game, legal: list[Move]) -> set[Move]:
    """Moves near the listed ones: other turns, squares, meeple indices, far squares."""
    tile = game.tile
    assert tile is not None
    nseg = len(game.rules.tile_features(tile))
    out: set[Move] = set()
    placements = {(m.x, m.y, m.rotation) for m in legal}
    for x, y, r in placements:
        for q in range(4):
            out.add(Move(x, y, q))
            for i in range(nseg):
                out.add(Move(x, y, q, i))
        out.add(Move(x, y, r, nseg))
        out.add(Move(x, y, r, nseg + 3))
        out.add(Move(x, y, r, 254))
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (2, 0), (0, -2), (1, 1)):
            out.add(Move(x + dx, y + dy, r))
            out.add(Move(x + dx, y + dy, r, 0))
        out.add(Move(x + 500, y, r))
        out.add(Move(x, y - 10_000, r))
    for p in game.board[: 6] + game.board[-3:]:
        out.add(Move(p.x, p.y, 0))
        out.add(Move(p.x, p.y, p.rotation, 0))
    for x, y in ((2**31 - 1, 0), (-(2**31), -(2**31)), (0, 2**31 - 1), (10**6, -(10**6))):
        out.add(Move(x, y, 0))
    return out



# ----- an independent recount of features and scores ----------------------------------------


def field_city_adjacency(rules: Rules) -> dict[str, dict[int, list[int]]]:
    """Per tile id: field feature index -> indices of the city features it borders, read
    straight from the tile files (the only rule data the public API does not expose)."""
    out: dict[str, dict[int, list[int]]] = {}
    for source in rules.tile_sets:
        path = DATA_DIR / f"{source}.toml" if source in carcassonne.TILE_SETS else Path(source)
        set_name = None
        tile_id = None
        for line in path.read_text().splitlines():
            m = re.match(r'^\s*(\w+)\s*=\s*"(.*)"\s*$', line)
            if not m:
                continue
            key, value = m.groups()
            if key == "name" and set_name is None:
                set_name = value
            elif key == "id":
                tile_id = value
            elif key == "features":
                tokens = [t.strip() for t in value.split(";") if t.strip() and t.strip() != "garden"]
                full = f"{set_name}/{tile_id}"
                kinds = [d.split()[0] for d in rules.tile_features(full)]
                assert [t[0] for t in tokens] == [k[0].upper() for k in kinds], (full, tokens, kinds)
                city_at = {}
                for i, t in enumerate(tokens):
                    if t.startswith("C("):
                        for side in t[2 : t.index(")")].split():
                            city_at[side] = i
                adj = {}
                for i, t in enumerate(tokens):
                    if t.startswith("F(") and "~" in t:
                        adj[i] = sorted({city_at[c] for c in t.split("~", 1)[1].strip()})
                out[full] = adj
    assert set(out) == set(rules.tile_ids())
    return out


def flood_fill_check(game: Game, oracle: PlacementOracle) -> None:
    """Recomputes every feature from the board alone and compares with ``features()``."""
    board = {(p.x, p.y): p for p in game.board}
    parent: dict[tuple[int, int, int], tuple[int, int, int]] = {}

    def find(a: tuple[int, int, int]) -> tuple[int, int, int]:
        while parent[a] != a:
            a = parent[a]
        return a

    kind_of = {}
    open_count: Counter[tuple[int, int, int]] = Counter()
    for p in game.board:
        for i, (kind, _slots) in enumerate(oracle.segments(p.tile, p.rotation)):
            parent[(p.x, p.y, i)] = (p.x, p.y, i)
            kind_of[(p.x, p.y, i)] = kind
    for p in game.board:
        for i, (kind, slots) in enumerate(oracle.segments(p.tile, p.rotation)):
            for slot in slots:
                dx, dy = DELTA[slot[0]]
                nb = board.get((p.x + dx, p.y + dy))
                if nb is None:
                    if len(slot) == 1 and kind in ("road", "city"):
                        open_count[(p.x, p.y, i)] += 1
                    continue
                j = oracle.segment_at(nb.tile, nb.rotation, facing(slot))
                assert j is not None
                assert oracle.segments(nb.tile, nb.rotation)[j][0] == kind, (p, slot, nb)
                a, b = find((p.x, p.y, i)), find((nb.x, nb.y, j))
                if a != b:
                    parent[a] = b
    groups: dict[Any, set[tuple[int, int, int]]] = {}
    for node in parent:
        groups.setdefault(find(node), set()).add(node)
    expected = {frozenset(g) for g in groups.values()}
    features = game.features()
    assert {frozenset(f.segments) for f in features} == expected
    assert len(features) == len(expected)
    meeple_at = {(p.x, p.y, p.meeple[1]): p.meeple[0] for p in game.board if p.meeple is not None}
    for f in features:
        segs = set(f.segments)
        assert len(segs) == len(f.segments)
        assert {kind_of[s] for s in segs} == {f.kind}
        assert sorted(f.tiles) == sorted({(x, y) for x, y, _ in segs})
        assert len(set(f.tiles)) == len(f.tiles)
        opens = sum(open_count[s] for s in segs)
        if f.kind in ("road", "city"):
            assert f.open_sides == opens, f
            assert f.complete == (opens == 0), f
        elif f.kind == "monastery":
            ((x, y, _),) = segs
            ring = sum((x + dx, y + dy) in board for dx in (-1, 0, 1) for dy in (-1, 0, 1)) - 1
            assert f.open_sides == 0 and f.complete == (ring == 8), f
        else:
            assert f.open_sides == 0 and not f.complete, f
        counts = [0] * game.rules.players
        for s in segs:
            if s in meeple_at:
                counts[meeple_at[s]] += 1
        assert list(f.meeples) == counts, f


def edge_points(rules: Rules, f: Any, complete: bool) -> int:
    n = len(f.tiles)
    ic = rules.inns_and_cathedrals_scoring
    if f.kind == "road":
        if ic and f.inns > 0:
            return 2 * n if complete else 0
        return n
    assert f.kind == "city"
    if ic and f.cathedrals > 0:
        return 3 * (n + f.pennants) if complete else 0
    points: int = 2 * (n + f.pennants) if complete else n + f.pennants
    return points


def expected_turn_events(before: list[Any], game: Game, move: Move, player: int) -> Counter[Any]:
    rules = game.rules
    players = rules.players
    owner = {s: f for f in before for s in f.segments}
    out: Counter[Any] = Counter()
    board = {(p.x, p.y): p for p in game.board}
    for f in game.features():
        segs = set(f.segments)
        if f.kind not in ("road", "city") or not f.complete:
            continue
        if not any((x, y) == (move.x, move.y) for x, y, _ in segs):
            continue
        assert sum(f.meeples) == 0, f"meeples stay on a closed {f!r}"
        meeples = [0] * players
        for pf in {id(owner[s]): owner[s] for s in segs if s in owner}.values():
            for p in range(players):
                meeples[p] += pf.meeples[p]
        if move.meeple is not None and (move.x, move.y, move.meeple) in segs:
            meeples[player] += 1
        tiles = tuple(sorted(f.tiles))
        if f.kind == "city" and rules.traders_goods and any(f.goods):
            out[("goods", 0, (player,), tiles, tuple(f.goods), True)] += 1
        if sum(meeples):
            out[(f.kind, edge_points(rules, f, True), majority(meeples), tiles, (0, 0, 0), True)] += 1
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            q = board.get((move.x + dx, move.y + dy))
            if q is None:
                continue
            kinds = [d.split()[0] for d in rules.tile_features(q.tile)]
            if "monastery" not in kinds:
                continue
            seg = (q.x, q.y, kinds.index("monastery"))
            meeples = list(owner[seg].meeples) if seg in owner else [0] * players
            if (dx, dy) == (0, 0) and move.meeple == seg[2]:
                meeples[player] += 1
            ring = sum(1 for a in (-1, 0, 1) for b in (-1, 0, 1) if (q.x + a, q.y + b) in board) - 1
            if ring == 8 and any(meeples):
                out[("monastery", 9, majority(meeples), ((q.x, q.y),), (0, 0, 0), True)] += 1
    return out


def expected_final_events(game: Game, adjacency: dict[str, dict[int, list[int]]]) -> Counter[Any]:
    rules = game.rules
    board = {(p.x, p.y): p for p in game.board}
    features = game.features()
    city_of = {s: f for f in features if f.kind == "city" for s in f.segments}
    out: Counter[Any] = Counter()
    for f in features:
        if sum(f.meeples) == 0:
            continue
        winners = majority(list(f.meeples))
        tiles = tuple(sorted(f.tiles))
        if f.kind in ("road", "city"):
            assert not f.complete
            out[(f.kind, edge_points(rules, f, False), winners, tiles, (0, 0, 0), False)] += 1
        elif f.kind == "monastery":
            ((x, y),) = tiles
            ring = sum((x + a, y + b) in board for a in (-1, 0, 1) for b in (-1, 0, 1)) - 1
            assert ring < 8
            out[("monastery", 1 + ring, winners, tiles, (0, 0, 0), False)] += 1
        else:
            cities = set()
            for x, y, i in f.segments:
                for c in adjacency[board[(x, y)].tile].get(i, []):
                    city = city_of[(x, y, c)]
                    if city.complete:
                        cities.add(tuple(city.segments))
            if cities:
                out[("field", 3 * len(cities), winners, tiles, (0, 0, 0), False)] += 1
    if rules.traders_goods:
        for g in range(3):
            held = [game.goods[p][g] for p in range(rules.players)]
            best = max(held)
            if best:
                goods = tuple(best if k == g else 0 for k in range(3))
                winners = tuple(p for p in range(rules.players) if held[p] == best)
                out[("goods", 10, winners, (), goods, False)] += 1
    return out



# ----- the hooks of the shared harness --------------------------------------------------------


class ClassicOracle(Oracle):
    """Every move of a classic game: the listed moves are the oracle's, a tile is discarded
    only when it fits nowhere, meeples stay where the features say, scores never drop and add
    up, and every scoring follows from the recount (in full every 10 turns and at the end)."""

    def __init__(self, game: Game) -> None:
        self.oracle = PlacementOracle(game.rules)
        self.adjacency = field_city_adjacency(game.rules)
        self.goods = [(0, 0, 0)] * game.rules.players

    def start(self, game: Game) -> None:
        rules = game.rules
        assert game.turn == 0 and game.current_player == 0
        assert len(game.remaining_tiles) + len(game.discarded) + 1 == rules.deck_size
        assert game.board[0].tile == rules.start_tile and (game.board[0].x, game.board[0].y) == (0, 0)
        flood_fill_check(game, self.oracle)

    def before(self, game: Game, action: Action) -> None:
        legal = game.legal_moves()
        assert legal == sorted(set(legal))
        check_against_oracle(game, self.oracle, legal)
        self.player = game.current_player
        self.tile = game.tile
        self.remaining = list(game.remaining_tiles)
        self.discarded = len(game.discarded)
        self.scores = game.scores
        self.features = game.features()
        self.events = len(game.events)

    def after(self, game: Game, action: Action) -> None:
        rules = game.rules
        players = rules.players
        (move,) = action[1]
        player = self.player
        on_board = board_meeples(game)
        assert feature_meeples(game) == on_board
        # Scores never drop, and the breakdowns add up.
        assert all(a >= b for a, b in zip(game.scores, self.scores)), (self.scores, game.scores)
        by_kind = game.points_by_kind
        assert sorted(by_kind) == sorted(SCORE_KINDS)
        for p in range(players):
            assert sum(by_kind[k][p] for k in SCORE_KINDS) == game.scores[p]
        from_events = [0] * players
        for e in game.events:
            for p in e.players:
                from_events[p] += e.points
        assert from_events == game.scores
        placed = game.board[-1]
        if move.meeple is None:
            assert placed.meeple is None
        else:
            assert placed.meeple in (None, (player, move.meeple))
        # The tiles drawn: discarded (only when they fit nowhere) until one could be played.
        new_discards = [t for _turn, t in game.discarded[self.discarded :]]
        assert all(t == game.turn for t, _ in game.discarded[self.discarded :])
        board = {(p.x, p.y): p for p in game.board}
        for t in new_discards:
            assert not self.oracle.placements(board, t), f"{t} was discarded but fits"
        if game.is_over:
            assert game.tile is None
            assert self.remaining == new_discards
            assert game.remaining_tiles == []
        else:
            assert game.current_player == (player + 1) % players
            assert self.remaining == new_discards + [game.tile] + list(game.remaining_tiles)
        # This turn's scorings are the recount's; goods go to the player who closed the city.
        new = [e for e in game.events[self.events :] if not e.final_scoring]
        assert all(e.turn == game.turn for e in new)
        assert Counter(event_key(e) for e in new) == expected_turn_events(self.features, game, move, player)
        for e in new:
            if e.kind == "goods":
                g = self.goods[player]
                self.goods[player] = (g[0] + e.goods[0], g[1] + e.goods[1], g[2] + e.goods[2])
        assert game.goods == self.goods
        if game.turn % 10 == 0:
            flood_fill_check(game, self.oracle)

    def end(self, game: Game) -> None:
        rules = game.rules
        # The deck is used up; the final scoring is the recount's.
        assert game.turn + len(game.discarded) == rules.deck_size
        assert game.remaining_tiles == []
        flood_fill_check(game, self.oracle)
        final = [e for e in game.events if e.final_scoring]
        assert all(e.turn == game.turn for e in final)
        assert Counter(event_key(e) for e in final) == expected_final_events(game, self.adjacency)
        assert game.points_by_kind == points_from_events(game)


class ClassicProbe(Probe):
    """On 12 turns of each game: every listed move played on a clone, the moves near them
    (``perturbations``) refused, and the listed moves checked against the oracle again."""

    def __init__(self, game: Game, rnd: random.Random) -> None:
        self.oracle = PlacementOracle(game.rules)
        self.turns = set(rnd.sample(range(game.rules.deck_size), 12))

    def listed(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[Choice]:
        return legal if game.turn in self.turns else []

    def near(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[tuple[str, Choice]]:
        if game.turn not in self.turns:
            return []
        moves = [m for m in legal if isinstance(m, Move)]
        check_against_oracle(game, self.oracle, moves)
        return [("near a listed move", m) for m in perturbations(game, moves)]


def over_actions(game: Game) -> list[Choice]:
    """Moves tried once a classic game is over."""
    last = game.moves[-1]
    return [last, Move(0, 0, 0), Move(last.x + 1, last.y, 0, 0)]
