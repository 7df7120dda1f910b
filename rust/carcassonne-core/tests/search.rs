//! The PUCT search with a learned evaluation (`learn::search`):
//! - with equal priors and no value it spends its simulations over the legal actions,
//!   and the same seed gives the same search;
//! - the priors steer it: a prior on one action sends most simulations there;
//! - the values it backs up are the real ones: at a game's last placement, whose outcome
//!   each action decides, it chooses an action of the best outcome (the oracle: every
//!   action played out);
//! - values reach the right seats: an evaluation by the observation's virtual scores
//!   (relative seats) wins against random players with two, three and four seats;
//! - it never depends on hidden information: two games that differ only in the order of
//!   the unseen tiles give the same search;
//! - what the evaluation returns is checked: a negative or non-finite prior and a value
//!   outside [-1, 1] are refused naming the row, as is a finished game.

mod common;
use common::configs;

use carcassonne_core::Game;
use carcassonne_core::learn::action_space::ActionSpace;
use carcassonne_core::learn::codec::encode;
use carcassonne_core::learn::observation::ObservationLayout;
use carcassonne_core::learn::outcome::outcome;
use carcassonne_core::learn::search::{Puct, PuctReport, PuctTree, SearchError};
use carcassonne_core::rng::Rng;

type Eval<'a> = dyn FnMut(usize, &[u8], &[f32], &mut [f32], &mut [f32]) -> Result<(), String> + 'a;

/// Equal weights for every token and a value of 0 for every seat.
fn uniform(_n: usize, _b: &[u8], _v: &[f32], p: &mut [f32], v: &mut [f32]) -> Result<(), String> {
    p.fill(1.0);
    v.fill(0.0);
    Ok(())
}

fn search(
    puct: Puct,
    game: &Game,
    layout: &ObservationLayout,
    eval: &mut Eval<'_>,
    seed: u64,
) -> Result<PuctReport, SearchError<String>> {
    let mut tree = PuctTree::default();
    puct.search(game, layout, eval, &mut Rng::for_game(seed, 0), &mut tree)
}

