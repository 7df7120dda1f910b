"""What a rule system gives the shared invariants harness (``harness.py``): an oracle that
follows one played game step by step, and a probe that says which listed actions to try and
which unlisted ones near them to refuse. The hooks do nothing by default, so a system
implements only the ones its rules need; ``harness.py`` checks everything common itself."""

from __future__ import annotations

import random

from carcassonne import Decision, Game, Move
from observe import Action

Choice = Move | Decision


class Oracle:
    """Follows one random game: ``start`` once, ``before`` and ``after`` around every
    decision (``action`` is the one chosen, see ``observe.Action``), ``end`` once it is
    over. Each hook asserts what the system's rules say about that moment."""

    def start(self, game: Game) -> None:
        pass

    def before(self, game: Game, action: Action) -> None:
        pass

    def after(self, game: Game, action: Action) -> None:
        pass

    def end(self, game: Game) -> None:
        pass


class Probe:
    """Chooses, step by step of one random game, the listed actions to play on clones and
    the unlisted ones near them that must be refused; ``accepted`` checks a clone after a
    listed action, ``end`` what the probed game must have gone through."""

    def listed(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[Choice]:
        return []

    def near(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[tuple[str, Choice]]:
        return []

    def accepted(self, game: Game, clone: Game, action: Choice) -> None:
        """By default (meeples score and come back when their feature closes): a move's
        meeple stands where the move put it, or it scored on this turn."""
        if not isinstance(action, Move):
            return
        player = game.current_player
        placed = clone.board[-1]
        if action.meeple is None:
            assert placed.meeple is None
        elif placed.meeple is None:
            # The meeple's feature closed at once: it scored and came back.
            assert any(e.turn == clone.turn and e.complete and player in e.players for e in clone.events), action
        else:
            assert placed.meeple == (player, action.meeple)

    def end(self, game: Game) -> None:
        pass
