"""Balance studies: many whole games played in Rust, results as numpy columns
(``simulate``) or as exact running totals in constant memory (``simulate_summary``); the
result classes live in ``carcassonne.study.results``, the checks of a study's arguments in
``carcassonne.study.plan``.

Game ``i`` of a study with seed ``s`` is always the same game (tile order and choices),
whatever the thread count or the way the study is split into batches (``first_game``).
Ctrl-C stops a study at once (between moves, a search within 256 iterations) and raises
``KeyboardInterrupt``.
"""

from __future__ import annotations

import dataclasses
import operator
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from carcassonne import players as _players
from carcassonne.study import scaleout
from carcassonne.study.batches import _bar, play_in_batches
from carcassonne.study.plan import _check_count, _check_rows_fit, _lineup_specs, _Plan
from carcassonne.study.results import SimulationResult, StudySummary, StudyTotals
from carcassonne._core import Game, Rules, replay_game, simulate_batch, simulate_totals


def simulate(
    rules: Rules | None = None,
    games: int = 10_000,
    *,
    seed: int = 0,
    policy: str | None = None,
    players: _players.PlayerLike | Sequence[_players.PlayerLike] | None = None,
    threads: int | None = None,
    first_game: int = 0,
    progress: bool = False,
    partial: bool = False,
    backend: str = "local",
    batch_games: int | None = None,
    out_dir: str | os.PathLike[str] | None = None,
    client: Any = None,
    label: str = "simulate",
) -> SimulationResult:
    """Plays ``games`` whole games in Rust, in parallel, with the GIL released, and returns
    one row per game.

    ``threads=None`` uses ``CARCASSONNE_MAX_THREADS``, ``RAYON_NUM_THREADS`` or
    ``OMP_NUM_THREADS`` if set, else every core; results never depend on it. At most
    ``max_threads()`` (4 per core). Pass ``threads=1`` when an outer layer (Dask, Ray, a
    process pool) already runs one process per core, and split a study with ``first_game``.
    Integers may be any ``int``-like value (numpy integers included). A study whose rows
    would not fit in the memory available is refused with ``RulesError`` before any game is
    played (play it in batches, or use ``simulate_summary``). Ctrl-C raises
    ``KeyboardInterrupt`` within about one game's time.

    ``players`` seats the players: one for every seat, or a list with one per seat, each a
    name ("random", "greedy", "mcts"), a ``carcassonne.players`` settings object, or a
    function ``game -> action`` (slow; see ``carcassonne.players``). ``policy`` is the
    older way to name one built-in player for every seat; give one or the other (default
    "random"). A player that fails (an illegal action, a function that raises or returns
    something else) stops the study with ``PlayerError`` naming the game and seat.

    ``progress=True`` shows a tqdm progress bar on stderr (``pip install
    carcassonne[progress]``). ``partial=True`` makes Ctrl-C return the games played so far
    (``result.interrupted`` is True; the batch in flight, at most about half a second of
    play, is dropped) instead of raising ``KeyboardInterrupt``. Either plays the study in
    batches of about half a second each: the same games and rows as one call. ``label`` is
    what the progress bar says (a study names each cell).
    """
    plan = _Plan(rules, games, seed, policy, players, threads, first_game, progress, partial, backend, batch_games, out_dir, client, label)
    parts = _in_parts(False, plan)
    if parts is not None:
        rows: SimulationResult = parts
        return rows
    study, cols = _run(simulate_batch, plan)
    return SimulationResult(
        **study,
        scores=cols["scores"],
        winners=cols["winners"],
        turns=cols["turns"],
        points_by_kind=cols["points_by_kind"],
        discarded=cols["discarded"],
        ships=cols["ships"],
        wares_left=cols["wares_left"],
    )


def replay(
    rules: Rules | None = None,
    seed: int = 0,
    game_index: int = 0,
    *,
    policy: str | None = None,
    players: _players.PlayerLike | Sequence[_players.PlayerLike] | None = None,
) -> Game:
    """Rebuilds game ``game_index`` of a study (``simulate(rules, ..., seed=seed,
    players=players)``, or ``policy=``) exactly as the study played it, with its event log
    (``game.events``, ``game.sea.events``) and its record: ``game.moves``,
    ``game.decisions``, ``game.to_json()`` (which ``carcassonne render`` and
    ``Game.from_json`` replay move by move). Its final scores are the study's row
    ``game_index - first_game``.

    Built-in players are replayed in Rust (an MCTS player searches again, so replaying its
    game takes as long as playing it); a Python function is called again, so it must be
    deterministic for the replay to match."""
    rules = rules if rules is not None else Rules()
    policy, specs = _lineup_specs(policy, players)
    return replay_game(rules, seed=seed, game_index=game_index, policy=policy or "random", players=specs)


def simulate_summary(
    rules: Rules | None = None,
    games: int = 10_000,
    *,
    seed: int = 0,
    policy: str | None = None,
    players: _players.PlayerLike | Sequence[_players.PlayerLike] | None = None,
    threads: int | None = None,
    first_game: int = 0,
    progress: bool = False,
    partial: bool = False,
    backend: str = "local",
    batch_games: int | None = None,
    out_dir: str | os.PathLike[str] | None = None,
    client: Any = None,
    label: str = "simulate",
) -> StudySummary:
    """Plays a study like ``simulate`` (the same games for the same arguments) but keeps
    only exact per-seat totals: constant memory for any number of games. Its ``seats()``
    equal those of ``simulate(...)`` with the same arguments. ``progress`` and ``partial``
    as in ``simulate``."""
    plan = _Plan(rules, games, seed, policy, players, threads, first_game, progress, partial, backend, batch_games, out_dir, client, label)
    parts = _in_parts(True, plan)
    if parts is not None:
        summary: StudySummary = parts
        return summary
    study, totals = _run(simulate_totals, plan)
    return StudySummary(**study, totals=StudyTotals.from_dict(totals))



