"""Study specifications: a grid written as a JSON (or, on Python 3.11+, TOML) file, for
``carcassonne study SPEC`` on the command line.

    {
      "games": 10000, "seed": 7, "seats": [2, 3, 4],
      "configs": {"base": {}, "+ferries": {"tile_sets": ["base", "ferries"]}},
      "lineups": {"random": "random", "mcts vs greedy": ["mcts", "greedy"]},
      "paired": false
    }

``configs`` maps names to ``Rules`` keyword arguments; ``lineups`` maps names to a player
("random", "greedy", "mcts", or {"mcts": {"playouts": 500}} for settings) or a list of
them, one per seat; ``seats`` and ``paired`` are optional (see ``carcassonne.Study``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from carcassonne._core import Rules
from carcassonne.players import MCTS, PlayerLike
from carcassonne.study import Study, StudyError

KEYS = {"games", "seed", "seats", "configs", "lineups", "paired"}


def load_spec(path: str | Path) -> Study:
    """The ``Study`` a specification file describes; ``StudyError`` (or the ``RulesError``
    of a configuration) naming the file and the fault otherwise."""
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise StudyError(f"{source}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    data: Any
    try:
        if source.suffix.lower() == ".toml":
            import tomllib

            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except ImportError:
        raise StudyError(f"{source}: TOML needs Python 3.11 or later; write the study as JSON") from None
    except ValueError as e:  # json.JSONDecodeError and tomllib.TOMLDecodeError
        raise StudyError(f"{source}: not valid {source.suffix.lstrip('.').upper() or 'JSON'}: {e}") from None
    if not isinstance(data, dict):
        raise StudyError(f"{source}: a study is an object with {', '.join(sorted(KEYS))}")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise StudyError(f"{source}: unknown key {unknown[0]!r}: use {', '.join(sorted(KEYS))}")
    for key in ("games", "configs", "lineups"):
        if key not in data:
            raise StudyError(f"{source}: {key!r} is missing")
    configs = data["configs"]
    if not isinstance(configs, dict):
        raise StudyError(f"{source}: 'configs' maps names to Rules arguments")
    rules = {}
    for name, kwargs in configs.items():
        if not isinstance(kwargs, dict):
            raise StudyError(f"{source}: configuration {name!r} is not an object of Rules arguments")
        try:
            rules[name] = Rules(**kwargs)
        except (TypeError, ValueError) as e:
            raise StudyError(f"{source}: configuration {name!r}: {e}") from None
    lineups = data["lineups"]
    if not isinstance(lineups, dict):
        raise StudyError(f"{source}: 'lineups' maps names to players")
    try:
        return Study(
            configs=rules,
            games=data["games"],
            seed=data.get("seed", 0),
            seats=data.get("seats"),
            lineups={name: _lineup(source, name, entry) for name, entry in lineups.items()},
            paired=bool(data.get("paired", False)),
        )
    except ValueError as e:  # StudyError, or a PlayerError of a line-up
        raise StudyError(f"{source}: {e}") from None


def _lineup(source: Path, name: str, entry: Any) -> PlayerLike | list[PlayerLike]:
    if isinstance(entry, list):
        return [_player(source, name, e) for e in entry]
    return _player(source, name, entry)


def _player(source: Path, name: str, entry: Any) -> PlayerLike:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict) and list(entry) == ["mcts"] and isinstance(entry["mcts"], dict):
        try:
            return MCTS(**entry["mcts"])
        except (TypeError, ValueError) as e:
            raise StudyError(f"{source}: line-up {name!r}: {e}") from None
    raise StudyError(f"{source}: line-up {name!r}: a player is a name or {{\"mcts\": {{settings}}}}, not {entry!r}")
