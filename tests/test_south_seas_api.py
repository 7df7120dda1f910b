"""South Seas and Friday from Python: labelled reconstructions, bad input refused with a
clear exception and the game unchanged, and the decision phases reachable in random play.

The rules themselves are checked position by position in
``rust/carcassonne-core/tests/south_seas_rules.rs`` and ``friday_rules.rs``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from carcassonne import (
    WARES,
    Decision,
    Delivery,
    Game,
    IllegalMoveError,
    Move,
    Rules,
    RulesError,
    TileDataError,
    simulate,
)
from observe import apply, random_action, snapshot

SOUTH_SEAS = Rules(players=2, tile_sets=("south-seas",))
FRIDAY = Rules(players=3, tile_sets=("south-seas",), friday=True)


def play_until(game: Game, rnd: random.Random, done: Callable[[Game], bool], limit: int = 5000) -> bool:
    """Random decisions until ``done(game)``; False if the game ended first."""
    for _ in range(limit):
        if done(game):
            return True
        if game.is_over:
            return False
        apply(game, random_action(game, rnd))
    return done(game)


def refused(game: Game, action: Callable[[], object], *words: str) -> None:
    """``action`` raises IllegalMoveError naming ``words`` and changes nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalMoveError) as info:
        action()
    for w in words:
        assert w in str(info.value), str(info.value)
    assert snapshot(game) == before


# ----- data: labelled reconstructions ----------------------------------------------------------


def test_reconstructed_data_is_labelled() -> None:
    assert SOUTH_SEAS.system == "south-seas" and SOUTH_SEAS.meeples == 4
    labels = dict(SOUTH_SEAS.reconstructions())
    # The tile set and the ship set share a name; the labels say which file is which.
    assert list(labels) == ["south-seas (tiles)", "south-seas (ships)"]
    assert all("reconstruct" in text for text in labels.values())
    assert len(SOUTH_SEAS.reconstructions()) == 2
    assert [s.points for s in SOUTH_SEAS.ships if s.known] == [5, 5, 3, 3]
    assert len(SOUTH_SEAS.ships) == 24 and SOUTH_SEAS.deck_size == 72
    friday = dict(FRIDAY.reconstructions())
    assert "friday (Friday tiles)" in friday and "reconstruct" in friday["friday (Friday tiles)"]
    assert [t for t, _ in FRIDAY.friday_tiles()] == ["A", "B", "C", "D", "E", "F"]
    assert Rules().reconstructions() == []
    assert list(WARES) == ["shell", "banana", "fish"]


def test_south_seas_rules_round_trip() -> None:
    for rules in (SOUTH_SEAS, FRIDAY):
        assert Rules.from_json(rules.to_json()) == rules
        assert eval(repr(rules), {"Rules": Rules}) == rules


# ----- bad configurations ----------------------------------------------------------------------


def test_bad_south_seas_configurations(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="Friday is an expansion of South Seas"):
        Rules(friday=True)
    with pytest.raises(RulesError, match="classic and south-seas"):
        Rules(tile_sets=("base", "south-seas"))
    with pytest.raises(RulesError, match="2 to 5 players"):
        Rules(players=6, tile_sets=("south-seas",))
    ships = tmp_path / "ships.toml"
    ships.write_text('name = "mine"\n[[ships]]\nid = "x"\npoints = 3\nneeds = "2 rum"\n')
    with pytest.raises(TileDataError) as info:
        Rules(tile_sets=("south-seas",), ships=ships)
    assert str(ships) in str(info.value) and 'ship "x"' in str(info.value) and "rum" in str(info.value)
    friday = tmp_path / "friday.toml"
    friday.write_text('name = "f"\n[[tiles]]\nid = "A"\nbonus = "wares"\nware = "banana"\n')
    with pytest.raises(TileDataError, match="6 tiles"):
        Rules(tile_sets=("south-seas",), friday=True, friday_tiles=friday)
    ids = [s.id for s in SOUTH_SEAS.ships]
    with pytest.raises(RulesError, match="listed twice"):
        Game(SOUTH_SEAS, ships=[ids[0], *ids[:-1]])
    with pytest.raises(RulesError, match="every ship once"):
        Game(SOUTH_SEAS, ships=ids[:5])
    with pytest.raises(RulesError, match="ships="):
        Game(Rules(), ships=ids)
    with pytest.raises(RulesError, match="friday="):
        Game(SOUTH_SEAS, friday=["A", "B", "C", "D", "E", "F"])


# ----- bad moves and decisions -------------------------------------------------------------------


