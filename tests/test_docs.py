"""The documentation site: it builds with every warning an error, its generated pages say
what the code says, it names nothing private, every rules-decision code is explained, and
a browser shows its pictures.

The site is built once for the module (``mkdocs build --strict`` into a temporary
directory), or taken from ``CARCASSONNE_DOCS_SITE`` when ``.ci/docs`` has just built it.
The examples in the pages are run by Sybil (the root ``conftest.py``), not here.
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from carcassonne import ObservationSpace, Rules, cli

ROOT = Path(__file__).resolve().parents[1]
SITE_ENV = "CARCASSONNE_DOCS_SITE"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")

# A rules-decision code (C-1, F-2, M-12, S-4): not the start of an SVG path ("M-6,-7").
DECISION_CODE = re.compile(r"(?<![\w.-])([CFMS]-\d+)(?!\d|\.\d|,-?\d)")
# Internal issue numbers: "issue 12", "issues #3", a bare "#12" used as one.
ISSUE_NUMBER = re.compile(r"\bissues?\s+#?\d+|(?<![\w&#/])#\d+\b", re.IGNORECASE)
OUTSIDE_PATHS = ("../shared", "shared/spec", "DECISIONS.md", "/work/")


def _docs_reference() -> ModuleType:
    """tools/docs_reference.py, the generator of the reference pages (for its list of
    configurations; the expected tables are computed here, not by it)."""
    spec = importlib.util.spec_from_file_location("docs_reference_under_test", ROOT / "tools" / "docs_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get(SITE_ENV)
    if given:
        path = Path(given)
        assert (path / "index.html").is_file(), f"{SITE_ENV}={given} holds no built site"
        return path
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stderr[-6000:]}"
    return out


class _Page(HTMLParser):
    """A built page read back: its visible text, its element ids and its tables (rows of
    cell texts)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.ids: set[str] = set()
        self.tables: list[list[list[str]]] = []
        self._hidden = 0  # inside <script>, <style> or a picture: no text of the page
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)
        if tag in ("script", "style", "svg"):
            self._hidden += 1
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "svg"):
            self._hidden -= 1
        elif tag in ("td", "th") and self._cell is not None and self.tables:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts)


def test_every_page_is_built(site: Path) -> None:
    """Every Markdown page of docs/ has its HTML page, with its content (a heading)."""
    sources = sorted((ROOT / "docs").rglob("*.md"))
    assert sources
    for source in sources:
        built = site / source.relative_to(ROOT / "docs").with_suffix(".html")
        assert built.is_file(), f"{source} was not built"
        assert "<h1" in built.read_text(encoding="utf-8"), f"{built} has no heading"


def test_spaces_page_tables_are_the_engines(site: Path) -> None:
    """reference/spaces.html: for each configuration its action blocks, board planes and
    vector fields, in order, equal to what ActionSpace and ObservationSpace say now."""
    tables = _read(site / "reference" / "spaces.html").tables
    configurations = _docs_reference().CONFIGURATIONS
    assert len(tables) == 3 * len(configurations)
    for n, (title, options, _) in enumerate(configurations):
        rules = Rules(**options)
        space = rules.action_space
        obs = ObservationSpace(rules, space)
        blocks, planes, fields = (t[1:] for t in tables[3 * n : 3 * n + 3])  # less the header
        assert blocks == [
            [b.name, f"{b.start:,} to {b.start + b.size - 1:,}", " x ".join(map(str, b.shape)), ", ".join(b.axes),
             b.doc]  # fmt: skip
            for b in space.blocks
        ], title
        maxima = zip(obs.planes, obs.plane_max, strict=True)
        assert planes == [[str(i), name, str(top)] for i, (name, top) in enumerate(maxima)], title
        offsets = np.cumsum([0] + [length for _, length in obs.fields])
        assert fields == [[name, str(offsets[i]), str(length)] for i, (name, length) in enumerate(obs.fields)], title
        assert sum(int(row[2]) for row in fields) == obs.vector_size


