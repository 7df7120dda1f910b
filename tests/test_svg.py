"""Board pictures: ``carcassonne.svg.board``, ``Game._repr_svg_`` and ``carcassonne render``.

For a game of every configuration in ``configs.py``, mid-game and finished: the SVG parses
as XML, holds one tile group per placed tile at its square and rotation, one meeple per
follower on the board in its player's colour on the tile it stands on, the last move
outlined, the map's squares, the lakes' ferries, the symbols the engine counts; the same
game gives the same bytes. The drawing of every tile of every set puts each meeple spot on
its own feature. The command line writes the picture and refuses bad records by name.
(The look in a real browser: ``tools/render_boards.py``, see docs/guide/pictures.md.)
"""

from __future__ import annotations

import html
import json
import random
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import carcassonne
from carcassonne import Game, Move, Rules, svg
from carcassonne.svg import geometry, layout as tile_layout
from carcassonne.cli import main
from configs import ALL_CONFIGS

NS = "{http://www.w3.org/2000/svg}"
ALL_SETS = ("base", "inns-and-cathedrals", "traders-and-builders")
STAGES = ("mid", "end")

_GAMES: dict[tuple[str, str], Game] = {}


def play(rules: Rules, seed: int, actions: int | None) -> Game:
    """Seeded random actions, placing a meeple when one can be placed 2 times in 3, so
    that boards carry meeples."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over and (actions is None or n < actions):
        legal = game.legal_actions()
        meeples = [a for a in legal if isinstance(a, Move) and a.meeple is not None]
        pool = meeples if meeples and rng.random() < 0.67 else legal
        game.apply(pool[rng.randrange(len(pool))])
        n += 1
    return game


def game_of(name: str, stage: str) -> Game:
    key = (name, stage)
    if key not in _GAMES:
        seed = sorted(ALL_CONFIGS).index(name) + 1
        _GAMES[key] = play(Rules(**ALL_CONFIGS[name]), seed, 25 if stage == "mid" else None)
    return _GAMES[key]


_PICTURES: dict[tuple[str, str], tuple[str, ET.Element]] = {}


def picture_of(name: str, stage: str) -> tuple[str, ET.Element]:
    """The default picture of a test game, and its parsed tree (made once)."""
    key = (name, stage)
    if key not in _PICTURES:
        document = svg.board(game_of(name, stage))
        _PICTURES[key] = (document, parse(document))
    return _PICTURES[key]


def parse(document: str) -> ET.Element:
    root = ET.fromstring(document)
    assert root.tag == f"{NS}svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """Elements whose class list holds ``cls``."""
    return [e for e in root.iter() if cls in e.get("class", "").split()]


def translate(element: ET.Element) -> tuple[float, float]:
    m = re.match(r"translate\(([-\d.]+),([-\d.]+)\)", element.get("transform", ""))
    assert m, element.get("transform")
    return float(m.group(1)), float(m.group(2))


CASES = [pytest.param(name, stage, id=f"{name}-{stage}") for name in ALL_CONFIGS for stage in STAGES]


@pytest.mark.parametrize("name, stage", CASES)
def test_tiles_at_their_squares(name: str, stage: str) -> None:
    game = game_of(name, stage)
    root = picture_of(name, stage)[1]
    vx, vy, vw, vh = (float(v) for v in root.get("viewBox", "").split())
    tiles = groups(root, "tile")
    assert len(tiles) == len(game.board) > 0
    for element, placed in zip(tiles, game.board):
        assert element.get("data-x") == str(placed.x) and element.get("data-y") == str(placed.y)
        assert element.get("data-tile") == placed.tile
        assert element.get("data-rotation") == str(placed.rotation)
        expected = f"translate({placed.x * svg.SQUARE},{placed.y * svg.SQUARE})"
        if placed.rotation:
            expected += f" rotate({90 * placed.rotation},50,50)"
        assert element.get("transform") == expected
        assert ("printed" in element.get("class", "").split()) == placed.tile.startswith("map/")
        x, y = placed.x * svg.SQUARE, placed.y * svg.SQUARE
        assert vx <= x and x + svg.SQUARE <= vx + vw and vy <= y and y + svg.SQUARE <= vy + vh
    # One tile per square.
    assert len({(e.get("data-x"), e.get("data-y")) for e in tiles}) == len(tiles)


@pytest.mark.parametrize("name, stage", CASES)
def test_meeples_in_player_colours_on_their_features(name: str, stage: str) -> None:
    game = game_of(name, stage)
    rules = game.rules
    root = picture_of(name, stage)[1]
    meeples = groups(root, "meeple")
    on_board = [p for p in game.board if p.meeple is not None]
    assert len(meeples) == len(on_board) == sum(sum(f.meeples) for f in game.features())
    for element, placed in zip(meeples, on_board):
        assert placed.meeple is not None
        player, index = placed.meeple
        assert element.get("data-player") == str(player)
        assert (element.get("data-x"), element.get("data-y")) == (str(placed.x), str(placed.y))
        kind = rules.tile_features(placed.tile, placed.rotation)[index].split()[0]
        assert element.get("data-kind") == kind
        shape = element.find(f"{NS}path")
        assert shape is not None and shape.get("fill") == svg.COLORS[player]
        # The meeple stands inside its tile's square, lying down on fields.
        tx, ty = translate(element)
        assert placed.x * 100 < tx < placed.x * 100 + 100 and placed.y * 100 < ty < placed.y * 100 + 100
        assert ("rotate(-90)" in element.get("transform", "")) == (kind == "field")
        # The spot leaves room for the meeple (about 11 units either way) inside the square.
        assert placed.x * 100 + 11 < tx < placed.x * 100 + 89 and placed.y * 100 + 11 < ty < placed.y * 100 + 89
    swatches = groups(root, "swatch")
    assert [s.get("fill") for s in swatches] == list(svg.COLORS[: rules.players])


@pytest.mark.parametrize("name, stage", CASES)
def test_last_move_marked(name: str, stage: str) -> None:
    game = game_of(name, stage)
    root = picture_of(name, stage)[1]
    marks = groups(root, "last-move")
    assert game.moves
    last = game.moves[-1]
    assert len(marks) == 1
    assert (marks[0].get("data-x"), marks[0].get("data-y")) == (str(last.x), str(last.y))
    assert (marks[0].get("x"), marks[0].get("y")) == (str(last.x * 100 + 3), str(last.y * 100 + 3))
    assert any(p.x == last.x and p.y == last.y for p in game.board)
    assert groups(parse(svg.board(game, last_move=False)), "last-move") == []


@pytest.mark.parametrize("name, stage", CASES)
def test_deterministic(name: str, stage: str) -> None:
    game = game_of(name, stage)
    picture = svg.board(game)
    assert picture == picture_of(name, stage)[0]
    assert picture == svg.board(game.clone())
    assert picture == svg.board(Game.from_json(game.to_json()))
    assert isinstance(picture, str) and picture._repr_svg_() is picture
    assert game._repr_svg_() == picture  # type: ignore[attr-defined]


@pytest.mark.parametrize("name, stage", CASES)
def test_symbols_match_the_engine(name: str, stage: str) -> None:
    """Pennants (and coats of arms), inns, cathedrals and goods drawn add up to what the
    board's features hold."""
    game = game_of(name, stage)
    root = picture_of(name, stage)[1]
    features = game.features()
    drawn_pennants = sum(int(e.get("data-count", "0")) for e in groups(root, "pennant"))
    assert drawn_pennants == sum(f.pennants for f in features)
    assert len(groups(root, "inn")) == sum(f.inns for f in features)
    assert len(groups(root, "cathedral")) == sum(f.cathedrals for f in features)
    # Goods (wine, grain, cloth); in South Seas the wares printed (shells, bananas, fish),
    # of which the engine no longer counts the fish that boat tokens cover.
    south_seas = game.rules.system == "south-seas"
    kind, names = ("ware", ("shell", "banana", "fish")) if south_seas else ("goods", ("wine", "grain", "cloth"))
    covered = sum(e.fish for e in game.sea.events if e.kind == "boat") if game.sea is not None else 0
    for k, good in enumerate(names):
        drawn = len([e for e in groups(root, kind) if good in e.get("class", "").split()])
        assert drawn - (covered if good == "fish" else 0) == sum(f.goods[k] for f in features), good
    buildings = groups(root, "monastery") + groups(root, "market")
    assert len(buildings) == sum(
        1 for p in game.board for d in game.rules.tile_features(p.tile) if d in ("monastery", "market")
    )


