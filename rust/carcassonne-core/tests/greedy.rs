//! Virtual scores and the greedy player, in every rule system:
//! - `virtual_scores` is what ending the game now (`end_now`) leaves in `scores`, and
//!   `virtual_thirds` does not change when the game ends;
//! - the greedy player's value of every legal action (worked out without playing it) is
//!   the lead (own virtual score minus the best opponent's) after playing it on a copy,
//!   and the action it chooses has the best value; the Maps extra turn's value is the
//!   expected lead after the next tile, worked out by playing every move of every tile;
//! - the greedy player with randomness (`RandomizedGreedy`) is the greedy player at 0 and
//!   the random player at 1, draw for draw; in between each action is the random or the
//!   greedy player's, the random one about as often as the randomness says, and a study
//!   of it repeats whatever the threads.

use std::sync::Arc;

use carcassonne_core::engine::decision::{Decision, Phase};
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};
use carcassonne_core::play::players::policy::greedy::greedy_values;
use carcassonne_core::play::players::policy::greedy_randomness::RandomizedGreedy;
use carcassonne_core::play::players::{Lineup, Player, Policy, Scratch};
use carcassonne_core::play::simulate::simulate;
use carcassonne_core::rng::Rng;
use carcassonne_core::{Action, Game};

fn configs() -> Vec<(&'static str, Arc<Rules>)> {
    let r = |spec| Arc::new(Rules::new(spec).expect("a built-in configuration"));
    let classic = |players, sets: &[&str]| RulesSpec {
        players,
        inns_and_cathedrals_scoring: true,
        traders_goods: true,
        tile_sets: DataSource::builtins(sets),
        ..RulesSpec::default()
    };
    vec![
        ("base", r(RulesSpec::default())),
        (
            "base-4p",
            r(RulesSpec {
                players: 4,
                ..RulesSpec::default()
            }),
        ),
        (
            "classic-4p",
            r(classic(
                4,
                &["base", "inns-and-cathedrals", "traders-and-builders"],
            )),
        ),
        (
            "classic-3p-no-farmers",
            r(RulesSpec {
                farmers: false,
                ..classic(3, &["base", "inns-and-cathedrals", "traders-and-builders"])
            }),
        ),
        (
            "ferries",
            r(RulesSpec {
                tile_sets: DataSource::builtins(&["base", "ferries"]),
                ..RulesSpec::default()
            }),
        ),
        ("south-seas", r(RulesSpec::south_seas(2))),
        ("south-seas-4p", r(RulesSpec::south_seas(4))),
        (
            "friday",
            r(RulesSpec {
                friday: true,
                ..RulesSpec::south_seas(3)
            }),
        ),
        ("maps", r(RulesSpec::maps("continental", 2))),
        (
            "maps-towns",
            r(RulesSpec {
                small_towns: vec![1, 2, 3],
                ..RulesSpec::maps("coastal", 3)
            }),
        ),
    ]
}

/// The decider's virtual score minus the best opponent's, in thirds of a point.
fn lead(g: &Game, player: usize) -> i32 {
    let v = g.virtual_thirds();
    let best = (0..g.rules().players())
        .filter(|q| *q != player)
        .map(|q| v[q])
        .max()
        .unwrap();
    v[player] - best
}

/// Plays a game with a random or greedy player in each seat (by seed), calling `visit`
/// before every action.
fn play(rules: &Arc<Rules>, seed: u64, mut visit: impl FnMut(&Game)) {
    let mut game = Game::shuffled(Arc::clone(rules), seed, 0);
    let mut rng = Rng::for_game(seed, 1);
    let mut scratch = Scratch::default();
    let greedy_seats = seed % 4;
    while !game.is_over() {
        visit(&game);
        let policy = if (greedy_seats >> (game.decider() % 2)) & 1 != 0 {
            Policy::Greedy
        } else {
            Policy::Random
        };
        policy.play(&mut game, &mut rng, &mut scratch).unwrap();
    }
    visit(&game);
}

