"""Paired matches and the sequential test played on them (``carcassonne.rating.matches``):
both games of a pair share the deal; a's outcomes, margins and estimates against the
games played; swapping the players mirrors a two-player match; threads and batches change
nothing; three seats read as a head-to-head score under the Luce model; bad arguments are
refused before any game; Ctrl-C hands back the pairs finished in every seating; the SPRT's
batches, log and decision."""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import threading
import time
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest

from carcassonne import Game, Rules, replay, simulate
from carcassonne.players import MCTS, Greedy, PlayerLike, Random
from carcassonne.rating import MAX_PAIRS, SPRT, RatingError, counts, estimate, fit, match, score_to_elo, sprt

Z = NormalDist().inv_cdf(0.975)


def spin(game: Game) -> Any:
    """A deterministic Python player about as strong as the random one: the legal action
    picked by the turn number (deterministic, so any thread order plays the same games)."""
    actions = game.legal_actions()
    return actions[(7 * game.turn + 3) % len(actions)]


def _deal(g: Game) -> dict[str, Any]:
    record = json.loads(g.to_json())
    return {k: record.get(k) for k in ("seed", "deck", "ships")}


@pytest.mark.parametrize("rules", [Rules(), Rules(tile_sets=("south-seas",))], ids=["base", "south-seas"])
def test_both_games_of_a_pair_share_the_deal(rules: Rules) -> None:
    result = match(rules, "greedy", "random", pairs=6, seed=9)
    for i in (0, 5):
        first = replay(rules, seed=9, game_index=i, players=["greedy", "random"])
        second = replay(rules, seed=9, game_index=i, players=["random", "greedy"])
        # The same seed, tile order (and South Seas ships), and different games on them.
        assert _deal(first) == _deal(second) and _deal(first)["deck"]
        assert first.moves != second.moves
        # The pair's outcome and margin are those two games, greedy's side of each.
        shares = [1 / len(g.winners) if seat in g.winners else 0.0 for g, seat in ((first, 0), (second, 1))]
        assert result.outcomes[i] == sum(shares)
        assert result.margins[i] == (first.scores[0] - first.scores[1]) + (second.scores[1] - second.scores[0])


def test_random_against_itself_plays_one_game_twice() -> None:
    # Both seatings of a deal seat the same players on the same random stream: the same
    # game, so every pair is one win (or two halves) and no margin.
    result = match(Rules(), "random", Random(), pairs=300, seed=4)
    assert result.players == ("random", "random")
    assert np.array_equal(result.outcomes, np.ones(300)) and np.array_equal(result.margins, np.zeros(300))
    assert result.estimate.score == 0.5 and result.estimate.elo == 0.0 and result.margin == 0.0


def test_outcomes_margins_and_estimates_are_those_of_the_games() -> None:
    rules = Rules()
    result = match(rules, spin, "random", pairs=150, seed=3)
    one = simulate(rules, 150, seed=3, players=[spin, "random"])
    two = simulate(rules, 150, seed=3, players=["random", spin])
    outcomes = one.win_shares()[:, 0] + two.win_shares()[:, 1]
    margins = (one.scores[:, 0] - one.scores[:, 1]) + (two.scores[:, 1] - two.scores[:, 0])
    assert np.array_equal(result.outcomes, outcomes) and np.array_equal(result.margins, margins)
    assert result.players == ("python:spin", "random") and result.seats == 2 and not result.partial
    assert result.estimate == estimate(counts(outcomes))
    assert result.win_share == pytest.approx(result.estimate.score, rel=1e-12)
    assert 0 < result.estimate.pairs == result.pairs == 150
    per_game = margins / 2
    half = Z * per_game.std(ddof=1) / math.sqrt(150)
    assert result.margin == pytest.approx(per_game.mean(), rel=1e-12)
    assert (result.margin_low, result.margin_high) == pytest.approx((per_game.mean() - half, per_game.mean() + half), rel=1e-12)
    assert result.seed == 3 and result.first_game == 0 and result.seconds > 0


