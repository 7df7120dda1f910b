"""The ladder: one Elo rating per player from the matches between them, fitted by maximum
likelihood in the Bradley-Terry model, with one player (the anchor) pinned.

In the model, a player ``r_a - r_b`` Elo above another scores ``1 / (1 + 10 ** (-(r_a -
r_b) / 400))`` per game against it (logistic Elo, as ``pentanomial.elo_to_score``), and
games are independent. Each match enters as ``(a, b, a's total score, games)``; a tie
shared by ``k`` players counts ``1/k``, so the likelihood is that of binomial counts with
fractional successes. The ratings maximise it (Newton's method on the log-likelihood,
which is concave); their intervals come from the observed information at the maximum,
with the anchor pinned at ``anchor_elo`` (its interval has no width: every other
interval is relative to it).

The fit needs every player linked to the anchor by a chain of matches, and no link won
by one side in every game (the likelihood then grows without bound as the gap widens:
no finite rating fits). Either refusal names the players or link at fault.

The intervals treat each game as independent. Paired games (the seats swapped on the
same deal) are not, and their correlation is not in the totals: the intervals then fit
the pair outcomes' variance only as far as the pairs' two games are uncorrelated. The
pentanomial estimate of a single match (``pentanomial.estimate``) has the pair variance.

>>> from carcassonne.rating.bradley_terry import fit
>>> ladder = fit([("random", "greedy", 30.0, 100), ("greedy", "search", 25.0, 100)], anchor="random")
>>> ladder.ratings["greedy"]
Rating(name='greedy', elo=147 [73, 221], 95%)
>>> ladder.ratings["search"]
Rating(name='search', elo=338 [230, 446], 95%)
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from carcassonne import _reprs
from carcassonne.rating.errors import RatingError

_ELO_PER_NATURAL_UNIT = 400 / math.log(10)
"""Elo per unit of the log-odds the fit works in (``10 ** (elo / 400) = e ** theta``)."""

_MAX_ITERATIONS = 100
"""Newton steps at most; the fit converges in well under 20 on any connected ladder
without a sweep (the log-likelihood is concave and smooth)."""

_TOLERANCE = 1e-10
"""The fit stops once no rating moves by more than this (in log-odds, about 4e-9 Elo)."""


@dataclass(frozen=True)
class Rating:
    """One player's rating on the ladder, with its interval relative to the anchor."""

    name: str
    """The player's name, as the matches gave it."""
    elo: float
    """Maximum-likelihood rating, in logistic Elo (the anchor at its ``anchor_elo``)."""
    low: float
    """Lower bound of the rating's interval."""
    high: float
    """Upper bound of the rating's interval."""
    confidence: float
    """The interval's two-sided coverage."""

    def __repr__(self) -> str:
        """The name, then the rating with its interval rounded to the precision the
        interval's width supports (the fields keep every digit)."""
        rating = _reprs.interval(self.elo, self.low, self.high)
        return f"Rating(name={self.name!r}, elo={rating}, {_reprs.percent(self.confidence)})"


@dataclass(frozen=True)
class Ladder:
    """Every player's rating, strongest first, with the anchor pinned."""

    ratings: dict[str, Rating]
    """Each player's rating by name, in decreasing order of Elo."""
    anchor: str
    """The player whose rating is fixed (``anchor_elo``)."""
    confidence: float
    """The intervals' two-sided coverage."""
    covariance: npt.NDArray[np.float64] = field(compare=False)
    """The ratings' covariance in Elo squared, rows and columns in the order of
    ``ratings`` (the anchor's row and column are zero): the variance of a difference
    ``a - b`` is ``C[a, a] + C[b, b] - 2 C[a, b]``. Two ladders compare equal by their
    ratings, anchor and confidence (the covariance follows from them)."""

    def __repr__(self) -> str:
        """The ratings, strongest first."""
        shown = ", ".join(repr(r) for r in self.ratings.values())
        return f"Ladder(anchor={self.anchor!r}, ratings=[{shown}])"


