"""Module paths that moved when the package was laid out by concept (``study/``, ``svg/``).

Each old path is kept for one release as a thin alias module that re-exports the same
objects and, when imported, warns with a ``DeprecationWarning`` naming the new path. Old
paths that are now a package (``carcassonne.study``, ``carcassonne.svg``) are no aliases:
the package exports the same names. Nothing in the package imports an alias."""

from __future__ import annotations

import importlib
import sys
import warnings
from types import ModuleType

MOVED = {
    "carcassonne.batches": "carcassonne.study.batches",
    "carcassonne.frames": "carcassonne.study.frames",
    "carcassonne.report": "carcassonne.study.report",
    "carcassonne.results": "carcassonne.study.results",
    "carcassonne.results_file": "carcassonne.study.results_file",
    "carcassonne.scaleout": "carcassonne.study.scaleout",
    "carcassonne.simulation": "carcassonne.study.play",
    "carcassonne.study_spec": "carcassonne.study.spec",
}
"""Old module path -> where its code lives now."""

ALSO = {"carcassonne.simulation": " (the result classes: carcassonne.study.results)"}
"""Where the rest of an old module's names live now, when not all in one place."""


def warn(old: str, stacklevel: int = 3) -> None:
    """Called by the alias module ``old`` as it is imported. The warning points at the
    line that imported it (the import machinery's frames are skipped), so it shows where
    Python shows deprecations by default: in ``__main__``, under pytest, with ``-W``."""
    warnings.warn(
        f"{old} is deprecated and will be removed in the next release: import {MOVED[old]}{ALSO.get(old, '')} instead",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


def attribute(name: str) -> ModuleType:
    """``carcassonne.<name>`` for an old module path not imported yet (the package's
    ``__getattr__``): the alias, its warning pointing at the line that asked for it."""
    old = f"carcassonne.{name}"
    if old not in MOVED:
        raise AttributeError(f"module 'carcassonne' has no attribute {name!r}")
    with warnings.catch_warnings():  # the alias's own warning would point here
        warnings.simplefilter("ignore", DeprecationWarning)
        module = sys.modules.get(old) or importlib.import_module(old)
    warn(old, 4)  # this function, the package's __getattr__, then the caller
    return module
