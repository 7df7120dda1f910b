"""Module paths that moved with the package's layout by concept keep working one release:
each old path is an alias that warns (``DeprecationWarning`` naming the new path, pointing
at the importing line) and re-exports the very same objects; ``carcassonne.study`` and
``carcassonne.svg``, now packages, export the names they did; nothing in the repository
imports an old path."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

import carcassonne
from carcassonne import _moved

REPO = Path(__file__).resolve().parent.parent

# Every public name each old module had, and the module that holds it now.
OLD_NAMES: dict[str, dict[str, str]] = {
    "carcassonne.simulation": {
        "carcassonne._core": "max_threads",
        "carcassonne.study.plan": "POLICIES U64_MAX",
        "carcassonne.study.play": "play_batch replay simulate simulate_summary",
        "carcassonne.study.results": "Z_95 SeatSummary SimulationResult StudySummary StudyTotals margins_and_ranges",
    },
    "carcassonne.results": {
        "carcassonne.study.results": "Z_95 SeatSummary SimulationResult StudySummary StudyTotals margins_and_ranges",
    },
    "carcassonne.batches": {"carcassonne.study.batches": "TARGET_SECONDS Part play_in_batches"},
    "carcassonne.scaleout": {
        "carcassonne.study.scaleout": "BACKENDS MAX_BATCH_GAMES MAX_JOBS ROWS_DIR BackendError Batches batch_path "
        "batches check_disk prepare_out_dir run stream_rows",
    },
    "carcassonne.results_file": {
        "carcassonne.study.results_file": "CSV_PREFIX FORMATS FORMAT_NAME FORMAT_VERSION MAX_TEXT_BYTES METADATA_KEY "
        "PANDAS_ATTRS_KEY READS SOUTH_SEAS_KINDS U64_MAX ResultsFileError ResultsVersionWarning check_target "
        "read_results write_results",
    },
    "carcassonne.study_spec": {"carcassonne.study.spec": "KEYS MAX_SPEC_BYTES load_spec"},
    "carcassonne.report": {"carcassonne.study.report": "DEFAULT_TITLE MIN_GAMES ReportError html_report write_report"},
    "carcassonne.frames": {"carcassonne.study.frames": "concat_frames"},
}

STUDY_NAMES = (
    "MAX_MANIFEST_BYTES STUDY_FORMAT STUDY_FORMAT_VERSION STUDY_READS U64_MAX Cell Study StudyError StudyResult "
    "cell_label cell_seed check_study_directory load_study with_players"
)
"""What ``carcassonne.study`` (the module before it was a package) defined."""


def forget(monkeypatch: pytest.MonkeyPatch, old: str) -> None:
    """As if ``old`` had never been imported in this process."""
    monkeypatch.delitem(sys.modules, old, raising=False)
    name = old.rpartition(".")[2]
    if name in vars(carcassonne):  # not hasattr: that would load the alias
        monkeypatch.delattr(carcassonne, name)


def test_every_old_path_is_listed() -> None:
    assert set(OLD_NAMES) == set(_moved.MOVED)
    for old in _moved.MOVED:
        assert (REPO / "python" / Path(*old.split("."))).with_suffix(".py").is_file(), old


@pytest.mark.parametrize("old", sorted(OLD_NAMES))
def test_an_old_path_warns_and_reexports_the_same_objects(monkeypatch: pytest.MonkeyPatch, old: str) -> None:
    forget(monkeypatch, old)
    new = _moved.MOVED[old]
    with pytest.warns(DeprecationWarning, match=rf"^{re.escape(old)} is deprecated .*import {re.escape(new)}\b") as caught:
        __import__(old)
    assert [w.filename for w in caught] == [__file__]  # the importing line, not the import machinery
    alias = sys.modules[old]
    expected = {name: home for home, names in OLD_NAMES[old].items() for name in names.split()}
    assert sorted(alias.__all__) == sorted(expected)
    for name, home in expected.items():
        assert getattr(alias, name) is getattr(importlib.import_module(home), name), (old, name)
    if old == "carcassonne.simulation":
        assert alias.simulate is carcassonne.simulate and alias.SimulationResult is carcassonne.SimulationResult


@pytest.mark.parametrize("old", ["carcassonne.simulation", "carcassonne.results_file", "carcassonne.scaleout"])
def test_an_old_path_as_an_attribute_of_the_package_warns_once(monkeypatch: pytest.MonkeyPatch, old: str) -> None:
    """``import carcassonne; carcassonne.simulation.simulate(...)`` worked without importing
    the submodule (the package imported it); it still does, with the warning."""
    forget(monkeypatch, old)
    with pytest.warns(DeprecationWarning, match=re.escape(_moved.MOVED[old])) as caught:
        module = getattr(carcassonne, old.rpartition(".")[2])
    assert [w.filename for w in caught] == [__file__]
    assert isinstance(module, ModuleType) and module is sys.modules[old]
    with pytest.raises(AttributeError, match="has no attribute 'no_such_module'"):
        carcassonne.no_such_module  # type: ignore[attr-defined]  # noqa: B018


def test_the_old_modules_that_are_packages_now_export_the_same_names() -> None:
    import carcassonne.study
    import carcassonne.study.grid

    for name in STUDY_NAMES.split():
        assert getattr(carcassonne.study, name) is getattr(carcassonne.study.grid, name), name
    assert carcassonne.study.Study is carcassonne.Study and carcassonne.study.load_study is carcassonne.load_study
    from carcassonne.svg import board_picture, document, geometry, map_picture, palette

    assert carcassonne.svg.__all__ == ["COLORS", "SQUARE", "SvgWrapper", "board", "map"]
    assert carcassonne.svg.board is board_picture.board and carcassonne.svg.map is map_picture.map
    assert carcassonne.svg.COLORS is palette.COLORS and carcassonne.svg.SQUARE == geometry.SQUARE == 100
    assert carcassonne.svg.SvgWrapper is document.SvgWrapper


def test_nothing_in_the_repository_imports_an_old_path() -> None:
    old = "|".join(re.escape(m.rpartition(".")[2]) for m in _moved.MOVED)
    pattern = re.compile(rf"(from\s+carcassonne\.({old})\b|import\s+carcassonne\.({old})\b|carcassonne\.({old})\.\w)")
    aliases = {(REPO / "python" / Path(*m.split("."))).with_suffix(".py") for m in _moved.MOVED}
    found = []
    for folder in ("python", "tests", "benches", "tools"):
        for path in (REPO / folder).rglob("*.py"):
            if path in aliases or path == Path(__file__):
                continue
            found += [f"{path.relative_to(REPO)}: {m.group(0)}" for m in pattern.finditer(path.read_text())]
    assert found == []
