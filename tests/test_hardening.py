"""The edges a hostile but realistic user reaches: Ctrl-C during a study, studies
too large for memory, thread counts, game ranges past 2**64, oversized and malformed data
files, tampered records, huge integers. Each must end in a documented exception (or a clean
stop), never a panic, an abort, a hang or a silent wrong answer.

Signals and memory limits are tried in child processes, so that a failure cannot take the
test run down with it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import carcassonne
from carcassonne import (
    MAX_DATA_FILE_BYTES,
    Decision,
    Game,
    IllegalMoveError,
    Move,
    PositionError,
    RecordError,
    Rules,
    RulesError,
    TileDataError,
    UnknownTileError,
    max_threads,
    simulate,
    simulate_summary,
)
from observe import snapshot

REPO = Path(__file__).resolve().parents[1]
MESSAGE_LIMIT = 4_000  # characters: "a message under a few kilobytes"

CONFIGS: dict[str, dict[str, Any]] = {
    "base": {},
    "ferries": {"tile_sets": ("base", "ferries")},
    "all-classic-4p": {
        "players": 4,
        "tile_sets": ("base", "inns-and-cathedrals", "traders-and-builders"),
        "inns_and_cathedrals_scoring": True,
        "traders_goods": True,
    },
    "south-seas": {"tile_sets": ("south-seas",)},
    "friday": {"tile_sets": ("south-seas",), "friday": True},
}


def run_child(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout, cwd=REPO
    )


# ----- Ctrl-C ---------------------------------------------------------------------------------

INTERRUPTED_CHILD = """
import json, sys, time
import carcassonne
rules = carcassonne.Rules(**json.loads(sys.argv[1]))
print("start", flush=True)
start = time.perf_counter()
try:
    # Long enough never to finish in the test (10**7 rows fit in memory for simulate).
    carcassonne.{function}(rules, games=10**7, policy=sys.argv[2], threads=int(sys.argv[3]))
except KeyboardInterrupt:
    stopped = time.perf_counter()
    # The worker threads must be stopped too: no CPU is used once the exception is out.
    cpu = time.process_time()
    time.sleep(0.5)
    print("interrupted", stopped, time.process_time() - cpu, flush=True)
