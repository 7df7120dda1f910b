"""Type stubs for ``carcassonne._core``, the native (Rust/PyO3) engine module.

Hand-written to match ``rust/carcassonne-py/src/lib.rs`` exactly; checked against the
compiled module with ``python -m mypy.stubtest carcassonne._core`` (see ``.ci/typecheck``).
The docstrings are the binding's doc comments, as the compiled module has them: write them
there and run ``python tools/docstrings.py`` (``tests/test_docstrings.py`` checks them);
``Rules.__new__`` and the option properties are ``tools/options.py``'s.
"""

import inspect
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Literal, SupportsIndex, final

import numpy as np
import numpy.typing as npt
from typing_extensions import deprecated

from carcassonne.phase import Phase
from carcassonne.learn.value import LearnedValue
from carcassonne.players import Greedy, Learned, Random

__all__ = [
    "Rules",
    "RuleOption",
    "Move",
    "Game",
    "PlacedTile",
    "CarcassonneError",
    "Feature",
    "TileFeature",
    "ScoreEvent",
    "Ship",
    "Delivery",
    "Decision",
    "ActionValue",
    "ActionSpace",
    "ActionBlock",
    "ObservationSpace",
    "VectorEnv",
    "PuctSearch",
    "SearchReport",
    "SeaEvent",
    "SeaView",
    "FridayView",
    "FerriesView",
    "check_map",
    "generate_map",
    "simulate_batch",
    "IllegalMoveError",
    "GameOverError",
    "RulesError",
    "TileDataError",
    "UnknownTileError",
    "RecordError",
    "PositionError",
    "ActionSpaceError",
    "WindowOverflowError",
    "EvaluationError",
    "BusyError",
    "PlayerError",
    "check_rows_fit",
    "replay_game",
    "simulate_totals",
    "max_threads",
    "learned_values",
    "train_value",
    "LEARNED_LAYOUT",
    "LEARNED_WEIGHTS",
    "MAX_DATA_FILE_BYTES",
    "MAX_RECORD_BYTES",
    "RULES_VERSION",
    "ENGINE_VERSION",
    "TILE_SETS",
    "SCORE_KINDS",
    "WARES",
]

# ----- constants ---------------------------------------------------------------------

RULES_VERSION: int
"""Version of the rules semantics; bumped whenever the same inputs can give other games."""
ENGINE_VERSION: str
"""Version of the engine (also ``carcassonne.__version__``)."""
TILE_SETS: list[str]
"""Names of the built-in tile sets: ``["base", "inns-and-cathedrals", "traders-and-builders",
"ferries", "south-seas"]`` (South Seas: a labelled reconstruction, see ``Rules.reconstructions``)."""
SCORE_KINDS: list[str]
"""Scoring kinds in column order: ``["road", "city", "monastery", "field", "goods", "ships",
"wares", "map"]`` ("ships" and "wares": South Seas ship points and 1 point per 3 wares
left; "map": Carcassonne Maps, points for the square a tile goes on: 2 per coat of arms on
an island square, and the small-town penalty of variant 2)."""
WARES: list[str]
"""South Seas ware names in the order of every ware tuple: ``["shell", "banana", "fish"]``."""
MAX_DATA_FILE_BYTES: int
"""Largest data file (tiles, ships, Friday tiles) accepted: 1 MiB; larger ones raise
TileDataError before they are read."""
MAX_RECORD_BYTES: int
"""Largest game record or rules JSON accepted: 16 MiB."""

# ----- exceptions --------------------------------------------------------------------

class CarcassonneError(ValueError):
    """The base of every error this library raises for bad input or a refused action (a
    ValueError): catch it to catch them all."""

class IllegalMoveError(CarcassonneError):
    """A move the rules do not allow; the game is unchanged. Also a placement (or any
    other action) while the Maps extra turn is to be decided (the message names the
    pending ``extra_turn`` decision), and ``Decision.extra_turn`` when no extra turn is
    offered."""

class GameOverError(IllegalMoveError):
    """A move was played after the game ended."""

class RulesError(CarcassonneError):
    """An invalid rules configuration (players, meeples, tile sets, deck) or study setting
    (games, seed, threads, a study too large for memory)."""

class TileDataError(RulesError):
    """A malformed, inconsistent or oversized data file (tiles, ships, Friday tiles); names
    the file, entry and fault, quoting at most a short excerpt of the input."""

class UnknownTileError(RulesError):
    """A tile id that none of the chosen tile sets defines."""

class RecordError(CarcassonneError):
    """A game record (JSON) that cannot be loaded; the fault found while loading (an
    invalid rules part, an illegal move) is its ``__cause__``."""

class PositionError(CarcassonneError):
    """A question about the board naming a square or feature the position does not have."""

class ActionSpaceError(CarcassonneError):
    """An action token or token sequence the action space does not have or that leads to
    no legal action, a window the rules cannot take, or a game of other rules."""

class WindowOverflowError(ActionSpaceError):
    """The game's played area has outgrown the action space's board window: use a larger
    window."""

class EvaluationError(CarcassonneError):
    """A search's evaluation function returned what the search cannot use: not a
    (priors, values) pair, arrays of the wrong shape, a negative or non-finite prior, a
    value outside -1 to 1; names the batch row."""

class BusyError(CarcassonneError):
    """An object was used from inside one of its own calls (a search started from its
    own evaluation); nothing was done. Calls from several threads wait for each other
    instead."""

class PlayerError(CarcassonneError):
    """A player that cannot take a seat (unknown name, bad settings, wrong number of
    seats) or that failed during a game (chose an illegal action, raised, returned
    something that is not an action); names the game, the seat and the fault. The
    exception a Python player raised is its ``__cause__``."""

# ----- Rules -------------------------------------------------------------------------

@final
class RuleOption:
    """One rules option, as declared in the core: what ``Rules(...)`` takes for it."""

    @property
    def name(self) -> str:
        """The keyword of ``Rules(...)``."""

    @property
    def kind(self) -> str:
        """What it takes: "bool", "int", "text", "file", "files", "map", "start squares",
        "rotations" or "variants"."""

    @property
    def python_type(self) -> str:
        """Its Python type, as the stub writes it."""

    @property
    def default(self) -> str:
        """Its default as Python writes it ("None": chosen as ``doc`` says)."""

    @property
    def system(self) -> str:
        """The rule system it belongs to: "every", "classic", "ferries", "maps",
        "south-seas" or "friday"."""

    @property
    def flag(self) -> str:
        """The flag of ``carcassonne simulate`` (without ``--``), or "" for none."""

    @property
    def choices(self) -> list[str]:
        """The values a text option takes (empty: any)."""

    @property
    def builtins(self) -> list[str]:
        """The built-in data files an option naming files takes by name (empty for others)."""

    @property
    def range(self) -> tuple[int, int] | None:
        """The range of an integer option, or None."""

    @property
    def summary(self) -> str:
        """How a report names it with its value (``{}``)."""

    @property
    def doc(self) -> str:
        """One line: what it does."""

    @property
    def rules_property(self) -> str:
        """The ``Rules`` property that reads its value in effect."""

    @property
    def value_type(self) -> str:
        """The Python type of that property."""

