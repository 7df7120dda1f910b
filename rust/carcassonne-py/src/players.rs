//! Players from Python: the lineup a study is given (names, settings objects or Python
//! functions, one for every seat or one per seat), and a Python function as a `Player`.

use std::sync::{Arc, Mutex};

use pyo3::create_exception;
use pyo3::prelude::*;

use carcassonne_core::engine::game::Game as CoreGame;
use carcassonne_core::engine::rules::{Rules as CoreRules, RulesSpec};
use carcassonne_core::learn::value::{Expectimax, Learned, LearnedSearch, LinearValue};
use carcassonne_core::play::action::Action;
use carcassonne_core::play::players::mcts::{MAX_TIME, Mcts};
use carcassonne_core::play::players::policy::greedy_randomness::RandomizedGreedy;
use carcassonne_core::play::players::{
    Lineup, Player, PlayerError as CorePlayerError, Policy, Scratch,
};
use carcassonne_core::quote::quote;
use carcassonne_core::rng::Rng;

use crate::actions::action_of;
use crate::interrupt::{Asked, Host};
use crate::{CarcassonneError, Game, type_name};

create_exception!(
    _core,
    PlayerError,
    CarcassonneError,
    "A player that cannot take a seat (unknown name, bad settings, wrong number of\n\
     seats) or that failed during a game (chose an illegal action, raised, returned\n\
     something that is not an action); names the game, the seat and the fault. The\n\
     exception a Python player raised is its ``__cause__``."
);

/// A Python function `f(game) -> Move | Decision` as a player. It is called with the
/// GIL held, once per action, on a determinized copy of the game (so it cannot read the
/// hidden order of the tiles, ships or Friday tiles): slow, for research, not bulk work.
/// Within a long call it is called on the caller's thread (`interrupt`), where Ctrl-C
/// reaches it.
#[derive(Debug)]
pub struct PythonPlayer {
    function: Py<PyAny>,
    name: String,
    /// The exception the function raised, kept to be chained to the study's error.
    raised: Mutex<Option<PyErr>>,
    /// Where to send the question during an `interruptible` call.
    pub host: Host,
}

impl PythonPlayer {
    /// The first exception the function raised in this study, if any.
    pub fn take_raised(&self) -> Option<PyErr> {
        self.raised.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    /// Calls the function on `seen` (already determinized). A failure is the player's
    /// error (the exception kept for `take_raised`); `Err` is an exception that is not
    /// an `Exception` (KeyboardInterrupt, SystemExit), which ends the whole call.
    pub fn call(
        &self,
        py: Python<'_>,
        seen: CoreGame,
    ) -> PyResult<Result<Action, CorePlayerError>> {
        let seen = match Py::new(py, Game { inner: seen }) {
            Ok(seen) => seen,
            Err(e) => return Ok(Err(CorePlayerError::Failed(e.to_string()))),
        };
        match self.function.bind(py).call1((seen,)) {
            Ok(answer) => Ok(action_of(&answer).ok_or_else(|| {
                CorePlayerError::Failed(format!(
                    "returned {}, not a Move or a Decision",
                    type_name(&answer)
                ))
            })),
            Err(e) if !e.is_instance_of::<pyo3::exceptions::PyException>(py) => Err(e),
            Err(e) => {
                let why = format!("raised {e}");
                let mut kept = self.raised.lock().unwrap_or_else(|e| e.into_inner());
                kept.get_or_insert(e);
                Ok(Err(CorePlayerError::Failed(why)))
            }
        }
    }
}

impl Asked for PythonPlayer {
    fn host(&self) -> &Host {
        &self.host
    }

    fn call(&self, py: Python<'_>, game: CoreGame) -> PyResult<Result<Action, CorePlayerError>> {
        PythonPlayer::call(self, py, game)
    }
}

impl Player for PythonPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &self,
        game: &CoreGame,
        rng: &mut Rng,
        _: &mut Scratch,
    ) -> Result<Action, CorePlayerError> {
        let mut copy = game.clone();
        copy.determinize(rng);
        // Outside a long call (never, today): call it here, on this thread.
        let copy = match self.host.ask(Box::new(copy)) {
            Ok(answer) => return answer,
            Err(copy) => *copy,
        };
        Python::attach(|py| {
            self.call(py, copy).unwrap_or_else(|e| {
                let why = format!("raised {e}");
                self.raised
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get_or_insert(e);
                Err(CorePlayerError::Failed(why))
            })
        })
    }
}

