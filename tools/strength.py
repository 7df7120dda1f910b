#!/usr/bin/env python3
"""The players' strength table: head-to-head win shares in two-player games, with 95%
Wilson intervals, for the docs (docs/guide/players.md).

    python3 tools/strength.py                                  # the full table (long)
    python3 tools/strength.py --games 100 --playouts 200       # a quick look
    python3 tools/strength.py --systems base --pairs greedy:random

Each pairing plays ``--games`` games: half with the first player in seat 0, half (the same
deals, seed for seed) with the seats swapped, so neither the first-seat advantage nor the
luck of the deal favours one side. A tie counts half a win. Needs the package installed
(``pip install -e .``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

from carcassonne import Rules, simulate
from carcassonne.players import MCTS, Greedy, PlayerLike, Random

Z_95 = 1.959963984540054

SYSTEMS = {
    "base": dict(players=2),
    "ferries": dict(players=2, tile_sets=("base", "ferries")),
    "south-seas": dict(players=2, tile_sets=("south-seas",)),
    "friday": dict(players=2, tile_sets=("south-seas",), friday=True),
    "maps": dict(players=2, map="continental"),
}


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (ties counted as half wins)."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    z2 = Z_95 * Z_95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z_95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def player(name: str, mcts: MCTS) -> PlayerLike:
    return {"random": Random(), "greedy": Greedy(), "mcts": mcts}[name]


def head_to_head(rules: Rules, a: PlayerLike, b: PlayerLike, games: int, seed: int, threads: int | None) -> tuple[float, int, float]:
    """(a's wins, games, seconds): half the games with a in seat 0, half swapped."""
    half = games // 2
    start = time.perf_counter()
    first = simulate(rules, half, seed=seed, players=[a, b], threads=threads)
    second = simulate(rules, half, seed=seed, players=[b, a], threads=threads)
    seconds = time.perf_counter() - start
    wins = float(first.win_shares()[:, 0].sum() + second.win_shares()[:, 1].sum())
    return wins, 2 * half, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing (default 1000)")
    parser.add_argument("--playouts", type=int, default=1000, help="MCTS playouts per action (default 1000)")
    parser.add_argument("--systems", nargs="+", default=["base", "ferries", "south-seas"], choices=sorted(SYSTEMS))
    parser.add_argument("--pairs", nargs="+", default=["mcts:greedy", "greedy:random", "mcts:random"])
    parser.add_argument("--exploration", type=float, default=MCTS().exploration, help="MCTS: the UCT constant")
    parser.add_argument(
        "--cutoff", default=str(MCTS().cutoff), help="MCTS: tiles per playout before it is judged, or 'none'"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    cutoff = None if args.cutoff.lower() == "none" else int(args.cutoff)
    mcts = MCTS(playouts=args.playouts, exploration=args.exploration, cutoff=cutoff)
    print("| rule system | pairing | games | first player's win share | 95% interval | seconds |")
    print("|---|---|---:|---:|---|---:|")
    for system in args.systems:
        rules = Rules(**SYSTEMS[system])  # type: ignore[arg-type]
        for pair in args.pairs:
            a, b = pair.split(":")
            wins, n, seconds = head_to_head(
                rules, player(a, mcts), player(b, mcts), args.games, args.seed, args.threads
            )
            low, high = wilson(wins, n)
            label = pair.replace("mcts", mcts.name).replace(":", " vs ")
            print(f"| {system} | {label} | {n} | {wins / n:.3f} | [{low:.3f}, {high:.3f}] | {seconds:.0f} |")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
