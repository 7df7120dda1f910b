#!/usr/bin/env python3
"""Instructions per call of the Python binding, counted by callgrind, for the carcassonne
build installed in the running Python.

The cost gate (``tools/costs.py``) counts the engine alone; this counts what crossing the
binding adds, to compare two builds of the extension (a per-version wheel against an abi3
one, two linkers) on the same machine:

    python tools/binding_costs.py            # in a virtualenv holding the build to count

Each figure is the difference of two runs (many games less few), so the interpreter's
start-up and imports cancel out: per turn of a Python loop over whole random-seeded base
games (one ``game.legal_moves()`` and one ``game.play()``), and per ``VectorEnv.step``
of 64 base games with random legal tokens, with and without observations. Counts repeat
to about 0.01% for the same build (``PYTHONHASHSEED`` and numpy's threads are fixed).
Needs valgrind.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

# The workloads, run in a child Python under callgrind: argv is (kind, count).
CHILD = r"""
import sys
kind, count = sys.argv[1], int(sys.argv[2])
if kind == "turns":
    from carcassonne import Game, Rules
    rules, turns = Rules(), 0
    for g in range(count):
        game = Game(rules, seed=7, game_index=g)
        while not game.is_over:
            moves = game.legal_moves()
            game.play(moves[game.turn % len(moves)])
            turns += 1
    print(turns)
else:
    import numpy as np
    from carcassonne import Rules, VectorEnv
    env = VectorEnv(Rules(), 64, seed=1, observations=kind == "observations", threads=1)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(count):
        mask = obs["action_mask"]
        obs, *_ = env.step((rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1))
    print(count)
"""

# (kind, few, many): the two run lengths whose difference is counted.
WORKLOADS = [("turns", 20, 120), ("masks", 20, 120), ("observations", 20, 120)]
LABELS = {
    "turns": "legal_moves() + play(), per turn",
    "masks": "VectorEnv.step, 64 games, masks only",
    "observations": "VectorEnv.step, 64 games, observations",
}


def instructions(kind: str, count: int) -> tuple[int, int]:
    """Instructions of one child run under callgrind, and the calls it made."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", CHILD, kind, str(count)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        m = re.search(r"Collected : (\d+)", run.stderr)
        if m is None:
            raise SystemExit(f"binding_costs: no instruction total in callgrind's output:\n{run.stderr}")
        return int(m.group(1)), int(run.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args(argv)
    import carcassonne._core as core

    print(f"build: {os.path.basename(core.__file__ or '?')} (Python {sys.version.split()[0]})")
    for kind, few, many in WORKLOADS:
        (i_few, c_few), (i_many, c_many) = instructions(kind, few), instructions(kind, many)
        print(f"{LABELS[kind]:<42} {(i_many - i_few) / (c_many - c_few):>14,.0f} instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
