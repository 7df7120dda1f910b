"""Bad input of every kind must raise a clear, specific Python exception with a helpful
message (never a panic or a crash), and a refused move must leave the game unchanged."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import carcassonne
from carcassonne import (
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    RecordError,
    Rules,
    RulesError,
    TileDataError,
    UnknownTileError,
    max_threads,
    simulate,
)
from carcassonne.cli import main
from observe import snapshot

REPO = Path(__file__).resolve().parents[1]


def refused(game: Game, move: Move, *fragments: str, error: type[Exception] = IllegalMoveError) -> str:
    """Plays an illegal move: it must raise ``error`` naming ``fragments`` and change nothing."""
    before = snapshot(game)
    assert not game.is_legal(move)
    with pytest.raises(error) as info:
        game.play(move)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert snapshot(game) == before
    return message


# ----- the exception hierarchy ------------------------------------------------------------


def test_exception_hierarchy() -> None:
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(GameOverError, IllegalMoveError)
    assert issubclass(RulesError, ValueError)
    assert issubclass(TileDataError, RulesError)
    assert issubclass(UnknownTileError, RulesError)
    assert issubclass(RecordError, ValueError)
    assert not issubclass(RecordError, RulesError)
    assert not issubclass(IllegalMoveError, RulesError)
    # One base for every error of the library, each still a ValueError.
    import carcassonne

    errors = [getattr(carcassonne, n) for n in carcassonne.__all__ if n.endswith("Error")]
    errors += [carcassonne.stats.StatsError, carcassonne.study.scaleout.BackendError]
    assert len(errors) >= 12
    for error in errors:
        assert issubclass(error, carcassonne.CarcassonneError) and issubclass(error, ValueError), error
    for exc in (IllegalMoveError, GameOverError, RulesError, TileDataError, UnknownTileError, RecordError):
        assert exc.__doc__, exc


# ----- rules -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 7, -1, 100, 2**40])
def test_bad_player_count(players: int) -> None:
    with pytest.raises(RulesError, match="players must be between 2 and 6") as info:
        Rules(players=players)
    assert str(players) in str(info.value)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_good_player_counts(players: int) -> None:
    rules = Rules(players=players)
    assert rules.players == players
    assert list(Game(rules).supply) == [7] * players


@pytest.mark.parametrize("meeples", [-1, -7, 100, 1000, 2**40])
def test_bad_meeple_count(meeples: int) -> None:
    with pytest.raises(RulesError, match="meeples per player must be between 0 and 99") as info:
        Rules(meeples=meeples)
    assert str(meeples) in str(info.value)


def test_meeple_count_bounds_are_accepted() -> None:
    assert Rules(meeples=0).meeples == 0
    assert Rules(meeples=99).meeples == 99


@pytest.mark.parametrize("name", ["nope", "Base", "base ", "inns", ""])
def test_unknown_tile_set(name: str) -> None:
    with pytest.raises(RulesError, match="unknown tile set") as info:
        Rules(tile_sets=(name,))
    assert f'"{name}"' in str(info.value)
    assert "inns-and-cathedrals" in str(info.value)  # says what is available


def test_tile_set_argument_shape() -> None:
    with pytest.raises(RulesError, match="sequence"):
        Rules(tile_sets="base")  # a bare string, not a sequence of names
    with pytest.raises(RulesError, match="at least one tile set"):
        Rules(tile_sets=())
    with pytest.raises(RulesError, match="defined by two tile sets"):
        Rules(tile_sets=("base", "base"))


def test_unknown_start_tile() -> None:
    with pytest.raises(UnknownTileError, match="base/ZZ"):
        Rules(start_tile="base/ZZ")
    with pytest.raises(UnknownTileError, match="inns-and-cathedrals/A"):
        Rules(start_tile="inns-and-cathedrals/A")  # a real id, but not in the chosen sets


def test_missing_tile_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(TileDataError) as info:
        Rules(tile_sets=(str(path),))
    assert str(path) in str(info.value)


def test_unknown_tile_id_in_deck() -> None:
    rules = Rules()
    for deck, bad in (
        (["base/D", "base/NOPE"], "base/NOPE"),
        (["D"], "D"),
        (["inns-and-cathedrals/A"], "inns-and-cathedrals/A"),  # a set not chosen
    ):
        with pytest.raises(UnknownTileError) as info:
            Game(rules, deck=deck)
        assert repr(bad).replace("'", '"') in str(info.value)
    with pytest.raises(UnknownTileError):
        rules.tile_features("base/ZZ")
    with pytest.raises(UnknownTileError):
        rules.tile_edges("nope")


def test_bad_deck_shapes() -> None:
    rules = Rules()
    with pytest.raises(RulesError, match="too large"):
        Game(rules, deck=["base/D"] * 4001)
    with pytest.raises(TypeError):
        Game(rules, deck="base/D")
    with pytest.raises(TypeError):
        Game(rules, deck=[1, 2])  # type: ignore[list-item]
    with pytest.raises((OverflowError, ValueError)):
        Game(rules, seed=-1)
    with pytest.raises((OverflowError, ValueError)):
        Game(rules, game_index=2**64)
    # An empty deck is a legal (finished) game, not an error.
    g = Game(rules, deck=[])
    assert g.is_over and g.legal_moves() == [] and g.scores == [0, 0]


# ----- malformed tile files ----------------------------------------------------------------

GOOD_TILE = """
[[tiles]]
id = "D"
count = 2
edges = "CRFR"
features = "R(W E) ; C(N) ; F(EL WR)~N ; F(ER SL SR WL)"
"""


def tile_file(tmp_path: Path, body: str, name: str = "mine") -> Path:
    path = tmp_path / f"{name}-tiles.toml"
    path.write_text(f'name = "{name}"\ntitle = "test tiles"\n{GOOD_TILE}\n{body}')
    return path


def test_a_good_tile_file_loads(tmp_path: Path) -> None:
    path = tile_file(tmp_path, "")
    rules = Rules(tile_sets=(path,), start_tile="mine/D")  # a Path works as well as a str
    assert rules.tile_sets == [str(path)]
    assert rules.deck_size == 1
    assert rules.tile_ids() == ["mine/D"]
    game = Game(rules)
    assert game.tile == "mine/D"
    # The record embeds the tile file, so it loads without the file.
    text = game.to_json()
    path.unlink()
    assert Game.from_json(text).to_json() == text


BAD_TILES = [
    pytest.param(
        '[[tiles]\nid = "Z"\n',
        None,
        "not a valid tile file",
        id="invalid-toml",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 1\nedges = "CCCF"\nfeatures = "C(N E S W)"\n',
        "Z",
        'edges say "CCCF" but the features make "CCCC"',
        id="edges-disagree-with-features",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 1\nedges = "CCCC"\nfeatures = "C(N E S W) ; R(N)"\n',
        "Z",
        "slot N belongs to two segments",
        id="slot-used-twice",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 1\nedges = "FFFF"\nfeatures = "F(NL NR EL ER SL SR WL WR)~N"\n',
        "Z",
        "field borders a city at N but no city segment reaches N",
        id="field-names-missing-city",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 1\nedges = "FFFF"\nfeatures = "F(NL NR EL ER SL SR WL)"\n',
        "Z",
        "side W",
        id="half-edge-without-field",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 1\nedges = "FFFF"\nfeatures = "X(N)"\n',
        "Z",
        "unknown feature",
        id="unknown-feature",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 0\nedges = "FFFF"\nfeatures = "F(NL NR EL ER SL SR WL WR)"\n',
        "Z",
        "count must be between 1 and 4000 (the largest deck), got 0",
        id="zero-count",
    ),
    pytest.param(
        '[[tiles]]\nid = "D"\ncount = 1\nedges = "CRFR"\nfeatures = "R(W E) ; C(N) ; F(EL WR)~N ; F(ER SL SR WL)"\n',
        "D",
        "defined twice",
        id="duplicate-id",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 1\nedges = "RRRR"\nfeatures = "R(N E S W)+pennant ; F(NL NR EL ER SL SR WL WR)"\n',
        "Z",
        "pennant",
        id="pennant-on-a-road",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 1\nedges = "RRRF"\nfeatures = "R(N E S) ; F(NL WR SR WL) ; F(NR EL) ; F(ER SL)"\n',
        "Z",
        "a road segment reaches at most two",
        id="road-through-a-junction",
    ),
    pytest.param(
        '[[tiles]]\nid = "Z"\ncount = 1\nedges = "FFFF"\nfeatures = "F(NL NR EL ER SL SR WL WR)"\ncolour = "red"\n',
        None,
        "colour",
        id="unknown-key",
    ),
]


@pytest.mark.parametrize(("body", "tile", "fault"), BAD_TILES)
def test_malformed_tile_file(tmp_path: Path, body: str, tile: str | None, fault: str) -> None:
    path = tile_file(tmp_path, body)
    with pytest.raises(TileDataError) as info:
        Rules(tile_sets=(str(path),), start_tile="mine/D")
    message = str(info.value)
    assert str(path) in message, message  # names the file
    if tile is not None:
        assert f'tile "{tile}"' in message, message  # names the tile
    assert fault in message, message  # names the fault
    # Also refused when combined with a built-in set, and through the CLI.
    with pytest.raises(TileDataError):
        Rules(tile_sets=("base", str(path)))


HALVES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]
sides = st.lists(st.sampled_from("NESW"), unique=True, max_size=4)
symbols = st.lists(st.sampled_from(["pennant", "inn", "cathedral", "wine", "grain", "cloth", "gold"]), max_size=2)
tokens = st.one_of(
    st.builds(lambda k, s, y: f"{k}({' '.join(s)})" + "".join("+" + x for x in y), st.sampled_from("CR"), sides, symbols),
    st.builds(
        lambda h, adj: f"F({' '.join(h)})" + (f"~{''.join(adj)}" if adj else ""),
        st.lists(st.sampled_from(HALVES + ["I"]), unique=True, max_size=8),
        sides,
    ),
    st.just("MONASTERY"),
    st.just("garden"),
    st.text(alphabet="ABCDFXYZ()~+ ", max_size=8),
)


@st.composite
def consistent_features(draw: st.DrawFn) -> str:
    """Feature strings that usually describe a valid tile (cities, roads and fields
    grouped at random), sometimes with one token dropped or duplicated."""
    kinds = {side: draw(st.sampled_from("CRF")) for side in "NESW"}

    def groups(items: list[str]) -> list[list[str]]:
        out: list[list[str]] = []
        for item in items:
            k = draw(st.integers(0, len(out)))
            if k == len(out):
                out.append([item])
            else:
                out[k].append(item)
        return out

    toks = []
    cities = [s for s in "NESW" if kinds[s] == "C"]
    for g in groups(cities):
        toks.append(f"C({' '.join(g)})" + "".join("+" + x for x in draw(symbols)))
    for g in groups([s for s in "NESW" if kinds[s] == "R"]):
        toks.append(f"R({' '.join(g)})" + draw(st.sampled_from(["", "+inn"])))
    halves = [h for h in HALVES if kinds[h[0]] != "C"]
    for g in groups(halves):
        adj = draw(st.lists(st.sampled_from(cities), unique=True)) if cities else []
        toks.append(f"F({' '.join(g)})" + (f"~{''.join(adj)}" if adj else ""))
    if draw(st.booleans()):
        toks.append("MONASTERY")
    if draw(st.booleans()):
        toks.append("F(I)")
    if draw(st.booleans()):
        toks.append("garden")
    toks = draw(st.permutations(toks))
    mutation = draw(st.sampled_from(["none", "none", "none", "drop", "duplicate"]))
    if mutation == "drop" and toks:
        toks = toks[1:]
    elif mutation == "duplicate" and toks:
        toks = [*toks, toks[0]]
    return " ; ".join(toks)


def _try_rules(tmp_path: Path, features: str, edges: str) -> tuple[Rules | None, str | None, Path]:
    path = tmp_path / "fuzz.toml"
    path.write_text(f'name = "fz"\n[[tiles]]\nid = "T"\ncount = 3\nedges = "{edges}"\nfeatures = "{features}"\n')
    try:
        return Rules(tile_sets=("base", str(path))), None, path
    except TileDataError as e:
        return None, str(e), path


@settings(max_examples=max(60, settings().max_examples))
@given(
    features=consistent_features() | st.lists(tokens, min_size=1, max_size=7).map(" ; ".join),
    seed=st.integers(0, 2**32),
)
def test_fuzzed_tile_files_fail_cleanly_or_play(
    tmp_path_factory: pytest.TempPathFactory, features: str, seed: int
) -> None:
    tmp_path = tmp_path_factory.mktemp("fuzz")
    rules, error, path = _try_rules(tmp_path, features, "FFFF")
    if error is not None:
        m = re.search(r'edges say "FFFF" but the features make "([CRF]{4})"', error)
        if m:  # retry with the edges the features make
            rules, error, path = _try_rules(tmp_path, features, m.group(1))
    event("tile file refused" if error is not None else "tile file loads")
    if error is not None:
        assert rules is None
        assert str(path) in error and 'tile "T"' in error, error
        return
    assert rules is not None
    # A tile file that loads must give a playable, consistent game.
    assert "fz/T" in rules.tile_ids() and rules.deck_size == 71 + 3
    game = Game(rules, seed=seed)
    rnd = random.Random(seed)
    while not game.is_over:
        legal = game.legal_moves()
        assert legal == sorted(set(legal))
        mv = legal[rnd.randrange(len(legal))]
        game.play(mv)
        on_board = [0, 0]
        for p in game.board:
            if p.meeple is not None:
                on_board[p.meeple[0]] += 1
        assert [game.supply[p] + on_board[p] for p in range(2)] == [7, 7]
    assert game.turn + len(game.discarded) == rules.deck_size
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


# ----- illegal moves -----------------------------------------------------------------------


def d_game(**rules: Any) -> Game:
    """Start tile base/D at (0, 0): road W-E (feature 0), city N (1), fields (2, 3)."""
    return Game(Rules(**rules), deck=["base/D", "base/D", "base/D", "base/D", "base/E"])


def test_wrong_edges() -> None:
    g = d_game()
    # base/D turned twice shows its city to the south, where the start tile shows a city
    # on its north: at (0, -1) a city must face south. Rotation 0 shows a field there.
    msg = refused(g, Move(0, -1, 0), "S side", "field", "city")
    assert "neighbouring tile" in msg
    refused(g, Move(1, 0, 1), "W side", "road")  # turned: the road no longer meets the road
    g.play(Move(0, -1, 2))
    assert g.board[-1].tile == "base/D"


def test_occupied_and_non_adjacent_squares() -> None:
    g = d_game()
    refused(g, Move(0, 0, 0), "(0, 0) already holds a tile")
    for x, y in ((2, 0), (1, 1), (-1, -1), (0, 5), (1000, 1000), (2**31 - 1, -(2**31))):
        refused(g, Move(x, y, 0), f"({x}, {y}) does not touch any placed tile")
    g.play(Move(1, 0, 0))
    refused(g, Move(1, 0, 0), "(1, 0) already holds a tile")
    refused(g, Move(3, 0, 0), "does not touch")


@pytest.mark.parametrize("rotation", [4, 5, -1, 255, 2**40])
def test_bad_rotation(rotation: int) -> None:
    g = d_game()
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as info:
        Move(1, 0, rotation)
    assert "rotation must be 0, 1, 2 or 3" in str(info.value)
    assert str(rotation) in str(info.value)
    with pytest.raises(IllegalMoveError, match="rotation must be 0, 1, 2 or 3"):
        g.make_move(1, 0, rotation)
    with pytest.raises(IllegalMoveError, match="rotation must be 0, 1, 2 or 3"):
        g.make_move(1, 0, rotation, "N")
    assert snapshot(g) == before


def test_symmetric_rotation_is_refused_with_a_hint() -> None:
    g = Game(Rules(), deck=["base/U"])  # a straight road: turns 0 and 2 look the same
    legal = g.legal_moves()
    # base/U is a road W-E: at (1, 0) turns 0 and 2 both fit and are the same placement.
    assert {m.rotation for m in legal if (m.x, m.y) == (1, 0)} == {0}
    msg = refused(g, Move(1, 0, 2), "base/U is symmetric", "rotation 2", "play rotation 0")
    assert "same placement" in msg
    refused(g, Move(1, 0, 2, 0), "symmetric")
    refused(g, Move(1, 0, 1), "side")  # a quarter turn does not fit at all


def test_meeple_index_out_of_range() -> None:
    g = d_game()
    refused(g, Move(1, 0, 0, 4), "base/D has no feature 4", "it has 4")
    refused(g, Move(1, 0, 0, 254), "no feature 254")
    for bad in (-1, 255, 256, 2**40):
        with pytest.raises(IllegalMoveError, match="meeple must be between 0 and 254") as info:
            Move(1, 0, 0, bad)
        assert str(bad) in str(info.value)
    with pytest.raises(IllegalMoveError):
        g.describe_meeple(Move(1, 0, 0, 9))


def test_meeple_on_occupied_feature() -> None:
    g = d_game()
    g.play(Move(1, 0, 0, 0))  # player 0: meeple on the road
    assert g.board[-1].meeple == (0, 0)
    refused(g, Move(-1, 0, 0, 0), "road", "already holds a meeple")  # player 1: same road
    refused(g, Move(-1, 0, 0, 0), "road E W")
    assert Move(-1, 0, 0, 0) not in g.legal_moves()
    assert Move(-1, 0, 0, 1) in g.legal_moves()
    g.play(Move(-1, 0, 0, 1))  # the city is free
    assert g.board[-1].meeple == (1, 1)


def test_no_meeple_left() -> None:
    g = d_game(meeples=0)
    assert all(m.meeple is None for m in g.legal_moves())
    refused(g, Move(1, 0, 0, 3), "player 0 has no meeple left")
    g = d_game(meeples=1)
    g.play(Move(1, 0, 0, 3))  # player 0 puts their only meeple on a field
    g.play(Move(-1, 0, 0))
    assert g.current_player == 0 and list(g.supply) == [0, 1]
    refused(g, Move(0, -1, 2, 0), "player 0 has no meeple left")
    assert all(m.meeple is None for m in g.legal_moves())


def test_field_meeple_with_farmers_off() -> None:
    g = d_game(farmers=False)
    refused(g, Move(1, 0, 0, 2), "farmers are off")
    refused(g, Move(1, 0, 0, 3), "farmers are off")
    assert {m.meeple for m in g.legal_moves() if (m.x, m.y, m.rotation) == (1, 0, 0)} == {None, 0, 1}


def test_make_move_with_a_bad_feature_name() -> None:
    g = d_game()
    for name in ("X", "", "monastery", "I", "north"):
        with pytest.raises(IllegalMoveError) as info:
            g.make_move(1, 0, 0, name)
        msg = str(info.value)
        assert "base/D" in msg and repr(name).replace("'", '"') in msg and "monastery" in msg


def test_move_after_the_game_ended() -> None:
    g = Game(Rules(), deck=["base/D"])
    last = g.legal_moves()[0]
    g.play(last)
    assert g.is_over and g.tile is None and g.legal_moves() == []
    for mv in (last, Move(0, 0, 0), Move(-1, 0, 0), Move(1, 0, 0, 0)):
        msg = refused(g, mv, "game is over", error=GameOverError)
        assert "over" in msg
    with pytest.raises(GameOverError):
        g.make_move(-1, 0, 0, "N")
    with pytest.raises(GameOverError):
        g.describe_meeple(Move(-1, 0, 0, 0))
    # GameOverError is an IllegalMoveError and a ValueError.
    with pytest.raises(IllegalMoveError):
        g.play(last)
    with pytest.raises(ValueError):
        g.play(last)
    empty = Game(Rules(), deck=[])
    refused(empty, Move(1, 0, 0), "over", error=GameOverError)


def test_feature_queries_on_bad_squares() -> None:
    g = d_game()
    with pytest.raises(ValueError, match=r"no tile at \(5, 5\)"):
        g.feature_at(5, 5, 0)
    with pytest.raises(ValueError, match="has no feature 9"):
        g.feature_at(0, 0, 9)


# ----- simulate ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        (dict(policy="foo"), RulesError, "unknown policy 'foo'"),
        (dict(policy=""), RulesError, "unknown policy"),
        (dict(threads=0), RulesError, f"threads must be between 1 and {max_threads()} (4 per core), got 0"),
        (dict(threads=-2), RulesError, "threads must be between 1 and"),
        (dict(games=-1), RulesError, "games must be between 0 and 2**64 - 1, got -1"),
        (dict(seed=-1), RulesError, "seed must be between 0 and 2**64 - 1, got -1"),
        (dict(seed=2**64), RulesError, "seed must be between 0 and 2**64 - 1, got 18446744073709551616"),
        (dict(first_game=-1), RulesError, "first_game must be between 0 and 2**64 - 1, got -1"),
    ],
)
def test_bad_simulate_arguments(kwargs: dict[str, Any], error: type[Exception], fragment: str) -> None:
    args: dict[str, Any] = dict(games=10, seed=0)
    args.update(kwargs)
    with pytest.raises(error) as info:
        simulate(Rules(), **args)
    assert fragment in str(info.value)


def test_concat_refuses_batches_of_different_studies() -> None:
    rules = Rules()
    a = simulate(rules, games=20, seed=1, threads=1)
    b = simulate(rules, games=20, seed=1, threads=1, first_game=20)
    with pytest.raises(ValueError, match="at least one"):
        carcassonne.SimulationResult.concat([])
    with pytest.raises(ValueError, match="not consecutive"):
        carcassonne.SimulationResult.concat([a, simulate(rules, games=20, seed=1, threads=1, first_game=21)])
    with pytest.raises(ValueError, match="not consecutive"):
        carcassonne.SimulationResult.concat([a, a])
    with pytest.raises(ValueError, match="seed"):
        carcassonne.SimulationResult.concat([a, simulate(rules, games=20, seed=2, threads=1, first_game=20)])
    with pytest.raises(ValueError, match="policy"):
        carcassonne.SimulationResult.concat(
            [a, simulate(rules, games=20, seed=1, threads=1, first_game=20, policy="greedy")]
        )
    with pytest.raises(ValueError, match="rules"):
        carcassonne.SimulationResult.concat([a, simulate(Rules(players=3), games=20, seed=1, first_game=20)])
    assert carcassonne.SimulationResult.concat([b, a]).games == 40


def test_zero_games_is_an_empty_study() -> None:
    result = simulate(Rules(players=3), games=0, seed=1, threads=1)
    assert result.scores.shape == (0, 3) and result.turns.shape == (0,)
    assert result.points_by_kind.shape == (0, 3, len(carcassonne.SCORE_KINDS))


# ----- records -----------------------------------------------------------------------------


GARBAGE = [
    "",
    "garbage",
    "{",
    "{}",
    "[]",
    "null",
    "42",
    '"carcassonne-game"',
    '{"format": "carcassonne-game"}',
    "\x00\x01\x02",
    "{" * 10_000,
]


@pytest.mark.parametrize("text", GARBAGE)
def test_from_json_garbage(text: str) -> None:
    with pytest.raises(RecordError) as info:
        Game.from_json(text)
    assert "record" in str(info.value)


@given(st.text(max_size=200))
def test_from_json_arbitrary_text(text: str) -> None:
    with pytest.raises(RecordError):
        Game.from_json(text)


def played_record(turns: int = 12) -> dict[str, Any]:
    g = Game(Rules(), seed=5)
    for _ in range(turns):
        g.play(g.legal_moves()[-1])
    record: dict[str, Any] = json.loads(g.to_json())
    return record


def test_tampered_records() -> None:
    good = played_record()
    assert Game.from_json(json.dumps(good)).scores == good["scores"]

    bad = dict(good, format="chess-game")
    with pytest.raises(RecordError, match="not a game record"):
        Game.from_json(json.dumps(bad))

    bad = dict(good, format_version=good["format_version"] + 1)
    with pytest.raises(RecordError, match="newer"):
        Game.from_json(json.dumps(bad))

    bad = dict(good, scores=[s + 1 for s in good["scores"]])
    with pytest.raises(RecordError, match="scores"):
        Game.from_json(json.dumps(bad))

    moves = [dict(m) for m in good["moves"]]
    moves[3] = dict(moves[3], x=moves[3]["x"] + 50)
    with pytest.raises(RecordError, match="move 3 of the record is illegal"):
        Game.from_json(json.dumps(dict(good, moves=moves)))

    moves = [dict(m) for m in good["moves"]]
    moves[0] = dict(moves[0], rotation=9)
    with pytest.raises(RecordError, match="move 0"):
        Game.from_json(json.dumps(dict(good, moves=moves)))

    # Every refused record is a RecordError; the rules fault is its cause.
    bad = dict(good, deck=good["deck"][:-1] + ["base/NOPE"])
    with pytest.raises(RecordError, match="base/NOPE") as info:
        Game.from_json(json.dumps(bad))
    assert isinstance(info.value.__cause__, UnknownTileError)

    bad = dict(good, rules=dict(good["rules"], players=9))
    with pytest.raises(RecordError, match="players") as info:
        Game.from_json(json.dumps(bad))
    assert isinstance(info.value.__cause__, RulesError)

    bad = dict(good, moves="nope")
    with pytest.raises(RecordError):
        Game.from_json(json.dumps(bad))

    bad = {k: v for k, v in good.items() if k != "deck"}
    with pytest.raises(RecordError, match="deck"):
        Game.from_json(json.dumps(bad))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)


@given(
    field=st.sampled_from(["format", "format_version", "rules", "seed", "deck", "moves", "scores", "engine_version"]),
    value=JSON_VALUES,
)
def test_from_json_mutated_record_never_crashes(field: str, value: Any) -> None:
    record = played_record(6)
    record[field] = value
    text = json.dumps(record)
    try:
        game = Game.from_json(text)
    except (RecordError, RulesError) as e:
        assert str(e)
        return
    # It loaded: then it must say exactly what the record says, and round-trip.
    saved = json.loads(game.to_json())
    for key in ("rules", "deck", "moves", "scores", "seed"):
        assert saved[key] == record[key], key
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    if field in ("engine_version", "seed", "format_version"):
        return
    # Any other edit that loads must still describe a legal game: replay it.
    replay = Game(Rules.from_json(json.dumps(record["rules"])), deck=record["deck"])
    for m in record["moves"]:
        replay.play(Move(m["x"], m["y"], m["rotation"], m["meeple"]))
    assert replay.scores == record["scores"]


@given(
    index=st.integers(0, 5),
    key=st.sampled_from(["x", "y", "rotation", "meeple"]),
    value=st.integers(-(2**40), 2**40) | st.none(),
)
def test_from_json_bad_moves(index: int, key: str, value: int | None) -> None:
    record = played_record(6)
    record["moves"][index][key] = value
    text = json.dumps(record)
    # What should happen, by replaying the edited moves through the public API.
    replay = Game(Rules.from_json(json.dumps(record["rules"])), deck=record["deck"])
    try:
        for m in record["moves"]:
            replay.play(Move(m["x"], m["y"], m["rotation"], m["meeple"]))
    except (IllegalMoveError, OverflowError, TypeError):
        loads = False
    else:
        loads = replay.scores == record["scores"]
    if loads:
        game = Game.from_json(text)
        assert game.moves == replay.moves and game.scores == replay.scores
    else:
        with pytest.raises(RecordError) as info:
            Game.from_json(text)
        assert "record" in str(info.value)


def test_rules_from_json_garbage() -> None:
    for text in ("", "garbage", "{}", '{"players": 2}', "[]"):
        with pytest.raises(RulesError, match="rules"):
            Rules.from_json(text)
    spec = json.loads(Rules().to_json())
    with pytest.raises(RulesError, match="players must be between 2 and 6"):
        Rules.from_json(json.dumps(dict(spec, players=1)))
    with pytest.raises(RulesError, match="unknown tile set"):
        Rules.from_json(json.dumps(dict(spec, tile_sets=[{"builtin": "nope"}])))


# ----- the command line --------------------------------------------------------------------


def run_main(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as e:  # argparse reports usage errors by exiting
        return e.code if isinstance(e.code, int) else 1


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["simulate", "--games", "-5"], "games must be between 0 and 2**64 - 1, got -5"),
        (["simulate", "--games", "abc"], "invalid int value"),
        (["simulate", "--games", "10", "--players", "1"], "players must be between 2 and 6"),
        (["simulate", "--games", "10", "--players", "7"], "players must be between 2 and 6"),
        (["simulate", "--games", "10", "--meeples", "-1"], "meeples per player"),
        (["simulate", "--games", "10", "--meeples", "1000"], "meeples per player"),
        (["simulate", "--games", "10", "--threads", "0"], "threads must be between 1 and"),
        (["simulate", "--games", "10", "--threads", "100000"], "threads must be between 1 and"),
        (["simulate", "--games", "10", "--seed", "-1"], "seed must be between 0 and 2**64 - 1"),
        (["simulate", "--games", "10", "--meeples", "1" + "0" * 30], "meeples per player must be between 0 and 99"),
        (["simulate", "--games", "10", "--first-game", str(2**64 - 1)], "go past the last game index"),
        (["simulate", "--games", "10", "--first-game", "-1"], "first_game"),
        (["simulate", "--games", "10", "--tile-sets", "nope"], "unknown tile set"),
        (["simulate", "--games", "10", "--tile-sets", "/no/such/file.toml"], "/no/such/file.toml"),
        (["simulate", "--games", "10", "--start-tile", "base/ZZ"], "base/ZZ"),
        (["simulate", "--games", "10", "--policy", "foo"], "invalid choice"),
        (["bogus"], "invalid choice"),
        ([], "usage"),
    ],
)
def test_cli_bad_arguments(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = run_main(argv)
    out, err = capsys.readouterr()
    assert code != 0
    assert fragment in out + err
    assert "Traceback" not in out + err


def test_cli_malformed_tile_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tile_file(tmp_path, '[[tiles]]\nid = "Z"\ncount = 1\nedges = "CCCF"\nfeatures = "C(N E S W)"\n')
    code = run_main(["simulate", "--games", "10", "--tile-sets", str(path), "--start-tile", "mine/D"])
    out, err = capsys.readouterr()
    assert code == 2
    assert str(path) in err and '"Z"' in err and "edges say" in err
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "-5"],
        ["simulate", "--games", "5", "--players", "9"],
        ["simulate", "--policy", "foo"],
        ["nope"],
    ],
)
def test_cli_bad_arguments_in_a_subprocess(argv: list[str]) -> None:
    env = dict(os.environ, PYTHONWARNINGS="error")
    proc = subprocess.run(
        [sys.executable, "-m", "carcassonne", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        env=env,
    )
    assert proc.returncode == 2, proc
    assert "error" in proc.stderr
    assert "Traceback" not in proc.stderr
