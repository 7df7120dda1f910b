//! The configurations the learning interface's tests run over: one of every rule system
//! (`common::configs`), and Carcassonne Maps with small-town variant 1, whose extra turn
//! is a decision of its own (the `extra_turn` block of the action space, the
//! "extra_turn" entry of the observations' `phase` field), alone and with The Ferries'
//! lakes. A test crate that uses it declares `mod common;` too.

// Each test crate uses only some of these.
#![allow(dead_code)]

use std::sync::Arc;

use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};

use crate::common::configs;

/// Maps with small-town variant 1: continental for two players, and continental with
/// The Ferries' tiles for three (variant 3, the road bonus, too).
pub fn extra_turn_configs() -> Vec<(&'static str, Arc<Rules>)> {
    let r = |spec| Arc::new(Rules::new(spec).expect("a configuration"));
    vec![
        (
            "maps-extra-turn",
            r(RulesSpec {
                small_towns: vec![1],
                ..RulesSpec::maps("continental", 2)
            }),
        ),
        (
            "maps-ferries-extra-turn",
            r(RulesSpec {
                small_towns: vec![1, 3],
                tile_sets: DataSource::builtins(&["base", "ferries"]),
                ..RulesSpec::maps("continental", 3)
            }),
        ),
    ]
}

/// `common::configs`, then `extra_turn_configs`.
pub fn learning_configs() -> Vec<(&'static str, Arc<Rules>)> {
    let mut all = configs();
    all.extend(extra_turn_configs());
    all
}