/// `game` after `moves` random actions (fewer if it ends).
fn after(mut game: Game, moves: usize, rng: &mut Rng) -> Game {
    for _ in 0..moves {
        if game.is_over() {
            break;
        }
        let legal = game.legal_actions();
        game.apply(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    game
}

#[test]
fn equal_priors_spread_the_simulations_and_a_seed_repeats_the_search() {
    for (name, rules) in configs() {
        let space = ActionSpace::new(&rules, None).unwrap();
        let layout = ObservationLayout::new(&rules, &space);
        let mut rng = Rng::for_game(3, 1);
        for moves in [0, 9, 30] {
            let game = after(Game::shuffled(rules.clone(), 3, 1), moves, &mut rng);
            if game.is_over() {
                continue;
            }
            let mut calls = Vec::new();
            let mut eval = |n: usize, b: &[u8], v: &[f32], p: &mut [f32], val: &mut [f32]| {
                assert_eq!(b.len(), n * layout.board_len());
                assert_eq!(v.len(), n * layout.vector_len());
                assert_eq!(p.len(), n * space.size() as usize);
                assert_eq!(val.len(), n * rules.players());
                calls.push(n);
                uniform(n, b, v, p, val)
            };
            let puct = Puct::new(96, 8, 1.25).unwrap();
            let report = search(puct, &game, &layout, &mut eval, 5).unwrap();
            assert_eq!(
                report.actions.iter().map(|a| a.action).collect::<Vec<_>>(),
                game.legal_actions(),
                "{name}"
            );
            // The root's evaluation is the first simulation; every other goes through one
            // of its actions. Terminal leaves need no evaluation.
            let visits: u32 = report.actions.iter().map(|a| a.visits).sum();
            assert_eq!(visits, 95, "{name} after {moves}");
            assert!(
                calls.iter().all(|&n| (1..=8).contains(&n)),
                "{name}: {calls:?}"
            );
            assert_eq!(calls[0], 1, "{name}: the root is evaluated alone");
            let prior: f32 = report.actions.iter().map(|a| a.prior).sum();
            assert!((prior - 1.0).abs() < 1e-4, "{name}: priors sum to {prior}");
            let n = report.actions.len();
            if n > 1 {
                let most = report.actions.iter().map(|a| a.visits).max().unwrap();
                assert!(
                    most < 95,
                    "{name}: equal priors and values spread the visits"
                );
            }
            for a in &report.actions {
                assert!((-1.0..=1.0).contains(&a.value), "{name}");
            }
            let again = search(puct, &game, &layout, &mut uniform, 5).unwrap();
            assert_eq!(again, report, "{name}: same seed, same search");
        }
    }
}

#[test]
fn priors_steer_the_search() {
    for (name, rules) in configs() {
        let space = ActionSpace::new(&rules, None).unwrap();
        let layout = ObservationLayout::new(&rules, &space);
        let mut rng = Rng::for_game(4, 2);
        let game = after(Game::shuffled(rules.clone(), 4, 2), 12, &mut rng);
        let legal = game.legal_actions();
        if legal.len() < 3 {
            continue;
        }
        // Weight 1 on the tokens of the last legal action, a thousandth elsewhere.
        let target = *legal.last().unwrap();
        let tokens = encode(&space, &game, target).unwrap();
        let size = space.size() as usize;
        let mut eval = |n: usize, _b: &[u8], _v: &[f32], p: &mut [f32], val: &mut [f32]| {
            p.fill(1e-3);
            for row in 0..n {
                for &t in tokens.as_slice() {
                    p[row * size + t as usize] = 1.0;
                }
            }
            val.fill(0.0);
            Ok(())
        };
        let report = search(
            Puct::new(64, 4, 1.25).unwrap(),
            &game,
            &layout,
            &mut eval,
            1,
        )
        .unwrap();
        let best = report.best().unwrap();
        assert_eq!(best, target, "{name}");
        let top = report.actions.iter().find(|a| a.action == target).unwrap();
        assert!(top.prior > 0.5, "{name}: prior {}", top.prior);
        assert!(top.visits > 32, "{name}: {} visits", top.visits);
    }
}

#[test]
fn at_the_last_placement_it_chooses_a_best_outcome() {
    let (_, rules) = configs().into_iter().next().unwrap();
    let space = ActionSpace::new(&rules, None).unwrap();
    let layout = ObservationLayout::new(&rules, &space);
    let mut differing = 0;
    for g in 0..300u64 {
        let mut rng = Rng::for_game(6, g);
        let mut game = Game::shuffled(rules.clone(), 6, g);
        // Play to the last tile.
        while !game.is_over() && !game.remaining().is_empty() {
            let legal = game.legal_actions();
            game.apply(legal[rng.below(legal.len() as u32) as usize])
                .unwrap();
        }
        if game.is_over() {
            continue;
        }
        let decider = game.decider();
        let results: Vec<f32> = game
            .legal_actions()
            .into_iter()
            .map(|a| {
                let mut g = game.clone();
                g.apply(a).unwrap();
                assert!(g.is_over());
                outcome(g.scores())[decider]
            })
            .collect();
        let best = results.iter().copied().fold(f32::MIN, f32::max);
        if results.iter().all(|&r| r == best) {
            continue;
        }
        differing += 1;
        let sims = (4 * results.len() as u32).max(64);
        let report = search(
            Puct::new(sims, 8, 1.25).unwrap(),
            &game,
            &layout,
            &mut uniform,
            g,
        )
        .unwrap();
        let chosen = report.best().unwrap();
        let i = game
            .legal_actions()
            .iter()
            .position(|&a| a == chosen)
            .unwrap();
        assert_eq!(
            results[i], best,
            "game {g}: chose an outcome of {}",
            results[i]
        );
        // Every action visited holds its true outcome as its mean.
        for (a, &r) in report.actions.iter().zip(&results) {
            if a.visits > 0 {
                assert_eq!(a.value, r, "game {g}");
            }
        }
    }
    assert!(
        differing >= 5,
        "only {differing} positions where the last tile decides"
    );
}

#[test]
fn an_evaluation_by_virtual_scores_beats_random_players() {
    for (name, rules) in configs() {
        if !["base", "classic-4p", "south-seas"].contains(&name) {
            continue;
        }
        let space = ActionSpace::new(&rules, None).unwrap();
        let layout = ObservationLayout::new(&rules, &space);
        let players = rules.players();
        let mut at = 0;
        for (field, len) in layout.fields() {
            if field == "virtual_score" {
                break;
            }
            at += len;
        }
        // Each seat's value: its virtual margin over the best other, squashed.
        let mut eval = |n: usize, _b: &[u8], v: &[f32], p: &mut [f32], val: &mut [f32]| {
            p.fill(1.0);
            let vl = v.len() / n;
            for row in 0..n {
                let vs = &v[row * vl + at..][..players];
                for k in 0..players {
                    let best = (0..players)
                        .filter(|&q| q != k)
                        .map(|q| vs[q])
                        .fold(f32::MIN, f32::max);
                    val[row * players + k] = ((vs[k] - best) / 10.0).tanh();
                }
            }
            Ok::<(), String>(())
        };
        let puct = Puct::new(24, 4, 1.0).unwrap();
        let mut tree = PuctTree::default();
        let mut won = 0;
        let games = 6;
        for g in 0..games {
            let mut game = Game::shuffled(rules.clone(), 12, g);
            let mut rng = Rng::for_game(12, g);
            let seat = g as usize % players;
            while !game.is_over() {
                let action = if game.decider() == seat {
                    puct.search(&game, &layout, &mut eval, &mut rng, &mut tree)
                        .unwrap()
                        .best()
                        .unwrap()
                } else {
                    let legal = game.legal_actions();
                    legal[rng.below(legal.len() as u32) as usize]
                };
                game.apply(action).unwrap();
            }
            won += (outcome(game.scores())[seat] == 1.0) as u32;
        }
        assert!(
            won >= 5,
            "{name}: won {won} of {games} against random players"
        );
    }
}

#[test]
fn hidden_information_does_not_change_the_search() {
    for (name, rules) in configs() {
        let space = ActionSpace::new(&rules, None).unwrap();
        let layout = ObservationLayout::new(&rules, &space);
        let mut rng = Rng::for_game(8, 0);
        let game = after(Game::shuffled(rules.clone(), 8, 0), 7, &mut rng);
        if game.is_over() {
            continue;
        }
        let mut other = game.clone();
        other.determinize(&mut Rng::for_game(99, 3));
        // An evaluation that reads the observations: the first byte and float of each.
        let size = space.size() as usize;
        let mut seen = |n: usize, b: &[u8], v: &[f32], p: &mut [f32], val: &mut [f32]| {
            let bl = b.len() / n;
            for row in 0..n {
                let s: u32 = b[row * bl..(row + 1) * bl].iter().map(|&x| x as u32).sum();
                for (t, w) in p[row * size..(row + 1) * size].iter_mut().enumerate() {
                    *w = ((s as usize + t) % 7) as f32;
                }
                let vl = v.len() / n;
                let vs: f32 = v[row * vl..(row + 1) * vl].iter().sum();
                val[row * rules.players()] = (vs / 1000.0).tanh();
            }
            Ok(())
        };
        let puct = Puct::new(48, 6, 1.0).unwrap();
        let a = search(puct, &game, &layout, &mut seen, 2).unwrap();
        let b = search(puct, &other, &layout, &mut seen, 2).unwrap();
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn bad_evaluations_and_finished_games_are_refused() {
    let (_, rules) = configs().into_iter().next().unwrap();
    let space = ActionSpace::new(&rules, None).unwrap();
    let layout = ObservationLayout::new(&rules, &space);
    let game = Game::shuffled(rules.clone(), 1, 0);
    let puct = Puct::new(16, 4, 1.0).unwrap();
    let mut negative = |_: usize, _: &[u8], _: &[f32], p: &mut [f32], _: &mut [f32]| {
        p[5] = -0.5;
        Ok(())
    };
    assert_eq!(
        search(puct, &game, &layout, &mut negative, 0),
        Err(SearchError::Prior {
            row: 0,
            token: 5,
            value: -0.5
        })
    );
    let mut nan = |_: usize, _: &[u8], _: &[f32], p: &mut [f32], v: &mut [f32]| {
        p.fill(1.0);
        v[1] = f32::NAN;
        Ok(())
    };
    let e = search(puct, &game, &layout, &mut nan, 0).unwrap_err();
    assert!(
        matches!(
            e,
            SearchError::Value {
                row: 0,
                seat: 1,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("seat 1 of position 0"), "{e}");
    let mut big = |_: usize, _: &[u8], _: &[f32], p: &mut [f32], v: &mut [f32]| {
        p.fill(1.0);
        v[0] = 1.5;
        Ok(())
    };
    assert!(matches!(
        search(puct, &game, &layout, &mut big, 0),
        Err(SearchError::Value { seat: 0, .. })
    ));
    let mut failing =
        |_: usize, _: &[u8], _: &[f32], _: &mut [f32], _: &mut [f32]| Err("no network".to_string());
    assert_eq!(
        search(puct, &game, &layout, &mut failing, 0),
        Err(SearchError::Evaluation("no network".into()))
    );
    let mut rng = Rng::for_game(1, 0);
    let over = after(game.clone(), 10_000, &mut rng);
    assert!(over.is_over());
    assert_eq!(
        search(puct, &over, &layout, &mut uniform, 0),
        Err(SearchError::GameOver)
    );
    assert!(Puct::new(0, 1, 1.0).is_err());
    assert!(Puct::new(1, 0, 1.0).is_err());
    assert!(Puct::new(1, 1, f64::NAN).is_err());
    assert!(Puct::new(1, 1, -1.0).is_err());
}
