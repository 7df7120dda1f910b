"""Results of balance studies: one row per game (``SimulationResult``), exact running
totals (``StudyTotals``, ``StudySummary``) and the per-seat summary of either. What a
study holds, apart from how it is played (``carcassonne.study.play``) or stored
(``carcassonne.study.results_file``, reached through ``carcassonne.study._io``, so that
this module imports neither)."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from carcassonne import _reprs
from carcassonne.study import _io
from carcassonne._core import ENGINE_VERSION, RULES_VERSION, SCORE_KINDS, Rules

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class SeatSummary:
    """Statistics of one seat (0 = first player) over a study."""

    seat: int
    win_rate: float
    """Share of games won; a win shared by k players counts 1/k for each."""
    win_rate_low: float
    win_rate_high: float
    """95% confidence interval of ``win_rate``: Wilson's score interval, the same as
    ``stats.win_shares`` and ``stats.first_seat_advantage`` give."""
    mean_score: float
    score_sd: float

    def __repr__(self) -> str:
        """Every field, floats rounded to a few significant digits (``asdict`` keeps them all)."""
        return _reprs.fields(self)


@dataclass(frozen=True)
class StudyTotals:
    """Exact sums over the games of a study, per seat: everything the seat statistics and
    the command line's report need, in constant memory for any number of games. Win shares
    (1/k for each of k tied winners) are counted in units of 1/``win_share_unit``."""

    games: int
    win_share_unit: int
    win_shares: tuple[int, ...]
    win_shares_squared: tuple[int, ...]
    scores: tuple[int, ...]
    scores_squared: tuple[int, ...]
    points_by_kind: tuple[tuple[int, ...], ...]
    """(players, kinds) total points by kind, kinds in ``SCORE_KINDS`` order."""
    ships: tuple[int, ...]
    wares_left: tuple[int, ...]
    turns: int
    discarded: int
    win_share_products: tuple[tuple[int, ...], ...] = ()
    """(players, players): sums of the products of two seats' win shares (units squared),
    for the covariances of a test of all seats at once."""
    score_products: tuple[tuple[int, ...], ...] = ()
    """(players, players): sums of the products of two seats' scores."""
    margins: int = 0
    """Sum of the margin of victory: the top score minus the runner-up's (0 on a tie)."""
    margins_squared: int = 0
    ranges: int = 0
    """Sum of the spread within a game: the top score minus the bottom score."""
    ranges_squared: int = 0
    ties: int = 0
    """Games won by more than one player."""

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StudyTotals:
        """Totals from the dict the native ``simulate_totals`` returns."""
        return cls(
            games=int(d["games"]),
            win_share_unit=int(d["win_share_unit"]),
            win_shares=tuple(int(v) for v in d["win_shares"]),
            win_shares_squared=tuple(int(v) for v in d["win_shares_squared"]),
            scores=tuple(int(v) for v in d["scores"]),
            scores_squared=tuple(int(v) for v in d["scores_squared"]),
            points_by_kind=tuple(tuple(int(v) for v in row) for row in d["points_by_kind"]),
            ships=tuple(int(v) for v in d["ships"]),
            wares_left=tuple(int(v) for v in d["wares_left"]),
            turns=int(d["turns"]),
            discarded=int(d["discarded"]),
            win_share_products=tuple(tuple(int(v) for v in row) for row in d["win_share_products"]),
            score_products=tuple(tuple(int(v) for v in row) for row in d["score_products"]),
            margins=int(d["margins"]),
            margins_squared=int(d["margins_squared"]),
            ranges=int(d["ranges"]),
            ranges_squared=int(d["ranges_squared"]),
            ties=int(d["ties"]),
        )

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.scores)

    def __add__(self, other: StudyTotals) -> StudyTotals:
        """The totals of both sets of games (of the same number of seats)."""
        if (self.players, self.win_share_unit) != (other.players, other.win_share_unit):
            raise ValueError("totals of studies with different seats cannot be added")

        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b))

        return StudyTotals(
            games=self.games + other.games,
            win_share_unit=self.win_share_unit,
            win_shares=add(self.win_shares, other.win_shares),
            win_shares_squared=add(self.win_shares_squared, other.win_shares_squared),
            scores=add(self.scores, other.scores),
            scores_squared=add(self.scores_squared, other.scores_squared),
            points_by_kind=tuple(add(a, b) for a, b in zip(self.points_by_kind, other.points_by_kind)),
            ships=add(self.ships, other.ships),
            wares_left=add(self.wares_left, other.wares_left),
            turns=self.turns + other.turns,
            discarded=self.discarded + other.discarded,
            win_share_products=tuple(add(a, b) for a, b in zip(self.win_share_products, other.win_share_products)),
            score_products=tuple(add(a, b) for a, b in zip(self.score_products, other.score_products)),
            margins=self.margins + other.margins,
            margins_squared=self.margins_squared + other.margins_squared,
            ranges=self.ranges + other.ranges,
            ranges_squared=self.ranges_squared + other.ranges_squared,
            ties=self.ties + other.ties,
        )

    def seats(self) -> list[SeatSummary]:
        """Win rate with a 95% Wilson interval, mean and spread of score, per seat."""
        n = self.games
        unit = self.win_share_unit
        out = []
        for seat in range(self.players):
            rate = _mean(self.win_shares[seat], n, unit)
            low, high = _wilson_95(rate, n)
            out.append(
                SeatSummary(
                    seat=seat,
                    win_rate=rate,
                    win_rate_low=low,
                    win_rate_high=high,
                    mean_score=_mean(self.scores[seat], n),
                    score_sd=_sd(self.scores[seat], self.scores_squared[seat], n),
                )
            )
        return out

    def mean_turns(self) -> float:
        """Turns per game."""
        return _mean(self.turns, self.games)

    def mean_discarded(self) -> float:
        """Tiles discarded (fitting nowhere) per game."""
        return _mean(self.discarded, self.games)

    def mean_ships(self) -> float:
        """Ships taken per player and game (South Seas)."""
        return _mean(sum(self.ships), self.games * self.players)

    def mean_wares_left(self) -> float:
        """Wares left per player and game (South Seas)."""
        return _mean(sum(self.wares_left), self.games * self.players)


