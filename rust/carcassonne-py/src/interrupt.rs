//! Long calls that answer Ctrl-C at once. The work (a study, a replay, a search) runs on
//! its own thread with the GIL released; the calling thread, where Python delivers
//! signals, waits for it, runs Python's signal handlers every `SIGNAL_POLL` and calls the
//! Python players the work asks for. A Python player therefore runs on the thread that
//! receives Ctrl-C: a `time.sleep` or a long loop in it is cut short by
//! `KeyboardInterrupt` like any Python code, instead of holding the study until it
//! returns. When a handler raises, the stop flag (`Stop`) ends the work (a search polls
//! it every few hundred iterations, a study between moves), the worker is joined, so no
//! thread is left running, and the handler's exception is raised.

use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use carcassonne_core::engine::game::Game as CoreGame;
use carcassonne_core::play::action::Action;
use carcassonne_core::play::players::{PlayerError as CorePlayerError, Stop};
use pyo3::prelude::*;

/// How often the waiting thread looks for pending signals.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// What the worker tells the waiting thread.
enum Message {
    /// The work has finished (or panicked).
    Done,
    /// Python player `player` (its index in the call's list) should choose in `game`;
    /// the answer goes to `reply`.
    Ask {
        player: usize,
        game: Box<CoreGame>,
        reply: mpsc::Sender<Result<Action, CorePlayerError>>,
    },
}

/// Where a Python player sends its questions while an `interruptible` call runs: the
/// waiting thread's inbox and the player's index in it.
#[derive(Default)]
pub struct Host(Mutex<Option<(mpsc::Sender<Message>, usize)>>);

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Host")
    }
}

impl Host {
    fn set(&self, to: Option<(mpsc::Sender<Message>, usize)>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = to;
    }

    /// Asks the waiting thread for the player's choice in `game`; outside an
    /// `interruptible` call, gives `game` back (the caller then calls the function
    /// itself, with the GIL).
    pub fn ask(
        &self,
        game: Box<CoreGame>,
    ) -> Result<Result<Action, CorePlayerError>, Box<CoreGame>> {
        let host = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let Some((inbox, player)) = host else {
            return Err(game);
        };
        let (reply, answer) = mpsc::channel();
        let asked = inbox.send(Message::Ask {
            player,
            game,
            reply,
        });
        // The waiting thread drops its inbox, and every question in it, when it stops.
        Ok(match asked {
            Ok(()) => answer.recv().unwrap_or(Err(CorePlayerError::Interrupted)),
            Err(_) => Err(CorePlayerError::Interrupted),
        })
    }
}

/// A player the worker may ask to choose (a Python function: `players::PythonPlayer`),
/// called on the waiting thread. A trait, so that this module needs nothing of the
/// players module, which uses its `Host`.
pub trait Asked: Send + Sync {
    /// Where the player sends its questions.
    fn host(&self) -> &Host;
    /// The player's choice in `game`, called with the GIL; `Err` ends the whole call.
    fn call(&self, py: Python<'_>, game: CoreGame) -> PyResult<Result<Action, CorePlayerError>>;
}

/// Runs `work` as the module comment says; `python` are the Python players it may ask.
/// Returns the work's result, or the exception a signal handler (or a Python player)
/// raised to interrupt it.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    python: &[Arc<impl Asked>],
    work: impl FnOnce(&Stop) -> T + Send,
) -> PyResult<T> {
    let stop = Stop::new();
    py.detach(|| {
        std::thread::scope(|scope| {
            let (asks, inbox) = mpsc::channel();
            for (i, p) in python.iter().enumerate() {
                p.host().set(Some((asks.clone(), i)));
            }
            let worker_stop = stop.clone();
            let worker = scope.spawn(move || {
                let result = work(&worker_stop);
                // Fails only once the waiting thread has stopped listening.
                let _ = asks.send(Message::Done);
                result
            });
            let interruption = loop {
                match inbox.recv_timeout(SIGNAL_POLL) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Err(signal) = Python::attach(|py| py.check_signals()) {
                            break signal;
                        }
                    }
                    Ok(Message::Ask {
                        player,
                        game,
                        reply,
                    }) => {
                        let answer = Python::attach(|py| python[player].call(py, *game));
                        match answer {
                            Ok(answer) => {
                                // The worker waits for the answer: it cannot be gone.
                                let _ = reply.send(answer);
                            }
                            Err(signal) => break signal,
                        }
                    }
                    // Done (or Disconnected: the worker panicked, and join re-raises it).
                    Ok(Message::Done) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                        for p in python {
                            p.host().set(None);
                        }
                        return Ok(worker
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
                    }
                }
            };
            stop.raise();
            for p in python {
                p.host().set(None);
            }
            // Questions still queued, and any asked from now on, are answered
            // `Interrupted`.
            drop(inbox);
            let _ = worker.join();
            Err(interruption)
        })
    })
}
