"""Results files: a ``SimulationResult`` written to Parquet, CSV or JSON and read back
with identical arrays and metadata.

Every format holds the same tidy table, one row per (game, seat) in game order (the
columns of ``SimulationResult.to_pandas()`` but the derived ``player``, ``seed`` and
``win_share``), and the study's metadata as JSON: the rules
(``Rules.to_json()``), seed, game range, players, threads, timing, rules and engine
versions. Where the metadata lives:

- Parquet (needs pyarrow, ``pip install carcassonne[parquet]``): in the file's schema
  metadata under the key ``carcassonne``, and again under ``PANDAS_ATTRS``, so
  ``pandas.read_parquet(path).attrs`` holds it and other readers see a plain table;
- CSV: in the first line, ``# carcassonne-results {...}``; ``pandas.read_csv(path,
  comment="#")`` reads the table;
- JSON: ``{"metadata": {...}, "columns": {"game": [...], ...}}``.

A file written by another engine or rules version is read, with a
``ResultsVersionWarning``: its games were played by other rules code, so they may not be
the games this version plays from the same seed. Anything that cannot be read raises
``ResultsFileError`` naming the file and the fault.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from carcassonne._core import ENGINE_VERSION, RULES_VERSION, SCORE_KINDS, CarcassonneError, Rules, RulesError
from carcassonne.files import OutputFileError, check_input, check_output, cut, load_json, quote, read_text_input, write_atomically
from carcassonne.study import _io
from carcassonne.study.results import SimulationResult

FORMATS = ("parquet", "csv", "json")
"""The formats ``write_results`` writes and ``read_results`` reads."""

FORMAT_NAME = "carcassonne-results"
FORMAT_VERSION = 2
"""The layout of the files this module writes (raised when the columns or metadata
change incompatibly). 2 added the checksum and an unsigned ``game`` column; files of
layout 1 are still read, with a ``ResultsVersionWarning`` that they cannot be verified."""

READS = (1, 2)
"""The layouts ``read_results`` reads."""

MAX_TEXT_BYTES = 1 << 28
"""Largest CSV or JSON results file read (256 MiB, about 4 million rows): parsing text
takes many times its size in memory. Write larger studies as Parquet."""

U64_MAX = 2**64 - 1

METADATA_KEY = "carcassonne"
"""The Parquet schema metadata key holding the study's metadata."""

PANDAS_ATTRS_KEY = "PANDAS_ATTRS"
"""The key pandas (2.1 and later) reads ``DataFrame.attrs`` from: the same metadata, so
``pandas.read_parquet(path).attrs`` holds it."""

CSV_PREFIX = "# carcassonne-results "


class ResultsFileError(CarcassonneError):
    """A results file that cannot be written or read: the message names the file and
    the fault (missing, not in the format, corrupted, columns or metadata wrong)."""


class ResultsVersionWarning(UserWarning):
    """A results file written by another engine or rules version (it is still read)."""


def write_results(result: SimulationResult, path: str | os.PathLike[str], format: str | None = None) -> Path:
    """Writes ``result`` to ``path`` as ``format`` ("parquet", "csv" or "json"; by
    default from the file's suffix) and returns the path. The file is written atomically
    (see ``carcassonne.files``) with a checksum of its metadata and rows, which
    ``read_results`` verifies; Parquet pages carry their own checksums too."""
    target = Path(path)
    kind = check_target(target, format)
    columns = _columns(result)
    metadata = _metadata(result)
    metadata["checksum"] = _checksum(metadata, columns)

    def write(tmp: str) -> None:
        if kind == "parquet":
            pa, pq = _pyarrow(target)
            table = pa.table(columns)
            # Also under pandas' own key, so that pandas.read_parquet gives it in attrs.
            text = json.dumps(metadata)
            table = table.replace_schema_metadata({METADATA_KEY: text, PANDAS_ATTRS_KEY: text})
            pq.write_table(table, tmp, write_page_checksum=True)
        elif kind == "csv":
            with open(tmp, "w", newline="", encoding="utf-8") as f:
                f.write(CSV_PREFIX + json.dumps(metadata) + "\n")
                writer = csv.writer(f)
                writer.writerow(columns)
                writer.writerows(zip(*(_csv_values(c) for c in columns.values())))
        else:
            body = {"metadata": metadata, "columns": {k: v.tolist() for k, v in columns.items()}}
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(json.dumps(body))

    try:
        write_atomically(target, write, what="results file")
    except OutputFileError as e:
        raise ResultsFileError(str(e)) from None
    return target


