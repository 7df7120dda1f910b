"""Paired matches between two players: every deal played once with each seating, so that
neither the luck of the deal nor the first seat's advantage favours one side; and the
sequential test (SPRT) played as a series of such matches until it decides.

A deal is game ``i`` of a study (``simulate(rules, ..., seed=seed)``): its tile order, its
ships and Friday tiles, and the random stream every built-in player draws from are fixed
by ``(seed, i)`` whoever sits where. A two-player match plays deal ``i`` as game ``i`` of
``simulate(rules, pairs, seed=seed, players=[a, b])`` and as game ``i`` of
``simulate(rules, pairs, seed=seed, players=[b, a])``: one *pair*. With ``n`` seats (3 to
6), deal ``i`` is played ``n`` times, player ``a`` in seat ``r`` and ``b`` in every other
seat for ``r = 0 .. n - 1``: the *pair* is then those ``n`` games.

>>> from carcassonne import Rules
>>> from carcassonne.rating.matches import match
>>> result = match(Rules(), "greedy", "random", pairs=100, seed=1)
>>> result.estimate.score > 0.8       # greedy wins most games against random
True
"""

from __future__ import annotations

import dataclasses
import math
import operator
import reprlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from carcassonne import _reprs
from carcassonne import players as _players
from carcassonne._core import CarcassonneError, Rules, max_threads
from carcassonne.rating.errors import RatingError
from carcassonne.rating.pentanomial import Estimate, counts, estimate, score_to_elo
from carcassonne.rating.sequential import SPRT
from carcassonne.study.batches import TARGET_SECONDS
from carcassonne.study.play import simulate
from carcassonne.study.results import SimulationResult

MAX_PAIRS = 10_000_000
"""The most pairs one match plays: its outcomes and margins (16 bytes a pair) stay in
memory, 160 MB at most."""

_LAST_GAME = 2**64 - 1
"""The largest game index (and seed) the engine takes."""

CONFIDENCE = 0.95
"""The coverage of a match's intervals (score, Elo, margin)."""

Progress = Callable[[int, int], None]
"""A progress callback: called after each batch with (pairs done, pairs asked for)."""


