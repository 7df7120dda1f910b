"""carcassonne.stats against known answers: textbook values (a fair coin), closed forms,
scipy where it is installed, hand-built results with known shares, games played by hand
(who places each tile) and a small real study."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given
from hypothesis import strategies as st

import carcassonne
import carcassonne.stats
from carcassonne import Game, Move, Rules, SimulationResult, simulate, simulate_summary, stats
from carcassonne.study.results import Z_95
from carcassonne.stats import StatsError

Z_99 = 2.5758293035489004


def make_result(
    winners: npt.ArrayLike | None = None,
    *,
    scores: npt.ArrayLike | None = None,
    turns: npt.ArrayLike | None = None,
    seed: int = 0,
    first_game: int = 0,
    rules: Rules | None = None,
) -> SimulationResult:
    """A SimulationResult built by hand. Winners default to the top scorers; scores to 10
    for a winner and 0 otherwise; turns to 71."""
    if scores is None:
        assert winners is not None
        w = np.asarray(winners, dtype=bool)
        s = np.where(w, 10, 0).astype(np.int32)
    else:
        s = np.asarray(scores, dtype=np.int32)
        w = s == s.max(axis=1, keepdims=True) if winners is None else np.asarray(winners, dtype=bool)
    games, players = s.shape
    t = np.full(games, 71, dtype=np.uint32) if turns is None else np.asarray(turns, dtype=np.uint32)
    return SimulationResult(
        rules=rules if rules is not None else Rules(players=players),
        seed=seed,
        first_game=first_game,
        policy="random",
        threads=1,
        elapsed_seconds=0.0,
        scores=s,
        winners=w,
        turns=t,
        points_by_kind=np.zeros((games, players, 8), dtype=np.int32),
        discarded=np.zeros(games, dtype=np.uint32),
        ships=np.zeros((games, players), dtype=np.uint32),
        wares_left=np.zeros((games, players), dtype=np.uint32),
        players=("random",) * players,
    )


def two_player(wins: int, ties: int, losses: int) -> SimulationResult:
    """Two-player games: seat 0 wins ``wins``, ties ``ties`` and loses ``losses``."""
    rows = [[True, False]] * wins + [[True, True]] * ties + [[False, True]] * losses
    return make_result(np.array(rows, dtype=bool).reshape(-1, 2))


def wilson_by_formula(k: float, n: int, z: float) -> tuple[float, float]:
    """Wilson (1927), written out independently of the module."""
    p = k / n
    centre = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(n) / (n + z * z) * math.sqrt(p * (1 - p) + z * z / (4 * n))
    return centre - half, centre + half


# ----- the module surface ----------------------------------------------------------------------


def test_module_is_exported() -> None:
    assert carcassonne.stats is stats is carcassonne.stats
    assert "stats" in carcassonne.__all__
    for name in stats.__all__:
        assert hasattr(stats, name), name
    assert issubclass(StatsError, ValueError)


def test_z_value() -> None:
    assert stats.z_value() == pytest.approx(Z_95, rel=1e-15)
    assert stats.z_value(0.99) == pytest.approx(Z_99, rel=1e-15)
    assert stats.z_value(0.6826894921370859) == pytest.approx(1.0, rel=1e-12)


# ----- Wilson intervals and the binomial test: a fair coin ------------------------------------------


def test_wilson_fair_coin_published_values() -> None:
    # 50 heads in 100 tosses: 0.4038 to 0.5962 at 95% (e.g. Newcombe 1998, Table I style).
    iv = stats.wilson(50, 100)
    assert iv.estimate == 0.5
    assert round(iv.low, 4) == 0.4038 and round(iv.high, 4) == 0.5962
    assert iv.low + iv.high == pytest.approx(1.0, abs=1e-15)
    assert iv.confidence == 0.95 and iv.method == "wilson"
    assert 0.5 in iv and 0.4 not in iv and 0.6 not in iv
    assert iv.half_width == pytest.approx(0.0961684696, abs=1e-10)


def test_wilson_zero_and_all_successes_closed_form() -> None:
    # 0 of n: [0, z^2 / (n + z^2)]; n of n mirrors it. 0 of 10 at 95%: upper 0.2775.
    for n in (1, 10, 1000):
        low, high = stats.wilson(0, n).low, stats.wilson(0, n).high
        assert low == 0.0
        assert high == pytest.approx(Z_95**2 / (n + Z_95**2), rel=1e-13)
        full = stats.wilson(n, n)
        assert full.high == 1.0 and full.low == pytest.approx(1 - high, rel=1e-13)
    assert round(stats.wilson(0, 10).high, 4) == 0.2775


@pytest.mark.parametrize("k,n,conf", [(0, 1, 0.95), (1, 3, 0.9), (37, 100, 0.95), (440, 2000, 0.99), (9999, 10000, 0.95)])
def test_wilson_matches_formula(k: int, n: int, conf: float) -> None:
    iv = stats.wilson(k, n, conf)
    low, high = wilson_by_formula(k, n, stats.z_value(conf))
    assert iv.low == pytest.approx(max(0.0, low), rel=1e-12, abs=1e-15)
    assert iv.high == pytest.approx(min(1.0, high), rel=1e-12, abs=1e-15)


def test_wilson_matches_scipy() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    for k, n in [(0, 5), (3, 7), (50, 100), (61, 100), (440, 2000), (1000, 1000)]:
        for conf in (0.8, 0.95, 0.99):
            ci = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
            iv = stats.wilson(k, n, conf)
            assert iv.low == pytest.approx(ci.low, rel=1e-12, abs=1e-15), (k, n, conf)
            assert iv.high == pytest.approx(ci.high, rel=1e-12, abs=1e-15), (k, n, conf)


def test_wilson_fractional_successes_lie_between_whole_ones() -> None:
    # A tie counted as half a win: 49.5 of 100 sits strictly between 49 and 50 of 100.
    lo, mid, hi = stats.wilson(49, 100), stats.wilson(49.5, 100), stats.wilson(50, 100)
    assert mid.estimate == 0.495
    assert lo.low < mid.low < hi.low and lo.high < mid.high < hi.high
    low, high = wilson_by_formula(49.5, 100, Z_95)
    assert mid.low == pytest.approx(low, rel=1e-12) and mid.high == pytest.approx(high, rel=1e-12)


def test_binomial_test_fair_coin_known_values() -> None:
    assert stats.binomial_test(50, 100) == 1.0
    # 60 heads of 100: P(|X - 50| >= 10) = 0.056887933640...
    assert stats.binomial_test(60, 100) == pytest.approx(0.0568879336, rel=1e-9)
    assert stats.binomial_test(40, 100) == stats.binomial_test(60, 100)
    # 10 heads of 10: 2 / 2**10.
    assert stats.binomial_test(10, 10) == pytest.approx(2 / 1024, rel=1e-12)
    assert stats.binomial_test(0, 1) == 1.0


def test_binomial_test_matches_scipy() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    for k, n, p in [(3, 20, 0.5), (9, 20, 1 / 3), (440, 2000, 0.2), (31, 100, 0.25), (1, 6, 1 / 6), (700, 1000, 0.5), (5, 5000, 0.002)]:
        want = scipy_stats.binomtest(k, n, p).pvalue
        assert stats.binomial_test(k, n, p) == pytest.approx(want, rel=1e-9, abs=1e-300), (k, n, p)


# ----- win shares and the first seat ----------------------------------------------------------------


def test_win_shares_with_ties_known_fractions() -> None:
    rows = [[True, False, False], [True, True, False], [True, True, True], [False, False, True]]
    seats = stats.win_shares(make_result(rows))
    want = [Fraction(1) + Fraction(1, 2) + Fraction(1, 3), Fraction(1, 2) + Fraction(1, 3), Fraction(1, 3) + 1]
    assert [s.seat for s in seats] == [0, 1, 2]
    assert [s.games for s in seats] == [4, 4, 4]
    assert [s.wins for s in seats] == [float(w) for w in want]
    assert [s.share.estimate for s in seats] == [float(w / 4) for w in want]
    for s, w in zip(seats, want):
        low, high = wilson_by_formula(float(w), 4, Z_95)
        assert s.share.low == pytest.approx(low, rel=1e-12)
        assert s.share.high == pytest.approx(high, rel=1e-12)
    assert sum(s.wins for s in seats) == 4


def test_first_seat_advantage_no_advantage() -> None:
    adv = stats.first_seat_advantage(two_player(50, 0, 50))
    assert (adv.games, adv.players, adv.fair_share) == (100, 2, 0.5)
    assert adv.share == stats.wilson(50, 100)
    assert adv.advantage.estimate == 0.0
    assert adv.advantage.low == pytest.approx(0.4038315303659957 - 0.5, abs=1e-15)
    assert adv.p_value == 1.0 and adv.method == "score"
    assert stats.first_seat_advantage(two_player(50, 0, 50), method="exact").p_value == 1.0


def test_first_seat_advantage_sixty_of_hundred() -> None:
    result = two_player(60, 0, 40)
    score = stats.first_seat_advantage(result)
    # z = (0.6 - 0.5) / sqrt(0.25 / 100) = 2: p = 0.0455002638963584.
    assert score.p_value == pytest.approx(0.0455002638963584, rel=1e-12)
    assert score.advantage.estimate == pytest.approx(0.1, abs=1e-15)
    assert score.advantage.low > 0  # p < 0.05, so the interval excludes 0
    exact = stats.first_seat_advantage(result, method="exact")
    assert exact.method == "exact binomial"
    assert exact.p_value == pytest.approx(0.0568879336, rel=1e-9)
    assert exact.share == score.share


def test_first_seat_advantage_ties_counted_as_halves() -> None:
    # 40 wins, 20 ties, 40 losses: seat 0's share is exactly fair.
    result = two_player(40, 20, 40)
    adv = stats.first_seat_advantage(result)
    assert adv.share.estimate == 0.5 and adv.p_value == 1.0
    with pytest.raises(StatsError, match="shared the win in 20 of 100 games"):
        stats.first_seat_advantage(result, method="exact")
    # 45 wins, 20 ties, 35 losses: 55 of 100, z = 1.
    adv = stats.first_seat_advantage(two_player(45, 20, 35))
    assert adv.share.estimate == 0.55
    assert adv.p_value == pytest.approx(math.erfc(1 / math.sqrt(2)), rel=1e-12)


def test_first_seat_advantage_five_players_fair_share() -> None:
    # Seat 0 wins 30 of 100 five-player games; the others share the rest.
    rows = [[True, False, False, False, False]] * 30 + [[False, True, False, False, False]] * 70
    adv = stats.first_seat_advantage(make_result(rows))
    assert adv.fair_share == 0.2 and adv.advantage.estimate == pytest.approx(0.1, abs=1e-15)
    assert adv.p_value == pytest.approx(math.erfc(2.5 / math.sqrt(2)), rel=1e-12)  # z = 0.1 / 0.04
    scipy_stats = pytest.importorskip("scipy.stats")
    exact = stats.first_seat_advantage(make_result(rows), method="exact")
    assert exact.p_value == pytest.approx(scipy_stats.binomtest(30, 100, 0.2).pvalue, rel=1e-9)


@given(
    n=st.integers(min_value=1, max_value=5000),
    frac=st.floats(min_value=0.0, max_value=1.0),
    players=st.integers(min_value=2, max_value=6),
    confidence=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_score_p_value_agrees_with_the_interval(n: int, frac: float, players: int, confidence: float) -> None:
    """The score test is the test Wilson's interval inverts: p < 1 - confidence exactly
    when the advantage interval leaves out 0 (a p-value within 1e-9 of the level is a
    rounding tie and not judged)."""
    k = round(frac * n)
    rows = np.zeros((n, players), dtype=bool)
    rows[:k, 0] = True
    rows[k:, 1] = True
    adv = stats.first_seat_advantage(make_result(rows), confidence)
    assert adv.share.estimate == k / n
    assert adv.share.low <= adv.share.estimate <= adv.share.high
    if abs(adv.p_value - (1 - confidence)) > 1e-9:
        assert (adv.p_value < 1 - confidence) == (0.0 not in adv.advantage)


def test_summary_and_rows_give_the_same_shares() -> None:
    rules = Rules(players=3)
    rows = simulate(rules, 300, seed=4, threads=1)
    totals = simulate_summary(rules, 300, seed=4, threads=1)
    assert stats.win_shares(rows) == stats.win_shares(totals)
    assert stats.first_seat_advantage(rows) == stats.first_seat_advantage(totals)
    with pytest.raises(StatsError, match="per-game rows"):
        stats.first_seat_advantage(totals, method="exact")


# ----- scores ---------------------------------------------------------------------------------------


def test_scores_known_values() -> None:
    n = 100
    seat0 = np.arange(1, n + 1)
    table = np.stack([seat0, np.full(n, 7)], axis=1)
    s0, s1 = stats.scores(make_result(scores=table))
    assert (s0.seat, s0.games, s0.min, s0.max) == (0, n, 1, n)
    assert s0.mean.estimate == 50.5
    assert s0.sd == pytest.approx(math.sqrt(n * (n + 1) / 12), rel=1e-13)  # sample sd of 1..n
    assert s0.mean.half_width == pytest.approx(Z_95 * s0.sd / math.sqrt(n), rel=1e-12)
    # numpy's "linear" quantiles of 1..100: 1 + q * 99.
    assert s0.quantiles == {q: pytest.approx(1 + q * 99, rel=1e-13) for q in stats.DEFAULT_QUANTILES}
    assert (s1.mean.estimate, s1.sd, s1.mean.low, s1.mean.high, s1.min, s1.max) == (7.0, 0.0, 7.0, 7.0, 7, 7)
    assert stats.scores(make_result(scores=table), quantiles=(0.0, 1.0))[0].quantiles == {0.0: 1.0, 1.0: 100.0}


def test_scores_mean_interval_matches_scipy() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(3)
    table = rng.integers(0, 80, size=(500, 2))
    for seat in stats.scores(make_result(scores=table), confidence=0.9):
        column = table[:, seat.seat]
        low, high = scipy_stats.norm.interval(0.9, loc=column.mean(), scale=scipy_stats.sem(column))
        assert seat.mean.low == pytest.approx(low, rel=1e-12)
        assert seat.mean.high == pytest.approx(high, rel=1e-12)
        assert seat.sd == pytest.approx(float(np.std(column, ddof=1)), rel=1e-13)


# ----- tiles placed ---------------------------------------------------------------------------------


def test_tiles_by_seat_round_robin() -> None:
    result = make_result(np.eye(5, dtype=bool)[[0, 1, 2]], turns=[71, 70, 72])
    per_game = stats.tiles_by_seat(result)
    assert per_game.tolist() == [[15, 14, 14, 14, 14], [14, 14, 14, 14, 14], [15, 15, 14, 14, 14]]
    assert per_game.sum(axis=1).tolist() == [71, 70, 72]
    seats = stats.tiles_placed(result)
    assert [s.mean for s in seats] == pytest.approx([44 / 3, 43 / 3, 14, 14, 14])
    assert [(s.min, s.max) for s in seats] == [(14, 15), (14, 15), (14, 14), (14, 14), (14, 14)]


@pytest.mark.parametrize(
    "rules",
    [
        Rules(players=5),
        Rules(players=4, tile_sets=("base", "inns-and-cathedrals", "traders-and-builders")),
        Rules(players=3, tile_sets=("south-seas",), friday=True),
        Rules(players=4, map="continental"),
    ],
    ids=["base-5", "ic-tb-4", "south-seas-friday-3", "maps-4"],
)
def test_tiles_by_seat_matches_games_played_by_hand(rules: Rules) -> None:
    """Who places each tile, counted move by move in whole games; ``turn`` counts the
    placements (not the start tile, nor a map's start squares)."""
    rng = random.Random(11)
    counts = np.zeros((3, rules.players), dtype=np.int64)
    turns = []
    for g in range(3):
        game = Game(rules, seed=5, game_index=g)
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            if isinstance(action, Move):
                counts[g, game.decider] += 1
            game.apply(action)
        assert game.turn == len(game.moves) == counts[g].sum()
        turns.append(game.turn)
    result = make_result(np.eye(rules.players, dtype=bool)[[0, 0, 0]], turns=turns, rules=rules)
    assert stats.tiles_by_seat(result).tolist() == counts.tolist()


def test_tiles_by_seat_refuses_small_town_extra_turns() -> None:
    rules = Rules(players=3, map="continental", small_towns=(1,))
    with pytest.raises(StatsError, match="small-town variant 1"):
        stats.tiles_by_seat(make_result(np.eye(3, dtype=bool)[[0]], rules=rules))
    # Variants 2 and 3 keep the order of play.
    plain = Rules(players=3, map="continental", small_towns=(2, 3))
    assert stats.tiles_by_seat(make_result(np.eye(3, dtype=bool)[[0]], turns=[100], rules=plain)).tolist() == [[34, 33, 33]]


# ----- a real study ---------------------------------------------------------------------------------


def test_real_study_is_consistent() -> None:
    result = simulate(Rules(players=5), 300, seed=21, threads=1)
    seats = stats.win_shares(result)
    assert sum(s.wins for s in seats) == pytest.approx(300, rel=1e-12)
    assert all(s.share.low <= s.share.estimate <= s.share.high for s in seats)
    adv = stats.first_seat_advantage(result)
    assert adv.share.estimate in adv.share and adv.advantage.estimate in adv.advantage
    assert adv.share == seats[0].share and 0.0 <= adv.p_value <= 1.0
    per_game = stats.tiles_by_seat(result)
    assert per_game.shape == (300, 5)
    assert (per_game.sum(axis=1) == result.turns).all()
    tiles = stats.tiles_placed(result)
    # 71 placements in a five-player base game without discards: 15, 14, 14, 14, 14.
    full = result.turns == 71
    assert full.any() and (per_game[full] == [15, 14, 14, 14, 14]).all()
    assert tiles[0].mean > tiles[1].mean >= tiles[4].mean
    score = stats.scores(result)
    assert [s.mean.estimate for s in score] == pytest.approx(result.scores.mean(axis=0).tolist())
    for s in score:
        values = [s.quantiles[q] for q in stats.DEFAULT_QUANTILES]
        assert s.min <= values[0] and values == sorted(values) and values[-1] <= s.max


# ----- one configuration against another ---------------------------------------------------------------


def test_compare_paired_known_difference() -> None:
    rng = np.random.default_rng(1)
    base_scores = rng.integers(0, 60, size=(200, 2))
    shifted = base_scores + np.array([3, 0])
    a = make_result(scores=base_scores, seed=9)
    b = make_result(scores=shifted, seed=9)
    cmp = stats.compare(a, b)
    assert cmp.paired and cmp.method == "normal (paired)" and cmp.games == (200, 200)
    seat0 = cmp.seats[0].mean_score
    assert seat0.difference.estimate == pytest.approx(3.0, rel=1e-12)
    assert seat0.difference.low == pytest.approx(3.0, rel=1e-12) and seat0.difference.high == pytest.approx(3.0, rel=1e-12)
    assert seat0.p_value == 0.0
    assert cmp.seats[1].mean_score.difference.estimate == 0.0 and cmp.seats[1].mean_score.p_value == 1.0
    same = stats.compare(a, a)
    for seat in same.seats:
        for d in (seat.win_share, seat.mean_score):
            assert d.difference.estimate == d.difference.low == d.difference.high == 0.0 and d.p_value == 1.0


def test_compare_pairs_only_matched_games() -> None:
    rows = np.eye(2, dtype=bool)[[0, 1, 1, 0]]
    a = make_result(rows, seed=1)
    assert stats.compare(a, make_result(rows, seed=1)).paired
    assert not stats.compare(a, make_result(rows, seed=2)).paired
    assert not stats.compare(a, make_result(rows, seed=1, first_game=4)).paired
    assert not stats.compare(a, make_result(rows, seed=1), paired=False).paired
    with pytest.raises(StatsError, match="paired=True needs matched games"):
        stats.compare(a, make_result(rows, seed=2), paired=True)


def _two_studies(paired: bool) -> tuple[SimulationResult, SimulationResult]:
    rng = np.random.default_rng(7)
    a_scores = rng.integers(0, 50, size=(400, 3))
    if paired:
        b_scores = a_scores + rng.integers(-4, 8, size=(400, 3))
        return make_result(scores=a_scores, seed=3), make_result(scores=b_scores, seed=3)
    b_scores = rng.integers(2, 55, size=(300, 3))
    return make_result(scores=a_scores, seed=3), make_result(scores=b_scores, seed=4)


def test_compare_z_statistics_match_scipy_t_statistics() -> None:
    """The paired z statistic is scipy's paired t statistic, the independent one Welch's;
    the module's p-value is that statistic's two-sided normal tail."""
    scipy_stats = pytest.importorskip("scipy.stats")
    for paired in (True, False):
        a, b = _two_studies(paired)
        cmp = stats.compare(a, b)
        assert cmp.paired is paired
        values_a = np.hstack([a.win_shares(), a.scores])
        values_b = np.hstack([b.win_shares(), b.scores])
        if paired:
            t = scipy_stats.ttest_rel(values_b, values_a).statistic
        else:
            t = scipy_stats.ttest_ind(values_b, values_a, equal_var=False).statistic
        diffs = [s.win_share for s in cmp.seats] + [s.mean_score for s in cmp.seats]
        for d, t_value in zip(diffs, t):
            assert d.p_value == pytest.approx(2 * scipy_stats.norm.sf(abs(t_value)), rel=1e-9, abs=1e-300)
            se = d.difference.half_width / stats.z_value()
            assert d.difference.estimate / se == pytest.approx(t_value, rel=1e-10)
            assert d.difference.estimate == pytest.approx(d.variant - d.baseline, abs=1e-12)


def test_compare_bootstrap_matches_scipy_bootstrap() -> None:
    """Percentile bootstrap intervals against scipy's, within Monte Carlo error: with 4000
    resamples an endpoint moves by about 0.04 standard errors between runs, so 0.25 is
    more than four sigma of the difference of two runs."""
    scipy_stats = pytest.importorskip("scipy.stats")
    for paired in (True, False):
        a, b = _two_studies(paired)
        cmp = stats.compare(a, b, bootstrap=4000, seed=5)
        normal = stats.compare(a, b)
        kind = "paired" if paired else "independent"
        assert cmp.method == f"bootstrap percentile (4000 resamples, {kind})"
        for seat, plain in zip(cmp.seats, normal.seats):
            column = seat.seat
            ours = seat.mean_score.difference
            se = plain.mean_score.difference.half_width / stats.z_value()
            if paired:
                data: tuple[npt.NDArray[np.int32], ...] = (b.scores[:, column] - a.scores[:, column],)

                def statistic(x: npt.NDArray[np.float64], axis: int) -> npt.NDArray[np.float64]:
                    means: npt.NDArray[np.float64] = np.mean(x, axis=axis)
                    return means
            else:
                data = (b.scores[:, column], a.scores[:, column])

                def statistic(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], axis: int) -> npt.NDArray[np.float64]:  # type: ignore[misc]
                    means: npt.NDArray[np.float64] = np.mean(x, axis=axis) - np.mean(y, axis=axis)
                    return means

            ref = scipy_stats.bootstrap(data, statistic, n_resamples=4000, method="percentile", random_state=np.random.default_rng(99)).confidence_interval
            assert abs(ours.low - ref.low) < 0.25 * se and abs(ours.high - ref.high) < 0.25 * se
            assert ours.estimate == plain.mean_score.difference.estimate
            assert seat.mean_score.p_value == plain.mean_score.p_value
        # The same seed gives the same intervals; another seed others.
        assert stats.compare(a, b, bootstrap=4000, seed=5) == cmp
        assert stats.compare(a, b, bootstrap=4000, seed=6) != cmp


