"""The learning interface for Carcassonne Maps' small-town variant 1, whose extra turn is
the player's choice (``game.phase == "extra_turn"``, ``Decision.extra_turn(take)``), from
Python:

* the action space gains one block, "extra_turn" (0 decline, 1 take), after every other,
  and the observations' "phase" field one entry, last; variants 2 and 3 alone change
  neither;
* at every extra turn of random games the mask is exactly the tokens of the two listed
  decisions, each encodes, decodes and resolves to its decision, the observation shows
  the phase one-hot and no tile in hand;
* the observation at an extra turn does not depend on the order of the undrawn tiles
  (the same game on a deck with them in another order);
* ``VectorEnv`` (self-play and against built-in opponents), the Gymnasium environment,
  its vector form and the PettingZoo environment play games through the phase to their
  end, the agent choosing the token and the opponents deciding by their policy;
* the PUCT search at an extra turn weighs exactly the two decisions.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from carcassonne import (
    Decision,
    Game,
    ObservationSpace,
    PuctSearch,
    Rules,
    VectorEnv,
)
from carcassonne.learn.gymnasium_env import CarcassonneEnv
from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv
from carcassonne.learn.pettingzoo_env import CarcassonneAEC

from configs import ALL_CONFIGS

# Every test configuration that plays variant 1, and a plain one with The Ferries' lakes.
VARIANT_1 = sorted(n for n, kw in ALL_CONFIGS.items() if 1 in kw.get("small_towns", ()))
FERRIES_TOWNS = dict(players=2, map="continental", tile_sets=("base", "ferries"), small_towns=[1])
# The phases of the "phase" field in order, with variant 1.
PHASES = ["place", "deliver", "market", "move_friday", "homecoming", "extra_turn"]


def field(observer: ObservationSpace, vector: np.ndarray, name: str) -> np.ndarray:
    at = 0
    for f, n in observer.fields:
        if f == name:
            return vector[at : at + n]
        at += n
    raise KeyError(name)


def extra_turn_block(rules: Rules) -> tuple[int, int]:
    """The "extra_turn" block's (start, size)."""
    (block,) = [b for b in rules.action_space.blocks if b.name == "extra_turn"]
    return block.start, block.size


def test_the_configurations_cover_variant_1() -> None:
    assert len(VARIANT_1) >= 2, VARIANT_1


@pytest.mark.parametrize("ferries", [False, True])
def test_only_variant_1_adds_the_block_and_the_phase(ferries: bool) -> None:
    sets = dict(tile_sets=("base", "ferries")) if ferries else {}
    plain = Rules(map="continental", **sets)  # type: ignore[arg-type]
    plain_fields = ObservationSpace(plain).fields
    plain_blocks = [(b.name, b.start, b.shape) for b in plain.action_space.blocks]
    for towns in ([2], [3], [2, 3]):
        other = Rules(map="continental", small_towns=towns, **sets)  # type: ignore[arg-type]
        assert [(b.name, b.start, b.shape) for b in other.action_space.blocks] == plain_blocks
        assert other.action_space.size == plain.action_space.size
        assert ObservationSpace(other).fields == plain_fields
        assert ObservationSpace(other).planes == ObservationSpace(plain).planes
    for towns in ([1], [1, 2, 3]):
        rules = Rules(map="continental", small_towns=towns, **sets)  # type: ignore[arg-type]
        space = rules.action_space
        blocks = [(b.name, b.start, b.shape) for b in space.blocks]
        # The other blocks keep their tokens; two more come after them.
        assert blocks == plain_blocks + [("extra_turn", plain.action_space.size, [2])]
        assert space.size == plain.action_space.size + 2
        assert space.blocks[-1].axes == ["choice"] and "decline" in space.blocks[-1].doc
        assert "extra_turn=2" in repr(space)
        observer = ObservationSpace(rules)
        assert observer.fields[0] == ("phase", 6) and plain_fields[0] == ("phase", 5)
        assert observer.fields[1:] == plain_fields[1:]
        assert observer.planes == ObservationSpace(plain).planes


