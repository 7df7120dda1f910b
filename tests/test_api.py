"""Conformance of the public API surface, in the spirit of OpenSpiel's RandomSimTest:
play whole games through the public calls only and check every observation on the way,
then the value types (Move, Rules), the views, ``simulate`` and the command line."""

from __future__ import annotations

import copy
import json
import math
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import carcassonne
from carcassonne import (
    ENGINE_VERSION,
    POLICIES,
    RULES_VERSION,
    SCORE_KINDS,
    TILE_SETS,
    WARES,
    Feature,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    PlacedTile,
    Rules,
    ScoreEvent,
    SeatSummary,
    SimulationResult,
    simulate,
    stats,
)
from carcassonne.cli import main

REPO = Path(__file__).resolve().parents[1]
ALL_SETS = ("base", "inns-and-cathedrals", "traders-and-builders")


# ----- the package surface --------------------------------------------------------------------


def test_public_names() -> None:
    for name in carcassonne.__all__:
        assert hasattr(carcassonne, name), name
    assert carcassonne.__version__ == ENGINE_VERSION
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", ENGINE_VERSION)
    assert isinstance(RULES_VERSION, int) and RULES_VERSION >= 1
    assert list(TILE_SETS) == [*ALL_SETS, "ferries", "south-seas"]
    assert list(SCORE_KINDS) == ["road", "city", "monastery", "field", "goods", "ships", "wares", "map"]
    assert list(WARES) == ["shell", "banana", "fish"]
    assert tuple(POLICIES) == ("random", "greedy")
    for cls in (Game, Move, Rules):
        assert cls.__doc__


# ----- RandomSimTest ----------------------------------------------------------------------------

SIM_CONFIGS = [
    dict(players=2),
    dict(players=3, tile_sets=ALL_SETS, inns_and_cathedrals_scoring=True, traders_goods=True),
    dict(players=6, meeples=2, farmers=False),
    dict(players=4, tile_sets=("base", "inns-and-cathedrals"), inns_and_cathedrals_scoring=True),
]


def check_observations(game: Game) -> None:
    rules = game.rules
    n = rules.players
    assert isinstance(game.turn, int) and game.turn == len(game.moves)
    scores = game.scores
    assert isinstance(scores, list) and len(scores) == n and all(isinstance(s, int) and s >= 0 for s in scores)
    supply = game.supply
    assert len(supply) == n and all(0 <= s <= rules.meeples for s in supply)
    assert all(isinstance(m, Move) for m in game.moves)
    board = game.board
    assert all(isinstance(p, PlacedTile) for p in board)
    assert len(board) == game.turn + 1
    assert len({(p.x, p.y) for p in board}) == len(board)
    for p in board:
        assert p.tile in rules.tile_ids() and p.rotation in range(4)
        if p.meeple is not None:
            player, index = p.meeple
            assert player in range(n) and index in range(len(rules.tile_features(p.tile)))
    for f in game.features():
        assert isinstance(f, Feature)
        assert f.kind in ("road", "city", "monastery", "field")
        assert len(f.meeples) == n
        assert f.tiles and f.segments
    for e in game.events:
        assert isinstance(e, ScoreEvent)
        assert e.kind in SCORE_KINDS and e.points >= 0 and 0 <= e.turn <= game.turn
    pbk = game.points_by_kind
    assert list(pbk) == list(SCORE_KINDS) and all(len(v) == n for v in pbk.values())
    assert len(game.goods) == n and all(len(g) == 3 for g in game.goods)
    assert all(isinstance(t, int) and isinstance(tile, str) for t, tile in game.discarded)
    assert all(isinstance(t, str) for t in game.remaining_tiles)
    assert isinstance(repr(game), str)


