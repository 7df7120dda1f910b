"""SVG pictures of a game's board, for notebooks, reports and the command line.

>>> import carcassonne, carcassonne.svg
>>> game = carcassonne.Game(carcassonne.Rules(players=2), seed=1)
>>> picture = carcassonne.svg.board(game)     # an SVG document (a str)
>>> picture[:4]
'<svg'

Every tile is drawn from its feature data (``Rules.tile_features``), so every rule system
and every tile file of one's own is drawn the same way: fields (or sea) as the square's
ground, cities (or islands) as walls over the sides they cover, joined where one city
covers several sides, roads (or bridges) from the middle of their sides to the centre or
to each other, monasteries (or markets) as a building. Pennants, inns, cathedrals, goods and wares
(shells, bananas, fish) are marked where the tile has them; lakes and their ferries (The
Ferries), fishing-boat tokens (South Seas), the map's squares and printed pieces with
their coats of arms (Carcassonne Maps) too.
Meeples (islanders) stand in their player's colour on the feature they occupy (farmers
lie down); the last placed tile is outlined.

The document is built with ``xml.etree.ElementTree``, uses no external fonts or images,
and is deterministic: the same game gives the same bytes. Board coordinates: one square is
``SQUARE`` (100) user units, and the tile on square (x, y) is the group translated to
(100 x, 100 y) and turned by its rotation about the square's centre.
"""

from carcassonne.svg.board_picture import board
from carcassonne.svg.document import SvgWrapper
from carcassonne.svg.geometry import SQUARE
from carcassonne.svg.map_picture import map
from carcassonne.svg.palette import COLORS

__all__ = ["COLORS", "SQUARE", "SvgWrapper", "board", "map"]
