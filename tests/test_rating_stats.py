"""The strength scale's statistics, without playing a game: paired outcomes (pentanomial
counts and the score's interval from the pairs' variance), the sequential test (its
likelihood ratio against a general-purpose optimiser, its error rates and expected length
by simulation) and the Bradley-Terry ladder (hand-computed fits, a general-purpose
optimiser, recovery of known ratings, coverage of its intervals). Every simulation is
seeded and vectorised: each test takes a few seconds at most."""

from __future__ import annotations

import itertools
import math
from statistics import NormalDist

import numpy as np
import numpy.typing as npt
import pytest
import scipy.optimize

from carcassonne import CarcassonneError
from carcassonne.rating import bradley_terry, pentanomial
from carcassonne.rating.errors import RatingError
from carcassonne.rating.sequential import SPRT

Z95 = NormalDist().inv_cdf(0.975)
GAME_SCORES = np.array(pentanomial.PAIR_SCORES) / 2


def pair_distribution(elo: float, draw: float = 0.3, same: float = 0.0) -> npt.NDArray[np.float64]:
    """The probabilities of the five pair scores when each game is a win, draw or loss for
    A with mean score ``elo_to_score(elo)`` and draw chance ``draw``; with chance ``same``
    the pair's second game repeats its first (positive correlation), else the two games
    are independent. The mean per game is the game's, whatever ``same``."""
    s = pentanomial.elo_to_score(elo)
    game = np.array([1 - s - draw / 2, draw, s - draw / 2])  # loss, draw, win: scores 0, 1/2, 1
    assert (game >= 0).all()
    independent = np.convolve(game, game)  # the pair's score in halves: 0 .. 4
    repeated = np.zeros(5)
    repeated[[0, 2, 4]] = game
    return (1 - same) * independent + same * repeated


# ----- pentanomial ---------------------------------------------------------------------------


def test_counts_bins_hand_made_pair_scores() -> None:
    c = pentanomial.counts(np.array([2.0, 1.0, 1.5, 1.0, 0.5, 2.0, 1.0, 1.5]))
    assert c.dtype == np.int64 and c.tolist() == [0, 1, 3, 2, 2]
    # Three-way ties give thirds, rounded to the nearest half; quarters go to the whole
    # score next to them, so that B's counts (2 minus A's scores) mirror A's.
    odd = np.array([1 / 3, 1 + 1 / 3, 2 / 3, 0.25, 0.75, 1.25, 1.75, 0.0])
    assert pentanomial.counts(odd).tolist() == [2, 2, 2, 1, 1]
    assert pentanomial.counts(2 - odd).tolist() == pentanomial.counts(odd).tolist()[::-1]
    assert pentanomial.counts(np.array([])).tolist() == [0, 0, 0, 0, 0]


@pytest.mark.parametrize("bad", [[[1.0, 2.0]], [-0.5, 1.0], [2.5], [math.nan], [math.inf]])
def test_counts_refuses_what_is_no_pair_score(bad: list[float]) -> None:
    with pytest.raises(RatingError, match="pair_scores"):
        pentanomial.counts(np.array(bad))


def test_estimate_of_hand_made_counts() -> None:
    e = pentanomial.estimate([0, 1, 3, 2, 2])
    # Per game: 0.25 once, 0.5 three times, 0.75 twice, 1 twice: mean 5.25 / 8; the
    # squared deviations sum to 0.4921875, so the sample variance is 0.0703125 and the
    # standard error sqrt(0.0703125 / 8) = 0.09375.
    assert (e.pairs, e.counts, e.confidence) == (8, (0, 1, 3, 2, 2), 0.95)
    assert e.score == 0.65625
    assert e.score_low == pytest.approx(0.65625 - Z95 * 0.09375, rel=1e-12)
    assert e.score_high == pytest.approx(0.65625 + Z95 * 0.09375, rel=1e-12)
    assert e.elo == pytest.approx(400 * math.log10(0.65625 / 0.34375), rel=1e-12)
    assert e.elo_low == pytest.approx(-400 * math.log10(1 / e.score_low - 1), rel=1e-12)
    assert e.elo_high == pytest.approx(-400 * math.log10(1 / e.score_high - 1), rel=1e-12)
    assert repr(e) == "Estimate(pairs=8, counts=(0, 1, 3, 2, 2), score=0.66 [0.47, 0.84], elo=112 [-19, 288], 95%)"
    # A wider confidence, a wider interval, same centre.
    wide = pentanomial.estimate([0, 1, 3, 2, 2], confidence=0.99)
    assert wide.score == e.score and wide.score_low < e.score_low and wide.score_high > e.score_high


