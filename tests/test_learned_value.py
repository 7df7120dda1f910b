"""The learned evaluation: its weights files (every way a file can be wrong is refused,
naming the file), the same values from Python as the engine's player uses, nothing
hidden read, the learned player deterministic and thread-count independent, training
reproducible across threads and resumes, and the shipped weights reproducing their
published learning curve."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from carcassonne import Game, PlayerError, Rules, simulate
from carcassonne.files import OutputFileError, checksum
from carcassonne.learn import training
from carcassonne.learn.value import (
    LEARNED_WEIGHTS,
    LearnedValue,
    LearnedValueError,
    load_value,
    shipped_systems,
    shipped_value,
)
from carcassonne.players import Greedy, Learned
from carcassonne.rating.matches import match

SHIPPED = Path(training.__file__).parent / "data" / "base-2p.json"


def _write(path: Path, doc: dict[str, object], *, seal: bool = True) -> Path:
    if seal:
        doc["checksum"] = checksum(doc)
    path.write_text(json.dumps(doc))
    return path


def _doc() -> dict[str, object]:
    return json.loads(SHIPPED.read_text())


def test_the_shipped_file_loads_and_round_trips(tmp_path: Path) -> None:
    value = load_value(SHIPPED)
    assert value == shipped_value(Rules()) == shipped_value(Rules(players=4))
    assert len(value.weights) == LEARNED_WEIGHTS and all(math.isfinite(w) for w in value.weights)
    value.save(tmp_path / "copy.json")
    assert load_value(tmp_path / "copy.json") == value


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="something else"), "not a weights file"),
        (lambda d: d.update(file_version=99), "file version 99"),
        (lambda d: d.update(layout="linear-facts-31x3/0"), "input layout"),
        (lambda d: d.update(rules_version=-1), "rules version -1"),
        (lambda d: d.update(weights=d["weights"][:-1]), "weights, but the layout"),  # type: ignore[index]
        (lambda d: d.update(weights=["x"] * LEARNED_WEIGHTS), "not a number"),
        (lambda d: d.update(rules={"players": "two"}), "not a weights file"),
        (lambda d: d.pop("training"), "not a weights file"),
    ],
)
def test_a_wrong_file_is_refused_naming_it(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    doc = _doc()
    change(doc)
    path = _write(tmp_path / "w.json", doc)
    with pytest.raises(LearnedValueError, match=message) as e:
        load_value(path)
    assert str(path) in str(e.value)


def test_tampered_truncated_missing_and_not_finite_files_are_refused(tmp_path: Path) -> None:
    doc = _doc()
    doc["weights"][0] += 1.0  # type: ignore[index]
    tampered = _write(tmp_path / "tampered.json", doc, seal=False)
    with pytest.raises(LearnedValueError, match="checksum does not match"):
        load_value(tampered)
    truncated = tmp_path / "truncated.json"
    truncated.write_bytes(SHIPPED.read_bytes()[:500])
    with pytest.raises(LearnedValueError, match="truncated.json"):
        load_value(truncated)
    with pytest.raises(LearnedValueError, match="missing.json"):
        load_value(tmp_path / "missing.json")
    text = SHIPPED.read_text().replace(repr(_doc()["weights"][3]), "NaN", 1)  # type: ignore[index]
    nan = tmp_path / "nan.json"
    nan.write_text(text)
    with pytest.raises(LearnedValueError, match="nan.json"):
        load_value(nan)
    with pytest.raises(LearnedValueError, match="weight 2 is inf"):
        LearnedValue(weights=(0.0, 0.0, math.inf) + (0.0,) * (LEARNED_WEIGHTS - 3), rules=Rules())


def test_weights_of_other_rules_are_refused(tmp_path: Path) -> None:
    sea = Rules(tile_sets=("south-seas",))
    coast = Rules(map="coastal")  # no weights ship for this map
    with pytest.raises(LearnedValueError, match="no learned evaluation ships"):
        shipped_value(coast)
    with pytest.raises(LearnedValueError, match="learned for"):
        load_value(SHIPPED).values(Game(sea, seed=1))
    with pytest.raises(LearnedValueError, match="no learned evaluation ships"):
        simulate(coast, games=2, players="learned")
    with pytest.raises(PlayerError, match="other rules"):
        simulate(sea, games=2, players=[Learned(SHIPPED), "greedy"])
    with pytest.raises(PlayerError, match="LearnedValue, the path"):
        Learned(3)  # type: ignore[arg-type]


def test_python_values_are_the_players_values() -> None:
    """The one-ply player's move is the action after which ``values`` (from Python) is
    highest for the decider, the first listed among equals; and the values never read
    the hidden order (a reshuffled copy has the same values)."""
    value = shipped_value(Rules())
    for seed in range(4):
        game = Game(Rules(), seed=seed)
        for turn in range(30):
            if game.is_over:
                break
            seat = game.decider
            after = []
            for action in game.legal_actions():
                copy = game.clone()
                copy.apply(action)
                after.append(value.values(copy)[seat])
            best = game.legal_actions()[after.index(max(after))]
            assert game.best_move(Learned(), seed=turn) == best
            hidden = game.clone()
            hidden.determinize(seed=100 + turn)
            assert value.values(hidden) == value.values(game)
            game.apply(best)


def test_the_value_after_an_action_never_depends_on_the_next_draw() -> None:
    """After an action the next tile is drawn, from the reshuffled deck of a copy: a tile
    that fits nowhere is set aside at once. The value after the action must not depend on
    which tile came (the decider could not know it)."""
    value = load_value(SHIPPED)
    compared = 0
    for seed in range(6):
        game = Game(Rules(), seed=seed)
        for turn in range(25):
            seat = game.decider
            for action in game.legal_actions():
                seen = set()
                for k in range(10):
                    copy = game.clone()
                    copy.determinize(seed=1000 * turn + k)
                    copy.apply(action)
                    seen.add(value.values(copy)[seat])
                    compared += 1
                assert len(seen) == 1, (seed, turn, action, seen)
            game.apply(game.best_move("learned", seed=turn))
    assert compared > 20000


def test_the_learned_player_is_reproducible_for_any_thread_count() -> None:
    one = simulate(Rules(), games=24, seed=5, players=["learned", "greedy"], threads=1)
    two = simulate(Rules(), games=24, seed=5, players=[Learned(), Greedy()], threads=2)
    assert one.scores.tolist() == two.scores.tolist()
    assert one.players == ("learned", "greedy")
    four = simulate(Rules(players=4), games=4, seed=5, players="learned")
    assert four.games == 4


def test_training_is_the_same_for_threads_and_resumes(tmp_path: Path) -> None:
    straight = training.train("base-2p", tmp_path / "a.json", games=128, every=64, curve_pairs=4, threads=1)
    training.train("base-2p", tmp_path / "b.json", games=64, every=64, curve_pairs=4, threads=2)
    resumed = training.train("base-2p", tmp_path / "b.json", games=128, every=64, curve_pairs=4, resume=True)
    assert resumed.weights == straight.weights
    assert [p["games"] for p in resumed.training["curve"]] == [0, 64, 128]
    assert load_value(tmp_path / "b.json") == straight
    with pytest.raises(LearnedValueError, match="not a checkpoint of this training"):
        training.train("base-2p", tmp_path / "b.json", games=192, every=64, seed=2, curve_pairs=4, resume=True)


def test_training_refuses_bad_settings_and_unwritable_places_before_playing(tmp_path: Path) -> None:
    for kwargs, message in (
        ({"games": 100}, "multiple of 64"),
        ({"games": 0}, "games must be between"),
        ({"every": 10}, "every must be between"),
        ({"name": ""}, "name must be"),
    ):
        with pytest.raises(LearnedValueError, match=message):
            training.train("base-2p", tmp_path / "x.json", **kwargs)  # type: ignore[arg-type]
    with pytest.raises(LearnedValueError, match="alpha must be in"):
        training.TdSettings(alpha=0.0)
    with pytest.raises(LearnedValueError, match="lambda must be in"):
        training.TdSettings(lambda_=1.5)
    with pytest.raises(LearnedValueError, match="unknown system"):
        training.train("chess", tmp_path / "x.json")
    with pytest.raises(OutputFileError):
        training.train("base-2p", tmp_path / "no" / "such" / "dir.json", games=64)
    assert not os.listdir(tmp_path)


@pytest.mark.parametrize("system", shipped_systems())
def test_the_shipped_value_reproduces_its_learning_curve(system: str) -> None:
    """The drift check: the last point of each shipped curve (the learned player against
    greedy on the curve's paired deals) is played again and must come out the same, to
    the last pair: the engine and the player are deterministic."""
    from carcassonne.rating.ladder import SYSTEMS

    rules = SYSTEMS[system]
    value = shipped_value(rules)
    assert value.system == system
    last = value.training["curve"][-1]
    assert last["games"] == value.training["games"]
    result = match(
        rules, Learned(value), Greedy(), pairs=value.training["curve_pairs"], seed=value.training["curve_seed"]
    )
    assert round(result.estimate.score, 4) == last["score"]
    assert (round(result.estimate.score_low, 4), round(result.estimate.score_high, 4)) == (
        last["score_low"],
        last["score_high"],
    )


def test_the_learned_player_is_a_vector_env_opponent() -> None:
    """The environment plays the learned opponents' turns itself, the same games for any
    thread count; search players and functions are refused as opponents."""
    import numpy as np

    from carcassonne import ActionSpaceError, VectorEnv
    from carcassonne.players import MCTS

    def play(threads: int) -> list[list[int]]:
        env = VectorEnv(Rules(), 3, seed=2, opponents="learned", agent_seat=1, observations=False, threads=threads)
        obs, *_ = env.reset()
        finals = []
        rng = np.random.default_rng(0)
        for _ in range(400):
            mask = obs["action_mask"]
            tokens = [int(rng.choice(np.flatnonzero(row))) for row in mask]
            obs, _, terminated, _, info = env.step(tokens)
            assert (info["to_play"] == 1).all()
            finals += [info["final_scores"][e].tolist() for e in np.flatnonzero(terminated)]
        return finals

    one = play(1)
    assert one and one == play(2)
    for bad in (MCTS(playouts=10), "mcts", lambda game: None):
        with pytest.raises(ActionSpaceError, match="opponents must be"):
            VectorEnv(Rules(), 2, opponents=bad, agent_seat=1)  # type: ignore[arg-type]


def test_the_learned_search_plays_reproducibly_and_checks_its_settings() -> None:
    from carcassonne.players import LearnedSearch

    search = LearnedSearch(playouts=20, prior=2)
    assert search.name == "learned-search(playouts=20,c=0.1,prior=2)"
    one = simulate(Rules(), games=4, seed=3, players=[search, "greedy"], threads=1)
    two = simulate(Rules(), games=4, seed=3, players=[search, "greedy"], threads=2)
    assert one.scores.tolist() == two.scores.tolist()
    assert one.players == (search.name, "greedy")
    # One iteration with priors is the one-ply choice.
    game = Game(Rules(), seed=4)
    for turn in range(12):
        assert game.best_move(LearnedSearch(playouts=1), seed=turn) == game.best_move("learned", seed=turn)
        game.apply(game.best_move("learned", seed=turn))
    for bad, message in (
        (dict(playouts=0), "playouts"),
        (dict(prior=-1), "prior must be between"),
        (dict(prior=1.5), "prior must be an integer"),
        (dict(value=3), "LearnedValue, the path"),
    ):
        with pytest.raises(PlayerError, match=message):
            LearnedSearch(**bad)  # type: ignore[arg-type]
    with pytest.raises(PlayerError, match="other rules"):
        simulate(Rules(tile_sets=("south-seas",)), games=1, players=[LearnedSearch(value=SHIPPED), "greedy"])


def test_the_expectimax_plays_reproducibly_and_checks_its_settings() -> None:
    from carcassonne.players import LearnedExpectimax, parse

    player = LearnedExpectimax(width=3)
    assert player.name == "learned-expectimax(width=3)"
    assert repr(player) == "LearnedExpectimax(width=3)"
    assert parse(player) is player
    one = simulate(Rules(), games=4, seed=3, players=[player, "greedy"], threads=1)
    two = simulate(Rules(), games=4, seed=3, players=[player, "greedy"], threads=2)
    assert one.scores.tolist() == two.scores.tolist()
    assert one.players == (player.name, "greedy")
    # Width 1 is the one-ply player; a wider look-ahead chooses otherwise somewhere.
    game = Game(Rules(), seed=4)
    differed = 0
    for turn in range(30):
        one_ply = game.best_move("learned", seed=turn)
        assert game.best_move(LearnedExpectimax(width=1), seed=turn) == one_ply
        differed += game.best_move(LearnedExpectimax(width=8), seed=turn) != one_ply
        game.apply(one_ply)
    assert differed > 0
    for bad, message in (
        (dict(width=0), "width must be between"),
        (dict(width=1.5), "width must be an integer"),
        (dict(value=3), "LearnedValue, the path"),
    ):
        with pytest.raises(PlayerError, match=message):
            LearnedExpectimax(**bad)  # type: ignore[arg-type]
    with pytest.raises(PlayerError, match="other rules"):
        simulate(Rules(tile_sets=("south-seas",)), games=1, players=[LearnedExpectimax(value=SHIPPED), "greedy"])


def test_the_learned_value_evaluates_a_puct_search() -> None:
    from carcassonne import ActionSpaceError, PuctSearch

    value = shipped_value(Rules())
    game = Game(Rules(), seed=6)
    for turn in range(8):
        game.apply(game.best_move("learned", seed=turn))
    search = PuctSearch(Rules(), simulations=200)
    report = search.search(game, value, seed=1)
    # The root's value is the learned value of the position for its decider, and every
    # simulation past the root reached an action.
    assert report.value == pytest.approx(value.values(game)[game.decider], abs=1e-6)
    assert int(report.visits.sum()) == 199
    assert search.search(game, value, seed=1).visits.tolist() == report.visits.tolist()
    assert search.choose(game, value, seed=1) in game.legal_actions()
    other = load_value(SHIPPED)
    with pytest.raises(ActionSpaceError, match="learned value of other rules"):
        PuctSearch(Rules(tile_sets=("south-seas",))).search(
            Game(Rules(tile_sets=("south-seas",)), seed=1), other
        )


def test_training_for_another_map(tmp_path: Path) -> None:
    """Any map of the format trains: its weights name no system, fit only its rules, and
    the command that made them says the map."""
    value = training.train(
        "maps-continental-2p", tmp_path / "coastal.json", games=64, every=64, curve_pairs=2, threads=1, map="coastal"
    )
    assert value.system is None and value.rules == Rules(map="coastal")
    assert value.training["command"].startswith("carcassonne train maps-continental-2p --games 64 --seed 1 --map coastal")
    assert [p["elo"] for p in value.training["curve"]] == [None, None]
    assert load_value(tmp_path / "coastal.json") == value
    simulate(Rules(map="coastal"), games=2, players=[Learned(tmp_path / "coastal.json"), "greedy"])
    with pytest.raises(PlayerError, match="other rules"):
        simulate(Rules(map="continental"), games=1, players=[Learned(value), "greedy"])
    with pytest.raises(LearnedValueError, match="map goes with maps-continental-2p"):
        training.train("base-2p", tmp_path / "x.json", games=64, map="coastal")
    with pytest.raises(LearnedValueError, match="map:"):
        training.train("maps-continental-2p", tmp_path / "x.json", games=64, map=tmp_path / "missing.json")
    assert not (tmp_path / "x.json").exists()


def test_a_smoke_training_improves_on_the_untrained_value(tmp_path: Path) -> None:
    """512 games of self-play (seconds) already play measurably better than the untrained
    value (the virtual-score lead alone, the greedy player's view): on the curve's same
    100 paired deals against greedy, the intervals do not overlap."""
    value = training.train("base-2p", tmp_path / "smoke.json", games=512, every=512, curve_pairs=100)
    untrained, trained = value.training["curve"]
    assert (untrained["games"], trained["games"]) == (0, 512)
    assert trained["score_low"] > untrained["score_high"], (untrained, trained)
