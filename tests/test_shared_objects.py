"""One object, several threads: a `Game` played by eight threads while two read it, a
`VectorEnv` stepped and reset from four, an `ObservationSpace` observing from four, a
`PuctSearch` searched from two while the game is played meanwhile (from another thread,
and from inside its evaluation), and a search started from inside its own evaluation.
Every call either works or raises a documented error saying what is wrong (a move no
longer legal, an object busy): never PyO3's internal "Already borrowed". Also the
environment's observations stay read-only for good."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from carcassonne import (
    ActionSpaceError,
    BusyError,
    CarcassonneError,
    Game,
    IllegalMoveError,
    ObservationSpace,
    PuctSearch,
    Rules,
    RulesError,
    VectorEnv,
)

SYSTEMS = {
    "base": dict(),
    "ferries": dict(tile_sets=("base", "ferries")),
    "south-seas-friday": dict(tile_sets=("south-seas",), friday=True),
}


def in_threads(targets: list[Callable[[], None]]) -> list[BaseException]:
    """Runs each target on a thread of its own and returns what they raised."""
    raised: list[BaseException] = []

    def run(target: Callable[[], None]) -> None:
        try:
            target()
        except BaseException as e:  # collected, and asserted on by the test
            raised.append(e)

    threads = [threading.Thread(target=run, args=(t,)) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hangs"
    return raised


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_one_game_played_by_eight_threads_and_read_by_two(system: str) -> None:
    rules = Rules(**SYSTEMS[system])
    for seed in range(4):
        game = Game(rules, seed=seed)
        done = threading.Event()
        played: list[int] = []

        def player() -> None:
            while not game.is_over:
                try:
                    game.apply(game.best_move("random", seed=len(played)))
                    played.append(1)
                except IllegalMoveError:
                    # Another thread played first: the move chosen is for an old position.
                    pass

        def last_player() -> None:
            try:
                player()
            finally:
                done.set()

        def reader() -> None:
            while not done.is_set():
                game.phase, game.scores, game.virtual_scores(), game.legal_actions(), repr(game)
                game.sea, game.friday, game.ferries, game.to_json(), game.board

        raised = in_threads([last_player] + [player] * 7 + [reader, reader])
        assert raised == [], raised
        assert game.is_over and played
        # The game is whole: its record loads, at the same end.
        again = Game.from_json(game.to_json())
        assert again.scores == game.scores and again.is_over


def test_a_vector_env_stepped_from_four_threads() -> None:
    env = VectorEnv(Rules(), 8, opponents="random", threads=1)
    obs, _ = env.reset(seed=5)
    counts = {"stepped": 0, "refused": 0}
    lock = threading.Lock()

    def stepper() -> None:
        for _ in range(300):
            # The masks the environment lends out, as the last step by any thread left them
            # (or as one is rewriting them: a row may be copied half written). Copied
            # first: numpy's own functions misread an array that changes under them.
            rows = [np.flatnonzero(m) for m in obs["action_mask"].copy()]
            tokens = np.array([r[0] if len(r) else 0 for r in rows], dtype=np.int64)
            try:
                env.step(tokens)
                with lock:
                    counts["stepped"] += 1
            except ActionSpaceError as e:
                # Another thread stepped between this one's look at the masks and its step.
                assert "is not legal now" in str(e), e
                with lock:
                    counts["refused"] += 1

    assert in_threads([stepper] * 4) == []
    assert counts["stepped"] + counts["refused"] == 1200 and counts["stepped"] >= 300
    # Whatever the interleaving, a reset gives the first observations of a new environment.
    expected, _ = VectorEnv(Rules(), 8, opponents="random", threads=1).reset(seed=5)
    again, _ = env.reset(seed=5)
    for k, v in expected.items():
        assert np.array_equal(again[k], v), k


def test_a_vector_env_reset_from_four_threads_at_once() -> None:
    env = VectorEnv(Rules(), 16, opponents="greedy", threads=1)
    expected, _ = VectorEnv(Rules(), 16, opponents="greedy", threads=1).reset(seed=9)
    resets: list[int] = []

    def resetter() -> None:
        for _ in range(40):
            env.reset(seed=9)
            resets.append(1)

    assert in_threads([resetter] * 4) == []
    # The arrays are the environment's own, rewritten by every reset: read once all are done.
    obs = env.step(np.array([np.flatnonzero(m)[0] for m in expected["action_mask"]]))[0]
    twin = VectorEnv(Rules(), 16, opponents="greedy", threads=1)
    twin.reset(seed=9)
    want = twin.step(np.array([np.flatnonzero(m)[0] for m in expected["action_mask"]]))[0]
    assert len(resets) == 160
    for k, v in want.items():
        assert np.array_equal(obs[k], v), k


def test_the_observations_stay_read_only_for_good() -> None:
    env = VectorEnv(Rules(), 4, opponents="random")
    obs, _ = env.reset(seed=1)
    for name in ("board", "vector", "action_mask"):
        array = obs[name]
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="WRITEABLE"):
            array.setflags(write=True)
        with pytest.raises(ValueError, match="read-only"):
            array.flat[0] = 1
        # Nor through a view, or the array the view was made from.
        view = array.view()
        with pytest.raises(ValueError, match="WRITEABLE"):
            view.setflags(write=True)
        base = array.base
        assert not isinstance(base, np.ndarray) or not base.flags.writeable
    untouched = VectorEnv(Rules(), 4, opponents="random")
    expected, _ = untouched.reset(seed=1)
    tokens = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]], dtype=np.int64)
    got = env.step(tokens)[0]
    want = untouched.step(tokens)[0]
    for name in ("board", "vector", "action_mask"):
        assert np.array_equal(got[name], want[name]), name


def test_an_observation_space_observes_from_four_threads() -> None:
    rules = Rules(**SYSTEMS["south-seas-friday"])
    space = ObservationSpace(rules)
    games = [Game(rules, seed=s) for s in range(4)]
    for g in games:
        for _ in range(12):
            g.apply(g.legal_actions()[0])
    expected = [space.observe(g) for g in games]
    wrong: list[int] = []

    def observer(i: int) -> Callable[[], None]:
        def run() -> None:
            for _ in range(200):
                board, vector = space.observe(games[i])
                if not (np.array_equal(board, expected[i][0]) and np.array_equal(vector, expected[i][1])):
                    wrong.append(i)

        return run

    assert in_threads([observer(i) for i in range(4)]) == []
    assert wrong == []


def uniform(size: int) -> Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    def evaluate(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.ones((len(board), size), np.float32), np.zeros(len(board), np.float32)

    return evaluate


def test_a_game_played_inside_the_evaluation_and_from_another_thread_while_searched() -> None:
    rules = Rules()
    game = Game(rules, seed=4)
    untouched = game.clone()
    search = PuctSearch(rules, simulations=64, batch=4, seed=1)
    even = uniform(search.action_space.size)
    expected = search.search(untouched, even, seed=7)

    def playing(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if not game.is_over:
            game.apply(game.legal_actions()[0])
        return even(board, vector)

    report = search.search(game, playing, seed=7)
    # The search searched the position as it was when it began.
    assert game.turn > untouched.turn
    assert report.actions == expected.actions and np.array_equal(report.visits, expected.visits)

    other = Game(rules, seed=5)
    start = other.to_json()

    def slow(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        time.sleep(0.002)
        return even(board, vector)

    reports: list[Any] = []

    def searcher() -> None:
        reports.append(search.search(other, slow, seed=3))

    def mover() -> None:
        for _ in range(20):
            other.apply(other.legal_actions()[0])
            time.sleep(0.001)

    assert in_threads([searcher, searcher, mover]) == []
    assert other.turn > Game.from_json(start).turn
    # Both searches, one after the other, searched the position they were handed.
    fresh = search.search(Game.from_json(start), even, seed=3)
    assert len(reports) == 2 and all(r.actions == fresh.actions for r in reports)


def test_a_search_started_inside_its_own_evaluation_is_refused_as_busy() -> None:
    rules = Rules()
    game = Game(rules, seed=4)
    search = PuctSearch(rules, simulations=16, batch=4)
    even = uniform(search.action_space.size)

    def nested(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        search.search(game, even)
        return even(board, vector)

    with pytest.raises(BusyError, match="PuctSearch is busy: it was called from inside one of its own calls"):
        search.search(game, nested)
    # Nothing is left held: the search works again.
    assert search.search(game, even).actions == game.legal_actions()
    # Another search may run inside the evaluation.
    other = PuctSearch(rules, simulations=8, batch=4)

    def with_other(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        other.search(game, even)
        return even(board, vector)

    assert search.search(game, with_other).actions == game.legal_actions()


def test_bools_are_not_integers_for_the_rules() -> None:
    with pytest.raises(RulesError, match="start_squares must be a number of start squares or a list"):
        Rules(map="continental", start_squares=True)
    with pytest.raises(TypeError, match="deck_size must be an integer, not bool"):
        Rules(map="continental", deck_size=True)
    with pytest.raises(TypeError, match="players must be an integer, not bool"):
        Rules(players=True)
    with pytest.raises(TypeError, match="bool"):
        Rules(map="continental", small_towns=[True])
    with pytest.raises(TypeError, match="bool"):
        Game(Rules(), seed=True)


def test_observe_names_the_array_it_cannot_write() -> None:
    space = ObservationSpace(Rules())
    with pytest.raises(ActionSpaceError, match=r"board must be a writeable C-contiguous numpy uint8 array .*got list"):
        space.observe(Game(Rules()), [[0]])
    with pytest.raises(ActionSpaceError, match=r"token 0 is not an integer: list"):
        space.observe(Game(Rules()), prefix=[[0]])
    assert issubclass(BusyError, CarcassonneError)
