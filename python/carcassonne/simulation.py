"""Deprecated alias of ``carcassonne.study.play`` (the result classes:
``carcassonne.study.results``), kept for one release (see ``carcassonne._moved``):
importing it warns."""

from carcassonne import _moved

_moved.warn(__name__)

from carcassonne._core import max_threads  # noqa: E402
from carcassonne.study.plan import POLICIES, U64_MAX  # noqa: E402
from carcassonne.study.play import play_batch, replay, simulate, simulate_summary  # noqa: E402
from carcassonne.study.results import (  # noqa: E402
    Z_95,
    SeatSummary,
    SimulationResult,
    StudySummary,
    StudyTotals,
    margins_and_ranges,
)

__all__ = [
    "POLICIES",
    "SeatSummary",
    "SimulationResult",
    "StudySummary",
    "StudyTotals",
    "U64_MAX",
    "Z_95",
    "margins_and_ranges",
    "max_threads",
    "play_batch",
    "replay",
    "simulate",
    "simulate_summary",
]
