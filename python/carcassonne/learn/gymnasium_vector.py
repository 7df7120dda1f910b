"""``VectorEnv`` as a Gymnasium vector environment for one seat against built-in opponents.

The games are stepped in Rust (``carcassonne.VectorEnv``); this class gives them
Gymnasium's vector interface: ``single_observation_space`` ``{"board", "vector",
"action_mask"}`` (the mask int8, a view of the core's bools), ``single_action_space``
``Discrete(tokens)``, rewards of the agent's seat, and ``metadata["autoreset_mode"]`` =
``AutoresetMode.SAME_STEP``: a finished game's next episode starts in the step that ended
it. Unlike Gymnasium's own vector environments, ``info`` carries no ``final_obs`` (a
finished game has no decision left to observe); it carries ``final_scores``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from carcassonne._core import Rules, VectorEnv
from carcassonne.learn.shared import mask_space, observation_parts

Observation = dict[str, np.ndarray]


class CarcassonneVectorEnv(GymVectorEnv):
    """``num_envs`` games of ``rules``, the agent at ``agent_seat``, the other seats played
    by ``opponents`` ("random" or "greedy"); ``shaping``, ``window`` and ``threads`` as for
    ``carcassonne.VectorEnv``."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        rules: Rules | None = None,
        num_envs: int = 8,
        *,
        opponents: str = "random",
        agent_seat: int = 0,
        shaping: float = 0.0,
        window: int | None = None,
        threads: int | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.env = VectorEnv(
            self.rules,
            num_envs,
            opponents=opponents,
            agent_seat=agent_seat,
            shaping=shaping,
            window=window,
            threads=threads,
        )
        self.agent_seat = agent_seat
        self.num_envs = num_envs
        space = self.env.action_space
        self.single_observation_space = spaces.Dict(
            {**observation_parts(self.env.observation_space), "action_mask": mask_space(space)}
        )
        self.single_action_space = spaces.Discrete(space.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _agent(self, obs: dict[str, np.ndarray]) -> Observation:
        return {"board": obs["board"], "vector": obs["vector"], "action_mask": obs["action_mask"].view(np.int8)}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0]
        obs, info = self.env.reset(seed)
        return self._agent(obs), dict(info)

    def step(self, actions: Any) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, rewards, terminated, truncated, info = self.env.step(np.asarray(actions))
        return self._agent(obs), rewards[:, self.agent_seat], terminated, truncated, dict(info)
