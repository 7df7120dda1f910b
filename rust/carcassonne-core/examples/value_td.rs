//! Trains the linear value of `learn::value` by TD(lambda) self-play in two-player base
//! games, then plays its one-ply player against greedy on paired deals:
//!
//!     value_td TRAIN_GAMES PAIRS [ALPHA [LAMBDA [EPSILON [THREADS [MCTS_PLAYOUTS]]]]]
//!
//! A measuring probe, not a product: it prints the weights and the paired score (each
//! deal of study seed 2026 played twice, the learned player in either seat; a tie counts
//! half); with MCTS_PLAYOUTS, against MCTS of that many playouts a move too. Training games use seed 7 and are played `THREADS` at a time, the updates of a
//! round applied in game order, so the result depends on the thread count.

use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::{Rules, RulesSpec};
use carcassonne_core::learn::value::{FactsScratch, LinearValue, WEIGHTS};
use carcassonne_core::play::players::{Mcts, Player, Policy, Scratch};
use carcassonne_core::rng::Rng;
use rayon::prelude::*;

/// One self-play game: the inputs of every position after an action (seat 0's view)
/// and the outcome for seat 0.
fn self_play(
    value: &LinearValue,
    rules: &Arc<Rules>,
    index: u64,
    epsilon: f64,
) -> (Vec<Vec<f32>>, f32) {
    let mut game = Game::shuffled(Arc::clone(rules), 7, index);
    game.set_record_events(false);
    let mut rng = Rng::for_game(7, 1 << 40 | index);
    let mut s = FactsScratch::default();
    let mut xs = Vec::new();
    while !game.is_over() {
        let action = if ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < epsilon {
            let actions = game.legal_actions();
            actions[rng.below(actions.len() as u32) as usize]
        } else {
            value.choose(&game, &mut rng, &mut s)
        };
        game.apply_unchecked(action);
        if !game.is_over() {
            let mut x = vec![0.0; WEIGHTS];
            value.input(&game, 0, &mut s, &mut x);
            xs.push(x);
        }
    }
    let z = carcassonne_core::learn::outcome::outcome(game.scores())[0];
    (xs, z)
}

/// TD(lambda) on one game's positions, forward view: each position's target is the
/// lambda-return of the values after it, the outcome last.
fn update(value: &mut LinearValue, xs: &[Vec<f32>], z: f32, alpha: f32, lambda: f32) {
    let vs: Vec<f32> = xs.iter().map(|x| value.value_of(x)).collect();
    let mut g = z;
    for t in (0..xs.len()).rev() {
        let v = vs[t];
        let delta = alpha * (g - v) * (1.0 - v * v);
        for (w, x) in value.weights.iter_mut().zip(&xs[t]) {
            *w += delta * x;
        }
        g = (1.0 - lambda) * v + lambda * g;
    }
}

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
    let mut value = LinearValue::default();
    let start = Instant::now();
    let (s0, m0) = paired(&value, &rules, pairs, None);
    println!(
        "untrained: score {s0:.3} margin {m0:+.1} against greedy ({pairs} pairs), {:.0} s",
        start.elapsed().as_secs_f64()
    );
    let mut done = 0;
    let round = 64u64;
    while done < train {
        let n = round.min(train - done);
        let games: Vec<_> = (done..done + n)
            .into_par_iter()
            .map(|i| self_play(&value, &rules, i, epsilon))
            .collect();
        for (xs, z) in &games {
            update(&mut value, xs, *z, alpha, lambda);
        }
        done += n;
        if done % 1024 == 0 || done == train {
            println!("{done} games, {:.0} s", start.elapsed().as_secs_f64());
        }
    }
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
