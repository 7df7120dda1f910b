"""The Ferries on hand-built positions, with every expected number worked out from the rules.

Rules: seed 004 (Czech Wikicarpedia "Přívozy"; only the captions of its example images are
known), shared/spec/classic.md §4 and shared/spec/DECISIONS.md F-1..F-5:

* each road end of a lake tile is its own road, closed at the lake unless a ferry joins it to
  another end of the same lake;
* a lake-tile turn: place the tile; optionally a meeple (occupancy judged on the road ends as
  they are BEFORE the new ferry joins two of them); always place the new ferry; optionally
  move ferries; score;
* when a placed tile extends a road that contains a ferry, the nearest ferry in each direction
  (each road leaving the new tile is a direction) may move to another pair of road ends of
  its own lake; only ferries connected to the extended road; each at most once per turn;
  ferries beyond the first along a road cannot move; ferries on the tile just placed do not;
* a move may close a road without extending it, and may re-open a completed (scored) road,
  which scores again when completed again;
* a road through a lake scores 1 point per distinct tile.

Conventions (tests/positions.py): x grows east, y grows SOUTH, rotation = quarter turns
clockwise; the start tile base/D is at (0, 0) rotation 0 (city N, road W-E). Players alternate
starting with player 0, so player 0 places the odd-numbered tiles. Feature indices (meeples,
ferry ends) are the tile's own indices, independent of the rotation:

* ferries/CRRR: 0 city N, 1 road W, 2 road S, 3 road E, 4-6 fields (unrotated sides)
* ferries/FRRR: 0 road W, 1 road S, 2 road E, 3-5 fields
* ferries/RRRR: 0 road N, 1 road E, 2 road S, 3 road W, 4-7 fields

In the grids ``──``/``│`` mark a road joining two tiles, ``═``/``║`` a city joining two tiles,
``~`` a ferry inside a lake tile (``L``) joining the listed ends, ``*`` a meeple.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from carcassonne import Game, IllegalMoveError, Move, Rules
from observe import snapshot
from positions import ev, events

FERRIES = ("base", "ferries")

CRRR = "ferries/CRRR"
FRRR = "ferries/FRRR"
RRRR = "ferries/RRRR"


def rules(**kw: Any) -> Rules:
    return Rules(tile_sets=FERRIES, ferries_edition="C3", **kw)


def new_game(deck: Sequence[str], **kw: Any) -> Game:
    return Game(rules(**kw), deck=list(deck))


def step(
    game: Game,
    tile: str,
    x: int,
    y: int,
    rotation: int,
    meeple: int | str | None = None,
    ferry: tuple[int, int] | None = None,
    ferry_moves: Sequence[tuple[int, int, int, int]] = (),
) -> Move:
    """Plays one move after checking the drawn tile and that the move is legal."""
    assert not game.is_over, f"game over before placing {tile} at ({x}, {y})"
    assert game.tile == tile, f"expected to draw {tile}, engine drew {game.tile}"
    mv = game.make_move(x, y, rotation, meeple, ferry=ferry, ferry_moves=list(ferry_moves))
    assert mv in game.legal_moves(), f"{mv!r} is not legal"
    assert game.is_legal(mv)
    game.play(mv)
    return mv


def refused(game: Game, mv: Move, *fragments: str) -> str:
    """``mv`` is not legal: play raises IllegalMoveError naming ``fragments``, nothing changes."""
    before = snapshot(game)
    assert mv not in game.legal_moves()
    assert not game.is_legal(mv)
    with pytest.raises(IllegalMoveError) as info:
        game.play(mv)
    message = str(info.value)
    for fragment in fragments:
        assert fragment.lower() in message.lower(), f"{fragment!r} not in {message!r}"
    assert snapshot(game) == before
    return message


def meeples(game: Game, x: int, y: int, index: int) -> list[int]:
    return list(game.feature_at(x, y, index).meeples)


# ----- tile data --------------------------------------------------------------------------


def test_lake_tile_feature_indices() -> None:
    r = rules()
    assert r.tile_features(CRRR, 0)[:4] == ["city N", "road W", "road S", "road E"]
    assert r.tile_features(FRRR, 0)[:3] == ["road W", "road S", "road E"]
    assert r.tile_features(RRRR, 0)[:4] == ["road N", "road E", "road S", "road W"]
    assert r.tile_features(FRRR, 1)[:3] == ["road N", "road W", "road S"]
    # C3 distribution: 3 CRRR, 3 FRRR, 2 RRRR (F-1); C2: 3/4/1.
    deck = r.full_deck()
    assert [deck.count(t) for t in (CRRR, FRRR, RRRR)] == [3, 3, 2]
    c2 = Rules(tile_sets=FERRIES, ferries_edition="C2").full_deck()
    assert [c2.count(t) for t in (CRRR, FRRR, RRRR)] == [3, 4, 1]


def test_four_road_lake_offers_all_six_pairs() -> None:
    #        x=0      x=1
    # y=0    D ────── L*        L = RRRR r0 at (1,0): roads N (0), E (1), S (2), W (3)
    #                 N~S       P0's meeple on the W end (free: D's road holds no meeple)
    game = new_game([RRRR])
    here = [m for m in game.legal_moves() if (m.x, m.y, m.rotation, m.meeple) == (1, 0, 0, None)]
    assert sorted(m.ferry or (-1, -1) for m in here) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert all(m.ferry_moves == [] for m in here)
    step(game, RRRR, 1, 0, 0, meeple="W", ferry=(0, 2))
    assert game.ferries.links == [(1, 0, 0, 2)]
    west = game.feature_at(1, 0, 3)
    assert sorted(west.segments) == [(0, 0, 0), (1, 0, 3)] and west.open_sides == 1
    assert list(west.meeples) == [1, 0]
    ns = game.feature_at(1, 0, 0)
    assert sorted(ns.segments) == [(1, 0, 0), (1, 0, 2)] and ns.open_sides == 2
    east = game.feature_at(1, 0, 1)
    assert sorted(east.segments) == [(1, 0, 1)] and east.open_sides == 1
    # Final scoring: P0's road D-L(W), 2 tiles -> 2.
    assert game.scores == [2, 0]
    assert events(game) == [ev(1, "road", 2, [0], [(0, 0), (1, 0)], complete=False, final=True)]


# ----- seed example 1: a meeple joins an occupied road through the new ferry ----------------


def test_example1_new_ferry_joins_new_meeple_to_an_occupied_road() -> None:
    #        x=0      x=1      x=2
    # y=0    D ────── U* ───── L*        L = CRRR r0 at (2,0): city N, roads W, S, E
    #                          W~S       ferry joins W and S
    # Turn 1, P0 (Blue): U with a meeple on the road D-U.
    # Turn 2, P1 (Red): the lake tile; its W end touches Blue's road, so a meeple may not go
    # there; the S end is a road of its own, unoccupied -> Red's meeple goes there; then the
    # ferry joins W and S: Blue and Red stand on one road D-U-L (3 tiles).
    game = new_game(["base/U", CRRR])
    step(game, "base/U", 1, 0, 0, meeple=0)
    assert meeples(game, 0, 0, 0) == [1, 0]
    # A meeple on the W end (index 1) is not legal with any ferry: that end is Blue's road.
    for ferry in [(1, 2), (1, 3), (2, 3)]:
        assert game.make_move(2, 0, 0, 1, ferry=ferry) not in game.legal_moves()
    # Occupancy is judged before the ferry joins the ends: S end + ferry W-S is legal.
    assert game.make_move(2, 0, 0, "S", ferry=(1, 2)) == Move(2, 0, 0, 2, ferry=(1, 2))
    step(game, CRRR, 2, 0, 0, meeple=2, ferry=(1, 2))

    assert sorted(game.ferries.links) == [(2, 0, 1, 2)]
    road = game.feature_at(2, 0, 2)
    assert road.kind == "road"
    assert sorted(road.tiles) == [(0, 0), (1, 0), (2, 0)]
    assert list(road.meeples) == [1, 1]  # both meeples on one road
    assert not road.complete and road.open_sides == 2  # D's W side and L's S side
    assert sorted(road.segments) == [(0, 0, 0), (1, 0, 0), (2, 0, 1), (2, 0, 2)]
    assert sorted(game.feature_at(2, 0, 1).segments) == sorted(road.segments)
    east = game.feature_at(2, 0, 3)  # the E end stays a road of its own
    assert sorted(east.tiles) == [(2, 0)] and list(east.meeples) == [0, 0]
    assert east.open_sides == 1 and not east.complete
    assert list(game.supply) == [6, 6]
    # The deck is exhausted: final scoring. The shared road (3 tiles, incomplete) gives both
    # players 3; nothing else holds a meeple.
    assert game.is_over
    assert game.scores == [3, 3]
    assert events(game) == [
        ev(2, "road", 3, [0, 1], [(0, 0), (1, 0), (2, 0)], complete=False, final=True),
    ]


# ----- seed example 2: the new ferry closes Blue's road; Red's city completes -------------


def test_example2_ferry_closes_the_other_road_blue_3_road_red_8_city() -> None:
    #        x=-1     x=0      x=1
    # y=-1            N2* ════ N3            (0,-1) N r2 city S,E (Red's meeple);
    #                 ║        ║             (1,-1) N r3 city W,S
    # y=0    A3* ──── D        L*            (-1,0) A r3 monastery, road E (Blue's meeple)
    #                          S~E           (1,0) L = CRRR r0: city N, roads W, S, E
    # Turn 4, P1 (Red) places L with a meeple on the S end and the ferry S-E, so the W end
    # is closed at the lake: Blue's road A-D-L (3 tiles) is complete -> Blue 3. L's city
    # cap closes the city D + N + N + L (4 tiles, no pennant) -> Red 2*4 = 8. Both scored
    # meeples go back; Red's new road meeple (L's S-E road, open) stays.
    game = new_game(["base/A", "base/N", "base/N", CRRR])
    step(game, "base/A", -1, 0, 3, meeple=1)  # P0 Blue: road E of the monastery tile
    step(game, "base/N", 0, -1, 2, meeple=0)  # P1 Red: city
    step(game, "base/N", 1, -1, 3)  # P0
    assert meeples(game, -1, 0, 1) == [1, 0]
    assert meeples(game, 1, -1, 0) == [0, 1]
    assert list(game.supply) == [6, 6]
    # Blue's road is not complete yet; the city is not either.
    assert not game.feature_at(0, 0, 0).complete
    assert game.feature_at(0, 0, 1).open_sides == 1
    step(game, CRRR, 1, 0, 0, meeple=2, ferry=(2, 3))  # P1 Red

    assert sorted(game.ferries.links) == [(1, 0, 2, 3)]
    blue = game.feature_at(0, 0, 0)
    assert sorted(blue.tiles) == [(-1, 0), (0, 0), (1, 0)]
    assert blue.complete and blue.open_sides == 0
    city = game.feature_at(1, 0, 0)
    assert sorted(city.tiles) == [(0, -1), (0, 0), (1, -1), (1, 0)]
    assert city.complete
    red_road = game.feature_at(1, 0, 2)
    assert sorted(red_road.segments) == [(1, 0, 2), (1, 0, 3)]
    assert list(red_road.meeples) == [0, 1] and not red_road.complete
    assert red_road.open_sides == 2
    # Final scoring after this last tile: Red's road S-E on L: 1 tile -> 1.
    assert game.is_over
    assert game.scores == [3, 8 + 1]
    assert game.points_by_kind["road"] == [3, 1]
    assert game.points_by_kind["city"] == [0, 8]
    assert events(game) == [
        ev(4, "city", 8, [1], [(0, -1), (0, 0), (1, -1), (1, 0)], complete=True, final=False),
        ev(4, "road", 3, [0], [(-1, 0), (0, 0), (1, 0)], complete=True, final=False),
        ev(4, "road", 1, [1], [(1, 0)], complete=False, final=True),
    ]
    # Blue's road meeple and Red's city meeple came back; Red's road meeple stays.
    assert list(game.supply) == [7, 6]


def test_example2_other_ferry_choice_leaves_blue_road_open() -> None:
    # Same position; Red joins W and S instead: Blue's road continues through the lake
    # (A-D-L W~S, open at L's S side) and is not scored during play; the city still is.
    game = new_game(["base/A", "base/N", "base/N", CRRR])
    step(game, "base/A", -1, 0, 3, meeple=1)
    step(game, "base/N", 0, -1, 2, meeple=0)
    step(game, "base/N", 1, -1, 3)
    # The W end belongs to Blue's road whatever the ferry; Red's meeple goes on the E end.
    assert game.make_move(1, 0, 0, 1, ferry=(2, 3)) not in game.legal_moves()
    step(game, CRRR, 1, 0, 0, meeple=3, ferry=(1, 2))
    blue = game.feature_at(0, 0, 0)
    assert sorted(blue.segments) == [(-1, 0, 1), (0, 0, 0), (1, 0, 1), (1, 0, 2)]
    assert not blue.complete and blue.open_sides == 1
    # Final scoring: Blue's road 3 tiles incomplete -> 3; Red's E end 1 tile -> 1;
    # Red's city 8 during play.
    assert game.scores == [3, 8 + 1]
    assert events(game) == [
        ev(4, "city", 8, [1], [(0, -1), (0, 0), (1, -1), (1, 0)], complete=True, final=False),
        ev(4, "road", 1, [1], [(1, 0)], complete=False, final=True),
        ev(4, "road", 3, [0], [(-1, 0), (0, 0), (1, 0)], complete=False, final=True),
    ]


# ----- seed example 3: moving the nearest ferry separates two meeples ----------------------


def test_example3_moving_the_ferry_separates_red_and_yellow() -> None:
    #        x=-1     x=0      x=1      x=2
    # y=0    U ────── D ────── U* ───── L*       L = FRRR r0 at (2,0): roads W, S, E
    #        (turn 3)          Red      W~S      Yellow's meeple on the S end
    # Turn 1, P0 (Red): U at (1,0), meeple on the road D-U.
    # Turn 2, P1 (Yellow): L at (2,0), meeple on the free S end, ferry W-S: Red and Yellow
    # share the road D-U-L.
    # Turn 3, P0 (Red): U at (-1,0) extends that road; the ferry at (2,0) is the nearest
    # (only) one -> Red moves it from W-S to S-E: Red's road U-D-U-L(W) is closed at the
    # lake on the east, Yellow's road is L's S-E ends alone.
    game = new_game(["base/U", FRRR, "base/U"])
    step(game, "base/U", 1, 0, 0, meeple=0)
    step(game, FRRR, 2, 0, 0, meeple=1, ferry=(0, 1))
    assert meeples(game, 2, 0, 1) == [1, 1]
    assert meeples(game, 1, 0, 0) == [1, 1]

    assert game.ferries.movable(-1, 0, 0) == [(2, 0)]
    # A tile that extends no road with a ferry moves nothing: U r1 at (0,1)? D's S side is a
    # field, so U r0 (fields N and S) fits there and extends no road.
    assert game.ferries.movable(0, 1, 0) == []
    # The ferry may go to S-E or W-E, but not stay on W-S.
    for pair in [(1, 2), (0, 2)]:
        assert game.make_move(-1, 0, 0, ferry_moves=[(2, 0, *pair)]) in game.legal_moves()
    refused(game, game.make_move(-1, 0, 0, ferry_moves=[(2, 0, 0, 1)]), "(2, 0)", "already joins")
    step(game, "base/U", -1, 0, 0, ferry_moves=[(2, 0, 1, 2)])

    assert sorted(game.ferries.links) == [(2, 0, 1, 2)]
    red = game.feature_at(1, 0, 0)
    assert sorted(red.tiles) == [(-1, 0), (0, 0), (1, 0), (2, 0)]
    assert sorted(red.segments) == [(-1, 0, 0), (0, 0, 0), (1, 0, 0), (2, 0, 0)]
    assert list(red.meeples) == [1, 0]
    assert red.open_sides == 1 and not red.complete
    yellow = game.feature_at(2, 0, 1)
    assert sorted(yellow.segments) == [(2, 0, 1), (2, 0, 2)]
    assert list(yellow.meeples) == [0, 1]
    assert yellow.open_sides == 2
    # Final scoring: Red 4 (4 tiles), Yellow 1 (1 tile) - no longer 4 each.
    assert game.scores == [4, 1]
    assert events(game) == [
        ev(3, "road", 1, [1], [(2, 0)], complete=False, final=True),
        ev(3, "road", 4, [0], [(-1, 0), (0, 0), (1, 0), (2, 0)], complete=False, final=True),
    ]


# ----- seed example 4: two ferries in a row: only the nearer one moves ---------------------


def example4() -> Game:
    #        x=-1     x=0      x=1      x=2
    # y=0    X? ───── D ────── L1 ───── L2*     L1, L2 = FRRR r0 (roads W, S, E), ferries W~E
    #        │                 W~E      W~E     P1's meeple on L2's W end (turn 2)
    # y=1    L3 ..... B                         L3 = FRRR r1 at (-1,1): roads N, W, S (E field)
    #        N~S                                ferry N~S; B = monastery tile (fields only)
    # X (4 separate road ends) at (-1,0): E road -> D -> L1 (1st ferry) -> L2 (2nd ferry);
    # S road -> L3 (1st ferry). Movable: L1 and L3, never L2.
    game = new_game([FRRR, FRRR, "base/B", FRRR, "base/X"])
    step(game, FRRR, 1, 0, 0, ferry=(0, 2))  # P0 L1
    step(game, FRRR, 2, 0, 0, meeple=0, ferry=(0, 2))  # P1 L2, meeple on the W end
    step(game, "base/B", 0, 1, 0)  # P0
    step(game, FRRR, -1, 1, 1, ferry=(0, 2))  # P1 L3: N-S
    assert sorted(game.ferries.links) == [(-1, 1, 0, 2), (1, 0, 0, 2), (2, 0, 0, 2)]
    road = game.feature_at(0, 0, 0)
    assert sorted(road.tiles) == [(0, 0), (1, 0), (2, 0)]
    assert list(road.meeples) == [0, 1]
    return game


def test_example4_only_the_nearest_ferry_per_direction_may_move() -> None:
    game = example4()
    assert game.tile == "base/X"
    assert sorted(game.ferries.movable(-1, 0, 0)) == [(-1, 1), (1, 0)]
    # X's rotation does not matter (4 road ends); the answer is the same.
    for rot in range(4):
        assert sorted(game.ferries.movable(-1, 0, rot)) == [(-1, 1), (1, 0)]
    # The second ferry along the road (L2) may not move, alone or together with L1.
    refused(game, game.make_move(-1, 0, 0, ferry_moves=[(2, 0, 0, 1)]), "(2, 0)", "may not move")
    refused(
        game,
        game.make_move(-1, 0, 0, ferry_moves=[(1, 0, 0, 1), (2, 0, 0, 1)]),
        "(2, 0)",
        "may not move",
    )
    # Every legal X move at (-1,0) moves a subset of {L1, L3} only.
    here = [m for m in game.legal_moves() if (m.x, m.y) == (-1, 0)]
    assert {(f[0], f[1]) for m in here for f in m.ferry_moves} == {(-1, 1), (1, 0)}
    # L1: 2 other pairs, L3: 2 other pairs -> (1 + 2) * (1 + 2) ferry choices per X move.
    at = [m for m in here if (m.rotation, m.meeple) == (0, None)]
    assert len(at) == 9
    # Elsewhere, X at (3,0) extends L2's road from the east: there L2 is the nearest.
    assert game.ferries.movable(3, 0, 0) == [(2, 0)]
    step(game, "base/X", -1, 0, 0, ferry_moves=[(-1, 1, 0, 1), (1, 0, 0, 1)])

    assert sorted(game.ferries.links) == [(-1, 1, 0, 1), (1, 0, 0, 1), (2, 0, 0, 2)]
    east = game.feature_at(-1, 0, 1)  # X's E end -> D -> L1 W~S, open at L1's S side
    assert sorted(east.segments) == [(-1, 0, 1), (0, 0, 0), (1, 0, 0), (1, 0, 1)]
    assert east.open_sides == 1
    south = game.feature_at(-1, 0, 2)  # X's S end -> L3 N~W, open at L3's W side
    assert sorted(south.segments) == [(-1, 0, 2), (-1, 1, 0), (-1, 1, 1)]
    assert south.open_sides == 1
    p1 = game.feature_at(2, 0, 0)  # L1's E end (now closed at L1) + L2 W~E
    assert sorted(p1.segments) == [(1, 0, 2), (2, 0, 0), (2, 0, 2)]
    assert list(p1.meeples) == [0, 1] and p1.open_sides == 1
    # Final scoring: P1's road 2 tiles -> 2.
    assert game.scores == [0, 2]
    assert events(game) == [ev(5, "road", 2, [1], [(1, 0), (2, 0)], complete=False, final=True)]


# ----- seed example 5: a lake tile extending three roads -> three ferries may move ---------


def example5() -> Game:
    #        x=-1     x=0      x=1
    # y=0    LB ───── D ────── LA          LA = FRRR r0 at (1,0), ferry W~S
    #        W~S               W~S         LB = FRRR r0 at (-1,0), ferry W~S (E end closed)
    #        │                 │
    # y=1    V2 ───── T? ───── V1          V r2 road N-E; V r1 road N-W
    #                 │        .           T = FRRR r0 at (0,1): field N, roads W, S, E
    # y=2             LC ..... B           LC = FRRR r1 at (0,2): roads N, W, S; ferry N~W
    #                 N~W                  B = monastery tile (fields only)
    game = new_game([FRRR, FRRR, "base/V", "base/V", "base/B", FRRR, FRRR])
    step(game, FRRR, 1, 0, 0, ferry=(0, 1))  # LA
    step(game, FRRR, -1, 0, 0, ferry=(0, 1))  # LB
    step(game, "base/V", 1, 1, 1)
    step(game, "base/V", -1, 1, 2)
    step(game, "base/B", 1, 2, 0)
    step(game, FRRR, 0, 2, 1, ferry=(0, 1))  # LC
    assert sorted(game.ferries.links) == [(-1, 0, 0, 1), (0, 2, 0, 1), (1, 0, 0, 1)]
    return game


def test_example5_lake_tile_extending_three_roads_may_move_three_ferries() -> None:
    game = example5()
    assert game.tile == FRRR and game.turn == 6
    # T's W road -> V2 -> LB (S end, joined); E road -> V1 -> LA (S end, joined); S road ->
    # LC (N end, joined). The E road also reaches LB's E end through D, but that end is not
    # joined by LB's ferry (LB is movable anyway, through the W road).
    assert sorted(game.ferries.movable(0, 1, 0)) == [(-1, 0), (0, 2), (1, 0)]
    # How T's own ferry is placed does not matter (seed example 5).
    three = [(-1, 0, 1, 2), (0, 2, 0, 2), (1, 0, 1, 2)]
    for ferry in [(0, 1), (0, 2), (1, 2)]:
        assert game.make_move(0, 1, 0, ferry=ferry, ferry_moves=three) in game.legal_moves()
    # T's own ferry cannot be "moved" in the same turn.
    refused(game, game.make_move(0, 1, 0, ferry=(0, 2), ferry_moves=[(0, 1, 0, 1)]), "(0, 1)", "may not move")
    step(game, FRRR, 0, 1, 0, ferry=(0, 2), ferry_moves=three)

    assert sorted(game.ferries.links) == [(-1, 0, 1, 2), (0, 1, 0, 2), (0, 2, 0, 2), (1, 0, 1, 2)]
    # T W~E: LA S~E (open at LA's E side) - V1 - T - V2 - LB S~E - D - LA's W end (closed):
    # the road runs through LA twice; 6 distinct tiles.
    big = game.feature_at(0, 1, 0)
    assert sorted(big.tiles) == [(-1, 0), (-1, 1), (0, 0), (0, 1), (1, 0), (1, 1)]
    assert sorted(big.segments) == [
        (-1, 0, 1), (-1, 0, 2), (-1, 1, 0), (0, 0, 0), (0, 1, 0), (0, 1, 2),
        (1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 1, 0),
    ]  # fmt: skip
    assert big.open_sides == 1 and not big.complete
    south = game.feature_at(0, 1, 1)  # T's S end (closed) + LC N~S (open at LC's S side)
    assert sorted(south.segments) == [(0, 1, 1), (0, 2, 0), (0, 2, 2)]
    assert south.open_sides == 1
    assert sorted(game.feature_at(-1, 0, 0).segments) == [(-1, 0, 0)]  # LB's W end alone
    assert sorted(game.feature_at(0, 2, 1).segments) == [(0, 2, 1)]  # LC's W end alone
    assert game.scores == [0, 0] and game.events == []


# ----- note 7: a ferry not joined to the extended road end does not move -------------------


def test_note7_ferry_not_joined_to_the_extended_road_may_not_move() -> None:
    #        x=-1     x=0      x=1      x=2
    # y=0    U? ───── D ────── L ...... U?      L = FRRR r0: roads W, S, E; ferry S~E
    #                          S~E              D's road ends at L's W end (closed)
    # y=1                      U?
    game = new_game([FRRR, "base/U"])
    step(game, FRRR, 1, 0, 0, ferry=(1, 2))
    assert game.ferries.movable(-1, 0, 0) == []  # D's road ends at the lake, unjoined
    assert game.ferries.movable(2, 0, 0) == [(1, 0)]  # extends L's S~E road
    assert game.ferries.movable(1, 1, 1) == [(1, 0)]  # U r1 (road N-S) extends it too
    refused(game, game.make_move(-1, 0, 0, ferry_moves=[(1, 0, 0, 1)]), "(1, 0)", "may not move")
    refused(game, game.make_move(-1, 0, 0, ferry_moves=[(1, 0, 0, 2)]), "(1, 0)", "may not move")
    assert all(m.ferry_moves == [] for m in game.legal_moves() if (m.x, m.y) == (-1, 0))
    step(game, "base/U", -1, 0, 0)
    assert sorted(game.ferries.links) == [(1, 0, 1, 2)]


# ----- notes 9-11: re-opening a scored road; closing a road by a move ----------------------


def test_notes9_10_a_move_reopens_a_completed_road_which_scores_again() -> None:
    #        x=-1     x=0      x=1      x=2      x=3
    # y=0    A3* ──── D ────── L ...... U ...... A1      L = FRRR r0: roads W, S, E
    #                          S~E                        first ferry S~E
    # Turn 1, P0: A r3 (road E) with a meeple on the road.
    # Turn 2, P1: L with ferry S-E: D's road A-D-L(W) is closed at the lake -> complete,
    #   3 tiles -> P0 3, meeple back.
    # Turn 3, P0: U at (2,0) extends L's S~E road; P0 puts a meeple on U (that road is free)
    #   and moves L's ferry to W-E: the scored road is re-opened: A-D-L-U, open at (3,0).
    # Turn 4, P1: A r1 (road W) at (3,0) closes it again: 5 tiles -> P0 5 (second time).
    game = new_game(["base/A", FRRR, "base/U", "base/A"])
    step(game, "base/A", -1, 0, 3, meeple=1)
    step(game, FRRR, 1, 0, 0, ferry=(1, 2))
    first = game.feature_at(0, 0, 0)
    assert sorted(first.segments) == [(-1, 0, 1), (0, 0, 0), (1, 0, 0)]
    assert first.complete and first.open_sides == 0
    assert game.scores == [3, 0] and list(game.supply) == [7, 7]

    assert game.ferries.movable(2, 0, 0) == [(1, 0)]
    step(game, "base/U", 2, 0, 0, meeple=0, ferry_moves=[(1, 0, 0, 2)])
    assert sorted(game.ferries.links) == [(1, 0, 0, 2)]
    reopened = game.feature_at(0, 0, 0)
    assert sorted(reopened.tiles) == [(-1, 0), (0, 0), (1, 0), (2, 0)]
    assert not reopened.complete and reopened.open_sides == 1
    assert list(reopened.meeples) == [1, 0]
    south = game.feature_at(1, 0, 1)  # L's S end alone now
    assert sorted(south.segments) == [(1, 0, 1)] and south.open_sides == 1
    assert game.scores == [3, 0] and list(game.supply) == [6, 7]

    assert game.ferries.movable(3, 0, 1) == [(1, 0)]
    step(game, "base/A", 3, 0, 1)  # no ferry move
    again = game.feature_at(0, 0, 0)
    assert sorted(again.tiles) == [(-1, 0), (0, 0), (1, 0), (2, 0), (3, 0)]
    assert again.complete and again.open_sides == 0
    assert game.scores == [8, 0] and list(game.supply) == [7, 7]
    assert events(game) == [
        ev(2, "road", 3, [0], [(-1, 0), (0, 0), (1, 0)], complete=True, final=False),
        ev(4, "road", 5, [0], [(-1, 0), (0, 0), (1, 0), (2, 0), (3, 0)], complete=True, final=False),
    ]
    # The game record replays the ferry moves exactly.
    replay = Game.from_json(game.to_json())
    assert sorted(replay.ferries.links) == [(1, 0, 0, 2)]
    assert replay.scores == [8, 0] and events(replay) == events(game)
    assert list(replay.moves) == list(game.moves)


def test_note9_reopened_road_without_meeples_scores_nothing_when_closed_again() -> None:
    # As above, but P0 puts no meeple on U: the re-opened road holds no meeple (P0's came
    # back when it scored) and completing it again gives nothing.
    game = new_game(["base/A", FRRR, "base/U", "base/A"])
    step(game, "base/A", -1, 0, 3, meeple=1)
    step(game, FRRR, 1, 0, 0, ferry=(1, 2))
    step(game, "base/U", 2, 0, 0, ferry_moves=[(1, 0, 0, 2)])
    assert list(game.feature_at(0, 0, 0).meeples) == [0, 0]
    assert not game.feature_at(0, 0, 0).complete
    step(game, "base/A", 3, 0, 1)
    assert game.feature_at(0, 0, 0).complete
    assert game.scores == [3, 0]
    assert events(game) == [
        ev(2, "road", 3, [0], [(-1, 0), (0, 0), (1, 0)], complete=True, final=False),
    ]


def test_note11_a_move_closes_a_road_without_extending_it() -> None:
    #        x=-1     x=0      x=1      x=2
    # y=0    A3* ──── D ────── L ────── U?       L = FRRR r0: roads W, S, E; ferry W~E
    #                          W~E
    # Turn 1, P0: L with ferry W-E (no meeple). Road D-L, open at both ends.
    # Turn 2, P1: A r3 at (-1,0), meeple on the road: A-D-L(W~E), open at L's E side.
    # Turn 3, P0: U at (2,0) extends that road and moves L's ferry to S-E: the west part
    #   A-D-L(W) is closed at the lake without having been extended -> complete, 3 tiles,
    #   P1 scores 3.
    game = new_game([FRRR, "base/A", "base/U"])
    step(game, FRRR, 1, 0, 0, ferry=(0, 2))
    step(game, "base/A", -1, 0, 3, meeple=1)
    road = game.feature_at(-1, 0, 1)
    assert sorted(road.tiles) == [(-1, 0), (0, 0), (1, 0)]
    assert road.open_sides == 1 and list(road.meeples) == [0, 1]
    # P0's meeple on U: the road is occupied by P1 when the meeple is placed (before the
    # move), so it is refused even together with the separating move.
    refused(game, game.make_move(2, 0, 0, 0, ferry_moves=[(1, 0, 1, 2)]), "already holds a meeple")
    step(game, "base/U", 2, 0, 0, ferry_moves=[(1, 0, 1, 2)])

    assert sorted(game.ferries.links) == [(1, 0, 1, 2)]
    closed = game.feature_at(-1, 0, 1)
    assert sorted(closed.segments) == [(-1, 0, 1), (0, 0, 0), (1, 0, 0)]
    assert closed.complete and closed.open_sides == 0
    rest = game.feature_at(2, 0, 0)
    assert sorted(rest.segments) == [(1, 0, 1), (1, 0, 2), (2, 0, 0)]
    assert rest.open_sides == 2 and not rest.complete
    assert game.scores == [0, 3] and list(game.supply) == [7, 7]
    assert events(game) == [
        ev(3, "road", 3, [1], [(-1, 0), (0, 0), (1, 0)], complete=True, final=False),
    ]


# ----- F-5: a road through one lake tile twice counts the tile once -----------------------


def test_road_through_the_same_lake_tile_twice_counts_it_once() -> None:
    #        x=-1     x=0      x=1      x=2
    # y=0    V3 ───── D ────── L* ..... A1       L = FRRR r0: roads W, S, E; ferry S~E
    #        │                 S~E ──── A1       A r1 = monastery, road W (closes L's E end)
    #        │                 │
    # y=1    V2 ───── U ────── V1
    # Path: L's W end (closed at the lake, P0's meeple) - D - V3 - V2 - U - V1 - L's S end
    # ~ferry~ L's E end - A1 (road ends at the monastery). Complete; segments on 7 distinct
    # tiles, L crossed twice -> 7 points, not 8.
    game = new_game([FRRR, "base/A", "base/V", "base/V", "base/U", "base/V"])
    step(game, FRRR, 1, 0, 0, meeple=0, ferry=(1, 2))  # P0, meeple on the W end
    step(game, "base/A", 2, 0, 1)  # P1
    step(game, "base/V", -1, 0, 3)  # P0 road S-E
    step(game, "base/V", -1, 1, 2)  # P1 road N-E
    step(game, "base/U", 0, 1, 0)  # P0 road W-E
    # Before the last tile, L's W end and its S~E road are two different roads.
    west = game.feature_at(1, 0, 0)
    assert sorted(west.segments) == [(-1, 0, 0), (-1, 1, 0), (0, 0, 0), (0, 1, 0), (1, 0, 0)]
    assert west.open_sides == 1 and list(west.meeples) == [1, 0]
    assert sorted(game.feature_at(1, 0, 1).segments) == [(1, 0, 1), (1, 0, 2), (2, 0, 1)]
    assert game.ferries.movable(1, 1, 1) == [(1, 0)]
    step(game, "base/V", 1, 1, 1)  # P1 road N-W closes the road; no ferry move

    road = game.feature_at(1, 0, 0)
    assert sorted(road.tiles) == [(-1, 0), (-1, 1), (0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]
    assert len(road.segments) == 9  # 3 on L, 1 on each of the 6 other tiles
    assert road.complete and road.open_sides == 0
    assert list(road.meeples) == [0, 0]  # P0's meeple went back
    assert game.scores == [7, 0]
    assert events(game) == [
        ev(
            6, "road", 7, [0],
            [(-1, 0), (-1, 1), (0, 0), (0, 1), (1, 0), (1, 1), (2, 0)],
            complete=True, final=False,
        ),
    ]  # fmt: skip


# ----- bad input --------------------------------------------------------------------------


def bad_input_game() -> Game:
    #        x=0      x=1
    # y=0    D ────── L          L = FRRR r0 at (1,0), ferry W~E; next tile base/U,
    #                 W~E        then ferries/CRRR
    game = new_game([FRRR, "base/U", CRRR, "base/U"])
    step(game, FRRR, 1, 0, 0, ferry=(0, 2))
    assert game.tile == "base/U"
    return game


def test_bad_ferry_on_a_non_lake_tile() -> None:
    game = bad_input_game()
    assert all(m.ferry is None for m in game.legal_moves())
    refused(game, Move(2, 0, 0, ferry=(0, 1)), "base/U", "no lake")
    refused(game, game.make_move(2, 0, 0, 0, ferry=(0, 1)), "base/U", "no lake")


def test_bad_ferry_moves() -> None:
    game = bad_input_game()
    # Legal reference: U at (2,0) extends the road with L's ferry.
    assert game.ferries.movable(2, 0, 0) == [(1, 0)]
    assert game.make_move(2, 0, 0, ferry_moves=[(1, 0, 0, 1)]) in game.legal_moves()
    # To the pair it already joins.
    refused(game, game.make_move(2, 0, 0, ferry_moves=[(1, 0, 0, 2)]), "(1, 0)", "already joins")
    # The same ferry twice in one turn.
    refused(game, game.make_move(2, 0, 0, ferry_moves=[(1, 0, 0, 1), (1, 0, 1, 2)]), "at most once per turn")
    refused(game, game.make_move(2, 0, 0, ferry_moves=[(1, 0, 0, 1), (1, 0, 0, 1)]), "at most once per turn")
    # An end joined to itself; a field index; an index the tile does not have.
    refused(game, game.make_move(2, 0, 0, ferry_moves=[(1, 0, 1, 1)]), "two different road ends", "(1, 1)")
    refused(game, game.make_move(2, 0, 0, ferry_moves=[(1, 0, 1, 3)]), "two different road ends", "(1, 3)")
    refused(game, game.make_move(2, 0, 0, ferry_moves=[(1, 0, 1, 9)]), "two different road ends", "(1, 9)")
    # No lake there / no tile there.
    refused(game, game.make_move(2, 0, 0, ferry_moves=[(0, 0, 0, 1)]), "(0, 0)", "may not move")
    refused(game, game.make_move(2, 0, 0, ferry_moves=[(5, 5, 0, 1)]), "(5, 5)", "may not move")
    # A ferry that may not move: U r1 at (1,1) extends L's S end, which L's ferry does
    # not join (note 7).
    assert game.ferries.movable(1, 1, 1) == []
    assert game.make_move(1, 1, 1) in game.legal_moves()
    refused(game, game.make_move(1, 1, 1, ferry_moves=[(1, 0, 0, 1)]), "(1, 0)", "may not move")
    # A tile that extends no road at all.
    assert game.ferries.movable(0, 1, 0) == []
    refused(game, game.make_move(0, 1, 0, ferry_moves=[(1, 0, 0, 1)]), "(1, 0)", "may not move")


def test_bad_lake_tile_ferry() -> None:
    game = bad_input_game()
    step(game, "base/U", 2, 0, 0)
    assert game.tile == CRRR
    legal = game.legal_moves()
    assert legal and all(m.ferry is not None for m in legal)
    # CRRR r2 at (0,-1): city S on D's city; roads E (1), N (2), W (3).
    assert game.make_move(0, -1, 2, ferry=(1, 3)) in legal
    # Without a ferry.
    refused(game, game.make_move(0, -1, 2), "lake tile", "must place its ferry")
    refused(game, game.make_move(0, -1, 2, 0), "lake tile", "must place its ferry")
    # An end joined to itself.
    refused(game, game.make_move(0, -1, 2, ferry=(2, 2)), "two different road ends", "(2, 2)")
    # A city index and field indices.
    refused(game, game.make_move(0, -1, 2, ferry=(0, 1)), "two different road ends", "(0, 1)")
    refused(game, game.make_move(0, -1, 2, ferry=(1, 4)), "two different road ends", "(1, 4)")
    refused(game, game.make_move(0, -1, 2, ferry=(4, 5)), "two different road ends", "(4, 5)")
    # An index the tile does not have.
    refused(game, game.make_move(0, -1, 2, ferry=(1, 7)), "two different road ends", "(1, 7)")
    # Moving the ferry of the tile just placed: CRRR r0 at (3,0) (city N, roads W, S, E):
    # its W end extends the road D-L(W~E)-U, so L's ferry may move, the new one may not.
    assert game.ferries.movable(3, 0, 0) == [(1, 0)]
    assert game.make_move(3, 0, 0, ferry=(1, 2), ferry_moves=[(1, 0, 0, 1)]) in game.legal_moves()
    refused(game, game.make_move(3, 0, 0, ferry=(1, 2), ferry_moves=[(3, 0, 1, 3)]), "(3, 0)", "may not move")
