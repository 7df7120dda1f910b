//! The action space and codec for learning agents (`carcassonne_core::learn`) in Python:
//! `ActionSpace` with its blocks, `encode`/`decode`, masks as numpy arrays (bools, and
//! packed bits), `resolve`; `ObservationSpace`, observations written into numpy arrays.

use std::sync::Arc;

use numpy::{IntoPyArray, PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

use carcassonne_core::engine::game::Game as CoreGame;
use carcassonne_core::engine::rules::Rules as CoreRules;
use carcassonne_core::learn::action_space::ActionSpace as CoreSpace;
use carcassonne_core::learn::codec::{self, CodecError, MAX_TOKENS};
use carcassonne_core::learn::observation::{ObservationLayout, ObservationScratch};

use crate::args::Int;
use crate::game::Game;
use crate::rules::Rules;
use crate::{ActionSpaceError, WindowOverflowError, actions, message, type_name};

pub(crate) fn codec_err(e: CodecError) -> PyErr {
    match e {
        CodecError::WindowOverflow { .. } => WindowOverflowError::new_err(message(e)),
        _ => ActionSpaceError::new_err(message(e)),
    }
}

/// One block of an action space: the tokens `start` to `start + size - 1`, laid out in
/// `shape` along `axes` (row-major: the last axis varies fastest).
#[pyclass(frozen, get_all, module = "carcassonne._core")]
pub struct ActionBlock {
    pub name: &'static str,
    pub start: u32,
    pub size: u32,
    pub shape: Vec<u32>,
    pub axes: Vec<&'static str>,
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
/// An action of the engine (a `Move` or a `Decision`) is one or more tokens, integers
/// below `size`, chosen one at a time: a placement is its square and rotation in the
/// board window (block "place"), then its meeple (block "meeple"; in South Seas block
/// "islander" for the islander taken back instead), then with The Ferries its ferry and
/// ferry moves and "ferries_done"; every other decision is one token of its own block.
/// `mask(game, prefix)` marks the tokens that continue `prefix` towards a legal action;
/// `resolve(game, tokens)` gives the action once the tokens are complete. The window is
/// `window` squares a side: on the open grid centred on the played area of each position
/// (a game that outgrows it raises WindowOverflowError), on a map fixed over the map.
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
        let theirs = game.inner.rules();
        if Arc::ptr_eq(theirs, &self.rules) || theirs.spec == self.rules.spec {
            Ok(&game.inner)
        } else {
            Err(ActionSpaceError::new_err(
                "the game is of other rules than this action space's (use game.rules.action_space)",
            ))
        }
    }
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

    /// The number of tokens: every token is an integer in `range(size)`.
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

    /// South Seas: the wares (shells, bananas, fish) of each payment `p` a "deliver"
    /// token names (token `1 + slot * len(pays) + p` of the block). Empty otherwise.
    #[getter]
    fn pays(&self) -> Vec<(u8, u8, u8)> {
        self.inner
            .pays()
            .iter()
            .map(|p| (p[0], p[1], p[2]))
            .collect()
    }

    /// The board square (x, y) at the top left of `game`'s window (window index 0; index
    /// i is square (x + i % window, y + i // window)). Raises WindowOverflowError if the
    /// game has outgrown the window.
    fn origin(&self, game: PyRef<'_, Game>) -> PyResult<(i32, i32)> {
        let g = self.position(&game)?;
        let w = self
            .inner
            .window_rule()
            .window_of(g, self.inner.window())
            .map_err(codec_err)?;
        Ok((w.x0, w.y0))
    }

    /// The tokens of `action` (a `Move` or `Decision`) in `game`'s position, as a tuple.
    /// Any action of the rules' kinds encodes, legal or not; raises ActionSpaceError for
    /// one this space has no tokens for (a square outside the window, a ferry without
    /// The Ferries).
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

    /// The action (a `Move` or `Decision`) the complete `tokens` stand for in `game`'s
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

    /// The legal action whose tokens are `tokens`, or None when more tokens are to come.
    /// Raises ActionSpaceError if no legal action starts with them.
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

    /// A numpy array of `size` bools: True at each token that continues `prefix` (the
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

    /// `mask` packed eight tokens to a byte, as `numpy.packbits(mask, bitorder="little")`:
    /// token t is bit t % 8 of byte t // 8.
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
/// action space's board window: `board` planes (planes x window x window floats: row y,
/// then column x, as the "place" block) and a `vector` of the rest, from the point of
/// view of the player who decides now (player 0 of every per-player part is the decider,
/// then the others in seat order). `planes` and `fields` name the parts in order.
/// Nothing hidden is shown: of the tiles to come only how many of each kind are unseen,
/// of the Friday tiles only the revealed ones.
#[pyclass(module = "carcassonne._core")]
pub struct ObservationSpace {
    layout: ObservationLayout,
    scratch: ObservationScratch,
    rules: Arc<CoreRules>,
}

/// A float32 array of `shape` from Python to write into: C-contiguous and writeable.
fn out_array<'py>(
    arr: &Bound<'py, PyAny>,
    name: &str,
    shape: &[usize],
) -> PyResult<numpy::PyReadwriteArrayDyn<'py, f32>> {
    let wrong = |what: String| {
        ActionSpaceError::new_err(format!(
            "{name} must be a writeable C-contiguous numpy float32 array of shape {shape:?}: {what}"
        ))
    };
    let a = arr
        .cast::<PyArrayDyn<f32>>()
        .map_err(|_| wrong(format!("got {}", describe_array(arr))))?;
    if a.shape() != shape {
        return Err(wrong(format!("got shape {:?}", a.shape())));
    }
    if !a.is_c_contiguous() {
        return Err(wrong("got a non-contiguous array".into()));
    }
    a.try_readwrite()
        .map_err(|_| wrong("got a read-only or borrowed array".into()))
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
    fn new(rules: PyRef<'_, Rules>, space: Option<PyRef<'_, ActionSpace>>) -> PyResult<Self> {
        let own;
        let space = match &space {
            Some(s) => {
                if !(Arc::ptr_eq(&s.rules, &rules.inner) || s.rules.spec == rules.inner.spec) {
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
        Ok(ObservationSpace {
            layout: ObservationLayout::new(&rules.inner, space),
            scratch: ObservationScratch::default(),
            rules: rules.inner.clone(),
        })
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

    /// `game`'s observation for its decider, written whole into `board` and `vector`
    /// (float32 arrays of `board_shape` and (`vector_size`,), C-contiguous and writeable;
    /// new arrays when None), which it returns. Raises ActionSpaceError for a wrong array
    /// or a game of other rules, WindowOverflowError (arrays unchanged) for a game that
    /// has outgrown the window.
    #[pyo3(signature = (game, board=None, vector=None))]
    fn observe<'py>(
        &mut self,
        py: Python<'py>,
        game: PyRef<'_, Game>,
        board: Option<Bound<'py, PyAny>>,
        vector: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let theirs = game.inner.rules();
        if !(Arc::ptr_eq(theirs, &self.rules) || theirs.spec == self.rules.spec) {
            return Err(ActionSpaceError::new_err(
                "the game is of other rules than this observation space's",
            ));
        }
        let (c, w, _) = self.board_shape();
        let board_shape = [c, w as usize, w as usize];
        let board = match board {
            Some(b) => b,
            None => PyArrayDyn::<f32>::zeros(py, board_shape.as_slice(), false).into_any(),
        };
        let vector = match vector {
            Some(v) => v,
            None => PyArrayDyn::<f32>::zeros(py, [self.layout.vector_len()].as_slice(), false)
                .into_any(),
        };
        {
            let mut b = out_array(&board, "board", &board_shape)?;
            let mut v = out_array(&vector, "vector", &[self.layout.vector_len()])?;
            // Cannot fail: both are C-contiguous (checked above).
            let bs = b.as_slice_mut().expect("contiguous");
            let vs = v.as_slice_mut().expect("contiguous");
            self.layout
                .write(&game.inner, &mut self.scratch, bs, vs)
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
