"""``VectorEnv`` as a Gymnasium vector environment for one seat against built-in opponents.

The games are stepped in Rust (``carcassonne.VectorEnv``); this class gives them
Gymnasium's vector interface: ``single_observation_space`` ``{"board", "vector",
"action_mask"}`` (the mask int8, a view of the core's bools), ``single_action_space``
``Discrete(tokens)``, rewards of the agent's seat, and ``metadata["autoreset_mode"]`` =
``AutoresetMode.SAME_STEP``: a finished game's next episode starts in the step that ended
it. Unlike Gymnasium's own vector environments, ``info`` carries no ``final_obs`` (a
finished game has no decision left to observe); it carries ``final_scores``.

``step(actions)`` takes one integer token per game: a numpy integer array of shape
``(num_envs,)``, or a list or tuple of ``num_envs`` tokens each as
``CarcassonneEnv.step`` takes one (an integer by Python's protocol: a Python int, a numpy
integer scalar, a 0-d integer array; not a bool, a float or a string). Anything else, or a token its game's mask
does not allow, raises ActionSpaceError with nothing stepped (this vector environment has
no "lose" mode). ``reset(seed=...)`` takes Gymnasium's seeds: None, an integer (game e
plays episodes e, e + n, e + 2n, ... of that study), or a list of ``num_envs`` integers
(game e plays episodes e, e + n, ... of study ``seed[e]``; ``[s] * num_envs`` is the same
as ``s``), handed to the core ``VectorEnv.reset``, which refuses a list of another length
or with a non-integer. ``action_masks()`` gives the ``(num_envs, size)`` bool mask of the
last step or reset (a copy). Constructor arguments of the wrong type raise
ActionSpaceError naming the argument.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from carcassonne._core import ActionSpaceError, Rules, VectorEnv
from carcassonne.learn.shared import (
    TOKEN_KINDS,
    as_token,
    describe,
    finite_arg,
    integer_arg,
    mask_space,
    observation_parts,
    optional_integer_arg,
    rules_arg,
)

Observation = dict[str, np.ndarray]


class CarcassonneVectorEnv(GymVectorEnv):
    """``num_envs`` games of ``rules``, the agent at ``agent_seat``, the other seats played
    by ``opponents`` ("random", "greedy" or "learned"); ``shaping``, ``window`` and ``threads`` as for
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
        self.rules = rules_arg(rules)
        n = integer_arg("num_envs", num_envs)
        if not isinstance(opponents, str):
            raise ActionSpaceError(f'opponents must be "random", "greedy" or "learned", got {describe(opponents)}')
        seat = integer_arg("agent_seat", agent_seat)
        self.env = VectorEnv(
            self.rules,
            n,
            opponents=opponents,
            agent_seat=seat,
            shaping=finite_arg("shaping", shaping),
            window=optional_integer_arg("window", window),
            threads=optional_integer_arg("threads", threads),
        )
        self.agent_seat = seat
        self.num_envs = n
        self._mask: npt.NDArray[np.bool_] | None = None
        space = self.env.action_space
        self.single_observation_space = spaces.Dict(
            {**observation_parts(self.env.observation_space), "action_mask": mask_space(space)}
        )
        self.single_action_space = spaces.Discrete(space.size)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)

    def _agent(self, obs: dict[str, np.ndarray]) -> Observation:
        self._mask = obs["action_mask"]
        return {"board": obs["board"], "vector": obs["vector"], "action_mask": obs["action_mask"].view(np.int8)}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The ``(num_envs, size)`` bool mask of the last ``step`` or ``reset``: a copy,
        yours to keep (the observation's ``action_mask`` is the environment's own read-only
        array, rewritten by the next step). Raises ActionSpaceError before the first
        ``reset``."""
        if self._mask is None:
            raise ActionSpaceError("no mask before the first reset(): call reset() first")
        return np.array(self._mask, dtype=np.bool_, copy=True)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Starts every game again (see the module documentation for ``seed``)."""
        if isinstance(seed, list):
            # The core checks the length and every entry.
            obs, info = self.env.reset(cast(Any, seed))
        elif seed is None or (isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_))):
            obs, info = self.env.reset(seed)
        else:
            raise ActionSpaceError(
                f"seed must be None, an integer or a list of {self.num_envs} integers, got {describe(seed)}"
            )
        return self._agent(obs), dict(info)

    def _actions(self, actions: object) -> npt.NDArray[Any] | list[int]:
        """``actions`` for the core: a numpy array as given (the core checks its dtype and
        shape), a list or tuple as checked Python ints."""
        if isinstance(actions, np.ndarray):
            return actions
        if isinstance(actions, (list, tuple)):
            tokens: list[int] = []
            for e, action in enumerate(actions):
                try:
                    tokens.append(as_token(action))
                except ActionSpaceError:
                    raise ActionSpaceError(
                        f"environment {e}: the action is not an integer token ({TOKEN_KINDS}): "
                        f"{describe(action)}; nothing was stepped"
                    ) from None
            return tokens
        raise ActionSpaceError(
            f"actions must be a numpy integer array of shape ({self.num_envs},) or a list of "
            f"{self.num_envs} integer tokens, got {describe(actions)}; nothing was stepped"
        )

    def step(self, actions: Any) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Plays one token per game (see the module documentation)."""
        obs, rewards, terminated, truncated, info = self.env.step(self._actions(actions))
        return self._agent(obs), rewards[:, self.agent_seat], terminated, truncated, dict(info)
