#!/usr/bin/env python3
"""Deterministic cost counts per rule system, and the regression gate on them.

Plays the fixed seeded games of each standard configuration (``benches/configs``) under
valgrind's callgrind with its branch simulator, counting only the games themselves
(``--toggle-collect`` on ``play_games`` in ``examples/costs.rs``), and reports
instructions and branch mispredictions per game. Unlike wall-clock time these counts are
the same on every run of the same binary, whatever else the machine is doing.

    python3 tools/costs.py                       # table of the counts
    python3 tools/costs.py --json                # the same as JSON
    python3 tools/costs.py --scale 0.05          # a small set of games (a smoke test)
    python3 tools/costs.py --write               # record them in benches/costs.toml
    python3 tools/costs.py --check               # the gate: compare with benches/costs.toml

The gate fails (exit 1) when the instructions grow by more than 2% over the recorded count,
the branch mispredictions by more than 6%, or when the games' checksum differs (the seeded
results changed). Mispredictions get the wider margin because code layout alone moves
them by 2-6% with the instructions flat (three re-recordings for that before). Updating ``benches/costs.toml``
(``--write``) is a deliberate act: commit it with the reason. With another compiler or
valgrind than the file records, the gate reports the differences and passes, so a
toolchain update never blocks a landing. Needs cargo, valgrind and Python 3.11+ (tomllib).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COSTS_FILE = REPO / "benches" / "costs.toml"
# "mcts" counts one search instead of games: its "games" are the iterations of one MCTS
# search at the default settings from the base mid-game position (examples/costs.rs).
# "learned" counts base games with the one-ply learned player in both seats (untrained
# weights: a move costs the same whatever they are).
# "env-masks" and "env-observations" count steps of the learning environment: a base
# VectorEnv of 64 games with random legal tokens from its masks (benches/configs/env.rs).
CONFIGS = [
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
]
# How much each count may grow before the gate fails (see the docstring).
TOLERANCE = {"instructions_per_game": 0.02, "mispredictions_per_game": 0.06}


@dataclass
class Cost:
    config: str
    games: int
    checksum: str
    instructions_per_game: float
    mispredictions_per_game: float
    conditional_branches_per_game: float


def versions() -> dict[str, str]:
    def first_line(cmd: list[str]) -> str:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]

    return {"rustc": first_line(["rustc", "--version"]), "valgrind": first_line(["valgrind", "--version"])}


def build() -> dict[str, Path]:
    """The two counting binaries: the engine's (``costs``) and the environment's
    (``env_costs``, kept apart so that the engine's counts do not move with its code)."""
    subprocess.run(
        ["cargo", "build", "--quiet", "--release", "--locked", "-p", "carcassonne-core", "--example", "costs", "--example", "env_costs"],
        cwd=REPO,
        check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return {name: target / "release" / "examples" / name for name in ("costs", "env_costs")}


def binary_of(binaries: dict[str, Path], config: str) -> Path:
    return binaries["env_costs" if config.startswith("env-") else "costs"]


def environment_of(config: str) -> dict[str, str]:
    """The environment a count runs in. The learning environment clears a 25 KB
    observation at each of an action's first tokens: glibc's memset does that with
    ``rep stosb``, which callgrind counts once per byte, so its counts are taken with
    memset's vector loop instead (what the processor runs costs about as much as either)."""
    env = dict(os.environ)
    if config.startswith("env-"):
        env["GLIBC_TUNABLES"] = "glibc.cpu.x86_rep_stosb_threshold=1000000000"
    return env


def measure(binary: Path, config: str, scale: float) -> Cost:
    with tempfile.TemporaryDirectory() as tmp:
        out_file = Path(tmp) / "callgrind.out"
        run = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--branch-sim=yes",
                "--toggle-collect=*play_games*",
                f"--callgrind-out-file={out_file}",
                str(binary),
                config,
                str(scale),
            ],
            capture_output=True,
            text=True,
            check=True,
            env=environment_of(config),
        )
        m = re.search(r"^(\S+) games (\d+) checksum (\d+)", run.stdout, re.M)
        if not m or m.group(1) != config:
            raise SystemExit(f"costs: unexpected output for {config}: {run.stdout!r}")
        games = int(m.group(2))
        events: list[str] = []
        totals: list[int] = []
        for line in out_file.read_text().splitlines():
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith(("totals:", "summary:")):
                totals = [int(v) for v in line.split()[1:]]
        counts = dict(zip(events, totals))
        if "Ir" not in counts or "Bcm" not in counts:
            raise SystemExit(f"costs: no instruction or branch counts in callgrind's output for {config}")
    return Cost(
        config=config,
        games=games,
        checksum=m.group(3),
        instructions_per_game=counts["Ir"] / games,
        mispredictions_per_game=(counts["Bcm"] + counts.get("Bim", 0)) / games,
        conditional_branches_per_game=counts.get("Bc", 0) / games,
    )


