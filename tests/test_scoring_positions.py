"""Scoring rules on hand-built positions with scores worked out from the rules.

Rules: shared/spec/classic.md §2.3 and shared/spec/DECISIONS.md C-1..C-4. Expected numbers
are computed by hand from those rules (never taken from the engine).

Conventions (see tests/positions.py): x grows east, y grows SOUTH, rotation = quarter turns
clockwise; the start tile base/D is at (0, 0) rotation 0 (city N, road W-E). Players alternate
starting with player 0, so player 0 places the odd-numbered tiles. A ScoreEvent's ``turn`` is
the number of tiles placed so far (1 = the first tile after the start tile); final scoring
uses the number of turns played. ``Game.supply`` and ``Feature.meeples`` come back from the
binding as ``bytes`` (PyO3 maps ``Vec<u8>`` so), hence the ``list(...)`` around them.
Meeples return to supply when their feature scores during play; at game end they stay on the
board (engine choice). Fields score only at game end.

In the grid drawings ``──`` marks a road joining two tiles and ``║``/``═`` a city joining
two tiles; ``*`` marks the tile carrying a meeple.
"""

from __future__ import annotations

import pytest

from carcassonne import Move
from positions import build, ev, events, new_game, play, sort_events

IC = ("base", "inns-and-cathedrals")
TB = ("base", "traders-and-builders")


# ----- 1. roads ------------------------------------------------------------------------


def test_loop_road_scores_one_per_tile_when_it_closes() -> None:
    #        x=0      x=1
    # y=0    D
    # y=1    V3* ──── V0        (0,1) V r3 road E-S (meeple P0); (1,1) V r0 road W-S
    #        │        │
    # y=2    V2 ───── V1        (0,2) V r2 road N-E;             (1,2) V r1 road N-W
    # A loop of 4 curves: complete when the 4th tile closes it, 4 tiles -> 4 points.
    steps = [
        ("base/V", 0, 1, 3, "E"),  # P0, meeple on the road
        ("base/V", 1, 1, 0, None),  # P1
        ("base/V", 0, 2, 2, None),  # P0
    ]
    last = [("base/V", 1, 2, 1, None)]  # P1 closes the loop
    game = new_game(steps + last)
    play(game, steps)
    road = game.feature_at(0, 1, 0)
    assert road.kind == "road" and not road.complete
    assert road.open_sides == 2
    assert game.scores == [0, 0] and list(game.supply) == [6, 7]
    play(game, last)
    road = game.feature_at(1, 2, 0)
    assert road.complete and road.open_sides == 0
    assert sorted(road.tiles) == [(0, 1), (0, 2), (1, 1), (1, 2)]
    assert game.is_over
    assert game.scores == [4, 0]
    assert game.points_by_kind["road"] == [4, 0]
    assert list(game.supply) == [7, 7]  # the meeple came back when the road scored
    assert events(game) == [
        ev(4, "road", 4, [0], [(0, 1), (1, 1), (0, 2), (1, 2)], complete=True, final=False)
    ]


def test_loop_road_through_one_tile_twice_counts_that_tile_once() -> None:
    # Inns & Cathedrals tile E has two separate curved roads (N-W and E-S). A loop that runs
    # through both of them crosses that tile twice; it still counts once (classic.md §2.3:
    # distinct tile positions).
    #        x=-1     x=0      x=1
    # y=0             D
    # y=1             V3* ──── V0          (0,1) road E-S; (1,1) road W-S
    #                 │        │
    # y=2    V3 ───── E ────── V1          E at (0,2): N-W and E-S curves; (1,2) road N-W
    #        │        │                    (-1,2) V r3 road E-S
    # y=3    V2 ───── V1                   (-1,3) road N-E; (0,3) road N-W
    # Path: (0,1)S->E(0,2)N..W->(-1,2)E..S->(-1,3)N..E->(0,3)W..N->E(0,2)S..E->(1,2)W..N
    #       ->(1,1)S..W->(0,1)E : 7 distinct tiles (8 road segments) -> 7 points.
    steps = [
        ("base/V", 0, 1, 3, "E"),  # P0 meeple on the road
        ("base/V", 1, 1, 0, None),  # P1
        ("base/V", 1, 2, 1, None),  # P0
        ("inns-and-cathedrals/E", 0, 2, 0, None),  # P1
        ("base/V", 0, 3, 1, None),  # P0
        ("base/V", -1, 3, 2, None),  # P1
    ]
    last = [("base/V", -1, 2, 3, None)]  # P0 closes the loop
    game = new_game(steps + last, tile_sets=IC)
    play(game, steps)
    assert game.scores == [0, 0]
    play(game, last)
    road = game.feature_at(0, 1, 0)
    assert road.complete
    assert len(road.tiles) == 7
    assert len(road.segments) == 8  # tile E contributes both of its roads
    tiles = [(0, 1), (1, 1), (1, 2), (0, 2), (0, 3), (-1, 3), (-1, 2)]
    assert game.scores == [7, 0]
    assert list(game.supply) == [7, 7]
    assert events(game) == [ev(7, "road", 7, [0], tiles, complete=True, final=False)]


