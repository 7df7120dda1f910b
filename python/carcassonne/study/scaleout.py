"""Studies spread over a Dask or Ray cluster: the study is cut into batches of consecutive
games (``first_game``), each batch is one ``simulate`` (or ``simulate_summary``) call on a
worker, and the batches are joined with ``concat``. Game ``i`` is the same game on any
worker, so the result is identical to a local run with the same seed.

With ``out_dir`` every worker also writes its batch's rows to ``out_dir/batch-<first
game>.parquet`` as soon as it is played (streamed: a study whose rows do not fit in one
machine's memory can be played with ``simulate_summary`` and the rows kept on disk), and
``read_results`` reads each file back with its metadata.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, overload

from carcassonne._core import CarcassonneError
from carcassonne.files import probe_directory, quote

BACKENDS = ("local", "dask", "ray")
"""Where ``simulate(..., backend=...)`` plays: here, on a Dask cluster, on Ray."""

MAX_BATCH_GAMES = 100_000
"""Default batch size ceiling: large enough that a batch's overhead (scheduling, moving
its rows) is small against its play, small enough to spread work and stream results."""


class BackendError(CarcassonneError):
    """A backend that cannot run the study: unknown, not installed, no cluster to run on."""


def prepare_out_dir(out_dir: str | os.PathLike[str]) -> str:
    """Makes ``out_dir`` (and its parents) if needed and checks it can take batch files
    (a file is made there and removed: ``probe_directory``), before the first game;
    ``ResultsFileError`` naming it otherwise."""
    from carcassonne.study.results_file import ResultsFileError

    if "\0" in os.fspath(out_dir):
        raise ResultsFileError(f"{quote(os.fspath(out_dir), 300)}: cannot write batch files: the path has a NUL byte")
    target = Path(out_dir)
    if target.exists() and not target.is_dir():
        raise ResultsFileError(f"{target}: cannot write batch files: it is not a directory")
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ResultsFileError(f"{target}: cannot write batch files: {e.strerror or e}") from None
    if not os.access(target, os.W_OK | os.X_OK):
        raise ResultsFileError(f"{target}: cannot write batch files: the directory is not writable")
    reason = probe_directory(target)
    if reason is not None:
        raise ResultsFileError(f"{target}: cannot write batch files: {reason}")
    return str(target)


ROWS_DIR = "rows"
"""Where ``stream_rows`` keeps the columns of a streamed study inside its ``out_dir``: one
``.npy`` file per column, memory-mapped."""


def _row_shapes(rules: Any, games: int) -> dict[str, tuple[tuple[int, ...], Any]]:
    """Shape and dtype of each column of a study's rows."""
    import numpy as np

    from carcassonne._core import SCORE_KINDS

    players = rules.players if rules is not None else 2
    return {
        "scores": ((games, players), np.int32),
        "winners": ((games, players), np.bool_),
        "turns": ((games,), np.uint32),
        "points_by_kind": ((games, players, len(SCORE_KINDS)), np.int32),
        "discarded": ((games,), np.uint32),
        "ships": ((games, players), np.uint32),
        "wares_left": ((games, players), np.uint32),
    }


def check_disk(out_dir: str | os.PathLike[str], rules: Any, games: int) -> None:
    """Refuses, before anything is created or played, a streamed study whose rows would not
    fit on the disk of ``out_dir`` (the columns, and as much again for the batch files)."""
    import shutil

    import numpy as np

    from carcassonne.study.results_file import ResultsFileError

    need = 2 * sum(int(np.prod(shape)) * np.dtype(dtype).itemsize for shape, dtype in _row_shapes(rules, games).values())
    place = Path(out_dir).absolute()
    while not place.exists() and place != place.parent:
        place = place.parent
    try:
        free = shutil.disk_usage(place).free
    except OSError as e:
        raise ResultsFileError(f"{out_dir}: cannot write batch files: {e.strerror or e}") from None
    if need > free:
        raise ResultsFileError(
            f"{out_dir}: {games} games need about {need} bytes on disk, {free} are free there; "
            "keep only the totals (simulate_summary) or choose another out_dir"
        )


def stream_rows(
    plan: Sequence[tuple[int, int]],
    kwargs: dict[str, Any],
    out_dir: str,
    games: int,
    first_game: int,
    bar: Any,
    play_batch: Callable[..., Any],
) -> Any:
    """Plays the batches one after another, writes each to its batch file and copies its
    rows into memory-mapped column files (``out_dir/rows/*.npy``), dropping it before the
    next: the memory a study takes is one batch's, whatever its size, and the result's
    columns are read from disk as they are used (``check_disk`` first)."""
    import dataclasses

    import numpy as np

    shapes = _row_shapes(kwargs["rules"], games)
    rows = Path(out_dir) / ROWS_DIR
    rows.mkdir(exist_ok=True)
    columns = {
        name: np.lib.format.open_memmap(rows / f"{name}.npy", mode="w+", dtype=dtype, shape=shape)
        for name, (shape, dtype) in shapes.items()
    }
    head = None
    elapsed = 0.0
    threads = 1
    for first, count in plan or [(first_game, 0)]:
        part = play_batch(False, kwargs, first, count, out_dir)
        at = first - first_game
        for name, column in columns.items():
            column[at : at + count] = getattr(part, name)
        elapsed += part.elapsed_seconds
        threads = max(threads, part.threads)
        if head is None:
            head = part
        if bar is not None:
            bar.update(count)
        del part
    for column in columns.values():
        column.flush()
    del columns
    assert head is not None  # the plan has at least one batch
    read = {name: np.load(rows / f"{name}.npy", mmap_mode="r") for name in shapes}
    return dataclasses.replace(head, first_game=first_game, elapsed_seconds=elapsed, threads=threads, **read)