@pytest.mark.parametrize("name", VARIANT_1 + ["ferries-towns"])
def test_extra_turns_mask_encode_and_observe(name: str) -> None:
    rules = Rules(**(FERRIES_TOWNS if name == "ferries-towns" else ALL_CONFIGS[name]))
    space = rules.action_space
    observer = ObservationSpace(rules, space)
    start, size = extra_turn_block(rules)
    assert size == 2
    offers = taken = 0
    for seed in range(3):
        game = Game(rules, seed=seed)
        rnd = random.Random(seed)
        while not game.is_over:
            _, vector = observer.observe(game)
            phase = field(observer, vector, "phase")
            expected = np.zeros(6, np.float32)
            expected[PHASES.index(game.phase)] = 1
            assert np.array_equal(phase, expected), game.phase
            mask = space.mask(game)
            if game.phase == "extra_turn":
                offers += 1
                legal = game.legal_actions()
                assert legal == [Decision.extra_turn(False), Decision.extra_turn(True)]
                decisions = [d for d in legal if isinstance(d, Decision)]
                assert [d.kind for d in decisions] == ["extra_turn"] * 2
                assert [d.take for d in decisions] == [False, True]
                assert game.tile is None
                assert not field(observer, vector, "tile").any()
                # The mask is exactly the listed decisions' tokens.
                encoded = [space.encode(game, a) for a in legal]
                assert encoded == [(start,), (start + 1,)]
                assert list(np.flatnonzero(mask)) == [start, start + 1]
                for a, t in zip(legal, encoded):
                    assert space.decode(game, t) == a
                    assert space.resolve(game, list(t)) == a
            else:
                assert game.phase == "place" and game.tile is not None
                assert not mask[start:].any()
            action = rnd.choice(game.legal_actions())
            taken += action == Decision.extra_turn(True)
            game.apply(action)
        assert not space.mask(game).any()
    assert offers >= 6 and 0 < taken < offers, (offers, taken)


@pytest.mark.parametrize("name", VARIANT_1)
def test_the_order_of_the_undrawn_tiles_is_not_seen_at_an_extra_turn(name: str) -> None:
    rules = Rules(**ALL_CONFIGS[name])
    observer = ObservationSpace(rules)
    compared = 0
    for seed, after in [(5, 0), (6, 30), (7, 60)]:
        # A game on a deck given in full (the tiles of a shuffled one), so that another
        # can be set up on the same deck with the undrawn tiles in another order.
        shuffled = Game(rules, seed=seed)
        first = shuffled.tile
        assert first is not None
        deck = [first] + shuffled.remaining_tiles
        game = Game(rules, deck=deck)
        rnd = random.Random(seed)
        played = []
        while not game.is_over and not (game.phase == "extra_turn" and game.turn >= after):
            action = rnd.choice(game.legal_actions())
            game.apply(action)
            played.append(action)
        if game.is_over:
            continue
        # The same game, the tiles still to come in reverse order.
        undrawn = game.remaining_tiles
        assert len(set(undrawn)) > 1
        drawn = deck[: len(deck) - len(undrawn)]
        other = Game(rules, deck=drawn + undrawn[::-1])
        for action in played:
            other.apply(action)
        assert other.phase == "extra_turn" and other.remaining_tiles != undrawn
        for viewer in range(rules.players):
            a = observer.observe(game, viewer=viewer)
            b = observer.observe(other, viewer=viewer)
            assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]), viewer
        compared += 1
    assert compared >= 2


@pytest.mark.parametrize("opponents", [None, "random", "greedy"])
def test_the_vector_environment_plays_through_extra_turns(opponents: str | None) -> None:
    rules = Rules(**ALL_CONFIGS["continental-towns-2p"])
    start, _ = extra_turn_block(rules)
    kwargs = {} if opponents is None else dict(opponents=opponents, agent_seat=1)
    env = VectorEnv(rules, 4, seed=3, threads=2, **kwargs)  # type: ignore[arg-type]
    observer = env.observation_space
    phase_len = observer.fields[0][1]
    obs, info = env.reset()
    rng = np.random.default_rng(3)
    offers = ended = 0
    for _ in range(900):
        mask = obs["action_mask"]
        for e in range(4):
            extra = mask[e, start:].any()
            if extra:
                assert list(np.flatnonzero(mask[e])) == [start, start + 1]
                offers += 1
            assert obs["vector"][e, phase_len - 1] == float(extra)
            if opponents is not None:
                assert info["to_play"][e] == 1
        keys = rng.random(mask.shape) * mask
        obs, rewards, terminated, truncated, info = env.step(keys.argmax(axis=1))
        assert not truncated.any()
        ended += int(terminated.sum())
    assert offers >= 10 and ended >= 4, (offers, ended)


