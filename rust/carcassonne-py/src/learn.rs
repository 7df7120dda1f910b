//! The action space and codec for learning agents (`carcassonne_core::learn`) in Python:
//! `ActionSpace` with its blocks, `encode`/`decode`, masks as numpy arrays (bools, and
//! packed bits), `resolve`; `ObservationSpace`, observations written into numpy arrays.

use std::sync::Arc;

use numpy::{
    IntoPyArray, PyArray1, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};

use carcassonne_core::engine::game::Game as CoreGame;
use carcassonne_core::engine::rules::Rules as CoreRules;
use carcassonne_core::learn::action_space::ActionSpace as CoreSpace;
use carcassonne_core::learn::codec::{self, CodecError, MAX_TOKENS};
use carcassonne_core::learn::observation::{ObservationLayout, ObservationScratch};
use carcassonne_core::learn::vector_env::{StepBuffers, StepError, Studies};
use carcassonne_core::play::players::Stop;

use crate::args::Int;
use crate::exclusive::Exclusive;
use crate::game::Game;
use crate::rules::Rules;
use crate::{ActionSpaceError, WindowOverflowError, actions, message, type_name};

/// The Python exception of a codec's refusal (or of a window's: `WindowError` is one).
pub(crate) fn codec_err(e: impl Into<CodecError>) -> PyErr {
    let e = e.into();
    match e {
        CodecError::WindowOverflow { .. } => WindowOverflowError::new_err(message(e)),
        _ => ActionSpaceError::new_err(message(e)),
    }
}

/// One block of an action space: the tokens ``start`` to ``start + size - 1``, laid out
/// in ``shape`` along ``axes`` (row-major: the last axis varies fastest).
#[pyclass(frozen, get_all, module = "carcassonne._core")]
pub struct ActionBlock {
    /// Its name, e.g. "place", "meeple" or "deliver".
    pub name: &'static str,
    /// Its first token.
    pub start: u32,
    /// How many tokens it has (the product of ``shape``).
    pub size: u32,
    /// The length of each axis.
    pub shape: Vec<u32>,
    /// What each axis counts, e.g. "y", "x", "rotation" for "place".
    pub axes: Vec<&'static str>,
    /// One line: what its tokens choose.
    pub doc: &'static str,
}

#[pymethods]
impl ActionBlock {
    fn __repr__(&self) -> String {
        format!(
            "ActionBlock(name={:?}, start={}, size={}, shape={:?})",
            self.name, self.start, self.size, self.shape
        )
    }
}

/// The integer action space of a rules configuration, for learning agents.
///
/// An action of the engine (a ``Move`` or a ``Decision``) is one or more tokens, integers
/// below ``size``, chosen one at a time: a placement is its square and rotation in the
/// board window (block "place"), then its meeple (block "meeple"; in South Seas block
/// "islander" for the islander taken back instead), then with The Ferries its ferry and
/// ferry moves and "ferries_done"; every other decision is one token of its own block.
/// ``mask(game, prefix)`` marks the tokens that continue ``prefix`` towards a legal action;
/// ``resolve(game, tokens)`` gives the action once the tokens are complete. The window is
/// ``window`` squares a side: on the open grid centred on the played area of each
/// position (a game that outgrows it raises WindowOverflowError), on a map fixed over the
/// map.
///
/// ``ActionSpace(rules, window)``: the action space of ``rules`` with a board window of
/// ``window`` squares a side (None: the default, 23 for the base game, growing with the
/// deck; on a map the map's extent). Raises ActionSpaceError for a window the rules cannot
/// take.
#[pyclass(frozen, module = "carcassonne._core")]
pub struct ActionSpace {
    pub(crate) inner: CoreSpace,
    pub(crate) rules: Arc<CoreRules>,
}

impl ActionSpace {
    pub(crate) fn of_rules(rules: &Arc<CoreRules>, window: Option<u32>) -> PyResult<Self> {
        Ok(ActionSpace {
            inner: CoreSpace::new(rules, window).map_err(codec_err)?,
            rules: rules.clone(),
        })
    }

    /// The game's position, refused if the game is of other rules.
    fn position<'a>(&self, game: &'a Game) -> PyResult<&'a CoreGame> {
        if same_rules(game.inner.rules(), &self.rules) {
            Ok(&game.inner)
        } else {
            Err(ActionSpaceError::new_err(
                "the game is of other rules than this action space's (use game.rules.action_space)",
            ))
        }
    }
}

/// Whether two rules are the same configuration (the same object, or equal settings):
/// a space, observation layout or game of one can be used with the other.
pub(crate) fn same_rules(a: &Arc<CoreRules>, b: &Arc<CoreRules>) -> bool {
    Arc::ptr_eq(a, b) || a.spec == b.spec
}

