"""The plan of a study: the arguments ``simulate`` and ``simulate_summary`` both take, as
one object (``_Plan``), and the checks they make of them before any game is played (the
range of games, rows that fit in memory, the policy or line-up), with the engine's
messages."""

from __future__ import annotations

import operator
import os
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from carcassonne import players as _players
from carcassonne._core import PlayerError, Rules, RulesError, check_rows_fit

POLICIES = ("random", "greedy")
"""The built-in players ``policy=`` names for every seat (``players=`` takes these, "mcts",
settings objects and functions: see ``carcassonne.players``)."""

U64_MAX = 2**64 - 1
"""The largest seed and game index."""


@dataclass(frozen=True)
class _Plan:
    """One study as ``simulate`` and ``simulate_summary`` are asked for it: the arguments
    both take, passed on as one object (the rows or the totals are the only difference)."""

    rules: Rules | None
    games: int
    seed: int
    policy: str | None
    players: _players.PlayerLike | Sequence[_players.PlayerLike] | None
    threads: int | None
    first_game: int
    progress: bool
    partial: bool
    backend: str
    batch_games: int | None
    out_dir: str | os.PathLike[str] | None
    client: Any
    label: str


def _check_rows_fit(rules: Rules | None, games: int, first_game: int, joined: bool = False) -> None:
    """Refuses, as one call would, rows that cannot fit in memory, before the first
    batch. With ``joined`` the rows are played in batches and joined at the end, when
    the parts and the whole are both in memory: twice the rows must fit."""
    rules = rules if rules is not None else Rules()
    check_rows_fit(rules, games, first_game=first_game)
    if joined and games:
        try:
            check_rows_fit(rules, min(2 * games, U64_MAX))
        except RulesError as e:
            raise RulesError(
                f"{games} games played in batches are joined at the end, which holds their rows twice: {e}"
            ) from None


def _check_count(games: int, first_game: int) -> None:
    """The batched path checks the range of games before splitting it, as the engine
    checks one call's (with the engine's messages), so that a bad range fails at once
    and not at its last batch."""
    n, first = operator.index(games), operator.index(first_game)
    if not 0 <= n <= U64_MAX:
        raise RulesError(f"games must be between 0 and 2**64 - 1, got {reprlib.repr(n)}")
    if not 0 <= first <= U64_MAX:
        raise RulesError(f"first_game must be between 0 and 2**64 - 1, got {reprlib.repr(first)}")
    if first + n > U64_MAX + 1:
        raise RulesError(f"games {first} to {first} + {n} go past the last game index, 2**64 - 1")


def _lineup_specs(
    policy: str | None, players: _players.PlayerLike | Sequence[_players.PlayerLike] | None
) -> tuple[str | None, list[Any] | None]:
    """The policy (checked; "random" by default) or the lineup's specifications for the
    engine (one or the other)."""
    if players is not None and policy is not None:
        raise PlayerError("give policy= (one built-in player for every seat) or players=, not both")
    if players is None:
        policy = "random" if policy is None else policy
        _check_policy(policy)
        return policy, None
    # The seat count is checked by the engine (the same PlayerError, before any game).
    return None, _players._specs(_players.lineup(players))


def _check_policy(policy: str) -> None:
    if policy not in POLICIES:
        # reprlib: a long string is quoted cut short, like every error of the engine.
        raise RulesError(f"unknown policy {reprlib.repr(policy)}: use one of {', '.join(POLICIES)}")
