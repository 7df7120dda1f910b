"""The board reaches a policy as the environment wrote it, under the conventions of the
standard RL libraries.

The board observation is channels first, ``(planes, y, x)``, as PyTorch's convolutions
take it, and the upper bound of its Gymnasium ``Box`` is each plane's largest value
(``ObservationSpace.plane_max``: 1 for the planes that mark, 9 for ``centre_value``, 255
for counts and points), not 255 throughout. That keeps it from being an 8-bit image by
the rule the libraries document: Stable-Baselines3's ``is_image_space`` (and Gymnasium's
environment checker before 0.29) take a 3-D ``Box`` for an image when its dtype is
``uint8`` and its bounds are 0 and 255 everywhere. Stable-Baselines3 then guesses the
channel axis as the smallest of the three and, with 48 planes over a 23-square window,
would take a side of the window for the channels: ``VecTransposeImage`` would hand the
policy (23, 48, 23) and ``preprocess_obs`` would divide by 255. As a plain ``Box`` the
planes reach the policy as they are.

The first tests need only Gymnasium and PettingZoo and run over every configuration of
``configs.py``. The Stable-Baselines3 tests run where ``torch`` and ``stable_baselines3``
(and for ``MaskablePPO`` ``sb3_contrib``) are installed, and are skipped elsewhere.
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env

from carcassonne import ObservationSpace, Rules
from carcassonne.learn.gymnasium_env import ENV_ID, CarcassonneEnv
from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv
from carcassonne.learn.pettingzoo_env import CarcassonneAEC

from configs import ALL_CONFIGS

NAMES = sorted(ALL_CONFIGS)


def is_8bit_image(box: spaces.Box) -> bool:
    """The libraries' documented rule for an 8-bit image (Stable-Baselines3's
    ``is_image_space``; Gymnasium's checker before 0.29): a 3-D ``Box`` of dtype ``uint8``
    whose lower bound is 0 and upper bound 255 everywhere."""
    return (
        len(box.shape) == 3
        and box.dtype == np.uint8
        and bool(np.all(box.low == 0))
        and bool(np.all(box.high == 255))
    )


def check_board_box(box: spaces.Space[Any], observer: ObservationSpace, window: int) -> None:
    """``box`` is the board of ``observer``'s observations over a ``window``-square window:
    planes first, each plane bounded by its own largest value, no 8-bit image."""
    assert isinstance(box, spaces.Box)
    planes = observer.planes
    assert box.shape == observer.board_shape == (len(planes), window, window)
    assert box.dtype == np.uint8
    assert (box.low == 0).all()
    assert len(observer.plane_max) == len(planes)
    for k, (name, top) in enumerate(zip(planes, observer.plane_max)):
        assert (box.high[k] == top).all(), f"plane {k} ({name}): bound {box.high[k].max()}, plane_max {top}"
    assert not is_8bit_image(box)
    # Every configuration has planes that mark (bound 1): never all 255.
    assert min(observer.plane_max) == 1


def check_tile_plane(board: np.ndarray, env: CarcassonneEnv) -> None:
    """The plane ``tile`` of ``board`` marks at ``[y, x]`` (from the window's top-left
    square) exactly the squares of the placed tiles: the planes are neither shuffled nor
    transposed. On the open grid, where every tile lies in the window."""
    k = env.observer.planes.index("tile")
    ox, oy = env.space.origin(env.game)
    placed = {(t.x - ox, t.y - oy) for t in env.game.board}
    marked = {(int(x), int(y)) for y, x in zip(*np.nonzero(board[k]))}
    assert marked == placed


def _random_token(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# Without Stable-Baselines3: the spaces, and what the environments return.


@pytest.mark.parametrize("name", NAMES)
def test_the_board_space_is_channels_first_with_each_planes_bound(name: str) -> None:
    rules = Rules(**ALL_CONFIGS[name])
    env = CarcassonneEnv(rules)
    window = env.space.window
    check_board_box(env.observation_space["board"], env.observer, window)
    aec = CarcassonneAEC(rules)
    for agent in aec.possible_agents:
        check_board_box(aec.observation_space(agent)["observation"]["board"], aec.observer, window)
    venv = CarcassonneVectorEnv(rules, 2, threads=1)
    check_board_box(venv.single_observation_space["board"], venv.env.observation_space, window)
    batched = venv.observation_space["board"]
    assert isinstance(batched, spaces.Box)
    assert batched.shape == (2, *env.observer.board_shape)
    assert (batched.high == env.observation_space["board"].high[None]).all()


@pytest.mark.parametrize("name", NAMES)
def test_gymnasium_observations_lie_within_the_space(name: str) -> None:
    env = CarcassonneEnv(Rules(**ALL_CONFIGS[name]), opponents="random")
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=1)
    grid = "map" not in ALL_CONFIGS[name]
    for step in range(160):
        assert env.observation_space.contains(obs), f"step {step}"
        if grid and env.prefix == []:
            check_tile_plane(obs["board"], env)
        obs, _, terminated, truncated, _ = env.step(_random_token(env.action_masks(), rng))
        if terminated or truncated:
            assert env.observation_space.contains(obs)
            obs, _ = env.reset()


@pytest.mark.parametrize("name", NAMES)
def test_pettingzoo_observations_lie_within_the_space(name: str) -> None:
    aec = CarcassonneAEC(Rules(**ALL_CONFIGS[name]))
    aec.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in aec.agent_iter(200):
        obs, _, terminated, truncated, _ = aec.last()
        assert aec.observation_space(agent).contains(obs), agent
        for other in aec.agents:
            assert aec.observation_space(other).contains(aec.observe(other)), other
        aec.step(None if terminated or truncated else _random_token(obs["action_mask"], rng))


@pytest.mark.parametrize("name", NAMES)
def test_vector_observations_lie_within_the_space(name: str) -> None:
    venv = CarcassonneVectorEnv(Rules(**ALL_CONFIGS[name]), 3, opponents="random", threads=1)
    single = venv.single_observation_space
    obs, _ = venv.reset(seed=[3, 4, 5])
    rng = np.random.default_rng(3)
    for step in range(60):
        assert venv.observation_space.contains(obs), f"step {step}"
        for e in range(3):
            assert single.contains({k: v[e] for k, v in obs.items()}), f"step {step}, game {e}"
        masks = venv.action_masks()
        obs, *_ = venv.step(np.array([_random_token(m, rng) for m in masks], dtype=np.int64))


@pytest.mark.parametrize("name", NAMES)
def test_gymnasium_env_checker_passes_without_a_warning(name: str) -> None:
    # Through gymnasium.make, so that the checker has a spec to test the render modes with
    # (without one it warns that it cannot); the environment it checks is the
    # CarcassonneEnv itself.
    env = gym.make(ENV_ID, rules=Rules(**ALL_CONFIGS[name])).unwrapped
    assert isinstance(env, CarcassonneEnv)
    # Gymnasium's checker warned, up to 0.28, that a 3-D Box "seems an image" whose bounds
    # are not [0, 255]. The bounds are deliberate (see the module documentation: with
    # 0 to 255 throughout, Stable-Baselines3 would transpose the planes), and the project
    # requires Gymnasium 1.0 or later, whose checker no longer says so: no warning at all
    # is expected, that one included.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert not caught, [str(w.message) for w in caught]


# With Stable-Baselines3 (skipped where it is not installed).

# Third-party deprecation notices (torch, Stable-Baselines3 against newer numpy or
# Gymnasium) are not what these tests check.
sb3_noise = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")


def _sb3() -> None:
    pytest.importorskip("torch")
    pytest.importorskip("stable_baselines3")


def _recording_extractor() -> type[Any]:
    """A features extractor that keeps a copy of every observation tensor it is given
    (in ``seen``, a list handed in through ``features_extractor_kwargs``)."""
    import torch as th
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    class Recording(BaseFeaturesExtractor):  # type: ignore[misc]
        def __init__(self, observation_space: spaces.Dict, seen: list[dict[str, Any]]) -> None:
            super().__init__(observation_space, features_dim=8)
            self.seen = seen
            self.linear = th.nn.Linear(observation_space["vector"].shape[0], 8)

        def forward(self, observations: dict[str, Any]) -> Any:
            self.seen.append({k: v.detach().clone() for k, v in observations.items()})
            return self.linear(observations["vector"])

    return Recording


@sb3_noise
@pytest.mark.parametrize("name", NAMES)
def test_sb3_does_not_take_the_board_for_an_image(name: str) -> None:
    _sb3()
    from stable_baselines3.common.preprocessing import is_image_space

    box = CarcassonneEnv(Rules(**ALL_CONFIGS[name])).observation_space["board"]
    assert not is_image_space(box)
    assert not is_image_space(box, check_channels=True)


@sb3_noise
def test_sb3_would_transpose_the_same_board_bounded_0_to_255() -> None:
    """Why the bounds are per plane: the base game's board as a 0-to-255 Box is an image to
    Stable-Baselines3, whose channel guess (the smallest axis) picks a side of the window,
    so it would reach the policy as (23, 48, 23)."""
    _sb3()
    from stable_baselines3.common.preprocessing import is_image_space, is_image_space_channels_first
    from stable_baselines3.common.vec_env import VecTransposeImage

    planes, h, w = CarcassonneEnv(Rules()).observer.board_shape
    assert (planes, h, w) == (48, 23, 23)
    full = spaces.Box(0, 255, (planes, h, w), dtype=np.uint8)
    assert is_image_space(full)
    with pytest.warns(UserWarning, match="channels-last"):
        assert not is_image_space_channels_first(full)
    with pytest.warns(UserWarning, match="channels-last"):
        assert VecTransposeImage.transpose_space(full).shape == (w, planes, h)


@sb3_noise
def test_sb3_wraps_no_transpose_and_flattens_the_board_as_a_plain_box() -> None:
    _sb3()
    import torch as th
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecTransposeImage, is_vecenv_wrapped

    env = CarcassonneEnv(Rules())
    model = PPO("MultiInputPolicy", env, n_steps=64, batch_size=64, seed=0, device="cpu")
    assert not is_vecenv_wrapped(model.get_env(), VecTransposeImage)
    board = model.observation_space["board"]
    assert board.shape == env.observer.board_shape
    assert (board.high == env.observation_space["board"].high).all()
    # The default CombinedExtractor: a plain box is flattened, not given to NatureCNN.
    assert isinstance(model.policy.features_extractor.extractors["board"], th.nn.Flatten)


@sb3_noise
def test_a_custom_extractor_receives_the_planes_bit_for_bit() -> None:
    _sb3()
    import torch as th
    from stable_baselines3 import PPO
    from stable_baselines3.common.preprocessing import preprocess_obs
    from stable_baselines3.common.vec_env import DummyVecEnv

    rules = Rules()
    envs = [CarcassonneEnv(rules, opponents="random") for _ in range(2)]
    venv = DummyVecEnv([lambda e=e: e for e in envs])
    model = PPO(
        "MultiInputPolicy",
        venv,
        n_steps=32,
        batch_size=64,
        seed=0,
        device="cpu",
        policy_kwargs=dict(features_extractor_class=_recording_extractor(), features_extractor_kwargs=dict(seen=[])),
    )
    seen: list[dict[str, Any]] = model.policy.features_extractor.seen
    planes, h, w = envs[0].observer.board_shape
    venv.seed(7)
    obs = venv.reset()
    rng = np.random.default_rng(7)
    for _ in range(40):
        seen.clear()
        model.predict(obs)
        assert seen, "the extractor was not called"
        got = seen[-1]["board"]
        assert got.shape == (2, planes, h, w) and got.dtype == th.float32
        want = th.from_numpy(np.array(obs["board"], dtype=np.float32))
        assert th.equal(got, want)  # neither transposed nor divided by 255
        direct = preprocess_obs({k: th.from_numpy(np.array(v)) for k, v in obs.items()}, model.observation_space)
        assert th.equal(direct["board"], want)
        for e, env in enumerate(envs):
            if env.prefix == []:
                check_tile_plane(got[e].numpy().astype(np.uint8), env)
        masks = np.stack(venv.env_method("action_masks"))
        obs, *_ = venv.step(np.array([_random_token(m, rng) for m in masks]))
    # Training reads the same planes back from the rollout buffer.
    seen.clear()
    model.learn(total_timesteps=64)
    boards = [s["board"] for s in seen]
    assert boards and all(b.shape[1:] == (planes, h, w) for b in boards)
    high = th.from_numpy(envs[0].observation_space["board"].high.astype(np.float32))
    assert all(((b >= 0) & (b <= high) & (b == b.round())).all() for b in boards)


@sb3_noise
def test_maskable_ppo_reads_the_action_masks() -> None:
    _sb3()
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    # illegal_action="raise": a token the mask does not allow would raise ActionSpaceError
    # out of learn().
    env = CarcassonneEnv(Rules(), opponents="random", illegal_action="raise")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    obs, _ = env.reset(seed=11)
    for _ in range(300):
        action, _ = model.predict(obs, action_masks=env.action_masks())
        assert env.action_masks()[int(action)]
        obs, _, terminated, truncated, info = env.step(action)  # a 0-d integer array: a token
        assert not info.get("illegal_action")
        if terminated or truncated:
            obs, _ = env.reset()
