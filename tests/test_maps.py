"""Carcassonne Maps through the Python API: the built-in maps and their defaults, the
seed's worked examples as positions on a map file written here, refused moves and rules,
records, the command line, and the small-town extra turn as the player's decision."""

from __future__ import annotations

import json
import pickle
import random
import tomllib
from pathlib import Path

import numpy as np
import pytest

from carcassonne import (
    Decision,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    Phase,
    RecordError,
    Rules,
    RulesError,
    TileDataError,
    replay,
    simulate,
)
from carcassonne.cli import main
from observe import snapshot

MAPS_DIR = Path(__file__).resolve().parents[1] / "rust" / "carcassonne-core" / "data" / "maps"
ALL_SETS = ["base", "inns-and-cathedrals", "traders-and-builders"]

# The Rust position tests' map (tests/maps.rs): border pieces with coats of arms.
BORDERS = """
name = "borders"
tiles = 12
start_squares = 1
grid = '''
.......
.ooooo.
.oSooo.
.ooooo.
.......
'''

[[border]]
at = [1, 2]
side = "W"
piece = "road"
arms = 2

[[border]]
at = [2, 1]
side = "N"
piece = "city"
arms = 2

[[border]]
at = [1, 3]
side = "W"
piece = "road"
arms = 1
"""


def grid_of(name: str) -> list[str]:
    """The rows of a built-in map's grid, read from the file (not from the engine)."""
    text = tomllib.loads((MAPS_DIR / f"{name}.toml").read_text())["grid"]
    return [row for row in text.split("\n") if row.strip()]


def squares(name: str, symbols: str) -> list[tuple[int, int]]:
    return [(x, y) for y, row in enumerate(grid_of(name)) for x, c in enumerate(row) if c in symbols]


def test_built_in_maps_are_listed_with_the_seed_defaults() -> None:
    assert {"continental", "northern", "coastal"} <= set(Rules.maps())
    for name in ["continental", "northern", "coastal"]:
        rules = Rules(map=name)
        assert rules.map == name and rules.system == "classic"
        assert rules.meeples == 9 and rules.tile_sets == ALL_SETS
        assert not rules.inns_and_cathedrals_scoring and not rules.traders_goods
        data = tomllib.loads((MAPS_DIR / f"{name}.toml").read_text())
        assert rules.start_squares == data["start_squares"]
        # The recommendation (tiles in a game, start tile included), as far as 114 tiles go.
        assert rules.deck_size == min(data["tiles"] - 1, 113)
        labels = dict(rules.reconstructions())
        assert "original layout" in labels[f"{name} (map)"]
        assert rules == Rules.from_json(rules.to_json())
    # Options are kept and named in the repr.
    r = Rules(map="continental", players=3, start_squares=3, deck_size=60, small_towns=[3, 1])
    assert (r.start_squares, r.deck_size, r.small_towns) == (3, 60, [1, 3])
    assert "map='continental'" in repr(r) and "small_towns=[1, 3]" in repr(r)
    assert Rules().map is None and Rules().start_squares is None


def test_the_seed_examples_score_as_the_seed_says(tmp_path: Path) -> None:
    path = tmp_path / "borders.toml"
    path.write_text(BORDERS)
    rules = Rules(map=path, tile_sets=["base"])
    deck = ["base/U", "base/A", "base/G", "base/E"] + ["base/B"] * 4 + ["base/U", "base/U"]
    game = Game(rules, deck=deck)
    printed = [p for p in game.board if p.tile.startswith("map/")]
    assert len(printed) == 3 and game.board[3].tile == "base/D"

    def play(x: int, y: int, r: int, meeple: int | None = None) -> None:
        game.play(game.make_move(x, y, r, meeple))

    play(1, 2, 0, 0)  # a road into the printed border road (2 coats of arms)
    play(3, 2, 1)
    assert game.scores == [8, 0]  # 3 tiles + the printed piece + 2 x 2
    play(2, 1, 1, 0)  # a city closed by the printed border city (2 coats of arms)
    assert game.scores == [18, 0]  # 2 x (2 tiles + the piece + 2)
    play(3, 1, 0, 0)  # a city closed by the neutral border
    assert game.scores == [18, 2]
    play(4, 1, 0, 0)  # a monastery at the border, then its 4 other neighbours
    play(4, 2, 0)
    play(5, 1, 0)
    play(5, 2, 0)
    assert game.scores == [24, 2]  # 1 + 5 existing neighbours
    play(1, 3, 0, 0)
    play(2, 3, 0)
    assert game.is_over and game.scores == [28, 2]  # incomplete: 2 tiles + piece + 1
    finals = [e for e in game.events if e.final_scoring]
    assert [(e.kind, e.points, e.players) for e in finals] == [("road", 4, [0])]


