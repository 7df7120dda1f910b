"""The per-system views of a game (``game.sea``, ``game.friday``, ``game.ferries``) and the
deprecated ``Game`` members they replace, over games of every configuration of
``tests/configs.py`` (classic, The Ferries, Maps, South Seas, South Seas with Friday):

- a view is there exactly when the rules play its system, None otherwise;
- a view reads the game at each access: one kept across moves shows the current state;
- every deprecated member warns (a DeprecationWarning pointing at the caller's line and
  naming its replacement) and returns what the new spelling returns;
- the deprecated per-phase decision methods play as ``apply`` does (the same game record
  after every step) and refuse what it refuses, with the same message.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import carcassonne
from carcassonne import (
    Decision,
    Delivery,
    FerriesView,
    FridayView,
    Game,
    IllegalMoveError,
    Rules,
    SeaView,
)
from configs import ALL_CONFIGS, FERRIES_CONFIGS, SOUTH_SEAS_CONFIGS
from observe import PER_PHASE, apply, apply_per_phase, random_action, tied_ships

RULES = {name: Rules(**kwargs) for name, kwargs in ALL_CONFIGS.items()}

# (deprecated Game member, view, the member's name in the view); a member with "()" is a
# method, called without arguments.
MOVED = [
    ("wares", "sea", "wares"),
    ("ship_display", "sea", "display"),
    ("ship_pile", "sea", "pile"),
    ("ships_taken", "sea", "ships_taken"),
    ("boat_tokens_left", "sea", "boat_tokens_left"),
    ("sea_events", "sea", "events"),
    ("market_ships()", "sea", "market_ships()"),
    ("legal_deliveries()", "sea", "legal_deliveries()"),
    ("friday_revealed", "friday", "revealed"),
    ("friday_order", "friday", "order"),
    ("friday_at", "friday", "at"),
    ("friday_bonus", "friday", "bonus"),
    ("weeks_done", "friday", "weeks_done"),
    ("friday_targets()", "friday", "targets()"),
    ("homecoming_choices()", "friday", "homecoming_choices()"),
    ("legal_trades()", "friday", "legal_trades()"),
]


def read(obj: object, member: str) -> Any:
    """``obj.member``, or ``obj.member()`` for a name ending in "()"."""
    if member.endswith("()"):
        return getattr(obj, member[:-2])()
    return getattr(obj, member)


def comparable(value: Any) -> Any:
    """Ships and sea events have no ``==``: compared by their repr."""
    if isinstance(value, list) and value and isinstance(value[0], (carcassonne.Ship, carcassonne.SeaEvent)):
        return [repr(v) for v in value]
    return value


def deprecated(call: Callable[[], Any], replacement: str) -> Any:
    """``call()``, which must warn once, naming ``replacement``, from this file's line."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = call()
    assert len(caught) == 1, [str(w.message) for w in caught]
    (w,) = caught
    assert w.category is DeprecationWarning
    message = str(w.message)
    assert "is deprecated; use " + replacement in message, message
    assert w.filename == __file__, w.filename  # stacklevel: the caller's line
    return value


def check_views(game: Game) -> None:
    """The views are there exactly for the systems played, and every moved member
    warns and equals its new spelling."""
    rules = game.rules
    lakes = any(t.startswith("ferries/") for t in rules.full_deck())
    views = {"sea": game.sea, "friday": game.friday, "ferries": game.ferries}
    assert (views["sea"] is not None) == (rules.system == "south-seas")
    assert (views["friday"] is not None) == rules.friday
    assert (views["ferries"] is not None) == lakes
    assert views["sea"] is None or isinstance(views["sea"], SeaView)
    assert views["friday"] is None or isinstance(views["friday"], FridayView)
    assert views["ferries"] is None or isinstance(views["ferries"], FerriesView)
    for old, view, new in MOVED:
        value = deprecated(lambda old=old: read(game, old), f"Game.{view}.{new}")
        if views[view] is not None:
            assert comparable(value) == comparable(read(views[view], new)), (old, value)
    if game.tile is not None:
        for m in game.legal_moves()[:5]:
            value = deprecated(lambda m=m: game.movable_ferries(m.x, m.y, m.rotation), "Game.ferries.movable()")
            if views["ferries"] is not None:
                assert value == views["ferries"].movable(m.x, m.y, m.rotation), m
            else:
                assert value == [], (m, value)


