"""Deprecated alias of ``carcassonne.study.report``, kept for one release (see
``carcassonne._moved``): importing it warns."""

from carcassonne import _moved

_moved.warn(__name__)

from carcassonne.study.report import DEFAULT_TITLE, MIN_GAMES, ReportError, html_report, write_report  # noqa: E402

__all__ = [
    "DEFAULT_TITLE",
    "MIN_GAMES",
    "ReportError",
    "html_report",
    "write_report",
]
