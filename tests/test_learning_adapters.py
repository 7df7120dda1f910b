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


@pytest.mark.parametrize(
    "name", ["base-2p", "C3-2p", "south-seas-friday-2p", "all-sets-3p", "continental-2p", "continental-towns-2p"]
)
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


# Hostile inputs (every refusal an ActionSpaceError naming the argument or value).


def _legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def _not_tokens(legal: int) -> list[object]:
    """Values that are not integer tokens, several of them equal to or truncating to the
    legal token ``legal``."""
    return [
        legal + 0.9,
        float(legal),
        float("nan"),
        float("inf"),
        complex(legal),
        str(legal),
        str(legal).encode(),
        [legal],
        (legal,),
        np.array([legal]),
        np.array([[legal]]),
        np.array(float(legal)),
        np.array(legal, dtype=object),
        np.float64(legal),
        np.float32(legal),
        np.complex128(legal),
        np.str_(legal),
        True,
        np.bool_(True),
        np.array(True),
        {legal: legal},
        object(),
    ]


@pytest.mark.parametrize("index", range(len(_not_tokens(0))))
def test_gymnasium_non_integer_actions_lose_as_an_illegal_token(index: int) -> None:
    e, twin = CarcassonneEnv(Rules()), CarcassonneEnv(Rules())
    obs, _ = e.reset(seed=5)
    twin.reset(seed=5)
    legal = _legal(obs["action_mask"])
    bad = _not_tokens(legal)[index]
    before = e.game.to_json()
    got = e.step(bad)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    expected = twin.step(illegal)
    assert got[1:] == expected[1:] == (-1.0, True, False, {"illegal_action": True})
    assert all(np.array_equal(got[0][k], expected[0][k]) for k in expected[0])
    assert e.game.to_json() == before and e.prefix == []


@pytest.mark.parametrize("index", range(len(_not_tokens(0))))
def test_gymnasium_non_integer_actions_raise_with_nothing_played(index: int) -> None:
    e = CarcassonneEnv(Rules(), illegal_action="raise")
    obs, _ = e.reset(seed=5)
    bad = _not_tokens(_legal(obs["action_mask"]))[index]
    before = e.game.to_json()
    with pytest.raises(ActionSpaceError, match=rf"integer token .*\({type(bad).__name__}\)|numpy .* array") as info:
        e.step(bad)
    assert "nothing was played" in str(info.value)
    assert e.game.to_json() == before and e.prefix == []
    # None is not a token either.
    with pytest.raises(ActionSpaceError, match=r"None \(NoneType\)"):
        e.step(None)


def test_gymnasium_integer_tokens_of_every_integer_kind_play_as_int() -> None:
    """A Python int, numpy integer scalars and 0-d integer arrays (``model.predict``'s
    answer for one observation) are the same token."""
    ways = [int, np.int64, np.int32, np.uint16, np.uint64, lambda t: np.array(t), lambda t: np.array(t, dtype=np.uint32)]
    results = []
    for way in ways:
        e = CarcassonneEnv(Rules(), illegal_action="raise")
        obs, _ = e.reset(seed=8)
        for _ in range(6):
            obs, *_ = e.step(way(_legal(obs["action_mask"])))
        results.append(e.game.to_json())
    assert len(set(results)) == 1


def test_aec_non_integer_actions_raise_with_nothing_played() -> None:
    aec = CarcassonneAEC(Rules())
    aec.reset(seed=3)
    legal = _legal(aec.observe(aec.agent_selection)["action_mask"])
    before = aec.game.to_json()
    for bad in _not_tokens(legal):
        with pytest.raises(ActionSpaceError, match=r"player_0: an action must be an integer token"):
            aec.step(bad)
        assert aec.game.to_json() == before and aec.prefix == []
    aec.step(np.array(legal))  # a 0-d integer array is a token
    assert aec.prefix == [legal]