@pytest.mark.parametrize("config", sorted(ALL_CONFIGS))
def test_views_equal_the_deprecated_members(config: str) -> None:
    rules = RULES[config]
    rnd = random.Random(config)
    for game_index in range(2):
        game = Game(rules, seed=5, game_index=game_index)
        check_views(game)
        steps = 0
        while not game.is_over:
            apply(game, random_action(game, rnd))
            steps += 1
            # Every decision phase, and every few placements.
            if game.phase != "place" or steps % 7 == 0:
                check_views(game)
        check_views(game)


@pytest.mark.parametrize("config", sorted({**SOUTH_SEAS_CONFIGS, **FERRIES_CONFIGS}))
def test_a_view_kept_across_moves_is_current(config: str) -> None:
    game = Game(RULES[config], seed=2)
    sea, friday, ferries = game.sea, game.friday, game.ferries
    rnd = random.Random(2)
    while not game.is_over:
        apply(game, random_action(game, rnd))
        fresh = (game.sea, game.friday, game.ferries)
        if sea is not None and fresh[0] is not None:
            assert (sea.wares, sea.pile, sea.ships_taken, repr(sea.events)) == (
                fresh[0].wares,
                fresh[0].pile,
                fresh[0].ships_taken,
                repr(fresh[0].events),
            )
        if friday is not None and fresh[1] is not None:
            assert (friday.revealed, friday.at, friday.weeks_done) == (
                fresh[1].revealed,
                fresh[1].at,
                fresh[1].weeks_done,
            )
        if ferries is not None and fresh[2] is not None:
            assert ferries.links == fresh[2].links
    # And the state did change under the kept views.
    if sea is not None:
        assert sea.ships_taken or sea.boat_tokens_left < 19
    if ferries is not None:
        assert ferries.links


def test_views_are_none_without_their_system_and_repr_names_the_game() -> None:
    classic = Game(Rules(), seed=1)
    assert (classic.sea, classic.friday, classic.ferries) == (None, None, None)
    south_seas = Game(Rules(tile_sets=("south-seas",)), seed=1)
    assert south_seas.sea is not None and south_seas.friday is None and south_seas.ferries is None
    friday = Game(Rules(tile_sets=("south-seas",), friday=True), seed=1)
    assert friday.sea is not None and friday.friday is not None and friday.ferries is None
    ferries = Game(Rules(tile_sets=("base", "ferries")), seed=1)
    assert ferries.sea is None and ferries.friday is None and ferries.ferries is not None
    assert repr(friday.sea) == f"SeaView({friday!r})"
    assert repr(friday.friday) == f"FridayView({friday!r})"
    assert repr(ferries.ferries) == f"FerriesView({ferries!r})"
    for name in ("SeaView", "FridayView", "FerriesView"):
        assert name in carcassonne.__all__


def play_both_ways(game: Game, rnd: random.Random) -> set[str]:
    """Plays ``game`` to the end on two copies, one decided with the deprecated per-phase
    methods, one with ``apply``, checking that their records agree after every step;
    returns the kinds of decision made."""
    old, new = game.clone(), game.clone()
    kinds: set[str] = set()
    while not old.is_over:
        step = random_action(old, rnd)
        kinds.add(step[0])
        apply_per_phase(old, step)
        apply(new, step)
        assert old.to_json() == new.to_json(), step
    return kinds


def test_deprecated_decisions_play_as_apply() -> None:
    kinds: set[str] = set()
    for config in sorted(SOUTH_SEAS_CONFIGS):
        for game_index in range(2):
            kinds |= play_both_ways(Game(RULES[config], seed=9, game_index=game_index), random.Random(game_index))
    # A market that asks its merchant is rare: the first game with tied ships that has one.
    rules = RULES["south-seas-5p"]
    for seed in range(200):
        game = Game(rules, seed=seed, ships=tied_ships(rules))
        if "market_ship" in play_both_ways(game, random.Random(seed)):
            kinds.add("market_ship")
            break
    assert kinds == {"play", *PER_PHASE}, kinds


