"""The reference ladder (``carcassonne.rating.ladder``) and rating a player on it
(``carcassonne.rating.placement``): the shipped ladder has not drifted from the engine's
play, its data file round-trips and refuses a file changed by hand or of another rules
version, a sweep between neighbouring rungs is refused, a player is placed next to its
twin rung, and bad arguments are refused naming the argument before any game."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest
from carcassonne import RULES_VERSION, Rules, cli
from carcassonne.players import Greedy, Random
from carcassonne.rating import (
    RatingError,
    build_ladder,
    load_ladder,
    match,
    opponent,
    rate,
    shipped_ladder,
)
from carcassonne.rating import ladder as ladder_module
from carcassonne.rating import placement as placement_module
from carcassonne.rating.ladder import RUNGS, SYSTEMS, LadderTable, Rung

DRIFT_PAIRS = 200
"""Pairs re-played of each checked link."""

DRIFT_LINKS = 3
"""How many of each shipped ladder's links are re-played: the cheapest per pair."""

DRIFT_FALSE_ALARM = 0.003
"""The drift check's chance of failing by chance over every shipped ladder, all links
together (each link's interval covers ``1 - DRIFT_FALSE_ALARM / links``: Bonferroni)."""


def _standard_error(low: float, high: float, confidence: float = 0.95) -> float:
    """A score's standard error from its normal interval (``pentanomial.estimate``'s)."""
    return (high - low) / (2 * NormalDist().inv_cdf(0.5 + confidence / 2))


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_the_shipped_ladder_has_not_drifted(system: str) -> None:
    """Re-plays ``DRIFT_PAIRS`` fresh pairs of each of the ``DRIFT_LINKS`` cheapest links
    between neighbouring rungs of each shipped ladder (deals after those the ladder
    played, so the sample is independent of the published one) and fails when a link's
    new score differs from its published score by more than the normal interval of the
    difference at ``1 - DRIFT_FALSE_ALARM / (DRIFT_LINKS * len(SYSTEMS))`` (99.99%).
    The difference's standard error is the published score's, ``s``, from its ``n``
    pairs' variance, with the new sample's at the same variance:
    ``s * sqrt(1 + n / DRIFT_PAIRS)`` (the published variance, not the small sample's
    own, which a few pairs away from the top score would understate).

    False-alarm rate: with the engine's play unchanged, all the shipped ladders' links
    together fail by chance with probability at most ``DRIFT_FALSE_ALARM`` (0.3%). The
    re-played deals are fixed, so a given engine passes or fails every time: a failure
    after a change to the players or the rules means that the ladder's figures no
    longer describe the engine; rebuild the ladder file with the command it names
    (``carcassonne ladder show SYSTEM`` prints it)."""
    table = shipped_ladder(system)
    by_number = {r.number: r for r in RUNGS}
    neighbours = [link for link in table.links if link.a_rung is not None and link.a_rung - link.b_rung == 1]
    cheapest = sorted(neighbours, key=lambda link: link.seconds / link.pairs)[:DRIFT_LINKS]
    assert len(cheapest) == DRIFT_LINKS
    confidence = 1 - DRIFT_FALSE_ALARM / (DRIFT_LINKS * len(SYSTEMS))
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    for link in cheapest:
        assert link.a_rung is not None
        a, b = by_number[link.a_rung].settings(), by_number[link.b_rung].settings()
        # The ladder played deals 0 .. pairs of its seed: these are the next ones.
        again = match(table.rules, a, b, DRIFT_PAIRS, seed=link.seed, first_game=link.pairs)
        assert again.players == (link.a, link.b) and again.pairs == DRIFT_PAIRS
        published, new = link.estimate, again.estimate
        spread = _standard_error(published.score_low, published.score_high) * math.sqrt(1 + link.pairs / DRIFT_PAIRS)
        assert 0 < spread < 0.05
        assert abs(new.score - published.score) <= z * spread, (
            f"{link.a} vs {link.b}: {DRIFT_PAIRS} new pairs score {new.score:.4f}, the ladder's "
            f"{published.pairs} pairs {published.score:.4f}: beyond the {confidence:.4%} interval "
            f"+-{z * spread:.4f}; rebuild: {table.command}"
        )


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_the_shipped_ladder_is_what_its_links_say(system: str) -> None:
    """The table read from the file is the fit of its links: levels 1 up in order of
    fitted Elo, random pinned at 0, every neighbouring link of the rung list played, and
    each rung's stored Elo the fit's."""
    table = shipped_ladder(system)
    assert table.system == system and table.rules == SYSTEMS[system] and table.rules_version == RULES_VERSION
    levels = [r.level for r in table.rungs]
    assert levels == list(range(1, len(levels) + 1)) and len(levels) >= 7
    elo = [r.elo for r in table.rungs]
    assert elo == sorted(elo) and table.rungs[0].rung == 1
    numbers = sorted(r.rung for r in table.rungs)
    assert numbers == list(range(1, len(numbers) + 1))
    assert table.rungs[0].elo == 0.0 and table.rungs[0].low == table.rungs[0].high == 0.0
    played = {(link.a_rung, link.b_rung) for link in table.links}
    assert all((k + 1, k) in played for k in numbers[:-1])
    stored = json.loads(ladder_module.ladder_path(system).read_text())["rungs"]
    by_number = {r.number: r for r in RUNGS}
    for r, s in zip(table.rungs, stored):
        assert (r.level, r.rung, r.spec, r.budget) == (s["level"], s["rung"], s["spec"], s["budget"])
        assert r.spec == by_number[r.rung].spec
        assert (r.elo, r.low, r.high) == pytest.approx((s["elo"], s["low"], s["high"]), abs=0.01)
        assert r.name == table.ladder.ratings[r.name].name
    # Every rung but the anchor is rated strictly above it: the greedy rungs with
    # randomness fill the gap a sweep would leave.
    assert all(r.low > 0 for r in table.rungs[1:])