def test_aec_steps_after_the_game_and_before_reset_and_unknown_agents() -> None:
    aec = CarcassonneAEC(Rules())
    with pytest.raises(ActionSpaceError, match=r"before the first reset\(\): call reset\(\) first"):
        aec.step(0)
    with pytest.raises(ActionSpaceError, match=r"reset\(\) first"):
        aec.observe("player_0")
    with pytest.raises(ActionSpaceError, match=r"reset\(\) first"):
        aec.last()
    aec.reset(seed=6)
    for unknown in ("player_9", 0, None, ["player_0"], np.array(["player_0"])):
        with pytest.raises(ActionSpaceError, match=r"unknown agent .*the agents are player_0, player_1"):
            aec.observe(unknown)  # type: ignore[arg-type]
    rng = np.random.default_rng(6)
    for agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            with pytest.raises(ActionSpaceError, match=rf"{agent} is done: its only action is None"):
                aec.step(0)
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert aec.agents == [] and aec.game.is_over
    for action in (0, None):
        with pytest.raises(ActionSpaceError, match=r"the game is over and every agent is done: call reset\(\) first"):
            aec.step(action)
    aec.reset(seed=6)
    assert aec.agents == aec.possible_agents


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(shaping=float("nan")), "shaping must be a finite number, got nan"),
        (dict(shaping=float("inf")), "shaping must be a finite number, got inf"),
        (dict(shaping=-float("inf")), "shaping must be a finite number, got -inf"),
        (dict(shaping="x"), "shaping must be a finite number, got 'x'"),
        (dict(shaping=True), r"shaping must be a finite number, got True \(bool\)"),
        (dict(shaping=10**400), "shaping must be a finite number, got an integer of 1329 bits"),
        (dict(shaping=None), "shaping must be a finite number, got None"),
        (dict(agent_seat=1.0), r"agent_seat must be an integer, got 1.0 \(float\)"),
        (dict(agent_seat=True), r"agent_seat must be an integer, got True \(bool\)"),
        (dict(agent_seat="1"), "agent_seat must be an integer, got '1'"),
        (dict(opponents=3), r'opponents must be "random", "greedy" or "learned", got 3 \(int\)'),
        (dict(opponents=np.array(["random"])), "opponents must be .*numpy <U6 array"),
        (dict(window=25.0), r"window must be an integer or None, got 25.0 \(float\)"),
        (dict(window=True), "window must be an integer or None, got True"),
        (dict(rules="base"), r"rules must be a carcassonne.Rules or None, got 'base' \(str\)"),
    ],
)
@pytest.mark.parametrize("adapter", ["gymnasium", "vector"])
def test_adapter_constructors_refuse_wrong_types(kwargs: dict[str, object], message: str, adapter: str) -> None:
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    kwargs = dict(kwargs)
    rules = kwargs.pop("rules", Rules())
    with pytest.raises(ActionSpaceError, match=message):
        if adapter == "gymnasium":
            CarcassonneEnv(rules, **kwargs)  # type: ignore[arg-type]
        else:
            CarcassonneVectorEnv(rules, 2, threads=1, **kwargs)  # type: ignore[arg-type]


def test_other_adapter_arguments_of_wrong_types() -> None:
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    with pytest.raises(ActionSpaceError, match=r'illegal_action must be "lose" or "raise", got'):
        CarcassonneEnv(Rules(), illegal_action=np.array(["raise"]))  # type: ignore[arg-type]
    for bad in (2.0, True, "2"):
        with pytest.raises(ActionSpaceError, match="num_envs must be an integer"):
            CarcassonneVectorEnv(Rules(), bad)  # type: ignore[arg-type]
        with pytest.raises(ActionSpaceError, match="threads must be an integer or None"):
            CarcassonneVectorEnv(Rules(), 2, threads=bad)  # type: ignore[arg-type]
    for window in (25.0, True, "25"):
        with pytest.raises(ActionSpaceError, match="window must be an integer or None"):
            CarcassonneAEC(Rules(), window=window)  # type: ignore[arg-type]
    with pytest.raises(ActionSpaceError, match="rules must be a carcassonne.Rules or None"):
        CarcassonneAEC("base")  # type: ignore[arg-type]
    e, aec = CarcassonneEnv(Rules()), CarcassonneAEC(Rules())
    for seed in (1.5, "1", True, -1, [1]):
        with pytest.raises(ActionSpaceError, match="seed must be"):
            e.reset(seed=seed)  # type: ignore[arg-type]
        with pytest.raises(ActionSpaceError, match="seed must be"):
            aec.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ActionSpaceError, match="seed must be"):
        aec.reset(seed=2**64)
    # numpy integers are integers.
    e2 = CarcassonneEnv(Rules(), agent_seat=np.int64(1), window=np.int32(25), shaping=np.float32(0.5))  # type: ignore[arg-type]
    assert (e2.agent_seat, e2.space.window, e2.shaping) == (1, 25, 0.5)
    e2.reset(seed=np.uint64(3))  # type: ignore[arg-type]


