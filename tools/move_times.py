#!/usr/bin/env python3
"""CPU time a turn of each strong player, as a Markdown table: whole two-player games of
one rule system with the player in both seats, on one thread, the players taken in turn
round after round (so that a change of load during the run touches them all alike).

    python3 tools/move_times.py                       # base game, two rounds
    python3 tools/move_times.py --system ferries-2p --rounds 3

Process CPU seconds (``time.process_time``), not wall-clock time: on a loaded machine
they move less, but compare players only within one run. A turn is a tile placed (with
its meeple choice). Needs the package installed (``pip install -e .``).
"""

from __future__ import annotations

import argparse
import time

from carcassonne import simulate
from carcassonne.players import MCTS, Learned, LearnedExpectimax
from carcassonne.rating import SYSTEMS

# Player, games a round (a round of each takes a few seconds).
PLAYERS: tuple[tuple[Learned | LearnedExpectimax | MCTS, int], ...] = (
    (Learned(), 40),
    (LearnedExpectimax(), 4),
    (MCTS(), 4),
    (MCTS(playouts=10_000), 1),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--system", choices=list(SYSTEMS), default="base-2p")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    rules = SYSTEMS[args.system]
    seconds = [0.0] * len(PLAYERS)
    turns = [0] * len(PLAYERS)
    played = [0] * len(PLAYERS)
    for r in range(args.rounds):
        for i, (player, games) in enumerate(PLAYERS):
            started = time.process_time()
            result = simulate(rules, games=games, seed=100 + r, players=player, threads=1)
            seconds[i] += time.process_time() - started
            turns[i] += int(sum(result.turns))
            played[i] += games
    print(f"| player ({args.system}, both seats, one thread) | ms a turn | games a second |")
    print("|---|---:|---:|")
    for (player, _), s, t, g in zip(PLAYERS, seconds, turns, played):
        print(f"| {player.name} | {1000 * s / t:.2f} | {g / s:.2f} |")


if __name__ == "__main__":
    main()