/// Tokens from Python: a sequence (list, tuple, numpy array) of at most `MAX_TOKENS`
/// integers, each below the space's size.
fn tokens_arg(space: &CoreSpace, tokens: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    if tokens.is_instance_of::<PyString>() || tokens.is_instance_of::<PyBytes>() {
        return Err(ActionSpaceError::new_err(format!(
            "tokens are a sequence of integers, not {}",
            type_name(tokens)
        )));
    }
    let n = tokens.len().map_err(|_| {
        ActionSpaceError::new_err(format!(
            "tokens are a sequence of integers, not {}",
            type_name(tokens)
        ))
    })?;
    if n > MAX_TOKENS {
        return Err(ActionSpaceError::new_err(format!(
            "{n} tokens: an action has at most {MAX_TOKENS}"
        )));
    }
    let top = space.size() as i128 - 1;
    (0..n)
        .map(|i| {
            let item = tokens.get_item(i)?;
            let v: Int = item.extract().map_err(|_| {
                ActionSpaceError::new_err(format!(
                    "token {i} is not an integer: {}",
                    type_name(&item)
                ))
            })?;
            v.within("an action token", 0, top, ActionSpaceError::new_err)
        })
        .collect()
}

#[pymethods]
impl ActionSpace {
    /// The action space of `rules` with a board window of `window` squares a side (None:
    /// the default, 23 for the base game, growing with the deck; on a map the map's
    /// extent). Raises ActionSpaceError for a window the rules cannot take.
    #[new]
    #[pyo3(signature = (rules, window=None))]
    fn new(rules: PyRef<'_, Rules>, window: Option<Int>) -> PyResult<Self> {
        let window = window
            .map(|w| w.within("window", 0, u32::MAX as i128, ActionSpaceError::new_err))
            .transpose()?;
        ActionSpace::of_rules(&rules.inner, window)
    }

    /// The number of tokens: every token is an integer in ``range(size)``.
    #[getter]
    fn size(&self) -> u32 {
        self.inner.size()
    }

    /// The board window's side, in squares.
    #[getter]
    fn window(&self) -> u32 {
        self.inner.window()
    }

    /// The blocks, in order: each kind of token, where it starts, its shape and meaning.
    #[getter]
    fn blocks(&self) -> Vec<ActionBlock> {
        self.inner
            .blocks()
            .iter()
            .map(|b| {
                let decl = b.decl();
                ActionBlock {
                    name: decl.name,
                    start: b.start,
                    size: b.len(),
                    shape: b.shape.clone(),
                    axes: decl.axes.to_vec(),
                    doc: decl.doc,
                }
            })
            .collect()
    }

    /// South Seas: the wares (shells, bananas, fish) of each payment ``p`` a "deliver"
    /// token names (token ``1 + slot * len(pays) + p`` of the block). Empty otherwise.
    #[getter]
    fn pays(&self) -> Vec<(u8, u8, u8)> {
        self.inner
            .pays()
            .iter()
            .map(|p| (p[0], p[1], p[2]))
            .collect()
    }

    /// The board square (x, y) at the top left of ``game``'s window (window index 0;
    /// index i is square (x + i % window, y + i // window)). Raises WindowOverflowError if
    /// the game has outgrown the window.
    fn origin(&self, game: PyRef<'_, Game>) -> PyResult<(i32, i32)> {
        let g = self.position(&game)?;
        let w = self
            .inner
            .window_rule()
            .window_of(g, self.inner.window())
            .map_err(codec_err)?;
        Ok((w.x0, w.y0))
    }

    /// The tokens of ``action`` (a ``Move`` or ``Decision``) in ``game``'s position, as a
    /// tuple. Any action of the rules' kinds encodes, legal or not; raises ActionSpaceError for
    /// one this space has no tokens for (a square outside the window, a ferry without The
    /// Ferries).
    fn encode<'py>(
        &self,
        py: Python<'py>,
        game: PyRef<'_, Game>,
        action: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let g = self.position(&game)?;
        let a = actions::action_of(action).ok_or_else(|| {
            ActionSpaceError::new_err(format!(
                "an action is a Move or a Decision, not {}",
                type_name(action)
            ))
        })?;
        let t = codec::encode(&self.inner, g, a).map_err(codec_err)?;
        PyTuple::new(py, t.as_slice())
    }

    /// The action (a ``Move`` or ``Decision``) the complete ``tokens`` stand for in ``game``'s
    /// position, legal or not. Raises ActionSpaceError for tokens that make no action.
    fn decode(
        &self,
        py: Python<'_>,
        game: PyRef<'_, Game>,
        tokens: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let g = self.position(&game)?;
        let t = tokens_arg(&self.inner, tokens)?;
        let a = codec::decode(&self.inner, g, &t).map_err(codec_err)?;
        actions::action_to_py(py, a)
    }

    /// The legal action whose tokens are ``tokens``, or None when more tokens are to
    /// come. Raises ActionSpaceError if no legal action starts with them.
    fn resolve(
        &self,
        py: Python<'_>,
        game: PyRef<'_, Game>,
        tokens: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Py<PyAny>>> {
        let g = self.position(&game)?;
        let t = tokens_arg(&self.inner, tokens)?;
        codec::resolve(&self.inner, g, &t)
            .map_err(codec_err)?
            .map(|a| actions::action_to_py(py, a))
            .transpose()
    }

    /// A numpy array of ``size`` bools: True at each token that continues ``prefix`` (the
    /// tokens chosen so far for this action) towards a legal action of the decider. All
    /// False once the game is over. Raises ActionSpaceError for a prefix no legal action
    /// has or one that is already complete.
    #[pyo3(signature = (game, prefix=None))]
    fn mask<'py>(
        &self,
        py: Python<'py>,
        game: PyRef<'_, Game>,
        prefix: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        self.mask_for(py, &game, prefix)
    }

    /// ``mask`` packed eight tokens to a byte, as ``numpy.packbits(mask,
    /// bitorder="little")``: token t is bit t % 8 of byte t // 8.
    #[pyo3(signature = (game, prefix=None))]
    fn mask_bits<'py>(
        &self,
        py: Python<'py>,
        game: PyRef<'_, Game>,
        prefix: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let mut bits = vec![0u8; (self.inner.size() as usize).div_ceil(8)];
        self.legal(&game, prefix, |t| bits[t as usize / 8] |= 1 << (t % 8))?;
        Ok(bits.into_pyarray(py))
    }

    fn __repr__(&self) -> String {
        let blocks: Vec<String> = self
            .inner
            .blocks()
            .iter()
            .map(|b| format!("{}={}", b.decl().name, b.len()))
            .collect();
        format!(
            "<ActionSpace size={} window={} {}>",
            self.inner.size(),
            self.inner.window(),
            blocks.join(" ")
        )
    }
}

