"""The learned evaluation and its weights files.

A ``LearnedValue`` values a position for every seat, from -1 (a sure loss) to 1 (a sure
win), from what a player may see: each seat's facts (virtual score, meeples in supply,
and for roads, cities and fields by how far they are from done, the points it holds,
its meeples there and the points others hold against it), less the mean of the other
seats' facts, weighted linearly (with weights blended between three stages of the game)
and squashed by ``tanh``. The engine computes it in Rust; ``Learned`` (in
``carcassonne.players``) is the one-ply player that takes the action after which it
values its position most.

Weights live in JSON files: the format and its version, the input layout
(``LEARNED_LAYOUT``: a change of the facts changes it), the rules they were learned for
(``Rules.to_json``) and the rules and engine versions, how they were trained (seed,
games, settings, command, time, learning curve), the weights, and ``checksum``: the
SHA-256 of the canonical JSON of every other field. ``load_value`` refuses, naming the
file and what is wrong, a file that is missing, truncated, not a weights file, of
another format version, layout or rules version, changed after it was written, or with
weights that are not ``LEARNED_WEIGHTS`` finite numbers; nothing is half-loaded. A value
learned for some rules plays any number of seats of them (each seat is compared with the
mean of the others), and is refused for other rules.

The package ships the weights of some rule systems (``shipped_value``), trained by
``carcassonne train`` (``carcassonne.learn.training``); ``"learned"`` in a lineup is the
shipped value of the game's rules.

>>> from carcassonne import Game, Rules
>>> value = shipped_value(Rules())
>>> value.name, len(value.weights) == LEARNED_WEIGHTS
('learned', True)
>>> value.values(Game(Rules(), seed=1))
[0.0, 0.0]
"""

from __future__ import annotations

import functools
import json
import math
import os
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carcassonne._core import (
    ENGINE_VERSION,
    LEARNED_LAYOUT,
    LEARNED_WEIGHTS,
    RULES_VERSION,
    CarcassonneError,
    Game,
    Rules,
    learned_values,
)
from carcassonne.files import checksum, load_json, read_input, write_text_atomically

FORMAT = "carcassonne-learned-value"
"""The ``format`` field of a weights file."""

FILE_VERSION = 1
"""The version of the file's fields: a file of another version is refused."""

MAX_FILE_BYTES = 4 << 20
"""The largest weights file read (a shipped file is a few kilobytes; its learning
curve is the largest part)."""

DATA = Path(__file__).parent / "data"
"""Where the shipped weights files are: ``SYSTEM.json``."""


class LearnedValueError(CarcassonneError, ValueError):
    """A weights file or weights the learned evaluation cannot use, or rules it was not
    learned for; the message names the file (or the argument) and what is wrong."""


