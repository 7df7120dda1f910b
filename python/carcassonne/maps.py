"""Carcassonne Maps files: check a transcription, describe a map, generate random maps.

>>> from carcassonne import maps
>>> report = maps.check("my-map.toml")        # every fault at once, then a summary
>>> print(report)
>>> text = maps.generate(7, squares=120, large_cities=4, islands=2)
>>> rules = carcassonne.Rules(map=maps.write(text, "generated-7.toml"))

The map format is described in the docs (docs/rules/maps.md, "Map files") and at the top
of ``rust/carcassonne-core/src/data/map/mod.rs``; ``carcassonne map check FILE`` and
``carcassonne map render FILE -o map.svg`` are the same on the command line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import carcassonne._core as _core
from carcassonne._core import Rules
from carcassonne.files import write_text_atomically

__all__ = [
    "BorderPiece",
    "FerryRoute",
    "Island",
    "LargeCity",
    "MapCheck",
    "MapFault",
    "MapSummary",
    "check",
    "generate",
    "summary",
    "write",
]

Square = tuple[int, int]


@dataclass(frozen=True)
class MapFault:
    """One fault of a map file: its 1-based line and column (0 for the file as a whole),
    the grid square it is at (if it is one) and what is wrong."""

    line: int
    column: int
    square: Square | None
    message: str

    def __str__(self) -> str:
        if not self.line:
            return self.message
        at = f" (square [{self.square[0]}, {self.square[1]}])" if self.square is not None else ""
        return f"line {self.line}, column {self.column}{at}: {self.message}"


@dataclass(frozen=True)
class LargeCity:
    letter: str
    name: str
    #: (column, row, edges N E S W, coats of arms) of each square.
    squares: list[tuple[int, int, str, int]]
    arms: int
    #: Roads leaving the city, as (column, row, side).
    roads: list[tuple[int, int, str]]


@dataclass(frozen=True)
class BorderPiece:
    """A printed road or city on a side of a square (M-13)."""

    at: Square
    side: str
    piece: str  # "road" or "city"
    arms: int
    faces: str  # "outside", "wave" or "highlight"


@dataclass(frozen=True)
class FerryRoute:
    #: (column, row, side, what the side faces) of each end.
    ends: tuple[tuple[int, int, str, str], tuple[int, int, str, str]]
    arms: int
    #: What each end is on: "mainland" or "island N".
    joins: tuple[str, str]


@dataclass(frozen=True)
class Island:
    number: int  # from 1, in reading order of its first square
    squares: int
    arms: int
    #: The ferries reaching it (numbered from 1 in file order): any one linked opens it.
    ferries: list[int]
    beside_mainland: bool


@dataclass(frozen=True)
class MapSummary:
    """What a checked map holds, for holding beside the printed board."""

    name: str
    title: str
    original: str | None
    width: int
    height: int
    #: Squares by kind ("ordinary", "small town", "start", "wave", "highlight", "island",
    #: "large city", "half") with their counts.
    squares: dict[str, int]
    #: Squares a tile may ever stand on (island squares included).
    playable: int
    tiles: int
    cities: list[LargeCity]
    borders: list[BorderPiece]
    ferries: list[FerryRoute]
    islands: list[Island]
    #: Coats of arms printed on island squares: (column, row, count).
    island_arms: list[tuple[int, int, int]]
    #: Start squares in file (reading) order; games use the first ``start_squares``.
    starts: list[Square]
    #: Whether each start square (in ``starts`` order) is a small town too (``S``; ``s``:
    #: not): left without a start tile, it counts for the small-town variants.
    start_towns: list[bool]
    start_squares: int
    join: str | None

    @staticmethod
    def _from_json(text: str) -> MapSummary:
        d: dict[str, Any] = json.loads(text)
        return MapSummary(
            name=d["name"],
            title=d["title"],
            original=d["original"],
            width=d["width"],
            height=d["height"],
            squares={k: n for k, n in d["squares"]},
            playable=d["playable"],
            tiles=d["tiles"],
            cities=[
                LargeCity(c["letter"], c["name"], [tuple(s) for s in c["squares"]], c["arms"], [tuple(r) for r in c["roads"]])
                for c in d["cities"]
            ],
            borders=[BorderPiece(tuple(b["at"]), b["side"], b["piece"], b["arms"], b["faces"]) for b in d["borders"]],
            ferries=[
                FerryRoute((tuple(f["ends"][0]), tuple(f["ends"][1])), f["arms"], (f["joins"][0], f["joins"][1]))
                for f in d["ferries"]
            ],
            islands=[Island(i["number"], i["squares"], i["arms"], i["ferries"], i["beside_mainland"]) for i in d["islands"]],
            island_arms=[(c, r, n) for c, r, n in d["island_arms"]],
            starts=[(c, r) for c, r in d["starts"]],
            start_towns=[bool(t) for t in d["start_towns"]],
            start_squares=d["start_squares"],
            join=d["join"],
        )

    def __str__(self) -> str:
        kinds = ", ".join(f"{n} {k}" for k, n in self.squares.items())
        lines = [
            f"map {self.name!r}" + (f" ({self.title})" if self.title else "") + f": {self.width} x {self.height} grid",
            f"squares: {kinds}; {self.playable} take a tile; {self.tiles} tiles recommended",
        ]
        if self.original:
            lines.append(f"what it is: {self.original}")
        lines.append(f"large cities: {len(self.cities)}")
        for c in self.cities:
            squares = " ".join(f"[{x}, {y}] {e}" + (f" +{a}" if a else "") for x, y, e, a in c.squares)
            roads = f"; roads out at {', '.join(f'[{x}, {y}] {s}' for x, y, s in c.roads)}" if c.roads else ""
            lines.append(f"  {c.letter} {c.name}: {len(c.squares)} squares, {_arms(c.arms)}: {squares}{roads}")
        lines.append(f"border pieces: {len(self.borders)}")
        for k, b in enumerate(self.borders, 1):
            arms = f", {_arms(b.arms)}" if b.arms else ""
            lines.append(f"  {k}: {b.piece} on side {b.side} of [{b.at[0]}, {b.at[1]}], facing {b.faces}{arms}")
        lines.append(f"ferries: {len(self.ferries)}")
        for k, f in enumerate(self.ferries, 1):
            (x1, y1, s1, w1), (x2, y2, s2, w2) = f.ends
            arms = f", {_arms(f.arms)}" if f.arms else ""
            lines.append(
                f"  {k}: {f.joins[0]} [{x1}, {y1}] {s1} (facing {w1}) to {f.joins[1]} [{x2}, {y2}] {s2} (facing {w2}){arms}"
            )
        lines.append(f"islands: {len(self.islands)}")
        for i in self.islands:
            beside = ", beside the mainland" if i.beside_mainland else ""
            opened = ", ".join(str(k) for k in i.ferries)
            lines.append(
                f"  island {i.number}: {i.squares} squares, {_arms(i.arms)}{beside}; opened by ferry {opened}"
            )
        starts = ", ".join(
            f"[{x}, {y}]" + (" small town" if town else "") for (x, y), town in zip(self.starts, self.start_towns)
        )
        lines.append(f"start squares: {starts} (the first {self.start_squares} used by default)")
        if self.join:
            lines.append(f"joins another map along its {self.join} column of half squares")
        return "\n".join(lines)


def _located(f: MapFault) -> str:
    """A fault after its file:line:column: its square (if any) and message."""
    return (f"square [{f.square[0]}, {f.square[1]}]: " if f.square is not None else "") + f.message


def _arms(n: int) -> str:
    return f"{n} coat{'' if n == 1 else 's'} of arms"


@dataclass(frozen=True)
class MapCheck:
    """The result of checking a map file: every fault (at most 100, then a count), or the
    summary of a map that loads."""

    file: str
    faults: list[MapFault] = field(default_factory=list)
    summary: MapSummary | None = None

    @property
    def ok(self) -> bool:
        """Whether the map has no fault."""
        return not self.faults

    def __str__(self) -> str:
        if self.faults:
            lines = [f"{self.file}:{f.line}:{f.column}: {_located(f)}" if f.line else f"{self.file}: {f}" for f in self.faults]
            n = len(self.faults)
            lines.append(f"{self.file}: {n} fault{'s' if n != 1 else ''}")
            return "\n".join(lines)
        assert self.summary is not None
        return f"{self.file}: no faults\n{self.summary}"


def check(source: str | os.PathLike[str]) -> MapCheck:
    """Reads and checks a map file (a ``.toml`` path, or a built-in map's name). Raises
    ``TileDataError`` for a file that cannot be read (missing, not a regular file, larger
    than ``MAX_DATA_FILE_BYTES``, not UTF-8); faults of its contents are listed, not raised."""
    label, faults, summary_json = _core.check_map(source)
    return MapCheck(
        label,
        [MapFault(line, column, square, message) for line, column, square, message in faults],
        MapSummary._from_json(summary_json) if summary_json is not None else None,
    )


def summary(rules: Rules) -> MapSummary:
    """What the map of ``rules`` holds (two joined half maps as one); ``ValueError`` without
    a map."""
    text = rules.map_summary_json()
    if text is None:
        raise ValueError("these rules have no map (Rules(map=...))")
    return MapSummary._from_json(text)


def generate(
    seed: int,
    *,
    squares: int = 125,
    large_cities: int = 4,
    islands: int = 2,
    ferries: int = 1,
    border_pieces: int = 8,
    waves: int = 4,
    highlights: int = 2,
    towns: int = 6,
    start_squares: int = 3,
) -> str:
    """The text of a random valid map file: a mainland of ``squares`` squares grown at
    random (large-city squares included), up to ``large_cities`` large cities of 1 to 6
    squares, ``islands`` islands of 1 to 4 squares (some beside the mainland) each reached
    by one or two ferries, ``ferries`` more ferries between two coasts, ``border_pieces``
    printed roads and cities on the coast (several may face one outside square), ``waves``,
    ``highlights``, small ``towns`` and ``start_squares`` start squares anywhere on the
    mainland (the first where the start tile fits). The same arguments give the same
    file; ``RulesError`` names an argument out of range. Write it with ``write`` and play
    it with ``Rules(map=path)``."""
    return _core.generate_map(
        seed, squares, large_cities, islands, ferries, border_pieces, waves, highlights, towns, start_squares
    )


def write(text: str, path: str | os.PathLike[str]) -> str:
    """Writes a map file atomically (never over an input); returns the path, for
    ``Rules(map=...)``."""
    write_text_atomically(path, text if text.endswith("\n") else text + "\n")
    return os.fspath(path)
