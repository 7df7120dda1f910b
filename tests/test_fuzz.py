"""A bounded fuzz suite ("keep it found"): generated tile, ship, Friday and record
files, valid and corrupted, and random API calls with extreme values. Whatever happens,
every failure must be a documented ``ValueError`` subclass of the library with a message
under a few kilobytes; nothing may panic (``pyo3_runtime.PanicException`` is not an
``Exception``, so it fails these tests); a refused call must change nothing; whatever is
accepted must play.

Runs in about 20 seconds with the default ``ci`` profile (see ``conftest.py``); set
``HYPOTHESIS_PROFILE=thorough FUZZ_EXAMPLES=5000`` for a long soak."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import carcassonne
from carcassonne import (
    Decision,
    Delivery,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    PositionError,
    RecordError,
    Rules,
    RulesError,
    TileDataError,
    UnknownTileError,
    simulate,
)
from observe import snapshot

DOCUMENTED = (IllegalMoveError, GameOverError, PositionError, RecordError, RulesError, TileDataError, UnknownTileError)
MESSAGE_LIMIT = 4_000

# Examples per test: 300 in CI (about 20 s in all); FUZZ_EXAMPLES=5000 with
# HYPOTHESIS_PROFILE=thorough (random, not derandomized) for a soak.
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "300")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@contextmanager
def documented_failure() -> Iterator[list[BaseException]]:
    """Runs a call that may be refused: only a documented error with a short message may
    come out. The list holds the error, if there was one."""
    seen: list[BaseException] = []
    try:
        yield seen
    except DOCUMENTED as e:
        assert isinstance(e, ValueError) and not isinstance(e, OverflowError)
        assert len(str(e)) < MESSAGE_LIMIT, str(e)[:300]
        event(f"refused: {type(e).__name__}")
        seen.append(e)


def play_out(game: Game, steps: int = 400) -> None:
    """Plays on through the checked API with the first listed choice in every phase."""
    for _ in range(steps):
        if game.is_over:
            return
        phase = game.phase
        if phase == "place":
            game.play(game.legal_moves()[0])
        else:
            # The first decision listed: not delivering, the first market ship, Friday
            # target or islander to take home (``legal_actions`` lists them in that order).
            game.apply(game.legal_actions()[0])


def corrupt(text: str, data: st.DataObject) -> str:
    """A few random edits of a text: cut, duplicated or deleted pieces, stray characters,
    extreme numbers."""
    for _ in range(data.draw(st.integers(0, 3), label="edits")):
        if not text:
            break
        i = data.draw(st.integers(0, len(text) - 1))
        j = data.draw(st.integers(i, min(len(text), i + 40)))
        edit = data.draw(st.sampled_from(["cut", "delete", "duplicate", "insert", "number"]))
        if edit == "cut":
            text = text[:i]
        elif edit == "delete":
            text = text[:i] + text[j:]
        elif edit == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif edit == "insert":
            text = text[:i] + data.draw(st.text(max_size=12)) + text[i:]
        else:
            number = data.draw(st.sampled_from(["0", "-1", "255", "256", "65536", "4294967295", "1e400", "99999999999999999999"]))
            text = text[:i] + number + text[j:]
    return text


@contextmanager
def data_file(text: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "fuzz.toml"
        path.write_text(text, errors="surrogatepass")
        yield path


def rules_from_file(text: str, data: st.DataObject, what: str, make: Callable[[Path], Rules]) -> Rules | None:
    """Rules made (`make`) with a generated data file, corrupted one time in four; None
    when they are refused, which must be with a documented error."""
    if data.draw(st.integers(0, 3), label="corrupt") == 0:
        text = corrupt(text, data)
    with data_file(text) as path, documented_failure() as failed:
        rules = make(path)
    if failed:
        return None
    event(f"{what} file accepted")
    return rules


# ----- tile files ------------------------------------------------------------------------------

SIDES = ["N", "E", "S", "W"]
HALVES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]


@st.composite
def feature_tokens(draw: st.DrawFn, sea: bool) -> str:
    area, path, halves = ("I", "B", "S") if sea else ("C", "R", "F")
    kind = draw(st.sampled_from([area, path, halves, "CENTRE"]))
    if kind == "CENTRE":
        return "MARKET" if sea else draw(st.sampled_from(["MONASTERY", "garden", "LAKE"]))
    places = SIDES if kind != halves else HALVES + ["I"]
    chosen = draw(st.lists(st.sampled_from(places), min_size=1, max_size=4, unique=True))
    symbols = ["banana", "shell", "fish", "fish2", "boat"] if sea else ["pennant", "inn", "cathedral", "wine", "grain", "cloth"]
    syms = draw(st.lists(st.sampled_from(symbols), max_size=3))
    token = f"{kind}({' '.join(chosen)})" + "".join(f"+{s}" for s in syms)
    if kind == "F" and draw(st.booleans()):
        token += "~" + draw(st.sampled_from(SIDES))
    return token


DATA = Path(__file__).resolve().parents[1] / "rust" / "carcassonne-core" / "data"


def tile_blocks(name: str) -> list[str]:
    """The [[tiles]] entries of a built-in tile file, without their start marks."""
    text = (DATA / f"{name}.toml").read_text()
    blocks = text.split("[[tiles]]")[1:]
    return ["[[tiles]]" + b.replace("start = true", "").split("\n#")[0] for b in blocks]


REAL_TILES = {False: tile_blocks("base") + tile_blocks("ferries"), True: tile_blocks("south-seas")}


@st.composite
def real_tile_files(draw: st.DrawFn) -> tuple[str, bool]:
    """Files made of real tiles (valid unless the counts or corruption make them not)."""
    sea = draw(st.booleans())
    blocks = draw(st.lists(st.sampled_from(REAL_TILES[sea]), min_size=1, max_size=12, unique=True))
    count = st.sampled_from([1, 1, 2, 3, 5, 4001])
    body = [b.replace("count = ", f"count = {draw(count)} #", 1) for b in blocks]
    header = 'name = "fz"\n' + ('system = "south-seas"\n' if sea else "")
    # The first tile starts.
    return header + body[0].rstrip() + "\nstart = true\n" + "".join(body[1:]), sea


@st.composite
def tile_files(draw: st.DrawFn) -> tuple[str, bool]:
    if draw(st.booleans()):
        return draw(real_tile_files())
    sea = draw(st.booleans())
    letters = "IBS" if sea else "CRF"
    lines = ['name = "fz"', 'system = "south-seas"' if sea else ""]
    n = draw(st.integers(1, 5))
    for k in range(n):
        tokens = draw(st.lists(feature_tokens(sea), min_size=1, max_size=5))
        count = draw(st.sampled_from([1, 2, 3, 4000, 4001, 2**32 - 1]))
        edges = "".join(draw(st.lists(st.sampled_from(letters), min_size=4, max_size=4)))
        lines += [
            "[[tiles]]",
            f'id = "T{k}"',
            f"count = {count}",
            f'edges = "{edges}"',
            f'features = "{" ; ".join(tokens)}"',
        ]
        if k == 0:
            lines.append("start = true")
    return "\n".join(lines) + "\n", sea


@FUZZ
@given(file=tile_files(), data=st.data())
def test_fuzzed_tile_files(file: tuple[str, bool], data: st.DataObject) -> None:
    text, _sea = file
    rules = rules_from_file(text, data, "tile", lambda path: Rules(tile_sets=(path,)))
    if rules is None:
        return
    # Accepted: it must play, through the checked API, and replay from its record.
    game = Game(rules, seed=data.draw(st.integers(0, 2**64 - 1), label="seed"))
    play_out(game)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


# ----- ship and Friday files -------------------------------------------------------------------

NEEDS = st.one_of(
    st.builds(lambda a, b: f"{a} shell + {b} fish", st.integers(-1, 30), st.integers(0, 30)),
    st.builds(lambda n: f"any {n}", st.integers(-1, 300)),
    st.builds(lambda n: f"{n} identical", st.integers(-1, 30)),
    st.builds(lambda k: f"3 + {k}", st.integers(-1, 30)),
    st.text(max_size=20),
)


VALID_NEEDS = st.one_of(
    st.builds(lambda a, b, c: f"{a} shell + {b} fish + {c} banana", st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)),
    st.builds(lambda n: f"any {n}", st.integers(1, 8)),
    st.builds(lambda n: f"{n} identical", st.integers(1, 5)),
    st.builds(lambda k: f"3 + {k}", st.integers(1, 3)),
)


@st.composite
def ship_files(draw: st.DrawFn) -> str:
    lines = ['name = "fz"']
    wild = draw(st.booleans())  # half the files stay within what a ship file may say
    for k in range(draw(st.integers(0 if wild else 1, 30))):
        points = draw(st.sampled_from([0, 1, 5, 255, 256, -1])) if wild else draw(st.integers(1, 9))
        need = draw(NEEDS if wild else VALID_NEEDS).replace('"', "")
        ship_id = draw(st.sampled_from(["1", "2", str(k)])) if wild else str(k)
        lines += ["[[ships]]", f'id = "{ship_id}"', f"points = {points}", f'needs = "{need}"']
    return "\n".join(lines) + "\n"


@FUZZ
@given(text=ship_files(), data=st.data())
def test_fuzzed_ship_files(text: str, data: st.DataObject) -> None:
    rules = rules_from_file(text, data, "ship", lambda path: Rules(tile_sets=("south-seas",), ships=path))
    if rules is None:
        return
    game = Game(rules, seed=data.draw(st.integers(0, 1000), label="seed"))
    play_out(game)


@st.composite
def friday_files(draw: st.DrawFn) -> str:
    lines = ['name = "fz"']
    wild = draw(st.booleans())  # half the files stay within what a Friday file may say
    for k in range(draw(st.integers(4, 8)) if wild else 6):
        bonus = draw(st.sampled_from(["wares", "discount", "trading", "homecoming"] + (["bribe"] if wild else [])))
        tile_id = draw(st.sampled_from(["A", "B", f"F{k}"])) if wild else f"F{k}"
        lines += ["[[tiles]]", f'id = "{tile_id}"', f'bonus = "{bonus}"']
        if (bonus == "wares") if not wild else draw(st.booleans()):
            lines.append(f'ware = "{draw(st.sampled_from(["shell", "banana", "fish"] + (["gold"] if wild else [])))}"')
    return "\n".join(lines) + "\n"


@FUZZ
@given(text=friday_files(), data=st.data())
def test_fuzzed_friday_files(text: str, data: st.DataObject) -> None:
    rules = rules_from_file(
        text, data, "Friday", lambda path: Rules(tile_sets=("south-seas",), friday=True, friday_tiles=path)
    )
    if rules is None:
        return
    play_out(Game(rules, seed=data.draw(st.integers(0, 1000), label="seed")))


# ----- map files -------------------------------------------------------------------------------

LITERAL = "'" * 3


@st.composite
def map_files(draw: st.DrawFn) -> str:
    """A generated map: a grid of any symbols (mostly squares), start squares or none, a
    large city with made-up edges, border pieces, ferries, island coats of arms and a join
    side, placed anywhere (in range or not)."""
    width, height = draw(st.integers(1, 12)), draw(st.integers(1, 10))
    symbols = st.sampled_from("oooooot.~^AiShx")
    rows = ["".join(draw(st.lists(symbols, min_size=width, max_size=width))) for _ in range(height)]
    coord = st.integers(-2, 13)
    side = st.sampled_from(["N", "E", "S", "W", "X"])
    lines = [
        'name = "fz"',
        f"tiles = {draw(st.sampled_from([1, 5, 40, 200, 0, -1]))}",
        f"start_squares = {draw(st.integers(0, 3))}",
        f"grid = {LITERAL}",
        *rows,
        LITERAL,
    ]
    if draw(st.booleans()):
        lines.append(f'join = "{draw(side)}"')
    for _ in range(draw(st.integers(0, 3))):
        lines += ["[[border]]", f"at = [{draw(coord)}, {draw(coord)}]", f'side = "{draw(side)}"']
        lines += [f'piece = "{draw(st.sampled_from(["road", "city", "lake"]))}"', f"arms = {draw(st.integers(0, 12))}"]
    for _ in range(draw(st.integers(0, 2))):
        lines += ["[[ferries]]", f'from = [{draw(coord)}, {draw(coord)}, "{draw(side)}"]']
        lines += [f'to = [{draw(coord)}, {draw(coord)}, "{draw(side)}"]', f"arms = {draw(st.integers(0, 3))}"]
    for _ in range(draw(st.integers(0, 2))):
        lines += ["[[arms]]", f"at = [{draw(coord)}, {draw(coord)}]", f"count = {draw(st.integers(0, 12))}"]
    if draw(st.booleans()):
        squares = [(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "A"]
        edges = st.text(alphabet="CRFX", min_size=3, max_size=5)
        entries = [f'{{ at = [{x}, {y}], edges = "{draw(edges)}", arms = {draw(st.integers(0, 10))} }}' for x, y in squares]
        lines += ["[cities.A]", 'name = "Fuzzburg"', f"squares = [{', '.join(entries)}]"]
    return "\n".join(lines) + "\n"


@FUZZ
@given(text=map_files(), data=st.data())
def test_fuzzed_map_files(text: str, data: st.DataObject) -> None:
    players = data.draw(st.integers(2, 4), label="players")
    rules = rules_from_file(text, data, "map", lambda path: Rules(map=path, players=players))
    if rules is None:
        return
    game = Game(rules, seed=data.draw(st.integers(0, 1000), label="seed"))
    play_out(game)


# ----- records ---------------------------------------------------------------------------------

RECORD_RULES = [
    Rules(),
    Rules(tile_sets=("base", "ferries")),
    Rules(players=3, tile_sets=("base", "inns-and-cathedrals", "traders-and-builders"), traders_goods=True),
    Rules(tile_sets=("south-seas",)),
    Rules(tile_sets=("south-seas",), friday=True),
]
EXTREMES = [None, True, -1, 0, 255, 256, 65535, 2**31, 2**63, 2**64, -(2**64), 1e308, "", "x" * 300, [], {}, [0] * 3]


def record_of(rules: Rules, seed: int, turns: int) -> dict[str, Any]:
    game = Game(rules, seed=seed)
    play_out(game, turns)
    record: dict[str, Any] = json.loads(game.to_json())
    return record


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every position in a JSON value (dict keys and list indices), depth-first."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:40]):
            out += paths(v, prefix + (i,))
    return out


def mutate(record: Any, where: tuple[Any, ...], how: str, value: Any) -> Any:
    if not where:
        return value
    head, rest = where[0], where[1:]
    copy = dict(record) if isinstance(record, dict) else list(record)
    if not rest and how == "delete":
        del copy[head]
    elif not rest and how == "duplicate" and isinstance(copy, list):
        copy.insert(head, copy[head])
    else:
        copy[head] = mutate(record[head], rest, how, value)
    return copy


@FUZZ
@given(
    rules=st.sampled_from(RECORD_RULES),
    seed=st.integers(0, 2**64 - 1),
    turns=st.integers(0, 80),
    data=st.data(),
)
def test_fuzzed_records(rules: Rules, seed: int, turns: int, data: st.DataObject) -> None:
    good = record_of(rules, seed, turns)
    record: Any = good
    for _ in range(data.draw(st.integers(0, 3), label="mutations")):
        spots = paths(record)
        where = data.draw(st.sampled_from(spots), label="where")
        how = data.draw(st.sampled_from(["set", "delete", "duplicate"]), label="how")
        value = data.draw(st.sampled_from(EXTREMES), label="value")
        try:
            record = mutate(record, where, how, value)
        except (IndexError, KeyError, TypeError):
            pass
    text = json.dumps(record)
    if data.draw(st.integers(0, 3), label="as text") == 0:
        text = corrupt(text, data)
    with documented_failure() as failed:
        game = Game.from_json(text)
    if not failed:
        event("record accepted")
        # Accepted: a consistent game that saves and loads again, and plays on.
        assert Game.from_json(game.to_json()).to_json() == game.to_json()
        play_out(game, 30)


# ----- API calls with extreme values -------------------------------------------------------------

INTS = st.one_of(
    st.sampled_from([-(2**200), -(2**64), -(2**31) - 1, -1, 0, 1, 3, 4, 254, 255, 256, 2**15, 2**31, 2**63, 2**64, 2**200]),
    st.integers(-3, 3),
)
TEXT = st.one_of(st.sampled_from(["", "base/D", "A", "N", "I", "monastery", "x" * 10_000]), st.text(max_size=10))


def api_calls(game: Game, data: st.DataObject) -> Callable[[], object]:
    """One random call on the game or the library, with extreme arguments."""
    i = lambda label: data.draw(INTS, label=label)  # noqa: E731
    s = lambda label: data.draw(TEXT, label=label)  # noqa: E731
    rules = game.rules
    ferries = game.ferries
    choices: list[Callable[[], object]] = [
        lambda: game.play(Move(i("x"), i("y"), i("rotation"), meeple=i("meeple"))),
        lambda: game.play(Move(i("x"), i("y"), i("rotation"), ferry=(i("a"), i("b")))),
        lambda: game.play(Move(i("x"), i("y"), 0, ferry_moves=[(i("fx"), i("fy"), i("a"), i("b"))])),
        lambda: game.play(Move(i("x"), i("y"), 0, retrieve=(i("rx"), i("ry"), i("seg")))),
        lambda: game.make_move(i("x"), i("y"), i("rotation"), s("meeple")),
        lambda: game.make_move(i("x"), i("y"), i("rotation"), i("meeple")),
        lambda: game.feature_at(i("x"), i("y"), i("index")),
        *([lambda: ferries.movable(i("x"), i("y"), i("rotation"))] if ferries is not None else []),
        lambda: game.describe_meeple(Move(0, 0, i("rotation"), meeple=i("meeple"))),
        lambda: game.apply(Decision.deliver(Delivery(i("ship"), (i("a"), i("b"), i("c"))))),
        lambda: game.apply(Decision.market_ship(i("slot"))),
        lambda: game.apply(Decision.move_friday(i("tile"))),
        lambda: game.apply(Decision.take_home(i("x"), i("y"), i("feature"))),
        lambda: game.apply(Decision.trade(i("give"), i("take"))),
        lambda: rules.tile_features(s("tile"), i("rotation")),
        lambda: rules.tile_edges(s("tile"), i("rotation")),
        lambda: Game(rules, seed=i("seed"), game_index=i("index")),
        lambda: Game(rules, deck=[s("tile")]),
        lambda: Rules(players=i("players"), meeples=i("meeples")),
        lambda: Rules(start_tile=s("start")),
        lambda: Rules(tile_sets=(s("set"),)),
        lambda: Rules(ferries_edition=s("edition")),
        lambda: Rules.from_json(s("json")),
        lambda: Game.from_json(s("json")),
        lambda: simulate(rules, games=i("games") % 3, seed=i("seed"), first_game=i("first"), threads=i("threads")),
        lambda: simulate(rules, games=1, policy=s("policy")),
        lambda: carcassonne.simulate_summary(rules, games=i("games") % 3, first_game=i("first")),
    ]
    return data.draw(st.sampled_from(choices), label="call")


@FUZZ
@given(rules=st.sampled_from(RECORD_RULES), seed=st.integers(0, 2**64 - 1), turns=st.integers(0, 60), data=st.data())
def test_fuzzed_api_calls_refuse_cleanly_and_change_nothing(rules: Rules, seed: int, turns: int, data: st.DataObject) -> None:
    game = Game(rules, seed=seed)
    play_out(game, turns)
    for _ in range(5):
        call = api_calls(game, data)
        before = snapshot(game)
        with documented_failure() as failed:
            call()
        if failed:
            assert snapshot(game) == before
    # Whatever was accepted, the game is still consistent.
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


def test_documented_errors_are_value_errors() -> None:
    for error in DOCUMENTED:
        assert issubclass(error, ValueError)
        assert error.__doc__
    with pytest.raises(ValueError):
        Rules(players=10**30)
