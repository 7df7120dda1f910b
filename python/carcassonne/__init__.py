"""carcassonne: fast, rules-exact Carcassonne simulation.

The rules engine is Rust (``carcassonne._core``); this package is its typed Python face.

>>> import carcassonne
>>> game = carcassonne.Game(carcassonne.Rules(players=2), seed=1)
>>> move = game.legal_moves()[0]
>>> game.play(move)
>>> result = carcassonne.simulate(carcassonne.Rules(), games=1000, seed=7)
"""

from carcassonne._core import (
    ENGINE_VERSION,
    MAX_DATA_FILE_BYTES,
    MAX_RECORD_BYTES,
    RULES_VERSION,
    SCORE_KINDS,
    TILE_SETS,
    WARES,
    Delivery,
    Feature,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    PlacedTile,
    PositionError,
    RecordError,
    Rules,
    RulesError,
    ScoreEvent,
    SeaEvent,
    Ship,
    TileDataError,
    UnknownTileError,
)
from carcassonne.simulation import (
    POLICIES,
    SeatSummary,
    SimulationResult,
    StudySummary,
    StudyTotals,
    max_threads,
    simulate,
    simulate_summary,
)

__version__ = ENGINE_VERSION

__all__ = [
    "ENGINE_VERSION",
    "MAX_DATA_FILE_BYTES",
    "MAX_RECORD_BYTES",
    "POLICIES",
    "RULES_VERSION",
    "SCORE_KINDS",
    "TILE_SETS",
    "WARES",
    "Delivery",
    "Feature",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "PlacedTile",
    "PositionError",
    "RecordError",
    "Rules",
    "RulesError",
    "ScoreEvent",
    "SeaEvent",
    "SeatSummary",
    "Ship",
    "SimulationResult",
    "StudySummary",
    "StudyTotals",
    "TileDataError",
    "UnknownTileError",
    "max_threads",
    "simulate",
    "simulate_summary",
]