def test_symbols_are_shown_somewhere() -> None:
    """The games above hold every kind of symbol at least once (so the sums are not 0 = 0)."""
    totals = {"pennant": 0, "inn": 0, "cathedral": 0, "goods": 0, "ware": 0, "monastery": 0, "market": 0, "lake": 0}
    for name in ALL_CONFIGS:
        root = picture_of(name, "end")[1]
        for key in totals:
            totals[key] += len(groups(root, key))
    assert all(v > 0 for v in totals.values()), totals


@pytest.mark.parametrize("name", [n for n in ALL_CONFIGS if ALL_CONFIGS[n].get("map")])
def test_map_squares(name: str) -> None:
    game = game_of(name, "mid")
    grid = game.rules.map_grid()
    root = picture_of(name, "mid")[1]
    squares = groups(root, "square")
    assert len(squares) == sum(len(row) for row in grid)
    for element in squares:
        x, y = int(element.get("data-x", "")), int(element.get("data-y", ""))
        assert element.get("data-symbol") == grid[y][x]
        assert (element.get("x"), element.get("y")) == (str(x * 100), str(y * 100))
    kinds = {e.get("class") for e in squares}
    assert "square outside" in kinds and "square land" in kinds and "square start" in kinds
    assert any(p.tile.startswith("map/") for p in game.board)