def test_swapping_the_players_mirrors_the_result() -> None:
    ab = match(Rules(), spin, "random", pairs=200, seed=2)
    ba = match(Rules(), "random", spin, pairs=200, seed=2)
    assert 0.3 < ab.estimate.score < 0.7  # a close match, so the mirror is not trivial
    assert ba.players == ab.players[::-1]
    assert np.array_equal(ba.outcomes, 2 - ab.outcomes) and np.array_equal(ba.margins, -ab.margins)
    e, f = ab.estimate, ba.estimate
    assert f.counts == e.counts[::-1]
    # Equal but for the rounding of 1 - s.
    assert (f.score, f.score_low, f.score_high) == pytest.approx((1 - e.score, 1 - e.score_high, 1 - e.score_low), rel=1e-12)
    assert (f.elo, f.elo_low, f.elo_high) == pytest.approx((-e.elo, -e.elo_high, -e.elo_low), rel=1e-12)
    assert (ba.margin, ba.margin_low, ba.margin_high) == pytest.approx((-ab.margin, -ab.margin_high, -ab.margin_low), rel=1e-12)


def test_threads_and_batches_change_nothing() -> None:
    for a in (spin, Greedy()):
        one = match(Rules(), a, "random", pairs=120, seed=6, threads=1)
        two = match(Rules(), a, "random", pairs=120, seed=6, threads=2)
        assert np.array_equal(one.outcomes, two.outcomes) and np.array_equal(one.margins, two.margins)
        assert one.estimate == two.estimate
    # Deals are game indices: a longer match extends a shorter one, first_game continues it.
    whole = match(Rules(), spin, "random", pairs=120, seed=6)
    head = match(Rules(), spin, "random", pairs=50, seed=6)
    tail = match(Rules(), spin, "random", pairs=70, seed=6, first_game=50)
    assert np.array_equal(np.concatenate([head.outcomes, tail.outcomes]), whole.outcomes)
    assert np.array_equal(np.concatenate([head.margins, tail.margins]), whole.margins)
    assert tail.first_game == 50 and "first_game=50" in repr(tail)


def test_three_seats_give_a_head_to_head_score_under_the_luce_model() -> None:
    rules = Rules(players=3)
    result = match(rules, spin, "random", pairs=150, seed=8)
    seatings: list[list[PlayerLike]] = [[spin, "random", "random"], ["random", spin, "random"], ["random", "random", spin]]
    games = [simulate(rules, 150, seed=8, players=lineup) for lineup in seatings]
    outcomes = np.sum([g.win_shares()[:, r] for r, g in enumerate(games)], axis=0)
    margins = np.sum([g.scores[:, r] - (g.scores.sum(axis=1) - g.scores[:, r]) / 2 for r, g in enumerate(games)], axis=0)
    assert np.array_equal(result.outcomes, outcomes)
    assert np.allclose(result.margins, margins, rtol=0, atol=1e-9)
    # a's share per game against the fair third, with its normal interval from the deals.
    share = outcomes.mean() / 3
    half = Z * (outcomes / 3).std(ddof=1) / math.sqrt(150)
    assert result.win_share == pytest.approx(share, rel=1e-12)

    def q(s: float) -> float:  # P(a beats one b) when a wins a 3-seat game with share s
        return 2 * s / (2 * s + 1 - s)

    e = result.estimate
    assert (e.score, e.score_low, e.score_high) == pytest.approx((q(share), q(share - half), q(share + half)), rel=1e-12)
    # Elo = 400 log10(g_a / g_b), and g_a / g_b = 2 s / (1 - s).
    assert e.elo == pytest.approx(400 * math.log10(2 * share / (1 - share)), rel=1e-12)
    assert (e.elo_low, e.elo_high) == pytest.approx((score_to_elo(q(share - half)), score_to_elo(q(share + half))), rel=1e-12)
    assert e.pairs == 150 and sum(e.counts) == 150 and result.seats == 3
    # Equal players over one deal: a's share is the fair third, its Elo 0.
    even = match(rules, "random", "random", pairs=20, seed=8)
    assert np.array_equal(even.outcomes, np.ones(20)) and even.estimate.elo == 0.0
    assert even.estimate.counts == (0, 0, 20, 0, 0)  # each deal a fair pair's score, 1


def test_a_single_pair_has_no_interval() -> None:
    one = match(Rules(), spin, "random", pairs=1, seed=2)
    assert one.pairs == 1 and one.estimate.score == one.outcomes[0] / 2
    assert math.isnan(one.estimate.score_low) and math.isnan(one.margin_high)
    assert "pairs=1" in repr(one)


