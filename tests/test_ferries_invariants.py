"""The Ferries' special cases: the tile data the oracle reads agrees with the engine, and
ferry moves do re-open and close roads in ordinary play. Random games of every ferries
configuration are checked move by move against the oracle (``ferries_oracle.py``) by the
shared harness, in ``test_invariants.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from carcassonne import Game, Rules
from configs import FERRIES_CONFIGS
from ferries_oracle import MODEL, TILES, Before, Seg, board_map, check_played, recount
from observe import pick

CONFIGS = FERRIES_CONFIGS
RULES: dict[str, Rules] = {name: Rules(**kw) for name, kw in CONFIGS.items()}
EDITION_COUNTS = {"C3": (3, 3, 2), "C2": (3, 4, 1)}  # CRRR, FRRR, RRRR
LAKE_IDS = ("ferries/CRRR", "ferries/FRRR", "ferries/RRRR")


# ----- the tile data ------------------------------------------------------------------------------


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_tile_data_matches_the_engine(config: str) -> None:
    rules = RULES[config]
    edition = CONFIGS[config]["ferries_edition"]
    assert rules.ferries_edition == edition
    assert rules.deck_size == 79  # 71 base tiles (start tile excluded) + 8 lake tiles
    deck = Counter(rules.full_deck())
    assert sum(deck.values()) == rules.deck_size
    assert tuple(deck[t] for t in LAKE_IDS) == EDITION_COUNTS[edition]
    assert set(rules.tile_ids()) == set(TILES)
    for tid, tdef in TILES.items():
        if tid != rules.start_tile:
            assert deck[tid] == tdef.counts.get(edition, tdef.count), tid
        assert tdef.lake == tid.startswith("ferries/"), tid
        for r in range(4):
            assert rules.tile_edges(tid, r) == MODEL.edges(tid, r), (tid, r)
            described = rules.tile_features(tid, r)
            assert len(described) == len(tdef.features), (tid, described)
            for text, f, slots in zip(described, tdef.features, MODEL.slots(tid, r)):
                kind, *places = text.split()
                assert kind == f.kind, (tid, r, text)
                if kind in ("road", "city"):
                    assert set(places) == set(slots), (tid, r, text)
                elif kind == "field":
                    assert set(places) - {"I"} == set(slots), (tid, r, text)
    for tid in LAKE_IDS:
        # Every road on a lake tile ends at the lake: one side each, all of them separate.
        roads = [f for f in TILES[tid].features if f.kind == "road"]
        assert all(len(f.slots) == 1 for f in roads)
        assert len(roads) == TILES[tid].edges.count("R") == {"CRRR": 3, "FRRR": 3, "RRRR": 4}[tid[8:]]
        assert len(MODEL.road_pairs(tid)) == len(roads) * (len(roads) - 1) // 2



# ----- ferry moves in ordinary play ---------------------------------------------------------


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_ferry_moves_reopen_and_close_roads(config: str) -> None:
    """Ferry moves do re-open completed roads and close roads away from the new tile in
    ordinary play, and a re-opened road scores again when it is closed again with a meeple on
    it (F-4); every time the engine's features and scorings agree with the recount."""
    seen: Counter[str] = Counter()
    wanted = ("re-opened", "closed away from the new tile", "closed away and scored", "scored again")
    for game_index in range(40):
        game = Game(RULES[config], seed=7, game_index=game_index)
        rnd = random.Random(game_index)
        groups = recount(board_map(game), game.ferries.links, game.rules.players)
        scored: set[Seg] = set()  # segments of roads that have been scored while complete
        while not game.is_over:
            move = pick(game.legal_moves(), rnd)
            before = Before.of(game)
            complete_before = [g.segments for g in groups if g.kind == "road" and g.complete]
            open_before = {s for g in groups if g.kind == "road" and not g.complete for s in g.segments}
            n_events = len(game.events)
            game.play(move)
            groups = check_played(before, game, move)  # includes the scorings of this turn
            road_of = {s: g for g in groups if g.kind == "road" for s in g.segments}
            road_events = [e for e in game.events[n_events:] if e.kind == "road" and not e.final_scoring]
            for g in groups:
                if g.kind != "road" or not g.complete:
                    continue
                held = any(s in before.meeples for s in g.segments) or (
                    move.meeple is not None and (move.x, move.y, move.meeple) in g.segments
                )
                tiles = sorted({(x, y) for x, y, _ in g.segments})
                if held:
                    # Scored now (check_played compared the whole set of scorings).
                    assert any(sorted(e.tiles) == tiles for e in road_events), (move, tiles)
                    if g.segments & scored:
                        seen["scored again"] += 1
                    scored |= g.segments
                if move.ferry_moves and (move.x, move.y) not in tiles and g.segments & open_before:
                    seen["closed away from the new tile"] += 1
                    assert all(game.feature_at(*s).complete for s in g.segments)
                    if held:
                        seen["closed away and scored"] += 1
            if move.ferry_moves:
                for segs in complete_before:
                    if any(not road_of[s].complete for s in segs):
                        seen["re-opened"] += 1
                        assert any(not game.feature_at(*s).complete for s in segs)
        if min(seen[k] for k in wanted) >= 2:
            break
    for k in wanted:
        assert seen[k] >= 2, seen
