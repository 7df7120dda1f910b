"""Players for studies and search: the built-in ones as small settings objects, and
Python functions as players.

A study's lineup (``simulate(..., players=...)``) is one player for every seat, or a list
with one per seat. Each entry is one of:

- a name: ``"random"``, ``"greedy"`` or ``"mcts"`` (default settings), or a greedy
  player's own name with its randomness (``"greedy(randomness=0.25)"``);
- a settings object: ``Random()``, ``Greedy()``, ``Greedy(randomness=0.5)``,
  ``MCTS(playouts=2000, exploration=0.2)``, ``Learned()`` (the learned evaluation the
  package ships for the game's rules, one ply deep; ``"learned"`` too) or
  ``Learned("weights.json")`` (weights of your own, ``carcassonne train``);
- a function ``f(game) -> Move | Decision`` (a ``PythonPlayer``): called once per action
  with the GIL held, on a copy of the game whose hidden order (tiles still to come,
  face-down ships, Friday tiles not yet revealed) is reshuffled, so that it cannot see the
  future. Slow (thousands of actions a second, not millions): for testing your own agent
  against the built-in ones, not for bulk studies.

>>> from carcassonne import Rules, simulate
>>> from carcassonne.players import MCTS
>>> r = simulate(Rules(), games=2, seed=1, players=[MCTS(playouts=50), "greedy"])
"""

from __future__ import annotations

import decimal
import math
import operator
import os
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from carcassonne._core import PlayerError

if TYPE_CHECKING:
    from carcassonne._core import Decision, Game, Move
    from carcassonne.learn.value import LearnedValue

NAMES = ("random", "greedy", "mcts", "learned", "learned-expectimax")
"""The built-in players' names."""


@dataclass(frozen=True)
class Random:
    """Uniform over the legal actions (placement and meeple choice jointly; the Maps
    extra turn taken or not at evens)."""

    @property
    def name(self) -> str:
        """The name the engine gives this player: "random"."""
        return "random"

    def _spec(self) -> tuple[Any, ...]:
        return ("random",)


@dataclass(frozen=True)
class Greedy:
    """The action that most improves the player's virtual score (the score if the game
    ended now) over the best opponent's; ties uniform. The Maps extra turn, which changes
    no score itself, by the lead expected after the next tile (averaged over the unseen
    tile kinds that fit, each placed by the greedy move of whoever draws it).

    ``randomness`` (0 to 1, default 0): the chance that an action (a placement with its
    meeple and ferry choices, or any decision) is instead the one the random player
    would take. Between the random player (1) and the greedy one (0) in strength, for
    ladders of rated players, whose neighbours must each win some games and lose some
    for a rating to measure the gap. The choice is drawn from the game's own random
    stream, so results repeat at a seed for any thread count; at 0 the player is exactly
    the greedy player, and at 1 exactly the random player.

    >>> Greedy(randomness=0.25).name
    'greedy(randomness=0.25)'
    """

    randomness: float = 0.0

    def __post_init__(self) -> None:
        value = self.randomness
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise PlayerError(f"Greedy randomness must be a number from 0 to 1, not {type(value).__name__}")
        # Compared before any conversion: an int too large for a float is out of range,
        # not an OverflowError.
        if not 0 <= value <= 1:
            raise PlayerError(f"Greedy randomness must be a number from 0 to 1, got {reprlib.repr(value)}")
        # Held as a float (an int 1 or -0.0 is the same player as 1.0 or 0.0), so that
        # equal settings compare and hash equal and the name is the engine's.
        object.__setattr__(self, "randomness", float(value) + 0.0)

    @property
    def name(self) -> str:
        """The name the engine gives this player: "greedy" with no randomness, else e.g.
        "greedy(randomness=0.25)"."""
        if self.randomness == 0.0:
            return "greedy"
        return f"{_GREEDY_NAME}{_engine_number(self.randomness)})"

    def _spec(self) -> tuple[Any, ...]:
        return ("greedy", self.randomness)


_GREEDY_NAME = "greedy(randomness="
"""How the name of a greedy player with randomness begins."""


