//! Whole games in parallel.
//!
//! Game `i` of a study uses the random stream `(seed, i)` for both its tile order and its
//! players' choices, so every game's result is the same whatever the thread count or the
//! way a study is split into batches.
//!
//! A study is checked before it starts (`Study::new`: the game range fits in 64 bits, the
//! thread count is bounded) and played in chunks: between chunks the results are handed
//! over in game order, and before every game a stop flag is read, so a caller can
//! interrupt a run of any length within about one game's time.

use std::fmt;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::engine::game::Game;
use crate::engine::rules::Rules;
use crate::limits::MAX_PLAYERS;
use crate::play::players::{Lineup, PlayerError, Scratch, SeatsError, Stop};
use crate::play::summary::{Columns, GameResult, Totals};
use crate::rng::Rng;

/// Threads per core a study may ask for (`max_threads`). More only adds switching and
/// memory; the bound keeps a typo (`threads=100000`) from starting a hundred thousand.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// Games played between two hand-overs of results (about 4 MB of results in flight).
const CHUNK: u64 = 1 << 14;

/// Plays one whole game into `game`, reusing its buffers: the player in the decider's
/// seat acts until the game is over. `scratch` holds one entry per seat (at least).
/// A player's error ends the game there and is returned with the seat.
pub fn play_game(
    game: &mut Game,
    rng: &mut Rng,
    players: &Lineup,
    scratch: &mut [Scratch],
) -> Result<(), (usize, PlayerError)> {
    game.reset_shuffled(rng);
    // Built-in policies only: no virtual call (about 4,000 instructions per random base
    // game otherwise, callgrind), and with one policy for every seat not even a lookup.
    if let Some(policies) = players.policies() {
        let buf = &mut scratch[0].placements;
        if players.is_uniform() {
            policies[0].run(game, rng, buf, false);
        } else {
            while !game.is_over() {
                policies[game.decider()].run(game, rng, buf, true);
            }
        }
        return Ok(());
    }
    while !game.is_over() {
        let seat = game.decider();
        // A study stops inside a game too (a search or a Python player takes long).
        if scratch[seat].stop.is_raised() {
            return Err((seat, PlayerError::Interrupted));
        }
        players
            .seat(seat)
            .play(game, rng, &mut scratch[seat])
            .map_err(|e| (seat, e))?;
    }
    Ok(())
}

/// Scratch space for every seat of a game.
pub fn seat_scratch() -> Vec<Scratch> {
    seat_scratch_stopped_by(&Stop::new())
}

/// Scratch space for every seat of a game, all of it reading `stop`.
pub fn seat_scratch_stopped_by(stop: &Stop) -> Vec<Scratch> {
    (0..MAX_PLAYERS)
        .map(|_| Scratch {
            stop: stop.clone(),
            ..Scratch::default()
        })
        .collect()
}

/// The machine's cores (1 if unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The most threads a study may use: `MAX_THREADS_PER_CORE` per core.
pub fn max_threads() -> usize {
    MAX_THREADS_PER_CORE * cores()
}

/// The number of threads to use when the caller does not say: `CARCASSONNE_MAX_THREADS`,
/// then `RAYON_NUM_THREADS`, then `OMP_NUM_THREADS` (which Dask, Ray and joblib set for
/// their workers), then the machine's cores; never more than `max_threads()`.
pub fn default_threads() -> usize {
    for var in [
        "CARCASSONNE_MAX_THREADS",
        "RAYON_NUM_THREADS",
        "OMP_NUM_THREADS",
    ] {
        if let Some(n) = std::env::var(var)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            && n > 0
        {
            return n.min(max_threads());
        }
    }
    cores().min(max_threads())
}

/// Why a study was refused or did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimulateError {
    /// The stop flag was raised (Ctrl-C); the games played so far are dropped.
    Interrupted,
    /// `first_game + games` goes past the last game index, 2**64 - 1.
    GameRange {
        first_game: u64,
        games: u64,
    },
    Threads {
        requested: usize,
        max: usize,
    },
    /// The lineup has neither one player nor one per seat.
    Seats(SeatsError),
    /// A player (`name`) could not act in game `game` (its index in the study), seat
    /// `seat`.
    Player {
        game: u64,
        seat: usize,
        name: String,
        /// Boxed: an action and its refusal are large next to the other variants.
        error: Box<PlayerError>,
    },
    /// The operating system refused to start the threads.
    ThreadPool {
        threads: usize,
        why: String,
    },
    /// The per-game results would not fit in memory (`available` when it is known), or
    /// (`available: None`) the memory for them could not be reserved.
    TooLarge {
        games: u64,
        bytes: u128,
        available: Option<u64>,
    },
}

