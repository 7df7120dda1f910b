"""Studies over a grid: rule configurations x player line-ups x player counts, each cell a
``simulate`` run with its own seed stream, gathered into one tidy table.

>>> from carcassonne import Rules, Study
>>> study = Study(
...     configs={"base": Rules(), "no farmers": Rules(farmers=False)},
...     lineups={"random": "random", "greedy": "greedy"},
...     seats=(2, 3),
...     games=1000,
...     seed=7,
... )
>>> result = study.run()
>>> df = result.to_pandas()       # one row per game and seat, with config, lineup, seats

Every cell's seed is derived from the study's seed and the cell's names (``cell_seed``), so
adding a configuration does not change the games of the others. ``paired=True`` gives every
cell the study's seed instead: cells with the same tiles then play the same decks (common
random numbers; the players' random draws stay in step only while their choices do), and
``carcassonne.stats.compare`` pairs their games, which makes a difference between two
configurations more precise for the same number of games.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carcassonne import players as _players
from carcassonne._core import ENGINE_VERSION, RULES_VERSION, Rules, RulesError
from carcassonne.simulation import SimulationResult, simulate

U64_MAX = 2**64 - 1

STUDY_FORMAT = "carcassonne-study"
STUDY_FORMAT_VERSION = 1


class StudyError(ValueError):
    """A study grid that cannot be run: no configurations, a line-up whose seats do not
    match a player count, a duplicate or empty name."""


@dataclass(frozen=True)
class Cell:
    """One run of a study: a configuration with a player count and a line-up."""

    config: str
    seats: int
    lineup: str
    rules: Rules
    players: Any
    """The line-up as ``simulate(players=...)`` takes it."""
    seed: int

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.config, self.seats, self.lineup)


def cell_seed(seed: int, config: str, seats: int, lineup: str) -> int:
    """The seed of one cell: the first 8 bytes of SHA-256 over the study seed and the
    cell's names, so each cell has its own stream, stable under adding or removing other
    cells."""
    text = json.dumps([seed, config, seats, lineup], ensure_ascii=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def with_players(rules: Rules, seats: int) -> Rules:
    """``rules`` for ``seats`` players (through the rules' JSON form, the one loader)."""
    if rules.players == seats:
        return rules
    spec = json.loads(rules.to_json())
    spec["players"] = seats
    return Rules.from_json(json.dumps(spec))


@dataclass(frozen=True)
class Study:
    """A grid of ``simulate`` runs (see the module comment).

    ``configs``: name -> Rules (the player count comes from ``seats``; without ``seats``
    each configuration keeps its own). ``lineups``: name -> players as ``simulate`` takes
    them (one for every seat, or one per seat: such a line-up runs only with its own
    number of seats); default ``{"random": "random"}``. ``games`` per cell."""

    configs: Mapping[str, Rules]
    games: int
    seed: int = 0
    seats: Sequence[int] | None = None
    lineups: Mapping[str, Any] = field(default_factory=lambda: {"random": "random"})
    paired: bool = False

    def __post_init__(self) -> None:
        if not self.configs:
            raise StudyError("a study needs at least one configuration")
        if not self.lineups:
            raise StudyError("a study needs at least one line-up")
        for name in [*self.configs, *self.lineups]:
            if not isinstance(name, str) or not name:
                raise StudyError(f"configurations and line-ups are named by non-empty strings, not {name!r}")
        for name, rules in self.configs.items():
            if not isinstance(rules, Rules):
                raise StudyError(f"configuration {name!r} is not a carcassonne.Rules: {type(rules).__name__}")
        if self.seats is not None:
            if not self.seats or len(set(self.seats)) != len(self.seats):
                raise StudyError(f"seats must list distinct player counts, got {list(self.seats)}")
        if not isinstance(self.games, int) or self.games < 0:
            raise StudyError(f"games must be a whole number of games per cell, got {self.games!r}")
        if not isinstance(self.seed, int) or not 0 <= self.seed <= U64_MAX:
            raise StudyError(f"seed must be between 0 and 2**64 - 1, got {self.seed!r}")
        self.cells()  # every line-up must fit some player count

    def cells(self) -> list[Cell]:
        """The runs, configuration by configuration, then player count, then line-up. A
        line-up with one player per seat runs only with its own number of seats."""
        out: list[Cell] = []
        for config, base in self.configs.items():
            for seats in self.seats if self.seats is not None else [base.players]:
                rules = with_players(base, seats)
                for lineup, players in self.lineups.items():
                    entries = _players.lineup(players)
                    if len(entries) > 1 and len(entries) != seats:
                        continue
                    seed = self.seed if self.paired else cell_seed(self.seed, config, seats, lineup)
                    out.append(Cell(config, seats, lineup, rules, players, seed))
        used = {c.lineup for c in out}
        unused = [name for name in self.lineups if name not in used]
        if unused:
            raise StudyError(f"line-up {unused[0]!r} has one player per seat for no player count of the study")
        return out

    def run(
        self,
        *,
        threads: int | None = None,
        progress: bool = False,
        partial: bool = False,
        backend: str = "local",
        client: Any = None,
        batch_games: int | None = None,
    ) -> StudyResult:
        """Plays every cell (one after another, each on ``threads``); ``progress`` shows
        one bar per cell; with ``partial`` a Ctrl-C keeps the cells played so far and the
        games of the cell in flight (``StudyResult.interrupted``; local runs only).
        ``backend="dask"`` or ``"ray"`` plays each cell's batches on the cluster (see
        ``carcassonne.scaleout``), with the same results."""
        if backend != "local" and partial:
            raise StudyError("partial=True is for local runs: a cluster's batches are not interrupted by Ctrl-C here")
        results: dict[tuple[str, int, str], SimulationResult] = {}
        for cell in self.cells():
            result = simulate(
                cell.rules,
                self.games,
                seed=cell.seed,
                players=cell.players,
                threads=threads,
                progress=progress,
                partial=partial,
                backend=backend,
                client=client,
                batch_games=batch_games,
            )
            results[cell.key] = result
            if result.interrupted:
                break
        return StudyResult(results, self.grid(), len(self.cells()))

    def grid(self) -> dict[str, Any]:
        """What describes the grid (for ``StudyResult.metadata``): seed, games, pairing,
        configurations (as rules JSON), line-up names, player counts."""
        return {
            "seed": self.seed,
            "games": self.games,
            "paired": self.paired,
            "configs": {name: rules.to_json() for name, rules in self.configs.items()},
            # Each cell's metadata names its players seat by seat.
            "lineups": list(self.lineups),
            "seats": None if self.seats is None else list(self.seats),
        }


@dataclass(frozen=True)
class StudyResult:
    """The results of a study's cells, by (config, seats, lineup)."""

    results: Mapping[tuple[str, int, str], SimulationResult]
    grid: Mapping[str, Any]
    """The study's grid (``Study.grid()``)."""
    cells: int
    """How many cells the study has (fewer results if it was interrupted)."""

    @property
    def interrupted(self) -> bool:
        """True if Ctrl-C stopped the study (with ``partial=True``): some cells are
        missing or short."""
        return any(r.interrupted for r in self.results.values()) or len(self.results) < self.cells

    def __getitem__(self, key: tuple[str, int, str]) -> SimulationResult:
        return self.results[key]

    def metadata(self) -> dict[str, Any]:
        """What reproduces the study: the grid, the seed, and every cell's metadata."""
        return {
            **self.grid,
            "cells": [
                {"config": c, "seats": s, "lineup": lu, **r.metadata()} for (c, s, lu), r in self.results.items()
            ],
            "engine_version": ENGINE_VERSION,
            "rules_version": RULES_VERSION,
            "interrupted": self.interrupted,
        }

    def to_pandas(self) -> Any:
        """One row per (cell, game, seat): the columns of ``SimulationResult.to_pandas()``
        after ``config``, ``seats`` and ``lineup`` columns (categoricals), with
        ``metadata()`` in ``DataFrame.attrs``. Needs pandas."""
        import pandas as pd  # type: ignore[import-not-found, import-untyped, unused-ignore]

        frames = []
        for (config, seats, lineup), result in self.results.items():
            frame = result.to_pandas()
            frame.attrs = {}
            frame.insert(0, "lineup", lineup)
            frame.insert(0, "seats", seats)
            frame.insert(0, "config", config)
            frames.append(frame)
        df = pd.concat(frames, ignore_index=True)
        for column in ("config", "lineup"):
            df[column] = df[column].astype("category")
        df.attrs.update(self.metadata())
        return df

    def save(self, directory: str | os.PathLike[str], format: str = "parquet") -> Path:
        """Writes every cell to its own results file, ``cell-<n>.<format>`` (see
        ``carcassonne.results_file``), and ``study.json``, which names each cell's
        configuration, seats, line-up and file; ``load_study`` reads the directory back."""
        from carcassonne.results_file import FORMATS, ResultsFileError, write_results

        if format not in FORMATS:
            raise ResultsFileError(f"{directory}: unknown format {format!r}: use one of {', '.join(FORMATS)}")
        target = Path(directory)
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ResultsFileError(f"{target}: cannot write: {e.strerror or e}") from e
        cells = []
        for n, ((config, seats, lineup), result) in enumerate(self.results.items()):
            name = f"cell-{n:03d}.{format}"
            write_results(result, target / name)
            cells.append({"config": config, "seats": seats, "lineup": lineup, "file": name})
        manifest = {k: v for k, v in self.metadata().items() if k != "cells"}
        manifest.update(format=STUDY_FORMAT, format_version=STUDY_FORMAT_VERSION, cell_count=self.cells, cells=cells)
        (target / "study.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        return target

    def games_per_second(self) -> float:
        """Games of all cells over the cells' wall-clock time."""
        seconds = sum(r.elapsed_seconds for r in self.results.values())
        games = sum(r.games for r in self.results.values())
        return games / seconds if seconds > 0 else math.inf


def load_study(directory: str | os.PathLike[str]) -> StudyResult:
    """Reads a directory ``StudyResult.save`` wrote: every cell's results, with the grid's
    configurations and names (the line-ups as the names of their players). Raises
    ``ResultsFileError`` naming the file and the fault."""
    from carcassonne.results_file import ResultsFileError, read_results

    root = Path(directory)
    path = root / "study.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsFileError(f"{path}: no such file (not a study directory)") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise ResultsFileError(f"{path}: cannot read the study: {e}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != STUDY_FORMAT:
        raise ResultsFileError(f"{path}: not a carcassonne study manifest")
    if manifest.get("format_version") != STUDY_FORMAT_VERSION:
        raise ResultsFileError(f"{path}: study layout {manifest.get('format_version')!r}; this version reads 1")
    results: dict[tuple[str, int, str], SimulationResult] = {}
    try:
        grid = {key: manifest[key] for key in ("seed", "games", "paired", "configs", "lineups", "seats")}
        for name, text in grid["configs"].items():
            Rules.from_json(text)  # a configuration that does not load is a fault of the file
        for cell in manifest["cells"]:
            file = root / str(cell["file"])
            if file.parent != root:
                raise ResultsFileError(f"{path}: cell file {cell['file']!r} is outside the study directory")
            results[(str(cell["config"]), int(cell["seats"]), str(cell["lineup"]))] = read_results(file)
        cells = int(manifest["cell_count"])
    except ResultsFileError:
        raise
    except RulesError as e:
        raise ResultsFileError(f"{path}: a configuration does not load: {e}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ResultsFileError(f"{path}: the manifest is incomplete or wrong: {e}") from None
    return StudyResult(results, grid, cells)