def test_every_pair_lost_or_won_is_an_infinite_elo() -> None:
    lost = pentanomial.estimate(np.array([7, 0, 0, 0, 0]))
    assert (lost.score, lost.score_low, lost.score_high) == (0.0, 0.0, 0.0)
    assert lost.elo == lost.elo_low == lost.elo_high == -math.inf
    won = pentanomial.estimate(np.array([0, 0, 0, 0, 7]))
    assert (won.score, won.score_low, won.score_high) == (1.0, 1.0, 1.0)
    assert won.elo == won.elo_low == won.elo_high == math.inf
    # Mostly won: the upper bound clips at 1, +inf Elo, the estimate stays finite.
    mostly = pentanomial.estimate(np.array([0, 0, 0, 1, 6]))
    assert mostly.score_high == 1.0 and mostly.elo_high == math.inf and math.isfinite(mostly.elo)


@pytest.mark.parametrize(
    ("counts", "confidence", "argument"),
    [
        ([1, 2, 3, 4], 0.95, "counts"),
        ([1, 2, -3, 4, 5], 0.95, "counts"),
        ([1.5, 2, 3, 4, 5], 0.95, "counts"),
        ([0, 0, 1, 0, 0], 0.95, "counts"),
        ([1, 2, 3, 4, 5], 1.0, "confidence"),
        ([1, 2, 3, 4, 5], 0.0, "confidence"),
        ([1, 2, 3, 4, 5], math.nan, "confidence"),
    ],
)
def test_estimate_refuses_bad_input_naming_it(counts: list[float], confidence: float, argument: str) -> None:
    with pytest.raises(RatingError, match=argument) as caught:
        pentanomial.estimate(counts, confidence=confidence)
    assert isinstance(caught.value, CarcassonneError) and isinstance(caught.value, ValueError)


def naive_half_width(pair_scores: npt.NDArray[np.float64]) -> float:
    """The interval's half-width if the pairs' games were independent: the sample
    variance of the games' scores over all 2n games. A pair's two games are recovered
    from its score only when the pairs' scores are 0, 1 or 2 (no draws)."""
    games = np.concatenate([np.minimum(pair_scores, 1.0), np.maximum(pair_scores - 1.0, 0.0)])
    return Z95 * float(games.std(ddof=1)) / math.sqrt(len(games))


@pytest.mark.parametrize(("same", "ratio"), [(0.0, 1.0), (0.6, math.sqrt(1.6))])
def test_the_interval_follows_the_pairs_correlation(same: float, ratio: float) -> None:
    # No draws, so that a pair's two games are known from its score. A pair's two games
    # with correlation rho have a mean of variance var_game (1 + rho) / 2: the pairs'
    # interval is sqrt(1 + rho) times the naive one (rho = same here).
    rng = np.random.default_rng(11)
    pairs = 40_000
    halves = rng.choice(5, size=pairs, p=pair_distribution(60.0, draw=0.0, same=same))
    scores = halves / 2.0
    e = pentanomial.estimate(pentanomial.counts(scores))
    measured = (e.score_high - e.score_low) / 2 / naive_half_width(scores)
    # Both widths come from 40,000 pairs: their ratio is within 1% of its expectation.
    assert measured == pytest.approx(ratio, rel=0.01)
    assert e.score_low < pentanomial.elo_to_score(60.0) < e.score_high


def test_the_interval_is_narrower_when_the_pairs_games_cancel() -> None:
    # The paired design's usual case: the second game undoes the first's luck (seats
    # swapped), a negative correlation. Here with chance 0.5 the second game is the
    # first's mirror image (a win becomes a loss), at even strength so the mean stays 1/2.
    rng = np.random.default_rng(12)
    pairs = 40_000
    first = rng.random(pairs) < 0.5
    second = np.where(rng.random(pairs) < 0.5, ~first, rng.random(pairs) < 0.5)
    scores = first.astype(np.float64) + second
    e = pentanomial.estimate(pentanomial.counts(scores))
    measured = (e.score_high - e.score_low) / 2 / naive_half_width(scores)
    assert measured == pytest.approx(math.sqrt(1 - 0.5), rel=0.01)