#[test]
fn virtual_scores_are_the_scores_of_ending_now() {
    for (name, rules) in configs() {
        let mut checked = 0;
        for seed in 0..12 {
            play(&rules, seed, |g| {
                let players = rules.players();
                let thirds = g.virtual_thirds();
                let points = g.virtual_scores();
                let mut ended = g.clone();
                ended.end_now();
                assert!(ended.is_over());
                assert_eq!(&points[..players], ended.scores(), "{name} seed {seed}");
                assert_eq!(thirds, ended.virtual_thirds(), "{name} seed {seed}");
                if g.is_over() {
                    assert_eq!(&points[..players], g.scores(), "{name}");
                }
                checked += 1;
            });
        }
        assert!(checked > 500, "{name}: {checked} positions");
    }
}

#[test]
fn greedy_values_are_the_leads_after_playing() {
    for (name, rules) in configs() {
        let (mut positions, mut actions, mut decisions) = (0, 0, 0);
        let mut extra_turns = 0;
        let games = if name.starts_with("maps") || name == "ferries" {
            3
        } else {
            6
        };
        for seed in 0..games {
            play(&rules, 100 + seed, |g| {
                if g.is_over() {
                    return;
                }
                let player = g.decider();
                let values = greedy_values(g);
                let mut listed: Vec<Action> = values.iter().map(|(a, _)| *a).collect();
                listed.sort_by_key(|a| format!("{a:?}"));
                let mut legal = g.legal_actions();
                legal.sort_by_key(|a| format!("{a:?}"));
                assert_eq!(listed, legal, "{name}: every legal action, once");
                let mut best = i32::MIN;
                for (a, v) in &values {
                    if let Action::Decide(Decision::ExtraTurn(take)) = a {
                        let (lo, hi) = extra_turn_value(g, *take);
                        assert!(
                            (lo..=hi).contains(v),
                            "{name} seed {seed}: {a:?} valued {v}, not in {lo}..={hi}"
                        );
                        extra_turns += 1;
                    } else {
                        let mut copy = g.clone();
                        copy.apply(*a).unwrap();
                        assert_eq!(*v, lead(&copy, player), "{name} seed {seed}: {a:?}");
                    }
                    best = best.max(*v);
                }
                // The greedy choice has the best value.
                let mut scratch = Scratch::default();
                let mut rng = Rng::for_game(seed, positions as u64);
                let chosen = Policy::Greedy.choose(g, &mut rng, &mut scratch).unwrap();
                let chosen_value = values.iter().find(|(a, _)| *a == chosen).unwrap().1;
                assert_eq!(chosen_value, best, "{name}: {chosen:?}");
                if !matches!(chosen, Action::Decide(Decision::ExtraTurn(_))) {
                    let mut copy = g.clone();
                    copy.apply(chosen).unwrap();
                    assert_eq!(lead(&copy, player), best, "{name}: {chosen:?}");
                }
                positions += 1;
                actions += values.len();
                if !matches!(chosen, Action::Place(_)) {
                    decisions += 1;
                }
            });
        }
        eprintln!(
            "{name}: {positions} positions, {actions} actions, {decisions} decisions, {extra_turns} extra-turn values"
        );
        assert!(positions > 100, "{name}: {positions} positions");
        if rules.town_extra_turn {
            assert!(extra_turns > 0, "{name}: an extra turn was valued");
        }
    }
}

