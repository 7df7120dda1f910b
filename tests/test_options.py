"""Rules options declared once (the core's ``engine/options.rs``): the keywords of
``Rules(...)``, the stub, the command line, the report's rules line and the documentation's
table (docs/rules/options.md) all follow the declarations, and this checks that they agree."""

from __future__ import annotations

import ast
import importlib.util
import inspect
from pathlib import Path
from types import ModuleType

import pytest

import carcassonne
from carcassonne import Rules, RulesError
from carcassonne.cli import _rules_options, build_parser
from carcassonne.study.report import _rules_summary

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = Rules.options()


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("options_tool", ROOT / "tools" / "options.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_stub_is_up_to_date() -> None:
    tool = _tool()
    for path, text in tool.generated().items():
        assert path.read_text() == text, f"{path.name} is out of date: run python tools/options.py"
    assert tool.main(["--check"]) == 0


def test_the_docs_table_of_options_is_written_from_the_declarations() -> None:
    # The page prints its table when the site is built; run that block as the build does
    # (from the repository's root) and check it prints one row per option, in order, with
    # its rule system, default, flag and line of doc.
    import contextlib
    import io
    import os
    import re

    page = (ROOT / "docs" / "rules" / "options.md").read_text()
    blocks = re.findall(r'^```python exec="on"\n(.*?)^```', page, flags=re.S | re.M)
    assert len(blocks) == 1
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            exec(blocks[0], {"__name__": "__main__"})
    finally:
        os.chdir(cwd)
    table = out.getvalue()
    assert table == _tool().docs_table(OPTIONS)
    rows = [line for line in table.splitlines() if line.startswith("| `") and "keyword" not in line]
    assert len(rows) == len(OPTIONS)
    for o, row in zip(OPTIONS, rows):
        cells = [c.strip() for c in row.strip("|").split("|")]
        flag = f"`--{o.flag}`" if o.flag else "(the lineup)"
        default = "see the right" if o.default == "None" else f"`{o.default}`"
        assert cells == [f"`{o.name}`", o.system, default, flag, o.doc], row


def test_the_stub_declares_every_option_with_its_default() -> None:
    tree = ast.parse((ROOT / "python" / "carcassonne" / "_core.pyi").read_text())
    rules = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Rules")
    new = next(n for n in rules.body if isinstance(n, ast.FunctionDef) and n.name == "__new__")
    names = [a.arg for a in new.args.kwonlyargs]
    assert names == [o.name for o in OPTIONS]
    defaults = [ast.unparse(d) if d is not None else "" for d in new.args.kw_defaults]
    assert defaults == [o.default.replace('"', "'") for o in OPTIONS]


def test_declarations_are_complete() -> None:
    names = [o.name for o in OPTIONS]
    assert len(names) == len(set(names)) == 19
    systems = {"every", "classic", "ferries", "maps", "south-seas", "friday"}
    kinds = {"bool", "int", "text", "file", "files", "map", "start squares", "rotations", "variants"}
    for o in OPTIONS:
        assert o.system in systems and o.kind in kinds, o
        assert o.doc.endswith(".") and len(o.doc) < 160, o
        assert (o.range is not None) == (o.kind == "int"), o
        assert (len(o.builtins) > 0) == (o.kind in ("file", "files", "map")), o
        assert "{}" in o.summary or o.kind == "bool", o
        assert repr(o) == f"RuleOption('{o.name}')"
    # Every option but the seats (taken from the lineup) has its own flag.
    flags = [o.flag for o in OPTIONS if o.flag]
    assert len(flags) == len(set(flags)) == len(OPTIONS) - 1
    assert [o.name for o in OPTIONS if not o.flag] == ["players"]
    assert next(o for o in OPTIONS if o.name == "ferries_edition").choices == ["C3", "C2"]
    assert next(o for o in OPTIONS if o.name == "players").range == (2, 6)
    assert "coastal" in next(o for o in OPTIONS if o.name == "map").builtins
    assert carcassonne.RuleOption is type(OPTIONS[0])


def test_every_option_has_its_property_read_as_in_effect() -> None:
    # The binding makes one property per declaration: each is a real property of the class
    # (so stubtest and help() see it), documented with the declaration's line.
    for o in OPTIONS:
        prop = inspect.getattr_static(Rules, o.rules_property)
        assert isinstance(prop, property), o
        assert prop.__doc__ == f"Option ``{o.name}`` as in effect. {o.doc}"
    assert {o.rules_property for o in OPTIONS if o.rules_property != o.name} == {"ship_set", "friday_set"}
    # Values in effect, as given or as the rule system chose them (known answers).
    plain = Rules()
    assert (plain.players, plain.meeples, plain.tile_sets, plain.start_tile) == (2, 7, ["base"], "base/D")
    assert (plain.map, plain.start_squares, plain.start_rotations, plain.deck_size) == (None, None, [], 71)
    assert (plain.ship_set, plain.friday_set, plain.small_towns) == ("south-seas", "friday", [])
    on_map = Rules(map="coastal", small_towns=[3, 1], deck_size=40)
    assert (on_map.meeples, on_map.deck_size, on_map.small_towns) == (9, 40, [1, 3])
    # The variants are a set: in any order, the same rules.
    assert on_map == Rules(map="coastal", small_towns=[1, 3], deck_size=40)
    assert on_map.to_json() == Rules(map="coastal", small_towns=[1, 3], deck_size=40).to_json()
    assert on_map.start_squares == len(on_map.start_rotations) == len(on_map.map_starts()) >= 1
    assert on_map.start_rotations == [None] * on_map.start_squares
    chosen = Rules(map="coastal", start_squares=[(11, 4), (14, 6)], start_rotations=[1, None])
    assert (chosen.start_squares, chosen.start_rotations) == (2, [1, None])
    seas = Rules(tile_sets=["south-seas"], friday=True)
    assert (seas.meeples, seas.start_tile, seas.friday, seas.friday_set) == (4, "south-seas/A", True, "friday")
    # The repr writes the options as given, those of other rule systems left out, and
    # evaluates to equal rules.
    assert repr(chosen).endswith(
        "ferries_edition='C3', map='coastal', start_squares=[(11, 4), (14, 6)], start_rotations=[1, None])"
    )
    assert repr(seas) == (
        "Rules(players=2, meeples=4, tile_sets=['south-seas'], start_tile='south-seas/A', ships='south-seas', "
        "retrieve_only_when_supply_empty=False, boat_evaluates_unoccupied=False, friday=True, friday_tiles='friday')"
    )
    for rules in (plain, on_map, chosen, seas, Rules(map=("west", "east"))):
        assert eval(repr(rules), {"Rules": Rules}) == rules, repr(rules)


def test_every_keyword_is_an_option() -> None:
    # The runtime takes the options as keywords, which its signature lists (defaults and
    # help(Rules): tests/test_docstrings.py); each one is accepted, None is its default.
    assert list(inspect.signature(Rules).parameters) == [o.name for o in OPTIONS]
    assert Rules(**{o.name: None for o in OPTIONS}) == Rules()
    with pytest.raises(TypeError, match=r"unexpected keyword argument \"fridayy\" \(did you mean 'friday'\?\)"):
        Rules(fridayy=True)
    with pytest.raises(TypeError, match="unexpected keyword argument \"colour\"$"):
        Rules(colour="red")
    with pytest.raises(TypeError, match="farmers must be True or False, not int"):
        Rules(farmers=1)
    with pytest.raises(RulesError, match="meeples per player must be between 0 and 99, got 100"):
        Rules(meeples=100)
    with pytest.raises(RulesError, match="tile_sets must be a sequence of names or paths"):
        Rules(tile_sets="base")


def test_the_rule_systems_defaults_come_from_the_core() -> None:
    assert (Rules().meeples, Rules(map="coastal").meeples, Rules(tile_sets=["south-seas"]).meeples) == (7, 9, 4)
    assert Rules(map="coastal").tile_sets == ["base", "inns-and-cathedrals", "traders-and-builders"]
    assert Rules(tile_sets=["south-seas"], meeples=3).meeples == 3
    with pytest.raises(RulesError, match="ship"):
        Rules(ships="south-seas")
    with pytest.raises(RulesError, match="Friday"):
        Rules(tile_sets=["south-seas"], friday_tiles="friday")


def test_option_values_list_the_options_that_act() -> None:
    base = Rules().option_values()
    assert list(base) == [o.name for o in OPTIONS if o.system in ("every", "classic")]
    assert base["tile_sets"] == ["base"] and base["farmers"] is True and base["meeples"] == 7
    seas = Rules(tile_sets=["south-seas"], friday=True).option_values()
    assert list(seas) == [o.name for o in OPTIONS if o.system in ("every", "south-seas", "friday")]
    assert (seas["ships"], seas["friday_tiles"], seas["meeples"]) == ("south-seas", "friday", 4)
    joined = Rules(map="west+east", small_towns=[3, 1], deck_size=40).option_values()
    assert (joined["map"], joined["small_towns"], joined["deck_size"]) == ("west+east", [1, 3], 40)  # as given, sorted
    assert joined["start_squares"] is None  # the map's recommendation
    ferries = Rules(tile_sets=["base", "ferries"], ferries_edition="C2").option_values()
    assert ferries["ferries_edition"] == "C2" and "ferries_edition" not in base


def test_the_command_line_has_a_flag_for_every_option() -> None:
    sim = build_parser()._subparsers._group_actions[0].choices["simulate"]  # type: ignore[union-attr]
    by_flag = {s: a for a in sim._actions for s in a.option_strings}
    for o in OPTIONS:
        if o.flag:
            assert by_flag[f"--{o.flag}"].dest == o.name, o
            assert o.doc in (by_flag[f"--{o.flag}"].help or ""), o
    # Nothing given: every option None, the defaults; each flag reaches its keyword.
    assert set(_rules_options(sim.parse_args([]))) == {o.name for o in OPTIONS if o.flag}
    assert all(v is None for v in _rules_options(sim.parse_args([])).values())
    given = _rules_options(
        sim.parse_args(
            "--no-farmers --inns-and-cathedrals --traders-goods --meeples 5 --tile-sets base ferries "
            "--ferries-edition C2 --start-tile base/D".split()
        )
    )
    rules = Rules(players=3, **given)
    assert (rules.farmers, rules.inns_and_cathedrals_scoring, rules.traders_goods) == (False, True, True)
    assert (rules.meeples, rules.tile_sets, rules.ferries_edition) == (5, ["base", "ferries"], "C2")
    maps = _rules_options(
        sim.parse_args("--map coastal --start-squares 1 --start-rotations - --deck-size 30 --small-towns 1 2".split())
    )
    assert (maps["start_squares"], maps["start_rotations"], maps["small_towns"]) == (1, [None], [1, 2])
    seas = _rules_options(
        sim.parse_args(
            "--tile-sets south-seas --friday --friday-tiles friday --ships south-seas "
            "--retrieve-only-when-supply-empty --boat-evaluates-unoccupied".split()
        )
    )
    rules = Rules(**seas)
    assert rules.friday and rules.retrieve_only_when_supply_empty and rules.boat_evaluates_unoccupied


def test_the_report_names_every_option_that_is_set() -> None:
    seas = Rules(tile_sets=["south-seas"], friday=True, retrieve_only_when_supply_empty=True,
                 boat_evaluates_unoccupied=True)
    line = _rules_summary(seas)
    assert line.startswith("South Seas; 2 players; 4 meeples; tile sets south-seas")
    for text in ("ships south-seas", "islanders taken back only with an empty supply",
                 "boats cover unoccupied fish", "Friday", "Friday tiles friday"):
        assert text in line
    assert "farmers" not in line  # a classic option does not act in South Seas
    classic = _rules_summary(Rules(farmers=False, inns_and_cathedrals_scoring=True, map="continental",
                                   small_towns=[2, 3]))
    for text in ("classic; 2 players; 9 meeples", "no farmers", "Inns & Cathedrals scoring",
                 "map continental", "small-town variants 2, 3"):
        assert text in classic
    assert "Traders & Builders goods" not in classic
