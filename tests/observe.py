"""What tests can observe of a game, in one place: a full snapshot for "the game is
unchanged" checks, and meeple counts from the board view."""

from __future__ import annotations

from typing import Any

from carcassonne import Game


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
