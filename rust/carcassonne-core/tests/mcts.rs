//! Monte Carlo tree search (`players::mcts`), over every rule system:
//! - it chooses a legal action in every phase (whole games with a small budget);
//! - a fixed random stream gives the same choice and the same analysis;
//! - `analyse` lists every legal action once, in `legal_actions` order, and its visits
//!   add up to the budget;
//! - it cannot read what the player to move does not know: two games that differ only in
//!   the hidden order give the same analysis from the same stream;
//! - bad settings are refused, by `Mcts::new` and again by `choose`;
//! - it beats the random player clearly (a sanity check, not a strength measurement).

mod common;
use common::configs;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use carcassonne_core::engine::rules::{Rules, RulesSpec};
use carcassonne_core::play::players::mcts::{
    DEFAULT_CUTOFF, MAX_CUTOFF, MAX_EXPLORATION, MAX_PLAYOUTS, MAX_TIME, MctsError,
};
use carcassonne_core::play::players::{Mcts, Player, PlayerError, Policy, Scratch};
use carcassonne_core::rng::Rng;
use carcassonne_core::{Action, Game};

fn small() -> Mcts {
    Mcts {
        playouts: 30,
        ..Mcts::default()
    }
}

/// Plays `game` at random until `placed` tiles are down (or the game ends).
fn advance(game: &mut Game, placed: usize, rng: &mut Rng) {
    let mut buf = Vec::new();
    while !game.is_over() && game.moves().len() < placed {
        Policy::Random.step(game, rng, &mut buf);
    }
}

#[test]
fn chooses_a_legal_action_in_every_config_and_phase() {
    let mcts = small();
    let mut phases = HashSet::new();
    for (name, rules) in configs() {
        let mut game = Game::shuffled(Arc::clone(&rules), 31, 0);
        let mut rng = Rng::for_game(31, 100);
        let mut scratch: Vec<Scratch> = (0..rules.players()).map(|_| Scratch::default()).collect();
        while !game.is_over() {
            let seat = game.decider();
            let legal = game.legal_actions();
            let action = mcts
                .choose(&game, &mut rng, &mut scratch[seat])
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(legal.contains(&action), "{name}: {action:?} is not legal");
            phases.insert(format!("{:?}", game.phase()));
            game.apply(action).expect("a legal action");
        }
    }
    for phase in ["Place", "Deliver", "MoveFriday", "Homecoming"] {
        assert!(
            phases.contains(phase),
            "phase {phase} was played: {phases:?}"
        );
    }
}

#[test]
fn a_fixed_stream_gives_the_same_choice_and_analysis() {
    for (name, rules) in configs() {
        let mut game = Game::shuffled(Arc::clone(&rules), 32, 0);
        advance(&mut game, 20, &mut Rng::for_game(32, 1));
        if game.is_over() {
            continue;
        }
        // Playouts cut off (the default) and played to the end.
        for cutoff in [Some(DEFAULT_CUTOFF), None] {
            let mcts = Mcts {
                playouts: 200,
                cutoff,
                ..Mcts::default()
            };
            let run = |scratch: &mut Scratch| {
                let mut rng = Rng::for_game(5, 5);
                let values = mcts.analyse(&game, &mut rng, scratch);
                let mut rng = Rng::for_game(5, 6);
                let choice = mcts.choose(&game, &mut rng, scratch).expect("a choice");
                (format!("{values:?}"), choice)
            };
            // A fresh scratch and one reused after another search give the same results.
            let mut scratch = Scratch::default();
            let first = run(&mut scratch);
            let again = run(&mut scratch);
            let fresh = run(&mut Scratch::default());
            assert_eq!(first, again, "{name} {cutoff:?}");
            assert_eq!(first, fresh, "{name} {cutoff:?}");
        }
    }
}

