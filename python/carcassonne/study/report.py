"""Reports: one self-contained HTML page of plots and tables for one or more studies
(``SimulationResult``s, or results files read with ``read_results``).

For each study: what was played (rules, players per seat, games, seed, engine and rules
versions, whether it was interrupted, reconstructed data in use), win shares per seat with
Wilson intervals and the first seat's advantage with its p-value, the score distribution
of each seat, win shares with interval error bars, and points by feature kind per seat.
With several studies, each one with the first study's number of seats is compared with
it seat by seat (``stats.compare``: win share and mean score, differences with intervals
and p-values).

The page has no external resources (no CSS, script, font or image files: the plots are
inline SVG) and depends on nothing but its input: the same studies give the same bytes.
Plotting needs matplotlib (``pip install carcassonne[report]``); pyplot is never used
(figures are drawn with ``matplotlib.figure.Figure``), so the caller's backend and figures
are left alone.

>>> from carcassonne import Rules, simulate
>>> from carcassonne.study.report import html_report, write_report
>>> page = html_report([simulate(Rules(), 2000, seed=1), simulate(Rules(farmers=False), 2000, seed=1)],
...                    labels=["farmers", "no farmers"])
>>> write_report(["base.parquet", "variant.csv"], "report.html")      # files, as the command line
"""

from __future__ import annotations

import contextlib
import html
import io
import math
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from carcassonne import stats
from carcassonne._core import ENGINE_VERSION, RULES_VERSION, CarcassonneError, Rules
from carcassonne.files import OutputFileError, check_output, write_text_atomically
from carcassonne.study.results_file import read_results
from carcassonne.study.results import SimulationResult

if TYPE_CHECKING:
    # matplotlib is optional at run time; it ships its own types.
    from matplotlib.axes import Axes  # type: ignore[import-not-found, unused-ignore]
    from matplotlib.figure import Figure  # type: ignore[import-not-found, unused-ignore]

DEFAULT_TITLE = "Carcassonne balance report"

MIN_GAMES = 2
"""A study needs at least this many games for a report (spreads and intervals)."""

_INSTALL_HINT = "the report needs matplotlib: pip install 'carcassonne[report]'"

_RC: dict[str, Any] = {
    # Text stays text (no glyph outlines), so the SVG is small and its words searchable.
    "svg.fonttype": "none",
    # The ids matplotlib derives for clip paths and markers are hashes salted with this
    # (a random salt by default): fixed, the same figure gives the same bytes.
    "svg.hashsalt": "carcassonne-report",
    "font.size": 9.0,
    "axes.titlesize": 10.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.alpha": 0.35,
    "legend.frameon": False,
}

