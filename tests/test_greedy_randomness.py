"""The greedy player with randomness (``Greedy(randomness=p)``): bad settings are refused
naming ``randomness`` and its range; its name is the engine's and reads back as the same
player; at 0 it plays exactly as the greedy player and at 1 exactly as the random one, in
between games of its own that repeat at a seed for any thread count, in every rule
system; more randomness is weaker in a paired match; the command line's ``--randomness``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from carcassonne import Rules, simulate
from carcassonne._core import PlayerError
from carcassonne.players import Greedy, parse
from carcassonne.rating import match
from carcassonne.study.results import SimulationResult
from configs import ALL_CONFIGS

# One configuration of each rule system: every kind of decision the player draws for
# (South Seas deliveries and market picks, Friday, ferries, the Maps extra turn).
SYSTEMS = (
    "base-2p",
    "all-sets-3p",
    "C3-2p",
    "south-seas-2p",
    "south-seas-friday-2p",
    "coastal-towns-3p",
)


def _same_games(a: SimulationResult, b: SimulationResult) -> bool:
    return bool(
        np.array_equal(a.scores, b.scores)
        and np.array_equal(a.winners, b.winners)
        and np.array_equal(a.turns, b.turns)
    )


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, math.inf, -math.inf, 2, 10**400])
def test_out_of_range_is_refused(bad: float) -> None:
    with pytest.raises(PlayerError, match=r"Greedy randomness must be a number from 0 to 1, got"):
        Greedy(randomness=bad)


@pytest.mark.parametrize("bad", ["0.5", None, True, [0.5], 1j])
def test_not_a_number_is_refused(bad: Any) -> None:
    with pytest.raises(PlayerError, match=r"Greedy randomness must be a number from 0 to 1, not"):
        Greedy(randomness=bad)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("greedy(randomness=lots)", "must be a number from 0 to 1, not 'lots'"),
        ("greedy(randomness=1.5)", "must be a number from 0 to 1, got 1.5"),
        ("greedy(randomness=nan)", "must be a number from 0 to 1, got nan"),
    ],
)
def test_bad_names_are_refused(name: str, message: str) -> None:
    with pytest.raises(PlayerError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse(name)
    with pytest.raises(PlayerError, match="Greedy randomness"):
        simulate(Rules(), 1, players=[name, "random"])


def test_names_are_the_engines_and_read_back() -> None:
    expected = [
        (0, "greedy"),
        (-0.0, "greedy"),
        (0.25, "greedy(randomness=0.25)"),
        (0.5, "greedy(randomness=0.5)"),
        (1 / 3, "greedy(randomness=0.3333333333333333)"),
        (1e-7, "greedy(randomness=0.0000001)"),
        (1, "greedy(randomness=1)"),
    ]
    for randomness, name in expected:
        player = Greedy(randomness=randomness)
        assert player.name == name
        assert isinstance(player.randomness, float)
        r = simulate(Rules(), 1, seed=3, players=[player, "random"], threads=1)
        assert r.players == (name, "random")
        assert parse(name) == player
    assert Greedy() == Greedy(randomness=0) == parse("greedy")
    assert Greedy(randomness=1) == Greedy(randomness=1.0)
    assert hash(Greedy(randomness=1)) == hash(Greedy(randomness=1.0))
    assert Greedy(randomness=0.25) != Greedy(randomness=0.5)


@pytest.mark.parametrize("config", SYSTEMS)
def test_the_ends_are_greedy_and_random_and_between_repeats(config: str) -> None:
    rules = Rules(**ALL_CONFIGS[config])
    seats = int(rules.players)

    def play(player: Any, threads: int = 2) -> SimulationResult:
        # The player under test in the first seat, greedy in the others.
        return simulate(rules, 6, seed=11, players=[player] + ["greedy"] * (seats - 1), threads=threads)

    assert _same_games(play(Greedy(randomness=0)), play("greedy"))
    assert _same_games(play(Greedy(randomness=1)), play("random"))
    half = play(Greedy(randomness=0.5))
    assert _same_games(half, play(Greedy(randomness=0.5), threads=1))
    assert not _same_games(half, play("greedy"))
    assert not _same_games(half, play("random"))


def test_more_randomness_is_weaker_in_a_paired_match() -> None:
    result = match(Rules(), Greedy(randomness=0.25), Greedy(randomness=0.75), pairs=200, seed=2026)
    assert result.players == ("greedy(randomness=0.25)", "greedy(randomness=0.75)")
    assert result.estimate.score_low > 0.5, result


def test_command_line_randomness(capsys: pytest.CaptureFixture[str]) -> None:
    from carcassonne.cli import main

    assert main(["simulate", "--games", "4", "--players", "greedy", "random", "--randomness", "0.5"]) == 0
    assert "players greedy(randomness=0.5) | random" in capsys.readouterr().out
    assert main(["simulate", "--games", "4", "--players", "greedy(randomness=0.25)", "greedy"]) == 0
    assert "players greedy(randomness=0.25) | greedy" in capsys.readouterr().out
    assert main(["simulate", "--games", "2", "--players", "greedy", "--randomness", "1.5"]) == 2
    assert "Greedy randomness must be a number from 0 to 1, got 1.5" in capsys.readouterr().err
    assert main(["simulate", "--games", "2", "--players", "random", "mcts", "--randomness", "0.5"]) == 2
    assert "--randomness goes with a greedy player" in capsys.readouterr().err
    assert main(["simulate", "--games", "2", "--randomness", "0.5"]) == 2
    assert "--randomness goes with a greedy player" in capsys.readouterr().err
