"""The cost-count command (``tools/costs.py``) runs and its output parses; the
gate itself (``--check`` against ``benches/costs.toml``) runs in ``.ci/run``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (.ci/run installs it)")
def test_cost_counts_run_on_a_small_set_and_parse() -> None:
    run = subprocess.run(
        [sys.executable, "tools/costs.py", "--scale", "0.02", "--json", "--configs", "base-random", "friday"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    data = json.loads(run.stdout)
    assert set(data["toolchain"]) == {"rustc", "valgrind"}
    costs = {c["config"]: c for c in data["costs"]}
    assert set(costs) == {"base-random", "friday"}
    recorded = tomllib.loads((REPO / "benches" / "costs.toml").read_text())["config"]
    for key, cost in costs.items():
        assert cost["games"] == 40
        # The first 40 of the recorded games: a game costs what the full set's mean says,
        # within the spread of 40 random games.
        per_game = recorded[key]["instructions_per_game"]
        assert 0.8 * per_game < cost["instructions_per_game"] < 1.2 * per_game, (key, cost)
        assert 0 < cost["mispredictions_per_game"] < cost["conditional_branches_per_game"]


def test_the_recorded_counts_cover_every_configuration() -> None:
    recorded = tomllib.loads((REPO / "benches" / "costs.toml").read_text())
    assert set(recorded["toolchain"]) == {"rustc", "valgrind"}
    assert set(recorded["config"]) == {
        "base-random",
        "base-greedy",
        "classic-4p",
        "ferries",
        "south-seas",
        "friday",
        "maps",
        "mcts",
        "learned",
        "env-masks",
        "env-observations",
    }
    for cost in recorded["config"].values():
        assert cost["games"] > 0 and cost["instructions_per_game"] > 0 and cost["mispredictions_per_game"] > 0
