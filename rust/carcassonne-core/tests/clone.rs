//! Copies of a game, over every rule system and at several points of a game: a `clone`,
//! and a `clone_from` into a game left dirty by another game (of the same rules, or of
//! other rules with another board size), hold the same board square by square and play
//! on exactly like the original: the same legal actions at every step and the same record
//! (`to_json`) after the same actions.

mod common;
use common::configs;

use std::sync::Arc;

use carcassonne_core::Game;
use carcassonne_core::play::players::Policy;
use carcassonne_core::rng::Rng;

/// The board square by square (placed tile, open square and its demand) over a window
/// wide enough for every tile of the deck.
fn squares(g: &Game) -> Vec<(Option<usize>, Option<usize>, Option<u8>)> {
    let reach = g.deck().len() as i32 + 3;
    let b = g.board();
    let mut out = Vec::new();
    for y in -reach..=reach {
        for x in -reach..=reach {
            if let Some(c) = b.cell(x, y) {
                out.push((b.placed_at(c), b.open_index(c), b.open_demand(c)));
            }
        }
    }
    out
}

/// Plays `games` on with the same random actions, checking they stay the same game.
fn play_on_together(name: &str, games: &mut [Game], seed: u64) {
    let mut rng = Rng::for_game(seed, 0);
    let first = squares(&games[0]);
    for g in &games[1..] {
        assert_eq!(squares(g), first, "{name}: the board");
        assert_eq!(g.to_json(), games[0].to_json(), "{name}");
    }
    while !games[0].is_over() {
        let legal = games[0].legal_actions();
        let action = legal[rng.below(legal.len() as u32) as usize];
        for g in games.iter_mut() {
            assert_eq!(g.legal_actions(), legal, "{name}");
            g.apply(action).expect("a legal action");
        }
        let json = games[0].to_json();
        for g in &games[1..] {
            assert_eq!(g.to_json(), json, "{name}");
            assert_eq!(g.events(), games[0].events(), "{name}");
        }
    }
    for g in &games[1..] {
        assert!(g.is_over(), "{name}");
        assert_eq!(g.scores(), games[0].scores(), "{name}");
        assert_eq!(squares(g), squares(&games[0]), "{name}: the final board");
    }
}

#[test]
fn copies_play_on_like_the_original() {
    let all = configs();
    for (k, (name, rules)) in all.iter().enumerate() {
        // Another configuration's game, for a copy into a board of another size.
        let (_, other_rules) = &all[(k + 1) % all.len()];
        for (index, placed) in [(0u64, 0usize), (1, 5), (2, 20), (3, 45), (4, 1000)] {
            let mut game = Game::shuffled(Arc::clone(rules), 41, index);
            let mut rng = Rng::for_game(41, 100 + index);
            let mut buf = Vec::new();
            while !game.is_over() && game.moves().len() < placed {
                Policy::Random.step(&mut game, &mut rng, &mut buf);
            }
            let fresh = game.clone();
            // Dirty games: later (more tiles down) and earlier in another game of the
            // same rules, and a game of other rules.
            let mut later = Game::shuffled(Arc::clone(rules), 42, index);
            Policy::Random.run(&mut later, &mut rng, &mut buf, false);
            later.clone_from(&game);
            let mut earlier = Game::shuffled(Arc::clone(rules), 43, index);
            for _ in 0..3 {
                if !earlier.is_over() {
                    Policy::Random.step(&mut earlier, &mut rng, &mut buf);
                }
            }
            earlier.clone_from(&game);
            let mut foreign = Game::shuffled(Arc::clone(other_rules), 44, index);
            Policy::Random.run(&mut foreign, &mut rng, &mut buf, false);
            foreign.clone_from(&game);
            // A copy of a copy, into a game it was copied from before.
            let mut again = fresh.clone();
            Policy::Random.run(&mut again, &mut rng, &mut buf, false);
            again.clone_from(&later);
            let mut games = [game, fresh, later, earlier, foreign, again];
            play_on_together(name, &mut games, 45 + index);
        }
    }
}

#[test]
fn copies_play_on_like_the_original_in_random_self_play() {
    // The unchecked fast path (`Policy::Random.run`) from a copy gives the same game as
    // from the original with the same random stream.
    for (name, rules) in configs() {
        let mut game = Game::shuffled(Arc::clone(&rules), 46, 0);
        let mut rng = Rng::for_game(46, 1);
        let mut buf = Vec::new();
        while !game.is_over() && game.moves().len() < 15 {
            Policy::Random.step(&mut game, &mut rng, &mut buf);
        }
        let mut reused = Game::shuffled(Arc::clone(&rules), 47, 0);
        Policy::Random.run(&mut reused, &mut rng, &mut buf, false);
        reused.clone_from(&game);
        let mut fresh = game.clone();
        for g in [&mut game, &mut fresh, &mut reused] {
            Policy::Random.run(g, &mut Rng::for_game(46, 2), &mut buf, false);
        }
        assert_eq!(fresh.to_json(), game.to_json(), "{name}");
        assert_eq!(reused.to_json(), game.to_json(), "{name}");
    }
}