def test_elo_and_score_round_trip() -> None:
    elos = np.linspace(-1200.0, 1200.0, 241)
    scores = pentanomial.elo_to_score(elos)
    assert isinstance(scores, np.ndarray) and (np.diff(scores) > 0).all()
    assert pentanomial.score_to_elo(scores) == pytest.approx(elos, abs=1e-9)
    assert pentanomial.elo_to_score(0.0) == 0.5 and isinstance(pentanomial.elo_to_score(0.0), float)
    assert pentanomial.elo_to_score(400.0) == pytest.approx(10 / 11, rel=1e-15)
    assert pentanomial.score_to_elo(0.75) == pytest.approx(400 * math.log10(3), rel=1e-15)
    assert pentanomial.score_to_elo(0.0) == -math.inf and pentanomial.score_to_elo(1.0) == math.inf
    assert pentanomial.elo_to_score(-math.inf) == 0.0 and pentanomial.elo_to_score(math.inf) == 1.0
    for bad in (1.5, -0.1, math.nan):
        with pytest.raises(RatingError, match="score"):
            pentanomial.score_to_elo(bad)
    with pytest.raises(RatingError, match="elo"):
        pentanomial.elo_to_score(math.nan)


# ----- the sequential test ---------------------------------------------------------------------


def constrained_log_likelihood(counts: npt.NDArray[np.float64], score: float) -> float:
    """The largest log-likelihood of ``counts`` over the pentanomial distributions whose
    mean per game is ``score``, by a general-purpose constrained optimiser."""
    found = scipy.optimize.minimize(
        lambda p: -float(counts @ np.log(p)),
        np.full(5, 0.2),
        method="SLSQP",
        bounds=[(1e-12, 1.0)] * 5,
        constraints=[
            {"type": "eq", "fun": lambda p: p.sum() - 1},
            {"type": "eq", "fun": lambda p: p @ GAME_SCORES - score},
        ],
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    assert found.success, found.message
    return -float(found.fun)


@pytest.mark.parametrize("counts", [[10, 30, 60, 70, 30], [40, 70, 100, 60, 30], [3, 1, 8, 2, 1]])
def test_the_llr_is_the_ratio_of_the_constrained_maximum_likelihoods(counts: list[int]) -> None:
    test = SPRT(elo0=0.0, elo1=50.0)
    n = np.array(counts, dtype=np.float64)
    expected = constrained_log_likelihood(n, test.score1) - constrained_log_likelihood(n, test.score0)
    assert test.llr(counts) == pytest.approx(expected, abs=1e-6)
    # The same, many at once, in any shape.
    many = test.llr_many(np.array([[counts, counts], [counts, counts]]))
    assert many.shape == (2, 2) and many == pytest.approx(test.llr(counts), rel=1e-12)


def test_bounds_and_decisions() -> None:
    test = SPRT(elo0=-10.0, elo1=30.0, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95)) and test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert test.score0 == pentanomial.elo_to_score(-10.0) and test.score1 == pentanomial.elo_to_score(30.0)
    assert test.llr([0, 0, 0, 0, 0]) == 0.0 and test.decide([0, 0, 0, 0, 0]) is None
    assert test.decide([10, 30, 60, 70, 30]) == "H1" and test.llr([10, 30, 60, 70, 30]) >= test.upper
    assert test.decide([30, 70, 60, 30, 10]) == "H0" and test.llr([30, 70, 60, 30, 10]) <= test.lower
    assert test.decide([1, 2, 3, 2, 1]) is None
    # A pair score nobody has given yet takes no part in the ratio's sum; the result
    # stays finite even when every pair gave the same score.
    assert math.isfinite(test.llr([0, 0, 0, 0, 5])) and test.llr([0, 0, 0, 0, 5]) > 0
    assert test.llr([0, 0, 5, 0, 0]) < 0  # even scores: 0 Elo, nearer elo0
    assert repr(test) == "SPRT(elo0=-10.0, elo1=30.0, alpha=0.05, beta=0.1)"
    # Any real number will do, kept as a float.
    assert SPRT(np.int64(-10), 30, beta=np.float32(0.1)) == SPRT(-10.0, 30.0, beta=float(np.float32(0.1)))


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"elo0": 10.0, "elo1": 10.0}, "elo0"),
        ({"elo0": 20.0, "elo1": 10.0}, "elo0"),
        ({"elo0": math.nan, "elo1": 10.0}, "elo0"),
        ({"elo0": 0.0, "elo1": math.inf}, "elo1"),
        ({"elo0": 0.0, "elo1": 10.0, "alpha": 0.0}, "alpha"),
        ({"elo0": 0.0, "elo1": 10.0, "alpha": 0.5}, "alpha"),
        ({"elo0": 0.0, "elo1": 10.0, "alpha": -0.1}, "alpha"),
        ({"elo0": 0.0, "elo1": 10.0, "beta": 0.5}, "beta"),
        ({"elo0": 0.0, "elo1": 10.0, "beta": 1.2}, "beta"),
        ({"elo0": "0", "elo1": 10.0}, "elo0"),
        ({"elo0": 0.0, "elo1": 10.0, "alpha": True}, "alpha"),
    ],
)
def test_the_test_refuses_bad_arguments_naming_them(arguments: dict[str, object], name: str) -> None:
    with pytest.raises(RatingError, match=f"^{name}"):
        SPRT(**arguments)  # type: ignore[arg-type]


