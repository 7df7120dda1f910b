//! Game records: loading many of the same rules validates those rules once; records of an
//! older rules version replay.

/// Loading records of one spec validates the rules once and shares them (`Rules::shared`);
/// a spec that fails is refused every time, and a different spec gets its own rules.
#[test]
fn records_of_one_spec_share_their_rules() {
    use carcassonne_core::engine::rules::{Rules, RulesSpec};
    let spec = RulesSpec {
        players: 3,
        ..RulesSpec::default()
    };
    let a = Rules::shared(&spec).unwrap();
    let b = Rules::shared(&spec).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert_eq!(a.spec, Rules::new(spec.clone()).unwrap().spec);
    let other = Rules::shared(&RulesSpec::default()).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&a, &other));
    let bad = RulesSpec {
        players: 99,
        ..RulesSpec::default()
    };
    assert!(Rules::shared(&bad).is_err());
    assert!(Rules::shared(&bad).is_err());
    // Records of the same rules load into games sharing them.
    let mut g = carcassonne_core::Game::shuffled(a.clone(), 4, 0);
    carcassonne_core::play::players::Policy::Random.run(
        &mut g,
        &mut carcassonne_core::rng::Rng::for_game(4, 0),
        &mut Vec::new(),
        false,
    );
    let json = g.to_json();
    let (x, y) = (
        carcassonne_core::Game::from_json(&json).unwrap(),
        carcassonne_core::Game::from_json(&json).unwrap(),
    );
    assert!(std::sync::Arc::ptr_eq(x.rules(), y.rules()));
    assert_eq!(x.to_json(), json);
}

/// A record of rules version 3 (before the Maps random player's draw changed, version 4)
/// still replays: a record holds the moves, and the shuffles did not change. The file is a
/// random game on the continental map (seed 2026, game 3) written at 83229ba.
#[test]
fn a_maps_record_of_rules_version_3_replays() {
    let json = include_str!("data/maps-random-game-rules-v3.json");
    assert!(json.contains("\"rules_version\":3"));
    let game = carcassonne_core::Game::from_json(json).unwrap();
    assert!(game.is_over());
    assert_eq!(&game.scores()[..2], &[60, 69]);
    assert_eq!(game.moves().len(), json.matches("\"rotation\"").count());
    // Written again, it says the version it is replayed under; the moves are the same.
    let again = game.to_json();
    assert!(again.contains(&format!(
        "\"rules_version\":{}",
        carcassonne_core::engine::rules::RULES_VERSION
    )));
    let back = carcassonne_core::Game::from_json(&again).unwrap();
    assert_eq!(back.moves(), game.moves());
}
