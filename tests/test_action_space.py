"""The integer action space for learning agents (``ActionSpace``), from Python:

* an agent that sees only masks plays whole games of every configuration: each token it
  draws from ``mask(game, prefix)`` continues a legal action, ``resolve`` gives that
  action once its tokens are complete, and ``mask_bits`` is the same mask packed;
* the mask after no tokens is exactly the first tokens of ``legal_actions()``, and every
  legal action encodes, decodes back and resolves to itself;
* the blocks tile the space and follow the rule system;
* bad input raises ActionSpaceError (WindowOverflowError for a game that outgrew the
  window) naming what is wrong, and changes nothing.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from carcassonne import (
    ActionSpace,
    ActionSpaceError,
    CarcassonneError,
    Game,
    Rules,
    WindowOverflowError,
)

from configs import ALL_CONFIGS


def play_from_masks(rules: Rules, seed: int) -> tuple[int, int]:
    """Plays one game choosing every token at random from the masks; returns (actions
    applied, tokens chosen). Stops early, returning what was played, if the game
    outgrows the window."""
    space = rules.action_space
    game = Game(rules, seed=seed)
    rnd = random.Random(seed)
    actions = tokens = 0
    while not game.is_over:
        prefix: list[int] = []
        while True:
            try:
                mask = space.mask(game, prefix)
            except WindowOverflowError:
                return actions, tokens
            bits = space.mask_bits(game, prefix)
            assert np.array_equal(bits, np.packbits(mask, bitorder="little"))
            legal = np.flatnonzero(mask)
            assert len(legal) > 0, prefix
            prefix.append(int(rnd.choice(legal)))
            tokens += 1
            action = space.resolve(game, prefix)
            if action is not None:
                break
        assert action in game.legal_actions()
        assert space.encode(game, action) == tuple(prefix)
        game.apply(action)
        actions += 1
    # Over: nothing is legal.
    assert not space.mask(game).any()
    return actions, tokens


@pytest.mark.parametrize("name", sorted(ALL_CONFIGS))
def test_an_agent_seeing_only_masks_plays_whole_games(name: str) -> None:
    rules = Rules(**ALL_CONFIGS[name])
    actions, tokens = play_from_masks(rules, seed=11)
    assert actions > 20, name
    # A placement is at least two tokens (square, then meeple).
    assert tokens >= actions + 20, name


@pytest.mark.parametrize("name", sorted(ALL_CONFIGS))
def test_the_first_mask_is_the_legal_actions_first_tokens(name: str) -> None:
    rules = Rules(**ALL_CONFIGS[name])
    space = rules.action_space
    game = Game(rules, seed=3)
    rnd = random.Random(3)
    checked = 0
    while not game.is_over and checked < 12:
        legal = game.legal_actions()
        try:
            encoded = [space.encode(game, a) for a in legal]
        except WindowOverflowError:
            break
        assert len(set(encoded)) == len(legal), "no two actions share their tokens"
        for a, t in zip(legal, encoded):
            assert space.decode(game, t) == a
            assert space.resolve(game, list(t)) == a
        expected = np.zeros(space.size, dtype=bool)
        expected[[t[0] for t in encoded]] = True
        assert np.array_equal(game.legal_action_mask(), expected)
        assert np.array_equal(space.mask(game), expected)
        checked += 1
        for _ in range(3):
            if not game.is_over:
                game.apply(rnd.choice(game.legal_actions()))
    assert checked >= 6, name


def test_blocks_tile_the_space_and_follow_the_rule_system() -> None:
    def names(**kwargs: object) -> list[str]:
        space = Rules(**kwargs).action_space  # type: ignore[arg-type]
        start = 0
        for b in space.blocks:
            assert b.start == start and b.size == int(np.prod(b.shape))
            assert len(b.axes) == len(b.shape) and b.doc
            start += b.size
        assert start == space.size
        return [b.name for b in space.blocks]

    assert names() == ["place", "meeple"]
    assert names(tile_sets=["base", "ferries"]) == [
        "place", "meeple", "ferry", "ferry_at", "ferries_done"
    ]
    assert names(tile_sets=["south-seas"]) == ["place", "meeple", "islander", "deliver", "market"]
    assert names(tile_sets=["south-seas"], friday=True)[-2:] == ["friday", "trade"]
    assert names(map="continental") == ["place", "meeple"]
    # Maps' small-town variant 1: the extra turn, a decision of its own, after every other
    # block (variants 2 and 3 are no decision).
    assert names(map="continental", small_towns=[1]) == ["place", "meeple", "extra_turn"]
    assert names(map="continental", small_towns=[2, 3]) == ["place", "meeple"]
    assert names(map="continental", tile_sets=["base", "ferries"], small_towns=[1, 3]) == [
        "place", "meeple", "ferry", "ferry_at", "ferries_done", "extra_turn"
    ]
    base = Rules().action_space
    assert (base.window, base.blocks[0].shape) == (23, [23, 23, 4])
    assert ActionSpace(Rules(), window=31).blocks[0].shape == [31, 31, 4]
    assert base.pays == []
    sea = Rules(tile_sets=["south-seas"]).action_space
    deliver = next(b for b in sea.blocks if b.name == "deliver")
    assert deliver.size == 1 + 4 * len(sea.pays)
    assert "size=" in repr(base) and "place=" in repr(base)


def test_bad_input_is_refused_and_changes_nothing() -> None:
    rules = Rules()
    space = rules.action_space
    game = Game(rules, seed=5)
    before = game.to_json()
    a = game.legal_actions()[0]
    place, meeple = space.encode(game, a)
    cases: list[tuple[object, str]] = [
        ([10**30], "between 0 and"),
        ([-1], "between 0 and"),
        ([space.size], "between 0 and"),
        ("12", "sequence of integers"),
        (7, "sequence of integers"),
        ([1.5], "not an integer"),
        (list(range(40)), "at most"),
        ([place], "no complete action"),
        ([place, meeple, 0], "already make a complete action"),
        ([meeple, place], "cannot be token 0"),
    ]
    for tokens, says in cases:
        with pytest.raises(ActionSpaceError, match=says):
            space.decode(game, tokens)  # type: ignore[arg-type]
    with pytest.raises(ActionSpaceError, match="no legal action starts with"):
        space.mask(game, [0])
    with pytest.raises(ActionSpaceError, match="already make a complete action"):
        space.mask(game, [place, meeple])
    with pytest.raises(ActionSpaceError, match="no legal action starts with"):
        space.resolve(game, [0])
    with pytest.raises(ActionSpaceError, match="Move or a Decision"):
        space.encode(game, "place")  # type: ignore[arg-type]
    # Tokens may be numpy integers, and a numpy array.
    assert space.decode(game, np.array([place, meeple])) == a
    # A game of other rules, a window the rules cannot take.
    other = Game(Rules(players=3), seed=5)
    with pytest.raises(ActionSpaceError, match="other rules"):
        space.mask(other)
    for window in (2, 256, 10**9):
        with pytest.raises(ActionSpaceError, match="window"):
            ActionSpace(rules, window=window)
    with pytest.raises(ActionSpaceError, match="window"):
        ActionSpace(Rules(map="continental"), window=5)
    assert issubclass(ActionSpaceError, CarcassonneError)
    assert issubclass(WindowOverflowError, ActionSpaceError)
    assert game.to_json() == before


def test_a_game_that_outgrows_the_window_raises_window_overflow() -> None:
    rules = Rules()
    space = ActionSpace(rules, window=5)
    game = Game(rules, seed=2)
    rnd = random.Random(2)
    with pytest.raises(WindowOverflowError, match=r"more than the 5 x 5 window"):
        while True:
            space.mask(game)
            space.origin(game)
            game.apply(rnd.choice(game.legal_actions()))
    with pytest.raises(WindowOverflowError):
        space.origin(game)
    # The default window holds the same game.
    assert rules.action_space.mask(game).any()
