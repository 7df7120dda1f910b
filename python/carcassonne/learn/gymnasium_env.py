"""A Gymnasium environment for one seat against built-in opponents.

The agent plays seat ``agent_seat``; the ``opponents`` ("random" or "greedy") play the
others inside ``step`` and ``reset``. An action is one token of the rules'
``ActionSpace``; observations are ``{"board", "vector", "action_mask"}`` from the agent's
seat (the mask int8, as Gymnasium's masked sampling takes it). The reward is the outcome
when the game ends (1 sole winner, 0 tied, -1 otherwise) plus ``shaping`` times the change
in the agent's virtual margin (its virtual score less the best other player's) at each
step. A game that outgrows the board window is truncated. ``reset(seed=s)`` seeds the
environment's generator (Gymnasium's convention), from which every game and every
opponent choice is drawn. An action the mask does not allow ends the episode with reward
-1 and ``info["illegal_action"] = True`` (``illegal_action="raise"``: ActionSpaceError
instead, nothing played).
"""

from __future__ import annotations

from typing import Any, Literal, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from carcassonne._core import (
    ActionSpace,
    ActionSpaceError,
    Game,
    ObservationSpace,
    Rules,
    WindowOverflowError,
)
from carcassonne.learn.shared import mask_space, observation_parts, outcome

Observation = dict[str, np.ndarray]


class CarcassonneEnv(gym.Env[Observation, np.int64]):
    """See the module documentation."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        opponents: str = "random",
        agent_seat: int = 0,
        shaping: float = 0.0,
        window: int | None = None,
        illegal_action: Literal["lose", "raise"] = "lose",
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        if opponents not in ("random", "greedy"):
            raise ActionSpaceError(f'unknown opponents {opponents!r}: use "random" or "greedy"')
        if not 0 <= agent_seat < self.rules.players:
            raise ActionSpaceError(f"agent_seat {agent_seat} is not a seat of a {self.rules.players}-player game")
        if illegal_action not in ("lose", "raise"):
            raise ActionSpaceError(f'illegal_action must be "lose" or "raise", not {illegal_action!r}')
        self.opponents, self.agent_seat, self.shaping = opponents, agent_seat, float(shaping)
        self.illegal_action = illegal_action
        self.space = ActionSpace(self.rules, window)
        self.observer = ObservationSpace(self.rules, self.space)
        self.observation_space = cast(
            "spaces.Space[Observation]",
            spaces.Dict({**observation_parts(self.observer), "action_mask": mask_space(self.space)}),
        )
        self.action_space = spaces.Discrete(self.space.size)
        self.game = Game(self.rules)
        self.prefix: list[int] = []
        self._margin = 0

    def _draw(self) -> int:
        return int(self.np_random.integers(2**63))

    def _play_opponents(self) -> None:
        while not self.game.is_over and self.game.decider != self.agent_seat:
            self.game.apply(self.game.best_move(self.opponents, seed=self._draw()))

    def _margin_now(self) -> int:
        v = self.game.virtual_scores()
        others = [x for i, x in enumerate(v) if i != self.agent_seat]
        return v[self.agent_seat] - max(others, default=0)

    def _observation(self) -> Observation:
        board, vector = self.observer.observe(self.game, prefix=self.prefix, viewer=self.agent_seat)
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not self.game.is_over:
            mask[:] = self.space.mask(self.game, self.prefix)
        return {"board": board, "vector": vector, "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.game = Game(self.rules, seed=self._draw())
        self.prefix = []
        self._play_opponents()
        self._margin = self._margin_now()
        return self._observation(), {}

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        a = int(action)
        legal = (
            not self.game.is_over
            and 0 <= a < self.space.size
            and bool(self.space.mask(self.game, self.prefix)[a])
        )
        if not legal:
            if self.illegal_action == "raise":
                raise ActionSpaceError(f"action {a} is not legal now (its mask is 0 there); nothing was played")
            return self._observation(), -1.0, True, False, {"illegal_action": True}
        self.prefix.append(a)
        chosen = self.space.resolve(self.game, self.prefix)
        if chosen is not None:
            self.game.apply(chosen)
            self.prefix = []
            self._play_opponents()
        margin = self._margin_now()
        reward = self.shaping * (margin - self._margin)
        self._margin = margin
        terminated = self.game.is_over
        if terminated:
            reward += outcome(self.game.scores, self.agent_seat)
        try:
            return self._observation(), reward, terminated, False, {}
        except WindowOverflowError:
            board = np.zeros(self.observer.board_shape, dtype=np.uint8)
            vector = np.zeros(self.observer.vector_size, dtype=np.float32)
            mask = np.zeros(self.space.size, dtype=np.int8)
            return {"board": board, "vector": vector, "action_mask": mask}, reward, False, True, {"window_overflow": True}


ENV_ID = "carcassonne/Carcassonne-v0"
"""The Gymnasium id: ``gymnasium.make(ENV_ID, rules=..., opponents=...)`` once this module
is imported."""

if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="carcassonne.learn.gymnasium_env:CarcassonneEnv", disable_env_checker=True)