@final
class Rules:
    """Validated rules: players, meeples, tile sets and rules options.

    Immutable, hashable, comparable with ``==`` and picklable (through its JSON form).

    ``Rules(...)`` takes every rules option by keyword (``Rules.options()`` lists them with
    their kinds, rule systems and command-line flags; each has its property, the value in
    effect); a value of None is the option's default. The rule system follows from the tile
    sets: ``("south-seas",)`` plays South Seas. Raises RulesError (or TileDataError,
    UnknownTileError) for an invalid configuration.
    """

    # BEGIN generated by tools/options.py from Rules.options(): do not edit by hand
    def __new__(
        cls,
        *,
        players: SupportsIndex = 2,
        meeples: SupportsIndex | None = None,
        tile_sets: Iterable[str | os.PathLike[str]] | None = None,
        start_tile: str | None = None,
        farmers: bool = True,
        inns_and_cathedrals_scoring: bool = False,
        traders_goods: bool = False,
        ferries_edition: str = "C3",
        ships: str | os.PathLike[str] | None = None,
        retrieve_only_when_supply_empty: bool = False,
        boat_evaluates_unoccupied: bool = False,
        friday: bool = False,
        friday_tiles: str | os.PathLike[str] | None = None,
        map: str | os.PathLike[str] | tuple[str | os.PathLike[str], str | os.PathLike[str]] | None = None,
        start_squares: SupportsIndex | Iterable[tuple[SupportsIndex, SupportsIndex]] | None = None,
        start_rotations: Iterable[SupportsIndex | None] | None = None,
        tile_set_copies: SupportsIndex | None = None,
        deck_size: SupportsIndex | None = None,
        small_towns: Iterable[SupportsIndex] | None = None,
    ) -> Rules:
        """Validates a configuration; raises RulesError (or TileDataError, UnknownTileError).

        Every keyword is a rules option (``Rules.options()`` lists them with their kinds,
        rule systems and command-line flags); a value of None is the option's default. The
        rule system follows from the tile sets: ``("south-seas",)`` plays South Seas.

        - ``players`` (every): Players (South Seas: at most 5). Default 2.
        - ``meeples`` (every): Meeples (islanders) per player; default 7, 9 on a map, 4 in
          South Seas.
        - ``tile_sets`` (every): Tile sets (built-in names or .toml files); default base, on
          a map base, inns-and-cathedrals and traders-and-builders.
        - ``start_tile`` (every): Full id of the start tile; default the one the sets mark
          (base/D).
        - ``farmers`` (classic): Meeples may lie on fields, and fields score at the end.
          Default True.
        - ``inns_and_cathedrals_scoring`` (classic): Inns & Cathedrals scoring: inn roads 2
          per tile, cathedral cities 3 per tile and pennant, 0 if incomplete (C-4). Default
          False.
        - ``traders_goods`` (classic): Traders & Builders goods: completing a city takes its
          goods; 10 points per majority of each good at the end. Default False.
        - ``ferries_edition`` (ferries): The Ferries: which edition's lake tile counts
          (F-1). Default "C3".
        - ``ships`` (south-seas): South Seas: the ship set (a built-in name or a .toml
          file); default south-seas.
        - ``retrieve_only_when_supply_empty`` (south-seas): South Seas: an islander is taken
          back only with an empty supply (S-3). Default False.
        - ``boat_evaluates_unoccupied`` (south-seas): South Seas: a fishing boat covers fish
          even where nobody fishes (S-4). Default False.
        - ``friday`` (south-seas): South Seas: play with the Friday expansion (S-8). Default
          False.
        - ``friday_tiles`` (friday): Friday: the bonus file (a built-in name or a .toml
          file); default friday.
        - ``map`` (maps): Carcassonne Maps: the map (a built-in name, a .toml file, or two
          half maps joined); default the open table.
        - ``start_squares`` (maps): Maps: how many start squares get a tile, or which
          (column, row); default the map's recommendation (M-12).
        - ``start_rotations`` (maps): Maps: quarter turns of each start square's tile, None
          for the first that fits (M-12).
        - ``tile_set_copies`` (maps): Maps: times the tile sets are taken (one start tile
          out); default the multiple nearest the map's recommended tiles (2 for west+east's
          230, 1 for 110-120).
        - ``deck_size`` (maps): Maps: tiles in the deck, at most the sets' tiles taken
          tile_set_copies times less the start tile; default the map's recommendation as far
          as they reach.
        - ``small_towns`` (maps): Maps: small-town variants 1 (extra turn), 2 (penalty), 3
          (road bonus) (M-4).
        """

    @property
    def players(self) -> int:
        """Option ``players`` as in effect. Players (South Seas: at most 5)."""

    @property
    def meeples(self) -> int:
        """Option ``meeples`` as in effect. Meeples (islanders) per player; default 7, 9 on
        a map, 4 in South Seas."""

    @property
    def tile_sets(self) -> list[str]:
        """Option ``tile_sets`` as in effect. Tile sets (built-in names or .toml files);
        default base, on a map base, inns-and-cathedrals and traders-and-builders."""

    @property
    def start_tile(self) -> str:
        """Option ``start_tile`` as in effect. Full id of the start tile; default the one
        the sets mark (base/D)."""

    @property
    def farmers(self) -> bool:
        """Option ``farmers`` as in effect. Meeples may lie on fields, and fields score at
        the end."""

    @property
    def inns_and_cathedrals_scoring(self) -> bool:
        """Option ``inns_and_cathedrals_scoring`` as in effect. Inns & Cathedrals scoring:
        inn roads 2 per tile, cathedral cities 3 per tile and pennant, 0 if incomplete
        (C-4)."""

    @property
    def traders_goods(self) -> bool:
        """Option ``traders_goods`` as in effect. Traders & Builders goods: completing a
        city takes its goods; 10 points per majority of each good at the end."""

    @property
    def ferries_edition(self) -> str:
        """Option ``ferries_edition`` as in effect. The Ferries: which edition's lake tile
        counts (F-1)."""

    @property
    def ship_set(self) -> str:
        """Option ``ships`` as in effect. South Seas: the ship set (a built-in name or a
        .toml file); default south-seas."""

    @property
    def retrieve_only_when_supply_empty(self) -> bool:
        """Option ``retrieve_only_when_supply_empty`` as in effect. South Seas: an islander
        is taken back only with an empty supply (S-3)."""

    @property
    def boat_evaluates_unoccupied(self) -> bool:
        """Option ``boat_evaluates_unoccupied`` as in effect. South Seas: a fishing boat
        covers fish even where nobody fishes (S-4)."""

    @property
    def friday(self) -> bool:
        """Option ``friday`` as in effect. South Seas: play with the Friday expansion
        (S-8)."""

    @property
    def friday_set(self) -> str:
        """Option ``friday_tiles`` as in effect. Friday: the bonus file (a built-in name or
        a .toml file); default friday."""

    @property
    def map(self) -> str | None:
        """Option ``map`` as in effect. Carcassonne Maps: the map (a built-in name, a .toml
        file, or two half maps joined); default the open table."""

    @property
    def start_squares(self) -> int | None:
        """Option ``start_squares`` as in effect. Maps: how many start squares get a tile,
        or which (column, row); default the map's recommendation (M-12)."""

    @property
    def start_rotations(self) -> list[int | None]:
        """Option ``start_rotations`` as in effect. Maps: quarter turns of each start
        square's tile, None for the first that fits (M-12)."""

    @property
    def tile_set_copies(self) -> int:
        """Option ``tile_set_copies`` as in effect. Maps: times the tile sets are taken (one
        start tile out); default the multiple nearest the map's recommended tiles (2 for
        west+east's 230, 1 for 110-120)."""

    @property
    def deck_size(self) -> int:
        """Option ``deck_size`` as in effect. Maps: tiles in the deck, at most the sets'
        tiles taken tile_set_copies times less the start tile; default the map's
        recommendation as far as they reach."""

    @property
    def small_towns(self) -> list[int]:
        """Option ``small_towns`` as in effect. Maps: small-town variants 1 (extra turn), 2
        (penalty), 3 (road bonus) (M-4)."""
    # END generated by tools/options.py

    __signature__: ClassVar[inspect.Signature]
    """What ``inspect.signature(Rules)`` and ``help(Rules)`` show: every option as a keyword
    with its default, made by the binding from the same declarations as ``__new__`` above."""

    @property
    def action_space(self) -> ActionSpace:
        """The integer action space of these rules for learning agents, with the default
        board window (``ActionSpace(rules, window=...)`` for another)."""

    @property
    def system(self) -> str:
        """The rule system of the tile sets: "classic" or "south-seas"."""

    @property
    def ships(self) -> list[Ship]:
        """South Seas: the ship set, in file order (empty for classic rules)."""

    def friday_tiles(self) -> list[tuple[str, str]]:
        """Friday: ``(id, bonus)`` of the six Friday tiles (empty unless Friday is played)."""

    def reconstructions(self) -> list[tuple[str, str]]:
        """``(source, how it was built)`` for every data set in use that is a reconstruction,
        not a transcription of the printed game (the built-in South Seas tiles and ships,
        the Friday bonuses); the source says which file, e.g. "south-seas (tiles)",
        "south-seas (ships)", "friday (Friday tiles)"; a built-in map is listed as an
        original layout, e.g. "continental (map)"."""

    def map_grid(self) -> list[str]:
        """Carcassonne Maps: the map's grid, one string per row in the map file's symbols
        (two joined maps as one grid, their half squares as ``o``); empty without a map."""

    def map_summary_json(self) -> str | None:
        """Carcassonne Maps: what the map holds (squares by kind, large cities, border pieces,
        ferries, islands, start squares) as JSON (see ``carcassonne.maps.summary``), or None
        without a map."""

    def map_starts(self) -> list[tuple[int, int]]:
        """Carcassonne Maps: the start squares used, as ``(column, row)`` in order (the start
        tile on the first); empty without a map."""

    @staticmethod
    def maps() -> list[str]:
        """Names of the built-in maps (original layouts, not the printed maps)."""

    @staticmethod
    def options() -> list[RuleOption]:
        """Every rules option, in the order of ``Rules(...)``'s keywords: its name, kind,
        default, rule system, command-line flag and what it does."""

    def option_values(self) -> dict[str, Any]:
        """The value of every option that acts in these rules (options of other rule
        systems left out), keyed by name: data files by their labels (a joined map as
        "first+second"); None where the default is the map's or the sets' own."""

    def tile_ids(self) -> list[str]:
        """Ids of every tile layout in the chosen sets."""

    def full_deck(self) -> list[str]:
        """The full deck (one id per tile copy of the sets taken ``tile_set_copies`` times, start
        tile excluded), in set order."""

    def tile_features(self, tile: str, rotation: SupportsIndex = 0) -> list[str]:
        """Features of a tile as meeple targets, in index order, described in board
        orientation for ``rotation`` (e.g. "city N", "road W E", "field EL WR", "monastery").

        Raises UnknownTileError for an unknown tile id.
        """

    def tile_symbols(self, tile: str, rotation: SupportsIndex = 0) -> list[TileFeature]:
        """The features of a tile as data, with the symbols printed on each (pennants, inns,
        cathedrals, goods or wares, fish pairs, boats), in board orientation for ``rotation``.

        Raises UnknownTileError for an unknown tile id.
        """

    def tile_edges(self, tile: str, rotation: SupportsIndex = 0) -> str:
        """Side kinds of a tile, N E S W, after ``rotation`` quarter turns clockwise, in the
        letters of its rule system's files: "CRFR" (C city, R road, F field) or "ISBS" (I
        island, B bridge, S sea).

        Raises UnknownTileError for an unknown tile id.
        """

    def to_json(self) -> str:
        """The rules as JSON (the input of ``from_json``)."""

    @staticmethod
    def from_json(text: str) -> Rules:
        """Rules from ``to_json`` output; raises RulesError if invalid."""

    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[str], Rules], tuple[str]]: ...

