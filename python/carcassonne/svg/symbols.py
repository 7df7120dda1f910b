"""Which symbols are printed on each feature of a tile (pennants, inns, cathedrals, goods,
wares, fishing boats), and on a map the coats of arms of its printed pieces."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from carcassonne._core import Game, PlacedTile, Rules

@dataclass(frozen=True)
class _Symbols:
    pennants: int = 0
    inns: int = 0
    cathedrals: int = 0
    goods: tuple[int, int, int] = (0, 0, 0)
    boat: bool = False
    """South Seas: a fishing boat printed on this sea."""

    def any(self) -> bool:
        return bool(self.pennants or self.inns or self.cathedrals or any(self.goods) or self.boat)


_NO_SYMBOLS = _Symbols()


def _tile_symbols(rules: Rules, tile: str) -> dict[int, _Symbols]:
    """Symbols of each feature of a tile, by feature index (``Rules.tile_symbols``)."""
    if tile.startswith("map/"):
        return {}
    out: dict[int, _Symbols] = {}
    for f in rules.tile_symbols(tile):
        symbols = _Symbols(f.pennants, f.inns, f.cathedrals, f.goods, f.boat)
        if symbols.any():
            out[f.index] = symbols
    return out


def _board_symbols(game: Game, placed: Sequence[PlacedTile]) -> dict[tuple[int, int] | str, dict[int, _Symbols]]:
    """Symbols per feature index of each tile (by square) and printed piece (by id, as
    several may be shown at one outside square): the tiles' own, and on a map the coats of
    arms of the printed pieces (what their board features hold beyond the tiles' symbols)."""
    rules = game.rules
    out: dict[tuple[int, int] | str, dict[int, _Symbols]] = {}
    for p in placed:
        symbols = _tile_symbols(rules, p.tile)
        if symbols:
            out[(p.x, p.y)] = symbols
    printed = {(p.x, p.y) for p in placed if p.tile.startswith("map/")}
    if not printed:
        return out
    # A feature's printed pieces are named by id (border pieces and ferry connections stand
    # on no square); the coats of arms go on the first one whose feature 0 (a large-city
    # square's city, a border piece's road or city, a ferry's road) is of the feature's kind.
    where = {p.tile: k for k, p in enumerate(placed) if p.tile.startswith("map/")}
    for f in game.features():
        if not f.pennants:
            continue
        own = sum(out.get((x, y), {}).get(i, _NO_SYMBOLS).pennants for x, y, i in f.segments if (x, y) not in printed)
        arms = f.pennants - own
        spots = sorted(
            (where[t], t) for t in f.printed if t in where and rules.tile_features(t)[0].split()[0] == f.kind
        )
        if arms > 0 and spots:
            _, tile = spots[0]
            out.setdefault(tile, {})[0] = _Symbols(pennants=arms)
    return out
