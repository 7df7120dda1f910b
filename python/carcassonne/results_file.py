"""Results files: a ``SimulationResult`` written to Parquet, CSV or JSON and read back
with identical arrays and metadata.

Every format holds the same tidy table, one row per (game, seat) in game order (the
columns of ``SimulationResult.to_pandas()``), and the study's metadata as JSON: the rules
(``Rules.to_json()``), seed, game range, players, threads, timing, rules and engine
versions. Where the metadata lives:

- Parquet (needs pyarrow, ``pip install carcassonne[parquet]``): in the file's schema
  metadata under the key ``carcassonne``, so pandas and other readers see a plain table;
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
import json
import math
import os
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from carcassonne._core import ENGINE_VERSION, RULES_VERSION, Rules, RulesError
from carcassonne.simulation import SimulationResult

FORMATS = ("parquet", "csv", "json")
"""The formats ``write_results`` writes and ``read_results`` reads."""

FORMAT_NAME = "carcassonne-results"
FORMAT_VERSION = 1
"""The layout of the files this module writes (raised when the columns or metadata
change incompatibly)."""

METADATA_KEY = "carcassonne"
"""The Parquet schema metadata key holding the study's metadata."""

CSV_PREFIX = "# carcassonne-results "


class ResultsFileError(ValueError):
    """A results file that cannot be written or read: the message names the file and
    the fault (missing, not in the format, corrupted, columns or metadata wrong)."""


class ResultsVersionWarning(UserWarning):
    """A results file written by another engine or rules version (it is still read)."""


def write_results(result: SimulationResult, path: str | os.PathLike[str], format: str | None = None) -> Path:
    """Writes ``result`` to ``path`` as ``format`` ("parquet", "csv" or "json"; by
    default from the file's suffix) and returns the path."""
    target = Path(path)
    kind = _format(target, format)
    columns = _columns(result)
    metadata = _metadata(result)
    try:
        if kind == "parquet":
            pa, pq = _pyarrow(target)
            table = pa.table(columns)
            table = table.replace_schema_metadata({METADATA_KEY: json.dumps(metadata)})
            pq.write_table(table, target)
        elif kind == "csv":
            with target.open("w", newline="", encoding="utf-8") as f:
                f.write(CSV_PREFIX + json.dumps(metadata) + "\n")
                writer = csv.writer(f)
                writer.writerow(columns)
                writer.writerows(zip(*(_csv_values(c) for c in columns.values())))
        else:
            body = {"metadata": metadata, "columns": {k: v.tolist() for k, v in columns.items()}}
            target.write_text(json.dumps(body), encoding="utf-8")
    except OSError as e:
        raise ResultsFileError(f"{target}: cannot write: {e.strerror or e}") from e
    return target


def read_results(path: str | os.PathLike[str], format: str | None = None) -> SimulationResult:
    """Reads a file ``write_results`` wrote (``format`` by default from the suffix).

    Raises ``ResultsFileError`` naming the file and the fault; warns with
    ``ResultsVersionWarning`` (and still reads) if another engine or rules version wrote
    it."""
    source = Path(path)
    kind = _format(source, format)
    if not source.is_file():
        raise ResultsFileError(f"{source}: no such file")
    try:
        if kind == "parquet":
            metadata, columns = _read_parquet(source)
        elif kind == "csv":
            metadata, columns = _read_csv(source)
        else:
            metadata, columns = _read_json(source)
    except OSError as e:
        raise ResultsFileError(f"{source}: cannot read: {e.strerror or e}") from e
    return _result(source, metadata, columns)