_SVG_METADATA: dict[str, Any] = {"Date": None, "Creator": None, "Format": None, "Type": None}
"""No ``<metadata>`` block: nothing time- or version-dependent in the plots."""

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       margin: 0 auto; max-width: 1100px; padding: 1em 1.5em 3em; color: #1d1d1f; line-height: 1.4; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 2px solid #d0d7de; padding-bottom: 0.2em; margin-top: 2em; }
h3 { margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #d0d7de; padding: 0.25em 0.6em; text-align: right; vertical-align: top; }
th { background: #f6f8fa; }
th[colspan] { text-align: center; }
td.text, th.text { text-align: left; }
table.meta th { text-align: left; }
table.meta td { text-align: left; }
.note { background: #fff8c5; border-left: 4px solid #d4a72c; padding: 0.4em 0.8em; }
.muted { color: #57606a; }
figure.plot { margin: 1em 0; }
figure.plot svg { max-width: 100%; height: auto; }
figcaption { color: #57606a; font-size: 0.9em; }
pre { background: #f6f8fa; padding: 0.6em; overflow-x: auto; font-size: 0.85em; white-space: pre-wrap; }
nav ul { padding-left: 1.2em; }
"""


class ReportError(CarcassonneError):
    """A report that cannot be made: no studies, a study with too few games, labels that
    do not match the studies, an output file that cannot be written. The message names
    the study (its label or file) and the fault."""


# ----- the page ------------------------------------------------------------------------------


def html_report(
    results: SimulationResult | Sequence[SimulationResult],
    labels: Sequence[str] | None = None,
    title: str | None = None,
) -> str:
    """The report of one study or several (the first is the baseline of the comparisons)
    as one self-contained HTML page. ``labels`` names the studies, one each (by default a
    short description of each study's rules); ``title`` is the page's heading.

    Raises ``ImportError`` without matplotlib, ``ReportError`` (a ``ValueError``) for a
    study of fewer than 2 games or labels that do not match the studies."""
    studies = _studies(results)
    names = _labels(studies, labels)
    _check_games(studies, names)
    mpl = _matplotlib()
    heading = title if title is not None else DEFAULT_TITLE
    plots = _Plots(mpl)
    body: list[str] = [
        "<header>",
        f"<h1>{_e(heading)}</h1>",
        f'<p class="muted">{len(studies)} stud{"y" if len(studies) == 1 else "ies"}; made by carcassonne engine '
        f"{_e(ENGINE_VERSION)} (rules version {RULES_VERSION}). Intervals are 95% two-sided; a win shared by "
        "k players counts 1/k for each.</p>",
    ]
    if len(studies) > 1:
        body.append("<nav><ul>")
        body.append('<li><a href="#summary">Summary of all studies</a></li>')
        for i, name in enumerate(names):
            body.append(f'<li><a href="#study-{i + 1}">{_e(name)}</a></li>')
        body.append('<li><a href="#comparisons">Comparisons</a></li>')
        body.append("</ul></nav>")
    body.append("</header>")
    if len(studies) > 1:
        body += _summary_section(studies, names, plots)
    for i, (result, name) in enumerate(zip(studies, names)):
        body += _study_section(result, name, f"study-{i + 1}", plots)
    if len(studies) > 1:
        body += _comparison_section(studies, names, plots)
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta name="generator" content="carcassonne report">',
            f"<title>{_e(heading)}</title>",
            f"<style>{_CSS}</style>",
            "</head>",
            "<body>",
            *body,
            "</body>",
            "</html>",
            "",
        ]
    )


def write_report(
    sources: str | os.PathLike[str] | SimulationResult | Sequence[str | os.PathLike[str] | SimulationResult],
    out_path: str | os.PathLike[str],
    *,
    labels: Sequence[str] | None = None,
    title: str | None = None,
) -> Path:
    """Writes the report of one or more studies to ``out_path`` (HTML, UTF-8) and returns
    the path. Each source is a ``SimulationResult`` or the path of a results file (Parquet,
    CSV or JSON, read with ``read_results``: a file from another engine version warns with
    ``ResultsVersionWarning`` and is still used; one that cannot be read raises
    ``ResultsFileError`` naming the file and the fault), or a directory: a study directory
    (``StudyResult.save``, ``carcassonne study --out``) gives one study per cell, labelled
    by configuration, seats and line-up from its manifest; an ``out_dir`` of batches gives
    one study of all its batches. ``labels`` (one per study, after directories are
    expanded) defaults to the files' stems, the cells' names and rules descriptions for
    results given as objects."""
    return _write_report(sources, out_path, labels=labels, title=title)[0]


def _write_report(
    sources: str | os.PathLike[str] | SimulationResult | Sequence[str | os.PathLike[str] | SimulationResult],
    out_path: str | os.PathLike[str],
    *,
    labels: Sequence[str] | None = None,
    title: str | None = None,
) -> tuple[Path, int]:
    """``write_report``, also returning how many studies the page holds."""
    if isinstance(sources, (str, os.PathLike, SimulationResult)):
        items: list[str | os.PathLike[str] | SimulationResult] = [sources]
    else:
        items = list(sources)
    if not items:
        raise ReportError("a report needs at least one study")
    inputs = [item for item in items if isinstance(item, (str, os.PathLike))]
    try:
        check_output(out_path, inputs, "report")  # before reading any file or drawing any plot
    except OutputFileError as e:
        raise ReportError(str(e)) from None
    _matplotlib()  # before reading any file
    studies: list[SimulationResult] = []
    names: list[str] = []
    for i, item in enumerate(items):
        if isinstance(item, SimulationResult):
            studies.append(item)
            names.append(_rules_label(item))
            continue
        if not isinstance(item, (str, os.PathLike)):
            raise ReportError(f"study {i + 1}: expected a results file path or a SimulationResult, got {type(item).__name__}")
        path = Path(item)
        for result, name in _read_source(path):
            where = f"{path} ({name})" if path.is_dir() else str(path)
            if result.games < MIN_GAMES:
                raise ReportError(f"{where}: {result.games} game(s): a report needs at least {MIN_GAMES}")
            studies.append(result)
            names.append(name)
    if labels is not None:
        try:
            names = _label_list(labels, len(studies))
        except ReportError as e:
            given = ", ".join(str(i) for i in items if not isinstance(i, SimulationResult))
            raise ReportError(f"{e} (studies from {given})" if given else str(e)) from None
    page = html_report(studies, labels=names, title=title)
    target = Path(out_path)
    try:
        write_text_atomically(target, page, inputs, "report")
    except OutputFileError as e:
        raise ReportError(str(e)) from None
    return target, len(studies)


def _read_source(path: Path) -> list[tuple[SimulationResult, str]]:
    """The studies a path holds, with their labels: a results file (its stem), a study
    directory (one per cell, "config, N seats, line-up"), an out_dir of batches (all of
    them joined, the directory's name)."""
    if path.is_dir() and (path / "study.json").exists():
        from carcassonne.study.grid import cell_label, load_study

        study = load_study(path)
        return [(r, cell_label(*key)) for key, r in study.results.items()]
    return [(read_results(path), path.name if path.is_dir() else path.stem)]


def _summary_section(studies: Sequence[SimulationResult], names: Sequence[str], plots: _Plots) -> list[str]:
    """One row per study: first-seat advantage, the all-seats test and the spread, with
    intervals, and a plot of the advantage and the margin per study."""
    out = ['<section class="summary" id="summary">', "<h2>Summary of all studies</h2>", '<table class="summary">']
    out.append(
        '<tr><th class="text">study</th><th>games</th><th>seats</th><th>first-seat advantage</th>'
        "<th>95% interval</th><th>all seats equal (p)</th><th>margin of victory</th><th>95% interval</th>"
        "<th>tie rate</th></tr>"
    )
    rows = []
    for result, name in zip(studies, names):
        advantage = stats.first_seat_advantage(result).advantage
        seats = int(result.scores.shape[1])
        equal = stats.seats_equal(result).p_value if seats > 1 else math.nan
        spread = stats.spread(result) if seats > 1 else None
        rows.append((name, advantage, spread))
        margin = spread.margin if spread is not None else None
        out.append(
            f'<tr><td class="text">{_e(name)}</td><td>{result.games}</td><td>{seats}</td>'
            f"<td>{advantage.estimate:+.4f}</td><td>{_interval(advantage, 4)}</td>"
            f"<td>{'-' if math.isnan(equal) else f'{equal:.3g}'}</td>"
            f"<td>{'' if margin is None else f'{margin.estimate:.2f}'}</td>"
            f"<td>{'' if margin is None else _interval(margin, 2)}</td>"
            f"<td>{'' if spread is None else f'{spread.tie_rate.estimate:.4f}'}</td></tr>"
        )
    out.append("</table>")
    out += plots.figure(
        "summary-plot",
        None,
        _summary_figure(plots, rows),
        "Left: seat 0's win share minus the fair 1/players, per study, with its 95% interval (dashed: no "
        "advantage). Right: the mean margin of victory with its 95% interval.",
    )
    out.append("</section>")
    return out


def _summary_figure(plots: _Plots, rows: list[tuple[str, stats.Interval, stats.Spread | None]]) -> Figure:
    with plots.style():
        fig, (left, right) = plots.new(9.0, max(2.4, 0.42 * len(rows) + 1.2), columns=2)
        y = np.arange(len(rows))[::-1]
        columns: list[tuple[Any, list[stats.Interval | None], str]] = [
            (left, [r[1] for r in rows], "first-seat advantage"),
            (right, [r[2].margin if r[2] is not None else None for r in rows], "margin of victory (points)"),
        ]
        for ax, intervals, label in columns:
            for yi, interval in zip(y, intervals):
                if interval is None:
                    continue
                ax.errorbar(
                    interval.estimate, yi, xerr=[[interval.estimate - interval.low], [interval.high - interval.estimate]],
                    fmt="o", color="C0", ecolor="black", capsize=4,
                )
            ax.set_xlabel(label)
            ax.set_yticks(y, [r[0] for r in rows] if ax is left else [""] * len(rows))
        left.axvline(0, color="grey", linestyle="--", linewidth=1)
    return fig


# ----- one study -----------------------------------------------------------------------------


def _study_section(result: SimulationResult, name: str, anchor: str, plots: _Plots) -> list[str]:
    seats = int(result.scores.shape[1])
    out = [f'<section class="study" id="{anchor}">', f"<h2>{_e(name)}</h2>"]
    out += _header_table(result)
    out += _notes(result)

    shares = stats.win_shares(result)
    advantage = stats.first_seat_advantage(result)
    score_stats = stats.scores(result)
    out.append("<h3>Win shares and scores per seat</h3>")
    out.append('<table class="seats">')
    out.append(
        '<tr><th>seat</th><th class="text">player</th><th>wins</th><th>win share</th>'
        "<th>95% interval (Wilson)</th><th>mean score</th><th>95% interval</th><th>sd</th>"
        "<th>median</th><th>5% to 95%</th><th>min</th><th>max</th></tr>"
    )
    for share, score in zip(shares, score_stats):
        out.append(
            f"<tr><td>{share.seat}</td><td class=\"text\">{_e(_player(result, share.seat))}</td>"
            f"<td>{_wins(share.wins)}</td><td>{share.share.estimate:.4f}</td>"
            f"<td>{_interval(share.share, 4)}</td><td>{score.mean.estimate:.2f}</td>"
            f"<td>{_interval(score.mean, 2)}</td><td>{score.sd:.2f}</td>"
            f"<td>{_num(score.quantiles[0.5])}</td>"
            f"<td>{_num(score.quantiles[0.05])} to {_num(score.quantiles[0.95])}</td>"
            f"<td>{score.min}</td><td>{score.max}</td></tr>"
        )
    out.append("</table>")
    adv = advantage.advantage
    verdict = "significant at 5%" if advantage.p_value < 0.05 else "not significant at 5%"
    out.append(
        f'<p class="advantage">First-seat advantage: seat 0 wins {advantage.share.estimate:.4f} against the '
        f"fair 1/{advantage.players} = {advantage.fair_share:.4f}, a difference of <strong>{adv.estimate:+.4f}</strong> "
        f"(95% interval {adv.low:+.4f} to {adv.high:+.4f}), {_p_is(advantage.p_value)} "
        f"({_e(advantage.method)} test; {verdict}).</p>"
    )
    out += _fairness(result)

    out += plots.figure(
        f"{anchor}-scores",
        "Score distributions per seat",
        _score_figure(plots, result),
        "Left: share of games by final score, per seat. Right: box from the 25% to the 75% quantile, "
        "median line, whiskers from 5% to 95%, triangle at the mean.",
    )
    out += plots.figure(
        f"{anchor}-win-shares",
        "Win shares",
        _win_share_figure(plots, result, shares, advantage.fair_share),
        f"Each seat's win share with its 95% Wilson interval; the dashed line is the fair share 1/{seats}.",
    )
    kinds = _nonzero_kinds(result)
    out.append("<h3>Points by feature kind</h3>")
    if kinds:
        out += _points_table(result, kinds)
        out += plots.figure(
            f"{anchor}-points",
            None,
            _points_figure(plots, result, kinds),
            "Mean points per game by feature kind, per seat (kinds that scored nothing in this study are left out).",
        )
    else:
        out.append('<p class="muted">No points were scored in this study.</p>')
    out.append("</section>")
    return out


def _fairness(result: SimulationResult) -> list[str]:
    """All seats at once (a pattern that spares seat 0 is still flagged) and how close the
    games are: margin of victory, spread, ties."""
    out: list[str] = []
    if result.scores.shape[1] < 2 or result.games < 2:
        return out
    equal = stats.seats_equal(result)
    spread = stats.spread(result)
    flagged = [t.seat for t in equal.seats if t.p_adjusted < 0.05]
    which = f"; seats {', '.join(map(str, flagged))} differ from the fair share (Holm, 5%)" if flagged else ""
    verdict = "significant at 5%" if equal.p_value < 0.05 else "not significant at 5%"
    out.append(
        f'<p class="fairness">All seats equal: chi-square {equal.statistic:.2f} on {equal.df} degree(s) of freedom, '
        f"{_p_is(equal.p_value)} ({_e(equal.method)}; {verdict}){_e(which)}.</p>"
    )
    out.append('<table class="spread">')
    out.append('<tr><th class="text">how close the games are</th><th>mean</th><th>95% interval</th></tr>')
    for label, interval, digits in [
        ("margin of victory (top minus runner-up)", spread.margin, 2),
        ("score spread (top minus bottom)", spread.score_range, 2),
        ("tie rate (games won by several players)", spread.tie_rate, 4),
    ]:
        out.append(
            f'<tr><td class="text">{label}</td><td>{interval.estimate:.{digits}f}</td>'
            f"<td>{_interval(interval, digits)}</td></tr>"
        )
    out.append("</table>")
    return out


def _header_table(result: SimulationResult) -> list[str]:
    rules = result.rules
    last = result.first_game + result.games - 1
    rows: list[tuple[str, str]] = [("rules", _rules_summary(rules))]
    rows.append(("players", "; ".join(f"seat {s}: {_player(result, s)}" for s in range(result.scores.shape[1]))))
    rows.append(("games", f"{result.games:,} (games {result.first_game} to {last}), seed {result.seed}"))
    rows.append(("engine", f"{result.engine_version} (rules version {result.rules_version})"))
    rows.append(("interrupted", "yes: the games played until the study was stopped" if result.interrupted else "no"))
    mean_turns = float(result.turns.astype(np.float64).mean())
    mean_discarded = float(result.discarded.astype(np.float64).mean())
    rows.append(("per game", f"{mean_turns:.1f} tiles placed, {mean_discarded:.3f} discarded"))
    if rules.system == "south-seas":
        ships = float(result.ships.astype(np.float64).mean())
        wares = float(result.wares_left.astype(np.float64).mean())
        rows.append(("South Seas", f"{ships:.2f} ships taken and {wares:.2f} wares left per player and game"))
    if result.elapsed_seconds > 0:
        rows.append(
            (
                "speed",
                f"{result.games_per_second:,.0f} games/s on {result.threads} thread(s) "
                f"({result.elapsed_seconds:.2f} s)",
            )
        )
    out = ['<table class="meta">']
    out += [f'<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>' for k, v in rows]
    out.append("</table>")
    out.append(f"<details><summary>Rules as JSON (<code>Rules.from_json</code>)</summary><pre>{_e(rules.to_json())}</pre></details>")
    return out


def _notes(result: SimulationResult) -> list[str]:
    out = []
    if result.engine_version != ENGINE_VERSION or result.rules_version != RULES_VERSION:
        out.append(
            f'<p class="note version">These games were played by engine {_e(result.engine_version)} (rules version '
            f"{result.rules_version}); this is engine {_e(ENGINE_VERSION)} (rules version {RULES_VERSION}): the same "
            "seeds may not give the same games here.</p>"
        )
    if result.interrupted:
        out.append(
            '<p class="note interrupted">This study was interrupted: it holds the games played until it was '
            "stopped, not the number asked for.</p>"
        )
    reconstructions = result.rules.reconstructions()
    if reconstructions:
        names = ", ".join(sorted({source for source, _ in reconstructions}))
        out.append(
            f'<p class="note reconstructed">Reconstructed data or original layouts in use: {_e(names)}. '
            "They are not the printed game's, so figures may differ from the published game.</p>"
        )
        out.append("<details><summary>How they were built</summary>")
        for source, how in reconstructions:
            out.append(f"<p><strong>{_e(source)}</strong>: {_e(how)}</p>")
        out.append("</details>")
    return out


def _points_table(result: SimulationResult, kinds: list[int]) -> list[str]:
    means = result.points_by_kind.astype(np.float64).mean(axis=0)  # (players, kinds)
    out = ['<table class="points">', "<tr><th>seat</th>"]
    out[-1] += "".join(f"<th>{_e(result.score_kinds[k])}</th>" for k in kinds) + "<th>total</th></tr>"
    for seat in range(means.shape[0]):
        cells = "".join(f"<td>{means[seat, k]:.2f}</td>" for k in kinds)
        out.append(f"<tr><td>{seat}</td>{cells}<td>{float(means[seat, kinds].sum()):.2f}</td></tr>")
    out.append("</table>")
    return out


# ----- comparisons ---------------------------------------------------------------------------


def _comparison_section(studies: list[SimulationResult], names: list[str], plots: _Plots) -> list[str]:
    baseline = studies[0]
    seats = int(baseline.scores.shape[1])
    out = ['<section class="comparisons" id="comparisons">', "<h2>Comparisons</h2>"]
    out.append(
        f"<p>Each study with {seats} seats against the baseline <strong>{_e(names[0])}</strong>, seat by seat: "
        "variant minus baseline, with a 95% interval and a two-sided z-test p-value. Studies with the same seed, "
        "first game and number of games are paired game by game (common random numbers); others are "
        "compared as independent samples.</p>"
    )
    compared: list[int] = [0]
    for i in range(1, len(studies)):
        variant = studies[i]
        other = int(variant.scores.shape[1])
        if other != seats:
            out.append(
                f'<p class="note skipped">{_e(names[i])} is not compared: it has {other} seats and the baseline '
                f"{_e(names[0])} has {seats} (comparisons are seat by seat).</p>"
            )
            continue
        compared.append(i)
        comparison = stats.compare(baseline, variant)
        out.append(f"<h3>{_e(names[i])} against {_e(names[0])}</h3>")
        out.append(
            f'<p class="muted">{comparison.games[0]:,} and {comparison.games[1]:,} games; '
            f"{_e(comparison.method)}.</p>"
        )
        out.append('<table class="comparison">')
        out.append(
            "<tr><th rowspan=\"2\">seat</th><th colspan=\"4\">win share</th><th colspan=\"4\">mean score</th></tr>"
            "<tr><th>baseline</th><th>variant</th><th>difference (95% interval)</th><th>p</th>"
            "<th>baseline</th><th>variant</th><th>difference (95% interval)</th><th>p</th></tr>"
        )
        for seat in comparison.seats:
            w, m = seat.win_share, seat.mean_score
            out.append(
                f"<tr><td>{seat.seat}</td><td>{w.baseline:.4f}</td><td>{w.variant:.4f}</td>"
                f"<td>{w.difference.estimate:+.4f} ({w.difference.low:+.4f} to {w.difference.high:+.4f})</td>"
                f"<td>{_p(w.p_value)}</td><td>{m.baseline:.2f}</td><td>{m.variant:.2f}</td>"
                f"<td>{m.difference.estimate:+.2f} ({m.difference.low:+.2f} to {m.difference.high:+.2f})</td>"
                f"<td>{_p(m.p_value)}</td></tr>"
            )
        out.append("</table>")
    if len(compared) > 1:
        out += plots.figure(
            "comparisons-plot",
            "Win share and mean score per seat",
            _comparison_figure(plots, [studies[i] for i in compared], [names[i] for i in compared]),
            "Each compared study's win share (95% Wilson interval) and mean score (95% interval) per seat.",
        )
    else:
        out.append(f'<p class="muted">No other study has {seats} seats: nothing to compare.</p>')
    out.append("</section>")
    return out


# ----- plots ---------------------------------------------------------------------------------


class _Plots:
    """Draws figures with a fixed style and turns them into inline SVG whose ids are
    unique on the page (every figure's ids are prefixed with its anchor)."""

    def __init__(self, mpl: Any) -> None:
        self._mpl = mpl

    def new(self, width: float, height: float, columns: int = 1) -> tuple[Figure, list[Axes]]:
        fig: Figure = self._mpl.figure.Figure(figsize=(width, height), layout="constrained")
        axes = fig.subplots(1, columns, squeeze=False)
        return fig, [ax for ax in axes[0]]

    def figure(self, anchor: str, heading: str | None, fig: Figure, caption: str) -> list[str]:
        with self.style():
            buffer = io.StringIO()
            fig.savefig(buffer, format="svg", metadata=_SVG_METADATA)
        svg = _inline_svg(buffer.getvalue(), anchor)
        out = [f"<h3>{_e(heading)}</h3>"] if heading else []
        out.append(f'<figure class="plot" id="{anchor}">')
        out.append(svg)
        out.append(f"<figcaption>{_e(caption)}</figcaption>")
        out.append("</figure>")
        return out

    @contextlib.contextmanager
    def style(self) -> Iterator[None]:
        """The report's style while drawing (the caller's rcParams are restored after)."""
        with self._mpl.style.context("default"), self._mpl.rc_context(_RC):
            yield


_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|href="#)([^")]+)')


def _inline_svg(svg: str, prefix: str) -> str:
    """matplotlib's SVG document as an element of the page: no XML declaration or
    doctype, and ids (``figure_1``, clip paths, markers) prefixed so that several plots on
    one page never share one."""
    svg = svg[svg.index("<svg") :]
    svg = _ID.sub(lambda m: f'id="{prefix}-{m.group(1)}"', svg)
    svg = _REF.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", svg)
    return svg.strip()


def _seat_ticks(result: SimulationResult) -> list[str]:
    return [_t(f"seat {s}\n{_player(result, s)}") for s in range(result.scores.shape[1])]


def _score_figure(plots: _Plots, result: SimulationResult) -> Figure:
    seats = int(result.scores.shape[1])
    with plots.style():
        fig, (hist, box) = plots.new(9.0, 3.4, columns=2)
        lo, hi = int(result.scores.min()), int(result.scores.max())
        width = max(1, math.ceil((hi - lo + 1) / 40))
        edges = np.arange(lo, hi + width + 1, width, dtype=np.float64) - 0.5
        for seat in range(seats):
            counts, _ = np.histogram(result.scores[:, seat], bins=edges)
            hist.stairs(counts / result.games, edges, label=_t(f"seat {seat}"), linewidth=1.4)
        hist.set_xlabel("final score")
        hist.set_ylabel("share of games")
        hist.legend(fontsize=8)
        columns = [result.scores[:, s].astype(np.float64) for s in range(seats)]
        box.boxplot(columns, whis=(5, 95), showfliers=False, showmeans=True, widths=0.5)
        box.set_xticks(range(1, seats + 1), _seat_ticks(result))
        box.set_ylabel("final score")
    return fig


def _win_share_figure(
    plots: _Plots, result: SimulationResult, shares: list[stats.SeatWinShare], fair: float
) -> Figure:
    seats = len(shares)
    with plots.style():
        fig, (ax,) = plots.new(max(4.5, 1.1 * seats + 2.0), 3.2)
        x = np.arange(seats)
        values = np.array([s.share.estimate for s in shares])
        errors = np.array([[s.share.estimate - s.share.low for s in shares], [s.share.high - s.share.estimate for s in shares]])
        colours = [f"C{s % 10}" for s in range(seats)]
        ax.bar(x, values, color=colours, alpha=0.8, width=0.6)
        ax.errorbar(x, values, yerr=errors, fmt="none", ecolor="black", capsize=5, linewidth=1.2)
        ax.axhline(fair, color="grey", linestyle="--", linewidth=1)
        for xi, s in zip(x, shares):
            ax.annotate(
                f"{s.share.estimate:.3f}", (xi, s.share.high), textcoords="offset points", xytext=(0, 3),
                ha="center", fontsize=8,
            )
        ax.set_xticks(x, _seat_ticks(result))
        ax.set_ylabel("win share")
        ax.set_ylim(0, min(1.0, max(float(values.max()), max(s.share.high for s in shares)) * 1.18 + 0.02))
    return fig


def _nonzero_kinds(result: SimulationResult) -> list[int]:
    totals = np.abs(result.points_by_kind.astype(np.int64)).sum(axis=(0, 1))
    return [k for k in range(len(result.score_kinds)) if totals[k] != 0]


def _points_figure(plots: _Plots, result: SimulationResult, kinds: list[int]) -> Figure:
    means: npt.NDArray[np.float64] = result.points_by_kind.astype(np.float64).mean(axis=0)
    seats = means.shape[0]
    with plots.style():
        fig, (ax,) = plots.new(max(5.0, 1.1 * seats + 3.0), 3.4)
        x = np.arange(seats)
        above = np.zeros(seats)
        below = np.zeros(seats)
        for k in kinds:
            values = means[:, k]
            bottom = np.where(values >= 0, above, below)
            ax.bar(x, values, bottom=bottom, width=0.6, label=_t(result.score_kinds[k]), color=f"C{k % 10}")
            above = above + np.maximum(values, 0)
            below = below + np.minimum(values, 0)
        if (below < 0).any():
            ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(x, _seat_ticks(result))
        ax.set_ylabel("mean points per game")
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8)
    return fig


def _comparison_figure(plots: _Plots, studies: list[SimulationResult], names: list[str]) -> Figure:
    seats = int(studies[0].scores.shape[1])
    n = len(studies)
    with plots.style():
        fig, (wins, score) = plots.new(10.0, 3.6 + 0.18 * n, columns=2)
        x = np.arange(seats)
        width = 0.8 / n
        for j, (result, name) in enumerate(zip(studies, names)):
            offset = x - 0.4 + width * (j + 0.5)
            shares = stats.win_shares(result)
            values = np.array([s.share.estimate for s in shares])
            errors = np.array(
                [[s.share.estimate - s.share.low for s in shares], [s.share.high - s.share.estimate for s in shares]]
            )
            wins.bar(offset, values, width=width, color=f"C{j % 10}", alpha=0.85, label=_t(name))
            wins.errorbar(offset, values, yerr=errors, fmt="none", ecolor="black", capsize=3, linewidth=1)
            means = stats.scores(result)
            mvalues = np.array([m.mean.estimate for m in means])
            merrors = np.array(
                [[m.mean.estimate - m.mean.low for m in means], [m.mean.high - m.mean.estimate for m in means]]
            )
            score.bar(offset, mvalues, width=width, color=f"C{j % 10}", alpha=0.85)
            score.errorbar(offset, mvalues, yerr=merrors, fmt="none", ecolor="black", capsize=3, linewidth=1)
        wins.axhline(1 / seats, color="grey", linestyle="--", linewidth=1)
        for ax, label in ((wins, "win share"), (score, "mean score")):
            ax.set_xticks(x, [f"seat {s}" for s in range(seats)])
            ax.set_ylabel(label)
        fig.legend(loc="outside lower center", ncols=min(n, 4), fontsize=8)
    return fig


# ----- helpers -------------------------------------------------------------------------------


def _matplotlib() -> Any:
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]
        import matplotlib.figure  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
        import matplotlib.style  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        raise ImportError(_INSTALL_HINT) from None
    return matplotlib


def _studies(results: SimulationResult | Sequence[SimulationResult]) -> list[SimulationResult]:
    studies = [results] if isinstance(results, SimulationResult) else list(results)
    if not studies:
        raise ReportError("a report needs at least one study")
    for i, r in enumerate(studies):
        if not isinstance(r, SimulationResult):
            raise ReportError(
                f"study {i + 1}: expected a SimulationResult (simulate or read_results), got {type(r).__name__}"
            )
    return studies


def _label_list(labels: Sequence[str], count: int) -> list[str]:
    if isinstance(labels, str):
        raise ReportError("labels must be a list of names, one per study, not one string")
    names = list(labels)
    if len(names) != count:
        raise ReportError(f"{len(names)} label(s) for {count} stud{'y' if count == 1 else 'ies'}: give one per study")
    for name in names:
        if not isinstance(name, str):
            raise ReportError(f"labels must be strings, got {type(name).__name__} {name!r}")
    return names


def _labels(studies: list[SimulationResult], labels: Sequence[str] | None) -> list[str]:
    if labels is not None:
        return _label_list(labels, len(studies))
    names = [_rules_label(r) for r in studies]
    if len(set(names)) < len(names):
        names = [f"{i + 1}. {name}" for i, name in enumerate(names)]
    return names


def _check_games(studies: list[SimulationResult], names: list[str]) -> None:
    for result, name in zip(studies, names):
        if result.games < MIN_GAMES:
            raise ReportError(f"{name}: {result.games} game(s): a report needs at least {MIN_GAMES}")


def _rules_label(result: SimulationResult) -> str:
    rules = result.rules
    what = f"map {rules.map}" if rules.map else " + ".join(rules.tile_sets)
    return f"{rules.players} players, {what}"


def _rules_summary(rules: Rules) -> str:
    """The rules line of a study: the rule system, then every option that acts in these
    rules and is on or set, named as its declaration says (``RuleOption.summary``)."""
    parts = ["South Seas" if rules.system == "south-seas" else "classic"]
    values = rules.option_values()
    for option in Rules.options():
        value = values.get(option.name)
        if option.kind == "bool":
            if value:
                parts.append(option.summary)
            elif option.default == "True" and option.name in values:
                parts.append(f"no {option.summary}")
        elif value not in (None, "", []):
            text = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
            parts.append(option.summary.format(text))
    return "; ".join(parts)


def _player(result: SimulationResult, seat: int) -> str:
    return result.players[seat] if seat < len(result.players) else result.policy


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _t(text: str) -> str:
    """Text for matplotlib, shown as written (a ``$`` would otherwise start math)."""
    return text.replace("$", r"\$")


def _interval(interval: stats.Interval, digits: int) -> str:
    return f"{interval.low:.{digits}f} to {interval.high:.{digits}f}"


def _wins(wins: float) -> str:
    return f"{wins:,.0f}" if wins == int(wins) else f"{wins:,.2f}"


def _num(value: float) -> str:
    """A score quantile: one decimal, none for a whole number."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _p(p: float) -> str:
    """A p-value for a table cell (a p-value too small for a float is shown as a bound)."""
    if p == 0:
        return "&lt; 1e-300"
    if p < 1e-4:
        return f"{p:.1e}"
    return f"{p:.4f}"


def _p_is(p: float) -> str:
    """A p-value in a sentence: "p = 0.0123", "p &lt; 1e-300"."""
    return f"p {_p(p)}" if p == 0 else f"p = {_p(p)}"


__all__ = ["DEFAULT_TITLE", "ReportError", "html_report", "write_report"]