def fit(
    games: Sequence[tuple[str, str, float, int]],
    anchor: str,
    anchor_elo: float = 0.0,
    confidence: float = 0.95,
) -> Ladder:
    """The maximum-likelihood ratings of the players of ``games``, each entry ``(a, b,
    a's total score, games played)`` (a's score counts a win 1, a loss 0 and a tie shared
    by ``k`` players ``1/k``), with ``anchor`` pinned at ``anchor_elo``; intervals at
    ``confidence`` from the observed information. Several entries for the same two
    players (either way round) are added up.

    ``RatingError`` for an entry that is not two different names, a score from 0 to the
    games and a positive whole number of games; an anchor that played no game; players
    not linked to the anchor by any chain of games; a link won by one side in every game
    (naming the link); a confidence outside (0, 1) or a non-finite ``anchor_elo``."""
    if not 0.0 < confidence < 1.0:
        raise RatingError(f"confidence: {confidence!r} is not strictly between 0 and 1")
    if isinstance(anchor_elo, bool) or not isinstance(anchor_elo, numbers.Real) or not math.isfinite(anchor_elo):
        raise RatingError(f"anchor_elo: {anchor_elo!r} is not a finite rating")
    players, links = _links(games)
    if anchor not in players:
        raise RatingError(f"anchor: {anchor!r} played none of the games (players: {', '.join(map(repr, players))})")
    for (a, b), (total, count) in links.items():
        if total == 0 or total == count:
            winner, loser = (a, b) if total == count else (b, a)
            raise RatingError(
                f"link {a!r} - {b!r}: {winner!r} won all {count} games against {loser!r}, so no finite "
                "rating gap fits; play a closer pairing, or more games"
            )
    _check_connected(players, links, anchor)

    index = {name: k for k, name in enumerate(players)}
    first = np.array([index[a] for a, _ in links])
    second = np.array([index[b] for _, b in links])
    scores = np.array([s for s, _ in links.values()])
    played = np.array([float(n) for _, n in links.values()])
    free = np.array([k for k in range(len(players)) if players[k] != anchor], dtype=np.int64)

    theta = np.zeros(len(players))
    log_likelihood = _log_likelihood(theta, first, second, scores, played)
    for _ in range(_MAX_ITERATIONS):
        gradient, information = _gradient_and_information(theta, first, second, scores, played)
        step = np.zeros(len(players))
        step[free] = np.linalg.solve(information[np.ix_(free, free)], gradient[free])
        # Halve the step while it lowers the likelihood: far from the maximum a full
        # Newton step on a logistic likelihood can overshoot.
        scale = 1.0
        while True:
            trial = theta + scale * step
            trial_log_likelihood = _log_likelihood(trial, first, second, scores, played)
            if trial_log_likelihood >= log_likelihood or scale < 1e-6:
                break
            scale /= 2
        theta, log_likelihood = trial, trial_log_likelihood
        if np.max(np.abs(scale * step)) <= _TOLERANCE:
            break

    _, information = _gradient_and_information(theta, first, second, scores, played)
    covariance = np.zeros((len(players), len(players)))
    covariance[np.ix_(free, free)] = np.linalg.inv(information[np.ix_(free, free)])
    covariance *= _ELO_PER_NATURAL_UNIT**2
    elos = anchor_elo + theta * _ELO_PER_NATURAL_UNIT
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    order = sorted(range(len(players)), key=lambda k: (-elos[k], players[k]))
    ratings = {}
    for k in order:
        half_width = z * math.sqrt(covariance[k, k])
        ratings[players[k]] = Rating(
            name=players[k],
            elo=float(elos[k]),
            low=float(elos[k] - half_width),
            high=float(elos[k] + half_width),
            confidence=float(confidence),
        )
    return Ladder(
        ratings=ratings,
        anchor=anchor,
        confidence=float(confidence),
        covariance=covariance[np.ix_(order, order)],
    )