#[test]
fn analyse_lists_every_legal_action_once() {
    for (name, rules) in configs() {
        for (index, placed) in [(0, 0), (1, 12), (2, 30)] {
            let mut game = Game::shuffled(Arc::clone(&rules), 33, index);
            advance(&mut game, placed, &mut Rng::for_game(33, 100 + index));
            if game.is_over() {
                continue;
            }
            // Playouts cut off (the default, on even indexes) and played to the end.
            let mcts = Mcts {
                playouts: 150,
                cutoff: [Some(DEFAULT_CUTOFF), None][index as usize % 2],
                ..Mcts::default()
            };
            let values = mcts.analyse(&game, &mut Rng::for_game(1, index), &mut Scratch::default());
            let listed: Vec<Action> = values.iter().map(|v| v.action).collect();
            assert_eq!(listed, game.legal_actions(), "{name}");
            let visits: u32 = values.iter().map(|v| v.visits).sum();
            assert_eq!(
                visits, 150,
                "{name}: every iteration passes one root action"
            );
            for v in &values {
                assert!((0.0..=1.0).contains(&v.value), "{name}: {v:?}");
                if v.visits == 0 {
                    assert_eq!(v.value, 0.0);
                }
            }
        }
    }
}

#[test]
fn the_search_cannot_read_the_hidden_order() {
    for (name, rules) in configs() {
        for placed in [3, 25] {
            let mut game = Game::shuffled(Arc::clone(&rules), 34, 0);
            advance(&mut game, placed, &mut Rng::for_game(34, 1));
            if game.is_over() {
                continue;
            }
            // The same position with the undrawn tiles, face-down ships and unrevealed
            // Friday tiles in another order.
            let mut other = game.clone();
            other.determinize(&mut Rng::for_game(34, 2));
            if rules.deck_limit == rules.full_deck.len() && game.remaining().len() > 3 {
                assert_ne!(other.remaining(), game.remaining(), "{name}: reordered");
            }
            let mcts = Mcts {
                playouts: 200,
                ..Mcts::default()
            };
            let a = mcts.analyse(&game, &mut Rng::for_game(7, 0), &mut Scratch::default());
            let b = mcts.analyse(&other, &mut Rng::for_game(7, 0), &mut Scratch::default());
            assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "{name} after {placed} tiles"
            );
        }
    }
}

#[test]
fn bad_settings_are_refused() {
    assert_eq!(Mcts::new(0, None, 0.7, None), Err(MctsError::NoBudget));
    assert_eq!(
        Mcts::new(0, Some(Duration::ZERO), 0.7, None),
        Err(MctsError::NoBudget)
    );
    assert_eq!(
        Mcts::new(MAX_PLAYOUTS + 1, None, 0.7, None),
        Err(MctsError::TooManyPlayouts(MAX_PLAYOUTS + 1))
    );
    let long = MAX_TIME + Duration::from_secs(1);
    assert_eq!(
        Mcts::new(10, Some(long), 0.7, None),
        Err(MctsError::TooLong(long))
    );
    for c in [f64::NAN, f64::INFINITY, -0.1, MAX_EXPLORATION * 2.0] {
        assert!(
            matches!(Mcts::new(10, None, c, None), Err(MctsError::Exploration(_))),
            "{c}"
        );
    }
    assert!(Mcts::new(10, None, 0.0, None).is_ok());
    assert!(Mcts::new(0, Some(Duration::from_millis(5)), 1.0, None).is_ok());
    assert!(Mcts::new(10, None, 0.1, Some(0)).is_ok());
    assert!(Mcts::new(10, None, 0.1, Some(MAX_CUTOFF)).is_ok());
    assert_eq!(
        Mcts::new(10, None, 0.1, Some(MAX_CUTOFF + 1)),
        Err(MctsError::Cutoff(MAX_CUTOFF + 1))
    );
    assert_eq!(
        Mcts::default().name(),
        format!("mcts(playouts=1000,c=0.1,cutoff={DEFAULT_CUTOFF})")
    );
    assert_eq!(
        Mcts::new(5, Some(Duration::from_millis(1500)), 0.7, None)
            .unwrap()
            .name(),
        "mcts(playouts=5,time=1.5s,c=0.7)"
    );
    // Every error explains itself.
    for e in [
        MctsError::NoBudget,
        MctsError::TooManyPlayouts(u32::MAX),
        MctsError::TooLong(long),
        MctsError::Exploration(f64::NAN),
        MctsError::Cutoff(u32::MAX),
    ] {
        assert!(!e.to_string().is_empty());
    }

    // The fields are public: `choose` checks them again and refuses without panicking.
    let rules = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    let game = Game::shuffled(rules, 35, 0);
    let bad = Mcts {
        playouts: 0,
        time: None,
        exploration: f64::NAN,
        cutoff: None,
    };
    let mut scratch = Scratch::default();
    let mut rng = Rng::for_game(35, 1);
    assert!(matches!(
        bad.choose(&game, &mut rng, &mut scratch),
        Err(PlayerError::Failed(_))
    ));
    assert!(bad.analyse(&game, &mut rng, &mut scratch).is_empty());

    // A game that is over has nothing to choose.
    let mut over = game.clone();
    Policy::Random.run(&mut over, &mut rng, &mut Vec::new(), false);
    assert!(small().analyse(&over, &mut rng, &mut scratch).is_empty());
    assert!(matches!(
        small().choose(&over, &mut rng, &mut scratch),
        Err(PlayerError::Failed(_))
    ));
}