def read_results(path: str | os.PathLike[str], format: str | None = None) -> SimulationResult:
    """Reads a file ``write_results`` wrote (``format`` by default from the suffix), or an
    ``out_dir`` of batch files (``simulate(..., out_dir=...)``), joined into one result.

    Raises ``ResultsFileError`` naming the file and the fault: not a regular file, too
    large (CSV and JSON at most ``MAX_TEXT_BYTES``; Parquet whose pages would decode to
    more than its rows need), not in the format, metadata wrong, rows inconsistent, or
    the checksum not matching (a changed byte); warns with ``ResultsVersionWarning`` (and
    still reads) if another engine or rules version wrote it."""
    source = Path(path)
    if source.is_dir() and format is None:
        return _read_batches(source)
    kind = _format(source, format)
    if kind == "parquet":
        check_input(source, ResultsFileError, "results file")
        metadata, fields, columns = _read_parquet(source)
    else:
        metadata, fields, columns = _read_csv(source) if kind == "csv" else _read_json(source)
    return _result(source, metadata, fields, columns)


def _read_batches(directory: Path) -> SimulationResult:
    """An ``out_dir`` of batch files (``simulate(..., out_dir=...)``), joined in game order
    into one result; a study directory is refused with the function that reads it."""
    if (directory / "study.json").exists():
        raise ResultsFileError(
            f"{directory}: a study directory (one result per cell): read it with carcassonne.load_study, "
            "or report it with carcassonne report DIR"
        )
    files = sorted(directory.glob("batch-*.parquet"))
    if not files:
        raise ResultsFileError(f"{directory}: a directory without batch files (batch-*.parquet): not an out_dir")
    parts = [read_results(f) for f in files]
    try:
        return SimulationResult.concat(parts)
    except ValueError as e:
        raise ResultsFileError(f"{directory}: the batch files are not one study: {e}") from None