def batch_path(out_dir: str | os.PathLike[str], first_game: int) -> Path:
    """The Parquet file of the batch starting at ``first_game``."""
    return Path(out_dir) / f"batch-{first_game:020d}.parquet"


MAX_JOBS = 1_000_000
"""Most batches one study may send to a cluster (each is a task the scheduler holds):
a larger plan is refused with the ``batch_games`` that would fit."""


class Batches(Sequence[tuple[int, int]]):
    """(first game, games) of each batch, computed on demand: a plan of any number of
    games takes no memory (``simulate_summary(2**62, out_dir=...)`` is a plan of 4.6e13
    batches)."""

    def __init__(self, games: int, first_game: int, size: int) -> None:
        self.games, self.first_game, self.size = games, first_game, size

    def __len__(self) -> int:
        return -(-self.games // self.size)

    @overload
    def __getitem__(self, i: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[tuple[int, int]]: ...
    def __getitem__(self, i: int | slice) -> tuple[int, int] | Sequence[tuple[int, int]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        start = i * self.size
        return (self.first_game + start, min(self.size, self.games - start))

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for start in range(0, self.games, self.size):
            yield (self.first_game + start, min(self.size, self.games - start))


def batches(games: int, first_game: int, batch_games: int | None, workers: int) -> Batches:
    """(first game, games) of each batch: ``batch_games`` each (default: about four
    batches per worker, at most ``MAX_BATCH_GAMES``)."""
    if batch_games is None:
        batch_games = min(MAX_BATCH_GAMES, max(1, math.ceil(games / (4 * max(1, workers)))))
    if batch_games < 1:
        raise BackendError(f"batch_games must be at least 1, got {batch_games}")
    return Batches(games, first_game, batch_games)


def run(
    backend: str,
    totals: bool,
    kwargs: dict[str, Any],
    games: int,
    first_game: int,
    *,
    batch_games: int | None,
    out_dir: str | os.PathLike[str] | None,
    client: Any,
    progress: bool,
    join: Callable[[list[Any]], Any],
    play_batch: Callable[..., Any],
    label: str = "simulate",
) -> Any:
    """Plays the study's batches on ``backend`` and joins them (see the module comment)."""
    if backend == "dask":
        submit = _dask(client, play_batch)
    elif backend == "ray":
        submit = _ray(client, play_batch)
    else:
        raise BackendError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    target = None if out_dir is None else prepare_out_dir(out_dir)
    workers, play = submit
    plan: Sequence[tuple[int, int]] = batches(games, first_game, batch_games, workers)
    if len(plan) > MAX_JOBS:
        raise BackendError(
            f"{games} games in {len(plan)} batches: a cluster takes at most {MAX_JOBS} batches per study; "
            f"give batch_games={-(-games // MAX_JOBS)} or more"
        )
    if not plan:
        plan = [(first_game, 0)]
    bar = None
    if progress:
        from carcassonne.study.batches import _bar

        bar = _bar(games, f"{label} ({backend})")
    try:
        parts = play([(totals, kwargs, first, count, target) for first, count in plan], bar)
    finally:
        if bar is not None:
            bar.close()
    return join(parts)


def _dask(client: Any, play_batch: Callable[..., Any]) -> tuple[int, Callable[[list[tuple[Any, ...]], Any], list[Any]]]:
    try:
        import distributed  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        raise BackendError("backend='dask' needs dask.distributed: pip install 'carcassonne[dask]'") from None
    if client is None:
        try:
            client = distributed.get_client()
        except ValueError:
            raise BackendError(
                "backend='dask' runs on a dask.distributed Client: start one (Client() or "
                "Client(address)) or pass client="
            ) from None
    workers = max(1, len(client.scheduler_info().get("workers", {})))

    def play(jobs: list[tuple[Any, ...]], bar: Any) -> list[Any]:
        futures = [client.submit(play_batch, *job, pure=False) for job in jobs]
        try:
            for future in distributed.as_completed(futures):  # type: ignore[no-untyped-call, unused-ignore]
                if bar is not None:
                    bar.update(jobs[futures.index(future)][3])
            return list(client.gather(futures))
        except BaseException:
            client.cancel(futures)
            raise

    return workers, play


def _ray(client: Any, play_batch: Callable[..., Any]) -> tuple[int, Callable[[list[tuple[Any, ...]], Any], list[Any]]]:
    try:
        import ray  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        raise BackendError("backend='ray' needs Ray: pip install 'carcassonne[ray]'") from None
    if client is not None:
        raise BackendError("backend='ray' takes no client: call ray.init(...) (or nothing, for a local Ray)")
    if not ray.is_initialized():
        ray.init()
    workers = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call, unused-ignore]
    remote = ray.remote(play_batch)

    def play(jobs: list[tuple[Any, ...]], bar: Any) -> list[Any]:
        refs = [remote.remote(*job) for job in jobs]
        sizes = {ref: job[3] for ref, job in zip(refs, jobs)}
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                if bar is not None:
                    bar.update(sum(sizes[r] for r in done))
            return list(ray.get(refs))
        except BaseException:
            for ref in refs:
                ray.cancel(ref)
            raise

    return workers, play