def test_road_between_two_monasteries_and_incomplete_monastery() -> None:
    #        x=-1     x=0      x=1
    # y=0    A3 ───── D ────── A1*        A = monastery with a road stub
    # (-1,0) A r3: road E, meeple P1 on the monastery; (1,0) A r1: road W, meeple P0 on road.
    # Road A-D-A ends at a monastery at both ends: complete, 3 tiles -> 3 points for P0.
    # Monastery at (-1,0) at game end: only (0,0) of its 8 neighbours -> 1 + 1 = 2 for P1.
    game = build(
        [
            ("base/A", 1, 0, 1, "W"),  # P0, road
            ("base/A", -1, 0, 3, "monastery"),  # P1 closes P0's road
        ]
    )
    assert game.is_over
    assert game.scores == [3, 2]
    assert game.points_by_kind["road"] == [3, 0]
    assert game.points_by_kind["monastery"] == [0, 2]
    assert list(game.supply) == [7, 6]  # P0's road meeple returned; P1's monk stays at the end
    assert game.feature_at(0, 0, 0).complete
    # A monastery "covers" its own square.
    assert events(game) == [
        ev(2, "road", 3, [0], [(-1, 0), (0, 0), (1, 0)], complete=True, final=False),
        ev(2, "monastery", 2, [1], [(-1, 0)], complete=False, final=True),
    ]


def test_road_between_junction_and_monastery_junction_arms_are_separate() -> None:
    #        x=-1     x=0      x=1      x=2
    # y=0    W0 ───── D ────── U0* ──── A1
    #        │
    #        (S arm: P1's meeple, a separate one-tile road)
    # (-1,0) W r0: junction, arms E, S, W (each its own road).
    # Road W0(E arm)-D-U0-A1 ends at the junction and at the monastery: 4 tiles -> 4 for P0.
    # P1's road on the junction's S arm is a different road (so placing there was legal while
    # P0 occupied the E-W road) and scores 1 (1 tile) at the end.
    steps = [
        ("base/U", 1, 0, 0, "road E W"),  # P0
        ("base/W", -1, 0, 0, "road S"),  # P1
    ]
    last = [("base/A", 2, 0, 1, None)]  # P0 closes the road with the monastery
    game = new_game(steps + last)
    play(game, steps)
    assert game.scores == [0, 0]
    assert not game.feature_at(0, 0, 0).complete
    play(game, last)
    assert game.is_over
    assert game.scores == [4, 1]
    assert list(game.supply) == [7, 6]
    assert events(game) == [
        ev(3, "road", 4, [0], [(-1, 0), (0, 0), (1, 0), (2, 0)], complete=True, final=False),
        ev(3, "road", 1, [1], [(-1, 0)], complete=False, final=True),
    ]


# ----- 2. cities -----------------------------------------------------------------------


