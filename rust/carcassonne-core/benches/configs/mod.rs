//! The standard configurations whose cost is measured, shared by the criterion benches
//! (`benches/selfplay.rs`) and the deterministic cost counts (`examples/costs.rs`,
//! driven by `tools/costs.py`): two-player random games of every rule system (Maps on the
//! continental map), greedy base games, and four players with every classic set and option;
//! and the learning environment's (`env`).

// Each of the two targets that include this file uses part of it.
#![allow(dead_code)]

use std::sync::Arc;

pub mod env;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};
use carcassonne_core::play::players::Policy;
use carcassonne_core::rng::Rng;

pub struct Config {
    /// Short name, used on the command line and in `benches/costs.toml`.
    pub key: &'static str,
    pub title: &'static str,
    pub rules: Arc<Rules>,
    pub policy: Policy,
    /// Games the cost count plays (game indices 0.. of study `COST_SEED`): enough for a
    /// stable mean, few enough for about 5 seconds under callgrind.
    pub games: u64,
}

/// The study seed of the cost counts.
pub const COST_SEED: u64 = 20261201;

fn rules(spec: RulesSpec) -> Arc<Rules> {
    Arc::new(Rules::new(spec).expect("a built-in configuration"))
}

pub fn standard() -> Vec<Config> {
    let classic = |sets: &[&str]| RulesSpec {
        tile_sets: DataSource::builtins(sets),
        ..RulesSpec::default()
    };
    vec![
        Config {
            key: "base-random",
            title: "random game, base, 2 players",
            rules: rules(RulesSpec::default()),
            policy: Policy::Random,
            games: 2000,
        },
        Config {
            key: "base-greedy",
            title: "greedy game, base, 2 players",
            rules: rules(RulesSpec::default()),
            policy: Policy::Greedy,
            games: 100,
        },
        Config {
            key: "classic-4p",
            title: "random game, base + I&C + T&B, 4 players, both options",
            rules: rules(RulesSpec {
                players: 4,
                inns_and_cathedrals_scoring: true,
                traders_goods: true,
                ..classic(&["base", "inns-and-cathedrals", "traders-and-builders"])
            }),
            policy: Policy::Random,
            games: 1000,
        },
        Config {
            key: "ferries",
            title: "random game, base + ferries, 2 players",
            rules: rules(classic(&["base", "ferries"])),
            policy: Policy::Random,
            games: 2000,
        },
        Config {
            key: "south-seas",
            title: "random game, South Seas, 2 players",
            rules: rules(RulesSpec::south_seas(2)),
            policy: Policy::Random,
            games: 2000,
        },
        Config {
            key: "friday",
            title: "random game, South Seas + Friday, 2 players",
            rules: rules(RulesSpec {
                friday: true,
                ..RulesSpec::south_seas(2)
            }),
            policy: Policy::Random,
            games: 2000,
        },
        Config {
            key: "maps",
            title: "random game, Carcassonne Maps on the continental map, 2 players",
            rules: rules(RulesSpec::maps("continental", 2)),
            policy: Policy::Random,
            games: 1000,
        },
    ]
}

/// The mid-game positions searches and playouts are measured from (`examples/playouts`,
/// and the MCTS count of `examples/costs`): game 0 of this seed ...
pub const MID_GAME_SEED: u64 = 7;
/// ... played at random until this many tiles are down (the middle of a two-player base
/// game).
pub const MID_GAME_PLACED: usize = 35;

/// The mid-game position of a rule system: `MID_GAME_PLACED` tiles placed at random
/// (fewer if the game ends first), with or without its event log.
pub fn mid_game(spec: RulesSpec, record_events: bool) -> Game {
    let rules = Arc::new(Rules::new(spec).expect("a built-in configuration"));
    let mut game = Game::shuffled(rules, MID_GAME_SEED, 0);
    game.set_record_events(record_events);
    let mut rng = Rng::for_game(MID_GAME_SEED, 1);
    let mut buf = Vec::new();
    while !game.is_over() && game.moves().len() < MID_GAME_PLACED {
        Policy::Random.run(&mut game, &mut rng, &mut buf, true);
    }
    game
}

/// The rules the speed examples (`examples/speed`, `env_speed`, `obs_speed`) name on their
/// command line as a list of sets: classic sets (`base`, `base,ferries`...), `south-seas`,
/// `south-seas,friday`, or `map:NAME` for Carcassonne Maps on a built-in map; 2 players.
pub fn spec_of(sets: &[&str]) -> RulesSpec {
    if let Some(map) = sets[0].strip_prefix("map:") {
        RulesSpec::maps(map, 2)
    } else if sets == ["south-seas"] {
        RulesSpec::south_seas(2)
    } else if sets == ["south-seas", "friday"] {
        RulesSpec {
            friday: true,
            ..RulesSpec::south_seas(2)
        }
    } else {
        RulesSpec {
            tile_sets: DataSource::builtins(sets),
            ..RulesSpec::default()
        }
    }
}
