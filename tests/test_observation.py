"""Observations for learning agents (``ObservationSpace``), from Python: the layout, the
decider's point of view, writing into the caller's arrays, and bad arrays refused with
nothing written. (What the planes hold and that nothing hidden is shown are checked over
random games of every configuration in ``rust/carcassonne-core/tests/observation.rs``.)
The per-side planes of fields and which field borders which city are checked on a
hand-built position whose field scoring the rulebook's example gives
(``test_scoring_positions.py``: a farmer's field touching two completed cities)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from carcassonne import (
    ActionSpace,
    ActionSpaceError,
    Game,
    ObservationSpace,
    Rules,
    WindowOverflowError,
)

from configs import ALL_CONFIGS
from positions import new_game, play


@pytest.mark.parametrize("name", sorted(ALL_CONFIGS))
def test_observations_of_a_game_fill_the_callers_arrays(name: str) -> None:
    rules = Rules(**ALL_CONFIGS[name])
    obs = ObservationSpace(rules)
    c, w, w2 = obs.board_shape
    assert w == w2 == rules.action_space.window and c == len(obs.planes)
    assert obs.vector_size == sum(n for _, n in obs.fields)
    board = np.full(obs.board_shape, 9, dtype=np.uint8)
    vector = np.full(obs.vector_size, np.nan, dtype=np.float32)
    game = Game(rules, seed=4)
    rnd = random.Random(4)
    supply_at = sum(n for f, n in obs.fields[: [f for f, _ in obs.fields].index("supply")])
    for _ in range(40):
        if game.is_over:
            break
        try:
            b, v = obs.observe(game, board, vector)
        except WindowOverflowError:
            break
        assert b is board and v is vector
        assert np.isfinite(vector).all()
        tile = board[obs.planes.index("tile")]
        if "map" in ALL_CONFIGS[name]:
            # A map's printed border pieces stand on no square.
            assert 0 < tile.sum() <= len(game.board)
        else:
            assert tile.sum() == len(game.board)
        assert vector[supply_at] == game.supply[game.decider]
        game.apply(rnd.choice(game.legal_actions()))
    fresh_board, fresh_vector = obs.observe(game)
    assert fresh_board.dtype == np.uint8 and fresh_board.shape == obs.board_shape
    assert fresh_vector.shape == (obs.vector_size,)


def test_bad_arrays_are_refused_and_nothing_is_written() -> None:
    rules = Rules()
    obs = ObservationSpace(rules)
    game = Game(rules, seed=1)
    board = np.full(obs.board_shape, 9, dtype=np.uint8)
    vector = np.full(obs.vector_size, -1.0, dtype=np.float32)
    read_only = np.zeros(obs.board_shape, dtype=np.uint8)
    read_only.flags.writeable = False
    wrong = [
        (np.zeros(obs.board_shape, dtype=np.float32), "uint8"),
        (np.zeros((1, 2, 3), dtype=np.uint8), "shape"),
        (np.zeros((obs.board_shape[0], obs.board_shape[1] * 2, obs.board_shape[2]), dtype=np.uint8)[:, ::2], "non-contiguous"),
        (read_only, "read-only"),
        ([0.0] * 10, "list"),
    ]
    for arr, says in wrong:
        with pytest.raises(ActionSpaceError, match=says):
            obs.observe(game, arr, vector)  # type: ignore[arg-type]
        with pytest.raises(ActionSpaceError):
            obs.observe(game, board, arr)  # type: ignore[arg-type]
    assert (board == 9).all() and (vector == -1).all()
    with pytest.raises(ActionSpaceError, match="other rules"):
        obs.observe(Game(Rules(players=3), seed=1), board, vector)
    with pytest.raises(ActionSpaceError, match="other rules"):
        ObservationSpace(Rules(players=3), rules.action_space)
    # A game that outgrows a small window: refused, the arrays untouched.
    small = ObservationSpace(rules, ActionSpace(rules, window=5))
    sb = np.full(small.board_shape, 9, dtype=np.uint8)
    sv = np.full(small.vector_size, -1.0, dtype=np.float32)
    rnd = random.Random(3)
    with pytest.raises(WindowOverflowError):
        while True:
            small.observe(game, sb, sv)
            sb[:] = 9
            sv[:] = -1
            game.apply(rnd.choice(game.legal_actions()))
    assert (sb == 9).all() and (sv == -1).all()


def test_chance_outcomes_share_the_unseen_tiles() -> None:
    rules = Rules()
    game = Game(rules, seed=2)
    rnd = random.Random(2)
    for _ in range(30):
        game.apply(rnd.choice(game.legal_actions()))
    outcomes = game.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    left = game.remaining_tiles
    for tile, p in outcomes:
        assert abs(p - left.count(tile) / len(left)) < 1e-12
    assert {t for t, _ in outcomes} == set(left)
    while not game.is_over:
        game.apply(rnd.choice(game.legal_actions()))
    assert game.chance_outcomes() == []


def test_fields_and_the_cities_they_border() -> None:
    #        x=-1     x=0      x=1
    # y=-2                     E2          city2 = E0(1,-1) + E2(1,-2), complete
    # y=-1            E2       E0*         city1 = D(0,0) north + E2(0,-1), complete
    # y=0    (D)      D ────── U0*         P0's farmer on U's north field
    # The farmer's field (U north, D's north strip, E0's and E2(0,-1)'s fields) borders
    # city1 and city2: 3 points each at the end. E2(1,-2)'s field borders city2 alone.
    steps = [
        ("base/U", 1, 0, 0, "NL"),
        ("base/E", 1, -1, 0, "N"),
        ("base/E", 0, -1, 2, None),
        ("base/E", 1, -2, 2, None),
    ]
    game = new_game(steps + [("base/D", -1, 0, 0, None)])
    play(game, steps)
    assert game.decider == 0
    obs = ObservationSpace(game.rules)
    board, _ = obs.observe(game)
    x0, y0 = game.rules.action_space.origin(game)

    def at(plane: str, x: int, y: int) -> int:
        return int(board[obs.planes.index(plane), y - y0, x - x0])

    # The farmer's field along U's north side: two cities, both complete, P0's farmer.
    assert [at(p, 1, 0) for p in ("cities_N", "value_N", "mine_N", "theirs_N")] == [2, 6, 1, 0]
    # The same field along E0's other sides; E2(1,-2)'s field borders city2 alone.
    assert [at("cities_W", 1, -1), at("value_W", 1, -1), at("mine_W", 1, -1)] == [2, 6, 1]
    assert [at("cities_N", 1, -2), at("value_N", 1, -2), at("mine_N", 1, -2)] == [1, 3, 0]
    # City2 (E0's north side) is bordered by both fields, one with P0's farmer.
    assert [at(p, 1, -1) for p in ("cities_N", "farmers_mine_N", "farmers_theirs_N")] == [2, 1, 0]
    # City1 (D's north side, E2(0,-1)'s south side) by the farmer's field alone.
    assert [at(p, 0, 0) for p in ("cities_N", "farmers_mine_N", "farmers_theirs_N")] == [1, 1, 0]
    assert [at(p, 0, -1) for p in ("cities_S", "farmers_mine_S")] == [1, 1]
    # From P1's seat the farmer is the other player's.
    board, _ = obs.observe(game, viewer=1)
    assert [at(p, 1, -1) for p in ("farmers_mine_N", "farmers_theirs_N")] == [0, 1]
    assert [at(p, 1, 0) for p in ("mine_N", "theirs_N")] == [0, 1]
    # Without farmers (the option off) fields score nothing and the border planes go.
    assert "cities_N" not in ObservationSpace(Rules(farmers=False)).planes