def test_moves_onto_squares_that_take_no_tile_are_refused() -> None:
    game = Game(Rules(map="northern"), seed=3)
    tile = game.tile
    assert tile is not None
    bad = (
        squares("northern", "^")[:2]  # highlights
        + squares("northern", "~")[:2]  # waves
        + squares("northern", "ABCDEFGHIJKLMNOPQRTUVWXYZ")[:2]  # large-city squares
        + [(-1, -1), (0, 0)]  # outside
    )
    for x, y in bad:
        for r in range(4):
            mv = game.make_move(x, y, r)
            before = snapshot(game)
            assert not game.is_legal(mv)
            with pytest.raises(IllegalMoveError):
                game.play(mv)
            assert snapshot(game) == before
    # Every listed move is on a square of the map that takes tiles.
    allowed = set(squares("northern", "otS"))
    assert game.legal_moves() and all((m.x, m.y) in allowed for m in game.legal_moves())


def test_island_squares_open_only_once_linked() -> None:
    islands = set(squares("coastal", "i"))
    rng = random.Random(5)
    game = Game(Rules(map="coastal"), seed=11)
    linked_at = None
    while not game.is_over:
        on_islands = {(m.x, m.y) for m in game.legal_moves()} & islands
        if on_islands and linked_at is None:
            linked_at = game.turn
        game.play(rng.choice(game.legal_moves()))
    # Some island was reached during the game, never before the first ferry was used.
    assert linked_at is not None and linked_at > 0
    assert any((p.x, p.y) in islands for p in game.board)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        (dict(map="atlantis"), 'unknown map "atlantis"'),
        (dict(map="continental", start_squares=0), "start_squares"),
        (dict(map="continental", start_squares=4), "start squares"),
        (dict(map="continental", deck_size=114), "deck_size"),
        (dict(map="continental", deck_size=10**30), "deck_size"),
        (dict(start_squares=2), "choose a map"),
        (dict(deck_size=20), "choose a map"),
        (dict(small_towns=[1]), "choose a map"),
        (dict(map="continental", small_towns=[4]), "small-town variant"),
        (dict(map="continental", small_towns=[1, 1]), "each at most once"),
        (dict(map="continental", tile_sets=["south-seas"]), "classic tiles"),
        (dict(map=("continental", "northern", "coastal")), "pair of half maps"),
        (dict(map=("continental", "northern")), "do not join"),
    ],
)
def test_bad_maps_options_are_refused(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**kwargs)  # type: ignore[arg-type]
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    "change, fragment",
    [
        ((".ooooo.\n.......\n'''", ".ooxoo.\n.......\n'''"), 'line 9, column 4 (square [3, 3]): unknown symbol "x"'),
        (('side = "W"', 'side = "E"'), "faces square [2, 2], not the outside"),
        (("start_squares = 1", "start_squares = 2"), "has 1 start squares"),
        (('piece = "road"', 'piece = "bridge"'), 'piece "bridge" is not "road" or "city"'),
        (("[[border]]", "[[ferries]]\nfrom = [1, 1, \"W\"]\n\n[[border]]"), "missing field `to`"),
    ],
)
def test_malformed_map_files_name_the_file_place_and_fault(
    tmp_path: Path, change: tuple[str, str], fragment: str
) -> None:
    path = tmp_path / "bad-map.toml"
    path.write_text(BORDERS.replace(*change, 1))
    with pytest.raises(TileDataError) as info:
        Rules(map=path)
    message = str(info.value)
    assert "bad-map.toml" in message and fragment in message, message