def to_toml(costs: list[Cost], tools: dict[str, str]) -> str:
    lines = [
        "# Deterministic cost counts per game (tools/costs.py --write): instructions and branch",
        "# mispredictions (callgrind's branch simulator) of the fixed seeded games of each",
        "# configuration in rust/carcassonne-core/benches/configs. `.ci/run` fails when a count",
        "# grows by more than its margin (instructions 2%, mispredictions 6%: code layout alone",
        "# moves those) or a checksum (the games' scores) changes; update this file only",
        "# deliberately, and say why in the commit message.",
        "",
        "[toolchain]",
        *(f'{k} = "{v}"' for k, v in tools.items()),
    ]
    for c in costs:
        lines += [
            "",
            f'[config."{c.config}"]',
            f"games = {c.games}",
            f'checksum = "{c.checksum}"',
            f"instructions_per_game = {round(c.instructions_per_game)}",
            f"mispredictions_per_game = {round(c.mispredictions_per_game)}",
            f"conditional_branches_per_game = {round(c.conditional_branches_per_game)}",
        ]
    return "\n".join(lines) + "\n"


def check(costs: list[Cost], tools: dict[str, str], path: Path) -> int:
    import tomllib  # Python 3.11+

    recorded = tomllib.loads(path.read_text())
    same_tools = recorded.get("toolchain") == tools
    if not same_tools:
        print(f"costs: recorded with {recorded.get('toolchain')}, measured with {tools}: differences are reported, not failed")
    failures = []
    for c in costs:
        old = recorded.get("config", {}).get(c.config)
        if old is None:
            failures.append(f"{c.config}: not in {path.name} (run tools/costs.py --write)")
            continue
        if old["games"] != c.games:
            failures.append(f"{c.config}: {c.games} games played, {old['games']} recorded")
            continue
        if old["checksum"] != c.checksum:
            failures.append(f"{c.config}: the games' checksum changed ({old['checksum']} -> {c.checksum}): seeded results differ")
        for key in ("instructions_per_game", "mispredictions_per_game"):
            before, now = old[key], getattr(c, key)
            change = now / before - 1
            line = f"{c.config}: {key.replace('_', ' ')} {before:,.0f} -> {now:,.0f} ({change:+.2%})"
            if change > TOLERANCE[key]:
                (failures.append(line) if same_tools else print(f"costs: warning: {line}"))
            elif change < -TOLERANCE[key]:
                print(f"costs: {line}: cheaper; record it with --write")
    for f in failures:
        print(f"costs: FAILED: {f}")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of each configuration's games (default 1)")
    parser.add_argument("--configs", nargs="+", default=CONFIGS, choices=CONFIGS, metavar="CONFIG")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("--write", action="store_true", help=f"record the counts in {COSTS_FILE.relative_to(REPO)}")
    parser.add_argument("--check", action="store_true", help=f"fail if instructions grew by over 2%% or mispredictions by over 6%% (see {COSTS_FILE.name})")
    args = parser.parse_args(argv)
    if (args.write or args.check) and (args.scale != 1.0 or args.configs != CONFIGS):
        parser.error("--write and --check use every configuration at scale 1")
    tools = versions()
    binaries = build()
    costs = [measure(binary_of(binaries, c), c, args.scale) for c in args.configs]
    if args.json:
        print(json.dumps({"toolchain": tools, "costs": [asdict(c) for c in costs]}, indent=2))
    else:
        print(f"{'configuration':<16} {'games':>6} {'instructions/game':>18} {'mispredictions/game':>20}")
        for c in costs:
            print(f"{c.config:<16} {c.games:>6} {c.instructions_per_game:>18,.0f} {c.mispredictions_per_game:>20,.0f}")
        print(f"({tools['rustc']}; {tools['valgrind']})")
    if args.write:
        COSTS_FILE.write_text(to_toml(costs, tools))
        print(f"costs: written to {COSTS_FILE.relative_to(REPO)}")
    if args.check:
        return check(costs, tools, COSTS_FILE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
