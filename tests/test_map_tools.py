"""Map files as a transcriber and a designer use them: ``carcassonne.maps.check`` (every
fault at once, then a summary), ``carcassonne.svg.map`` (the map alone), ``maps.generate``
(random valid maps), the start-square options of ``Rules``, and their command lines."""

from __future__ import annotations

import os
import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carcassonne import Game, Rules, RulesError, TileDataError, maps, simulate, svg
from carcassonne.cli import main

SVG = "{http://www.w3.org/2000/svg}"

SYMBOL_KIND = {".": "outside", "o": "land", "t": "town", "S": "start", "s": "start", "~": "wave", "^": "highlight", "i": "island", "h": "half"}
SUMMARY_KIND = {"land": "ordinary", "town": "small town", "start": "start", "wave": "wave", "highlight": "highlight",
                "island": "island", "city": "large city", "half": "half"}  # fmt: skip

# A small coast using every freedom of the format (M-12, M-13): a start square on the coast
# with a printed city on its side, a bay (the outside square (2, 1) faced by two printed
# roads), a ferry across a wave to an island that touches the mainland, a second ferry to
# the same island, a border piece facing a highlight, a large city with a road out.
COAST = """
name = "coast"
tiles = 14
start_squares = 2
grid = '''
........
.S.oo~i.
.oooo~i.
.oo^AAi.
.ooSooo.
........
'''

[cities.A]
name = "Portmouth"
squares = [
  { at = [4, 3], edges = "FCRF", arms = 1 },
  { at = [5, 3], edges = "CFFC" },
]

[[border]]
at = [1, 1]
side = "W"
piece = "city"

[[border]]
at = [3, 1]
side = "W"
piece = "road"
arms = 1

[[border]]
at = [2, 2]
side = "N"
piece = "road"

[[border]]
at = [2, 3]
side = "E"
piece = "road"
arms = 2

[[ferries]]
from = [4, 1, "E"]
to = [6, 1, "W"]
arms = 1

[[ferries]]
from = [6, 4, "S"]
to = [6, 3, "E"]

[[arms]]
at = [6, 2]
count = 2
"""