impl ActionSpace {
    pub(crate) fn mask_for<'py>(
        &self,
        py: Python<'py>,
        game: &Game,
        prefix: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let mut mask = vec![false; self.inner.size() as usize];
        self.legal(game, prefix, |t| mask[t as usize] = true)?;
        Ok(mask.into_pyarray(py))
    }

    fn legal(
        &self,
        game: &Game,
        prefix: Option<&Bound<'_, PyAny>>,
        f: impl FnMut(u32),
    ) -> PyResult<()> {
        let g = self.position(game)?;
        let prefix = prefix
            .map(|p| tokens_arg(&self.inner, p))
            .transpose()?
            .unwrap_or_default();
        codec::legal_tokens(&self.inner, g, &prefix, f).map_err(codec_err)
    }
}

/// The observations of a rules configuration for learning agents, laid out over an
/// action space's board window: ``board`` planes (planes x window x window bytes: row y,
/// then column x, as the "place" block) and a ``vector`` of the rest, from the point of
/// view of the player who decides now (player 0 of every per-player part is the decider,
/// then the others in seat order). ``planes`` and ``fields`` name the parts in order.
/// Nothing hidden is shown: of the tiles to come only how many of each kind are unseen,
/// of the Friday tiles only the revealed ones.
///
/// ``ObservationSpace(rules, space)``: the observations over ``space``'s window (default:
/// the rules' ``action_space``).
#[pyclass(frozen, module = "carcassonne._core")]
pub struct ObservationSpace {
    pub(crate) layout: ObservationLayout,
    /// Working memory of `observe`, one call at a time (`exclusive`).
    scratch: Exclusive<ObservationScratch>,
    pub(crate) rules: Arc<CoreRules>,
}

impl ObservationSpace {
    pub(crate) fn of_layout(layout: ObservationLayout, rules: Arc<CoreRules>) -> Self {
        ObservationSpace {
            layout,
            scratch: Exclusive::new(ObservationScratch::default()),
            rules,
        }
    }
}

/// A numpy array of `T` (`dtype` its name) and `shape` from Python to write into:
/// C-contiguous and writeable.
fn out_array<'py, T: numpy::Element>(
    arr: &Bound<'py, PyAny>,
    name: &str,
    dtype: &str,
    shape: &[usize],
) -> PyResult<numpy::PyReadwriteArrayDyn<'py, T>> {
    let wrong = |what: String| {
        ActionSpaceError::new_err(format!(
            "{name} must be a writeable C-contiguous numpy {dtype} array of shape {}: {what}",
            py_shape(shape)
        ))
    };
    let a = arr
        .cast::<PyArrayDyn<T>>()
        .map_err(|_| wrong(format!("got {}", describe_array(arr))))?;
    if a.shape() != shape {
        return Err(wrong(format!("got shape {}", py_shape(a.shape()))));
    }
    if !a.is_c_contiguous() {
        return Err(wrong("got a non-contiguous array".into()));
    }
    a.try_readwrite()
        .map_err(|_| wrong("got a read-only or borrowed array".into()))
}

