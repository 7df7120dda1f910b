"""Study directories and out_dirs are first-class: ``read_results(out_dir)`` joins the
batches, ``carcassonne report DIR`` reports a study directory cell by cell (labelled from
the manifest, with the cross-study summary) or an out_dir as one study."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from carcassonne import ResultsFileError, Rules, Study, read_results, simulate, simulate_summary
from carcassonne.cli import main

pytest.importorskip("pyarrow")


def test_read_results_joins_an_out_dir_of_batches(tmp_path: Path) -> None:
    whole = simulate(Rules(), 50, seed=3)
    simulate_summary(Rules(), 50, seed=3, out_dir=tmp_path / "batches", batch_games=12)
    back = read_results(tmp_path / "batches")
    assert back.games == 50 and np.array_equal(back.scores, whole.scores)
    (tmp_path / "batches" / "batch-00000000000000000012.parquet").unlink()
    with pytest.raises(ResultsFileError, match="not one study"):
        read_results(tmp_path / "batches")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ResultsFileError, match="without batch files"):
        read_results(tmp_path / "empty")


def test_read_results_points_a_study_directory_to_load_study(tmp_path: Path) -> None:
    Study(configs={"base": Rules()}, games=3, seed=1).run().save(tmp_path / "s", format="csv")
    with pytest.raises(ResultsFileError, match="load_study"):
        read_results(tmp_path / "s")


def test_report_of_a_study_directory_labels_cells_and_summarises_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    study = Study(
        configs={"base": Rules(), "no farmers": Rules(farmers=False)},
        games=30,
        seed=2,
        seats=[2, 3],
        lineups={"greedy": "greedy"},
    )
    directory = study.run().save(tmp_path / "study", format="parquet")
    out = tmp_path / "report.html"
    assert main(["report", str(directory), "-o", str(out)]) == 0
    assert "(4 studies)" in capsys.readouterr().out
    page = out.read_text()
    for label in ("base, 2 seats, greedy", "no farmers, 3 seats, greedy"):
        assert f"<h2>{label}</h2>" in page
    assert "cell-000" not in page
    assert 'id="summary"' in page and page.count("<tr><td class=\"text\">") >= 4
    # An out_dir reports as one study named after its directory.
    simulate_summary(Rules(), 20, seed=1, out_dir=tmp_path / "run", batch_games=7)
    assert main(["report", str(tmp_path / "run"), "-o", str(out)]) == 0
    assert "<h2>run</h2>" in out.read_text()


def test_progress_is_labelled_per_cell_and_works_with_out_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    seen = []
    Study(configs={"base": Rules(), "small": Rules(farmers=False)}, games=20, seed=1).run(
        progress=True, on_cell=lambda cell, result: seen.append((cell.key, result.games))
    )
    err = capsys.readouterr().err
    assert "base, 2 seats, random" in err and "small, 2 seats, random" in err
    assert seen == [(("base", 2, "random"), 20), (("small", 2, "random"), 20)]
    simulate(Rules(), 30, seed=1, out_dir=tmp_path / "rows", progress=True, batch_games=10, label="my run")
    assert "my run" in capsys.readouterr().err


def test_pandas_round_trips_keep_metadata_and_categories(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    import carcassonne

    result = simulate(Rules(players=3), 12, seed=4)
    frame = pd.read_parquet(result.save(tmp_path / "r.parquet"))
    assert frame.attrs["seed"] == 4 and frame.attrs["games"] == 12
    assert frame.attrs == {**result.metadata(), **{k: frame.attrs[k] for k in ("format", "format_version", "checksum")}}
    one = Study(configs={"base": Rules()}, games=5, seed=1).run().to_pandas()
    two = Study(configs={"ferries": Rules(tile_sets=("base", "ferries"))}, games=5, seed=2).run().to_pandas()
    both = carcassonne.concat_frames([one, two])
    assert len(both) == len(one) + len(two)
    assert isinstance(both.config.dtype, pd.CategoricalDtype)
    assert set(both.config.cat.categories) == {"base", "ferries"}
    assert set(both.attrs["studies"]) == set(both.study.cat.categories) and len(both.attrs["studies"]) == 2
    assert both.attrs["studies"][one.attrs["study"]]["seed"] == 1
    with pytest.raises(ValueError, match="columns"):
        carcassonne.concat_frames([one, result.to_pandas()])


MEMORY_CHILD = """
import sys, tempfile, carcassonne as c
def anon():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
# Warm up: the thread pool, pyarrow and its allocator.
c.simulate(c.Rules(), 1000, seed=1, out_dir=tempfile.mkdtemp(), batch_games=500)
before = anon()
r = c.simulate(c.Rules(), int(sys.argv[1]), seed=3, batch_games=10_000, out_dir=tempfile.mkdtemp())
assert r.games == int(sys.argv[1])
print(anon() - before)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_simulate_to_an_out_dir_keeps_no_rows_in_memory() -> None:
    """Three times the games, the same memory: the rows go to the batch files and to
    memory-mapped columns, one batch at a time (in memory, 300,000 games' rows take 29 MB)."""
    import subprocess
    import sys

    kept = [
        float(subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(n)], capture_output=True, text=True, check=True).stdout)
        for n in (100_000, 300_000)
    ]
    assert kept[1] - kept[0] < 8, kept


def test_streamed_rows_are_the_rows_of_one_call(tmp_path: Path) -> None:
    streamed = simulate(Rules(players=3), 700, seed=6, first_game=40, out_dir=tmp_path / "s", batch_games=250)
    whole = simulate(Rules(players=3), 700, seed=6, first_game=40)
    for name in ("scores", "winners", "turns", "points_by_kind", "discarded", "ships", "wares_left"):
        assert np.array_equal(getattr(streamed, name), getattr(whole, name)), name
    assert streamed.first_game == 40 and streamed.games == 700
    assert np.array_equal(read_results(tmp_path / "s").scores, whole.scores)