def refusal(call: Callable[[], object]) -> str:
    with pytest.raises(IllegalMoveError) as info:
        call()
    return str(info.value)


def test_deprecated_decisions_refuse_as_apply() -> None:
    """In the "place" phase every decision is refused, the game unchanged, with the
    message ``apply`` gives; bad arguments are refused as the ``Decision`` constructors
    refuse them."""
    game = Game(Rules(tile_sets=("south-seas",), friday=True), seed=3)
    record = game.to_json()
    ids = [t for t, _ in game.rules.friday_tiles()]
    pairs: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        ("deliver", lambda: game.deliver(None), lambda: game.apply(Decision.deliver(None))),
        ("deliver", lambda: game.deliver(Delivery(0, (1, 0, 0))), lambda: game.apply(Decision.deliver(Delivery(0, (1, 0, 0))))),
        ("take_market_ship", lambda: game.take_market_ship(0), lambda: game.apply(Decision.market_ship(0))),
        ("move_friday", lambda: game.move_friday(ids[0]), lambda: game.apply(Decision.move_friday(0))),
        ("take_home", lambda: game.take_home(0, 0, 0), lambda: game.apply(Decision.take_home(0, 0, 0))),
        ("trade", lambda: game.trade(0, 1), lambda: game.apply(Decision.trade(0, 1))),
        ("take_market_ship", lambda: game.take_market_ship(-1), lambda: Decision.market_ship(-1)),
        ("take_home", lambda: game.take_home(2**40, 0, 0), lambda: Decision.take_home(2**40, 0, 0)),
        ("trade", lambda: game.trade(0, 3), lambda: Decision.trade(0, 3)),
    ]
    for name, old, new in pairs:
        with pytest.deprecated_call(match=rf"Game\.{name}\(\) is deprecated; use Game\.apply\(Decision\."):
            old_message = refusal(old)
        assert old_message == refusal(new), name
        assert game.to_json() == record, name
    # Only the deprecated spelling names Friday tiles by id; an unknown id is refused.
    with pytest.deprecated_call():
        assert "is not a Friday tile of these rules" in refusal(lambda: game.move_friday("Z"))
    assert game.to_json() == record


def test_deprecation_messages_name_the_replacements() -> None:
    """The exact text of each message (users search for it)."""
    sea = Game(Rules(tile_sets=("south-seas",), friday=True), seed=3)
    lake = Game(Rules(tile_sets=("base", "ferries")), seed=3)
    expected = {
        lambda: sea.wares: "Game.wares is deprecated; use Game.sea.wares",
        lambda: sea.ship_display: "Game.ship_display is deprecated; use Game.sea.display",
        lambda: sea.friday_at: "Game.friday_at is deprecated; use Game.friday.at",
        lambda: sea.friday_targets(): "Game.friday_targets() is deprecated; use Game.friday.targets()",
        lambda: lake.movable_ferries(1, 0, 0): "Game.movable_ferries() is deprecated; use Game.ferries.movable()",
        lambda: sea.deliver(None): "Game.deliver() is deprecated; use Game.apply(Decision.deliver(delivery))",
        lambda: sea.move_friday("A"): (
            "Game.move_friday() is deprecated; use Game.apply(Decision.move_friday(index)) with the"
            " tile's index in Rules.friday_tiles()"
        ),
    }
    for call, message in expected.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                call()
            except IllegalMoveError:
                pass  # a decision out of its phase: refused after the warning
        assert [str(w.message) for w in caught] == [message]
    # Under -W error (as this suite runs) the warning is raised, and nothing is done.
    record = sea.to_json()
    with pytest.raises(DeprecationWarning):
        sea.deliver(None)
    assert sea.to_json() == record