@pytest.mark.parametrize("config", SIM_CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
@given(seed=st.integers(0, 2**64 - 1), choices=st.randoms(use_true_random=False))
def test_random_sim(config: dict[str, Any], seed: int, choices: random.Random) -> None:
    rules = Rules(**config)
    game = Game(rules, seed=seed)
    assert game.rules == rules
    check_observations(game)
    while not game.is_over:
        assert isinstance(game.tile, str)
        assert game.current_player in range(rules.players)
        legal = game.legal_moves()
        assert legal, "no legal move in a running game"
        assert legal == sorted(legal), "legal_moves must be sorted"
        assert len(set(legal)) == len(legal), "legal_moves must be unique"
        assert all(game.is_legal(m) for m in legal)
        assert legal == sorted(legal, key=lambda m: (m.x, m.y, m.rotation, -1 if m.meeple is None else m.meeple))
        # Every placement can be played without a meeple.
        for m in legal:
            assert Move(m.x, m.y, m.rotation) in legal
        mv = choices.choice(legal)
        game.play(mv)
        check_observations(game)
    assert game.tile is None and game.legal_moves() == []
    assert game.turn + len(game.discarded) == rules.deck_size
    assert game.winners and all(game.scores[w] == max(game.scores) for w in game.winners)
    with pytest.raises(GameOverError):
        game.play(Move(0, 1, 0))
    assert "over" in repr(game)


# ----- Move -------------------------------------------------------------------------------------


def test_move_value_semantics() -> None:
    a = Move(1, -2, 3)
    assert a == Move(1, -2, 3, None) == Move(x=1, y=-2, rotation=3, meeple=None)
    assert a != Move(1, -2, 3, 0)
    assert a != Move(1, -2, 2)
    assert (a.x, a.y, a.rotation, a.meeple) == (1, -2, 3, None)
    assert Move(0, 0) == Move(0, 0, 0, None)
    assert hash(a) == hash(Move(1, -2, 3))
    assert len({a, Move(1, -2, 3), Move(1, -2, 3, 1)}) == 2
    assert {a: "x"}[Move(1, -2, 3)] == "x"
    assert repr(a) == "Move(x=1, y=-2, rotation=3)"
    assert repr(Move(0, 5, 1, 2)) == "Move(x=0, y=5, rotation=1, meeple=2)"
    for m in (a, Move(0, 5, 1, 2), Move(-7, 0, 0, 0)):
        assert eval(repr(m), {"Move": Move}) == m
        assert pickle.loads(pickle.dumps(m)) == m
        assert copy.deepcopy(m) == m
    assert a != (1, -2, 3, None)
    with pytest.raises(TypeError):
        _ = a < 1  # type: ignore[operator]
    with pytest.raises(AttributeError):
        a.x = 5  # type: ignore[misc]


move_args = st.tuples(
    st.integers(-(2**31), 2**31 - 1),
    st.integers(-(2**31), 2**31 - 1),
    st.integers(0, 3),
    st.none() | st.integers(0, 254),
)


def move_key(t: tuple[int, int, int, int | None]) -> tuple[int, int, int, int]:
    return (t[0], t[1], t[2], -1 if t[3] is None else t[3])


@given(a=move_args, b=move_args)
def test_move_ordering_and_hash_follow_the_fields(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    ma, mb = Move(*a), Move(*b)
    assert (ma == mb) == (a == b)
    assert (ma < mb) == (move_key(a) < move_key(b))
    assert (ma <= mb) == (move_key(a) <= move_key(b))
    assert (ma > mb) == (move_key(a) > move_key(b))
    if a == b:
        assert hash(ma) == hash(mb)
    assert (ma.x, ma.y, ma.rotation, ma.meeple) == a
    assert eval(repr(ma), {"Move": Move}) == ma


# ----- make_move with feature names ---------------------------------------------------------------


def test_make_move_with_feature_names() -> None:
    g = Game(Rules(), deck=["base/D", "base/B"])
    # base/D unturned: road W-E (0), city N (1), field EL WR (2), field ER SL SR WL (3).
    assert g.make_move(1, 0, 0) == Move(1, 0, 0)
    assert g.make_move(1, 0, 0, None) == Move(1, 0, 0)
    assert g.make_move(1, 0, 0, 3) == Move(1, 0, 0, 3)
    expected = {"N": 1, "NL": 1, "NR": 1, "E": 0, "W": 0, "EL": 2, "WR": 2, "ER": 3, "SL": 3, "SR": 3, "WL": 3}
    for name, index in expected.items():
        assert g.make_move(1, 0, 0, name) == Move(1, 0, 0, index), name
    # "S" names the middle of the south side, where this tile has only field halves.
    with pytest.raises(IllegalMoveError, match='has no feature at "S"'):
        g.make_move(1, 0, 0, "S")
    # Names are board-oriented: turned twice, the city is south.
    assert g.make_move(0, -1, 2, "S") == Move(0, -1, 2, 1)
    assert g.describe_meeple(g.make_move(0, -1, 2, "S")) == "city S"
    assert g.describe_meeple(Move(0, -1, 2)) is None
    mv = g.make_move(1, 0, 0, "NL")
    assert g.describe_meeple(mv) == "city N"
    g.play(mv)
    assert g.board[-1].meeple == (0, 1)
    # A monastery is named "monastery".
    assert g.tile == "base/B"
    mv = g.make_move(0, 1, 0, "monastery")
    assert mv.meeple == Rules().tile_features("base/B").index("monastery")
    g.play(mv)
    assert g.board[-1].meeple == (1, mv.meeple)


def test_make_move_inner_field() -> None:
    rules = Rules(tile_sets=("base", "inns-and-cathedrals"))
    features = rules.tile_features("inns-and-cathedrals/H-garden")
    g = Game(rules, deck=["inns-and-cathedrals/H-garden"])
    mv = g.make_move(0, -1, 0, "I")
    assert mv.meeple is not None and features[mv.meeple] == "field I"
    assert mv in g.legal_moves()


def test_make_move_names_agree_with_tile_features() -> None:
    rules = Rules(tile_sets=ALL_SETS)
    slots = ["NL", "N", "NR", "EL", "E", "ER", "SL", "S", "SR", "WL", "W", "WR"]
    checked = 0
    for tile in rules.tile_ids():
        g = Game(rules, deck=[tile])
        if g.tile != tile:
            continue  # this tile cannot be placed next to the start tile
        for r in range(4):
            described = rules.tile_features(tile, r)
            for slot in slots:
                owners = [i for i, d in enumerate(described) if _covers(d, slot)]
                if owners:
                    assert len(owners) == 1, (tile, r, slot)
                    assert g.make_move(5, 5, r, slot).meeple == owners[0], (tile, r, slot)
                    assert g.describe_meeple(g.make_move(5, 5, r, slot)) == described[owners[0]]
                else:
                    with pytest.raises(IllegalMoveError, match="has no feature at"):
                        g.make_move(5, 5, r, slot)
                checked += 1
    assert checked > 12 * 4 * 40


def _covers(description: str, slot: str) -> bool:
    kind, *places = description.split()
    if kind == "city":
        return slot[0] in places
    if kind == "road":
        return slot in places
    if kind == "field":
        return slot in places
    return False


# ----- Rules --------------------------------------------------------------------------------------


def test_rules_defaults_and_repr() -> None:
    r = Rules()
    assert (r.players, r.meeples, r.tile_sets, r.start_tile) == (2, 7, ["base"], "base/D")
    assert (r.farmers, r.inns_and_cathedrals_scoring, r.traders_goods) == (True, False, False)
    assert repr(r) == (
        "Rules(players=2, meeples=7, tile_sets=['base'], start_tile='base/D', farmers=True, "
        "inns_and_cathedrals_scoring=False, traders_goods=False, ferries_edition='C3')"
    )
    assert r.deck_size == 71 and len(r.full_deck()) == 71
    assert Rules(tile_sets=ALL_SETS).deck_size == 71 + 18 + 24
    assert r.tile_edges("base/D") == "CRFR"
    assert r.tile_edges("base/D", 1) == "RCRF"
    assert r.tile_features("base/D") == ["road E W", "city N", "field EL WR", "field ER SL SR WL"]


def test_rules_equality_and_hash() -> None:
    a = Rules()
    assert a == Rules(tile_sets=("base",)) == Rules(tile_sets=["base"]) == Rules(players=2, meeples=7)
    assert hash(a) == hash(Rules(tile_sets=["base"]))
    assert a != Rules(players=3)
    assert a != Rules(farmers=False)
    assert a != Rules(tile_sets=("base", "inns-and-cathedrals"))
    assert a != "Rules()"
    assert len({a, Rules(), Rules(players=3)}) == 2


rule_configs = st.builds(
    lambda players, meeples, extra, farmers, ic, goods: dict(
        players=players,
        meeples=meeples,
        tile_sets=("base", *extra),
        farmers=farmers,
        inns_and_cathedrals_scoring=ic,
        traders_goods=goods,
    ),
    st.integers(2, 6),
    st.integers(0, 99),
    st.lists(st.sampled_from(ALL_SETS[1:]), unique=True),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


@given(config=rule_configs)
def test_rules_round_trips(config: dict[str, Any]) -> None:
    r = Rules(**config)
    assert r.players == config["players"] and r.meeples == config["meeples"]
    assert r.tile_sets == list(config["tile_sets"])
    assert r.farmers == config["farmers"]
    assert r.inns_and_cathedrals_scoring == config["inns_and_cathedrals_scoring"]
    assert r.traders_goods == config["traders_goods"]
    text = r.to_json()
    spec = json.loads(text)
    assert spec["players"] == config["players"] and spec["meeples"] == config["meeples"]
    back = Rules.from_json(text)
    assert back == r and hash(back) == hash(r) and back.to_json() == text
    assert eval(repr(r), {"Rules": Rules}) == r
    assert pickle.loads(pickle.dumps(r)) == r
    assert len(r.full_deck()) == r.deck_size
    assert sorted(set(r.full_deck())) == sorted(r.tile_ids())


# ----- views --------------------------------------------------------------------------------------


def test_views_of_a_small_game() -> None:
    g = Game(Rules(), deck=["base/D", "base/D"])
    assert g.turn == 0 and g.current_player == 0 and g.tile == "base/D"
    assert g.remaining_tiles == ["base/D"]
    assert g.scores == [0, 0] and g.winners == [0, 1]
    g.play(Move(1, 0, 0, 1))  # player 0: meeple on the city north of (1, 0)
    assert g.board[-1] is not g.board[-1]  # fresh views
    placed = g.board[-1]
    assert (placed.x, placed.y, placed.tile, placed.rotation, placed.meeple) == (1, 0, "base/D", 0, (0, 1))
    city = g.feature_at(1, 0, 1)
    assert city.kind == "city" and city.tiles == [(1, 0)] and not city.complete
    assert city.open_sides == 1 and city.pennants == 0 and city.goods == (0, 0, 0)
    assert list(city.meeples) == [1, 0]
    road = g.feature_at(0, 0, 0)
    assert road.kind == "road" and sorted(road.tiles) == [(0, 0), (1, 0)] and road.open_sides == 2
    assert sorted(road.segments) == [(0, 0, 0), (1, 0, 0)]
    # Close the city of (1, 0) with a base/D turned twice at (1, -1): 4 points for player 0.
    assert g.current_player == 1
    g.play(Move(1, -1, 2))
    assert g.is_over
    assert g.scores == [4, 0] and g.winners == [0]
    (event,) = g.events
    assert (event.kind, event.points, list(event.players), event.complete, event.final_scoring) == (
        "city",
        4,
        [0],
        True,
        False,
    )
    assert sorted(event.tiles) == [(1, -1), (1, 0)] and event.turn == 2
    assert g.points_by_kind["city"] == [4, 0]
    assert g.board[1].meeple is None and list(g.supply) == [7, 7]
    with pytest.raises(AttributeError):
        placed.x = 3  # type: ignore[misc]


def test_list_valued_attributes_are_lists() -> None:
    """``supply``, ``Feature.meeples`` and ``ScoreEvent.players`` are per-player lists
    like ``scores`` (and as their reprs show), not ``bytes``."""
    g = Game(Rules(), deck=["base/D", "base/D"])
    assert g.supply == [7, 7]
    assert isinstance(g.supply, list)
    g.play(Move(1, 0, 0, 1))
    assert g.supply == [6, 7]
    assert g.feature_at(1, 0, 1).meeples == [1, 0]
    g.play(Move(1, -1, 2))
    (event,) = g.events
    assert event.players == [0]
    assert "players=[0]" in repr(event)


def test_game_repr_is_python_not_rust() -> None:
    g = Game(Rules(), deck=["base/D", "base/D"])
    text = repr(g)
    assert text.startswith("<Game ") and text.endswith(">")
    assert "turn=0" in text and "player=0" in text and "scores=[0, 0]" in text
    # The current tile is shown as a Python value, not Rust's Option debug form.
    assert "Some(" not in text, text
    assert "tile='base/D'" in text or 'tile="base/D"' in text, text


def test_placed_tile_repr_is_python_not_rust() -> None:
    g = Game(Rules(), deck=["base/D", "base/D"])
    assert repr(g.board[0]) == "PlacedTile(x=0, y=0, tile='base/D', rotation=0, meeple=None)"
    g.play(Move(1, 0, 0, 1))
    text = repr(g.board[-1])
    assert "Some(" not in text, text
    assert text.endswith("meeple=(0, 1))"), text


# ----- simulate -----------------------------------------------------------------------------------


def test_simulate_result_columns() -> None:
    rules = Rules(players=3)
    res = simulate(rules, games=300, seed=11, threads=2)
    assert isinstance(res, SimulationResult)
    assert res.games == 300 and res.rules == rules and res.seed == 11 and res.first_game == 0
    assert res.policy == "random" and res.threads == 2
    assert res.scores.dtype == np.int32 and res.scores.shape == (300, 3)
    assert res.winners.dtype == np.bool_ and res.winners.shape == (300, 3)
    assert res.turns.dtype == np.uint32 and res.turns.shape == (300,)
    assert res.points_by_kind.dtype == np.int32 and res.points_by_kind.shape == (300, 3, len(SCORE_KINDS))
    assert res.discarded.dtype == np.uint32
    # South Seas columns exist for every rule system and stay zero in classic games.
    for column in (res.ships, res.wares_left):
        assert column.dtype == np.uint32 and column.shape == (300, 3) and not column.any()
    assert res.elapsed_seconds >= 0 and res.games_per_second > 0
    assert res.rules_version == RULES_VERSION and res.engine_version == ENGINE_VERSION
    assert tuple(res.score_kinds) == tuple(SCORE_KINDS)
    meta = res.metadata()
    assert Rules.from_json(meta["rules"]) == rules
    assert (meta["seed"], meta["first_game"], meta["games"], meta["policy"]) == (11, 0, 300, "random")
    seats = res.seats()
    assert all(isinstance(s, SeatSummary) for s in seats) and [s.seat for s in seats] == [0, 1, 2]
    assert math.isclose(sum(s.win_rate for s in seats), 1.0)
    for s in seats:
        assert math.isclose(s.mean_score, float(res.scores[:, s.seat].mean()))
        assert math.isclose(s.score_sd, float(res.scores[:, s.seat].std(ddof=1)))
    # Default rules; greedy players score more than random ones.
    greedy = simulate(games=300, seed=11, policy="greedy", threads=2)
    assert greedy.rules == Rules()
    random_ = simulate(games=300, seed=11, threads=2)
    assert greedy.scores.mean() > random_.scores.mean()


# ----- the command line --------------------------------------------------------------------------


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2000"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert "2000 games, 2 players" in lines[0] and "players random" in lines[0] and "seed 0" in lines[0]
    # The interval methods and the tie rule are named once, before any figure.
    assert "95%: Wilson's for shares of games, the normal approximation for mean points" in lines[1]
    assert "1/k of a win for each" in lines[2]
    assert out.count("Wilson") == 1 and out.count("1/k") == 1
    assert re.search(r"seat\s+wins %\s+95% interval\s+mean score\s+sd", out)
    rows = [re.match(r"\s*(\d+)\s+([\d.]+)\s+\[([\d.]+), ([\d.]+)\]\s+([\d.]+)\s+([\d.]+)$", ln) for ln in lines]
    seats = [m for m in rows if m]
    assert [int(m.group(1)) for m in seats] == [0, 1]
    rates = [float(m.group(2)) for m in seats]
    assert math.isclose(sum(rates), 100.0, abs_tol=2e-2)
    for m in seats:
        assert float(m.group(3)) <= float(m.group(2)) <= float(m.group(4))
    # The table shows what simulate computes: win shares in percent with their Wilson
    # intervals (the same as stats.win_shares), mean scores and their sd.
    result = simulate(Rules(), games=2000, seed=0, threads=1)
    for m, s, w in zip(seats, result.seats(), stats.win_shares(result)):
        assert float(m.group(2)) == pytest.approx(100 * s.win_rate, abs=5e-3)
        assert float(m.group(3)) == pytest.approx(100 * w.share.low, abs=5e-3)
        assert float(m.group(4)) == pytest.approx(100 * w.share.high, abs=5e-3)
        assert float(m.group(5)) == pytest.approx(s.mean_score, abs=5e-3)
        assert float(m.group(6)) == pytest.approx(s.score_sd, abs=5e-3)
    # The first seat's advantage, in words and in the library's own figures.
    adv = stats.first_seat_advantage(result)
    a = adv.advantage
    side, amount, low, high = ("above", a.estimate, a.low, a.high) if a.estimate >= 0 else ("below", -a.estimate, -a.high, -a.low)
    first = (
        f"first seat: seat 0 wins {100 * adv.share.estimate:.2f}% of games, {100 * amount:.2f} percentage points "
        f"[{100 * low:.2f}, {100 * high:.2f}] {side} an equal share of 50%:"
    )
    assert first in lines
    verdict = "an advantage beyond chance" if a.low > 0 else "a disadvantage beyond chance" if a.high < 0 else "within chance"
    assert lines[lines.index(first) + 1] == f"  {verdict} (score test, p = {adv.p_value:.3g})"
    # The all-seats test says which seat is ahead, its statistic in a parenthesis.
    equal = stats.seats_equal(result)
    shares = [s.win_rate for s in result.seats()]
    ahead = f"seat {shares.index(max(shares))} wins more often than seat {shares.index(min(shares))}"
    test = f"chi-square {equal.statistic:.2f}, df {equal.df}, p = {equal.p_value:.3g}"
    verdict = f"no ({test}): {ahead}" if equal.p_value < 0.05 else f"no clear difference ({test}): {ahead}, within chance"
    assert f"all seats equal? {verdict}" in lines
    # With two players the score spread is the margin: printed once.
    spread = stats.spread(result)
    m, t = spread.margin, spread.tie_rate
    assert spread.score_range == m
    assert (
        f"margin of victory {m.estimate:.2f} points [{m.low:.2f}, {m.high:.2f}] "
        "(with two players also the score spread, top minus bottom score)"
    ) in lines
    assert f"ties: {100 * t.estimate:.2f}% of games [{100 * t.low:.2f}, {100 * t.high:.2f}] have more than one winner" in lines
    assert out.count(f"[{m.low:.2f}, {m.high:.2f}]") == 1
    assert re.search(r"mean turns [\d.]+, discarded tiles per game [\d.]+", out)
    assert "games/s" in out


def _strict_json(text: str) -> Any:
    def reject(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=reject)


def test_cli_json_default_study(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2000", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = _strict_json(out)
    assert data["games"] == 2000 and Rules.from_json(data["rules"]) == Rules()
    seats = data["seats"]
    assert [s["seat"] for s in seats] == [0, 1]
    assert math.isclose(sum(s["win_rate"] for s in seats), 1.0)
    for s in seats:
        assert 0 <= s["win_rate_low"] <= s["win_rate"] <= s["win_rate_high"] <= 1
        assert s["mean_score"] > 0 and s["score_sd"] > 0


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        "--games",
        "500",
        "--players",
        "3",
        "--tile-sets",
        "base",
        "inns-and-cathedrals",
        "--inns-and-cathedrals",
        "--no-farmers",
        "--policy",
        "greedy",
        "--seed",
        "9",
        "--threads",
        "1",
        "--json",
    ]
    assert main(argv) == 0
    out, _err = capsys.readouterr()
    data = _strict_json(out)
    assert data["games"] == 500 and data["seed"] == 9 and data["policy"] == "greedy"
    assert data["first_game"] == 0 and data["threads"] == 1
    assert data["engine_version"] == ENGINE_VERSION and data["rules_version"] == RULES_VERSION
    rules = Rules.from_json(data["rules"])
    assert rules == Rules(
        players=3,
        tile_sets=("base", "inns-and-cathedrals"),
        inns_and_cathedrals_scoring=True,
        farmers=False,
    )
    assert [s["seat"] for s in data["seats"]] == [0, 1, 2]
    assert set(data["seats"][0]) == {"seat", "win_rate", "win_rate_low", "win_rate_high", "mean_score", "score_sd"}
    assert math.isclose(sum(s["win_rate"] for s in data["seats"]), 1.0)
    expected = simulate(rules, games=500, seed=9, policy="greedy", threads=2).seats()
    for got, want in zip(data["seats"], expected):
        assert got == want.__dict__


def test_cli_json_first_game_split(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "100", "--first-game", "50", "--seed", "3", "--json"]) == 0
    data = _strict_json(capsys.readouterr().out)
    assert data["first_game"] == 50
    want = simulate(Rules(), games=100, seed=3, first_game=50).seats()
    assert [s["mean_score"] for s in data["seats"]] == [s.mean_score for s in want]


def test_cli_json_is_strict_json_for_a_single_game(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json`` must print standard JSON (no NaN) even when a statistic is undefined."""
    assert main(["simulate", "--games", "1", "--json"]) == 0
    data = _strict_json(capsys.readouterr().out)
    assert data["games"] == 1


def test_cli_zero_games(capsys: pytest.CaptureFixture[str]) -> None:
    """An empty study is valid input (``simulate(games=0)`` works): the CLI reports it
    without warnings or errors."""
    assert main(["simulate", "--games", "0"]) == 0
    out, err = capsys.readouterr()
    assert "0 games" in out and err == ""


def test_cli_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["version"]) == 0
    out = capsys.readouterr().out
    assert ENGINE_VERSION in out and f"rules version {RULES_VERSION}" in out


def test_python_dash_m_simulate() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "carcassonne", "simulate", "--games", "1000"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "1000 games, 2 players" in proc.stdout
    assert re.search(r"^\s+0\s+\d{2}\.\d{2}\s+\[\d{2}\.\d{2}, \d{2}\.\d{2}\]", proc.stdout, re.M)
    assert re.search(r"^\s+1\s+\d{2}\.\d{2}\s+\[\d{2}\.\d{2}, \d{2}\.\d{2}\]", proc.stdout, re.M)
