//! MCTS against a built-in policy in two-player base games, seats alternating:
//!
//!     mcts_vs greedy 200 1000 [FIRST [SYSTEM [EXPLORATION [CUTOFF]]]]
//!
//! (opponent, games, playouts per move, first game index, `base`, `ferries` or
//! `south-seas`, the UCT constant, tiles per playout or `none`; the default MCTS settings
//! otherwise).
//! Game i is game i of study seed 2026 (tile order and every player's draws), MCTS in
//! seat i % 2. Prints one line per game and, at the end, the MCTS win rate (a tie shared)
//! with its 95% Wilson interval.

use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};
use carcassonne_core::play::players::{Mcts, Player, Policy, Scratch};
use carcassonne_core::rng::Rng;

const SEED: u64 = 2026;

/// The 95% Wilson score interval of `wins` successes in `n` trials.
fn wilson(wins: f64, n: f64) -> (f64, f64) {
    let z = 1.959_964f64;
    let p = wins / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - half, centre + half)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opponent = args
        .first()
        .and_then(|s| Policy::parse(s))
        .unwrap_or(Policy::Greedy);
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let playouts: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let first: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut mcts = Mcts {
        playouts,
        ..Mcts::default()
    };
    if let Some(c) = args.get(5).and_then(|s| s.parse().ok()) {
        mcts.exploration = c;
    }
    if let Some(cut) = args.get(6) {
        mcts.cutoff = cut.parse().ok();
    }
    let spec = match args.get(4).map(String::as_str) {
        None | Some("base") => RulesSpec::default(),
        Some("ferries") => RulesSpec {
            tile_sets: DataSource::builtins(&["base", "ferries"]),
            ..RulesSpec::default()
        },
        Some("south-seas") => RulesSpec::south_seas(2),
        Some(other) => panic!("unknown system {other}: base, ferries or south-seas"),
    };
    let rules = Arc::new(Rules::new(spec).expect("a built-in configuration"));
    let start = Instant::now();
    let mut wins = 0.0;
    let mut margin = 0i64;
    let mut scratch = Scratch::default();
    let mut buf = Vec::new();
    for i in first..first + games {
        let seat = (i % 2) as usize;
        let mut game = Game::shuffled(Arc::clone(&rules), SEED, i);
        game.set_record_events(false);
        let mut rng = Rng::for_game(SEED, 1_000_000 + i);
        while !game.is_over() {
            if game.decider() == seat {
                mcts.play(&mut game, &mut rng, &mut scratch)
                    .expect("mcts plays legal actions");
            } else {
                opponent.run(&mut game, &mut rng, &mut buf, true);
            }
        }
        let w = game.winners();
        let share = if w & (1 << seat) != 0 {
            1.0 / w.count_ones() as f64
        } else {
            0.0
        };
        wins += share;
        let s = game.scores();
        margin += (s[seat] - s[1 - seat]) as i64;
        println!(
            "game {i} mcts seat {seat} scores {:?} mcts share {share} running {wins}/{}",
            s,
            i - first + 1
        );
    }
    let n = games as f64;
    let (lo, hi) = wilson(wins, n);
    println!(
        "{} vs {}: {games} games, mcts won {wins} ({:.1}%, 95% Wilson {:.1}%..{:.1}%), mean margin {:+.1}, {:.0} s",
        mcts.name(),
        opponent.name(),
        100.0 * wins / n,
        100.0 * lo,
        100.0 * hi,
        margin as f64 / n,
        start.elapsed().as_secs_f64()
    );
}