def margins_and_ranges(scores: npt.NDArray[Any]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per game: the margin of victory (top score minus runner-up, 0 on a tie) and the
    spread (top minus bottom); zeros for one-seat games."""
    s = np.sort(scores.astype(np.int64), axis=1)
    if s.shape[1] < 2:
        zero = np.zeros(s.shape[0], dtype=np.int64)
        return zero, zero.copy()
    return s[:, -1] - s[:, -2], s[:, -1] - s[:, 0]


def _wilson_95(share: float, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval of a share of ``n`` games, computed exactly as
    ``stats.wilson`` computes it (which this module cannot import: stats builds on it), so
    that a seat's interval is the same whichever of them gives it; NaN for no games."""
    if n < 1:
        return math.nan, math.nan
    z2 = Z_95 * Z_95
    denominator = 1 + z2 / n
    centre = (share + z2 / (2 * n)) / denominator
    half = Z_95 / denominator * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    low = 0.0 if share == 0.0 else max(0.0, min(share, centre - half))
    high = 1.0 if share == 1.0 else min(1.0, max(share, centre + half))
    return low, high


def _products(values: npt.NDArray[np.int64]) -> tuple[tuple[int, ...], ...]:
    """Sums of the products of every two columns, exactly: in 64 bits, which holds the
    sums of 10**12 games of scores up to 3,000 (rows in memory are far fewer)."""
    out = values.T @ values
    return tuple(tuple(int(v) for v in row) for row in out)


def _mean(total: int, n: int, unit: int = 1) -> float:
    """total / (n * unit), rounded once (exact integers in, nearest float out)."""
    return float(Fraction(total, n * unit)) if n else math.nan


def _sd(total: int, squares: int, n: int, unit: int = 1) -> float:
    """Sample standard deviation (n - 1) of n values with the given sum and sum of squares,
    each value counted in 1/unit: worked out exactly, rounded once before the root."""
    if n < 2:
        return math.nan
    variance = Fraction(n * squares - total * total, n * (n - 1) * unit * unit)
    return math.sqrt(float(variance))


@dataclass(frozen=True)
class StudySummary:
    """A study kept as totals (``simulate_summary``, or ``SimulationResult.summary()``),
    plus what is needed to reproduce it."""

    rules: Rules
    seed: int
    first_game: int
    policy: str
    threads: int
    elapsed_seconds: float
    totals: StudyTotals
    rules_version: int = RULES_VERSION
    engine_version: str = ENGINE_VERSION
    players: tuple[str, ...] = ()
    """The name of the player in each seat ("random", "mcts(playouts=1000,c=0.1,cutoff=8)", ...)."""
    started_at: float = math.nan
    """When the study started (Unix time, ``time.time()``); NaN if unknown."""
    interrupted: bool = False
    """True if the study was stopped (Ctrl-C) and these are the games played until then
    (``partial=True``)."""

    @classmethod
    def concat(cls, parts: Sequence[StudySummary]) -> StudySummary:
        """Joins the totals of batches of one study, as ``SimulationResult.concat`` joins
        rows (the same checks; ``elapsed_seconds`` is the wall-clock time)."""
        ordered = _consecutive(parts)
        head = ordered[0]
        totals = ordered[0].totals
        for part in ordered[1:]:
            totals = totals + part.totals
        return cls(
            rules=head.rules,
            seed=head.seed,
            first_game=head.first_game,
            policy=head.policy,
            threads=max(p.threads for p in ordered),
            elapsed_seconds=_wall_clock(ordered),
            totals=totals,
            players=head.players,
            started_at=min(p.started_at for p in ordered) if _timed(ordered) else math.nan,
            interrupted=any(p.interrupted for p in ordered),
        )

    @property
    def games(self) -> int:
        """Number of games played."""
        return self.totals.games

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time (inf when none was measured)."""
        return self.games / self.elapsed_seconds if self.elapsed_seconds > 0 else math.inf

    def seats(self) -> list[SeatSummary]:
        """Win rate with a 95% Wilson interval, mean and spread of score, per seat."""
        return self.totals.seats()

    def __repr__(self) -> str:
        """The number of games, then every field, floats rounded (``asdict`` keeps them all)."""
        return _reprs.fields(self, games=self.games)

    def metadata(self) -> dict[str, Any]:
        """What reproduces this study: rules, seed, game range, policy, versions."""
        return _metadata(self)


def _metadata(study: StudySummary | SimulationResult) -> dict[str, Any]:
    """What reproduces and describes a study, as JSON values: the same in memory and in a
    results file (which adds only its format, layout and checksum)."""
    return {
        "rules": study.rules.to_json(),
        "seed": study.seed,
        "first_game": study.first_game,
        "games": study.games,
        "seats": study.rules.players,
        "policy": study.policy,
        "players": list(study.players),
        "rules_version": study.rules_version,
        "engine_version": study.engine_version,
        "rng": "xoshiro256** seeded by SplitMix64 from (seed, game index)",
        "interrupted": study.interrupted,
        "threads": study.threads,
        "elapsed_seconds": study.elapsed_seconds,
        # JSON has no NaN: an unknown start is null.
        "started_at": None if math.isnan(study.started_at) else study.started_at,
        "score_kinds": list(SCORE_KINDS),
    }


@dataclass(frozen=True)
class SimulationResult:
    """Columns of a study, one row per game, plus what is needed to reproduce it."""

    rules: Rules
    seed: int
    first_game: int
    policy: str
    threads: int
    elapsed_seconds: float
    """Wall-clock seconds the study took (for a ``concat`` of batches: the time during
    which at least one batch was running)."""
    scores: npt.NDArray[np.int32]
    """(games, players) final scores."""
    winners: npt.NDArray[np.bool_]
    """(games, players) True for every player with the top score."""
    turns: npt.NDArray[np.uint32]
    """(games,) tiles placed."""
    points_by_kind: npt.NDArray[np.int32]
    """(games, players, kinds) points by kind, kinds in ``SCORE_KINDS`` order."""
    discarded: npt.NDArray[np.uint32]
    """(games,) tiles removed because they could not be placed."""
    ships: npt.NDArray[np.uint32]
    """(games, players) South Seas: ships taken (zero in classic games)."""
    wares_left: npt.NDArray[np.uint32]
    """(games, players) South Seas: wares left at the end (zero in classic games)."""
    rules_version: int = RULES_VERSION
    engine_version: str = ENGINE_VERSION
    score_kinds: tuple[str, ...] = field(default=tuple(SCORE_KINDS))
    players: tuple[str, ...] = ()
    """The name of the player in each seat ("random", "mcts(playouts=1000,c=0.1,cutoff=8)", ...)."""
    started_at: float = math.nan
    """When the study started (Unix time, ``time.time()``); NaN if unknown. With
    ``elapsed_seconds`` it places the study in time, so that ``concat`` can tell batches
    that ran side by side from batches that ran one after another."""
    interrupted: bool = False
    """True if the study was stopped (Ctrl-C) and these are the games played until then
    (``partial=True``)."""

    @classmethod
    def concat(cls, parts: Sequence[SimulationResult]) -> SimulationResult:
        """Joins batches of one study (same rules, seed and players, consecutive
        ``first_game`` ranges), e.g. batches computed by Dask or Ray workers.

        ``elapsed_seconds`` of the whole is the wall-clock time during which at least one
        batch was running (the union of the batches' ``[started_at, started_at +
        elapsed_seconds]`` spans), so ``games_per_second`` is the real speed of batches run
        side by side, and pauses between batches run one after another do not count. If a
        batch does not know when it started (``started_at`` NaN, e.g. one built by hand),
        the batches' times are added up instead."""
        ordered = _consecutive(parts)
        head = ordered[0]
        return cls(
            rules=head.rules,
            seed=head.seed,
            first_game=head.first_game,
            policy=head.policy,
            threads=max(p.threads for p in ordered),
            elapsed_seconds=_wall_clock(ordered),
            scores=np.concatenate([p.scores for p in ordered]),
            winners=np.concatenate([p.winners for p in ordered]),
            turns=np.concatenate([p.turns for p in ordered]),
            points_by_kind=np.concatenate([p.points_by_kind for p in ordered]),
            discarded=np.concatenate([p.discarded for p in ordered]),
            ships=np.concatenate([p.ships for p in ordered]),
            wares_left=np.concatenate([p.wares_left for p in ordered]),
            players=head.players,
            started_at=min(p.started_at for p in ordered) if _timed(ordered) else math.nan,
            interrupted=any(p.interrupted for p in ordered),
        )

    @property
    def games(self) -> int:
        """Number of games (rows)."""
        return int(self.scores.shape[0])

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time (inf when none was measured)."""
        return self.games / self.elapsed_seconds if self.elapsed_seconds > 0 else math.inf

    def win_shares(self) -> npt.NDArray[np.float64]:
        """(games, players): 1/k for each of the k winners of a game, else 0."""
        w = self.winners.astype(np.float64)
        shares: npt.NDArray[np.float64] = w / w.sum(axis=1, keepdims=True)
        return shares

    def totals(self) -> StudyTotals:
        """The exact per-seat sums of these games (what ``simulate_summary`` keeps)."""
        unit = 60
        winners = self.winners.astype(np.int64)
        shares = winners * (unit // np.maximum(winners.sum(axis=1, keepdims=True), 1))
        scores = self.scores.astype(np.int64)
        margins, ranges = margins_and_ranges(self.scores)
        return StudyTotals(
            games=self.games,
            win_share_unit=unit,
            win_shares=tuple(int(v) for v in shares.sum(axis=0)),
            win_shares_squared=tuple(int(v) for v in (shares * shares).sum(axis=0)),
            scores=tuple(int(v) for v in scores.sum(axis=0)),
            scores_squared=tuple(int(v) for v in (scores * scores).sum(axis=0)),
            points_by_kind=tuple(
                tuple(int(v) for v in row) for row in self.points_by_kind.astype(np.int64).sum(axis=0)
            ),
            ships=tuple(int(v) for v in self.ships.astype(np.int64).sum(axis=0)),
            wares_left=tuple(int(v) for v in self.wares_left.astype(np.int64).sum(axis=0)),
            turns=int(self.turns.astype(np.int64).sum()),
            discarded=int(self.discarded.astype(np.int64).sum()),
            win_share_products=_products(shares),
            score_products=_products(scores),
            margins=int(margins.sum()),
            margins_squared=int((margins * margins).sum()),
            ranges=int(ranges.sum()),
            ranges_squared=int((ranges * ranges).sum()),
            ties=int((winners.sum(axis=1) > 1).sum()),
        )

    def summary(self) -> StudySummary:
        """These games as a ``StudySummary`` (the same figures ``simulate_summary`` gives)."""
        return StudySummary(
            rules=self.rules,
            seed=self.seed,
            first_game=self.first_game,
            policy=self.policy,
            threads=self.threads,
            elapsed_seconds=self.elapsed_seconds,
            totals=self.totals(),
            rules_version=self.rules_version,
            engine_version=self.engine_version,
            players=self.players,
            started_at=self.started_at,
            interrupted=self.interrupted,
        )

    def seats(self) -> list[SeatSummary]:
        """Win rate with a 95% Wilson interval, mean and spread of score, per seat."""
        return self.totals().seats()

    def __repr__(self) -> str:
        """The number of games, then every field: floats rounded, the per-game columns as
        their type and shape (``int32[2000, 2]``)."""
        return _reprs.fields(self, games=self.games)

    def metadata(self) -> dict[str, Any]:
        """What reproduces this study: rules, seed, game range, policy, versions."""
        return _metadata(self)

    def save(self, path: str | os.PathLike[str], format: str | None = None) -> Path:
        """Writes these games to a results file: Parquet, CSV or JSON, by default from the
        suffix (see ``carcassonne.study.results_file``); ``SimulationResult.load`` reads it back."""
        written: Path = _io.writer()(self, path, format)
        return written

    @classmethod
    def load(cls, path: str | os.PathLike[str], format: str | None = None) -> SimulationResult:
        """Reads a results file that ``save`` wrote (see ``carcassonne.study.results_file``)."""
        result: SimulationResult = _io.reader()(path, format)
        return result

    def table(self) -> dict[str, npt.NDArray[Any]]:
        """The tidy table a results file stores, one row per (game, seat) in game order:
        game, seat, score, winner, turns, discarded, ships, wares_left, points by kind."""
        games, seats = self.scores.shape
        cols: dict[str, npt.NDArray[Any]] = {
            # Unsigned: game indices run to 2**64 - 1.
            "game": np.repeat(np.arange(self.first_game, self.first_game + games, dtype=np.uint64), seats),
            "seat": np.tile(np.arange(seats, dtype=np.int64), games),
            "score": self.scores.ravel(),
            "winner": self.winners.ravel(),
            "turns": np.repeat(self.turns, seats),
            "discarded": np.repeat(self.discarded, seats),
            "ships": self.ships.ravel(),
            "wares_left": self.wares_left.ravel(),
        }
        for k, kind in enumerate(self.score_kinds):
            cols[f"points_{kind}"] = self.points_by_kind[:, :, k].ravel()
        return cols

    def to_pandas(self) -> Any:
        """One row per (game, seat): game, seat, the seat's player, the study's seed,
        score, winner (every tied winner is True), win_share (1/k for each of k tied
        winners: average this, not ``winner``, for win rates that sum to 1), turns,
        discarded, ships, wares_left and the points by kind; ``metadata()`` in
        ``DataFrame.attrs``. Needs pandas (``pip install carcassonne[analysis]``)."""
        # pandas is optional and may be absent, untyped or typed (pandas-stubs): ignore whichever applies.
        import pandas as pd  # type: ignore[import-not-found, import-untyped, unused-ignore]

        games, players = self.scores.shape
        names = list(self.players) if len(self.players) == players else [self.policy] * players
        stored = self.table()
        # The stored columns, with the derived ones where a reader looks for them: each
        # seat's player and the seed after the seat, the win share after the winner.
        data: dict[str, Any] = {}
        for name, column in stored.items():
            data[name] = column
            if name == "seat":
                data["player"] = pd.Categorical(np.tile(np.array(names, dtype=object), games), categories=sorted(set(names)))
                data["seed"] = np.full(games * players, self.seed, dtype=np.uint64)
            elif name == "winner":
                # Ties split: 1/k to each of k winners, so a seat's mean is its win share
                # and the seats' means sum to 1 (``winner.mean()`` counts a tie for each).
                data["win_share"] = self.win_shares().ravel()
        df = pd.DataFrame(data)
        df.attrs.update(self.metadata())
        return df


_Study = TypeVar("_Study", "SimulationResult", "StudySummary")


def _consecutive(parts: Sequence[_Study]) -> list[_Study]:
    """``parts`` in game order, checked to be consecutive batches of one study."""
    if not parts:
        raise ValueError("concat needs at least one result")
    ordered = sorted(parts, key=lambda r: r.first_game)
    head = ordered[0]
    expected = head.first_game
    for part in ordered:
        if (part.rules, part.seed, part.policy, part.players) != (head.rules, head.seed, head.policy, head.players):
            raise ValueError("concat joins batches of one study: rules, seed and players (policy) must agree")
        if part.first_game != expected:
            raise ValueError(f"batches are not consecutive: expected first_game {expected}, got {part.first_game}")
        expected += part.games
    return ordered


def _timed(parts: Sequence[SimulationResult | StudySummary]) -> bool:
    """Whether every part knows when it started."""
    return not any(math.isnan(p.started_at) for p in parts)


def _wall_clock(parts: Sequence[SimulationResult | StudySummary]) -> float:
    """The time during which at least one of ``parts`` was running (see ``concat``)."""
    if not _timed(parts):
        return sum(p.elapsed_seconds for p in parts)
    spans = sorted((p.started_at, p.started_at + p.elapsed_seconds) for p in parts)
    total = 0.0
    start, end = spans[0]
    for s, e in spans[1:]:
        if s > end:
            total += end - start
            start, end = s, e
        else:
            end = max(end, e)
    return total + (end - start)
