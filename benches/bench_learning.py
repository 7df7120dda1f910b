"""Benchmarks of the learning environment (pytest-benchmark): ``VectorEnv`` steps with
random legal tokens drawn from its masks, masks alone and with full observations, from
Python (the whole loop, numpy's random pick included, and ``VectorEnv.step`` alone, in
``extra_info``); ``PuctSearch`` simulations with a trivial numpy evaluation (equal priors, zero
values), by batch size. ``pytest benches/bench_learning.py --benchmark-only`` measures; a plain ``pytest``
run executes each once. Steps per second go to ``extra_info``; the Rust-side figure is
``cargo run --release --example env_speed`` (docs/guide/performance.md)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

from carcassonne import Game, PuctSearch, Rules, VectorEnv

ENVS = 64
ROUNDS = 50


@pytest.mark.parametrize("observations", [False, True], ids=["masks", "observations"])
def test_vector_env_steps(benchmark: Any, observations: bool) -> None:
    env = VectorEnv(Rules(), ENVS, seed=1, observations=observations, threads=1)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    in_step, runs = 0.0, 0

    def rounds() -> None:
        nonlocal obs, in_step, runs
        runs += 1
        for _ in range(ROUNDS):
            mask = obs["action_mask"]
            actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
            start = time.perf_counter()
            obs, *_ = env.step(actions)
            in_step += time.perf_counter() - start

    benchmark(rounds)
    # Measured runs only (a plain pytest run executes the rounds once, unmeasured): the
    # whole loop, and VectorEnv.step alone (numpy's random pick takes most of the loop).
    if benchmark.stats:
        steps = ENVS * ROUNDS
        benchmark.extra_info["steps_per_second"] = round(steps / benchmark.stats.stats.mean)
        benchmark.extra_info["step_alone_steps_per_second"] = round(steps * runs / in_step)
    assert obs["action_mask"].any(axis=1).all()


SIMULATIONS = 2000


@pytest.mark.parametrize("batch", [1, 8, 64])
def test_puct_search(benchmark: Any, batch: int) -> None:
    rules = Rules()
    search = PuctSearch(rules, simulations=SIMULATIONS, batch=batch, seed=1)
    size = search.action_space.size

    def evaluate(board: np.ndarray, vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.ones((len(board), size), np.float32), np.zeros(len(board), np.float32)

    game = Game(rules, seed=3)
    for _ in range(20):
        game.apply(game.legal_actions()[0])
    report = benchmark(search.search, game, evaluate)
    if benchmark.stats:
        benchmark.extra_info["simulations_per_second"] = round(SIMULATIONS / benchmark.stats.stats.mean)
    assert report.visits.sum() == SIMULATIONS - 1