def check_target(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format ``write_results`` would write ``path`` in, checked before anything is
    played: a known format (or suffix), an existing directory to write into, and pyarrow
    for Parquet. Raises ``ResultsFileError`` naming the file and the fault."""
    target = Path(path)
    kind = _format(target, format)
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise ResultsFileError(f"{target}: cannot write: no directory {parent}")
    if target.is_dir():
        raise ResultsFileError(f"{target}: cannot write: it is a directory")
    if kind == "parquet":
        _pyarrow(target)
    return kind


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
    meta.update(
        format=FORMAT_NAME,
        format_version=FORMAT_VERSION,
        seats=int(result.scores.shape[1]),
        threads=result.threads,
        elapsed_seconds=result.elapsed_seconds,
        # JSON has no NaN: an unknown start is written as null.
        started_at=None if math.isnan(result.started_at) else result.started_at,
        score_kinds=list(result.score_kinds),
    )
    return meta


def _columns(result: SimulationResult) -> dict[str, npt.NDArray[Any]]:
    """The tidy table: one row per (game, seat), in game order."""
    games, seats = result.scores.shape
    cols: dict[str, npt.NDArray[Any]] = {
        "game": np.repeat(np.arange(result.first_game, result.first_game + games, dtype=np.int64), seats),
        "seat": np.tile(np.arange(seats, dtype=np.int64), games),
        "score": result.scores.ravel(),
        "winner": result.winners.ravel(),
        "turns": np.repeat(result.turns, seats),
        "discarded": np.repeat(result.discarded, seats),
        "ships": result.ships.ravel(),
        "wares_left": result.wares_left.ravel(),
    }
    for k, kind in enumerate(result.score_kinds):
        cols[f"points_{kind}"] = result.points_by_kind[:, :, k].ravel()
    return cols


def _csv_values(column: npt.NDArray[Any]) -> Iterator[int]:
    # Booleans as 0/1: numbers in every column keep the CSV one numeric table.
    return (int(v) for v in column.tolist())


def _read_parquet(path: Path) -> tuple[Any, dict[str, npt.NDArray[Any]]]:
    _, pq = _pyarrow(path)
    try:
        table = pq.read_table(path)
    except Exception as e:  # pyarrow raises its own error classes for corrupt files
        raise ResultsFileError(f"{path}: not a readable Parquet file: {e}") from None
    raw = (table.schema.metadata or {}).get(METADATA_KEY.encode())
    if raw is None:
        raise ResultsFileError(f"{path}: no carcassonne metadata: not a results file of this library")
    metadata = _parse_json(path, raw)
    columns = {name: table.column(name).to_numpy() for name in table.column_names}
    return metadata, columns


def _read_csv(path: Path) -> tuple[Any, dict[str, npt.NDArray[Any]]]:
    with path.open(encoding="utf-8", newline="") as f:
        try:
            first = f.readline()
        except UnicodeDecodeError:
            raise ResultsFileError(f"{path}: not a text file") from None
        if not first.startswith(CSV_PREFIX):
            raise ResultsFileError(f"{path}: the first line is not '{CSV_PREFIX.strip()} {{metadata}}'")
        metadata = _parse_json(path, first[len(CSV_PREFIX) :])
        reader = csv.reader(f)
        try:
            header = next(reader, None)
            if header is None:
                raise ResultsFileError(f"{path}: no header line after the metadata")
            rows = list(reader)
        except (UnicodeDecodeError, csv.Error) as e:
            raise ResultsFileError(f"{path}: not a CSV table: {e}") from None
    if any(len(row) != len(header) for row in rows):
        line = next(i for i, row in enumerate(rows) if len(row) != len(header)) + 3
        raise ResultsFileError(f"{path}: line {line} has not {len(header)} values")
    try:
        table = np.array(rows, dtype=np.int64).reshape(len(rows), len(header))
    except (ValueError, OverflowError):
        raise ResultsFileError(f"{path}: a value that is not an integer") from None
    return metadata, {name: table[:, i] for i, name in enumerate(header)}


def _read_json(path: Path) -> tuple[Any, dict[str, npt.NDArray[Any]]]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ResultsFileError(f"{path}: not a text file") from None
    body = _parse_json(path, text)
    if not isinstance(body, dict) or not isinstance(body.get("columns"), dict):
        raise ResultsFileError(f"{path}: not a results file: expected {{'metadata': ..., 'columns': ...}}")
    columns: dict[str, npt.NDArray[Any]] = {}
    for name, values in body["columns"].items():
        if not isinstance(values, list) or not all(isinstance(v, (int, bool)) for v in values):
            raise ResultsFileError(f"{path}: column {name!r} is not a list of integers")
        try:
            columns[name] = np.array(values, dtype=np.int64)
        except OverflowError:
            raise ResultsFileError(f"{path}: column {name!r} has a value out of range") from None
    return body.get("metadata"), columns


def _parse_json(path: Path, text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ResultsFileError(f"{path}: the metadata is not valid JSON: {e}") from None


def _result(path: Path, metadata: Any, columns: Mapping[str, npt.NDArray[Any]]) -> SimulationResult:
    """Checks the metadata and the table and rebuilds the result."""
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT_NAME:
        raise ResultsFileError(f"{path}: no carcassonne metadata: not a results file of this library")
    if metadata.get("format_version") != FORMAT_VERSION:
        raise ResultsFileError(
            f"{path}: results file layout {metadata.get('format_version')!r}; this version reads {FORMAT_VERSION}"
        )
    if metadata.get("engine_version") != ENGINE_VERSION or metadata.get("rules_version") != RULES_VERSION:
        warnings.warn(
            f"{path}: written by engine {metadata.get('engine_version')} (rules version "
            f"{metadata.get('rules_version')}); this is engine {ENGINE_VERSION} (rules version "
            f"{RULES_VERSION}): the same seeds may not give the same games here",
            ResultsVersionWarning,
            stacklevel=3,
        )
    try:
        rules = Rules.from_json(metadata["rules"])
        seats = int(metadata["seats"])
        first_game = int(metadata["first_game"])
        games = int(metadata["games"])
        kinds = tuple(str(k) for k in metadata["score_kinds"])
        players = tuple(str(p) for p in metadata["players"])
        started = metadata.get("started_at")
        seed = int(metadata["seed"])
        policy = str(metadata["policy"])
        threads = int(metadata["threads"])
        elapsed = float(metadata["elapsed_seconds"])
        rules_version = int(metadata["rules_version"])
        engine_version = str(metadata["engine_version"])
        started_at = math.nan if started is None else float(started)
        interrupted = bool(metadata.get("interrupted", False))
    except RulesError as e:
        raise ResultsFileError(f"{path}: the rules in the metadata do not load: {e}") from None
    except (KeyError, TypeError, ValueError) as e:
        raise ResultsFileError(f"{path}: metadata field missing or wrong: {e}") from None
    if seats < 1 or games < 0:
        raise ResultsFileError(f"{path}: metadata says {games} games of {seats} seats")
    expected = ["game", "seat", "score", "winner", "turns", "discarded", "ships", "wares_left"]
    expected += [f"points_{k}" for k in kinds]
    if list(columns) != expected:
        raise ResultsFileError(f"{path}: columns {list(columns)}, expected {expected}")
    rows = games * seats
    for name, col in columns.items():
        if col.shape != (rows,):
            raise ResultsFileError(f"{path}: column {name!r} has {col.shape[0]} rows, expected {games} x {seats}")
    game_ids = np.repeat(np.arange(first_game, first_game + games, dtype=np.int64), seats)
    if not (np.array_equal(columns["game"], game_ids) and np.array_equal(columns["seat"], np.tile(np.arange(seats), games))):
        raise ResultsFileError(f"{path}: the rows are not games {first_game}.. by seat, in order")

    def seat_table(name: str, dtype: Any) -> npt.NDArray[Any]:
        return _exact(path, name, columns[name], dtype).reshape(games, seats)

    def game_column(name: str, dtype: Any) -> npt.NDArray[Any]:
        table = seat_table(name, dtype)
        if not (table == table[:, :1]).all():
            raise ResultsFileError(f"{path}: column {name!r} differs between the seats of one game")
        return table[:, 0].copy()

    points = np.stack([seat_table(f"points_{k}", np.int32) for k in kinds], axis=-1) if kinds else np.zeros(
        (games, seats, 0), dtype=np.int32
    )
    return SimulationResult(
        rules=rules,
        seed=seed,
        first_game=first_game,
        policy=policy,
        threads=threads,
        elapsed_seconds=elapsed,
        rules_version=rules_version,
        engine_version=engine_version,
        score_kinds=kinds,
        players=players,
        started_at=started_at,
        interrupted=interrupted,
        scores=seat_table("score", np.int32),
        winners=seat_table("winner", np.bool_),
        turns=game_column("turns", np.uint32),
        points_by_kind=points,
        discarded=game_column("discarded", np.uint32),
        ships=seat_table("ships", np.uint32),
        wares_left=seat_table("wares_left", np.uint32),
    )


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


__all__ = [
    "FORMATS",
    "ResultsFileError",
    "ResultsVersionWarning",
    "read_results",
    "write_results",
]