/// The extra turn's value worked out by playing every move: over the unseen tile kinds
/// that fit (weighted by their unseen counts), put next and drawn by the decider (taking)
/// or the next player (declining), the decider's lead after the mover's best move. With
/// several best moves of another player the decider's lead may differ between them: the
/// bounds then span the least and the most of it (equal when there is one).
fn extra_turn_value(g: &Game, take: bool) -> (i32, i32) {
    let player = g.decider();
    let mut unseen = Vec::new();
    g.unseen_counts(&mut unseen);
    let (mut lo, mut hi, mut weight) = (0i64, 0i64, 0i64);
    for (tile, &count) in unseen.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let mut copy = g.clone();
        copy.put_next(tile as u16);
        copy.decide(Decision::ExtraTurn(take)).unwrap();
        if copy.tile() != Some(tile as u16) {
            continue; // fits nowhere: put aside, never placed next
        }
        let mover = copy.current_player();
        assert_eq!(mover == player, take);
        let mut outcomes = Vec::new();
        for mv in copy.legal_moves() {
            let mut after = copy.clone();
            after.play(mv).unwrap();
            outcomes.push((lead(&after, mover), lead(&after, player)));
        }
        let best = outcomes.iter().map(|o| o.0).max().unwrap();
        let mine = outcomes.iter().filter(|o| o.0 == best).map(|o| o.1);
        lo += count as i64 * mine.clone().min().unwrap() as i64;
        hi += count as i64 * mine.max().unwrap() as i64;
        weight += count as i64;
    }
    let mean = |s: i64| (s as f64 / weight as f64).round() as i32;
    (mean(lo), mean(hi))
}

/// Self-play makes the greedy ferry choices after placing the tile (`Policy::step`):
/// replayed through the checked `play`, every move of those games is legal and gives
/// the same game.
#[test]
fn greedy_self_play_moves_are_legal() {
    for (name, rules) in configs() {
        if rules.system == carcassonne_core::data::tileset::System::SouthSeas {
            continue;
        }
        for seed in 0..4 {
            let mut game = Game::shuffled(Arc::clone(&rules), seed, 0);
            let mut rng = Rng::for_game(seed, 1);
            Policy::Greedy.run(&mut game, &mut rng, &mut Vec::new(), false);
            let mut replay = Game::shuffled(Arc::clone(&rules), seed, 0);
            let mut decisions = game.decisions().iter();
            for mv in game.moves() {
                replay
                    .play(*mv)
                    .unwrap_or_else(|e| panic!("{name}: {mv:?}: {e}"));
                // Maps, variant 1: the extra turn decided as in the game.
                while replay.phase() == Phase::ExtraTurn {
                    let (_, d) = decisions.next().expect("the game decided it");
                    replay.decide(*d).unwrap();
                }
            }
            assert!(replay.is_over(), "{name}");
            assert_eq!(replay.scores(), game.scores(), "{name}");
        }
    }
}

/// Randomness 0 is the greedy player and 1 the random player: the same action from the
/// same stream at every step, the same stream left after it (no draw of its own), and
/// the same whole game through the fast path (`play`), in every rule system. Every
/// action is applied checked: all are legal.
#[test]
fn randomness_zero_is_greedy_and_one_is_random() {
    for (name, rules) in configs() {
        for (randomness, policy) in [(0.0, Policy::Greedy), (1.0, Policy::Random)] {
            let player = RandomizedGreedy::new(randomness).unwrap();
            assert_eq!(player.as_policy(), Some(policy));
            for seed in 0..3 {
                let mut game = Game::shuffled(Arc::clone(&rules), seed, 0);
                let mut fast = game.clone();
                let mut rng = Rng::for_game(seed, 1);
                let mut fast_rng = rng.clone();
                let (mut mine, mut theirs) = (Scratch::default(), Scratch::default());
                while !game.is_over() {
                    let mut expected_rng = rng.clone();
                    let chosen = player.choose(&game, &mut rng, &mut mine).unwrap();
                    let expected = policy
                        .choose(&game, &mut expected_rng, &mut theirs)
                        .unwrap();
                    assert_eq!(chosen, expected, "{name} seed {seed} at {randomness}");
                    assert_eq!(rng, expected_rng, "{name} seed {seed}: no draw of its own");
                    game.apply(chosen)
                        .unwrap_or_else(|e| panic!("{name} seed {seed}: {chosen:?}: {e}"));
                    player.play(&mut fast, &mut fast_rng, &mut mine).unwrap();
                }
                assert!(fast.is_over(), "{name} seed {seed}");
                assert_eq!(fast.moves(), game.moves(), "{name} seed {seed}");
                assert_eq!(fast.decisions(), game.decisions(), "{name} seed {seed}");
                assert_eq!(fast.scores(), game.scores(), "{name} seed {seed}");
            }
        }
    }
}