@pytest.mark.parametrize("name", [n for n in ALL_CONFIGS if "ferries" in str(ALL_CONFIGS[n].get("tile_sets"))])
def test_lakes_and_ferries(name: str) -> None:
    game = game_of(name, "end")
    root = picture_of(name, "end")[1]
    tiles = {(e.get("data-x"), e.get("data-y")): e for e in groups(root, "tile")}
    assert game.ferries is not None
    links = game.ferries.links
    assert links
    assert len(groups(root, "lake")) == len(links)
    for x, y, a, b in links:
        tile = tiles[(str(x), str(y))]
        assert len(groups(tile, "lake")) == 1
        assert [e.get("data-ends") for e in groups(tile, "ferry")] == [f"{a},{b}"]


def test_south_seas_boat_tokens_and_islands() -> None:
    boats = 0
    for name in (n for n in ALL_CONFIGS if "south-seas" in str(ALL_CONFIGS[n].get("tile_sets"))):
        game = game_of(name, "end")
        root = picture_of(name, "end")[1]
        assert game.sea is not None
        squares = {e.square for e in game.sea.events if e.kind == "boat"}
        tokens = groups(root, "boat-token")
        assert {(int(e.get("data-x", "")), int(e.get("data-y", ""))) for e in tokens} == squares
        boats += len(tokens)
        assert groups(root, "island") and groups(root, "bridge") and not groups(root, "city")
    assert boats > 0


def test_friday_tiles_are_drawn_with_friday_on_his_tile() -> None:
    for name in (n for n in ALL_CONFIGS if ALL_CONFIGS[n].get("friday")):
        for stage in ("mid", "end"):
            game = game_of(name, stage)
            root = picture_of(name, stage)[1]
            cards = groups(root, "friday-tile")
            friday = game.friday
            assert friday is not None
            assert [c.get("data-tile") for c in cards] == friday.revealed
            here = [c.get("data-tile") for c in cards if "friday-here" in (c.get("class") or "")]
            assert here == ([friday.at] if friday.at is not None else [])
            assert len(groups(root, "friday-figure")) == len(here)
    # Without Friday there is no Friday row.
    assert not groups(picture_of("base-2p", "end")[1], "friday-tile")


def test_boats_printed_on_south_seas_tiles_are_drawn() -> None:
    drawn = 0
    for name in (n for n in ALL_CONFIGS if "south-seas" in str(ALL_CONFIGS[n].get("tile_sets"))):
        game = game_of(name, "end")
        printed = sum(f.boat for p in game.board for f in game.rules.tile_symbols(p.tile))
        assert len(groups(picture_of(name, "end")[1], "printed-boat")) == printed
        drawn += printed
    assert drawn > 0