# ----- Move --------------------------------------------------------------------------

@final
class Move:
    """A move: square (x east, y south), rotation (quarter turns clockwise) and the index of
    the tile feature that gets a meeple (see ``Rules.tile_features``), or None.

    Immutable, hashable, totally ordered (by x, y, rotation, meeple) and picklable.

    ``Move(...)`` raises IllegalMoveError if ``rotation`` is not 0-3, an index is negative,
    or more than four ferries move. Ferry ends are stored smaller first and ferry moves in
    square order, so equal choices make equal moves.
    """

    def __new__(
        cls,
        x: SupportsIndex,
        y: SupportsIndex,
        rotation: SupportsIndex = 0,
        meeple: SupportsIndex | None = None,
        ferry: tuple[SupportsIndex, SupportsIndex] | None = None,
        ferry_moves: Sequence[tuple[SupportsIndex, SupportsIndex, SupportsIndex, SupportsIndex]] = ...,
        retrieve: tuple[SupportsIndex, SupportsIndex, SupportsIndex] | None = None,
    ) -> Move:
        ...

    @property
    def x(self) -> int:
        """Column of the square (grows to the east)."""

    @property
    def y(self) -> int:
        """Row of the square (grows to the south)."""

    @property
    def rotation(self) -> int:
        """Quarter turns clockwise, 0 to 3."""

    @property
    def meeple(self) -> int | None:
        """Index of the tile feature that gets a meeple, or None."""

    @property
    def ferry(self) -> tuple[int, int] | None:
        """The Ferries: road ends ``(a, b)`` of a lake tile that its new ferry joins."""

    @property
    def ferry_moves(self) -> list[tuple[int, int, int, int]]:
        """The Ferries: ``(x, y, a, b)`` for each ferry moved to ends a, b of the lake at (x, y)."""

    @property
    def retrieve(self) -> tuple[int, int, int] | None:
        """South Seas: ``(x, y, feature index)`` of the player's islander taken back instead
        of placing one (step 2b), or None."""

    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __lt__(self, other: Move, /) -> bool: ...
    def __le__(self, other: Move, /) -> bool: ...
    def __gt__(self, other: Move, /) -> bool: ...
    def __ge__(self, other: Move, /) -> bool: ...
    def __reduce__(
        self,
    ) -> tuple[
        type[Move],
        tuple[
            int,
            int,
            int,
            int | None,
            tuple[int, int] | None,
            list[tuple[int, int, int, int]],
            tuple[int, int, int] | None,
        ],
    ]: ...

# ----- South Seas --------------------------------------------------------------------

@final
class Ship:
    """A South Seas ship token (a read-only view): its id, points, what it needs (as in the
    ship file) and whether the rulebook prints it (a reconstructed set marks the others)."""

    @property
    def id(self) -> str:
        """Its id in the ship file."""
    @property
    def points(self) -> int:
        """The points it scores when taken."""
    @property
    def needs(self) -> str:
        """As in the ship file: "2 shell + 1 fish + 1 banana", "any 6", "4 identical", "3 + 1"."""

    @property
    def known(self) -> bool:
        """Printed in the rulebook (the rest of a reconstructed set is not)."""

