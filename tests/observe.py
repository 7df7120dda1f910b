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
        game.phase,
        game.decider,
        game.wares,
        [repr(s) for s in game.ship_display],
        game.ship_pile,
        game.ships_taken,
        game.boat_tokens_left,
        [repr(e) for e in game.sea_events],
        game.legal_deliveries(),
        game.friday_order,
        game.friday_revealed,
        game.friday_at,
        game.weeks_done,
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


Action = tuple[str, tuple[Any, ...]]
"""A decision as a Game method name and its arguments, so it can be applied to copies."""


def random_action(game: Game, rnd: random.Random) -> Action:
    """A random decision for the current phase: a listed move (see ``pick``), or a South
    Seas decision (market ship, Friday's move, homecoming, a trade now and then, a delivery
    or none)."""
    if game.phase == "market":
        slots = game.market_ships()
        return ("take_market_ship", (slots[rnd.randrange(len(slots))],))
    if game.phase == "move_friday":
        targets = game.friday_targets()
        return ("move_friday", (targets[rnd.randrange(len(targets))],))
    if game.phase == "homecoming":
        spots = game.homecoming_choices()
        return ("take_home", spots[rnd.randrange(len(spots))])
    if game.phase == "deliver":
        trades = game.legal_trades()
        if trades and rnd.random() < 0.3:
            return ("trade", trades[rnd.randrange(len(trades))])
        options = [*game.legal_deliveries(), None]
        return ("deliver", (options[rnd.randrange(len(options))],))
    return ("play", (pick(game.legal_moves(), rnd),))


def apply(game: Game, action: Action) -> None:
    name, args = action
    getattr(game, name)(*args)


def play_random(game: Game, rnd: random.Random, turns: int | None = None) -> None:
    """Plays up to ``turns`` random turns (all remaining ones when None), with every
    decision of those turns."""
    n = 0
    while not game.is_over and (turns is None or n < turns or game.phase != "place"):
        action = random_action(game, rnd)
        apply(game, action)
        n += action[0] == "play"