/// A lineup from Python: a list of player specifications, one for every seat or one per
/// seat. A specification is a built-in name ("random", "greedy", "mcts"), a settings
/// object of `carcassonne.players` (which describes itself as a tuple, e.g. ("mcts",
/// 1000, 0.3, None, 8) or ("greedy", 0.25)), or a Python callable.
/// Returns the lineup and the Python players in it (whose exceptions the caller chains).
pub fn lineup(
    specs: &Bound<'_, PyAny>,
    rules: &Arc<CoreRules>,
) -> PyResult<(Lineup, Vec<Arc<PythonPlayer>>)> {
    let mut seats: Vec<Arc<dyn Player>> = Vec::new();
    let mut python = Vec::new();
    for spec in specs.try_iter()? {
        let spec = spec?;
        seats.push(player(&spec, &mut python, rules)?);
    }
    let lineup =
        Lineup::new(seats, rules.players()).map_err(|e| PlayerError::new_err(e.to_string()))?;
    Ok((lineup, python))
}

/// One player from its Python specification (see `lineup`) for a game of `rules`; the
/// Python players among them are added to `python`.
pub fn player(
    spec: &Bound<'_, PyAny>,
    python: &mut Vec<Arc<PythonPlayer>>,
    rules: &Arc<CoreRules>,
) -> PyResult<Arc<dyn Player>> {
    if let Ok(name) = spec.extract::<String>() {
        if name == "learned" {
            return learned(&shipped_learned(spec.py(), rules)?, rules);
        }
        if name == "learned-expectimax" {
            let shipped = shipped_learned(spec.py(), rules)?;
            let (value, value_name) = learned_value(&shipped, 1, rules, "LearnedExpectimax")?;
            return Ok(Arc::new(Expectimax {
                value: Arc::new(value),
                value_name,
                width: DEFAULT_WIDTH,
            }));
        }
        return builtin(&name);
    }
    // A `carcassonne.players` settings object describes itself as a tuple.
    if !spec.is_callable()
        && let Ok(described) = spec.call_method0("_spec")
    {
        return player(&described, python, rules);
    }
    if let Ok(tuple) = spec.cast::<pyo3::types::PyTuple>()
        && let Ok(name) = tuple.get_item(0).and_then(|n| n.extract::<String>())
    {
        if name == "learned-search" && tuple.len() == LEARNED_SEARCH_SPEC_LEN {
            return learned_search(tuple, rules);
        }
        if name == "learned-expectimax" && tuple.len() == LEARNED_EXPECTIMAX_SPEC_LEN {
            return learned_expectimax(tuple, rules);
        }
        if name == "learned" && tuple.len() == LEARNED_SPEC_LEN {
            if tuple.get_item(1)?.is_none() {
                return learned(&shipped_learned(spec.py(), rules)?, rules);
            }
            return learned(tuple, rules);
        }
        if name == "mcts" && tuple.len() == MCTS_SPEC_LEN {
            return Ok(Arc::new(mcts(tuple)?));
        }
        if name == "greedy" && tuple.len() == GREEDY_SPEC_LEN {
            return greedy(tuple);
        }
        return builtin(&name);
    }
    if spec.is_callable() {
        let name = spec
            .getattr("__qualname__")
            .or_else(|_| spec.getattr("__name__"))
            .and_then(|n| n.extract::<String>())
            .unwrap_or_else(|_| type_name(spec));
        let p = Arc::new(PythonPlayer {
            function: spec.clone().unbind(),
            name: format!("python:{name}"),
            raised: Mutex::new(None),
            host: Host::default(),
        });
        python.push(Arc::clone(&p));
        return Ok(p);
    }
    Err(PlayerError::new_err(format!(
        "a player is a name (\"random\", \"greedy\", \"mcts\", \"learned\", \"learned-expectimax\"), a carcassonne.players object or a function game -> action, not {}",
        type_name(spec)
    )))
}

/// Items of the tuple `carcassonne.players.Learned._spec` returns.
const LEARNED_SPEC_LEN: usize = 4;

/// The learned player of `carcassonne.players.Learned`: ("learned", weights, name, the
/// JSON of the rules they were learned for).
fn learned(
    spec: &Bound<'_, pyo3::types::PyTuple>,
    rules: &Arc<CoreRules>,
) -> PyResult<Arc<dyn Player>> {
    let (value, name) = learned_value(spec, 1, rules, "Learned")?;
    Ok(Arc::new(Learned {
        value: Arc::new(value),
        name,
    }))
}

