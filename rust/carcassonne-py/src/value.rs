//! The learned evaluation from Python: each seat's value of a game, and a run of its
//! TD(lambda) self-play training. The weights files (their versions, checksums and
//! checks) are the Python package's (`carcassonne.learn.value`); these functions take the
//! weights as numbers and check them again (`LinearValue::new`).

use pyo3::prelude::*;

use carcassonne_core::learn::value::{FactsScratch, LinearValue, Td, Training, WEIGHTS};
use carcassonne_core::play::simulate::{SimulateError, max_threads};

use crate::{Game, Rules, RulesError};

/// The checked value of `weights`, or `ValueError` naming what is wrong.
pub(crate) fn linear_value(weights: Vec<f32>) -> PyResult<LinearValue> {
    LinearValue::new(weights)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("learned weights: {e}")))
}

/// ``learned_values(game, weights)``: the value of ``game`` for each seat, from -1 (a
/// sure loss) to 1 (a sure win); the outcome itself once the game is over.
#[pyfunction]
pub fn learned_values(game: PyRef<'_, Game>, weights: Vec<f32>) -> PyResult<Vec<f32>> {
    let value = linear_value(weights)?;
    let game = &game.inner;
    let mut s = FactsScratch::default();
    let mut x = vec![0.0; WEIGHTS];
    Ok((0..game.rules().players())
        .map(|seat| value.value(game, seat, &mut s, &mut x))
        .collect())
}

/// ``train_value(rules, weights, played, games, seed, alpha, lambda_, epsilon, decay,
/// threads)``: plays ``games`` more self-play games of a training of ``seed`` that has
/// played ``played`` (from ``weights``; ``None``: the untrained value, the virtual-score
/// lead alone), on every thread with the GIL released, and returns the new weights. Ctrl-C raises ``KeyboardInterrupt`` (the caller keeps its last
/// checkpoint); the settings are checked by the caller (``carcassonne.learn.training``).
#[pyfunction]
#[pyo3(signature = (rules, weights, played, games, seed, alpha, lambda_, epsilon, decay, threads=None))]
#[allow(clippy::too_many_arguments)]
pub fn train_value(
    py: Python<'_>,
    rules: PyRef<'_, Rules>,
    weights: Option<Vec<f32>>,
    played: u64,
    games: u64,
    seed: u64,
    alpha: f32,
    lambda_: f32,
    epsilon: f64,
    decay: u64,
    threads: Option<usize>,
) -> PyResult<Vec<f32>> {
    let threads = threads.unwrap_or_else(max_threads);
    if !(1..=max_threads()).contains(&threads) {
        return Err(RulesError::new_err(format!(
            "threads must be between 1 and {}, got {threads}",
            max_threads()
        )));
    }
    let mut training = Training {
        value: match weights {
            Some(weights) => linear_value(weights)?,
            None => LinearValue::default(),
        },
        td: Td {
            alpha,
            lambda: lambda_,
            epsilon,
            decay,
        },
        seed,
        games: played,
    };
    let rules = std::sync::Arc::clone(&rules.inner);
    let none: &[std::sync::Arc<crate::players::PythonPlayer>] = &[];
    let ran = crate::interrupt::interruptible(py, none, |stop| {
        training.run(&rules, games, threads, stop, |_| {})
    })?;
    match ran {
        Ok(()) => Ok(training.value.weights),
        Err(SimulateError::Interrupted) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(())),
        Err(e) => Err(RulesError::new_err(e.to_string())),
    }
}