def test_compare_real_paired_study_narrower_than_independent() -> None:
    """Common random numbers: the same seed with and without farmers. The paired interval
    on the score difference is the narrower one when the games' scores correlate."""
    a = simulate(Rules(players=2), 400, seed=13, threads=1)
    b = simulate(Rules(players=2, farmers=False), 400, seed=13, threads=1)
    paired = stats.compare(a, b)
    independent = stats.compare(a, b, paired=False)
    assert paired.paired and not independent.paired
    for p, i in zip(paired.seats, independent.seats):
        assert p.mean_score.difference.estimate == i.mean_score.difference.estimate
        assert p.mean_score.difference.estimate in p.mean_score.difference
        assert p.mean_score.difference.half_width < i.mean_score.difference.half_width
    assert sum(s.win_share.difference.estimate for s in paired.seats) == pytest.approx(0.0, abs=1e-12)


# ----- planning -------------------------------------------------------------------------------------


def test_games_needed_known_values() -> None:
    # +-0.01 at 95%, p = 0.5: Wilson n = z^2 / (4 h^2) - z^2 = 9599.6 -> 9600; the normal
    # approximation's textbook 1.96^2 * 0.25 / 0.01^2 = 9604 (9603.6 with the exact z).
    assert stats.games_needed(0.01) == 9600
    assert stats.games_needed(0.01, difference=True) == 19208
    assert stats.games_needed(0.03, p=0.5) == math.ceil(Z_95**2 / (4 * 0.03**2) - Z_95**2)
    assert stats.games_needed(0.01, confidence=0.99) == math.ceil(Z_99**2 / (4 * 0.01**2) - Z_99**2)
    assert stats.games_needed(0.5) == 1
    # Score mean within +-0.5 with sd 15: (1.96 * 15 / 0.5)^2 = 3457.3.
    assert stats.games_needed_for_mean(0.5, 15) == 3458
    assert stats.games_needed_for_mean(0.5, 15, difference=True) == 6915


