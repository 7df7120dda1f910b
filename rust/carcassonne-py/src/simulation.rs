//! Batch self-play from Python: studies run in Rust with the GIL released, and stop at
//! once when Python has a signal to handle (Ctrl-C; see `interrupt`).

use std::sync::Arc;

use carcassonne_core::engine::scoring::SCORE_KINDS;
use carcassonne_core::play::players::{Lineup, Policy, Stop};
use carcassonne_core::play::simulate::{MAX_THREADS_PER_CORE, SimulateError, Study, max_threads};
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{Int, U64_MAX};
use crate::players::{PlayerError, PythonPlayer, lineup};
use crate::{Game, Rules, RulesError};

/// A checked study and the Python players in its lineup (whose exceptions are chained to
/// the study's error).
struct Checked {
    study: Study,
    python: Vec<Arc<PythonPlayer>>,
}

impl Checked {
    /// The study's error as a Python exception: a player's failure is a PlayerError
    /// naming the game and seat, with the exception a Python player raised as its cause.
    fn error(&self, py: Python<'_>, e: SimulateError) -> PyErr {
        match e {
            SimulateError::Player { .. } | SimulateError::Seats(_) => {
                let err = PlayerError::new_err(e.to_string());
                if let Some(cause) = self.python.iter().find_map(|p| p.take_raised()) {
                    err.set_cause(py, Some(cause));
                }
                err
            }
            e => RulesError::new_err(e.to_string()),
        }
    }
}

/// Checks the arguments of a study (the same for every batch function).
fn study(
    rules: &Rules,
    games: Int,
    seed: Int,
    first_game: Int,
    policy: &str,
    players: Option<&Bound<'_, PyAny>>,
    threads: Option<Int>,
) -> PyResult<Checked> {
    let games: u64 = games.within("games", 0, U64_MAX, RulesError::new_err)?;
    let seed: u64 = seed.within("seed", 0, U64_MAX, RulesError::new_err)?;
    let first_game: u64 = first_game.within("first_game", 0, U64_MAX, RulesError::new_err)?;
    let (seats, python) = match players {
        Some(specs) => lineup(specs, &rules.inner)?,
        None => {
            let policy = Policy::parse(policy).ok_or_else(|| {
                RulesError::new_err(format!(
                    "unknown policy {}: use \"random\" or \"greedy\"",
                    carcassonne_core::quote::quote(policy)
                ))
            })?;
            (Lineup::from(policy), Vec::new())
        }
    };
    let threads = threads
        .map(|t| {
            t.value()
                .filter(|t| (1..=max_threads() as i128).contains(t))
                .map(|t| t as usize)
                .ok_or_else(|| {
                    RulesError::new_err(format!(
                        "threads must be between 1 and {} ({MAX_THREADS_PER_CORE} per core), got {}",
                        max_threads(),
                        t.describe()
                    ))
                })
        })
        .transpose()?;
    let study = Study::new(
        Arc::clone(&rules.inner),
        seed,
        first_game,
        games,
        seats,
        threads,
    )
    .map_err(|e| RulesError::new_err(e.to_string()))?;
    Ok(Checked { study, python })
}

/// Runs a study's `work` so that Ctrl-C interrupts it (`interrupt::interruptible`), with
/// the study's errors as Python exceptions.
fn interruptible<T: Send>(
    py: Python<'_>,
    checked: &Checked,
    work: impl FnOnce(&Stop) -> Result<T, SimulateError> + Send,
) -> PyResult<T> {
    crate::interrupt::interruptible(py, &checked.python, work)?.map_err(|e| checked.error(py, e))
}

/// Plays games ``first_game .. first_game + games`` of study ``seed`` in Rust, in parallel,
/// without the GIL. Returns numpy columns and the thread count.
///
/// Keys: "scores" (games, players) int32, "winners" (games, players) bool, "turns" (games,)
/// uint32, "points_by_kind" (games, players, len(SCORE_KINDS)) int32, "discarded" (games,)
/// uint32, "ships" and "wares_left" (games, players) uint32, "threads" (int), "players"
/// (the name of each seat's player). ``policy`` is "random" or "greedy" for every seat;
/// ``players`` (taking its place) one entry for every seat or one per seat, as
/// ``carcassonne.players`` makes them; ``threads`` at most ``max_threads()``. Raises
/// RulesError for bad arguments, a game range past 2**64 - 1, or results that would not
/// fit in memory (before any game is played); KeyboardInterrupt within about one game of
/// Ctrl-C.
#[pyfunction]
#[pyo3(signature = (rules, games, *, seed=Int::of(0), first_game=Int::of(0), policy="random", players=None, threads=None))]
#[pyo3(
    text_signature = "(rules, games, *, seed=0, first_game=0, policy='random', players=None, threads=None)"
)]
// The arguments are the Python signature's keywords.
#[allow(clippy::too_many_arguments)]
pub fn simulate_batch<'py>(
    py: Python<'py>,
    rules: &Rules,
    games: Int,
    seed: Int,
    first_game: Int,
    policy: &str,
    players: Option<&Bound<'py, PyAny>>,
    threads: Option<Int>,
) -> PyResult<Bound<'py, PyDict>> {
    let checked = study(rules, games, seed, first_game, policy, players, threads)?;
    let study = &checked.study;
    let cols = interruptible(py, &checked, |stop| study.columns(stop))?;
    let (g, p) = (cols.games, cols.players);
    let d = PyDict::new(py);
    d.set_item("scores", cols.scores.into_pyarray(py).reshape([g, p])?)?;
    d.set_item("winners", cols.winners.into_pyarray(py).reshape([g, p])?)?;
    d.set_item("turns", cols.turns.into_pyarray(py))?;
    d.set_item(
        "points_by_kind",
        cols.points_by_kind
            .into_pyarray(py)
            .reshape([g, p, SCORE_KINDS])?,
    )?;
    d.set_item("discarded", cols.discarded.into_pyarray(py))?;
    d.set_item("ships", cols.ships.into_pyarray(py).reshape([g, p])?)?;
    d.set_item(
        "wares_left",
        cols.wares_left.into_pyarray(py).reshape([g, p])?,
    )?;
    d.set_item("threads", study.threads)?;
    d.set_item("players", study.players.names(rules.inner.players()))?;
    Ok(d)
}

