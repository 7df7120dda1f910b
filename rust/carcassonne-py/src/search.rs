//! The PUCT search with a learned evaluation (`carcassonne_core::learn::search`) in
//! Python: `PuctSearch` calls a Python function on batches of observations (numpy
//! arrays) and returns a `SearchReport`.

use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use carcassonne_core::engine::game::Game as CoreGame;
use carcassonne_core::learn::codec;
use carcassonne_core::learn::observation::ObservationLayout;
use carcassonne_core::learn::search::{
    Evaluate, MAX_BATCH, MAX_EXPLORATION, MAX_SIMULATIONS, Puct, PuctReport, PuctTree, SearchError,
};
use carcassonne_core::learn::value::{LinearValue, ValueEvaluation};
use carcassonne_core::limits::MAX_PLAYERS;
use carcassonne_core::rng::Rng;

use crate::actions::action_to_py;
use crate::args::Int;
use crate::exclusive::Exclusive;
use crate::game::Game;
use crate::learn::{ActionSpace, ObservationSpace, py_shape, same_rules};
use crate::rules::Rules;
use crate::{ActionSpaceError, EvaluationError, GameOverError, message, type_name};

/// A tree search guided by a learned evaluation (AlphaZero's PUCT), over the hidden
/// information as the built-in MCTS: every simulation starts from a new reshuffle of the
/// unseen tiles (ships, Friday tiles), so nothing hidden steers it.
///
/// ``evaluate(board, vector)`` is called with a batch of positions, new arrays each time:
/// ``board`` uint8 (n, planes, window, window) and ``vector`` float32 (n, vector_size), as
/// ``observation_space.observe`` writes them (each from its decider's point of view, no
/// action under way), n from 1 to ``batch``. It returns ``(priors, values)``: ``priors`` (n,
/// ``action_space.size``), a weight of 0 or more per token (probabilities, or exponentials
/// of logits), and ``values`` (n, players), each seat's value from -1 to 1, seat 0 the
/// position's decider and the others in seat order after him (with two players also (n,):
/// the decider's, the other's its negative). An action's prior is the product of its
/// tokens' weights, normalised over the legal actions.
///
/// ``evaluate`` may also be a ``carcassonne.learn.value.LearnedValue`` of the search's
/// rules: the search then values each position it reaches with it, in Rust, without
/// observations, and gives every action there the same prior.
///
/// The game searched is copied first: other threads (and ``evaluate`` itself) may play
/// it meanwhile. Searches of one ``PuctSearch`` from several threads wait for each other;
/// one started from inside its own ``evaluate`` raises BusyError.
///
/// ``PuctSearch(...)``: a search of ``simulations`` per move (the root's evaluation
/// included, 1 to 1,000,000), ``batch`` positions per call of the evaluation (1 to 1,024),
/// exploration ``exploration`` (AlphaZero's c_puct, 0 to 100), its random stream from
/// ``seed``; the observations over ``space``'s window (default: the rules'
/// ``action_space``). Raises ValueError for settings out of range, ActionSpaceError for a
/// space of other rules.
#[pyclass(frozen, module = "carcassonne._core")]
pub struct PuctSearch {
    puct: Puct,
    layout: ObservationLayout,
    rules: std::sync::Arc<carcassonne_core::engine::rules::Rules>,
    /// The tree and random stream, one search at a time (`exclusive`).
    state: Exclusive<(PuctTree, Rng)>,
}

/// What a search found at the root: every legal action once, in ``Game.legal_actions()``
/// order, with its visits, mean value for the decider (-1 to 1; 0 if never visited) and
/// prior; the evaluation's ``value`` of the position and the search's ``mean``.
#[pyclass(frozen, module = "carcassonne._core")]
pub struct SearchReport {
    report: PuctReport,
    actions: Vec<Py<PyAny>>,
    /// Each token's share of the visits (of the actions whose tokens include it).
    token_visits: Vec<f32>,
}