@pytest.mark.parametrize("h", [0.2, 0.1, 0.05, 0.03])
@pytest.mark.parametrize("p", [0.5, 0.3, 0.2, 1 / 6, 0.05, 0.0])
def test_games_needed_is_the_smallest_by_brute_force(h: float, p: float) -> None:
    n = 1
    while wilson_half(p, n) > h:
        n += 1
    assert stats.games_needed(h, p) == n
    assert stats.wilson(p * n, n).half_width <= h + 1e-15  # the module's own interval agrees


def wilson_half(p: float, n: int) -> float:
    low, high = wilson_by_formula(p * n, n, Z_95)
    return (high - low) / 2


# ----- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: stats.wilson(0, 0), "n must be at least 1"),
        (lambda: stats.wilson(5, 4), "successes must lie between 0 and n = 4"),
        (lambda: stats.wilson(-1, 4), "successes must lie between 0 and n = 4"),
        (lambda: stats.wilson(float("nan"), 4), "successes must lie between"),
        (lambda: stats.wilson(1, 2.5), "n must be an integer"),  # type: ignore[arg-type]
        (lambda: stats.wilson(1, 4, 0.0), "confidence must lie strictly between 0 and 1"),
        (lambda: stats.wilson(1, 4, 1.0), "confidence must lie strictly between 0 and 1"),
        (lambda: stats.wilson(1, 4, 95), "confidence must lie strictly between 0 and 1"),
        (lambda: stats.wilson(1, 4, float("nan")), "confidence must lie strictly between 0 and 1"),
        (lambda: stats.binomial_test(3, 10, 1.0), "p must lie strictly between 0 and 1"),
        (lambda: stats.binomial_test(11, 10), "successes must lie between 0 and n = 10"),
        (lambda: stats.games_needed(-0.01), "half_width must be a finite number of at least 1e-9"),
        (lambda: stats.games_needed(0), "half_width must be a finite number of at least 1e-9"),
        (lambda: stats.games_needed(float("inf")), "half_width must be a finite number of at least 1e-9"),
        (lambda: stats.games_needed(1e-12), "half_width must be a finite number of at least 1e-9"),
        (lambda: stats.games_needed_for_mean(1e-300, 10), "half_width must be a finite number of at least 1e-9"),
        (lambda: stats.games_needed(0.01, p=1.5), "p must lie between 0 and 1"),
        (lambda: stats.games_needed("wide"), "half_width must be a number"),  # type: ignore[arg-type]
        (lambda: stats.wilson(1, 4, "high"), "confidence must be a number"),  # type: ignore[arg-type]
        (lambda: stats.games_needed(0.01, confidence=1.2), "confidence must lie strictly"),
        (lambda: stats.games_needed_for_mean(0.5, -1), "sd must be a finite number"),
        (lambda: stats.scores(two_player(1, 0, 0)), "result has 1 game"),
        (lambda: stats.scores(two_player(5, 0, 5), quantiles=(0.5, 1.5)), "quantile levels must lie between 0 and 1"),
        (lambda: stats.win_shares(two_player(0, 0, 0)), "the study has no games"),
        (lambda: stats.tiles_placed(two_player(0, 0, 0)), "the study has no games"),
        (lambda: stats.win_shares("games"), "expected a SimulationResult or StudySummary"),  # type: ignore[arg-type]
        (lambda: stats.first_seat_advantage(two_player(5, 0, 5), method="z"), "method must be 'score' or 'exact'"),  # type: ignore[arg-type]
        (lambda: stats.compare(two_player(5, 0, 5), make_result(np.eye(3, dtype=bool)[[0, 1]])), "different numbers of seats \\(2 and 3\\)"),
        (lambda: stats.compare(two_player(5, 0, 5), two_player(0, 0, 1)), "variant has 1 game"),
        (lambda: stats.compare(two_player(5, 0, 5), two_player(5, 0, 5), bootstrap=-1), "bootstrap must be 0"),
        (lambda: stats.compare(two_player(5, 0, 5), two_player(5, 0, 5), bootstrap=10), "at least 100 resamples"),
        (lambda: stats.compare(two_player(5, 0, 5), None), "variant must be a SimulationResult"),  # type: ignore[arg-type]
        (lambda: stats.compare(two_player(5, 0, 5), two_player(5, 0, 5), bootstrap=100, seed=-1), "seed must be at least 0"),
    ],
)
def test_bad_input_raises_stats_error(call: object, message: str) -> None:
    assert callable(call)
    with pytest.raises(StatsError, match=message) as caught:
        call()
    assert isinstance(caught.value, ValueError)