def test_bad_counts_and_variances_are_refused() -> None:
    test = SPRT(elo0=0.0, elo1=10.0)
    for bad in ([1, 2, 3], [1, 2, -1, 0, 0], [0.5, 1, 1, 1, 1]):
        with pytest.raises(RatingError, match="counts"):
            test.llr(bad)
    for variance in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(RatingError, match="counts_or_variance"):
            test.expected_pairs(0.0, variance)
    for counts in ([0, 0, 1, 0, 0], [0, 0, 9, 0, 0]):  # one pair; no spread
        with pytest.raises(RatingError, match="counts_or_variance"):
            test.expected_pairs(0.0, counts)
    with pytest.raises(RatingError, match="elo"):
        test.expected_pairs(math.nan, 0.5)


def simulate_tests(
    test: SPRT, distribution: npt.NDArray[np.float64], tests: int, rng: np.random.Generator
) -> tuple[npt.NDArray[np.str_], npt.NDArray[np.int64]]:
    """``tests`` independent runs of ``test`` on pairs drawn from ``distribution``: each
    run's decision and the pairs it took. Runs are advanced a block of pairs at a time,
    the ratio computed after every pair of the block for every run still going."""
    decisions = np.full(tests, "", dtype="<U2")
    lengths = np.zeros(tests, dtype=np.int64)
    totals = np.zeros((tests, 5), dtype=np.int64)
    going = np.arange(tests)
    block = 200
    for start in range(0, 20_000, block):
        draws = rng.choice(5, size=(len(going), block), p=distribution)
        running = totals[going, None, :] + np.cumsum(draws[..., None] == np.arange(5), axis=1)
        ratios = test.llr_many(running)
        crossed = (ratios >= test.upper) | (ratios <= test.lower)
        done = crossed.any(axis=1)
        first = crossed.argmax(axis=1)
        ends = going[done]
        lengths[ends] = start + first[done] + 1
        decisions[ends] = np.where(ratios[done, first[done]] >= test.upper, "H1", "H0")
        totals[going] = running[:, -1, :]
        going = going[~done]
        if len(going) == 0:
            break
    assert len(going) == 0, "every simulated test decides"
    return decisions, lengths


@pytest.fixture(scope="module")
def simulated() -> dict[float, tuple[npt.NDArray[np.str_], npt.NDArray[np.int64]]]:
    """400 runs each at elo0, midway and elo1 of a 0 vs 50 Elo test, pairs with draws and
    correlated games."""
    rng = np.random.default_rng(2024)
    test = SPRT(elo0=0.0, elo1=50.0)
    return {elo: simulate_tests(test, pair_distribution(elo, same=0.3), 400, rng) for elo in (0.0, 25.0, 50.0)}


