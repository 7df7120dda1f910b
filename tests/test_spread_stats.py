"""Spread and fairness statistics (``stats.spread``, ``seats_equal``, ``compare_spread``,
``holm``, ``chi2_sf``) against known answers: hand-built games, textbook values, scipy,
and the same figures from rows and from ``simulate_summary`` totals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from carcassonne import Rules, simulate, simulate_summary, stats
from carcassonne.stats import StatsError

from test_stats import make_result


def test_spread_of_hand_built_games() -> None:
    # Margins 5, 0 (a tie on top), 6; ranges 5, 0, 6 for two seats; one tie in three games.
    result = make_result(scores=[[10, 5], [7, 7], [3, 9]])
    s = stats.spread(result)
    assert s.games == 3
    assert s.margin.estimate == pytest.approx(11 / 3)
    sd = np.std([5, 0, 6], ddof=1)
    assert s.margin.half_width == pytest.approx(1.959963984540054 * sd / math.sqrt(3))
    assert s.score_range.estimate == pytest.approx(11 / 3)
    assert s.tie_rate.estimate == pytest.approx(1 / 3)
    assert s.tie_rate.method == "wilson"
    # Seat 0 minus seat 1 per game: 5, 0, -6.
    d = np.array([5, 0, -6])
    assert s.score_differences[0].estimate == pytest.approx(d.mean())
    assert s.score_differences[0].half_width == pytest.approx(1.959963984540054 * d.std(ddof=1) / math.sqrt(3))
    assert s.score_differences[1].estimate == pytest.approx(-d.mean())


def test_three_seats_margin_uses_the_runner_up() -> None:
    result = make_result(scores=[[10, 8, 1], [4, 9, 9], [2, 3, 7]])
    s = stats.spread(result)
    assert s.margin.estimate == pytest.approx((2 + 0 + 4) / 3)
    assert s.score_range.estimate == pytest.approx((9 + 5 + 5) / 3)
    assert s.tie_rate.estimate == pytest.approx(1 / 3)
    # Seat 2 against the mean of seats 0 and 1: 1 - 9, 9 - 6.5, 7 - 2.5.
    d = np.array([1 - 9, 9 - 6.5, 7 - 2.5])
    assert s.score_differences[2].estimate == pytest.approx(d.mean())
    assert s.score_differences[2].half_width == pytest.approx(1.959963984540054 * d.std(ddof=1) / math.sqrt(3))


def test_rows_and_totals_give_the_same_spread_and_test() -> None:
    rules = Rules(players=3)
    rows = simulate(rules, 400, seed=5, policy="greedy")
    totals = simulate_summary(rules, 400, seed=5, policy="greedy")
    assert stats.spread(rows) == stats.spread(totals)
    assert stats.seats_equal(rows) == stats.seats_equal(totals)
    assert stats.spread(rows.summary()) == stats.spread(totals)


def test_chi2_survival_matches_scipy() -> None:
    scipy_stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 3, 5, 10, 30):
        for x in (0.001, 0.5, 1.0, 2.5, 7.8, 15.0, 40.0, 120.0):
            assert stats.chi2_sf(x, df) == pytest.approx(scipy_stats.chi2.sf(x, df), rel=1e-9, abs=1e-300)
    assert stats.chi2_sf(0.0, 3) == 1.0
    # Textbook critical values: 3.841 (df 1) and 7.815 (df 3) at alpha 0.05.
    assert stats.chi2_sf(3.841458820694124, 1) == pytest.approx(0.05)
    assert stats.chi2_sf(7.814727903251179, 3) == pytest.approx(0.05)


def test_holm_matches_the_textbook_example() -> None:
    # m = 4: sorted 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 -> max 0.06.
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert stats.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_seats_equal_is_the_wald_test_on_the_shares() -> None:
    # Two seats without ties: the Wald statistic is n (m - 1/2)^2 / var, a chi-square(1).
    rng = np.random.default_rng(1)
    wins = rng.random(500) < 0.56
    result = make_result(np.column_stack([wins, ~wins]))
    t = stats.seats_equal(result)
    m, v = wins.mean(), wins.astype(float).var(ddof=1)
    assert t.df == 1
    assert t.statistic == pytest.approx(500 * (m - 0.5) ** 2 / v)
    scipy_stats = pytest.importorskip("scipy.stats")
    assert t.p_value == pytest.approx(scipy_stats.chi2.sf(t.statistic, 1))
    # With two seats the per-seat z tests are the same test.
    assert t.seats[0].p_value == pytest.approx(t.p_value)


def test_seats_equal_flags_a_pattern_that_spares_seat_0() -> None:
    """0.25 / 0.22 / 0.28 / 0.25 over 8,000 games: seat 0 is fair, the seats are not."""
    rng = np.random.default_rng(2)
    seat = rng.choice(4, size=8000, p=[0.25, 0.22, 0.28, 0.25])
    result = make_result(np.eye(4, dtype=bool)[seat])
    t = stats.seats_equal(result)
    assert t.df == 3 and t.p_value < 1e-6
    assert t.seats[0].p_adjusted > 0.05
    assert min(s.p_adjusted for s in t.seats) < 1e-3
    # Without ties the Wald statistic is Neyman's chi-square, sum (O - E)^2 / O, times
    # (n - 1) / n (the covariance is the sample's, n - 1).
    observed = np.bincount(seat, minlength=4)
    neyman = float((((observed - 2000) ** 2) / observed).sum())
    assert t.statistic == pytest.approx(neyman * 7999 / 8000)


def test_fair_seats_are_not_flagged_too_often() -> None:
    """Under the null (every seat wins 1/3, ties included), about 5% of studies are
    flagged at alpha 0.05: 200 simulated studies flag between 2 and 20."""
    rng = np.random.default_rng(3)
    flagged = 0
    for _ in range(200):
        seat = rng.integers(0, 3, size=300)
        winners = np.eye(3, dtype=bool)[seat]
        tie = rng.random(300) < 0.1
        winners[tie] = True  # three-way ties
        flagged += stats.seats_equal(make_result(winners)).p_value < 0.05
    assert 2 <= flagged <= 20, flagged


def test_compare_spread_paired_and_independent() -> None:
    base = make_result(scores=[[10, 5], [7, 7], [3, 9], [4, 4]], seed=1)
    same = stats.compare_spread(base, base)
    assert same.paired and same.margin.difference.estimate == 0 and same.margin.p_value == 1.0
    wider = make_result(scores=[[20, 5], [7, 7], [3, 19], [4, 4]], seed=1)
    d = stats.compare_spread(base, wider)
    assert d.margin.difference.estimate == pytest.approx((15 + 16 - 5 - 6) / 4)
    assert d.tie_rate.difference.estimate == 0
    other = make_result(scores=[[20, 5], [7, 7], [3, 19]], seed=2)
    independent = stats.compare_spread(base, other)
    assert not independent.paired and independent.method == "normal (independent)"
    with pytest.raises(StatsError, match="paired=True needs matched games"):
        stats.compare_spread(base, other, paired=True)


def test_spread_refuses_what_it_cannot_measure() -> None:
    with pytest.raises(StatsError, match="at least 2 games"):
        stats.spread(make_result(scores=[[1, 2]]))
    with pytest.raises(StatsError, match="at least 2 seats"):
        stats.seats_equal(make_result(scores=[[1], [2]], rules=Rules(players=2)))
    with pytest.raises(StatsError, match="SimulationResult or a StudySummary"):
        stats.spread("results.csv")  # type: ignore[arg-type]


def test_frames_carry_win_shares_that_sum_to_one_and_each_seats_player() -> None:
    pytest.importorskip("pandas")
    result = simulate(Rules(players=4), 600, seed=3, players=["greedy", "random", "greedy", "random"])
    df = result.to_pandas()
    per_seat = df.groupby("seat").win_share.mean()
    assert per_seat.sum() == pytest.approx(1.0)
    assert per_seat.to_numpy() == pytest.approx([s.share.estimate for s in stats.win_shares(result)])
    # A tie counts for every tied player in `winner`, 1/k in `win_share`.
    tied = df.groupby("game").winner.transform("sum") > 1
    assert tied.any()
    assert (df.loc[tied & df.winner, "win_share"] < 1).all()
    assert list(df.player[:4]) == ["greedy", "random", "greedy", "random"]
    assert (df.seed == 3).all()


def test_virtual_scores_are_the_final_scores_once_over_and_lead_the_banked_ones() -> None:
    from carcassonne import Game

    game = Game(Rules(), seed=4)
    while not game.is_over:
        virtual = game.virtual_scores()
        assert len(virtual) == 2
        assert all(v >= s for v, s in zip(virtual, game.scores))  # classic scoring only adds
        game.play(game.legal_moves()[0])
    assert game.virtual_scores() == game.scores


def test_win_shares_sum_to_one_in_every_output(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """Ties split everywhere: stats, the command line, frames, a study's frame, the
    seat-bias tables' script (rerun on a few games) and the tables it made on the players
    guide (docs/guide/players.md)."""
    import re
    import subprocess
    import sys

    from carcassonne import Study
    from carcassonne.cli import main

    rules = Rules(players=4)
    result = simulate(rules, 300, seed=2, policy="greedy")
    assert sum(s.share.estimate for s in stats.win_shares(result)) == pytest.approx(1.0)
    assert sum(s.win_rate for s in result.seats()) == pytest.approx(1.0)
    assert main(["simulate", "--games", "300", "--players", "4", "--policy", "greedy", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    rates = [float(m) for m in re.findall(r"^\s+\d+\s+(\d+\.\d+)\s+\[", out, flags=re.M)]
    assert len(rates) == 4 and sum(rates) == pytest.approx(100.0, abs=2e-2)
    pd = pytest.importorskip("pandas")
    frame = Study(configs={"base": rules}, games=100, seed=1, lineups={"greedy": "greedy"}).run().to_pandas()
    assert frame.groupby("seat").win_share.mean().sum() == pytest.approx(1.0)
    assert isinstance(frame, pd.DataFrame)
    root = __import__("pathlib").Path(__file__).resolve().parent.parent
    table = subprocess.run(
        [sys.executable, str(root / "tools" / "seat_bias.py"), "table", "--games", "60"],
        capture_output=True, text=True, check=True,
    ).stdout
    rows = [line for line in table.splitlines() if line.startswith("| ") and "(" in line and "system" not in line]
    assert len(rows) == 6
    for row in rows:
        shares = [float(c.split()[0]) for c in row.split("|")[2:6]]
        assert sum(shares) == pytest.approx(1.0, abs=2.5e-3), row
    # The published tables: every row's shares (rounded to 3 places) sum to 1.
    page = (root / "docs" / "guide" / "players.md").read_text()
    published = [line for line in page.splitlines() if line.startswith("| ") and "p = " in line]
    assert len(published) == 12
    for row in published:
        cells = row.split("|")[1:-1]
        # The four-seat table: a cell per seat; the player-count table: one cell, listed.
        by_seat = cells[1:5] if len(cells) == 8 else cells[2].split(",")
        assert sum(float(c.split()[0]) for c in by_seat) == pytest.approx(1.0, abs=2.5e-3), row