/// A Python function as the search's evaluation (see `PuctSearch`).
struct PyEvaluation<'a, 'py> {
    py: Python<'py>,
    function: &'a Bound<'py, PyAny>,
    board_shape: [usize; 3],
    vector_len: usize,
    size: usize,
    players: usize,
}

impl PyEvaluation<'_, '_> {
    /// `obj` as a C-contiguous float32 array of `shape` (converted by numpy if it is not
    /// one already), or EvaluationError naming `what`.
    fn floats<'b>(
        &self,
        obj: &Bound<'b, PyAny>,
        what: &str,
        shapes: &[&[usize]],
    ) -> PyResult<Bound<'b, PyArrayDyn<f32>>> {
        let py = obj.py();
        let np = py.import("numpy")?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", np.getattr("float32")?)?;
        let wrong = |got: String| {
            let want = shapes
                .iter()
                .map(|s| py_shape(s))
                .collect::<Vec<_>>()
                .join(" or ");
            EvaluationError::new_err(message(format!(
                "evaluate returned {what} {got}: give an array of floats of shape {want}"
            )))
        };
        // Numbers only: numpy would read complex numbers (dropping their imaginary part
        // with a mere warning) and numeric strings as floats.
        let plain = np
            .call_method1("asarray", (obj,))
            .map_err(|e| wrong(format!("that numpy cannot read as an array ({e})")))?;
        let kind: String = plain.getattr("dtype")?.getattr("kind")?.extract()?;
        if !matches!(kind.as_str(), "b" | "i" | "u" | "f") {
            let dtype = plain.getattr("dtype")?.str()?.to_string();
            return Err(wrong(format!("of dtype {dtype}, not real numbers")));
        }
        let arr = np
            .call_method("ascontiguousarray", (plain,), Some(&kwargs))
            .map_err(|e| wrong(format!("that numpy cannot read as floats ({e})")))?;
        let arr = arr
            .cast_into::<PyArrayDyn<f32>>()
            .map_err(|e| wrong(format!("of type {}", type_name(&e.into_inner()))))?;
        if !shapes.contains(&arr.shape()) {
            return Err(wrong(format!("of shape {}", py_shape(arr.shape()))));
        }
        Ok(arr)
    }
}

/// The learned value of a `carcassonne.learn.value.LearnedValue` given as the evaluation,
/// checked for `rules` (None for anything else).
fn learned_value_of(
    evaluate: &Bound<'_, PyAny>,
    rules: &std::sync::Arc<carcassonne_core::engine::rules::Rules>,
) -> PyResult<Option<std::sync::Arc<LinearValue>>> {
    let is_value = evaluate
        .py()
        .import("carcassonne.learn.value")?
        .getattr("LearnedValue")
        .and_then(|class| evaluate.is_instance(&class))?;
    if !is_value {
        return Ok(None);
    }
    let spec = evaluate.call_method0("_spec")?;
    let spec = spec.cast::<PyTuple>()?;
    // Its weights were checked when it was made: only its rules can be wrong here.
    let (value, _) = crate::players::learned_value(spec, 1, rules, "PuctSearch").map_err(|_| {
        ActionSpaceError::new_err("evaluate is a learned value of other rules than this search's")
    })?;
    Ok(Some(std::sync::Arc::new(value)))
}

/// The learned value as a search's evaluation, answering Ctrl-C: every few hundred
/// positions it checks for a signal, and on one it stops valuing positions itself, so
/// that the search asks for a batch and `evaluate` ends it with the signal's error.
struct LearnedEvaluation<'py> {
    py: Python<'py>,
    inner: ValueEvaluation,
    calls: u32,
    interrupted: Option<PyErr>,
}