def _engine_number(value: float) -> str:
    """``value`` as the engine writes a number: the fewest digits that read back the same,
    with no exponent and no trailing ".0" (``1e-07`` is "0.0000001", ``1.0`` is "1")."""
    text = format(decimal.Decimal(repr(value)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


MAX_PLAYOUTS = 10_000_000
"""The most playouts per action an ``MCTS`` player accepts."""

MAX_SECONDS = 86400.0
"""The longest time per action an ``MCTS`` player accepts (a day)."""

MAX_PRIOR = 1000
"""The most prior visits a ``LearnedSearch`` child starts with."""

MAX_WIDTH = 1000
"""The most actions a ``LearnedExpectimax`` looks ahead at."""

MAX_CUTOFF = 1000
"""The longest playout, in tiles, an ``MCTS`` player accepts as a cut-off (``None``
plays to the end)."""


@dataclass(frozen=True)
class MCTS:
    """Information-set Monte Carlo tree search (UCT): every iteration samples the hidden
    information anew, descends by UCT with exploration constant ``exploration``, and
    plays on at random for ``cutoff`` tiles, where the virtual scores (the score if the
    game ended there) judge the playout; ``cutoff=None`` plays every playout to the end
    and judges the final scores. The defaults (exploration 0.1, cut-off 8 tiles) are the
    settings measured strongest against the greedy player (docs/guide/players.md).

    ``playouts`` iterations per action; with ``seconds`` set, it stops at whichever
    budget ends first (a time budget makes results depend on the machine's speed, so a
    study with one is not reproducible). At a fixed seed a playout budget gives the same
    moves on every machine and for every thread count."""

    playouts: int = 1000
    exploration: float = 0.1
    seconds: float | None = None
    cutoff: int | None = 8

    def __post_init__(self) -> None:
        try:
            playouts = operator.index(self.playouts)
        except TypeError:
            raise PlayerError(f"MCTS playouts must be an integer, not {type(self.playouts).__name__}") from None
        if not 1 <= playouts <= MAX_PLAYOUTS:
            raise PlayerError(f"MCTS playouts must be between 1 and {MAX_PLAYOUTS}, got {reprlib.repr(playouts)}")
        _finite("exploration", self.exploration, 0.0, 100.0)
        if self.seconds is not None:
            _finite("seconds", self.seconds, 0.0, MAX_SECONDS)
            if self.seconds <= 0:
                raise PlayerError(f"MCTS seconds must be positive, got {self.seconds!r}")
        if self.cutoff is not None:
            try:
                cutoff = operator.index(self.cutoff)
            except TypeError:
                raise PlayerError(
                    f"MCTS cutoff must be a whole number of tiles or None, not {type(self.cutoff).__name__}"
                ) from None
            if not 0 <= cutoff <= MAX_CUTOFF:
                raise PlayerError(f"MCTS cutoff must be between 0 and {MAX_CUTOFF} tiles, got {reprlib.repr(cutoff)}")

    @property
    def name(self) -> str:
        """The name the engine gives these settings (e.g. in ``SimulationResult.players``)."""
        time = "" if self.seconds is None else f",time={self.seconds:g}s"
        cutoff = "" if self.cutoff is None else f",cutoff={self.cutoff}"
        return f"mcts(playouts={self.playouts}{time},c={self.exploration:g}{cutoff})"

    def _spec(self) -> tuple[Any, ...]:
        cutoff = None if self.cutoff is None else operator.index(self.cutoff)
        return ("mcts", int(self.playouts), float(self.exploration), self.seconds, cutoff)


@dataclass(frozen=True, init=False)
class Learned:
    """The one-ply learned player: it takes the action after which the learned
    evaluation (``carcassonne.learn.value``) values its position most, on a copy of the
    game whose unseen tiles were reshuffled (so it never reads the draw order). About a
    quarter of a millisecond a move on one core.

    ``Learned()`` uses the weights the package ships for the game's rules (a lineup's
    ``"learned"`` is the same); ``Learned(value)`` takes a ``LearnedValue`` or the path of a
    weights file of your own (``carcassonne train``), checked when it is read. Seating it
    in a game of rules it was not learned for raises ``PlayerError``."""

    value: LearnedValue | None

    def __init__(self, value: LearnedValue | str | os.PathLike[str] | None = None) -> None:
        from carcassonne.learn.value import LearnedValue, load_value

        if value is not None and not isinstance(value, LearnedValue):
            if not isinstance(value, (str, os.PathLike)):
                raise PlayerError(
                    f"Learned takes a LearnedValue, the path of a weights file or None, not {type(value).__name__}"
                )
            value = load_value(value)
        object.__setattr__(self, "value", value)

    @property
    def name(self) -> str:
        """The name the engine gives this player: "learned", or its weights' name."""
        return "learned" if self.value is None else self.value.name

    def __repr__(self) -> str:
        return "Learned()" if self.value is None else f"Learned({self.value!r})"

    def _spec(self) -> tuple[Any, ...]:
        return ("learned", None, None, None) if self.value is None else self.value._spec()


@dataclass(frozen=True, init=False)
class LearnedSearch:
    """MCTS that judges each iteration by the learned evaluation of the position where it
    leaves the tree, instead of by a random playout (``carcassonne.learn.value``): the
    search of ``MCTS`` (information sets, UCT with ``exploration``, ``playouts``
    iterations a move, or ``seconds``), a seat's reward ``(1 + value) / 2``.

    ``prior``: a node's actions are all valued at once, when the node is first reached,
    and each child starts with ``prior`` visits of the value after its action (so the
    first iteration at the root makes the one-ply player's choice, and the later ones look
    at the replies); 0 expands one action at a time, at random, as MCTS does.

    ``value``: None for the evaluation the package ships for the game's rules, a
    ``LearnedValue`` or the path of a weights file. Settings are checked as ``MCTS``
    checks them (``PlayerError``).

    Experimental: it is not yet stronger than the one-ply player (docs, "The learned
    player")."""

    playouts: int
    exploration: float
    seconds: float | None
    prior: int
    value: LearnedValue | None

    def __init__(
        self,
        playouts: int = 100,
        exploration: float = 0.1,
        seconds: float | None = None,
        prior: int = 2,
        value: LearnedValue | str | os.PathLike[str] | None = None,
    ) -> None:
        MCTS(playouts=playouts, exploration=exploration, seconds=seconds)  # the same checks
        try:
            visits = operator.index(prior)
        except TypeError:
            raise PlayerError(f"LearnedSearch prior must be an integer, not {type(prior).__name__}") from None
        if not 0 <= visits <= MAX_PRIOR:
            raise PlayerError(f"LearnedSearch prior must be between 0 and {MAX_PRIOR}, got {reprlib.repr(visits)}")
        object.__setattr__(self, "playouts", operator.index(playouts))
        object.__setattr__(self, "exploration", float(exploration))
        object.__setattr__(self, "seconds", seconds)
        object.__setattr__(self, "prior", visits)
        object.__setattr__(self, "value", Learned(value).value)

    @property
    def name(self) -> str:
        """The name the engine gives these settings."""
        time = "" if self.seconds is None else f",time={self.seconds:g}s"
        value = "learned" if self.value is None else self.value.name
        return f"{value}-search(playouts={self.playouts}{time},c={self.exploration:g},prior={self.prior})"

    def __repr__(self) -> str:
        parts = [f"playouts={self.playouts}", f"exploration={self.exploration:g}"]
        if self.seconds is not None:
            parts.append(f"seconds={self.seconds:g}")
        parts.append(f"prior={self.prior}")
        if self.value is not None:
            parts.append(f"value={self.value!r}")
        return f"LearnedSearch({', '.join(parts)})"

    def _spec(self) -> tuple[Any, ...]:
        value = (None, None, None) if self.value is None else self.value._spec()[1:]
        return ("learned-search", self.playouts, self.exploration, self.seconds, self.prior, *value)


@dataclass(frozen=True, init=False)
class LearnedExpectimax:
    """The learned evaluation looking two plies ahead: of its ``width`` best actions by
    the one-ply value, it plays the one whose expected value is highest over the next
    draw, every tile kind weighed by its share of the unseen tiles (never their order),
    the next player answering each as the one-ply learned player would.

    ``width=1`` is the one-ply player. ``value``: None for the evaluation the package
    ships for the game's rules, a ``LearnedValue`` or the path of a weights file. Its cost
    grows with ``width``: see the docs' performance page."""

    width: int
    value: LearnedValue | None

    def __init__(self, width: int = 8, value: LearnedValue | str | os.PathLike[str] | None = None) -> None:
        try:
            w = operator.index(width)
        except TypeError:
            raise PlayerError(f"LearnedExpectimax width must be an integer, not {type(width).__name__}") from None
        if not 1 <= w <= MAX_WIDTH:
            raise PlayerError(f"LearnedExpectimax width must be between 1 and {MAX_WIDTH}, got {reprlib.repr(w)}")
        object.__setattr__(self, "width", w)
        object.__setattr__(self, "value", Learned(value).value)

    @property
    def name(self) -> str:
        """The name the engine gives these settings."""
        value = "learned" if self.value is None else self.value.name
        return f"{value}-expectimax(width={self.width})"

    def __repr__(self) -> str:
        value = "" if self.value is None else f", value={self.value!r}"
        return f"LearnedExpectimax(width={self.width}{value})"

    def _spec(self) -> tuple[Any, ...]:
        value = (None, None, None) if self.value is None else self.value._spec()[1:]
        return ("learned-expectimax", self.width, *value)


def _finite(what: str, value: object, low: float, high: float) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PlayerError(f"MCTS {what} must be a number, not {type(value).__name__}")
    v = float(value)
    if not math.isfinite(v) or not low <= v <= high:
        raise PlayerError(f"MCTS {what} must be between {low:g} and {high:g}, got {value!r}")


PythonPlayer: TypeAlias = "Callable[[Game], Move | Decision]"
"""A function that chooses the decider's action from a (determinized) copy of the game."""

PlayerLike: TypeAlias = "str | Random | Greedy | MCTS | Learned | LearnedSearch | LearnedExpectimax | PythonPlayer"
"""Anything a lineup accepts for one seat."""


def parse(player: PlayerLike) -> Random | Greedy | MCTS | Learned | LearnedSearch | LearnedExpectimax | Callable[..., Any]:
    """A lineup entry as a settings object (names become their default settings); a
    function stays a function. Raises ``PlayerError`` for anything else."""
    if isinstance(player, (Random, Greedy, MCTS, Learned, LearnedSearch, LearnedExpectimax)):
        return player
    if isinstance(player, str):
        if player == "random":
            return Random()
        if player == "greedy":
            return Greedy()
        if player.startswith(_GREEDY_NAME) and player.endswith(")"):
            # A greedy player's name with its randomness reads back as that player.
            text = player[len(_GREEDY_NAME) : -1]
            try:
                value = float(text)
            except ValueError:
                raise PlayerError(
                    f"Greedy randomness must be a number from 0 to 1, not {reprlib.repr(text)}"
                ) from None
            return Greedy(randomness=value)
        if player == "mcts":
            return MCTS()
        if player == "learned":
            return Learned()
        if player == "learned-expectimax":
            return LearnedExpectimax()
        raise PlayerError(
            f"unknown player {reprlib.repr(player)}: use one of {', '.join(NAMES)}, "
            "a carcassonne.players object or a function"
        )
    if callable(player):
        return player
    raise PlayerError(
        "a player is a name, a carcassonne.players object or a function game -> action, "
        f"not {type(player).__name__}"
    )


def lineup(
    players: PlayerLike | Sequence[PlayerLike],
) -> list[Random | Greedy | MCTS | Learned | LearnedSearch | LearnedExpectimax | Callable[..., Any]]:
    """One player for every seat (a single entry) or one per seat (a list or tuple)."""
    if isinstance(players, (list, tuple)):
        if not players:
            raise PlayerError("players is empty: give one player for every seat, or one per seat")
        return [parse(p) for p in players]
    return [parse(players)]  # type: ignore[arg-type]


def _specs(players: Sequence[Random | Greedy | MCTS | Learned | LearnedSearch | LearnedExpectimax | Callable[..., Any]]) -> list[Any]:
    """What the native study functions take: settings as tuples, functions as they are."""
    return [p._spec() if isinstance(p, (Random, Greedy, MCTS, Learned, LearnedSearch, LearnedExpectimax)) else p for p in players]


__all__ = [
    "MAX_PLAYOUTS",
    "MAX_SECONDS",
    "MCTS",
    "NAMES",
    "Learned",
    "LearnedExpectimax",
    "LearnedSearch",
    "Greedy",
    "PlayerLike",
    "PythonPlayer",
    "Random",
    "lineup",
    "parse",
]
