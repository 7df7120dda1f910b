"""The ``carcassonne`` command line (also ``python -m carcassonne``)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from carcassonne._core import (
    ENGINE_VERSION,
    MAX_RECORD_BYTES,
    RULES_VERSION,
    TILE_SETS,
    Game,
    PlayerError,
    RecordError,
    Rules,
    RulesError,
    TileDataError,
)
from carcassonne.players import MCTS, Greedy, PlayerLike, parse
from carcassonne.study.results_file import FORMATS, ResultsFileError, check_target
from carcassonne.study.scaleout import BACKENDS
from carcassonne.study.grid import Cell, check_study_directory
from carcassonne.study.spec import load_spec
from carcassonne.study.plan import POLICIES
from carcassonne.study.play import simulate, simulate_summary
from carcassonne.study.results import SimulationResult, StudySummary
from carcassonne import maps, stats
from carcassonne.rating.errors import RatingError
from carcassonne.rating.ladder import SYSTEMS, build_ladder, load_ladder, shipped_ladder
from carcassonne.rating.placement import rate
from carcassonne.learn import training
from carcassonne.files import OutputFileError, check_output, cut, read_input, write_text_atomically
from carcassonne.svg import board, map as map_picture


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser: every subcommand and option (the docs' command-line
    page is generated from it)."""
    parser = argparse.ArgumentParser(prog="carcassonne", description="Carcassonne simulation engine.")
    sub = parser.add_subparsers(dest="command")
    sim = sub.add_parser(
        "simulate",
        help="run a balance study (default: 2 players, base game, random policy)",
        description="Plays many whole games and reports each seat's share of the wins, the first seat's "
        "advantage, whether every seat wins as often, scores, how close the games are, and speed.",
    )
    sim.add_argument("--games", type=int, default=100_000, help="games to play (default 100000)")
    sim.add_argument(
        "--players",
        nargs="+",
        default=["2"],
        metavar="N|PLAYER",
        help="the number of seats, 2 to 6 (default 2), or one player per seat "
        "(random, greedy, mcts, learned: e.g. --players mcts greedy; also a greedy player with its "
        "randomness, as its name: 'greedy(randomness=0.25)'), or one player for every seat "
        "with --seats",
    )
    sim.add_argument(
        "--seats", type=int, default=None, help="seats, with one player named in --players for all of them"
    )
    sim.add_argument("--playouts", type=int, default=None, help="MCTS: playouts per action (default 1000)")
    sim.add_argument(
        "--exploration", type=float, default=None, help="MCTS: the UCT exploration constant (default 0.1)"
    )
    sim.add_argument(
        "--cutoff",
        default=None,
        metavar="TILES|none",
        help="MCTS: tiles a playout places before the virtual scores judge it, or 'none' to play to the end "
        "(default 8)",
    )
    sim.add_argument(
        "--randomness",
        type=float,
        default=None,
        metavar="P",
        help="greedy: the chance, 0 to 1, of taking the random player's action instead (default 0)",
    )
    _add_rules_flags(sim)
    sim.add_argument(
        "--policy", choices=POLICIES, default=None, help="built-in player for every seat (default random)"
    )
    sim.add_argument("--seed", type=int, default=0, help="study seed (default 0)")
    sim.add_argument("--first-game", type=int, default=0, help="index of the first game (to split studies)")
    sim.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: on when stderr is a terminal and tqdm is installed)",
    )
    sim.add_argument(
        "--partial",
        action="store_true",
        help="on Ctrl-C, report (and write to --out) the games played so far, then exit 130",
    )
    sim.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="also write every game's results to FILE (Parquet, CSV or JSON: see --format)",
    )
    sim.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="the format of --out (default: from its suffix; Parquet needs pyarrow)",
    )
    study = sub.add_parser(
        "study",
        help="run a study grid from a specification file (configurations x seats x line-ups)",
        description="Plays every cell of a study (see carcassonne.study.spec for the file) and "
        "prints one line per cell; --out keeps every game.",
    )
    study.add_argument("spec", metavar="SPEC", help="the study: a .json (or .toml, Python 3.11+) file")
    study.add_argument("--out", metavar="DIR", default=None, help="write every cell's results and study.json to DIR")
    study.add_argument("--format", choices=FORMATS, default="parquet", help="the format of the cells' files")
    study.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    study.add_argument("--backend", choices=BACKENDS, default="local", help="where to play (default local)")
    study.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bars")
    render = sub.add_parser(
        "render",
        help="draw a saved game (a JSON record) as an SVG picture",
        description="Replays a game record (Game.to_json) and draws its board as SVG.",
    )
    render.add_argument("record", metavar="RECORD.json", help="the game record")
    render.add_argument(
        "-o", "--output", default="-", metavar="FILE.svg", help="where to write the picture (default: standard output)"
    )
    render.add_argument("--size", type=int, default=None, help="width in pixels (default: 50 per square)")
    render.add_argument("--no-last-move", action="store_true", help="do not outline the last move's tile")
    render.add_argument("--no-legend", action="store_true", help="no row of players and scores under the board")
    _map_parser(sub)
    sub.add_parser("version", help="print engine and rules versions")
    _report_parser(sub)
    _rating_parsers(sub)
    _train_parser(sub)
    return parser


