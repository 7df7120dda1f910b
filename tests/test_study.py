"""``carcassonne.Study``: a grid of configurations x player counts x line-ups, each cell
the ``simulate`` run its seed names, gathered into one tidy table with metadata."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from carcassonne import ResultsFileError, Rules, Study, StudyError, load_study, replay, simulate
from carcassonne.players import MCTS
from carcassonne.study import cell_seed, with_players
from carcassonne.study.spec import load_spec

pd = pytest.importorskip("pandas")


def test_the_grid_runs_every_cell_with_its_own_seed() -> None:
    study = Study(
        configs={"base": Rules(), "no farmers": Rules(farmers=False)},
        lineups={"random": "random", "greedy first": ["greedy", "random"], "greedy": "greedy"},
        seats=(2, 3),
        games=60,
        seed=9,
    )
    cells = study.cells()
    # The per-seat line-up runs with 2 seats only.
    assert [c.key for c in cells] == [
        ("base", 2, "random"), ("base", 2, "greedy first"), ("base", 2, "greedy"),
        ("base", 3, "random"), ("base", 3, "greedy"),
        ("no farmers", 2, "random"), ("no farmers", 2, "greedy first"), ("no farmers", 2, "greedy"),
        ("no farmers", 3, "random"), ("no farmers", 3, "greedy"),
    ]  # fmt: skip
    assert len({c.seed for c in cells}) == len(cells)
    result = study.run(threads=2)
    assert not result.interrupted
    for cell in cells:
        alone = simulate(cell.rules, 60, seed=cell_seed(9, *cell.key), players=cell.players)
        got = result[cell.key]
        assert np.array_equal(got.scores, alone.scores) and got.rules.players == cell.seats
        assert got.rules == with_players(study.configs[cell.config], cell.seats)
    df = result.to_pandas()
    assert list(df.columns[:8]) == ["study", "cell", "config", "seats", "lineup", "game", "seat", "player"]
    assert df.study.cat.categories.tolist() == [result.name] and df.attrs["study"] == result.name
    assert "no farmers, 3 seats, greedy" in df.cell.cat.categories
    assert len(df) == sum(60 * c.seats for c in cells)
    three = df[(df.config == "no farmers") & (df.seats == 3) & (df.lineup == "greedy")]
    assert (three.score.to_numpy() == result[("no farmers", 3, "greedy")].scores.ravel()).all()
    assert df.attrs["seed"] == 9 and len(df.attrs["cells"]) == len(cells)
    assert df.attrs["cells"][1]["players"] == ["greedy", "random"]
    # Configurations are JSON objects (not JSON text in a string).
    assert Rules.from_json(json.dumps(df.attrs["configs"]["no farmers"])) == Rules(farmers=False)
    # Adding a cell leaves the others' games as they were.
    bigger = Study(configs={"base": Rules(), "ferries": Rules(tile_sets=("base", "ferries"))}, games=60, seed=9)
    assert np.array_equal(bigger.run()[("base", 2, "random")].scores, result[("base", 2, "random")].scores)


def test_paired_cells_share_the_seed() -> None:
    study = Study(configs={"base": Rules(), "no farmers": Rules(farmers=False)}, games=40, seed=3, paired=True)
    assert {c.seed for c in study.cells()} == {3}
    result = study.run()
    a, b = result[("base", 2, "random")], result[("no farmers", 2, "random")]
    # The same decks (the players' choices then differ: without farmers there are no
    # field placements to choose from).
    for i in (0, 17, 39):
        decks = [json.loads(replay(r.rules, 3, i).to_json())["deck"] for r in (a, b)]
        assert decks[0] == decks[1]
    field = a.score_kinds.index("field")
    assert (b.points_by_kind[:, :, field] == 0).all() and (a.points_by_kind[:, :, field] > 0).any()


def test_each_config_keeps_its_own_seats_without_seats() -> None:
    study = Study(configs={"4p": Rules(players=4), "ss": Rules(tile_sets=("south-seas",))}, games=5,
                  lineups={"mcts": MCTS(playouts=5), "random": "random"})  # fmt: skip
    assert [(c.config, c.seats) for c in study.cells()] == [("4p", 4), ("4p", 4), ("ss", 2), ("ss", 2)]
    assert study.run()[("4p", 4, "mcts")].players == ("mcts(playouts=5,c=0.1,cutoff=8)",) * 4


def test_bad_grids_are_refused() -> None:
    with pytest.raises(StudyError, match="at least one configuration"):
        Study(configs={}, games=1)
    with pytest.raises(StudyError, match="at least one line-up"):
        Study(configs={"b": Rules()}, games=1, lineups={})
    with pytest.raises(StudyError, match="not a carcassonne.Rules"):
        Study(configs={"b": "base"}, games=1)  # type: ignore[dict-item]
    with pytest.raises(StudyError, match="distinct player counts"):
        Study(configs={"b": Rules()}, games=1, seats=(2, 2))
    with pytest.raises(StudyError, match="games must be"):
        Study(configs={"b": Rules()}, games=-1)
    with pytest.raises(StudyError, match="seed must be"):
        Study(configs={"b": Rules()}, games=1, seed=2**64)
    with pytest.raises(StudyError, match="non-empty strings"):
        Study(configs={"": Rules()}, games=1)
    with pytest.raises(StudyError, match="line-up 'three' has one player per seat for no player count"):
        Study(configs={"b": Rules()}, games=1, lineups={"three": ["random"] * 3})
    with pytest.raises(ValueError, match="players"):
        Study(configs={"b": Rules()}, games=1, seats=(7,))
    assert issubclass(StudyError, ValueError)


def test_a_study_saves_and_loads_every_cell(tmp_path: Path) -> None:
    study = Study(configs={"base": Rules(), "ss": Rules(tile_sets=("south-seas",))}, games=50, seed=4,
                  lineups={"random": "random", "mixed": [MCTS(playouts=5), "greedy"]})  # fmt: skip
    result = study.run()
    for fmt in ("csv", "json", "parquet"):
        if fmt == "parquet":
            pytest.importorskip("pyarrow")
        back = load_study(result.save(tmp_path / fmt, fmt))
        assert list(back.results) == list(result.results) and back.cells == result.cells
        for key, r in result.results.items():
            assert np.array_equal(back[key].scores, r.scores) and back[key].metadata() == r.metadata()
        assert back.metadata() == result.metadata()
        assert back.to_pandas().equals(result.to_pandas())
    # Faults name the file.
    with pytest.raises(ResultsFileError, match=r"study\.json: cannot read the study manifest \(study\.json\): no such file"):
        load_study(tmp_path / "nothing")
    manifest = tmp_path / "csv" / "study.json"
    data = json.loads(manifest.read_text())
    data["cells"][0]["file"] = "../elsewhere.csv"
    manifest.write_text(json.dumps(data))
    with pytest.raises(ResultsFileError, match="outside the study directory"):
        load_study(tmp_path / "csv")
    data["cells"][0]["file"] = "cell-000.csv"
    del data["cell_count"]
    manifest.write_text(json.dumps(data))
    with pytest.raises(ResultsFileError, match="manifest is incomplete"):
        load_study(tmp_path / "csv")
    manifest.write_text("{")
    with pytest.raises(ResultsFileError, match="cannot read the study"):
        load_study(tmp_path / "csv")
    (tmp_path / "json" / "cell-001.json").write_text("[]")
    with pytest.raises(ResultsFileError, match=r"cell-001\.json: not a results file"):
        load_study(tmp_path / "json")


def test_the_study_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from carcassonne.cli import main

    spec = tmp_path / "grid.json"
    spec.write_text(json.dumps({
        "games": 30, "seed": 2, "seats": [2, 4],
        "configs": {"base": {}, "no farmers": {"farmers": False}},
        "lineups": {"greedy": "greedy", "mcts first": [{"mcts": {"playouts": 5}}, "random"]},
    }))  # fmt: skip
    assert main(["study", str(spec), "--out", str(tmp_path / "out"), "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["config", "seats", "line-up"] and len(out) == 1 + 6 + 1
    back = load_study(tmp_path / "out")
    expected = load_spec(spec).run()
    assert list(back.results) == list(expected.results)
    key = ("no farmers", 2, "mcts first")
    assert np.array_equal(back[key].scores, expected[key].scores)
    assert back[key].players == ("mcts(playouts=5,c=0.1,cutoff=8)", "random")

    def fails(text: str, match: str, suffix: str = ".json") -> None:
        bad = tmp_path / f"bad{suffix}"
        bad.write_text(text)
        assert main(["study", str(bad)]) == 2
        err = capsys.readouterr().err
        assert str(bad) in err and re.search(match, err), err

    fails("{", "not valid JSON")
    fails("[1]", "a study is an object")
    fails('{"games": 1, "configs": {}, "lineups": {}, "colour": 1}', "unknown key 'colour'")
    fails('{"games": 1, "lineups": {"r": "random"}}', "'configs' is missing")
    fails('{"games": 1, "configs": {"b": {"players": 9}}, "lineups": {"r": "random"}}', "configuration 'b': players")
    fails('{"games": 1, "configs": {"b": {"colour": 1}}, "lineups": {"r": "random"}}', "configuration 'b'")
    fails('{"games": 1, "configs": {"b": {}}, "lineups": {"r": 5}}', "a player is a name")
    fails('{"games": 1, "configs": {"b": {}}, "lineups": {"r": {"mcts": {"playouts": -1}}}}', "playouts must be")
    fails('{"games": 1, "configs": {"b": {}}, "lineups": {"r": ["random", "random", "random"]}}', "no player count")
    fails('{"games": -1, "configs": {"b": {}}, "lineups": {"r": "random"}}', "games must be")
    fails("games = [", "not valid TOML", ".toml")
    assert main(["study", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
