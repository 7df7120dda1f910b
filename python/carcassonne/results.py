"""Deprecated alias of ``carcassonne.study.results``, kept for one release (see
``carcassonne._moved``): importing it warns."""

from carcassonne import _moved

_moved.warn(__name__)

from carcassonne.study.results import (  # noqa: E402
    Z_95,
    SeatSummary,
    SimulationResult,
    StudySummary,
    StudyTotals,
    margins_and_ranges,
)

__all__ = [
    "SeatSummary",
    "SimulationResult",
    "StudySummary",
    "StudyTotals",
    "Z_95",
    "margins_and_ranges",
]
