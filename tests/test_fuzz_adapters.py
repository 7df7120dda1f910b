"""The bounded fuzz suite over the learning environments' actions: values of every Python
and numpy type (ints, bools, floats with NaN and infinities, complex, strings, bytes, None,
lists, tuples, dicts, objects, numpy scalars of every dtype, numpy arrays of shapes (),
(1,) and (2,), and for the vector environments arrays of every dtype and of wrong shapes)
handed to ``CarcassonneEnv.step`` (both ``illegal_action`` modes), ``CarcassonneAEC.step``,
``CarcassonneVectorEnv.step`` and the core ``carcassonne.VectorEnv.step``.

Each value either plays a legal token exactly as ``int(token)`` would (only a genuine
integer token: a Python int, a numpy integer scalar or a 0-d numpy integer array, and
only when the mask allows it), or ends the episode as illegal (``CarcassonneEnv``'s
"lose" mode) or raises ActionSpaceError with the game unchanged. Every environment runs
in lockstep with a twin that is handed ``int(token)`` whenever the fuzzed one plays: the
two must agree after every example, so a value silently truncated, parsed or stepped
shows as a difference. Nothing else may be raised. Each example first plays a legal
token in one of its integer forms, then a value of any kind.

Each example starts from a game of its own (a drawn seed, then a drawn number of legal
tokens in drawn integer forms), so that Hypothesis replays a failing example exactly.

The strategies are built once: what they draw does not depend on the position (Hypothesis
requires it); the legal tokens of the position (``LEGAL``) are read when a value is built.

A few seconds each with the default ``ci`` settings; ``FUZZ_EXAMPLES=2000
HYPOTHESIS_PROFILE=thorough`` for a soak."""

from __future__ import annotations

import decimal
import fractions
import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from carcassonne import ActionSpace, ActionSpaceError, Rules, VectorEnv
from carcassonne.learn.gymnasium_env import CarcassonneEnv
from carcassonne.learn.gymnasium_vector import CarcassonneVectorEnv
from carcassonne.learn.pettingzoo_env import CarcassonneAEC

MESSAGE_LIMIT = 1_000
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

NUM_ENVS = 2
SIZE = ActionSpace(Rules()).size
INT_DTYPES: list[Any] = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
OTHER_DTYPES: list[Any] = [
    np.float16,
    np.float32,
    np.float64,
    np.longdouble,
    np.complex64,
    np.complex128,
    np.bool_,
    object,
    "U8",
    "S8",
    "m8[s]",
    "M8[s]",
]
DTYPES = INT_DTYPES + OTHER_DTYPES + [">i8"]  # and an integer dtype of the other byte order
WIDE: list[Any] = [np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64, ">i8"]
"""The integer dtypes that hold every token of the base game's space."""

LEGAL: list[list[int]] = [[0] for _ in range(NUM_ENVS)]
"""The legal tokens of each game of the position being fuzzed (game 0 alone for the
single environments), set by each test before it draws."""


class Index:
    """An object with ``__index__`` (and ``__int__``): an integer by Python's protocol (as
    a 0-d integer tensor of an array library is), so a token."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __int__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value})"


class BadRepr:
    """An object whose ``repr`` raises: the error message must still be made."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def as_dtype(value: int, dtype: Any, shape: tuple[int, ...] = ()) -> np.ndarray:
    """An array of ``shape`` and ``dtype`` filled with ``value`` converted (wrapped, rounded,
    or as text) as numpy's ``astype`` converts it."""
    fitted = value if -(2**63) <= value < 2**63 else value % 2**63
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.full(shape, fitted, dtype=np.int64).astype(dtype)


