"""The shared invariants harness: every rule configuration the property tests run over (the
registry), the random game driver, and the invariants every configuration keeps whatever
its rule system. A system brings its own checks through the hooks of ``hooks.py``: adding
one is a ``System`` (its oracle and probe) and a registry entry per configuration.

What is checked for every configuration (see ``test_invariants.py``):

* every decision of a random game, by ``Kept`` and the system's oracle: meeples are
  conserved, a move is recorded and its tile placed where it says, the game ends with
  nothing left to decide, the winners have the best score, and anything tried after the
  end is refused and changes nothing;
* the listed actions the system's probe picks are accepted (on clones) and the unlisted
  ones near them are refused and change nothing (``check_listed_and_near``);
* clones and JSON records taken mid-game keep everything and continue identically, and
  the same seeds give the same game (``check_round_trips``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import classic_oracle
import ferries_oracle
import maps_oracle
import south_seas_oracle
from carcassonne import Game, GameOverError, IllegalMoveError, Move, Rules
from configs import CLASSIC_CONFIGS, FERRIES_CONFIGS, SOUTH_SEAS_CONFIGS
from hooks import Choice, Oracle, Probe
from observe import Action, apply, board_meeples, random_action, snapshot
from oracle import assert_same_game

seeds = st.integers(min_value=0, max_value=2**64 - 1)
choice_seeds = st.integers(min_value=0, max_value=2**32 - 1)
game_indices = st.integers(min_value=0, max_value=2**64 - 1)

Choose = Callable[[Game, random.Random], Action]


# ----- the registry ----------------------------------------------------------------------------


@dataclass(frozen=True)
class System:
    """A rule system's checks: its oracle of one game, its probe of one game (given the
    game's random choices), what is tried once a game is over, and the share of the
    profile's Hypothesis examples each of its configurations gets per test (1: all)."""

    name: str
    oracle: Callable[[Game], Oracle]
    probe: Callable[[Game, random.Random], Probe]
    over_actions: Callable[[Game], list[Choice]]
    share: int = 1

    @property
    def examples(self) -> int:
        """Hypothesis examples per test of one of its configurations."""
        return max(2, settings().max_examples // self.share)


CLASSIC = System(
    "classic", classic_oracle.ClassicOracle, classic_oracle.ClassicProbe, classic_oracle.over_actions
)
FERRIES = System(
    "ferries", lambda _game: ferries_oracle.FerriesOracle(), ferries_oracle.FerriesProbe, ferries_oracle.over_actions
)
# Whole games with the full maps oracle take about a second each: a quarter of the
# profile's examples per configuration (5 in CI), more with HYPOTHESIS_PROFILE=dev or thorough.
MAPS = System("maps", lambda _game: maps_oracle.MapsOracle(), maps_oracle.MapsProbe, maps_oracle.over_actions, share=4)
SOUTH_SEAS = System(
    "south-seas",
    lambda _game: south_seas_oracle.SouthSeasOracle(),
    south_seas_oracle.SouthSeasProbe,
    south_seas_oracle.over_actions,
)


@dataclass(frozen=True)
class Config:
    """One rule configuration: its name, its system and the keywords of its ``Rules``."""

    name: str
    system: System
    options: Mapping[str, Any] = field(hash=False)

    @cached_property
    def rules(self) -> Rules:
        return Rules(**self.options)

    @property
    def examples(self) -> int:
        """Hypothesis examples per test of this configuration."""
        return self.system.examples


def _register(system: System, configs: Mapping[str, Mapping[str, Any]]) -> dict[str, Config]:
    return {name: Config(name, system, options) for name, options in configs.items()}


CONFIGS: dict[str, Config] = {
    **_register(CLASSIC, CLASSIC_CONFIGS),
    **_register(FERRIES, FERRIES_CONFIGS),
    **_register(MAPS, maps_oracle.CONFIGS),  # the built-in maps and the oracle's own map files
    **_register(SOUTH_SEAS, SOUTH_SEAS_CONFIGS),  # with and without Friday
}
NAMES = sorted(CONFIGS)


def for_examples(config: Config, test: Callable[..., None], **strategies: st.SearchStrategy[Any]) -> None:
    """Runs ``test`` over the configuration's number of Hypothesis examples, its arguments
    drawn from ``strategies`` (so one parametrised test serves systems with different
    budgets)."""
    settings(max_examples=config.examples)(given(**strategies)(test))()


# ----- the driver ------------------------------------------------------------------------------


class Kept(Oracle):
    """What every decision of every system keeps."""

    def __init__(self, system: System) -> None:
        self.system = system

    def start(self, game: Game) -> None:
        rules = game.rules
        assert list(game.supply) == [rules.meeples] * rules.players
        assert game.scores == [0] * rules.players
        assert game.turn == 0 and game.moves == []

    def before(self, game: Game, action: Action) -> None:
        assert game.legal_actions(), "a game that is not over must have a legal action"
        self.turn = game.turn
        self.moves = list(game.moves)
        self.tile = game.tile

    def after(self, game: Game, action: Action) -> None:
        rules = game.rules
        # Meeples are conserved: in supply or on the board, never lost or duplicated.
        on_board = board_meeples(game)
        for p in range(rules.players):
            assert game.supply[p] >= 0
            assert game.supply[p] + on_board[p] == rules.meeples, (p, list(game.supply), on_board)
        name, args = action
        if name == "play":
            (move,) = args
            assert game.moves == [*self.moves, move]
            assert game.turn == self.turn + 1 == len(game.moves)
            placed = game.board[-1]
            assert (placed.x, placed.y, placed.rotation, placed.tile) == (move.x, move.y, move.rotation, self.tile)
        else:
            assert game.moves == self.moves and game.turn == self.turn, action

    def end(self, game: Game) -> None:
        rules = game.rules
        assert game.legal_actions() == [] and game.legal_moves() == []
        assert game.tile is None and game.remaining_tiles == []
        best = max(game.scores)
        assert game.winners == [p for p in range(rules.players) if game.scores[p] == best]
        # Anything tried after the end is refused and changes nothing.
        before = snapshot(game)
        for action in self.system.over_actions(game):
            assert not game.is_legal(action), action
            with pytest.raises(GameOverError, match="over"):
                act(game, action)
        assert snapshot(game) == before


def play(
    game: Game,
    rnd: random.Random,
    system: System,
    choose: Choose = random_action,
    also: Sequence[Oracle] = (),
) -> Oracle:
    """Plays ``game`` to the end, every decision chosen by ``choose`` (by default at random,
    see ``observe.random_action``) and applied with ``Game.apply``, checked by ``Kept``, the
    system's oracle and the oracles ``also`` gives; returns the system's oracle (for what it
    collected)."""
    oracle = system.oracle(game)
    oracles = (Kept(system), oracle, *also)
    for o in oracles:
        o.start(game)
    while not game.is_over:
        action = choose(game, rnd)
        for o in oracles:
            o.before(game, action)
        apply(game, action)
        for o in oracles:
            o.after(game, action)
    for o in oracles:
        o.end(game)
    return oracle


def act(game: Game, action: Choice) -> None:
    """A move by ``Game.play`` (the verb of the place phase), a decision by ``Game.apply``."""
    if isinstance(action, Move):
        game.play(action)
    else:
        game.apply(action)


# ----- listed actions accepted, others refused ----------------------------------------------


def quick_snapshot(game: Game) -> tuple[Any, ...]:
    """What a refused action could have touched (the full ``snapshot`` is taken once)."""
    return (game.to_json(), list(game.supply), list(game.scores), game.current_player, game.tile, game.turn)


def check_listed_and_near(game: Game, probe: Probe, rnd: random.Random) -> None:
    """The listed actions the probe picks are legal and accepted on a clone (recorded, the
    tile placed, meeples conserved, and what the probe checks); the unlisted ones it names
    are refused with an ``IllegalMoveError`` (not a ``GameOverError``) that says why, and
    change nothing; the game itself is unchanged."""
    legal = game.legal_actions()
    chosen = probe.listed(game, legal, rnd)
    near = probe.near(game, legal, rnd)
    if not chosen and not near:
        return
    full_before = snapshot(game)
    rules = game.rules
    player = game.current_player
    for action in chosen:
        assert action in legal and game.is_legal(action), action
        clone = game.clone()
        clone.apply(action)
        if isinstance(action, Move):
            assert clone.moves[-1] == action and clone.turn == game.turn + 1
            last = clone.board[-1]
            assert (last.x, last.y, last.rotation, last.tile) == (action.x, action.y, action.rotation, game.tile)
        assert clone.supply[player] + board_meeples(clone)[player] == rules.meeples
        probe.accepted(game, clone, action)
    before = quick_snapshot(game)
    listed = set(legal)
    refused = 0
    for why, action in near:
        if action in listed:
            assert game.is_legal(action), action
            continue
        assert not game.is_legal(action), f"{action} ({why}) is legal"
        with pytest.raises(IllegalMoveError) as info:
            act(game, action)
        assert not isinstance(info.value, GameOverError), action
        assert str(info.value), action
        assert quick_snapshot(game) == before, f"the refused {action} ({why}) changed the game"
        refused += 1
    if near:
        assert refused > 0
    assert snapshot(game) == full_before
    assert game.legal_actions() == legal


def probe_game(game: Game, rnd: random.Random, system: System) -> None:
    """Plays ``game`` at random, probing its listed and near actions at every decision."""
    probe = system.probe(game, rnd)
    while not game.is_over:
        check_listed_and_near(game, probe, rnd)
        apply(game, random_action(game, rnd))
    probe.end(game)


# ----- clones, records, seeds ------------------------------------------------------------------


def check_round_trips(game: Game, choice_seed: int, split: float, again: Callable[[], Game]) -> None:
    """Clones and JSON records taken at ``split`` of the deck and at random decisions
    (often outside the place phase) keep everything and continue identically with the same
    decisions; ``again()``, the same game made anew, replays the same decisions to the same
    end."""
    rnd = random.Random(choice_seed)
    when = random.Random(choice_seed ^ 0x5EED)  # where to copy; leaves the choices alone
    stop = int(split * game.rules.deck_size)
    copies: list[tuple[str, Game]] = []
    actions: list[Action] = []
    split_done = False
    while not game.is_over:
        at_split = not split_done and game.turn >= stop
        if at_split or when.random() < 0.04 or (game.phase != "place" and when.random() < 0.2):
            split_done = True
            here = snapshot(game)
            clone = game.clone()
            loaded = Game.from_json(game.to_json())
            assert snapshot(clone) == here, "clone"
            assert snapshot(loaded) == here, f"record in phase {game.phase}"
            assert_same_game(clone, game)
            assert_same_game(loaded, game)
            copies += [("clone", clone), ("record", loaded)]
        action = random_action(game, rnd)
        actions.append(action)
        apply(game, action)
        for label, c in copies:
            apply(c, action)
            assert c.to_json() == game.to_json(), label
    end = snapshot(game)
    for label, c in copies:
        assert snapshot(c) == end, label
        assert_same_game(c, game)
    restored = Game.from_json(game.to_json())
    assert snapshot(restored) == end and snapshot(game.clone()) == end
    assert_same_game(restored, game)
    assert_same_game(game.clone(), game)
    # The same seeds give the same game.
    replay = again()
    rnd2 = random.Random(choice_seed)
    replayed: list[Action] = []
    while not replay.is_over:
        action = random_action(replay, rnd2)
        replayed.append(action)
        apply(replay, action)
    assert replayed == actions
    assert snapshot(replay) == end
