"""Training the learned evaluation by self-play: ``train`` (and ``carcassonne train``).

The method is TD(lambda) on the positions after each action, as TD-Gammon learned
backgammon: the one-ply learned player plays every seat (a random legal action with
probability ``epsilon``, so that it also sees what it would not choose), and after each
game every position it reached is moved towards its lambda-return, the outcome last. It
starts from the virtual-score lead alone (the greedy player's view). The engine plays
the games in Rust on every thread, 64 at a time with the same weights, and applies their
updates in game order: the weights after ``n`` games are the same for any number of
threads, and a training stopped and resumed gives the weights of one never stopped.

``train`` writes its weights file (``LearnedValue.save``) before it plays a game (so an
unwritable directory or a full disk fails before any work) and again after every
``every`` games: the checkpoint, from which the same call with ``resume=True`` goes on.
Ctrl-C keeps the last checkpoint. After each checkpoint's games it measures the value's
one-ply player against the greedy player over ``curve_pairs`` paired deals (the same
deals each time) and keeps the learning curve in the file: games, training seconds,
score against greedy with its 95% interval, and the Elo on the strength scale (greedy's
Elo on the system's ladder plus the match's Elo difference).
"""

from __future__ import annotations

import math
import operator
import os
import reprlib
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from carcassonne._core import CarcassonneError, Rules, max_threads, train_value
from carcassonne.files import check_output
from carcassonne.learn.value import LearnedValue, LearnedValueError, load_value

ROUND = 64
"""Games played with the same weights; ``games`` and ``every`` are multiples of it, so
that a resumed training plays the same rounds as one never stopped."""

MAX_GAMES = 100_000_000
"""The most games one training plays."""

CURVE_SEED = 4242
"""The seed of the learning curve's paired deals."""