impl Evaluate for LearnedEvaluation<'_> {
    type Error = PyErr;

    fn evaluate(
        &mut self,
        _n: usize,
        _board: &[u8],
        _vector: &[f32],
        _priors: &mut [f32],
        _values: &mut [f32],
    ) -> PyResult<()> {
        match self.interrupted.take() {
            Some(e) => Err(e),
            None => Ok(()), // no row was asked for
        }
    }

    fn value_of(&mut self, game: &CoreGame) -> Option<[f32; MAX_PLAYERS]> {
        if self.interrupted.is_some() {
            return None;
        }
        self.calls = self.calls.wrapping_add(1);
        if self.calls % 256 == 0
            && let Err(e) = self.py.check_signals()
        {
            self.interrupted = Some(e);
            return None;
        }
        self.inner.value_of(game)
    }
}

impl Evaluate for PyEvaluation<'_, '_> {
    type Error = PyErr;

    fn evaluate(
        &mut self,
        n: usize,
        board: &[u8],
        vector: &[f32],
        priors: &mut [f32],
        values: &mut [f32],
    ) -> PyResult<()> {
        // Ctrl-C between two batches (within one, the function answers it itself).
        self.py.check_signals()?;
        let [c, h, w] = self.board_shape;
        let b = PyArray1::from_slice(self.py, board).reshape([n, c, h, w])?;
        let v = PyArray1::from_slice(self.py, vector).reshape([n, self.vector_len])?;
        let out = self.function.call1((b, v))?;
        let pair = out
            .cast::<PyTuple>()
            .ok()
            .filter(|t| t.len() == 2)
            .ok_or_else(|| {
                EvaluationError::new_err(message(format!(
                    "evaluate returned {}: give a tuple (priors, values)",
                    type_name(&out)
                )))
            })?;
        let p = self.floats(&pair.get_item(0)?, "priors", &[&[n, self.size]])?;
        priors.copy_from_slice(p.readonly().as_slice()?);
        let two = [n];
        let full = [n, self.players];
        let shapes: &[&[usize]] = if self.players == 2 {
            &[&full, &two]
        } else {
            &[&full]
        };
        let v = self.floats(&pair.get_item(1)?, "values", shapes)?;
        let v = v.readonly();
        let v = v.as_slice()?;
        if v.len() == n && self.players == 2 {
            for (row, &x) in v.iter().enumerate() {
                values[2 * row] = x;
                values[2 * row + 1] = -x;
            }
        } else {
            values.copy_from_slice(v);
        }
        Ok(())
    }
}

