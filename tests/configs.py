"""The rule configurations the property tests run over, one dict per rule system.

Each test module builds ``Rules(**kwargs)`` for the configurations it covers; the
conformance tests run over all of them.
"""

from __future__ import annotations

from typing import Any

ALL_SETS = ("base", "inns-and-cathedrals", "traders-and-builders")

CLASSIC_CONFIGS: dict[str, dict[str, Any]] = {
    "base-2p": dict(players=2),
    "all-sets-3p": dict(
        players=3, tile_sets=ALL_SETS, inns_and_cathedrals_scoring=True, traders_goods=True
    ),
    "all-sets-4p": dict(
        players=4, tile_sets=ALL_SETS, inns_and_cathedrals_scoring=True, traders_goods=True
    ),
    "all-sets-5p": dict(
        players=5, tile_sets=ALL_SETS, inns_and_cathedrals_scoring=True, traders_goods=True
    ),
    "no-farmers-2p": dict(players=2, farmers=False),
    "no-farmers-all-sets-3p": dict(
        players=3,
        tile_sets=ALL_SETS,
        farmers=False,
        inns_and_cathedrals_scoring=True,
        traders_goods=True,
    ),
    # Few meeples, so supplies run dry and "no meeple left" paths are exercised.
    "scarce-meeples-6p": dict(players=6, meeples=1),
}

SETS = ("base", "ferries")

FERRIES_CONFIGS: dict[str, dict[str, Any]] = {
    "C3-2p": dict(players=2, tile_sets=SETS, ferries_edition="C3"),
    "C3-3p": dict(players=3, tile_sets=SETS, ferries_edition="C3"),
    "C2-2p": dict(players=2, tile_sets=SETS, ferries_edition="C2"),
    "C2-4p": dict(players=4, tile_sets=SETS, ferries_edition="C2"),
}

SOUTH_SEAS_CONFIGS: dict[str, dict[str, Any]] = {
    "south-seas-2p": dict(players=2, tile_sets=("south-seas",)),
    "south-seas-5p": dict(players=5, tile_sets=("south-seas",)),
    "south-seas-friday-2p": dict(players=2, tile_sets=("south-seas",), friday=True),
    "south-seas-friday-4p": dict(players=4, tile_sets=("south-seas",), friday=True),
    "south-seas-options-3p": dict(
        players=3,
        tile_sets=("south-seas",),
        retrieve_only_when_supply_empty=True,
        boat_evaluates_unoccupied=True,
    ),
}

MAPS_CONFIGS: dict[str, dict[str, Any]] = {
    "continental-2p": dict(players=2, map="continental"),
    "continental-3-starts-4p": dict(players=4, map="continental", start_squares=3),
    "northern-3p": dict(players=3, map="northern"),
    # Few tiles, so games end long before the map fills up.
    "northern-short-2p": dict(players=2, map="northern", deck_size=30, start_squares=1),
    # The Ferries' lake tiles on a map.
    "continental-ferries-2p": dict(players=2, map="continental", tile_sets=("base", "ferries")),
    # Islands reached by printed ferry connections, coats of arms on island squares.
    "coastal-2p": dict(players=2, map="coastal"),
    # All three small-town variants: extra turn, penalty (scores may go below 0), road bonus.
    "coastal-towns-3p": dict(players=3, map="coastal", small_towns=(1, 2, 3)),
    # Two half maps joined along their half squares; and one alone, its half squares unused.
    "west-east-3p": dict(players=3, map="west+east"),
    "west-alone-2p": dict(players=2, map="west"),
    "east-alone-2p": dict(players=2, map="east"),
    "continental-towns-2p": dict(players=2, map="continental", small_towns=(1, 3)),
    # Start squares left without a start tile are small towns too (two of four used here);
    # half the doubled deck keeps its games as long as a single map's.
    "west-east-towns-2p": dict(players=2, map="west+east", small_towns=(1, 2, 3), deck_size=113),
}

ALL_CONFIGS: dict[str, dict[str, Any]] = {
    **CLASSIC_CONFIGS,
    **FERRIES_CONFIGS,
    **SOUTH_SEAS_CONFIGS,
    **MAPS_CONFIGS,
}