def check_target(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format ``write_results`` would write ``path`` in, checked before anything is
    played: a known format (or suffix), a writable directory, a target that is not a
    directory or special file, and pyarrow for Parquet. Raises ``ResultsFileError``
    naming the file and the fault."""
    target = Path(path)
    kind = _format(target, format)
    try:
        check_output(target, what="results file")
    except OutputFileError as e:
        raise ResultsFileError(str(e)) from None
    if kind == "parquet":
        _pyarrow(target)
    return kind


def _checksum(metadata: Mapping[str, Any], columns: Mapping[str, npt.NDArray[Any]]) -> str:
    """SHA-256 of the metadata (canonical JSON, without the checksum) and of every column
    (its name and its values as 64-bit little-endian integers), in order."""
    h = hashlib.sha256()
    body = {k: v for k, v in metadata.items() if k != "checksum"}
    h.update(json.dumps(body, sort_keys=True, separators=(",", ":")).encode())
    for name, column in columns.items():
        h.update(name.encode() + b"\0")
        dtype = "<u8" if column.dtype.kind == "u" else "<i8"
        h.update(np.ascontiguousarray(column, dtype=dtype).tobytes())
    return "sha256:" + h.hexdigest()


def _format(path: Path, format: str | None) -> str:
    kind = format if format is not None else path.suffix.lower().lstrip(".")
    if kind not in FORMATS:
        given = f"format {format!r}" if format is not None else f"suffix {path.suffix!r}"
        raise ResultsFileError(f"{path}: unknown {given}: use one of {', '.join(FORMATS)}")
    return kind


def _pyarrow(path: Path) -> tuple[Any, Any]:
    try:
        import pyarrow as pa  # type: ignore[import-not-found, import-untyped, unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        raise ResultsFileError(
            f"{path}: Parquet needs pyarrow: pip install 'carcassonne[parquet]' (or write csv or json)"
        ) from None
    return pa, pq


def _metadata(result: SimulationResult) -> dict[str, Any]:
    meta = result.metadata()
    if int(result.scores.shape[1]) != meta["seats"]:
        raise ResultsFileError(f"the result has {result.scores.shape[1]} seats, its rules {meta['seats']} players")
    meta.update(format=FORMAT_NAME, format_version=FORMAT_VERSION, score_kinds=list(result.score_kinds))
    return meta


def _columns(result: SimulationResult) -> dict[str, npt.NDArray[Any]]:
    """The tidy table: one row per (game, seat), in game order (``SimulationResult.table``)."""
    return result.table()


def _csv_values(column: npt.NDArray[Any]) -> Iterator[int]:
    # Booleans as 0/1: numbers in every column keep the CSV one numeric table.
    return (int(v) for v in column.tolist())


def _read_parquet(path: Path) -> tuple[Any, dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The metadata and columns of a Parquet results file: the footer is read and its
    metadata checked first, so that pages that would decode to more than the rows the
    metadata promises are refused before they are decoded; then every page's checksum is
    verified as it is read."""
    _, pq = _pyarrow(path)
    try:
        parquet = pq.ParquetFile(path, page_checksum_verification=True)
        raw = (parquet.schema_arrow.metadata or {}).get(METADATA_KEY.encode())
    except Exception as e:  # pyarrow raises its own error classes for corrupt files
        raise ResultsFileError(f"{path}: not a readable Parquet file: {_brief(e)}") from None
    if raw is None:
        raise ResultsFileError(f"{path}: no carcassonne metadata: not a results file of this library")
    metadata = _parse_json(path, raw)
    fields = _fields(path, metadata)
    rows = fields["games"] * fields["seats"]
    info = parquet.metadata
    columns = info.num_columns
    decoded = sum(info.row_group(i).total_byte_size for i in range(info.num_row_groups))
    # Eight bytes a value, plus page headers and statistics.
    need = rows * columns * 8 + 4096 * max(1, info.num_row_groups) * max(1, columns)
    if info.num_rows != rows:
        raise ResultsFileError(f"{path}: {info.num_rows} rows, the metadata says {fields['games']} x {fields['seats']}")
    if decoded > need:
        raise ResultsFileError(f"{path}: its pages decode to {decoded} bytes, more than the {need} its {rows} rows need")
    _check_fits(path, fields)
    try:
        table = parquet.read()
    except Exception as e:  # a page checksum that does not match, a corrupt page
        raise ResultsFileError(f"{path}: not a readable Parquet file: {_brief(e)}") from None
    return metadata, fields, {name: table.column(name).to_numpy() for name in table.column_names}


def _brief(e: object, limit: int = 200) -> str:
    """``str(e)`` cut to ``limit`` characters."""
    return cut(str(e), limit)


def _check_fits(path: Path, fields: Mapping[str, Any]) -> None:
    """Refuses a file whose rows would not fit in the memory available now."""
    from carcassonne._core import check_rows_fit

    try:
        check_rows_fit(fields["rules"], fields["games"], first_game=fields["first_game"])
    except RulesError as e:
        raise ResultsFileError(f"{path}: {e}") from None


def _read_text(path: Path) -> str:
    return read_text_input(path, MAX_TEXT_BYTES, ResultsFileError, "results file")


def _read_csv(path: Path) -> tuple[Any, dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The metadata, its checked fields and the columns of a CSV results file. As in every
    format, the metadata is checked before the rows are read, so that a fault of the
    metadata (a negative ``first_game``) is named as such, not as the column it spoils."""
    text = _read_text(path)
    first, _, rest = text.partition("\n")
    if not first.startswith(CSV_PREFIX):
        raise ResultsFileError(f"{path}: the first line is not '{CSV_PREFIX.strip()} {{metadata}}'")
    metadata = _parse_json(path, first[len(CSV_PREFIX) :])
    fields = _fields(path, metadata)
    reader = csv.reader(rest.splitlines())
    try:
        header = next(reader, None)
        if header is None:
            raise ResultsFileError(f"{path}: no header line after the metadata")
        rows = list(reader)
    except csv.Error as e:
        raise ResultsFileError(f"{path}: not a CSV table: {e}") from None
    if any(len(row) != len(header) for row in rows):
        line = next(i for i, row in enumerate(rows) if len(row) != len(header)) + 3
        raise ResultsFileError(f"{path}: line {line} has not {len(header)} values")
    columns: dict[str, npt.NDArray[Any]] = {}
    for i, name in enumerate(header):
        values = [row[i] for row in rows]
        if not all(v.isascii() and (v.isdigit() or (v[:1] == "-" and v[1:].isdigit())) for v in values):
            raise ResultsFileError(f"{path}: column {quote(name)} holds a value that is not an integer")
        try:
            columns[name] = np.array(values, dtype=np.uint64 if name == "game" else np.int64)
        except (ValueError, OverflowError):
            raise ResultsFileError(f"{path}: column {quote(name)} has a value out of range") from None
    return metadata, fields, columns


def _read_json(path: Path) -> tuple[Any, dict[str, Any], dict[str, npt.NDArray[Any]]]:
    """The metadata, its checked fields and the columns of a JSON results file (the
    metadata checked first, as in ``_read_csv``)."""
    body = _parse_json(path, _read_text(path))
    if not isinstance(body, dict) or not isinstance(body.get("columns"), dict):
        raise ResultsFileError(f"{path}: not a results file: expected {{'metadata': ..., 'columns': ...}}")
    fields = _fields(path, body.get("metadata"))
    columns: dict[str, npt.NDArray[Any]] = {}
    for name, values in body["columns"].items():
        if not isinstance(values, list) or not all(type(v) in (int, bool) for v in values):
            raise ResultsFileError(f"{path}: column {quote(name)} is not a list of integers")
        try:
            columns[name] = np.array(values, dtype=np.uint64 if name == "game" else np.int64)
        except OverflowError:
            raise ResultsFileError(f"{path}: column {quote(name)} has a value out of range") from None
    return body.get("metadata"), fields, columns


def _parse_json(path: Path, text: str | bytes) -> Any:
    return load_json(text, f"{path}: the metadata", ResultsFileError)


def _integer(path: Path, metadata: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = metadata.get(key)
    if type(value) is not int or not low <= value <= high:
        raise ResultsFileError(
            f"{path}: metadata field {key!r} must be an integer from {low} to {high}, not {quote(value)}"
        )
    return value


def _fields(path: Path, metadata: Any) -> dict[str, Any]:
    """The metadata's fields, each checked for its type and range (a boolean is not a
    number, a string is not a list, a seat count matches the rules)."""
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT_NAME:
        raise ResultsFileError(f"{path}: no carcassonne metadata: not a results file of this library")
    if metadata.get("format_version") not in READS:
        raise ResultsFileError(
            f"{path}: results file layout {quote(metadata.get('format_version'))}; this version reads "
            f"{', '.join(map(str, READS))}"
        )
    for key in ("rules", "seed", "first_game", "games", "seats", "score_kinds", "players", "policy", "threads",
                "elapsed_seconds", "rules_version", "engine_version"):
        if key not in metadata:
            raise ResultsFileError(f"{path}: metadata field missing or wrong: {key!r} is missing")
    if not isinstance(metadata["rules"], str):
        raise ResultsFileError(f"{path}: metadata field 'rules' must be the rules' JSON text, not {quote(metadata['rules'])}")
    try:
        rules = Rules.from_json(metadata["rules"])
    except RulesError as e:
        raise ResultsFileError(f"{path}: the rules in the metadata do not load: {e}") from None
    fields: dict[str, Any] = {"rules": rules}
    fields["seed"] = _integer(path, metadata, "seed", 0, U64_MAX)
    fields["first_game"] = _integer(path, metadata, "first_game", 0, U64_MAX)
    fields["games"] = _integer(path, metadata, "games", 0, U64_MAX + 1 - fields["first_game"])
    fields["seats"] = _integer(path, metadata, "seats", 1, 64)
    if fields["seats"] != rules.players:
        raise ResultsFileError(f"{path}: metadata says {fields['seats']} seats, its rules {rules.players} players")
    fields["threads"] = _integer(path, metadata, "threads", 1, 1 << 16)
    fields["rules_version"] = _integer(path, metadata, "rules_version", 0, 1 << 31)
    for key in ("policy", "engine_version"):
        if not isinstance(metadata[key], str):
            raise ResultsFileError(f"{path}: metadata field {key!r} must be a string, not {quote(metadata[key])}")
        fields[key] = metadata[key]
    for key, length in (("players", fields["seats"]), ("score_kinds", len(SCORE_KINDS))):
        names = metadata[key]
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ResultsFileError(f"{path}: metadata field {key!r} must be a list of names, not {quote(names)}")
        if len(names) != length:
            raise ResultsFileError(f"{path}: metadata field {key!r} has {len(names)} names, expected {length}")
        fields[key] = tuple(names)
    if fields["score_kinds"] != tuple(SCORE_KINDS):
        raise ResultsFileError(f"{path}: score kinds {quote(list(fields['score_kinds']))}, this version has {SCORE_KINDS}")
    elapsed = metadata["elapsed_seconds"]
    if type(elapsed) not in (int, float) or not (math.isfinite(elapsed) and elapsed >= 0):
        raise ResultsFileError(f"{path}: metadata field 'elapsed_seconds' must be a number of seconds, not {quote(elapsed)}")
    fields["elapsed_seconds"] = float(elapsed)
    started = metadata.get("started_at")
    if started is not None and (type(started) not in (int, float) or not math.isfinite(started)):
        raise ResultsFileError(f"{path}: metadata field 'started_at' must be a Unix time or null, not {quote(started)}")
    fields["started_at"] = math.nan if started is None else float(started)
    interrupted = metadata.get("interrupted", False)
    if type(interrupted) is not bool:
        raise ResultsFileError(f"{path}: metadata field 'interrupted' must be true or false, not {quote(interrupted)}")
    fields["interrupted"] = interrupted
    return fields


def _result(
    path: Path, metadata: Any, f: Mapping[str, Any], columns: Mapping[str, npt.NDArray[Any]]
) -> SimulationResult:
    """Checks the table (against the metadata's checked fields ``f``) and the checksum and
    rebuilds the result."""
    if f["engine_version"] != ENGINE_VERSION or f["rules_version"] != RULES_VERSION:
        warnings.warn(
            f"{path}: written by engine {_brief(f['engine_version'], 60)} (rules version "
            f"{f['rules_version']}); this is engine {ENGINE_VERSION} (rules version "
            f"{RULES_VERSION}): the same seeds may not give the same games here",
            ResultsVersionWarning,
            stacklevel=3,
        )
    rules, games, seats, first_game, kinds = f["rules"], f["games"], f["seats"], f["first_game"], f["score_kinds"]
    expected = ["game", "seat", "score", "winner", "turns", "discarded", "ships", "wares_left"]
    expected += [f"points_{k}" for k in kinds]
    if list(columns) != expected:
        raise ResultsFileError(f"{path}: columns {quote(list(columns), 300)}, expected {expected}")
    rows = games * seats
    for name, col in columns.items():
        if col.shape != (rows,):
            raise ResultsFileError(f"{path}: column {name!r} has {col.shape[0]} rows, expected {games} x {seats}")
    game_ids = np.repeat(np.arange(first_game, first_game + games, dtype=np.uint64), seats)
    game_column = columns["game"]
    if game_column.dtype.kind == "i" and game_column.size and game_column.min() < 0:
        raise ResultsFileError(f"{path}: the rows are not games {first_game}.. by seat, in order")
    if not (
        np.array_equal(game_column.astype(np.uint64), game_ids)
        and np.array_equal(columns["seat"], np.tile(np.arange(seats), games))
    ):
        raise ResultsFileError(f"{path}: the rows are not games {first_game}.. by seat, in order")

    def seat_table(name: str, dtype: Any) -> npt.NDArray[Any]:
        return _exact(path, name, columns[name], dtype).reshape(games, seats)

    def per_game(name: str, dtype: Any) -> npt.NDArray[Any]:
        table = seat_table(name, dtype)
        if not (table == table[:, :1]).all():
            raise ResultsFileError(f"{path}: column {name!r} differs between the seats of one game")
        return table[:, 0].copy()

    points = np.stack([seat_table(f"points_{k}", np.int32) for k in kinds], axis=-1) if kinds else np.zeros(
        (games, seats, 0), dtype=np.int32
    )
    scores = seat_table("score", np.int32)
    winners = seat_table("winner", np.bool_)
    ships = seat_table("ships", np.uint32)
    wares_left = seat_table("wares_left", np.uint32)
    _check_consistent(path, rules, kinds, scores, winners, points, ships, wares_left)
    if metadata["format_version"] >= 2:
        if metadata.get("checksum") != _checksum(metadata, {**columns, "game": game_column.astype(np.uint64)}):
            raise ResultsFileError(
                f"{path}: the checksum does not match: the file was changed after it was written"
            )
    else:
        warnings.warn(
            f"{path}: results file layout 1 has no checksum: it cannot be verified", ResultsVersionWarning, stacklevel=3
        )
    return SimulationResult(
        rules=rules,
        seed=f["seed"],
        first_game=first_game,
        policy=f["policy"],
        threads=f["threads"],
        elapsed_seconds=f["elapsed_seconds"],
        rules_version=f["rules_version"],
        engine_version=f["engine_version"],
        score_kinds=kinds,
        players=f["players"],
        started_at=f["started_at"],
        interrupted=f["interrupted"],
        scores=scores,
        winners=winners,
        turns=per_game("turns", np.uint32),
        points_by_kind=points,
        discarded=per_game("discarded", np.uint32),
        ships=ships,
        wares_left=wares_left,
    )


SOUTH_SEAS_KINDS = ("ships", "wares")
"""The score kinds of South Seas games; classic games score every other kind."""


def _check_consistent(
    path: Path,
    rules: Rules,
    kinds: tuple[str, ...],
    scores: npt.NDArray[Any],
    winners: npt.NDArray[Any],
    points: npt.NDArray[Any],
    ships: npt.NDArray[Any],
    wares_left: npt.NDArray[Any],
) -> None:
    """Refuses rows that no game of these rules can have: a score that is not the sum of
    its points by kind, winners that are not the top scores, points or ships of the other
    rule system (South Seas rules over classic rows, or the reverse)."""
    if not np.array_equal(points.sum(axis=-1, dtype=np.int64), scores):
        raise ResultsFileError(f"{path}: a score is not the sum of its points by kind")
    if scores.size and not np.array_equal(winners, scores == scores.max(axis=1, keepdims=True)):
        raise ResultsFileError(f"{path}: the winners are not the players with the top score")
    south_seas = rules.system == "south-seas"
    other = [k for k, kind in enumerate(kinds) if (kind in SOUTH_SEAS_KINDS) != south_seas]
    if other and points[:, :, other].any():
        raise ResultsFileError(f"{path}: points of another rule system than its rules ({rules.system})")
    if not south_seas and (ships.any() or wares_left.any()):
        raise ResultsFileError(f"{path}: ships or wares in games of classic rules")


def _exact(path: Path, name: str, column: npt.NDArray[Any], dtype: Any) -> npt.NDArray[Any]:
    """``column`` as ``dtype``, refusing values the type cannot hold."""
    if dtype is np.bool_:
        if not np.isin(column, (0, 1)).all():
            raise ResultsFileError(f"{path}: column {name!r} holds values other than 0 and 1")
        return column.astype(np.bool_)
    info = np.iinfo(dtype)
    if column.dtype.kind not in "iub" or (column.size and (column.min() < info.min or column.max() > info.max)):
        raise ResultsFileError(f"{path}: column {name!r} holds values out of range for {np.dtype(dtype).name}")
    return column.astype(dtype)


_io.register(write_results, read_results)

__all__ = [
    "FORMATS",
    "ResultsFileError",
    "ResultsVersionWarning",
    "read_results",
    "write_results",
]
