"""The documentation's examples as tests: every ```python block of README.md and docs/.

Sybil turns each block into a test item, run in the file's order in one namespace per
file (a page's later blocks use the names its earlier ones made). A block whose text
starts with ``>>>`` is a doctest: its printed output is checked. A block preceded by
``<!-- skip: next -->`` is skipped. Blocks fenced ```python exec="on"``` draw the site's
pictures and generated tables at build time (markdown-exec, in ``mkdocs build``); their
fence's info is more than ``python``, so Sybil leaves them alone.

Under pytest-xdist (``-n``), a file's items must run on one worker, in order, for the
shared namespace: the scheduler below keeps each document together (and the tests of
tests/test_docs.py, which share one build of the site). (xdist's own
``--dist loadgroup`` would do it with markers, but it renames items through an attribute
pytest 9 no longer reads, and ``--dist loadfile`` would also bind every test module to
one worker.)
"""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from sybil import Sybil
from sybil.parsers.markdown import PythonCodeBlockParser, SkipParser

# Path.match before Python 3.13 has no recursive "**": one pattern per depth.
_DOCS = ["docs/*.md", "docs/*/*.md", "docs/*/*/*.md"]

pytest_collect_file = Sybil(
    parsers=[
        # NORMALIZE_WHITESPACE: an expected output may wrap a long line as the page's
        # width asks; ELLIPSIS: "..." stands for the parts of an output that vary.
        PythonCodeBlockParser(doctest_optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE),
        SkipParser(),
    ],
    patterns=["README.md", *_DOCS],
    # The README of another folder (a Rust crate's) is not the project's.
    excludes=["*/README.md"],
    name="docs",
).pytest()


# Test modules whose tests share one costly fixture: tests/test_docs.py builds the site
# once (module scope), which two workers would do twice.
_ONE_WORKER = {"tests/test_docs.py"}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """pytest-xdist's ``load`` (its default with ``-n``), except that a document's
    examples are one unit of work, sent to one worker in order."""
    if config.getoption("dist") != "load":
        return None  # another mode asked for explicitly: xdist's own
    from xdist.scheduler import LoadScopeScheduling

    class DocumentScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            # Every other test is a unit of its own, spread as "load" spreads them.
            return path if path.endswith(".md") or path in _ONE_WORKER else nodeid

    return DocumentScheduling(config, log)
