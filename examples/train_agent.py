"""A small learned agent for the base game, trained with numpy in a few CPU minutes.

The agent plays seat 0 of ``carcassonne.learn.gymnasium_env.CarcassonneEnv`` against the
random player. It scores each legal action of the engine by a linear function of five
features of the position after the action (its virtual margin over the best other
player, its virtual score, its banked score, the meeples it has left, whether it placed
one), plays the best one, and sends that action's tokens to the environment
(``ActionSpace.encode``): the environment's masks, rewards and seeding drive the game.
The weights are learned by the cross-entropy method: each generation samples weight
vectors from a Gaussian, plays a few games with each, and refits the Gaussian to the best
quarter by win rate. The learning curve (the mean weights' win rate against random per
generation) is written to ``train_agent.png`` (matplotlib, the ``report`` extra) and
printed.

Run: ``python examples/train_agent.py`` (under a minute on one core of a 2-core AMD EPYC
machine). Documented, not run in CI.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from carcassonne import Game, Rules
from carcassonne.learn.gymnasium_env import CarcassonneEnv

FEATURES = ("virtual margin", "virtual score", "score", "meeples left", "meeple placed")


def features(game: Game, seat: int) -> np.ndarray:
    """The five features of a position for ``seat``."""
    v = game.virtual_scores()
    best_other = max(x for i, x in enumerate(v) if i != seat)
    return np.array(
        [v[seat] - best_other, v[seat], game.scores[seat], game.supply[seat], 0.0],
        dtype=np.float64,
    )


def choose(game: Game, seat: int, w: np.ndarray) -> object:
    """The legal action whose afterstate scores best under weights ``w``."""
    best, best_value = None, -np.inf
    before = game.supply[seat]
    for action in game.legal_actions():
        after = game.clone()
        after.apply(action)
        f = features(after, seat)
        f[4] = float(after.supply[seat] < before)
        value = float(w @ f)
        if value > best_value:
            best, best_value = action, value
    return best


def play(env: CarcassonneEnv, w: np.ndarray, seed: int) -> float:
    """One game with weights ``w``: 1 for a win, 0.5 for a shared win, 0 otherwise (a
    game stopped because it outgrew the board window counts as lost)."""
    env.reset(seed=seed)
    while True:
        action = choose(env.game, env.agent_seat, w)
        reward = 0.0
        for token in env.space.encode(env.game, action):
            _, reward_step, terminated, truncated, _ = env.step(token)
            reward += reward_step
            if truncated:
                return 0.0
            if terminated:
                return {1.0: 1.0, 0.0: 0.5}.get(reward, 0.0)


def main() -> None:
    rng = np.random.default_rng(0)
    env = CarcassonneEnv(Rules(), opponents="random", agent_seat=0)
    mean, std = np.zeros(len(FEATURES)), np.ones(len(FEATURES))
    population, games, generations = 12, 4, 8
    start = time.perf_counter()
    # Generation 0 is the untrained agent (all weights 0: the first legal action).
    curve = [float(np.mean([play(env, mean, 10**6 + g) for g in range(20)]))]
    print(f"untrained: win rate {curve[0]:.2f}")
    seed = 0
    for generation in range(1, generations + 1):
        samples = rng.normal(mean, std, size=(population, len(FEATURES)))
        wins = []
        for w in samples:
            wins.append(np.mean([play(env, w, seed + g) for g in range(games)]))
            seed += games
        elite = samples[np.argsort(wins)[-population // 4 :]]
        mean, std = elite.mean(axis=0), elite.std(axis=0) + 0.05
        score = float(np.mean([play(env, mean, 10**6 + generation * 20 + g) for g in range(20)]))
        curve.append(score)
        print(f"generation {generation}: win rate of the mean weights {score:.2f} ({time.perf_counter() - start:.0f} s)")
    final = float(np.mean([play(env, mean, 2 * 10**6 + g) for g in range(200)]))
    print("weights:", dict(zip(FEATURES, np.round(mean, 2))))
    print(f"win rate against random over 200 new games: {final:.3f}")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot", file=sys.stderr)
        return
    plt.plot(range(len(curve)), curve, marker="o")
    plt.xlabel("generation")
    plt.ylabel("win rate against random (20 games)")
    plt.ylim(0, 1)
    plt.title("Cross-entropy method, linear afterstate evaluation")
    out = Path(__file__).with_suffix(".png")
    plt.savefig(out, dpi=80)
    print(f"learning curve: {out}")


if __name__ == "__main__":
    main()