@dataclass(frozen=True)
class MatchResult:
    """What a paired match of player ``a`` against player ``b`` gave, for ``a``.

    Two seats: ``outcomes[i]`` is a's win share summed over the two games of pair ``i``
    (0, 0.5, 1, 1.5 or 2; a tie counts half a win), and ``estimate`` the pentanomial
    estimate of a's score per game, with the 95% interval from the variance of the pairs
    (the two games of a pair are not independent) and the logistic Elo difference
    ``-400 log10(1/score - 1)`` with its interval mapped from the score's. Swapping ``a``
    and ``b`` mirrors it exactly: score ``1 - s``, Elo negated, margins negated.

    ``n`` seats (3 to 6): ``outcomes[i]`` is a's win share summed over the ``n`` games of
    deal ``i`` (0 to ``n``; its fair value, with a and b equally strong, is 1), and
    ``win_share`` a's mean share per game (fair: ``1/n``). ``estimate`` reads it as a
    head-to-head score through the Luce model of the winner (a wins a game with
    probability ``g_a / (g_a + (n - 1) g_b)``, which for two seats is Bradley-Terry): the
    score ``q = g_a / (g_a + g_b) = s (n - 1) / (s (n - 1) + 1 - s)`` for a share ``s``,
    and the Elo ``400 log10(g_a / g_b)``, comparable with a two-player Elo under that
    model. The interval of ``s`` comes from the variance of the per-deal outcomes (normal
    approximation) and is mapped to ``q`` and the Elo; ``estimate.counts`` sorts the deals
    into the five pentanomial classes by ``2 q`` of each deal's own share (0 to 2, a
    fair deal 1; rounded as ``pentanomial.counts`` rounds), a summary only: the interval
    uses the exact outcomes. Swapping ``a`` and ``b`` is then another experiment (one b against a field
    of a's), not a mirror.

    ``margins[i]`` is a's score minus b's, summed over the games of pair ``i`` (with
    ``n`` seats, minus the mean score of the ``n - 1`` seats b holds); ``margin`` is its
    mean per game with a 95% normal interval from the pairs' variance. ``partial`` is True
    when Ctrl-C stopped the match: the pairs are those finished in every seating.
    Deterministic: the same arguments give the same outcomes for any thread count."""

    rules: Rules
    players: tuple[str, str]
    """The names of a and b, as the engine names them ("greedy", "mcts(playouts=...)")."""
    seed: int
    first_game: int
    """The first deal's game index: pairs ``first_game .. first_game + pairs`` were played."""
    outcomes: npt.NDArray[np.float64]
    """(pairs,) a's win share summed over each pair's games."""
    margins: npt.NDArray[np.float64]
    """(pairs,) a's score minus b's (with more seats: b's mean), summed over each pair."""
    estimate: Estimate
    """a's score per game and Elo difference, with 95% intervals from the pairs."""
    margin: float
    """a's mean score margin per game."""
    margin_low: float
    margin_high: float
    seconds: float
    """Wall-clock seconds the match took."""
    partial: bool = False
    """True if Ctrl-C stopped the match before every pair was played."""

    @property
    def pairs(self) -> int:
        """The number of pairs (deals) played in every seating."""
        return int(self.outcomes.shape[0])

    @property
    def seats(self) -> int:
        """The seats of a game, and so the games of a pair."""
        return int(self.rules.players)

    @property
    def win_share(self) -> float:
        """a's mean win share per game (a tie counts ``1/k`` to each of the ``k`` tied);
        its fair value is ``1 / seats``. With two seats it is ``estimate.score``."""
        return float(self.outcomes.mean()) / self.seats if self.pairs else math.nan

    def link(self) -> tuple[str, str, float, int]:
        """This match as one entry of a ladder (``bradley_terry.fit``): ``(a, b, a's
        total win share, games)``. Two seats only (a ladder's games are head-to-head):
        ``RatingError`` otherwise."""
        if self.seats != 2:
            raise RatingError(f"link: a ladder takes two-player matches, this one has {self.seats} seats")
        return self.players[0], self.players[1], float(self.outcomes.sum()), 2 * self.pairs

    def __repr__(self) -> str:
        """``MatchResult(greedy vs random, pairs=200, score=0.91 [0.88, 0.94], ...)``: the
        players, then the estimates to the precision their intervals support (every digit
        stays in the fields)."""
        a, b = self.players
        e = self.estimate
        shown = [
            f"{a} vs {b}",
            f"pairs={self.pairs}",
            f"score={_reprs.interval(e.score, e.score_low, e.score_high)}",
            f"elo={_reprs.interval(e.elo, e.elo_low, e.elo_high)}",
            f"margin={_reprs.interval(self.margin, self.margin_low, self.margin_high)}",
            f"partial={self.partial}",
            f"seconds={_reprs.number(self.seconds)}",
            f"seed={self.seed}",
        ]
        if self.first_game:
            shown.append(f"first_game={self.first_game}")
        shown.append(f"rules={self.rules!r}")
        return f"MatchResult({', '.join(shown)})"


