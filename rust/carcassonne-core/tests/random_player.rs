//! The random player is uniform over the legal moves (placement and islander or meeple
//! choice jointly, South Seas take-backs included; on a map the placement is drawn from
//! the board's counted placements), although it never lists them: in
//! fixed mid-game positions, many independent draws give only listed moves, every listed
//! move comes up, and the counts pass a chi-square test against the uniform distribution.
//! (Ferries games are left out: there the ferry choices are drawn one by one, which is
//! not uniform over the joint list, as `Policy` documents.)

use std::collections::HashMap;
use std::sync::Arc;

use carcassonne_core::engine::decision::Phase;
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};
use carcassonne_core::play::players::Policy;
use carcassonne_core::rng::Rng;
use carcassonne_core::{Game, Move};

/// Draws per listed move: enough for every move to come up and for a fair test.
const DRAWS_PER_MOVE: usize = 300;

/// Critical value of the chi-square distribution with `df` degrees of freedom at an upper
/// tail of about 1e-6 (Wilson-Hilferty), so a correct sampler fails about once in a
/// million seeds; the seeds here are fixed, so the outcome is too.
fn chi_square_critical(df: f64) -> f64 {
    let z = 4.753; // standard normal quantile at 1 - 1e-6
    let a = 2.0 / (9.0 * df);
    df * (1.0 - a + z * a.sqrt()).powi(3)
}

/// Plays random turns from game `index` of `seed` until `turns` tiles are down and the
/// player to move has a tile to place and satisfies `want`; None if the game ends first.
fn position(
    rules: &Arc<Rules>,
    index: u64,
    turns: u32,
    want: impl Fn(&Game) -> bool,
) -> Option<Game> {
    let mut game = Game::shuffled(rules.clone(), 5, index);
    let mut rng = Rng::for_game(5, index);
    let mut buf = Vec::new();
    while !game.is_over() {
        if game.phase() == Phase::Place && game.turn() >= turns && want(&game) {
            return Some(game);
        }
        Policy::Random.step(&mut game, &mut rng, &mut buf);
    }
    None
}

/// Draws the random player's move `DRAWS_PER_MOVE` times per listed move, each from its
/// own stream, and checks the counts.
fn assert_uniform(game: &Game, what: &str) {
    let listed = game.legal_moves();
    assert!(listed.len() > 1, "{what}: a position with a choice");
    let index: HashMap<Move, usize> = listed.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    assert_eq!(index.len(), listed.len(), "{what}: each move listed once");
    let draws = DRAWS_PER_MOVE * listed.len();
    let mut counts = vec![0u64; listed.len()];
    let mut buf = Vec::new();
    for i in 0..draws {
        let mut rng = Rng::for_game(77, i as u64);
        let mv = Policy::Random.choose_move(game, &mut rng, &mut buf);
        match index.get(&mv) {
            Some(&k) => counts[k] += 1,
            None => panic!("{what}: drew {mv:?}, which is not a legal move"),
        }
    }
    let expected = draws as f64 / listed.len() as f64;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let critical = chi_square_critical((listed.len() - 1) as f64);
    assert!(
        counts.iter().all(|&c| c > 0),
        "{what}: some listed move never drawn in {draws} draws"
    );
    assert!(
        chi2 < critical,
        "{what}: chi-square {chi2:.1} over {} moves exceeds {critical:.1}",
        listed.len()
    );
}

/// What a wanted position must satisfy.
type Want = Box<dyn Fn(&Game) -> bool>;

fn rules(spec: RulesSpec) -> Arc<Rules> {
    Arc::new(Rules::new(spec).unwrap())
}

#[test]
fn classic_random_moves_are_uniform() {
    let base = rules(RulesSpec::default());
    let all = rules(RulesSpec {
        tile_sets: DataSource::builtins(&["base", "inns-and-cathedrals", "traders-and-builders"]),
        players: 3,
        ..RulesSpec::default()
    });
    for (name, rules, turns) in [("base", &base, 12), ("all classic sets", &all, 30)] {
        // A meeple in hand, so placements and meeple choices are drawn jointly.
        let game =
            position(rules, 1, turns, |g| g.supply()[g.current_player()] > 0).expect("a position");
        assert_uniform(&game, name);
    }
}

#[test]
fn south_seas_random_moves_are_uniform() {
    // Both readings of taking an islander back (S-3): any time, or only with an empty
    // supply; with Friday the placement choice is the same.
    let any_time = rules(RulesSpec::south_seas(2));
    let empty_supply = rules(RulesSpec {
        retrieve_only_when_supply_empty: true,
        ..RulesSpec::south_seas(3)
    });
    let friday = rules(RulesSpec {
        friday: true,
        ..RulesSpec::south_seas(2)
    });
    let cases: [(&str, &Arc<Rules>, Want); 3] = [
        // Islanders both in hand and on the board: place, take back and neither.
        (
            "South Seas",
            &any_time,
            Box::new(|g: &Game| {
                let p = g.current_player();
                g.supply()[p] > 0 && g.islanders_of(p).count() >= 2
            }),
        ),
        // An empty supply: taking back is allowed, placing is not.
        (
            "South Seas, take back only with an empty supply",
            &empty_supply,
            Box::new(|g: &Game| g.supply()[g.current_player()] == 0),
        ),
        (
            "South Seas with Friday",
            &friday,
            Box::new(|g: &Game| {
                let p = g.current_player();
                g.supply()[p] > 0 && g.islanders_of(p).count() >= 1
            }),
        ),
    ];
    for (name, rules, want) in cases {
        let game = (0..50)
            .find_map(|i| position(rules, i, 15, &want))
            .expect("a position");
        let moves = game.legal_moves();
        let retrievable = game.may_retrieve() && moves.iter().any(|m| m.retrieve.is_some());
        assert!(
            retrievable,
            "{name}: the position lets the player take an islander back"
        );
        assert_uniform(&game, name);
    }
}

#[test]
fn maps_random_moves_are_uniform() {
    // On a map the placement is drawn as the k-th of the board's counted placements (a
    // walk from the nearer end of the open squares), not by redrawing squares: early
    // (few squares, a large-city frontier just opened) and late in the game, on the
    // continental map and on the coastal one (islands, ferry connections).
    let continental = rules(RulesSpec::maps("continental", 2));
    let coastal = rules(RulesSpec::maps("coastal", 3));
    for (name, rules, turns) in [
        ("continental map, early", &continental, 3),
        ("continental map, late", &continental, 60),
        ("coastal map", &coastal, 40),
    ] {
        let game = (0..50)
            .find_map(|i| position(rules, i, turns, |g| g.supply()[g.current_player()] > 0))
            .expect("a position");
        assert_uniform(&game, name);
    }
}