def test_map_files_too_large_or_missing_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text("#" * (1 << 20) + "\n")
    with pytest.raises(RulesError, match="more than the 1048576"):
        Rules(map=big)
    with pytest.raises(TileDataError, match="cannot read the map file"):
        Rules(map=tmp_path / "missing.toml")


def test_records_clones_and_studies_of_maps_games() -> None:
    rules = Rules(map="coastal", players=3, small_towns=[1, 2, 3])
    rng = random.Random(2)
    game = Game(rules, seed=9, game_index=4)
    while not game.is_over:
        if game.turn == 40 or game.phase == "extra_turn":
            # Also saved while an extra turn is to be decided: the record stops there.
            copy = game.clone()
            replayed = Game.from_json(game.to_json())
            assert snapshot(copy) == snapshot(game) == snapshot(replayed)
        # Every action at random: placements and the extra turns taken or declined.
        game.apply(rng.choice(game.legal_actions()))
    assert game.decisions and {d.kind for _, d in game.decisions} == {"extra_turn"}
    again = Game.from_json(game.to_json())
    assert again.scores == game.scores and snapshot(again) == snapshot(game)
    assert again.decisions == game.decisions
    one = simulate(rules, 200, seed=5, threads=1, policy="greedy")
    two = simulate(rules, 200, seed=5, threads=2, policy="greedy")
    np.testing.assert_array_equal(one.scores, two.scores)
    assert one.points_by_kind.shape[2] == 8


