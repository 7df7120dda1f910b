"""What tests observe of a game and how they play one at random, in one place: a full
snapshot for "the game is unchanged" checks, meeple counts from the board view, and random
play that favours ferry moves when there are some (uniform otherwise)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from carcassonne import Decision, Game, Move, Rules


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game; equal snapshots mean an unchanged game. A
    system the rules do not play shows as None."""
    sea, friday, ferries = game.sea, game.friday, game.ferries
    return (
        game.phase,
        game.decider,
        sea
        and (
            sea.wares,
            [repr(s) for s in sea.display],
            sea.pile,
            sea.ships_taken,
            sea.boat_tokens_left,
            [repr(e) for e in sea.events],
            sea.legal_deliveries(),
        ),
        friday and (friday.order, friday.revealed, friday.at, friday.weeks_done),
        game.to_json(),
        list(game.supply),
        list(game.scores),
        game.current_player,
        game.tile,
        game.turn,
        game.is_over,
        [repr(p) for p in game.board],
        ferries and ferries.links,
        list(game.remaining_tiles),
        list(game.discarded),
        list(game.moves),
        [repr(e) for e in game.events],
        [repr(f) for f in game.features()],
        game.legal_moves(),
    )


def ferry_links(game: Game) -> list[tuple[int, int, int, int]] | None:
    """Every ferry (``game.ferries.links``), or None without The Ferries."""
    return game.ferries.links if game.ferries is not None else None


def movable_ferries(game: Game, x: int, y: int, rotation: int) -> list[tuple[int, int]] | None:
    """``game.ferries.movable(x, y, rotation)``, or None without The Ferries."""
    return game.ferries.movable(x, y, rotation) if game.ferries is not None else None


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


def tied_ships(rules: Rules) -> list[str]:
    """A ship order whose four face-up ships all have the most points, so that a completed
    market makes its merchant choose (random play seldom completes one otherwise)."""
    display = 4
    best = max(s.points for s in rules.ships)
    top = [s.id for s in rules.ships if s.points == best]
    if len(top) < display:
        best = sorted({s.points for s in rules.ships})[-2]
        top = [s.id for s in rules.ships if s.points == best]
    first = top[:display]
    return first + [s.id for s in rules.ships if s.id not in first]


Action = tuple[str, tuple[Any, ...]]
"""A decision as a name ("play", or the kind of a ``Decision``: "deliver", "market_ship",
"move_friday" with a Friday tile id, "take_home", "trade", "extra_turn") and its
arguments, so it can be applied to copies and compared (see ``as_action`` for the action
it stands for)."""


def random_action(game: Game, rnd: random.Random) -> Action:
    """A random decision for the current phase: a listed move (see ``pick``), the Maps
    extra turn taken or not (evens), or a South Seas decision (market ship, Friday's move,
    homecoming, a trade now and then, a delivery or none)."""
    if game.phase == "place":
        return ("play", (pick(game.legal_moves(), rnd),))
    if game.phase == "extra_turn":
        # Maps, small-town variant 1: the extra turn taken or declined at evens.
        return ("extra_turn", (rnd.random() < 0.5,))
    sea, friday = game.sea, game.friday
    assert sea is not None, "only South Seas and the Maps extra turn have other phases"
    if game.phase == "market":
        slots = sea.market_ships()
        return ("market_ship", (slots[rnd.randrange(len(slots))],))
    if game.phase == "move_friday":
        assert friday is not None
        targets = friday.targets()
        return ("move_friday", (targets[rnd.randrange(len(targets))],))
    if game.phase == "homecoming":
        assert friday is not None
        spots = friday.homecoming_choices()
        return ("take_home", spots[rnd.randrange(len(spots))])
    assert game.phase == "deliver", game.phase
    trades = friday.legal_trades() if friday is not None else []
    if trades and rnd.random() < 0.3:
        return ("trade", trades[rnd.randrange(len(trades))])
    options = [*sea.legal_deliveries(), None]
    return ("deliver", (options[rnd.randrange(len(options))],))


def as_action(game: Game, action: Action) -> Move | Decision:
    """The ``Move`` or ``Decision`` an ``Action`` stands for in this game."""
    name, args = action
    if name == "play":
        return args[0]
    if name == "move_friday":
        # A Friday tile by id; a Decision names it by its index in the rules' list.
        ids = [tile for tile, _bonus in game.rules.friday_tiles()]
        return Decision.move_friday(ids.index(args[0]))
    return getattr(Decision, name)(*args)


def apply(game: Game, action: Action) -> None:
    game.apply(as_action(game, action))


PER_PHASE = {
    "deliver": "deliver",
    "market_ship": "take_market_ship",
    "move_friday": "move_friday",
    "take_home": "take_home",
    "trade": "trade",
}
"""The deprecated per-phase ``Game`` method of each kind of decision."""


def apply_per_phase(game: Game, action: Action) -> None:
    """Plays ``action`` with its per-phase method: ``play``, or a deprecated one, which
    must warn naming the ``apply`` form (and still play as before)."""
    name, args = action
    if name == "play":
        game.play(*args)
        return
    with pytest.deprecated_call(match=r"use Game\.apply\(Decision\."):
        getattr(game, PER_PHASE[name])(*args)


def play_random(game: Game, rnd: random.Random, turns: int | None = None) -> None:
    """Plays up to ``turns`` random turns (all remaining ones when None), with every
    decision of those turns."""
    n = 0
    while not game.is_over and (turns is None or n < turns or game.phase != "place"):
        action = random_action(game, rnd)
        apply(game, action)
        n += action[0] == "play"
