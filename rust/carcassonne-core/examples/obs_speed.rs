//! The cost of an observation alone (`learn::observation`): `obs_speed [GAMES] [ROUNDS]
//! [SETS]` plays GAMES random games (SETS as `examples/speed`), keeps every position with
//! a decision to make, then writes each one's observation ROUNDS times, in the order
//! the positions of many games interleave as in a vectorised environment. Prints the
//! nanoseconds per observation and a checksum of every observation written (equal
//! checksums: equal observations, for comparing two builds). With `ONLY=K` in the
//! environment every observation is of the K-th position (one position, its data in the
//! cache and its branches learnt: what a position costs at best).

use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::Rules;
use carcassonne_core::learn::action_space::ActionSpace;
use carcassonne_core::learn::observation::{ObservationLayout, ObservationScratch};
use carcassonne_core::rng::Rng;

#[path = "../benches/configs/mod.rs"]
mod configs;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(64);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let sets: Vec<&str> = args.get(3).map_or(vec!["base"], |s| s.split(',').collect());
    let spec = configs::spec_of(&sets);
    let rules = Arc::new(Rules::new(spec).unwrap());
    let space = ActionSpace::new(&rules, None).unwrap();
    let layout = ObservationLayout::new(&rules, &space);
    // Every game's positions, then interleaved: position k of every game, then k + 1.
    let mut per_game: Vec<Vec<Game>> = Vec::new();
    for g in 0..games {
        let mut game = Game::shuffled(rules.clone(), 1, g);
        let mut rng = Rng::for_game(2, g);
        let mut kept = Vec::new();
        while !game.is_over() {
            if space
                .window_rule()
                .window_of(&game, space.window())
                .is_err()
            {
                break;
            }
            kept.push(game.clone());
            let legal = game.legal_actions();
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        per_game.push(kept);
    }
    let longest = per_game.iter().map(Vec::len).max().unwrap_or(0);
    let mut positions: Vec<&Game> = (0..longest)
        .flat_map(|k| per_game.iter().filter_map(move |g| g.get(k)))
        .collect();
    if let Some(k) = std::env::var("ONLY")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
    {
        positions = vec![positions[k]; positions.len()];
    }
    let (b, v) = (layout.board_len(), layout.vector_len());
    // One buffer per game, as an environment's rows.
    let mut boards = vec![0u8; games as usize * b];
    let mut vectors = vec![0f32; games as usize * v];
    let mut scratch = ObservationScratch::default();
    // Every position's observation, into its game's row; `mix` sees each.
    let mut write_all = |mix: &mut dyn FnMut(&[u8], &[f32])| {
        for (k, game) in positions.iter().enumerate() {
            let row = k % games as usize;
            let (board, vector) = (&mut boards[row * b..][..b], &mut vectors[row * v..][..v]);
            layout
                .write(game, &[], &mut scratch, board, vector)
                .expect("the window holds the game");
            mix(board, vector);
        }
    };
    // The checksum from a first pass, outside the timing.
    let mut checksum = 0xcbf2_9ce4_8422_2325u64;
    write_all(&mut |board, vector| {
        let floats = vector.iter().flat_map(|f| f.to_le_bytes());
        for x in board.iter().copied().chain(floats) {
            checksum = (checksum ^ x as u64).wrapping_mul(0x100_0000_01b3);
        }
    });
    let t = Instant::now();
    for _ in 0..rounds {
        write_all(&mut |_, _| {});
    }
    let written = rounds * positions.len();
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{} positions x {rounds}, {}: {:.0} ns per observation ({} planes of {w} x {w}, \
         {v} floats), checksum {checksum:016x}",
        positions.len(),
        sets.join(","),
        dt * 1e9 / written as f64,
        layout.planes().len(),
        w = layout.window(),
    );
}
