"""Throughput benchmarks (pytest-benchmark). ``pytest benches --benchmark-only`` measures;
a plain ``pytest`` run executes each once as a smoke test (with ``--benchmark-disable``).

Figures are reported as games (or plays) per second in ``extra_info``; the docs'
performance page (docs/guide/performance.md) quotes them with the machine described.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

import carcassonne
from carcassonne import Game, Move, Rules

GAMES = 20_000
CORES = os.cpu_count() or 1


@pytest.fixture(scope="module")
def base_rules() -> Rules:
    return Rules(players=2)


def _run(benchmark: Any, rules: Rules, threads: int, policy: str = "random", games: int = GAMES) -> None:
    result = benchmark(carcassonne.simulate, rules, games=games, seed=1, threads=threads, policy=policy)
    assert result.scores.shape == (games, rules.players)
    assert (result.turns + result.discarded == rules.deck_size).all()
    if benchmark.stats:
        per_second = games / benchmark.stats.stats.mean
        benchmark.extra_info["games_per_second"] = round(per_second)
        benchmark.extra_info["games_per_second_per_thread"] = round(per_second / threads)


def test_simulate_base_one_thread(benchmark: Any, base_rules: Rules) -> None:
    _run(benchmark, base_rules, threads=1)


def test_simulate_base_all_threads(benchmark: Any, base_rules: Rules) -> None:
    _run(benchmark, base_rules, threads=CORES, games=GAMES * CORES)


def test_simulate_base_and_ferries_one_thread(benchmark: Any) -> None:
    """The Ferries target: within 25% of the base game's games per second."""
    _run(benchmark, Rules(players=2, tile_sets=("base", "ferries")), threads=1)


@pytest.mark.parametrize("friday", [False, True], ids=["plain", "friday"])
def test_simulate_south_seas_one_thread(benchmark: Any, friday: bool) -> None:
    """South Seas (reconstructed tiles and ships; Friday's reconstructed bonuses), random
    2-player games. A game may end before the last tile when the last ship is taken."""
    rules = Rules(players=2, tile_sets=("south-seas",), friday=friday)
    result = benchmark(carcassonne.simulate, rules, games=GAMES, seed=1, threads=1)
    assert result.scores.shape == (GAMES, 2)
    assert (result.turns + result.discarded <= rules.deck_size).all()
    if benchmark.stats:
        benchmark.extra_info["games_per_second"] = round(GAMES / benchmark.stats.stats.mean)


def test_simulate_all_sets_four_players(benchmark: Any) -> None:
    rules = Rules(
        players=4,
        tile_sets=("base", "inns-and-cathedrals", "traders-and-builders"),
        inns_and_cathedrals_scoring=True,
        traders_goods=True,
    )
    _run(benchmark, rules, threads=1, games=GAMES // 2)


def test_simulate_greedy_one_thread(benchmark: Any, base_rules: Rules) -> None:
    _run(benchmark, base_rules, threads=1, policy="greedy", games=1_000)


def _recorded_game(rules: Rules) -> tuple[list[str], list[Move]]:
    game = Game(rules, seed=11)
    assert game.tile is not None
    deck = [game.tile, *game.remaining_tiles]
    while not game.is_over:
        moves = game.legal_moves()
        game.play(moves[len(moves) // 2])
    return deck, game.moves


def test_python_play_calls(benchmark: Any, base_rules: Rules) -> None:
    """``Game.play`` from Python on moves taken from ``legal_moves()``: a whole recorded
    game replayed per round (game construction included in the time)."""
    deck, moves = _recorded_game(base_rules)

    def replay() -> Game:
        game = Game(base_rules, deck=deck)
        play = game.play
        for move in moves:
            play(move)
        return game

    game = benchmark(replay)
    assert game.is_over and len(game.moves) == len(moves)
    if benchmark.stats:
        benchmark.extra_info["plays_per_second"] = round(len(moves) / benchmark.stats.stats.mean)


def test_python_legal_moves(benchmark: Any, base_rules: Rules) -> None:
    game = Game(base_rules, seed=5)
    for _ in range(30):
        game.play(game.legal_moves()[0])
    moves = benchmark(game.legal_moves)
    assert moves == sorted(set(moves))


@pytest.fixture(scope="module")
def finished_record() -> str:
    game = Game(Rules(), seed=3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    return game.to_json()


def test_game_to_json(benchmark: Any, finished_record: str) -> None:
    game = Game.from_json(finished_record)
    assert benchmark(game.to_json) == finished_record


def test_game_from_json(benchmark: Any, finished_record: str) -> None:
    # Replayed through the checked play; the rules are validated once (Rules::shared) and
    # shared by later loads of the same spec. Target: within 5 times to_json.
    game = benchmark(Game.from_json, finished_record)
    assert game.to_json() == finished_record and game.is_over
