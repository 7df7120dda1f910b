//! Core throughput without Python: whole random and greedy games on one thread, reusing
//! one game's buffers, and move listing. `cargo bench -p carcassonne-core`.

use std::hint::black_box;
use std::sync::Arc;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::{Rules, RulesSpec};
use carcassonne_core::play::players::Lineup;
use carcassonne_core::play::players::Policy;
use carcassonne_core::play::simulate::{play_game, seat_scratch};
use carcassonne_core::rng::Rng;
use criterion::{Criterion, criterion_group, criterion_main};

mod configs;

fn base() -> Arc<Rules> {
    Arc::new(Rules::new(RulesSpec::default()).unwrap())
}

fn whole_games(c: &mut Criterion) {
    for configs::Config {
        title,
        rules,
        policy,
        ..
    } in configs::standard()
    {
        let mut game = Game::new(Arc::clone(&rules), Vec::new());
        game.set_record_events(false);
        let players = Lineup::from(policy);
        let mut scratch = seat_scratch();
        let mut index = 0u64;
        c.bench_function(title, |b| {
            b.iter(|| {
                index += 1;
                let mut rng = Rng::for_game(1, index);
                play_game(&mut game, &mut rng, &players, &mut scratch).expect("built-in players");
                black_box(game.scores()[0])
            })
        });
    }
}

fn listing(c: &mut Criterion) {
    let rules = base();
    // Positions from the middle of a random game.
    let mut game = Game::shuffled(Arc::clone(&rules), 3, 0);
    let mut rng = Rng::for_game(3, 1);
    let mut buf = Vec::new();
    for _ in 0..35 {
        let mv = Policy::Random.choose_move(&game, &mut rng, &mut buf);
        game.play_unchecked(mv);
    }
    c.bench_function("legal_moves, mid-game", |b| {
        b.iter(|| black_box(game.legal_moves().len()))
    });
    c.bench_function("random move choice, mid-game", |b| {
        b.iter(|| black_box(Policy::Random.choose_move(&game, &mut rng, &mut buf)))
    });
}

criterion_group!(benches, whole_games, listing);
criterion_main!(benches);
