//! Deterministic cost counts: `costs KEY [SCALE]` plays the fixed games of one standard
//! configuration (`benches/configs`) in `play_games`, which is never inlined, so that
//! callgrind run with `--toggle-collect=*play_games*` counts the games and nothing else.
//! Prints the games played and a checksum of their scores (the same games give the same
//! checksum). `tools/costs.py` runs it under callgrind for every configuration.
//!
//! `costs mcts [SCALE]` counts a search instead: one MCTS search at the default settings
//! (1,000 iterations at scale 1) from the base mid-game position of `examples/playouts`
//! (game 0 of seed 7 played at random until 35 tiles are down), in `play_games_mcts`;
//! the "games" it reports are the iterations, and the checksum is of the root's visits
//! and values.
//!
//! `costs learned [SCALE]` plays base games with the one-ply learned player in both seats
//! (100 at scale 1), in `play_games_learned`, with the untrained weights (the
//! virtual-score lead): a move's cost does not depend on the weights, and the count does
//! not move when the shipped weights are trained again.

use std::hint::black_box;

use std::sync::Arc;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::RulesSpec;
use carcassonne_core::learn::value::{Learned, LinearValue};
use carcassonne_core::play::players::{Lineup, Mcts, Scratch};
use carcassonne_core::play::simulate::{play_game, seat_scratch};
use carcassonne_core::rng::Rng;

#[path = "../benches/configs/mod.rs"]
mod configs;

/// Plays games `0..games` of study `COST_SEED` one after another on this thread, reusing
/// one game's buffers (as `simulate` does); returns a checksum of the final scores.
#[inline(never)]
fn play_games(config: &configs::Config, games: u64, game: &mut Game) -> u64 {
    let players = Lineup::from(config.policy);
    let mut scratch = seat_scratch();
    let mut checksum = 0u64;
    for i in 0..games {
        let mut rng = Rng::for_game(configs::COST_SEED, i);
        // Cannot fail: the built-in players never do.
        play_game(game, &mut rng, &players, &mut scratch).expect("built-in players");
        for (p, s) in game.scores().iter().enumerate() {
            checksum = checksum
                .wrapping_mul(1_000_003)
                .wrapping_add((*s as u64) << (p * 8));
        }
    }
    black_box(checksum)
}

/// The key of the search count and its iterations at scale 1.
const MCTS_KEY: &str = "mcts";
const MCTS_ITERATIONS: u32 = 1000;

/// One search of `iterations` from `root`; returns a checksum of the root's values.
#[inline(never)]
fn play_games_mcts(root: &Game, iterations: u32) -> u64 {
    let mcts = Mcts {
        playouts: iterations,
        ..Mcts::default()
    };
    let mut rng = Rng::for_game(configs::COST_SEED, 0);
    let values = mcts.analyse(root, &mut rng, &mut Scratch::default());
    let checksum = values.iter().fold(0u64, |c, v| {
        c.wrapping_mul(1_000_003)
            .wrapping_add(v.visits as u64)
            .wrapping_add(v.value.to_bits())
    });
    black_box(checksum)
}

/// `costs mcts [SCALE]`: the search count (see the module's comment).
fn count_search(scale: f64) {
    let root = configs::mid_game(RulesSpec::default(), false);
    let iterations = ((MCTS_ITERATIONS as f64 * scale).round() as u32).max(1);
    let checksum = play_games_mcts(&root, iterations);
    println!(
        "{MCTS_KEY} games {iterations} checksum {checksum} (MCTS iterations at the default settings, base mid-game position)"
    );
}

/// The key of the learned player's count and its games at scale 1.
const LEARNED_KEY: &str = "learned";
const LEARNED_GAMES: u64 = 100;

/// Plays base games `0..games` of study `COST_SEED` with the learned player in both seats;
/// returns a checksum of the final scores.
#[inline(never)]
fn play_games_learned(game: &mut Game, games: u64) -> u64 {
    let players = Lineup::same(Arc::new(Learned::new(LinearValue::default())));
    let mut scratch = seat_scratch();
    let mut checksum = 0u64;
    for i in 0..games {
        let mut rng = Rng::for_game(configs::COST_SEED, i);
        // Cannot fail: the learned player never does.
        play_game(game, &mut rng, &players, &mut scratch).expect("the learned player");
        for (p, s) in game.scores().iter().enumerate() {
            checksum = checksum
                .wrapping_mul(1_000_003)
                .wrapping_add((*s as u64) << (p * 8));
        }
    }
    black_box(checksum)
}

/// `costs learned [SCALE]`: the learned player's count (see the module's comment).
fn count_learned(scale: f64) {
    let games = ((LEARNED_GAMES as f64 * scale).round() as u64).max(1);
    let rules = Arc::new(
        carcassonne_core::engine::rules::Rules::new(RulesSpec::default()).expect("the base game"),
    );
    let mut game = Game::new(rules, Vec::new());
    game.set_record_events(false);
    let checksum = play_games_learned(&mut game, games);
    println!(
        "{LEARNED_KEY} games {games} checksum {checksum} (base, 2 players, the one-ply learned player in both seats)"
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let scale = || args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    if args.get(1).map(String::as_str) == Some(MCTS_KEY) {
        count_search(scale());
        return;
    }
    if args.get(1).map(String::as_str) == Some(LEARNED_KEY) {
        count_learned(scale());
        return;
    }
    let configs = configs::standard();
    let Some(config) = args
        .get(1)
        .and_then(|key| configs.iter().find(|c| c.key == key))
    else {
        let keys: Vec<&str> = configs.iter().map(|c| c.key).collect();
        eprintln!(
            "usage: costs KEY [SCALE]; KEY is one of {}",
            keys.join(", ")
        );
        std::process::exit(2);
    };
    let scale: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let games = ((config.games as f64 * scale).round() as u64).max(1);
    let mut game = Game::new(Arc::clone(&config.rules), Vec::new());
    game.set_record_events(false);
    let checksum = play_games(config, games, &mut game);
    println!(
        "{} games {games} checksum {checksum} ({})",
        config.key, config.title
    );
}