@pytest.fixture(scope="module")
def small() -> LadderTable:
    """A ladder of the cheapest rungs (random and two greedy ones), built in well under a
    second."""
    return build_ladder("base-2p", 150, max_rung=3, seed=5)


def test_a_built_ladder_round_trips_through_its_file(small: LadderTable, tmp_path: Path) -> None:
    path = tmp_path / "base-2p.json"
    small.save(path)
    again = load_ladder(path)
    assert again == small and again.to_dict() == small.to_dict()
    assert again.ladder.ratings == small.ladder.ratings
    # Links: rung 2 - 1, rung 3 - 2, and rung 3 - 1 (both cheap), each on its own deals.
    assert [(link.a_rung, link.b_rung) for link in small.links] == [(2, 1), (3, 2), (3, 1)]
    assert len({link.seed for link in small.links}) == 3 and all(link.pairs == 150 for link in small.links)
    assert small.command == "carcassonne ladder build base-2p --pairs 150 --max-rung 3 --seed 5"
    # The file says what it is: versions, rules, and a checksum of everything else.
    doc = json.loads(path.read_text())
    assert doc["rules_version"] == RULES_VERSION and Rules.from_json(json.dumps(doc["rules"])) == Rules()
    content = {k: v for k, v in doc.items() if k != "checksum"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    assert doc["checksum"] == hashlib.sha256(text.encode()).hexdigest()
    # A build that may reuse it plays nothing again and gives the same ladder.
    lines: list[str] = []
    assert build_ladder("base-2p", 150, max_rung=3, seed=5, reuse=again, progress=lines.append) == small
    assert len(lines) == 3 and all("taken from the earlier ladder (150 pairs)" in line for line in lines)
    # The same arguments play the same games.
    assert build_ladder("base-2p", 150, max_rung=3, seed=5).links == small.links


def _rewrite(path: Path, change: Any, *, reseal: bool) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    if reseal:
        content = {k: v for k, v in doc.items() if k != "checksum"}
        text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        doc["checksum"] = hashlib.sha256(text.encode()).hexdigest()
    path.write_text(json.dumps(doc))


def test_a_file_changed_by_hand_is_refused(small: LadderTable, tmp_path: Path) -> None:
    path = tmp_path / "ladder.json"
    small.save(path)

    def more_wins(doc: dict[str, Any]) -> None:
        outcomes = doc["links"][0]["outcomes"]
        outcomes[-1][1] += 1
        outcomes[0][1] -= 1

    _rewrite(path, more_wins, reseal=False)
    with pytest.raises(RatingError, match=r"ladder\.json: its checksum does not match its content"):
        load_ladder(path)


def test_a_file_of_another_rules_version_is_refused(small: LadderTable, tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    small.save(path)

    def older(doc: dict[str, Any]) -> None:
        doc["rules_version"] = RULES_VERSION - 1

    # Sealed again, so that it is the version that is refused, not the checksum.
    _rewrite(path, older, reseal=True)
    with pytest.raises(RatingError) as caught:
        load_ladder(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"rules version {RULES_VERSION - 1}" in message and f"rules version {RULES_VERSION}" in message


def test_a_file_that_is_no_ladder_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"games": 3}')
    with pytest.raises(RatingError, match="other.json: not a ladder file"):
        load_ladder(path)
    with pytest.raises(RatingError, match="no such file"):
        load_ladder(tmp_path / "missing.json")


def test_a_sweep_between_neighbouring_rungs_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the greedy rungs that play at random part of the time, greedy sweeps random.
    monkeypatch.setattr(ladder_module, "RUNGS", (Rung(1, "random"), Rung(2, "greedy")))
    with pytest.raises(RatingError) as caught:
        build_ladder("base-2p", 100, seed=1)
    message = str(caught.value)
    assert "link rung 2 - rung 1 of base-2p" in message and "Greedy() won every game of 100 pairs" in message
    assert "add a rung between them" in message


def test_each_link_plays_the_pairs_of_its_dearest_rung(monkeypatch: pytest.MonkeyPatch) -> None:
    # A deep rung made cheap: MCTS with 3 playouts a move, deep above 2 playouts.
    three = (Rung(1, "random"), Rung(2, "greedy", randomness=0.75), Rung(3, "mcts", playouts=3))
    monkeypatch.setattr(ladder_module, "RUNGS", three)
    monkeypatch.setattr(ladder_module, "DEEP_PLAYOUTS", 2)
    table = build_ladder("base-2p", 20, search_pairs=10, deep_pairs=4, seed=2)
    assert [(link.a_rung, link.b_rung, link.pairs) for link in table.links] == [(2, 1, 20), (3, 2, 4), (3, 1, 4)]
    assert (table.search_pairs, table.deep_pairs) == (10, 4)
    assert table.command == "carcassonne ladder build base-2p --pairs 20 --search-pairs 10 --deep-pairs 4 --seed 2"
    # Levels follow the fitted Elo, whatever the rungs' order in the list.
    assert [r.elo for r in table.rungs] == sorted(r.elo for r in table.rungs)


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_an_opponent_of_each_level(system: str) -> None:
    """``opponent(system, level)`` is the rung of that level on the shipped ladder: level
    1 is the random player, and each level up plays at least as well by fitted Elo."""
    table = shipped_ladder(system)
    by_number = {r.number: r for r in RUNGS}
    chosen = [opponent(system, r.level) for r in table.rungs]
    assert chosen == [by_number[r.rung].settings() for r in table.rungs]
    assert chosen[0] == Random() and len(set(map(repr, chosen))) == len(chosen)
    with pytest.raises(RatingError, match=r"^level: the .* ladder has no level 0"):
        opponent(system, 0)
    with pytest.raises(RatingError, match="^level must be an integer, not str"):
        opponent(system, "4")  # type: ignore[arg-type]


def test_a_player_is_placed_next_to_its_twin_rung(small: LadderTable) -> None:
    # Greedy(randomness=0.75) is level 2 itself: against it every pair is one win each,
    # a score of exactly one half.
    placed = rate("base-2p", Greedy(randomness=0.75), pairs=150, ladder=small)
    twin = small.rung(2)
    assert placed.nearest == twin and placed.name == f"{twin.name} (rated)"
    assert placed.low <= twin.elo <= placed.high
    assert [m.estimate.score for m in placed.matches if m.b_rung == 2] == [0.5]
    # The middle rung by Elo (level 2) first: not beaten, so one down (level 1, beaten):
    # its place is between them, both played. The ladder's own links are fitted too.
    assert [m.b_rung for m in placed.matches] == [2, 1]
    assert set(placed.ladder.ratings) == {r.name for r in small.rungs} | {placed.name}
    assert "Elo" in str(placed) and "nearest level 2" in str(placed)


def test_a_player_beyond_the_top_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # A ladder of two players about as weak as each other (MCTS with one playout a move
    # plays at random), both of which the greedy player beats in every game.
    weak = (Rung(1, "random"), Rung(2, "mcts", playouts=1))
    monkeypatch.setattr(ladder_module, "RUNGS", weak)
    monkeypatch.setattr(placement_module, "RUNGS", weak)
    table = build_ladder("base-2p", 60, seed=3)
    with pytest.raises(RatingError, match=r"^player: greedy won every game against every rung it played .* above the ladder's top"):
        rate("base-2p", "greedy", pairs=60, ladder=table)


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: build_ladder("base-2p", 0), "pairs_per_link"),
        (lambda: build_ladder("base-2p", -5), "pairs_per_link"),
        (lambda: build_ladder("base-2p", 10**12), "pairs_per_link"),
        (lambda: build_ladder("base-2p", 2.5), "pairs_per_link"),  # type: ignore[arg-type]
        (lambda: build_ladder("base-2p", 100, search_pairs=0), "search_pairs"),
        (lambda: build_ladder("base-2p", 100, deep_pairs=-1), "deep_pairs"),
        (lambda: build_ladder("base-2p", 100, max_rung=1), "max_rung"),
        (lambda: build_ladder("base-2p", 100, max_rung=99), "max_rung"),
        (lambda: build_ladder("base-9p", 100), "system"),
        (lambda: build_ladder("base-2p", 100, seed=-1), "seed"),
        (lambda: rate("base-2p", "greedy", pairs=0), "pairs"),
        (lambda: rate("base-2p", "greedy", pairs=10**12), "pairs"),
        (lambda: rate("nowhere", "greedy"), "rules_or_system"),
        (lambda: rate(Rules(players=3), "greedy"), "rules_or_system"),
        (lambda: rate("base-2p", "grandmaster"), "player"),
    ],
)
def test_bad_arguments_are_refused_naming_them(call: Any, argument: str) -> None:
    with pytest.raises(RatingError, match=rf"^{argument}\b"):
        call()


