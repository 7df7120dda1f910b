#!/usr/bin/env python3
"""Head-to-head strength of pairs of players in two-player games, as a Markdown table:
paired matches (``carcassonne.rating.match``), with the first player's score and Elo and
their 95% intervals from the pentanomial model.

    python3 tools/strength.py --pairs 100 --playouts 200              # a quick look
    python3 tools/strength.py --systems base-2p --matchups greedy:random

Each matchup plays ``--pairs`` deals twice, once with each seating (deal ``i`` is game
``i`` of ``simulate(rules, pairs, seed=SEED)`` with either player first), so neither the
first seat nor the luck of the deal favours one side. A tie counts half a win. The rule
systems are those of the reference ladders (``carcassonne.rating.SYSTEMS``); for a
player's rating on the ladder, use ``carcassonne rate``. Needs the package installed
(``pip install -e .``).
"""

from __future__ import annotations

import argparse
import sys

from carcassonne.players import MCTS, Greedy, PlayerLike, Random
from carcassonne.rating import SYSTEMS, match


def player(name: str, mcts: MCTS) -> PlayerLike:
    """``random``, ``greedy`` or ``mcts`` (the MCTS settings of the command line)."""
    players: dict[str, PlayerLike] = {"random": Random(), "greedy": Greedy(), "mcts": mcts}
    return players[name]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=500, help="pairs of games per matchup (default 500)")
    parser.add_argument("--playouts", type=int, default=1000, help="MCTS playouts per action (default 1000)")
    two_player = sorted(name for name, rules in SYSTEMS.items() if rules.players == 2)
    parser.add_argument("--systems", nargs="+", default=["base-2p", "ferries-2p", "south-seas-2p"], choices=two_player)
    parser.add_argument("--matchups", nargs="+", default=["mcts:greedy", "greedy:random"], metavar="A:B")
    parser.add_argument("--exploration", type=float, default=MCTS().exploration, help="MCTS: the UCT constant")
    parser.add_argument(
        "--cutoff", default=str(MCTS().cutoff), help="MCTS: tiles per playout before it is judged, or 'none'"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    cutoff = None if args.cutoff.lower() == "none" else int(args.cutoff)
    mcts = MCTS(playouts=args.playouts, exploration=args.exploration, cutoff=cutoff)
    print("| rule system | matchup | pairs | first player's score | 95% interval | Elo | 95% interval | seconds |")
    print("|---|---|---:|---:|---|---:|---|---:|")
    for system in args.systems:
        for matchup in args.matchups:
            a, b = matchup.split(":")
            result = match(
                SYSTEMS[system], player(a, mcts), player(b, mcts), args.pairs, seed=args.seed, threads=args.threads
            )
            if result.partial:
                print(f"interrupted after {result.pairs} pairs", file=sys.stderr)
                return 130
            e = result.estimate
            label = f"{result.players[0]} vs {result.players[1]}"
            # A sweep (every game won by one side) has no finite Elo: say so, not "inf".
            elo = "sweep | " if e.score in (0.0, 1.0) else f"{e.elo:.0f} | {e.elo_low:.0f} to {e.elo_high:.0f}"
            print(
                f"| {system} | {label} | {result.pairs} | {e.score:.3f} | {e.score_low:.3f} to {e.score_high:.3f} "
                f"| {elo} | {result.seconds:.0f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
