"""What a person reads: the short reprs of result objects (every field, floats rounded,
the values themselves untouched), one interval method per figure (a seat's win share has
the same Wilson interval in ``seats()``, ``stats.win_shares`` and the command line), and
``carcassonne simulate``'s sentences (the first seat's advantage, which seat is ahead,
no figure printed twice) on hand-built studies with known answers."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest

from carcassonne import Rules, simulate, simulate_summary, stats
from carcassonne._reprs import interval, number
from carcassonne.cli import _first_seat_lines, _report, _seats_equal_lines, main
from test_stats import make_result, two_player, wilson_by_formula

LONG_FLOAT = re.compile(r"\d\.0*[1-9]\d{5,}|\d{7,}\.\d{2,}")
"""A float printed with more digits than a repr keeps (16-digit floats, Unix times to the
microsecond): six or more significant digits after the point (leading zeros, as in a
time of 0.005642 s, are not digits of precision)."""


# ----- numbers and intervals ---------------------------------------------------------------------


def test_numbers_keep_four_significant_digits() -> None:
    assert [number(x) for x in (0.49926, 18.3545, 7.0, 1e-5, -0.00001234, 3.35e-316)] == [
        "0.4993", "18.35", "7.0", "1e-05", "-1.234e-05", "3.35e-316",
    ]  # fmt: skip
    # Seconds and Unix times keep their whole part; no sign on a value that rounds to 0.
    assert number(1796645540.3456) == "1796645540.3" and number(-0.0) == "0.0"
    assert [number(x) for x in (float("nan"), float("inf"))] == ["nan", "inf"]


def test_an_interval_prints_to_the_precision_its_width_supports() -> None:
    # The half-width's second significant digit sets the decimals of all three numbers.
    assert interval(0.5, 0.4038, 0.5962) == "0.500 [0.404, 0.596]"
    assert interval(0.5114, 0.50455, 0.51825) == "0.5114 [0.5046, 0.5182]"
    assert interval(8.3605, 8.27, 8.45) == "8.361 [8.270, 8.450]"
    assert interval(12345.678, 12000.1, 12700.9) == "12346 [12000, 12701]"
    assert interval(-0.0004, -0.02, 0.019) == "0.000 [-0.020, 0.019]"
    # No width, or no finite width: each number as a lone float.
    assert interval(1.0, 1.0, 1.0) == "1.0 [1.0, 1.0]"
    assert interval(float("nan"), float("nan"), float("nan")) == "nan [nan, nan]"


def test_interval_repr_is_short_and_keeps_every_digit_in_its_fields() -> None:
    w = stats.wilson(50, 100)
    assert repr(w) == "Interval(0.500, [0.404, 0.596], 95% wilson)"
    assert str(w) == repr(w)
    low, high = wilson_by_formula(50, 100, stats.z_value())
    assert w.low == pytest.approx(low, rel=1e-13) and w.high == pytest.approx(high, rel=1e-13)
    assert dataclasses.asdict(w) == {"estimate": 0.5, "low": w.low, "high": w.high, "confidence": 0.95, "method": "wilson"}
    assert repr(stats.Interval(0.1, 0.05, 0.15, 0.999, "normal, Bonferroni over 3 seats")) == (
        "Interval(0.100, [0.050, 0.150], 99.9% normal, Bonferroni over 3 seats)"
    )


def test_a_result_repr_shows_every_field_rounded() -> None:
    adv = stats.first_seat_advantage(two_player(wins=61, ties=2, losses=37))
    assert repr(adv) == (
        "FirstSeatAdvantage(games=100, players=2, fair_share=0.5, share=Interval(0.620, [0.522, 0.709], 95% wilson), "
        "advantage=Interval(0.120, [0.022, 0.209], 95% wilson), p_value=0.0164, method='score')"
    )
    # The fields keep every digit, and equality is the dataclass's.
    assert adv.p_value == pytest.approx(0.016395, abs=1e-6) and adv.share.estimate == 0.62
    assert adv == stats.first_seat_advantage(two_player(wins=61, ties=2, losses=37))
    assert repr(stats.tiles_placed(make_result(np.eye(3, dtype=bool), turns=[71, 71, 69]))[0]) == (
        "SeatTiles(seat=0, mean=23.67, min=23, max=24)"
    )


@pytest.fixture(scope="module")
def study() -> tuple[object, ...]:
    rows = simulate(Rules(players=3), games=400, seed=4, threads=2)
    other = simulate(Rules(players=3, farmers=False), games=400, seed=4, threads=2)
    return (
        rows,
        rows.summary(),
        rows.seats()[0],
        stats.win_shares(rows)[0],
        stats.first_seat_advantage(rows),
        stats.scores(rows)[0],
        stats.spread(rows),
        stats.seats_equal(rows),
        stats.compare(rows, other),
        stats.compare_spread(rows, other),
    )


def test_every_result_object_prints_short(study: tuple[object, ...]) -> None:
    for obj in study:
        text = repr(obj)
        assert text.startswith(f"{type(obj).__name__}(") and text.endswith(")")
        assert not LONG_FLOAT.search(text), text
        for field in dataclasses.fields(obj):  # type: ignore[arg-type]
            assert f"{field.name}=" in text, (type(obj).__name__, field.name)
    rows, summary = study[0], study[1]
    text = repr(rows)
    # The per-game columns by type and shape, the number of games first.
    assert text.startswith("SimulationResult(games=400, rules=Rules(players=3")
    assert "scores=int32[400, 3], winners=bool[400, 3], turns=uint32[400], points_by_kind=int32[400, 3, 8]" in text
    assert repr(summary).startswith("StudySummary(games=400, rules=Rules(players=3")


# ----- one interval method per figure ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 6])
def test_seats_give_the_wilson_interval_of_stats(players: int) -> None:
    rows = simulate(Rules(players=players), games=300, seed=players, threads=2)
    for source in (rows, simulate_summary(Rules(players=players), games=300, seed=players, threads=2)):
        for seat, share in zip(source.seats(), stats.win_shares(source)):
            assert seat.win_rate == pytest.approx(share.share.estimate, rel=1e-12)
            assert seat.win_rate_low == pytest.approx(share.share.low, rel=1e-12)
            assert seat.win_rate_high == pytest.approx(share.share.high, rel=1e-12)
    assert rows.seats()[0].win_rate_low == pytest.approx(stats.first_seat_advantage(rows).share.low, rel=1e-12)


def test_seats_interval_at_the_edges() -> None:
    never = make_result([[False, True]] * 10)
    assert (never.seats()[0].win_rate_low, never.seats()[1].win_rate_high) == (0.0, 1.0)
    assert never.seats()[0].win_rate_high == pytest.approx(wilson_by_formula(0, 10, stats.z_value())[1], rel=1e-12)
    empty = simulate(Rules(), games=0)
    assert all(np.isnan([s.win_rate, s.win_rate_low, s.win_rate_high]).all() for s in empty.seats())


# ----- carcassonne simulate's sentences ----------------------------------------------------------


def test_first_seat_in_words() -> None:
    # 61 wins, 2 ties, 37 losses: a share of 0.62, 12 points above 50%.
    ahead = stats.first_seat_advantage(two_player(61, 2, 37)).advantage
    assert _first_seat_lines(two_player(61, 2, 37).summary()) == [
        f"first seat: seat 0 wins 62.00% of games, 12.00 percentage points [{100 * ahead.low:.2f}, "
        f"{100 * ahead.high:.2f}] above an equal share of 50%:",
        "  an advantage beyond chance (score test, p = 0.0164)",
    ]
    # Below an equal share: the shortfall and its interval, the advantage's negated.
    behind = stats.first_seat_advantage(two_player(45, 0, 55)).advantage
    assert _first_seat_lines(two_player(45, 0, 55).summary()) == [
        f"first seat: seat 0 wins 45.00% of games, 5.00 percentage points [{-100 * behind.high:.2f}, "
        f"{-100 * behind.low:.2f}] below an equal share of 50%:",
        "  within chance (score test, p = 0.317)",
    ]
    four = make_result([[False, True, False, False]] * 40 + [[True, False, False, False]] * 2 + [[False, False, True, False], [False, False, False, True]] * 29)
    assert _first_seat_lines(four.summary())[1].startswith("  a disadvantage beyond chance (score test, p = ")
    assert "below an equal share of 25%:" in _first_seat_lines(four.summary())[0]


def test_which_seat_is_ahead_in_words() -> None:
    # Three seats: 0 and 1 win 40 games each, seat 2 ten; seat 2 alone is below.
    rows = make_result([[True, False, False]] * 40 + [[False, True, False]] * 40 + [[False, False, True]] * 10)
    equal = stats.seats_equal(rows)
    assert [t.p_adjusted < 0.05 for t in equal.seats] == [False, False, True]
    lines = _seats_equal_lines(rows.summary())
    assert lines == [
        f"all seats equal? no (chi-square {equal.statistic:.2f}, df 2, p = {equal.p_value:.3g}): "
        "seats 0, 1 win most, seat 2 least",
        "  seat 2 below an equal share (each seat tested alone: Holm, 5%)",
    ]
    # A seat that never wins: certain, not "no clear difference".
    never = make_result([[True, False, False]] * 40 + [[False, True, False]] * 40)
    assert stats.seats_equal(never).p_value == 0.0
    assert _seats_equal_lines(never.summary()) == [
        "all seats equal? no (chi-square inf, df 1, p = 0): seats 0, 1 win most, seat 2 least",
        "  seats 0, 1 above an equal share, seat 2 below (each seat tested alone: Holm, 5%)",
    ]
    # Two seats: one sentence, no per-seat line (each seat's test is the test of both).
    even = two_player(50, 0, 50)
    assert _seats_equal_lines(even.summary()) == [
        "all seats equal? no clear difference (chi-square 0.00, df 1, p = 1): every seat wins as often, within chance"
    ]
    assert _seats_equal_lines(two_player(30, 0, 70).summary())[0].endswith(": seat 1 wins more often than seat 0")


def test_simulate_output_with_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--games", "3000", "--players", "4", "--seed", "2", "--threads", "2"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    summary = simulate_summary(Rules(players=4), games=3000, seed=2, threads=2)
    body = _report(summary).splitlines()
    lines = out.splitlines()
    # All but the speed line, which is timed, are the report of the same games.
    assert lines[:-1] == body[:-1]
    spread = stats.spread(summary)
    m, g = spread.margin, spread.score_range
    assert (
        f"margin of victory {m.estimate:.2f} points [{m.low:.2f}, {m.high:.2f}], "
        f"score spread (top minus bottom score) {g.estimate:.2f} [{g.low:.2f}, {g.high:.2f}]"
    ) in lines
    equal = stats.seats_equal(summary)
    shares = [t.win_share.estimate for t in equal.seats]
    head = next(line for line in lines if line.startswith("all seats equal? "))
    assert f"seat {shares.index(max(shares))} wins most, seat {shares.index(min(shares))} least" in head
    assert f"chi-square {equal.statistic:.2f}, df 3, p = {equal.p_value:.3g}" in head
    # The same figures as JSON, the first seat's advantage among them.
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["first_seat_advantage"] == json.loads(json.dumps(dataclasses.asdict(stats.first_seat_advantage(summary))))
