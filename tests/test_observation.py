"""Observations for learning agents (``ObservationSpace``), from Python: the layout, the
decider's point of view, writing into the caller's arrays, and bad arrays refused with
nothing written. (What the planes hold and that nothing hidden is shown are checked over
random games of every configuration in ``rust/carcassonne-core/tests/observation.rs``.)"""

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
