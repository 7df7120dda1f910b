"""Reports (``carcassonne.report`` and ``carcassonne report``): the page renders for every
rule system, holds the figures of ``carcassonne.stats``, is valid, deterministic and
self-contained; bad input gives one clear error naming the file and the fault."""

from __future__ import annotations

import dataclasses
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from carcassonne import ENGINE_VERSION, ResultsVersionWarning, Rules, SimulationResult, simulate, stats
from carcassonne.cli import build_parser, main

matplotlib = pytest.importorskip("matplotlib")
pytest.importorskip("pyarrow")

from carcassonne.study.report import ReportError, html_report, write_report  # noqa: E402

PLOTS_PER_STUDY = 3  # score distributions, win shares, points by kind

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class PageChecker(HTMLParser):
    """Parses a page strictly: every element closed in order, ids unique; collects what
    the tests look at."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.ids: list[str] = []
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.tags: dict[str, int] = {}
        self.svg_parents: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, attrs)
        if tag == "svg":
            self.svg_parents.append(self.stack[-1] if self.stack else "")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def _element(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for name, value in attrs:
            if name == "id" and value is not None:
                self.ids.append(value)
            if name in ("src", "href", "xlink:href", "data", "action") and value is not None:
                self.links.append((tag, name, value))


def check_page(page: str) -> PageChecker:
    checker = PageChecker()
    checker.feed(page)
    checker.close()
    assert checker.errors == []
    assert checker.stack == [], "elements left open"
    assert len(checker.ids) == len(set(checker.ids)), "duplicate ids"
    assert page.startswith("<!DOCTYPE html>")
    return checker


def section(page: str, anchor: str) -> str:
    """The HTML of one ``<section id=...>``."""
    start = page.index(f'id="{anchor}"')
    return page[start : page.index("</section>", start)]


def assert_self_contained(page: str, checker: PageChecker) -> None:
    for tag, attribute, value in checker.links:
        assert value.startswith("#"), f"<{tag} {attribute}={value!r}> leaves the page"
    assert checker.tags.get("script", 0) == 0 and checker.tags.get("link", 0) == 0
    assert checker.tags.get("img", 0) == 0 and checker.tags.get("iframe", 0) == 0
    assert "@import" not in page and "@font-face" not in page
    assert 'src="http' not in page and "href=\"http" not in page and "url(http" not in page


@pytest.fixture(scope="module")
def studies() -> dict[str, SimulationResult]:
    return {
        "base 2p": simulate(Rules(), 300, seed=3),
        "base 4p": simulate(Rules(players=4), 300, seed=3),
        "south seas": simulate(Rules(tile_sets=("south-seas",)), 300, seed=3),
        # Small-town variant 2 (a penalty) gives negative points of the "map" kind.
        "continental": simulate(Rules(map="continental", small_towns=(2, 3)), 200, seed=4),
    }


@pytest.fixture(scope="module")
def page(studies: dict[str, SimulationResult]) -> str:
    return html_report(list(studies.values()), labels=list(studies), title="Every <system> & more")


def test_the_report_renders_every_rule_system(page: str, studies: dict[str, SimulationResult]) -> None:
    checker = check_page(page)
    plots = PLOTS_PER_STUDY * len(studies) + 2  # + the summary and the comparison plots
    assert checker.tags["svg"] == plots
    assert page.count('<figure class="plot"') == plots
    assert checker.svg_parents == ["figure"] * plots, "every plot is an inline <svg> in its <figure>"
    for i, label in enumerate(studies, start=1):
        part = section(page, f"study-{i}")
        assert f"<h2>{label}</h2>" in part
        for heading in ("Win shares and scores per seat", "Score distributions per seat", "Win shares"):
            assert f"<h3>{heading}</h3>" in part
        assert "Points by feature kind" in part and "First-seat advantage" in part
        assert part.count("<svg") == PLOTS_PER_STUDY
    # The title is escaped, in <title> and <h1>.
    assert "<title>Every &lt;system&gt; &amp; more</title>" in page
    assert "<h1>Every &lt;system&gt; &amp; more</h1>" in page
    assert "<system>" not in page


def test_the_page_holds_the_figures_of_stats(page: str, studies: dict[str, SimulationResult]) -> None:
    for i, (label, result) in enumerate(studies.items(), start=1):
        part = section(page, f"study-{i}")
        for share in stats.win_shares(result):
            s = share.share
            assert f"<td>{s.estimate:.4f}</td><td>{s.low:.4f} to {s.high:.4f}</td>" in part, (label, share.seat)
        for score in stats.scores(result):
            assert f"<td>{score.mean.estimate:.2f}</td><td>{score.mean.low:.2f} to {score.mean.high:.2f}</td>" in part
        adv = stats.first_seat_advantage(result)
        p = f"{adv.p_value:.4f}" if adv.p_value >= 1e-4 else f"{adv.p_value:.1e}"
        assert f"<strong>{adv.advantage.estimate:+.4f}</strong>" in part
        assert f"(95% interval {adv.advantage.low:+.4f} to {adv.advantage.high:+.4f}), p = {p}" in part
        assert f"{result.games:,} (games 0 to {result.games - 1}), seed {result.seed}" in part
        assert f"{ENGINE_VERSION} (rules version {result.rules_version})" in part
        assert "<th>interrupted</th><td>no</td>" in part
        seats = result.scores.shape[1]
        assert f"seat {seats - 1}: random" in part and f"seat {seats}:" not in part
        # The points table: mean points per game of every kind that scored.
        means = result.points_by_kind.mean(axis=0)
        for k, kind in enumerate(result.score_kinds):
            scored = bool(abs(result.points_by_kind[:, :, k]).sum())
            assert (f"<th>{kind}</th>" in part) == scored, (label, kind)
            if scored:
                assert f"<td>{means[0, k]:.2f}</td>" in part
    base, south_seas, maps = section(page, "study-1"), section(page, "study-3"), section(page, "study-4")
    assert "<th>field</th>" in base and "<th>ships</th>" not in base
    assert "<th>ships</th>" in south_seas and "<th>wares</th>" in south_seas and "<th>road</th>" not in south_seas
    assert "<th>map</th>" in maps and "<td>-" in maps  # the small-town penalty, below zero
    # Reconstructed data: South Seas tiles and ships, the original map layout; none in the base game.
    assert "reconstructed" not in base
    assert "Reconstructed data or original layouts in use: south-seas (ships), south-seas (tiles)" in south_seas
    assert "continental (map)" in maps and "small-town variants 2, 3" in maps
    assert "South Seas; 2 players" in south_seas and "ships taken" in south_seas


def test_comparisons_with_several_studies_only(page: str, studies: dict[str, SimulationResult]) -> None:
    part = section(page, "comparisons")
    base = studies["base 2p"]
    # The 4-player study cannot be compared seat by seat with the 2-player baseline.
    assert "base 4p is not compared: it has 4 seats and the baseline base 2p has 2" in part
    assert "<h3>base 4p against" not in part
    for label in ("south seas", "continental"):
        cmp = stats.compare(base, studies[label])
        assert f"<h3>{label} against base 2p</h3>" in part
        for seat in cmp.seats:
            w, m = seat.win_share.difference, seat.mean_score.difference
            assert f"{w.estimate:+.4f} ({w.low:+.4f} to {w.high:+.4f})" in part
            assert f"{m.estimate:+.2f} ({m.low:+.2f} to {m.high:+.2f})" in part
    assert part.count("<svg") == 1
    assert "normal (paired)" in part  # the same seed and games: paired

    single = html_report(base, labels=["only"])
    checker = check_page(single)
    assert checker.tags["svg"] == PLOTS_PER_STUDY
    assert 'id="comparisons"' not in single and "Comparisons" not in single and "<nav>" not in single

    # Two studies, different seats: the section says why nothing is compared.
    mixed = html_report([base, studies["base 4p"]], labels=["two", "four"])
    check_page(mixed)
    part = section(mixed, "comparisons")
    assert "four is not compared" in part and "nothing to compare" in part and "<svg" not in part


def test_the_report_is_deterministic_and_isolated(studies: dict[str, SimulationResult], tmp_path: Path) -> None:
    results = [studies["base 2p"], studies["south seas"]]
    first = html_report(results, labels=["a", "b"])
    # Whatever the caller's matplotlib settings (a random SVG hash salt, other styles).
    with matplotlib.rc_context({"svg.hashsalt": None, "lines.linewidth": 7.0, "font.size": 20.0}):
        second = html_report(results, labels=["a", "b"])
        assert matplotlib.rcParams["lines.linewidth"] == 7.0  # the caller's settings are left alone
    assert first == second
    # A study read back from a results file gives the same page.
    back = [SimulationResult.load(results[0].save(tmp_path / "a.parquet")), SimulationResult.load(results[1].save(tmp_path / "b.csv"))]
    assert html_report(back, labels=["a", "b"]) == first
    assert_self_contained(first, check_page(first))


def test_the_page_is_self_contained_and_escapes_text(page: str, studies: dict[str, SimulationResult]) -> None:
    assert_self_contained(page, check_page(page))
    hostile = "<script>alert('$x$ & y')</script>"
    other = html_report(studies["base 2p"], labels=[hostile], title=hostile)
    checker = check_page(other)
    assert checker.tags.get("script", 0) == 0
    assert "&lt;script&gt;alert(&#x27;$x$ &amp; y&#x27;)&lt;/script&gt;" in other


def test_api_bad_input(studies: dict[str, SimulationResult], tmp_path: Path) -> None:
    base = studies["base 2p"]
    with pytest.raises(ReportError, match="at least one study"):
        html_report([])
    with pytest.raises(ReportError, match=r"1 label\(s\) for 2 studies"):
        html_report([base, base], labels=["one"])
    with pytest.raises(ReportError, match="not one string"):
        html_report([base], labels="one")
    with pytest.raises(ReportError, match="study 2: expected a SimulationResult.*got dict"):
        html_report([base, {}])  # type: ignore[list-item]
    one = simulate(Rules(), 1, seed=1)
    with pytest.raises(ReportError, match="tiny: 1 game\\(s\\): a report needs at least 2"):
        html_report([base, one], labels=["big", "tiny"])
    short = one.save(tmp_path / "short.json")
    with pytest.raises(ReportError, match=r"short\.json: 1 game\(s\)"):
        write_report([short], tmp_path / "r.html")
    with pytest.raises(ReportError, match=r"no-such-dir.*cannot write the report"):
        write_report(base, tmp_path / "no-such-dir" / "r.html")
    # Results objects and files mix; labels default to rules descriptions and file stems.
    path = write_report([base, base.save(tmp_path / "saved.csv")], tmp_path / "mixed.html")
    text = path.read_text(encoding="utf-8")
    assert "<h2>2 players, base</h2>" in text and "<h2>saved</h2>" in text


def test_without_matplotlib_the_error_says_what_to_install(
    studies: dict[str, SimulationResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"pip install 'carcassonne\[report\]'"):
        html_report(studies["base 2p"])
    path = studies["base 2p"].save(tmp_path / "r.csv")
    assert main(["report", str(path), "-o", str(tmp_path / "r.html")]) == 2
    assert "carcassonne: error: the report needs matplotlib: pip install" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


# ----- the command line ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(studies: dict[str, SimulationResult], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("results")
    return {
        "parquet": studies["base 2p"].save(folder / "base.parquet"),
        "csv": studies["south seas"].save(folder / "south-seas.csv"),
    }


def test_cli_writes_the_report(files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    argv = ["report", str(files["parquet"]), str(files["csv"]), "-o", str(out), "--title", "Islands"]
    assert main([*argv, "--label", "classic", "islands"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert f"wrote {out} (2 studies)" in captured.out
    page = out.read_text(encoding="utf-8")
    checker = check_page(page)
    assert checker.tags["svg"] == 2 * PLOTS_PER_STUDY + 2
    assert "<h1>Islands</h1>" in page and "<h2>classic</h2>" in page and "<h2>islands</h2>" in page
    assert "<h3>islands against classic</h3>" in page
    # Default labels: the file names without their suffix; one file, no comparisons.
    assert main(["report", str(files["csv"]), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<h2>south-seas</h2>" in page and 'id="comparisons"' not in page
    # --label may also be repeated.
    assert build_parser().parse_args([*argv, "--label", "x", "--label", "y"]).labels == ["x", "y"]


def cli_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("carcassonne: error: "), captured.err
    return lines[0]


def test_cli_bad_input(files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    missing = tmp_path / "missing.parquet"
    assert f"{missing}: no such file" in cli_error(["report", str(files["csv"]), str(missing), "-o", str(out)], capsys)
    corrupt = tmp_path / "corrupt.parquet"
    data = files["parquet"].read_bytes()
    corrupt.write_bytes(data[: len(data) // 2])
    message = cli_error(["report", str(corrupt), "-o", str(out)], capsys)
    assert f"{corrupt}: not a readable Parquet file" in message
    unknown = tmp_path / "results.txt"
    unknown.write_text("x")
    assert f"{unknown}: unknown suffix '.txt'" in cli_error(["report", str(unknown), "-o", str(out)], capsys)
    message = cli_error(["report", str(files["parquet"]), str(files["csv"]), "-o", str(out), "--label", "one"], capsys)
    assert "1 label(s) for 2 studies" in message and str(files["csv"]) in message
    message = cli_error(["report", str(files["csv"]), "-o", str(files["csv"])], capsys)
    assert "would overwrite its input file" in message
    assert not out.exists()

    # Options argparse does not know, and a missing -o: argparse's usage error, exit 2.
    for argv, fault in (
        (["report", str(files["csv"]), "-o", str(out), "--colour", "red"], "unrecognized arguments: --colour red"),
        (["report", str(files["csv"])], "the following arguments are required: -o/--out"),
        (["report", "-o", str(out)], "the following arguments are required: FILE"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2
        assert fault in capsys.readouterr().err
    assert not out.exists()


def test_cli_another_engine_version_warns_once_and_writes(
    files: dict[str, Path], studies: dict[str, SimulationResult], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # As another version would write it (with its own valid checksum).
    written_by_old = dataclasses.replace(studies["base 4p"], engine_version="0.0.1", rules_version=0)
    old = written_by_old.save(tmp_path / "old.csv")
    out = tmp_path / "report.html"
    assert main(["report", str(old), "-o", str(out)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"carcassonne: warning: {old}: written by engine 0.0.1 (rules version 0)")
    page = out.read_text(encoding="utf-8")
    assert "These games were played by engine 0.0.1 (rules version 0)" in page
    assert "<td>0.0.1 (rules version 0)</td>" in page
    # The same through the Python API: the warning reaches the caller, the report is written.
    with pytest.warns(ResultsVersionWarning, match=r"old\.csv: written by engine 0\.0\.1"):
        write_report([old], tmp_path / "api.html")
    assert (tmp_path / "api.html").read_text(encoding="utf-8") == page


def test_an_interrupted_study_says_so(studies: dict[str, SimulationResult]) -> None:
    import dataclasses

    page = html_report(dataclasses.replace(studies["base 2p"], interrupted=True), labels=["cut short"])
    check_page(page)
    assert "<th>interrupted</th><td>yes: the games played until the study was stopped</td>" in page
    assert '<p class="note interrupted">' in page
