//! Quick throughput probe:
//! `cargo run --release --example speed -- [games] [threads] [random|greedy] [set,set,...]`
//! (`south-seas` or `south-seas,friday` for South Seas; `map:NAME` for Carcassonne Maps
//! on a built-in map). Prints games and tile placements per second.
use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::engine::rules::Rules;
use carcassonne_core::play::players::Policy;
use carcassonne_core::play::simulate::simulate;

#[path = "../benches/configs/mod.rs"]
mod configs;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let policy = args
        .get(3)
        .and_then(|s| Policy::parse(s))
        .unwrap_or(Policy::Random);
    let sets: Vec<&str> = args.get(4).map_or(vec!["base"], |s| s.split(',').collect());
    let spec = configs::spec_of(&sets);
    let rules = Arc::new(Rules::new(spec).unwrap());
    let t = Instant::now();
    let cols = simulate(&rules, games, 0, 1, policy, Some(threads)).unwrap();
    let dt = t.elapsed().as_secs_f64();
    let mean: f64 = cols.scores.iter().map(|s| *s as f64).sum::<f64>() / cols.scores.len() as f64;
    let placements: u64 = cols.turns.iter().map(|t| u64::from(*t)).sum();
    println!(
        "{games} games, {threads} threads, {}: {:.0} games/s, {:.0} placements/s, mean score {mean:.1}",
        policy.name(),
        games as f64 / dt,
        placements as f64 / dt
    );
}