def _in_parts(totals: bool, p: _Plan) -> Any:
    """The study played in parts and joined (``simulate_summary``'s totals if ``totals``,
    else ``simulate``'s rows): on a backend or to ``out_dir``, or here in
    timed batches for a progress bar or partial results; None when one native call plays
    it."""
    rules, games, seed, policy, players, threads = p.rules, p.games, p.seed, p.policy, p.players, p.threads
    first_game, progress, partial, backend, out_dir = p.first_game, p.progress, p.partial, p.backend, p.out_dir
    batch_games, client, label = p.batch_games, p.client, p.label
    distributed = backend != "local" or out_dir is not None
    if not (distributed or progress or partial):
        return None
    _check_count(games, first_game)
    streamed = backend == "local" and out_dir is not None
    if not totals and not streamed:
        _check_rows_fit(rules, games, first_game, joined=True)
    if not totals and streamed:
        assert out_dir is not None
        scaleout.check_disk(out_dir, rules, operator.index(games))
    if distributed:
        # On a cluster (``carcassonne.study.scaleout``), or here, one batch after another, for
        # ``out_dir``.
        _lineup_specs(policy, players)  # the same errors as a local run, before any batch
        if partial:
            raise scaleout.BackendError("partial=True plays in memory, here: not with a backend or out_dir")
        kwargs = {"rules": rules, "seed": seed, "policy": policy, "players": players, "threads": threads}
        join: Callable[[list[Any]], Any] = StudySummary.concat if totals else SimulationResult.concat
        if backend == "local":
            plan = scaleout.batches(operator.index(games), operator.index(first_game), batch_games, 1)
            target = None if out_dir is None else scaleout.prepare_out_dir(out_dir)
            bar = _bar(operator.index(games), label) if progress else None
            try:
                if not totals and target is not None:
                    # Rows to out_dir: streamed to disk, none kept in memory.
                    return scaleout.stream_rows(
                        plan, kwargs, target, operator.index(games), operator.index(first_game), bar, play_batch
                    )
                if not totals or not plan:
                    # Rows: as many batches as fit in memory (checked above).
                    parts = []
                    for first, count in plan or [(first_game, 0)]:
                        parts.append(play_batch(totals, kwargs, first, count, target))
                        if bar is not None:
                            bar.update(count)
                    return join(parts)
                # Totals: joined as they come, in constant memory for any number of batches.
                whole = None
                for first, count in plan:
                    part = play_batch(totals, kwargs, first, count, target)
                    whole = part if whole is None else join([whole, part])
                    if bar is not None:
                        bar.update(count)
                return whole
            finally:
                if bar is not None:
                    bar.close()
        return scaleout.run(
            backend,
            totals,
            kwargs,
            operator.index(games),
            operator.index(first_game),
            batch_games=batch_games,
            out_dir=out_dir,
            client=client,
            progress=progress,
            join=join,
            play_batch=play_batch,
            label=label,
        )
    play: Callable[..., Any] = simulate_summary if totals else simulate
    return play_in_batches(
        lambda first, count: play(rules, count, seed=seed, policy=policy, players=players, threads=threads, first_game=first),
        StudySummary.concat if totals else SimulationResult.concat,
        lambda r: dataclasses.replace(r, interrupted=True),
        operator.index(games),
        operator.index(first_game),
        progress=progress,
        partial=partial,
        description=label,
    )


def play_batch(totals: bool, kwargs: dict[str, Any], first_game: int, games: int, out_dir: str | None) -> Any:
    """One batch (on a worker of a cluster, or here): ``simulate`` (rows) or
    ``simulate_summary`` (totals), the rows written to ``out_dir`` first if given. Module
    level, so that Dask and Ray ship it by reference."""
    if totals and out_dir is None:
        return simulate_summary(games=games, first_game=first_game, **kwargs)
    rows = simulate(games=games, first_game=first_game, **kwargs)
    if out_dir is not None:
        rows.save(scaleout.batch_path(out_dir, first_game))
    return rows.summary() if totals else rows



def _run(batch: Callable[..., dict[str, Any]], plan: _Plan) -> tuple[dict[str, Any], dict[str, Any]]:
    """Plays a study with one of the native batch functions, timed; returns what every
    result records of the study, and what the function returned."""
    rules = plan.rules if plan.rules is not None else Rules()
    games, seed, threads, first_game = plan.games, plan.seed, plan.threads, plan.first_game
    policy, specs = _lineup_specs(plan.policy, plan.players)
    started_at = time.time()
    start = time.perf_counter()
    out = batch(rules, games, seed=seed, first_game=first_game, policy=policy or "random", players=specs, threads=threads)
    names = tuple(out["players"])
    if specs is not None:
        policy = names[0] if len(set(names)) == 1 else " | ".join(names)
    study = {
        "rules": rules,
        "seed": operator.index(seed),
        "first_game": operator.index(first_game),
        "policy": policy,
        "players": names,
        "threads": int(out["threads"]),
        "elapsed_seconds": time.perf_counter() - start,
        "started_at": started_at,
    }
    return study, out


__all__ = ["play_batch", "replay", "simulate", "simulate_summary"]
