"""Hostile input to the study toolkit: specs typed strictly (every error names its key),
special, huge and deeply nested files refused unread, study directories whose manifest
or cells were tampered with refused, outputs checked before the first game and never
written over an input, and the command line answering every one of them with one line on
stderr and status 2, never a traceback or a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import carcassonne
from carcassonne import ResultsFileError, Rules, Study, StudyError, simulate
from carcassonne.cli import main
from carcassonne.study import grid, load_study
from carcassonne.study import play as study_play
from carcassonne.study.spec import load_spec

REPO = Path(__file__).resolve().parent.parent

GOOD: dict[str, Any] = {"games": 4, "seed": 1, "configs": {"base": {}}, "lineups": {"random": "random"}}


def spec_file(tmp_path: Path, change: dict[str, Any], name: str = "spec.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({**GOOD, **change}))
    return path


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        ({"paired": "false"}, "paired must be True or False, got 'false'"),
        ({"paired": 1}, "paired must be True or False"),
        ({"games": True}, "games must be a whole number of games per cell, got True"),
        ({"games": 4.0}, "games must be a whole number"),
        ({"games": "4"}, "games must be a whole number"),
        ({"seed": False}, "seed must be an integer"),
        ({"seed": -1}, "seed must be an integer between 0"),
        ({"seats": 3}, "'seats' must be a list of player counts, not 3"),
        ({"seats": ["3"]}, r"seats must list player counts .*\['3'\]"),
        ({"seats": [True]}, "seats must list player counts"),
        ({"seats": [2, 2]}, "seats must list distinct player counts"),
        ({"seats": [99]}, "seats 99 with configuration 'base'"),
        ({"configs": []}, "'configs' maps names to Rules arguments"),
        ({"configs": {"x": {"farmers": "no"}}}, "configuration 'x'"),
        ({"configs": {"x": {"players": True}}}, "configuration 'x': 'players' is not true or false"),
        ({"configs": {"x": {"meeples": False}}}, "configuration 'x': 'meeples' is not true or false"),
        ({"lineups": {"m": {"mcts": {"playouts": True}}}}, "MCTS setting 'playouts' is a number"),
        ({"lineups": {"m": 5}}, "line-up 'm': a player is a name"),
        ({"colour": "red"}, "unknown key 'colour'"),
    ],
)
def test_specs_are_typed_strictly_and_name_the_key(tmp_path: Path, change: dict[str, Any], fault: str) -> None:
    path = spec_file(tmp_path, change)
    with pytest.raises(StudyError, match=fault) as info:
        load_spec(path)
    assert str(path) in str(info.value)


def test_a_key_given_twice_is_refused_in_json_as_in_toml(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    path.write_text('{"games": 4, "configs": {"base": {}, "base": {"farmers": false}}, "lineups": {"r": "random"}}')
    with pytest.raises(StudyError, match="key 'base' is given twice"):
        load_spec(path)
    toml = tmp_path / "twice.toml"
    toml.write_text('games = 4\ngames = 5\n[configs.base]\n[lineups]\nr = "random"\n')
    with pytest.raises(StudyError, match="not valid TOML"):
        load_spec(toml)


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_deeply_nested_specs_are_refused_before_parsing(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"deep{suffix}"
    nested = "[" * 100_000 + "]" * 100_000
    path.write_text(f'{{"games": {nested}}}' if suffix == ".json" else f"games = {nested}\n")
    with pytest.raises(StudyError, match="nested more than 64 deep"):
        load_spec(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_special_and_huge_spec_files_are_refused_unread(tmp_path: Path) -> None:
    fifo = tmp_path / "spec.json"
    os.mkfifo(fifo)
    with pytest.raises(StudyError, match="not a regular file"):
        load_spec(fifo)
    with pytest.raises(StudyError, match="not a regular file"):
        load_spec("/dev/zero")
    with pytest.raises(StudyError, match="it is a directory"):
        load_spec(tmp_path)
    big = tmp_path / "big.json"
    big.write_text(" " * (2 << 20) + json.dumps(GOOD))
    with pytest.raises(StudyError, match="more than the 1048576"):
        load_spec(big)


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "carcassonne", *args], capture_output=True, text=True, timeout=timeout, cwd=REPO
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_the_command_line_never_hangs_or_prints_a_traceback(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    spec = spec_file(tmp_path, {})
    cases = [
        (["study", str(fifo)], "not a regular file"),
        (["render", str(fifo)], "not a regular file"),
        (["study", "/dev/zero"], "not a regular file"),
        (["render", "/dev/zero"], "not a regular file"),
        (["study", str(deep)], "nested more than 64 deep"),
        (["report", str(fifo), "-o", str(tmp_path / "r.html")], "not a regular file"),
        (["study", str(spec), "--out", str(spec)], "not a directory"),
        (["study", str(spec), "--out", str(tmp_path / "no" / "dir")], "no directory"),
        (["simulate", "--games", "2", "--first-game", str(2**64), "--out", str(tmp_path / "x.csv")], "first_game"),
    ]
    for args, fault in cases:
        done = run_cli(*args, timeout=30)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stdout == ""
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("carcassonne: error: "), (args, done.stderr)
        assert fault in lines[0], (args, lines[0])


def test_games_past_2_63_are_written_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "late.csv"
    done = run_cli("simulate", "--games", "2", "--first-game", str(2**63), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert carcassonne.read_results(out).first_game == 2**63


def test_a_study_output_that_cannot_be_written_fails_before_the_first_game(tmp_path: Path) -> None:
    # A study that would take minutes: refused at once.
    spec = spec_file(tmp_path, {"games": 10**6, "lineups": {"greedy": "greedy"}})
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    for out, fault in [(spec, "not a directory"), (tmp_path / "taken", "not empty")]:
        done = run_cli("study", str(spec), "--out", str(out), timeout=20)
        assert done.returncode == 2 and fault in done.stderr, done.stderr
    assert (tmp_path / "taken" / "notes.txt").read_text() == "mine"


NO_FILES_HERE = Path("/proc")
"""A directory that passes every permission check as root (as the tests run) but takes no
file: only a file made there tells."""


def hidden(directory: Path) -> list[str]:
    return [name for name in os.listdir(directory) if name.startswith(".")]


@pytest.mark.skipif(not (NO_FILES_HERE / "self").is_dir(), reason="needs /proc (Linux)")
def test_an_output_no_file_can_be_made_in_fails_before_the_first_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played: list[str] = []
    cells = study_play.simulate  # what grid plays each cell with

    def counted(*args: Any, **kwargs: Any) -> Any:
        played.append(kwargs["label"])
        return cells(*args, **kwargs)

    monkeypatch.setattr(grid, "simulate", counted)
    (tmp_path / "somefile").write_text("mine")
    small = spec_file(tmp_path, {"games": 2}, "small.json")
    # The hook sees the games of a study that can be written, which leaves no probe behind.
    assert main(["study", str(small), "--out", str(tmp_path / "ok"), "--format", "csv"]) == 0
    assert played and hidden(tmp_path) == [] and hidden(tmp_path / "ok") == []
    played.clear()
    capsys.readouterr()
    # A study that would take minutes: refused before its first game, naming the path.
    spec = spec_file(tmp_path, {"games": 10**6, "lineups": {"greedy": "greedy"}})
    before = sorted(os.listdir(tmp_path))
    for out, fault in [
        (NO_FILES_HERE / "nope", f"{NO_FILES_HERE / 'nope'}: cannot write the study: cannot create a file in /proc"),
        (tmp_path / "somefile" / "out.csv", "cannot write the study: no directory"),
    ]:
        assert main(["study", str(spec), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("carcassonne: error: ") and err.count("\n") == 1 and fault in err, err
    assert played == []
    assert sorted(os.listdir(tmp_path)) == before and (tmp_path / "somefile").read_text() == "mine"
    # The same as a command (one line, status 2, no traceback), and for a results file.
    done = run_cli("study", str(spec), "--out", str(NO_FILES_HERE / "nope"), timeout=20)
    assert done.returncode == 2 and done.stderr.splitlines() == [
        f"carcassonne: error: {NO_FILES_HERE / 'nope'}: cannot write the study: cannot create a file in /proc: "
        "No such file or directory"
    ], done.stderr
    done = run_cli("simulate", "--games", str(10**12), "--out", str(NO_FILES_HERE / "nope.csv"), timeout=20)
    assert done.returncode == 2 and "nope.csv: cannot write the results file: cannot create a file in" in done.stderr
    # And for a study saved from Python, and an out_dir (which is made up front).
    result = Study(configs={"base": Rules()}, games=2, seed=1).run()
    with pytest.raises(ResultsFileError, match="cannot write the study: cannot create a file in /proc"):
        result.save(NO_FILES_HERE / "nope")

    def no_batch(*args: Any) -> Any:
        raise AssertionError("a batch was played")

    monkeypatch.setattr(study_play, "play_batch", no_batch)
    with pytest.raises(ResultsFileError, match="/proc: cannot write batch files: cannot create a file in /proc"):
        carcassonne.simulate_summary(Rules(), 10**6, out_dir=NO_FILES_HERE)


def test_paths_with_a_nul_byte_are_documented_errors(tmp_path: Path) -> None:
    # The system calls raise a bare ValueError("embedded null byte") for them.
    result = simulate(Rules(), 2, seed=1)
    nul = str(tmp_path / "a\0b")
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: carcassonne.read_results(nul + ".csv"), "cannot read the results file: the path has a NUL byte"),
        (lambda: carcassonne.read_results(nul + ".parquet"), "cannot read the results file: the path has a NUL byte"),
        (lambda: load_study(nul), "cannot read the study manifest"),
        (lambda: result.save(nul + ".csv"), "cannot write the results file: the path has a NUL byte"),
        (lambda: Study(configs={"base": Rules()}, games=1).run().save(nul), "cannot write the study: the path has"),
        (lambda: carcassonne.simulate_summary(Rules(), 2, out_dir=nul), "cannot write batch files: the path has"),
    ]
    for call, fault in cases:
        with pytest.raises(ResultsFileError, match=fault) as info:
            call()
        assert "a\\x00b" in str(info.value)
    with pytest.raises(StudyError, match="the path has a NUL byte"):
        load_spec(nul + ".json")
    assert os.listdir(tmp_path) == []


def test_a_report_never_overwrites_its_input_by_any_link(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    source = simulate(Rules(), 30, seed=2).save(tmp_path / "in.csv")
    before = source.read_bytes()
    hard = tmp_path / "out.html"
    os.link(source, hard)
    soft = tmp_path / "soft.html"
    soft.symlink_to(source)
    for out in (hard, soft, source):
        assert main(["report", str(source), "-o", str(out)]) == 2
    assert source.read_bytes() == before


def test_a_render_never_overwrites_its_record(tmp_path: Path) -> None:
    game = carcassonne.Game(Rules(), seed=1)
    game.play(game.legal_moves()[0])
    record = tmp_path / "game.json"
    record.write_text(game.to_json())
    hard = tmp_path / "game.svg"
    os.link(record, hard)
    assert main(["render", str(record), "-o", str(hard)]) == 2
    assert record.read_text() == game.to_json()
    assert main(["render", str(record), "-o", str(tmp_path / "ok.svg")]) == 0
    assert (tmp_path / "ok.svg").read_text().startswith("<svg")


# ----- study directories ----------------------------------------------------------------------


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    study = Study(
        configs={"base": Rules(), "seas": Rules(tile_sets=("south-seas",))}, games=6, seed=3, seats=[2, 3]
    )
    return study.run().save(tmp_path / "study", format="csv")


def manifest(directory: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((directory / "study.json").read_text())
    return data


def rewrite(directory: Path, data: dict[str, Any]) -> None:
    (directory / "study.json").write_text(json.dumps(data))


def test_a_saved_study_loads_back(saved: Path) -> None:
    assert len(load_study(saved).results) == 4


def test_a_cell_file_that_is_a_link_is_refused(saved: Path, tmp_path: Path) -> None:
    elsewhere = simulate(Rules(), 6, seed=3).save(tmp_path / "elsewhere.csv")
    cell = saved / manifest(saved)["cells"][0]["file"]
    cell.unlink()
    cell.symlink_to(elsewhere)
    with pytest.raises(ResultsFileError, match="a link"):
        load_study(saved)


def test_a_cell_file_of_another_configuration_is_refused(saved: Path) -> None:
    cells = manifest(saved)["cells"]
    base = next(c for c in cells if c["config"] == "base" and c["seats"] == 2)
    seas = next(c for c in cells if c["config"] == "seas" and c["seats"] == 2)
    (saved / base["file"]).write_bytes((saved / seas["file"]).read_bytes())
    with pytest.raises(ResultsFileError, match="its rules are not configuration 'base' with 2 seats"):
        load_study(saved)


def test_cells_swapped_between_seeds_are_refused(saved: Path) -> None:
    data = manifest(saved)
    data["seed"] = 4
    rewrite(saved, data)
    with pytest.raises(ResultsFileError, match="seed"):
        load_study(saved)


def test_a_cell_listed_twice_is_refused(saved: Path) -> None:
    data = manifest(saved)
    data["cells"].append(dict(data["cells"][0]))
    data["cell_count"] += 1
    rewrite(saved, data)
    with pytest.raises(ResultsFileError, match="listed twice"):
        load_study(saved)


@pytest.mark.parametrize("name", ["cell\0.csv", "\0", "cell-000.csv\0"])
def test_a_cell_file_name_with_a_nul_byte_is_refused_naming_the_field(saved: Path, name: str) -> None:
    data = manifest(saved)
    data["cells"][0]["file"] = name
    rewrite(saved, data)
    fault = r"study\.json: cell 0: 'file' '.*\\x00.*' is not a file name: it has a NUL byte"
    with pytest.raises(ResultsFileError, match=fault):
        load_study(saved)


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        ({"paired": "false"}, "'paired' must be true or false"),
        ({"games": True}, "'games' must be a whole number"),
        ({"configs": {"base": '{"players": 2}'}}, "'configs' must be an object of rules objects"),
        ({"cell_count": 1}, "'cell_count' must be a whole number of cells, at least the 4 listed"),
        ({"cells": "all"}, "'cells' must be a list"),
    ],
)
def test_a_manifest_is_typed_strictly(saved: Path, change: dict[str, Any], fault: str) -> None:
    rewrite(saved, {**manifest(saved), **change})
    with pytest.raises(ResultsFileError, match=fault):
        load_study(saved)


def test_a_deep_or_duplicated_manifest_is_refused(saved: Path) -> None:
    (saved / "study.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ResultsFileError, match="nested more than 64 deep"):
        load_study(saved)
    (saved / "study.json").write_text('{"format": "carcassonne-study", "format": "x"}')
    with pytest.raises(ResultsFileError, match="given twice"):
        load_study(saved)


def test_saving_a_study_errors_are_documented(saved: Path, tmp_path: Path) -> None:
    result = load_study(saved)
    (tmp_path / "file").write_text("x")
    for target, fault in [(saved, "not empty"), (tmp_path / "file", "not a directory"), (tmp_path / "a" / "b", "no directory")]:
        with pytest.raises(ResultsFileError, match=fault):
            result.save(target)


def test_a_study_too_large_for_memory_together_is_refused_before_the_first_cell() -> None:
    # Each cell alone fits (10**8 games of 2 seats take about 10 GB); forty of them do not.
    configs = {f"c{i}": Rules() for i in range(40)}
    study = Study(configs=configs, games=10**9 // 4, seed=1)
    with pytest.raises(carcassonne.RulesError, match="the study's 40 cells"):
        study.run()


def test_an_out_dir_that_is_a_file_is_a_documented_error(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("mine")
    for call in (carcassonne.simulate, carcassonne.simulate_summary):
        with pytest.raises(ResultsFileError, match="cannot write batch files: it is not a directory"):
            call(Rules(), 10, out_dir=taken)
    with pytest.raises(ResultsFileError, match="cannot write batch files"):
        carcassonne.simulate_summary(Rules(), 10, out_dir=taken / "below")
    assert taken.read_text() == "mine"