impl fmt::Display for SimulateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimulateError::Interrupted => write!(f, "interrupted"),
            SimulateError::GameRange { first_game, games } => write!(
                f,
                "games {first_game} to {first_game} + {games} go past the last game index, 2**64 - 1"
            ),
            SimulateError::Threads { requested, max } => write!(
                f,
                "threads must be between 1 and {max} ({MAX_THREADS_PER_CORE} per core), got {requested}"
            ),
            SimulateError::Seats(e) => write!(f, "{e}"),
            SimulateError::Player {
                game,
                seat,
                name,
                error,
            } => write!(f, "game {game}, seat {seat} ({name}): {error}"),
            SimulateError::ThreadPool { threads, why } => {
                write!(f, "could not start {threads} threads: {why}")
            }
            SimulateError::TooLarge {
                games,
                bytes,
                available,
            } => {
                write!(f, "the results of {games} games need {bytes} bytes")?;
                match available {
                    Some(a) => write!(f, ", more than the {a} bytes of memory available")?,
                    None => write!(f, ", which could not be reserved")?,
                }
                write!(
                    f,
                    "; play the study in batches (first_game=0, first_game=N, ...) and join them, or keep only the summary (simulate_summary)"
                )
            }
        }
    }
}

impl std::error::Error for SimulateError {}

/// A checked study: games `first_game .. first_game + games` of seed `seed`.
#[derive(Clone, Debug)]
pub struct Study {
    pub rules: Arc<Rules>,
    pub seed: u64,
    pub first_game: u64,
    pub games: u64,
    pub players: Lineup,
    pub threads: usize,
}

impl Study {
    /// `threads: None` is `default_threads()`.
    pub fn new(
        rules: Arc<Rules>,
        seed: u64,
        first_game: u64,
        games: u64,
        players: impl Into<Lineup>,
        threads: Option<usize>,
    ) -> Result<Self, SimulateError> {
        let players: Lineup = players.into();
        players
            .check(rules.players())
            .map_err(SimulateError::Seats)?;
        // The last game played is first_game + games - 1, which must fit in 64 bits.
        if u128::from(first_game) + u128::from(games) > u128::from(u64::MAX) + 1 {
            return Err(SimulateError::GameRange { first_game, games });
        }
        let threads = match threads {
            None => default_threads(),
            Some(t) if (1..=max_threads()).contains(&t) => t,
            Some(t) => {
                return Err(SimulateError::Threads {
                    requested: t,
                    max: max_threads(),
                });
            }
        };
        Ok(Study {
            rules,
            seed,
            first_game,
            games,
            players,
            threads,
        })
    }

    /// Plays every game, handing each result to `sink` in game order (a chunk at a time,
    /// once the whole chunk is played). Returns `Interrupted` as soon as `stop` is seen
    /// (checked before every game).
    pub fn run(&self, stop: &Stop, mut sink: impl FnMut(&GameResult)) -> Result<(), SimulateError> {
        let pool = pool(self.threads)?;
        // Games of built-in policies take microseconds: at least 64 a task, so that the
        // pool's bookkeeping stays small beside them. Any other player (a search, a Python
        // function) takes milliseconds or more a game: one game a task, or a study of a
        // few such games would run on one thread while the others idle.
        let min_len = if self.players.policies().is_some() {
            64
        } else {
            1
        };
        type Outcome = Result<GameResult, (u64, usize, PlayerError)>;
        let mut results: Vec<Option<Outcome>> = Vec::new();
        let mut done = 0u64;
        while done < self.games {
            let n = CHUNK.min(self.games - done);
            // The range check in `new` keeps every index below 2**64.
            let start = self.first_game + done;
            pool.install(|| {
                (0..n as usize)
                    .into_par_iter()
                    .with_min_len(min_len)
                    .map_init(
                        || {
                            let mut g = Game::new(Arc::clone(&self.rules), Vec::new());
                            g.set_record_events(false);
                            (g, seat_scratch_stopped_by(stop))
                        },
                        |(game, scratch), i| {
                            if stop.is_raised() {
                                return None;
                            }
                            let index = start + i as u64;
                            let mut rng = Rng::for_game(self.seed, index);
                            Some(
                                play_game(game, &mut rng, &self.players, scratch)
                                    .map(|()| GameResult::of(game))
                                    .map_err(|(seat, e)| (index, seat, e)),
                            )
                        },
                    )
                    .collect_into_vec(&mut results)
            });
            if stop.is_raised() {
                return Err(SimulateError::Interrupted);
            }
            // Not stopped: every game of the chunk was played, or a player failed (the
            // first failure in game order is reported, whatever the threads did).
            for r in results.iter().flatten() {
                match r {
                    Ok(r) => sink(r),
                    Err((game, seat, error)) => {
                        return Err(SimulateError::Player {
                            game: *game,
                            seat: *seat,
                            name: self.players.seat(*seat).name(),
                            error: Box::new(error.clone()),
                        });
                    }
                }
            }
            done += n;
        }
        Ok(())
    }

