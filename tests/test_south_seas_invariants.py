"""South Seas' special cases: completed markets whose merchant chooses between tied ships,
and the types the stub promises. Random games of every South Seas configuration (with and
without Friday) are checked decision by decision against the South Seas invariants
(``south_seas_oracle.py``) by the shared harness, in ``test_invariants.py``.
"""

from __future__ import annotations

import random

import pytest

from carcassonne import Game, Rules
from configs import SOUTH_SEAS_CONFIGS
from harness import SOUTH_SEAS, check_listed_and_near, play
from hooks import Oracle
from observe import Action, apply, play_random, random_action, tied_ships
from south_seas_oracle import SouthSeasProbe

RULES: dict[str, Rules] = {name: Rules(**kw) for name, kw in SOUTH_SEAS_CONFIGS.items()}


# ----- markets ---------------------------------------------------------------------------------


class Markets(Oracle):
    """Probes the listed and near decisions at every market choice of a game."""

    def __init__(self, game: Game, rnd: random.Random) -> None:
        self.probe = SouthSeasProbe(game, rnd)
        self.rnd = rnd
        self.markets = 0

    def before(self, game: Game, action: Action) -> None:
        if game.phase == "market":
            self.markets += 1
            check_listed_and_near(game, self.probe, self.rnd)


def test_market_choices_keep_the_invariants() -> None:
    rules = RULES["south-seas-5p"]
    order = tied_ships(rules)
    for seed in range(200):
        game = Game(rules, seed=seed, ships=order)
        rnd = random.Random(seed)
        while not game.is_over and game.phase != "market":
            apply(game, random_action(game, rnd))
        if game.phase == "market":
            break
    else:
        pytest.fail("no random game reached a market choice")
    # The same game again, every decision checked, the market choices probed.
    game = Game(rules, seed=seed, ships=order)
    markets = Markets(game, random.Random(seed + 1))
    play(game, random.Random(seed), SOUTH_SEAS, also=[markets])
    assert markets.markets > 0


# ----- the types the stub promises -------------------------------------------------------------


def south_seas_game_with_events() -> Game:
    rules = RULES["south-seas-2p"]
    for seed in range(20):
        game = Game(rules, seed=seed)
        play_random(game, random.Random(seed), turns=30)
        if any(e.kind == "wares" for e in game.sea.events):
            return game
    pytest.fail("no wares handed out in 30 turns of 20 games")


def test_sea_event_players_is_a_list_of_ints() -> None:
    game = south_seas_game_with_events()
    for e in game.sea.events:
        assert isinstance(e.players, list) and all(isinstance(p, int) for p in e.players), (
            type(e.players),
            e,
        )


def test_market_ships_is_a_list_of_ints() -> None:
    game = Game(RULES["south-seas-2p"], seed=1)
    assert game.sea is not None
    assert isinstance(game.sea.market_ships(), list), type(game.sea.market_ships())
