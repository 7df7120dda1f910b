"""The sequential probability ratio test (SPRT) on paired outcomes: play pairs until the
evidence says "A is ``elo0`` or less above B" (H0) or "A is ``elo1`` or more" (H1), with
error rates ``alpha`` (H1 accepted when H0 holds) and ``beta`` (H0 accepted when H1 holds).

The test is the generalised SPRT on the pentanomial model, as chess engine testing
(Stockfish's fishtest) runs it: after each pair, the log-likelihood ratio is that of the
two pentanomial distributions that best explain the pairs so far (maximum likelihood)
among those whose expected score per game is ``elo_to_score(elo1)``, against those whose
score is ``elo_to_score(elo0)``. No assumption is made on how the five pair scores are
spread (draws, the correlation of a pair's two games): the counts themselves say it. The
test stops when the ratio leaves ``(lower, upper)``, Wald's bounds
``lower = log(beta / (1 - alpha))`` and ``upper = log((1 - beta) / alpha)``. Elo is
logistic Elo (``pentanomial.elo_to_score``).

>>> from carcassonne.rating.sequential import SPRT
>>> test = SPRT(elo0=0, elo1=50)
>>> round(test.lower, 3), round(test.upper, 3)
(-2.944, 2.944)
>>> round(test.llr([10, 30, 60, 70, 30]), 2)    # pairs scoring 0, 0.5, 1, 1.5, 2
11.49
>>> test.decide([10, 30, 60, 70, 30])
'H1'
>>> round(test.expected_pairs(50, [10, 30, 60, 70, 30]))   # pairs needed on average at 50 Elo
74
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from carcassonne import _reprs
from carcassonne.rating.errors import RatingError
from carcassonne.rating.pentanomial import PAIR_SCORES, _check_counts, elo_to_score

_GAME_SCORES = np.array(PAIR_SCORES) / 2
"""The pair scores per game (0, 0.25, ..., 1): the scale the tested scores are on."""

_EMPTY_COUNT = 1e-3
"""The count given to a pair score no pair has given yet, when finding the constrained
distributions: without it a distribution with the tested score may not exist on the
scores seen so far (every pair scoring 2, say). It changes the ratio by a negligible
amount once a few pairs are in (the same pseudo-count as fishtest's)."""

_MAX_ITERATIONS = 200
"""Safeguarded Newton steps at most when solving for a constrained distribution: most
take under 10, a root near a pole (a score no pair has given) a few dozen; bisection
halves the bracket at every step that is not Newton's, so 200 is ample."""


@dataclass(frozen=True)
class SPRT:
    """A sequential test of H0 "A is at most ``elo0`` Elo above B" against H1 "A is at
    least ``elo1`` above B", with error rates ``alpha`` and ``beta``.

    ``RatingError`` (naming the argument) for a non-finite Elo, ``elo0`` not below
    ``elo1``, or ``alpha`` or ``beta`` outside (0, 0.5)."""

    elo0: float
    """The Elo difference of H0 (logistic Elo)."""
    elo1: float
    """The Elo difference of H1, above ``elo0``."""
    alpha: float = 0.05
    """The chance of accepting H1 when A is ``elo0`` above B."""
    beta: float = 0.05
    """The chance of accepting H0 when A is ``elo1`` above B."""

    def __post_init__(self) -> None:
        """Checks the arguments and keeps them as floats."""
        for name in ("elo0", "elo1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise RatingError(f"{name}: expected a number, got {value!r}")
            # A frozen dataclass sets its own fields through object.__setattr__.
            object.__setattr__(self, name, float(value))
        for name in ("elo0", "elo1"):
            if not math.isfinite(getattr(self, name)):
                raise RatingError(f"{name}: {getattr(self, name)!r} is not a finite Elo difference")
        if self.elo0 >= self.elo1:
            raise RatingError(f"elo0: {self.elo0!r} must be below elo1 ({self.elo1!r})")
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise RatingError(f"{name}: {getattr(self, name)!r} is not an error rate strictly between 0 and 0.5")

    def __repr__(self) -> str:
        """Every field, floats rounded."""
        return _reprs.fields(self)

    @property
    def lower(self) -> float:
        """The log-likelihood ratio at or below which H0 is accepted:
        ``log(beta / (1 - alpha))``."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """The log-likelihood ratio at or above which H1 is accepted:
        ``log((1 - beta) / alpha)``."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def score0(self) -> float:
        """A's score per game under H0: ``elo_to_score(elo0)``."""
        return elo_to_score(self.elo0)

    @property
    def score1(self) -> float:
        """A's score per game under H1: ``elo_to_score(elo1)``."""
        return elo_to_score(self.elo1)

    def llr(self, counts: npt.ArrayLike) -> float:
        """The generalised log-likelihood ratio of H1 against H0 after the pairs of
        ``counts`` (the five pair counts, as ``pentanomial.counts`` gives them); 0 before
        any pair. ``RatingError`` for counts that are not five non-negative integers."""
        return float(self.llr_many(_check_counts(counts)[None, :])[0])

    def llr_many(self, counts: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """``llr`` of many tests at once (simulations): ``counts`` of shape ``(..., 5)``,
        the ratios of shape ``(...)``. ``RatingError`` for a last axis not of 5 or a
        negative or non-integer count."""
        c = np.asarray(counts)
        if c.ndim == 0 or c.shape[-1] != len(PAIR_SCORES):
            raise RatingError(
                f"counts: expected the {len(PAIR_SCORES)} pair counts on the last axis, got shape {c.shape}"
            )
        if c.dtype.kind not in "iu" and not (c.dtype.kind == "f" and np.isfinite(c).all() and (c == np.round(c)).all()):
            raise RatingError("counts: expected whole numbers of pairs")
        n = c.astype(np.float64)
        if (n < 0).any():
            raise RatingError("counts: a count of pairs cannot be negative")
        regularised = np.where(n > 0, n, _EMPTY_COUNT)
        observed = regularised / regularised.sum(axis=-1, keepdims=True)
        # The constrained maximum of each hypothesis is the observed distribution tilted
        # to its score: p_i = observed_i / (1 + x (score_i - s)). The observed
        # distribution's own log-likelihood cancels in the ratio, leaving the tilts.
        log_tilt0 = np.log1p(_tilt(observed, self.score0)[..., None] * (_GAME_SCORES - self.score0))
        log_tilt1 = np.log1p(_tilt(observed, self.score1)[..., None] * (_GAME_SCORES - self.score1))
        ratios: npt.NDArray[np.float64] = (n * (log_tilt0 - log_tilt1)).sum(axis=-1)
        return ratios

    def decide(self, counts: npt.ArrayLike) -> Literal["H0", "H1"] | None:
        """``"H1"`` once ``llr(counts) >= upper``, ``"H0"`` once it is ``<= lower``,
        ``None`` while the test goes on."""
        ratio = self.llr(counts)
        if ratio >= self.upper:
            return "H1"
        if ratio <= self.lower:
            return "H0"
        return None

    def expected_pairs(self, elo: float, counts_or_variance: npt.ArrayLike | float) -> float:
        """How many pairs the test takes on average when A is truly ``elo`` above B: Wald's
        approximation, which treats the ratio as a Brownian motion and ignores how far
        its last step overshoots the bound (so the true mean is a little larger).

        ``counts_or_variance`` gives the spread of the pair scores: the five pair counts
        of a match so far (their sample variance is used as it is, whatever ``elo``), or
        the variance ``V`` of a pair's score (on ``PAIR_SCORES``'s scale, 0 to 2). With
        ``v = V / 4`` (the variance of a pair's score per game, its score halved),
        ``s = elo_to_score(elo)`` and ``d = score1 - score0``, each pair moves the ratio
        by ``mu = (s - (score0 + score1) / 2) d / v`` on average, with variance
        ``sigma2 = d**2 / v``; then with ``r = -2 mu / sigma2``, the chance of accepting
        H1 is ``P1 = (1 - exp(r lower)) / (exp(r upper) - exp(r lower))`` and the expected
        number of pairs is ``(P1 upper + (1 - P1) lower) / mu``; ``-lower upper /
        sigma2`` when ``mu`` is 0.

        ``RatingError`` for a NaN Elo, counts with fewer than two pairs or no spread, or a
        variance that is not positive and finite."""
        if isinstance(counts_or_variance, numbers.Real):
            variance = float(counts_or_variance)
            if not (math.isfinite(variance) and variance > 0):
                raise RatingError(f"counts_or_variance: a variance must be positive and finite, got {variance!r}")
        else:
            c = _check_counts(counts_or_variance)
            pairs = int(c.sum())
            if pairs < 2:
                raise RatingError(f"counts_or_variance: {pairs} pair(s); a variance needs at least 2 pairs")
            pair_scores = np.array(PAIR_SCORES)
            mean = float(c @ pair_scores) / pairs
            variance = float(c @ (pair_scores - mean) ** 2) / (pairs - 1)
            if variance == 0:
                raise RatingError("counts_or_variance: every pair gave the same score, so no spread to plan with")
        if math.isnan(elo):
            raise RatingError("elo: NaN is no Elo difference")
        per_game = variance / 4
        s, s0, s1 = elo_to_score(float(elo)), self.score0, self.score1
        d = s1 - s0
        mu = (s - (s0 + s1) / 2) * d / per_game
        sigma2 = d * d / per_game
        r = -2 * mu / sigma2
        a, b = self.lower, self.upper
        if abs(r) < 1e-12:
            return -a * b / sigma2
        # P1 written so that no exponential overflows, whichever the sign of r.
        if r > 0:
            p1 = math.exp(-r * b) * math.expm1(r * a) / math.expm1(r * (a - b))
        else:
            p1 = math.expm1(-r * a) / math.expm1(r * (b - a))
        return (p1 * b + (1 - p1) * a) / mu


def _tilt(observed: npt.NDArray[np.float64], score: float) -> npt.NDArray[np.float64]:
    """For each distribution over the five per-game pair scores (last axis, every
    probability positive), the ``x`` with ``sum(observed_i d_i / (1 + x d_i)) = 0``,
    ``d_i = score_i - score``: the tilt that gives the most likely distribution of mean
    ``score``. The sum falls from +inf to -inf on ``(-1 / (1 - score), 1 / score)``, so
    the root is unique; Newton's steps find it, with bisection when a step would leave
    the bracket known to hold it."""
    d = _GAME_SCORES - score
    flat = observed.reshape(-1, len(PAIR_SCORES))
    x = np.zeros(len(flat))
    low = np.full(len(flat), -1.0 / (1.0 - score))
    high = np.full(len(flat), 1.0 / score)
    # Only the distributions not yet solved are worked on: most take a few steps, a few
    # (a root near a pole, from a score no pair has given) take a few dozen.
    active = np.arange(len(flat))
    for _ in range(_MAX_ITERATIONS):
        if len(active) == 0:
            break
        p, xa = flat[active], x[active]
        terms = p * d / (1.0 + xa[:, None] * d)
        f = terms.sum(axis=-1)
        slope = -(terms * terms / p).sum(axis=-1)
        la = np.where(f > 0, xa, low[active])
        ha = np.where(f > 0, high[active], xa)
        newton = xa - f / slope
        # A step this small is the root to rounding; it is taken even where rounding
        # puts it a hair outside the bracket (x itself is a bracket end by now).
        converged = np.abs(newton - xa) <= 1e-13 * np.maximum(1.0, np.abs(xa))
        inside = (newton > la) & (newton < ha)
        x[active] = np.where(inside | converged, newton, (la + ha) / 2)
        low[active], high[active] = la, ha
        active = active[~converged]
    return x.reshape(observed.shape[:-1])
