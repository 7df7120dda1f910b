"""carcassonne: fast, rules-exact Carcassonne simulation.

The rules engine is Rust (``carcassonne._core``); this package is its typed Python face.

>>> import carcassonne
>>> game = carcassonne.Game(carcassonne.Rules(players=2), seed=1)
>>> move = game.legal_moves()[0]
>>> game.play(move)
>>> result = carcassonne.simulate(carcassonne.Rules(), games=1000, seed=7)
>>> carcassonne.stats.first_seat_advantage(result).p_value
>>> picture = carcassonne.svg.board(game)   # the board as SVG (notebooks show games so)
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING

from carcassonne._core import (
    CarcassonneError,
    ENGINE_VERSION,
    MAX_DATA_FILE_BYTES,
    MAX_RECORD_BYTES,
    RULES_VERSION,
    SCORE_KINDS,
    TILE_SETS,
    WARES,
    ActionBlock,
    ActionSpace,
    ActionSpaceError,
    ActionValue,
    Decision,
    Delivery,
    BusyError,
    EvaluationError,
    Feature,
    TileFeature,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    ObservationSpace,
    PlacedTile,
    PlayerError,
    PositionError,
    PuctSearch,
    RecordError,
    Rules,
    WindowOverflowError,
    RuleOption,
    RulesError,
    FerriesView,
    FridayView,
    ScoreEvent,
    SeaEvent,
    SeaView,
    SearchReport,
    Ship,
    TileDataError,
    UnknownTileError,
    VectorEnv,
    max_threads,
)
from carcassonne import _moved, maps, players, svg
from carcassonne.phase import Phase
from carcassonne.study.frames import concat_frames
from carcassonne.study.results_file import ResultsFileError, ResultsVersionWarning, read_results, write_results
from carcassonne.study.plan import POLICIES
from carcassonne.study.play import replay, simulate, simulate_summary
from carcassonne.study.results import SeatSummary, SimulationResult, StudySummary, StudyTotals
from carcassonne import stats
from carcassonne.study import Study, StudyError, StudyResult, load_study

__version__ = ENGINE_VERSION

if not _TYPE_CHECKING:  # for type checkers the old paths are the modules they name

    def __getattr__(name: str) -> object:
        """``carcassonne.simulation`` and the other old module paths, which ``import
        carcassonne`` used to load: loaded on first use, with their deprecation warning."""
        return _moved.attribute(name)


Action = Move | Decision
"""What ``Game.legal_actions()`` lists and ``Game.apply()`` takes: a tile placement
(``Move``) or any other decision (``Decision``)."""

__all__ = [
    "CarcassonneError",
    "ENGINE_VERSION",
    "MAX_DATA_FILE_BYTES",
    "MAX_RECORD_BYTES",
    "POLICIES",
    "RULES_VERSION",
    "SCORE_KINDS",
    "TILE_SETS",
    "WARES",
    "Action",
    "ActionBlock",
    "ActionSpace",
    "ActionSpaceError",
    "ActionValue",
    "Decision",
    "Delivery",
    "BusyError",
    "EvaluationError",
    "Feature",
    "FerriesView",
    "FridayView",
    "TileFeature",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "ObservationSpace",
    "Phase",
    "PlacedTile",
    "PlayerError",
    "PositionError",
    "PuctSearch",
    "RecordError",
    "ResultsFileError",
    "ResultsVersionWarning",
    "Rules",
    "RuleOption",
    "RulesError",
    "ScoreEvent",
    "SeaEvent",
    "SeaView",
    "SearchReport",
    "SeatSummary",
    "Ship",
    "SimulationResult",
    "Study",
    "concat_frames",
    "StudyError",
    "StudyResult",
    "StudySummary",
    "StudyTotals",
    "TileDataError",
    "UnknownTileError",
    "VectorEnv",
    "WindowOverflowError",
    "maps",
    "max_threads",
    "load_study",
    "players",
    "read_results",
    "replay",
    "simulate",
    "simulate_summary",
    "stats",
    "svg",
    "write_results",
]
