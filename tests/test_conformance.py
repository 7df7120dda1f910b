"""Conformance: the same API properties checked over every rule system (classic tile sets
and options, The Ferries), in the manner of OpenSpiel's random-simulation test: clones are
independent, JSON and pickle round-trip, the same seed gives the same game, and batch
simulation is deterministic and consistent whatever the threads or the batch split.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import carcassonne
from carcassonne import SCORE_KINDS, Game, Rules, SimulationResult, simulate
from configs import ALL_CONFIGS
from observe import apply, ferry_links, movable_ferries, pick, play_random, random_action, snapshot
from oracle import assert_same_game

RULES: dict[str, Rules] = {name: Rules(**kw) for name, kw in ALL_CONFIGS.items()}

configs = st.sampled_from(sorted(ALL_CONFIGS))
seeds = st.integers(min_value=0, max_value=2**64 - 1)
choice_seeds = st.integers(min_value=0, max_value=2**32 - 1)
game_indices = st.integers(min_value=0, max_value=2**64 - 1)


def sea_and_friday(game: Game) -> tuple[Any, ...]:
    """Wares, ships taken and Friday tiles revealed (None for a system not played)."""
    sea, friday = game.sea, game.friday
    return (sea and (sea.wares, sea.ships_taken), friday and friday.revealed)


def new_game(config: str, seed: int, game_index: int = 0) -> Game:
    return Game(RULES[config], seed=seed, game_index=game_index)


# ----- clones, records, pickles -------------------------------------------------------------


@given(config=configs, seed=seeds, choice_seed=choice_seeds, split=st.floats(0.0, 1.0))
def test_clone_is_independent(config: str, seed: int, choice_seed: int, split: float) -> None:
    game = new_game(config, seed)
    rnd = random.Random(choice_seed)
    play_random(game, rnd, int(split * game.rules.deck_size))
    original = snapshot(game)
    legal_before = game.legal_moves()

    clone = game.clone()
    assert snapshot(clone) == original
    play_random(clone, random.Random(choice_seed + 1))
    assert clone.is_over
    assert snapshot(game) == original
    assert game.legal_moves() == legal_before

    # And the other way round: playing the original leaves an earlier clone alone.
    clone2 = game.clone()
    clone3 = copy.deepcopy(game)
    clone4 = copy.copy(game)
    was_over = game.is_over
    play_random(game, random.Random(choice_seed + 2), 5)
    assert was_over or snapshot(game) != original
    for c in (clone2, clone3, clone4):
        assert snapshot(c) == original
        assert c.legal_moves() == legal_before


@given(config=configs, seed=seeds, choice_seed=choice_seeds, split=st.floats(0.0, 1.0))
def test_json_and_pickle_round_trip(config: str, seed: int, choice_seed: int, split: float) -> None:
    game = new_game(config, seed)
    rnd = random.Random(choice_seed)
    assert_same_game(Game.from_json(game.to_json()), game)  # at the start
    play_random(game, rnd, int(split * game.rules.deck_size))

    restored = Game.from_json(game.to_json())
    assert_same_game(restored, game)
    unpickled = pickle.loads(pickle.dumps(game))
    assert isinstance(unpickled, Game)
    assert_same_game(unpickled, game)

    # Both continue identically.
    while not game.is_over:
        action = random_action(game, rnd)
        apply(game, action)
        apply(restored, action)
    assert_same_game(restored, game)
    assert_same_game(Game.from_json(game.to_json()), game)  # at the end
    assert_same_game(pickle.loads(pickle.dumps(game)), game)

    assert Game.from_json(game.to_json()).moves == game.moves
    # The record keeps every move, ferry choices included.
    assert len(json.loads(game.to_json())["moves"]) == len(game.moves)

    rules = game.rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert Rules.from_json(rules.to_json()) == rules
    for mv in game.moves:
        back = pickle.loads(pickle.dumps(mv))
        assert back == mv and hash(back) == hash(mv) and repr(back) == repr(mv)
        assert back.ferry == mv.ferry and back.ferry_moves == mv.ferry_moves


# ----- determinism ---------------------------------------------------------------------------


@given(config=configs, seed=seeds, game_index=game_indices, choice_seed=choice_seeds)
def test_same_seed_same_game(config: str, seed: int, game_index: int, choice_seed: int) -> None:
    a = Game(RULES[config], seed=seed, game_index=game_index)
    b = Game(RULES[config], seed=seed, game_index=game_index)
    assert a.remaining_tiles == b.remaining_tiles
    assert a.tile == b.tile
    assert snapshot(a) == snapshot(b)
    # The shuffled deck is a permutation of the rules' full deck; on a map, its first
    # `deck_size` tiles, of which the first go on the start squares after the first (they
    # follow the start tile and the map's printed pieces, "map/...", on the board).
    assert a.tile is not None
    on_start_squares = [p.tile for p in a.board if not p.tile.startswith("map/")][1:]
    assert len(on_start_squares) == (a.rules.start_squares or 1) - 1
    deck = on_start_squares + [t for _, t in a.discarded] + [a.tile] + a.remaining_tiles
    assert len(deck) == a.rules.deck_size
    full = Counter(RULES[config].full_deck())
    if a.rules.map is None:
        assert Counter(deck) == full
    else:
        assert not Counter(deck) - full, "a map's deck is drawn from the tile sets"
    # The same draw order (and South Seas ship and Friday orders) given explicitly is the
    # same game.
    orders: dict[str, Any] = {}
    if a.sea is not None:
        orders["ships"] = [s.id for s in a.sea.display] + a.sea.pile
        if a.friday is not None:
            orders["friday"] = a.friday.order
    explicit = Game(RULES[config], deck=deck, **orders)
    rnd = random.Random(choice_seed)
    while not a.is_over:
        legal = a.legal_moves()
        assert legal == b.legal_moves() == explicit.legal_moves()
        if a.phase == "place":
            mv = pick(legal, rnd)
            for m in {mv, legal[0], legal[-1]}:
                assert movable_ferries(a, m.x, m.y, m.rotation) == movable_ferries(b, m.x, m.y, m.rotation)
        action = random_action(a, rnd)
        for g in (a, b, explicit):
            apply(g, action)
        assert ferry_links(a) == ferry_links(b) == ferry_links(explicit)
        assert snapshot(a) == snapshot(b)
        # The explicit game differs only in not knowing the seed it was shuffled from.
        assert sea_and_friday(explicit) == sea_and_friday(a)
    assert explicit.is_over and explicit.scores == a.scores and explicit.moves == a.moves


@given(config=configs, seed=seeds, i=game_indices, j=game_indices)
def test_different_game_index_or_seed_gives_a_different_deck(config: str, seed: int, i: int, j: int) -> None:
    if i == j:
        j = (i + 1) % 2**64
    rules = RULES[config]
    def deck(g: Game) -> list[str | None]:
        return [t for _, t in g.discarded] + [g.tile] + list(g.remaining_tiles)

    a = deck(Game(rules, seed=seed, game_index=i))
    b = deck(Game(rules, seed=seed, game_index=j))
    c = deck(Game(rules, seed=(seed + 1) % 2**64, game_index=i))
    if rules.map is None:
        assert Counter(a) == Counter(b) == Counter(c)
    else:
        # A map's game draws `deck_size` tiles of the sets: each deck its own choice.
        full = Counter(rules.full_deck())
        for d in (a, b, c):
            assert not Counter(d) - full
        assert len(a) == len(b) == len(c)
    assert a != b
    assert a != c


# ----- batch simulation ----------------------------------------------------------------------


@settings(max_examples=8)
@given(config=configs, seed=seeds, policy=st.sampled_from(carcassonne.POLICIES))
def test_simulate_is_deterministic_and_consistent(config: str, seed: int, policy: str) -> None:
    rules = RULES[config]
    games = 150
    one = simulate(rules, games=games, seed=seed, policy=policy, threads=1)
    two = simulate(rules, games=games, seed=seed, policy=policy, threads=2)
    cols = ("scores", "winners", "turns", "points_by_kind", "discarded")
    for col in cols:
        np.testing.assert_array_equal(getattr(one, col), getattr(two, col), err_msg=col)

    # Splitting a study with first_game gives the same rows.
    head = simulate(rules, games=70, seed=seed, policy=policy, threads=2)
    tail = simulate(rules, games=games - 70, seed=seed, policy=policy, threads=1, first_game=70)
    middle = simulate(rules, games=5, seed=seed, policy=policy, threads=1, first_game=33)
    for col in cols:
        whole = getattr(one, col)
        np.testing.assert_array_equal(
            np.concatenate([getattr(head, col), getattr(tail, col)]), whole, err_msg=col
        )
        np.testing.assert_array_equal(getattr(middle, col), whole[33:38], err_msg=col)
    joined = SimulationResult.concat([tail, head])  # batches in any order
    assert (joined.games, joined.first_game, joined.seed, joined.rules) == (games, 0, seed, rules)
    for col in cols:
        np.testing.assert_array_equal(getattr(joined, col), getattr(one, col), err_msg=col)

    players = rules.players
    assert one.scores.shape == (games, players)
    assert one.winners.shape == (games, players)
    assert one.points_by_kind.shape == (games, players, len(SCORE_KINDS))
    assert one.turns.shape == one.discarded.shape == (games,)
    assert one.games == games and one.rules == rules and one.seed == seed and one.policy == policy
    # Winners are exactly the players with the top score.
    top = one.scores.max(axis=1, keepdims=True)
    np.testing.assert_array_equal(one.winners, one.scores == top)
    assert one.winners.any(axis=1).all()
    # Points by kind add up to the scores; scores are never negative. Except by rule: with
    # the Maps small-town variant 2, covering a small town costs 2 points (kind "map"), so
    # map points and scores may go below 0 there; every other kind still never does.
    np.testing.assert_array_equal(one.points_by_kind.sum(axis=2), one.scores)
    if 2 in rules.small_towns:
        others = [k for k, kind in enumerate(SCORE_KINDS) if kind != "map"]
        assert (one.points_by_kind[:, :, others] >= 0).all()
    else:
        assert (one.points_by_kind >= 0).all()
    # Every tile is either placed or discarded (on a map, the tiles of the start squares
    # after the first are placed before the first turn); South Seas may end earlier,
    # exactly when the last ship has been taken (S-7).
    drawn = one.turns.astype(np.int64) + one.discarded + ((rules.start_squares or 1) - 1)
    if rules.system == "south-seas":
        all_ships_taken = one.ships.sum(axis=1) == len(rules.ships)
        np.testing.assert_array_equal(drawn[~all_ships_taken], rules.deck_size)
        assert (drawn[all_ships_taken] <= rules.deck_size).all()
    else:
        np.testing.assert_array_equal(drawn, rules.deck_size)
        assert not one.ships.any() and not one.wares_left.any()
    if not rules.traders_goods:
        assert (one.points_by_kind[:, :, SCORE_KINDS.index("goods")] == 0).all()
    if not rules.farmers:
        assert (one.points_by_kind[:, :, SCORE_KINDS.index("field")] == 0).all()
    shares = one.win_shares()
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)
    seats = one.seats()
    assert len(seats) == players
    np.testing.assert_allclose(sum(s.win_rate for s in seats), 1.0)
    for s in seats:
        assert 0.0 <= s.win_rate_low <= s.win_rate <= s.win_rate_high <= 1.0
        np.testing.assert_allclose(s.mean_score, one.scores[:, s.seat].mean())


def test_simulate_different_seeds_differ() -> None:
    rules = RULES["base-2p"]
    a = simulate(rules, games=200, seed=1, threads=1)
    b = simulate(rules, games=200, seed=2, threads=1)
    c = simulate(rules, games=200, seed=1, threads=1)
    assert not np.array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.scores, c.scores)