/// A shape as Python writes it: "(3,)", "(2, 23, 23)".
pub(crate) fn py_shape(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// "a numpy int64 array" or the Python type, for messages.
fn describe_array(arr: &Bound<'_, PyAny>) -> String {
    match arr.cast::<numpy::PyUntypedArray>() {
        Ok(a) => format!(
            "a numpy {} array",
            a.dtype().str().map(|s| s.to_string()).unwrap_or_default()
        ),
        Err(_) => type_name(arr),
    }
}

#[pymethods]
impl ObservationSpace {
    /// The observations over `space`'s window (default: the rules' `action_space`).
    #[new]
    #[pyo3(signature = (rules, space=None))]
    pub(crate) fn new(
        rules: PyRef<'_, Rules>,
        space: Option<PyRef<'_, ActionSpace>>,
    ) -> PyResult<Self> {
        let own;
        let space = match &space {
            Some(s) => {
                if !same_rules(&s.rules, &rules.inner) {
                    return Err(ActionSpaceError::new_err(
                        "the action space is of other rules",
                    ));
                }
                &s.inner
            }
            None => {
                own = CoreSpace::new(&rules.inner, None).map_err(codec_err)?;
                &own
            }
        };
        Ok(ObservationSpace::of_layout(
            ObservationLayout::new(&rules.inner, space),
            rules.inner.clone(),
        ))
    }

    /// Each board plane's largest value, in ``planes`` order: 1 for the planes that
    /// mark (a tile, an open square, an edge's kind, the chosen square), 9 for
    /// ``centre_value``, 255 for counts and points (shown up to 255). The Gymnasium
    /// adapters' board space takes them as its upper bounds.
    #[getter]
    fn plane_max(&self) -> Vec<u32> {
        // Not Vec<u8>, which Python would get as bytes.
        self.layout.plane_max().into_iter().map(u32::from).collect()
    }

    /// The board part's shape: (planes, window, window).
    #[getter]
    fn board_shape(&self) -> (usize, u32, u32) {
        let w = self.layout.window();
        (self.layout.planes().len(), w, w)
    }

    /// The vector part's length.
    #[getter]
    fn vector_size(&self) -> usize {
        self.layout.vector_len()
    }

    /// The board planes' names, in order.
    #[getter]
    fn planes(&self) -> Vec<String> {
        self.layout.planes().to_vec()
    }

    /// The vector's fields as (name, length), in order.
    #[getter]
    fn fields(&self) -> Vec<(String, usize)> {
        self.layout.fields().to_vec()
    }

    /// ``game``'s observation for its decider, written whole into ``board`` (a uint8
    /// array of ``board_shape``: counts and points above 255 are shown as 255) and
    /// ``vector`` (a float32 array of (``vector_size``,)), both C-contiguous and writeable
    /// (new arrays when None), which it returns. ``prefix``: the tokens already chosen for
    /// the action under way (the ``chosen_*`` parts and ``token`` show them). ``viewer``: the
    /// seat whose point of view it is (default the decider's). Raises ActionSpaceError for
    /// a wrong array or a game of other rules, WindowOverflowError (arrays unchanged) for a
    /// game that has outgrown the window.
    #[pyo3(signature = (game, board=None, vector=None, prefix=None, viewer=None))]
    fn observe<'py>(
        &self,
        py: Python<'py>,
        game: PyRef<'_, Game>,
        board: Option<Bound<'py, PyAny>>,
        vector: Option<Bound<'py, PyAny>>,
        prefix: Option<Bound<'py, PyAny>>,
        viewer: Option<Int>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let players = self.rules.players();
        let viewer: usize = match viewer {
            Some(v) => v.within("viewer", 0, players as i128 - 1, ActionSpaceError::new_err)?,
            None => game.inner.decider(),
        };
        if !same_rules(game.inner.rules(), &self.rules) {
            return Err(ActionSpaceError::new_err(
                "the game is of other rules than this observation space's",
            ));
        }
        let (c, w, _) = self.board_shape();
        let board_shape = [c, w as usize, w as usize];
        let board = match board {
            Some(b) => b,
            None => PyArrayDyn::<u8>::zeros(py, board_shape.as_slice(), false).into_any(),
        };
        let vector = match vector {
            Some(v) => v,
            None => PyArrayDyn::<f32>::zeros(py, [self.layout.vector_len()].as_slice(), false)
                .into_any(),
        };
        let prefix = match &prefix {
            Some(p) => {
                let space = self.layout.space();
                let t = tokens_arg(space, p)?;
                // Only a prefix of a legal action is shown.
                codec::legal_tokens(space, &game.inner, &t, |_| {}).map_err(codec_err)?;
                t
            }
            None => Vec::new(),
        };
        {
            let mut b = out_array::<u8>(&board, "board", "uint8", &board_shape)?;
            let mut v =
                out_array::<f32>(&vector, "vector", "float32", &[self.layout.vector_len()])?;
            // Cannot fail: both are C-contiguous (checked above).
            let bs = b.as_slice_mut().expect("contiguous");
            let vs = v.as_slice_mut().expect("contiguous");
            let mut scratch = self.scratch.take(py, "ObservationSpace")?;
            self.layout
                .write_for(&game.inner, viewer, &prefix, &mut scratch, bs, vs)
                .map_err(codec_err)?;
        }
        Ok((board, vector))
    }

    fn __repr__(&self) -> String {
        let (c, w, _) = self.board_shape();
        format!(
            "<ObservationSpace board=({c}, {w}, {w}) vector={}>",
            self.layout.vector_len()
        )
    }
}

/// The most memory a `VectorEnv`'s games and arrays may take (4 GiB).
const MAX_ENV_BYTES: u64 = 4 << 30;

/// About how much memory one game of `rules` takes: its board's grids (an open grid sized
/// for the whole deck, or the map's) and its union-find and lists.
fn game_bytes(rules: &CoreRules) -> u64 {
    use carcassonne_core::board::map_board::Geometry;
    let cells = match &rules.geometry {
        Geometry::Open => (2 * (rules.deck_limit as u64 + 4) + 1).pow(2),
        Geometry::Map(map) => map.cells as u64,
    };
    6 * cells + 64 * 1024
}

