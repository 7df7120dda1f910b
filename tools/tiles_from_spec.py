"""One-off transcription of the tile tables of the project's rules specification (a
Markdown document that is not shipped with the repository: its tables 2.1, 3.1 and 3.2)
into the engine's TOML tile files (kept so the transcription can be re-done and reviewed).

Usage: python tools/tiles_from_spec.py SPEC.md rust/carcassonne-core/data

where SPEC.md is your copy of that specification.
"""
import re
import sys
from pathlib import Path

HEADERS = {
    "base": ("### 2.1 Tile table", "Carcassonne base game, 3rd edition (C3; same distribution as C2)"),
    "inns-and-cathedrals": ("### 3.1 Inns & Cathedrals tile table", "Inns & Cathedrals, 3rd edition tiles"),
    "traders-and-builders": ("### 3.2 Traders & Builders tile table", "Traders & Builders, 3rd edition tiles"),
}


def rows(text: str, header: str) -> list[list[str]]:
    block = text.split(header, 1)[1]
    out = []
    started = False
    for line in block.splitlines():
        if line.startswith("|"):
            started = True
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells[0] in ("Letter", "JCZ id") or set(cells[0]) <= set("-"):
                continue
            out.append(cells)
        elif started:
            break
    return out


def tile_id(name: str, jcz: str, set_name: str) -> str:
    if set_name == "traders-and-builders":
        base = jcz.strip("`").split("/", 1)[1]
        return base[:-1] + "-garden" if base.endswith("G") else base
    name = name.replace(" (garden)", "-garden")
    return "K" if name == "Ka+Kb" else name


def main() -> None:
    spec = Path(sys.argv[1]).read_text()
    out_dir = Path(sys.argv[2])
    for set_name, (header, title) in HEADERS.items():
        lines = [
            f"# {title}.",
            "# Transcribed from the tile tables of the project's rules specification (JCloisterZone",
            "# tile XML cross-checked with Antimonit/Carcassonne and the Wikicarpedia C3 tile lists).",
            "# Format: see rust/carcassonne-core/src/data/tileset.rs. Edges are N E S W; features list",
            "# each segment: C(...) city, R(...) road, F(half-edges)~cities field, MONASTERY, garden.",
            "",
            f'name = "{set_name}"',
            f'title = "{title}"',
            "",
        ]
        for cells in rows(spec, header):
            if set_name == "traders-and-builders":
                jcz, _c1, c3, nesw, _canon, feats = cells
                name = ""
            else:
                name, jcz, _c1, c3, nesw, _canon, feats = cells
            if int(c3) == 0:
                continue
            lines += [
                "[[tiles]]",
                f'id = "{tile_id(name, jcz, set_name)}"',
                f'jcz = "{jcz.strip("`")}"',
                f"count = {int(c3)}",
                f'edges = "{nesw}"',
                f'features = "{feats}"',
                "",
            ]
        (out_dir / f"{set_name}.toml").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
