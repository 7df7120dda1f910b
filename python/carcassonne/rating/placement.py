"""Rating a new player on a rule system's reference ladder: ``rate`` plays it against the
rungs around its strength and fits it into the ladder, so that its Elo is on the same
scale as every rung's (the random player at 0).

The rungs are taken in order of their fitted Elo. The first match is against the middle
rung; the player moves up after a match it wins (score above one half) and down after
one it loses, halving the range each time, until it sits between two neighbouring rungs;
then both of those neighbours are played, if they were not yet. The ladder's own links
(from its data file) and the player's matches are fitted together (``bradley_terry.fit``),
the player's matches that it won or lost in every game left out (no finite gap fits them).

>>> from carcassonne.players import Greedy
>>> from carcassonne.rating.placement import rate
>>> placed = rate("base-2p", Greedy(randomness=0.4), pairs=200)
>>> placed.below.level, placed.above.level     # between Greedy(randomness=0.5) and 0.25
(3, 4)
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from carcassonne import _reprs
from carcassonne import players as _players
from carcassonne._core import CarcassonneError, Rules
from carcassonne.rating.bradley_terry import Ladder, fit
from carcassonne.rating.errors import RatingError
from carcassonne.rating.ladder import (
    RUNGS,
    SYSTEMS,
    LadderTable,
    LinkResult,
    RungRating,
    link_from_match,
    load_ladder,
    shipped_ladder,
)
from carcassonne.rating.matches import CONFIDENCE, _count, _index, match


@dataclass(frozen=True)
class Placement:
    """A player's place on a ladder."""

    name: str
    """The player's name in the fit (the engine's name; "... (rated)" when a rung has the
    same one)."""
    system: str
    elo: float
    """Its Elo, the ladder's random player at 0."""
    low: float
    """The lower bound of its 95% interval."""
    high: float
    nearest: RungRating
    """The rung whose Elo is closest to the player's."""
    below: RungRating | None
    """The strongest rung rated below the player (None: it is below every rung)."""
    above: RungRating | None
    """The weakest rung rated above it (None: above every rung)."""
    matches: tuple[LinkResult, ...]
    """The player's matches, in the order played (a: the player, b: the rung)."""
    ladder: Ladder
    """The fit of the ladder's links and the player's."""

    def __str__(self) -> str:
        """Two or three lines: the Elo with its interval, then the rungs around it."""
        elo, lo, hi = _reprs.interval_parts(self.elo, self.low, self.high)
        lines = [
            f"{self.name} on the {self.system} ladder: Elo {elo} [{lo}, {hi}] (95%; random = 0), "
            f"nearest level {self.nearest.level} ({self.nearest.spec})"
        ]
        for label, rung in (("above", self.above), ("below", self.below)):
            if rung is not None:
                lines.append(
                    f"  {label}: level {rung.level} {rung.spec}, Elo {rung.elo:.0f} [{rung.low:.0f}, {rung.high:.0f}]"
                )
        spec = {r.number: r.spec for r in RUNGS}
        for m in self.matches:
            e = m.estimate
            swept = " (every game one way: not fitted)" if m.sweep else ""
            lines.append(
                f"  played {spec[m.b_rung]}: {m.pairs} pairs, score "
                f"{_reprs.interval(e.score, e.score_low, e.score_high)}{swept}"
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        return (
            f"Placement({self.name!r}, {self.system}, elo={_reprs.interval(self.elo, self.low, self.high)}, "
            f"nearest={self.nearest.level})"
        )


def rate(
    rules_or_system: str | Rules,
    player: _players.PlayerLike,
    pairs: int = 500,
    ladder: LadderTable | str | os.PathLike[str] | None = None,
    *,
    seed: int = 1,
    threads: int | None = None,
    progress: Callable[[str], Any] | None = None,
) -> Placement:
    """Places ``player`` on the ladder of a rule system (a name of ``SYSTEMS``, or its
    ``Rules``): matches of ``pairs`` pairs against the rungs around its strength (see the
    module), fitted with the ladder's links. ``ladder``: a ``LadderTable`` or the path of
    a data file (default: the one the package ships for the system). ``seed``: the study
    seed of the player's matches (``match``). ``progress`` gets a line per match.

    ``RatingError`` naming the argument for an unknown system, rules no ladder is for, a
    ``pairs`` not from 1 to ``MAX_PAIRS``, a player the rules cannot seat, or a player
    that won (or lost) every game against every rung it met: beyond the ladder's top (or
    bottom), where no finite Elo fits."""
    count = _count("pairs", pairs)
    seed = _index("seed", seed)
    if progress is not None and not callable(progress):
        raise RatingError(f"progress must be None or a function of one line, not {type(progress).__name__}")
    try:
        challenger = _players.parse(player)
    except CarcassonneError as e:
        raise RatingError(f"player: {e}") from None
    table = _ladder(rules_or_system, ladder)
    say: Callable[[str], Any] = progress if progress is not None else (lambda _: None)
    by_number = {r.number: r for r in RUNGS}
    order = sorted(table.rungs, key=lambda r: r.elo)
    level_of = {r.rung: r.level for r in table.rungs}

    played: dict[int, LinkResult] = {}

    def play(k: int) -> float:
        rung = order[k]
        if rung.rung not in played:
            try:
                result = match(
                    table.rules, challenger, by_number[rung.rung].settings(), count, seed=seed, threads=threads
                )
            except RatingError as refused:
                raise RatingError(str(refused).replace("player a:", "player:")) from None
            if result.partial:
                raise KeyboardInterrupt
            link = link_from_match(result, None, rung.rung, math.nan)
            played[rung.rung] = link
            e = link.estimate
            say(
                f"against level {rung.level} {rung.spec}: {link.pairs} pairs, score "
                f"{_reprs.interval(e.score, e.score_low, e.score_high)}"
            )
        return played[rung.rung].estimate.score

    low, high = 0, len(order) - 1
    while low <= high:
        k = (low + high) // 2
        if play(k) > 0.5:
            low = k + 1
        else:
            high = k - 1
    # Now order[low - 1] is the strongest rung the player beat, order[low] the weakest it
    # did not: both are played, where they exist.
    for k in (low - 1, low):
        if 0 <= k < len(order):
            play(k)

    own = list(played.values())
    fitted = [m for m in own if not m.sweep]
    if not fitted:
        side = "won" if own[0].estimate.score == 1.0 else "lost"
        where = "above the ladder's top" if side == "won" else "below its bottom"
        raise RatingError(
            f"player: {own[0].a} {side} every game against every rung it played "
            f"({', '.join(f'level {level_of[m.b_rung]}' for m in own)}), so it is {where} and no finite Elo fits it"
        )
    rung_names = {r.name for r in table.rungs}
    name = own[0].a if own[0].a not in rung_names else f"{own[0].a} (rated)"
    entries = table.fitted() + [(name, m.b, *m.entry()[2:]) for m in fitted]
    anchor = next(r.name for r in table.rungs if r.rung == RUNGS[0].number)
    whole = fit(entries, anchor=anchor, confidence=CONFIDENCE)
    rating = whole.ratings[name]
    nearest = min(table.rungs, key=lambda r: (abs(r.elo - rating.elo), r.level))
    below = [r for r in order if r.elo < rating.elo]
    above = [r for r in order if r.elo >= rating.elo]
    return Placement(
        name=name,
        system=table.system,
        elo=rating.elo,
        low=rating.low,
        high=rating.high,
        nearest=nearest,
        below=below[-1] if below else None,
        above=above[0] if above else None,
        matches=tuple(own),
        ladder=whole,
    )


def _ladder(rules_or_system: Any, ladder: Any) -> LadderTable:
    """The table to rate on: the one given, or the shipped one of the system named or
    whose rules are given."""
    if isinstance(rules_or_system, Rules):
        matching = [name for name, rules in SYSTEMS.items() if rules == rules_or_system]
        if not matching:
            raise RatingError(
                f"rules_or_system: no ladder is for these rules ({rules_or_system!r}); the systems with a ladder "
                f"are {', '.join(SYSTEMS)}"
            )
        system = matching[0]
    elif isinstance(rules_or_system, str):
        if rules_or_system not in SYSTEMS:
            raise RatingError(
                f"rules_or_system: unknown rule system {rules_or_system!r}; the systems with a ladder are "
                f"{', '.join(SYSTEMS)}"
            )
        system = rules_or_system
    else:
        raise RatingError(f"rules_or_system must be a system's name or its Rules, not {type(rules_or_system).__name__}")
    if ladder is None:
        return shipped_ladder(system)
    table = ladder if isinstance(ladder, LadderTable) else load_ladder(ladder)
    if table.system != system:
        raise RatingError(f"ladder: that ladder is of {table.system}, not {system}")
    return table


__all__ = ["Placement", "rate"]