def _commands(
    parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every subcommand under ``parser``, nested ones too: (its words, its parser)."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append(((*words, name), sub))
                found += _commands(sub, (*words, name))
    return found


def test_cli_page_has_every_subcommand_and_option(site: Path) -> None:
    """reference/cli.html has a section for every subcommand of the parser (nested ones too)
    and, in it, every one of its options and arguments."""
    path = site / "reference" / "cli.html"
    page = _read(path)
    text = path.read_text(encoding="utf-8")
    commands = _commands(cli.build_parser())
    assert len(commands) >= 6
    for words, sub in commands:
        anchor = "-".join(words)
        assert anchor in page.ids, f"no section for carcassonne {' '.join(words)}"
        section = text[text.index(f'id="{anchor}"') :]
        following = [f'id="{"-".join(w)}"' for w, _ in commands if w != words and f'id="{"-".join(w)}"' in section]
        end = min((section.index(marker) for marker in following), default=len(section))
        section = html.unescape(section[:end])
        for action in sub._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            for name in action.option_strings or [str(action.metavar or action.dest)]:
                assert name in section, f"carcassonne {' '.join(words)}: {name} is not on the page"


def test_api_page_shows_the_native_classes_from_the_stub(site: Path) -> None:
    """reference/api.html documents the native module's classes and functions (read from
    the stub by griffe) with their signatures and docstrings, and the Python modules."""
    page = _read(site / "reference" / "api.html")
    for name in ["Rules", "Game", "Game.play", "ActionSpace.mask", "ObservationSpace", "VectorEnv", "simulate",
                 "Study", "stats", "stats.first_seat_advantage", "svg.board", "players", "maps"]:  # fmt: skip
        assert f"carcassonne.{name}" in page.ids, f"carcassonne.{name} is not on the API page"
    text = " ".join(" ".join(page.text).split())
    import carcassonne

    for documented in (carcassonne.Rules, carcassonne.ActionSpace, carcassonne.Game.play):
        first_line = " ".join((documented.__doc__ or "").split("\n\n")[0].split())
        assert first_line and first_line.replace("``", "") in text, first_line
    assert "play(mv:Move)->None" in "".join(text.split())  # a signature of the stub
    # The docstrings' doctest blocks are code (tools/docs_doctest_blocks.py), not quotes.
    raw = (site / "reference" / "api.html").read_text(encoding="utf-8")
    assert '<span class="gp">&gt;&gt;&gt; </span>' in raw and "<blockquote>" not in raw


def _doc_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md"]
    return [f for f in files if f.exists()]


def test_nothing_names_an_issue_number_or_a_path_outside_the_repository(site: Path) -> None:
    """No page of the site, nor README.md, CHANGELOG.md, CONTRIBUTING.md, names an
    internal issue number or a file outside the repository."""
    assert (ROOT / "README.md").exists()
    faults = []
    for path in _pages(site):
        raw = path.read_text(encoding="utf-8")
        text = " ".join(_read(path).text)
        faults += [f"{path.relative_to(site)}: {m.group(0)!r}" for m in ISSUE_NUMBER.finditer(text)]
        faults += [f"{path.relative_to(site)}: {p!r}" for p in OUTSIDE_PATHS if p in raw]
    for path in _doc_files():
        raw = path.read_text(encoding="utf-8")
        # The Markdown's own headings are "# Title": only "#" followed by a digit counts.
        faults += [f"{path.name}: {m.group(0)!r}" for m in ISSUE_NUMBER.finditer(raw)]
        faults += [f"{path.name}: {p!r}" for p in OUTSIDE_PATHS if p in raw]
    assert not faults, "\n".join(faults)


def test_issue_and_code_patterns() -> None:
    """The patterns of the two checks above and below catch what they are meant to."""
    assert [m.group(0) for m in ISSUE_NUMBER.finditer("see issue 12, issue #3, Issues 4 and #15.")] == [
        "issue 12", "issue #3", "Issues 4", "#15"]  # fmt: skip
    assert not ISSUE_NUMBER.search("colour #ff0000, &#124; entity, page.html#12-x, a/#3, tissue 5")
    assert DECISION_CODE.findall("M-12, M-13 and S-4. C-1;F-2") == ["M-12", "M-13", "S-4", "C-1", "F-2"]
    assert not DECISION_CODE.findall('d="M-6,-7 H6" M-8.5,-3 XM-3')


def test_every_decision_code_is_explained_on_the_decisions_page(site: Path) -> None:
    """Each rules-decision code that the stub, the command line's help, the docs or the
    README use has an anchor on rules/decisions.html (its lower-case form, "m-12")."""
    sources = {"stub": (ROOT / "python" / "carcassonne" / "_core.pyi").read_text(encoding="utf-8")}
    sources["--help"] = "\n".join(sub.format_help() for _, sub in _commands(cli.build_parser()))
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        sources[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    used = {code: where for where, text in sources.items() for code in DECISION_CODE.findall(text)}
    assert used, "no decision code found at all: the pattern is wrong"
    anchors = _read(site / "rules" / "decisions.html").ids
    missing = sorted(f"{code} (used in {where})" for code, where in used.items() if code.lower() not in anchors)
    assert not missing, "no anchor on rules/decisions.md for: " + ", ".join(missing)


# ----- in a real browser ---------------------------------------------------------------

# Reports where the page's pictures are: drawn SVG (not the theme's small icons) and images.
MEASURE = """
<pre id="carcassonne-measure" style="display:none"></pre>
<script>
const found = [...document.querySelectorAll(".md-content svg, .md-content img")]
  .map((e) => e.getBoundingClientRect())
  .filter((r) => r.width >= 100 && r.height >= 100)
  .map((r) => [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]);
document.getElementById("carcassonne-measure").textContent = JSON.stringify(found);
</script>
"""


def _browser(*args: str) -> subprocess.CompletedProcess[str]:
    assert BROWSER is not None
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    return subprocess.run([BROWSER, *flags, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(BROWSER is None, reason="headless Chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("page", ["index.html", "rules/maps.html"])
def test_browser_shows_the_pages_pictures(site: Path, page: str, tmp_path: Path) -> None:
    """Headless Chromium opens a built page: its content holds pictures (inline SVG drawn by
    carcassonne.svg, or images) of a real size, and the screenshot is not blank where the
    first one is (many colours, not one flat fill)."""
    from matplotlib.image import imread

    source = (site / page).read_text(encoding="utf-8")
    # A copy with the measuring script, its links resolved against the site's folder.
    base = (site / page).parent.as_uri() + "/"
    measured_page = tmp_path / "page.html"
    measured_page.write_text(
        source.replace("<head>", f'<head><base href="{base}">', 1).replace("</body>", MEASURE + "</body>", 1),
        encoding="utf-8",
    )
    width = 1280
    dom = _browser(f"--window-size={width},1000", "--dump-dom", measured_page.as_uri())
    m = re.search(r'<pre id="carcassonne-measure"[^>]*>(.*?)</pre>', dom.stdout, re.S)
    assert m and m.group(1), dom.stderr[-2000:]
    pictures = json.loads(html.unescape(m.group(1)))
    assert pictures, f"{page}: no picture in the page's content"
    left, top, w, h = pictures[0]
    height = int(min(top + h + 40, 8000))
    png = tmp_path / "page.png"
    shot = _browser(f"--window-size={width},{height}", f"--screenshot={png}", measured_page.as_uri())
    assert shot.returncode == 0 and png.exists(), shot.stderr[-2000:]
    image = imread(str(png))
    assert image.shape[:2] == (height, width)
    region = image[int(top) : int(top + min(h, height - top)), int(left) : int(left + w), :3]
    assert region.size > 0
    colours = np.unique((region * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 20, f"{page}: the picture's region has {len(colours)} colours"
    assert float(region.std()) > 0.05, f"{page}: the picture's region is nearly one flat colour"