@final
class Delivery:
    """South Seas step 4: wares ``(shells, bananas, fish)`` delivered to the face-up ship in
    display slot ``ship``. Immutable, hashable, ordered and picklable.

    ``Delivery(...)`` raises IllegalMoveError for a negative slot or ware count.
    """

    def __new__(cls, ship: SupportsIndex, wares: tuple[SupportsIndex, SupportsIndex, SupportsIndex]) -> Delivery:
        ...

    @property
    def ship(self) -> int:
        """The display slot of the face-up ship delivered to."""
    @property
    def wares(self) -> tuple[int, int, int]:
        """The wares delivered, ``(shells, bananas, fish)``."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __lt__(self, other: Delivery, /) -> bool: ...
    def __le__(self, other: Delivery, /) -> bool: ...
    def __gt__(self, other: Delivery, /) -> bool: ...
    def __ge__(self, other: Delivery, /) -> bool: ...
    def __reduce__(self) -> tuple[type[Delivery], tuple[int, tuple[int, int, int]]]: ...

@final
class ActionBlock:
    """One block of an action space: the tokens ``start`` to ``start + size - 1``, laid out
    in ``shape`` along ``axes`` (row-major: the last axis varies fastest)."""

    @property
    def name(self) -> str:
        """Its name, e.g. "place", "meeple" or "deliver"."""
    @property
    def start(self) -> int:
        """Its first token."""
    @property
    def size(self) -> int:
        """How many tokens it has (the product of ``shape``)."""
    @property
    def shape(self) -> list[int]:
        """The length of each axis."""
    @property
    def axes(self) -> list[str]:
        """What each axis counts, e.g. "y", "x", "rotation" for "place"."""
    @property
    def doc(self) -> str:
        """One line: what its tokens choose."""

@final
class ActionSpace:
    """The integer action space of a rules configuration, for learning agents.

    An action of the engine (a ``Move`` or a ``Decision``) is one or more tokens, integers
    below ``size``, chosen one at a time: a placement is its square and rotation in the
    board window (block "place"), then its meeple (block "meeple"; in South Seas block
    "islander" for the islander taken back instead), then with The Ferries its ferry and
    ferry moves and "ferries_done"; every other decision is one token of its own block.
    ``mask(game, prefix)`` marks the tokens that continue ``prefix`` towards a legal action;
    ``resolve(game, tokens)`` gives the action once the tokens are complete. The window is
    ``window`` squares a side: on the open grid centred on the played area of each
    position (a game that outgrows it raises WindowOverflowError), on a map fixed over the
    map.

    ``ActionSpace(rules, window)``: the action space of ``rules`` with a board window of
    ``window`` squares a side (None: the default, 23 for the base game, growing with the
    deck; on a map the map's extent). Raises ActionSpaceError for a window the rules cannot
    take.
    """

    def __new__(cls, rules: Rules, window: SupportsIndex | None = None) -> ActionSpace:
        ...

    @property
    def size(self) -> int:
        """The number of tokens: every token is an integer in ``range(size)``."""

    @property
    def window(self) -> int:
        """The board window's side, in squares."""

    @property
    def blocks(self) -> list[ActionBlock]:
        """The blocks, in order: each kind of token, where it starts, its shape and meaning."""

    @property
    def pays(self) -> list[tuple[int, int, int]]:
        """South Seas: the wares (shells, bananas, fish) of each payment ``p`` a "deliver"
        token names (token ``1 + slot * len(pays) + p`` of the block). Empty otherwise."""

    def origin(self, game: Game) -> tuple[int, int]:
        """The board square (x, y) at the top left of ``game``'s window (window index 0;
        index i is square (x + i % window, y + i // window)). Raises WindowOverflowError if
        the game has outgrown the window."""

    def encode(self, game: Game, action: Move | Decision) -> tuple[int, ...]:
        """The tokens of ``action`` (a ``Move`` or ``Decision``) in ``game``'s position, as a
        tuple. Any action of the rules' kinds encodes, legal or not; raises ActionSpaceError for
        one this space has no tokens for (a square outside the window, a ferry without The
        Ferries)."""

    def decode(self, game: Game, tokens: Sequence[SupportsIndex]) -> Move | Decision:
        """The action (a ``Move`` or ``Decision``) the complete ``tokens`` stand for in ``game``'s
        position, legal or not. Raises ActionSpaceError for tokens that make no action."""

    def resolve(self, game: Game, tokens: Sequence[SupportsIndex]) -> Move | Decision | None:
        """The legal action whose tokens are ``tokens``, or None when more tokens are to
        come. Raises ActionSpaceError if no legal action starts with them."""

    def mask(
        self, game: Game, prefix: Sequence[SupportsIndex] | None = None
    ) -> npt.NDArray[np.bool_]:
        """A numpy array of ``size`` bools: True at each token that continues ``prefix`` (the
        tokens chosen so far for this action) towards a legal action of the decider. All
        False once the game is over. Raises ActionSpaceError for a prefix no legal action
        has or one that is already complete."""

    def mask_bits(
        self, game: Game, prefix: Sequence[SupportsIndex] | None = None
    ) -> npt.NDArray[np.uint8]:
        """``mask`` packed eight tokens to a byte, as ``numpy.packbits(mask,
        bitorder="little")``: token t is bit t % 8 of byte t // 8."""

@final
class ObservationSpace:
    """The observations of a rules configuration for learning agents, laid out over an
    action space's board window: ``board`` planes (planes x window x window bytes: row y,
    then column x, as the "place" block) and a ``vector`` of the rest, from the point of
    view of the player who decides now (player 0 of every per-player part is the decider,
    then the others in seat order). ``planes`` and ``fields`` name the parts in order.
    Nothing hidden is shown: of the tiles to come only how many of each kind are unseen,
    of the Friday tiles only the revealed ones.

    ``ObservationSpace(rules, space)``: the observations over ``space``'s window (default:
    the rules' ``action_space``).
    """

    def __new__(cls, rules: Rules, space: ActionSpace | None = None) -> ObservationSpace:
        ...

    @property
    def board_shape(self) -> tuple[int, int, int]:
        """The board part's shape: (planes, window, window)."""

    @property
    def vector_size(self) -> int:
        """The vector part's length."""

    @property
    def planes(self) -> list[str]:
        """The board planes' names, in order."""

    @property
    def plane_max(self) -> list[int]:
        """Each board plane's largest value, in ``planes`` order: 1 for the planes that
        mark (a tile, an open square, an edge's kind, the chosen square), 9 for
        ``centre_value``, 255 for counts and points (shown up to 255). The Gymnasium
        adapters' board space takes them as its upper bounds."""
    @property
    def fields(self) -> list[tuple[str, int]]:
        """The vector's fields as (name, length), in order."""

    def observe(
        self,
        game: Game,
        board: npt.NDArray[np.uint8] | None = None,
        vector: npt.NDArray[np.float32] | None = None,
        prefix: Sequence[SupportsIndex] | None = None,
        viewer: SupportsIndex | None = None,
    ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
        """``game``'s observation for its decider, written whole into ``board`` (a uint8
        array of ``board_shape``: counts and points above 255 are shown as 255) and
        ``vector`` (a float32 array of (``vector_size``,)), both C-contiguous and writeable
        (new arrays when None), which it returns. ``prefix``: the tokens already chosen for
        the action under way (the ``chosen_*`` parts and ``token`` show them). ``viewer``: the
        seat whose point of view it is (default the decider's). Raises ActionSpaceError for
        a wrong array or a game of other rules, WindowOverflowError (arrays unchanged) for a
        game that has outgrown the window."""

_Evaluation = Callable[
    [npt.NDArray[np.uint8], npt.NDArray[np.float32]],
    tuple[npt.ArrayLike, npt.ArrayLike],
]

@final
class PuctSearch:
    """A tree search guided by a learned evaluation (AlphaZero's PUCT), over the hidden
    information as the built-in MCTS: every simulation starts from a new reshuffle of the
    unseen tiles (ships, Friday tiles), so nothing hidden steers it.

    ``evaluate(board, vector)`` is called with a batch of positions, new arrays each time:
    ``board`` uint8 (n, planes, window, window) and ``vector`` float32 (n, vector_size), as
    ``observation_space.observe`` writes them (each from its decider's point of view, no
    action under way), n from 1 to ``batch``. It returns ``(priors, values)``: ``priors`` (n,
    ``action_space.size``), a weight of 0 or more per token (probabilities, or exponentials
    of logits), and ``values`` (n, players), each seat's value from -1 to 1, seat 0 the
    position's decider and the others in seat order after him (with two players also (n,):
    the decider's, the other's its negative). An action's prior is the product of its
    tokens' weights, normalised over the legal actions.

    ``evaluate`` may also be a ``carcassonne.learn.value.LearnedValue`` of the search's
    rules: the search then values each position it reaches with it, in Rust, without
    observations, and gives every action there the same prior.

    The game searched is copied first: other threads (and ``evaluate`` itself) may play
    it meanwhile. Searches of one ``PuctSearch`` from several threads wait for each other;
    one started from inside its own ``evaluate`` raises BusyError.

    ``PuctSearch(...)``: a search of ``simulations`` per move (the root's evaluation
    included, 1 to 1,000,000), ``batch`` positions per call of the evaluation (1 to 1,024),
    exploration ``exploration`` (AlphaZero's c_puct, 0 to 100), its random stream from
    ``seed``; the observations over ``space``'s window (default: the rules'
    ``action_space``). Raises ValueError for settings out of range, ActionSpaceError for a
    space of other rules.
    """

    def __new__(
        cls,
        rules: Rules,
        simulations: SupportsIndex = 200,
        batch: SupportsIndex = 8,
        exploration: float = 1.25,
        seed: SupportsIndex = 0,
        space: ActionSpace | None = None,
    ) -> PuctSearch:
        ...

    @property
    def simulations(self) -> int:
        """Simulations per search (the root's evaluation included)."""
    @property
    def batch(self) -> int:
        """The most positions per call of the evaluation."""
    @property
    def exploration(self) -> float:
        """The exploration constant (AlphaZero's c_puct)."""
    @property
    def action_space(self) -> ActionSpace:
        """The tokens the evaluation's priors are laid out in."""

    @property
    def observation_space(self) -> ObservationSpace:
        """The observations the evaluation is given."""

    def search(
        self, game: Game, evaluate: _Evaluation | LearnedValue, seed: SupportsIndex | None = None
    ) -> SearchReport:
        """Searches ``game`` (left unchanged) with ``evaluate``, drawing from the search's random
        stream (or, with ``seed``, from that seed's, the stream left as it was): the same
        evaluation and seed give the same report. Raises GameOverError for a finished
        game, ActionSpaceError for a game (or a learned value) of other rules,
        EvaluationError when ``evaluate`` returns something else than the class describes
        (naming the batch row), and lets whatever ``evaluate`` raises through
        (KeyboardInterrupt included)."""

    def choose(
        self, game: Game, evaluate: _Evaluation | LearnedValue, seed: SupportsIndex | None = None
    ) -> Move | Decision:
        """The action ``search`` visits most (among equals the one of higher mean value, then
        the first legal); a game with one legal action is not searched."""

@final
class SearchReport:
    """What a search found at the root: every legal action once, in ``Game.legal_actions()``
    order, with its visits, mean value for the decider (-1 to 1; 0 if never visited) and
    prior; the evaluation's ``value`` of the position and the search's ``mean``."""

    @property
    def actions(self) -> list[Move | Decision]:
        """The legal actions, in ``Game.legal_actions()`` order."""

    @property
    def visits(self) -> npt.NDArray[np.int64]:
        """Simulations through each action (int64)."""

    @property
    def values(self) -> npt.NDArray[np.float32]:
        """Each action's mean value for the decider (float32, -1 to 1; 0 if never visited)."""

    @property
    def priors(self) -> npt.NDArray[np.float32]:
        """Each action's prior from the root's evaluation (float32, summing to 1)."""

    @property
    def token_visits(self) -> npt.NDArray[np.float32]:
        """Each token's share of the visits: the visits of the actions whose tokens include
        it, over all visits (float32 of ``action_space.size``): a training target for the
        priors (decisions' tokens sum to 1; so do placements' square-and-rotation tokens,
        and their meeple tokens). All 0 for a position that has outgrown the window (its
        actions then have equal priors, and the search goes on without the evaluation's
        view of it)."""

    @property
    def value(self) -> float:
        """The evaluation's value of the position for the decider."""

    @property
    def mean(self) -> float:
        """The mean value for the decider over all simulations."""

    @property
    def best(self) -> Move | Decision:
        """The action visited most (among equals the one of higher mean value, then the
        first legal)."""

@final
class VectorEnv:
    """Many games stepped at once in Rust, for learning agents.

    Each ``step(actions)`` takes one token per game (an integer of ``action_space``, allowed
    by that game's mask) for the player who decides there (``info["to_play"]``), plays the
    built-in ``opponents``' turns if given (then the caller plays ``agent_seat`` alone), and
    returns ``(observations, rewards, terminated, truncated, info)``: observations
    ``{"board": (n, planes, w, w), "vector": (n, v), "action_mask": (n, size)}`` (the mask
    alone with ``observations=False``), rewards ``(n, players)`` per seat (the final
    outcome: 1 to a sole winner, 0 to tied winners, -1 to the others; plus ``shaping`` times
    the change in each seat's virtual margin), and ``info`` ``{"to_play", "final_scores"}``.
    A game that ends starts its next episode in the same step (its new first observation
    is returned with ``terminated`` set: Gymnasium's "same step" autoreset); a game that
    outgrows the window is ``truncated`` and starts again too. Game e plays episodes e,
    e + n, e + 2n, ... of the study ``seed``, with ``simulate``'s decks and random streams,
    whatever ``threads``. The returned arrays belong to the environment and are overwritten
    by the next step: copy what you keep. The observations and masks are read-only, for
    good (numpy cannot make them writeable: the environment relies on finding them as it
    left them). Calls from several threads wait for each other; Ctrl-C during a long
    ``reset`` or ``step`` (or the construction) raises KeyboardInterrupt at once, and the
    environment must then be reset before it is stepped again.

    ``VectorEnv(...)``:``num_envs`` games of ``rules``. ``opponents``: the player of every
    seat but ``agent_seat`` (None: the caller plays every seat): "random", "greedy",
    "learned" or such a ``carcassonne.players`` settings object (not MCTS, not a Python
    function: the environment plays their turns in Rust, quickly). ``threads``: None
    for one per core (results never depend on it).
    """

    def __new__(
        cls,
        rules: Rules,
        num_envs: SupportsIndex,
        seed: SupportsIndex = 0,
        *,
        opponents: str | Random | Greedy | Learned | None = None,
        agent_seat: SupportsIndex = 0,
        shaping: float = 0.0,
        observations: bool = True,
        window: SupportsIndex | None = None,
        threads: SupportsIndex | None = None,
    ) -> VectorEnv:
        ...

    @property
    def num_envs(self) -> int:
        """The number of games stepped at once."""
    @property
    def autoreset_mode(self) -> str:
        """Gymnasium's autoreset mode of this environment: "same_step"."""

    @property
    def action_space(self) -> ActionSpace:
        """The action space the tokens belong to."""

    @property
    def observation_space(self) -> ObservationSpace:
        """The observations' layout (planes and fields, in order)."""

    def reset(
        self, seed: SupportsIndex | Sequence[SupportsIndex] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, npt.NDArray[Any]]]:
        """Starts every game at its first episode and returns ``(observations, info)``.
        With ``seed``, an integer, of that study root; a sequence of ``num_envs``
        integers, game e plays episodes e, e + n, ... of study ``seed[e]`` (n equal roots
        are that root)."""

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        dict[str, npt.NDArray[Any]],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, npt.NDArray[Any]],
    ]:
        """Plays one token per game; returns ``(observations, rewards, terminated,
        truncated, info)``. Raises ActionSpaceError, with nothing stepped, for actions of
        the wrong shape or type, or one that its game's mask does not allow (naming the
        game and the action), or after an interrupted step or reset (reset first)."""