def test_command_line_plays_a_map(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--map", "continental", "--games", "300", "--small-towns", "3"]) == 0
    out = capsys.readouterr().out
    assert "map continental (2 start squares, 113 tiles)" in out
    assert "continental (map)" in out
    assert main(["simulate", "--map", "nowhere", "--games", "3"]) == 2


def test_views_show_the_map_the_open_squares_and_the_printed_pieces_scored() -> None:
    rules = Rules(map="continental")
    assert rules.map_grid() == grid_of("continental")
    joined = Rules(map="west+east").map_grid()
    assert len(joined[0]) == len(grid_of("west")[0]) + len(grid_of("east")[0]) - 1
    assert "h" not in "".join(joined) and "h" in "".join(Rules(map="west").map_grid())
    assert Rules().map_grid() == []
    game = Game(rules, seed=1)
    starts = squares("continental", "S")[:2]
    beside = {(x + dx, y + dy) for x, y in starts for dx, dy in [(0, -1), (1, 0), (0, 1), (-1, 0)]}
    assert set(game.open_squares()) == beside
    # Scorings name the printed pieces of their features.
    named: list[str] = []
    for seed in range(10):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.play(rng.choice(game.legal_moves()))
        named += [p for e in game.events for p in e.printed]
        if named:
            break
    assert named and all(p.startswith("map/continental/") for p in named)
    assert set(named) <= set(rules.tile_ids())


# Start squares are small towns too (S), but for those marked s: one left without a start
# tile counts for the small-town variants as any other small town.
START_TOWNS = """
name = "start-towns"
tiles = 5
start_squares = 1
grid = '''
.......
.S{a}S{b}s.
.......
'''
"""


def start_towns_game(tmp_path: Path, variants: list[int], deck: list[str], plain: bool = False) -> Game:
    """A game on a row of squares: the start tile on the start square (1, 1), then (2, 1),
    the unused start square (3, 1), (4, 1) and the start square (5, 1) that is no small
    town (with ``plain``, (3, 1) is none either)."""
    text = START_TOWNS.replace("{a}", "o").replace("{b}", "o")
    if plain:
        text = text.replace(".SoSos.", ".Sosos.")
    path = tmp_path / ("plain.toml" if plain else "towns.toml")
    path.write_text(text)
    return Game(Rules(map=path, tile_sets=["base"], small_towns=variants), deck=deck)


def place(game: Game, x: int, y: int, meeple: str | None = None) -> None:
    """Plays the first legal move at (x, y): without a meeple, or with one on the feature
    whose description starts with ``meeple``."""
    for m in game.legal_moves():
        described = game.describe_meeple(m)
        if (m.x, m.y) == (x, y) and (described is None if meeple is None else (described or "").startswith(meeple)):
            game.play(m)
            return
    raise AssertionError(f"no move at ({x}, {y}) with {meeple}")


def test_an_unused_start_square_is_a_small_town(tmp_path: Path) -> None:
    road = ["base/U"] * 4
    # Variant 2: covering it costs 2 points; the start square marked s costs nothing.
    game = start_towns_game(tmp_path, [2], road)
    place(game, 2, 1)
    place(game, 3, 1)
    assert game.scores == [0, -2]
    place(game, 4, 1)
    place(game, 5, 1)
    assert game.scores == [0, -2] and game.is_over
    # Variant 1: covering it offers the player another turn; the s square does not.
    game = start_towns_game(tmp_path, [1], road)
    place(game, 2, 1)
    assert game.current_player == 1
    place(game, 3, 1)
    assert game.phase == "extra_turn" and game.decider == 1
    game.apply(Decision.extra_turn(True))
    assert game.current_player == 1 and game.phase == "place"
    place(game, 4, 1)
    assert game.current_player == 0
    place(game, 5, 1)
    assert game.is_over and game.decisions == [(2, Decision.extra_turn(True))]
    # Without the town mark on (3, 1), covering it is an ordinary placement.
    game = start_towns_game(tmp_path, [1, 2], road, plain=True)
    place(game, 2, 1)
    place(game, 3, 1)
    assert game.current_player == 0 and game.scores == [0, 0]
    # The start square used, covered by the start tile before the first turn, is neither
    # a penalty nor an extra turn (the start tile is no player's placement).
    assert start_towns_game(tmp_path, [1, 2], road).scores == [0, 0]


def test_an_uncovered_start_square_counts_for_the_road_bonus(tmp_path: Path) -> None:
    # Variant 3: the road of the start tile and (2, 1), unfinished at the end: 2 tiles,
    # plus 2 for the uncovered small town (3, 1) beside (2, 1).
    game = start_towns_game(tmp_path, [3], ["base/U"])
    place(game, 2, 1, meeple="road")
    assert game.is_over and game.scores == [4, 0]
    plain = start_towns_game(tmp_path, [3], ["base/U"], plain=True)
    place(plain, 2, 1, meeple="road")
    assert plain.is_over and plain.scores == [2, 0]


def test_the_summary_says_which_start_squares_are_small_towns(tmp_path: Path) -> None:
    from carcassonne.maps import check

    path = tmp_path / "towns.toml"
    path.write_text(START_TOWNS.replace("{a}", "o").replace("{b}", "o"))
    summary = check(path).summary
    assert summary is not None
    assert summary.starts == [(1, 1), (3, 1), (5, 1)]
    assert summary.start_towns == [True, True, False]
    assert "start squares: [1, 1] small town, [3, 1] small town, [5, 1] (the first 1 used by default)" in str(summary)
    # The built-in maps' start squares are small towns, as on the printed maps.
    for name in ("continental", "coastal", "northern", "west", "east"):
        s = check(name).summary
        assert s is not None and s.start_towns == [True] * len(s.starts), name


# The Rust position tests' map with two small towns east of the start square (tests/maps.rs).
TOWNS = """
name = "towns"
tiles = 10
start_squares = 1
grid = '''
.......
.ooooo.
.oSott.
.ooooo.
.......
'''
"""

# The road, then the two towns: P0 the road's west end with a meeple on it, P1 its east
# end beside the town at (4, 2), P0 covers that town; whoever moves next covers (5, 2).
ROAD = [Move(1, 2, 3, 1), Move(3, 2, 1)]
TOWN, SECOND_TOWN = Move(4, 2, 0), Move(5, 2, 0)
DECK = ["base/A", "base/A", "base/B", "base/B", "base/B"]


def towns_game(tmp_path: Path, variants: list[int], deck: list[str] = DECK) -> Game:
    path = tmp_path / "towns.toml"
    path.write_text(TOWNS)
    return Game(Rules(map=path, meeples=9, small_towns=variants), deck=deck)


def town_covered(tmp_path: Path, variants: list[int], deck: list[str] = DECK) -> Game:
    """The game after P0 covered the town at (4, 2)."""
    game = towns_game(tmp_path, variants, deck)
    for mv in [*ROAD, TOWN]:
        game.play(mv)
    return game


@pytest.mark.parametrize(
    ("variants", "take", "road", "mover", "scores", "then"),
    [
        # Variants 1, 2, 3: the road scores 3 + 2 for the uncovered town beside it, each
        # town covered costs 2. Taken, P0 covers the second town too and is offered no
        # other extra turn (the extra turn's own town gives none); declined, P1 covers it
        # and is offered one in turn.
        ([1, 2, 3], True, 5, 0, [1, 0], "place"),
        ([1, 2, 3], False, 5, 1, [3, -2], "extra_turn"),
        ([1], True, 3, 0, [3, 0], "place"),
        ([1], False, 3, 1, [3, 0], "extra_turn"),
    ],
)
def test_the_extra_turn_for_a_small_town_is_the_players_choice(
    tmp_path: Path, variants: list[int], take: bool, road: int, mover: int, scores: list[int], then: str
) -> None:
    game = towns_game(tmp_path, variants)
    for mv in ROAD:
        game.play(mv)
    assert game.scores == [road, 0]
    game.play(TOWN)
    # Offered before the next draw: no tile in hand, the two decisions only, P0 decides.
    assert isinstance(game.phase, Phase) and game.phase == "extra_turn"
    assert game.tile is None and game.remaining_tiles == ["base/B", "base/B"]
    assert game.decider == game.current_player == 0
    assert game.legal_actions() == [Decision.extra_turn(False), Decision.extra_turn(True)]
    assert game.legal_moves() == [] and game.scores == [road - 2 if 2 in variants else road, 0]
    assert game.decisions == [] and not game.is_legal(SECOND_TOWN)
    before = snapshot(game)
    pending = r"must first decide whether to take the extra turn \(decision extra_turn"
    with pytest.raises(IllegalMoveError, match=pending):
        game.play(SECOND_TOWN)
    for other in (SECOND_TOWN, Decision.deliver(None)):
        with pytest.raises(IllegalMoveError, match=pending):
            game.apply(other)
    # Questions about the tile in hand say the same, not that the game is over.
    with pytest.raises(IllegalMoveError, match=pending):
        game.make_move(5, 2, 0, meeple="N")
    with pytest.raises(IllegalMoveError, match=pending):
        game.describe_meeple(Move(5, 2, 0, 0))
    assert snapshot(game) == before
    game.apply(Decision.extra_turn(take))
    assert game.decisions == [(3, Decision.extra_turn(take))]
    assert game.phase == "place" and game.tile == "base/B" and game.current_player == mover
    assert game.remaining_tiles == ["base/B"]
    # Decided once: a second decision is refused, the game unchanged.
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="no extra turn is offered"):
        game.apply(Decision.extra_turn(take))
    assert not game.is_legal(Decision.extra_turn(True)) and snapshot(game) == before
    game.play(SECOND_TOWN)
    assert game.scores == scores and game.phase == then and game.decider == 1


