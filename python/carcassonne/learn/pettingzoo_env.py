"""A PettingZoo AEC environment: every seat of a game is an agent.

Each agent's observation is ``{"observation": {"board", "vector"}, "action_mask"}`` from
its own seat (``ObservationSpace.observe(viewer=...)``); the mask is all zeros but for the
agent to act. An action is one token of the rules' ``ActionSpace``: a placement is two or
more steps of the same agent (its square and rotation, then its meeple, ...), so the same
agent may be selected several times in a row. When the game ends every agent gets its
outcome (1 to a sole winner, 0 to tied winners, -1 to the others) and is terminated; a
game that outgrows the board window truncates every agent. ``reset(seed=s)`` plays game 0
of study ``s``, and the following resets games 1, 2, ... of it; without any seed the
study is drawn at random.

An action must be an integer token, an integer by Python's protocol (``__index__``): a
Python int, a numpy integer scalar, or a 0-d integer array or tensor (what
``model.predict`` of an RL library returns for one observation); ``bool`` and numpy bools
are not tokens. Anything else (a float, even an integral one
such as 3.0, a string, bytes, a list, an array of another shape or dtype) raises
ActionSpaceError naming the value and its type, as does a token the mask does not allow;
nothing is played. None is the action of an agent that is done (PettingZoo's
convention), and only of one. Stepping before ``reset()``, or once the game is over and
every agent is done, raises ActionSpaceError (reset first), as do ``observe`` of an
agent the game does not have and constructor arguments of the wrong type (``rules``
not a ``Rules``, ``window`` not an integer or None).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

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
    mask_space,
    observation_parts,
    optional_integer_arg,
    outcome,
    rules_arg,
)

Observation = dict[str, Any]


class CarcassonneAEC(AECEnv):  # type: ignore[misc]
    """See the module documentation. ``rules``: default the base game for two players;
    ``window``: the board window (default the action space's)."""

    metadata = {"name": "carcassonne_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, rules: Rules | None = None, *, window: int | None = None) -> None:
        super().__init__()
        self.rules = rules_arg(rules)
        self.space = ActionSpace(self.rules, optional_integer_arg("window", window))
        self.observer = ObservationSpace(self.rules, self.space)
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self._observation_space = spaces.Dict(
            {"observation": spaces.Dict(observation_parts(self.observer)), "action_mask": mask_space(self.space)}
        )
        self._action_space = spaces.Discrete(self.space.size)
        self._study: int | None = None
        self._episode = 0
        self.game = Game(self.rules)
        self.prefix: list[int] = []
        # Until the first reset: no agents, and step or observe say to reset first.
        self._started = False
        self.agents: list[str] = []
        self.agent_selection = self.possible_agents[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's observation space: the observation parts and the action mask."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Every agent's action space: the tokens of ``ActionSpace``."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts the next game: episode 0 of study ``seed`` when given, else the next
        episode of the current study (a random one before any seed)."""
        root = optional_integer_arg("seed", seed)
        if root is not None and not 0 <= root < 2**64:
            raise ActionSpaceError(f"seed must be None or an integer from 0 to 2**64 - 1, got {describe(seed)}")
        if root is not None:
            self._study, self._episode = root, 0
        elif self._study is None:
            self._study = int(np.random.SeedSequence().entropy % 2**63)  # type: ignore[operator]
        self.game = Game(self.rules, seed=self._study, game_index=self._episode)
        self._episode += 1
        self.prefix = []
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.decider]
        self._started = True

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _check_started(self, what: str) -> None:
        if not self._started:
            raise ActionSpaceError(f"{what} before the first reset(): call reset() first")

    def observe(self, agent: str) -> Observation:
        """``agent``'s observation (its own seat's view; the mask all zeros unless it is to
        act). Raises ActionSpaceError for an agent this game does not have, or before
        ``reset()``."""
        if not isinstance(agent, str) or agent not in self.possible_agents:
            names = ", ".join(self.possible_agents)
            raise ActionSpaceError(f"unknown agent {describe(agent)}: the agents are {names}")
        self._check_started("observe")
        seat = self._seat(agent)
        mask = np.zeros(self.space.size, dtype=np.int8)
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        try:
            board, vector = self.observer.observe(self.game, prefix=self.prefix, viewer=seat)
            if not done and agent == self.agent_selection:
                mask[:] = self.space.mask(self.game, self.prefix)
        except WindowOverflowError:
            board = np.zeros(self.observer.board_shape, dtype=np.uint8)
            vector = np.zeros(self.observer.vector_size, dtype=np.float32)
        return {"observation": {"board": board, "vector": vector}, "action_mask": mask}

    def step(self, action: object) -> None:
        """Plays the integer token ``action`` for ``agent_selection``, or None for a done
        agent (see the module documentation)."""
        self._check_started("step")
        if not self.agents:
            raise ActionSpaceError("the game is over and every agent is done: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ActionSpaceError(f"{agent} is done: its only action is None, not {describe(action)}")
            self._was_dead_step(action)
            return
        if action is None:
            raise ActionSpaceError(f"{agent} must act: None is an action only once it is done")
        try:
            a = as_token(action)
        except ActionSpaceError as e:
            raise ActionSpaceError(f"{agent}: {e}; nothing was played") from None
        if not (0 <= a < self.space.size and self.space.mask(self.game, self.prefix)[a]):
            token = describe_token(a, self.space.size)
            raise ActionSpaceError(f"{agent}: action {token} is not legal now (its mask is 0 there)")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {other: 0.0 for other in self.agents}
        self.prefix.append(a)
        chosen = self.space.resolve(self.game, self.prefix)
        if chosen is not None:
            self.game.apply(chosen)
            self.prefix = []
        if self.game.is_over:
            scores = self.game.scores
            for other in self.agents:
                self.rewards[other] = outcome(scores, self._seat(other))
                self.terminations[other] = True
        else:
            try:
                self.space.mask(self.game, self.prefix)
            except WindowOverflowError:
                for other in self.agents:
                    self.truncations[other] = True
            self.agent_selection = self.possible_agents[self.game.decider]
        self._accumulate_rewards()

    def render(self) -> None:
        """No rendering: ``carcassonne.svg.board(env.game)`` draws the board."""

    def close(self) -> None:
        """Nothing to release."""


def env(rules: Rules | None = None, *, window: int | None = None) -> CarcassonneAEC:
    """The environment (PettingZoo's ``env()`` convention)."""
    return CarcassonneAEC(rules, window=window)
