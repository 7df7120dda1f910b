//! Seat bias of 4 greedy players in each rule system:
//! `cargo run --release --example seat_bias -- [games] [threads] [config,...]`
//! Prints a markdown table: per seat the share of games won (ties count for every tied
//! player) with a 95% Wilson interval, the mean score, and how often the seat placed
//! the last tile, with the win share of the last placer against the others.
use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::players::Policy;
use carcassonne_core::rules::{DataSource, Rules, RulesSpec};
use carcassonne_core::simulate::simulate;

fn config(name: &str) -> RulesSpec {
    match name {
        "base" => RulesSpec {
            players: 4,
            ..RulesSpec::default()
        },
        "ic-tb" => RulesSpec {
            players: 4,
            inns_and_cathedrals_scoring: true,
            traders_goods: true,
            tile_sets: DataSource::builtins(&[
                "base",
                "inns-and-cathedrals",
                "traders-and-builders",
            ]),
            ..RulesSpec::default()
        },
        "ferries" => RulesSpec {
            players: 4,
            tile_sets: DataSource::builtins(&["base", "ferries"]),
            ..RulesSpec::default()
        },
        "south-seas" => RulesSpec::south_seas(4),
        "south-seas+friday" => RulesSpec {
            friday: true,
            ..RulesSpec::south_seas(4)
        },
        "maps-continental" => RulesSpec::maps("continental", 4),
        _ => panic!("unknown configuration {name}"),
    }
}

/// 95% Wilson interval of k successes in n.
fn wilson(k: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let p = k / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let threads: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let all = "base,ic-tb,ferries,south-seas,south-seas+friday,maps-continental";
    let names: Vec<String> = args
        .get(3)
        .map_or(all, |s| s.as_str())
        .split(',')
        .map(String::from)
        .collect();
    println!(
        "| system | n | seat | wins (95% interval) | mean score | last placer | wins as last placer | wins otherwise |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for name in &names {
        let rules = Arc::new(Rules::new(config(name)).unwrap());
        let players = rules.players();
        let t = Instant::now();
        let cols = simulate(&rules, games, 0, 1, Policy::Greedy, Some(threads)).unwrap();
        let secs = t.elapsed().as_secs_f64();
        let n = cols.games;
        for seat in 0..players {
            let (mut wins, mut score, mut last, mut last_wins, mut other_wins) =
                (0.0, 0.0, 0.0, 0.0, 0.0);
            for g in 0..n {
                let won = cols.winners[g * players + seat];
                score += cols.scores[g * players + seat] as f64;
                // Turn t (from 1) is placed by seat (t - 1) mod players: no rule system
                // here gives extra turns.
                let is_last = (cols.turns[g] as usize + players - 1) % players == seat;
                if won {
                    wins += 1.0;
                }
                if is_last {
                    last += 1.0;
                    if won {
                        last_wins += 1.0;
                    }
                } else if won {
                    other_wins += 1.0;
                }
            }
            let (lo, hi) = wilson(wins, n as f64);
            let others = n as f64 - last;
            println!(
                "| {name} | {n} | {seat} | {:.3} ({lo:.3}-{hi:.3}) | {:.1} | {:.3} | {} | {:.3} |",
                wins / n as f64,
                score / n as f64,
                last / n as f64,
                if last > 0.0 {
                    format!("{:.3}", last_wins / last)
                } else {
                    "-".into()
                },
                other_wins / others.max(1.0),
            );
        }
        eprintln!("{name}: {n} games in {secs:.1} s");
    }
}
