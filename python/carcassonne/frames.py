"""Deprecated alias of ``carcassonne.study.frames``, kept for one release (see
``carcassonne._moved``): importing it warns."""

from carcassonne import _moved

_moved.warn(__name__)

from carcassonne.study.frames import concat_frames  # noqa: E402

__all__ = [
    "concat_frames",
]