/// Plays the same games as ``simulate_batch`` keeping only exact per-seat totals, in
/// constant memory. Keys: "games", "win_share_unit" (60: a win shared by k counts 60/k),
/// "win_shares", "win_shares_squared", "scores", "scores_squared", "ships", "wares_left"
/// (lists, one int per seat), "points_by_kind" (per seat, one int per kind), "turns",
/// "discarded", "threads" (ints), "players". Errors and interruption as ``simulate_batch``.
#[pyfunction]
#[pyo3(signature = (rules, games, *, seed=Int::of(0), first_game=Int::of(0), policy="random", players=None, threads=None))]
#[pyo3(
    text_signature = "(rules, games, *, seed=0, first_game=0, policy='random', players=None, threads=None)"
)]
// The arguments are the Python signature's keywords.
#[allow(clippy::too_many_arguments)]
pub fn simulate_totals<'py>(
    py: Python<'py>,
    rules: &Rules,
    games: Int,
    seed: Int,
    first_game: Int,
    policy: &str,
    players: Option<&Bound<'py, PyAny>>,
    threads: Option<Int>,
) -> PyResult<Bound<'py, PyDict>> {
    let checked = study(rules, games, seed, first_game, policy, players, threads)?;
    let study = &checked.study;
    let t = interruptible(py, &checked, |stop| study.totals(stop))?;
    let p = t.players;
    let d = PyDict::new(py);
    d.set_item("games", t.games)?;
    d.set_item(
        "win_share_unit",
        carcassonne_core::play::summary::WIN_SHARE_UNIT,
    )?;
    d.set_item("win_shares", t.win_shares[..p].to_vec())?;
    d.set_item("win_shares_squared", t.win_shares_squared[..p].to_vec())?;
    d.set_item("scores", t.scores[..p].to_vec())?;
    d.set_item("scores_squared", t.scores_squared[..p].to_vec())?;
    d.set_item(
        "points_by_kind",
        t.points_by_kind[..p]
            .iter()
            .map(|k| k.to_vec())
            .collect::<Vec<_>>(),
    )?;
    d.set_item("ships", t.ships[..p].to_vec())?;
    d.set_item("wares_left", t.wares_left[..p].to_vec())?;
    d.set_item("turns", t.turns)?;
    d.set_item("discarded", t.discarded)?;
    d.set_item(
        "win_share_products",
        t.win_share_products[..p]
            .iter()
            .map(|row| row[..p].to_vec())
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "score_products",
        t.score_products[..p]
            .iter()
            .map(|row| row[..p].to_vec())
            .collect::<Vec<_>>(),
    )?;
    d.set_item("margins", t.margins)?;
    d.set_item("margins_squared", t.margins_squared)?;
    d.set_item("ranges", t.ranges)?;
    d.set_item("ranges_squared", t.ranges_squared)?;
    d.set_item("ties", t.ties)?;
    d.set_item("threads", study.threads)?;
    d.set_item("players", study.players.names(rules.inner.players()))?;
    Ok(d)
}

/// Plays game ``game_index`` of study ``seed`` again, exactly as ``simulate_batch``
/// played it, and returns it with its event log and record (the GIL released for built-in
/// players).
#[pyfunction]
#[pyo3(signature = (rules, *, seed=Int::of(0), game_index=Int::of(0), policy="random", players=None))]
#[pyo3(text_signature = "(rules, *, seed=0, game_index=0, policy='random', players=None)")]
pub fn replay_game(
    py: Python<'_>,
    rules: &Rules,
    seed: Int,
    game_index: Int,
    policy: &str,
    players: Option<&Bound<'_, PyAny>>,
) -> PyResult<Game> {
    // Checked here so that a bad index is named as the caller wrote it.
    let _: u64 = game_index.within("game_index", 0, U64_MAX, RulesError::new_err)?;
    // A study of the one game: the same checks and lineup as `simulate_batch`.
    let checked = study(
        rules,
        Int::of(1),
        seed,
        game_index,
        policy,
        players,
        Some(Int::of(1)),
    )?;
    let study = &checked.study;
    let inner = interruptible(py, &checked, |stop| study.replay(study.first_game, stop))?;
    Ok(Game { inner })
}

/// Raises the ``RulesError`` ``simulate_batch`` would raise for a study whose rows do not
/// fit in the memory available now (or whose range is bad); plays nothing. A study played
/// in batches (progress bars, partial results) is checked before its first batch.
#[pyfunction]
#[pyo3(signature = (rules, games, *, first_game=Int::of(0)))]
#[pyo3(text_signature = "(rules, games, *, first_game=0)")]
pub fn check_rows_fit(rules: &Rules, games: Int, first_game: Int) -> PyResult<()> {
    let checked = study(
        rules,
        games,
        Int::of(0),
        first_game,
        "random",
        None,
        Some(Int::of(1)),
    )?;
    checked
        .study
        .check_columns_fit()
        .map_err(|e| RulesError::new_err(e.to_string()))
}

/// The most threads ``simulate`` accepts on this machine: 4 per core.
#[pyfunction(name = "max_threads")]
pub fn max_threads_py() -> usize {
    max_threads()
}
