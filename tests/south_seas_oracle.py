"""The South Seas invariants (with and without Friday), checked over random games.

Games of the ``SOUTH_SEAS_CONFIGS`` (2 to 5 players, the S-3/S-4 options, with and without
the Friday expansion) are drawn with Hypothesis (configuration, deck seed and the seed of
the choices) and played to the end with ``random_action``; after every decision:

* wares are never negative and change exactly as the new ``sea.events`` say (wares events
  add to their players, ship events subtract the paid wares), plus Friday's effects: a
  trade (one ware -1, another +1) and the arrival on a wares tile (every player +1);
* the event log only grows, the new events carry the current turn, ship events match the
  new ``ships_taken`` entries and the decision that took the ship;
* islanders are conserved (supply + islanders on the board == ``rules.meeples``);
* boat tokens: 19 at the start, never more, never below 0, one "boat" event per token;
* ships are conserved (display + pile + taken == every ship once, at most 4 face up, the
  display full while the pile lasts); scores are the points of the ships taken while the
  game runs, plus 1 per 3 wares at the end (``points_by_kind`` "ships" and "wares");
* the phase decides which decision lists are non-empty;
* Friday: ``weeks_done`` never exceeds 10 nor jumps, the revealed tiles follow
  ``friday.order`` (``min(weeks_done, 6)`` of them), Friday moves after every
  ``move_friday`` and only in weeks 7-10.

Further: listed moves and decisions are accepted, near ones that are not listed are
refused and change nothing; clones and JSON records taken mid-game keep everything and
continue identically; the same seeds give the same game.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from carcassonne import (
    WARES,
    Decision,
    Delivery,
    Game,
    Move,
    Rules,
)
from hooks import Choice, Oracle, Probe
from observe import Action, board_meeples

BOAT_TOKENS = 19
MAX_WEEKS = 10
FRIDAY_TILES = 6
DISPLAY = 4
PHASES = ("place", "market", "deliver", "move_friday", "homecoming", "over")
LOGGED_DECISIONS = ("friday", "homecoming", "trade")  # sea events of builds that log them


Wares = tuple[int, int, int]



def arrival_wares(rules: Rules) -> dict[str, int]:
    """Friday tiles whose arrival gives every player one ware: tile id -> ware index."""
    out: dict[str, int] = {}
    for tile, text in rules.friday_tiles():
        m = re.fullmatch(r"wares: every player takes 1 (\w+)", text)
        if m:
            out[tile] = list(WARES).index(m.group(1))
    return out


def ship_points(rules: Rules) -> dict[str, int]:
    return {s.id: s.points for s in rules.ships}


def add(a: Wares, b: Wares, sign: int = 1) -> Wares:
    return (a[0] + sign * b[0], a[1] + sign * b[1], a[2] + sign * b[2])


def islanders(game: Game, player: int) -> list[tuple[int, int, int]]:
    return [(p.x, p.y, p.meeple[1]) for p in game.board if p.meeple is not None and p.meeple[0] == player]


# Friday through ``game.friday``, which is None without Friday: then nothing is revealed,
# Friday stands nowhere, no week has ended and nothing is open, as the checks expect.


def friday_at(game: Game) -> str | None:
    return game.friday.at if game.friday is not None else None


def friday_bonus(game: Game) -> str | None:
    return game.friday.bonus if game.friday is not None else None


def friday_revealed(game: Game) -> list[str]:
    return game.friday.revealed if game.friday is not None else []


def weeks_done(game: Game) -> int:
    return game.friday.weeks_done if game.friday is not None else 0


def friday_targets(game: Game) -> list[str]:
    return game.friday.targets() if game.friday is not None else []


def homecoming_choices(game: Game) -> list[tuple[int, int, int]]:
    return game.friday.homecoming_choices() if game.friday is not None else []


def legal_trades(game: Game) -> list[tuple[int, int]]:
    return game.friday.legal_trades() if game.friday is not None else []


def move_friday(tile: str, rules: Rules) -> Decision:
    """Friday's move to the tile with this id (a Decision names it by index)."""
    return Decision.move_friday([t for t, _bonus in rules.friday_tiles()].index(tile))


# ----- the state a decision is checked against -----------------------------------------------