def test_without_variant_1_or_a_tile_to_come_no_extra_turn_is_offered(tmp_path: Path) -> None:
    # Without variant 1 covering a town is an ordinary placement.
    game = town_covered(tmp_path, [2, 3])
    assert game.phase == "place" and game.tile == "base/B" and game.current_player == 1
    assert game.scores == [3, 0]
    with pytest.raises(IllegalMoveError, match="no extra turn is offered"):
        game.apply(Decision.extra_turn(True))
    # Covering a town with the last tile offers nothing: the game ends.
    game = town_covered(tmp_path, [1], ["base/A", "base/A", "base/B"])
    assert game.is_over and game.phase == "over" and game.legal_actions() == []
    assert game.decisions == []
    with pytest.raises(GameOverError):
        game.apply(Decision.extra_turn(True))


def test_records_keep_the_extra_turn_decisions(tmp_path: Path) -> None:
    # Saved while the decision is pending, the record replays to the same position.
    pending = town_covered(tmp_path, [1, 2, 3])
    replayed = Game.from_json(pending.to_json())
    assert replayed.phase == "extra_turn" and snapshot(replayed) == snapshot(pending)
    for take in (False, True):
        game = town_covered(tmp_path, [1, 2, 3])
        game.apply(Decision.extra_turn(take))
        game.play(SECOND_TOWN)
        if not take:
            game.apply(Decision.extra_turn(True))
        record = json.loads(game.to_json())
        assert record["decisions"] == [[3, {"extra_turn": take}], *([] if take else [[4, {"extra_turn": True}]])]
        for again in (Game.from_json(game.to_json()), pickle.loads(pickle.dumps(game))):
            assert again.decisions == game.decisions and snapshot(again) == snapshot(game)
        # A record without its decisions, or with another choice, does not replay.
        with pytest.raises(RecordError, match="lacks the decisions of turn 3"):
            Game.from_json(json.dumps({**record, "decisions": []}))
        other = [[3, {"extra_turn": not take}], *record["decisions"][1:]]
        with pytest.raises(RecordError):
            Game.from_json(json.dumps({**record, "decisions": other}))