def test_the_error_rates_hold_by_simulation(
    simulated: dict[float, tuple[npt.NDArray[np.str_], npt.NDArray[np.int64]]],
) -> None:
    runs = 400
    # alpha = beta = 0.05, plus three Monte Carlo standard errors of a rate of 0.05 over
    # 400 runs (the GSPRT's true rates are a little below alpha and beta: the ratio
    # overshoots its bound).
    tolerance = 3 * math.sqrt(0.05 * 0.95 / runs)
    at_elo0, _ = simulated[0.0]
    at_elo1, _ = simulated[50.0]
    assert np.mean(at_elo0 == "H1") <= 0.05 + tolerance
    assert np.mean(at_elo1 == "H0") <= 0.05 + tolerance
    # And it does tell the two apart.
    assert np.mean(at_elo0 == "H0") >= 0.9 and np.mean(at_elo1 == "H1") >= 0.9
    midway, _ = simulated[25.0]
    # Midway, either answer about as often: within four standard errors of one half.
    assert abs(np.mean(midway == "H1") - 0.5) <= 4 * math.sqrt(0.25 / runs)


def test_the_expected_length_is_walds_approximation(
    simulated: dict[float, tuple[npt.NDArray[np.str_], npt.NDArray[np.int64]]],
) -> None:
    test = SPRT(elo0=0.0, elo1=50.0)
    for elo, (_, lengths) in simulated.items():
        distribution = pair_distribution(elo, same=0.3)
        pair_scores = np.array(pentanomial.PAIR_SCORES)
        variance = float(distribution @ (pair_scores - distribution @ pair_scores) ** 2)
        forecast = test.expected_pairs(elo, variance)
        mean = float(lengths.mean())
        standard_error = float(lengths.std(ddof=1)) / math.sqrt(len(lengths))
        # Wald's approximation leaves out the overshoot of the last pair, which lengthens
        # the test by a few per cent at these step sizes; on top of that, four Monte
        # Carlo standard errors.
        assert forecast <= mean + 4 * standard_error, elo
        assert mean <= 1.1 * forecast + 4 * standard_error, elo
    # From counts, the variance is theirs: the same forecast as from that variance.
    counts = np.array([30, 60, 100, 60, 30])
    scores = np.repeat(pentanomial.PAIR_SCORES, counts)
    assert test.expected_pairs(10.0, counts) == pytest.approx(test.expected_pairs(10.0, float(scores.var(ddof=1))))
    # Far outside the tested range, the ratio runs straight to a bound.
    assert 0 < test.expected_pairs(1000.0, 0.4) < test.expected_pairs(50.0, 0.4) < test.expected_pairs(25.0, 0.4)


# ----- the Bradley-Terry ladder ------------------------------------------------------------


ELO_PER_UNIT = 400 / math.log(10)


def test_two_players_by_hand() -> None:
    # 75 of 100: the gap is 400 log10(3); its information is n p (1 - p) = 18.75 in
    # log-odds units, so the standard error is sqrt(1 / 18.75) of them.
    ladder = bradley_terry.fit([("a", "b", 75.0, 100)], anchor="b", anchor_elo=1000.0)
    a, b = ladder.ratings["a"], ladder.ratings["b"]
    assert list(ladder.ratings) == ["a", "b"] and ladder.anchor == "b"
    assert (b.elo, b.low, b.high) == (1000.0, 1000.0, 1000.0)
    assert a.elo == pytest.approx(1000 + 400 * math.log10(3), abs=1e-8)
    se = ELO_PER_UNIT / math.sqrt(18.75)
    assert (a.low, a.high) == pytest.approx((a.elo - Z95 * se, a.elo + Z95 * se), abs=1e-8)
    assert ladder.covariance == pytest.approx(np.array([[se**2, 0.0], [0.0, 0.0]]), rel=1e-9)
    assert repr(a) == "Rating(name='a', elo=1191 [1112, 1269], 95%)"
    # The same games entered either way round, in pieces, fit the same.
    pieces = bradley_terry.fit([("a", "b", 40.0, 50), ("b", "a", 15.0, 50)], anchor="b", anchor_elo=1000.0)
    assert pieces.ratings["a"].elo == pytest.approx(a.elo, abs=1e-8)
    # Ladders compare by their ratings (the covariance array aside).
    assert bradley_terry.fit([("a", "b", 75.0, 100)], anchor="b", anchor_elo=1000.0) == ladder
    assert pieces != bradley_terry.fit([("a", "b", 75.0, 100)], anchor="b", anchor_elo=999.0)


