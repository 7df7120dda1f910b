"""What tests observe of a game and how they play one at random, in one place: a full
snapshot for "the game is unchanged" checks, meeple counts from the board view, and random
play that favours ferry moves when there are some (uniform otherwise)."""

from __future__ import annotations

import random
from typing import Any

from carcassonne import Game, Move


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game; equal snapshots mean an unchanged game."""
    return (
        game.to_json(),
        list(game.supply),
        list(game.scores),
        game.current_player,
        game.tile,
        game.turn,
        game.is_over,
        [repr(p) for p in game.board],
        list(game.ferries),
        list(game.remaining_tiles),
        list(game.discarded),
        list(game.moves),
        [repr(e) for e in game.events],
        [repr(f) for f in game.features()],
        game.legal_moves(),
    )


def board_meeples(game: Game) -> list[int]:
    """Meeples standing on the board, per player."""
    counts = [0] * game.rules.players
    for placed in game.board:
        if placed.meeple is not None:
            player, _index = placed.meeple
            counts[player] += 1
    return counts


def pick(legal: list[Move], rnd: random.Random) -> Move:
    """A random listed move; one that moves ferries most of the time when there are some.
    Without ferry moves it draws exactly like ``legal[rnd.randrange(len(legal))]``."""
    with_moves = [m for m in legal if m.ferry_moves]
    pool = with_moves if with_moves and rnd.random() < 0.75 else legal
    return pool[rnd.randrange(len(pool))]


def play_random(game: Game, rnd: random.Random, turns: int | None = None) -> None:
    """Plays up to ``turns`` random moves (all remaining ones when None)."""
    n = 0
    while not game.is_over and (turns is None or n < turns):
        if game.phase == "market":
            slots = game.market_ships()
            game.take_market_ship(slots[rnd.randrange(len(slots))])
            continue
        if game.phase == "deliver":
            # South Seas step 4 belongs to the turn just played: deliver or not.
            options = [*game.legal_deliveries(), None]
            game.deliver(options[rnd.randrange(len(options))])
            continue
        game.play(pick(game.legal_moves(), rnd))
        n += 1