/// Many games stepped at once in Rust, for learning agents.
///
/// Each ``step(actions)`` takes one token per game (an integer of ``action_space``, allowed
/// by that game's mask) for the player who decides there (``info["to_play"]``), plays the
/// built-in ``opponents``' turns if given (then the caller plays ``agent_seat`` alone), and
/// returns ``(observations, rewards, terminated, truncated, info)``: observations
/// ``{"board": (n, planes, w, w), "vector": (n, v), "action_mask": (n, size)}`` (the mask
/// alone with ``observations=False``), rewards ``(n, players)`` per seat (the final
/// outcome: 1 to a sole winner, 0 to tied winners, -1 to the others; plus ``shaping`` times
/// the change in each seat's virtual margin), and ``info`` ``{"to_play", "final_scores"}``.
/// A game that ends starts its next episode in the same step (its new first observation
/// is returned with ``terminated`` set: Gymnasium's "same step" autoreset); a game that
/// outgrows the window is ``truncated`` and starts again too. Game e plays episodes e,
/// e + n, e + 2n, ... of the study ``seed``, with ``simulate``'s decks and random streams,
/// whatever ``threads``. The returned arrays belong to the environment and are overwritten
/// by the next step: copy what you keep. The observations and masks are read-only, for
/// good (numpy cannot make them writeable: the environment relies on finding them as it
/// left them). Calls from several threads wait for each other; Ctrl-C during a long
/// ``reset`` or ``step`` (or the construction) raises KeyboardInterrupt at once, and the
/// environment must then be reset before it is stepped again.
///
/// ``VectorEnv(...)``:``num_envs`` games of ``rules``. ``opponents``: the player of every
/// seat but ``agent_seat`` (None: the caller plays every seat): "random", "greedy",
/// "learned" or such a ``carcassonne.players`` settings object (not MCTS, not a Python
/// function: the environment plays their turns in Rust, quickly). ``threads``: None
/// for one per core (results never depend on it).
#[pyclass(frozen, module = "carcassonne._core")]
pub struct VectorEnv {
    /// What calls change, one call at a time (`exclusive`).
    state: Exclusive<EnvState>,
    /// What never changes after construction, read without the lock.
    space: CoreSpace,
    layout: ObservationLayout,
    rules: Arc<CoreRules>,
    num_envs: usize,
    observe: bool,
    opponents: Option<String>,
    /// The observations and masks, lent out as they are: read-only arrays whose memory
    /// a Rust container owns, so that numpy refuses to make them writeable again (it
    /// would for a view of an array that owns its memory).
    board: Py<PyArrayDyn<u8>>,
    vector: Py<PyArrayDyn<f32>>,
    mask: Py<PyArrayDyn<bool>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminated: Py<PyArrayDyn<bool>>,
    truncated: Py<PyArrayDyn<bool>>,
    to_play: Py<PyArrayDyn<i32>>,
    final_scores: Py<PyArrayDyn<i32>>,
}

/// A `VectorEnv`'s state that calls change.
struct EnvState {
    env: carcassonne_core::learn::vector_env::VectorEnv,
    tokens: Vec<u32>,
    /// A reset or step was interrupted part way: some games moved, others not.
    interrupted: bool,
}

/// A step of at least this many games runs on a thread of its own, so that Ctrl-C is
/// answered while it runs (smaller ones take a few milliseconds at most, and do without
/// the cost of a thread).
const INTERRUPTIBLE_STEP: usize = 256;

/// A read-only numpy array of `shape`, its memory owned by a Rust container (see
/// `VectorEnv::board`).
fn sealed<'py, T: numpy::Element + Clone + Default>(
    py: Python<'py>,
    shape: Vec<usize>,
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    let arr = numpy::ndarray::ArrayD::<T>::default(numpy::ndarray::IxDyn(&shape)).into_pyarray(py);
    let kwargs = PyDict::new(py);
    kwargs.set_item("write", false)?;
    arr.call_method("setflags", (), Some(&kwargs))?;
    Ok(arr)
}

