//! Steps per second of the vectorised environment (`learn::vector_env`) with random legal
//! tokens drawn from the masks, on one thread: `env_speed [STEPS] [ENVS] [SETS] [obs]`
//! (SETS as `examples/speed`: `base`, `base,ferries`, `south-seas`, `map:continental`;
//! `obs` writes full observations, else masks only). Then, as a gauge of how fast this
//! machine runs now (shared machines move by a third), the engine's own speed on the same
//! thread: random base games per second (about 55,000 on the README's machines).

use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::engine::rules::{Rules, RulesSpec};
use carcassonne_core::play::players::Policy;
use carcassonne_core::play::simulate::simulate;

#[path = "../benches/configs/mod.rs"]
mod configs;
use configs::env::EnvBench;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let steps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(64);
    let sets: Vec<&str> = args.get(3).map_or(vec!["base"], |s| s.split(',').collect());
    let observe = args.get(4).is_some_and(|s| s == "obs");
    let spec = configs::spec_of(&sets);
    let rules = Arc::new(Rules::new(spec).unwrap());
    let mut bench = EnvBench::new(rules, n, observe);
    let rounds = steps.div_ceil(n);
    let t = Instant::now();
    let (episodes, _) = bench.run(rounds);
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{} steps, {n} envs, {}, {}: {:.0} steps/s ({episodes} episodes)",
        rounds * n,
        sets.join(","),
        if observe {
            "observations"
        } else {
            "masks only"
        },
        (rounds * n) as f64 / dt
    );
    let base = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    let games = 20_000;
    let t = Instant::now();
    simulate(&base, games, 0, 1, Policy::Random, Some(1)).unwrap();
    println!(
        "gauge: the engine plays {:.0} random base games/s on this thread now",
        games as f64 / t.elapsed().as_secs_f64()
    );
}
