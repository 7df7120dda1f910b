//! Random playouts from a mid-game position, as a search runs them: copy the position
//! into a reused game (`clone_from`), reshuffle what the player to move cannot know
//! (`determinize`), then play random actions to the end (`Policy::Random.run`).
//!
//!     playouts                      # playouts per second, every rule system
//!     playouts base --runs 9        # one system, more timed runs
//!     playouts base --count 2000    # exactly 2000 playouts, for callgrind:
//!         valgrind --tool=callgrind --toggle-collect='*run_playouts*' playouts base --count 2000
//!     playouts base --clones 2000   # 2000 copies each way, for callgrind:
//!         valgrind --tool=callgrind --toggle-collect='*clone_new*' ... (or '*clone_into*')
//!
//!     playouts base --mcts 1000     # one MCTS search of 1000 iterations from the position
//!         (callgrind: --toggle-collect='*analyse*'), to compare an iteration with a playout
//!
//! The position: game 0 of seed 7 played at random until 35 tiles are down (the middle of
//! a two-player base game), events not recorded (as a search keeps its copy). Wall-clock
//! rates depend on the machine and on what else runs on it: each run is one second, and
//! the table gives the lowest, median and highest rate over the runs.

use std::hint::black_box;
use std::time::{Duration, Instant};

use carcassonne_core::Game;
use carcassonne_core::engine::rules::{DataSource, RulesSpec};
use carcassonne_core::play::players::{Mcts, Policy, Scratch};
use carcassonne_core::rng::Rng;

use configs::{MID_GAME_PLACED as PLACED, MID_GAME_SEED as SEED, mid_game as position};

#[path = "../benches/configs/mod.rs"]
mod configs;

fn systems() -> Vec<(&'static str, RulesSpec)> {
    vec![
        ("base", RulesSpec::default()),
        (
            "ferries",
            RulesSpec {
                tile_sets: DataSource::builtins(&["base", "ferries"]),
                ..RulesSpec::default()
            },
        ),
        ("south-seas", RulesSpec::south_seas(2)),
        (
            "friday",
            RulesSpec {
                friday: true,
                ..RulesSpec::south_seas(2)
            },
        ),
        ("maps", RulesSpec::maps("continental", 2)),
    ]
}

/// `n` playouts from `root` into the reused game `work`; returns a checksum of the scores.
#[inline(never)]
fn run_playouts(root: &Game, work: &mut Game, rng: &mut Rng, n: u64) -> i64 {
    let mut buf = Vec::new();
    let mut sum = 0i64;
    for _ in 0..n {
        work.clone_from(root);
        work.determinize(rng);
        Policy::Random.run(work, rng, &mut buf, false);
        sum += work.scores().iter().map(|&s| s as i64).sum::<i64>();
    }
    sum
}

/// `n` fresh copies of `root`.
#[inline(never)]
fn clone_new(root: &Game, n: u64) {
    for _ in 0..n {
        black_box(black_box(root).clone());
    }
}

/// `n` copies of `root` into the reused game `work`, dirtied by a playout first.
#[inline(never)]
fn clone_into(root: &Game, work: &mut Game, n: u64) {
    for _ in 0..n {
        black_box(&mut *work).clone_from(black_box(root));
    }
}

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only = args.first().filter(|a| !a.starts_with("--")).cloned();
    let runs: usize = arg(&args, "--runs").unwrap_or(5).max(1);
    let count: Option<u64> = arg(&args, "--count");
    let clones: Option<u64> = arg(&args, "--clones");
    let search: Option<u32> = arg(&args, "--mcts");
    let mut rng = Rng::for_game(SEED, 2);
    if count.is_none() && clones.is_none() && search.is_none() {
        println!(
            "random playouts from {PLACED} tiles placed (clone_from + determinize + run), one core, {runs} runs of 1 s"
        );
        println!("system        tiles left   playouts/s (min / median / max)");
    }
    for (key, spec) in systems() {
        if only.as_deref().is_some_and(|o| o != key) {
            continue;
        }
        if let Some(n) = clones {
            for record in [false, true] {
                let root = position(spec.clone(), record);
                let mut work = root.clone();
                Policy::Random.run(&mut work, &mut rng, &mut Vec::new(), false);
                let start = Instant::now();
                clone_new(&root, n);
                let fresh = start.elapsed().as_secs_f64() * 1e9 / n as f64;
                let start = Instant::now();
                clone_into(&root, &mut work, n);
                let reused = start.elapsed().as_secs_f64() * 1e9 / n as f64;
                println!(
                    "{key}: {n} clones each way, events recorded: {record} ({} events): \
                     clone {fresh:.0} ns, clone_from {reused:.0} ns",
                    root.events().len()
                );
            }
            continue;
        }
        let root = position(spec, false);
        if let Some(playouts) = search {
            let mcts = Mcts {
                playouts,
                ..Mcts::default()
            };
            let start = Instant::now();
            let values = mcts.analyse(&root, &mut rng, &mut Scratch::default());
            let best = values.iter().map(|v| v.visits).max().unwrap_or(0);
            println!(
                "{key}: mcts {playouts} iterations, {} root actions (most visits {best}), {:.0} iterations/s",
                values.len(),
                playouts as f64 / start.elapsed().as_secs_f64()
            );
            continue;
        }
        let mut work = root.clone();
        if let Some(n) = count {
            let sum = run_playouts(&root, &mut work, &mut rng, n);
            println!("{key}: {n} playouts, checksum {sum}");
            continue;
        }
        let mut rates = Vec::new();
        for _ in 0..runs {
            let start = Instant::now();
            let mut n = 0u64;
            while start.elapsed() < Duration::from_secs(1) {
                black_box(run_playouts(&root, &mut work, &mut rng, 200));
                n += 200;
            }
            rates.push(n as f64 / start.elapsed().as_secs_f64());
        }
        rates.sort_by(f64::total_cmp);
        println!(
            "{key:<13} {:>10}   {:>8.0} / {:>8.0} / {:>8.0}",
            root.remaining().len(),
            rates[0],
            rates[rates.len() / 2],
            rates[rates.len() - 1]
        );
    }
}