/// The tokens of one step from Python: a numpy integer array or a sequence of ints, one
/// per game; each in range (the environment then checks the masks).
fn step_tokens(arr: &Bound<'_, PyAny>, n: usize, size: u32, out: &mut Vec<u32>) -> PyResult<()> {
    out.clear();
    let shape_err = |got: String| {
        ActionSpaceError::new_err(format!(
            "actions must be {n} integers (a numpy integer array of shape ({n},)), got {got}"
        ))
    };
    if let Ok(a) = arr.cast::<numpy::PyUntypedArray>() {
        if a.shape() != [n] {
            return Err(shape_err(format!("shape {}", py_shape(a.shape()))));
        }
        let kind = a.dtype().kind();
        if kind != b'i' && kind != b'u' {
            return Err(shape_err(describe_array(arr)));
        }
        // The common dtypes read at once, without a Python object per game.
        macro_rules! read {
            ($($t:ty),*) => {$(
                if let Ok(typed) = arr.cast::<PyArray1<$t>>()
                    && let Ok(view) = typed.try_readonly()
                    && let Ok(values) = view.as_slice()
                {
                    return tokens_in_range(values.iter().map(|&v| v as i128), size, out);
                }
            )*};
        }
        read!(i64, i32, u32, u64, i16, u16, i8, u8);
    } else if arr.is_instance_of::<PyString>()
        || arr.is_instance_of::<PyBytes>()
        || arr.is_instance_of::<PyDict>()
    {
        // A dict has a length and items 0 to n - 1 too, but it is no sequence.
        return Err(shape_err(type_name(arr)));
    }
    let len = arr.len().map_err(|_| shape_err(type_name(arr)))?;
    if len != n {
        return Err(shape_err(format!("{len} values")));
    }
    for e in 0..n {
        let item = arr.get_item(e)?;
        let v: Int = item.extract().map_err(|_| {
            ActionSpaceError::new_err(format!(
                "environment {e}: the action is not an integer: {}",
                type_name(&item)
            ))
        })?;
        let t = v.value().filter(|t| (0..size as i128).contains(t)).ok_or_else(|| {
            ActionSpaceError::new_err(format!(
                "environment {e}: action {} is outside the action space (0 to {}); nothing was stepped",
                v.describe(),
                size - 1
            ))
        })?;
        out.push(t as u32);
    }
    Ok(())
}

/// Integer actions as tokens, each checked against the space's size.
fn tokens_in_range(
    values: impl Iterator<Item = i128>,
    size: u32,
    out: &mut Vec<u32>,
) -> PyResult<()> {
    for (e, v) in values.enumerate() {
        if !(0..size as i128).contains(&v) {
            out.clear();
            return Err(ActionSpaceError::new_err(format!(
                "environment {e}: action {v} is outside the action space (0 to {}); nothing was stepped",
                size - 1
            )));
        }
        out.push(v as u32);
    }
    Ok(())
}

impl VectorEnv {
    /// Runs `f` on the environment with its buffers, the GIL released: on a thread of
    /// its own that answers Ctrl-C when `long` (then a `KeyboardInterrupt` leaves the
    /// environment to be reset).
    fn run(
        &self,
        py: Python<'_>,
        state: &mut EnvState,
        long: bool,
        f: impl FnOnce(
            &mut carcassonne_core::learn::vector_env::VectorEnv,
            &[u32],
            StepBuffers<'_>,
            &Stop,
        ) -> Result<(), StepError>
        + Send,
    ) -> PyResult<()> {
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terminated = self.terminated.bind(py).readwrite();
        let mut truncated = self.truncated.bind(py).readwrite();
        let mut to_play = self.to_play.bind(py).readwrite();
        let mut final_scores = self.final_scores.bind(py).readwrite();
        // SAFETY: the sealed arrays' memory belongs to their Rust containers, which live
        // as long as `self`; no other Rust reference to it exists while the state's lock
        // is held (every write takes the lock), and Python only reads it.
        let (board, vector, mask) = unsafe {
            (
                self.board.bind(py).as_slice_mut(),
                self.vector.bind(py).as_slice_mut(),
                self.mask.bind(py).as_slice_mut(),
            )
        };
        // Cannot fail: the environment made these arrays C-contiguous.
        let buffers = StepBuffers {
            board: board.expect("contiguous"),
            vector: vector.expect("contiguous"),
            mask: mask.expect("contiguous"),
            rewards: rewards.as_slice_mut().expect("contiguous"),
            terminated: terminated.as_slice_mut().expect("contiguous"),
            truncated: truncated.as_slice_mut().expect("contiguous"),
            to_play: to_play.as_slice_mut().expect("contiguous"),
            final_scores: final_scores.as_slice_mut().expect("contiguous"),
        };
        let EnvState { env, tokens, .. } = state;
        let result = if long {
            let none: &[Arc<crate::players::PythonPlayer>] = &[];
            crate::interrupt::interruptible(py, none, |stop| f(env, tokens, buffers, stop))
        } else {
            Ok(py.detach(|| f(env, tokens, buffers, &Stop::new())))
        };
        // Some games moved and others not: the environment is to be reset.
        let interrupted = matches!(result, Err(_) | Ok(Err(StepError::Interrupted)));
        state.interrupted |= interrupted;
        match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) if !interrupted => Err(step_err(e)),
            Ok(Err(_)) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "interrupted",
            )),
            Err(signal) => Err(signal),
        }
    }

    /// (observations, info) as the returned dicts.
    fn outputs<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        let obs = PyDict::new(py);
        if self.observe {
            obs.set_item("board", self.board.bind(py))?;
            obs.set_item("vector", self.vector.bind(py))?;
        }
        obs.set_item("action_mask", self.mask.bind(py))?;
        let info = PyDict::new(py);
        info.set_item("to_play", self.to_play.bind(py))?;
        info.set_item("final_scores", self.final_scores.bind(py))?;
        Ok((obs, info))
    }
}

fn step_err(e: StepError) -> PyErr {
    match e {
        StepError::Codec(c) => codec_err(c),
        other => ActionSpaceError::new_err(message(other)),
    }
}

