"""Carcassonne Maps: the tile sets taken several times (``tile_set_copies``). The joined USA
maps recommend 230 tiles, about twice the Maps sets' 114: by default they take the sets
twice (a deck of 227); single maps take them once, as before; bad values are refused naming
the argument; records, the options listing, the observations and the command line follow."""

from __future__ import annotations

import json
import random
import tomllib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from carcassonne import Game, ObservationSpace, Rules, RulesError, simulate
from carcassonne.cli import main

MAPS_DIR = Path(__file__).resolve().parents[1] / "rust" / "carcassonne-core" / "data" / "maps"
ONE_SET = 72 + 18 + 24  # base, Inns & Cathedrals, Traders & Builders: start tile included


def test_the_joined_map_takes_the_sets_twice_by_default() -> None:
    rules = Rules(map="west+east")
    assert rules.tile_set_copies == 2
    assert rules.deck_size == 2 * ONE_SET - 1 == 227  # 229 recommended, as far as two sets go
    once = Rules(map="west+east", tile_set_copies=1)
    assert once.tile_set_copies == 1 and once.deck_size == ONE_SET - 1 == 113
    full, single = Counter(rules.full_deck()), Counter(once.full_deck())
    assert len(rules.full_deck()) == 227 and len(once.full_deck()) == 113
    # Every tile twice, the start tile (base/D, 4 in base) once less.
    assert {t: n for t, n in full.items()} == {t: 2 * n + (t == "base/D") for t, n in single.items()}
    assert Rules(map="west+east", tile_set_copies=3).deck_size == 229
    assert Rules(map=("west", "east"), deck_size=227).deck_size == 227
    # The largest: every tile of eight copies but the start tile.
    assert Rules(map="west+east", tile_set_copies=8, deck_size=8 * ONE_SET - 1).deck_size == 911


@pytest.mark.parametrize("name", ["continental", "northern", "coastal", "west", "east"])
def test_single_maps_keep_one_copy(name: str) -> None:
    default, once = Rules(map=name), Rules(map=name, tile_set_copies=1)
    assert default.tile_set_copies == 1 and default.full_deck() == once.full_deck()
    assert default.deck_size == once.deck_size <= 113
    a, b = simulate(default, 5, seed=3), simulate(once, 5, seed=3)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.turns, b.turns)
    # Two copies: the map's whole recommendation (tiles in a game, the start tile included).
    recommended = tomllib.loads((MAPS_DIR / f"{name}.toml").read_text())["tiles"]
    assert Rules(map=name, tile_set_copies=2).deck_size == recommended - 1


def test_without_a_map_there_are_no_copies() -> None:
    assert Rules().tile_set_copies is None
    with pytest.raises(RulesError, match="tile_set_copies is an option of Carcassonne Maps"):
        Rules(tile_set_copies=2)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(tile_set_copies=0), "tile_set_copies must be between 1 and 8, got 0"),
        (dict(tile_set_copies=9), "tile_set_copies must be between 1 and 8, got 9"),
        (dict(tile_set_copies=-1), "tile_set_copies must be between 1 and 8, got -1"),
        (dict(tile_set_copies=10**30), "tile_set_copies must be between 1 and 8"),
        (
            dict(deck_size=228),
            "deck_size must be between 3 (a tile for each start square after the first) and 227 "
            "(every tile of the sets taken 2 times, tile_set_copies, but the start tile), got 228",
        ),
        (
            dict(tile_set_copies=1, deck_size=114),
            "deck_size must be between 3 (a tile for each start square after the first) and 113 "
            "(every tile of the sets but the start tile), got 114",
        ),
        (dict(tile_set_copies=3, deck_size=342), "and 341 (every tile of the sets taken 3 times"),
    ],
)
def test_bad_copies_and_deck_sizes_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(map="west+east", **kwargs)  # type: ignore[arg-type]
    assert message in str(info.value)


@pytest.mark.parametrize("value", [True, False, 2.0, "2", [2]])
def test_copies_of_the_wrong_type_are_refused_naming_the_option(value: object) -> None:
    with pytest.raises(TypeError, match="tile_set_copies must be an integer"):
        Rules(map="west+east", tile_set_copies=value)  # type: ignore[arg-type]


def test_copies_are_listed_recorded_and_round_trip() -> None:
    option = {o.name: o for o in Rules.options()}["tile_set_copies"]
    assert (option.system, option.flag, option.range) == ("maps", "tile-set-copies", (1, 8))
    names = [o.name for o in Rules.options()]
    assert names.index("tile_set_copies") == names.index("deck_size") - 1
    # Given, it is in the repr and the configuration; by default neither, but in effect.
    given = Rules(map="west+east", tile_set_copies=3)
    assert "tile_set_copies=3" in repr(given)
    assert given.option_values()["tile_set_copies"] == 3
    assert json.loads(given.to_json())["tile_set_copies"] == 3
    assert Rules.from_json(given.to_json()) == given
    default = Rules(map="west+east")
    assert "tile_set_copies" not in repr(default) and "tile_set_copies" not in default.to_json()
    assert default.option_values()["tile_set_copies"] is None and default.tile_set_copies == 2
    assert Rules.from_json(default.to_json()) == default != Rules(map="west+east", tile_set_copies=2)


def test_a_doubled_deck_plays_to_the_end_and_its_record_replays() -> None:
    rules = Rules(map="west+east", players=3)
    rng = random.Random(7)
    game = Game(rules, seed=5)
    deck_tiles = Counter(rules.full_deck())
    assert not Counter(game.remaining_tiles) - deck_tiles
    assert abs(sum(p for _, p in game.chance_outcomes()) - 1) < 1e-9
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    # Every tile of the deck: a start square's after the first, played, or discarded.
    assert rules.start_squares - 1 + game.turn + len(game.discarded) == rules.deck_size == 227
    back = Game.from_json(game.to_json())
    assert back.scores == game.scores and back.rules == rules and back.rules.tile_set_copies == 2
    for policy in ("random", "greedy"):
        a = simulate(rules, 4, seed=9, policy=policy, threads=1)
        b = simulate(rules, 4, seed=9, policy=policy, threads=2)
        np.testing.assert_array_equal(a.scores, b.scores)
        np.testing.assert_array_equal(a.discarded, b.discarded)
        np.testing.assert_array_equal(a.turns + a.discarded, 227 - 3)


def test_unseen_counts_include_both_copies() -> None:
    rules = Rules(map="west+east", players=2)
    space = ObservationSpace(rules)
    game = Game(rules, seed=1)
    _, vector = space.observe(game)
    start = 0
    for name, length in space.fields:
        if name == "unseen":
            unseen = vector[start : start + length]
            break
        start += length
    # Two copies less the start squares' three tiles, the discards and the tile in hand.
    assert unseen.sum() == 227 - 3 - len(game.discarded) - 1
    assert unseen.max() > max(Counter(Rules(map="west").full_deck()).values())


def test_the_command_line_takes_the_copies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--map", "west+east", "--games", "2", "--tile-set-copies", "1"]) == 0
    assert "113 tiles" in capsys.readouterr().out
    assert main(["simulate", "--map", "west+east", "--games", "2"]) == 0
    assert "227 tiles" in capsys.readouterr().out
