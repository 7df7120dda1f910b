"""Statistics of balance studies: win shares with Wilson intervals, the first seat's
advantage, scores, tiles placed per seat, one configuration against another, and how many
games a given precision needs.

Conventions, everywhere in this module:

- A game won by ``k`` tied players counts ``1/k`` of a win for each (``win share``), so the
  seats' shares sum to 1 (as in ``SimulationResult.win_shares()`` and ``seats()``).
- ``confidence`` is the two-sided coverage of every interval, strictly between 0 and 1
  (default 0.95). Normal quantiles come from ``statistics.NormalDist``, so the module needs
  only numpy (no scipy).
- Intervals on a mean (scores, differences) use the normal approximation with the sample
  standard deviation (``n - 1``); with a few hundred games or more it is indistinguishable
  from Student's t. Win shares use Wilson's score interval.
- Bad input raises ``StatsError`` (a ``ValueError``) with a message naming the argument.

>>> from carcassonne import Rules, simulate, stats
>>> result = simulate(Rules(players=2), games=2000, seed=7)
>>> stats.win_shares(result)[0].share                  # Wilson interval of seat 0's share
Interval(0.499, [0.477, 0.521], 95% wilson)
>>> round(stats.first_seat_advantage(result).p_value, 3)  # H0: seat 0 wins 1/players
0.947
>>> without_farmers = simulate(Rules(players=2, farmers=False), games=2000, seed=7)
>>> stats.compare(result, without_farmers).seats[0].mean_score.difference  # paired games
Interval(8.45, [8.02, 8.89], 95% normal (paired))

A result prints rounded (as above); its fields keep every digit
(``dataclasses.asdict`` gives them all).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Literal, SupportsFloat, SupportsIndex

import numpy as np
import numpy.typing as npt

from carcassonne import _reprs
from carcassonne._core import CarcassonneError
from carcassonne.study.results import SimulationResult, StudySummary, StudyTotals, margins_and_ranges

DEFAULT_QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
"""The score quantiles ``scores()`` reports unless told otherwise."""

_BINOMIAL_RELATIVE_TOLERANCE = 1e-7
"""Outcomes whose probability is within this relative distance of the observed one count
as "as extreme" in the exact binomial test (as in R's binom.test and scipy's binomtest)."""

_SHARE_UNIT = 60
"""Win shares are summed in 1/60ths of a win: exact for 1 to 6 tied winners."""

_SMALLEST_HALF_WIDTH = 1e-9
"""``games_needed`` refuses a finer precision (it would need more than 10**18 games)."""

_BOOTSTRAP_CHUNK_VALUES = 4_000_000
"""At most this many resampled values are held at once while bootstrapping."""


class StatsError(CarcassonneError):
    """Input a statistic cannot be computed from: no games, a confidence outside (0, 1),
    studies of different seat counts, a negative precision, ... The message names the
    argument and what was wrong."""


# ----- intervals -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """A point estimate with a two-sided confidence interval ``[low, high]``."""

    estimate: float
    low: float
    high: float
    confidence: float
    """Two-sided coverage, e.g. 0.95."""
    method: str
    """How the interval was made: "wilson", "normal", "normal (paired)", "normal
    (independent)", "bootstrap percentile (2000 resamples, paired)", ..."""

    @property
    def half_width(self) -> float:
        """Half the interval's width (the "plus or minus")."""
        return (self.high - self.low) / 2

    def __contains__(self, value: object) -> bool:
        """``x in interval``: whether ``low <= x <= high``."""
        if not isinstance(value, (int, float, np.integer, np.floating)):
            return False
        return self.low <= float(value) <= self.high

    def __repr__(self) -> str:
        """``Interval(0.499, [0.477, 0.521], 95% wilson)``: estimate and bounds to the
        precision the interval's width supports, then its confidence and method (every
        digit stays in the fields)."""
        estimate, low, high = _reprs.interval_parts(self.estimate, self.low, self.high)
        return f"Interval({estimate}, [{low}, {high}], {_reprs.percent(self.confidence)} {self.method})"


def z_value(confidence: float = 0.95) -> float:
    """The standard normal quantile of a two-sided interval of this coverage (1.959964 for
    0.95)."""
    c = _confidence(confidence)
    return NormalDist().inv_cdf(0.5 + c / 2)