def test_a_ladder_with_cycles_against_a_general_purpose_optimiser() -> None:
    games = [
        ("w", "x", 60.0, 100), ("x", "y", 55.5, 90), ("y", "z", 30.0, 80),
        ("w", "y", 70.0, 100), ("z", "w", 41.0, 120), ("x", "z", 48.0, 60),
    ]  # fmt: skip
    ladder = bradley_terry.fit(games, anchor="x", anchor_elo=-50.0)
    names = ["w", "y", "z"]

    def negative_log_likelihood(free: npt.NDArray[np.float64]) -> float:
        rating = dict(zip(names, free, strict=True)) | {"x": 0.0}
        total = 0.0
        for a, b, score, played in games:
            p = 1 / (1 + math.exp(-(rating[a] - rating[b])))
            total -= score * math.log(p) + (played - score) * math.log(1 - p)
        return total

    found = scipy.optimize.minimize(negative_log_likelihood, np.zeros(3), method="BFGS", options={"gtol": 1e-10})
    assert found.success, found.message
    for name, theta in zip(names, found.x, strict=True):
        assert ladder.ratings[name].elo == pytest.approx(-50.0 + theta * ELO_PER_UNIT, abs=1e-3)
    # The ratings come strongest first, and the intervals are from the information: the
    # inverse Hessian of the negative log-likelihood at the maximum, by finite differences.
    elos = [r.elo for r in ladder.ratings.values()]
    assert elos == sorted(elos, reverse=True)
    h = 1e-4
    hessian = np.array([
        [
            (negative_log_likelihood(found.x + h * (np.eye(3)[i] + np.eye(3)[j]))
             - negative_log_likelihood(found.x + h * (np.eye(3)[i] - np.eye(3)[j]))
             - negative_log_likelihood(found.x - h * (np.eye(3)[i] - np.eye(3)[j]))
             + negative_log_likelihood(found.x - h * (np.eye(3)[i] + np.eye(3)[j]))) / (4 * h * h)
            for j in range(3)
        ]
        for i in range(3)
    ])  # fmt: skip
    variances = np.diag(np.linalg.inv(hessian)) * ELO_PER_UNIT**2
    for name, variance in zip(names, variances, strict=True):
        r = ladder.ratings[name]
        assert (r.high - r.low) / 2 == pytest.approx(Z95 * math.sqrt(variance), rel=1e-4)


CHAIN = {"p0": 0.0, "p1": 100.0, "p2": 150.0, "p3": 300.0, "p4": 380.0}
"""Five players, each linked to the next, with known Elo gaps of 100, 50, 150 and 80."""


def chain_games(pairs: int, ladders: int, rng: np.random.Generator) -> list[list[tuple[str, str, float, int]]]:
    """``ladders`` sets of matches along ``CHAIN``, ``pairs`` pairs of independent
    win-or-loss games per link."""
    names = list(CHAIN)
    gaps = np.array([CHAIN[b] - CHAIN[a] for a, b in itertools.pairwise(names)])
    p = 1 / (1 + 10 ** (-gaps / 400))  # the later player's chance per game
    wins = (rng.random((ladders, len(gaps), pairs, 2)) < p[:, None, None]).sum(axis=(2, 3))
    return [
        [(b, a, float(wins[k, i]), 2 * pairs) for i, (a, b) in enumerate(itertools.pairwise(names))]
        for k in range(ladders)
    ]


