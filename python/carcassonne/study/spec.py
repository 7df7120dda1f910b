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

from pathlib import Path
from typing import Any

from carcassonne._core import Rules
from carcassonne.files import MAX_JSON_DEPTH, json_depth, load_json, quote, read_text_input
from carcassonne.players import MCTS, PlayerLike
from carcassonne.study.grid import Study, StudyError

KEYS = {"games", "seed", "seats", "configs", "lineups", "paired"}


MAX_SPEC_BYTES = 1 << 20
"""Largest specification file read (1 MiB)."""


def load_spec(path: str | Path) -> Study:
    """The ``Study`` a specification file describes; ``StudyError`` (or the ``RulesError``
    of a configuration) naming the file, the key and the fault otherwise. Specs are typed
    strictly: counts are integers (not booleans), ``paired`` is a boolean, a key given
    twice is refused (in JSON as in TOML); the file must be a regular file of at most
    ``MAX_SPEC_BYTES``, nested at most ``MAX_JSON_DEPTH`` deep."""
    source = Path(path)
    text = read_text_input(source, MAX_SPEC_BYTES, StudyError, "study specification")
    data: Any
    if source.suffix.lower() == ".toml":
        import tomllib
        if json_depth(text) > MAX_JSON_DEPTH:
            raise StudyError(f"{source} is nested more than {MAX_JSON_DEPTH} deep")
        try:
            data = tomllib.loads(text)
        except (ValueError, RecursionError) as e:  # tomllib.TOMLDecodeError is a ValueError
            raise StudyError(f"{source}: not valid TOML: {e}") from None
    else:
        data = load_json(text, str(source), StudyError)
    if not isinstance(data, dict):
        raise StudyError(f"{source}: a study is an object with {', '.join(sorted(KEYS))}")
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise StudyError(f"{source}: unknown key {quote(unknown[0])}: use {', '.join(sorted(KEYS))}")
    for key in ("games", "configs", "lineups"):
        if key not in data:
            raise StudyError(f"{source}: {key!r} is missing")
    configs = data["configs"]
    if not isinstance(configs, dict):
        raise StudyError(f"{source}: 'configs' maps names to Rules arguments, not {quote(configs)}")
    rules = {}
    defaults = Rules()
    for name, kwargs in configs.items():
        if not isinstance(kwargs, dict):
            raise StudyError(f"{source}: configuration {quote(name)} is not an object of Rules arguments")
        # Rules takes True as 1 where a number is asked (as Python does); a spec does not.
        for key, value in kwargs.items():
            if isinstance(value, bool) and not isinstance(getattr(defaults, key, False), bool):
                raise StudyError(
                    f"{source}: configuration {quote(name)}: {quote(key)} is not true or false but a number or a name"
                )
        try:
            rules[name] = Rules(**kwargs)
        except (TypeError, ValueError) as e:
            raise StudyError(f"{source}: configuration {quote(name)}: {e}") from None
    lineups = data["lineups"]
    if not isinstance(lineups, dict):
        raise StudyError(f"{source}: 'lineups' maps names to players, not {quote(lineups)}")
    seats = data.get("seats")
    if seats is not None and not isinstance(seats, list):
        raise StudyError(f"{source}: 'seats' must be a list of player counts, not {quote(seats)}")
    try:
        return Study(
            configs=rules,
            games=data["games"],
            seed=data.get("seed", 0),
            seats=seats,
            lineups={name: _lineup(source, name, entry) for name, entry in lineups.items()},
            paired=data.get("paired", False),
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
        flags = [key for key, value in entry["mcts"].items() if isinstance(value, bool)]
        if flags:
            raise StudyError(f"{source}: line-up {quote(name)}: MCTS setting {quote(flags[0])} is a number, not true or false")
        try:
            return MCTS(**entry["mcts"])
        except (TypeError, ValueError) as e:
            raise StudyError(f"{source}: line-up {quote(name)}: {e}") from None
    raise StudyError(f"{source}: line-up {quote(name)}: a player is a name or {{\"mcts\": {{settings}}}}, not {quote(entry)}")