def test_tile_symbols_are_structured_tile_data() -> None:
    rules = Rules(tile_sets=("base", "inns-and-cathedrals", "traders-and-builders"))
    features = rules.tile_symbols("base/D", 1)
    assert [f.kind for f in features] == [d.split()[0] for d in rules.tile_features("base/D", 1)]
    assert [" ".join([f.kind, *f.places]) for f in features] == rules.tile_features("base/D", 1)
    fields = [f for f in features if f.kind == "field"]
    assert any(f.adjacent_cities for f in fields)
    assert sum(f.pennants for t in rules.tile_ids() for f in rules.tile_symbols(t)) > 0
    assert sum(f.inns for t in rules.tile_ids() for f in rules.tile_symbols(t)) > 0
    with pytest.raises(carcassonne.UnknownTileError):
        rules.tile_symbols("base/ZZ")


def test_coats_of_arms_on_map_island_squares_are_drawn() -> None:
    from carcassonne.maps import summary

    rules = Rules(map="coastal")
    arms = summary(rules).island_arms
    assert arms, "the coastal map prints coats of arms on island squares"
    root = parse(svg.board(Game(rules, seed=1)))
    drawn = [e for e in groups(root, "island-arms") if e.get("data-x") is not None]
    assert sorted((int(e.get("data-x", "")), int(e.get("data-y", "")), int(e.get("data-arms", ""))) for e in drawn) == sorted(arms)


def test_the_legend_names_seats_from_0() -> None:
    root = picture_of("base-2p", "end")[1]
    texts = [t.text for t in root.iter() if t.tag.endswith("text") and t.text and t.text.startswith("Seat")]
    assert [t.split(":")[0] for t in texts] == ["Seat 0", "Seat 1"]


def test_tile_drawings_put_meeples_on_their_features() -> None:
    """For every tile of every set (and the maps' printed pieces): a city's spot lies in
    its outline and in no other, a field's clear of cities, roads and buildings, a road's
    on its line, a monastery's in the centre."""
    pieces: list[tuple[Rules, str, bool]] = []
    for kwargs in (dict(tile_sets=ALL_SETS), dict(tile_sets=("base", "ferries")), dict(tile_sets=("south-seas",))):
        rules = Rules(**kwargs)  # type: ignore[arg-type]
        pieces += [(rules, t, t.startswith("ferries/")) for t in rules.tile_ids()]
    for m in Rules.maps():
        rules = Rules(map=m)
        pieces += [(rules, p.tile, False) for p in Game(rules).board if p.tile.startswith("map/")]
    assert len(pieces) > 200
    for rules, tile, lake in pieces:
        features = rules.tile_features(tile, 0)
        layout = tile_layout._layout(tuple(features), lake)
        areas = {a.index: a.polygon for a in layout.areas}
        for i, description in enumerate(features):
            kind, spot = description.split()[0], layout.anchors[i]
            where = f"{tile} feature {i} ({description}) at {spot}"
            if kind in ("city", "island"):
                assert geometry._inside(spot, areas[i]), where
                assert not any(geometry._inside(spot, p) for j, p in areas.items() if j != i), where
            elif kind in ("field", "sea"):
                assert tile_layout._clearance(spot, layout, lake) > 0, where
            elif kind in ("road", "bridge"):
                assert min(geometry._dist_to_polyline(spot, ln.points) for ln in layout.lines if ln.index == i) < 1, where
            else:
                assert spot == (50.0, 50.0), where


def test_rotation_turns_spots_clockwise() -> None:
    rules = Rules()
    game = Game(rules, seed=3)
    layout = tile_layout._layout(tuple(rules.tile_features("base/D", 0)), False)
    # base/D: city N (feature 1); a quarter turn clockwise puts it east.
    x, y = layout.anchors[1]
    assert y < 50 and geometry._rotate((x, y), 1)[0] > 50 and geometry._rotate((x, y), 2)[1] > 50
    assert rules.tile_features("base/D", 1)[1] == "city E"
    assert game.board[0].tile == "base/D"


