"""Helpers for hand-built positions: fixed decks, checked moves, readable event logs.

A position is a list of steps ``(tile_id, x, y, rotation, meeple)``. The deck is the
list of the steps' tile ids (in order), optionally followed by extra tiles. Every step
asserts that the engine drew the expected tile and that the move is in
``game.legal_moves()`` before playing it.

Coordinates: x grows east, y grows south; rotation = quarter turns clockwise. The start
tile base/D stands at (0, 0), rotation 0: city N, road W-E, fields north strip (EL WR,
touching the city) and south (ER SL SR WL).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Union

from carcassonne import Game, Rules

Meeple = Union[None, int, str]
Step = tuple[str, int, int, int, Meeple]


def new_game(
    steps: Sequence[Step],
    *,
    extra: Sequence[str] = (),
    rules: Rules | None = None,
    **rules_kw: Any,
) -> Game:
    """A game whose deck is exactly the steps' tiles followed by ``extra``."""
    if rules is None:
        rules = Rules(**rules_kw)
    deck = [s[0] for s in steps] + list(extra)
    return Game(rules, deck=deck)


def play(game: Game, steps: Iterable[Step]) -> None:
    """Plays ``steps``, checking the drawn tile and the legality of each move.

    ``meeple`` is None, a feature index, a side/half-edge name accepted by
    ``Game.make_move`` ("N", "EL", "monastery", ...), or a feature description as listed
    by ``Rules.tile_features`` for that rotation ("road E W", "city N", ...).
    """
    for tile, x, y, rotation, meeple in steps:
        assert not game.is_over, f"game over before placing {tile} at ({x}, {y})"
        assert game.tile == tile, f"expected to draw {tile}, engine drew {game.tile}"
        if isinstance(meeple, str) and " " in meeple:
            # A feature description such as "road E W" (see Rules.tile_features).
            meeple = segment_index(game.rules, tile, rotation, meeple)
        mv = game.make_move(x, y, rotation, meeple)
        legal = game.legal_moves()
        assert mv in legal, (
            f"{tile} at ({x}, {y}) rotation {rotation} meeple {meeple!r} ({mv!r}) is not legal"
        )
        game.play(mv)


def build(steps: Sequence[Step], *, extra: Sequence[str] = (), **rules_kw: Any) -> Game:
    """New game with the deck of ``steps`` (+ ``extra``), all steps played."""
    game = new_game(steps, extra=extra, **rules_kw)
    play(game, steps)
    return game


def events(game: Game) -> list[tuple[Any, ...]]:
    """The event log as sortable tuples:
    (turn, kind, points, players, tiles (sorted), complete, final_scoring, goods).

    Sorted, so tests do not depend on the order of events within one turn (the rules
    do not fix it): by turn, then in-play events before final-scoring events, then by
    content. Order across turns and play-before-final order are kept.
    """
    out = [
        (
            e.turn,
            e.kind,
            e.points,
            tuple(e.players),
            tuple(sorted(e.tiles)),
            e.complete,
            e.final_scoring,
            tuple(e.goods),
        )
        for e in game.events
    ]
    return sort_events(out)


def sort_events(evs: Iterable[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Events ordered by turn, in-play events before final scoring, then by content."""
    return sorted(evs, key=lambda e: (e[0], e[6], e))


def ev(
    turn: int,
    kind: str,
    points: int,
    players: Iterable[int],
    tiles: Iterable[tuple[int, int]],
    *,
    complete: bool,
    final: bool,
    goods: tuple[int, int, int] = (0, 0, 0),
) -> tuple[Any, ...]:
    """An expected event in the format of :func:`events`."""
    return (
        turn,
        kind,
        points,
        tuple(players),
        tuple(sorted(tiles)),
        complete,
        final,
        tuple(goods),
    )


def segment_index(rules: Rules, tile: str, rotation: int, description: str) -> int:
    """Index of the feature of ``tile`` described as ``description`` (e.g. "city N")."""
    feats = rules.tile_features(tile, rotation)
    assert description in feats, f"{tile} r{rotation} has {feats}, not {description!r}"
    return feats.index(description)
