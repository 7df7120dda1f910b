"""Paired outcomes and their statistics: the pentanomial model of a match played in pairs.

A match between players A and B is played in pairs of games that share everything but
the seats (the same tiles, the seats swapped), so that the luck of the deal and of the
seat order cancels within a pair. A pair's score for A is the sum of A's win shares in
its two games (a game won by ``k`` tied players counts ``1/k`` for each), one of
``PAIR_SCORES``: 0, 0.5, 1, 1.5 or 2. The match is summed up by how many pairs gave each
of the five scores (``counts``), and the interval on A's score comes from the variance
of the pair scores: the two games of a pair are not independent (the shared deal ties
them), and treating them as independent misstates the interval.

Elo here is logistic Elo: a player scoring ``s`` per game against another is
``-400 log10(1/s - 1)`` Elo above it (``score_to_elo``; ``elo_to_score`` is its inverse).

>>> import numpy as np
>>> from carcassonne.rating import pentanomial
>>> c = pentanomial.counts(np.array([2.0, 1.0, 1.5, 1.0, 0.5, 2.0, 1.0, 1.5]))
>>> c.tolist()                                  # pairs scoring 0, 0.5, 1, 1.5, 2
[0, 1, 3, 2, 2]
>>> pentanomial.estimate(c)
Estimate(pairs=8, counts=(0, 1, 3, 2, 2), score=0.66 [0.47, 0.84], elo=112 [-19, 288], 95%)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import overload

import numpy as np
import numpy.typing as npt

from carcassonne import _reprs
from carcassonne.rating.errors import RatingError

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
"""The five scores a pair can give player A: the sum of A's win shares in its two games
(after rounding to the nearest half, see ``counts``)."""

_GAME_SCORES = np.array(PAIR_SCORES) / 2
"""A pair's score per game (0 to 1), the scale of ``Estimate.score`` and of Elo."""


