"""Per-player benchmarks (pytest-benchmark): whole games of each built-in player and of a
Python function, and one MCTS search, in every rule system where it matters.
``pytest benches --benchmark-only`` measures; a plain ``pytest`` run executes each once.

Figures go to ``extra_info`` (games or searches per second); the docs' performance page
(docs/guide/performance.md) quotes them with the machine described.
"""

from __future__ import annotations

from typing import Any

import pytest

import carcassonne
from carcassonne import Game, Move, Rules
from carcassonne.players import MCTS, Greedy, Random

SYSTEMS = {
    "base": dict(players=2),
    "ferries": dict(players=2, tile_sets=("base", "ferries")),
    "south-seas": dict(players=2, tile_sets=("south-seas",)),
    "friday": dict(players=2, tile_sets=("south-seas",), friday=True),
    "maps": dict(players=2, map="continental"),
}


def _games(benchmark: Any, rules: Rules, players: Any, games: int) -> None:
    result = benchmark(carcassonne.simulate, rules, games=games, seed=1, threads=1, players=players)
    assert result.scores.shape == (games, rules.players)
    if benchmark.stats:
        benchmark.extra_info["games_per_second"] = round(games / benchmark.stats.stats.mean, 1)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_random_player(benchmark: Any, system: str) -> None:
    _games(benchmark, Rules(**SYSTEMS[system]), Random(), 5_000)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_greedy_player(benchmark: Any, system: str) -> None:
    _games(benchmark, Rules(**SYSTEMS[system]), Greedy(), 200)


def test_python_function_player(benchmark: Any) -> None:
    """A Python function in one seat: the cost of calling Python once per action."""

    def first(game: Game) -> Move | carcassonne.Decision:
        return game.legal_actions()[0]

    _games(benchmark, Rules(players=2), [first, "random"], 20)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_mcts_search_mid_game(benchmark: Any, system: str) -> None:
    """One MCTS search of 1,000 playouts from a mid-game position: searches per second
    times 1,000 is playouts per second (each playout a determinization and a random game
    to the end)."""
    rules = Rules(**SYSTEMS[system])
    game = Game(rules, seed=3)
    while not game.is_over and len(game.moves) < 30:
        game.apply(game.legal_actions()[0])
    action = benchmark(game.best_move, MCTS(playouts=1000), seed=1)
    assert game.is_legal(action)
    if benchmark.stats:
        benchmark.extra_info["playouts_per_second"] = round(1000 / benchmark.stats.stats.mean)


def test_mcts_games(benchmark: Any) -> None:
    """Whole 2-player base games, MCTS (100 playouts per action) against greedy."""
    _games(benchmark, Rules(players=2), [MCTS(playouts=100), "greedy"], 2)
