"""The bounded fuzz suite over the study toolkit's surfaces: study specs,
results files, study manifests, rendered records and Python players. Whatever is
generated, the only failure allowed is the surface's documented ValueError subclass with
a message under ``MESSAGE_LIMIT`` characters; a results file that is read back must be
the very result written; a player's fault is a PlayerError naming game and seat.

About 15 seconds with the default ``ci`` settings; ``FUZZ_EXAMPLES=2000
HYPOTHESIS_PROFILE=thorough`` for a soak."""

from __future__ import annotations

import json
import os
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import carcassonne
from carcassonne import PlayerError, ResultsFileError, Rules, RulesError, StudyError, simulate
from carcassonne.cli import main
from carcassonne.study import Study, load_study
from carcassonne.study.spec import load_spec

MESSAGE_LIMIT = 4_000
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# JSON values of every kind, nested a little.
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

GOOD_SPEC: dict[str, Any] = {
    "games": 2,
    "seed": 1,
    "seats": [2],
    "configs": {"base": {}, "small": {"farmers": False}},
    "lineups": {"random": "random", "mixed": ["greedy", "random"]},
    "paired": False,
}


def short(e: BaseException) -> None:
    assert len(str(e)) < MESSAGE_LIMIT, f"{len(str(e))} characters"


def mutate(data: bytes, draw: st.DrawFn) -> bytes:
    """``data`` with a few bytes replaced, deleted or inserted."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        if not out:
            break
        i = draw(st.integers(0, len(out) - 1))
        kind = draw(st.sampled_from(["flip", "replace", "delete", "insert"]))
        if kind == "flip":
            out[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "replace":
            out[i] = draw(st.integers(0, 255))
        elif kind == "delete":
            del out[i]
        else:
            out[i:i] = draw(st.binary(min_size=1, max_size=4))
    return bytes(out)


@FUZZ
@given(key=st.sampled_from(sorted(GOOD_SPEC) + ["extra"]), value=JSON)
def test_fuzzed_spec_values(key: str, value: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "spec.json"
        path.write_text(json.dumps({**GOOD_SPEC, key: value}))
        try:
            study = load_spec(path)
        except (StudyError, RulesError, PlayerError) as e:
            short(e)
            assert str(path) in str(e)
            return
        assert isinstance(study, Study)
        # Accepted: the types are what the spec promises.
        assert type(study.games) is int and type(study.paired) is bool and type(study.seed) is int


@FUZZ
@given(data=st.data())
def test_fuzzed_spec_text(data: st.DataObject) -> None:
    text = json.dumps(GOOD_SPEC).encode()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / data.draw(st.sampled_from(["spec.json", "spec.toml"]))
        path.write_bytes(mutate(text, data.draw))
        try:
            load_spec(path)
        except (StudyError, RulesError, PlayerError) as e:
            short(e)


@pytest.fixture(scope="module")
def result() -> carcassonne.SimulationResult:
    return simulate(Rules(players=3), 6, seed=9, first_game=3)


def same(a: carcassonne.SimulationResult, b: carcassonne.SimulationResult) -> bool:
    arrays = ("scores", "winners", "turns", "points_by_kind", "discarded", "ships", "wares_left")
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in arrays) and a.metadata() == b.metadata()


@FUZZ
@given(data=st.data(), fmt=st.sampled_from(["parquet", "csv", "json"]))
def test_fuzzed_results_files(result: carcassonne.SimulationResult, data: st.DataObject, fmt: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        good = result.save(Path(tmp) / f"good.{fmt}").read_bytes()
        path = Path(tmp) / f"fuzzed.{fmt}"
        path.write_bytes(mutate(good, data.draw))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                back = carcassonne.read_results(path)
        except (ResultsFileError, carcassonne.ResultsVersionWarning) as e:
            short(e)
            return
        assert same(back, result), "a changed file was read as other games"


@pytest.fixture(scope="module")
def saved_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    study = Study(configs={"base": Rules()}, games=3, seed=2, seats=[2, 3])
    return study.run().save(tmp_path_factory.mktemp("fuzz") / "study", format="json")


@FUZZ
@given(data=st.data())
def test_fuzzed_manifests(saved_study: Path, data: st.DataObject) -> None:
    manifest = json.loads((saved_study / "study.json").read_text())
    key = data.draw(st.sampled_from(sorted(manifest)))
    if data.draw(st.booleans()) and key == "cells":
        cell = data.draw(st.integers(0, len(manifest["cells"]) - 1))
        field = data.draw(st.sampled_from(["config", "seats", "lineup", "file"]))
        manifest["cells"][cell][field] = data.draw(JSON)
    else:
        manifest[key] = data.draw(JSON)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "study"
        copy.mkdir()
        for f in saved_study.iterdir():
            (copy / f.name).write_bytes(f.read_bytes())
        (copy / "study.json").write_text(json.dumps(manifest))
        try:
            load_study(copy)
        except ResultsFileError as e:
            short(e)


@pytest.fixture(scope="module")
def record() -> str:
    game = carcassonne.Game(Rules(), seed=4)
    for _ in range(6):
        game.play(game.legal_moves()[0])
    return game.to_json()


@FUZZ
@given(data=st.data())
def test_fuzzed_records_rendered(record: str, data: st.DataObject, capsys: pytest.CaptureFixture[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_bytes(mutate(record.encode(), data.draw))
        code = main(["render", str(path), "-o", str(Path(tmp) / "out.svg")])
        err = capsys.readouterr().err
        assert code in (0, 2), err
        if code == 2:
            assert err.startswith("carcassonne: error: ") and err.count("\n") == 1 and len(err) < MESSAGE_LIMIT


ANSWERS = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=5),
    st.builds(carcassonne.Move, st.integers(-(2**31), 2**31 - 1), st.integers(-(2**31), 2**31 - 1), st.integers(0, 3)),
    st.just("raise"),
)


@FUZZ
@given(answers=st.lists(ANSWERS, min_size=1, max_size=6))
def test_fuzzed_python_players(answers: list[Any]) -> None:
    """A Python player that answers garbage, illegal moves or raises: a PlayerError
    naming game and seat, caused by what the player raised, and nothing else."""
    calls = iter(answers)

    def player(game: carcassonne.Game) -> Any:
        answer = next(calls, None)
        if answer is None:
            return game.legal_moves()[0]
        if answer == "raise":
            raise RuntimeError("the player broke")
        return answer

    try:
        simulate(Rules(), 1, players=[player, "random"])
    except PlayerError as e:
        short(e)
        assert "game 0" in str(e) and "seat 0" in str(e)