def test_retrieving_an_islander_the_player_does_not_have() -> None:
    game = Game(SOUTH_SEAS, seed=3)
    mv = game.legal_moves()[0]
    bogus = Move(mv.x, mv.y, mv.rotation, retrieve=(0, 0, 0))
    refused(game, lambda: game.play(bogus), "no islander of the current player", "(0, 0)")
    classic = Game(Rules(), seed=3)
    cmv = classic.legal_moves()[0]
    refused(classic, lambda: classic.play(Move(cmv.x, cmv.y, cmv.rotation, retrieve=(0, 0, 0))), "South Seas")


def test_bad_deliveries_are_refused_and_change_nothing() -> None:
    rnd = random.Random(5)
    first = Game(SOUTH_SEAS, seed=5)
    refused(first, lambda: first.apply(Decision.deliver(None)), "place the drawn tile")
    for seed in range(50):
        game = Game(SOUTH_SEAS, seed=seed)
        if play_until(game, rnd, lambda g: g.phase == "deliver"):
            break
    else:
        pytest.fail("no random game reached a delivery")
    sea = game.sea
    assert sea is not None
    have = sea.wares[game.decider]
    legal = sea.legal_deliveries()
    assert legal and all(isinstance(d, Delivery) for d in legal)
    slots = len(sea.display)
    refused(game, lambda: game.apply(Decision.deliver(Delivery(slots, legal[0].wares))), f"no ship in display slot {slots}")
    too_many = (have[0] + 1, have[1], have[2])
    refused(game, lambda: game.apply(Decision.deliver(Delivery(0, too_many))), "more wares than the player holds")
    refused(game, lambda: game.play(Move(0, 0)), "delivery")
    # A listed delivery is taken: the ship moves to the player, the wares go.
    d = legal[0]
    ship = sea.display[d.ship]
    player = game.current_player
    game.apply(Decision.deliver(d))
    assert sea.ships_taken[-1] == (player, ship.id)
    assert sea.wares[player] == tuple(h - w for h, w in zip(have, d.wares, strict=True))


def test_friday_may_not_stay_on_his_tile() -> None:
    rnd = random.Random(11)
    for seed in range(20):
        game = Game(FRIDAY, seed=seed)
        if play_until(game, rnd, lambda g: g.phase == "move_friday"):
            break
    else:
        pytest.fail("no game reached a Friday move")
    friday = game.friday
    assert friday is not None
    ids = [tile for tile, _bonus in FRIDAY.friday_tiles()]
    at = friday.at
    assert at is not None and friday.weeks_done >= 7 and len(friday.revealed) == 6
    assert at not in friday.targets() and len(friday.targets()) == 5
    refused(game, lambda: game.apply(Decision.move_friday(ids.index(at))), "already stands")
    refused(game, lambda: game.apply(Decision.move_friday(len(ids))), "not a revealed Friday tile")
    with pytest.deprecated_call():  # only the deprecated spelling names Friday tiles by id
        refused(game, lambda: game.move_friday("Z"), "not a Friday tile")
    refused(game, lambda: game.play(Move(0, 0)), "Friday")
    target = friday.targets()[0]
    game.apply(Decision.move_friday(ids.index(target)))
    assert friday.at == target


def test_every_decision_phase_occurs_and_records_replay() -> None:
    rnd = random.Random(2)
    seen: set[str] = set()
    for seed in range(40):
        game = Game(FRIDAY, seed=seed)
        while not game.is_over:
            seen.add(game.phase)
            if game.phase == "market":
                assert game.sea is not None
                assert game.decider != game.current_player or len(game.sea.market_ships()) > 1
            apply(game, random_action(game, rnd))
        back = Game.from_json(game.to_json())
        assert back.sea is not None and back.friday is not None
        assert game.sea is not None and game.friday is not None
        assert (back.scores, back.sea.wares, back.sea.ships_taken, back.friday.revealed) == (
            game.scores,
            game.sea.wares,
            game.sea.ships_taken,
            game.friday.revealed,
        )
    assert {"place", "deliver", "move_friday"} <= seen


# ----- simulate -------------------------------------------------------------------------------


def test_simulate_south_seas_columns() -> None:
    for rules in (SOUTH_SEAS, FRIDAY):
        one = simulate(rules, games=300, seed=4, threads=1)
        two = simulate(rules, games=300, seed=4, threads=2)
        for col in ("scores", "winners", "turns", "ships", "wares_left", "points_by_kind"):
            np.testing.assert_array_equal(getattr(one, col), getattr(two, col), err_msg=col)
        players = rules.players
        assert one.ships.shape == one.wares_left.shape == (300, players)
        # Score = ship points + 1 per 3 wares left; ships are conserved.
        kinds = list(one.score_kinds)
        np.testing.assert_array_equal(
            one.points_by_kind[:, :, kinds.index("wares")], one.wares_left // 3
        )
        np.testing.assert_array_equal(one.points_by_kind.sum(axis=2), one.scores)
        assert (one.ships.sum(axis=1) <= len(rules.ships)).all()
