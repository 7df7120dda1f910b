"""Results files cannot be silently changed: one flipped bit anywhere in a file of any
format is refused (``ResultsFileError`` naming the file) or, where the bit carries no
information (Parquet padding, say), reads back the very same result; metadata of the
wrong type or range is refused field by field; special and oversized files are refused
unread; games past 2**63 are saved and read."""

from __future__ import annotations

import json
import os
import random
import warnings
from pathlib import Path

import numpy as np
import pytest

import carcassonne
from carcassonne import ResultsFileError, Rules, SimulationResult, read_results, simulate
from carcassonne.study.results_file import CSV_PREFIX, _checksum

from test_results_file import read_csv_columns

FLIPS = 150


@pytest.fixture(scope="module")
def result() -> SimulationResult:
    return simulate(Rules(players=3), 25, seed=4, first_game=7)


def same(a: SimulationResult, b: SimulationResult) -> bool:
    arrays = ("scores", "winners", "turns", "points_by_kind", "discarded", "ships", "wares_left")
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in arrays) and a.metadata() == b.metadata()


@pytest.mark.parametrize("fmt", ["parquet", "csv", "json"])
def test_a_flipped_bit_is_refused_or_changes_nothing(result: SimulationResult, fmt: str, tmp_path: Path) -> None:
    good = result.save(tmp_path / f"good.{fmt}").read_bytes()
    rng = random.Random(fmt)
    refused = 0
    for _ in range(FLIPS):
        bit = rng.randrange(len(good) * 8)
        data = bytearray(good)
        data[bit // 8] ^= 1 << (bit % 8)
        path = tmp_path / f"flipped.{fmt}"
        path.write_bytes(bytes(data))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # a changed version string must not pass either
                back = read_results(path)
        except (ResultsFileError, carcassonne.ResultsVersionWarning) as e:
            assert str(path) in str(e)
            refused += 1
            continue
        assert same(back, result), f"bit {bit} of {len(good) * 8} changed the games without an error"
    # Text formats have no byte that carries nothing. In Parquet about a third of the
    # bytes (column statistics, footer fields the reader does not use) can change without
    # changing what is read; every other flip is refused.
    assert refused >= FLIPS * (0.5 if fmt == "parquet" else 1.0), refused


def csv_with(result: SimulationResult, path: Path, change: dict[str, object]) -> Path:
    """A CSV results file whose metadata has ``change`` and a checksum made for it: only
    the field checks can refuse it."""
    result.save(path)
    lines = path.read_text().splitlines(keepends=True)
    meta = json.loads(lines[0][len(CSV_PREFIX) :])
    meta.update(change)
    meta["checksum"] = _checksum(meta, read_csv_columns(path))
    lines[0] = CSV_PREFIX + json.dumps(meta) + "\n"
    path.write_text("".join(lines))
    return path


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        ({"seed": -1}, "'seed' must be an integer from 0"),
        ({"seed": 2**70}, "'seed' must be an integer from 0"),
        ({"seed": True}, "'seed' must be an integer"),
        ({"first_game": -40}, "'first_game' must be an integer from 0"),
        ({"first_game": 2**64 - 10}, "'games' must be an integer from 0 to 10"),
        ({"players": ["random"] * 5}, "'players' has 5 names, expected 3"),
        ({"players": "random"}, "'players' must be a list of names"),
        ({"interrupted": "false"}, "'interrupted' must be true or false"),
        ({"threads": 0}, "'threads' must be an integer from 1"),
        ({"elapsed_seconds": "fast"}, "'elapsed_seconds' must be a number"),
        ({"seats": 4}, "metadata says 4 seats, its rules 3 players"),
        ({"rules": Rules(tile_sets=("south-seas",), players=3).to_json()}, "points of another rule system"),
        ({"score_kinds": ["a"] * 8}, "score kinds"),
        ({"engine_version": 5}, "'engine_version' must be a string"),
    ],
)
def test_metadata_of_the_wrong_type_or_range_is_refused(
    result: SimulationResult, tmp_path: Path, change: dict[str, object], fault: str
) -> None:
    path = csv_with(result, tmp_path / "meta.csv", change)
    with pytest.raises(ResultsFileError, match=fault) as info:
        read_results(path)
    assert str(path) in str(info.value)


def test_a_huge_version_string_is_quoted_briefly(result: SimulationResult, tmp_path: Path) -> None:
    path = csv_with(result, tmp_path / "v.csv", {"engine_version": "9" * 5_000_000})
    with pytest.warns(carcassonne.ResultsVersionWarning) as caught:
        read_results(path)
    assert all(len(str(w.message)) < 500 for w in caught)


def test_rows_that_do_not_add_up_are_refused(result: SimulationResult, tmp_path: Path) -> None:
    # A score changed with its checksum made again: the points by kind no longer add up.
    path = tmp_path / "sum.json"
    result.save(path)
    body = json.loads(path.read_text())
    body["columns"]["score"][0] += 1
    columns = {k: np.array(v, dtype=np.uint64 if k == "game" else np.int64) for k, v in body["columns"].items()}
    body["metadata"]["checksum"] = _checksum(body["metadata"], columns)
    path.write_text(json.dumps(body))
    with pytest.raises(ResultsFileError, match="not the sum of its points"):
        read_results(path)


@pytest.mark.parametrize("fmt", ["parquet", "csv", "json"])
def test_games_past_2_63_are_saved_and_read(fmt: str, tmp_path: Path) -> None:
    late = simulate(Rules(), 3, seed=1, first_game=2**64 - 3)
    back = read_results(late.save(tmp_path / f"late.{fmt}"))
    assert back.first_game == 2**64 - 3 and same(back, late)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("fmt", ["parquet", "csv", "json"])
def test_special_files_are_refused_unread(fmt: str, tmp_path: Path) -> None:
    fifo = tmp_path / f"pipe.{fmt}"
    os.mkfifo(fifo)
    with pytest.raises(ResultsFileError, match="not a regular file"):
        read_results(fifo)
    with pytest.raises(ResultsFileError, match="is a directory"):
        read_results(tmp_path, format=fmt)
    with pytest.raises(ResultsFileError, match="not a regular file"):
        read_results("/dev/zero", format=fmt)


def test_a_parquet_file_that_decodes_to_more_than_its_rows_is_refused(result: SimulationResult, tmp_path: Path) -> None:
    """A small file whose pages expand far past what its metadata's games need (here a
    column of 10**7 equal values, a few kilobytes compressed) is refused from its footer,
    before a page is decoded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = result.save(tmp_path / "good.parquet")
    meta = pq.read_schema(path).metadata
    n = 10**7
    bomb = pa.table({"game": pa.array(np.zeros(n, dtype=np.uint64))}).replace_schema_metadata(meta)
    pq.write_table(bomb, tmp_path / "bomb.parquet", compression="zstd")
    assert (tmp_path / "bomb.parquet").stat().st_size < 1_000_000
    with pytest.raises(ResultsFileError, match="rows, the metadata says|decode to"):
        read_results(tmp_path / "bomb.parquet")
