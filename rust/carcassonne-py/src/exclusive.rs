//! The state of a Python object that calls change with the GIL released, or while they
//! call back into Python (`VectorEnv`, `PuctSearch`, `ObservationSpace`): PyO3's own
//! borrow flag would refuse a second thread's call with "Already borrowed" while the
//! first one works. Here the state sits behind a lock that a call takes for as long as
//! it works on it: a call from another thread waits for it (with the GIL released and
//! Ctrl-C answered), a call from the thread that holds it (from inside a callback the
//! object made) is refused with `BusyError`, which names the object.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use pyo3::prelude::*;

use crate::BusyError;

/// How long a waiting call sleeps between two looks at the lock.
const WAIT: Duration = Duration::from_micros(200);

/// A number for each thread, never 0 (`holder` 0: nobody).
fn this_thread() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    thread_local!(static ME: u64 = NEXT.fetch_add(1, Ordering::Relaxed));
    ME.with(|me| *me)
}

/// State `T` taken by one call at a time (see the module documentation).
pub(crate) struct Exclusive<T> {
    state: Mutex<T>,
    /// The thread holding `state` (0: none): set after the lock is taken, cleared
    /// before it is released.
    holder: AtomicU64,
}

/// `Exclusive`'s state while a call holds it.
pub(crate) struct Held<'a, T> {
    guard: MutexGuard<'a, T>,
    holder: &'a AtomicU64,
}

impl<T> std::ops::Deref for Held<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.guard
    }
}

impl<T> std::ops::DerefMut for Held<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

impl<T> Drop for Held<'_, T> {
    fn drop(&mut self) {
        // Before the guard's own drop releases the lock.
        self.holder.store(0, Ordering::Release);
    }
}

impl<T: Send> Exclusive<T> {
    pub(crate) fn new(state: T) -> Self {
        Exclusive {
            state: Mutex::new(state),
            holder: AtomicU64::new(0),
        }
    }

    /// The state, once no other call holds it: waits for another thread's call (the GIL
    /// released, signal handlers run: Ctrl-C raises KeyboardInterrupt); refuses with
    /// BusyError a call made while this thread holds it, naming `what` is busy.
    pub(crate) fn take(&self, py: Python<'_>, what: &str) -> PyResult<Held<'_, T>> {
        let me = this_thread();
        loop {
            let guard = match self.state.try_lock() {
                Ok(guard) => guard,
                // A panic in an earlier call (raised in Python as PanicException): the
                // state is whole between two calls, so it is used as it is.
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => {
                    if self.holder.load(Ordering::Acquire) == me {
                        return Err(BusyError::new_err(format!(
                            "this {what} is busy: it was called from inside one of its own calls (a callback it made), which is not finished; use another {what}"
                        )));
                    }
                    py.detach(|| std::thread::sleep(WAIT));
                    py.check_signals()?;
                    continue;
                }
            };
            self.holder.store(me, Ordering::Release);
            return Ok(Held {
                guard,
                holder: &self.holder,
            });
        }
    }
}