def test_bad_arguments_are_refused_before_any_game() -> None:
    calls = []

    def counting(game: Game) -> Any:
        calls.append(1)
        return game.legal_actions()[0]

    bad: list[tuple[dict[str, Any], str]] = [
        ({"b": "chess engine"}, "player b: unknown player 'chess engine'"),
        ({"b": 42}, "player b: a player is a name"),
        ({"a": 42, "b": counting}, "player a: a player is a name"),
        ({"pairs": 0}, f"pairs must be between 1 and {MAX_PAIRS}, got 0"),
        ({"pairs": -5}, "pairs must be between 1 and"),
        ({"pairs": MAX_PAIRS + 1}, "pairs must be between 1 and"),
        ({"pairs": 2.5}, "pairs must be an integer, not float"),
        ({"pairs": True}, "pairs must be an integer, not bool"),
        ({"pairs": "10"}, "pairs must be an integer, not str"),
        ({"seed": -1}, "seed must be between 0 and 2"),
        ({"first_game": 2**64 - 3, "pairs": 10}, "go past the last game index"),
        ({"threads": 10**6}, "threads must be between 1 and"),
        ({"rules": "base"}, "rules must be a carcassonne.Rules"),
        ({"progress": "yes"}, "progress must be True, False, None or a function"),
    ]
    for change, message in bad:
        kwargs: dict[str, Any] = {"rules": Rules(), "a": counting, "b": "random", "pairs": 10, **change}
        with pytest.raises(RatingError, match=message.replace("(", r"\(").replace("*", r"\*")):
            match(**kwargs)
    assert calls == [], "a game was played"
    # A RatingError is a ValueError.
    with pytest.raises(ValueError):
        match(Rules(), "random", "random", pairs=0)
    # numpy integers are integers.
    assert match(Rules(), counting, "random", pairs=np.int64(2)).pairs == 2  # type: ignore[arg-type]


def test_progress_is_reported_after_each_batch() -> None:
    seen: list[tuple[int, int]] = []
    result = match(Rules(), "greedy", "random", pairs=500, seed=1, progress=lambda done, pairs: seen.append((done, pairs)))
    assert seen[-1] == (500, 500) and len(seen) > 1
    assert all(pairs == 500 for _, pairs in seen) and [d for d, _ in seen] == sorted({d for d, _ in seen})
    assert result.pairs == 500


def test_an_interrupt_keeps_the_pairs_finished_in_both_games() -> None:
    # A player raising KeyboardInterrupt part-way, as Ctrl-C would reach Python: the
    # batch in flight is dropped, the batches finished are kept.
    actions = [0]

    def interrupted(game: Game) -> Any:
        actions[0] += 1
        if actions[0] == 2000:
            raise KeyboardInterrupt
        return spin(game)

    result = match(Rules(), interrupted, "random", pairs=10_000, seed=5, threads=1)
    assert result.partial and 0 < result.pairs < 10_000 and "partial=True" in repr(result)
    whole = match(Rules(), spin, "random", pairs=result.pairs, seed=5)
    assert np.array_equal(result.outcomes, whole.outcomes) and np.array_equal(result.margins, whole.margins)
    assert result.estimate == whole.estimate

    # Interrupted in the first batch: no pair, NaN estimates.
    actions[0] = 1990
    nothing = match(Rules(), interrupted, "random", pairs=10_000, seed=5, threads=1)
    assert nothing.partial and nothing.pairs == 0 and math.isnan(nothing.estimate.score)
    assert "pairs=0" in repr(nothing)


@pytest.mark.serial  # timed: run alone, not beside another test worker (.ci/run)
@pytest.mark.skipif(sys.platform != "linux", reason="sends itself SIGINT")
def test_ctrl_c_returns_the_pairs_finished_at_once() -> None:
    sent: list[float] = []

    def interrupt() -> None:
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)
    timer.start()
    try:
        result = match(Rules(), "greedy", "random", pairs=MAX_PAIRS, seed=7, threads=2)
        returned = time.perf_counter()
    finally:
        timer.cancel()
    assert result.partial and 0 < result.pairs < MAX_PAIRS
    latency = returned - sent[0]
    assert 0 <= latency < 0.5, f"returned {latency:.3f} s after SIGINT"
    again = match(Rules(), "greedy", "random", pairs=result.pairs, seed=7)
    assert np.array_equal(result.outcomes, again.outcomes) and np.array_equal(result.margins, again.margins)