def _links(games: Sequence[tuple[str, str, float, int]]) -> tuple[list[str], dict[tuple[str, str], tuple[float, int]]]:
    """The players in order of first appearance, and each pair of them that met: (the
    first-named player's total score, games), every entry checked."""
    if len(games) == 0:
        raise RatingError("games: no games to fit")
    players: dict[str, None] = {}
    links: dict[tuple[str, str], tuple[float, int]] = {}
    for k, entry in enumerate(games):
        if not isinstance(entry, tuple) or len(entry) != 4:
            raise RatingError(f"games[{k}]: expected (a, b, a's score, games), got {entry!r}")
        a, b, score, played = entry
        if not (isinstance(a, str) and isinstance(b, str) and a and b):
            raise RatingError(f"games[{k}]: the players must be named by non-empty strings, got {a!r} and {b!r}")
        if a == b:
            raise RatingError(f"games[{k}]: {a!r} cannot play itself")
        if isinstance(played, bool) or not isinstance(played, (int, np.integer)) or played < 1:
            raise RatingError(f"games[{k}]: the number of games must be a positive whole number, got {played!r}")
        if (
            isinstance(score, bool)
            or not isinstance(score, (int, float, np.integer, np.floating))
            or not (0 <= score <= played)
        ):
            raise RatingError(f"games[{k}]: {a!r}'s score must be from 0 to the {played} games played, got {score!r}")
        players.setdefault(a)
        players.setdefault(b)
        key, own = ((a, b), float(score)) if (a, b) in links or (b, a) not in links else ((b, a), played - float(score))
        before_score, before_played = links.get(key, (0.0, 0))
        links[key] = (before_score + own, before_played + int(played))
    return list(players), links


def _check_connected(players: list[str], links: dict[tuple[str, str], tuple[float, int]], anchor: str) -> None:
    """``RatingError`` naming the players no chain of links joins to the anchor."""
    neighbours: dict[str, list[str]] = {name: [] for name in players}
    for a, b in links:
        neighbours[a].append(b)
        neighbours[b].append(a)
    reached = {anchor}
    frontier = [anchor]
    while frontier:
        for other in neighbours[frontier.pop()]:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    apart = [name for name in players if name not in reached]
    if apart:
        raise RatingError(
            f"games: {', '.join(map(repr, apart))} not linked to the anchor {anchor!r} by any chain of "
            "games, so their ratings are not on its scale; add a match between the groups"
        )


def _log_likelihood(
    theta: npt.NDArray[np.float64],
    first: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
    scores: npt.NDArray[np.float64],
    played: npt.NDArray[np.float64],
) -> float:
    """The log-likelihood of the links' scores at ratings ``theta`` (log-odds units)."""
    gap = theta[first] - theta[second]
    # log p = -log(1 + e^-gap) and log(1 - p) = -log(1 + e^gap), written with logaddexp
    # so that no large gap overflows.
    return float(-(scores * np.logaddexp(0.0, -gap) + (played - scores) * np.logaddexp(0.0, gap)).sum())


def _gradient_and_information(
    theta: npt.NDArray[np.float64],
    first: npt.NDArray[np.int64],
    second: npt.NDArray[np.int64],
    scores: npt.NDArray[np.float64],
    played: npt.NDArray[np.float64],
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The log-likelihood's gradient and the observed information (minus its Hessian,
    which for the logistic model does not depend on the scores) at ``theta``."""
    # The logistic function through tanh, which no gap overflows.
    p = 0.5 * (1.0 + np.tanh((theta[first] - theta[second]) / 2))
    residual = scores - played * p
    weight = played * p * (1.0 - p)
    size = len(theta)
    gradient = np.zeros(size)
    np.add.at(gradient, first, residual)
    np.add.at(gradient, second, -residual)
    information = np.zeros((size, size))
    np.add.at(information, (first, first), weight)
    np.add.at(information, (second, second), weight)
    np.add.at(information, (first, second), -weight)
    np.add.at(information, (second, first), -weight)
    return gradient, information
