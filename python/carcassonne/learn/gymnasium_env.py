"""A Gymnasium environment for one seat against built-in opponents.

The agent plays seat ``agent_seat``; the ``opponents`` ("random", "greedy" or "learned")
play the others inside ``step`` and ``reset``. An action is one token of the rules'
``ActionSpace``; observations are ``{"board", "vector", "action_mask"}`` from the agent's
seat (the mask int8, as Gymnasium's masked sampling takes it). The reward is the outcome
when the game ends (1 sole winner, 0 tied, -1 otherwise) plus ``shaping`` times the change
in the agent's virtual margin (its virtual score less the best other player's) at each
step. A game that outgrows the board window is truncated. ``reset(seed=s)`` seeds the
environment's generator (Gymnasium's convention), from which every game and every
opponent choice is drawn.

An action must be an integer token, an integer by Python's protocol (``__index__``): a
Python int, a numpy integer scalar, or a 0-d integer array or tensor (what
``model.predict`` of an RL library returns for one observation); ``bool`` and numpy bools
are not tokens. Nothing else is converted: a float (even an
integral one such as 3.0), NaN, a string, bytes, None, a list or an array of another
shape or dtype is not a token, never truncated or parsed into one. A non-token, or a
token the mask does not allow, ends the episode with reward -1 and
``info["illegal_action"] = True`` (``illegal_action="raise"``: ActionSpaceError naming the
value, and its type for a non-token, with nothing played).

``action_masks()`` gives the mask of the current decision as numpy bools (sb3-contrib's
``MaskablePPO`` convention): the tokens that continue the action under way, all False once
the game is over. Constructor arguments of the wrong type or out of range (``shaping``
not a finite real number, ``agent_seat`` not an integer seat, ``opponents`` not one of
the names, ``window`` not an integer or None) raise ActionSpaceError naming the argument.
"""

from __future__ import annotations

from typing import Any, Literal, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from carcassonne._core import (
    ActionSpace,
    ActionSpaceError,
    Game,
    ObservationSpace,
    Rules,
    WindowOverflowError,
)
from carcassonne.learn.shared import (
    as_token,
    describe,
    describe_token,
    finite_arg,
    integer_arg,
    mask_space,
    observation_parts,
    optional_integer_arg,
    outcome,
    rules_arg,
    str_arg,
)

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
        self.rules = rules_arg(rules)
        self.opponents = str_arg("opponents", opponents, ("random", "greedy", "learned"))
        seat = integer_arg("agent_seat", agent_seat)
        if not 0 <= seat < self.rules.players:
            raise ActionSpaceError(f"agent_seat {seat} is not a seat of a {self.rules.players}-player game")
        self.agent_seat = seat
        self.shaping = finite_arg("shaping", shaping)
        mode = str_arg("illegal_action", illegal_action, ("lose", "raise"))
        self.illegal_action: Literal["lose", "raise"] = "raise" if mode == "raise" else "lose"
        window = optional_integer_arg("window", window)
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

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The tokens allowed now, as ``space.size`` numpy bools (sb3-contrib's
        ``MaskablePPO`` convention): the mask of the current position with the prefix of
        the action under way (``space.mask(game, prefix)``), all False once the game is
        over or has outgrown the board window. A new array at each call."""
        if not self.game.is_over:
            try:
                return self.space.mask(self.game, self.prefix)
            except WindowOverflowError:
                pass
        return np.zeros(self.space.size, dtype=np.bool_)

    def _observation(self) -> Observation:
        """The agent's observation; raises WindowOverflowError for a game that has outgrown
        the window."""
        board, vector = self.observer.observe(self.game, prefix=self.prefix, viewer=self.agent_seat)
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not self.game.is_over:
            mask[:] = self.space.mask(self.game, self.prefix)
        return {"board": board, "vector": vector, "action_mask": mask}

    def _blank(self) -> Observation:
        """The observation of a game that has outgrown the window: zeros."""
        board = np.zeros(self.observer.board_shape, dtype=np.uint8)
        vector = np.zeros(self.observer.vector_size, dtype=np.float32)
        mask = np.zeros(self.space.size, dtype=np.int8)
        return {"board": board, "vector": vector, "action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Starts a new game (``seed`` seeds the episodes from here on), plays the
        opponents' turns up to the agent's, and returns ``(observation, info)``."""
        root = optional_integer_arg("seed", seed)
        if root is not None and root < 0:
            raise ActionSpaceError(f"seed must be None or an integer from 0, got {describe(seed)}")
        super().reset(seed=root)
        self.game = Game(self.rules, seed=self._draw())
        self.prefix = []
        self._play_opponents()
        self._margin = self._margin_now()
        return self._observation(), {}

    def _illegal(self, why: str) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """An illegal action: ActionSpaceError (``illegal_action="raise"``), else the episode
        lost."""
        if self.illegal_action == "raise":
            raise ActionSpaceError(f"{why}; nothing was played")
        try:
            obs = self._observation()
        except WindowOverflowError:
            obs = self._blank()
        return obs, -1.0, True, False, {"illegal_action": True}

    def step(self, action: object) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Plays the integer token ``action`` (see the module documentation)."""
        try:
            a = as_token(action)
        except ActionSpaceError as e:
            return self._illegal(str(e))
        if not (0 <= a < self.space.size and bool(self.action_masks()[a])):
            return self._illegal(f"action {describe_token(a, self.space.size)} is not legal now (its mask is 0 there)")
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
            return self._blank(), reward, False, True, {"window_overflow": True}


ENV_ID = "carcassonne/Carcassonne-v0"
"""The Gymnasium id: ``gymnasium.make(ENV_ID, rules=..., opponents=...)`` once this module
is imported."""

if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="carcassonne.learn.gymnasium_env:CarcassonneEnv", disable_env_checker=True)