/// The study roots of a `reset`: None, an integer, or a sequence of one per game.
fn studies_arg(seed: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Option<Vec<u64>>> {
    let root = |v: &Bound<'_, PyAny>, name: &str| -> PyResult<u64> {
        let i: Int = v.extract().map_err(|_| {
            ActionSpaceError::new_err(format!("{name} must be an integer, not {}", type_name(v)))
        })?;
        i.within(name, 0, crate::args::U64_MAX, ActionSpaceError::new_err)
    };
    let Some(seed) = seed.filter(|s| !s.is_none()) else {
        return Ok(None);
    };
    if seed.is_instance_of::<PyString>()
        || seed.is_instance_of::<PyBytes>()
        || seed.is_instance_of::<PyDict>()
    {
        return Err(ActionSpaceError::new_err(format!(
            "seed must be an integer or a sequence of {n} integers, not {}",
            type_name(seed)
        )));
    }
    if let Ok(one) = root(seed, "seed") {
        return Ok(Some(vec![one]));
    }
    let len = seed.len().map_err(|_| {
        ActionSpaceError::new_err(format!(
            "seed must be an integer or a sequence of {n} integers, not {}",
            type_name(seed)
        ))
    })?;
    if len != n {
        return Err(ActionSpaceError::new_err(format!(
            "seed: {len} study roots for {n} games: give one per game, or a single integer"
        )));
    }
    (0..n)
        .map(|e| root(&seed.get_item(e)?, &format!("seed[{e}]")))
        .collect::<PyResult<Vec<u64>>>()
        .map(Some)
}

