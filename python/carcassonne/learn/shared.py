"""What the adapters share: the Gymnasium spaces of an action space and its observations,
and the outcome reward."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from carcassonne._core import ActionSpace, ObservationSpace


VECTOR_BOUND = 1e6
"""The bounds declared for the observation vector's values."""


def observation_parts(obs: ObservationSpace) -> dict[str, spaces.Space[object]]:
    """The board planes (uint8) and the vector (float32) of ``obs``, as Gymnasium boxes."""
    return {
        "board": spaces.Box(0, 255, obs.board_shape, dtype=np.uint8),
        # Counts, scores and points: far inside +-1e6 in any game.
        "vector": spaces.Box(-VECTOR_BOUND, VECTOR_BOUND, (obs.vector_size,), dtype=np.float32),
    }


def mask_space(space: ActionSpace) -> spaces.Box:
    """The action mask, as PettingZoo's and Gymnasium's masked sampling take it (int8)."""
    return spaces.Box(0, 1, (space.size,), dtype=np.int8)


def outcome(scores: list[int], seat: int) -> float:
    """The reward of ``seat`` at the end of a game: 1 to a sole winner, 0 to players tied
    for the best score, -1 to the others (as ``VectorEnv`` gives it)."""
    best = max(scores)
    if scores[seat] < best:
        return -1.0
    return 1.0 if scores.count(best) == 1 else 0.0