@dataclass
class Before:
    phase: str
    decider: int
    player: int
    turn: int
    wares: list[Wares]
    events: list[str]
    boats: int
    ships_taken: list[tuple[int, str]]
    display: list[str]
    weeks: int
    friday_at: str | None
    revealed: list[str]
    traded: bool  # a trade was made in this delivery step already

    @staticmethod
    def of(game: Game, traded: bool) -> Before:
        return Before(
            game.phase,
            game.decider,
            game.current_player,
            game.turn,
            list(game.sea.wares),
            [repr(e) for e in game.sea.events],
            game.sea.boat_tokens_left,
            list(game.sea.ships_taken),
            [s.id for s in game.sea.display],
            weeks_done(game),
            friday_at(game),
            list(friday_revealed(game)),
            traded,
        )


def check_state(game: Game, traded: bool) -> None:
    """What holds in every state of a game, whatever led to it."""
    rules = game.rules
    players = rules.players
    assert game.phase in PHASES, game.phase
    # "over" exactly when the game has ended.
    assert (game.phase == "over") == game.is_over, (game.phase, game.is_over)
    # Wares.
    wares = game.sea.wares
    assert len(wares) == players
    assert all(n >= 0 for w in wares for n in w), wares
    # Islanders.
    on_board = board_meeples(game)
    for p in range(players):
        assert game.supply[p] >= 0
        assert game.supply[p] + on_board[p] == rules.meeples, (p, list(game.supply), on_board)
    # Boat tokens.
    events = game.sea.events
    assert 0 <= game.sea.boat_tokens_left <= BOAT_TOKENS
    boats = [e for e in events if e.kind == "boat"]
    assert len(boats) == BOAT_TOKENS - game.sea.boat_tokens_left
    assert all(e.fish in (1, 2) and e.square is not None for e in boats), boats
    # Ships.
    ids = [s.id for s in rules.ships]
    display = [s.id for s in game.sea.display]
    taken = game.sea.ships_taken
    assert len(display) <= DISPLAY
    assert sorted(display + game.sea.pile + [sid for _p, sid in taken]) == sorted(ids)
    assert len(set(ids)) == len(ids)
    if game.sea.pile:
        assert len(display) == DISPLAY, (display, game.sea.pile)
    ship_events = [e for e in events if e.kind == "ship"]
    assert [(e.players[0], e.ship) for e in ship_events] == taken
    points = ship_points(rules)
    assert all(e.points == points[e.ship] for e in ship_events if e.ship is not None)
    per_player = [0] * players
    for p, sid in taken:
        assert 0 <= p < players
        per_player[p] += points[sid]
    by_kind = game.points_by_kind
    assert by_kind["ships"] == per_player, (by_kind, taken)
    wares_points = [sum(w) // 3 for w in wares] if game.is_over else [0] * players
    assert by_kind["wares"] == wares_points, (by_kind, wares)
    for kind, pts in by_kind.items():
        if kind not in ("ships", "wares"):
            assert pts == [0] * players, (kind, pts)
    assert list(game.scores) == [s + w for s, w in zip(per_player, wares_points, strict=True)]
    # The phase decides which lists are non-empty.
    moves = game.legal_moves()
    deliveries = game.sea.legal_deliveries()
    trades = legal_trades(game)
    lists: dict[str, Sequence[Any]] = {
        "market": game.sea.market_ships(),
        "move_friday": friday_targets(game),
        "homecoming": homecoming_choices(game),
    }
    phase = game.phase
    if phase not in ("market", "homecoming"):
        assert game.decider == game.current_player
    if game.is_over:
        # The end: the last tile placed or the last ship taken.
        assert not game.remaining_tiles or not (display or game.sea.pile), game.remaining_tiles
        assert phase == "over" and not moves and game.tile is None
        assert not deliveries and not trades and not any(lists.values())
    elif phase == "place":
        assert moves and not deliveries and not trades and not any(lists.values())
    else:
        assert not moves, phase
        for name, items in lists.items():
            assert bool(items) == (phase == name), (phase, name, items)
        if phase == "deliver":
            # Nothing may be listed only after this step's trade: not delivering is left.
            assert deliveries or trades or traded, "a delivery step with nothing to decide"
        else:
            assert not deliveries and not trades, phase
    have = wares[game.current_player]
    for d in deliveries:
        assert 0 <= d.ship < len(display) and all(0 <= w <= h for w, h in zip(d.wares, have)), (d, have)
        assert sum(d.wares) > 0, d
    for give, take in trades:
        assert give != take and have[give] >= 1, (give, take, have)
    if trades:
        assert (friday_bonus(game) or "").startswith("trading"), friday_bonus(game)
    if phase == "market":
        shown = game.sea.display
        best = max(s.points for s in shown)
        assert list(lists["market"]) == [i for i, s in enumerate(shown) if s.points == best]
        assert len(lists["market"]) > 1, "a market choice between fewer than two ships"
    if phase == "homecoming":
        own = set(islanders(game, game.decider))
        assert set(lists["homecoming"]) <= own and lists["homecoming"], (lists["homecoming"], own)
    # Friday.
    weeks = weeks_done(game)
    revealed = friday_revealed(game)
    if rules.friday:
        assert game.friday is not None
        order = game.friday.order
        assert sorted(order) == sorted(t for t, _ in rules.friday_tiles()) and len(order) == FRIDAY_TILES
        assert 0 <= weeks <= MAX_WEEKS
        assert revealed == order[: min(weeks, FRIDAY_TILES)], (revealed, order, weeks)
        if weeks == 0:
            assert friday_at(game) is None and friday_bonus(game) is None
        else:
            assert friday_at(game) in revealed
            assert friday_bonus(game) == dict(rules.friday_tiles())[friday_at(game)]
        if phase == "move_friday":
            assert weeks > FRIDAY_TILES
            assert set(lists["move_friday"]) == set(revealed) - {friday_at(game)}
    else:
        assert game.friday is None


def check_step(before: Before, action: Action, game: Game) -> None:
    """The change one decision made: wares, events, ships, boats, Friday."""
    rules = game.rules
    players = rules.players
    name, args = action
    assert before.phase == {
        "play": "place",
        "market_ship": "market",
        "deliver": "deliver",
        "trade": "deliver",
        "move_friday": "move_friday",
        "take_home": "homecoming",
    }[name], (before.phase, action)
    events = game.sea.events
    n = len(before.events)
    assert [repr(e) for e in events[:n]] == before.events, "the event log was rewritten"
    new = events[n:]
    for e in new:
        assert e.kind in ("wares", "boat", "ship", *LOGGED_DECISIONS), e
        assert e.turn == game.turn, (e, game.turn)
        if e.kind == "wares":
            if e.final_scoring:
                assert game.is_over, e
            else:
                assert name == "play", (action, e)
        if e.kind == "boat":
            assert name == "play", (action, e)
    # Wares: exactly what the new events, the trade and Friday's arrival explain.
    expected = list(before.wares)
    for e in new:
        if e.kind == "wares":
            assert e.wares is not None and min(e.wares) >= 0, e  # (0, 0, 0): nothing on it
            assert e.players and len(set(e.players)) == len(e.players), e
            for p in e.players:
                expected[p] = add(expected[p], e.wares)
        elif e.kind == "ship" and e.wares is not None:
            expected[e.players[0]] = add(expected[e.players[0]], e.wares, -1)
    if name == "trade":
        give, take = args
        delta = [0, 0, 0]
        delta[give] -= 1
        delta[take] += 1
        expected[before.player] = add(expected[before.player], (delta[0], delta[1], delta[2]))
    at = friday_at(game)
    bonus = arrival_wares(rules)
    if at != before.friday_at and at in bonus:
        gift = [0, 0, 0]
        gift[bonus[at]] = 1
        for p in range(players):
            expected[p] = add(expected[p], (gift[0], gift[1], gift[2]))
    assert game.sea.wares == expected, (action, before.wares, game.sea.wares, new)
    check_logged_decisions(before, action, game, new)
    # Boats never come back.
    new_boats = [e for e in new if e.kind == "boat"]
    assert game.sea.boat_tokens_left == before.boats - len(new_boats)
    # Ships: the new entries of ships_taken are the new ship events, taken as decided.
    ship_events = [e for e in new if e.kind == "ship"]
    assert game.sea.ships_taken[: len(before.ships_taken)] == before.ships_taken
    assert game.sea.ships_taken[len(before.ships_taken) :] == [(e.players[0], e.ship) for e in ship_events]
    if name == "deliver":
        (d,) = args
        if d is None:
            assert not ship_events, ship_events
        else:
            assert len(ship_events) == 1, ship_events
            (e,) = ship_events
            assert (list(e.players), e.ship, e.wares) == ([before.player], before.display[d.ship], d.wares), (d, e)
    elif name == "market_ship":
        (slot,) = args
        assert len(ship_events) == 1, ship_events
        (e,) = ship_events
        assert (list(e.players), e.ship, e.wares) == ([before.decider], before.display[slot], None), (slot, e)
    elif name == "play":
        assert all(e.wares is None for e in ship_events), ship_events  # markets only
    else:
        assert not ship_events, (action, ship_events)
    # Friday: weeks never jump, a reveal in weeks 1-6, a move in weeks 7-10.
    weeks = weeks_done(game)
    assert before.weeks <= weeks <= before.weeks + 1, (before.weeks, weeks)
    if name == "move_friday":
        (target,) = args
        assert at == target and at != before.friday_at
        assert weeks == before.weeks
    elif weeks == before.weeks:
        assert at == before.friday_at, (action, before.friday_at, at)
    if weeks > before.weeks:
        if weeks <= FRIDAY_TILES:
            assert friday_revealed(game) == [*before.revealed, at], (before.revealed, friday_revealed(game))
        else:
            assert friday_revealed(game) == before.revealed
            assert at == before.friday_at
            assert game.phase == "move_friday" or game.is_over, game.phase
    if name == "take_home":
        x, y, f = args
        assert (x, y, f) not in islanders(game, before.decider)
        assert all(e.kind == "homecoming" for e in new), new


def check_logged_decisions(before: Before, action: Action, game: Game, new: list[Any]) -> None:
    """Builds that also log Friday's arrivals, homecomings and trades as sea events: those
    entries agree with the decision and with the views (the wares bookkeeping above does
    not count them, it follows ``friday_at`` and the trade itself)."""
    name, args = action
    at = friday_at(game)
    for e in new:
        if e.kind == "friday":
            assert at != before.friday_at and getattr(e, "friday_tile", at) == at, (e, at)
            mover = [before.player] if name == "move_friday" else []
            assert list(e.players) == mover, (e, action)
            gift = [0, 0, 0]
            bonus = arrival_wares(game.rules)
            if at in bonus:
                gift[bonus[at]] = 1
            assert e.wares == (gift[0], gift[1], gift[2]), (e, at)
        elif e.kind == "trade":
            assert name == "trade" and list(e.players) == [before.player], (e, action)
            assert tuple(getattr(e, "trade", args)) == tuple(args), (e, action)
        elif e.kind == "homecoming":
            assert name == "take_home" and list(e.players) == [before.decider], (e, action)
            assert e.square == tuple(args[:2]), (e, action)


def near_moves(game: Game, legal: list[Move], rnd: random.Random) -> list[Move]:
    """Moves like listed ones that must not be listed: retrieving an islander the player
    does not have there, an islander on a feature the tile lacks."""
    rules = game.rules
    tile = game.tile
    assert tile is not None
    player = game.current_player
    own = set(islanders(game, player))
    out = []
    for m in rnd.sample(legal, min(len(legal), 3)):
        n_features = len(rules.tile_features(tile, m.rotation))
        out.append(Move(m.x, m.y, m.rotation, meeple=n_features))
        out.append(Move(m.x, m.y, m.rotation, meeple=n_features + 3))
        placed = rnd.choice(game.board)
        f = placed.meeple[1] if placed.meeple is not None else 0
        spot = (placed.x, placed.y, f)
        if spot not in own:
            out.append(Move(m.x, m.y, m.rotation, retrieve=spot))
        for x, y, g in own:
            out.append(Move(m.x, m.y, m.rotation, retrieve=(x, y, g + 1)))
        out.append(Move(m.x, m.y, m.rotation, retrieve=(m.x, m.y, 0)))  # the square is empty yet
    return out



# ----- the hooks of the shared harness --------------------------------------------------------


class SouthSeasOracle(Oracle):
    """Every decision of a South Seas game: ``check_step`` for the change it made,
    ``check_state`` for the state it led to."""

    def __init__(self) -> None:
        self.traded = False  # a trade was made in this delivery step already
        self.seen: set[str] = set()

    def start(self, game: Game) -> None:
        rules = game.rules
        assert rules.meeples == 4 and len(rules.ships) == 24
        if rules.friday:
            assert len(arrival_wares(rules)) == 3
        assert game.sea.boat_tokens_left == BOAT_TOKENS and game.sea.events == []
        assert game.sea.wares == [(0, 0, 0)] * rules.players and game.sea.ships_taken == []
        check_state(game, self.traded)

    def before(self, game: Game, action: Action) -> None:
        self.seen.add(game.phase)
        self.state = Before.of(game, self.traded)

    def after(self, game: Game, action: Action) -> None:
        self.traded = action[0] == "trade" or (self.traded and game.phase == "deliver")
        check_step(self.state, action, game)
        check_state(game, self.traded)

    def end(self, game: Game) -> None:
        if game.rules.friday:
            assert "move_friday" in self.seen or weeks_done(game) <= FRIDAY_TILES


class SouthSeasProbe(Probe):
    """Every decision step and a quarter of the placements: listed decisions of the phase
    played on clones (ten moves, ten deliveries, all the rest) and checked by what they
    take; unlisted ones of the phase (``near_moves``, impossible deliveries, trades, ships,
    Friday tiles, islanders) and every decision of another phase refused."""

    def __init__(self, game: Game, rnd: random.Random) -> None:
        self.phases: set[str] = set()
        self.now = False

    def listed(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[Choice]:
        phase = game.phase
        self.now = phase != "place" or rnd.random() < 0.25
        if not self.now:
            return []
        self.phases.add(phase)
        if phase == "place":
            return rnd.sample(legal, min(len(legal), 10))
        if phase == "deliver":
            deliveries = game.sea.legal_deliveries()
            out: list[Choice] = [Decision.deliver(d) for d in rnd.sample(deliveries, min(len(deliveries), 10))]
            return [*out, Decision.deliver(None), *(Decision.trade(*t) for t in legal_trades(game))]
        if phase == "market":
            return [Decision.market_ship(s) for s in game.sea.market_ships()]
        if phase == "move_friday":
            return [move_friday(target, game.rules) for target in friday_targets(game)]
        assert phase == "homecoming", phase
        return [Decision.take_home(*spot) for spot in homecoming_choices(game)]

    def accepted(self, game: Game, clone: Game, action: Choice) -> None:
        if isinstance(action, Move):
            return
        if action.kind == "deliver":
            d = action.delivery
            if d is None:
                assert clone.sea.ships_taken == game.sea.ships_taken
            else:
                assert clone.sea.ships_taken[-1] == (game.current_player, game.sea.display[d.ship].id)
        elif action.kind == "market_ship":
            slot = action.slot
            assert slot is not None
            assert clone.sea.ships_taken[-1] == (game.decider, game.sea.display[slot].id)
        elif action.kind == "move_friday":
            index = action.friday_tile
            assert index is not None
            assert friday_at(clone) == game.rules.friday_tiles()[index][0]
        elif action.kind == "take_home":
            assert clone.supply[game.decider] == game.supply[game.decider] + 1

    def near(self, game: Game, legal: list[Choice], rnd: random.Random) -> list[tuple[str, Choice]]:
        if not self.now:
            return []
        phase = game.phase
        have = game.sea.wares[game.current_player]
        n_display = len(game.sea.display)
        out: list[tuple[str, Choice]] = []
        if phase == "place":
            listed = set(legal)
            for m in near_moves(game, [m for m in legal if isinstance(m, Move)], rnd):
                assert m not in listed, m
                out.append(("near a listed move", m))
            assert out, "no move near the listed ones"
            out += [
                ("not this phase", Decision.deliver(None)),
                ("not this phase", Decision.market_ship(0)),
                ("not this phase", Decision.take_home(0, 0, 0)),
                ("not this phase", Decision.trade(0, 1)),
            ]
            if game.rules.friday and friday_at(game) is not None:
                out.append(("not this phase", move_friday(friday_revealed(game)[0], game.rules)))
            return out
        out.append(("a move outside the place phase", Move(0, 0)))
        if phase == "deliver":
            deliveries = game.sea.legal_deliveries()
            wares = deliveries[0].wares if deliveries else (1, 1, 1)
            out.append(("no such ship", Decision.deliver(Delivery(n_display, wares))))
            for w in range(3):
                more = list(have)
                more[w] += 1
                out.append(("more wares than held", Decision.deliver(Delivery(0, (more[0], more[1], more[2])))))
            trades = legal_trades(game)
            for give in range(3):
                for take in range(3):
                    if (give, take) not in trades:
                        out.append(("unlisted trade", Decision.trade(give, take)))
            out.append(("not this phase", Decision.market_ship(0)))
        elif phase == "market":
            slots = game.sea.market_ships()
            out += [("unlisted ship", Decision.market_ship(s)) for s in range(n_display + 1) if s not in slots]
            out.append(("not this phase", Decision.deliver(None)))
        elif phase == "move_friday":
            at = friday_at(game)
            assert at is not None
            out.append(("where Friday is", move_friday(at, game.rules)))
            out.append(("no such Friday tile", Decision.move_friday(FRIDAY_TILES)))
            out.append(("not this phase", Decision.deliver(None)))
        elif phase == "homecoming":
            choices = homecoming_choices(game)
            others = [
                (p.x, p.y, p.meeple[1]) for p in game.board if p.meeple is not None and p.meeple[0] != game.decider
            ]
            out += [("not the decider's", Decision.take_home(*spot)) for spot in [*others[:2], (0, 0, 99)] if spot not in choices]
            out.append(("not this phase", Decision.deliver(None)))
        return out

    def end(self, game: Game) -> None:
        assert "place" in self.phases


def over_actions(game: Game) -> list[Choice]:
    """Decisions tried once a South Seas game is over."""
    return [game.moves[-1], Decision.deliver(None)]
