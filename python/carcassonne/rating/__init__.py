"""The strength scale: how much stronger one player is than another, in logistic Elo
with confidence intervals, from paired matches (every deal played with the seats
swapped, so that the deal's luck and the first seat's advantage cancel); a sequential
test (SPRT) that plays pairs until it can tell two Elo differences apart; and a
Bradley-Terry ladder that rates many players from their matches.

>>> from carcassonne import Rules, rating
>>> result = rating.match(Rules(), "greedy", "random", pairs=200, seed=1)
>>> result.estimate.score > 0.5 and result.estimate.elo_low > 0
True
>>> test = rating.sprt(Rules(), "greedy", "random", elo0=0, elo1=100, log=None)
>>> test.decision
'H1'

- ``match`` plays the pairs (``MatchResult``: a's score and Elo with intervals, per-pair
  outcomes and margins); ``sprt`` plays batches of pairs until the test decides
  (``SPRTResult``);
- ``pentanomial``: a pair's outcome in five classes (``counts``) and the estimate of a
  score and Elo from them (``estimate``, ``Estimate``; ``elo_to_score``,
  ``score_to_elo``);
- ``SPRT``: the generalised sequential test on the pentanomial model (its bounds, the
  log-likelihood ratio, its decision and expected length);
- ``fit``: the Bradley-Terry ladder of many players (``Ladder``, ``Rating``), one anchored
  at a fixed Elo, from entries such as ``MatchResult.link()`` gives;
- the reference ladders (``carcassonne.rating.ladder``): ``RUNGS``, the reference
  players of every rule system of ``SYSTEMS``; ``build_ladder`` plays and fits a system's
  ladder (``LadderTable``), ``load_ladder`` and ``shipped_ladder`` read one back, and
  ``opponent(system, level)`` is the reference player of a level (1 the weakest);
- ``rate`` places a new player on a system's ladder (``Placement``: its Elo with an
  interval and the nearest rung);
- ``RatingError`` (a ``ValueError``) for input none of them can use, naming the argument.

``rating.sprt`` plays a sequential test; ``rating.SPRT`` is the test itself (its
bounds and log-likelihood ratio, in ``carcassonne.rating.sequential``).
"""

from carcassonne.rating.errors import RatingError
from carcassonne.rating.pentanomial import PAIR_SCORES, Estimate, counts, elo_to_score, estimate, score_to_elo
from carcassonne.rating.sequential import SPRT
from carcassonne.rating.bradley_terry import Ladder, Rating, fit
from carcassonne.rating.matches import MAX_PAIRS, MatchResult, SPRTResult, match, sprt
from carcassonne.rating.ladder import (
    LADDER_VERSION,
    RUNGS,
    SYSTEMS,
    LadderTable,
    LinkResult,
    Rung,
    RungRating,
    build_ladder,
    load_ladder,
    opponent,
    shipped_ladder,
)
from carcassonne.rating.placement import Placement, rate

__all__ = [
    "LADDER_VERSION",
    "MAX_PAIRS",
    "PAIR_SCORES",
    "RUNGS",
    "SPRT",
    "SYSTEMS",
    "Estimate",
    "Ladder",
    "LadderTable",
    "LinkResult",
    "MatchResult",
    "Placement",
    "Rating",
    "RatingError",
    "Rung",
    "RungRating",
    "SPRTResult",
    "build_ladder",
    "counts",
    "elo_to_score",
    "estimate",
    "fit",
    "load_ladder",
    "match",
    "opponent",
    "rate",
    "score_to_elo",
    "shipped_ladder",
    "sprt",
]