@dataclass(frozen=True)
class TdSettings:
    """The settings of TD(lambda) self-play."""

    alpha: float = 0.01
    """The step size."""
    lambda_: float = 0.7
    """How far each target looks ahead: 0 the next position's value, 1 the outcome."""
    epsilon: float = 0.05
    """The chance of a random legal action instead of the learned one."""
    decay: int = 1024
    """The step size after ``n`` games is ``alpha * decay / (decay + n)`` (0: constant)."""

    def __post_init__(self) -> None:
        for name, value, low_open in (("alpha", self.alpha, True), ("lambda", self.lambda_, False), ("epsilon", self.epsilon, False)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise LearnedValueError(f"{name} must be a finite number, not {reprlib.repr(value)}")
            if not 0 <= value <= 1 or (low_open and value == 0):
                interval = "(0, 1]" if low_open else "[0, 1]"
                raise LearnedValueError(f"{name} must be in {interval}, got {value!r}")
        _count("decay", self.decay, 0, MAX_GAMES)


def _count(name: str, value: object, low: int, high: int) -> int:
    try:
        n = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise LearnedValueError(f"{name} must be an integer, not {type(value).__name__}") from None
    if not low <= n <= high:
        raise LearnedValueError(f"{name} must be between {low:,} and {high:,}, got {reprlib.repr(n)}")
    return n


def _system_rules(system: str) -> Rules:
    from carcassonne.rating.ladder import SYSTEMS

    if system not in SYSTEMS:
        raise LearnedValueError(f"unknown system {reprlib.repr(system)}: use one of {', '.join(SYSTEMS)}")
    return SYSTEMS[system]


def _greedy_elo(system: str) -> float | None:
    """Greedy's Elo on ``system``'s shipped ladder."""
    from carcassonne.rating.ladder import shipped_ladder

    for r in shipped_ladder(system).rungs:
        if r.spec == "Greedy()":
            return r.elo
    return None


def command(
    system: str, games: int, seed: int, td: TdSettings, every: int, curve_pairs: int, name: str, map: str | None = None
) -> str:
    """The command line that runs this training."""
    words = ["carcassonne", "train", system, "--games", str(games), "--seed", str(seed)]
    if map is not None:
        words += ["--map", map]
    default = TdSettings()
    if td.alpha != default.alpha:
        words += ["--alpha", repr(td.alpha)]
    if td.lambda_ != default.lambda_:
        words += ["--lambda", repr(td.lambda_)]
    if td.epsilon != default.epsilon:
        words += ["--epsilon", repr(td.epsilon)]
    if td.decay != default.decay:
        words += ["--decay", str(td.decay)]
    words += ["--every", str(every), "--curve-pairs", str(curve_pairs)]
    if name != "learned":
        words += ["--name", name]
    return shlex.join(words)


def train(
    system: str,
    out: str | os.PathLike[str],
    *,
    games: int = 16384,
    seed: int = 1,
    td: TdSettings | None = None,
    every: int = 2048,
    curve_pairs: int = 200,
    name: str = "learned",
    resume: bool = False,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
    map: str | os.PathLike[str] | None = None,
) -> LearnedValue:
    """Trains the learned value of ``system`` (a name of ``carcassonne.rating.SYSTEMS``)
    by ``games`` games of self-play from ``seed`` and writes it to ``out`` (see the
    module). With ``resume``, ``out`` must be a checkpoint of the same training
    (system, seed, settings, ``every``, ``curve_pairs``): it goes on from there to
    ``games`` games. ``progress`` gets a line after each checkpoint. Returns the value
    as written last. ``LearnedValueError`` naming the argument for bad input;
    ``OutputFileError`` (before any game) if ``out`` cannot be written; Ctrl-C raises
    ``KeyboardInterrupt`` with the last checkpoint in ``out``.

    ``map``, with ``maps-continental-2p``: train for another map instead (a built-in
    map's name or a map file, as ``Rules(map=...)`` takes it). Its weights file names no
    system (``shipped_value`` does not find it: pass it as ``Learned(value=...)``) and
    its curve has no Elo (the ladders are of the continental map)."""
    rules = _system_rules(system)
    if map is not None:
        if system != "maps-continental-2p":
            raise LearnedValueError(f"map goes with maps-continental-2p, not {reprlib.repr(system)}")
        try:
            rules = Rules(players=2, map=map)
        except CarcassonneError as e:
            raise LearnedValueError(f"map: {e}") from None
    # A map other than the system's own is not the system.
    recorded = system if rules == _system_rules(system) else None
    td = td if td is not None else TdSettings()
    games = _count("games", games, ROUND, MAX_GAMES)
    every = _count("every", every, ROUND, MAX_GAMES)
    seed = _count("seed", seed, 0, 2**64 - 1)
    curve_pairs = _count("curve_pairs", curve_pairs, 0, 100_000)
    for what, n in (("games", games), ("every", every)):
        if n % ROUND:
            raise LearnedValueError(f"{what} must be a multiple of {ROUND}, got {n:,}")
    if not isinstance(name, str) or not name or len(name) > 100:
        raise LearnedValueError(f"name must be a string of 1 to 100 characters, not {reprlib.repr(name)}")
    if threads is not None:
        threads = _count("threads", threads, 1, max_threads())
    used = threads if threads is not None else max_threads()
    where = check_output(out, what="weights file")
    settings = {
        "method": "td-lambda self-play, one-ply afterstates",
        "seed": seed,
        "alpha": td.alpha,
        "lambda": td.lambda_,
        "epsilon": td.epsilon,
        "decay": td.decay,
        "every": every,
        "curve_pairs": curve_pairs,
        "curve_seed": CURVE_SEED,
    }
    say = progress if progress is not None else (lambda line: None)
    greedy_elo = _greedy_elo(system) if recorded is not None else None
    # What every checkpoint records of this training besides its weights, games and curve.
    record = {
        **settings,
        "threads": used,
        "cores": os.cpu_count(),
        "command": command(
            system, games, seed, td, every, curve_pairs, name, None if map is None else os.fspath(map)
        ),
    }

    def checkpoint(weights: list[float], done: int, seconds: float, curve: list[Any]) -> LearnedValue:
        training = {**record, "games": done, "seconds": round(seconds, 3), "curve": list(curve)}
        value = LearnedValue(weights=tuple(weights), rules=rules, name=name, system=recorded, training=training)
        return _with_curve_point(value, rules, greedy_elo, threads)

    if resume and os.path.exists(where):
        value = load_value(where)
        done = value.training.get("games")
        kept = {k: value.training.get(k) for k in settings}
        if kept != settings or not value.fits(rules) or not isinstance(done, int):
            raise LearnedValueError(
                f"{where}: not a checkpoint of this training (its settings: {reprlib.repr(kept)}); "
                "give another --out or the same settings"
            )
        if done > games:
            raise LearnedValueError(f"{where}: has played {done:,} games, more than the {games:,} asked")
        say(f"resuming from {done:,} games")
    else:
        # No weights and no games: the untrained value, the virtual-score lead alone.
        untrained = train_value(rules, None, 0, 0, seed, td.alpha, td.lambda_, td.epsilon, td.decay, threads)
        value = checkpoint(untrained, 0, 0.0, [])
        value.save(where)  # fails here, before any game, on an unwritable place or a full disk
        say(_line(value))
    while value.training["games"] < games:
        done = int(value.training["games"])
        chunk = min(every, games - done)
        started = time.perf_counter()
        weights = train_value(
            rules, list(value.weights), done, chunk, seed, td.alpha, td.lambda_, td.epsilon, td.decay, threads
        )
        seconds = float(value.training["seconds"]) + time.perf_counter() - started
        value = checkpoint(weights, done + chunk, seconds, value.training["curve"])
        value.save(where)
        say(_line(value))
    return value


def _with_curve_point(value: LearnedValue, rules: Rules, greedy_elo: float | None, threads: int | None) -> LearnedValue:
    """``value`` with the curve's point of its games: its score against greedy."""
    pairs = int(value.training["curve_pairs"])
    if pairs == 0:
        return value
    from carcassonne.players import Greedy, Learned
    from carcassonne.rating.matches import match

    result = match(rules, Learned(value), Greedy(), pairs=pairs, seed=CURVE_SEED, threads=threads)
    if result.partial:
        raise KeyboardInterrupt
    e = result.estimate
    point = {
        "games": value.training["games"],
        "seconds": value.training["seconds"],
        "score": round(e.score, 4),
        "score_low": round(e.score_low, 4),
        "score_high": round(e.score_high, 4),
        "elo": None if greedy_elo is None or not math.isfinite(e.elo) else round(greedy_elo + e.elo, 1),
    }
    training = dict(value.training)
    training["curve"] = [*value.training["curve"], point]
    return LearnedValue(
        weights=value.weights, rules=value.rules, name=value.name, system=value.system, training=training
    )


def _line(value: LearnedValue) -> str:
    t = value.training
    line = f"{t['games']:,} games, {t['seconds']:,.0f} s"
    if t["curve"]:
        p = t["curve"][-1]
        line += f"; against greedy {p['score']:.3f} [{p['score_low']:.3f}, {p['score_high']:.3f}]"
        if p["elo"] is not None:
            line += f", Elo {p['elo']:.0f}"
    return line


__all__ = ["CURVE_SEED", "MAX_GAMES", "ROUND", "TdSettings", "command", "train"]