def wilson(successes: SupportsFloat, n: SupportsIndex, confidence: float = 0.95) -> Interval:
    """Wilson's score interval for a proportion: ``successes`` out of ``n`` trials.

    ``successes`` may be fractional (ties counted as 1/k of a win); the interval then treats
    the share as a binomial proportion, which overstates its variance a little (a shared
    win varies less than a whole one), so the interval errs on the wide side. ``estimate``
    is ``successes / n``; ``low`` and ``high`` always lie in [0, 1]. 50 out of 100 gives
    0.4038 to 0.5962 at 95%.
    """
    games = _count(n, "n")
    if games < 1:
        raise StatsError(f"n must be at least 1 (got {games}): a proportion of no trials has no interval")
    s = _real(successes, "successes")
    if not (math.isfinite(s) and 0.0 <= s <= games):
        raise StatsError(f"successes must lie between 0 and n = {games} (got {s!r})")
    z = z_value(confidence)
    p = s / games
    centre, half = _wilson_centre_half(p, games, z)
    # The interval always holds the estimate, and reaches 0 (1) exactly when it is 0 (1):
    # kept so against the last-bit rounding of ``centre -+ half``.
    return Interval(
        estimate=p,
        low=0.0 if p == 0.0 else max(0.0, min(p, centre - half)),
        high=1.0 if p == 1.0 else min(1.0, max(p, centre + half)),
        confidence=float(confidence),
        method="wilson",
    )


def _wilson_centre_half(p: float, n: int, z: float) -> tuple[float, float]:
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return centre, half


def binomial_test(successes: SupportsIndex, n: SupportsIndex, p: float = 0.5) -> float:
    """Exact two-sided binomial test: the probability, if each of ``n`` trials succeeds with
    probability ``p``, of an outcome no more likely than ``successes`` (outcomes within a
    relative 1e-7 of its probability count as equally likely, as in R's ``binom.test`` and
    scipy's ``binomtest``). ``successes`` must be a whole number of trials."""
    k = _count(successes, "successes")
    trials = _count(n, "n")
    if trials < 1:
        raise StatsError(f"n must be at least 1 (got {trials})")
    if not 0 <= k <= trials:
        raise StatsError(f"successes must lie between 0 and n = {trials} (got {k})")
    p = _real(p, "p")
    if not (math.isfinite(p) and 0.0 < p < 1.0):
        raise StatsError(f"p must lie strictly between 0 and 1 (got {p!r})")
    log_pmf = _binomial_log_pmf(trials, p)
    threshold = log_pmf[k] + math.log1p(_BINOMIAL_RELATIVE_TOLERANCE)
    as_extreme = log_pmf[log_pmf <= threshold]
    return min(1.0, float(np.exp(as_extreme).sum()))


def _binomial_log_pmf(n: int, p: float) -> npt.NDArray[np.float64]:
    """log P(X = k) for k = 0..n, X ~ Binomial(n, p); log C(n, k) built as a running sum of
    log((n - j + 1) / j), accurate to about n * 1e-16 (far inside the test's tolerance)."""
    j = np.arange(1, n + 1, dtype=np.float64)
    log_choose = np.concatenate(([0.0], np.cumsum(np.log(n - j + 1) - np.log(j))))
    k = np.arange(n + 1, dtype=np.float64)
    out: npt.NDArray[np.float64] = log_choose + k * math.log(p) + (n - k) * math.log1p(-p)
    return out


def _two_sided_normal_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z, accurate in the far tails."""
    return math.erfc(abs(z) / math.sqrt(2))


# ----- win shares and the first seat -----------------------------------------------------------


@dataclass(frozen=True)
class SeatWinShare:
    """One seat's share of the wins (0 = first player)."""

    seat: int
    games: int
    wins: float
    """Games won, a win shared by k players counting 1/k."""
    share: Interval
    """``wins / games`` with its Wilson interval."""

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


def win_shares(result: SimulationResult | StudySummary, confidence: float = 0.95) -> list[SeatWinShare]:
    """Each seat's win share (ties shared: 1/k for each of k tied winners) with its Wilson
    interval. Takes a ``SimulationResult`` or, for studies kept as totals, a
    ``StudySummary`` (``simulate_summary``); both give the same figures for the same games.
    The shares sum to 1; each interval is for that seat alone (the seats' shares are not
    independent)."""
    games, wins = _win_totals(result)
    return [
        SeatWinShare(seat=seat, games=games, wins=w, share=wilson(w, games, confidence))
        for seat, w in enumerate(wins)
    ]


@dataclass(frozen=True)
class FirstSeatAdvantage:
    """Seat 0's win share against the fair share ``1 / players``."""

    games: int
    players: int
    fair_share: float
    """``1 / players``: every seat's share if the seat order did not matter."""
    share: Interval
    """Seat 0's win share with its Wilson interval."""
    advantage: Interval
    """``share - fair_share``: the Wilson interval moved by the fair share."""
    p_value: float
    """Two-sided p-value of "seat 0's expected share is the fair share"."""
    method: str
    """"score" or "exact binomial" (see ``first_seat_advantage``)."""

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


