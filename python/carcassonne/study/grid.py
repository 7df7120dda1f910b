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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carcassonne import players as _players
from carcassonne._core import ENGINE_VERSION, RULES_VERSION, CarcassonneError, Rules, RulesError, check_rows_fit
from carcassonne.files import OutputFileError, load_json, probe_directory, quote, read_text_input, write_text_atomically
from carcassonne.study.play import simulate
from carcassonne.study.results import SimulationResult

U64_MAX = 2**64 - 1

STUDY_FORMAT = "carcassonne-study"
STUDY_FORMAT_VERSION = 2
"""The layout of ``study.json``: 2 stores each configuration as a JSON object (1, still
read, as JSON text inside a string)."""
STUDY_READS = (1, 2)

MAX_MANIFEST_BYTES = 1 << 24
"""Largest ``study.json`` read (16 MiB; a manifest of a thousand cells is about 1 MB)."""


class StudyError(CarcassonneError):
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
        """``(config, seats, lineup)``: what tells this run apart in the study."""
        return (self.config, self.seats, self.lineup)


def cell_label(config: str, seats: int, lineup: str) -> str:
    """How a cell is named in progress bars, reports and on the command line."""
    return f"{config}, {seats} seats, {lineup}"


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
        if not isinstance(self.configs, Mapping) or not self.configs:
            raise StudyError("configs: a study needs at least one configuration (a mapping of names to Rules)")
        if not isinstance(self.lineups, Mapping) or not self.lineups:
            raise StudyError("lineups: a study needs at least one line-up (a mapping of names to players)")
        for name in [*self.configs, *self.lineups]:
            if not isinstance(name, str) or not name:
                raise StudyError(f"configurations and line-ups are named by non-empty strings, not {quote(name)}")
        for name, rules in self.configs.items():
            if not isinstance(rules, Rules):
                raise StudyError(f"configuration {quote(name)} is not a carcassonne.Rules: {type(rules).__name__}")
        if self.seats is not None:
            if isinstance(self.seats, (str, bytes)) or not isinstance(self.seats, Sequence):
                raise StudyError(f"seats must be a list of player counts, not {quote(self.seats)}")
            if not all(type(n) is int and n >= 1 for n in self.seats):
                raise StudyError(f"seats must list player counts (whole numbers from 1), got {quote(list(self.seats))}")
            if not self.seats or len(set(self.seats)) != len(self.seats):
                raise StudyError(f"seats must list distinct player counts, got {list(self.seats)}")
        # bool is an int in Python: refused, True is not a number of games.
        if type(self.games) is not int or self.games < 0:
            raise StudyError(f"games must be a whole number of games per cell, got {quote(self.games)}")
        if type(self.seed) is not int or not 0 <= self.seed <= U64_MAX:
            raise StudyError(f"seed must be an integer between 0 and 2**64 - 1, got {quote(self.seed)}")
        if type(self.paired) is not bool:
            raise StudyError(f"paired must be True or False, got {quote(self.paired)}")
        for seats in self.seats or ():
            for name, rules in self.configs.items():
                try:
                    with_players(rules, seats)
                except RulesError as e:
                    raise StudyError(f"seats {seats} with configuration {quote(name)}: {e}") from None
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
        on_cell: Callable[[Cell, SimulationResult], None] | None = None,
    ) -> StudyResult:
        """Plays every cell (one after another, each on ``threads``); ``progress`` shows
        one bar per cell, labelled with its configuration, seats and line-up; with
        ``partial`` a Ctrl-C keeps the cells played so far and the games of the cell in
        flight (``StudyResult.interrupted``; local runs only). ``on_cell(cell, result)`` is
        called as each cell finishes (the command line prints its line then).
        ``backend="dask"`` or ``"ray"`` plays each cell's batches on the cluster (see
        ``carcassonne.study.scaleout``), with the same results."""
        if backend != "local" and partial:
            raise StudyError("partial=True is for local runs: a cluster's batches are not interrupted by Ctrl-C here")
        self.check_fits()
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
                label=cell_label(*cell.key),
            )
            results[cell.key] = result
            if on_cell is not None:
                on_cell(cell, result)
            if result.interrupted:
                break
        return StudyResult(results, self.grid(), len(self.cells()))

    def check_fits(self) -> None:
        """Refuses, before any cell is played, a study whose cells' rows together would not
        fit in the memory available now (each cell alone may fit); counted as if every
        cell had the most seats of the study, and twice over when cells are played in
        joined batches. ``RulesError``, as ``simulate`` raises for one cell."""
        cells = self.cells()
        widest = max(cells, key=lambda c: c.seats)
        total = min(U64_MAX, len(cells) * self.games)
        try:
            check_rows_fit(widest.rules, total)
        except RulesError as e:
            raise RulesError(
                f"the study's {len(cells)} cells of {self.games} games are kept in memory together: {e}"
            ) from None

    def grid(self) -> dict[str, Any]:
        """What describes the grid (for ``StudyResult.metadata``): seed, games, pairing,
        configurations (each as the object of its rules JSON), line-up names, player
        counts."""
        return {
            "seed": self.seed,
            "games": self.games,
            "paired": self.paired,
            "configs": {name: json.loads(rules.to_json()) for name, rules in self.configs.items()},
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

    @property
    def name(self) -> str:
        """A short name of this study for frames: "study-" and 8 hex digits of the SHA-256
        of its grid, so two studies told apart in one frame keep their names."""
        digest = hashlib.sha256(json.dumps(dict(self.grid), sort_keys=True).encode()).hexdigest()
        return f"study-{digest[:8]}"

    def to_pandas(self, name: str | None = None) -> Any:
        """One row per (cell, game, seat): ``study`` (``name``, default ``self.name``),
        ``cell`` ("config, N seats, line-up"), ``config``, ``seats`` and ``lineup``, then
        the columns of ``SimulationResult.to_pandas()`` (each seat's ``player``, the cell's
        ``seed``, ``win_share``...); text columns are categoricals; ``metadata()`` in
        ``DataFrame.attrs``. Join frames of several studies with
        ``carcassonne.concat_frames``, which keeps each study's metadata. Needs pandas."""
        import pandas as pd  # type: ignore[import-not-found, import-untyped, unused-ignore]

        study = self.name if name is None else name
        frames = []
        for (config, seats, lineup), result in self.results.items():
            frame = result.to_pandas()
            frame.attrs = {}
            frame.insert(0, "lineup", lineup)
            frame.insert(0, "seats", seats)
            frame.insert(0, "config", config)
            frame.insert(0, "cell", cell_label(config, seats, lineup))
            frame.insert(0, "study", study)
            frame["player"] = frame["player"].astype(object)
            frames.append(frame)
        df = pd.concat(frames, ignore_index=True)
        for column in ("study", "cell", "config", "lineup", "player"):
            df[column] = df[column].astype("category")
        df.attrs.update(self.metadata())
        df.attrs["study"] = study
        return df

    def save(self, directory: str | os.PathLike[str], format: str = "parquet") -> Path:
        """Writes every cell to its own results file, ``cell-<n>.<format>`` (see
        ``carcassonne.study.results_file``), and ``study.json``, which names each cell's
        configuration, seats, line-up and file; ``load_study`` reads the directory back.
        ``directory`` must be new or empty (``check_study_directory``): results are never
        written over other files. Every file is written atomically, the manifest last."""
        from carcassonne.study.results_file import ResultsFileError, write_results

        target = check_study_directory(directory, format)
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ResultsFileError(f"{target}: cannot write: {e.strerror or e}") from None
        cells = []
        for n, ((config, seats, lineup), result) in enumerate(self.results.items()):
            name = f"cell-{n:03d}.{format}"
            write_results(result, target / name)
            cells.append({"config": config, "seats": seats, "lineup": lineup, "file": name})
        manifest = {k: v for k, v in self.metadata().items() if k != "cells"}
        manifest.update(format=STUDY_FORMAT, format_version=STUDY_FORMAT_VERSION, cell_count=self.cells, cells=cells)
        try:
            write_text_atomically(target / "study.json", json.dumps(manifest, indent=2))
        except OutputFileError as e:
            raise ResultsFileError(str(e)) from None
        return target

    def games_per_second(self) -> float:
        """Games of all cells over the cells' wall-clock time."""
        seconds = sum(r.elapsed_seconds for r in self.results.values())
        games = sum(r.games for r in self.results.values())
        return games / seconds if seconds > 0 else math.inf


def check_study_directory(directory: str | os.PathLike[str], format: str = "parquet") -> Path:
    """Checks, before a study is played, that ``StudyResult.save`` can write ``directory``
    in ``format``: a known format (pyarrow for Parquet), and a directory that is new (its
    parent exists and a file can be written in it) or empty and a file can be written in
    it (``probe_directory``). ``ResultsFileError`` otherwise."""
    from carcassonne.study.results_file import FORMATS, ResultsFileError, _pyarrow

    if "\0" in os.fspath(directory):
        raise ResultsFileError(f"{quote(os.fspath(directory), 300)}: cannot write the study: the path has a NUL byte")
    target = Path(directory)
    if format not in FORMATS:
        raise ResultsFileError(f"{target}: unknown format {quote(format)}: use one of {', '.join(FORMATS)}")
    if target.exists() or target.is_symlink():
        if not target.is_dir():
            raise ResultsFileError(f"{target}: cannot write the study: it is not a directory")
        try:
            with os.scandir(target) as listing:
                entries = next(listing, None)
        except OSError as e:
            raise ResultsFileError(f"{target}: cannot write the study: {e.strerror or e}") from None
        if entries is not None:
            raise ResultsFileError(f"{target}: cannot write the study: the directory is not empty (choose a new one)")
        if not os.access(target, os.W_OK | os.X_OK):
            raise ResultsFileError(f"{target}: cannot write the study: the directory is not writable")
        place = target
    else:
        parent = target.parent
        if not parent.is_dir():
            raise ResultsFileError(f"{target}: cannot write the study: no directory {parent}")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise ResultsFileError(f"{target}: cannot write the study: {parent} is not writable")
        place = parent
    # The permission bits do not tell (root passes them on /proc or a read-only mount):
    # a file made and removed where the study's first entry goes does, before any game.
    reason = probe_directory(place)
    if reason is not None:
        raise ResultsFileError(f"{target}: cannot write the study: {reason}")
    if format == "parquet":
        _pyarrow(target)
    return target


def load_study(directory: str | os.PathLike[str]) -> StudyResult:
    """Reads a directory ``StudyResult.save`` wrote: every cell's results, with the grid's
    configurations and names (the line-ups as the names of their players). Each cell file
    must be a regular file of the directory (not a link) whose metadata matches its
    manifest entry (its configuration with its seats, its seed, its games), and no cell
    may be listed twice. Raises ``ResultsFileError`` naming the file and the fault."""
    from carcassonne.study.results_file import ResultsFileError, read_results

    root = Path(directory)
    path = root / "study.json"
    text = read_text_input(path, MAX_MANIFEST_BYTES, ResultsFileError, "study manifest (study.json)")
    manifest = load_json(text, f"{path}: cannot read the study: the manifest", ResultsFileError)
    if not isinstance(manifest, dict) or manifest.get("format") != STUDY_FORMAT:
        raise ResultsFileError(f"{path}: not a carcassonne study manifest")
    if manifest.get("format_version") not in STUDY_READS:
        raise ResultsFileError(
            f"{path}: study layout {quote(manifest.get('format_version'))}; this version reads "
            f"{', '.join(map(str, STUDY_READS))}"
        )
    text_configs = manifest["format_version"] == 1
    missing = [k for k in ("seed", "games", "paired", "configs", "lineups", "seats", "cells", "cell_count") if k not in manifest]
    if missing:
        raise ResultsFileError(f"{path}: the manifest is incomplete: {missing[0]!r} is missing")
    grid = {key: manifest[key] for key in ("seed", "games", "paired", "configs", "lineups", "seats")}

    def wrong(key: str, what: str) -> ResultsFileError:
        return ResultsFileError(f"{path}: {key!r} must be {what}, not {quote(manifest[key])}")

    if type(grid["seed"]) is not int or not 0 <= grid["seed"] <= U64_MAX:
        raise wrong("seed", "an integer from 0 to 2**64 - 1")
    if type(grid["games"]) is not int or grid["games"] < 0:
        raise wrong("games", "a whole number of games")
    if type(grid["paired"]) is not bool:
        raise wrong("paired", "true or false")
    kind = str if text_configs else dict
    if not isinstance(grid["configs"], dict) or not all(isinstance(v, kind) for v in grid["configs"].values()):
        raise wrong("configs", "an object of rules JSON texts" if text_configs else "an object of rules objects")
    if not isinstance(grid["lineups"], list) or not all(isinstance(v, str) for v in grid["lineups"]):
        raise wrong("lineups", "a list of line-up names")
    if grid["seats"] is not None and (
        not isinstance(grid["seats"], list) or not all(type(n) is int for n in grid["seats"])
    ):
        raise wrong("seats", "null or a list of player counts")
    if not isinstance(manifest["cells"], list):
        raise wrong("cells", "a list of cells")
    cells = manifest["cell_count"]
    if type(cells) is not int or cells < len(manifest["cells"]):
        raise wrong("cell_count", f"a whole number of cells, at least the {len(manifest['cells'])} listed")
    configs: dict[str, Rules] = {}
    for name, given in grid["configs"].items():
        try:
            configs[name] = Rules.from_json(given if text_configs else json.dumps(given))
        except RulesError as e:
            raise ResultsFileError(f"{path}: configuration {quote(name)} does not load: {e}") from None
    results: dict[tuple[str, int, str], SimulationResult] = {}
    files: set[str] = set()
    for i, cell in enumerate(manifest["cells"]):
        where = f"{path}: cell {i}"
        if not isinstance(cell, dict) or set(cell) != {"config", "seats", "lineup", "file"}:
            raise ResultsFileError(f"{where}: a cell is {{config, seats, lineup, file}}, not {quote(cell)}")
        config, seats, lineup, name = cell["config"], cell["seats"], cell["lineup"], cell["file"]
        if not (isinstance(config, str) and type(seats) is int and isinstance(lineup, str) and isinstance(name, str)):
            raise ResultsFileError(f"{where}: config, lineup and file are strings and seats an integer: {quote(cell)}")
        if config not in configs:
            raise ResultsFileError(f"{where}: configuration {quote(config)} is not in the manifest's configs")
        if lineup not in grid["lineups"]:
            raise ResultsFileError(f"{where}: line-up {quote(lineup)} is not in the manifest's lineups")
        if (config, seats, lineup) in results:
            raise ResultsFileError(f"{where}: ({quote(config)}, {seats}, {quote(lineup)}) is listed twice")
        file = root / name
        if name in files:
            raise ResultsFileError(f"{where}: file {quote(name)} is listed for two cells")
        files.add(name)
        if "\0" in name:
            # No file has such a name; the system calls would raise a bare ValueError.
            raise ResultsFileError(f"{where}: 'file' {quote(name)} is not a file name: it has a NUL byte")
        if file.parent != root or name in ("", ".", ".."):
            raise ResultsFileError(f"{where}: cell file {quote(name)} is outside the study directory")
        if file.is_symlink():
            raise ResultsFileError(f"{file}: a link: a study's cell files are its own files, not links")
        result = read_results(file)
        try:
            expected = with_players(configs[config], seats)
        except RulesError as e:
            raise ResultsFileError(f"{where}: configuration {quote(config)} with {seats} seats: {e}") from None
        seed = grid["seed"] if grid["paired"] else cell_seed(grid["seed"], config, seats, lineup)
        if result.rules.to_json() != expected.to_json():
            raise ResultsFileError(f"{file}: its rules are not configuration {quote(config)} with {seats} seats")
        if result.seed != seed:
            raise ResultsFileError(f"{file}: seed {result.seed}, but cell ({quote(config)}, {seats}, {quote(lineup)}) has seed {seed}")
        if result.games != grid["games"] and not (result.interrupted and result.games < grid["games"]):
            raise ResultsFileError(f"{file}: {result.games} games, the study has {grid['games']} per cell")
        results[(config, seats, lineup)] = result
    if text_configs:  # as a study of this version describes its grid
        grid["configs"] = {name: json.loads(rules.to_json()) for name, rules in configs.items()}
    return StudyResult(results, grid, cells)