def test_records_of_rules_version_5_replay_with_every_extra_turn_taken(tmp_path: Path) -> None:
    # Before rules version 6 the extra turn was always taken and records list no decision
    # for it: such a record replays with the extra turn taken.
    game = town_covered(tmp_path, [1, 2, 3])
    game.apply(Decision.extra_turn(True))
    game.play(SECOND_TOWN)
    game.play(game.legal_moves()[0])
    assert game.is_over and game.scores == [1, 0]
    old = {**json.loads(game.to_json()), "rules_version": 5}
    del old["decisions"]
    replayed = Game.from_json(json.dumps(old))
    assert replayed.decisions == [(3, Decision.extra_turn(True))]
    assert replayed.moves == game.moves and replayed.scores == [1, 0] and replayed.is_over
    # A game where it was declined gives other scores under version 5: refused, saying so.
    declined = town_covered(tmp_path, [1, 2, 3])
    declined.apply(Decision.extra_turn(False))
    declined.play(SECOND_TOWN)
    declined.apply(Decision.extra_turn(False))
    old = {**json.loads(declined.to_json()), "rules_version": 5}
    del old["decisions"]
    with pytest.raises(RecordError, match="played under rules version 5"):
        Game.from_json(json.dumps(old))


def test_every_player_is_asked_for_the_extra_turn(tmp_path: Path) -> None:
    game = town_covered(tmp_path, [1, 2, 3])
    seen: list[tuple[str, str | None, list[Decision | Move]]] = []

    def take_it(g: Game) -> Decision | Move:
        seen.append((g.phase, g.tile, g.legal_actions()))
        return Decision.extra_turn(True) if g.phase == "extra_turn" else g.legal_actions()[0]

    # A Python function is asked like for any decision, on a copy in the same phase.
    assert game.best_move(take_it) == Decision.extra_turn(True)
    assert seen == [("extra_turn", None, [Decision.extra_turn(False), Decision.extra_turn(True)])]
    # The built-in players choose one of the two.
    for player in ("random", "greedy", "mcts"):
        assert game.best_move(player, seed=1) in game.legal_actions()
    values = game.analyse("mcts", seed=1)
    assert [v.action for v in values] == game.legal_actions() and sum(v.visits for v in values) > 0
    # In a study, the function decides every extra turn of its seat; replayed, the
    # decisions are its own.
    rules = game.rules

    def decline(g: Game) -> Decision | Move:
        return Decision.extra_turn(False) if g.phase == "extra_turn" else g.legal_actions()[0]

    result = simulate(rules, 20, seed=3, threads=1, players=[decline, decline])
    assert result.scores.shape == (20, 2)
    decided = [d for i in range(20) for _, d in replay(rules, 3, i, players=[decline, decline]).decisions]
    assert decided and set(decided) == {Decision.extra_turn(False)}