class _RenderError(Exception):
    """A fault of ``carcassonne render``, named with its file."""


def _read_record(path: str) -> Game:
    """The game a record file replays; _RenderError names the file and the fault."""
    data = read_input(path, MAX_RECORD_BYTES, _RenderError, "record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _RenderError(f"{path}: not a game record: not UTF-8 text (byte {e.start})") from None
    try:
        return Game.from_json(text)
    except RecordError as e:
        cause = e.__cause__
        detail = f" ({type(cause).__name__}: {cause})" if cause is not None and str(cause) not in str(e) else ""
        raise _RenderError(f"{path}: the record does not replay: {e}{detail}") from None


def _render(args: argparse.Namespace) -> int:
    try:
        if args.size is not None and args.size < 1:
            raise _RenderError(f"--size must be at least 1 pixel, not {args.size}")
        if args.output != "-":
            check_output(args.output, [args.record], "picture")
        game = _read_record(args.record)
        picture = board(game, size=args.size, last_move=not args.no_last_move, legend=not args.no_legend)
        if args.output == "-":
            sys.stdout.write(picture + "\n")
        else:
            write_text_atomically(args.output, picture + "\n", [args.record], "picture")
    except (_RenderError, OutputFileError) as e:
        print(f"carcassonne: error: {e}", file=sys.stderr)
        return 2
    return 0


def _cutoff(text: str | None, default: int | None) -> int | None:
    """``--cutoff``: a number of tiles, or "none" to play every playout to the end."""
    if text is None:
        return default
    if text.lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise PlayerError(f"--cutoff must be a number of tiles or 'none', not {text!r}") from None


def _mcts(args: argparse.Namespace) -> MCTS:
    """The MCTS player of ``--playouts``, ``--exploration`` and ``--cutoff`` (each its
    default where not given)."""
    defaults = MCTS()
    return MCTS(
        playouts=defaults.playouts if args.playouts is None else args.playouts,
        exploration=defaults.exploration if args.exploration is None else args.exploration,
        cutoff=_cutoff(args.cutoff, defaults.cutoff),
    )


def _lineup(args: argparse.Namespace) -> tuple[int, list[PlayerLike] | None]:
    """The seats and the players of ``--players`` (a count, or player names) and
    ``--seats``; None leaves the players to ``--policy``."""
    tokens: list[str] = args.players
    mcts = _mcts(args)
    if len(tokens) == 1 and tokens[0].lstrip("-").isdigit():
        if args.seats is not None:
            raise PlayerError("--seats goes with player names in --players, not a number")
        if args.randomness is not None:
            raise PlayerError("--randomness goes with a greedy player named in --players")
        return int(tokens[0]), None
    if args.randomness is not None and "greedy" not in tokens:
        raise PlayerError("--randomness goes with a greedy player named in --players")
    greedy = Greedy() if args.randomness is None else Greedy(randomness=args.randomness)
    names: list[PlayerLike] = [mcts if t == "mcts" else greedy if t == "greedy" else parse(t) for t in tokens]
    if args.seats is not None and len(names) != 1:
        raise PlayerError("--seats goes with one player for every seat; name one player per seat without it")
    seats = args.seats if args.seats is not None else (len(names) if len(names) > 1 else 2)
    return seats, names


def _report(result: StudySummary) -> str:
    r = result.rules
    lines = [
        f"carcassonne simulate: {result.games} game{'' if result.games == 1 else 's'}, {r.players} players, tile sets {', '.join(r.tile_sets)}"
        f"{f' ({r.ferries_edition} lakes)' if 'ferries' in r.tile_sets else ''}"
        f"{f', map {r.map} ({r.start_squares} start squares, {r.deck_size} tiles)' if r.map else ''}, "
        f"players {result.policy}, seed {result.seed} (engine {result.engine_version}, rules v{result.rules_version})",
        # Said once here, so that no line below repeats a method's name or the tie rule.
        "Intervals in brackets are 95%: Wilson's for shares of games, the normal approximation for mean points.",
        "A game won by k tied players counts 1/k of a win for each of them.",
        "",
        f"{'seat':>4}  {'wins %':>6}  {'95% interval':>14}  {'mean score':>10}  {'sd':>6}",
    ]
    for s in result.seats():
        lines.append(
            f"{s.seat:>4}  {100 * s.win_rate:>6.2f}  {_percents(s.win_rate_low, s.win_rate_high):>14}  "
            f"{s.mean_score:>10.2f}  {s.score_sd:>6.2f}"
        )
    if r.players >= 2 and result.games >= 2:
        lines += ["", *_first_seat_lines(result), *_seats_equal_lines(result), *_spread_lines(result)]
    if r.system == "south-seas":
        lines += [
            "",
            f"South Seas: ships per player {result.totals.mean_ships():.2f}, wares left per player "
            f"{result.totals.mean_wares_left():.2f}",
        ]
    if r.reconstructions():
        # Reconstructed data sets and original map layouts, never the printed game's.
        names = ", ".join(sorted({name for name, _ in r.reconstructions()}))
        lines += ["", f"(reconstructed data or original layouts in use: {names})"]
    lines += [
        "",
        f"mean turns {result.totals.mean_turns():.1f}, discarded tiles per game "
        f"{result.totals.mean_discarded():.3f}",
        f"{result.games_per_second:,.0f} games/s on {result.threads} thread(s) ({result.elapsed_seconds:.2f} s)",
    ]
    return "\n".join(lines)


def _percents(low: float, high: float) -> str:
    """``[50.46, 51.82]``: an interval on a share, in percent."""
    return f"[{100 * low:.2f}, {100 * high:.2f}]"


def _seat_list(seats: Sequence[int]) -> str:
    return f"seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))}"


def _first_seat_lines(result: StudySummary) -> list[str]:
    """Seat 0's win share against an equal share, in words: how far above or below, the
    interval of that amount, and whether it is beyond chance."""
    adv = stats.first_seat_advantage(result)
    a = adv.advantage
    # The amount below an equal share is the advantage negated: its interval flips too.
    side, amount, low, high = ("above", a.estimate, a.low, a.high) if a.estimate >= 0 else ("below", -a.estimate, -a.high, -a.low)
    # The score test's p-value is below 5% exactly when the 95% Wilson interval leaves out
    # 0 (stats.first_seat_advantage), so the verdict reads off the interval.
    verdict = (
        "an advantage beyond chance" if a.low > 0 else "a disadvantage beyond chance" if a.high < 0 else "within chance"
    )
    return [
        f"first seat: seat 0 wins {100 * adv.share.estimate:.2f}% of games, {100 * amount:.2f} percentage points "
        f"{_percents(low, high)} {side} an equal share of {100 * adv.fair_share:.4g}%:",
        f"  {verdict} (score test, p = {adv.p_value:.3g})",
    ]


def _seats_equal_lines(result: StudySummary) -> list[str]:
    """Whether every seat wins equally often, in words: which seat wins most and least,
    and which seats win more or less than an equal share on their own."""
    equal = stats.seats_equal(result)
    shares = [t.win_share.estimate for t in equal.seats]
    fair = 1 / len(shares)
    most = [k for k, share in enumerate(shares) if share == max(shares)]
    least = [k for k, share in enumerate(shares) if share == min(shares)]
    if len(most) == len(shares):
        ahead = "every seat wins as often"
    elif len(shares) == 2:
        ahead = f"seat {most[0]} wins more often than seat {least[0]}"
    else:
        ahead = f"{_seat_list(most)} win{'' if len(most) > 1 else 's'} most, {_seat_list(least)} least"
    test = f"chi-square {equal.statistic:.2f}, df {equal.df}, p = {equal.p_value:.3g}"
    alpha = 0.05
    if equal.p_value < alpha:
        lines = [f"all seats equal? no ({test}): {ahead}"]
    else:
        lines = [f"all seats equal? no clear difference ({test}): {ahead}, within chance"]
    if len(shares) == 2:
        # Two seats' shares sum to 1: each seat's own test is the test of both.
        return lines
    above = [t.seat for t in equal.seats if t.p_adjusted < alpha and t.win_share.estimate > fair]
    below = [t.seat for t in equal.seats if t.p_adjusted < alpha and t.win_share.estimate < fair]
    parts = [f"{_seat_list(above)} above an equal share"] if above else []
    parts += [f"{_seat_list(below)} below" if above else f"{_seat_list(below)} below an equal share"] if below else []
    if parts:
        lines.append(f"  {', '.join(parts)} (each seat tested alone: Holm, 5%)")
    elif equal.p_value < alpha:
        lines.append("  no one seat differs clearly from an equal share (each seat tested alone: Holm, 5%)")
    return lines


def _spread_lines(result: StudySummary) -> list[str]:
    """How close the games are: the margin of victory, the score spread (with two players
    the same figure, printed once) and the share of tied games."""
    spread = stats.spread(result)
    m, g, t = spread.margin, spread.score_range, spread.tie_rate
    margin = f"margin of victory {m.estimate:.2f} points [{m.low:.2f}, {m.high:.2f}]"
    if result.rules.players == 2:
        margin += " (with two players also the score spread, top minus bottom score)"
    else:
        margin += f", score spread (top minus bottom score) {g.estimate:.2f} [{g.low:.2f}, {g.high:.2f}]"
    return [margin, f"ties: {100 * t.estimate:.2f}% of games {_percents(t.low, t.high)} have more than one winner"]


def _finite(value: Any) -> Any:
    """NaN and infinities (statistics of fewer than two games) become JSON null."""
    return value if not isinstance(value, float) or math.isfinite(value) else None


def _summary_json(result: StudySummary) -> str:
    summary = {
        **result.metadata(),
        "seats": [{k: _finite(v) for k, v in asdict(s).items()} for s in result.seats()],
        "games_per_second": _finite(result.games_per_second),
        "threads": result.threads,
    }
    if result.rules.players >= 2 and result.games >= 2:
        summary["first_seat_advantage"] = _finite_tree(asdict(stats.first_seat_advantage(result)))
        summary["seats_equal"] = _finite_tree(asdict(stats.seats_equal(result)))
        summary["spread"] = _finite_tree(asdict(stats.spread(result)))
    return json.dumps(summary, indent=2, allow_nan=False)


def _finite_tree(value: Any) -> Any:
    """``_finite`` through nested dicts and lists (JSON has no NaN or infinity)."""
    if isinstance(value, dict):
        return {k: _finite_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite_tree(v) for v in value]
    return _finite(value)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line. Bad input of any kind (a file that cannot be read, values out of
    range, a spec too deep) ends with one line on stderr and status 2, Ctrl-C with one
    line and 130: never a traceback. Each command catches the package's documented
    errors itself; this is the net under them for what the system raises."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("carcassonne: interrupted", file=sys.stderr)
        return 130
    except (ValueError, ImportError, OSError, RecursionError, MemoryError, OverflowError) as e:
        print(f"carcassonne: error: {cut(str(e) or type(e).__name__, 500)}", file=sys.stderr)
        return 2


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "version":
        print(f"carcassonne engine {ENGINE_VERSION}, rules version {RULES_VERSION}")
        return 0
    if args.command == "study":
        return _study_command(args)
    if args.command == "report":
        return _report_command(args)
    if args.command == "render":
        return _render(args)
    if args.command == "map":
        return _map_command(args, parser)
    if args.command == "rate":
        return _rate_command(args)
    if args.command == "ladder":
        return _ladder_command(args, parser)
    if args.command == "train":
        return _train_command(args)
    if args.command != "simulate":
        parser.print_help()
        return 2
    try:
        seats, lineup = _lineup(args)
        rules = Rules(players=seats, **_rules_options(args))
        study: dict[str, Any] = {
            "games": args.games,
            "seed": args.seed,
            "policy": args.policy,
            "players": lineup,
            "threads": args.threads,
            "first_game": args.first_game,
        }
        if args.format is not None and args.out is None:
            raise ResultsFileError("--format goes with --out FILE")
        study["progress"] = _progress(args.progress)
        study["partial"] = args.partial
        if args.out is not None:
            # A file that could not be written fails now, not after the games.
            check_target(args.out, args.format)
            # Every game's row is kept and written (the same games as the summary).
            rows = simulate(rules, **study)
            rows.save(args.out, args.format)
            result = rows.summary()
        else:
            # Totals only: the report needs no per-game rows, so any number of games runs
            # in constant memory.
            result = simulate_summary(rules, **study)
    except (ValueError, ImportError) as e:  # RulesError and every other documented error
        print(f"carcassonne: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("carcassonne: interrupted", file=sys.stderr)
        return 130
    print(_summary_json(result) if args.json else _report(result))
    if result.interrupted:
        print(f"carcassonne: interrupted after {result.games} games", file=sys.stderr)
        return 130
    return 0


def _study_command(args: argparse.Namespace) -> int:
    """``carcassonne study SPEC``: one line per cell (seat 0's win share with its
    interval, the all-seats test, mean scores), printed as each cell finishes; every cell
    written to ``--out``."""

    def line(cell: Cell, r: SimulationResult) -> None:
        seat0 = r.seats()[0]
        means = " ".join(f"{s.mean_score:.1f}" for s in r.seats())
        equal = f"{stats.seats_equal(r).p_value:.3g}" if r.games >= 2 and cell.seats >= 2 else "-"
        print(
            f"{cell.config:<16} {cell.seats:>5}  {cell.lineup:<20} {r.games:>8}  {seat0.win_rate:>11.4f}  "
            f"[{seat0.win_rate_low:.3f}, {seat0.win_rate_high:.3f}]  {equal:>9}  {means}",
            flush=True,
        )

    try:
        study = load_spec(args.spec)
        if args.out is not None:
            # A directory that could not be written fails now, not after the games.
            check_study_directory(args.out, args.format)
        print(
            f"{'config':<16} {'seats':>5}  {'line-up':<20} {'games':>8}  {'seat 0 wins':>11}  {'95% Wilson':>15}  "
            f"{'all equal':>9}  mean scores",
            flush=True,
        )
        result = study.run(threads=args.threads, progress=_progress(args.progress), backend=args.backend, on_cell=line)
        if args.out is not None:
            result.save(args.out, args.format)
    except (ValueError, ImportError) as e:
        print(f"carcassonne: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("carcassonne: interrupted", file=sys.stderr)
        return 130
    if args.out is not None:
        print(f"written to {args.out} ({args.format})")
    return 0


def _progress(asked: bool | None) -> bool:
    """``--progress``/``--no-progress``, by default on when stderr is a terminal and tqdm
    is installed."""
    if asked is not None:
        return asked
    if not sys.stderr.isatty():
        return False
    try:
        import tqdm  # type: ignore[import-untyped, unused-ignore]  # noqa: F401
    except ImportError:
        return False
    return True


# ----- carcassonne report ---------------------------------------------------------------------


def _report_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rep = sub.add_parser(
        "report",
        help="write one self-contained HTML page of plots and tables from results files (needs matplotlib)",
        description="Reads results files (simulate --out, result.save) and writes one self-contained HTML "
        "page: each study's rules, win shares with intervals, first-seat advantage, score distributions and "
        "points by feature kind per seat, and each study compared with the first (same number of seats).",
    )
    rep.add_argument(
        "files", nargs="+", metavar="FILE", help="results files: .parquet, .csv or .json (the first is the baseline)"
    )
    rep.add_argument("-o", "--out", required=True, metavar="OUT.html", help="the HTML file to write")
    rep.add_argument("--title", default=None, help="the page's heading (default: Carcassonne balance report)")
    rep.add_argument(
        "--label",
        dest="labels",
        action="extend",
        nargs="+",
        default=None,
        metavar="NAME",
        help="a name for each file, in order (default: the file names without their suffix)",
    )


def _report_command(args: argparse.Namespace) -> int:
    """``carcassonne report FILE... -o OUT.html``: warnings (a file from another engine
    version) are shown once each on stderr and the report is still written; errors print
    one line and return 2."""
    import warnings
    from pathlib import Path

    from carcassonne.study.report import _write_report

    files: list[str] = args.files
    error: Exception | None = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            # write_report refuses an output that is one of the inputs by any link.
            path, count = _write_report(files, Path(args.out), labels=args.labels, title=args.title)
        except (ValueError, ImportError) as e:  # ResultsFileError, ReportError, no matplotlib
            error = e
    shown: set[str] = set()
    for w in caught:
        text = str(w.message)
        if text not in shown:
            shown.add(text)
            print(f"carcassonne: warning: {text}", file=sys.stderr)
    if error is not None:
        print(f"carcassonne: error: {error}", file=sys.stderr)
        return 2
    print(f"carcassonne: wrote {path} ({count} stud{'y' if count == 1 else 'ies'})")
    return 0


def _add_rules_flags(sim: argparse.ArgumentParser) -> None:
    """A flag for every rules option that has one (``Rules.options()``: the flag, its kind
    and its line of doc are declared with the option in the core), its value kept under the
    option's name; an option not given stays None, the option's default."""
    for o in Rules.options():
        if not o.flag:
            continue
        if o.kind == "bool":
            # The flag turns the option to the other value than its default.
            help_text = f"Turns off: {o.doc}" if o.default == "True" else o.doc
        else:
            help_text = o.doc if o.default == "None" else f"{o.doc} Default {o.default}."
        if o.builtins:
            help_text += f" Built-in: {', '.join(o.builtins)}."
        flag = f"--{o.flag}"
        if o.kind == "bool":
            sim.add_argument(flag, dest=o.name, action="store_const", const=o.default != "True", help=help_text)
        elif o.kind == "int":
            sim.add_argument(flag, dest=o.name, type=int, metavar="N", help=help_text)
        elif o.kind == "variants":
            sim.add_argument(flag, dest=o.name, type=int, nargs="+", metavar="N", help=help_text)
        elif o.kind in _TOKENS:
            sim.add_argument(flag, dest=o.name, nargs="+", metavar=_TOKENS[o.kind][0], help=help_text)
        elif o.kind == "files":
            sim.add_argument(flag, dest=o.name, nargs="+", metavar="NAME|FILE", help=help_text)
        elif o.kind == "text":
            sim.add_argument(flag, dest=o.name, choices=o.choices or None, help=help_text)
        else:
            sim.add_argument(flag, dest=o.name, metavar="NAME|FILE", help=help_text)


def _rules_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of ``Rules(...)`` the command line gives (None: the default)."""
    out: dict[str, Any] = {}
    for o in Rules.options():
        if o.flag:
            value = getattr(args, o.name)
            out[o.name] = _TOKENS[o.kind][1](value) if o.kind in _TOKENS else value
    return out


def _start_squares(tokens: Sequence[str] | None) -> int | list[tuple[int, int]] | None:
    """``--start-squares``: one number (how many), or COL,ROW pairs (which, in order)."""
    if tokens is None:
        return None
    if len(tokens) == 1 and "," not in tokens[0]:
        try:
            return int(tokens[0])
        except ValueError:
            raise RulesError(f"--start-squares: {tokens[0]!r} is not a number or COL,ROW") from None
    out = []
    for t in tokens:
        col, sep, row = t.partition(",")
        try:
            out.append((int(col), int(row)))
        except ValueError:
            raise RulesError(f"--start-squares: {t!r} is not COL,ROW (e.g. 4,7)") from None
        if not sep:
            raise RulesError(f"--start-squares: {t!r} is not COL,ROW (e.g. 4,7)")
    return out


def _start_rotations(tokens: Sequence[str] | None) -> list[int | None] | None:
    """``--start-rotations``: a rotation 0-3 per start square, ``-`` for the first that fits."""
    if tokens is None:
        return None
    out: list[int | None] = []
    for t in tokens:
        if t == "-":
            out.append(None)
            continue
        try:
            out.append(int(t))
        except ValueError:
            raise RulesError(f"--start-rotations: {t!r} is not 0 to 3 or -") from None
    return out


_TOKENS: dict[str, tuple[str, Callable[[Sequence[str] | None], Any]]] = {
    "start squares": ("N|COL,ROW", _start_squares),
    "rotations": ("R|-", _start_rotations),
}
"""Options written as several tokens on the command line: the metavar and the parser."""


def _map_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mp = sub.add_parser(
        "map",
        help="check, draw or generate Carcassonne Maps files",
        description="Tools for map files: check a transcription (every fault, then a summary), "
        "draw a map alone as SVG, or write a random valid map.",
    )
    msub = mp.add_subparsers(dest="map_command")
    check = msub.add_parser(
        "check",
        help="list every fault of a map file (file:line:column: fault), or its summary",
        description="Exit status 0 when the file has no fault, 1 when it has, 2 when it cannot be read.",
    )
    check.add_argument("file", metavar="FILE", help="a .toml map file, or a built-in map's name")
    render = msub.add_parser(
        "render",
        help="draw a map alone as SVG (squares, large cities, border pieces, ferries, coats of arms)",
    )
    render.add_argument("file", metavar="FILE", help="a .toml map file, or a built-in map's name")
    render.add_argument("-o", "--output", default="-", metavar="FILE.svg", help="the picture (default: standard output)")
    render.add_argument("--size", type=int, default=None, help="width in pixels (default: 40 per square)")
    render.add_argument("--no-coordinates", action="store_true", help="no column and row numbers")
    gen = msub.add_parser(
        "generate",
        help="write a random valid map file (for studies over many layouts)",
        description="The same seed and options give the same file. Play it with --map FILE.",
    )
    gen.add_argument("seed", type=int, metavar="SEED")
    gen.add_argument("-o", "--output", default="-", metavar="FILE.toml", help="the map file (default: standard output)")
    defaults = {"squares": 125, "large-cities": 4, "islands": 2, "ferries": 1, "border-pieces": 8, "waves": 4,
                "highlights": 2, "towns": 6, "start-squares": 3}  # fmt: skip
    for name, value in defaults.items():
        gen.add_argument(f"--{name}", type=int, default=value, help=f"(default {value})")


def _map_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    def fail(message: str) -> int:
        print(f"carcassonne: error: {message}", file=sys.stderr)
        return 2

    try:
        if args.map_command == "check":
            report = maps.check(args.file)
            print(report)
            return 0 if report.ok else 1
        if args.map_command == "render":
            if args.size is not None and args.size < 1:
                return fail(f"--size must be at least 1 pixel, not {args.size}")
            try:
                # A file, a built-in map, or two half maps joined ("west+east").
                rules = Rules(map=args.file)
            except TileDataError:
                # A map with faults: every one of them (a file that cannot be read raises
                # again, and is reported below).
                report = maps.check(args.file)
                print(report, file=sys.stderr)
                return 1
            picture = map_picture(rules, size=args.size, coordinates=not args.no_coordinates)
            if args.output == "-":
                sys.stdout.write(picture + "\n")
            else:
                inputs = [args.file] if os.path.exists(args.file) else []
                write_text_atomically(args.output, picture + "\n", inputs)
            return 0
        if args.map_command == "generate":
            text = maps.generate(
                args.seed,
                squares=args.squares,
                large_cities=args.large_cities,
                islands=args.islands,
                ferries=args.ferries,
                border_pieces=args.border_pieces,
                waves=args.waves,
                highlights=args.highlights,
                towns=args.towns,
                start_squares=args.start_squares,
            )
            if args.output == "-":
                sys.stdout.write(text)
            else:
                maps.write(text, args.output)
            return 0
    except (ValueError, OutputFileError) as e:  # TileDataError, RulesError: documented, with the file
        return fail(str(e))
    except KeyboardInterrupt:
        print("carcassonne: interrupted", file=sys.stderr)
        return 130
    parser.parse_args(["map", "--help"])
    return 2


# ----- carcassonne rate, carcassonne ladder ----------------------------------------------------


def _rating_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rate_parser = sub.add_parser(
        "rate",
        help="place a player on a rule system's reference ladder: its Elo, the random player at 0",
        description="Plays paired matches of PLAYER against the reference players around its strength on the "
        "system's shipped ladder (starting at the middle rung, moving up after a win and down after a loss, "
        "then both neighbours), fits them with the ladder's own matches and prints its Elo with a 95% interval "
        "and the rungs around it.",
    )
    rate_parser.add_argument(
        "player",
        metavar="PLAYER",
        help="random, greedy (with --randomness) or mcts (with --playouts, ...), or a greedy player's name "
        "with its randomness: 'greedy(randomness=0.25)'",
    )
    rate_parser.add_argument(
        "--system", choices=list(SYSTEMS), default="base-2p", help="the rule system's ladder (default base-2p)"
    )
    rate_parser.add_argument("--pairs", type=int, default=500, help="pairs of each match (default 500)")
    rate_parser.add_argument("--seed", type=int, default=1, help="study seed of the matches (default 1)")
    rate_parser.add_argument("--ladder", default=None, metavar="FILE", help="a ladder file (default: the shipped one)")
    rate_parser.add_argument("--playouts", type=int, default=None, help="MCTS: playouts per action (default 1000)")
    rate_parser.add_argument(
        "--exploration", type=float, default=None, help="MCTS: the UCT exploration constant (default 0.1)"
    )
    rate_parser.add_argument(
        "--cutoff",
        default=None,
        metavar="TILES|none",
        help="MCTS: tiles a playout places before the virtual scores judge it, or 'none' to play to the end "
        "(default 8)",
    )
    rate_parser.add_argument(
        "--randomness",
        type=float,
        default=None,
        metavar="P",
        help="greedy: the chance, 0 to 1, of taking the random player's action instead (default 0)",
    )
    rate_parser.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    ladder = sub.add_parser(
        "ladder",
        help="build or show a rule system's reference ladder (Elo of the reference players)",
        description="The reference ladder: random, greedy players that play at random part of the time, "
        "greedy, MCTS of 100, 1,000 and 10,000 playouts a move, rated from paired matches between neighbours.",
    )
    lsub = ladder.add_subparsers(dest="ladder_command")
    build = lsub.add_parser(
        "build",
        help="play every link of a system's ladder, fit the ratings and write the ladder file",
        description="Plays each rung against the one below it (and the one two below where both are cheap), "
        "prints a line per match and the table, and writes the ladder file.",
    )
    build.add_argument("system", metavar="SYSTEM", choices=list(SYSTEMS), help=f"one of {', '.join(SYSTEMS)}")
    build.add_argument("--pairs", type=int, default=2000, help="pairs of each link (default 2000)")
    build.add_argument(
        "--search-pairs", type=int, default=None, help="pairs of the links with an MCTS rung (default: --pairs)"
    )
    build.add_argument(
        "--deep-pairs",
        type=int,
        default=None,
        help="pairs of the links with an MCTS rung of more than 1,000 playouts (default: --search-pairs)",
    )
    build.add_argument(
        "--max-rung", type=int, default=None, help="the last rung of the list to play, 2 to 8 (default: every rung)"
    )
    build.add_argument("--seed", type=int, default=2026, help="the ladder's seed (default 2026)")
    build.add_argument(
        "--out", default=None, metavar="FILE", help="the ladder file to write (default: ladder-SYSTEM.json)"
    )
    build.add_argument(
        "--reuse", default=None, metavar="FILE", help="a ladder file whose matches of the same rungs are kept"
    )
    build.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    show = lsub.add_parser("show", help="print a system's ladder table (the shipped one, or --file)")
    show.add_argument("system", metavar="SYSTEM", choices=list(SYSTEMS), help=f"one of {', '.join(SYSTEMS)}")
    show.add_argument("--file", default=None, metavar="FILE", help="a ladder file (default: the shipped one)")


def _rate_command(args: argparse.Namespace) -> int:
    """``carcassonne rate PLAYER --system SYSTEM``: a line per match on stderr, then the
    player's Elo and the rungs around it."""
    try:
        if args.player == "mcts":
            player: PlayerLike = _mcts(args)
        else:
            if args.playouts is not None or args.exploration is not None or args.cutoff is not None:
                raise PlayerError("--playouts, --exploration and --cutoff go with the mcts player")
            player = parse(args.player)
        if args.randomness is not None:
            if args.player != "greedy":
                raise PlayerError("--randomness goes with the greedy player")
            player = Greedy(randomness=args.randomness)
        placed = rate(
            args.system,
            player,
            pairs=args.pairs,
            ladder=args.ladder,
            seed=args.seed,
            threads=args.threads,
            progress=lambda line: print(f"carcassonne rate: {line}", file=sys.stderr, flush=True),
        )
    except ValueError as e:  # RatingError, PlayerError: documented, naming the argument
        print(f"carcassonne: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("carcassonne: interrupted", file=sys.stderr)
        return 130
    print(placed)
    return 0


def _ladder_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``carcassonne ladder build|show SYSTEM``."""
    try:
        if args.ladder_command == "show":
            table = shipped_ladder(args.system) if args.file is None else load_ladder(args.file)
            if table.system != args.system:
                raise RatingError(f"{args.file}: a ladder of {table.system}, not {args.system}")
            print(table)
            return 0
        if args.ladder_command == "build":
            out = args.out if args.out is not None else f"ladder-{args.system}.json"
            reuse = load_ladder(args.reuse) if args.reuse is not None else None
            table = build_ladder(
                args.system,
                args.pairs,
                args.max_rung,
                search_pairs=args.search_pairs,
                deep_pairs=args.deep_pairs,
                seed=args.seed,
                threads=args.threads,
                progress=lambda line: print(f"carcassonne ladder: {line}", file=sys.stderr, flush=True),
                out=out,
                reuse=reuse,
            )
            print(table)
            print(f"carcassonne: wrote {out}")
            return 0
    except (ValueError, OutputFileError) as e:
        print(f"carcassonne: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("carcassonne: interrupted", file=sys.stderr)
        return 130
    parser.parse_args(["ladder", "--help"])
    return 2


def _train_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    default = training.TdSettings()
    tr = sub.add_parser(
        "train",
        help="train the learned evaluation of a rule system by self-play (TD(lambda)), with checkpoints",
        description="Trains the learned evaluation of SYSTEM by self-play and writes its weights file after "
        "every --every games (a checkpoint: the same command with --resume goes on from it; Ctrl-C keeps it), "
        "with the learning curve: the one-ply learned player against greedy over --curve-pairs paired deals "
        "after each checkpoint. The same seed gives the same weights for any --threads.",
    )
    tr.add_argument("system", metavar="SYSTEM", choices=list(SYSTEMS), help=f"one of {', '.join(SYSTEMS)}")
    tr.add_argument("--games", type=int, default=16384, help="self-play games, a multiple of 64 (default 16384)")
    tr.add_argument("--seed", type=int, default=1, help="the training's seed (default 1)")
    tr.add_argument("--alpha", type=float, default=default.alpha, help=f"step size (default {default.alpha})")
    tr.add_argument(
        "--lambda", dest="lambda_", type=float, default=default.lambda_, help=f"TD lambda (default {default.lambda_})"
    )
    tr.add_argument(
        "--epsilon", type=float, default=default.epsilon, help=f"chance of a random move (default {default.epsilon})"
    )
    tr.add_argument(
        "--decay", type=int, default=default.decay, help=f"games after which the step size is halved (default {default.decay}; 0: constant)"
    )
    tr.add_argument("--every", type=int, default=2048, help="games between checkpoints, a multiple of 64 (default 2048)")
    tr.add_argument(
        "--curve-pairs", type=int, default=200, help="paired deals against greedy at each checkpoint (default 200; 0: none)"
    )
    tr.add_argument(
        "--map",
        default=None,
        metavar="MAP",
        help="with maps-continental-2p: train for this map instead (a built-in map's name or a map file)",
    )
    tr.add_argument("--name", default="learned", help="the player's name in results (default learned)")
    tr.add_argument("--out", default=None, metavar="FILE", help="the weights file (default: learned-SYSTEM.json)")
    tr.add_argument("--resume", action="store_true", help="go on from the checkpoint in --out")
    tr.add_argument("--threads", type=int, default=None, help="threads (default: all cores; never changes the weights)")


def _train_command(args: argparse.Namespace) -> int:
    """``carcassonne train SYSTEM``: a line per checkpoint on stderr, the file written."""
    out = args.out if args.out is not None else f"learned-{args.system}.json"
    try:
        value = training.train(
            args.system,
            out,
            games=args.games,
            seed=args.seed,
            td=training.TdSettings(alpha=args.alpha, lambda_=args.lambda_, epsilon=args.epsilon, decay=args.decay),
            every=args.every,
            curve_pairs=args.curve_pairs,
            name=args.name,
            resume=args.resume,
            threads=args.threads,
            progress=lambda line: print(f"carcassonne train: {line}", file=sys.stderr, flush=True),
            map=args.map,
        )
    except (ValueError, OutputFileError) as e:
        print(f"carcassonne: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"carcassonne: interrupted; {out} holds the last checkpoint (--resume goes on from it)", file=sys.stderr)
        return 130
    print(f"carcassonne: wrote {out} ({value.training['games']:,} games, {value.training['seconds']:,.0f} s)")
    return 0