@dataclass(frozen=True)
class LearnedValue:
    """Weights of the learned evaluation, the rules they were learned for and how they
    were trained (``load_value``, ``shipped_value``, ``carcassonne train``)."""

    weights: tuple[float, ...]
    """``LEARNED_WEIGHTS`` finite numbers."""
    rules: Rules
    """The rules they were learned for (any number of seats of them may use them)."""
    name: str = "learned"
    """The player's name in results."""
    system: str | None = None
    """The rule system's name on the strength scale (``carcassonne.rating.SYSTEMS``), if
    it is one of them."""
    training: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """How they were trained: seed, games, settings, command, seconds, threads, and the
    learning curve (``carcassonne.learn.training``)."""
    rules_version: int = RULES_VERSION
    engine_version: str = ENGINE_VERSION

    def __post_init__(self) -> None:
        check_weights(self.weights, "weights")

    def fits(self, rules: Rules) -> bool:
        """Whether these weights were learned for ``rules`` (any number of players)."""
        return _without_players(rules) == _without_players(self.rules)

    def check_rules(self, rules: Rules) -> None:
        """``LearnedValueError`` unless these weights were learned for ``rules``."""
        if not self.fits(rules):
            raise LearnedValueError(
                f"{self.name}: its weights were learned for {self.rules!r}, not for {rules!r}; "
                "load or train weights for these rules"
            )

    def values(self, game: Game) -> list[float]:
        """The value of ``game`` for each seat, from -1 to 1 (the outcome once it is over:
        1 a win, -1 a loss, shares of a tie between); computed by the engine, the same
        numbers its players use."""
        self.check_rules(game.rules)
        return list(learned_values(game, list(self.weights)))

    def _spec(self) -> tuple[Any, ...]:
        return ("learned", list(self.weights), self.name, self.rules.to_json())

    def to_dict(self) -> dict[str, Any]:
        """The content of its weights file, checksum included."""
        doc: dict[str, Any] = {
            "format": FORMAT,
            "file_version": FILE_VERSION,
            "layout": LEARNED_LAYOUT,
            "name": self.name,
            "system": self.system,
            "rules": json.loads(self.rules.to_json()),
            "rules_version": self.rules_version,
            "engine_version": self.engine_version,
            "training": self.training,
            "weights": list(self.weights),
        }
        doc["checksum"] = checksum(doc)
        return doc

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes its weights file, atomically."""
        text = json.dumps(self.to_dict(), indent=1, allow_nan=False) + "\n"
        write_text_atomically(path, text, what="weights file")

    def __repr__(self) -> str:
        games = self.training.get("games")
        trained = "" if games is None else f", {games:,} self-play games"
        return f"LearnedValue({self.name!r}, {self.rules!r}{trained})"


def check_weights(weights: Sequence[float], where: str) -> None:
    """``LearnedValueError`` naming ``where`` unless ``weights`` are ``LEARNED_WEIGHTS``
    finite numbers."""
    if len(weights) != LEARNED_WEIGHTS:
        raise LearnedValueError(f"{where}: {len(weights)} weights, but the layout {LEARNED_LAYOUT} has {LEARNED_WEIGHTS}")
    for i, w in enumerate(weights):
        if isinstance(w, bool) or not isinstance(w, (int, float)):
            raise LearnedValueError(f"{where}: weight {i} is {reprlib.repr(w)}, not a number")
        if not math.isfinite(w):
            raise LearnedValueError(f"{where}: weight {i} is {w!r}, not a finite number")


def _without_players(rules: Rules) -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(rules.to_json())
    spec.pop("players", None)
    return spec


def load_value(path: str | os.PathLike[str]) -> LearnedValue:
    """The learned value of a weights file (``LearnedValue.save``); ``LearnedValueError``
    naming the file and what is wrong (see the module)."""
    where = os.fspath(path)
    data = read_input(where, MAX_FILE_BYTES, LearnedValueError, "weights file")
    doc = load_json(data, where, LearnedValueError)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise LearnedValueError(f'{where}: not a weights file (no "format": "{FORMAT}")')
    if doc.get("file_version") != FILE_VERSION:
        raise LearnedValueError(
            f"{where}: file version {reprlib.repr(doc.get('file_version'))}, but this package reads version "
            f"{FILE_VERSION}"
        )
    if doc.get("layout") != LEARNED_LAYOUT:
        raise LearnedValueError(
            f"{where}: weights of the input layout {reprlib.repr(doc.get('layout'))}, but this engine's layout is "
            f"{LEARNED_LAYOUT}: train them again (carcassonne train)"
        )
    if doc.get("rules_version") != RULES_VERSION:
        raise LearnedValueError(
            f"{where}: learned under rules version {reprlib.repr(doc.get('rules_version'))}, but this engine "
            f"plays rules version {RULES_VERSION}: train them again (carcassonne train)"
        )
    try:
        matches = doc.get("checksum") == checksum(doc)
    except ValueError:  # NaN or infinite numbers, which canonical JSON refuses
        matches = False
    if not matches:
        raise LearnedValueError(
            f"{where}: its checksum does not match its content: the file was changed after it was written"
        )
    try:
        weights = doc["weights"]
        if not isinstance(weights, list):
            raise TypeError("weights is not a list")
        check_weights(weights, where)
        rules = Rules.from_json(json.dumps(doc["rules"]))
        training = doc["training"]
        if not isinstance(training, dict):
            raise TypeError("training is not an object")
        system = doc["system"]
        return LearnedValue(
            weights=tuple(float(w) for w in weights),
            rules=rules,
            name=str(doc["name"]),
            system=None if system is None else str(system),
            training=training,
            rules_version=int(doc["rules_version"]),
            engine_version=str(doc["engine_version"]),
        )
    except LearnedValueError:
        raise
    except (KeyError, TypeError, ValueError, CarcassonneError) as e:
        raise LearnedValueError(f"{where}: not a weights file: {type(e).__name__}: {e}") from None


@functools.cache
def _shipped(path: Path) -> LearnedValue:
    return load_value(path)


def shipped_systems() -> tuple[str, ...]:
    """The rule systems the package ships weights for, by their names on the strength
    scale."""
    return tuple(sorted(p.stem for p in DATA.glob("*.json")))


def shipped_value(rules: Rules) -> LearnedValue:
    """The package's learned value for ``rules`` (any number of players of a rule
    system it ships weights for); ``LearnedValueError`` naming the systems it has if
    none fits."""
    for system in shipped_systems():
        value = _shipped(DATA / f"{system}.json")
        if value.fits(rules):
            return value
    raise LearnedValueError(
        f"no learned evaluation ships for {rules!r}: the package has them for {', '.join(shipped_systems()) or 'no rule system'}; "
        "train one (carcassonne train) and pass it as Learned(value=...)"
    )


def shipped_spec(rules: Rules) -> tuple[Any, ...]:
    """The engine's description of the shipped learned player of ``rules`` (what the
    engine asks for when a lineup names "learned")."""
    return shipped_value(rules)._spec()


__all__ = [
    "FILE_VERSION",
    "FORMAT",
    "LEARNED_LAYOUT",
    "LEARNED_WEIGHTS",
    "LearnedValue",
    "LearnedValueError",
    "check_weights",
    "load_value",
    "shipped_systems",
    "shipped_value",
]