def first_seat_advantage(
    result: SimulationResult | StudySummary,
    confidence: float = 0.95,
    method: Literal["score", "exact"] = "score",
) -> FirstSeatAdvantage:
    """Seat 0's win share minus the fair share ``1 / players``, with an interval and a
    two-sided p-value for "no advantage".

    ``method="score"`` (default) tests with the score statistic
    ``(share - fair) / sqrt(fair * (1 - fair) / games)``, the test the Wilson interval
    inverts: the p-value is below ``1 - confidence`` exactly when ``advantage``'s interval
    excludes 0, so the two never disagree. Ties (fractional wins) make a seat's per-game
    share vary less than a whole win or loss, so with ties the test is conservative (its
    true false-alarm rate is at most the nominal one), never anti-conservative. It suits
    any study of more than a few dozen games.

    ``method="exact"`` gives the exact binomial test of seat 0's wins against
    ``Binomial(games, 1 / players)``, exact for any number of games; it needs whole wins,
    so it raises ``StatsError`` if seat 0 shared a win in any game (use "score" then), and
    it needs the per-game rows of a ``SimulationResult``. The interval stays Wilson's.

    Seat 0 in a classic game often places one tile more than some other seats (see
    ``tiles_placed``), which accounts for much of its advantage with many players.
    """
    games, wins = _win_totals(result)
    players = len(wins)
    fair = 1.0 / players
    share = wilson(wins[0], games, confidence)
    advantage = Interval(
        estimate=share.estimate - fair,
        low=share.low - fair,
        high=share.high - fair,
        confidence=share.confidence,
        method=share.method,
    )
    if method == "score":
        z = (share.estimate - fair) / math.sqrt(fair * (1 - fair) / games)
        p_value = _two_sided_normal_p(z)
        name = "score"
    elif method == "exact":
        if not isinstance(result, SimulationResult):
            raise StatsError(
                "method='exact' needs the per-game rows of a SimulationResult (simulate), "
                "not totals (simulate_summary): use method='score'"
            )
        seat0 = result.winners[:, 0]
        shared = int(np.count_nonzero(seat0 & (result.winners.sum(axis=1) > 1)))
        if shared:
            raise StatsError(
                f"method='exact' needs whole wins, but seat 0 shared the win in {shared} of "
                f"{games} games: use method='score' (conservative with ties)"
            )
        p_value = binomial_test(int(np.count_nonzero(seat0)), games, fair)
        name = "exact binomial"
    else:
        raise StatsError(f"method must be 'score' or 'exact' (got {method!r})")
    return FirstSeatAdvantage(
        games=games,
        players=players,
        fair_share=fair,
        share=share,
        advantage=advantage,
        p_value=p_value,
        method=name,
    )