def test_the_command_line_builds_shows_and_rates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "small.json"
    assert cli.main(["ladder", "build", "base-2p", "--pairs", "150", "--max-rung", "3", "--seed", "5", "--out", str(out)]) == 0
    built = capsys.readouterr()
    # The table, then the file written; a line per link on stderr.
    assert "Greedy(randomness=0.5)" in built.out and f"wrote {out}" in built.out
    assert built.err.count("carcassonne ladder: base-2p: rung") == 3
    assert load_ladder(out) == build_ladder("base-2p", 150, max_rung=3, seed=5)
    assert cli.main(["ladder", "show", "base-2p", "--file", str(out)]) == 0
    shown = capsys.readouterr().out
    assert shown.splitlines()[0].startswith("base-2p ladder: rules version") and "--max-rung 3 --seed 5" in shown
    assert cli.main(["rate", "greedy", "--randomness", "0.75", "--pairs", "150", "--ladder", str(out)]) == 0
    rated = capsys.readouterr()
    assert "greedy(randomness=0.75) (rated) on the base-2p ladder: Elo" in rated.out and "nearest level 2" in rated.out
    assert rated.err.count("carcassonne rate: against level") == 2
    # Bad input: one line naming it, status 2.
    assert cli.main(["rate", "mcts", "--randomness", "0.5"]) == 2
    assert "--randomness goes with the greedy player" in capsys.readouterr().err
    assert cli.main(["rate", "greedy", "--pairs", "0"]) == 2
    assert capsys.readouterr().err.strip() == "carcassonne: error: pairs must be between 1 and 10000000, got 0"
    assert cli.main(["ladder", "show", "base-2p", "--file", str(tmp_path / "none.json")]) == 2
    assert "none.json: cannot read the ladder file: no such file" in capsys.readouterr().err
