"""Board pictures in a real browser: writes an HTML page of ``carcassonne.svg.board``
pictures, one game of every rule system (mid-game and finished), and, when headless
Chromium is installed (Debian: ``apt-get install chromium``), screenshots each picture and
the whole page to PNG for a person to look at.

    python3 tools/render_boards.py [OUT_DIR]        # default /tmp/carcassonne-boards

Prints the files written; exit status 1 if Chromium was found but a screenshot failed,
0 otherwise (without Chromium only the HTML and SVG files are written, and it says so).
"""

from __future__ import annotations

import html
import random
import shutil
import subprocess
import sys
from pathlib import Path

from carcassonne import Game, Rules
from carcassonne.svg import board

ALL_SETS = ("base", "inns-and-cathedrals", "traders-and-builders")

BOARDS: list[tuple[str, dict[str, object], int | None]] = [
    # (name, Rules keyword arguments, actions played: None = to the end)
    ("base-mid", dict(players=2), 30),
    (
        "all-sets-5p-end",
        dict(players=5, tile_sets=ALL_SETS, inns_and_cathedrals_scoring=True, traders_goods=True),
        None,
    ),
    ("ferries-end", dict(players=3, tile_sets=("base", "ferries")), None),
    ("south-seas-mid", dict(players=2, tile_sets=("south-seas",)), 60),
    ("south-seas-friday-end", dict(players=4, tile_sets=("south-seas",), friday=True), None),
    ("maps-continental-mid", dict(players=3, map="continental"), 40),
    ("maps-coastal-end", dict(players=2, map="coastal"), None),
    ("maps-west-east-end", dict(players=6, map="west+east"), None),
]


def play(rules: Rules, actions: int | None, seed: int) -> Game:
    """A game of seeded random actions (with a preference for placing meeples, so that
    the pictures show some)."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over and (actions is None or n < actions):
        legal = game.legal_actions()
        with_meeple = [a for a in legal if getattr(a, "meeple", None) is not None]
        pool = with_meeple if with_meeple and rng.random() < 0.6 else legal
        game.apply(pool[rng.randrange(len(pool))])
        n += 1
    return game


def main(argv: list[str]) -> int:
    out = Path(argv[1] if len(argv) > 1 else "/tmp/carcassonne-boards")
    out.mkdir(parents=True, exist_ok=True)
    sections = []
    files: list[tuple[Path, int, int]] = []
    for k, (name, kwargs, actions) in enumerate(BOARDS):
        game = play(Rules(**kwargs), actions, seed=11 + k)  # type: ignore[arg-type]
        svg = board(game)
        path = out / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        width = int(svg.split('width="', 1)[1].split('"', 1)[0])
        height = int(svg.split('height="', 1)[1].split('"', 1)[0])
        files.append((path, width, height))
        sections.append(f"<h2>{html.escape(name)}</h2>\n{svg}")
        print(path)
    page = out / "boards.html"
    page.write_text(
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>carcassonne boards</title></head>"
        "<body style='background:#fff;font-family:sans-serif'>\n" + "\n".join(sections) + "\n</body></html>\n",
        encoding="utf-8",
    )
    print(page)
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        print("no Chromium found: HTML and SVG written, no screenshots (the browser check did not run)")
        return 0
    failed = 0
    for path, width, height in files:
        png = path.with_suffix(".png")
        result = subprocess.run(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--screenshot={png}",
                f"--window-size={width},{height}",
                path.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        ok = result.returncode == 0 and png.exists() and png.stat().st_size > 0
        failed += not ok
        print(png if ok else f"{png}: screenshot failed: {result.stderr.strip()[-300:]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