@pytest.mark.parametrize("opponents", ["random", "greedy"])
def test_the_gymnasium_environments_play_through_extra_turns(opponents: str) -> None:
    rules = Rules(**ALL_CONFIGS["continental-towns-2p"])
    start, _ = extra_turn_block(rules)
    env = CarcassonneEnv(rules, opponents=opponents, agent_seat=0)
    rng = np.random.default_rng(2)
    offers = by_opponent = 0
    for episode in range(3):
        obs, _ = env.reset(seed=2 + episode)
        done = False
        mine = 0
        while not done:
            mask = obs["action_mask"]
            assert np.array_equal(mask.astype(bool), env.action_masks())
            if env.game.phase == "extra_turn":
                assert env.game.decider == 0
                assert list(np.flatnonzero(mask)) == [start, start + 1]
                mine += 1
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            assert "illegal_action" not in info and not truncated
            done = terminated
        assert env.game.is_over
        # The opponent's extra turns were decided inside the steps, by its policy.
        decided = [d for _, d in env.game.decisions if d.kind == "extra_turn"]
        assert len(decided) >= mine
        offers += mine
        by_opponent += len(decided) - mine
    assert offers >= 3 and by_opponent >= 1, (offers, by_opponent)

    venv = CarcassonneVectorEnv(rules, 3, opponents=opponents, agent_seat=1, threads=1)
    venv.reset(seed=4)
    seen = ended = 0
    for _ in range(600):
        masks = venv.action_masks()
        seen += int(masks[:, start:].any(axis=1).sum())
        keys = rng.random(masks.shape) * masks
        _, _, ends, _, _ = venv.step(keys.argmax(axis=1))
        ended += int(ends.sum())
    assert seen >= 3 and ended >= 3, (seen, ended)


def test_the_pettingzoo_environment_plays_through_extra_turns() -> None:
    rules = Rules(**ALL_CONFIGS["continental-towns-2p"])
    start, _ = extra_turn_block(rules)
    aec = CarcassonneAEC(rules)
    aec.reset(seed=9)
    rng = np.random.default_rng(9)
    offers = 0
    for agent in aec.agent_iter():
        obs, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            aec.step(None)
            continue
        mask = obs["action_mask"]
        if aec.game.phase == "extra_turn":
            # The player who covered the small town decides, alone.
            assert agent == aec.possible_agents[aec.game.decider]
            assert list(np.flatnonzero(mask)) == [start, start + 1]
            phase = field(aec.observer, obs["observation"]["vector"], "phase")
            assert list(phase) == [0, 0, 0, 0, 0, 1]
            offers += 1
        aec.step(int(rng.choice(np.flatnonzero(mask))))
    assert aec.game.is_over and offers >= 3


def test_the_search_weighs_the_two_decisions() -> None:
    rules = Rules(**ALL_CONFIGS["continental-towns-2p"])
    search = PuctSearch(rules, simulations=32, batch=4, seed=1)
    start, _ = extra_turn_block(rules)
    size = search.action_space.size
    game = Game(rules, seed=1)
    rnd = random.Random(1)
    while game.phase != "extra_turn":
        game.apply(rnd.choice(game.legal_actions()))

    def favour_taking(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = np.ones((len(board), size), np.float32)
        p[:, start + 1] = 9.0
        return p, np.zeros((len(board), rules.players), np.float32)

    before = game.to_json()
    report = search.search(game, favour_taking)
    assert game.to_json() == before
    assert report.actions == [Decision.extra_turn(False), Decision.extra_turn(True)]
    assert report.priors[1] == pytest.approx(0.9)
    assert sum(report.visits) == 31