/// The learned value of a specification's items `at..at + 3` (weights, name, the JSON of
/// the rules they were learned for), the weights checked again by the core. The rules
/// must be `rules` but for the number of players (the value compares each seat with the
/// mean of the others, whatever their number).
pub(crate) fn learned_value(
    spec: &Bound<'_, pyo3::types::PyTuple>,
    at: usize,
    rules: &Arc<CoreRules>,
    what: &str,
) -> PyResult<(LinearValue, String)> {
    let bad = |why: &str| PlayerError::new_err(format!("{what} settings: {why}"));
    let weights: Vec<f32> = spec
        .get_item(at)?
        .extract()
        .map_err(|_| bad("weights must be a sequence of numbers"))?;
    let name: String = spec
        .get_item(at + 1)?
        .extract()
        .map_err(|_| bad("name must be a string"))?;
    let learned_for: String = spec
        .get_item(at + 2)?
        .extract()
        .map_err(|_| bad("the rules must be a JSON string"))?;
    let mut learned_for: RulesSpec = serde_json::from_str(&learned_for)
        .map_err(|e| bad(&format!("the rules are not valid rules JSON: {e}")))?;
    learned_for.players = rules.spec.players;
    if learned_for != rules.spec {
        return Err(PlayerError::new_err(format!(
            "{name}: its weights were learned for other rules than this game's; load or train \
             weights for these rules (carcassonne.learn.value)"
        )));
    }
    let value = LinearValue::new(weights).map_err(|e| bad(&e.to_string()))?;
    Ok((value, name))
}

/// The learned value of a specification's items `at..at + 3` (see `learned_value`), or,
/// when they are None, the one the package ships for `rules`.
fn value_or_shipped(
    spec: &Bound<'_, pyo3::types::PyTuple>,
    at: usize,
    rules: &Arc<CoreRules>,
    what: &str,
) -> PyResult<(LinearValue, String)> {
    if spec.get_item(at)?.is_none() {
        learned_value(&shipped_learned(spec.py(), rules)?, 1, rules, what)
    } else {
        learned_value(spec, at, rules, what)
    }
}

/// Items of the tuple `carcassonne.players.LearnedSearch._spec` returns.
const LEARNED_SEARCH_SPEC_LEN: usize = 8;

/// Most prior visits a `LearnedSearch` child may start with.
const MAX_PRIOR: u32 = 1000;

/// The search of `carcassonne.players.LearnedSearch`: ("learned-search", playouts,
/// exploration, seconds or None, prior visits, then the learned value's weights, name and
/// rules, or three None for the package's own).
fn learned_search(
    spec: &Bound<'_, pyo3::types::PyTuple>,
    rules: &Arc<CoreRules>,
) -> PyResult<Arc<dyn Player>> {
    // The search's budget and exploration; its leaves are judged, so no cut-off.
    let mcts = mcts_items(spec, false, "LearnedSearch")?;
    let prior: u32 = spec
        .get_item(4)?
        .extract()
        .ok()
        .filter(|p| *p <= MAX_PRIOR)
        .ok_or_else(|| {
            PlayerError::new_err(format!(
                "LearnedSearch settings: prior must be an integer from 0 to {MAX_PRIOR}"
            ))
        })?;
    let (value, value_name) = value_or_shipped(spec, 5, rules, "LearnedSearch")?;
    Ok(Arc::new(LearnedSearch {
        mcts,
        value: Arc::new(value),
        value_name,
        prior,
    }))
}

/// Items of the tuple `carcassonne.players.LearnedExpectimax._spec` returns.
const LEARNED_EXPECTIMAX_SPEC_LEN: usize = 5;

/// Most actions a `LearnedExpectimax` looks ahead at.
const MAX_WIDTH: u32 = 1000;

/// The width of "learned-expectimax" (`LearnedExpectimax()`'s default).
const DEFAULT_WIDTH: u32 = 8;

/// The look-ahead of `carcassonne.players.LearnedExpectimax`: ("learned-expectimax",
/// width, then the learned value's weights, name and rules, or three None for the
/// package's own).
fn learned_expectimax(
    spec: &Bound<'_, pyo3::types::PyTuple>,
    rules: &Arc<CoreRules>,
) -> PyResult<Arc<dyn Player>> {
    let width: u32 = spec
        .get_item(1)?
        .extract()
        .ok()
        .filter(|w| (1..=MAX_WIDTH).contains(w))
        .ok_or_else(|| {
            PlayerError::new_err(format!(
                "LearnedExpectimax settings: width must be an integer from 1 to {MAX_WIDTH}"
            ))
        })?;
    let (value, value_name) = value_or_shipped(spec, 2, rules, "LearnedExpectimax")?;
    Ok(Arc::new(Expectimax {
        value: Arc::new(value),
        value_name,
        width,
    }))
}

