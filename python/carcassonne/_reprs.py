"""Short, readable reprs of result objects (statistics and studies), as pandas and scipy
print theirs: every field shown, floats rounded to a few significant digits, an interval
as its estimate and bounds to the precision its width supports, arrays as their element
type and shape. Only the text changes: the objects keep their fields, values and
equality, and ``dataclasses.asdict`` still gives every digit."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

SIGNIFICANT = 4
"""Significant digits of a lone float (a p-value, a mean, a standard deviation)."""

_INTERVAL_DIGITS = 2
"""An interval is printed to the decimal place of its half-width's second significant
digit: the digits beyond it are noise at the interval's own confidence."""

_MAX_DECIMALS = 12
"""Intervals narrower than this many decimals print their numbers as lone floats."""


def number(x: float) -> str:
    """``x`` to 4 significant digits (0.4993, 18.35, 7.0, 1e-05, nan); from 1,000 to
    10**15 to one decimal, so that a count of seconds or a Unix time keeps its digits. A
    float keeps a decimal point, as numpy and pandas print one."""
    x = float(x)
    if not math.isfinite(x):
        return repr(x)
    if 1000 <= abs(x) < 1e15:
        return f"{x:.1f}"
    text = _no_negative_zero(f"{x:.{SIGNIFICANT}g}")
    return text if any(c in text for c in ".e") else text + ".0"


def interval(estimate: float, low: float, high: float) -> str:
    """``0.499 [0.477, 0.521]``: see ``interval_parts``."""
    e, lo, hi = interval_parts(estimate, low, high)
    return f"{e} [{lo}, {hi}]"


def interval_parts(estimate: float, low: float, high: float) -> tuple[str, str, str]:
    """The estimate and bounds of an interval to the same decimal place, that of the
    half-width's second significant digit (a zero or non-finite width: each number as
    ``number`` prints it)."""
    values = (float(estimate), float(low), float(high))
    half = (values[2] - values[1]) / 2
    decimals = _INTERVAL_DIGITS - 1 - math.floor(math.log10(half)) if math.isfinite(half) and half > 0 else None
    if decimals is None or decimals > _MAX_DECIMALS or not all(math.isfinite(v) for v in values):
        return number(values[0]), number(values[1]), number(values[2])
    places = max(0, decimals)
    e, lo, hi = (_no_negative_zero(f"{v:.{places}f}") for v in values)
    return e, lo, hi


def percent(share: float) -> str:
    """A confidence as a percentage: 0.95 -> "95%", 0.999 -> "99.9%"."""
    return f"{float(share) * 100:.6g}%"


def value(v: Any) -> str:
    """One field's value: floats rounded (``number``), arrays as ``int32[2000, 2]``,
    containers element by element, objects with a repr of their own by it."""
    if isinstance(v, (bool, np.bool_)):
        return repr(bool(v))
    if isinstance(v, (int, np.integer)):
        return repr(int(v))
    if isinstance(v, (float, np.floating)):
        return number(float(v))
    if isinstance(v, np.ndarray):
        return f"{v.dtype}[{', '.join(str(n) for n in v.shape)}]"
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, tuple):
        inner = ", ".join(value(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{value(k)}: {value(x)}" for k, x in v.items()) + "}"
    return repr(v)


def fields(obj: Any, **first: Any) -> str:
    """``Name(field=value, ...)`` over a dataclass's fields in order, each as ``value``
    prints it; ``first`` are shown before them (a property worth seeing, e.g. games)."""
    shown = [f"{k}={value(v)}" for k, v in first.items()]
    shown += [f"{f.name}={value(getattr(obj, f.name))}" for f in dataclasses.fields(obj) if f.repr]
    return f"{type(obj).__name__}({', '.join(shown)})"


def _no_negative_zero(text: str) -> str:
    """"-0.00" -> "0.00": a value that rounds to zero has no sign worth printing."""
    if text.startswith("-") and not text.strip("-0.e+"):
        return text[1:]
    return text