def counts(pair_scores: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """How many pairs gave each of ``PAIR_SCORES`` (an int64 array of 5), from one score
    per pair (A's win shares in the pair's two games summed, each from 0 to 2).

    A game with three or more tied winners gives a share that is not a half (1/3, 1/4),
    so each score is rounded to the nearest half first (1/3 + 1 counts as 1.5). A score
    exactly between two halves (a quarter, as in 1/4 + 1/2 = 0.75) goes to the whole
    number next to it (0.25 to 0, 0.75 to 1, 1.25 to 1, 1.75 to 2): round half to even
    in halves, which treats A and B alike (B's pair score is 2 minus A's in a two-player
    pair, and its rounded count is the mirror image of A's).

    ``RatingError`` for anything but a one-dimensional array of finite scores in [0, 2].
    """
    scores = np.asarray(pair_scores, dtype=np.float64)
    if scores.ndim != 1:
        raise RatingError(f"pair_scores: expected one score per pair (a 1-D array), got shape {scores.shape}")
    bad = ~np.isfinite(scores) | (scores < 0) | (scores > 2)
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise RatingError(f"pair_scores: pair {first} has score {scores[first]!r}; a pair's score is from 0 to 2")
    # np.rint rounds halves to even: in units of a half point that sends quarters to the
    # nearest whole score, the rounding documented above.
    halves = np.rint(scores * 2).astype(np.int64)
    return np.bincount(halves, minlength=len(PAIR_SCORES)).astype(np.int64)


@dataclass(frozen=True)
class Estimate:
    """Player A's score against B from paired games, with its confidence interval, per
    game and in Elo.

    The interval is the normal one on the mean of the pair scores, with the sample
    variance of the pair scores (``n - 1``), clipped to [0, 1]; the Elo interval is the
    score interval mapped through ``score_to_elo``. A score of 0 or 1 (every pair lost or
    won) is -inf or +inf Elo; when every pair gave the same score the interval has no
    width: play more pairs."""

    pairs: int
    """How many pairs were played (two games each)."""
    counts: tuple[int, int, int, int, int]
    """How many pairs gave each of ``PAIR_SCORES`` (0, 0.5, 1, 1.5, 2)."""
    score: float
    """A's mean score per game, from 0 to 1 (a win 1, a loss 0, a tie shared)."""
    score_low: float
    """Lower bound of the score's interval."""
    score_high: float
    """Upper bound of the score's interval."""
    elo: float
    """``score_to_elo(score)``: how far above B A plays, in logistic Elo."""
    elo_low: float
    """``score_to_elo(score_low)``."""
    elo_high: float
    """``score_to_elo(score_high)``."""
    confidence: float
    """The two-sided coverage of both intervals."""

    def __repr__(self) -> str:
        """The counts, then the score and Elo each with its interval, rounded to the
        precision the interval's width supports (the fields keep every digit)."""
        score = _reprs.interval(self.score, self.score_low, self.score_high)
        elo = _reprs.interval(self.elo, self.elo_low, self.elo_high)
        return (
            f"Estimate(pairs={self.pairs}, counts={self.counts}, score={score}, elo={elo}, "
            f"{_reprs.percent(self.confidence)})"
        )


def estimate(counts: npt.ArrayLike, confidence: float = 0.95) -> Estimate:
    """A's score per game and its Elo, each with an interval at ``confidence``, from the
    five pair counts (as ``counts`` gives them).

    The mean score is ``sum(counts[i] * PAIR_SCORES[i]) / (2 * pairs)``; its standard error
    is the sample standard deviation of the pairs' per-game scores over ``sqrt(pairs)``.

    ``RatingError`` for counts that are not five non-negative integers, fewer than two
    pairs (one pair has no variance to measure), or a confidence outside (0, 1).
    """
    c = _check_counts(counts)
    _check_confidence(confidence)
    pairs = int(c.sum())
    if pairs < 2:
        raise RatingError(f"counts: {pairs} pair(s); an interval needs at least 2 pairs")
    score = float(c @ _GAME_SCORES) / pairs
    variance = float(c @ (_GAME_SCORES - score) ** 2) / (pairs - 1)
    half_width = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(variance / pairs)
    low, high = max(0.0, score - half_width), min(1.0, score + half_width)
    return Estimate(
        pairs=pairs,
        counts=(int(c[0]), int(c[1]), int(c[2]), int(c[3]), int(c[4])),
        score=score,
        score_low=low,
        score_high=high,
        elo=score_to_elo(score),
        elo_low=score_to_elo(low),
        elo_high=score_to_elo(high),
        confidence=float(confidence),
    )


@overload
def elo_to_score(elo: float) -> float: ...
@overload
def elo_to_score(elo: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]: ...
def elo_to_score(elo: float | npt.NDArray[np.float64]) -> float | npt.NDArray[np.float64]:
    """The expected score per game of a player ``elo`` logistic Elo above its opponent:
    ``1 / (1 + 10 ** (-elo / 400))`` (0 Elo is 0.5, +-inf Elo is 1 or 0). A float for a
    float, an array for an array; ``RatingError`` for a NaN."""
    values = np.asarray(elo, dtype=np.float64)
    if np.isnan(values).any():
        raise RatingError("elo: NaN is no Elo difference")
    # 10 ** x overflows to inf for very negative Elo, which gives the right limit, 0.
    with np.errstate(over="ignore"):
        scores = 1.0 / (1.0 + 10.0 ** (-values / 400.0))
    return float(scores) if values.ndim == 0 and not isinstance(elo, np.ndarray) else scores


@overload
def score_to_elo(score: float) -> float: ...
@overload
def score_to_elo(score: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]: ...
def score_to_elo(score: float | npt.NDArray[np.float64]) -> float | npt.NDArray[np.float64]:
    """The logistic Elo difference that gives ``score`` per game: ``-400 log10(1/score -
    1)``; -inf for 0, +inf for 1. A float for a float, an array for an array;
    ``RatingError`` for a score outside [0, 1] or NaN."""
    values = np.asarray(score, dtype=np.float64)
    bad = ~((values >= 0) & (values <= 1))
    if bad.any():
        raise RatingError(f"score: {float(values[bad].flat[0])!r} is not a score per game (from 0 to 1)")
    # log10(s) - log10(1 - s) rather than log10(1/s - 1): the same value, and the ends
    # come out as -inf and +inf without a division by zero.
    with np.errstate(divide="ignore"):
        elos = 400.0 * (np.log10(values) - np.log10(1.0 - values))
    return float(elos) if values.ndim == 0 and not isinstance(score, np.ndarray) else elos


def _check_counts(counts: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """``counts`` as an int64 array of five, or ``RatingError`` naming the fault."""
    raw = np.asarray(counts)
    if raw.shape != (len(PAIR_SCORES),):
        raise RatingError(f"counts: expected the counts of the {len(PAIR_SCORES)} pair scores, got shape {raw.shape}")
    if raw.dtype.kind not in "iu" and not (
        raw.dtype.kind == "f" and np.isfinite(raw).all() and (raw == np.round(raw)).all()
    ):
        raise RatingError(f"counts: expected whole numbers of pairs, got {raw.tolist()}")
    c = raw.astype(np.int64)
    if (c < 0).any():
        raise RatingError(f"counts: a count of pairs cannot be negative, got {c.tolist()}")
    return c


def _check_confidence(confidence: float) -> None:
    """``RatingError`` unless ``confidence`` is strictly between 0 and 1."""
    if not 0.0 < confidence < 1.0:
        raise RatingError(f"confidence: {confidence!r} is not strictly between 0 and 1")
