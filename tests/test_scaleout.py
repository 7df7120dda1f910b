"""Scale-out (``carcassonne.scaleout``): a study on a Dask ``LocalCluster`` and on a local
Ray instance gives the rows and totals of a local run, streams one Parquet file per batch,
and refuses what it cannot run."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from carcassonne import Rules, SimulationResult, Study, StudyError, read_results, simulate, simulate_summary
from carcassonne.players import MCTS
from carcassonne.study.scaleout import BackendError, batch_path, batches

ARRAYS = ("scores", "winners", "turns", "points_by_kind", "discarded", "ships", "wares_left")


def same_rows(a: SimulationResult, b: SimulationResult) -> None:
    for name in ARRAYS:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert (a.first_game, a.seed, a.players, a.rules) == (b.first_game, b.seed, b.players, b.rules)


def test_batches_cover_the_games_once() -> None:
    assert list(batches(10, 5, 4, 1)) == [(5, 4), (9, 4), (13, 2)]
    assert len(batches(2**62, 0, None, 1)) == 2**62 // 100_000 + 1
    assert list(batches(0, 5, None, 3)) == []
    plan = batches(10**7, 0, None, 2)
    assert all(count == 100_000 for _, count in plan) and len(plan) == 100
    assert list(batches(7, 0, None, 2)) == [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]
    with pytest.raises(BackendError, match="batch_games must be at least 1"):
        batches(10, 0, 0, 1)


def test_local_batches_stream_to_parquet(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    rules = Rules(tile_sets=("south-seas",), friday=True)
    streamed = simulate(rules, 250, seed=3, first_game=10, out_dir=tmp_path, batch_games=100)
    same_rows(streamed, simulate(rules, 250, seed=3, first_game=10))
    files = sorted(tmp_path.glob("batch-*"))
    assert files == [batch_path(tmp_path, 10), batch_path(tmp_path, 110), batch_path(tmp_path, 210)]
    # The rows themselves are memory-mapped columns beside them, not kept in memory.
    assert sorted(p.name for p in (tmp_path / "rows").iterdir())[:2] == ["discarded.npy", "points_by_kind.npy"]
    same_rows(SimulationResult.concat([read_results(f) for f in files]), streamed)


def test_backends_refuse_what_they_cannot_run() -> None:
    with pytest.raises(BackendError, match="unknown backend 'spark'"):
        simulate(Rules(), 10, backend="spark")
    with pytest.raises(BackendError, match="partial=True plays in memory"):
        simulate(Rules(), 10, backend="dask", partial=True)
    with pytest.raises(StudyError, match="partial=True is for local runs"):
        Study(configs={"b": Rules()}, games=5).run(backend="dask", partial=True)
    # The player errors of a local run, before any batch is sent anywhere.
    with pytest.raises(ValueError, match="unknown player"):
        simulate(Rules(), 10, backend="dask", players=["chess", "random"])
    assert issubclass(BackendError, ValueError)


def test_dask_without_a_client_says_how_to_start_one() -> None:
    distributed = pytest.importorskip("distributed")
    try:
        distributed.get_client()
    except ValueError:
        with pytest.raises(BackendError, match="start one"):
            simulate(Rules(), 10, backend="dask")
    else:
        pytest.skip("a dask client of another test module is current in this process")


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


def test_dask_gives_the_local_results(dask_client: Any, tmp_path: Path) -> None:
    for rules, players, games in [
        (Rules(players=3), "random", 3000),
        (Rules(tile_sets=("base", "ferries")), ["greedy", "random"], 400),
    ]:
        local = simulate(rules, games, seed=8, first_game=40, players=players)
        remote = simulate(rules, games, seed=8, first_game=40, players=players, backend="dask", batch_games=150)
        same_rows(remote, local)
        totals = simulate_summary(rules, games, seed=8, first_game=40, players=players, backend="dask")
        assert totals.totals == local.totals()
    # MCTS settings travel to the workers; rows streamed to one file per batch.
    lineup = [MCTS(playouts=10), "greedy"]
    streamed = simulate(Rules(), 6, seed=2, players=lineup, backend="dask", batch_games=2, out_dir=tmp_path)
    same_rows(streamed, simulate(Rules(), 6, seed=2, players=lineup))
    assert sorted(p.name for p in tmp_path.iterdir()) == [batch_path(tmp_path, i).name for i in (0, 2, 4)]
    # A study on the cluster equals the local study.
    study = Study(configs={"base": Rules(), "4p": Rules(players=4)}, games=500, seed=5)
    on_dask, here = study.run(backend="dask", client=dask_client), study.run()
    for key in here.results:
        same_rows(on_dask[key], here[key])


@pytest.mark.skipif(sys.platform != "linux", reason="Ray is tested on Linux only")
def test_ray_gives_the_local_results(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        local = simulate(Rules(players=3), 2000, seed=6)
        remote = simulate(Rules(players=3), 2000, seed=6, backend="ray", batch_games=500, out_dir=tmp_path)
        same_rows(remote, local)
        assert len(list(tmp_path.iterdir())) == 4
        totals = simulate_summary(Rules(players=3), 2000, seed=6, backend="ray")
        assert totals.totals == local.totals()
        with pytest.raises(BackendError, match="takes no client"):
            simulate(Rules(), 10, backend="ray", client=object())
    finally:
        ray.shutdown()