#[pymethods]
impl PuctSearch {
    /// A search of `simulations` per move (the root's evaluation included, 1 to
    /// 1,000,000), `batch` positions per call of the evaluation (1 to 1,024), exploration
    /// `exploration` (AlphaZero's c_puct, 0 to 100), its random stream from `seed`; the
    /// observations over `space`'s window (default: the rules' `action_space`). Raises
    /// ValueError for settings out of range, ActionSpaceError for a space of other rules.
    #[new]
    #[pyo3(signature = (rules, simulations=Int::of(200), batch=Int::of(8), exploration=1.25, seed=Int::of(0), space=None))]
    #[pyo3(
        text_signature = "(rules, simulations=200, batch=8, exploration=1.25, seed=0, space=None)"
    )]
    fn new(
        rules: PyRef<'_, Rules>,
        simulations: Int,
        batch: Int,
        exploration: f64,
        seed: Int,
        space: Option<PyRef<'_, ActionSpace>>,
    ) -> PyResult<Self> {
        let value_err = |m: String| pyo3::exceptions::PyValueError::new_err(m);
        let simulations =
            simulations.within("simulations", 1, MAX_SIMULATIONS as i128, value_err)?;
        let batch = batch.within("batch", 1, MAX_BATCH as i128, value_err)?;
        let seed: u64 = seed.within("seed", 0, u64::MAX as i128, value_err)?;
        let puct = Puct::new(simulations, batch, exploration).map_err(|_| {
            value_err(format!(
                "exploration {exploration}: give a finite number from 0 to {MAX_EXPLORATION}"
            ))
        })?;
        let ObservationSpace { layout, rules, .. } = ObservationSpace::new(rules, space)?;
        Ok(PuctSearch {
            puct,
            rules,
            layout,
            state: Exclusive::new((PuctTree::default(), Rng::for_game(seed, 0))),
        })
    }

    /// Simulations per search (the root's evaluation included).
    #[getter]
    fn simulations(&self) -> u32 {
        self.puct.simulations
    }

    /// The most positions per call of the evaluation.
    #[getter]
    fn batch(&self) -> u32 {
        self.puct.batch
    }

    /// The exploration constant (AlphaZero's c_puct).
    #[getter]
    fn exploration(&self) -> f64 {
        self.puct.exploration
    }

    /// The tokens the evaluation's priors are laid out in.
    #[getter]
    fn action_space(&self) -> ActionSpace {
        ActionSpace {
            inner: self.layout.space().clone(),
            rules: self.rules.clone(),
        }
    }

    /// The observations the evaluation is given.
    #[getter]
    fn observation_space(&self) -> ObservationSpace {
        ObservationSpace::of_layout(self.layout.clone(), self.rules.clone())
    }

    /// Searches ``game`` (left unchanged) with ``evaluate``, drawing from the search's random
    /// stream (or, with ``seed``, from that seed's, the stream left as it was): the same
    /// evaluation and seed give the same report. Raises GameOverError for a finished
    /// game, ActionSpaceError for a game (or a learned value) of other rules,
    /// EvaluationError when ``evaluate`` returns something else than the class describes
    /// (naming the batch row), and lets whatever ``evaluate`` raises through
    /// (KeyboardInterrupt included).
    #[pyo3(signature = (game, evaluate, seed=None))]
    fn search(
        &self,
        py: Python<'_>,
        game: &Bound<'_, Game>,
        evaluate: Bound<'_, PyAny>,
        seed: Option<Int>,
    ) -> PyResult<SearchReport> {
        // A copy: the game is not held while `evaluate` runs Python code.
        let game = game.try_borrow()?.inner.clone();
        if !same_rules(game.rules(), &self.rules) {
            return Err(ActionSpaceError::new_err(
                "the game is of other rules than this search's",
            ));
        }
        let learned = learned_value_of(&evaluate, &self.rules)?;
        if learned.is_none() && !evaluate.is_callable() {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "evaluate must be a function (board, vector) -> (priors, values) or a \
                 carcassonne.learn.value.LearnedValue, not {}",
                type_name(&evaluate)
            )));
        }
        let mut state = self.state.take(py, "PuctSearch")?;
        let (tree, stream) = &mut *state;
        let mut own;
        let rng = match seed {
            Some(s) => {
                let s: u64 = s.within("seed", 0, u64::MAX as i128, |m| {
                    pyo3::exceptions::PyValueError::new_err(m)
                })?;
                own = Rng::for_game(s, 0);
                &mut own
            }
            None => stream,
        };
        let (c, w) = (self.layout.planes().len(), self.layout.window() as usize);
        let searched = match learned {
            Some(value) => {
                let mut eval = LearnedEvaluation {
                    py,
                    inner: ValueEvaluation::new(value),
                    calls: 0,
                    interrupted: None,
                };
                self.puct.search(&game, &self.layout, &mut eval, rng, tree)
            }
            None => {
                let mut eval = PyEvaluation {
                    py,
                    function: &evaluate,
                    board_shape: [c, w, w],
                    vector_len: self.layout.vector_len(),
                    size: self.layout.space().size() as usize,
                    players: self.rules.players(),
                };
                self.puct.search(&game, &self.layout, &mut eval, rng, tree)
            }
        };
        let report = searched.map_err(|e| match e {
            SearchError::Evaluation(e) => e,
            SearchError::GameOver => GameOverError::new_err(message(&e)),
            other => EvaluationError::new_err(message(other)),
        })?;
        let actions = report
            .actions
            .iter()
            .map(|a| action_to_py(py, a.action))
            .collect::<PyResult<Vec<_>>>()?;
        let space = self.layout.space();
        let mut token_visits = vec![0f32; space.size() as usize];
        let total: u32 = report.actions.iter().map(|a| a.visits).sum();
        // A root that has outgrown the window has no tokens: its shares stay 0.
        if let Ok(window) = space.window_rule().window_of(&game, space.window()) {
            for a in report.actions.iter().filter(|a| a.visits > 0) {
                // Cannot fail: a legal action fits its position's window.
                let tokens =
                    codec::encode_in(space, &window, a.action).map_err(crate::learn::codec_err)?;
                for &t in tokens.as_slice() {
                    token_visits[t as usize] += a.visits as f32 / total.max(1) as f32;
                }
            }
        }
        Ok(SearchReport {
            report,
            actions,
            token_visits,
        })
    }

    /// The action ``search`` visits most (among equals the one of higher mean value, then
    /// the first legal); a game with one legal action is not searched.
    #[pyo3(signature = (game, evaluate, seed=None))]
    fn choose(
        &self,
        py: Python<'_>,
        game: &Bound<'_, Game>,
        evaluate: Bound<'_, PyAny>,
        seed: Option<Int>,
    ) -> PyResult<Py<PyAny>> {
        let legal = game.try_borrow()?.inner.legal_actions();
        if let [only] = legal[..] {
            return action_to_py(py, only);
        }
        let report = self.search(py, game, evaluate, seed)?;
        // Cannot fail: a game that is not over has a legal action.
        let best = report.report.best().expect("a legal action");
        action_to_py(py, best)
    }

    fn __repr__(&self) -> String {
        format!(
            "PuctSearch(simulations={}, batch={}, exploration={})",
            self.puct.simulations, self.puct.batch, self.puct.exploration
        )
    }
}

