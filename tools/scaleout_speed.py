#!/usr/bin/env python3
"""Speed of a study through Dask on this machine against a local run with the same number
of threads (the target: Dask should reach 90% of the local speed).

    python3 tools/scaleout_speed.py                       # 10,000,000 random base games
    python3 tools/scaleout_speed.py --games 1000000 --threads 2 --rows

Both runs play the same games (checked: identical totals). The local run is
``simulate_summary(threads=T)``; the Dask run is the same call with ``backend="dask"`` on a
``LocalCluster`` of T single-threaded worker processes, started before the clock starts.
``--rows`` times ``simulate`` (every game's row sent back to the client) instead.
Needs ``pip install -e '.[dask]'``. Wall-clock figures: quote them with the machine.
"""

from __future__ import annotations

import argparse
import time

from carcassonne import Rules, simulate, simulate_summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch-games", type=int, default=None)
    parser.add_argument("--rows", action="store_true", help="time simulate (rows) instead of simulate_summary")
    args = parser.parse_args()
    from distributed import Client, LocalCluster

    play = simulate if args.rows else simulate_summary
    rules = Rules()
    start = time.perf_counter()
    local = play(rules, args.games, seed=1, threads=args.threads)
    local_seconds = time.perf_counter() - start
    with LocalCluster(n_workers=args.threads, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.run(lambda: None)  # the workers are up
            start = time.perf_counter()
            remote = play(rules, args.games, seed=1, backend="dask", client=client, batch_games=args.batch_games)
            remote_seconds = time.perf_counter() - start
    same = local.summary().totals == remote.summary().totals if args.rows else local.totals == remote.totals  # type: ignore[union-attr]
    print(f"{args.games:,} games, {args.threads} threads, {'rows' if args.rows else 'totals'}")
    print(f"local: {args.games / local_seconds:,.0f} games/s ({local_seconds:.1f} s)")
    print(f"dask:  {args.games / remote_seconds:,.0f} games/s ({remote_seconds:.1f} s)")
    print(f"dask / local: {local_seconds / remote_seconds:.3f}; identical results: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
