"""The reference ladder of each rule system: a fixed, versioned list of reference players
(the *rungs*, from the random player up to MCTS with 10,000 playouts a move), the paired
matches between neighbouring rungs (the *links*), their Bradley-Terry fit with the random
player pinned at Elo 0, and the data file that keeps it.

``RUNGS`` is the one list of rungs (every rule system of ``SYSTEMS`` has the same rungs);
``LADDER_VERSION`` changes whenever it does, so that a file built on other rungs is never
read as this list's. ``build_ladder(system)`` plays every link of ``system`` (each rung
against the one below; and against the one two below where both are cheap, so that the
fit has cycles), fits the ratings and returns a ``LadderTable``; ``LadderTable.save``
writes it as JSON, ``load_ladder`` reads it back and ``shipped_ladder`` reads the one the
package ships (``carcassonne/rating/data/SYSTEM.json``).

The data file holds the rules (``Rules.to_json``), the rules and engine versions, the
ladder version, the seed and every link's outcomes (how many pairs gave each outcome),
time and machine load, and ``checksum``: the SHA-256 of the JSON of every other field
(keys sorted, separators ``,`` and ``:``, ASCII), so that a file changed by hand is
refused. A file of another rules version, another ladder version or other rules for its
system is refused too (``RatingError`` naming the file): its games are not this engine's.
A file of another engine version is read: the engine's version changes with changes that
leave the rules alone, and the tests re-play a sample of the shipped ladder's links to
catch a change of the players' strength (``tests/test_rating_ladder.py``).

>>> from carcassonne import Rules
>>> from carcassonne.rating.ladder import RUNGS, SYSTEMS
>>> [r.spec for r in RUNGS[:2]]
['Random()', 'Greedy(randomness=0.75)']
>>> SYSTEMS["base-2p"] == Rules(), SYSTEMS["base-4p"].players
(True, 4)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import operator
import os
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from carcassonne import _reprs
from carcassonne._core import ENGINE_VERSION, RULES_VERSION, CarcassonneError, Rules
from carcassonne.files import check_output, checksum, load_json, read_input, write_text_atomically
from carcassonne.players import MCTS, Greedy, Random
from carcassonne.rating.bradley_terry import Ladder, fit
from carcassonne.rating.errors import RatingError
from carcassonne.rating.matches import (
    CONFIDENCE,
    MatchResult,
    _count,
    _estimate,
    _index,
    match,
)
from carcassonne.rating.pentanomial import Estimate

LADDER_VERSION = 2
"""The version of ``RUNGS`` and of the data file's layout: a file of another version is
refused."""


@dataclass(frozen=True)
class Rung:
    """One reference player of the ladder: its number in ``RUNGS`` (1 is the random
    player) and its settings, as data (``settings()`` makes the player)."""

    number: int
    """Its place in ``RUNGS``, from 1: fixed, whatever the rule system. The data files
    name a link's players by it and a link's deals follow from it (``link_seed``). A
    rung's *level* is its place by strength on one system's ladder
    (``RungRating.level``), which is not always its number: MCTS with 100 playouts a
    move plays below Greedy(randomness=0.25) in South Seas and above it in the base
    game."""
    kind: str
    """"random", "greedy" or "mcts"."""
    randomness: float = 0.0
    """Greedy: the chance of a uniformly random legal action instead of the greedy one."""
    playouts: int = 0
    """MCTS: playouts a move (the other settings are ``MCTS``'s defaults)."""

    def settings(self) -> Random | Greedy | MCTS:
        """The player, as ``carcassonne.players`` settings."""
        if self.kind == "random":
            return Random()
        if self.kind == "greedy":
            return Greedy(randomness=self.randomness) if self.randomness else Greedy()
        return MCTS(playouts=self.playouts)

    @property
    def spec(self) -> str:
        """The player spelled as Python writes it: ``Greedy(randomness=0.5)``."""
        if self.kind == "random":
            return "Random()"
        if self.kind == "greedy":
            return f"Greedy(randomness={self.randomness:g})" if self.randomness else "Greedy()"
        return f"MCTS(playouts={self.playouts})"

    @property
    def budget(self) -> str:
        """What it spends on a move: "none" (random), "one ply" (greedy: every legal
        action valued once), or "N playouts" (MCTS)."""
        if self.kind == "random":
            return "none"
        if self.kind == "greedy":
            return "one ply"
        return f"{self.playouts:,} playout{'s' if self.playouts != 1 else ''}"

    @property
    def cheap(self) -> bool:
        """Whether a match against it costs little: at most ``CHEAP_PLAYOUTS`` a move."""
        return self.playouts <= CHEAP_PLAYOUTS

    @property
    def deep(self) -> bool:
        """Whether a match against it costs so much that its links play ``deep_pairs``
        (``build_ladder``): more than ``DEEP_PLAYOUTS`` a move."""
        return self.playouts > DEEP_PLAYOUTS


RUNGS: tuple[Rung, ...] = (
    Rung(1, "random"),
    Rung(2, "greedy", randomness=0.75),
    Rung(3, "greedy", randomness=0.5),
    Rung(4, "greedy", randomness=0.25),
    Rung(5, "mcts", playouts=100),
    Rung(6, "greedy"),
    Rung(7, "mcts", playouts=1000),
    Rung(8, "mcts", playouts=10_000),
)
"""The rungs, the random player (pinned at Elo 0) first, in the order of their strength
in the base game (so each rung's link with the one below it is close). The greedy player
beats the random one in every game of thousands (a sweep: no finite Elo gap fits it), so
greedy players that take a random action with probability 0.75, 0.5 and 0.25 fill the
gap. MCTS with 100 playouts a move comes before the greedy player: it rates below greedy
in every rule system, and MCTS with 1,000 playouts above it."""

CHEAP_PLAYOUTS = 100
"""Rungs of at most this many playouts a move also play the rung two below them, so that
the fit has cycles (a link that disagrees with the others shows)."""

DEEP_PLAYOUTS = 1000
"""Links with a rung of more playouts a move than this play ``build_ladder``'s
``deep_pairs`` (a game of MCTS-10,000 costs about ten of MCTS-1,000)."""

SYSTEMS: dict[str, Rules] = {
    "base-2p": Rules(),
    "base-ic-tb-2p": Rules(
        tile_sets=("base", "inns-and-cathedrals", "traders-and-builders"),
        inns_and_cathedrals_scoring=True,
        traders_goods=True,
    ),
    "ferries-2p": Rules(tile_sets=("base", "ferries")),
    "south-seas-2p": Rules(tile_sets=("south-seas",)),
    "south-seas-friday-2p": Rules(tile_sets=("south-seas",), friday=True),
    "maps-continental-2p": Rules(map="continental"),
    "base-4p": Rules(players=4),
}
"""The rule systems with a ladder, by the name the command line and the data files use."""

DATA = Path(__file__).resolve().parent / "data"
"""Where the package's ladders are: ``DATA / f"{system}.json"``."""

MAX_FILE_BYTES = 1 << 20
"""The largest ladder file read (a ladder of every rung is about 20 kB)."""

FORMAT = "carcassonne-ladder"
"""The data file's ``format`` field."""


def _system(system: Any) -> tuple[str, Rules]:
    """A known system name and its rules; ``RatingError`` naming ``system`` otherwise."""
    if not isinstance(system, str) or system not in SYSTEMS:
        raise RatingError(
            f"system: unknown rule system {reprlib.repr(system)}; the systems with a ladder are {', '.join(SYSTEMS)}"
        )
    return system, SYSTEMS[system]


@dataclass(frozen=True)
class LinkResult:
    """One match of the ladder (or of a player being rated against a rung): ``a``
    against ``b``, their pairs' outcomes summed up, and what it cost."""

    a: str
    """a's name, as the engine gives it ("greedy", "mcts(playouts=100,c=0.1,cutoff=8)")."""
    b: str
    a_rung: int | None
    """a's rung number (``Rung.number``), or None for a player being rated."""
    b_rung: int
    seed: int
    """The study seed of its deals (``match``'s ``seed``; deals ``0 .. pairs``)."""
    outcomes: tuple[tuple[float, int], ...]
    """How many pairs gave a each outcome: ``(a's win share summed over the pair's games,
    pairs)``, by increasing outcome."""
    estimate: Estimate
    """a's score and Elo against b with 95% intervals (``MatchResult.estimate``)."""
    seconds: float = dataclasses.field(compare=False)
    """Wall-clock seconds the match took (not compared: two links of the same games are
    equal)."""
    load: float = dataclasses.field(compare=False)
    """The machine's load average over the minute before the match (``os.getloadavg``),
    as the time depends on it; NaN where the system does not tell. Not compared."""
    seats: int = 2

    @property
    def pairs(self) -> int:
        """The pairs played."""
        return sum(n for _, n in self.outcomes)

    @property
    def sweep(self) -> bool:
        """True when one side won every game: no finite Elo gap fits the link."""
        return self.estimate.score in (0.0, 1.0)

    def entry(self) -> tuple[str, str, float, int]:
        """The link as one entry of ``bradley_terry.fit``: ``(a, b, a's score, games)``.
        Two seats: a's win shares summed, two games a pair. More seats: the head-to-head
        score ``q`` (``MatchResult``'s Luce reading) as ``q n`` of ``n`` games, ``n`` the
        number of independent games that would give ``q``'s interval, so that the fit
        weighs the link by what it measured."""
        if self.seats == 2:
            return self.a, self.b, sum(v * n for v, n in self.outcomes), 2 * self.pairs
        e = self.estimate
        q = e.score
        se = (e.score_high - e.score_low) / (2 * NormalDist().inv_cdf(0.5 + e.confidence / 2))
        games = max(1, round(q * (1 - q) / se**2)) if se > 0 else 2 * self.pairs
        return self.a, self.b, q * games, games

    def __repr__(self) -> str:
        """``LinkResult(greedy vs random, pairs=2000, score=..., elo=..., seconds=...)``."""
        e = self.estimate
        return (
            f"LinkResult({self.a} vs {self.b}, pairs={self.pairs}, "
            f"score={_reprs.interval(e.score, e.score_low, e.score_high)}, "
            f"elo={_reprs.interval(e.elo, e.elo_low, e.elo_high)}, seconds={_reprs.number(self.seconds)})"
        )


def link_from_match(result: MatchResult, a_rung: int | None, b_rung: int, load: float) -> LinkResult:
    """A ladder link from a finished match."""
    values, tallies = np.unique(result.outcomes, return_counts=True)
    return LinkResult(
        a=result.players[0],
        b=result.players[1],
        a_rung=a_rung,
        b_rung=b_rung,
        seed=result.seed,
        outcomes=tuple((float(v), int(n)) for v, n in zip(values, tallies)),
        estimate=result.estimate,
        # Rounded as the data file keeps them, so that a table read back equals it.
        seconds=round(result.seconds, 3),
        load=load if math.isnan(load) else round(load, 2),
        seats=result.seats,
    )


@dataclass(frozen=True)
class RungRating:
    """One rung's place on a built ladder."""

    level: int
    """Its place by fitted Elo on this ladder, from 1 (the random player) up: ask for
    "an opponent of level 4" with ``opponent(system, 4)``. Where two rungs' intervals
    overlap, their levels may swap when the ladder is built again."""
    rung: int
    """Its number in ``RUNGS`` (``Rung.number``), which names it in the data file."""
    name: str
    """The engine's name of the player (the fit's key)."""
    spec: str
    """The player as Python spells it (``Rung.spec``)."""
    budget: str
    elo: float
    """Its fitted Elo, the random player at 0."""
    low: float
    """The lower bound of its 95% interval (relative to the random player)."""
    high: float
    pairs: int
    """Pairs of its link with the rung below it in ``RUNGS`` (0 for the random player)."""
    seconds: float = dataclasses.field(compare=False)
    """Seconds that link took (not compared)."""

    def __repr__(self) -> str:
        return (
            f"RungRating(level={self.level}, rung={self.rung}, {self.spec}, budget={self.budget!r}, "
            f"elo={_reprs.interval(self.elo, self.low, self.high)}, pairs={self.pairs})"
        )


@dataclass(frozen=True)
class LadderTable:
    """A built ladder: the rungs with their fitted Elo, the links they were fitted from,
    and how the ladder was built. ``str()`` is the table ``carcassonne ladder show``
    prints."""

    system: str
    rules: Rules
    rungs: tuple[RungRating, ...]
    """By level (fitted Elo), the random player first."""
    links: tuple[LinkResult, ...]
    """Every match played, in the order played (sweeps too: they are not fitted)."""
    ladder: Ladder = dataclasses.field(compare=False)
    """The Bradley-Terry fit of the links that are not sweeps."""
    seed: int
    pairs_per_link: int
    search_pairs: int
    """Pairs of the links with an MCTS rung (but a deep one)."""
    deep_pairs: int
    """Pairs of the links with a rung of more than ``DEEP_PLAYOUTS`` playouts."""
    command: str
    """The command that builds this ladder again."""
    seconds: float = dataclasses.field(compare=False)
    """Wall-clock seconds of every link together (not compared: two tables of the same
    games are equal)."""
    cores: int = dataclasses.field(compare=False)
    """The machine's cores when it was built (not compared)."""
    rules_version: int = RULES_VERSION
    engine_version: str = ENGINE_VERSION
    ladder_version: int = LADDER_VERSION

    def rung(self, level: int) -> RungRating:
        """The rung of ``level``; ``RatingError`` if the ladder has none."""
        for r in self.rungs:
            if r.level == level:
                return r
        raise RatingError(
            f"level: the {self.system} ladder has no level {level!r} (levels {self.rungs[0].level} to "
            f"{self.rungs[-1].level})"
        )

    def fitted(self) -> list[tuple[str, str, float, int]]:
        """The fit's entries: every link but the sweeps."""
        return [link.entry() for link in self.links if not link.sweep]

    def to_dict(self) -> dict[str, Any]:
        """The data file's content, checksum included."""
        doc: dict[str, Any] = {
            "format": FORMAT,
            "ladder_version": self.ladder_version,
            "system": self.system,
            "rules_version": self.rules_version,
            "engine_version": self.engine_version,
            "rules": json.loads(self.rules.to_json()),
            "seed": self.seed,
            "pairs_per_link": self.pairs_per_link,
            "search_pairs": self.search_pairs,
            "deep_pairs": self.deep_pairs,
            "command": self.command,
            "seconds": round(self.seconds, 3),
            "cores": self.cores,
            "rungs": [
                {
                    "level": r.level,
                    "rung": r.rung,
                    "name": r.name,
                    "spec": r.spec,
                    "budget": r.budget,
                    # Rounded for reading: load_ladder fits the links again.
                    "elo": round(r.elo, 2),
                    "low": round(r.low, 2),
                    "high": round(r.high, 2),
                }
                for r in self.rungs
            ],
            "links": [
                {
                    "a": link.a,
                    "b": link.b,
                    "a_rung": link.a_rung,
                    "b_rung": link.b_rung,
                    "seed": link.seed,
                    "pairs": link.pairs,
                    "outcomes": [[v, n] for v, n in link.outcomes],
                    "score": link.estimate.score,
                    "score_low": link.estimate.score_low,
                    "score_high": link.estimate.score_high,
                    "seconds": round(link.seconds, 3),
                    "load": None if math.isnan(link.load) else round(link.load, 2),
                }
                for link in self.links
            ],
        }
        doc["checksum"] = checksum(doc)
        return doc

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the data file atomically (``files.write_text_atomically``)."""
        text = json.dumps(self.to_dict(), indent=1, allow_nan=False) + "\n"
        write_text_atomically(path, text, what="ladder file")

    def __str__(self) -> str:
        """The table: one row per rung by level (level, rung number, player, budget, Elo with its 95%
        interval, the pairs and seconds of its link with the rung below it in ``RUNGS``),
        then the command that built it."""
        head = (
            f"{'level':>5} {'rung':>4}  {'player':<24} {'budget':<17} {'Elo':>6}  {'95% interval':<16} {'pairs':>6} "
            f"{'seconds':>8}"
        )
        lines = [
            f"{self.system} ladder: rules version {self.rules_version}, engine {self.engine_version}, "
            f"ladder version {self.ladder_version}",
            head,
        ]
        for r in self.rungs:
            if r.level == 1:
                interval = "(anchor)"
                elo = "0"
            else:
                elo, lo, hi = _reprs.interval_parts(r.elo, r.low, r.high)
                interval = f"[{lo}, {hi}]"
            pairs = f"{r.pairs:>6}" if r.pairs else f"{'-':>6}"
            seconds = f"{r.seconds:>8.1f}" if r.pairs else f"{'-':>8}"
            lines.append(f"{r.level:>5} {r.rung:>4}  {r.spec:<24} {r.budget:<17} {elo:>6}  {interval:<16} {pairs} {seconds}")
        lines.append(f"built by: {self.command} ({self.seconds:,.0f} s on {self.cores} cores)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        shown = ", ".join(f"{r.level}: {r.spec} {_reprs.interval(r.elo, r.low, r.high)}" for r in self.rungs)
        return f"LadderTable({self.system}, rules_version={self.rules_version}, rungs=[{shown}])"


def rungs(system: str, max_rung: int | None = None) -> tuple[Rung, ...]:
    """The rungs of ``system`` up to ``max_rung`` (all of them by default)."""
    _system(system)
    top = _max_rung(max_rung)
    return tuple(r for r in RUNGS if r.number <= top)


def _max_rung(max_rung: Any) -> int:
    if max_rung is None:
        return RUNGS[-1].number
    if isinstance(max_rung, bool):
        raise RatingError("max_rung must be an integer, not bool")
    try:
        top = operator.index(max_rung)
    except TypeError:
        raise RatingError(f"max_rung must be an integer, not {type(max_rung).__name__}") from None
    if not 2 <= top <= RUNGS[-1].number:
        raise RatingError(
            f"max_rung must be between 2 and {RUNGS[-1].number} (a ladder needs two rungs), got {reprlib.repr(top)}"
        )
    return top


def links(system: str, max_rung: int | None = None) -> list[tuple[Rung, Rung]]:
    """The links a build plays, (higher rung, lower rung): each rung against the one
    below it, and against the one two below when both are cheap (``CHEAP_PLAYOUTS``)."""
    chosen = rungs(system, max_rung)
    out: list[tuple[Rung, Rung]] = []
    for k in range(1, len(chosen)):
        out.append((chosen[k], chosen[k - 1]))
        if k >= 2 and chosen[k].cheap and chosen[k - 2].cheap:
            out.append((chosen[k], chosen[k - 2]))
    return out


def link_seed(seed: int, a_rung: int, b_rung: int) -> int:
    """The study seed of one link's deals: its own deals for every link (a hash of the
    ladder's seed and the two rung numbers), so that no two links share their luck."""
    digest = hashlib.sha256(f"carcassonne-ladder/{seed}/{a_rung}/{b_rung}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def _load_average() -> float:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return math.nan


def build_ladder(
    system: str,
    pairs_per_link: int = 2000,
    max_rung: int | None = None,
    *,
    search_pairs: int | None = None,
    deep_pairs: int | None = None,
    seed: int = 2026,
    threads: int | None = None,
    progress: Callable[[str], Any] | None = None,
    out: str | os.PathLike[str] | None = None,
    reuse: LadderTable | None = None,
) -> LadderTable:
    """Plays every link of ``system``'s ladder up to ``max_rung`` (``links``), fits the
    ratings with the random player pinned at Elo 0 and returns the ``LadderTable``; with
    ``out``, writes it there too (checked before any game is played).

    Each link is a paired match (``rating.match``) of ``pairs_per_link`` pairs, or
    ``search_pairs`` (default: ``pairs_per_link``) when one side is an MCTS rung, or
    ``deep_pairs`` (default: ``search_pairs``) when one side is a rung of more than
    ``DEEP_PLAYOUTS`` playouts (fewer pairs and a wider interval for the dearest rung), on deals
    of its own (``link_seed``). ``progress`` gets one line per link played. ``reuse``: a
    table built before with the same rules, versions and seed, whose links of the same
    rungs and pairs are taken as they are instead of being played again (to add a rung
    on top of a built ladder).

    A link between neighbouring rungs won by one side in every game cannot be rated (no
    finite gap fits it): ``RatingError`` naming the link, at once; add a rung between them
    to ``RUNGS``. A link two rungs apart that sweeps is kept in the table and left out of
    the fit. Bad arguments (an unknown system, pairs not from 1 to ``MAX_PAIRS``, a rung
    number not on the list, an output that cannot be written) raise ``RatingError`` (or
    ``OutputFileError`` for ``out``) naming the argument, before any game."""
    name, rules = _system(system)
    pairs = _count("pairs_per_link", pairs_per_link)
    search = pairs if search_pairs is None else _count("search_pairs", search_pairs)
    deep = search if deep_pairs is None else _count("deep_pairs", deep_pairs)
    top = _max_rung(max_rung)
    seed = _index("seed", seed)
    if progress is not None and not callable(progress):
        raise RatingError(f"progress must be None or a function of one line, not {type(progress).__name__}")
    if reuse is not None and not isinstance(reuse, LadderTable):
        raise RatingError(f"reuse must be a LadderTable, not {type(reuse).__name__}")
    if out is not None:
        check_output(out, what="ladder file")
    say: Callable[[str], Any] = progress if progress is not None else (lambda _: None)
    kept = _reusable(reuse, name, rules, seed)
    played: list[LinkResult] = []
    for high, low in links(name, top):
        count = deep if high.deep or low.deep else search if "mcts" in (high.kind, low.kind) else pairs
        link_seed_ = link_seed(seed, high.number, low.number)
        old = kept.get((high.number, low.number))
        if old is not None and old.pairs == count and old.seed == link_seed_:
            link = old
            say(f"{name}: rung {high.number} vs {low.number}: taken from the earlier ladder ({link.pairs} pairs)")
        else:
            load = _load_average()
            result = match(rules, high.settings(), low.settings(), count, seed=link_seed_, threads=threads)
            if result.partial:
                raise KeyboardInterrupt
            link = link_from_match(result, high.number, low.number, load)
            e = link.estimate
            say(
                f"{name}: rung {high.number} {high.spec} vs rung {low.number} {low.spec}: {link.pairs} pairs, "
                f"score {_reprs.interval(e.score, e.score_low, e.score_high)}, "
                f"elo {_reprs.interval(e.elo, e.elo_low, e.elo_high)}, {link.seconds:.1f} s (load {load:.2f})"
            )
        if link.sweep and high.number - low.number == 1:
            winner, loser = (high, low) if link.estimate.score == 1.0 else (low, high)
            raise RatingError(
                f"link rung {high.number} - rung {low.number} of {name}: {winner.spec} won every game of "
                f"{link.pairs} pairs against {loser.spec}, so no finite Elo gap fits it; add a rung between "
                "them to the ladder's list (RUNGS)"
            )
        played.append(link)
    table = _table(
        name,
        rules,
        played,
        seed=seed,
        pairs_per_link=pairs,
        search_pairs=search,
        deep_pairs=deep,
        command=_command(name, pairs, search, deep, top, seed),
        seconds=round(sum(link.seconds for link in played), 3),
        cores=os.cpu_count() or 1,
    )
    if out is not None:
        table.save(out)
    return table


def _reusable(reuse: LadderTable | None, system: str, rules: Rules, seed: int) -> dict[tuple[int, int], LinkResult]:
    """The links of ``reuse`` a new build may take: none unless it is of the same system,
    rules, versions and seed."""
    if reuse is None:
        return {}
    same = (
        reuse.system == system
        and reuse.rules == rules
        and reuse.seed == seed
        and reuse.rules_version == RULES_VERSION
        and reuse.engine_version == ENGINE_VERSION
        and reuse.ladder_version == LADDER_VERSION
    )
    if not same:
        raise RatingError(
            f"reuse: that ladder ({reuse.system}, seed {reuse.seed}, rules version {reuse.rules_version}, engine "
            f"{reuse.engine_version}) is not of this build ({system}, seed {seed}, rules version {RULES_VERSION}, "
            f"engine {ENGINE_VERSION})"
        )
    return {(link.a_rung, link.b_rung): link for link in reuse.links if link.a_rung is not None}


def _command(system: str, pairs: int, search: int, deep: int, top: int, seed: int) -> str:
    """The command line that builds the same ladder."""
    words = [f"carcassonne ladder build {system} --pairs {pairs}"]
    if search != pairs:
        words.append(f"--search-pairs {search}")
    if deep != search and top >= min(r.number for r in RUNGS if r.deep):
        words.append(f"--deep-pairs {deep}")
    if top != RUNGS[-1].number:
        words.append(f"--max-rung {top}")
    if seed != 2026:
        words.append(f"--seed {seed}")
    return " ".join(words)


def _table(
    system: str,
    rules: Rules,
    played: Sequence[LinkResult],
    *,
    seed: int,
    pairs_per_link: int,
    search_pairs: int,
    deep_pairs: int,
    command: str,
    seconds: float,
    cores: int,
    rules_version: int = RULES_VERSION,
    engine_version: str = ENGINE_VERSION,
) -> LadderTable:
    """Fits the links and builds the table."""
    numbers = sorted({link.b_rung for link in played} | {link.a_rung for link in played if link.a_rung is not None})
    by_number = {r.number: r for r in RUNGS}
    names: dict[int, str] = {}
    for link in played:
        if link.a_rung is not None:
            names[link.a_rung] = link.a
        names[link.b_rung] = link.b
    entries = [link.entry() for link in played if not link.sweep]
    ladder = fit(entries, anchor=names[RUNGS[0].number], confidence=CONFIDENCE)
    below = {link.a_rung: link for link in played if link.a_rung is not None and link.a_rung - link.b_rung == 1}
    # Levels by fitted Elo, the random player first whatever its fit (it is the anchor);
    # rungs of equal Elo by their numbers, so that the order is always the same.
    by_strength = sorted(numbers, key=lambda n: (n != RUNGS[0].number, ladder.ratings[names[n]].elo, n))
    rated = []
    for level, number in enumerate(by_strength, start=1):
        rating = ladder.ratings[names[number]]
        step = below.get(number)
        rated.append(
            RungRating(
                level=level,
                rung=number,
                name=names[number],
                spec=by_number[number].spec,
                budget=by_number[number].budget,
                elo=rating.elo,
                low=rating.low,
                high=rating.high,
                pairs=step.pairs if step is not None else 0,
                seconds=step.seconds if step is not None else 0.0,
            )
        )
    return LadderTable(
        system=system,
        rules=rules,
        rungs=tuple(rated),
        links=tuple(played),
        ladder=ladder,
        seed=seed,
        pairs_per_link=pairs_per_link,
        search_pairs=search_pairs,
        deep_pairs=deep_pairs,
        command=command,
        seconds=seconds,
        cores=cores,
        rules_version=rules_version,
        engine_version=engine_version,
    )


def load_ladder(path: str | os.PathLike[str]) -> LadderTable:
    """The ladder of a data file (``LadderTable.save``), fitted again from its links.

    ``RatingError`` naming the file for: a file that cannot be read or is not a ladder
    file; another ladder version; another rules version (naming both); rules that are no
    longer those of its system; a checksum that does not match the content (the file was
    changed after it was written)."""
    where = os.fspath(path)
    data = read_input(where, MAX_FILE_BYTES, RatingError, "ladder file")
    doc = load_json(data, where, RatingError)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise RatingError(f"{where}: not a ladder file (no \"format\": \"{FORMAT}\")")
    if doc.get("ladder_version") != LADDER_VERSION:
        raise RatingError(
            f"{where}: ladder version {reprlib.repr(doc.get('ladder_version'))}, but this package's rungs are "
            f"version {LADDER_VERSION}; build it again"
        )
    if doc.get("rules_version") != RULES_VERSION:
        raise RatingError(
            f"{where}: built under rules version {reprlib.repr(doc.get('rules_version'))}, but this engine "
            f"plays rules version {RULES_VERSION}: its games are not this engine's; build it again"
        )
    if doc.get("checksum") != checksum(doc):
        raise RatingError(
            f"{where}: its checksum does not match its content: the file was changed after it was written; "
            "build it again"
        )
    try:
        return _from_dict(doc, where)
    except (KeyError, TypeError, ValueError, CarcassonneError) as e:
        if isinstance(e, RatingError):
            raise
        raise RatingError(f"{where}: not a ladder file: {type(e).__name__}: {e}") from None


def _from_dict(doc: dict[str, Any], where: str) -> LadderTable:
    """A table from a checked file's content."""
    system, rules = _system(doc["system"])
    stored = Rules.from_json(json.dumps(doc["rules"]))
    if stored != rules:
        raise RatingError(f"{where}: its rules are not those of {system} now ({stored!r}); build it again")
    seats = int(rules.players)
    played = []
    for entry in doc["links"]:
        outcomes = tuple((float(v), int(n)) for v, n in entry["outcomes"])
        values = np.repeat([v for v, _ in outcomes], [n for _, n in outcomes]).astype(np.float64)
        played.append(
            LinkResult(
                a=str(entry["a"]),
                b=str(entry["b"]),
                a_rung=None if entry["a_rung"] is None else int(entry["a_rung"]),
                b_rung=int(entry["b_rung"]),
                seed=int(entry["seed"]),
                outcomes=outcomes,
                estimate=_estimate(values, seats),
                seconds=float(entry["seconds"]),
                load=math.nan if entry["load"] is None else float(entry["load"]),
                seats=seats,
            )
        )
    return _table(
        system,
        rules,
        played,
        seed=int(doc["seed"]),
        pairs_per_link=int(doc["pairs_per_link"]),
        search_pairs=int(doc["search_pairs"]),
        deep_pairs=int(doc["deep_pairs"]),
        command=str(doc["command"]),
        seconds=float(doc["seconds"]),
        cores=int(doc["cores"]),
        rules_version=int(doc["rules_version"]),
        engine_version=str(doc["engine_version"]),
    )


def opponent(system: str, level: int) -> Random | Greedy | MCTS:
    """The reference player of ``level`` on ``system``'s shipped ladder, as settings any
    study takes: ``opponent("base-2p", 1)`` is ``Random()``, and each level up is the
    next stronger rung by fitted Elo. ``RatingError`` naming ``level`` if the ladder has
    no such level.

    >>> opponent("base-2p", 1)
    Random()
    """
    table = shipped_ladder(system)
    if isinstance(level, bool) or not isinstance(level, int):
        raise RatingError(f"level must be an integer, not {type(level).__name__}")
    number = table.rung(level).rung
    return next(r for r in RUNGS if r.number == number).settings()


def ladder_path(system: str) -> Path:
    """Where the package keeps ``system``'s ladder (whether or not one is shipped)."""
    name, _ = _system(system)
    return DATA / f"{name}.json"


def shipped_ladder(system: str) -> LadderTable:
    """The ladder the package ships for ``system``; ``RatingError`` if it ships none (or
    ``load_ladder``'s refusals)."""
    path = ladder_path(system)
    if not path.is_file():
        shipped = ", ".join(sorted(p.stem for p in DATA.glob("*.json"))) or "none"
        raise RatingError(
            f"system: no ladder is shipped for {system} yet (shipped: {shipped}); build one with "
            f"`carcassonne ladder build {system} --out FILE`"
        )
    return load_ladder(path)


__all__ = [
    "CHEAP_PLAYOUTS",
    "DEEP_PLAYOUTS",
    "DATA",
    "LADDER_VERSION",
    "RUNGS",
    "SYSTEMS",
    "LadderTable",
    "LinkResult",
    "Rung",
    "RungRating",
    "build_ladder",
    "checksum",
    "ladder_path",
    "link_from_match",
    "link_seed",
    "links",
    "load_ladder",
    "opponent",
    "rungs",
    "shipped_ladder",
]
