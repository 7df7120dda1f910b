"""Balance studies: many whole games played in Rust, results as numpy columns.

Game ``i`` of a study with seed ``s`` is always the same game (tile order and choices),
whatever the thread count or the way the study is split into batches (``first_game``).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from carcassonne._core import ENGINE_VERSION, RULES_VERSION, SCORE_KINDS, Rules, RulesError, simulate_batch

POLICIES = ("random", "greedy")
"""Built-in players: uniform random over legal moves, and best immediate score."""

Z_95 = 1.959963984540054


@dataclass(frozen=True)
class SeatSummary:
    """Statistics of one seat (0 = first player) over a study."""

    seat: int
    win_rate: float
    """Share of games won; a win shared by k players counts 1/k for each."""
    win_rate_low: float
    win_rate_high: float
    """95% confidence interval of ``win_rate`` (normal approximation)."""
    mean_score: float
    score_sd: float


@dataclass(frozen=True)
class SimulationResult:
    """Columns of a study, one row per game, plus what is needed to reproduce it."""

    rules: Rules
    seed: int
    first_game: int
    policy: str
    threads: int
    elapsed_seconds: float
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

    @classmethod
    def concat(cls, parts: Sequence[SimulationResult]) -> SimulationResult:
        """Joins batches of one study (same rules, seed and policy, consecutive
        ``first_game`` ranges), e.g. batches computed by Dask or Ray workers."""
        if not parts:
            raise ValueError("concat needs at least one result")
        ordered = sorted(parts, key=lambda r: r.first_game)
        head = ordered[0]
        expected = head.first_game
        for part in ordered:
            if (part.rules, part.seed, part.policy) != (head.rules, head.seed, head.policy):
                raise ValueError("concat joins batches of one study: rules, seed and policy must agree")
            if part.first_game != expected:
                raise ValueError(f"batches are not consecutive: expected first_game {expected}, got {part.first_game}")
            expected += part.games
        return cls(
            rules=head.rules,
            seed=head.seed,
            first_game=head.first_game,
            policy=head.policy,
            threads=max(p.threads for p in ordered),
            elapsed_seconds=sum(p.elapsed_seconds for p in ordered),
            scores=np.concatenate([p.scores for p in ordered]),
            winners=np.concatenate([p.winners for p in ordered]),
            turns=np.concatenate([p.turns for p in ordered]),
            points_by_kind=np.concatenate([p.points_by_kind for p in ordered]),
            discarded=np.concatenate([p.discarded for p in ordered]),
            ships=np.concatenate([p.ships for p in ordered]),
            wares_left=np.concatenate([p.wares_left for p in ordered]),
        )

    @property
    def games(self) -> int:
        return int(self.scores.shape[0])

    @property
    def games_per_second(self) -> float:
        return self.games / self.elapsed_seconds if self.elapsed_seconds > 0 else math.inf

    def win_shares(self) -> npt.NDArray[np.float64]:
        """(games, players): 1/k for each of the k winners of a game, else 0."""
        w = self.winners.astype(np.float64)
        shares: npt.NDArray[np.float64] = w / w.sum(axis=1, keepdims=True)
        return shares

    def seats(self) -> list[SeatSummary]:
        """Win rate with a 95% interval, mean and spread of score, per seat."""
        shares = self.win_shares()
        n = self.games
        out = []
        for seat in range(self.scores.shape[1]):
            rate = float(shares[:, seat].mean()) if n else math.nan
            sd = float(shares[:, seat].std(ddof=1)) if n > 1 else math.nan
            half = Z_95 * sd / math.sqrt(n) if n > 1 else math.nan
            scores = self.scores[:, seat]
            out.append(
                SeatSummary(
                    seat=seat,
                    win_rate=rate,
                    win_rate_low=max(0.0, rate - half),
                    win_rate_high=min(1.0, rate + half),
                    mean_score=float(scores.mean()) if n else math.nan,
                    score_sd=float(scores.std(ddof=1)) if n > 1 else math.nan,
                )
            )
        return out

    def metadata(self) -> dict[str, Any]:
        """What reproduces this study: rules, seed, game range, policy, versions."""
        return {
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "first_game": self.first_game,
            "games": self.games,
            "policy": self.policy,
            "rules_version": self.rules_version,
            "engine_version": self.engine_version,
            "rng": "xoshiro256** seeded by SplitMix64 from (seed, game index)",
        }

    def to_pandas(self) -> Any:
        """One row per (game, seat); needs pandas (``pip install carcassonne[analysis]``)."""
        # pandas is optional and may be absent, untyped or typed (pandas-stubs): ignore whichever applies.
        import pandas as pd  # type: ignore[import-not-found, import-untyped, unused-ignore]

        games, players = self.scores.shape
        data: dict[str, Any] = {
            "game": np.repeat(np.arange(self.first_game, self.first_game + games), players),
            "seat": np.tile(np.arange(players), games),
            "score": self.scores.ravel(),
            "winner": self.winners.ravel(),
            "turns": np.repeat(self.turns, players),
            "discarded": np.repeat(self.discarded, players),
            "ships": self.ships.ravel(),
            "wares_left": self.wares_left.ravel(),
        }
        for k, kind in enumerate(self.score_kinds):
            data[f"points_{kind}"] = self.points_by_kind[:, :, k].ravel()
        df = pd.DataFrame(data)
        df.attrs.update(self.metadata())
        return df


def simulate(
    rules: Rules | None = None,
    games: int = 10_000,
    *,
    seed: int = 0,
    policy: str = "random",
    threads: int | None = None,
    first_game: int = 0,
) -> SimulationResult:
    """Plays ``games`` whole games in Rust, in parallel, with the GIL released.

    ``threads=None`` uses ``CARCASSONNE_MAX_THREADS``, ``RAYON_NUM_THREADS`` or
    ``OMP_NUM_THREADS`` if set, else every core; results never depend on it. Pass
    ``threads=1`` when an outer layer (Dask, Ray, a process pool) already runs one
    process per core, and split a study with ``first_game``.
    """
    rules = rules if rules is not None else Rules()
    if policy not in POLICIES:
        raise RulesError(f"unknown policy {policy!r}: use one of {', '.join(POLICIES)}")
    if not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise RulesError(f"seed must be an integer in [0, 2**64), got {seed!r}")
    if not isinstance(first_game, int) or not 0 <= first_game < 2**64:
        raise RulesError(f"first_game must be an integer in [0, 2**64), got {first_game!r}")
    used_threads = threads if threads is not None else _default_threads()
    start = time.perf_counter()
    cols = simulate_batch(rules, games, seed=seed, first_game=first_game, policy=policy, threads=threads)
    elapsed = time.perf_counter() - start
    return SimulationResult(
        rules=rules,
        seed=seed,
        first_game=first_game,
        policy=policy,
        threads=used_threads,
        elapsed_seconds=elapsed,
        scores=cols["scores"],
        winners=cols["winners"],
        turns=cols["turns"],
        points_by_kind=cols["points_by_kind"],
        discarded=cols["discarded"],
        ships=cols["ships"],
        wares_left=cols["wares_left"],
    )


def _default_threads() -> int:
    for var in ("CARCASSONNE_MAX_THREADS", "RAYON_NUM_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(var, "").strip()
        if value.isdigit() and int(value) > 0:
            return int(value)
    return os.cpu_count() or 1
