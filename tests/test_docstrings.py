"""Runtime docstrings of the public API: every public class, function, method and property
has one; the native module's are compiled from the binding's doc comments and the stub
carries exactly their text (``tools/docstrings.py``); ``Rules(...)`` shows its options."""

from __future__ import annotations

import ast
import importlib.util
import inspect
import pydoc
import sys
from pathlib import Path
from types import ModuleType

import carcassonne
from carcassonne import Rules

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "python" / "carcassonne" / "_core.pyi"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docstrings_tool", ROOT / "tools" / "docstrings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


def test_every_public_member_has_a_docstring() -> None:
    members = TOOL.public_members()
    # The walk reaches the package's own classes and their members, native and Python.
    for name in ("carcassonne.Game.legal_moves", "carcassonne.Move.x", "carcassonne.stats.first_seat_advantage"):
        assert name in members, name
    assert "carcassonne.learn.pettingzoo_env.CarcassonneAEC.reset" in members
    missing = TOOL.undocumented()
    assert missing == [], "\n".join(missing)


def test_the_stub_has_the_runtime_docstrings() -> None:
    problems = TOOL.native_problems(STUB.read_text())
    assert problems == [], "\n".join(problems) + "\nrun python tools/docstrings.py"
    # Writing changes nothing in a stub that agrees.
    assert TOOL.written_stub(STUB.read_text()) == STUB.read_text()


def test_the_check_names_each_differing_or_missing_docstring_and_write_restores_them() -> None:
    text = STUB.read_text()
    tile_ids = '        """Ids of every tile layout in the chosen sets."""\n'
    move_x = '    def x(self) -> int:\n        """Column of the square (grows to the east)."""\n'
    assert text.count(tile_ids) == 1 and text.count(move_x) == 1
    broken = text.replace(tile_ids, '        """Something else."""\n').replace(move_x, "    def x(self) -> int: ...\n")
    assert TOOL.native_problems(broken) == [
        "Move.x: the stub's docstring differs from the runtime __doc__",
        "Rules.tile_ids: the stub's docstring differs from the runtime __doc__",
    ]
    assert TOOL.written_stub(broken) == text
    # A constructor's text belongs in the class's doc comment: __new__ has no runtime one.
    new = "    ) -> Move:\n        ...\n"
    assert text.count(new) == 1
    with_new_doc = text.replace(new, '    ) -> Move:\n        """Makes a move."""\n')
    assert TOOL.native_problems(with_new_doc) == [
        "Move.__new__: has a stub docstring, which no runtime __doc__ matches (write it in the class's doc comment)"
    ]


def test_native_docstrings_are_the_doc_comments() -> None:
    # Known answers, one of each kind of member PyO3 documents.
    assert carcassonne.Move.__doc__ is not None and carcassonne.Move.__doc__.startswith("A move: square (x east")
    assert "raises IllegalMoveError if ``rotation`` is not 0-3" in carcassonne.Move.__doc__
    assert carcassonne.Move.x.__doc__ == "Column of the square (grows to the east)."
    assert carcassonne.Rules.maps.__doc__ == "Names of the built-in maps (original layouts, not the printed maps)."
    assert carcassonne.Game.legal_moves.__doc__ is not None
    assert carcassonne.Game.legal_moves.__doc__.startswith("Every legal move for the current tile")
    assert carcassonne.ActionValue.visits.__doc__ == "How often the search chose it."
    assert carcassonne.RulesError.__doc__ is not None and "a study too large for memory" in carcassonne.RulesError.__doc__
    assert carcassonne.simulate_summary.__doc__ is not None
    assert carcassonne.max_threads.__doc__ == "The most threads ``simulate`` accepts on this machine: 4 per core."


def test_rules_shows_its_options_with_their_defaults() -> None:
    options = Rules.options()
    signature = inspect.signature(Rules)
    assert list(signature.parameters) == [o.name for o in options]
    for o, parameter in zip(options, signature.parameters.values()):
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
        assert parameter.default == ast.literal_eval(o.default), o.name
    assert str(signature).startswith("(*, players=2, meeples=None, tile_sets=None, start_tile=None, farmers=True,")
    assert "ferries_edition='C3'" in str(signature)
    text = pydoc.plain(pydoc.render_doc(Rules))
    assert "Rules(*, players=2, meeples=None," in text
    assert "Validated rules: players, meeples, tile sets and rules options." in text
    # Each option's property, with its line of doc, is in help(Rules) too.
    assert "Option ``farmers`` as in effect." in text
    # The signature describes the keywords Rules takes: the defaults give default rules.
    assert Rules(**{name: p.default for name, p in signature.parameters.items()}) == Rules()
