//! Helpers shared by the integration tests: one configuration of every rule system (the
//! action model, clone, MCTS tests), ship files written in the test, user data files,
//! games on a fixed deck, and what a game holds.

// Each test crate uses only some of these.
#![allow(dead_code)]

use std::sync::Arc;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};

/// Ships nobody can afford in the test positions (points 2..6).
pub const EXPENSIVE: &[(u8, &str)] = &[
    (2, "any 20"),
    (3, "any 20"),
    (4, "any 20"),
    (5, "any 20"),
    (6, "any 20"),
];

/// A ship file of (points, needs), ids "s0", "s1", ...
pub fn ships_toml(ships: &[(u8, &str)]) -> String {
    let mut s = String::from("name = \"test-ships\"\n");
    for (i, (points, needs)) in ships.iter().enumerate() {
        s.push_str(&format!(
            "\n[[ships]]\nid = \"s{i}\"\npoints = {points}\nneeds = \"{needs}\"\n"
        ));
    }
    s
}

/// A user's data file given by its text.
pub fn user_file(path: &str, toml: impl Into<String>) -> DataSource {
    DataSource::File {
        path: path.into(),
        toml: toml.into(),
    }
}

/// A game drawing `deck` (ids of tile set `set`) in order, ships and Friday tiles in
/// file order.
pub fn new_game_of(rules: &Arc<Rules>, set: &str, deck: &[&str]) -> Game {
    let deck = deck
        .iter()
        .map(|id| rules.tile_index(&format!("{set}/{id}")).unwrap())
        .collect();
    let ships = (0..rules.ships.len() as u16).collect();
    Game::with_ships(Arc::clone(rules), deck, ships)
}

/// Every player's wares (shells, bananas, fish).
pub fn all_wares(g: &Game) -> Vec<[u32; 3]> {
    (0..g.rules().players()).map(|p| g.wares(p)).collect()
}

/// One configuration of every rule system: base, all classic sets with 4 players and
/// both options, The Ferries, South Seas (3 players), Friday, Maps, and Maps with a deck
/// shorter than the tile set (what `determinize` redraws).
pub fn configs() -> Vec<(&'static str, Arc<Rules>)> {
    let r = |spec| Arc::new(Rules::new(spec).expect("a built-in configuration"));
    vec![
        ("base", r(RulesSpec::default())),
        (
            "classic-4p",
            r(RulesSpec {
                players: 4,
                inns_and_cathedrals_scoring: true,
                traders_goods: true,
                tile_sets: DataSource::builtins(&[
                    "base",
                    "inns-and-cathedrals",
                    "traders-and-builders",
                ]),
                ..RulesSpec::default()
            }),
        ),
        (
            "ferries",
            r(RulesSpec {
                tile_sets: DataSource::builtins(&["base", "ferries"]),
                ..RulesSpec::default()
            }),
        ),
        ("south-seas", r(RulesSpec::south_seas(3))),
        (
            "friday",
            r(RulesSpec {
                friday: true,
                ..RulesSpec::south_seas(2)
            }),
        ),
        ("maps", r(RulesSpec::maps("continental", 2))),
        (
            "maps-short-deck",
            r(RulesSpec {
                deck_size: Some(40),
                ..RulesSpec::maps("coastal", 3)
            }),
        ),
    ]
}