#[pymethods]
impl SearchReport {
    /// The legal actions, in ``Game.legal_actions()`` order.
    #[getter]
    fn actions(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.actions.iter().map(|a| a.clone_ref(py)).collect()
    }

    /// Simulations through each action (int64).
    #[getter]
    fn visits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let v: Vec<i64> = self
            .report
            .actions
            .iter()
            .map(|a| a.visits as i64)
            .collect();
        PyArray1::from_vec(py, v)
    }

    /// Each action's mean value for the decider (float32, -1 to 1; 0 if never visited).
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let v: Vec<f32> = self.report.actions.iter().map(|a| a.value).collect();
        PyArray1::from_vec(py, v)
    }

    /// Each action's prior from the root's evaluation (float32, summing to 1).
    #[getter]
    fn priors<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let v: Vec<f32> = self.report.actions.iter().map(|a| a.prior).collect();
        PyArray1::from_vec(py, v)
    }

    /// Each token's share of the visits: the visits of the actions whose tokens include
    /// it, over all visits (float32 of ``action_space.size``): a training target for the
    /// priors (decisions' tokens sum to 1; so do placements' square-and-rotation tokens,
    /// and their meeple tokens). All 0 for a position that has outgrown the window (its
    /// actions then have equal priors, and the search goes on without the evaluation's
    /// view of it).
    #[getter]
    fn token_visits<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_slice(py, &self.token_visits)
    }

    /// The evaluation's value of the position for the decider.
    #[getter]
    fn value(&self) -> f32 {
        self.report.value
    }

    /// The mean value for the decider over all simulations.
    #[getter]
    fn mean(&self) -> f32 {
        self.report.mean
    }

    /// The action visited most (among equals the one of higher mean value, then the
    /// first legal).
    #[getter]
    fn best(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let best = self.report.best().expect("a legal action");
        action_to_py(py, best)
    }

    fn __repr__(&self) -> String {
        let visits: u32 = self.report.actions.iter().map(|a| a.visits).sum();
        format!(
            "<SearchReport actions={} visits={} value={:.3} mean={:.3}>",
            self.report.actions.len(),
            visits,
            self.report.value,
            self.report.mean
        )
    }
}
