"""The action model (``legal_actions``, ``apply``, ``Decision``, ``Phase``),
``determinize`` and per-seat players, over every configuration of ``tests/configs.py``.

- The action model against the per-phase API: the same lists (``legal_moves`` and the
  views' ``sea.legal_deliveries()``, ``friday.targets()``, ...), and applying an action
  gives the same game as the per-phase method (``play``, and the deprecated ``deliver``,
  ``take_market_ship``, ... while they last), in every rule system; actions of the other
  phase and non-actions are refused, the game unchanged. The Maps extra turn has no
  per-phase method: its two decisions are checked as listed and applied with ``apply``.
- Determinization never changes what the player to move can see and keeps the multiset
  of what he cannot; it does reorder the hidden part.
- Per-seat lineups: each game of a study is the game played alone, whatever the threads;
  a Python function as a player sees a determinized copy; its failures name the game.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import carcassonne
from carcassonne import (
    Decision,
    Delivery,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    Phase,
    PlayerError,
    Rules,
    RulesError,
    simulate,
    simulate_summary,
)
from carcassonne.players import MCTS, Greedy, Random
from configs import ALL_CONFIGS, SOUTH_SEAS_CONFIGS
from observe import apply, apply_per_phase, as_action, random_action, snapshot

RULES = {name: Rules(**kwargs) for name, kwargs in ALL_CONFIGS.items()}


def per_phase_list(game: Game) -> list[Move | Decision]:
    """What the per-phase lists hold now, as actions in ``legal_actions`` order."""
    if game.is_over:
        return []
    if game.phase == "place":
        return list(game.legal_moves())
    if game.phase == "extra_turn":
        # Maps, small-town variant 1: declining, then taking; nothing in hand meanwhile.
        assert game.tile is None and game.legal_moves() == []
        return [Decision.extra_turn(False), Decision.extra_turn(True)]
    sea, friday = game.sea, game.friday
    assert sea is not None
    if game.phase == "deliver":
        return [
            Decision.deliver(None),
            *[Decision.deliver(d) for d in sea.legal_deliveries()],
            *[Decision.trade(*t) for t in (friday.legal_trades() if friday is not None else [])],
        ]
    if game.phase == "market":
        return [Decision.market_ship(s) for s in sea.market_ships()]
    assert friday is not None
    if game.phase == "move_friday":
        ids = [t for t, _ in game.rules.friday_tiles()]
        return [Decision.move_friday(ids.index(t)) for t in friday.targets()]
    if game.phase == "homecoming":
        return [Decision.take_home(*s) for s in friday.homecoming_choices()]
    raise AssertionError(game.phase)


@pytest.mark.parametrize("config", sorted(ALL_CONFIGS))
def test_actions_are_the_per_phase_api(config: str) -> None:
    rules = RULES[config]
    rnd = random.Random(config)
    decisions = 0
    extra_turns = 0
    for game_index in range(2):
        by_phase = Game(rules, seed=21, game_index=game_index)
        by_action = by_phase.clone()
        while not by_phase.is_over:
            listed = by_action.legal_actions()
            assert listed == per_phase_list(by_phase)
            assert isinstance(by_action.phase, Phase) and by_action.phase == by_phase.phase
            before = snapshot(by_action)
            if by_action.phase == Phase.PLACE:
                # A decision in the "place" phase is refused and changes nothing.
                with pytest.raises(IllegalMoveError):
                    by_action.apply(Decision.deliver(None))
            else:
                decisions += 1
                with pytest.raises(IllegalMoveError):
                    by_action.apply(Move(0, 0, 0))
            if by_action.phase == Phase.EXTRA_TURN:
                extra_turns += 1
                # Any other action names the pending decision.
                for other in (Move(0, 0, 0), Decision.deliver(None)):
                    with pytest.raises(IllegalMoveError, match="extra turn"):
                        by_action.apply(other)
            else:
                # An extra-turn decision when none is offered is refused.
                with pytest.raises(IllegalMoveError, match="no extra turn is offered"):
                    by_action.apply(Decision.extra_turn(True))
            assert snapshot(by_action) == before
            step = random_action(by_phase, rnd)
            action = as_action(by_phase, step)
            assert action in listed and by_action.is_legal(action)
            if step[0] == "extra_turn":
                by_phase.apply(action)
            else:
                apply_per_phase(by_phase, step)
            by_action.apply(action)
            assert by_action.to_json() == by_phase.to_json()
        assert by_action.phase == "over" and by_action.legal_actions() == []
    if config in SOUTH_SEAS_CONFIGS:
        assert decisions > 0
    if 1 in rules.small_towns:
        assert extra_turns > 0


def test_non_actions_are_refused() -> None:
    game = Game(Rules(), seed=1)
    before = snapshot(game)
    for bad in (None, 3, "move", (0, 0, 0), Delivery(0, (0, 0, 0))):
        with pytest.raises(IllegalMoveError, match="an action is a Move or a Decision"):
            game.apply(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError):
            game.is_legal(bad)  # type: ignore[arg-type]
    assert snapshot(game) == before


def test_decision_values() -> None:
    d = Decision.deliver(Delivery(2, (1, 0, 3)))
    assert (d.kind, d.delivery, d.slot) == ("deliver", Delivery(2, (1, 0, 3)), None)
    assert repr(d) == "Decision.deliver(Delivery(2, (1, 0, 3)))"
    assert Decision.deliver().delivery is None and Decision.deliver() == Decision.deliver(None)
    assert Decision.market_ship(3).slot == 3 and Decision.market_ship(3).kind == "market_ship"
    assert Decision.move_friday(4).friday_tile == 4
    assert Decision.take_home(1, -2, 0).spot == (1, -2, 0)
    assert Decision.trade(0, 2).trade_wares == (0, 2)
    take, decline = Decision.extra_turn(True), Decision.extra_turn(False)
    assert (take.kind, take.take, decline.take, d.take) == ("extra_turn", True, False, None)
    assert (repr(take), repr(decline)) == ("Decision.extra_turn(True)", "Decision.extra_turn(False)")
    assert take != decline and take == Decision.extra_turn(True) and take.slot is None
    for x in (
        d,
        Decision.deliver(),
        Decision.market_ship(1),
        Decision.move_friday(2),
        Decision.take_home(1, 2, 3),
        Decision.trade(1, 0),
        take,
        decline,
    ):
        assert pickle.loads(pickle.dumps(x)) == x
        assert hash(x) == hash(pickle.loads(pickle.dumps(x)))
    with pytest.raises(IllegalMoveError):
        Decision.trade(0, 3)
    with pytest.raises(IllegalMoveError):
        Decision.market_ship(-1)
    with pytest.raises(IllegalMoveError):
        Decision.move_friday(2**70)


def test_phase_is_a_string_enum() -> None:
    game = Game(Rules(), seed=1)
    assert game.phase is Phase.PLACE and game.phase == "place" and str(game.phase) == "place"
    assert {p.value for p in Phase} == {"place", "deliver", "market", "move_friday", "homecoming", "extra_turn", "over"}
    assert Phase("extra_turn") is Phase.EXTRA_TURN


def visible(game: Game) -> tuple[Any, ...]:
    """What the player to move sees (the hidden orders left out, their sizes kept)."""
    sea, friday = game.sea, game.friday
    return (
        game.phase,
        game.decider,
        game.current_player,
        game.tile,
        list(game.scores),
        list(game.supply),
        sea and (sea.wares, [repr(s) for s in sea.display], len(sea.pile), sea.ships_taken),
        friday and (friday.revealed, friday.at),
        [repr(p) for p in game.board],
        list(game.discarded),
        list(game.moves),
        [repr(e) for e in game.events],
        len(game.remaining_tiles),
        game.legal_actions(),
    )


@pytest.mark.parametrize("config", sorted(ALL_CONFIGS))
def test_determinize_keeps_what_the_player_sees(config: str) -> None:
    rules = RULES[config]
    game = Game(rules, seed=4)
    rnd = random.Random(4)
    while not game.is_over and len(game.moves) < 20:
        apply(game, random_action(game, rnd))
    if game.is_over:
        pytest.skip("the game ended early")
    orders = set()
    for seed in range(12):
        copy = game.clone()
        copy.determinize(seed)
        assert visible(copy) == visible(game)
        if rules.deck_size == len(rules.full_deck()):
            assert Counter(copy.remaining_tiles) == Counter(game.remaining_tiles)
        if game.sea is not None:
            assert copy.sea is not None
            assert Counter(copy.sea.pile) == Counter(game.sea.pile)
        if game.friday is not None:
            assert copy.friday is not None
            assert Counter(copy.friday.order) == Counter(game.friday.order)
        orders.add(tuple(copy.remaining_tiles))
        # Seeded: the same seed gives the same copy.
        again = game.clone()
        again.determinize(seed)
        assert again.to_json() == copy.to_json()
    assert len(orders) > 6


def test_determinize_bad_seed() -> None:
    game = Game(Rules(), seed=1)
    before = snapshot(game)
    for bad in (-1, 2**64, "1"):
        with pytest.raises((RulesError, TypeError)):
            game.determinize(bad)  # type: ignore[arg-type]
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "config", ["base-2p", "all-sets-3p", "C2-4p", "south-seas-friday-2p", "south-seas-5p", "coastal-towns-3p"]
)
def test_per_seat_players_match_each_game_alone(config: str) -> None:
    rules = RULES[config]
    seats = [["greedy", Random(), Greedy()][s % 3] for s in range(rules.players)]
    study = simulate(rules, 8, seed=5, players=seats, threads=2)
    assert study.players == tuple(["greedy", "random", "greedy"][s % 3] for s in range(rules.players))
    one_thread = simulate(rules, 8, seed=5, players=seats, threads=1)
    assert (one_thread.scores == study.scores).all()
    for i in range(8):
        alone = simulate(rules, 1, seed=5, first_game=i, players=seats, threads=1)
        assert (alone.scores[0] == study.scores[i]).all()
        assert (alone.points_by_kind[0] == study.points_by_kind[i]).all()
    summary = simulate_summary(rules, 8, seed=5, players=seats)
    assert summary.totals == study.totals()


def test_one_player_for_every_seat_is_the_policy() -> None:
    rules = Rules(players=3)
    by_policy = simulate(rules, 30, seed=2, policy="greedy")
    for players in ("greedy", Greedy(), ["greedy"], [Greedy()] * 3):
        r = simulate(rules, 30, seed=2, players=players)
        assert (r.scores == by_policy.scores).all()
        assert r.players == ("greedy",) * 3 and r.policy == "greedy"


def test_a_python_player_sees_a_determinized_copy() -> None:
    rules = Rules()
    seen: list[tuple[str, ...]] = []

    def watcher(game: Game) -> Move | Decision:
        seen.append(tuple(game.remaining_tiles))
        return game.legal_actions()[0]

    simulate(rules, 1, seed=9, players=[watcher, "random"], threads=1)
    # The watcher moves first: at its first call the true game is the game as dealt.
    dealt = Game(rules, seed=9, game_index=0)
    assert Counter(seen[0]) == Counter(dealt.remaining_tiles)
    assert seen[0] != tuple(dealt.remaining_tiles)
    assert len(seen) > 20


def test_python_player_failures_name_the_game_and_the_fault() -> None:
    rules = Rules()

    def cheat(game: Game) -> Move:
        return Move(50, 50, 0)

    with pytest.raises(PlayerError, match=r"game 3, seat 1 \(python:.*cheat\): chose an illegal action \(place at \(50, 50\) turned 0\)"):
        simulate(rules, 2, seed=1, first_game=3, players=["random", cheat])

    def boom(game: Game) -> Move:
        raise ZeroDivisionError("no")

    with pytest.raises(PlayerError, match=r"game 0, seat 0 .*raised ZeroDivisionError: no") as info:
        simulate(rules, 2, seed=1, players=[boom, "random"])
    assert isinstance(info.value.__cause__, ZeroDivisionError)

    def wrong(game: Game) -> int:
        return 3

    with pytest.raises(PlayerError, match="returned int, not a Move or a Decision"):
        simulate(rules, 2, seed=1, players=[wrong, "random"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("players", "match"),
    [
        ("chess", "unknown player 'chess'"),
        (["random", "greedy", "random"], "3 players were given for a game of 2 seats"),
        ([], "players is empty"),
        ([3], "a player is a name"),
        (object(), "a player is a name"),
    ],
)
def test_bad_lineups_play_nothing(players: Any, match: str) -> None:
    with pytest.raises(PlayerError, match=match):
        simulate(Rules(), 5, players=players)


def test_bad_player_settings() -> None:
    with pytest.raises(PlayerError, match="playouts must be between 1"):
        MCTS(playouts=-5)
    with pytest.raises(PlayerError, match="playouts must be between 1"):
        MCTS(playouts=0)
    with pytest.raises(PlayerError, match="must be an integer"):
        MCTS(playouts=2.5)  # type: ignore[arg-type]
    with pytest.raises(PlayerError, match="exploration must be between"):
        MCTS(exploration=float("nan"))
    with pytest.raises(PlayerError, match="seconds must be"):
        MCTS(seconds=-1.0)
    with pytest.raises(PlayerError, match="cutoff must be between 0 and 1000"):
        MCTS(cutoff=-1)
    with pytest.raises(PlayerError, match="cutoff must be between 0 and 1000"):
        MCTS(cutoff=10**30)
    with pytest.raises(PlayerError, match="cutoff must be a whole number"):
        MCTS(cutoff=2.5)  # type: ignore[arg-type]
    # Settings changed behind the frozen dataclass's back are checked again by the engine.
    for cutoff, match in [(5000, "cut-off after 5000 tiles"), (-1, "cutoff must be a whole number")]:
        tampered = MCTS(playouts=10)
        object.__setattr__(tampered, "cutoff", cutoff)
        with pytest.raises(PlayerError, match=match):
            simulate(Rules(), 1, players=[tampered, "random"])
    with pytest.raises(PlayerError, match="not both"):
        simulate(Rules(), 5, policy="random", players="greedy")
    # A player's fault is not a rules fault; both are CarcassonneErrors (ValueErrors).
    assert not issubclass(PlayerError, RulesError) and issubclass(PlayerError, carcassonne.CarcassonneError)
    assert issubclass(PlayerError, ValueError)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.sampled_from(sorted(ALL_CONFIGS)))
def test_listed_actions_are_accepted_and_applied_through_apply(seed: int, config: str) -> None:
    game = Game(RULES[config], seed=seed)
    rnd = random.Random(seed)
    for _ in range(30):
        if game.is_over:
            break
        actions = game.legal_actions()
        assert all(game.is_legal(a) for a in actions)
        game.apply(actions[rnd.randrange(len(actions))])


def mid_game(config: str, moves: int = 16) -> Game:
    game = Game(RULES[config], seed=8)
    rnd = random.Random(8)
    while not game.is_over and len(game.moves) < moves:
        apply(game, random_action(game, rnd))
    return game


@pytest.mark.parametrize("config", ["base-2p", "C3-2p", "south-seas-friday-2p", "continental-2p"])
def test_mcts_search_is_seeded_and_blind_to_the_hidden_order(config: str) -> None:
    game = mid_game(config)
    search = MCTS(playouts=150)
    values = game.analyse(search, seed=3)
    assert [v.action for v in values] == game.legal_actions()
    assert sum(v.visits for v in values) == (150 if len(values) > 1 else 0)
    assert all(0.0 <= v.value <= 1.0 for v in values)
    again = game.analyse(search, seed=3)
    assert [(v.action, v.visits, v.value) for v in again] == [(v.action, v.visits, v.value) for v in values]
    # Another hidden order (the player cannot tell them apart): the same search.
    other = game.clone()
    other.determinize(77)
    assert other.remaining_tiles != game.remaining_tiles
    blind = other.analyse(search, seed=3)
    assert [(v.action, v.visits, v.value) for v in blind] == [(v.action, v.visits, v.value) for v in values]
    best = game.best_move(search, seed=3)
    assert best == game.best_move(search, seed=3) and game.is_legal(best)
    top = max(v.visits for v in values)
    assert best in [v.action for v in values if v.visits == top]


def test_best_move_with_any_player_and_bad_requests() -> None:
    game = mid_game("south-seas-2p")
    for player in ("random", "greedy", Greedy(), Random(), lambda g: g.legal_actions()[0]):
        assert game.is_legal(game.best_move(player, seed=1))  # type: ignore[arg-type]
    with pytest.raises(PlayerError, match="analyse searches with MCTS"):
        game.analyse("greedy")
    with pytest.raises(PlayerError, match="unknown player"):
        game.best_move("alphazero")
    over = Game(Rules(), seed=1)
    while not over.is_over:
        over.apply(over.legal_actions()[0])
    with pytest.raises(GameOverError):
        over.best_move("random")
    with pytest.raises(GameOverError):
        over.analyse()


def test_mcts_seats_and_names() -> None:
    r = simulate(Rules(), 2, seed=4, players=[MCTS(playouts=30, exploration=1.5), "mcts"], threads=2)
    assert r.players == ("mcts(playouts=30,c=1.5,cutoff=8)", "mcts(playouts=1000,c=0.1,cutoff=8)")
    assert MCTS(playouts=30, exploration=1.5).name == r.players[0]
    one = simulate(Rules(), 2, seed=4, players=[MCTS(playouts=30, exploration=1.5), "mcts"], threads=1)
    assert (one.scores == r.scores).all()


def test_cli_players_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    from carcassonne.cli import main

    assert main(["simulate", "--games", "4", "--players", "mcts", "greedy", "--playouts", "20"]) == 0
    out = capsys.readouterr().out
    assert "4 games, 2 players" in out and "players mcts(playouts=20,c=0.1,cutoff=8) | greedy" in out
    assert main(["simulate", "--games", "2", "--players", "mcts", "random", "--playouts", "10", "--cutoff", "none"]) == 0
    assert "players mcts(playouts=10,c=0.1) | random" in capsys.readouterr().out
    assert main(["simulate", "--games", "2", "--players", "mcts", "--cutoff", "soon"]) == 2
    assert "--cutoff must be a number of tiles or 'none'" in capsys.readouterr().err
    assert main(["simulate", "--games", "20", "--players", "greedy", "--seats", "3", "--json"]) == 0
    assert '"players": [\n    "greedy",\n    "greedy",\n    "greedy"\n  ]' in capsys.readouterr().out
    assert main(["simulate", "--games", "20", "--players", "3"]) == 0
    assert "20 games, 3 players" in capsys.readouterr().out
    assert main(["simulate", "--games", "2", "--players", "chess", "greedy"]) == 2
    assert "unknown player 'chess'" in capsys.readouterr().err
    assert main(["simulate", "--games", "2", "--players", "mcts", "--playouts", "-3"]) == 2
    assert "playouts must be between 1" in capsys.readouterr().err
    assert main(["simulate", "--games", "2", "--players", "3", "--seats", "3"]) == 2