#[test]
fn a_timed_search_stops() {
    let rules = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    let game = Game::shuffled(rules, 36, 0);
    let mcts = Mcts::new(0, Some(Duration::from_millis(20)), 0.7, None).unwrap();
    let start = std::time::Instant::now();
    let values = mcts.analyse(&game, &mut Rng::for_game(36, 1), &mut Scratch::default());
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(values.iter().map(|v| v.visits).sum::<u32>() >= 1);
}

/// MCTS with 100 playouts against the random player, seats alternating: it should win
/// nearly every game (a sanity check of the backup's perspective, not a strength table).
#[test]
fn beats_the_random_player() {
    let rules = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    let mcts = Mcts {
        playouts: 100,
        ..Mcts::default()
    };
    let games = 24;
    let mut wins = 0.0;
    for i in 0..games {
        let seat = (i % 2) as usize;
        let mut game = Game::shuffled(Arc::clone(&rules), 37, i);
        let mut rng = Rng::for_game(37, 1000 + i);
        let mut scratch = Scratch::default();
        let mut buf = Vec::new();
        while !game.is_over() {
            if game.decider() == seat {
                mcts.play(&mut game, &mut rng, &mut scratch).unwrap();
            } else {
                Policy::Random.run(&mut game, &mut rng, &mut buf, true);
            }
        }
        let winners = game.winners();
        if winners & (1 << seat) != 0 {
            wins += 1.0 / winners.count_ones() as f64;
        }
    }
    assert!(
        wins >= 20.0,
        "mcts won {wins} of {games} games against random"
    );
}

/// A raised stop flag ends the longest search within milliseconds: `choose` fails with
/// `Interrupted` (so a study stops inside a game), and `analyse` returns what it has.
#[test]
fn a_raised_stop_flag_ends_the_search_at_once() {
    let rules = Arc::new(Rules::new(RulesSpec::default()).expect("base rules"));
    let mut game = Game::new(rules, Vec::new());
    game.reset_shuffled(&mut Rng::for_game(5, 0));
    let search = Mcts {
        playouts: MAX_PLAYOUTS,
        time: Some(MAX_TIME),
        ..Mcts::default()
    };
    let mut scratch = Scratch::default();
    let stop = scratch.stop.clone();
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.raise();
        std::time::Instant::now()
    });
    let chosen = search.choose(&game, &mut Rng::for_game(5, 1), &mut scratch);
    let raised = raiser.join().expect("raised");
    assert!(
        raised.elapsed() < Duration::from_millis(100),
        "answered {:?} after the flag",
        raised.elapsed()
    );
    assert_eq!(chosen, Err(PlayerError::Interrupted));
    let values = search.analyse(&game, &mut Rng::for_game(5, 1), &mut scratch);
    assert_eq!(
        values.len(),
        game.legal_actions().len(),
        "every action listed"
    );
}
