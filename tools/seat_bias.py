"""The seat-bias figures of the docs (docs/guide/players.md), reproduced: greedy players in every rule system, win
shares with ties split (1/k for each of k tied winners, so every row sums to 1), Wilson
intervals, the all-seats-equal test, and who placed the last tile.

    python tools/seat_bias.py table [--games 2000]     # the 4-player table, one row per system
    python tools/seat_bias.py counts [--games 4000]    # South Seas with and without Friday, 3-5 players

Prints markdown; seeds are fixed (study seed 1), so the figures are the same on every
machine and thread count."""

from __future__ import annotations

import argparse

import numpy as np

from carcassonne import Rules, simulate, stats

SYSTEMS = {
    "base": {},
    "base + I&C + T&B": {
        "tile_sets": ("base", "inns-and-cathedrals", "traders-and-builders"),
        "inns_and_cathedrals_scoring": True,
        "traders_goods": True,
    },
    "base + The Ferries": {"tile_sets": ("base", "ferries")},
    "South Seas": {"tile_sets": ("south-seas",)},
    "South Seas with Friday": {"tile_sets": ("south-seas",), "friday": True},
    "Maps, continental": {"map": "continental"},
}


def last_placer(turns: np.ndarray, players: int) -> np.ndarray:
    """The seat that placed the last tile: turn t (from 1) is seat (t - 1) mod players (no
    rule system here gives extra turns)."""
    return (turns.astype(np.int64) + players - 1) % players


def table(games: int) -> None:
    print("| system | seat 0 | seat 1 | seat 2 | seat 3 | all seats equal | ties | seat placing the last tile |")
    print("|---|---|---|---|---|---|---|---|")
    for name, kwargs in SYSTEMS.items():
        result = simulate(Rules(players=4, **kwargs), games, seed=1, policy="greedy")
        shares = stats.win_shares(result)
        cells = [f"{s.share.estimate:.3f} ({s.share.low:.3f}-{s.share.high:.3f})" for s in shares]
        equal = stats.seats_equal(result)
        ties = stats.spread(result).tie_rate.estimate
        last = np.bincount(last_placer(result.turns, 4), minlength=4) / result.games
        top = int(last.argmax())
        where = f"{top} ({last[top]:.0%} of games)" if last[top] > 0.5 else "any (" + ", ".join(f"{v:.0%}" for v in last) + ")"
        print(f"| {name} | {' | '.join(cells)} | p = {equal.p_value:.2g} | {ties:.3f} | {where} |")


def counts(games: int) -> None:
    print("| system | players | win shares by seat (ties split) | all seats equal | seat placing the last tile |")
    print("|---|---|---|---|---|")
    for name in ("South Seas", "South Seas with Friday"):
        for players in (3, 4, 5):
            result = simulate(Rules(players=players, **SYSTEMS[name]), games, seed=1, policy="greedy")
            shares = ", ".join(f"{s.share.estimate:.3f}" for s in stats.win_shares(result))
            last = np.bincount(last_placer(result.turns, players), minlength=players) / result.games
            top = int(last.argmax())
            equal = stats.seats_equal(result)
            print(f"| {name} | {players} | {shares} | p = {equal.p_value:.2g} | {top} ({last[top]:.0%}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("table", "counts"))
    parser.add_argument("--games", type=int, default=None)
    args = parser.parse_args()
    if args.what == "table":
        table(args.games or 2000)
    else:
        counts(args.games or 4000)


if __name__ == "__main__":
    main()