/// In between, every action is the random player's or the greedy player's, each drawing
/// from the stream after the one 64-bit draw that chose between them; where the two
/// differ, the random one is taken about as often as the randomness (within four
/// standard deviations over all the rule systems' actions). Each is legal (applied
/// checked), and the fast path (`play`) plays the same game.
#[test]
fn randomness_takes_the_random_action_that_often() {
    for randomness in [0.3, 0.8] {
        let player = RandomizedGreedy::new(randomness).unwrap();
        assert_eq!(player.as_policy(), None);
        assert_eq!(
            player.name(),
            format!("greedy(randomness={randomness})"),
            "its name"
        );
        let (mut differ, mut took_random) = (0u32, 0u32);
        for (name, rules) in configs() {
            for seed in 0..3 {
                let mut game = Game::shuffled(Arc::clone(&rules), seed, 0);
                let mut fast = game.clone();
                let mut rng = Rng::for_game(seed, 1);
                let mut fast_rng = rng.clone();
                let mut scratch = Scratch::default();
                while !game.is_over() {
                    let mut after = rng.clone();
                    after.next_u64();
                    let random = Policy::Random
                        .choose(&game, &mut after.clone(), &mut scratch)
                        .unwrap();
                    let greedy = Policy::Greedy
                        .choose(&game, &mut after.clone(), &mut scratch)
                        .unwrap();
                    let chosen = player.choose(&game, &mut rng, &mut scratch).unwrap();
                    assert!(
                        chosen == random || chosen == greedy,
                        "{name} seed {seed}: {chosen:?} is neither {random:?} nor {greedy:?}"
                    );
                    if random != greedy {
                        differ += 1;
                        took_random += (chosen == random) as u32;
                    }
                    game.apply(chosen)
                        .unwrap_or_else(|e| panic!("{name} seed {seed}: {chosen:?}: {e}"));
                    player.play(&mut fast, &mut fast_rng, &mut scratch).unwrap();
                }
                assert_eq!(fast.moves(), game.moves(), "{name} seed {seed}");
                assert_eq!(fast.decisions(), game.decisions(), "{name} seed {seed}");
            }
        }
        let n = differ as f64;
        let share = took_random as f64 / n;
        let sd = (randomness * (1.0 - randomness) / n).sqrt();
        eprintln!("randomness {randomness}: random in {took_random} of {differ} actions");
        assert!(differ > 1000, "{differ} actions where the two differ");
        assert!(
            (share - randomness).abs() < 4.0 * sd,
            "randomness {randomness}: random in {share} of {differ} actions"
        );
    }
}

/// A study with the greedy player with randomness in a seat (its own loop, not the
/// built-in policies') repeats at a seed whatever the threads, and its games differ from
/// both the greedy player's and the random player's.
#[test]
fn randomized_greedy_studies_repeat_whatever_the_threads() {
    for (name, rules) in configs() {
        if rules.players() != 2 {
            continue;
        }
        let half: Arc<dyn Player> = Arc::new(RandomizedGreedy::new(0.5).unwrap());
        let run = |first: Arc<dyn Player>, threads| {
            let lineup = Lineup::new(vec![first, Arc::new(Policy::Greedy)], 2).unwrap();
            simulate(&rules, 8, 0, 7, lineup, Some(threads)).unwrap()
        };
        let one = run(Arc::clone(&half), 1);
        assert_eq!(one, run(Arc::clone(&half), 2), "{name}: threads");
        assert_eq!(one, run(Arc::clone(&half), 1), "{name}: repeats");
        assert_ne!(one, run(Arc::new(Policy::Greedy), 1), "{name}: not greedy");
        assert_ne!(one, run(Arc::new(Policy::Random), 1), "{name}: not random");
    }
}