def test_options() -> None:
    game = game_of("all-sets-4p", "end")
    root = parse(svg.board(game, size=321))
    assert root.get("width") == "321"
    _, _, vw, vh = (float(v) for v in root.get("viewBox", "").split())
    assert abs(int(root.get("height", "")) - 321 * vh / vw) <= 1
    colours = ["#000001", "#000002", "#000003", "#000004"]
    root = parse(svg.board(game, colors=colours, legend=False))
    for element in groups(root, "meeple"):
        path = element.find(f"{NS}path")
        assert path is not None and path.get("fill") == colours[int(element.get("data-player", ""))]
    assert groups(root, "legend") == []
    with pytest.raises(ValueError, match="colours for 4 players"):
        svg.board(game, colors=["red"])
    with pytest.raises(ValueError, match="size"):
        svg.board(game, size=0)


def test_new_game_and_start_tile_only() -> None:
    game = Game(Rules(), seed=1)
    root = parse(svg.board(game))
    assert len(groups(root, "tile")) == 1 and groups(root, "last-move") == [] and groups(root, "meeple") == []
    assert root.get("viewBox") == "-25 -25 150 270"  # one square, margins, two legend rows


def test_package_exports() -> None:
    assert carcassonne.svg is svg and "svg" in carcassonne.__all__
    assert callable(getattr(Game, "_repr_svg_"))


# ----- carcassonne render ------------------------------------------------------------


