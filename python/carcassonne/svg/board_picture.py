"""The picture of a game's board (``board``): its tiles, meeples, the map under them, boat
tokens, the last move, Friday's row and a legend of the players."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from carcassonne._core import Game, Rules
from carcassonne.svg.document import SvgWrapper, _el, _label, _svg_root
from carcassonne.svg.geometry import _CENTRE, SQUARE, _rotate
from carcassonne.svg.glyphs import _arms, _meeple
from carcassonne.svg.layout import _Layout, _layout
from carcassonne.svg.map_picture import _map_layer
from carcassonne.svg.palette import _LAST_MOVE, COLORS, _TABLE
from carcassonne.svg.symbols import _board_symbols
from carcassonne.svg.tile import _tile

_OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}


def _piece_quarters(rules: Rules) -> dict[str, str]:
    """For each printed border piece and ferry connection of the map of ``rules``, the side
    of the outside square it is shown at (beyond its first side) that faces its square."""
    from carcassonne.maps import summary as map_summary

    info = map_summary(rules)
    out = {f"map/{info.name}/border{k}": _OPPOSITE[b.side] for k, b in enumerate(info.borders, 1)}
    out |= {f"map/{info.name}/ferry{k}": _OPPOSITE[f.ends[0][2]] for k, f in enumerate(info.ferries, 1)}
    return out


def board(
    game: Game,
    *,
    size: int | None = None,
    last_move: bool = True,
    colors: Sequence[str] | None = None,
    legend: bool = True,
) -> SvgWrapper:
    """An SVG picture of the board of ``game``, of any rule system.

    ``size``: the picture's width in pixels (default: 50 per square; the height follows).
    ``last_move``: outline the tile of the last move. ``colors``: one CSS colour per
    player instead of ``COLORS``. ``legend``: a row under the board with each player's
    colour and score.
    """
    rules = game.rules
    if size is not None and size < 1:
        raise ValueError(f"size must be at least 1 pixel, not {size}")
    palette = tuple(colors) if colors is not None else COLORS
    if len(palette) < rules.players:
        raise ValueError(f"colors names {len(palette)} colours for {rules.players} players")
    placed = game.board
    grid = rules.map_grid()
    system = rules.system

    squares: list[tuple[int, int]] = [(p.x, p.y) for p in placed]
    squares += [(c, r) for r, line in enumerate(grid) for c in range(len(line))]
    min_x = min(x for x, _ in squares)
    max_x = max(x for x, _ in squares)
    min_y = min(y for _, y in squares)
    max_y = max(y for _, y in squares)
    margin = 0 if grid else 25
    vx, vy = min_x * SQUARE - margin, min_y * SQUARE - margin
    vw = (max_x - min_x + 1) * SQUARE + 2 * margin
    board_h = (max_y - min_y + 1) * SQUARE + 2 * margin
    labels = _labels(game)
    column = 60 + 15 * max(len(t) for t in labels)  # a swatch and the text (26-unit sans-serif)
    per_row = max(1, min(rules.players, vw // column))
    legend_h = 60 * math.ceil(rules.players / per_row) if legend else 0
    friday = _friday_cards(game)
    friday_h = _FRIDAY_ROW if friday else 0
    vh = board_h + friday_h + legend_h
    width = size if size is not None else max(1, (vw * 50) // SQUARE)
    height = max(1, round(width * vh / vw))

    svg = _svg_root((vx, vy, vw, vh), width, height, f"carcassonne-board {system}")
    title = ET.SubElement(svg, "title")
    title.text = f"Carcassonne board: {len(placed)} tiles, turn {game.turn}" + (", game over" if game.is_over else "")
    _el(svg, "rect", x=str(vx), y=str(vy), width=str(vw), height=str(vh), fill=_TABLE, **{"class": "background"})
    if grid:
        _map_layer(svg, grid)

    links = game.ferries.links if game.ferries is not None else []
    ferries = {(x, y): (a, b) for x, y, a, b in links}
    symbols = _board_symbols(game, placed)
    quarters = _piece_quarters(rules) if grid else {}
    tiles = _el(svg, "g", **{"class": "tiles"})
    layouts: dict[tuple[int, int], _Layout] = {}
    for p in placed:
        lake = (p.x, p.y) in ferries
        layout = _layout(tuple(rules.tile_features(p.tile, 0)), lake)
        layouts[(p.x, p.y)] = layout
        _tile(
            tiles,
            p,
            layout,
            symbols.get(p.tile if p.tile.startswith("map/") else (p.x, p.y), {}),
            ferries.get((p.x, p.y)),
            lake,
            p.tile.startswith("map/"),
            system,
            quarters.get(p.tile),
        )

    if game.sea is not None:
        boats = _el(svg, "g", **{"class": "boat-tokens"})
        seen: set[tuple[int, int]] = set()
        for event in game.sea.events:
            if event.kind == "boat" and event.square is not None and event.square not in seen:
                seen.add(event.square)
                bx, by = event.square[0] * SQUARE + 80, event.square[1] * SQUARE + 82
                _el(
                    boats,
                    "path",
                    d=f"M{bx - 11},{by} H{bx + 11} L{bx + 7},{by + 7} H{bx - 7} Z M{bx},{by} V{by - 14} L{bx + 9},{by - 3} Z",
                    fill="#f5f0e1",
                    stroke="#3e2612",
                    stroke_width="1.3",
                    **{"class": "boat-token", "data-x": str(event.square[0]), "data-y": str(event.square[1])},
                )

    moves = game.moves
    if last_move and moves:
        m = moves[-1]
        _el(
            svg,
            "rect",
            x=str(m.x * SQUARE + 3),
            y=str(m.y * SQUARE + 3),
            width=str(SQUARE - 6),
            height=str(SQUARE - 6),
            fill="none",
            stroke=_LAST_MOVE,
            stroke_width="6",
            **{"class": "last-move", "data-x": str(m.x), "data-y": str(m.y)},
        )

    meeples = _el(svg, "g", **{"class": "meeples"})
    for p in placed:
        if p.meeple is None:
            continue
        player, index = p.meeple
        layout = layouts[(p.x, p.y)]
        anchor = _rotate(layout.anchors.get(index, _CENTRE), p.rotation)
        kind = layout.kinds[index] if index < len(layout.kinds) else ""
        at = (p.x * SQUARE + anchor[0], p.y * SQUARE + anchor[1])
        _meeple(meeples, at, palette[player], player, p, index, kind, lying=kind == "field")

    if grid:
        from carcassonne.maps import summary as map_summary

        # Coats of arms printed on the map's island squares, over whatever tile lies there.
        arms_layer = _el(svg, "g", **{"class": "island-arms"})
        for col, row, count in map_summary(rules).island_arms:
            g = _el(arms_layer, "g", **{"class": "island-arms", "data-x": str(col), "data-y": str(row), "data-arms": str(count)})
            _arms(g, (col * SQUARE + 78, row * SQUARE + 22), count, "island-shield")
    if friday:
        _friday_panel(svg, friday, vx, vy + board_h, vw)
    if legend:
        _legend(svg, labels, palette, vx, vy + board_h + friday_h, vw, per_row)
    return SvgWrapper(ET.tostring(svg, encoding="unicode"))


_FRIDAY_ROW = 120
"""Height of the row of revealed Friday tiles under a South Seas board with Friday."""


def _friday_cards(game: Game) -> list[tuple[str, str, bool]]:
    """(id, bonus, Friday stands here) of each Friday tile revealed so far, in order."""
    friday = game.friday
    if friday is None:
        return []
    bonuses = dict(game.rules.friday_tiles())
    return [(tile, bonuses.get(tile, ""), tile == friday.at) for tile in friday.revealed]


def _friday_panel(svg: ET.Element, cards: Sequence[tuple[str, str, bool]], x0: int, y0: int, width: int) -> None:
    """The revealed Friday tiles as cards in a row, each with its bonus; the one Friday
    stands on is outlined and carries his figure."""
    g = _el(svg, "g", **{"class": "friday"})
    heading = _el(g, "text", x=str(x0 + 20), y=str(y0 + 64), fill="#222222", font_family="sans-serif", font_size="24")
    heading.text = "Friday:"
    card_w = max(60, min(170, (width - 130) // max(1, len(cards)) - 10))
    for i, (tile, bonus, here) in enumerate(cards):
        x, y = x0 + 120 + i * (card_w + 10), y0 + 8
        _el(
            g,
            "rect",
            x=str(x),
            y=str(y),
            width=str(card_w),
            height="100",
            rx="8",
            fill="#f3e2b3" if here else "#efe9da",
            stroke="#7a4b12" if here else "#8a8170",
            stroke_width="6" if here else "2",
            **{"class": "friday-tile" + (" friday-here" if here else ""), "data-tile": tile},
        )
        _label(g, (x + card_w / 2, y + 30), tile, size=24)
        # The bonus in two short lines ("wares: every player" / "takes 1 fish").
        words = bonus.split()
        half = (len(words) + 1) // 2
        for line, text in enumerate((" ".join(words[:half]), " ".join(words[half:]))):
            _label(g, (x + card_w / 2, y + 58 + line * 20), text, size=max(9, min(15, int(1.9 * card_w / max(1, len(text))))))
        if here:
            # Friday: a small figure on the card's corner.
            cx, cy = x + card_w - 16, y + 18
            _el(g, "circle", cx=str(cx), cy=str(cy - 6), r="6", fill="#3e2612", **{"class": "friday-figure"})
            _el(g, "path", d=f"M{cx - 8},{cy + 12} L{cx},{cy} L{cx + 8},{cy + 12} Z", fill="#3e2612")


def _labels(game: Game) -> list[str]:
    """Each player's legend text: score (South Seas: and ships), a star for the winners, a
    triangle for the player who decides next."""
    rules = game.rules
    sea = game.sea
    winners = set(game.winners) if game.is_over else set()
    out = []
    for player in range(rules.players):
        # Seats are numbered from 0, as in every other output.
        parts = [f"Seat {player}: {game.scores[player]}"]
        if sea is not None:
            ships = sum(1 for who, _ in sea.ships_taken if who == player)
            parts.append(f"({ships} ship{'' if ships == 1 else 's'})")
        if player in winners:
            parts.append("\u2605")
        elif not game.is_over and player == game.decider:
            parts.append("\u25c0")
        out.append(" ".join(parts))
    return out


def _legend(
    svg: ET.Element, labels: Sequence[str], palette: Sequence[str], x0: int, y0: int, width: int, per_row: int
) -> None:
    g = _el(svg, "g", **{"class": "legend"})
    column = width // per_row
    for player, label in enumerate(labels):
        x = x0 + (player % per_row) * column + 20
        y = y0 + (player // per_row) * 60 + 12
        _el(
            g,
            "rect",
            x=str(x),
            y=str(y),
            width="36",
            height="36",
            rx="6",
            fill=palette[player],
            stroke="#111111",
            stroke_width="2",
            **{"class": "swatch", "data-player": str(player)},
        )
        text = _el(g, "text", x=str(x + 48), y=str(y + 27), fill="#222222", font_family="sans-serif", font_size="26")
        text.text = label