"""


def interrupt(function: str, config: dict[str, Any], policy: str, threads: int) -> tuple[float, float]:
    """Starts a long study in a child, sends SIGINT 1 s in, returns (seconds until the
    child raised KeyboardInterrupt, CPU seconds it used in the 0.5 s after)."""
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_CHILD.format(function=function), json.dumps(config), policy, str(threads)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "start"
    time.sleep(1.0)
    sent = time.perf_counter()  # perf_counter is system-wide on Linux: comparable across processes
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 0, err
    word, stopped, cpu = out.split()
    assert word == "interrupted", out + err
    return float(stopped) - sent, float(cpu)


@pytest.mark.serial  # timed: run alone, not beside another test worker (.ci/run)
@pytest.mark.skipif(sys.platform != "linux", reason="compares perf_counter across processes (Linux)")
@pytest.mark.parametrize(
    ("config", "policy", "threads"),
    [
        ("base", "random", 1),
        ("base", "greedy", 2),
        ("ferries", "random", 2),
        ("all-classic-4p", "greedy", 1),
        ("south-seas", "greedy", 2),
        ("south-seas", "random", 1),
        ("friday", "random", 2),
        ("friday", "greedy", 1),
    ],
)
def test_ctrl_c_stops_simulate_within_half_a_second(config: str, policy: str, threads: int) -> None:
    latency, cpu = interrupt("simulate", CONFIGS[config], policy, threads)
    assert 0 <= latency < 0.5, f"KeyboardInterrupt {latency:.3f} s after SIGINT"
    assert cpu < 0.1, f"{cpu:.3f} CPU seconds used after the interrupt: worker threads still running"


@pytest.mark.serial  # timed: run alone, not beside another test worker (.ci/run)
@pytest.mark.skipif(sys.platform != "linux", reason="compares perf_counter across processes (Linux)")
def test_ctrl_c_stops_simulate_summary() -> None:
    latency, cpu = interrupt("simulate_summary", CONFIGS["base"], "random", 2)
    assert 0 <= latency < 0.5 and cpu < 0.1, (latency, cpu)


@pytest.mark.skipif(sys.platform != "linux", reason="reads the child's peak memory (Linux)")
def test_cli_ctrl_c_prints_one_line_and_exits_130_in_constant_memory() -> None:
    """A billion games: the command line keeps totals only, so its memory stays small; Ctrl-C
    ends it with one line on stderr and exit status 130."""
    child = subprocess.Popen(
        [sys.executable, "-m", "carcassonne", "simulate", "--games", "1000000000", "--threads", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    time.sleep(3.0)
    # The child's own peak resident memory so far (its rusage after exit would also count
    # the test process it was forked from).
    status = Path(f"/proc/{child.pid}/status").read_text()
    peak_kib = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=30)
    assert child.returncode == 130, err
    assert out == ""
    assert err == "carcassonne: interrupted\n"
    # The interpreter, numpy and the engine take under 40 MB; per-game columns of 10**9
    # games would take 98 GB.
    assert peak_kib < 200_000, peak_kib


# ----- memory, threads and game ranges ------------------------------------------------------


@pytest.mark.parametrize("games", [10**12, 2**62, 2**64 - 1])
def test_a_study_too_large_for_memory_is_refused_before_it_starts(games: int) -> None:
    start = time.perf_counter()
    with pytest.raises(RulesError) as info:
        simulate(Rules(), games=games, seed=1)
    message = str(info.value)
    # Per player: a score (4 bytes), a winner flag (1), 4 per score kind, ships and wares
    # left (8); per game: turns and discarded (8). 98 bytes for two players and 8 kinds.
    per_game = 2 * (4 + 1 + 4 * len(carcassonne.SCORE_KINDS) + 8) + 8
    assert per_game == 98
    assert f"the results of {games} games need {games * per_game} bytes" in message
    assert "first_game" in message and "simulate_summary" in message
    assert time.perf_counter() - start < 1.0


def test_a_study_whose_memory_cannot_be_reserved_is_refused() -> None:
    """Under an address-space limit the reservation fails: a RulesError, not an abort."""
    result = run_child(
        """
        import resource, carcassonne
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        try:
            carcassonne.simulate(carcassonne.Rules(), games=10**8, threads=2)
        except carcassonne.RulesError as e:
            print(e)
        """
    )
    assert result.returncode == 0, result.stderr
    assert "the results of 100000000 games need 9800000000 bytes" in result.stdout


def test_summary_takes_any_number_of_games_and_agrees_with_simulate() -> None:
    rules = Rules(players=3)
    rows = simulate(rules, games=700, seed=5, threads=2)
    summary = simulate_summary(rules, games=700, seed=5, threads=1)
    assert summary.seats() == rows.seats() == rows.summary().seats()
    assert summary.totals == rows.totals()
    assert summary.games == 700 and summary.threads == 1


@pytest.mark.parametrize(
    ("first_game", "games", "ok"),
    [(2**64 - 1, 1, True), (2**64 - 3, 3, True), (2**64 - 1, 2, False), (2**64 - 1, 3, False), (2**63, 2**63 + 1, False)],
)
def test_game_ranges_past_the_last_index_are_refused(first_game: int, games: int, ok: bool) -> None:
    if ok:
        result = simulate(Rules(), games=games, first_game=first_game, threads=1)
        assert result.games == games and result.first_game == first_game
        # The last game of the range is the same game whichever batch plays it.
        last = simulate(Rules(), games=1, first_game=2**64 - 1, threads=1)
        assert (result.scores[-1] == last.scores[0]).all()
    else:
        with pytest.raises(RulesError, match=r"go past the last game index, 2\*\*64 - 1"):
            simulate(Rules(), games=games, first_game=first_game)


@pytest.mark.parametrize("threads", [0, -1, max_threads() + 1, 100_000, 10**30])
def test_thread_counts_are_bounded(threads: int) -> None:
    with pytest.raises(RulesError, match=rf"threads must be between 1 and {max_threads()} \(4 per core\)"):
        simulate(Rules(), games=10, threads=threads)
    with pytest.raises(RulesError, match="threads must be between 1 and"):
        simulate_summary(Rules(), games=10, threads=threads)


def test_max_threads_is_four_per_core() -> None:
    assert max_threads() == 4 * (os.cpu_count() or 1)
    assert simulate(Rules(), games=8, threads=max_threads()).threads == max_threads()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
def test_thread_pools_do_not_pile_up() -> None:
    result = run_child(
        """
        import os, time, carcassonne
        rules = carcassonne.Rules()
        for _ in range(3):
            for t in range(1, carcassonne.max_threads() + 1):
                carcassonne.simulate(rules, games=40, threads=t)
        time.sleep(0.5)  # threads of a replaced pool end once idle
        print(len(os.listdir("/proc/self/task")))
        """
    )
    assert result.returncode == 0, result.stderr
    # The main thread, the last pool, and a few of the interpreter's or numpy's own.
    assert int(result.stdout) <= 1 + max_threads() + 4, result.stdout


def test_integer_arguments_take_any_index_type() -> None:
    a = simulate(Rules(), games=np.int64(30), seed=np.int64(3), first_game=np.uint64(7), threads=np.int32(1))
    b = simulate(Rules(), games=30, seed=3, first_game=7, threads=1)
    assert (a.scores == b.scores).all() and a.seed == 3 and a.first_game == 7
    assert Game(Rules(players=np.int8(3)), seed=np.uint64(9)).to_json() == Game(Rules(players=3), seed=9).to_json()
    assert Move(np.int16(1), np.int64(0), np.uint8(2), meeple=np.int32(1)) == Move(1, 0, 2, meeple=1)
    with pytest.raises(TypeError):
        simulate(Rules(), games=3.0)  # type: ignore[arg-type]


# ----- huge integers --------------------------------------------------------------------------

HUGE = [2**31, 2**63, 2**64, 10**30, 2**200, -(2**200)]


DOCUMENTED = (IllegalMoveError, PositionError, RecordError, RulesError)


def calls_with(value: int) -> list[tuple[str, Callable[[], object], bool]]:
    """(what the message names, the call, whether `value` is a valid value there)."""
    game = Game(Rules(), deck=["base/D", "base/E"])
    sea = Game(Rules(tile_sets=("south-seas",), friday=True), seed=1)
    ferries = Game(Rules(tile_sets=("base", "ferries")), deck=["base/D", "base/E"]).ferries
    assert ferries is not None
    u64 = 0 <= value < 2**64
    return [
        ("players", lambda: Rules(players=value), False),
        ("meeples", lambda: Rules(meeples=value), False),
        ("rotation", lambda: Rules().tile_edges("base/D", value), False),
        ("rotation", lambda: Rules().tile_features("base/D", value), False),
        ("seed", lambda: Game(Rules(), seed=value), u64),
        ("game_index", lambda: Game(Rules(), game_index=value), u64),
        ("x", lambda: Move(value, 0), False),
        ("y", lambda: Move(0, value), False),
        ("rotation", lambda: Move(0, 0, value), False),
        ("meeple", lambda: Move(0, 0, 0, meeple=value), False),
        ("ferry end", lambda: Move(0, 0, 0, ferry=(0, value)), False),
        ("ferry move", lambda: Move(0, 0, 0, ferry_moves=[(value, 0, 0, 1)]), False),
        ("islander", lambda: Move(0, 0, 0, retrieve=(0, value, 0)), False),
        ("x", lambda: game.make_move(value, 0), False),
        ("meeple", lambda: game.make_move(1, 0, 0, value), False),
        ("no tile at", lambda: game.feature_at(value, 0, 0), False),
        ("no feature", lambda: game.feature_at(0, 0, value), False),
        ("x", lambda: ferries.movable(value, 0, 0), False),
        ("rotation", lambda: ferries.movable(1, 0, value), False),
        ("slot", lambda: sea.apply(Decision.market_ship(value)), False),
        ("islander", lambda: sea.apply(Decision.take_home(value, 0, 0)), False),
        ("feature", lambda: sea.apply(Decision.take_home(0, 0, value)), False),
        ("ware", lambda: sea.apply(Decision.trade(value, 0)), False),
        ("ship", lambda: carcassonne.Delivery(value, (1, 1, 1)), False),
        ("ware count", lambda: carcassonne.Delivery(0, (value, 1, 1)), False),
        # Valid game counts beyond memory are refused as too large (naming the games).
        ("games", lambda: simulate(Rules(), games=value), False),
        ("seed", lambda: simulate(Rules(), games=1, seed=value), u64),
        ("first_game", lambda: simulate(Rules(), games=1, first_game=value), u64),
        ("threads", lambda: simulate(Rules(), games=1, threads=value), False),
        # A valid count here would be played in constant memory: not run.
        ("games", lambda: simulate_summary(Rules(), games=value), u64),
    ]


@pytest.mark.parametrize("value", HUGE)
def test_huge_integers_raise_the_documented_value_errors(value: int) -> None:
    for name, call, valid in calls_with(value):
        if valid:
            if name != "games":
                call()
            continue
        with pytest.raises(DOCUMENTED) as info:
            call()
        assert not isinstance(info.value, OverflowError)
        message = str(info.value)
        assert name in message, (name, message)
        assert len(message) < 400, message


# ----- data files ------------------------------------------------------------------------------

TILE = '[[tiles]]\nid = "{id}"\ncount = {count}\nedges = "CRFR"\nfeatures = "R(W E) ; C(N){sym} ; F(EL WR)~N ; F(ER SL SR WL)"\n'


def tiles_text(tiles: list[tuple[str, int]], symbols: str = "") -> str:
    body = "".join(TILE.format(id=i, count=c, sym=symbols) for i, c in tiles)
    return f'name = "mine"\n{body}'


def write(tmp_path: Path, text: str, name: str = "mine.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("count", [4001, 4294967295])
def test_a_huge_tile_count_is_refused_before_any_deck_is_built(tmp_path: Path, count: int) -> None:
    path = write(tmp_path, tiles_text([("D", count)]))
    start = time.perf_counter()
    with pytest.raises(TileDataError, match=f'tile "D": count must be between 1 and 4000 .*got {count}'):
        Rules(tile_sets=(path,), start_tile="mine/D")
    # Counts that are each fine but add up to too large a deck.
    path = write(tmp_path, tiles_text([("D", 3000), ("E", 3000)]))
    with pytest.raises(RulesError, match="a deck of 5999 tiles is too large"):
        Rules(tile_sets=(path,), start_tile="mine/D")
    assert time.perf_counter() - start < 1.0


def test_a_record_embedding_a_huge_count_is_refused(tmp_path: Path) -> None:
    rules = Rules(tile_sets=(write(tmp_path, tiles_text([("D", 3)])),), start_tile="mine/D")
    record = json.loads(Game(rules, seed=2).to_json())
    record["rules"]["tile_sets"][0]["file"]["toml"] = tiles_text([("D", 4294967295)])
    with pytest.raises(RecordError, match="count must be between 1 and 4000") as info:
        Game.from_json(json.dumps(record))
    assert isinstance(info.value.__cause__, TileDataError)
    assert len(json.dumps(record)) < 1_000


def test_an_oversized_data_file_is_refused_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("w") as f:
        f.write('name = "big"\n# ')
        f.write("x" * (50 << 20))  # a 50 MB line
    start = time.perf_counter()
    for kwargs in ({"tile_sets": (big,)}, {"tile_sets": ("south-seas",), "ships": big}):
        with pytest.raises(TileDataError) as info:
            Rules(**kwargs)
        message = str(info.value)
        assert f"more than the {MAX_DATA_FILE_BYTES} a data file may have" in message
        assert len(message) < 600
    with pytest.raises(TileDataError, match="more than the"):
        Rules(tile_sets=("south-seas",), friday=True, friday_tiles=big)
    assert time.perf_counter() - start < 1.0
    # Something that is not a regular file is not read either (a FIFO would block).
    (tmp_path / "dir.toml").mkdir()
    os.mkfifo(tmp_path / "fifo.toml")
    for name in ("dir.toml", "fifo.toml"):
        with pytest.raises(TileDataError, match="not a regular file"):
            Rules(tile_sets=(tmp_path / name,))


def deprecated(call: Callable[[], object]) -> object:
    """``call()``, a deprecated spelling, which must warn (and then do as before)."""
    with pytest.deprecated_call():
        return call()


def test_errors_quote_input_briefly(tmp_path: Path) -> None:
    long = "z" * 500_000
    cases: list[tuple[type[Exception], Callable[[], object]]] = [
        (TileDataError, lambda: Rules(tile_sets=(write(tmp_path, f'name = "{long}"\n[[tiles]]\n'),))),
        (TileDataError, lambda: Rules(tile_sets=(write(tmp_path, f"name = {long}\n"),))),
        (TileDataError, lambda: Rules(tile_sets=(write(tmp_path, tiles_text([(long, 1), (long, 1)])),))),
        (TileDataError, lambda: Rules(tile_sets=(write(tmp_path, tiles_text([("D", 1)]).replace("R(W E)", long)),))),
        (UnknownTileError, lambda: Game(Rules(), deck=[long])),
        (UnknownTileError, lambda: Rules(start_tile=long)),
        (RulesError, lambda: Rules(tile_sets=(long,))),
        (RulesError, lambda: Rules(ferries_edition=long)),
        (RulesError, lambda: Rules.from_json(long)),
        (RecordError, lambda: Game.from_json(long)),
        (RecordError, lambda: Game.from_json(json.dumps({"format": long}))),
        # Only the deprecated spelling names a Friday tile by id (a Decision by index).
        (IllegalMoveError, lambda: deprecated(lambda: Game(Rules(tile_sets=("south-seas",), friday=True)).move_friday(long))),
        (RulesError, lambda: simulate(Rules(), games=1, policy=long)),
    ]
    for error, call in cases:
        with pytest.raises(error) as info:
            call()
        assert len(str(info.value)) < 1_000, (error, str(info.value)[:200])


def test_tile_file_parsing_is_linear(tmp_path: Path) -> None:
    """Duplicate ids are found with a hash set: four times the tiles take about four times
    as long (a quadratic check took 9 s for 40,000 tiles)."""

    def seconds(n: int) -> float:
        path = write(tmp_path, tiles_text([(f"T{i}", 1) for i in range(n)]), f"t{n}.toml")
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            try:
                Rules(tile_sets=(path,), start_tile="mine/T0")
            except RulesError as e:  # 8,000 tiles: refused after parsing, as too large a deck
                assert "too large" in str(e)
            best = min(best, time.perf_counter() - start)
        return best

    assert len(tiles_text([(f"T{i}", 1) for i in range(8000)])) < MAX_DATA_FILE_BYTES
    small, large = seconds(2000), seconds(8000)
    assert large < 1.0, large
    assert large / small < 9, (small, large)


@pytest.mark.parametrize(("symbol", "n"), [("pennant", 256), ("wine", 300), ("cathedral", 256)])
def test_symbol_counts_that_do_not_fit_are_refused(tmp_path: Path, symbol: str, n: int) -> None:
    path = write(tmp_path, tiles_text([("D", 1)], f"+{symbol}" * n))
    with pytest.raises(TileDataError, match=f"too many \\+{symbol} symbols"):
        Rules(tile_sets=(path,), start_tile="mine/D")
    # 255 on one segment fit a segment, but not a deck's 16-bit feature totals when copied.
    path = write(tmp_path, tiles_text([("D", 300)], f"+{symbol}" * 255), "many.toml")
    with pytest.raises(RulesError, match=f"the deck holds 76500 {symbol}|the deck holds 76500 goods"):
        Rules(tile_sets=(path,), start_tile="mine/D")
    rules = Rules(tile_sets=(write(tmp_path, tiles_text([("D", 2)], f"+{symbol}" * 255), "ok.toml"),), start_tile="mine/D")
    assert rules.deck_size == 1


# ----- configurations that were silently accepted ----------------------------------------------


def test_options_of_another_rule_system_are_refused() -> None:
    with pytest.raises(RulesError, match="ships= chooses the ships of South Seas"):
        Rules(ships="south-seas")
    with pytest.raises(RulesError, match="friday_tiles= chooses the Friday tiles"):
        Rules(tile_sets=("south-seas",), friday_tiles="friday")
    with pytest.raises(RulesError, match="Friday is an expansion of South Seas"):
        Rules(friday=True)


def test_rules_json_with_an_unknown_key_is_refused() -> None:
    text = json.loads(Rules(tile_sets=("south-seas",), friday=True).to_json())
    del text["friday"]
    text["fridayy"] = True
    with pytest.raises(RulesError, match="unknown field `fridayy`"):
        Rules.from_json(json.dumps(text))


def sea_record() -> dict[str, Any]:
    game = Game(Rules(tile_sets=("south-seas",), friday=True), seed=4, game_index=2)
    while game.turn < 6:
        if game.phase == "place":
            game.play(game.legal_moves()[0])
        else:
            # The first decision listed: not delivering, the first market ship, Friday
            # target or islander to take home (``legal_actions`` lists them in that order).
            game.apply(game.legal_actions()[0])
    record: dict[str, Any] = json.loads(game.to_json())
    assert Game.from_json(json.dumps(record)).to_json() == game.to_json()
    return record


def test_records_whose_seed_does_not_match_their_orders_are_refused() -> None:
    good = sea_record()
    for key in ("deck", "ships", "friday"):
        bad = dict(good)
        bad[key] = list(reversed(good[key]))
        with pytest.raises(RecordError, match="seed 4, game 2, but its tile, ship or Friday order"):
            Game.from_json(json.dumps(bad))
    # Without a seed the orders are the record's own (a game built from a fixed deck).
    unseeded = dict(good, seed=None, deck=good["deck"][:10] + list(reversed(good["deck"][10:])))
    assert Game.from_json(json.dumps(unseeded)).turn == 6


def test_every_refused_record_is_a_record_error_with_its_cause() -> None:
    good = sea_record()
    rules = good["rules"]
    bad_records: list[tuple[dict[str, Any], type[Exception] | None, str]] = [
        (dict(good, seed=None, deck=good["deck"] * 60), RulesError, "too large"),
        (dict(good, seed=None, deck=["south-seas/NOPE"] + good["deck"][1:]), UnknownTileError, "NOPE"),
        (dict(good, rules=dict(rules, players=9)), RulesError, "players"),
        (dict(good, rules=dict(rules, ships={"file": {"path": "s.toml", "toml": "name = ["}})), TileDataError, "s.toml"),
        (dict(good, seed=None, ships=["nope"] + good["ships"][1:]), RulesError, "unknown ship id"),
        (dict(good, seed=None, ships=[good["ships"][0]] + good["ships"][:-1]), RulesError, "listed twice"),
        (dict(good, seed=None, friday=["Q"] + good["friday"][1:]), RulesError, "unknown Friday tile"),
        (dict(good, seed=None, friday=good["friday"][:1] * 6), RulesError, "listed twice"),
        (dict(good, extra=1), None, "unknown field `extra`"),
        (dict(good, rules=dict(rules, fridayy=True)), None, "unknown field `fridayy`"),
    ]
    for record, cause, fragment in bad_records:
        with pytest.raises(RecordError, match=fragment) as info:
            Game.from_json(json.dumps(record))
        if cause is None:
            continue
        assert isinstance(info.value.__cause__, cause), (fragment, type(info.value.__cause__))
    with pytest.raises(RecordError, match="more than the 16777216 a record may have"):
        Game.from_json(" " * (17 << 20))


# ----- smaller inaccuracies ---------------------------------------------------------------------


def test_phase_says_when_the_game_is_over() -> None:
    game = Game(Rules(), deck=["base/D"])
    assert game.phase == "place"
    game.play(game.legal_moves()[0])
    assert game.is_over and game.phase == "over"
    sea = Game(Rules(tile_sets=("south-seas",)), deck=[])
    assert sea.is_over and sea.phase == "over"


def test_tile_edges_use_the_letters_of_the_rule_system() -> None:
    sea = Rules(tile_sets=("south-seas",))
    start = sea.start_tile
    assert set(sea.tile_edges(start)) <= set("IBS")
    assert all(set(sea.tile_edges(t, r)) <= set("IBS") for t in sea.tile_ids() for r in range(4))
    assert Rules().tile_edges("base/D") == "CRFR"


def test_feature_kinds_of_both_systems_are_named() -> None:
    kinds = {f.kind for f in Game(Rules(tile_sets=("south-seas",)), seed=3).features()}
    game = Game(Rules(tile_sets=("south-seas",)), seed=3)
    while not game.is_over:
        if game.phase == "place":
            game.play(game.legal_moves()[-1])
        else:
            game.apply(game.legal_actions()[0])  # not delivering, or the first market ship
    kinds |= {f.kind for f in game.features()}
    assert kinds == {"bridge", "island", "market", "sea"}
    assert {f.kind for f in Game(Rules(), seed=1).features()} <= {"road", "city", "monastery", "field"}


def test_refused_calls_leave_the_game_unchanged() -> None:
    game = Game(Rules(tile_sets=("base", "ferries")), seed=8)
    for _ in range(10):
        game.play(game.legal_moves()[len(game.legal_moves()) // 2])
    ferries = game.ferries
    assert ferries is not None
    before = snapshot(game)
    for value in HUGE + [-1, 255, 4, 2**16]:
        for bad in (
            lambda: game.play(Move(value % 2**31, 0)),
            lambda: game.feature_at(value, value, value),
            lambda: ferries.movable(0, 0, value),
            lambda: game.make_move(0, 0, value),
        ):
            try:
                bad()
            except DOCUMENTED:
                pass
        assert snapshot(game) == before


# ----- one Game used from many threads ------------------------------------------------------


def test_one_game_played_searched_and_read_from_many_threads() -> None:
    """Threads playing one Game while others read it and search it: every call either
    works or raises the documented IllegalMoveError (another thread played first), never
    'Already borrowed'; the game stays consistent (its record replays to it)."""
    import threading

    game = carcassonne.Game(carcassonne.Rules(), seed=11)
    failures: list[BaseException] = []

    def player() -> None:
        for _ in range(30):
            if game.is_over:
                return
            try:
                game.play(game.legal_moves()[0])
            except carcassonne.IllegalMoveError:
                pass  # the position changed under it: documented
            except BaseException as e:  # noqa: BLE001 - collected and asserted on below
                failures.append(e)

    def reader() -> None:
        for _ in range(20):
            try:
                _ = game.scores
                game.to_json()
                game.best_move("random", seed=1)
                game.analyse(carcassonne.players.MCTS(playouts=200))
            except carcassonne.IllegalMoveError:
                pass  # over by now: GameOverError
            except BaseException as e:  # noqa: BLE001
                failures.append(e)

    threads = [threading.Thread(target=player) for _ in range(4)]
    threads += [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert carcassonne.Game.from_json(game.to_json()).to_json() == game.to_json()
