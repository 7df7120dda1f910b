"""What the adapters share: the Gymnasium spaces of an action space and its observations,
the outcome reward, and the checks of what callers hand them: ``as_token`` (the one
conversion of an action to an integer token) and the constructor arguments' checks, each
refusal an ActionSpaceError naming the argument, the value and its type."""

from __future__ import annotations

import math
import numbers
import operator
from typing import SupportsIndex

import numpy as np
from gymnasium import spaces

from carcassonne._core import ActionSpace, ActionSpaceError, ObservationSpace, Rules


VECTOR_BOUND = 1e6
"""The bounds declared for the observation vector's values."""


def observation_parts(obs: ObservationSpace) -> dict[str, spaces.Space[object]]:
    """The board planes (uint8) and the vector (float32) of ``obs``, as Gymnasium boxes.

    The board is channels first, ``(planes, y, x)``, as PyTorch's convolutions take it, and
    its upper bound is each plane's largest value (``obs.plane_max``: 1 for the planes
    that mark, 255 for counts and points), not 0 to 255 throughout. So it is no 8-bit
    picture to libraries that guess a picture's channel axis from its shape: with 48
    planes over a 23-square window, Stable-Baselines3 would take the smallest axis, a
    side of the window, for the channels and transpose the planes into (23, 48, 23).
    Read as a plain box, the planes reach a policy as they are (its own feature extractor
    takes ``shape[0]`` as the channels); scale them by ``high`` if the network wants 0 to 1.
    """
    planes, h, w = obs.board_shape
    high = np.broadcast_to(np.array(obs.plane_max, dtype=np.uint8)[:, None, None], (planes, h, w))
    return {
        "board": spaces.Box(np.zeros((planes, h, w), dtype=np.uint8), np.array(high), dtype=np.uint8),
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


TOKEN_KINDS = "a Python int, a numpy integer, a 0-d integer array or another object with __index__"
"""What an action token may be, as the error messages say it."""

_SHOWN = 60
"""The longest a value is quoted in an error message, in characters."""


def describe(value: object) -> str:
    """``value`` and its type for an error message: its repr cut to ``_SHOWN`` characters
    (an integer too long to print by its size in bits; a numpy array by its dtype and
    shape), then its type's name in brackets. Never raises, whatever ``__repr__`` does."""
    try:
        name = type(value).__name__
        if isinstance(value, np.ndarray):
            return f"a numpy {value.dtype} array of shape {value.shape}"
        if isinstance(value, int) and value.bit_length() > 64:
            text = f"an integer of {value.bit_length()} bits"
        else:
            text = repr(value)
    except Exception:  # a hostile __repr__ or dtype: the value is not shown
        return f"a {type(value).__name__} object"
    if len(text) > _SHOWN:
        text = text[: _SHOWN - 3] + "..."
    return f"{text} ({name})"


def as_token(action: object) -> int:
    """The integer token ``action`` stands for: ``action`` must be an integer by Python's
    protocol (``__index__``): a Python int, a numpy integer scalar, a 0-d integer array
    (what an RL library's ``predict`` returns for one observation, as numpy array or
    tensor); bool is not a token. Anything else (a float, even an integral one, a string,
    None, a list, an array of another shape or dtype, a numpy bool or duration) raises
    ActionSpaceError naming the value and its type: nothing is truncated or parsed. The
    token is not checked against the action space here."""
    if type(action) is np.ndarray and action.shape == () and action.dtype.kind in "iu":
        action = action[()]
    token = _integer(action)
    if token is not None:
        return token
    raise ActionSpaceError(f"an action must be an integer token ({TOKEN_KINDS}), not {describe(action)}")


def describe_token(token: int, size: int) -> str:
    """``token`` for a message about its legality: the integer, or for one too long to
    print its size and that it is outside ``range(size)``."""
    if token.bit_length() <= 64:
        return str(token)
    return f"({'a negative' if token < 0 else 'an'} integer of {token.bit_length()} bits, outside 0 to {size - 1})"


def rules_arg(rules: object) -> Rules:
    """``rules`` (default ``Rules()``, the base game for two players), refused unless it is
    a ``Rules``."""
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        raise ActionSpaceError(f"rules must be a carcassonne.Rules or None, got {describe(rules)}")
    return rules


def _integer(value: object) -> int | None:
    """``value`` as an int if it is an integer by Python's protocol (``__index__``: a
    Python int, a numpy integer, a 0-d integer tensor of an array library; not a bool),
    else None."""
    # A numpy duration is an integer type to numpy, but a length of time, not a token.
    if isinstance(value, (bool, np.bool_, np.timedelta64)) or not isinstance(value, SupportsIndex):
        return None
    try:
        return operator.index(value)
    except Exception:  # an array of several items, or an __index__ that fails
        return None


def integer_arg(name: str, value: object) -> int:
    """``value`` as an int: a Python int or a numpy integer (bool is refused)."""
    v = _integer(value)
    if v is None:
        raise ActionSpaceError(f"{name} must be an integer, got {describe(value)}")
    return v


def optional_integer_arg(name: str, value: object) -> int | None:
    """``value`` as an int, or None: see ``integer_arg``."""
    v = _integer(value)
    if v is None and value is not None:
        raise ActionSpaceError(f"{name} must be an integer or None, got {describe(value)}")
    return v


def finite_arg(name: str, value: object) -> float:
    """``value`` as a finite float: a real number (int, float, numpy integer or floating;
    not bool), neither NaN nor infinite (as ``VectorEnv`` refuses a non-finite
    ``shaping``)."""
    x = math.nan
    if not isinstance(value, (bool, np.bool_)) and isinstance(value, numbers.Real):
        try:
            x = float(value)
        except Exception:  # too large for a float, or a Real that will not convert
            x = math.nan
    if not math.isfinite(x):
        raise ActionSpaceError(f"{name} must be a finite number, got {describe(value)}")
    return x


def str_arg(name: str, value: object, choices: tuple[str, ...]) -> str:
    """``value`` if it is one of the strings ``choices``."""
    if not isinstance(value, str) or value not in choices:
        quoted = [f'"{c}"' for c in choices]
        options = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"
        raise ActionSpaceError(f"{name} must be {options}, got {describe(value)}")
    return value