def as_row(row: list[int], dtype: Any, shape: tuple[int, ...]) -> np.ndarray:
    """An array of ``shape`` and ``dtype`` filled with the values of ``row``, repeated."""
    count = int(np.prod(shape))
    flat = [v if -(2**63) <= v < 2**63 else v % 2**63 for v in (row * (1 + count))[:count]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array(flat, dtype=np.int64).reshape(shape).astype(dtype)


def genuine(value: object) -> int | None:
    """The token ``value`` is by the documented rule, or None if it is not a token."""
    if type(value) is int:
        return value
    if isinstance(value, Index):
        return value.value
    if isinstance(value, np.integer) and not isinstance(value, np.timedelta64):
        return int(value)
    if type(value) is np.ndarray and value.shape == () and value.dtype.kind in "iu":
        return int(value)
    return None


def genuine_vector(actions: object, n: int) -> list[int] | None:
    """The tokens ``actions`` are by the documented rule (an integer array of shape
    ``(n,)``, or a list or tuple of ``n`` tokens), or None."""
    if type(actions) is np.ndarray:
        if actions.shape == (n,) and actions.dtype.kind in "iu":
            return [int(v) for v in actions]
        return None
    if isinstance(actions, (list, tuple)) and len(actions) == n:
        tokens = [genuine(v) for v in actions]
        return None if any(t is None for t in tokens) else [t for t in tokens if t is not None]
    return None


# The strategies.


def pick(e: int) -> st.SearchStrategy[int]:
    """One of game ``e``'s legal tokens: an index drawn, taken modulo their number."""
    return st.integers(0, 2**16).map(lambda i: LEGAL[e][i % len(LEGAL[e])] if LEGAL[e] else 0)


FORMS: list[Callable[[int], object]] = [
    int,
    *(lambda t, d=d: np.dtype(d).type(t) for d in WIDE),
    *(lambda t, d=d: np.array(t, dtype=d) for d in WIDE),
]
"""The integer forms of a token: a Python int, numpy integer scalars, 0-d integer arrays
(of dtypes that hold every token)."""


def integer_forms(e: int) -> st.SearchStrategy[object]:
    """A legal token of game ``e`` in one of its integer forms."""
    return st.builds(lambda t, form: form(t), pick(e), st.sampled_from(FORMS))


def values(e: int, quirks: bool = True) -> st.SearchStrategy[object]:
    """One action value of any Python or numpy type, built around game ``e``'s legal
    tokens, some of them a legal token in one of its integer forms. ``quirks=False``: no
    dicts and no objects with ``__index__`` (see ``vector_values``)."""
    near = pick(e)
    n = st.one_of(near, near, near, st.integers(-3, SIZE + 3), st.integers(-(2**70), 2**70))
    kinds: list[st.SearchStrategy[object]] = [
        st.none(),
        n,
        st.booleans(),
        n.map(float),
        n.map(lambda t: t + 0.9),
        st.floats(),  # NaN and the infinities included
        st.sampled_from([float("nan"), float("inf"), -float("inf")]),
        n.map(complex),
        st.complex_numbers(),
        n.map(str),
        st.text(max_size=6),
        n.map(lambda t: str(t).encode()),
        st.binary(max_size=6),
        st.lists(n, max_size=3),
        st.lists(n, max_size=3).map(tuple),
        n.map(fractions.Fraction),
        n.map(decimal.Decimal),
        st.sampled_from([object(), Ellipsis, int, np.int64]),
        st.builds(BadRepr),
        # numpy scalars of every dtype (the integers wrapped where they do not fit).
        st.builds(lambda t, d: as_dtype(t, d)[()], n, st.sampled_from(DTYPES)),
        st.builds(lambda t, d: as_dtype(t, d)[()], n, st.sampled_from(INT_DTYPES)),
        # numpy arrays of shapes (), (1,), (2,) and every dtype.
        st.builds(as_dtype, n, st.sampled_from(DTYPES), st.sampled_from([(), (1,), (2,)])),
        st.builds(as_dtype, n, st.sampled_from(INT_DTYPES)),
        integer_forms(e),
    ]
    if quirks:
        kinds += [n.map(lambda t: {t: t}), n.map(lambda t: {0: t}), n.map(Index)]
    return st.one_of(kinds)


def vector_values(quirks: bool) -> st.SearchStrategy[object]:
    """The actions of one step of the ``NUM_ENVS`` games: arrays of every dtype and of
    right and wrong shapes, lists and tuples of any values, and any single value.

    ``quirks``: with dicts keyed 0 .. n - 1 (no sequence, refused) and objects with
    ``__index__`` (integers, by Python's protocol)."""
    n = NUM_ENVS
    tokens = st.tuples(*(pick(e) for e in range(n))).map(list)
    rows = st.one_of(tokens, tokens, st.lists(st.integers(-(2**70), 2**70), min_size=n, max_size=n))
    shapes = st.sampled_from([(n,), (n,), (n - 1,), (n + 1,), (), (1, n), (n, 1)])
    sequences = st.one_of(
        st.tuples(*(values(e, quirks) for e in range(n))).map(list),
        st.lists(values(0, quirks), min_size=n - 1, max_size=n + 1),
    )
    return st.one_of(
        st.builds(as_row, rows, st.sampled_from(DTYPES), shapes),
        st.builds(as_row, rows, st.sampled_from(INT_DTYPES), shapes),
        st.builds(as_row, rows, st.sampled_from(WIDE), st.just((n,))),
        sequences,
        sequences.map(tuple),
        values(0, quirks),
    )


def playable_actions() -> st.SearchStrategy[object]:
    """A legal token per game: an integer array of shape ``(NUM_ENVS,)``, or a list or
    tuple of the tokens in integer forms."""
    forms = st.tuples(*(integer_forms(e) for e in range(NUM_ENVS)))
    row = st.tuples(*(pick(e) for e in range(NUM_ENVS)))
    arrays = st.builds(lambda r, d: np.array(r, dtype=d), row, st.sampled_from(WIDE))
    return st.one_of(arrays, forms.map(list), forms)


LEGAL_TOKEN = integer_forms(0)
ANY_VALUE = values(0)
PLAYABLE = playable_actions()
ANY_ACTIONS = {"adapter": vector_values(quirks=True), "core": vector_values(quirks=True)}


def legal_of(mask: np.ndarray) -> list[int]:
    return [int(t) for t in np.flatnonzero(mask)]


def short(e: BaseException) -> None:
    assert 0 < len(str(e)) < MESSAGE_LIMIT, f"{len(str(e))} characters"


def same_obs(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


SEEDS = st.integers(0, 2**32)
WARM_UP = st.integers(0, 12)


class Pair:
    """A fuzzed environment and its twin, in lockstep; ``fresh`` once the episode is over."""

    def __init__(self, fuzzed: Any, twin: Any) -> None:
        self.fuzzed, self.twin, self.fresh = fuzzed, twin, True

    def reset(self, seed: int) -> None:
        self.fuzzed.reset(seed=seed)
        self.twin.reset(seed=seed)
        self.fresh = False


# CarcassonneEnv: both illegal_action modes.


@pytest.fixture(scope="module")
def gym_pairs() -> dict[str, Pair]:
    return {
        mode: Pair(CarcassonneEnv(Rules(), illegal_action=mode), CarcassonneEnv(Rules(), illegal_action=mode))  # type: ignore[arg-type]
        for mode in ("lose", "raise")
    }


def gym_ready(pair: Pair) -> bool:
    """Whether the episode goes on; sets ``LEGAL``."""
    LEGAL[0] = legal_of(pair.fuzzed.action_masks())
    return not pair.fresh


def gym_step(pair: Pair, mode: str, value: object) -> str:
    """Steps the fuzzed environment with ``value`` (the twin with its token when it plays)
    and checks the outcome: "played", "lost" or "refused"."""
    env, twin = pair.fuzzed, pair.twin
    mask = env.action_masks()
    token = genuine(value)
    plays = token is not None and 0 <= token < env.space.size and bool(mask[token])
    before, prefix = env.game.to_json(), list(env.prefix)
    try:
        obs, reward, terminated, truncated, info = env.step(value)
    except ActionSpaceError as e:
        assert mode == "raise" and not plays, f"{value!r} refused: {e}"
        short(e)
        assert "nothing was played" in str(e)
        if token is None:
            assert type(value).__name__ in str(e) or "numpy" in str(e)
        assert env.game.to_json() == before and env.prefix == prefix
        return "refused"
    if plays:
        assert token is not None
        expected = twin.step(token)
        assert same_obs(obs, expected[0]) and (reward, terminated, truncated, info) == expected[1:]
        assert env.game.to_json() == twin.game.to_json() and env.prefix == twin.prefix
        pair.fresh = terminated or truncated
        return "played"
    assert mode == "lose", f"{value!r} was not refused"
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": True})
    assert env.game.to_json() == before and env.prefix == prefix
    pair.fresh = True
    return "lost"


@FUZZ
@given(data=st.data(), mode=st.sampled_from(["lose", "raise"]))
def test_fuzzed_gymnasium_actions(gym_pairs: dict[str, Pair], data: st.DataObject, mode: str) -> None:
    pair = gym_pairs[mode]
    pair.reset(data.draw(SEEDS, label="seed"))
    # Legal tokens in their integer forms: played as those integers.
    for _ in range(data.draw(WARM_UP, label="warm-up")):
        if gym_ready(pair):
            assert gym_step(pair, mode, data.draw(LEGAL_TOKEN, label="legal token")) == "played"
    # Any value: played if it is a legal token, else lost or refused.
    if gym_ready(pair):
        event(gym_step(pair, mode, data.draw(ANY_VALUE, label="action")))


# CarcassonneAEC.


@pytest.fixture(scope="module")
def aec_pair() -> Pair:
    return Pair(CarcassonneAEC(Rules()), CarcassonneAEC(Rules()))


def aec_ready(pair: Pair) -> str | None:
    """The agent to act, after the done ones have stepped None (both environments), or
    None once every agent is done; sets ``LEGAL``."""
    env, twin = pair.fuzzed, pair.twin
    while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        env.step(None)
        twin.step(None)
    if not env.agents:
        return None
    agent = str(env.agent_selection)
    LEGAL[0] = legal_of(env.observe(agent)["action_mask"])
    return agent


def aec_step(pair: Pair, agent: str, value: object) -> str:
    """Steps the fuzzed environment's agent with ``value`` (the twin's with its token when
    it plays) and checks the outcome: "played" or "refused"."""
    env, twin = pair.fuzzed, pair.twin
    mask = env.observe(agent)["action_mask"]
    token = genuine(value)
    plays = token is not None and 0 <= token < env.space.size and bool(mask[token])
    before, prefix = env.game.to_json(), list(env.prefix)
    try:
        env.step(value)
    except ActionSpaceError as e:
        assert not plays, f"{value!r} refused: {e}"
        short(e)
        assert str(e).startswith(agent)
        assert env.game.to_json() == before and env.prefix == prefix and env.agent_selection == agent
        return "refused"
    assert plays and token is not None, f"{value!r} was not refused"
    twin.step(token)
    assert env.game.to_json() == twin.game.to_json() and env.prefix == twin.prefix
    assert env.rewards == twin.rewards and env.agent_selection == twin.agent_selection
    return "played"


@FUZZ
@given(data=st.data())
def test_fuzzed_pettingzoo_actions(aec_pair: Pair, data: st.DataObject) -> None:
    aec_pair.reset(data.draw(SEEDS, label="seed"))
    for _ in range(data.draw(WARM_UP, label="warm-up")):
        agent = aec_ready(aec_pair)
        if agent is not None:
            assert aec_step(aec_pair, agent, data.draw(LEGAL_TOKEN, label="legal token")) == "played"
    agent = aec_ready(aec_pair)
    if agent is not None:
        event(aec_step(aec_pair, agent, data.draw(ANY_VALUE, label="action")))


# The vector environments: the adapter and the core.


class VectorPair(Pair):
    """Two vector environments in lockstep, with their observations: the environments'
    own arrays (views), which every step rewrites."""

    views: tuple[dict[str, np.ndarray], dict[str, np.ndarray]]

    @property
    def mask(self) -> np.ndarray:
        return self.views[0]["action_mask"].astype(bool)

    def alike(self) -> bool:
        return same_obs(*self.views)

    def ready(self) -> None:
        LEGAL[:] = [legal_of(m) for m in self.mask]


    def reset(self, seed: int) -> None:
        self.views = (self.fuzzed.reset(seed=seed)[0], self.twin.reset(seed=seed)[0])


def vector_pair(make: Callable[[], Any]) -> VectorPair:
    pair = VectorPair(make(), make())
    pair.reset(3)
    return pair


@pytest.fixture(scope="module")
def vector_pairs() -> dict[str, VectorPair]:
    return {
        "adapter": vector_pair(lambda: CarcassonneVectorEnv(Rules(), NUM_ENVS, threads=1)),
        "core": vector_pair(lambda: VectorEnv(Rules(), NUM_ENVS, opponents="random", threads=1)),
    }


def vector_step(pair: VectorPair, actions: object) -> str:
    """Steps the fuzzed environment with ``actions`` (the twin with their tokens when they
    play) and checks the outcome: "played" or "refused"."""
    mask = pair.mask
    tokens = genuine_vector(actions, NUM_ENVS)
    plays = tokens is not None and all(0 <= t < SIZE and mask[e, t] for e, t in enumerate(tokens))
    try:
        got = pair.fuzzed.step(actions)
    except ActionSpaceError as e:
        assert not plays, f"{actions!r} refused: {e}"
        short(e)
        # Nothing was stepped: the fuzzed environment's arrays are still the twin's.
        assert pair.alike() and np.array_equal(pair.mask, mask)
        return "refused"
    assert plays and tokens is not None, f"{actions!r} was not refused"
    expected = pair.twin.step(np.array(tokens, dtype=np.int64))
    assert same_obs(got[0], expected[0]) and same_obs(got[4], expected[4])
    assert all(np.array_equal(a, b) for a, b in zip(got[1:4], expected[1:4]))
    assert pair.alike()
    return "played"


@FUZZ
@given(data=st.data(), which=st.sampled_from(["adapter", "core"]))
def test_fuzzed_vector_actions(vector_pairs: dict[str, VectorPair], data: st.DataObject, which: str) -> None:
    pair = vector_pairs[which]
    pair.reset(data.draw(SEEDS, label="seed"))
    for _ in range(data.draw(WARM_UP, label="warm-up")):
        pair.ready()
        assert vector_step(pair, data.draw(PLAYABLE, label="legal tokens")) == "played"
    pair.ready()
    event(f"{which}: {vector_step(pair, data.draw(ANY_ACTIONS[which], label='actions'))}")


def test_the_vector_environments_were_unchanged_by_refused_actions(vector_pairs: dict[str, VectorPair]) -> None:
    """After the fuzzing (refusals included), the fuzzed environments and their twins play
    on alike: nothing refused was stepped."""
    for pair in vector_pairs.values():
        for _ in range(20):
            tokens = np.array([int(np.flatnonzero(m)[0]) for m in pair.mask], dtype=np.int64)
            got, expected = pair.fuzzed.step(tokens), pair.twin.step(tokens)
            assert same_obs(got[0], expected[0]) and np.array_equal(got[1], expected[1])
            assert pair.alike()


def test_core_vector_env_reads_only_integer_sequences() -> None:
    env = VectorEnv(Rules(), NUM_ENVS, opponents="random", threads=1)
    obs, _ = env.reset(seed=1)
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    with pytest.raises(ActionSpaceError, match=r"environment 1: the action is not an integer: bool"):
        env.step([legal[0], True])
    with pytest.raises(ActionSpaceError, match="dict"):
        env.step({e: t for e, t in enumerate(legal)})
