"""The PUCT search with a learned evaluation (``PuctSearch``), from Python, with trivial
numpy evaluators:

* equal priors and zero values: every simulation but the root's goes through a legal
  action, the report lists the legal actions in order, the same seed repeats the search,
  the game searched is left unchanged, the evaluation sees batches of the documented
  shapes and dtypes;
* an evaluation by the observation's virtual scores (numpy only) beats the random player;
* priors steer the search, and ``token_visits`` is the visits' share per token;
* what the evaluation returns is checked (EvaluationError naming what is wrong), what it
  raises passes through, and bad settings, finished games and other rules are refused.
"""

from __future__ import annotations

import numpy as np
import pytest

from carcassonne import (
    ActionSpaceError,
    EvaluationError,
    Game,
    GameOverError,
    PuctSearch,
    Rules,
)

from configs import ALL_CONFIGS


def uniform_for(size: int):  # type: ignore[no-untyped-def]
    def uniform(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.ones((len(board), size), np.float32), np.zeros(len(board), np.float32)

    return uniform


def played(rules: Rules, moves: int, seed: int = 3) -> Game:
    game = Game(rules, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[rng.integers(len(legal))])
    return game


@pytest.mark.parametrize(
    "name", ["base-2p", "C3-2p", "south-seas-friday-2p", "continental-2p", "all-sets-3p", "continental-towns-2p"]
)
def test_a_uniform_evaluation_spreads_the_simulations(name: str) -> None:
    rules = Rules(**ALL_CONFIGS[name])
    search = PuctSearch(rules, simulations=64, batch=8, seed=1)
    size = search.action_space.size
    planes, w, _ = search.observation_space.board_shape
    v = search.observation_space.vector_size
    players = rules.players
    seen: list[int] = []

    def uniform(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        assert board.dtype == np.uint8 and vector.dtype == np.float32
        n = len(board)
        assert board.shape == (n, planes, w, w) and vector.shape == (n, v)
        seen.append(n)
        return np.ones((n, size)), np.zeros((n, players))

    game = played(rules, 10)
    before = game.to_json()
    report = search.search(game, uniform)
    assert game.to_json() == before
    assert report.actions == game.legal_actions()
    assert report.visits.dtype == np.int64 and report.visits.sum() == 63
    assert seen[0] == 1 and all(1 <= n <= 8 for n in seen)
    assert report.priors == pytest.approx(np.full(len(report.actions), 1 / len(report.actions)), rel=1e-5)
    assert np.all(np.abs(report.values) <= 1)
    assert report.best in report.actions
    # The same seed gives the same search; the object's own stream moves on.
    again = search.search(game, uniform, seed=5)
    assert np.array_equal(again.visits, search.search(game, uniform, seed=5).visits)
    # The token shares: each visited action's tokens carry its share of the visits.
    shares = np.zeros(size, np.float32)
    for action, visits in zip(report.actions, report.visits):
        for t in search.action_space.encode(game, action):
            shares[t] += visits / report.visits.sum()
    assert np.allclose(report.token_visits, shares, atol=1e-6)
    assert search.choose(game, uniform) in game.legal_actions()


def test_an_evaluation_by_virtual_scores_beats_the_random_player() -> None:
    rules = Rules()
    search = PuctSearch(rules, simulations=16, batch=8, exploration=1.0, seed=2)
    fields = search.observation_space.fields
    at = 0
    for field, length in fields:
        if field == "virtual_score":
            break
        at += length
    size = search.action_space.size

    def margins(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mine, theirs = vector[:, at], vector[:, at + 1]
        return np.ones((len(board), size), np.float32), np.tanh((mine - theirs) / 10)

    wins = 0
    games = 4
    for g in range(games):
        game = Game(rules, seed=40 + g)
        rng = np.random.default_rng(g)
        seat = g % 2
        while not game.is_over:
            if game.decider == seat:
                game.apply(search.choose(game, margins))
            else:
                legal = game.legal_actions()
                game.apply(legal[rng.integers(len(legal))])
        scores = game.scores
        wins += scores[seat] > scores[1 - seat]
    assert wins >= 3, f"won {wins} of {games} against the random player"


def test_priors_steer_the_search() -> None:
    rules = Rules()
    game = played(rules, 8)
    search = PuctSearch(rules, simulations=48, batch=4)
    space = search.action_space
    target = game.legal_actions()[-1]
    tokens = space.encode(game, target)

    def favour(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = np.full((len(board), space.size), 1e-3, np.float32)
        p[:, tokens] = 1.0
        return p, np.zeros(len(board), np.float32)

    report = search.search(game, favour)
    assert report.best == target
    i = report.actions.index(target)
    assert report.priors[i] > 0.5 and report.visits[i] > 24


def test_bad_evaluations_are_refused_and_errors_pass_through() -> None:
    rules = Rules()
    game = played(rules, 4)
    search = PuctSearch(rules, simulations=8, batch=4)
    size = search.action_space.size
    ones = np.ones((1, size), np.float32)
    with pytest.raises(EvaluationError, match="tuple"):
        search.search(game, lambda b, v: ones)
    with pytest.raises(EvaluationError, match=r"priors of shape \(1, 3\)"):
        search.search(game, lambda b, v: (np.ones((1, 3)), np.zeros(1)))
    with pytest.raises(EvaluationError, match="priors of dtype <U4, not real numbers"):
        search.search(game, lambda b, v: ("lots", np.zeros(1)))
    # Complex numbers are refused, not read with their imaginary part dropped.
    with pytest.raises(EvaluationError, match="priors of dtype complex128, not real numbers"):
        search.search(game, lambda b, v: (ones.astype(np.complex128), np.zeros(1)))
    with pytest.raises(EvaluationError, match="values of dtype complex64, not real numbers"):
        search.search(game, lambda b, v: (ones, np.zeros(1, np.complex64)))
    with pytest.raises(EvaluationError, match=r"priors that numpy cannot read as an array"):
        search.search(game, lambda b, v: ([[1.0], [1.0, 2.0]], np.zeros(1)))
    with pytest.raises(EvaluationError, match=r"values of shape \(1, 3\)"):
        search.search(game, lambda b, v: (ones, np.zeros((1, 3))))
    negative = ones.copy()
    negative[0, 7] = -1
    with pytest.raises(EvaluationError, match="token 7 of position 0"):
        search.search(game, lambda b, v: (negative, np.zeros(1)))
    with pytest.raises(EvaluationError, match="seat 0 of position 0 .* -1 to 1"):
        search.search(game, lambda b, v: (ones, np.full(1, 2.0)))
    with pytest.raises(EvaluationError, match="seat 1"):
        search.search(game, lambda b, v: (ones, np.array([[0.0, np.nan]])))

    def raises(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise ZeroDivisionError("the network")

    with pytest.raises(ZeroDivisionError, match="the network"):
        search.search(game, raises)
    with pytest.raises(TypeError, match="must be a function"):
        search.search(game, 3)  # type: ignore[arg-type]
    # Three players: a value per seat.
    three = Rules(players=3)
    search3 = PuctSearch(three, simulations=4)
    size3 = search3.action_space.size
    with pytest.raises(EvaluationError, match=r"shape \(1, 3\)"):
        search3.search(Game(three, seed=1), lambda b, v: (np.ones((len(b), size3)), np.zeros(len(b))))
    report = search3.search(Game(three, seed=1), lambda b, v: (np.ones((len(b), size3)), np.zeros((len(b), 3))))
    assert report.visits.sum() == 3
    # The game searched is left as it was after every refusal.
    assert game.legal_actions() == played(rules, 4).legal_actions()


def test_bad_settings_finished_games_and_other_rules_are_refused() -> None:
    rules = Rules()
    for kwargs in [
        {"simulations": 0},
        {"simulations": 10**7},
        {"batch": 0},
        {"batch": 1025},
        {"exploration": -1.0},
        {"exploration": float("nan")},
        {"seed": -1},
    ]:
        with pytest.raises(ValueError):
            PuctSearch(rules, **kwargs)  # type: ignore[arg-type]
    search = PuctSearch(rules, simulations=4)
    uniform = uniform_for(search.action_space.size)
    with pytest.raises(GameOverError):
        search.search(played(rules, 10_000), uniform)
    with pytest.raises(ActionSpaceError, match="other rules"):
        search.search(Game(Rules(players=3), seed=1), uniform)
    with pytest.raises(ActionSpaceError, match="other rules"):
        PuctSearch(rules, space=Rules(players=3).action_space)
    assert "PuctSearch(simulations=4" in repr(search)
    assert "visits=3" in repr(search.search(Game(rules, seed=1), uniform))