def test_city_with_pennants_complete_and_incomplete_at_end() -> None:
    #        x=-1     x=0      x=1      x=2
    # y=-1            M2* ════ F0 ═════ E3       M r2 city E+S (pennant), F r0 city W-E
    #                 ║                          (pennant), E r3 city W cap
    # y=0             D                          D: city N cap
    # y=1    F0 ═════ M3*                        M-garden r3 city S+W (pennant), F r0 city
    #                                            W-E (pennant); open at (0,1)S and (-1,1)W
    # Complete city (P0): 4 tiles + 2 pennants -> 2*4 + 2*2 = 12 when E3 closes it.
    # Incomplete city (P1): 2 tiles + 2 pennants -> 1*2 + 1*2 = 4 at game end.
    steps = [
        ("base/M", 0, -1, 2, 0),  # P0 city
        ("base/M-garden", 0, 1, 3, 0),  # P1 city
        ("base/F", 1, -1, 0, None),  # P0
        ("base/F", -1, 1, 0, None),  # P1
    ]
    last = [("base/E", 2, -1, 3, None)]  # P0 closes the north city
    game = new_game(steps + last)
    play(game, steps)
    north = game.feature_at(0, -1, 0)
    assert north.kind == "city" and not north.complete
    assert north.pennants == 2 and north.open_sides == 1
    assert game.scores == [0, 0] and list(game.supply) == [6, 6]
    play(game, last)
    north = game.feature_at(0, 0, 1)
    assert north.complete and sorted(north.tiles) == [(0, -1), (0, 0), (1, -1), (2, -1)]
    south = game.feature_at(0, 1, 0)
    assert not south.complete and south.pennants == 2
    assert game.is_over
    assert game.scores == [12, 4]
    assert game.points_by_kind["city"] == [12, 4]
    assert list(game.supply) == [7, 6]
    assert events(game) == [
        ev(5, "city", 12, [0], [(0, 0), (0, -1), (1, -1), (2, -1)], complete=True, final=False),
        ev(5, "city", 4, [1], [(0, 1), (-1, 1)], complete=False, final=True),
    ]


def test_city_joined_through_both_caps_of_one_tile_counts_it_once() -> None:
    # Tile I has two separate city caps (N and W). Here both caps end in the same city,
    # a ring around the 2x2 block, so I is counted once.
    #        x=0      x=1
    # y=0    D
    # y=1    N2* ════ N3           N r2 city E+S (meeple P0); N r3 city S+W
    #        ║        ║
    # y=2    N1 ═════ I0           N r1 city N+E; I r0 caps N and W
    # City: 4 tiles, 0 pennants, complete -> 8 (not 10).
    steps = [
        ("base/N", 0, 1, 2, 0),  # P0
        ("base/N", 1, 1, 3, None),  # P1
        ("base/N-garden", 0, 2, 1, None),  # P0
    ]
    last = [("base/I", 1, 2, 0, None)]  # P1 closes the ring
    game = new_game(steps + last)
    play(game, steps)
    u = game.feature_at(0, 1, 0)
    assert not u.complete and u.open_sides == 2  # open at (1,1)S and (0,2)E, both facing (1,2)
    play(game, last)
    city = game.feature_at(1, 2, 0)
    assert city.complete
    assert game.feature_at(1, 2, 1).segments == city.segments  # both caps, one city
    assert sorted(city.tiles) == [(0, 1), (0, 2), (1, 1), (1, 2)]
    assert len(city.segments) == 5
    assert game.scores == [8, 0]
    assert list(game.supply) == [7, 7]
    assert events(game) == [
        ev(4, "city", 8, [0], [(0, 1), (1, 1), (0, 2), (1, 2)], complete=True, final=False)
    ]


