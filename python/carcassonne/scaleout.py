"""Deprecated alias of ``carcassonne.study.scaleout``, kept for one release (see
``carcassonne._moved``): importing it warns."""

from carcassonne import _moved

_moved.warn(__name__)

from carcassonne.study.scaleout import (  # noqa: E402
    BACKENDS,
    MAX_BATCH_GAMES,
    MAX_JOBS,
    ROWS_DIR,
    BackendError,
    Batches,
    batch_path,
    batches,
    check_disk,
    prepare_out_dir,
    run,
    stream_rows,
)

__all__ = [
    "BACKENDS",
    "BackendError",
    "Batches",
    "MAX_BATCH_GAMES",
    "MAX_JOBS",
    "ROWS_DIR",
    "batch_path",
    "batches",
    "check_disk",
    "prepare_out_dir",
    "run",
    "stream_rows",
]
