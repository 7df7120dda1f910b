"""A study played in batches, for a progress bar and for partial results on Ctrl-C.

Game ``i`` of a study is the same game whatever batch plays it (``first_game``), so a
study played in batches gives exactly the rows of one call. The batches are sized to take
about ``TARGET_SECONDS`` each: short enough for a live progress bar and to lose little on
Ctrl-C (the batch in flight is dropped), long enough that the per-call overhead (well
under a millisecond) does not show.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from carcassonne._core import max_threads

TARGET_SECONDS = 0.5
"""How long a batch should take."""

Part = TypeVar("Part")


def play_in_batches(
    play: Callable[[int, int], Part],
    join: Callable[[list[Part]], Part],
    mark_interrupted: Callable[[Part], Part],
    games: int,
    first_game: int,
    *,
    progress: bool,
    partial: bool,
    description: str,
) -> Part:
    """Plays games ``first_game .. first_game + games`` as ``play(first, count)`` batches
    and joins them. With ``progress`` a tqdm bar counts the games. On Ctrl-C
    (``KeyboardInterrupt``) with ``partial`` the batches finished so far are returned,
    marked interrupted (a batch of no games if none finished); without it the interrupt
    propagates."""
    bar = _bar(games, description) if progress else None
    parts: list[Part] = []
    done = 0
    # A first batch of a few games per core: it measures the speed of these players.
    size = max(1, 2 * (max_threads() // 4))
    try:
        while done < games or not parts:
            count = min(size, games - done)
            start = time.perf_counter()
            parts.append(play(first_game + done, count))
            seconds = time.perf_counter() - start
            done += count
            if bar is not None:
                bar.update(count)
            # Aim at TARGET_SECONDS, growing at most 4-fold at a time (the first batches
            # may be dominated by overhead) and never below one game.
            rate = count / seconds if seconds > 0 else float("inf")
            size = max(1, min(4 * max(count, 1), int(rate * TARGET_SECONDS)))
    except KeyboardInterrupt:
        if not partial:
            raise
        if not parts:
            parts.append(play(first_game, 0))
        return mark_interrupted(join(parts))
    finally:
        if bar is not None:
            bar.close()
    return join(parts)


def _bar(games: int, description: str) -> Any:
    try:
        from tqdm.auto import tqdm  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ImportError(
            "progress=True needs tqdm: pip install 'carcassonne[progress]' (or leave progress off)"
        ) from None
    # On stderr, so that a study's printed output stays clean.
    return tqdm(total=games, desc=description, unit="game", unit_scale=True, file=sys.stderr)
