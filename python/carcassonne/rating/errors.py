"""The error of the strength scale: ``RatingError``, raised for input a paired outcome, a
sequential test or a ladder cannot be computed from."""

from __future__ import annotations

from carcassonne._core import CarcassonneError


class RatingError(CarcassonneError, ValueError):
    """Input the strength scale cannot use: a confidence outside (0, 1), an ``alpha`` or
    ``beta`` outside (0, 0.5), ``elo0`` not below ``elo1``, pair scores or counts that are
    not what a match gives, a ladder whose players are not all linked or with a link won
    by one side in every game. A ``ValueError``; the message names the argument (or the
    link) and what was wrong."""