#[pymethods]
impl VectorEnv {
    /// `num_envs` games of `rules`; see the class documentation. `opponents`: "random"
    /// or "greedy" for every seat but `agent_seat` (None: the caller plays every seat).
    /// `threads`: None for one per core (results never depend on it).
    #[new]
    #[pyo3(signature = (rules, num_envs, seed=Int::of(0), *, opponents=None, agent_seat=Int::of(0), shaping=0.0, observations=true, window=None, threads=None))]
    #[pyo3(
        text_signature = "(rules, num_envs, seed=0, *, opponents=None, agent_seat=0, shaping=0.0, observations=True, window=None, threads=None)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: PyRef<'_, Rules>,
        num_envs: Int,
        seed: Int,
        opponents: Option<&Bound<'_, PyAny>>,
        agent_seat: Int,
        shaping: f64,
        observations: bool,
        window: Option<Int>,
        threads: Option<Int>,
    ) -> PyResult<Self> {
        use carcassonne_core::learn::vector_env::{EnvConfig, VectorEnv as CoreEnv};
        use carcassonne_core::play::simulate::max_threads;
        let num_envs: usize = num_envs.within("num_envs", 1, 1 << 20, ActionSpaceError::new_err)?;
        let seed: u64 = seed.within("seed", 0, crate::args::U64_MAX, ActionSpaceError::new_err)?;
        let opponents = opponents
            .map(|spec| {
                // A function would be called from the environment's threads; a search
                // would make a step take seconds, beyond Ctrl-C's reach inside a move.
                if spec.is_callable() || crate::players::mcts_settings(spec).is_ok() {
                    return Err(ActionSpaceError::new_err(format!(
                        "opponents must be \"random\", \"greedy\", \"learned\" or such a carcassonne.players object, not {}: the environment plays their turns in Rust, a few microseconds each",
                        crate::type_name(spec)
                    )));
                }
                let mut python = Vec::new();
                crate::players::player(spec, &mut python, &rules.inner).map_err(|e| {
                    ActionSpaceError::new_err(format!("opponents: {}", e.value(py)))
                })
            })
            .transpose()?;
        let opponents_name = opponents.as_ref().map(|p| p.name());
        let players = rules.inner.players();
        let agent_seat: usize = agent_seat.within(
            "agent_seat",
            0,
            players as i128 - 1,
            ActionSpaceError::new_err,
        )?;
        if !shaping.is_finite() {
            return Err(ActionSpaceError::new_err(format!(
                "shaping must be a finite number, got {shaping}"
            )));
        }
        let window = window
            .map(|w| w.within("window", 0, u32::MAX as i128, ActionSpaceError::new_err))
            .transpose()?;
        let threads: usize = match threads {
            Some(t) => t.within(
                "threads",
                1,
                max_threads() as i128,
                ActionSpaceError::new_err,
            )?,
            None => max_threads(),
        };
        let config = EnvConfig {
            num_envs,
            seed,
            opponents,
            agent_seat,
            shaping: shaping as f32,
            observe: observations,
            window,
            // The environment's own arrays, lent out read-only (`sealed`).
            reuse_buffers: true,
        };
        let space = CoreSpace::new(&rules.inner, window).map_err(codec_err)?;
        let layout = ObservationLayout::new(&rules.inner, &space);
        let (c, w) = (layout.planes().len(), layout.window() as usize);
        let (board_shape, vector_shape) = if observations {
            (vec![num_envs, c, w, w], vec![num_envs, layout.vector_len()])
        } else {
            (vec![num_envs, 0, w, w], vec![num_envs, 0])
        };
        let size = space.size() as usize;
        // The games and the arrays the environment fills, allocated once: refused before
        // allocating anything when they would not fit a reasonable share of memory.
        let per_game = game_bytes(&rules.inner)
            + board_shape.iter().skip(1).product::<usize>() as u64
            + 4 * vector_shape[1] as u64
            + 2 * size as u64
            + 8 * players as u64;
        let bytes = num_envs as u64 * per_game;
        if bytes > MAX_ENV_BYTES {
            return Err(ActionSpaceError::new_err(format!(
                "{num_envs} games need about {} MiB (games, observations and masks), more than the {} MiB allowed: use fewer games or observations=False",
                bytes >> 20,
                MAX_ENV_BYTES >> 20
            )));
        }
        let core_rules = rules.inner.clone();
        drop(rules);
        // Dealing many games takes a while: on a thread that answers Ctrl-C.
        let none: &[Arc<crate::players::PythonPlayer>] = &[];
        let env = crate::interrupt::interruptible(py, none, |stop| {
            CoreEnv::new_until(core_rules.clone(), config, threads, stop)
        })?
        .map_err(step_err)?;
        let me = VectorEnv {
            board: sealed::<u8>(py, board_shape)?.unbind(),
            vector: sealed::<f32>(py, vector_shape)?.unbind(),
            mask: sealed::<bool>(py, vec![num_envs, size])?.unbind(),
            rewards: PyArrayDyn::<f32>::zeros(py, vec![num_envs, players], false).unbind(),
            terminated: PyArrayDyn::<bool>::zeros(py, vec![num_envs], false).unbind(),
            truncated: PyArrayDyn::<bool>::zeros(py, vec![num_envs], false).unbind(),
            to_play: PyArrayDyn::<i32>::zeros(py, vec![num_envs], false).unbind(),
            final_scores: PyArrayDyn::<i32>::zeros(py, vec![num_envs, players], false).unbind(),
            state: Exclusive::new(EnvState {
                env,
                tokens: Vec::with_capacity(num_envs),
                interrupted: false,
            }),
            space,
            layout,
            rules: core_rules,
            num_envs,
            observe: observations,
            opponents: opponents_name,
        };
        {
            let mut state = me.state.take(py, "VectorEnv")?;
            me.run(py, &mut state, true, |env, _, out, stop| {
                env.reset_until(Studies::Same, out, stop)
            })?;
        }
        Ok(me)
    }

    /// The number of games stepped at once.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Gymnasium's autoreset mode of this environment: "same_step".
    #[getter]
    fn autoreset_mode(&self) -> &'static str {
        "same_step"
    }

    /// The action space the tokens belong to.
    #[getter]
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            inner: self.space.clone(),
            rules: self.rules.clone(),
        }
    }

    /// The observations' layout (planes and fields, in order).
    #[getter]
    fn observation_space(&self) -> ObservationSpace {
        ObservationSpace::of_layout(self.layout.clone(), self.rules.clone())
    }

    /// Starts every game at its first episode and returns ``(observations, info)``.
    /// With ``seed``, an integer, of that study root; a sequence of ``num_envs``
    /// integers, game e plays episodes e, e + n, ... of study ``seed[e]`` (n equal roots
    /// are that root).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        let roots = studies_arg(seed, self.num_envs)?;
        let mut state = self.state.take(py, "VectorEnv")?;
        let studies = match &roots {
            None => Studies::Same,
            Some(one) if one.len() == 1 => Studies::All(one[0]),
            Some(each) => Studies::PerGame(each),
        };
        self.run(py, &mut state, true, move |env, _, out, stop| {
            env.reset_until(studies, out, stop)
        })?;
        state.interrupted = false;
        drop(state);
        self.outputs(py)
    }

    /// Plays one token per game; returns ``(observations, rewards, terminated,
    /// truncated, info)``. Raises ActionSpaceError, with nothing stepped, for actions of
    /// the wrong shape or type, or one that its game's mask does not allow (naming the
    /// game and the action), or after an interrupted step or reset (reset first).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyDict>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyAny>,
        Bound<'py, PyDict>,
    )> {
        let n = self.num_envs;
        let size = self.space.size();
        let mut state = self.state.take(py, "VectorEnv")?;
        if state.interrupted {
            return Err(ActionSpaceError::new_err(
                "a reset or step of this environment was interrupted, leaving some games moved and others not: call reset() before stepping it",
            ));
        }
        // Into the state's own buffer. Reading may run Python code (`__index__`) with the
        // lock held: other threads wait with the GIL released, and a step from inside
        // that code is refused as busy.
        step_tokens(actions, n, size, &mut state.tokens)?;
        self.run(
            py,
            &mut state,
            n >= INTERRUPTIBLE_STEP,
            |env, tokens, out, stop| env.step_until(tokens, out, stop),
        )?;
        drop(state);
        let (obs, info) = self.outputs(py)?;
        Ok((
            obs,
            self.rewards.bind(py).clone().into_any(),
            self.terminated.bind(py).clone().into_any(),
            self.truncated.bind(py).clone().into_any(),
            info,
        ))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let seed = self.state.take(py, "VectorEnv")?.env.config().seed;
        Ok(format!(
            "<VectorEnv num_envs={} seed={} opponents={} observations={}>",
            self.num_envs,
            seed,
            self.opponents.as_deref().unwrap_or("None"),
            if self.observe { "True" } else { "False" }
        ))
    }
}