@final
class ActionValue:
    """One legal action after a search (``Game.analyse``): how often the search chose it and
    its mean reward for the decider, from 0 to 1 (0 if never visited). With the default
    cut-off a playout stops after a few tiles and its reward is a logistic of the
    decider's virtual margin over the best other player (0.5 when level, about 0.73 five
    points ahead); with ``cutoff=None`` playouts run to the end and the reward is 0.9 x the
    share of the win + 0.1 x a logistic of the final margin (20 points: about 0.73)."""

    @property
    def action(self) -> Move | Decision:
        """The legal action, a ``Move`` or a ``Decision``."""
    @property
    def visits(self) -> int:
        """How often the search chose it."""
    @property
    def value(self) -> float:
        """Its mean reward for the decider, from 0 to 1 (0 if never visited)."""

@final
class Decision:
    """A decision other than placing a tile (South Seas step 4, a market pick, Friday's
    move or homecoming, a Friday trade, the Carcassonne Maps extra turn), as
    ``Game.legal_actions()`` lists it; build one with the static methods."""

    @staticmethod
    def deliver(delivery: Delivery | None = None) -> Decision:
        """South Seas step 4: deliver to a face-up ship, or (None) not deliver."""
    @staticmethod
    def market_ship(slot: SupportsIndex) -> Decision:
        """A completed market's owner takes the face-up ship in display slot ``slot``."""
    @staticmethod
    def move_friday(tile: SupportsIndex) -> Decision:
        """Friday moves to the Friday tile with this index in ``Rules.friday_tiles()``."""
    @staticmethod
    def take_home(x: SupportsIndex, y: SupportsIndex, feature: SupportsIndex) -> Decision:
        """Friday's homecoming: the decider takes back his islander at (x, y, feature)."""
    @staticmethod
    def trade(give: SupportsIndex, take: SupportsIndex) -> Decision:
        """Friday's trading: one ware ``give`` for one ware ``take`` (indices into ``WARES``)."""
    @staticmethod
    def extra_turn(take: bool) -> Decision:
        """Carcassonne Maps (small-town variant 1): after covering a small town, take
        another turn at once (``take=True``: the same player draws the next tile) or not
        (``False``: the next player draws)."""
    @property
    def kind(self) -> Literal["deliver", "market_ship", "move_friday", "take_home", "trade", "extra_turn"]:
        """"deliver", "market_ship", "move_friday", "take_home", "trade" or "extra_turn"."""
    @property
    def delivery(self) -> Delivery | None:
        """"deliver": the delivery, or None for not delivering."""
    @property
    def slot(self) -> int | None:
        """"market_ship": the display slot taken."""
    @property
    def friday_tile(self) -> int | None:
        """"move_friday": the Friday tile's index in ``Rules.friday_tiles()``."""
    @property
    def spot(self) -> tuple[int, int, int] | None:
        """"take_home": (x, y, feature) of the islander taken back."""
    @property
    def trade_wares(self) -> tuple[int, int] | None:
        """"trade": (ware given, ware taken)."""
    @property
    def take(self) -> bool | None:
        """"extra_turn": whether the extra turn is taken."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[str], Decision], tuple[str]]: ...
    @staticmethod
    def _from_json(text: str) -> Decision:
        """A decision from the JSON ``__reduce__`` pickles (the record format)."""

@final
class SeaEvent:
    """One South Seas entry of the event log (a read-only view). ``kind`` is "wares" (a
    feature evaluated: each of ``players`` received ``wares``), "boat" (a token covered
    ``fish`` fish on the tile at ``square``), "ship" (``players[0]`` took ``ship`` for
    ``points``, paying ``wares``, or None at a completed market), "friday" (Friday arrived
    on ``friday_tile``, revealed, or moved by ``players[0]``; a wares bonus gave every
    player ``wares``), "homecoming" (``players[0]`` took his islander at ``square`` back)
    or "trade" (``players[0]`` swapped ware ``trade[0]`` for ``trade[1]``)."""

    @property
    def kind(self) -> str:
        """What happened: "wares", "boat", "ship", "friday", "homecoming" or "trade" (see
        the class)."""
    @property
    def turn(self) -> int:
        """Turn in which it happened."""
    @property
    def players(self) -> list[int]:
        """The players it concerns: those receiving ``wares`` ("wares"), else the one who
        acted (empty for "boat", and for "friday" when nobody moved Friday)."""
    @property
    def wares(self) -> tuple[int, int, int] | None:
        """``(shells, bananas, fish)`` received ("wares", a "friday" bonus) or paid ("ship";
        None for a ship taken at a completed market), else None."""
    @property
    def feature(self) -> str | None:
        """"bridge", "island" or "sea" for wares events."""

    @property
    def tiles(self) -> list[tuple[int, int]]:
        """Squares of the evaluated feature ("wares")."""
    @property
    def complete(self) -> bool:
        """Whether the evaluated feature was complete ("wares")."""
    @property
    def boat(self) -> bool:
        """Evaluated because a fishing boat was placed in the region."""

    @property
    def final_scoring(self) -> bool:
        """Whether this is part of the end-of-game scoring."""
    @property
    def square(self) -> tuple[int, int] | None:
        """The square of the boat token ("boat") or of the islander taken back
        ("homecoming"), else None."""
    @property
    def fish(self) -> int:
        """The fish the boat token covered ("boat")."""
    @property
    def ship(self) -> str | None:
        """Id of the ship taken ("ship"), else None."""
    @property
    def points(self) -> int:
        """The points of the ship taken ("ship")."""
    @property
    def friday_tile(self) -> str | None:
        """Id of the Friday tile Friday arrived on ("friday")."""
    @property
    def trade(self) -> tuple[int, int] | None:
        """``(ware given, ware taken)``, indices into ``WARES`` ("trade")."""

# ----- read views --------------------------------------------------------------------

@final
class PlacedTile:
    """A tile on the board (a read-only view; not constructible from Python)."""

    @property
    def x(self) -> int:
        """Column of the square."""

    @property
    def y(self) -> int:
        """Row of the square."""

    @property
    def tile(self) -> str:
        """Tile id."""

    @property
    def rotation(self) -> int:
        """Quarter turns clockwise, 0 to 3."""

    @property
    def meeple(self) -> tuple[int, int] | None:
        """``(player, feature index)`` of the meeple standing on this tile, if any."""

@final
class TileFeature:
    """One feature of a tile (``Rules.tile_symbols``), in board orientation: its index (a
    ``Move``'s meeple), kind, where it lies and the symbols printed on it."""

    @property
    def index(self) -> int:
        """Its index on the tile (the ``meeple`` of a ``Move``)."""
    @property
    def kind(self) -> str:
        """"road", "city", "monastery", "field", "island", "bridge", "market" or "sea"."""
    @property
    def places(self) -> list[str]:
        """Where it lies, as in ``Rules.tile_features``: sides ("N", "E"...) for roads, cities,
        islands and bridges; half-edges ("NL", "ER"...) for fields and sea, ["I"] when enclosed;
        empty for a monastery or market."""
    @property
    def pennants(self) -> int:
        """Pennants printed on a city."""
    @property
    def inns(self) -> int:
        """Inns printed on a road (Inns & Cathedrals)."""
    @property
    def cathedrals(self) -> int:
        """Cathedrals printed in a city (Inns & Cathedrals)."""
    @property
    def goods(self) -> tuple[int, int, int]:
        """Traders & Builders goods (wine, grain, cloth) on a city; South Seas wares (shell,
        banana, fish) on an island, bridge or sea."""
    @property
    def fish_pairs(self) -> int:
        """South Seas: fish printed as pairs (each also counted in ``goods``)."""
    @property
    def boat(self) -> bool:
        """South Seas: a fishing boat printed on this sea."""
    @property
    def adjacent_cities(self) -> list[int]:
        """For a field: the indices of the cities of this tile it borders."""

@final
class Feature:
    """A feature on the board (a connected road, city, monastery or field); a read-only view."""

    @property
    def kind(self) -> Literal["road", "city", "monastery", "field", "bridge", "island", "market", "sea"]:
        """Classic: "road", "city", "monastery" or "field"; South Seas: "bridge", "island",
        "market" or "sea"."""

    @property
    def tiles(self) -> list[tuple[int, int]]:
        """Distinct squares the feature covers (tiles and a map's large-city squares)."""

    @property
    def segments(self) -> list[tuple[int, int, int]]:
        """``(x, y, feature index)`` of every tile segment in the feature."""

    @property
    def complete(self) -> bool:
        """Whether the feature is complete."""

    @property
    def meeples(self) -> list[int]:
        """Meeples per player."""

    @property
    def open_sides(self) -> int:
        """Open sides (roads and cities); 0 for monasteries and fields."""

    @property
    def pennants(self) -> int:
        """Pennants (cities)."""

    @property
    def inns(self) -> int:
        """Inns (roads)."""

    @property
    def cathedrals(self) -> int:
        """Cathedrals (cities)."""

    @property
    def goods(self) -> tuple[int, int, int]:
        """Goods symbols (wine, grain, cloth)."""

    @property
    def printed(self) -> list[str]:
        """Carcassonne Maps: ids of the map's printed pieces in the feature ("map/<map>/A1",
        ".../border2", ".../ferry1"); empty otherwise. Border pieces and ferry connections
        belong to sides of squares and stand on no square: they are named here, not in
        ``tiles`` or ``segments``."""

@final
class ScoreEvent:
    """One scoring in the event log; a read-only view."""

    @property
    def turn(self) -> int:
        """Turn in which the scoring happened."""

    @property
    def kind(self) -> str:
        """One of "road", "city", "monastery", "field" or "goods"."""

    @property
    def points(self) -> int:
        """Points each listed player receives."""

    @property
    def players(self) -> list[int]:
        """Players who receive the points."""

    @property
    def tiles(self) -> list[tuple[int, int]]:
        """Squares of the scored feature (tiles and a map's large-city squares; its border
        pieces and ferry connections are in ``printed``)."""

    @property
    def printed(self) -> list[str]:
        """Carcassonne Maps: ids of the map's printed pieces in the scored feature
        ("map/<map>/A1", ".../border2", ".../ferry1"); empty otherwise."""

    @property
    def complete(self) -> bool:
        """Whether the scored feature was complete."""

    @property
    def final_scoring(self) -> bool:
        """Whether this is part of the end-of-game scoring."""

    @property
    def goods(self) -> tuple[int, int, int]:
        """Goods taken (wine, grain, cloth) for goods events."""

# ----- per-system views of a game ----------------------------------------------------

@final
class SeaView:
    """Carcassonne: South Seas, read-only: ``Game.sea`` of a South Seas game (None for other
    rules). It reads the game at each access, so it is always current (also when kept in a
    variable across moves). Its decisions are made with ``Game.apply``."""

    @property
    def wares(self) -> list[tuple[int, int, int]]:
        """Each player's (shells, bananas, fish)."""

    @property
    def display(self) -> list[Ship]:
        """The face-up ships, by display slot."""

    @property
    def pile(self) -> list[str]:
        """Ids of the ships still face down, in draw order."""

    @property
    def ships_taken(self) -> list[tuple[int, str]]:
        """``(player, ship id)`` of every ship taken, in order."""

    @property
    def boat_tokens_left(self) -> int:
        """Fishing-boat tokens not yet placed (19 at the start)."""

    @property
    def events(self) -> list[SeaEvent]:
        """Wares given, boat tokens placed, ships taken, Friday's arrivals, homecomings and
        trades, in order."""

    def market_ships(self) -> list[int]:
        """"market" phase: display slots of the face-up ships tied for the most points,
        among which the merchant's owner (``Game.decider``) chooses (S-6); empty in other
        phases. Take one with ``Game.apply(Decision.market_ship(slot))``."""

    def legal_deliveries(self) -> list[Delivery]:
        """Every delivery the current player can make (only in the "deliver" phase); not
        delivering is always allowed then. Make one with
        ``Game.apply(Decision.deliver(delivery))``, or ``Decision.deliver(None)``."""

@final
class FridayView:
    """South Seas' Friday expansion, read-only: ``Game.friday`` of a game with
    ``Rules(friday=True)`` (None for other rules). It reads the game at each access, so it
    is always current. Its decisions are made with ``Game.apply``."""

    @property
    def order(self) -> list[str]:
        """The order in which the Friday tiles are (or will be) revealed (the hidden stack,
        like ``Game.remaining_tiles``)."""

    @property
    def revealed(self) -> list[str]:
        """Ids of the Friday tiles revealed so far, in order."""

    @property
    def at(self) -> str | None:
        """Id of the tile Friday stands on, or None before the first reveal."""

    @property
    def bonus(self) -> str | None:
        """What the tile Friday stands on gives, or None."""

    @property
    def weeks_done(self) -> int:
        """Weeks (stacks of 7 tiles) that have ended."""

    def targets(self) -> list[str]:
        """"move_friday" phase: ids of the tiles Friday may move to; empty in other phases.
        Move with ``Game.apply(Decision.move_friday(index))``, the index of the tile in
        ``Rules.friday_tiles()``."""

    def homecoming_choices(self) -> list[tuple[int, int, int]]:
        """"homecoming" phase: ``(x, y, feature)`` of the islanders ``Game.decider`` may take
        back; empty in other phases. Take one with ``Game.apply(Decision.take_home(x, y,
        feature))``."""

    def legal_trades(self) -> list[tuple[int, int]]:
        """Trading, in the "deliver" phase: ``(ware given, ware taken)`` indices into
        ``WARES`` of the swaps open now. Trade with ``Game.apply(Decision.trade(give,
        take))``."""

@final
class FerriesView:
    """The Ferries, read-only: ``Game.ferries`` of a game whose tile sets have lake tiles
    (None for other rules). It reads the game at each access, so it is always current."""

    @property
    def links(self) -> list[tuple[int, int, int, int]]:
        """``(x, y, a, b)`` of every ferry, joining road ends a and b of the lake tile at
        (x, y) (feature indices, see ``Rules.tile_features``)."""

    def movable(self, x: SupportsIndex, y: SupportsIndex, rotation: SupportsIndex) -> list[tuple[int, int]]:
        """Squares of the lakes whose ferry may move if the current tile is placed at (x, y)
        with ``rotation`` (the nearest ferry on each road it extends)."""

# ----- Game --------------------------------------------------------------------------

@final
class Game:
    """A game in progress. See the package documentation for the full API.

    Copy with ``clone()``, ``copy.copy`` or ``copy.deepcopy``; picklable (through its JSON
    record).

    ``Game(...)``: a new game: the deck is shuffled from ``(seed, game_index)`` unless
    ``deck`` gives the tile ids in draw order (then RulesError/UnknownTileError if invalid).
    South Seas: ``ships`` fixes the ship order (every ship id once; the first four start
    face up), else it is shuffled from the seed too; ``friday`` likewise fixes the order in
    which the Friday tiles are revealed.
    """

    def __new__(
        cls,
        rules: Rules,
        *,
        seed: SupportsIndex = 0,
        deck: Sequence[str] | None = None,
        game_index: SupportsIndex = 0,
        ships: Sequence[str] | None = None,
        friday: Sequence[str] | None = None,
    ) -> Game:
        ...

    @property
    def phase(self) -> Phase:
        """The phase, a ``Phase`` (a ``str`` enum equal to "place", "deliver", "market",
        "move_friday", "homecoming", "extra_turn" or "over"): "place" while the current
        player places the drawn tile, a South Seas decision or the Maps extra turn
        otherwise (``legal_actions``), "over" once the game has ended."""

    @property
    def decider(self) -> int:
        """The player who makes the pending decision: the merchant's owner in the "market"
        phase, else ``current_player``."""

    @property
    def sea(self) -> SeaView | None:
        """Carcassonne: South Seas, read-only (``SeaView``: wares, ships, boat tokens, the South
        Seas log, the market and delivery choices); None unless the rules play South Seas. A new
        view at each access, reading the game whenever it is asked: always current."""

    @property
    def friday(self) -> FridayView | None:
        """South Seas' Friday expansion, read-only (``FridayView``: Friday tiles, weeks, the
        choices of Friday's phases and of trading); None unless the rules play Friday. Always
        current."""

    @property
    def ferries(self) -> FerriesView | None:
        """The Ferries, read-only (``FerriesView``: every ferry, which may move); None unless the
        tile sets have lake tiles. Always current. (Until this release ``Game.ferries`` was the
        list that is now ``Game.ferries.links``.)"""

    @property
    def rules(self) -> Rules:
        """The rules of this game."""

    @property
    def current_player(self) -> int:
        """Index of the player to move."""

    @property
    def tile(self) -> str | None:
        """Id of the tile the current player must place, or None when the game is over or
        while the Maps extra turn is decided (the "extra_turn" phase: nothing is drawn
        before)."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    def turn(self) -> int:
        """Number of tiles placed so far (the start tile not counted)."""

    @property
    def scores(self) -> list[int]:
        """Score per player."""

    def virtual_scores(self) -> list[int]:
        """Each player's score if the game ended now: the points scored so far plus the
        end-of-game scoring of every unfinished occupied feature (and South Seas wares),
        what the greedy player and the MCTS cut-off judge by. Once the game is over, the
        final scores. Pending decisions (South Seas', the Maps extra turn) are not
        anticipated."""

    @property
    def supply(self) -> list[int]:
        """Meeples each player has in supply."""

    @property
    def goods(self) -> list[tuple[int, int, int]]:
        """Goods (wine, grain, cloth) each player holds (Traders & Builders)."""

    @property
    def points_by_kind(self) -> dict[str, list[int]]:
        """Points per player by kind: {"road": [...], "city": [...], ...}."""

    @property
    def winners(self) -> list[int]:
        """Players with the highest score (all of them on a tie); meaningful once over."""

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """The chance outcomes of the next draw: ``(tile id, probability)`` of each tile kind
        the next tile drawn from the pile may be (its share of the tiles the player to move
        has not seen; the draw order stays hidden), by tile index. Empty once no tile is
        left to draw. A drawn tile that fits nowhere is put aside and the next drawn: that
        is not anticipated."""

    @property
    def remaining_tiles(self) -> list[str]:
        """Ids of the tiles not yet drawn, in draw order. Hidden information: what a player
        (or an agent's observation) may know of them is ``chance_outcomes()`` or
        ``ObservationSpace``'s unseen counts, never this order."""

    @property
    def discarded(self) -> list[tuple[int, str]]:
        """``(turn, tile id)`` of every tile removed because it could not be placed."""

    @property
    def decisions(self) -> list[tuple[int, Decision]]:
        """The decisions made so far other than placements (South Seas', Friday's, the
        Maps extra turn), in order, each with its turn: the number of the move it followed
        (from 1). With ``moves``, what the record (``to_json``) replays."""

    @property
    def moves(self) -> list[Move]:
        """Moves played so far."""

    @property
    def board(self) -> list[PlacedTile]:
        """Tiles on the board in placement order (the start tile first)."""

    @property
    def events(self) -> list[ScoreEvent]:
        """Every scoring so far, in order."""

    def open_squares(self) -> list[tuple[int, int]]:
        """The squares a tile may go on now (next to a placed tile; on a map, only squares
        that take a tile now), sorted. Whether the current tile fits is ``legal_moves``."""

    def legal_moves(self) -> list[Move]:
        """Every legal move for the current tile (empty outside the "place" phase: once the
        game is over, and while a decision is pending)."""

    def play(self, mv: Move) -> None:
        """Plays a move; raises IllegalMoveError (a ValueError) and changes nothing if illegal."""

    def is_legal(self, action: Move | Decision) -> bool:
        """Whether the action (a ``Move`` or a ``Decision``) is legal now."""

    def legal_actions(self) -> list[Move | Decision]:
        """Every legal action of ``decider``, in a fixed order: the sorted ``legal_moves()``
        in the "place" phase, else the ``Decision``s open (in the "extra_turn" phase
        ``Decision.extra_turn(False)``, then ``Decision.extra_turn(True)``); empty once the
        game is over. The one list players, search and learning agents choose from."""

    def legal_action_mask(
        self, prefix: Sequence[SupportsIndex] | None = None, space: ActionSpace | None = None
    ) -> npt.NDArray[np.bool_]:
        """``space.mask(self, prefix)`` (default: ``self.rules.action_space``): a numpy array
        of bools over the action space, True at each token continuing ``prefix`` towards a
        legal action. See ``ActionSpace``."""

    def apply(self, action: Move | Decision) -> None:
        """Applies an action for ``decider``; raises IllegalMoveError (a ValueError) and
        changes nothing if it is not legal now (a ``Move`` outside the "place" phase, a
        ``Decision`` inside it, a ``Decision.extra_turn`` outside the "extra_turn" phase,
        anything that is not an action)."""

    def best_move(
        self, player: str | Any | Callable[[Game], Move | Decision] = "mcts", *, seed: SupportsIndex = 0
    ) -> Move | Decision:
        """The action ``player`` chooses now for ``decider`` (a name, a
        ``carcassonne.players`` settings object or a function; default "mcts"), searching
        a copy with the GIL released (Ctrl-C raises KeyboardInterrupt at once); ``seed``
        fixes its random choices. GameOverError once the game is over, PlayerError if the
        player cannot be used or fails."""

    def analyse(self, player: str | Any = "mcts", *, seed: SupportsIndex = 0) -> list[ActionValue]:
        """Searches with MCTS ("mcts" or a ``carcassonne.players.MCTS``) and returns every
        legal action of ``decider`` once, in ``legal_actions()`` order, with its visits and
        mean reward; the GIL is released while it searches. GameOverError once the game is
        over, PlayerError for another player or bad settings."""

    def determinize(self, seed: SupportsIndex = 0) -> None:
        """Reshuffles, in place, everything ``decider`` cannot know: the order of the tiles
        still to come (with a Maps deck shorter than the tile set, which tiles they are,
        drawn from every tile not yet seen), of the face-down ships and of the Friday tiles
        not yet revealed. Everything visible stays: the board, the current tile, scores,
        supplies, wares, the ship display. Use it on a ``clone()`` before looking ahead, so
        that a search never reads the true order; ``seed`` fixes the reshuffle."""

    def make_move(
        self,
        x: SupportsIndex,
        y: SupportsIndex,
        rotation: SupportsIndex = 0,
        meeple: SupportsIndex | str | None = None,
        ferry: tuple[SupportsIndex, SupportsIndex] | None = None,
        ferry_moves: Sequence[tuple[SupportsIndex, SupportsIndex, SupportsIndex, SupportsIndex]] = ...,
    ) -> Move:
        """Builds a move for the current tile, naming the meeple's feature by index, by a
        board-oriented side or half-edge it touches ("N", "EL", ...), "I" for an inner
        field, or "monastery". The move is not checked; ``play`` does that. A meeple named
        by side needs the tile in hand: GameOverError once the game is over,
        IllegalMoveError while the Maps extra turn is decided.
        """

    def describe_meeple(self, mv: Move) -> str | None:
        """Description of the meeple target of a move for the current tile ("city N", ...);
        GameOverError once the game is over, IllegalMoveError while the Maps extra turn is
        decided (no tile in hand)."""

    def clone(self) -> Game:
        """An independent copy of the game."""

    def __copy__(self) -> Game: ...
    def __deepcopy__(self, _memo: dict[int, Any]) -> Game: ...
    def to_json(self) -> str:
        """The game record as JSON (rules, deck and moves)."""

    @staticmethod
    def from_json(text: str) -> Game:
        """Replays a game record; raises RecordError if it cannot be loaded (the underlying
        RulesError or IllegalMoveError, if any, is its ``__cause__``). Records over
        ``MAX_RECORD_BYTES``, with unknown keys, or whose seed does not give their tile,
        ship or Friday order are refused."""

    def __reduce__(self) -> tuple[Callable[[str], Game], tuple[str]]: ...
    def _repr_svg_(self) -> str:
        """The board as SVG (``carcassonne.svg.board``), so that notebooks show a game as its
        picture."""
    def features(self) -> list[Feature]:
        """Every feature on the board, ordered by their first segment."""

    def feature_at(self, x: SupportsIndex, y: SupportsIndex, index: SupportsIndex) -> Feature:
        """The feature containing feature ``index`` of the tile at (x, y); PositionError if
        there is no tile there or it has no such feature."""

    # ----- deprecated (one release): moved to the views, or decisions made with ``apply``

    @property
    @deprecated("Game.wares is deprecated; use Game.sea.wares")
    def wares(self) -> list[tuple[int, int, int]]:
        """Deprecated: use ``Game.sea.wares``."""

    @property
    @deprecated("Game.ship_display is deprecated; use Game.sea.display")
    def ship_display(self) -> list[Ship]:
        """Deprecated: use ``Game.sea.display``."""

    @property
    @deprecated("Game.ship_pile is deprecated; use Game.sea.pile")
    def ship_pile(self) -> list[str]:
        """Deprecated: use ``Game.sea.pile``."""

    @property
    @deprecated("Game.ships_taken is deprecated; use Game.sea.ships_taken")
    def ships_taken(self) -> list[tuple[int, str]]:
        """Deprecated: use ``Game.sea.ships_taken``."""

    @property
    @deprecated("Game.boat_tokens_left is deprecated; use Game.sea.boat_tokens_left")
    def boat_tokens_left(self) -> int:
        """Deprecated: use ``Game.sea.boat_tokens_left``."""

    @property
    @deprecated("Game.sea_events is deprecated; use Game.sea.events")
    def sea_events(self) -> list[SeaEvent]:
        """Deprecated: use ``Game.sea.events``."""

    @deprecated("Game.market_ships() is deprecated; use Game.sea.market_ships()")
    def market_ships(self) -> list[int]:
        """Deprecated: use ``Game.sea.market_ships()``."""

    @deprecated("Game.legal_deliveries() is deprecated; use Game.sea.legal_deliveries()")
    def legal_deliveries(self) -> list[Delivery]:
        """Deprecated: use ``Game.sea.legal_deliveries()``."""

    @property
    @deprecated("Game.friday_revealed is deprecated; use Game.friday.revealed")
    def friday_revealed(self) -> list[str]:
        """Deprecated: use ``Game.friday.revealed``."""

    @property
    @deprecated("Game.friday_order is deprecated; use Game.friday.order")
    def friday_order(self) -> list[str]:
        """Deprecated: use ``Game.friday.order`` (this one is empty without Friday)."""

    @property
    @deprecated("Game.friday_at is deprecated; use Game.friday.at")
    def friday_at(self) -> str | None:
        """Deprecated: use ``Game.friday.at``."""

    @property
    @deprecated("Game.friday_bonus is deprecated; use Game.friday.bonus")
    def friday_bonus(self) -> str | None:
        """Deprecated: use ``Game.friday.bonus``."""

    @property
    @deprecated("Game.weeks_done is deprecated; use Game.friday.weeks_done")
    def weeks_done(self) -> int:
        """Deprecated: use ``Game.friday.weeks_done``."""

    @deprecated("Game.friday_targets() is deprecated; use Game.friday.targets()")
    def friday_targets(self) -> list[str]:
        """Deprecated: use ``Game.friday.targets()``."""

    @deprecated("Game.homecoming_choices() is deprecated; use Game.friday.homecoming_choices()")
    def homecoming_choices(self) -> list[tuple[int, int, int]]:
        """Deprecated: use ``Game.friday.homecoming_choices()``."""

    @deprecated("Game.legal_trades() is deprecated; use Game.friday.legal_trades()")
    def legal_trades(self) -> list[tuple[int, int]]:
        """Deprecated: use ``Game.friday.legal_trades()``."""

    @deprecated("Game.movable_ferries() is deprecated; use Game.ferries.movable()")
    def movable_ferries(self, x: SupportsIndex, y: SupportsIndex, rotation: SupportsIndex) -> list[tuple[int, int]]:
        """Deprecated: use ``Game.ferries.movable(x, y, rotation)``."""

    @deprecated("Game.deliver() is deprecated; use Game.apply(Decision.deliver(delivery))")
    def deliver(self, delivery: Delivery | None) -> None:
        """Deprecated: use ``Game.apply(Decision.deliver(delivery))``."""

    @deprecated("Game.take_market_ship() is deprecated; use Game.apply(Decision.market_ship(slot))")
    def take_market_ship(self, slot: SupportsIndex) -> None:
        """Deprecated: use ``Game.apply(Decision.market_ship(slot))``."""

    @deprecated(
        "Game.move_friday() is deprecated; use Game.apply(Decision.move_friday(index))"
        " with the tile's index in Rules.friday_tiles()"
    )
    def move_friday(self, tile: str) -> None:
        """Deprecated: use ``Game.apply(Decision.move_friday(index))``, the index of the tile
        in ``Rules.friday_tiles()``."""

    @deprecated("Game.take_home() is deprecated; use Game.apply(Decision.take_home(x, y, feature))")
    def take_home(self, x: SupportsIndex, y: SupportsIndex, feature: SupportsIndex) -> None:
        """Deprecated: use ``Game.apply(Decision.take_home(x, y, feature))``."""

    @deprecated("Game.trade() is deprecated; use Game.apply(Decision.trade(give, take))")
    def trade(self, give: SupportsIndex, take: SupportsIndex) -> None:
        """Deprecated: use ``Game.apply(Decision.trade(give, take))``."""

# ----- batch self-play ---------------------------------------------------------------

def simulate_batch(
    rules: Rules,
    games: SupportsIndex,
    *,
    seed: SupportsIndex = 0,
    first_game: SupportsIndex = 0,
    policy: str = "random",
    players: Sequence[str | tuple[Any, ...] | Callable[[Game], Move | Decision]] | None = None,
    threads: SupportsIndex | None = None,
) -> dict[str, Any]:
    """Plays games ``first_game .. first_game + games`` of study ``seed`` in Rust, in parallel,
    without the GIL. Returns numpy columns and the thread count.

    Keys: "scores" (games, players) int32, "winners" (games, players) bool, "turns" (games,)
    uint32, "points_by_kind" (games, players, len(SCORE_KINDS)) int32, "discarded" (games,)
    uint32, "ships" and "wares_left" (games, players) uint32, "threads" (int), "players"
    (the name of each seat's player). ``policy`` is "random" or "greedy" for every seat;
    ``players`` (taking its place) one entry for every seat or one per seat, as
    ``carcassonne.players`` makes them; ``threads`` at most ``max_threads()``. Raises
    RulesError for bad arguments, a game range past 2**64 - 1, or results that would not
    fit in memory (before any game is played); KeyboardInterrupt within about one game of
    Ctrl-C.
    """

def check_rows_fit(rules: Rules, games: SupportsIndex, *, first_game: SupportsIndex = 0) -> None:
    """Raises the ``RulesError`` ``simulate_batch`` would raise for a study whose rows do not
    fit in the memory available now (or whose range is bad); plays nothing. A study played
    in batches (progress bars, partial results) is checked before its first batch."""

def replay_game(
    rules: Rules,
    *,
    seed: SupportsIndex = 0,
    game_index: SupportsIndex = 0,
    policy: str = "random",
    players: Sequence[str | tuple[Any, ...] | Callable[[Game], Move | Decision]] | None = None,
) -> Game:
    """Plays game ``game_index`` of study ``seed`` again, exactly as ``simulate_batch``
    played it, and returns it with its event log and record (the GIL released for built-in
    players)."""

def simulate_totals(
    rules: Rules,
    games: SupportsIndex,
    *,
    seed: SupportsIndex = 0,
    first_game: SupportsIndex = 0,
    policy: str = "random",
    players: Sequence[str | tuple[Any, ...] | Callable[[Game], Move | Decision]] | None = None,
    threads: SupportsIndex | None = None,
) -> dict[str, Any]:
    """Plays the same games as ``simulate_batch`` keeping only exact per-seat totals, in
    constant memory. Keys: "games", "win_share_unit" (60: a win shared by k counts 60/k),
    "win_shares", "win_shares_squared", "scores", "scores_squared", "ships", "wares_left"
    (lists, one int per seat), "points_by_kind" (per seat, one int per kind), "turns",
    "discarded", "threads" (ints), "players". Errors and interruption as ``simulate_batch``.
    """

def max_threads() -> int:
    """The most threads ``simulate`` accepts on this machine: 4 per core."""

LEARNED_LAYOUT: str
"""The input layout of the learned evaluation (``carcassonne.learn.value``)."""
LEARNED_WEIGHTS: int
"""How many weights the learned evaluation of ``LEARNED_LAYOUT`` has."""

def learned_values(game: Game, weights: Sequence[float]) -> list[float]:
    """``learned_values(game, weights)``: the value of ``game`` for each seat, from -1 (a
    sure loss) to 1 (a sure win); the outcome itself once the game is over."""

def train_value(
    rules: Rules,
    weights: Sequence[float] | None,
    played: int,
    games: int,
    seed: int,
    alpha: float,
    lambda_: float,
    epsilon: float,
    decay: int,
    threads: int | None = None,
) -> list[float]:
    """``train_value(rules, weights, played, games, seed, alpha, lambda_, epsilon, decay,
    threads)``: plays ``games`` more self-play games of a training of ``seed`` that has
    played ``played`` (from ``weights``; ``None``: the untrained value, the virtual-score
    lead alone), on every thread with the GIL released, and returns the new weights. Ctrl-C raises ``KeyboardInterrupt`` (the caller keeps its last
    checkpoint); the settings are checked by the caller (``carcassonne.learn.training``)."""


def check_map(
    source: str | os.PathLike[str],
) -> tuple[str, list[tuple[int, int, tuple[int, int] | None, str]], str | None]:
    """Reads and checks a map file or built-in map (see ``carcassonne.maps.check``): what
    was read, its faults as (line, column, square or None, message), and the summary as
    JSON when there is no fault. ``TileDataError`` for a file that cannot be read."""

def generate_map(
    seed: SupportsIndex,
    squares: SupportsIndex,
    large_cities: SupportsIndex,
    islands: SupportsIndex,
    ferries: SupportsIndex,
    border_pieces: SupportsIndex,
    waves: SupportsIndex,
    highlights: SupportsIndex,
    towns: SupportsIndex,
    start_squares: SupportsIndex,
) -> str:
    """The text of a random valid map file (see ``carcassonne.maps.generate``);
    ``RulesError`` naming the argument for a shape no map can have."""