/// The specification of the learned player the package ships for `rules`
/// (`carcassonne.learn.value.shipped_spec`), or its error for rules it has none for.
fn shipped_learned<'py>(
    py: Python<'py>,
    rules: &Arc<CoreRules>,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let rules = Py::new(
        py,
        crate::Rules {
            inner: Arc::clone(rules),
        },
    )?;
    let spec = py
        .import("carcassonne.learn.value")?
        .call_method1("shipped_spec", (rules,))?;
    Ok(spec.cast_into::<pyo3::types::PyTuple>()?)
}

fn builtin(name: &str) -> PyResult<Arc<dyn Player>> {
    if name == "mcts" {
        return Ok(Arc::new(Mcts::default()));
    }
    match Policy::parse(name) {
        Some(p) => Ok(Arc::new(p)),
        None => Err(PlayerError::new_err(format!(
            "unknown player {}: use \"random\", \"greedy\", \"mcts\", \"learned\", \"learned-expectimax\", a carcassonne.players object or a function",
            quote(name)
        ))),
    }
}

/// MCTS settings from "mcts" or a `carcassonne.players.MCTS`; PlayerError for anything
/// else.
pub fn mcts_settings(spec: &Bound<'_, PyAny>) -> PyResult<Mcts> {
    if spec.extract::<String>().is_ok_and(|n| n == "mcts") {
        return Ok(Mcts::default());
    }
    let described = spec.call_method0("_spec").ok();
    if let Some(tuple) = described
        .as_ref()
        .and_then(|d| d.cast::<pyo3::types::PyTuple>().ok())
        && tuple.len() == MCTS_SPEC_LEN
        && tuple
            .get_item(0)
            .and_then(|n| n.extract::<String>())
            .is_ok_and(|n| n == "mcts")
    {
        return mcts(tuple);
    }
    Err(PlayerError::new_err(format!(
        "analyse searches with MCTS: give \"mcts\" or a carcassonne.players.MCTS, not {}",
        type_name(spec)
    )))
}

/// Items of the tuple `carcassonne.players.Greedy._spec` returns.
const GREEDY_SPEC_LEN: usize = 2;

/// The greedy player from `carcassonne.players.Greedy`: ("greedy", randomness), checked
/// again by the core. Randomness 0 is the built-in greedy policy itself.
fn greedy(spec: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<Arc<dyn Player>> {
    let bad = |what: &str| PlayerError::new_err(format!("Greedy settings: {what}"));
    let randomness: f64 = spec
        .get_item(1)?
        .extract()
        .map_err(|_| bad("randomness must be a number from 0 to 1"))?;
    let player = RandomizedGreedy::new(randomness).map_err(|e| bad(&e.to_string()))?;
    Ok(match player.as_policy() {
        Some(Policy::Greedy) => Arc::new(Policy::Greedy),
        _ => Arc::new(player),
    })
}

/// Items of the tuple `carcassonne.players.MCTS._spec` returns.
const MCTS_SPEC_LEN: usize = 5;

/// MCTS settings from `carcassonne.players.MCTS`: ("mcts", playouts, exploration,
/// seconds or None, cutoff or None), checked again by the core.
pub fn mcts(spec: &Bound<'_, pyo3::types::PyTuple>) -> PyResult<Mcts> {
    mcts_items(spec, true, "MCTS")
}

/// MCTS settings from a specification's items 1 to 3 (playouts, exploration, seconds or
/// None) and, `with_cutoff`, 4 (cutoff or None), checked again by the core; errors
/// name `what`'s settings.
fn mcts_items(
    spec: &Bound<'_, pyo3::types::PyTuple>,
    with_cutoff: bool,
    what: &str,
) -> PyResult<Mcts> {
    let bad = |why: &str| PlayerError::new_err(format!("{what} settings: {why}"));
    let playouts: u32 = spec
        .get_item(1)?
        .extract()
        .map_err(|_| bad("playouts must be an integer from 1 to 10000000"))?;
    let exploration: f64 = spec
        .get_item(2)?
        .extract()
        .map_err(|_| bad("exploration must be a number"))?;
    let seconds: Option<f64> = spec
        .get_item(3)?
        .extract()
        .map_err(|_| bad("seconds must be a number or None"))?;
    let time = match seconds {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 && s <= MAX_TIME.as_secs_f64() => {
            Some(std::time::Duration::from_secs_f64(s))
        }
        Some(s) => {
            return Err(bad(&format!(
                "seconds must be above 0 and at most {}, got {s}",
                MAX_TIME.as_secs()
            )));
        }
    };
    let cutoff: Option<u32> = if with_cutoff {
        spec.get_item(4)?
            .extract()
            .map_err(|_| bad("cutoff must be a whole number of tiles or None"))?
    } else {
        None
    };
    Mcts::new(playouts, time, exploration, cutoff).map_err(|e| bad(&e.to_string()))
}
