"""Results files (``carcassonne.results_file``) and ``SimulationResult.concat``'s timing:
every format reads back identical arrays and metadata; bad files raise
``ResultsFileError`` naming the file and the fault; another version's file warns and
still reads."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest

from carcassonne import (
    ENGINE_VERSION,
    ResultsFileError,
    ResultsVersionWarning,
    Rules,
    SimulationResult,
    read_results,
    simulate,
    write_results,
)
from carcassonne.players import MCTS
from carcassonne.study.results_file import CSV_PREFIX, FORMATS, METADATA_KEY, _checksum

ARRAYS = ("scores", "winners", "turns", "points_by_kind", "discarded", "ships", "wares_left")

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def assert_same(a: SimulationResult, b: SimulationResult) -> None:
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype, name
        assert x.shape == y.shape, name
        assert np.array_equal(x, y), name
    assert a.metadata() == b.metadata()
    assert a.rules == b.rules
    for name in ("threads", "elapsed_seconds", "score_kinds", "players", "policy"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.started_at == b.started_at or (math.isnan(a.started_at) and math.isnan(b.started_at))


@pytest.fixture(scope="module")
def results() -> dict[str, SimulationResult]:
    return {
        "base-4p": simulate(Rules(players=4), 120, seed=5, first_game=30),
        "south-seas-friday": simulate(Rules(tile_sets=("south-seas",), friday=True), 80, seed=6),
        "continental": simulate(Rules(map="continental"), 40, seed=7, players=["greedy", "random"]),
        "mcts": simulate(Rules(), 2, seed=8, players=[MCTS(playouts=10), "greedy"]),
    }


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_reads_back_identical_arrays_and_metadata(
    results: dict[str, SimulationResult], fmt: str, tmp_path: Path
) -> None:
    for name, result in results.items():
        path = result.save(tmp_path / f"{name}.{fmt}")
        assert path.is_file()
        back = SimulationResult.load(path)
        assert_same(result, back)
        # The explicit format wins over the suffix.
        other = write_results(result, tmp_path / f"{name}.data", format=fmt)
        assert_same(result, read_results(other, format=fmt))


def test_the_files_are_plain_tables_for_other_readers(results: dict[str, SimulationResult], tmp_path: Path) -> None:
    result = results["base-4p"]
    table = pq.read_table(result.save(tmp_path / "r.parquet"))
    assert table.num_rows == result.games * 4
    assert table.column_names[:3] == ["game", "seat", "score"]
    meta = json.loads(table.schema.metadata[METADATA_KEY.encode()])
    assert meta["seed"] == 5 and meta["first_game"] == 30 and meta["seats"] == 4
    assert Rules.from_json(meta["rules"]) == result.rules
    assert table.column("game").to_pylist()[:5] == [30, 30, 30, 30, 31]
    csv_path = result.save(tmp_path / "r.csv")
    lines = csv_path.read_text().splitlines()
    assert lines[0].startswith(CSV_PREFIX)
    assert lines[1].split(",")[:4] == ["game", "seat", "score", "winner"]
    assert len(lines) == 2 + result.games * 4
    pd = pytest.importorskip("pandas")
    df = pd.read_csv(csv_path, comment="#")
    assert (df["score"].to_numpy() == result.scores.ravel()).all()
    # The stored columns: the frame's, without the ones derived from the metadata and the
    # winners (player, seed, win_share).
    derived = {"player", "seed", "win_share"}
    assert list(df.columns) == [c for c in result.to_pandas().columns if c not in derived]


def test_concat_reports_the_wall_clock_time_of_batches_side_by_side() -> None:
    r = simulate(Rules(), 30, seed=1)
    parts = [
        dataclasses.replace(r, first_game=0, started_at=100.0, elapsed_seconds=10.0),
        dataclasses.replace(r, first_game=30, started_at=101.0, elapsed_seconds=10.0),
        dataclasses.replace(r, first_game=60, started_at=105.0, elapsed_seconds=2.0),
    ]
    joined = SimulationResult.concat(parts)
    assert joined.elapsed_seconds == pytest.approx(11.0)  # 100..111, not 22
    assert joined.started_at == 100.0
    assert joined.games_per_second == pytest.approx(90 / 11.0)
    # One after another with a pause: the pause does not count.
    apart = [
        dataclasses.replace(r, first_game=0, started_at=0.0, elapsed_seconds=3.0),
        dataclasses.replace(r, first_game=30, started_at=50.0, elapsed_seconds=4.0),
    ]
    assert SimulationResult.concat(apart).elapsed_seconds == pytest.approx(7.0)
    # A batch that does not know when it started: the times are added up.
    unknown = [apart[0], dataclasses.replace(apart[1], started_at=math.nan)]
    joined = SimulationResult.concat(unknown)
    assert joined.elapsed_seconds == pytest.approx(7.0) and math.isnan(joined.started_at)
    # Real batches know when they started.
    a = simulate(Rules(), 20, seed=2)
    b = simulate(Rules(), 20, seed=2, first_game=20)
    assert a.started_at <= b.started_at
    whole = SimulationResult.concat([b, a])
    assert whole.started_at == a.started_at
    # (Up to float rounding: a start is Unix time, a duration from the performance counter.)
    longest, total = max(a.elapsed_seconds, b.elapsed_seconds), a.elapsed_seconds + b.elapsed_seconds
    assert longest - 1e-6 <= whole.elapsed_seconds <= total + 1e-6
    assert np.array_equal(whole.scores, simulate(Rules(), 40, seed=2).scores)


def rewrite_metadata(path: Path, change: dict[str, object], *, resign: bool = False) -> None:
    """Rewrites a CSV results file's metadata line; with ``resign`` its checksum is made
    again, as the version that wrote such metadata would have made it."""
    lines = path.read_text().splitlines(keepends=True)
    meta = json.loads(lines[0][len(CSV_PREFIX) :])
    meta.update(change)
    if resign:
        meta["checksum"] = _checksum(meta, read_csv_columns(path))
    lines[0] = CSV_PREFIX + json.dumps(meta) + "\n"
    path.write_text("".join(lines))


def read_csv_columns(path: Path) -> dict[str, np.ndarray]:
    """The columns of a CSV results file, as the reader sees them."""
    header, *rows = path.read_text().splitlines()[1:]
    table = [r.split(",") for r in rows]
    return {
        name: np.array([int(r[i]) for r in table], dtype=np.uint64 if name == "game" else np.int64)
        for i, name in enumerate(header.split(","))
    }


def test_another_version_warns_and_still_reads(results: dict[str, SimulationResult], tmp_path: Path) -> None:
    result = results["base-4p"]
    path = result.save(tmp_path / "old.csv")
    rewrite_metadata(path, {"engine_version": "0.0.1", "rules_version": 0}, resign=True)
    with pytest.warns(ResultsVersionWarning, match=r"old\.csv: written by engine 0\.0\.1 \(rules version 0\)"):
        back = read_results(path)
    assert back.engine_version == "0.0.1" and back.rules_version == 0
    assert np.array_equal(back.scores, result.scores)
    assert ENGINE_VERSION != "0.0.1"


def test_bad_files_name_the_file_and_the_fault(results: dict[str, SimulationResult], tmp_path: Path) -> None:
    result = results["base-4p"]

    def fails(path: Path, match: str, fmt: str | None = None) -> None:
        with pytest.raises(ResultsFileError, match=match) as info:
            read_results(path, format=fmt)
        assert str(path) in str(info.value)
        assert isinstance(info.value, ValueError)

    fails(tmp_path / "missing.parquet", "no such file")
    with pytest.raises(ResultsFileError, match=r"unknown suffix '\.xlsx'"):
        result.save(tmp_path / "r.xlsx")
    with pytest.raises(ResultsFileError, match="unknown format 'feather'"):
        result.save(tmp_path / "r.csv", format="feather")

    # Parquet: cut short, not Parquet at all, a plain table without our metadata.
    good = result.save(tmp_path / "good.parquet").read_bytes()
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(good[: len(good) // 2])
    fails(cut, "not a readable Parquet file")
    noise = tmp_path / "noise.parquet"
    noise.write_bytes(b"PAR1" + bytes(range(256)) * 4)
    fails(noise, "not a readable Parquet file")
    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"game": [0, 1]}), plain)
    fails(plain, "no carcassonne metadata")

    # CSV: no metadata line, broken metadata, a non-integer, a short row, rows missing,
    # rows out of order, a value out of range, a winner that is not 0 or 1.
    text = result.save(tmp_path / "good.csv").read_text()
    head, header, *rows = text.splitlines()

    def csv_file(name: str, lines: list[str]) -> Path:
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        return path

    fails(csv_file("nometa.csv", [header, *rows]), "first line is not")
    fails(csv_file("badmeta.csv", [CSV_PREFIX + "{oops", header, *rows]), "metadata is not valid JSON")
    fails(csv_file("text.csv", [head, header, rows[0].replace(",", ",x", 1), *rows[1:]]), "not an integer")
    fails(csv_file("short.csv", [head, header, rows[0] + ",1", *rows[1:]]), "line 3 has not")
    fails(csv_file("fewer.csv", [head, header, *rows[:-4]]), "has 476 rows, expected 120 x 4")
    fails(csv_file("order.csv", [head, header, rows[1], rows[0], *rows[2:]]), "rows are not games 30.. by seat")
    fields = rows[0].split(",")
    huge = ",".join(fields[:2] + [str(2**40)] + fields[3:])
    fails(csv_file("huge.csv", [head, header, huge, *rows[1:]]), "'score' holds values out of range for int32")
    three = ",".join(fields[:3] + ["3"] + fields[4:])
    fails(csv_file("winner.csv", [head, header, three, *rows[1:]]), "'winner' holds values other than 0 and 1")
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    fails(binary, "not UTF-8 text")

    # Metadata: another layout, rules that do not load, a field missing.
    for name, change, match in [
        ("layout.csv", {"format_version": 99}, "results file layout 99"),
        ("rules.csv", {"rules": '{"players": 1}'}, "rules in the metadata do not load"),
        ("field.csv", {"seed": None}, "metadata field .seed. must be an integer"),
        ("other.csv", {"format": "something-else"}, "no carcassonne metadata"),
    ]:
        path = csv_file(name, [head, header, *rows])
        rewrite_metadata(path, change)
        fails(path, match)

    # JSON: not JSON, not our layout, a column of strings.
    fails(csv_file("bad.json", ["[1, 2"]), "not valid JSON")
    fails(csv_file("list.json", ["[1, 2]"]), "not a results file")
    body = json.loads(result.save(tmp_path / "good.json").read_text())
    body["columns"]["score"][0] = "many"
    bad_json = tmp_path / "column.json"
    bad_json.write_text(json.dumps(body))
    fails(bad_json, "column 'score' is not a list of integers")

    # A directory cannot be written to as a file.
    with pytest.raises(ResultsFileError, match="cannot write"):
        result.save(tmp_path, format="csv")


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_a_negative_first_game_is_named_as_the_metadata_field(
    results: dict[str, SimulationResult], tmp_path: Path, fmt: str
) -> None:
    # A file whose rows agree with its metadata (games -40, -39, ...): the fault is the
    # metadata's first_game, which the game column only follows.
    path = results["base-4p"].save(tmp_path / f"negative.{fmt}")
    shift = -40 - results["base-4p"].first_game
    if fmt == "csv":
        head, header, *rows = path.read_text().splitlines()
        rows = [",".join([str(int(r.split(",")[0]) + shift), *r.split(",")[1:]]) for r in rows]
        path.write_text("\n".join([head, header, *rows]) + "\n")
        rewrite_metadata(path, {"first_game": -40})
    else:
        body = json.loads(path.read_text())
        body["metadata"]["first_game"] = -40
        body["columns"]["game"] = [g + shift for g in body["columns"]["game"]]
        path.write_text(json.dumps(body))
    with pytest.raises(ResultsFileError) as info:
        read_results(path)
    message = str(info.value)
    assert message.startswith(f"{path}: metadata field 'first_game' must be an integer from 0 to ")
    assert message.endswith("not -40") and "column" not in message


def test_the_command_line_writes_results_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from carcassonne.cli import main

    for fmt in FORMATS:
        out = tmp_path / f"study.{fmt}"
        assert main(["simulate", "--games", "30", "--players", "greedy", "random", "--seed", "4", "--out", str(out)]) == 0
        assert "30 games, 2 players" in capsys.readouterr().out
        back = read_results(out)
        expected = simulate(Rules(), 30, seed=4, players=["greedy", "random"])
        assert np.array_equal(back.scores, expected.scores) and back.players == ("greedy", "random")
    data = tmp_path / "study.data"
    assert main(["simulate", "--games", "5", "--out", str(data), "--format", "csv"]) == 0
    capsys.readouterr()
    assert read_results(data, format="csv").games == 5
    assert main(["simulate", "--games", "5", "--format", "csv"]) == 2
    assert "--format goes with --out FILE" in capsys.readouterr().err
    # A file that cannot be written is refused before any game is played (a study that
    # would run for hours is not played for nothing).
    huge = str(10**12)
    assert main(["simulate", "--games", huge, "--out", str(tmp_path / "x.txt")]) == 2
    assert "unknown suffix '.txt'" in capsys.readouterr().err
    assert main(["simulate", "--games", huge, "--out", str(tmp_path / "no" / "x.csv")]) == 2
    assert "cannot write the results file: no directory" in capsys.readouterr().err
    assert main(["simulate", "--games", huge, "--out", str(tmp_path), "--format", "csv"]) == 2
    assert "cannot write the results file: it is a directory" in capsys.readouterr().err
