//! Whole games in parallel, results as columns.
//!
//! Game `i` of a study uses the random stream `(seed, first_game + i)` for both its tile
//! order and its players' choices, so every game's result is the same whatever the thread
//! count or the way a study is split into batches.

use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::game::Game;
use crate::policy::Policy;
use crate::rng::Rng;
use crate::rules::{MAX_PLAYERS, Rules};
use crate::scoring::SCORE_KINDS;

/// Per-game results, flattened row-major (`games × players`, `games × players × kinds`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    pub games: usize,
    pub players: usize,
    pub scores: Vec<i32>,
    pub winners: Vec<bool>,
    pub turns: Vec<u32>,
    pub points_by_kind: Vec<i32>,
    pub discarded: Vec<u32>,
    /// South Seas (`games × players`; zero in classic games): ships taken, wares left.
    pub ships: Vec<u32>,
    pub wares_left: Vec<u32>,
}

#[derive(Clone, Copy)]
struct Summary {
    scores: [i32; MAX_PLAYERS],
    winners: u8,
    turns: u32,
    by_kind: [[i32; SCORE_KINDS]; MAX_PLAYERS],
    discarded: u32,
    ships: [u32; MAX_PLAYERS],
    wares_left: [u32; MAX_PLAYERS],
}

/// Plays one whole game into `game`, reusing its buffers.
pub fn play_game(
    game: &mut Game,
    rng: &mut Rng,
    policy: Policy,
    buf: &mut Vec<crate::game::Placement>,
) {
    game.reset_shuffled(rng);
    while !game.is_over() {
        policy.play(game, rng, buf);
    }
}

fn summarize(game: &Game) -> Summary {
    let mut s = Summary {
        scores: [0; MAX_PLAYERS],
        winners: game.winners(),
        turns: game.turn(),
        by_kind: [[0; SCORE_KINDS]; MAX_PLAYERS],
        discarded: game.discarded().len() as u32,
        ships: [0; MAX_PLAYERS],
        wares_left: [0; MAX_PLAYERS],
    };
    for (p, v) in game.scores().iter().enumerate() {
        s.scores[p] = *v;
        s.by_kind[p] = *game.points_by_kind(p);
        s.wares_left[p] = game.wares(p).iter().sum();
    }
    for (p, _) in &game.sea().taken {
        s.ships[*p as usize] += 1;
    }
    s
}

/// The number of threads to use when the caller does not say: `CARCASSONNE_MAX_THREADS`,
/// then `RAYON_NUM_THREADS`, then `OMP_NUM_THREADS` (which Dask, Ray and joblib set for
/// their workers), then the machine's parallelism.
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
            return n;
        }
    }
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Thread pools by size, built once: callers choose the size per call, so the global
/// rayon pool (sized by the environment) is never used.
type PoolCache = Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>>;

fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
    static POOLS: OnceLock<PoolCache> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Arc::clone(p);
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool"),
    );
    pools.push((threads, Arc::clone(&p)));
    p
}

/// Plays games `first_game .. first_game + games` of the study `seed`.
pub fn simulate(
    rules: &Arc<Rules>,
    games: usize,
    first_game: u64,
    seed: u64,
    policy: Policy,
    threads: Option<usize>,
) -> Columns {
    let threads = threads.unwrap_or_else(default_threads).max(1);
    let run = || -> Vec<Summary> {
        (0..games)
            .into_par_iter()
            .with_min_len(64)
            .map_init(
                || {
                    let mut g = Game::new(Arc::clone(rules), Vec::new());
                    g.set_record_events(false);
                    (g, Vec::new())
                },
                |(game, buf), i| {
                    let mut rng = Rng::for_game(seed, first_game + i as u64);
                    play_game(game, &mut rng, policy, buf);
                    summarize(game)
                },
            )
            .collect()
    };
    let summaries = if threads == 1 {
        pool(1).install(run)
    } else {
        pool(threads).install(run)
    };
    let players = rules.players();
    let mut out = Columns {
        games,
        players,
        scores: Vec::with_capacity(games * players),
        winners: Vec::with_capacity(games * players),
        turns: Vec::with_capacity(games),
        points_by_kind: Vec::with_capacity(games * players * SCORE_KINDS),
        discarded: Vec::with_capacity(games),
        ships: Vec::with_capacity(games * players),
        wares_left: Vec::with_capacity(games * players),
    };
    for s in &summaries {
        for p in 0..players {
            out.scores.push(s.scores[p]);
            out.winners.push(s.winners & (1 << p) != 0);
            out.points_by_kind.extend_from_slice(&s.by_kind[p]);
            out.ships.push(s.ships[p]);
            out.wares_left.push(s.wares_left[p]);
        }
        out.turns.push(s.turns);
        out.discarded.push(s.discarded);
    }
    out
}
