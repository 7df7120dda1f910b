//! Trains the linear value of `learn::value` by TD(lambda) self-play in two-player base
//! games, then plays its one-ply player against greedy on paired deals:
//!
//!     value_td TRAIN_GAMES PAIRS [ALPHA [LAMBDA [EPSILON [THREADS [MCTS_PLAYOUTS]]]]]
//!
//! A measuring probe, not a product: it prints the weights and the paired score (each
//! deal of study seed 2026 played twice, the learned player in either seat; a tie counts
//! half); with MCTS_PLAYOUTS, against MCTS of that many playouts a move too. Training
//! (`learn::value::Training`) uses seed 7; its weights do not depend on THREADS.

use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::{Rules, RulesSpec};
use carcassonne_core::learn::value::{FactsScratch, LinearValue, Td, Training};
use carcassonne_core::play::players::{Mcts, Player, Policy, Scratch, Stop};
use carcassonne_core::rng::Rng;
use rayon::prelude::*;

/// The learned player's score against greedy (or `mcts`) over `pairs` deals, both seatings.
fn paired(value: &LinearValue, rules: &Arc<Rules>, pairs: u64, mcts: Option<&Mcts>) -> (f64, f64) {
    let results: Vec<(f64, i64)> = (0..pairs)
        .into_par_iter()
        .flat_map_iter(|i| {
            (0..2).map(move |seat| {
                let mut game = Game::shuffled(Arc::clone(rules), 2026, i);
                game.set_record_events(false);
                let mut rng = Rng::for_game(2026, 1 << 41 | i);
                let mut s = FactsScratch::default();
                let mut buf = Vec::new();
                let mut scratch = Scratch::default();
                while !game.is_over() {
                    if game.decider() == seat {
                        let a = value.choose(&game, &mut rng, &mut s);
                        game.apply_unchecked(a);
                    } else if let Some(m) = mcts {
                        m.play(&mut game, &mut rng, &mut scratch).expect("legal");
                    } else {
                        Policy::Greedy.run(&mut game, &mut rng, &mut buf, true);
                    }
                }
                let w = game.winners();
                let share = if w & (1 << seat) != 0 {
                    1.0 / w.count_ones() as f64
                } else {
                    0.0
                };
                let sc = game.scores();
                (share, (sc[seat] - sc[1 - seat]) as i64)
            })
        })
        .collect();
    let n = results.len() as f64;
    (
        results.iter().map(|r| r.0).sum::<f64>() / n,
        results.iter().map(|r| r.1 as f64).sum::<f64>() / n,
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: f64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let train = arg(0, 2000.0) as u64;
    let pairs = arg(1, 200.0) as u64;
    let alpha = arg(2, 0.01) as f32;
    let lambda = arg(3, 0.7) as f32;
    let epsilon = arg(4, 0.05);
    let threads = arg(5, 2.0) as usize;
    let playouts = arg(6, 0.0) as u32;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .ok();
    let rules = Arc::new(Rules::new(RulesSpec::default()).expect("the base game"));
    let mut training = Training::new(
        7,
        Td {
            alpha,
            lambda,
            epsilon,
            ..Td::default()
        },
    );
    let start = Instant::now();
    let (s0, m0) = paired(&training.value, &rules, pairs, None);
    println!(
        "untrained: score {s0:.3} margin {m0:+.1} against greedy ({pairs} pairs), {:.0} s",
        start.elapsed().as_secs_f64()
    );
    training
        .run(&rules, train, threads, &Stop::new(), |t| {
            if t.games % 1024 == 0 {
                println!("{} games, {:.0} s", t.games, start.elapsed().as_secs_f64());
            }
        })
        .expect("not stopped");
    let value = training.value;
    let (s1, m1) = paired(&value, &rules, pairs, None);
    println!(
        "trained on {train} games: score {s1:.3} margin {m1:+.1} against greedy ({pairs} pairs), {:.0} s",
        start.elapsed().as_secs_f64()
    );
    if playouts > 0 {
        let mcts = Mcts {
            playouts,
            ..Mcts::default()
        };
        let (s2, m2) = paired(&value, &rules, pairs, Some(&mcts));
        println!(
            "against {}: score {s2:.3} margin {m2:+.1} ({pairs} pairs), {:.0} s",
            mcts.name(),
            start.elapsed().as_secs_f64()
        );
    }
    println!(
        "weights: {:?}",
        value
            .weights
            .iter()
            .map(|w| (w * 1000.0).round() / 1000.0)
            .collect::<Vec<_>>()
    );
}