def test_the_ladder_recovers_known_ratings() -> None:
    rng = np.random.default_rng(5)
    pairs = 5000
    [games] = chain_games(pairs, 1, rng)
    ladder = bradley_terry.fit(games, anchor="p0")
    assert list(ladder.ratings) == ["p4", "p3", "p2", "p1", "p0"]
    assert ladder.ratings["p0"].elo == 0.0
    for name, true in CHAIN.items():
        r = ladder.ratings[name]
        assert r.low <= true <= r.high or name == "p0", (name, r)
        assert abs(r.elo - true) < 20, (name, r)  # 10,000 games a link: a few Elo each
    # On a chain, each link is the only evidence of its gap: the covariance of two
    # neighbours' ratings gives the gap the variance of that link alone.
    order = list(ladder.ratings)
    c = ladder.covariance
    for a, b in [("p1", "p0"), ("p2", "p1"), ("p3", "p2"), ("p4", "p3")]:
        i, j = order.index(a), order.index(b)
        gap = ladder.ratings[a].elo - ladder.ratings[b].elo
        p = 1 / (1 + 10 ** (-gap / 400))
        assert c[i, i] + c[j, j] - 2 * c[i, j] == pytest.approx(ELO_PER_UNIT**2 / (2 * pairs * p * (1 - p)), rel=1e-6)
    # Pinning another player moves every rating by the same amount.
    moved = bradley_terry.fit(games, anchor="p2", anchor_elo=150.0)
    shift = 150.0 - ladder.ratings["p2"].elo
    for name in CHAIN:
        assert moved.ratings[name].elo == pytest.approx(ladder.ratings[name].elo + shift, abs=1e-6)


def test_the_intervals_cover_at_their_nominal_rate() -> None:
    rng = np.random.default_rng(8)
    ladders = 1000
    covered = np.zeros((ladders, 4), dtype=bool)
    for k, games in enumerate(chain_games(100, ladders, rng)):
        ladder = bradley_terry.fit(games, anchor="p0")
        covered[k] = [ladder.ratings[n].low <= CHAIN[n] <= ladder.ratings[n].high for n in ("p1", "p2", "p3", "p4")]
    # Each player's rate is a proportion of 1000 ladders: within four standard errors of 95%.
    tolerance = 4 * math.sqrt(0.95 * 0.05 / ladders)
    for rate in covered.mean(axis=0):
        assert abs(rate - 0.95) <= tolerance, covered.mean(axis=0)


def test_a_sweep_is_refused_naming_the_link() -> None:
    games = [("a", "b", 30.0, 60), ("c", "b", 0.0, 40), ("a", "c", 20.0, 50)]
    with pytest.raises(RatingError, match=r"link 'c' - 'b': 'b' won all 40 games against 'c'"):
        bradley_terry.fit(games, anchor="a")
    with pytest.raises(RatingError, match=r"link 'a' - 'b': 'a' won all 60 games against 'b'"):
        bradley_terry.fit([("a", "b", 20.0, 20), ("b", "a", 0.0, 40)], anchor="a")


def test_players_not_linked_to_the_anchor_are_refused_by_name() -> None:
    games = [("a", "b", 30.0, 60), ("c", "d", 10.0, 40), ("d", "e", 20.0, 50)]
    with pytest.raises(RatingError, match="'c', 'd', 'e' not linked to the anchor 'a'"):
        bradley_terry.fit(games, anchor="a")
    with pytest.raises(RatingError, match="'a', 'b' not linked to the anchor 'c'"):
        bradley_terry.fit(games, anchor="c")


@pytest.mark.parametrize(
    ("games", "arguments", "name"),
    [
        ([], {}, "games"),
        ([("a", "b", 3.0)], {}, r"games\[0\]"),
        ([("a", "a", 3.0, 10)], {}, r"games\[0\]"),
        ([("a", "b", 3.0, 10), ("a", "", 3.0, 10)], {}, r"games\[1\]"),
        ([("a", "b", 11.0, 10)], {}, r"games\[0\]"),
        ([("a", "b", -1.0, 10)], {}, r"games\[0\]"),
        ([("a", "b", math.nan, 10)], {}, r"games\[0\]"),
        ([("a", "b", 3.0, 0)], {}, r"games\[0\]"),
        ([("a", "b", 3.0, 10.0)], {}, r"games\[0\]"),
        ([("a", "b", 3.0, 10)], {"anchor": "z"}, "anchor"),
        ([("a", "b", 3.0, 10)], {"confidence": 1.0}, "confidence"),
        ([("a", "b", 3.0, 10)], {"anchor_elo": math.inf}, "anchor_elo"),
    ],
)
def test_bad_ladder_input_is_refused_naming_it(
    games: list[tuple[str, str, float, int]], arguments: dict[str, object], name: str
) -> None:
    options: dict[str, object] = {"anchor": "a"} | arguments
    with pytest.raises(RatingError, match=f"^{name}"):
        bradley_terry.fit(games, **options)  # type: ignore[arg-type]
