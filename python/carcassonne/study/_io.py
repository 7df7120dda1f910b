"""Where ``SimulationResult.save`` and ``load`` find the results-file functions.

``carcassonne.study.results_file`` builds results (it imports
``carcassonne.study.results``), so the results module may not import it back. Instead
``results_file`` registers its writer and reader here when it is imported (the package
imports it), and the methods look them up: the dependency points one way, from files to
results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_WRITER: Callable[..., Any] | None = None
_READER: Callable[..., Any] | None = None


def register(writer: Callable[..., Any], reader: Callable[..., Any]) -> None:
    """Called once by ``carcassonne.study.results_file``."""
    global _WRITER, _READER
    _WRITER, _READER = writer, reader


def writer() -> Callable[..., Any]:
    # Importing any module of the package runs its __init__, which imports results_file.
    if _WRITER is None:
        raise RuntimeError("carcassonne.study.results_file was not imported: import carcassonne first")
    return _WRITER


def reader() -> Callable[..., Any]:
    if _READER is None:
        raise RuntimeError("carcassonne.study.results_file was not imported: import carcassonne first")
    return _READER