def test_sprt_plays_batches_until_it_decides() -> None:
    lines: list[str] = []
    test = sprt(Rules(), "greedy", "random", elo0=0, elo1=100, batch=20, log=lines.append)
    assert test.decision == "H1" and test.llr >= test.upper and not test.partial
    # Greedy wins every pair: the first batch decides.
    assert test.pairs == 20 and test.estimate.counts == (0, 0, 0, 0, 20)
    assert len(lines) == 3 and "expected pairs" in lines[0] and "20 pairs, LLR" in lines[1]
    assert lines[2].endswith("H1 after 20 pairs")
    bounds = SPRT(0, 100)
    assert (test.lower, test.upper) == (bounds.lower, bounds.upper)
    assert test.llr == bounds.llr(counts(test.match.outcomes))
    assert repr(test).startswith("SPRTResult(H1, greedy vs random, elo0=0.0, elo1=100.0")


def test_sprt_stops_at_max_pairs_and_is_deterministic() -> None:
    lines: list[str] = []
    kwargs: dict[str, Any] = {"elo0": -5, "elo1": 5, "batch": 40, "max_pairs": 100, "seed": 3}
    test = sprt(Rules(), spin, "random", log=lines.append, threads=1, **kwargs)
    assert test.decision is None and test.pairs == 100 and test.lower < test.llr < test.upper
    # Batches of 40, 40 and 20 pairs, a log line after each, over new deals each time: the
    # pairs of one match over the same seed.
    assert [line.split(": ")[1].split(" pairs")[0] for line in lines[1:4]] == ["40", "80", "100"]
    assert lines[-1].endswith("no decision after 100 pairs") and len(lines) == 5
    whole = match(Rules(), spin, "random", pairs=100, seed=3)
    assert np.array_equal(test.match.outcomes, whole.outcomes) and test.estimate == whole.estimate
    again = sprt(Rules(), spin, "random", log=None, threads=2, **kwargs)
    assert again.llr == test.llr and np.array_equal(again.match.outcomes, test.match.outcomes)


def test_sprt_refuses_bad_arguments_before_any_game() -> None:
    calls = []

    def counting(game: Game) -> Any:
        calls.append(1)
        return game.legal_actions()[0]

    bad: list[tuple[dict[str, Any], str]] = [
        ({"elo0": 10, "elo1": 0}, "elo0: 10(.0)? must be below elo1"),
        ({"alpha": 0.7}, "alpha"),
        ({"max_pairs": 0}, "max_pairs must be between 1 and"),
        ({"batch": 1.5}, "batch must be an integer"),
        ({"rules": Rules(players=3)}, "sprt tests two-player games"),
        ({"b": "nobody"}, "player b: unknown player"),
    ]
    for change, message in bad:
        kwargs: dict[str, Any] = {"rules": Rules(), "a": counting, "b": "random", "elo0": 0, "elo1": 10, **change}
        with pytest.raises(RatingError, match=message):
            sprt(log=None, **kwargs)
    assert calls == []


def test_sprt_interrupted_returns_what_was_finished() -> None:
    actions = [0]

    def interrupted(game: Game) -> Any:
        actions[0] += 1
        if actions[0] == 3000:
            raise KeyboardInterrupt
        return spin(game)

    lines: list[str] = []
    test = sprt(Rules(), interrupted, "random", elo0=-1, elo1=1, batch=10, threads=1, log=lines.append)
    assert test.partial and test.decision is None and 0 < test.pairs < 100
    assert lines[-1].endswith(f"no decision after {test.pairs} pairs (interrupted)")
    whole = match(Rules(), spin, "random", pairs=test.pairs, seed=0)
    assert np.array_equal(test.match.outcomes, whole.outcomes)


def test_built_in_settings_and_mcts_players_are_named() -> None:
    result = match(Rules(), MCTS(playouts=5), Greedy(), pairs=2)
    assert result.players == ("mcts(playouts=5,c=0.1,cutoff=8)", "greedy")


def test_a_match_is_a_link_of_the_ladder() -> None:
    result = match(Rules(), spin, "random", pairs=100, seed=2)
    a, b, score, games = result.link()
    assert (a, b, games) == ("python:spin", "random", 200) and score == result.outcomes.sum()
    # One link: the fitted gap is the match's own Elo.
    ladder = fit([result.link()], anchor="random")
    assert ladder.ratings["python:spin"].elo == pytest.approx(result.estimate.elo, rel=1e-9)
    with pytest.raises(RatingError, match="link: a ladder takes two-player matches, this one has 3 seats"):
        match(Rules(players=3), spin, "random", pairs=2).link()


def test_a_progress_bar_counts_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    assert match(Rules(), "greedy", "random", pairs=40, progress=True).pairs == 40
    err = capsys.readouterr().err
    assert "match: 100%" in err and "40/40" in err and "pair" in err