def test_the_gymnasium_action_masks_are_the_space_masks() -> None:
    e = CarcassonneEnv(Rules(tile_sets=["base", "ferries"]), agent_seat=1)
    obs, _ = e.reset(seed=2)
    rng = np.random.default_rng(2)
    mid_action = 0
    while True:
        masks = e.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (e.action_space.n,)
        assert np.array_equal(masks, e.space.mask(e.game, e.prefix))
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        mid_action += bool(e.prefix)
        obs, _, terminated, truncated, _ = e.step(int(rng.choice(np.flatnonzero(masks))))
        if terminated or truncated:
            break
    assert mid_action > 10  # masks with a prefix were checked
    assert e.game.is_over and not e.action_masks().any()
    assert e.action_masks().shape == (e.space.size,)


def test_the_vector_action_masks_are_the_last_masks_copied() -> None:
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    venv = CarcassonneVectorEnv(Rules(), 3, threads=1)
    with pytest.raises(ActionSpaceError, match=r"reset\(\) first"):
        venv.action_masks()
    obs, _ = venv.reset(seed=4)
    for _ in range(20):
        masks = venv.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (3, venv.single_action_space.n)
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        masks[:] = False  # a copy: the environment's mask is untouched
        masks = venv.action_masks()
        assert masks.flags.writeable and masks.any(axis=1).all()
        obs, *_ = venv.step(masks.argmax(axis=1))
    before = venv.action_masks()
    with pytest.raises(ActionSpaceError):
        venv.step(np.zeros(3, dtype=np.float64))
    assert np.array_equal(venv.action_masks(), before)


def test_the_vector_environment_refuses_non_integer_actions() -> None:
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    venv, twin = CarcassonneVectorEnv(Rules(), 2, threads=1), CarcassonneVectorEnv(Rules(), 2, threads=1)
    obs, _ = venv.reset(seed=7)
    twin.reset(seed=7)
    legal = [_legal(m) for m in obs["action_mask"]]
    refused: list[tuple[object, str]] = [
        ([float(t) for t in legal], r"environment 0: the action is not an integer token .*\(float\)"),
        ([legal[0], True], r"environment 1: .*True \(bool\)"),
        ([legal[0], np.bool_(True)], r"environment 1: .*\(bool\)"),
        ([str(t) for t in legal], r"environment 0: .*\(str\)"),
        ([legal[0], None], r"environment 1: .*None"),
        ([legal[0], [legal[1]]], r"environment 1: .*\(list\)"),
        (tuple(legal[:1]), "outside|2 integers|2 values"),
        ({0: legal[0], 1: legal[1]}, r"actions must be a numpy integer array of shape \(2,\) or a list of 2 integer tokens, got .*\(dict\)"),
        ("ab", r"\(str\)"),
        (None, "NoneType"),
        (np.array(legal, dtype=np.float64), "float64"),
        (np.array(legal, dtype=object), "object"),
        (np.array([True, True]), "bool"),
        (np.array(legal[0]), r"shape \(\)"),
        (np.array([legal]), r"shape \(1, 2\)"),
        (np.array(legal + [0]), r"shape \(3,\)"),
    ]
    for actions, message in refused:
        with pytest.raises(ActionSpaceError, match=message):
            venv.step(actions)
    # Nothing was stepped: the same game as the twin's, which played the same tokens.
    ways = [lambda t: (np.int64(t[0]), np.array(t[1])), list, lambda t: np.array(t, dtype=np.uint16)]
    for way in ways:
        got = venv.step(way(legal))
        expected = twin.step(np.array(legal))
        assert all(np.array_equal(got[0][k], expected[0][k]) for k in expected[0])
        assert np.array_equal(got[1], expected[1])
        legal = [_legal(m) for m in got[0]["action_mask"]]


