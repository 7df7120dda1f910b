"""Ctrl-C in every long call: a search (best_move, analyse, a timed search, a PUCT search
with a fast and with a slow evaluation and with the learned value, the learned search), a
training of the learned evaluation, a study with a searching or a slow Python player, a
replay, a Study of cells, the construction of a large VectorEnv. Each runs in a child
process that is sent SIGINT 1 s in; the child must raise KeyboardInterrupt within 0.5 s,
use no CPU afterwards (no thread left running) and leave the game it searched unchanged."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# Timed: run alone, not beside another test worker (`serial`, see .ci/run).
pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="compares perf_counter across processes (Linux)"),
    pytest.mark.serial,
]

CHILD = """
import sys, time
import carcassonne
from carcassonne.players import MCTS

def slow_player(game):
    time.sleep(3)
    return game.legal_moves()[0]

SIZE = carcassonne.Rules().action_space.size

def uniform(board, vector):
    import numpy as np
    return np.ones((len(board), SIZE), np.float32), np.zeros(len(board), np.float32)

def slow_evaluation(board, vector):
    time.sleep(3)
    return uniform(board, vector)

game = carcassonne.Game(carcassonne.Rules(), seed=3)
for _ in range(10):
    game.play(game.legal_moves()[0])
before = game.to_json()
print("start", flush=True)
try:
{call}
except KeyboardInterrupt:
    stopped = time.perf_counter()
    cpu = time.process_time()
    time.sleep(0.5)
    print("interrupted", stopped, time.process_time() - cpu, game.to_json() == before, flush=True)
else:
    print("finished", flush=True)
"""

CALLS = {
    "best_move": "game.best_move(MCTS(playouts=10**7))",
    "best_move_timed": "game.best_move(MCTS(playouts=10**7, seconds=3600))",
    "analyse": "game.analyse(MCTS(playouts=10**7))",
    "best_move_python": "game.best_move(slow_player)",
    "simulate_mcts": 'carcassonne.simulate(carcassonne.Rules(), games=100, players=[MCTS(playouts=200_000), "greedy"])',
    "simulate_python": 'carcassonne.simulate(carcassonne.Rules(), games=100, players=[slow_player, "random"])',
    "simulate_python_threads": (
        'carcassonne.simulate(carcassonne.Rules(), games=100, players=[slow_player, "random"], threads=2)'
    ),
    "replay_mcts": 'carcassonne.replay(carcassonne.Rules(), players=[MCTS(playouts=200_000), "random"])',
    "puct_search": "carcassonne.PuctSearch(carcassonne.Rules(), simulations=10**6).search(game, uniform)",
    "puct_search_slow_evaluation": "carcassonne.PuctSearch(carcassonne.Rules()).search(game, slow_evaluation)",
    "puct_search_learned_value": "carcassonne.PuctSearch(carcassonne.Rules(), simulations=10**6).search(game, "
    '__import__("carcassonne.learn.value").learn.value.shipped_value(carcassonne.Rules()))',
    # Dealing many games: each build takes about a second, so the signal lands in one.
    "vector_env_build": (
        'while True: carcassonne.VectorEnv(carcassonne.Rules(), 20_000, opponents="greedy", observations=False)'
    ),
    "learned_search": 'game.best_move(__import__("carcassonne.players").players.LearnedSearch(playouts=10**7))',
    # A training of a million rounds (no learning curve), its checkpoint in a new directory.
    "train": (
        '__import__("carcassonne.learn.training").learn.training.train("base-2p", '
        '__import__("tempfile").mkdtemp() + "/w.json", games=64 * 10**6, every=64 * 10**5, curve_pairs=0)'
    ),
    "study_mcts": (
        'carcassonne.Study(configs={"base": carcassonne.Rules()}, seats=[2], '
        'lineups={"mcts": [MCTS(playouts=200_000), "random"]}, games=10).run()'
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_ctrl_c_interrupts_within_half_a_second(name: str) -> None:
    code = textwrap.dedent(CHILD).replace("{call}", "    " + CALLS[name])
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "start", child.communicate(timeout=30)
    time.sleep(1.0)
    sent = time.perf_counter()  # system-wide on Linux: comparable across processes
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 0, err
    word, stopped, cpu, unchanged = out.split()
    assert word == "interrupted", out + err
    latency = float(stopped) - sent
    assert 0 <= latency < 0.5, f"KeyboardInterrupt {latency:.3f} s after SIGINT"
    assert float(cpu) < 0.1, f"{cpu} CPU seconds used after the interrupt: a thread is still running"
    assert unchanged == "True", "the searched game changed"