def match(
    rules: Rules,
    a: _players.PlayerLike,
    b: _players.PlayerLike,
    pairs: int = 1000,
    *,
    seed: int = 0,
    first_game: int = 0,
    threads: int | None = None,
    progress: bool | Progress | None = None,
) -> MatchResult:
    """Plays ``pairs`` deals of ``rules`` between players ``a`` and ``b``, each deal once
    in every seating (two seats: ``[a, b]`` then ``[b, a]``; ``n`` seats: a in each seat in
    turn, b in the others), and returns a's result (``MatchResult``: its score and Elo
    with 95% intervals, per-pair outcomes and margins).

    ``a`` and ``b`` are anything ``simulate``'s ``players`` takes for one seat: a name
    ("random", "greedy", "mcts"), a ``carcassonne.players`` settings object, or a function
    ``game -> action``. Deals ``first_game .. first_game + pairs`` of study ``seed`` are
    played (a longer match over the same seed extends a shorter one). ``threads`` as in
    ``simulate``: the result never depends on it. ``progress=True`` shows a tqdm bar of
    the pairs on stderr; a function is called after each batch of pairs with (pairs done,
    pairs).

    The pairs are played in batches of about half a second, every seating of a batch
    before the next batch, so that Ctrl-C returns at once the pairs finished in every
    seating, with ``partial=True`` (the batch in flight is dropped). Bad arguments (a
    player the rules cannot seat, ``pairs`` not an integer from 1 to ``MAX_PAIRS``, a
    seed or deal range the engine refuses) raise ``RatingError`` naming the argument,
    before any game is played."""
    rules, names, lineups, count, seed, first = _check(rules, a, b, pairs, seed, first_game, threads)
    report = _progress(progress, count)
    start = time.perf_counter()
    outcomes: list[npt.NDArray[np.float64]] = []
    margins: list[npt.NDArray[np.float64]] = []
    done = 0
    partial = False
    # At least one deal per thread in every batch, so that no thread idles when a single
    # deal takes longer than a batch should (MCTS rungs); the first batch measures the speed.
    smallest = threads if threads else max(1, max_threads() // 4)
    size = smallest
    try:
        while done < count:
            n = min(size, count - done)
            batch_start = time.perf_counter()
            games = [simulate(rules, n, seed=seed, players=lineup, threads=threads, first_game=first + done) for lineup in lineups]
            batch_outcomes, batch_margins = _pair_results(games)
            # One append each, after the whole batch: an interrupt leaves both lists equal.
            outcomes.append(batch_outcomes)
            margins.append(batch_margins)
            done += n
            if report is not None:
                report(done, count)
            seconds = time.perf_counter() - batch_start
            # Batches of about TARGET_SECONDS (every seating), growing at most 4-fold.
            rate = n / seconds if seconds > 0 else math.inf
            size = max(smallest, min(4 * n, int(rate * TARGET_SECONDS)))
    except KeyboardInterrupt:
        partial = True
    finally:
        if isinstance(report, _Bar):
            report.close()
    kept = min(len(outcomes), len(margins))
    return _result(
        rules,
        names,
        seed,
        first,
        np.concatenate(outcomes[:kept]) if kept else np.zeros(0),
        np.concatenate(margins[:kept]) if kept else np.zeros(0),
        time.perf_counter() - start,
        partial,
    )


@dataclass(frozen=True)
class SPRTResult:
    """What a sequential test of ``a`` against ``b`` (``sprt``) decided.

    ``decision`` is "H1" (a is at least ``elo1`` stronger: the log-likelihood ratio
    reached ``upper``), "H0" (at most ``elo0``: it reached ``lower``) or None (stopped at
    ``max_pairs`` or by Ctrl-C, ``partial``, before either bound). ``match`` holds every
    pair played, as one match over deals ``0 .. pairs`` of the seed would."""

    decision: Literal["H0", "H1"] | None
    llr: float
    """The log-likelihood ratio of the pairs played (generalised SPRT, pentanomial)."""
    lower: float
    """The log bound at or below which H0 is accepted: ``log(beta / (1 - alpha))``."""
    upper: float
    """The log bound at or above which H1 is accepted: ``log((1 - beta) / alpha)``."""
    elo0: float
    elo1: float
    alpha: float
    beta: float
    match: MatchResult

    @property
    def pairs(self) -> int:
        """The pairs played."""
        return self.match.pairs

    @property
    def estimate(self) -> Estimate:
        """a's score and Elo over every pair played, with 95% intervals (not corrected
        for the early stop: a sequential test's estimate is slightly biased towards the
        bound it reached)."""
        return self.match.estimate

    @property
    def partial(self) -> bool:
        """True if Ctrl-C stopped the test."""
        return self.match.partial

    def __repr__(self) -> str:
        """``SPRTResult(H1, llr=2.95 [-2.94, 2.94], pairs=800, ...)``: short, every digit in
        the fields."""
        a, b = self.match.players
        e = self.estimate
        return (
            f"SPRTResult({self.decision}, {a} vs {b}, elo0={_reprs.number(self.elo0)}, "
            f"elo1={_reprs.number(self.elo1)}, llr={_reprs.number(self.llr)} "
            f"[{_reprs.number(self.lower)}, {_reprs.number(self.upper)}], pairs={self.pairs}, "
            f"score={_reprs.interval(e.score, e.score_low, e.score_high)}, "
            f"elo={_reprs.interval(e.elo, e.elo_low, e.elo_high)}, partial={self.partial}, "
            f"seed={self.match.seed})"
        )


ASSUMED_VARIANCE = 0.5
"""The variance of a pair's score (0 to 2, as ``pentanomial.PAIR_SCORES``) that ``sprt``
assumes for its forecast before any pair is played: that of two independent games between
equal players with no ties (``2 * 0.25``). A pair's games are not independent: where the
deal or the seat favours one side, the swapped seats make them go opposite ways and the
variance is lower (a shorter test); where the same player tends to win both, higher. The
forecast is a guide to the order of magnitude, not a promise."""


def sprt(
    rules: Rules,
    a: _players.PlayerLike,
    b: _players.PlayerLike,
    *,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_pairs: int = 100_000,
    batch: int = 200,
    seed: int = 0,
    threads: int | None = None,
    log: Callable[[str], Any] | None = print,
) -> SPRTResult:
    """Tests whether ``a`` is ``elo0`` (H0) or ``elo1`` (H1) logistic Elo stronger than
    ``b`` in two-player ``rules``, playing paired matches (``match``) ``batch`` pairs at a
    time until the generalised SPRT on the pentanomial model decides (``SPRT``), or
    ``max_pairs`` are played. ``alpha`` is the chance of accepting H1 when H0 holds,
    ``beta`` that of accepting H0 when H1 holds.

    Batch ``k`` plays deals ``k * batch ..`` of study ``seed`` (``match``'s
    ``first_game``), so every batch has new deals and the pairs played are exactly those of
    ``match(rules, a, b, pairs, seed=seed)``: the test is deterministic for a seed, at any
    thread count. ``log`` (default ``print``; None for silence) gets the forecast of the
    pairs needed before the first batch (Wald's approximation, ``SPRT.expected_pairs``, at
    ``ASSUMED_VARIANCE``), then the LLR and its bounds after each batch, then the decision.
    Ctrl-C returns the pairs finished, ``partial=True``. Bad arguments raise
    ``RatingError`` naming the argument, before any game is played."""
    if not isinstance(rules, Rules):
        raise RatingError(f"rules must be a carcassonne.Rules, not {type(rules).__name__}")
    if int(rules.players) != 2:
        raise RatingError(
            f"sprt tests two-player games (the pentanomial model of a pair), not {int(rules.players)} seats: "
            "use match() for more seats"
        )
    limit = _count("max_pairs", max_pairs)
    step = _count("batch", batch)
    try:
        test = SPRT(elo0, elo1, alpha=alpha, beta=beta)
    except RatingError:
        raise
    except (TypeError, ValueError) as e:
        raise RatingError(str(e)) from None
    # Every argument of the matches to come, checked once with the whole deal range.
    _, names, _, _, seed, _ = _check(rules, a, b, limit, seed, 0, threads)
    say: Callable[[str], Any] = log if log is not None else (lambda _: None)
    label = f"sprt {names[0]} vs {names[1]}"
    say(
        f"{label}: H0 elo {elo0:g}, H1 elo {elo1:g}, alpha {alpha:g}, beta {beta:g}: stops when the LLR "
        f"leaves [{test.lower:.3g}, {test.upper:.3g}] or after {limit} pairs; expected pairs (Wald, at the "
        f"assumed per-pair variance {ASSUMED_VARIANCE:g}) {test.expected_pairs(elo0, ASSUMED_VARIANCE):.0f} "
        f"if H0 holds, {test.expected_pairs(elo1, ASSUMED_VARIANCE):.0f} if H1 holds"
    )
    parts: list[MatchResult] = []
    decision: Literal["H0", "H1"] | None = None
    partial = False
    try:
        while sum(p.pairs for p in parts) < limit:
            done = sum(p.pairs for p in parts)
            part = match(rules, a, b, min(step, limit - done), seed=seed, first_game=done, threads=threads)
            if part.pairs:
                parts.append(part)
            whole = _join(parts, rules, names, seed)
            tally = counts(whole.outcomes)
            decision = test.decide(tally)
            so_far = whole.estimate
            say(
                f"{label}: {whole.pairs} pairs, LLR {test.llr(tally):.3g} in [{test.lower:.3g}, {test.upper:.3g}], "
                f"score {_reprs.interval(so_far.score, so_far.score_low, so_far.score_high)}, "
                f"elo {_reprs.interval(so_far.elo, so_far.elo_low, so_far.elo_high)}"
            )
            if part.partial:
                partial = True
                break
            if decision is not None:
                break
    except KeyboardInterrupt:
        partial = True
    whole = _join(parts, rules, names, seed)
    if partial:
        whole = dataclasses.replace(whole, partial=True)
    tally = counts(whole.outcomes)
    decision = test.decide(tally)
    say(
        f"{label}: {decision or 'no decision'} after {whole.pairs} pairs"
        + (" (interrupted)" if partial else "")
    )
    return SPRTResult(
        decision=decision,
        llr=test.llr(tally),
        lower=test.lower,
        upper=test.upper,
        elo0=float(elo0),
        elo1=float(elo1),
        alpha=float(alpha),
        beta=float(beta),
        match=whole,
    )


def _join(parts: Sequence[MatchResult], rules: Rules, names: tuple[str, str], seed: int) -> MatchResult:
    """Consecutive matches (deal ranges one after another) as one match."""
    outcomes = np.concatenate([p.outcomes for p in parts]) if parts else np.zeros(0)
    margins = np.concatenate([p.margins for p in parts]) if parts else np.zeros(0)
    seconds = sum(p.seconds for p in parts)
    return _result(rules, names, seed, 0, outcomes, margins, seconds, any(p.partial for p in parts))


def _check(
    rules: Rules, a: Any, b: Any, pairs: Any, seed: Any, first_game: Any, threads: Any
) -> tuple[Rules, tuple[str, str], list[list[Any]], int, int, int]:
    """The checked arguments of a match: rules, the players' names, one lineup per
    seating, the pair count, the seed and the first deal. Raises RatingError naming the
    argument; plays no game."""
    if not isinstance(rules, Rules):
        raise RatingError(f"rules must be a carcassonne.Rules, not {type(rules).__name__}")
    seats = int(rules.players)
    parsed = []
    for name, player in (("a", a), ("b", b)):
        try:
            parsed.append(_players.parse(player))
        except CarcassonneError as e:
            raise RatingError(f"player {name}: {e}") from None
    count = _count("pairs", pairs)
    seed = _index("seed", seed)
    first = _index("first_game", first_game)
    if first + count > _LAST_GAME + 1:
        raise RatingError(
            f"first_game {first} + pairs {count} go past the last game index, 2**64 - 1"
        )
    # Seat a in seat r, b in every other seat.
    lineups = [[parsed[0] if seat == r else parsed[1] for seat in range(seats)] for r in range(seats)]
    try:
        # No game: the engine's own checks of the line-up, the seed and the threads.
        empty = simulate(rules, 0, seed=seed, players=lineups[0], threads=threads, first_game=first)
    except CarcassonneError as e:
        raise RatingError(str(e)) from None
    return rules, (empty.players[0], empty.players[1]), lineups, count, seed, first


def _count(what: str, value: Any) -> int:
    """A count of pairs from 1 to ``MAX_PAIRS``."""
    return _integer(what, value, 1, MAX_PAIRS, str(MAX_PAIRS))


def _index(what: str, value: Any) -> int:
    """A seed or game index: an integer from 0 to 2**64 - 1."""
    return _integer(what, value, 0, _LAST_GAME, "2**64 - 1")


def _integer(what: str, value: Any, low: int, high: int, high_text: str) -> int:
    """``value`` as an integer from ``low`` to ``high`` (``high_text`` in the message),
    else ``RatingError`` naming ``what``; a bool is not an integer here."""
    if isinstance(value, bool):
        raise RatingError(f"{what} must be an integer, not bool")
    try:
        n = operator.index(value)
    except TypeError:
        raise RatingError(f"{what} must be an integer, not {type(value).__name__}") from None
    if not low <= n <= high:
        raise RatingError(f"{what} must be between {low} and {high_text}, got {reprlib.repr(n)}")
    return n


def _pair_results(games: Sequence[SimulationResult]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """a's summed win share and summed margin per deal, from one result per seating
    (seating ``r`` has a in seat ``r``)."""
    seats = len(games)
    outcomes = np.zeros(games[0].games)
    margins = np.zeros(games[0].games)
    for r, g in enumerate(games):
        outcomes += g.win_shares()[:, r]
        scores = g.scores.astype(np.float64)
        others = (scores.sum(axis=1) - scores[:, r]) / (seats - 1)
        margins += scores[:, r] - others
    return outcomes, margins


def _result(
    rules: Rules,
    names: tuple[str, str],
    seed: int,
    first_game: int,
    outcomes: npt.NDArray[np.float64],
    margins: npt.NDArray[np.float64],
    seconds: float,
    partial: bool,
) -> MatchResult:
    """A match's result from its per-pair outcomes and margins."""
    seats = int(rules.players)
    margin, low, high = _mean_interval(margins / seats)
    return MatchResult(
        rules=rules,
        players=names,
        seed=seed,
        first_game=first_game,
        outcomes=outcomes,
        margins=margins,
        estimate=_estimate(outcomes, seats),
        margin=margin,
        margin_low=low,
        margin_high=high,
        seconds=seconds,
        partial=partial,
    )


def _mean_interval(values: npt.NDArray[np.float64]) -> tuple[float, float, float]:
    """The mean with its normal interval at ``CONFIDENCE`` (sample standard deviation);
    NaN bounds with fewer than two values."""
    n = values.shape[0]
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = float(values.mean())
    if n < 2:
        return mean, math.nan, math.nan
    half = _z() * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half


def _z() -> float:
    return NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)


def _estimate(outcomes: npt.NDArray[np.float64], seats: int) -> Estimate:
    """a's estimate from the pairs' outcomes: the pentanomial one with two seats, else
    against a field of ``seats - 1`` b's (see ``MatchResult``). Fewer than two pairs (a
    match stopped at once) have no interval: NaN bounds (and NaN estimates for none)."""
    if seats == 2 and outcomes.shape[0] >= 2:
        return estimate(counts(outcomes), CONFIDENCE)
    # On the scale of a deal's outcome x (0 to n, fair 1): the share per game is x / n.
    mean, low, high = _mean_interval(outcomes)
    # Clipped to the outcomes possible (a NaN bound stays NaN: max(0.0, nan) would not).
    low, high = float(np.clip(low, 0.0, seats)), float(np.clip(high, 0.0, seats))

    def head_to_head(x: float) -> float:
        # q = g_a / (g_a + g_b), where x / n = g_a / (g_a + (n - 1) g_b); written in x so
        # that the fair x = 1 gives exactly 0.5 (and Elo 0); for two seats q = x / 2.
        if math.isnan(x):
            return math.nan
        return x * (seats - 1) / (x * (seats - 1) + seats - x)

    q, q_low, q_high = head_to_head(mean), head_to_head(low), head_to_head(high)
    # Each deal as a pair's score (0 to 2, fair 1: twice its own head-to-head score) in
    # the five pentanomial classes: a summary only, the interval above comes from the
    # exact outcomes.
    # (The denominator x (n - 2) + n is never 0.)
    per_deal = 2 * outcomes * (seats - 1) / (outcomes * (seats - 1) + seats - outcomes)
    c = counts(np.clip(per_deal, 0.0, 2.0))
    return Estimate(
        pairs=int(outcomes.shape[0]),
        counts=(int(c[0]), int(c[1]), int(c[2]), int(c[3]), int(c[4])),
        score=q,
        score_low=q_low,
        score_high=q_high,
        elo=_elo(q),
        elo_low=_elo(q_low),
        elo_high=_elo(q_high),
        confidence=CONFIDENCE,
    )


def _elo(score: float) -> float:
    return math.nan if math.isnan(score) else float(score_to_elo(score))


class _Bar:
    """A tqdm bar counting pairs on stderr."""

    def __init__(self, pairs: int) -> None:
        try:
            from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]
        except ImportError:
            raise ImportError(
                "progress=True needs tqdm: pip install 'carcassonne[progress]' (or leave progress off)"
            ) from None
        import sys

        self._bar = tqdm(total=pairs, desc="match", unit="pair", file=sys.stderr)
        self._done = 0

    def __call__(self, done: int, pairs: int) -> None:
        self._bar.update(done - self._done)
        self._done = done

    def close(self) -> None:
        self._bar.close()


def _progress(progress: bool | Progress | None, pairs: int) -> Progress | None:
    """The progress callback: none, a tqdm bar, or the caller's function."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return _Bar(pairs)
    if callable(progress):
        return progress
    raise RatingError(f"progress must be True, False, None or a function (done, pairs), not {type(progress).__name__}")


__all__ = ["CONFIDENCE", "MAX_PAIRS", "ASSUMED_VARIANCE", "MatchResult", "SPRTResult", "match", "sprt"]