def test_vector_reset_seeds_of_wrong_types() -> None:
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    venv = CarcassonneVectorEnv(Rules(), 4, threads=1)
    for seed in ("1", 1.5, True, (1, 2, 3, 4), np.array([1, 2, 3, 4])):
        with pytest.raises(ActionSpaceError, match=r"seed must be None, an integer or a list of 4 integers"):
            venv.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ActionSpaceError, match="seed"):
        venv.reset(seed=-1)


def _trajectory(venv: object, seed: object, steps: int = 30) -> list[np.ndarray]:
    """The observations (copied) of ``steps`` steps after ``reset(seed=seed)``, each game
    playing its first legal token."""
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    assert isinstance(venv, CarcassonneVectorEnv)
    obs, _ = venv.reset(seed=seed)  # type: ignore[arg-type]
    seen = [np.concatenate([obs["board"].reshape(venv.num_envs, -1), obs["action_mask"]], axis=1).copy()]
    for _ in range(steps):
        obs, *_ = venv.step(obs["action_mask"].argmax(axis=1))
        seen.append(np.concatenate([obs["board"].reshape(venv.num_envs, -1), obs["action_mask"]], axis=1).copy())
    return seen


# The three tests below wait on the core change of VectorEnv.reset(seed) to an int or a
# sequence of num_envs ints (game e then plays episodes e, e + n, ... of study seed[e]).


def test_vector_reset_seed_list_of_the_wrong_length_is_refused() -> None:
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    venv = CarcassonneVectorEnv(Rules(), 4, threads=1)
    for seed in ([], [1, 2, 3], [1, 2, 3, 4, 5]):
        with pytest.raises(ActionSpaceError, match=rf"{len(seed)}.*4|4.*{len(seed)}"):
            venv.reset(seed=seed)
    for seed in ([1, 2, 3, "4"], [1, 2, 3, 4.0], [1, 2, 3, None], [1, 2, 3, -1]):
        with pytest.raises(ActionSpaceError, match="seed"):
            venv.reset(seed=seed)  # type: ignore[arg-type]


def test_vector_reset_with_a_list_of_one_seed_is_that_seed() -> None:
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    venv = CarcassonneVectorEnv(Rules(), 4, threads=1)
    one = _trajectory(venv, 11)
    listed = _trajectory(venv, [11] * 4)
    assert all(np.array_equal(a, b) for a, b in zip(one, listed))


def test_vector_reset_with_different_seeds_plays_each_games_study() -> None:
    from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv

    venv = CarcassonneVectorEnv(Rules(), 3, threads=1)
    seeds = [21, 22, 23]
    mixed = _trajectory(venv, seeds)
    assert all(np.array_equal(a, b) for a, b in zip(mixed, _trajectory(venv, seeds)))  # repeatable
    # Game e is game e of study seeds[e]: the same as with seed=seeds[e] alone.
    for e, seed in enumerate(seeds):
        alone = _trajectory(venv, seed)
        assert all(np.array_equal(a[e], b[e]) for a, b in zip(mixed, alone))
    # And not the games of one study: the games differ from seed=21's but for game 0.
    first = _trajectory(venv, 21)
    assert not all(np.array_equal(a[1:], b[1:]) for a, b in zip(mixed, first))
