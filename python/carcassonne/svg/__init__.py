"""SVG pictures of a game's board and of a map (see ``carcassonne.svg.board_picture``)."""

from carcassonne.svg.board_picture import COLORS, SQUARE, SvgWrapper, board, map

__all__ = ["COLORS", "SQUARE", "SvgWrapper", "board", "map"]