def test_cli_render_writes_the_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = game_of("C3-2p", "mid")
    record = tmp_path / "game.json"
    record.write_text(game.to_json(), encoding="utf-8")
    out = tmp_path / "game.svg"
    assert main(["render", str(record), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text == svg.board(game) + "\n"
    assert len(groups(parse(text), "tile")) == len(game.board)
    assert main(["render", str(record), "--size", "200", "--no-last-move", "--no-legend"]) == 0
    root = parse(capsys.readouterr().out)
    assert root.get("width") == "200" and groups(root, "last-move") == [] and groups(root, "legend") == []


def bad_records(tmp_path: Path) -> list[tuple[Path, str]]:
    """(record file, words the error must hold) for records that cannot be drawn."""
    game = game_of("base-2p", "mid")
    spec = json.loads(game.to_json())
    illegal = dict(spec, moves=[*spec["moves"][:3], spec["moves"][1], *spec["moves"][4:]])
    unknown = dict(spec, rules=dict(spec["rules"], tile_sets=[{"builtin": "no-such-set"}]))
    files = {
        "illegal.json": (json.dumps(illegal), "does not replay"),
        "unknown-set.json": (json.dumps(unknown), "does not replay"),
        "truncated.json": (game.to_json()[:100], "does not replay"),
        "not-json.json": ("hello", "does not replay"),
        "empty.json": ("", "does not replay"),
    }
    out = []
    for file_name, (text, words) in files.items():
        path = tmp_path / file_name
        path.write_text(text, encoding="utf-8")
        out.append((path, words))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00junk")
    out.append((binary, "not UTF-8"))
    out.append((tmp_path / "missing.json", "cannot read"))
    out.append((tmp_path, "cannot read"))  # a directory
    return out


def test_cli_render_refuses_bad_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path, words in bad_records(tmp_path):
        out = tmp_path / "out.svg"
        assert main(["render", str(path), "-o", str(out)]) == 2, path
        err = capsys.readouterr().err
        assert err.startswith("carcassonne: error: ") and err.count("\n") == 1, err
        assert str(path) in err and words in err, err
        assert not out.exists()


def test_cli_render_names_the_illegal_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = game_of("base-2p", "mid")
    spec = json.loads(game.to_json())
    spec["moves"][2] = dict(spec["moves"][2], x=40, y=40)
    path = tmp_path / "far.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    assert main(["render", str(path)]) == 2
    err = capsys.readouterr().err
    assert "far.json" in err and "move 2" in err and "(40, 40)" in err, err


def test_cli_render_size_limit_and_unwritable_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "game.json"
    record.write_text(game_of("base-2p", "mid").to_json(), encoding="utf-8")
    assert main(["render", str(record), "-o", str(tmp_path / "no-such-dir" / "x.svg")]) == 2
    err = capsys.readouterr().err
    assert "no-such-dir" in err and "cannot write" in err
    assert main(["render", str(record), "--size", "0"]) == 2
    assert "--size" in capsys.readouterr().err
    import carcassonne.cli

    monkeypatch.setattr(carcassonne.cli, "MAX_RECORD_BYTES", 50)
    assert main(["render", str(record)]) == 2
    err = capsys.readouterr().err
    assert str(record) in err and "more than the 50" in err


# ----- in a real browser ---------------------------------------------------------------

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")

MEASURE = """
<pre id="out"></pre>
<script>
const out = [];
for (const svg of document.querySelectorAll("svg.carcassonne-board")) {
  const toUser = svg.getScreenCTM().inverse();
  const box = (element) => {  // the element's box in the picture's own coordinates
    const m = toUser.multiply(element.getScreenCTM());
    const b = element.getBBox();
    const pts = [[b.x, b.y], [b.x + b.width, b.y + b.height]].map(([x, y]) => {
      const p = svg.createSVGPoint(); p.x = x; p.y = y; return p.matrixTransform(m);
    });
    return [Math.min(pts[0].x, pts[1].x), Math.min(pts[0].y, pts[1].y),
            Math.max(pts[0].x, pts[1].x), Math.max(pts[0].y, pts[1].y)];
  };
  out.push({
    tiles: [...svg.querySelectorAll("g.tile")].map((t) => [+t.dataset.x, +t.dataset.y, ...box(t.querySelector("rect.edge"))]),
    meeples: [...svg.querySelectorAll("g.meeple")].map((g) => [+g.dataset.x, +g.dataset.y, ...box(g)]),
    shown: svg.getBoundingClientRect().width,
  });
}
document.getElementById("out").textContent = JSON.stringify(out);
</script>
"""


@pytest.mark.skipif(BROWSER is None, reason="headless Chromium is not installed (tools/render_boards.py)")
def test_browser_draws_every_rule_system(tmp_path: Path) -> None:
    """Headless Chromium lays out a page of boards (classic with all sets, The Ferries,
    South Seas with Friday, Maps): every tile's edge lands on its square whatever its
    rotation, every meeple inside its tile; and the page renders to a PNG of the window's
    size. (Looking at the pictures is ``tools/render_boards.py``.)"""
    assert BROWSER is not None
    names = ["all-sets-4p", "C3-2p", "south-seas-friday-2p", "coastal-2p", "west-east-3p"]
    games = [game_of(n, "end") for n in names]
    page = tmp_path / "boards.html"
    body = "\n".join(svg.board(g, size=600) for g in games)
    page.write_text(
        f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{body}{MEASURE}</body></html>", encoding="utf-8"
    )
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    run = subprocess.run([BROWSER, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=180)
    m = re.search(r'<pre id="out">(.*?)</pre>', run.stdout, re.S)
    assert m and m.group(1), run.stderr[-2000:]
    measured = json.loads(html.unescape(m.group(1)))
    assert len(measured) == len(games)
    for game, result in zip(games, measured):
        assert result["shown"] == 600
        assert len(result["tiles"]) == len(game.board)
        for (x, y, x0, y0, x1, y1), placed in zip(result["tiles"], game.board):
            assert (x, y) == (placed.x, placed.y)
            assert [x0, y0, x1, y1] == pytest.approx([x * 100, y * 100, x * 100 + 100, y * 100 + 100], abs=0.01)
        assert len(result["meeples"]) == sum(1 for p in game.board if p.meeple is not None)
        for x, y, x0, y0, x1, y1 in result["meeples"]:
            assert x1 - x0 > 10 and y1 - y0 > 10
            assert x * 100 <= x0 < x1 <= x * 100 + 100 and y * 100 <= y0 < y1 <= y * 100 + 100
    png = tmp_path / "boards.png"
    shot = subprocess.run(
        [BROWSER, *flags, f"--screenshot={png}", "--window-size=640,3600", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert shot.returncode == 0 and png.exists(), shot.stderr[-2000:]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", data[16:24]) == (640, 3600)
    assert len(data) > 100_000  # a picture, not an empty page
