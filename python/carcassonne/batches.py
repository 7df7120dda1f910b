"""Deprecated alias of ``carcassonne.study.batches``, kept for one release (see
``carcassonne._moved``): importing it warns."""

from carcassonne import _moved

_moved.warn(__name__)

from carcassonne.study.batches import TARGET_SECONDS, Part, play_in_batches  # noqa: E402

__all__ = [
    "Part",
    "TARGET_SECONDS",
    "play_in_batches",
]
