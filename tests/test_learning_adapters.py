"""The PettingZoo and Gymnasium adapters (``carcassonne.learn``): PettingZoo's own
``api_test`` and ``seed_test`` and Gymnasium's environment checker pass; whole episodes end
with the outcome as reward; illegal actions and bad settings are refused as documented.

PettingZoo's API test warns that a dict observation is not a NumPy array and that the
observation space is not a Box: the mask in the observation (``{"observation", "action_mask"}``,
its documented form for masked games) is a dict by design, so those two advisory warnings
are allowed here."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

from carcassonne import ActionSpaceError, Rules
from carcassonne.learn.gymnasium_env import ENV_ID, CarcassonneEnv
from carcassonne.learn.pettingzoo_env import CarcassonneAEC, env

from configs import ALL_CONFIGS

ADVISORY = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
]


@pytest.mark.parametrize("name", ["base-2p", "C3-2p", "south-seas-friday-2p", "all-sets-3p", "continental-2p"])
@pytest.mark.filterwarnings(*ADVISORY)
def test_pettingzoo_api_and_seed_tests_pass(name: str) -> None:
    rules = Rules(**ALL_CONFIGS[name])
    api_test(CarcassonneAEC(rules), num_cycles=300, verbose_progress=False)
    seed_test(lambda: env(rules), num_cycles=300)


def test_a_pettingzoo_game_plays_to_its_outcome() -> None:
    aec = CarcassonneAEC(Rules())
    aec.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = {a: 0.0 for a in aec.possible_agents}
    steps = 0
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any() and obs["observation"]["board"].dtype == np.uint8
        aec.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert steps > 100
    scores = aec.game.scores
    winner = aec.possible_agents[int(np.argmax(scores))]
    assert totals[winner] == (1.0 if scores.count(max(scores)) == 1 else 0.0)
    assert sum(1 for v in totals.values() if v == -1.0) == sum(1 for s in scores if s < max(scores))
    aec.reset(seed=4)
    with pytest.raises(ActionSpaceError, match="not legal"):
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"] == 0)[0]))


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(),
        dict(rules=Rules(tile_sets=["south-seas"], friday=True), opponents="greedy", agent_seat=1, shaping=0.1),
        dict(rules=Rules(tile_sets=["base", "ferries"], players=3), agent_seat=2),
    ],
)
def test_gymnasium_checker_passes(kwargs: dict[str, object]) -> None:
    check_env(gym.make(ENV_ID, **kwargs).unwrapped)


def test_a_gymnasium_episode_and_illegal_actions() -> None:
    e = CarcassonneEnv(Rules(), opponents="random", agent_seat=1)
    obs, _ = e.reset(seed=9)
    rng = np.random.default_rng(9)
    total, steps = 0.0, 0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        total += reward
        steps += 1
        if terminated or truncated:
            break
    assert terminated and steps > 50 and total in (-1.0, 0.0, 1.0)
    # The same seed, the same game.
    again, _ = e.reset(seed=9)
    first, _ = CarcassonneEnv(Rules(), opponents="random", agent_seat=1).reset(seed=9)
    assert all(np.array_equal(again[k], first[k]) for k in again)
    # An illegal action loses the episode, or raises with nothing played.
    illegal = int(np.flatnonzero(again["action_mask"] == 0)[0])
    _, reward, terminated, _, info = e.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})
    strict = CarcassonneEnv(Rules(), illegal_action="raise")
    obs, _ = strict.reset(seed=1)
    before = strict.game.to_json()
    with pytest.raises(ActionSpaceError, match="not legal"):
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert strict.game.to_json() == before
    for bad in (dict(opponents="strong"), dict(agent_seat=5), dict(illegal_action="ignore")):
        with pytest.raises(ActionSpaceError):
            CarcassonneEnv(Rules(), **bad)  # type: ignore[arg-type]


def test_the_gymnasium_vector_environment_declares_same_step_autoreset() -> None:
    from gymnasium.vector import AutoresetMode

    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    venv = CarcassonneVectorEnv(Rules(), 4, opponents="random", agent_seat=1, threads=1)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, _ = venv.reset(seed=3)
    assert obs in venv.observation_space
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(300):
        mask = obs["action_mask"].astype(bool)
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, rewards, terminated, truncated, info = venv.step(actions)
        assert rewards.shape == (4,) and obs["action_mask"].dtype == np.int8
        assert (info["to_play"] == 1).all()
        ended += int(terminated.sum())
        assert set(rewards[terminated]) <= {-1.0, 0.0, 1.0}
    assert ended >= 1
