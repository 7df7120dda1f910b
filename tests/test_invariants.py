"""Property tests over random games of every rule configuration (``harness.CONFIGS``):
the invariants every system keeps and each system's independent oracle, checked decision by
decision (see ``harness.py``); the systems' own special cases are in
``test_ferries_invariants.py``, ``test_maps_invariants.py`` and
``test_south_seas_invariants.py``. Pickles and ``simulate`` are checked by
``test_conformance.py``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st

from carcassonne import Game
from harness import (
    CONFIGS,
    NAMES,
    check_round_trips,
    choice_seeds,
    for_examples,
    game_indices,
    play,
    probe_game,
    seeds,
)


@pytest.mark.parametrize("config", NAMES)
def test_every_decision_keeps_the_invariants(config: str) -> None:
    """Whole random games, every decision checked by what every system keeps and by the
    system's oracle."""
    c = CONFIGS[config]

    def game(seed: int, choice_seed: int) -> None:
        play(Game(c.rules, seed=seed), random.Random(choice_seed), c.system)

    for_examples(c, game, seed=seeds, choice_seed=choice_seeds)


@pytest.mark.parametrize("config", NAMES)
def test_listed_actions_are_accepted_and_others_refused(config: str) -> None:
    c = CONFIGS[config]

    def game(seed: int, choice_seed: int) -> None:
        probe_game(Game(c.rules, seed=seed), random.Random(choice_seed), c.system)

    for_examples(c, game, seed=seeds, choice_seed=choice_seeds)


@pytest.mark.parametrize("config", NAMES)
def test_clones_records_and_seeds_keep_the_game(config: str) -> None:
    c = CONFIGS[config]

    def game(seed: int, choice_seed: int, split: float, game_index: int) -> None:
        def new() -> Game:
            return Game(c.rules, seed=seed, game_index=game_index)

        check_round_trips(new(), choice_seed, split, new)

    for_examples(c, game, seed=seeds, choice_seed=choice_seeds, split=st.floats(0.0, 1.0), game_index=game_indices)
