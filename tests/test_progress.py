"""Progress bars and partial results: a study played in batches gives exactly the rows and
totals of one call; Ctrl-C with ``partial=True`` hands back the games played so far; the
command line's ``--progress`` and ``--partial``."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from carcassonne import ResultsFileError, Rules, RulesError, SimulationResult, StudySummary, read_results, simulate, simulate_summary
from carcassonne.study.batches import play_in_batches

# Signals and timed batches: run alone, not beside another test worker (`serial`, .ci/run).
pytestmark = pytest.mark.serial

REPO = Path(__file__).resolve().parents[1]
ARRAYS = ("scores", "winners", "turns", "points_by_kind", "discarded", "ships", "wares_left")


@pytest.mark.parametrize("kwargs", [{"progress": True}, {"partial": True}, {"progress": True, "partial": True}])
def test_batches_give_the_rows_and_totals_of_one_call(kwargs: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    for rules, players in [(Rules(players=3), None), (Rules(tile_sets=("south-seas",)), ["greedy", "random"])]:
        one = simulate(rules, 3000, seed=11, first_game=7, players=players)
        batched = simulate(rules, 3000, seed=11, first_game=7, players=players, **kwargs)
        for name in ARRAYS:
            assert np.array_equal(getattr(one, name), getattr(batched, name)), name
        assert batched.first_game == 7 and batched.games == 3000 and not batched.interrupted
        # Everything but the run's own timing (which metadata() now holds too).
        timing = {"threads", "elapsed_seconds", "started_at"}
        assert {k: v for k, v in batched.metadata().items() if k not in timing} == {
            k: v for k, v in one.metadata().items() if k not in timing
        }
        totals = simulate_summary(rules, 3000, seed=11, first_game=7, players=players, **kwargs)
        assert totals.totals == one.totals() and not totals.interrupted
    err = capsys.readouterr().err
    if kwargs.get("progress"):
        assert "simulate: 100%" in err and "3.00k/3.00k" in err
    else:
        assert err == ""


def test_no_games_and_bad_ranges_in_batches() -> None:
    empty = simulate(Rules(), 0, seed=1, partial=True)
    assert empty.games == 0 and empty.scores.shape == (0, 2)
    for call in (simulate, simulate_summary):
        with pytest.raises(RulesError, match="games must be between 0 and 2"):
            call(Rules(), -1, partial=True)
        with pytest.raises(RulesError, match="first_game must be between 0 and 2"):
            call(Rules(), 1, first_game=-1, progress=True)
        with pytest.raises(RulesError, match="go past the last game index"):
            call(Rules(), 10, first_game=2**64 - 5, partial=True)
        with pytest.raises(TypeError):
            call(Rules(), 2.5, partial=True)  # type: ignore[arg-type]


def test_progress_without_tqdm_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError, match=r"pip install 'carcassonne\[progress\]'"):
        simulate(Rules(), 10, progress=True)
    # Without a progress bar tqdm is not needed.
    assert simulate(Rules(), 10, partial=True).games == 10


def test_an_interrupt_hands_back_the_batches_played() -> None:
    calls: list[tuple[int, int]] = []

    def play(first: int, count: int) -> SimulationResult:
        calls.append((first, count))
        if len(calls) == 4:
            raise KeyboardInterrupt
        return simulate(Rules(), count, seed=3, first_game=first)

    def mark(r: SimulationResult) -> SimulationResult:
        return dataclasses.replace(r, interrupted=True)

    got = play_in_batches(play, SimulationResult.concat, mark, 10**6, 100, progress=False, partial=True, description="t")
    assert got.interrupted and got.first_game == 100
    played = sum(count for _, count in calls[:3])
    assert got.games == played
    assert np.array_equal(got.scores, simulate(Rules(), played, seed=3, first_game=100).scores)
    # Consecutive batches, each at most four times the one before.
    assert [first for first, _ in calls] == [100 + sum(c for _, c in calls[:i]) for i in range(4)]
    assert all(b <= 4 * a for (_, a), (_, b) in zip(calls, calls[1:]))

    # Interrupted before any batch finished: a study of no games, marked interrupted.
    def first_fails(first: int, count: int) -> StudySummary:
        if count:
            raise KeyboardInterrupt
        return simulate_summary(Rules(), 0, first_game=first)

    nothing = play_in_batches(
        first_fails,
        StudySummary.concat,
        lambda r: dataclasses.replace(r, interrupted=True),
        50,
        0,
        progress=False,
        partial=True,
        description="t",
    )
    assert nothing.interrupted and nothing.games == 0
    # Without partial the interrupt goes on up.
    calls.clear()
    with pytest.raises(KeyboardInterrupt):
        play_in_batches(play, SimulationResult.concat, mark, 10**6, 0, progress=False, partial=False, description="t")


@pytest.mark.skipif(sys.platform != "linux", reason="sends itself SIGINT")
def test_ctrl_c_with_partial_returns_the_games_played() -> None:
    # SIGINT 0.5 s into a study far too long to finish: Python's handler raises
    # KeyboardInterrupt in the engine's wait loop, and partial=True hands back the rows.
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        result = simulate(Rules(), 10**8, seed=5, partial=True, threads=2)
    finally:
        timer.cancel()
    assert result.interrupted and 0 < result.games < 10**8
    assert result.metadata()["interrupted"] is True
    assert np.array_equal(result.scores, simulate(Rules(), result.games, seed=5).scores)


@pytest.mark.skipif(sys.platform != "linux", reason="sends the child SIGINT")
def test_cli_partial_reports_and_writes_the_games_played(tmp_path: Path) -> None:
    out = tmp_path / "partial.csv"
    child = subprocess.Popen(
        [sys.executable, "-m", "carcassonne", "simulate", "--games", "100000000", "--threads", "2",
         "--partial", "--out", str(out), "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    time.sleep(2.0)
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert stdout.startswith("carcassonne simulate: ")
    games = int(stdout.split()[2])
    assert stderr == f"carcassonne: interrupted after {games} games\n"
    saved = read_results(out)
    assert saved.interrupted and saved.games == games > 0
    assert np.array_equal(saved.scores, simulate(Rules(), games).scores)


def test_cli_progress_flags(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from carcassonne.cli import main

    assert main(["simulate", "--games", "2000", "--progress"]) == 0
    captured = capsys.readouterr()
    assert "2000 games" in captured.out and "simulate: 100%" in captured.err
    # Not a terminal here: no bar by default.
    assert main(["simulate", "--games", "2000"]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    assert main(["simulate", "--games", "20", "--progress"]) == 2
    assert "needs tqdm" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform != "linux", reason="reads the memory available (Linux)")
def test_rows_that_cannot_fit_are_refused_before_the_first_batch() -> None:
    # As one call refuses them (the engine's message), for every way of playing in parts;
    # totals need no room and are not refused.
    for kwargs in ({}, {"partial": True}, {"progress": True}, {"backend": "dask"}):
        with pytest.raises(RulesError, match="need 98000000000000 bytes"):
            simulate(Rules(), 10**12, **kwargs)  # type: ignore[arg-type]
    # With out_dir the rows are streamed to disk, not kept: the disk is checked instead,
    # before anything is created.
    with pytest.raises(ResultsFileError, match="games need about 196000000000000 bytes on disk"):
        simulate(Rules(), 10**12, out_dir="/nonexistent/below")
    assert not Path("/nonexistent/below").exists()
