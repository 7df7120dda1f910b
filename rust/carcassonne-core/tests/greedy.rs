//! Virtual scores and the greedy player, in every rule system:
//! - `virtual_scores` is what ending the game now (`end_now`) leaves in `scores`, and
//!   `virtual_thirds` does not change when the game ends;
//! - the greedy player's value of every legal action (worked out without playing it) is
//!   the lead (own virtual score minus the best opponent's) after playing it on a copy,
//!   and the action it chooses has the best value; the Maps extra turn's value is the
//!   expected lead after the next tile, worked out by playing every move of every tile.

use std::sync::Arc;

use carcassonne_core::engine::decision::{Decision, Phase};
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};
use carcassonne_core::play::players::policy::greedy::greedy_values;
use carcassonne_core::play::players::{Player, Policy, Scratch};
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
