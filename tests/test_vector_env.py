"""The vectorised environment (``VectorEnv``), from Python:

* its games are the study's games played one by one with the same tokens (masks and
  observations equal those of ``ActionSpace`` and ``ObservationSpace`` on a ``Game`` of the
  same seed and index, across the end of an episode);
* the number of threads never changes what it returns;
* with opponents, the caller acts for its seat alone;
* the observations and masks it returns are read-only (later tokens rewrite only the
  observation's chosen parts);
* bad actions are refused naming the game and the action, with nothing stepped; bad
  settings are refused.
"""

from __future__ import annotations

import numpy as np
import pytest

from carcassonne import ActionSpaceError, Game, ObservationSpace, Rules, VectorEnv

from configs import ALL_CONFIGS


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One random legal token per row of ``mask``."""
    keys = rng.random(mask.shape) * mask
    return keys.argmax(axis=1)


@pytest.mark.parametrize(
    "name", ["base-2p", "C3-2p", "south-seas-friday-2p", "continental-2p", "all-sets-3p", "continental-towns-2p"]
)
def test_the_environment_plays_the_studys_games_one_by_one(name: str) -> None:
    rules = Rules(**ALL_CONFIGS[name])
    n = 3
    env = VectorEnv(rules, n, seed=7, threads=1)
    obs, info = env.reset()
    space = env.action_space
    observer = ObservationSpace(rules, space)
    games = [Game(rules, seed=7, game_index=e) for e in range(n)]
    prefixes: list[list[int]] = [[] for _ in range(n)]
    index = list(range(n))
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(400):
        for e, game in enumerate(games):
            assert np.array_equal(obs["action_mask"][e], space.mask(game, prefixes[e]))
            board, vector = observer.observe(game, prefix=prefixes[e])
            assert np.array_equal(obs["board"][e], board)
            assert np.array_equal(obs["vector"][e], vector)
            assert info["to_play"][e] == game.decider
        actions = random_actions(obs["action_mask"], rng)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert rewards.shape == (n, rules.players) and not truncated.any()
        for e, game in enumerate(games):
            prefixes[e].append(int(actions[e]))
            action = space.resolve(game, prefixes[e])
            if action is not None:
                game.apply(action)
                prefixes[e] = []
            assert terminated[e] == game.is_over
            if game.is_over:
                assert list(info["final_scores"][e]) == game.scores
                winner = rewards[e].argmax()
                assert game.scores[winner] == max(game.scores)
                index[e] += n
                games[e] = Game(rules, seed=7, game_index=index[e])
                ended += 1
            else:
                assert not rewards[e].any()
    assert ended >= 1


def test_threads_never_change_what_it_returns() -> None:
    rules = Rules()

    def run(threads: int) -> list[np.ndarray]:
        env = VectorEnv(rules, 16, seed=3, shaping=0.05, threads=threads)
        obs, _ = env.reset()
        rng = np.random.default_rng(2)
        out = []
        for _ in range(200):
            obs, rewards, terminated, _, info = env.step(random_actions(obs["action_mask"], rng))
            out += [obs["board"].copy(), obs["vector"].copy(), rewards.copy(), terminated.copy()]
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(1), run(2)))


def test_with_opponents_the_caller_plays_its_seat() -> None:
    rules = Rules(players=3)
    env = VectorEnv(rules, 4, seed=1, opponents="greedy", agent_seat=2, observations=False)
    obs, info = env.reset()
    assert set(obs) == {"action_mask"} and env.autoreset_mode == "same_step"
    rng = np.random.default_rng(0)
    done = 0
    for _ in range(400):
        assert (info["to_play"] == 2).all()
        obs, rewards, terminated, truncated, info = env.step(random_actions(obs["action_mask"], rng))
        done += int(terminated.sum())
    assert done >= 1


def test_observations_and_masks_are_lent_read_only() -> None:
    # The environment finds them as it left them: an action's later tokens rewrite only
    # the observation's chosen parts.
    env = VectorEnv(Rules(), 2, seed=1)
    obs, _ = env.reset()
    for part in ("board", "vector", "action_mask"):
        with pytest.raises(ValueError, match="read-only"):
            obs[part][0, 0] = 1
    copy = obs["board"].copy()
    copy[0, 0] = 1  # a copy is the caller's to change
    obs, *_ = env.step(random_actions(obs["action_mask"], np.random.default_rng(0)))
    assert not obs["board"].flags.writeable and not obs["action_mask"].flags.writeable


def test_bad_actions_are_refused_and_nothing_is_stepped() -> None:
    rules = Rules()
    env = VectorEnv(rules, 2, seed=5)
    twin = VectorEnv(rules, 2, seed=5)
    obs, _ = env.reset()
    twin.reset()
    before = obs["action_mask"].copy(), obs["board"].copy()
    good = random_actions(obs["action_mask"], np.random.default_rng(0))
    illegal = good.copy()
    illegal[1] = int(np.flatnonzero(~obs["action_mask"][1])[0])
    cases: list[tuple[object, str]] = [
        (illegal, "environment 1: action"),
        (np.array([good[0], env.action_space.size]), "environment 1: action"),
        (np.array([good[0], -1]), "environment 1: action"),
        (np.array([good[0], 10**18]), "environment 1: action"),
        (good.astype(np.float64), "integer"),
        (good[:1], r"shape \(1,\)"),
        (good.reshape(2, 1), "shape"),
        ([int(good[0])], "1 values"),
        ("ab", "str"),
        (5, "int"),
    ]
    for actions, says in cases:
        with pytest.raises(ActionSpaceError, match=says):
            env.step(actions)  # type: ignore[arg-type]
    assert np.array_equal(obs["action_mask"], before[0]) and np.array_equal(obs["board"], before[1])
    # Nothing was stepped: the environment goes on exactly as its twin.
    a, b = env.step(good), twin.step(good)
    assert np.array_equal(a[0]["board"], b[0]["board"]) and np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
    # Python lists of ints, and numpy arrays of any integer dtype, are actions too.
    obs = env.step([int(x) for x in random_actions(a[0]["action_mask"], np.random.default_rng(3))])[0]
    for dtype in (np.int32, np.uint16, np.uint64):
        obs = env.step(random_actions(obs["action_mask"], np.random.default_rng(4)).astype(dtype))[0]
    with pytest.raises(ActionSpaceError, match="environment 0: action 65535"):
        env.step(np.array([65535, 0], dtype=np.uint16))
    bad_settings: list[tuple[dict[str, object], str]] = [
        (dict(num_envs=0), "num_envs"),
        (dict(num_envs=10**9), "num_envs"),
        (dict(num_envs=1, opponents="strong"), "opponents: unknown player"),
        (dict(num_envs=1, opponents="random", agent_seat=2), "agent_seat"),
        (dict(num_envs=1, threads=0), "threads"),
        (dict(num_envs=1, shaping=float("nan")), "shaping"),
        (dict(num_envs=1, window=2), "window"),
        (dict(num_envs=1, seed=-1), "seed"),
        (dict(num_envs=1 << 20), "MiB"),
    ]
    for kwargs, says in bad_settings:
        with pytest.raises(ActionSpaceError, match=says):
            VectorEnv(rules, **kwargs)  # type: ignore[arg-type]
