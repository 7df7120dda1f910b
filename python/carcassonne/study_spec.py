"""Deprecated alias of ``carcassonne.study.spec``, kept for one release (see
``carcassonne._moved``): importing it warns."""

from carcassonne import _moved

_moved.warn(__name__)

from carcassonne.study.spec import KEYS, MAX_SPEC_BYTES, load_spec  # noqa: E402

__all__ = [
    "KEYS",
    "MAX_SPEC_BYTES",
    "load_spec",
]