    /// Game `index` of this study played again, with its event log and record: the same
    /// game `run` played (the same deck and random stream; the event log draws no random
    /// numbers, and a player's scratch carries nothing from one game to the next that
    /// changes its choices). Its record names the study's seed and the game's index.
    /// `Interrupted` if `stop` is raised before it ends.
    pub fn replay(&self, index: u64, stop: &Stop) -> Result<Game, SimulateError> {
        let mut game = Game::new(Arc::clone(&self.rules), Vec::new());
        let mut rng = Rng::for_game(self.seed, index);
        let mut scratch = seat_scratch_stopped_by(stop);
        play_game(&mut game, &mut rng, &self.players, &mut scratch).map_err(|(seat, error)| {
            if stop.is_raised() {
                return SimulateError::Interrupted;
            }
            SimulateError::Player {
                game: index,
                seat,
                name: self.players.seat(seat).name(),
                error: Box::new(error),
            }
        })?;
        game.seed = Some((self.seed, index));
        Ok(game)
    }

    /// Bytes the per-game columns of this study take.
    pub fn column_bytes(&self) -> u128 {
        u128::from(self.games) * Columns::bytes_per_game(self.rules.players()) as u128
    }

    /// Whether the per-game columns of this study fit in the memory available now
    /// (`TooLarge` if not): what `columns` checks before the first game, also for a
    /// study that is played in batches and joined.
    pub fn check_columns_fit(&self) -> Result<(), SimulateError> {
        let bytes = self.column_bytes();
        let available = available_memory();
        if bytes > isize::MAX as u128 || available.is_some_and(|a| bytes > u128::from(a)) {
            return Err(self.too_large(available));
        }
        Ok(())
    }

    fn too_large(&self, available: Option<u64>) -> SimulateError {
        SimulateError::TooLarge {
            games: self.games,
            bytes: self.column_bytes(),
            available,
        }
    }

    /// Plays the study and returns one row per game. The memory is checked and reserved
    /// before the first game: a study whose results cannot fit is refused (`TooLarge`).
    pub fn columns(&self, stop: &Stop) -> Result<Columns, SimulateError> {
        self.check_columns_fit()?;
        // Fits in usize: the bytes (at least games when games > 0) are below isize::MAX.
        let games = self.games as usize;
        let mut cols = Columns::with_capacity(games, self.rules.players())
            .map_err(|_| self.too_large(None))?;
        self.run(stop, |r| cols.push(r))?;
        Ok(cols)
    }

    /// Plays the study keeping only running totals: constant memory for any number of
    /// games.
    pub fn totals(&self, stop: &Stop) -> Result<Totals, SimulateError> {
        let mut totals = Totals::new(self.rules.players());
        self.run(stop, |r| totals.add(r))?;
        Ok(totals)
    }
}

/// Plays games `first_game .. first_game + games` of the study `seed` (no interruption).
pub fn simulate(
    rules: &Arc<Rules>,
    games: usize,
    first_game: u64,
    seed: u64,
    players: impl Into<Lineup>,
    threads: Option<usize>,
) -> Result<Columns, SimulateError> {
    Study::new(
        Arc::clone(rules),
        seed,
        first_game,
        games as u64,
        players,
        threads,
    )?
    .columns(&Stop::new())
}

/// Memory the system can give this process now, in bytes: `MemAvailable` (Linux),
/// lowered to what is left under a cgroup v2 limit; `None` where neither can be read.
pub fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let available = meminfo.as_deref().and_then(|text| {
        text.lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.trim().strip_suffix("kB"))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(|kb| kb.saturating_mul(1024))
    });
    let read = |name: &str| {
        std::fs::read_to_string(format!("/sys/fs/cgroup/{name}"))
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    // "max" (no limit) does not parse and leaves the cgroup out.
    let cgroup =
        read("memory.max").map(|max| max.saturating_sub(read("memory.current").unwrap_or(0)));
    match (available, cgroup) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    }
}

/// The one cached thread pool. Callers choose the size per call, so the global rayon
/// pool (sized by the environment) is never used; a call with another size replaces the
/// cached pool, whose threads end once the calls still using it are done, so pools never
/// pile up.
pub(crate) fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, SimulateError> {
    static POOL: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(None);
    let mut cached = POOL.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((n, p)) = cached.as_ref()
        && *n == threads
    {
        return Ok(Arc::clone(p));
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("carcassonne-{i}"))
            .build()
            .map_err(|e| SimulateError::ThreadPool {
                threads,
                why: e.to_string(),
            })?,
    );
    *cached = Some((threads, Arc::clone(&p)));
    Ok(p)
}