def _win_totals(result: SimulationResult | StudySummary) -> tuple[int, list[float]]:
    """(games, each seat's wins with ties shared) of a study with at least one game."""
    if isinstance(result, StudySummary):
        totals = result.totals
        games = totals.games
        unit = totals.win_share_unit
        wins = [w / unit for w in totals.win_shares]
    elif isinstance(result, SimulationResult):
        # Counted exactly in 1/60ths (1/k for any k of 1 to 6 tied winners), divided once:
        # the same figures as the totals of simulate_summary.
        games = result.games
        winners = result.winners.astype(np.int64)
        units = winners * (_SHARE_UNIT // np.maximum(winners.sum(axis=1, keepdims=True), 1))
        wins = [int(w) / _SHARE_UNIT for w in units.sum(axis=0)]
    else:
        raise StatsError(f"expected a SimulationResult or StudySummary, got {type(result).__name__}")
    if games < 1:
        raise StatsError("the study has no games")
    return games, wins


# ----- scores and tiles ----------------------------------------------------------------------


@dataclass(frozen=True)
class SeatScores:
    """One seat's final scores over a study."""

    seat: int
    games: int
    mean: Interval
    """Mean score with its normal interval (``mean +- z * sd / sqrt(games)``)."""
    sd: float
    """Sample standard deviation (n - 1)."""
    quantiles: dict[float, float]
    """Score quantile by level, e.g. ``quantiles[0.5]`` is the median (numpy's default
    "linear" interpolation, R's type 7)."""
    min: int
    max: int

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


def scores(
    result: SimulationResult,
    quantiles: Sequence[float] = DEFAULT_QUANTILES,
    confidence: float = 0.95,
) -> list[SeatScores]:
    """Each seat's mean score (with a normal interval), standard deviation, quantiles (by
    default 5, 25, 50, 75 and 95%), minimum and maximum. Needs at least 2 games."""
    _require_result(result, "result")
    games = _at_least_two_games(result, "result")
    levels = tuple(float(q) for q in quantiles)
    for q in levels:
        if not (math.isfinite(q) and 0.0 <= q <= 1.0):
            raise StatsError(f"quantile levels must lie between 0 and 1 (got {q!r})")
    z = z_value(confidence)
    out = []
    for seat in range(result.scores.shape[1]):
        column = result.scores[:, seat].astype(np.float64)
        mean = float(column.mean())
        sd = float(column.std(ddof=1))
        half = z * sd / math.sqrt(games)
        values = np.quantile(column, levels) if levels else np.empty(0)
        out.append(
            SeatScores(
                seat=seat,
                games=games,
                mean=Interval(mean, mean - half, mean + half, float(confidence), "normal"),
                sd=sd,
                quantiles={q: float(v) for q, v in zip(levels, values)},
                min=int(result.scores[:, seat].min()),
                max=int(result.scores[:, seat].max()),
            )
        )
    return out


@dataclass(frozen=True)
class SeatTiles:
    """Tiles one seat placed per game (the start tile, placed by nobody, not counted)."""

    seat: int
    mean: float
    min: int
    max: int

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


def tiles_by_seat(result: SimulationResult) -> npt.NDArray[np.int64]:
    """(games, players): the tiles each seat placed in each game.

    Worked out from ``turns`` (the tiles placed in a game; the start tile, and on a map
    the start squares' tiles, are put down before the first turn and not counted): seat 0
    moves first and turns pass round the table, one placement per turn, so in a game of
    ``T`` placements seat ``s`` places ``T // players`` tiles, plus one if
    ``s < T % players``. This is exact for every rule system the engine plays except
    Carcassonne Maps with small-town variant 1 (an extra turn, if the player takes it, for
    covering a small town), where the order depends on the board and the players'
    choices: that case raises ``StatsError``. A tile that cannot be placed is removed and
    the same player draws again, so discarded tiles do not shift the order; South Seas
    decisions (deliveries, market ships, Friday) are not placements and do not end or add
    turns.
    """
    _require_result(result, "result")
    if result.rules.map is not None and 1 in result.rules.small_towns:
        raise StatsError(
            "tiles per seat cannot be worked out from turns with small-town variant 1 (an "
            "extra turn for covering a small town changes the order of play); replay the "
            "games with Game and count the moves of each player"
        )
    players = int(result.scores.shape[1])
    turns = result.turns.astype(np.int64)
    base = (turns // players)[:, None]
    extra = np.arange(players, dtype=np.int64)[None, :] < (turns % players)[:, None]
    out: npt.NDArray[np.int64] = base + extra.astype(np.int64)
    return out


def tiles_placed(result: SimulationResult) -> list[SeatTiles]:
    """Each seat's mean, smallest and largest number of tiles placed per game (see
    ``tiles_by_seat`` for how they are counted and when that is exact). In a five-player
    base game of 71 placements seat 0 places 15 tiles and seats 1 to 4 place 14."""
    per_game = tiles_by_seat(result)
    if per_game.shape[0] == 0:
        raise StatsError("the study has no games")
    return [
        SeatTiles(
            seat=seat,
            mean=float(per_game[:, seat].mean()),
            min=int(per_game[:, seat].min()),
            max=int(per_game[:, seat].max()),
        )
        for seat in range(per_game.shape[1])
    ]


# ----- one configuration against another -----------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A statistic in two studies and ``variant - baseline`` with its interval."""

    baseline: float
    variant: float
    difference: Interval
    """``variant - baseline`` with its interval (see ``compare`` for the method)."""
    p_value: float
    """Two-sided p-value of "no difference" (a z test on the per-game values: paired or
    independent as the comparison is)."""

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


@dataclass(frozen=True)
class SeatComparison:
    """One seat (0 = first player) in two studies."""

    seat: int
    win_share: Difference
    """Win share (ties shared)."""
    mean_score: Difference

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


@dataclass(frozen=True)
class Comparison:
    """Two studies with the same number of seats, seat by seat."""

    paired: bool
    """Whether games were matched by index (common random numbers)."""
    games: tuple[int, int]
    """Games in the baseline and in the variant."""
    confidence: float
    method: str
    """"normal (paired)", "normal (independent)", or a bootstrap description."""
    seats: list[SeatComparison]

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


def compare(
    baseline: SimulationResult,
    variant: SimulationResult,
    *,
    confidence: float = 0.95,
    paired: bool | None = None,
    bootstrap: int = 0,
    seed: int = 0,
) -> Comparison:
    """Each seat's win share and mean score in ``variant`` against ``baseline`` (e.g. the
    same rules with and without an expansion), as ``variant - baseline`` with an interval
    and a two-sided p-value.

    **Paired** (common random numbers): when both studies have the same ``seed``,
    ``first_game`` and number of games, game ``i`` of each uses the same random stream
    (tile order and choices, as far as the rules let them coincide), so the two games of an
    index are compared with each other: the interval is on the mean of the per-game
    differences, which is valid whatever the correlation and much narrower when it is
    positive. ``paired=None`` (default) pairs exactly in that case; ``paired=True`` insists
    (``StatsError`` if the games do not match); ``paired=False`` treats the studies as
    independent, which is right for different seeds or game ranges and wrong (usually too
    wide, not guaranteed) for matched ones.

    **Independent**: the interval is ``d +- z * sqrt(sd_a**2 / n_a + sd_b**2 / n_b)`` on
    the per-game values (Welch's standard error with a normal quantile); the studies may
    have different numbers of games.

    ``bootstrap=B`` (e.g. 2000) replaces the normal intervals with percentile bootstrap
    intervals from ``B`` resamples (of matched pairs when paired, of each study separately
    when independent), drawn from ``numpy.random.default_rng(seed)`` so the same call gives
    the same intervals; it costs about ``B`` times the games in time. The p-values stay the
    z tests'. Both approaches need at least 2 games in each study.
    """
    _require_result(baseline, "baseline")
    _require_result(variant, "variant")
    players = int(baseline.scores.shape[1])
    if int(variant.scores.shape[1]) != players:
        raise StatsError(
            f"the studies have different numbers of seats ({players} and "
            f"{int(variant.scores.shape[1])}): compare compares seat by seat"
        )
    # Per-game values, columns: each seat's win share, then each seat's score.
    paired, method, differences = _differences(
        baseline, variant, _per_game_values(baseline), _per_game_values(variant), confidence, paired, bootstrap, seed
    )
    return Comparison(
        paired=paired,
        games=(baseline.games, variant.games),
        confidence=float(confidence),
        method=method,
        seats=[
            SeatComparison(seat=seat, win_share=differences[seat], mean_score=differences[players + seat])
            for seat in range(players)
        ],
    )


def _differences(
    baseline: SimulationResult,
    variant: SimulationResult,
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    confidence: float,
    paired: bool | None,
    bootstrap: int,
    seed: int,
) -> tuple[bool, str, list[Difference]]:
    """Each column of per-game values ``b`` (variant) against ``a`` (baseline), paired or
    independent, normal or bootstrap, as ``compare`` documents."""
    n_a = _at_least_two_games(baseline, "baseline")
    n_b = _at_least_two_games(variant, "variant")
    z = z_value(confidence)
    resamples = _count(bootstrap, "bootstrap")
    if resamples < 0:
        raise StatsError(f"bootstrap must be 0 (normal intervals) or a number of resamples (got {resamples})")
    if 0 < resamples < 100:
        raise StatsError(f"bootstrap needs at least 100 resamples for a percentile interval (got {resamples})")
    matched = (baseline.seed, baseline.first_game, n_a) == (variant.seed, variant.first_game, n_b)
    if paired is None:
        paired = matched
    elif paired and not matched:
        raise StatsError(
            "paired=True needs matched games: the same seed, first_game and number of games "
            f"(got seed {baseline.seed}/{variant.seed}, first_game "
            f"{baseline.first_game}/{variant.first_game}, games {n_a}/{n_b})"
        )
    mean_a = a.mean(axis=0)
    mean_b = b.mean(axis=0)
    estimate = mean_b - mean_a
    if paired:
        se = (b - a).std(axis=0, ddof=1) / math.sqrt(n_a)
    else:
        se = np.sqrt(a.var(axis=0, ddof=1) / n_a + b.var(axis=0, ddof=1) / n_b)
    kind = "paired" if paired else "independent"
    if resamples:
        seed = _count(seed, "seed")
        if seed < 0:
            raise StatsError(f"seed must be at least 0 (got {seed})")
        rng = np.random.default_rng(seed)
        boot = _bootstrap_differences(a, b, paired, resamples, rng)
        alpha = 1 - float(confidence)
        low, high = np.quantile(boot, [alpha / 2, 1 - alpha / 2], axis=0)
        method = f"bootstrap percentile ({resamples} resamples, {kind})"
    else:
        low, high = estimate - z * se, estimate + z * se
        method = f"normal ({kind})"
    p_values = [_z_test(float(d), float(s)) for d, s in zip(estimate, se)]
    return (
        paired,
        method,
        [
            Difference(
                baseline=float(mean_a[c]),
                variant=float(mean_b[c]),
                difference=Interval(
                    estimate=float(estimate[c]),
                    low=float(low[c]),
                    high=float(high[c]),
                    confidence=float(confidence),
                    method=method,
                ),
                p_value=p_values[c],
            )
            for c in range(a.shape[1])
        ],
    )


# ----- spread and fairness -------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """How close and how swingy the games of a study are."""

    games: int
    margin: Interval
    """Mean margin of victory: the top score minus the runner-up's (0 when the top is
    tied), normal interval."""
    score_range: Interval
    """Mean spread within a game: the top score minus the bottom score."""
    tie_rate: Interval
    """Share of games won by more than one player (Wilson interval)."""
    score_differences: list[Interval]
    """Per seat: its mean score minus the mean score of the other seats (the per-game
    difference, so seats' correlation is accounted for), normal interval."""

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


def spread(result: SimulationResult | StudySummary, confidence: float = 0.95) -> Spread:
    """Margin of victory, score spread within a game, tie rate and each seat's mean score
    against the others', with intervals (from exact totals, so a ``simulate_summary`` of
    any size works as well as rows). Needs at least 2 games and 2 seats."""
    t = _totals_of(result, "spread")
    n, p = t.games, t.players
    if p < 2:
        raise StatsError("spread needs at least 2 seats")
    z = z_value(confidence)

    def mean_interval(total: int, squares: int) -> Interval:
        return _normal_interval(Fraction(total, n), _variance(total, squares, n), n, z, confidence)

    differences = []
    for seat in range(p):
        # d = score[seat] - mean of the others' = a . scores, a = (1 at seat, -1/(p-1) elsewhere).
        a = [Fraction(1) if j == seat else Fraction(-1, p - 1) for j in range(p)]
        total = sum((a[j] * t.scores[j] for j in range(p)), Fraction(0))
        squares = sum((a[i] * a[j] * t.score_products[i][j] for i in range(p) for j in range(p)), Fraction(0))
        differences.append(_normal_interval(total / n, _variance(total, squares, n), n, z, confidence))
    return Spread(
        games=n,
        margin=mean_interval(t.margins, t.margins_squared),
        score_range=mean_interval(t.ranges, t.ranges_squared),
        tie_rate=wilson(t.ties, n, confidence),
        score_differences=differences,
    )


@dataclass(frozen=True)
class SeatTest:
    """One seat's win share against the fair ``1/players``."""

    seat: int
    win_share: Interval
    """The seat's win share (ties split) with a simultaneous interval: Bonferroni over
    the seats, so all of them hold together at the stated confidence."""
    p_value: float
    """Two-sided p-value of "this seat wins 1/players" (z test on the per-game shares)."""
    p_adjusted: float
    """``p_value`` with Holm's correction over the seats (compare it with alpha)."""

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


@dataclass(frozen=True)
class SeatsEqual:
    """A test that every seat wins equally often."""

    games: int
    statistic: float
    """Wald chi-square of the seats' mean win shares against ``1/players`` each, with
    their covariance estimated from the games (exact with ties split, which a Pearson
    test on counts is not); infinite (p-value 0) when the shares differ from
    ``1/players`` in a way the games never vary, e.g. a seat that never wins."""
    df: int
    p_value: float
    method: str
    seats: list[SeatTest]

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


def seats_equal(result: SimulationResult | StudySummary, confidence: float = 0.95) -> SeatsEqual:
    """Tests "all seats win equally often" over every seat at once (a chi-square test on
    the win shares), and each seat on its own with Holm's correction and simultaneous
    intervals: a pattern like 0.235 / 0.220 / 0.282 / 0.264 is flagged even when seat 0
    looks fair. Needs at least 2 games and 2 seats."""
    t = _totals_of(result, "seats_equal")
    n, p, unit = t.games, t.players, t.win_share_unit
    if p < 2:
        raise StatsError("seats_equal needs at least 2 seats")
    means = np.array([t.win_shares[k] / (n * unit) for k in range(p)])
    cov = np.array(
        [
            [
                float((Fraction(t.win_share_products[i][j]) - Fraction(t.win_shares[i] * t.win_shares[j], n)) / ((n - 1) * unit * unit))
                for j in range(p)
            ]
            for i in range(p)
        ]
    )
    # The shares sum to 1 in every game: drop the last seat, whose share the others fix.
    d = means[: p - 1] - 1 / p
    c = cov[: p - 1, : p - 1]
    df = int(np.linalg.matrix_rank(c)) if c.size else 0
    inverse = np.linalg.pinv(c) if df else np.zeros_like(c)
    # A difference along a direction in which the games never vary (a seat that never
    # wins: its share is 0 in every game) is certain, not small: the pseudo-inverse
    # would ignore it, so it makes the statistic infinite. Shares lie in [0, 1], so what
    # is left below 1e-9 is rounding.
    unexplained = d - c @ inverse @ d
    if float(np.abs(unexplained).max(initial=0.0)) > 1e-9:
        statistic = math.inf
    else:
        # Rounding can leave a zero difference a hair below 0.
        statistic = max(0.0, float(n * d @ inverse @ d)) if df else 0.0
    p_value = chi2_sf(statistic, df) if df else (1.0 if statistic == 0 else 0.0)
    alpha = 1 - float(confidence)
    z_simultaneous = NormalDist().inv_cdf(1 - alpha / (2 * p))
    raw = []
    for k in range(p):
        se = math.sqrt(max(cov[k, k], 0.0) / n)
        raw.append(_z_test(float(means[k] - 1 / p), se))
    adjusted = holm(raw)
    seats = []
    for k in range(p):
        half = z_simultaneous * math.sqrt(max(cov[k, k], 0.0) / n)
        seats.append(
            SeatTest(
                seat=k,
                win_share=Interval(
                    estimate=float(means[k]),
                    low=max(0.0, float(means[k]) - half),
                    high=min(1.0, float(means[k]) + half),
                    confidence=float(confidence),
                    method=f"normal, Bonferroni over {p} seats",
                ),
                p_value=raw[k],
                p_adjusted=adjusted[k],
            )
        )
    return SeatsEqual(
        games=n,
        statistic=statistic,
        df=df,
        p_value=p_value,
        method="Wald chi-square on win shares (ties split), Holm per seat",
        seats=seats,
    )


@dataclass(frozen=True)
class SpreadComparison:
    """The spread statistics of two studies (see ``compare_spread``)."""

    paired: bool
    games: tuple[int, int]
    confidence: float
    method: str
    margin: Difference
    score_range: Difference
    tie_rate: Difference

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


def compare_spread(
    baseline: SimulationResult,
    variant: SimulationResult,
    *,
    confidence: float = 0.95,
    paired: bool | None = None,
    bootstrap: int = 0,
    seed: int = 0,
) -> SpreadComparison:
    """Margin of victory, score spread and tie rate in ``variant`` against ``baseline``
    ("does Friday make the game swingier?"), paired or independent and with normal or
    bootstrap intervals exactly as ``compare``. The studies may have different numbers of
    seats."""
    _require_result(baseline, "baseline")
    _require_result(variant, "variant")
    paired, method, (margin, score_range, tie_rate) = _differences(
        baseline, variant, _spread_values(baseline), _spread_values(variant), confidence, paired, bootstrap, seed
    )
    return SpreadComparison(
        paired=paired,
        games=(baseline.games, variant.games),
        confidence=float(confidence),
        method=method,
        margin=margin,
        score_range=score_range,
        tie_rate=tie_rate,
    )


def _spread_values(result: SimulationResult) -> npt.NDArray[np.float64]:
    """(games, 3): margin, range, tie (0 or 1) of each game."""
    if result.scores.shape[1] < 2:
        raise StatsError("spread statistics need at least 2 seats")
    margins, ranges = margins_and_ranges(result.scores)
    ties = (result.winners.sum(axis=1) > 1).astype(np.float64)
    return np.column_stack([margins.astype(np.float64), ranges.astype(np.float64), ties])


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (in their order): controls the chance
    of any false rejection at alpha, uniformly more powerful than Bonferroni."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    m = len(p_values)
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def chi2_sf(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with ``df`` degrees of freedom (the regularized
    upper incomplete gamma function, by its series or continued fraction)."""
    if df < 1:
        raise StatsError(f"a chi-square needs at least 1 degree of freedom (got {df})")
    if x <= 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    a, y = df / 2, x / 2
    if y < a + 1:
        return max(0.0, 1.0 - _gamma_series(a, y))
    return _gamma_fraction(a, y)


def _gamma_series(a: float, x: float) -> float:
    """The regularized lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1 / a
    ap = a
    for _ in range(10_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(a, x) by Lentz's continued fraction
    (x >= a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def _totals_of(result: SimulationResult | StudySummary, name: str) -> StudyTotals:
    if isinstance(result, SimulationResult):
        totals = result.totals()
    elif isinstance(result, StudySummary):
        totals = result.totals
    else:
        raise StatsError(f"{name} takes a SimulationResult or a StudySummary, not {type(result).__name__}")
    if totals.games < 2:
        raise StatsError(f"{name} needs at least 2 games (got {totals.games})")
    if not totals.win_share_products:
        raise StatsError(f"{name}: these totals were made without the products it needs (an older summary)")
    return totals


def _variance(total: Fraction | int, squares: Fraction | int, n: int) -> Fraction:
    """Sample variance (n - 1) from a sum and a sum of squares, exactly."""
    return (Fraction(squares) - Fraction(total) * Fraction(total) / n) / (n - 1)


def _normal_interval(mean: Fraction, variance: Fraction, n: int, z: float, confidence: float) -> Interval:
    half = z * math.sqrt(max(float(variance), 0.0) / n)
    m = float(mean)
    return Interval(estimate=m, low=m - half, high=m + half, confidence=float(confidence), method="normal")


def _per_game_values(result: SimulationResult) -> npt.NDArray[np.float64]:
    out: npt.NDArray[np.float64] = np.hstack([result.win_shares(), result.scores.astype(np.float64)])
    return out


def _z_test(difference: float, se: float) -> float:
    """Two-sided p-value of a difference with this standard error (1 for a zero difference
    with no spread, 0 for a nonzero one)."""
    if se > 0:
        return _two_sided_normal_p(difference / se)
    return 1.0 if difference == 0 else 0.0


def _bootstrap_differences(
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    paired: bool,
    resamples: int,
    rng: np.random.Generator,
) -> npt.NDArray[np.float64]:
    """(resamples, columns): mean of b minus mean of a over bootstrap resamples of the
    games (the same indices in both when paired), a chunk of resamples at a time."""
    columns = a.shape[1]
    out = np.empty((resamples, columns), dtype=np.float64)
    diffs = b - a if paired else None
    largest = max(a.shape[0], b.shape[0])
    chunk = max(1, _BOOTSTRAP_CHUNK_VALUES // (largest * columns))
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        if diffs is not None:
            index = rng.integers(0, diffs.shape[0], size=(size, diffs.shape[0]))
            out[start : start + size] = diffs[index].mean(axis=1)
        else:
            index_a = rng.integers(0, a.shape[0], size=(size, a.shape[0]))
            index_b = rng.integers(0, b.shape[0], size=(size, b.shape[0]))
            out[start : start + size] = b[index_b].mean(axis=1) - a[index_a].mean(axis=1)
    return out


# ----- planning ------------------------------------------------------------------------------


def games_needed(
    half_width: float,
    p: float = 0.5,
    confidence: float = 0.95,
    *,
    difference: bool = False,
) -> int:
    """How many games give a win-share interval no wider than ``+- half_width``, if the
    share comes out at ``p`` (0.5, the default, is the worst case; ``1 / players`` is the
    expectation of a fair seat).

    For one share: the smallest ``n`` whose Wilson interval (``wilson(p * n, n)``) has at
    most that half-width; e.g. 9,600 games for +-0.01 at 95% (the normal approximation's
    textbook ``z**2 p (1 - p) / h**2`` gives 9,604).

    ``difference=True``: games in *each* of two independent studies (``compare`` with
    ``paired=False``) for the normal interval on the difference of their shares,
    ``2 * z**2 * p * (1 - p) / h**2`` (19,208 each for +-0.01). A paired study of
    positively correlated games (common random numbers) needs fewer; how many fewer
    depends on the correlation, which only a pilot study can tell.
    """
    h = _half_width(half_width)
    p = _real(p, "p")
    if not (math.isfinite(p) and 0.0 <= p <= 1.0):
        raise StatsError(f"p must lie between 0 and 1 (got {p!r})")
    z = z_value(confidence)
    pq = p * (1 - p)
    if difference:
        return max(1, math.ceil(2 * z * z * pq / (h * h)))
    # The Wilson half-width falls as n grows; solve its square's quadratic in n, then step
    # to the exact smallest n (the root may be off by rounding).
    z2 = z * z
    qa = h * h
    qb = 2 * h * h * z2 - z2 * pq
    qc = z2 * z2 * (h * h - 0.25)
    root = (-qb + math.sqrt(max(0.0, qb * qb - 4 * qa * qc))) / (2 * qa)
    n = max(1, math.ceil(root))

    def half(m: int) -> float:
        return _wilson_centre_half(p, m, z)[1]

    while half(n) > h:
        n += 1
    while n > 1 and half(n - 1) <= h:
        n -= 1
    return n


def games_needed_for_mean(
    half_width: float,
    sd: float,
    confidence: float = 0.95,
    *,
    difference: bool = False,
) -> int:
    """How many games give a mean (e.g. a seat's score) an interval no wider than
    ``+- half_width`` when the per-game standard deviation is ``sd`` (take it from a pilot
    study, ``scores(...)[seat].sd``): ``(z * sd / half_width) ** 2``, rounded up; with
    ``difference=True``, games in each of two independent studies for the difference of
    their means (twice as many)."""
    h = _half_width(half_width)
    sd = _real(sd, "sd")
    if not (math.isfinite(sd) and sd >= 0):
        raise StatsError(f"sd must be a finite number at least 0 (got {sd!r})")
    z = z_value(confidence)
    factor = 2 if difference else 1
    return max(1, math.ceil(factor * (z * sd / h) ** 2))


# ----- checks --------------------------------------------------------------------------------


def _confidence(confidence: float) -> float:
    c = _real(confidence, "confidence")
    if not (0.0 < c < 1.0):
        raise StatsError(f"confidence must lie strictly between 0 and 1 (got {confidence!r})")
    return c


def _half_width(half_width: float) -> float:
    h = _real(half_width, "half_width")
    if not (math.isfinite(h) and h >= _SMALLEST_HALF_WIDTH):
        raise StatsError(f"half_width must be a finite number of at least 1e-9 (got {half_width!r})")
    return h


def _real(value: SupportsFloat, name: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise StatsError(f"{name} must be a number (got {type(value).__name__} {value!r})") from None


def _count(value: SupportsIndex, name: str) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise StatsError(f"{name} must be an integer (got {type(value).__name__} {value!r})") from None


def _require_result(result: object, name: str) -> None:
    if not isinstance(result, SimulationResult):
        raise StatsError(f"{name} must be a SimulationResult (simulate), got {type(result).__name__}")


def _at_least_two_games(result: SimulationResult, name: str) -> int:
    if result.games < 2:
        raise StatsError(f"{name} has {result.games} game(s): a spread needs at least 2")
    return result.games


__all__ = [
    "DEFAULT_QUANTILES",
    "Comparison",
    "Difference",
    "FirstSeatAdvantage",
    "Interval",
    "SeatComparison",
    "SeatScores",
    "SeatTiles",
    "SeatWinShare",
    "StatsError",
    "binomial_test",
    "compare",
    "first_seat_advantage",
    "games_needed",
    "games_needed_for_mean",
    "scores",
    "tiles_by_seat",
    "tiles_placed",
    "wilson",
    "win_shares",
    "z_value",
]