def write(tmp_path: Path, text: str, name: str = "map.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


# ----- check -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", Rules.maps())
def test_builtin_maps_check_clean_and_their_summary_is_the_grid(name: str) -> None:
    report = maps.check(name)
    assert report.ok and report.faults == [] and report.summary is not None
    s = report.summary
    assert s.name == name and s.original
    grid = Rules(map=name).map_grid()
    counts = Counter(SYMBOL_KIND.get(c, "city") for row in grid for c in row)
    counts.pop("outside", None)
    assert s.squares == {SUMMARY_KIND[k]: n for k, n in counts.items()}
    assert s.playable == sum(counts[k] for k in ("land", "town", "start", "island"))
    assert s.starts == sorted(((c, r) for r, row in enumerate(grid) for c, x in enumerate(row) if x == "S"), key=lambda p: (p[1], p[0]))
    assert "no faults" in str(report) and f"map {name!r}" in str(report)


def test_the_coastal_summary_names_its_islands_and_what_opens_them() -> None:
    s = maps.check("coastal").summary
    assert s is not None
    assert [(i.number, i.ferries) for i in s.islands] == [(1, [2, 5]), (2, [1]), (3, [3, 5])]
    assert [f.joins for f in s.ferries][3] == ("mainland", "mainland")
    assert {c.letter: c.arms for c in s.cities} == {"A": 3, "B": 1, "C": 1}
    assert s.island_arms == [(25, 2, 2), (1, 7, 1), (24, 8, 1)]
    assert maps.summary(Rules(map="coastal")) == s
    with pytest.raises(ValueError, match="no map"):
        maps.summary(Rules())


def test_a_transcription_using_the_new_freedom_loads_and_is_summarised(tmp_path: Path) -> None:
    report = maps.check(write(tmp_path, COAST))
    assert report.ok, str(report)
    s = report.summary
    assert s is not None
    assert [(b.at, b.side, b.faces) for b in s.borders] == [
        ((1, 1), "W", "outside"),
        ((3, 1), "W", "outside"),
        ((2, 2), "N", "outside"),
        ((2, 3), "E", "highlight"),
    ]
    assert [f.ends[0][3] for f in s.ferries] == ["wave", "outside"]
    (island,) = s.islands
    assert island.ferries == [1, 2] and island.beside_mainland and island.arms == 2
    text = str(report)
    for fragment in ("island 1: 3 squares, 2 coats of arms, beside the mainland; opened by ferry 1, 2",
                     "road on side W of [3, 1], facing outside, 1 coat of arms",
                     "start squares: [1, 1] small town, [3, 4] small town (the first 2 used by default)"):  # fmt: skip
        assert fragment in text, text


def test_every_fault_is_listed_with_file_line_and_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = (
        COAST.replace(".oooo~i.", ".xooo~i.")  # an unknown symbol
        .replace('at = [2, 2]\nside = "N"', 'at = [2, 2]\nside = "E"')  # a piece facing a square
        .replace('to = [6, 3, "E"]', 'to = [6, 2, "S"]')  # a ferry end on an inner side
        .replace('at = [2, 3]\nside = "E"', 'at = [1, 1]\nside = "W"')  # two pieces on one side
        .replace("start_squares = 2", "start_squares = 3")  # more start squares than the map has
    )
    path = write(tmp_path, bad, "bad.toml")
    report = maps.check(path)
    assert not report.ok and report.summary is None
    messages = [f.message for f in report.faults]
    assert len(report.faults) == 5, messages
    assert all(f.line > 0 and f.column > 0 for f in report.faults), messages
    assert report.faults[0].square == (1, 2) and "unknown symbol" in messages[0]
    assert any("border piece 3: side E of [2, 2] faces square [3, 2], not the outside" in m for m in messages)
    assert any("ferry 2: side S of [6, 2] faces square [6, 3], not the outside" in m for m in messages)
    assert any("border piece 4: side W of [1, 1] already holds border piece 1" in m for m in messages)
    assert any("start_squares = 3 but the map has 2 start squares" in m for m in messages)
    # On the command line: one line per fault, file:line:column, then the count; status 1.
    assert main(["map", "check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"{path}: 5 faults"
    first = report.faults[0]
    assert out[0] == f"{path}:{first.line}:{first.column}: square [1, 2]: {first.message}"
    assert out[1] == f"{path}:{report.faults[1].line}:{report.faults[1].column}: {report.faults[1].message}"
    # Loading names the first fault and how many more there are; nothing is half-loaded.
    with pytest.raises(TileDataError, match="and 4 more"):
        Rules(map=path)


def test_files_that_cannot_be_read_are_refused_with_their_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    big.write_text("#" * (1 << 20) + "\n")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe name")
    for path, fragment in [
        (tmp_path / "missing.toml", "cannot read"),
        (tmp_path, "not a regular file"),
        (fifo, "not a regular file"),
        (big, "more than the 1048576"),
        (binary, "cannot read"),
    ]:
        with pytest.raises(ValueError, match=fragment):
            maps.check(path)
        assert main(["map", "check", str(path)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("carcassonne: error: ") and fragment in err[0], err


# ----- the start squares ----------------------------------------------------------------------------


def test_start_squares_and_rotations_from_python(tmp_path: Path) -> None:
    path = write(tmp_path, COAST)
    rules = Rules(map=path)
    assert rules.map_starts() == [(1, 1), (3, 4)] and rules.start_rotations == [None, None]
    game = Game(rules, seed=1)
    start = next(p for p in game.board if (p.x, p.y) == (1, 1))
    # D (city N) turned so its city faces the printed city on the west: 3 quarter turns.
    assert (start.tile, start.rotation) == ("base/D", 3)
    chosen = Rules(map=path, start_squares=[(3, 4)], start_rotations=[2])
    assert chosen.map_starts() == [(3, 4)] and chosen.start_rotations == [2] and chosen.start_squares == 1
    assert "start_squares=[(3, 4)], start_rotations=[2]" in repr(chosen)
    assert Game(chosen, seed=1).board[-1].rotation == 2
    assert Rules.from_json(chosen.to_json()).map_starts() == [(3, 4)]
    for kwargs, fragment in [
        (dict(start_rotations=[0]), "does not fit start square (1, 1)"),
        (dict(start_squares=[(2, 2)]), "(2, 2) is not a start square"),
        (dict(start_squares=[(1, 1), (1, 1)]), "twice"),
        (dict(start_squares=[]), "no square"),
        (dict(start_squares=3), "2 start squares, got 3"),
        (dict(start_rotations=[None, None, None]), "3 entries for 2 start squares"),
        (dict(start_rotations=[7]), "a start rotation must be between 0 and 3, got 7"),
        (dict(start_squares=[(10**30, 1)]), "start_squares: a column must be between 0 and 127"),
        (dict(start_squares="S1"), "a list of (column, row) pairs"),
        (dict(start_squares=[(1,)]), "a list of (column, row) pairs"),
        (dict(start_rotations="0"), "list of rotations"),
    ]:
        with pytest.raises(RulesError, match=fragment.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
            Rules(map=path, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="start_rotations is an option of Carcassonne Maps"):
        Rules(start_rotations=[0])


def test_start_squares_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, COAST)
    args = ["simulate", "--map", str(path), "--games", "50", "--start-squares", "3,4", "1,1", "--start-rotations", "-", "3"]
    assert main(args) == 0
    assert "map " in capsys.readouterr().out
    assert main(["simulate", "--map", str(path), "--games", "5", "--start-squares", "1,x"]) == 2
    assert "COL,ROW" in capsys.readouterr().err


# ----- render -----------------------------------------------------------------------------------


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


@pytest.mark.parametrize("source", ["coastal", "northern", "continental", "coast"])
def test_the_map_picture_shows_every_square_piece_ferry_and_coat_of_arms(tmp_path: Path, source: str) -> None:
    path = write(tmp_path, COAST) if source == "coast" else source
    rules = Rules(map=path)
    s = maps.summary(rules)
    picture = svg.map(rules)
    assert picture == svg.map(rules), "deterministic"
    root = ET.fromstring(picture)
    grid = rules.map_grid()
    squares = groups(root, "square")
    assert len(squares) == sum(len(r) for r in grid)
    for sq in squares:
        assert sq.get("data-symbol") == grid[int(sq.get("data-y", ""))][int(sq.get("data-x", ""))]
    cities = {(int(e.get("data-x", "")), int(e.get("data-y", ""))): e for e in groups(root, "city-square")}
    want = {(x, y): (c.letter, edges, arms) for c in s.cities for x, y, edges, arms in c.squares}
    assert {k: (e.get("data-city"), e.get("data-edges"), int(e.get("data-arms", ""))) for k, e in cities.items()} == want
    # Each city square draws a wall per F side and a road per R side.
    for (x, y), e in cities.items():
        edges = e.get("data-edges", "")
        assert sorted(w.get("data-side") for w in groups(e, "wall")) == sorted(side for side, k in zip("NESW", edges) if k == "F")
        assert sorted(w.get("data-side") for w in groups(e, "road")) == sorted(side for side, k in zip("NESW", edges) if k == "R")
    pieces = groups(root, "border-piece")
    assert [(int(e.get("data-x", "")), int(e.get("data-y", "")), e.get("data-side"), int(e.get("data-arms", ""))) for e in pieces] == [
        (b.at[0], b.at[1], b.side, b.arms) for b in s.borders
    ]
    ferries = groups(root, "ferry")
    assert [e.get("data-ends") for e in ferries] == [
        ";".join(f"{x},{y},{side}" for x, y, side, _ in f.ends) for f in s.ferries
    ]
    assert [int(e.get("data-arms", "")) for e in ferries] == [f.arms for f in s.ferries]
    arms = [(int(e.get("data-x", "")), int(e.get("data-y", "")), int(e.get("data-arms", ""))) for e in root.iter() if e.get("class") == "island-arms" and e.get("data-x")]
    assert arms == s.island_arms
    starts = groups(root, "start")
    labelled = [e for e in starts if e.tag == SVG + "text"]
    assert [(int(e.get("data-x", "")), int(e.get("data-y", ""))) for e in labelled] == s.starts
    assert [e.text for e in labelled] == [f"S{k}" for k in range(1, len(s.starts) + 1)]
    # Column and row numbers around the map, on both sides.
    numbers = [e.text for e in groups(root, "coordinates")[0].iter(SVG + "text")]
    assert numbers.count("0") == 4 and len(numbers) == 2 * (s.width + s.height)
    with pytest.raises(ValueError, match="no map"):
        svg.map(Rules())


def test_render_on_the_command_line_writes_atomically_and_never_over_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, COAST)
    out = tmp_path / "map.svg"
    assert main(["map", "render", str(path), "-o", str(out)]) == 0
    ET.fromstring(out.read_text())
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [], "no temporary file left"
    # The input, by a hard link, is never written over.
    link = tmp_path / "link.svg"
    os.link(path, link)
    before = path.read_text()
    assert main(["map", "render", str(path), "-o", str(link)]) == 2
    assert "would overwrite its input file" in capsys.readouterr().err
    assert path.read_text() == before
    # Two half maps joined are drawn as one map.
    joined = tmp_path / "joined.svg"
    assert main(["map", "render", "west+east", "-o", str(joined)]) == 0
    assert ET.fromstring(joined.read_text()).get("class") == "carcassonne-map"
    # A faulty map is not drawn: its faults are listed.
    bad = write(tmp_path, COAST.replace("start_squares = 2", "start_squares = 9"), "bad.toml")
    assert main(["map", "render", str(bad), "-o", str(tmp_path / "bad.svg")]) == 1
    assert "start_squares = 9" in capsys.readouterr().err
    assert not (tmp_path / "bad.svg").exists()


# ----- generate ----------------------------------------------------------------------------------


def test_generated_maps_are_deterministic_valid_and_playable(tmp_path: Path) -> None:
    text = maps.generate(7)
    assert text == maps.generate(7) and text != maps.generate(8)
    assert "not a transcription of any printed Carcassonne map" in text
    path = Path(maps.write(text, tmp_path / "g7.toml"))
    report = maps.check(path)
    assert report.ok, str(report)
    rules = Rules(map=path)
    ((label, what),) = [(n, t) for n, t in rules.reconstructions() if n.endswith("(map)")]
    assert label == f"{path} (map)" and "random layout generated for studies (seed 7)" in what
    game = Game(rules, seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    result = simulate(rules, 40, seed=2, threads=2)
    assert result.scores.shape == (40, 2)
    with pytest.raises(RulesError, match="squares must be between 1 and 6000"):
        maps.generate(1, squares=0)
    with pytest.raises(RulesError, match="large_cities must be between 0 and 25"):
        maps.generate(1, large_cities=26)
    with pytest.raises(RulesError, match="seed must be between 0 and"):
        maps.generate(-1)


def test_generate_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.toml"
    assert main(["map", "generate", "11", "--squares", "80", "--islands", "3", "-o", str(out)]) == 0
    assert out.read_text() == maps.generate(11, squares=80, islands=3) + ("" if maps.generate(11, squares=80, islands=3).endswith("\n") else "\n")
    assert main(["map", "check", str(out)]) == 0
    capsys.readouterr()
    assert main(["simulate", "--map", str(out), "--games", "20"]) == 0
    assert main(["map", "generate", "1", "--squares", "0"]) == 2
    assert "squares must be between" in capsys.readouterr().err


shapes = st.fixed_dictionaries(
    {
        "squares": st.integers(1, 400),
        "large_cities": st.integers(0, 8),
        "islands": st.integers(0, 6),
        "ferries": st.integers(0, 3),
        "border_pieces": st.integers(0, 30),
        "waves": st.integers(0, 10),
        "highlights": st.integers(0, 5),
        "towns": st.integers(0, 10),
        "start_squares": st.integers(1, 5),
    }
)


@settings(max_examples=max(10, settings().max_examples // 2), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**64 - 1), shape=shapes, choices=st.integers(0, 2**32 - 1))
def test_every_generated_map_loads_and_plays(tmp_path: Path, seed: int, shape: dict[str, int], choices: int) -> None:
    try:
        text = maps.generate(seed, **shape)
    except RulesError as e:
        # Only a mainland with no square left for the start tile (all cities, say).
        assert "no square where the start tile fits" in str(e)
        return
    path = Path(maps.write(text, tmp_path / f"gen-{seed}.toml"))
    assert maps.check(path).ok
    rules = Rules(map=path, players=2 + choices % 3)
    game = Game(rules, seed=seed)
    rng = random.Random(choices)
    while not game.is_over:
        moves = game.legal_moves()
        mv = rng.choice(moves)
        game.play(mv)
    assert sum(p.meeple is not None for p in game.board) + sum(game.supply) == rules.meeples * rules.players


def mutate(text: str, rnd: random.Random) -> str:
    lines = text.split("\n")
    for _ in range(rnd.randint(1, 4)):
        k = rnd.randrange(len(lines))
        op = rnd.randrange(5)
        if op == 0:  # a character changed
            line = lines[k]
            if line:
                i = rnd.randrange(len(line))
                lines[k] = line[:i] + rnd.choice("oSt~^i.hABxX0123456789=[],\"NESWRCF ") + line[i + 1 :]
        elif op == 1:  # a line dropped
            del lines[k]
        elif op == 2:  # a line doubled
            lines.insert(k, lines[k])
        elif op == 3:  # a number changed
            lines[k] = "".join(str(rnd.randrange(40)) if c.isdigit() else c for c in lines[k])
        else:  # two lines swapped
            j = rnd.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
        if not lines:
            lines = [""]
    return "\n".join(lines)


@settings(max_examples=max(20, settings().max_examples), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(["coast", "coastal", "continental", "generated"]), seed=st.integers(0, 2**32 - 1))
def test_mutated_map_files_load_or_are_refused_with_line_and_column(tmp_path: Path, base: str, seed: int) -> None:
    if base == "coast":
        text = COAST
    elif base == "generated":
        text = maps.generate(seed % 1000, squares=60)
    else:
        from oracle import DATA_DIR

        text = (DATA_DIR / "maps" / f"{base}.toml").read_text()
    rnd = random.Random(seed)
    path = write(tmp_path, mutate(text, rnd), f"mutated-{seed}.toml")
    report = maps.check(path)
    if report.ok:
        Rules(map=path)  # a file that checks clean loads
        return
    # Every fault has its line and column (the last line may count the faults beyond 100).
    for f in report.faults:
        assert (f.line > 0 and f.column > 0) or f.message.startswith("and "), f
    with pytest.raises(TileDataError) as info:
        Rules(map=path)
    message = str(info.value)
    first = report.faults[0]
    where = f"line {first.line}, column {first.column}" if first.line else first.message[:40]
    assert str(path) in message and where in message, message
