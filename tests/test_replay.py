"""``carcassonne.replay``: any game a study played, rebuilt with its event log and record,
for every configuration and lineup; bad arguments refused like ``simulate`` refuses them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from configs import ALL_CONFIGS

from carcassonne import Decision, Game, Move, PlayerError, Rules, RulesError, replay, simulate
from carcassonne.players import MCTS


@pytest.mark.parametrize("config", sorted(ALL_CONFIGS))
def test_a_replay_is_the_game_the_study_played(config: str) -> None:
    rules = Rules(**ALL_CONFIGS[config])
    seats = rules.players
    lineups: list[Any] = [None, ["greedy"] + ["random"] * (seats - 1)]
    for players in lineups:
        study = simulate(rules, 12, seed=21, first_game=500, players=players, threads=2)
        for row in (0, 5, 11):
            game = replay(rules, 21, 500 + row, players=players)
            assert game.is_over
            assert list(game.scores) == list(study.scores[row]), f"{config} game {500 + row}"
            assert len(game.moves) == study.turns[row]
            assert len(game.discarded) == study.discarded[row]
            # The record replays through the checked play to the same end.
            again = Game.from_json(game.to_json())
            assert list(again.scores) == list(game.scores) and again.moves == game.moves
            assert game.events or (game.sea is not None and game.sea.events), "the event log is kept"


def test_replay_with_mcts_and_a_python_player() -> None:
    rules = Rules()

    def first_action(game: Game) -> Move | Decision:
        # Deterministic: the replay calls it again and must get the same answers.
        return game.legal_actions()[0]

    players = [MCTS(playouts=20), first_action]
    study = simulate(rules, 3, seed=2, players=players)
    for i in range(3):
        game = replay(rules, 2, i, players=players)
        assert np.array_equal(np.array(game.scores), study.scores[i])
    # policy= names one built-in player for every seat, as in simulate.
    greedy = simulate(rules, 2, seed=3, policy="greedy")
    assert list(replay(rules, 3, 1, policy="greedy").scores) == list(greedy.scores[1])
    # Defaults: the base game, seed 0, game 0, random players.
    assert list(replay().scores) == list(simulate(Rules(), 1).scores[0])


def test_bad_replays_are_refused() -> None:
    # The index is named as the caller wrote it (the replay is a study starting there).
    with pytest.raises(RulesError, match="^game_index must be between 0 and 2\\*\\*64 - 1, got -1$"):
        replay(Rules(), 1, -1)
    with pytest.raises(RulesError, match="^game_index"):
        replay(Rules(), 1, 2**64)
    with pytest.raises(RulesError, match="seed"):
        replay(Rules(), 2**64, 0)
    with pytest.raises(PlayerError, match="unknown player"):
        replay(Rules(), 1, 0, players=["chess", "random"])
    with pytest.raises(PlayerError, match="seat"):
        replay(Rules(players=3), 1, 0, players=["random", "random"])
    with pytest.raises(PlayerError, match="not both"):
        replay(Rules(), 1, 0, policy="random", players="greedy")
    with pytest.raises(RulesError, match="unknown policy"):
        replay(Rules(), 1, 0, policy="chess")

    def illegal(game: Game) -> Move:
        return Move(99, 99, 0)

    with pytest.raises(PlayerError, match="game 7"):
        replay(Rules(), 1, 7, players=[illegal, "random"])
    # The last game a seed has.
    assert replay(Rules(), 1, 2**64 - 1).is_over
