"""Deprecated alias of ``carcassonne.study.results_file``, kept for one release (see
``carcassonne._moved``): importing it warns."""

from carcassonne import _moved

_moved.warn(__name__)

from carcassonne.study.results_file import (  # noqa: E402
    CSV_PREFIX,
    FORMATS,
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_TEXT_BYTES,
    METADATA_KEY,
    PANDAS_ATTRS_KEY,
    READS,
    SOUTH_SEAS_KINDS,
    U64_MAX,
    ResultsFileError,
    ResultsVersionWarning,
    check_target,
    read_results,
    write_results,
)

__all__ = [
    "CSV_PREFIX",
    "FORMATS",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "MAX_TEXT_BYTES",
    "METADATA_KEY",
    "PANDAS_ATTRS_KEY",
    "READS",
    "ResultsFileError",
    "ResultsVersionWarning",
    "SOUTH_SEAS_KINDS",
    "U64_MAX",
    "check_target",
    "read_results",
    "write_results",
]
