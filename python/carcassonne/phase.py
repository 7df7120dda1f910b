"""The phase of a game (``Game.phase``): which kind of action the decider takes now."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """A ``str`` enum, so ``game.phase == "place"`` holds as before the enum existed."""

    PLACE = "place"
    """The current player places the drawn tile (a ``Move``)."""
    DELIVER = "deliver"
    """South Seas step 4: deliver to a face-up ship or not, or (Friday) trade first."""
    MARKET = "market"
    """A completed market's owner picks one of the tied top ships."""
    MOVE_FRIDAY = "move_friday"
    """Friday: the player who emptied one of stacks 7-10 moves Friday."""
    HOMECOMING = "homecoming"
    """Friday's homecoming: each player in turn takes one islander back."""
    EXTRA_TURN = "extra_turn"
    """Carcassonne Maps (small-town variant 1): the player who covered a small town
    takes another turn or not (``Decision.extra_turn``); no tile is in hand meanwhile."""
    OVER = "over"
    """The game has ended: no actions."""


__all__ = ["Phase"]
