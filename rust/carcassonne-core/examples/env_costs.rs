//! Deterministic cost counts of the learning environment: `env_costs KEY [SCALE]`, KEY
//! `env-masks` or `env-observations`, steps a base `VectorEnv` of 64 games with random
//! legal tokens from its masks, masks alone or with observations
//! (`benches/configs/env.rs`), in `play_games_env`, which is never inlined, so that
//! callgrind run with `--toggle-collect=*play_games*` counts the steps and nothing else.
//! Prints the steps ("games") and a checksum of the tokens played and episodes ended.
//! `tools/costs.py` runs it under callgrind beside `examples/costs`: a binary of its own,
//! so that the engine's counts do not move with this code's layout.

use std::hint::black_box;
use std::sync::Arc;

use carcassonne_core::engine::rules::{Rules, RulesSpec};

#[path = "../benches/configs/mod.rs"]
mod configs;
use configs::env::{COST_GAMES, COST_ROUNDS, COSTS, EnvBench};

/// Steps the environment `rounds` times; returns a checksum of the tokens played and
/// the episodes ended.
#[inline(never)]
fn play_games_env(bench: &mut EnvBench, rounds: usize) -> u64 {
    let (episodes, tokens) = bench.run(rounds);
    black_box(tokens.wrapping_mul(1_000_003).wrapping_add(episodes as u64))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(&(key, observe)) = COSTS
        .iter()
        .find(|(key, _)| args.get(1).map(String::as_str) == Some(*key))
    else {
        let keys: Vec<&str> = COSTS.iter().map(|c| c.0).collect();
        eprintln!(
            "usage: env_costs KEY [SCALE]; KEY is one of {}",
            keys.join(", ")
        );
        std::process::exit(2);
    };
    let scale: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let rules = Arc::new(Rules::new(RulesSpec::default()).expect("the base game"));
    let mut bench = EnvBench::new(rules, COST_GAMES, observe);
    let rounds = ((COST_ROUNDS as f64 * scale).round() as usize).max(1);
    let checksum = play_games_env(&mut bench, rounds);
    println!(
        "{key} games {} checksum {checksum} (steps of a base VectorEnv of {COST_GAMES} games, random legal tokens)",
        rounds * COST_GAMES
    );
}
