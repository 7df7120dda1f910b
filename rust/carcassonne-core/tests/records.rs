//! Game records: loading many of the same rules validates those rules once.

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