def test_city_joined_through_both_caps_of_h_tile_counts_it_once() -> None:
    # Tile H has two separate city caps (N and S); here a ring joins them.
    #        x=0      x=1
    # y=0    D
    # y=1    N2* ════ N3           N r2 city E+S (meeple P0); N r3 city S+W
    #        ║        ║
    # y=2    H0       G1           H r0 caps N and S; G r1 city N-S
    #        ║        ║
    # y=3    M1 ═════ M0           M-garden r1 city N+E (pennant); M r0 city N+W (pennant)
    # City: 6 tiles + 2 pennants, complete -> 2*6 + 2*2 = 16 (not 18).
    steps = [
        ("base/N", 0, 1, 2, 0),  # P0
        ("base/N", 1, 1, 3, None),  # P1
        ("base/G", 1, 2, 1, None),  # P0
        ("base/M", 1, 3, 0, None),  # P1
        ("base/M-garden", 0, 3, 1, None),  # P0
    ]
    last = [("base/H", 0, 2, 0, None)]  # P1 closes the ring with both caps
    game = new_game(steps + last)
    play(game, steps)
    # Before H: one U-shaped city open at (0,1)S and (0,3)N, which H's two caps close.
    u = game.feature_at(0, 1, 0)
    assert u.segments == game.feature_at(0, 3, 0).segments
    assert not u.complete and u.open_sides == 2
    play(game, last)
    city = game.feature_at(0, 2, 0)
    assert city.complete
    assert game.feature_at(0, 2, 1).segments == city.segments
    tiles = [(0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    assert sorted(city.tiles) == sorted(tiles)
    assert len(city.segments) == 7 and city.pennants == 2
    assert game.scores == [16, 0]
    assert list(game.supply) == [7, 7]
    assert events(game) == [ev(6, "city", 16, [0], tiles, complete=True, final=False)]


# Two cities joined by one tile, then completed by another:
#        x=0      x=1
# y=-3   E2                  E r2: city S cap (closes the city)
#        ║
# y=-2   Q1 ═════ N3         Q r1: city N+E+S (pennant) joins A and B; N r3: city S+W
#        ║        ║
# y=-1   G1*      E0         G r1: city N-S (meeple P0) = city A with D; E r0: city N cap
#        ║                   = city B with N3
# y=0    D
# Complete city: D, G, Q, E(0,-3), N, E(1,-1) = 6 tiles + 1 pennant -> 2*6 + 2 = 14.


def _joined_city_steps(city_b_owner: int) -> tuple[list, list, list]:
    first = [
        ("base/G", 0, -1, 1, 0),  # P0 on city A
        ("base/E", 1, -1, 0, 0 if city_b_owner == 1 else None),  # P1
        ("base/N", 1, -2, 3, 0 if city_b_owner == 0 else None),  # P0
    ]
    join = [("base/Q", 0, -2, 1, None)]  # P1 joins A and B
    close = [("base/E", 0, -3, 2, None)]  # P0 completes the city
    return first, join, close


@pytest.mark.parametrize("city_b_owner", [0, 1], ids=["same-owner", "tie"])
def test_two_cities_joined_then_completed(city_b_owner: int) -> None:
    first, join, close = _joined_city_steps(city_b_owner)
    game = new_game(first + join + close)
    play(game, first)
    a, b = game.feature_at(0, -1, 0), game.feature_at(1, -1, 0)
    assert a.segments != b.segments  # still two cities
    assert list(a.meeples) == [1, 0]
    assert list(b.meeples) == ([1, 0] if city_b_owner == 0 else [0, 1])
    # The joining tile may not take a meeple on the city: it joins occupied cities.
    assert Move(0, -2, 1, 0) not in game.legal_moves()
    assert Move(0, -2, 1, None) in game.legal_moves()
    play(game, join)
    city = game.feature_at(0, -2, 0)
    assert city.segments == game.feature_at(1, -1, 0).segments == game.feature_at(0, 0, 1).segments
    assert not city.complete and city.open_sides == 1
    assert list(city.meeples) == ([2, 0] if city_b_owner == 0 else [1, 1])
    assert game.scores == [0, 0]
    play(game, close)
    tiles = [(0, 0), (0, -1), (0, -2), (0, -3), (1, -2), (1, -1)]
    city = game.feature_at(0, -3, 0)
    assert city.complete and sorted(city.tiles) == sorted(tiles)
    assert city.pennants == 1
    assert list(game.supply) == [7, 7]  # every meeple in the city came back
    if city_b_owner == 0:
        # One player holds both meeples: scored once, 14 points.
        assert game.scores == [14, 0]
        assert events(game) == [ev(5, "city", 14, [0], tiles, complete=True, final=False)]
    else:
        # Tie 1-1: both players score the full 14.
        assert game.scores == [14, 14]
        assert events(game) == [ev(5, "city", 14, [0, 1], tiles, complete=True, final=False)]


def test_city_majority_two_meeples_beat_one() -> None:
    # Three cities, joined by the C tile (four-sided city with a pennant):
    #        x=-1     x=0      x=1
    # y=-3            E2                 E r2: city S cap (closes)
    #                 ║
    # y=-2   N2 ═════ C0 ═════ N3        N r2 city E+S; C r0 city N E S W (pennant); N r3 S+W
    #        ║        ║        ║
    # y=-1   E0*      G1*      E0*       meeples: P1 at (-1,-1), P0 at (0,-1) and (1,-1)
    #                 ║
    # y=0             D
    # City: 8 tiles + 1 pennant, complete -> 18. Meeples P0 2, P1 1: only P0 scores.
    steps = [
        ("base/G", 0, -1, 1, 0),  # P0
        ("base/E", -1, -1, 0, 0),  # P1
        ("base/E", 1, -1, 0, 0),  # P0
        ("base/N", -1, -2, 2, None),  # P1
        ("base/N", 1, -2, 3, None),  # P0
        ("base/C", 0, -2, 0, None),  # P1 joins all three
    ]
    last = [("base/E-garden", 0, -3, 2, None)]  # P0 closes
    game = new_game(steps + last)
    play(game, steps)
    city = game.feature_at(0, -2, 0)
    assert list(city.meeples) == [2, 1] and city.open_sides == 1
    assert list(game.supply) == [5, 6]
    play(game, last)
    tiles = [(0, 0), (0, -1), (0, -2), (0, -3), (-1, -1), (-1, -2), (1, -1), (1, -2)]
    assert game.scores == [18, 0]
    assert list(game.supply) == [7, 7]  # the loser's meeple returns too
    assert events(game) == [ev(7, "city", 18, [0], tiles, complete=True, final=False)]


# ----- 3. monasteries ------------------------------------------------------------------


def test_monastery_complete_and_incomplete_at_end() -> None:
    #        x=-1     x=0      x=1      x=2
    # y=0    U0 ───── D ────── U0
    # y=1    V0       B*       V3 ───── A1*     B: monastery (P0); A r1: monastery, road W (P1)
    #        │                 │
    # y=2    V2 ───── U0 ───── V1
    # B at (0,1) is complete when its 8th neighbour (1,2) arrives: 9 for P0.
    # A at (2,1) at game end: neighbours (1,0), (1,1), (1,2) present -> 1 + 3 = 4 for P1.
    steps = [
        ("base/B", 0, 1, 0, "monastery"),  # P0
        ("base/U", -1, 0, 0, None),  # P1
        ("base/U", 1, 0, 0, None),  # P0
        ("base/V", 1, 1, 3, None),  # P1
        ("base/V", -1, 1, 0, None),  # P0
        ("base/A", 2, 1, 1, "monastery"),  # P1
        ("base/U", 0, 2, 0, None),  # P0
        ("base/V", -1, 2, 2, None),  # P1
    ]
    last = [("base/V", 1, 2, 1, None)]  # P0 fills the 8th square around B
    game = new_game(steps + last)
    play(game, steps)
    assert game.scores == [0, 0]
    assert list(game.supply) == [6, 6]
    assert not game.feature_at(0, 1, 0).complete
    play(game, last)
    assert game.feature_at(0, 1, 0).complete
    assert game.is_over
    assert game.scores == [9, 4]
    assert game.points_by_kind["monastery"] == [9, 4]
    assert list(game.supply) == [7, 6]
    assert events(game) == [
        ev(9, "monastery", 9, [0], [(0, 1)], complete=True, final=False),
        ev(9, "monastery", 4, [1], [(2, 1)], complete=False, final=True),
    ]


# ----- 4. fields -----------------------------------------------------------------------


def test_field_touching_two_completed_cities_and_one_incomplete() -> None:
    #        x=-1     x=0      x=1
    # y=-2                     E2          E r2 city S cap: closes city2
    #                          ║
    # y=-1            E2       E0*         E r2 at (0,-1) closes city1 = D + E2
    #                 ║                    E r0 at (1,-1): city2 (meeple P1)
    # y=0    D ────── D ────── U0*         D at (-1,0): city3 (N cap, incomplete)
    #                                      U r0 at (1,0): farmer P0 on the north field
    # The farmer's field: U0 north, D(0,0) north strip (touches city1), D(-1,0) north strip
    # (touches city3), E0(1,-1) field (touches city2), E2(0,-1) field (touches city1).
    # City2 scores 2*2 = 4 for P1 during play. At the end the field touches completed
    # cities 1 and 2 (city3 is incomplete): 3 * 2 = 6 for P0. City1 borders the field
    # through two tiles (D's strip and E2's field) and still counts once (9 would be wrong).
    steps = [
        ("base/U", 1, 0, 0, "NL"),  # P0 farmer
        ("base/E", 1, -1, 0, "N"),  # P1 city
        ("base/E", 0, -1, 2, None),  # P0: completes city1 (no meeple: no score)
        ("base/E", 1, -2, 2, None),  # P1: completes city2
    ]
    last = [("base/D", -1, 0, 0, None)]  # P0
    game = new_game(steps + last)
    play(game, steps)
    assert game.scores == [0, 4]  # fields are not scored during play
    assert list(game.supply) == [6, 7]
    play(game, last)
    assert game.is_over
    field = game.feature_at(1, 0, 1)
    assert field.kind == "field" and list(field.meeples) == [1, 0]
    field_tiles = [(-1, 0), (0, 0), (1, 0), (1, -1), (0, -1)]
    assert sorted(field.tiles) == sorted(field_tiles)
    assert not game.feature_at(-1, 0, 1).complete  # city3
    assert game.scores == [6, 4]
    assert game.points_by_kind["field"] == [6, 0]
    assert list(game.supply) == [6, 7]  # the farmer stays on the board
    assert events(game) == [
        ev(4, "city", 4, [1], [(1, -1), (1, -2)], complete=True, final=False),
        ev(5, "field", 6, [0], field_tiles, complete=False, final=True),
    ]


@pytest.mark.parametrize("second_farmer", [True, False], ids=["majority-2v1", "tie-1v1"])
def test_field_majority(second_farmer: bool) -> None:
    #        x=-1     x=0      x=1
    # y=-1            E2*      V2          E r2 (0,-1): city S cap closes D's city (city1);
    #                 ║                    farmer P0 on its field (field X).
    # y=0    U0* ──── D ────── A1          V r2 (1,-1): road N-E, field on S and W.
    #                 |                    U r0 (-1,0): farmer P0 on north field (north strip)
    # y=1             U0*                  U r0 (0,1): farmer P1 on north field = D's south
    # Three fields until A1 (monastery, road W) at (1,0) joins them: its one field touches
    # D's north strip (WR), D's south field (WL) and V2's field (N side). The merged field
    # touches one completed city (city1) -> 3 points.
    # Farmers P0 2 vs P1 1: only P0 scores 3. Without P0's second farmer: 1 vs 1, both 3.
    steps = [
        ("base/E", 0, -1, 2, "NL"),  # P0 farmer on the field north of city1
        ("base/U", 0, 1, 0, "NL"),  # P1 farmer on D's south field
        ("base/U", -1, 0, 0, "NL" if second_farmer else None),  # P0 north strip
        ("base/V", 1, -1, 2, None),  # P1
    ]
    last = [("base/A", 1, 0, 1, None)]  # P0 joins the three fields
    game = new_game(steps + last)
    play(game, steps)
    north, south, x = (
        game.feature_at(0, 0, 2),
        game.feature_at(0, 0, 3),
        game.feature_at(0, -1, 1),
    )
    assert len({tuple(north.segments), tuple(south.segments), tuple(x.segments)}) == 3
    play(game, last)
    field = game.feature_at(1, 0, 2)
    assert field.segments == game.feature_at(0, 0, 2).segments
    assert field.segments == game.feature_at(0, 0, 3).segments
    assert field.segments == game.feature_at(0, -1, 1).segments
    field_tiles = [(-1, 0), (0, 0), (1, 0), (0, -1), (1, -1), (0, 1)]
    assert sorted(field.tiles) == sorted(field_tiles)
    assert game.is_over
    if second_farmer:
        assert list(field.meeples) == [2, 1]
        assert game.scores == [3, 0]
        assert list(game.supply) == [5, 6]
        assert events(game) == [ev(5, "field", 3, [0], field_tiles, complete=False, final=True)]
    else:
        assert list(field.meeples) == [1, 1]
        assert game.scores == [3, 3]
        assert list(game.supply) == [6, 6]
        assert events(game) == [
            ev(5, "field", 3, [0, 1], field_tiles, complete=False, final=True)
        ]


# ----- 5. discarded tiles --------------------------------------------------------------


def test_unplaceable_tile_is_discarded_and_same_player_draws_again() -> None:
    # After E r2 closes D's city at (0,-1), every open square borders a road or field side,
    # so C (city on all four sides) has no legal placement: it is removed (C-3) and player 1,
    # whose turn it is, draws the next tile (U) instead.
    #        x=0      x=1
    # y=-1   E2
    # y=0    D ────── U0*
    game = new_game([("base/E", 0, -1, 2, None)], extra=["base/C", "base/U"])
    play(game, [("base/E", 0, -1, 2, None)])
    assert not game.is_over
    assert game.current_player == 1
    assert game.tile == "base/U"
    assert game.discarded == [(1, "base/C")]
    assert game.remaining_tiles == []
    play(game, [("base/U", 1, 0, 0, "road E W")])
    assert game.is_over
    assert [p.tile for p in game.board] == ["base/D", "base/E", "base/U"]
    # Road D-U, incomplete: 2 tiles -> 2 for P1 at the end.
    assert game.scores == [0, 2]
    assert game.discarded == [(1, "base/C")]
    assert events(game) == [ev(2, "road", 2, [1], [(0, 0), (1, 0)], complete=False, final=True)]


def test_discarding_the_last_tile_ends_the_game_with_final_scoring() -> None:
    #        x=0      x=1
    # y=-1   E2
    # y=0    D ────── U0*     P0's meeple on the road D-U (2 tiles, incomplete)
    # The last tile, C, cannot be placed: it is discarded and the game ends at once.
    steps = [("base/U", 1, 0, 0, 0), ("base/E", 0, -1, 2, None)]
    game = build(steps, extra=["base/C"])
    assert game.is_over
    assert game.tile is None
    assert game.discarded == [(2, "base/C")]
    assert game.scores == [2, 0]
    assert list(game.supply) == [6, 7]
    assert events(game) == [ev(2, "road", 2, [0], [(0, 0), (1, 0)], complete=False, final=True)]


# ----- 6. Inns & Cathedrals scoring option ---------------------------------------------


@pytest.mark.parametrize("option", [True, False], ids=["ic-scoring", "plain"])
def test_inn_road_complete_and_incomplete(option: bool) -> None:
    #        x=-1     x=0      x=1      x=2
    # y=0    A3 ───── D ────── IB* ──── A1      IB = I&C B (straight road with an inn),
    #                 (P1)                      meeple P0; ends at two monasteries
    # y=1             IA*                       IA = I&C A (curve W-S with an inn), P1, open
    # With the option: complete inn road 2 per tile -> 2*4 = 8; incomplete inn road -> 0.
    # Without: 4 and 1.
    steps = [
        ("inns-and-cathedrals/B-garden", 1, 0, 0, 0),  # P0 on the inn road
        ("inns-and-cathedrals/A", 0, 1, 0, 0),  # P1 on its inn road
        ("base/A", -1, 0, 3, None),  # P0
    ]
    last = [("base/A", 2, 0, 1, None)]  # P1 completes P0's road
    game = new_game(steps + last, tile_sets=IC, inns_and_cathedrals_scoring=option)
    play(game, steps)
    assert game.feature_at(1, 0, 0).inns == 1
    assert game.scores == [0, 0]
    play(game, last)
    assert game.is_over
    tiles = [(-1, 0), (0, 0), (1, 0), (2, 0)]
    assert list(game.supply) == [7, 6]
    if option:
        assert game.scores == [8, 0]
        evs = events(game)
        assert ev(4, "road", 8, [0], tiles, complete=True, final=False) in evs
        # Nothing else gives anyone points.
        assert [e for e in evs if e[2] != 0] == [
            ev(4, "road", 8, [0], tiles, complete=True, final=False)
        ]
    else:
        assert game.scores == [4, 1]
        assert events(game) == [
            ev(4, "road", 4, [0], tiles, complete=True, final=False),
            ev(4, "road", 1, [1], [(0, 1)], complete=False, final=True),
        ]


@pytest.mark.parametrize("option", [True, False], ids=["ic-scoring", "plain"])
def test_cathedral_city_complete(option: bool) -> None:
    #        x=-1     x=0      x=1      x=2
    # y=-2            E2
    #                 ║
    # y=-1   E1 ═════ K* ═════ F0 ═════ E3     K = cathedral (city on all 4 sides), P0
    #                 ║                        F r0 city W-E with a pennant
    # y=0             D
    # City: 6 tiles + 1 pennant. With the option 3*(6+1) = 21; without 2*(6+1) = 14.
    steps = [
        ("inns-and-cathedrals/K", 0, -1, 0, 0),  # P0
        ("base/E", 0, -2, 2, None),  # P1
        ("base/E", -1, -1, 1, None),  # P0
        ("base/F", 1, -1, 0, None),  # P1
    ]
    last = [("base/E", 2, -1, 3, None)]  # P0 closes
    game = new_game(steps + last, tile_sets=IC, inns_and_cathedrals_scoring=option)
    play(game, steps)
    city = game.feature_at(0, -1, 0)
    assert city.cathedrals == 1 and city.pennants == 1 and city.open_sides == 1
    play(game, last)
    expected = 21 if option else 14
    tiles = [(0, 0), (0, -1), (0, -2), (-1, -1), (1, -1), (2, -1)]
    assert game.scores == [expected, 0]
    assert list(game.supply) == [7, 7]
    assert events(game) == [ev(5, "city", expected, [0], tiles, complete=True, final=False)]


@pytest.mark.parametrize("option", [True, False], ids=["ic-scoring", "plain"])
def test_cathedral_city_incomplete_at_end(option: bool) -> None:
    #        x=0
    # y=-1   K*      cathedral, open on N, E and W
    # y=0    D
    # City D+K incomplete: with the option 0; without 1*2 = 2.
    game = build([("inns-and-cathedrals/K", 0, -1, 0, 0)], tile_sets=IC,
                 inns_and_cathedrals_scoring=option)
    assert game.is_over
    assert list(game.supply) == [6, 7]
    if option:
        assert game.scores == [0, 0]
        assert all(e[2] == 0 for e in events(game))
    else:
        assert game.scores == [2, 0]
        assert events(game) == [
            ev(1, "city", 2, [0], [(0, 0), (0, -1)], complete=False, final=True)
        ]


# ----- 7. Traders & Builders goods option ----------------------------------------------


@pytest.mark.parametrize("second_good", ["grain", "wine"])
def test_traders_goods_go_to_the_completing_player(second_good: str) -> None:
    # Wine city (north): D + Cc.w r2 (city E+S, wine, meeple P0) + E r3 at (1,-1), placed by
    # P1. P0 scores the city (3 tiles -> 6); P1, who completed it, takes the wine.
    #        x=-1     x=0      x=1
    # y=-1            Ccw* ═══ E3
    #                 ║
    # y=0             D
    # y=1    (grain:) E1 ═ Ccg            Cc.g r3 city S+W (grain), E r1 cap E, E r0 cap N
    #        (wine:)       CcR!w ═ E3     CcR!.w r2 city E+S (wine), E r3 cap W, E r0 cap N
    # y=2                  E0
    # The second city has no meeple: it scores no points, but P0, who completes it, takes
    # its good.
    # grain: P0 holds 1 grain, P1 1 wine: each wins one majority -> +10 each.
    # wine : P0 1 wine, P1 1 wine: tied majority -> both +10.
    # Totals: P0 6 + 10 = 16, P1 10.
    if second_good == "grain":
        second = [
            ("traders-and-builders/Cc.g", 0, 1, 3, None),  # P0
            ("base/E", -1, 1, 1, None),  # P1
        ]
        second_tiles = [(0, 1), (-1, 1), (0, 2)]
    else:
        second = [
            ("traders-and-builders/CcR!.w", 0, 1, 2, None),  # P0
            ("base/E", 1, 1, 3, None),  # P1
        ]
        second_tiles = [(0, 1), (1, 1), (0, 2)]
    steps = [
        ("traders-and-builders/Cc.w", 0, -1, 2, 0),  # P0 on the wine city
        ("base/E", 1, -1, 3, None),  # P1 completes it
        *second,
        ("base/E", 0, 2, 0, None),  # P0 completes the second city
    ]
    game = new_game(steps, tile_sets=TB, traders_goods=True)
    play(game, steps[:2])
    assert game.scores == [6, 0]
    assert game.goods == [(0, 0, 0), (1, 0, 0)]
    assert list(game.supply) == [7, 7]
    play(game, steps[2:])
    assert game.is_over
    wine_tiles = [(0, 0), (0, -1), (1, -1)]
    expected = [
        ev(2, "city", 6, [0], wine_tiles, complete=True, final=False),
        ev(2, "goods", 0, [1], wine_tiles, complete=True, final=False, goods=(1, 0, 0)),
    ]
    if second_good == "grain":
        assert game.goods == [(0, 1, 0), (1, 0, 0)]
        expected += [
            ev(5, "goods", 0, [0], second_tiles, complete=True, final=False, goods=(0, 1, 0)),
            ev(5, "goods", 10, [1], [], complete=False, final=True, goods=(1, 0, 0)),
            ev(5, "goods", 10, [0], [], complete=False, final=True, goods=(0, 1, 0)),
        ]
    else:
        assert game.goods == [(1, 0, 0), (1, 0, 0)]
        expected += [
            ev(5, "goods", 0, [0], second_tiles, complete=True, final=False, goods=(1, 0, 0)),
            ev(5, "goods", 10, [0, 1], [], complete=False, final=True, goods=(1, 0, 0)),
        ]
    assert game.scores == [16, 10]
    assert game.points_by_kind["goods"] == [10, 10]
    assert game.points_by_kind["city"] == [6, 0]
    assert events(game) == sort_events(expected)


def test_traders_goods_option_off_gives_no_goods() -> None:
    # Same wine city as above without the option: only the city points.
    steps = [
        ("traders-and-builders/Cc.w", 0, -1, 2, 0),  # P0
        ("base/E", 1, -1, 3, None),  # P1 completes
    ]
    game = build(steps, tile_sets=TB)
    assert game.is_over
    assert game.scores == [6, 0]
    assert game.goods == [(0, 0, 0), (0, 0, 0)]
    assert events(game) == [
        ev(2, "city", 6, [0], [(0, 0), (0, -1), (1, -1)], complete=True, final=False)
    ]
