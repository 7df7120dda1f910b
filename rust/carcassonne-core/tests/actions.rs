//! The action model, determinization and seat lineups, over every rule system:
//! - `legal_actions` is `legal_moves` in the "place" phase and `legal_decisions` in the
//!   others; applying an action gives the same game as the per-phase method; unlisted
//!   actions of the other phase are refused and change nothing;
//! - `determinize` keeps everything the player to move can see and the multiset of what
//!   he cannot, and does reorder the hidden part;
//! - a lineup plays each seat's player, and a study gives each game the result it has
//!   alone.

mod common;
use common::configs;

use std::collections::HashMap;
use std::sync::Arc;

use carcassonne_core::engine::decision::{Decision, Phase};
use carcassonne_core::engine::rules::{Rules, RulesSpec};
use carcassonne_core::play::players::{Lineup, Player, PlayerError, Policy, Scratch, Stop};
use carcassonne_core::play::simulate::{SimulateError, Study, play_game, seat_scratch};
use carcassonne_core::rng::Rng;
use carcassonne_core::systems::south_seas::errors::IllegalSouthSeasPlay;
use carcassonne_core::{Action, Game, IllegalMove};

/// Everything the player to move can see (and the game's identity for the rest).
fn visible(g: &Game) -> String {
    let placed: Vec<_> = g
        .placed()
        .iter()
        .map(|p| (p.x, p.y, p.tile, p.rotation))
        .collect();
    // South Seas' display, wares and ships taken, and the ships left face down.
    let sea = g
        .sea()
        .map(|s| (&s.display, s.wares, &s.taken, s.pile.len() - s.next_ship));
    format!(
        "{placed:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        g.tile(),
        g.current_player(),
        g.decider(),
        g.phase(),
        g.scores(),
        g.supply(),
        g.discarded(),
        g.moves(),
        sea,
        g.friday().map(|f| &f.order[..f.revealed]),
        g.remaining().len(),
    )
}

fn sorted<T: Ord + Clone>(v: &[T]) -> Vec<T> {
    let mut v = v.to_vec();
    v.sort();
    v
}

#[test]
fn actions_are_the_per_phase_moves_and_decisions() {
    for (name, rules) in configs() {
        let mut decisions = 0;
        for index in 0..6 {
            let mut by_action = Game::shuffled(Arc::clone(&rules), 11, index);
            let mut by_phase = by_action.clone();
            let mut rng = Rng::for_game(11, 1000 + index);
            while !by_action.is_over() {
                let actions = by_action.legal_actions();
                assert!(!actions.is_empty(), "{name}: a game not over has actions");
                if by_action.phase() == Phase::Place {
                    let moves: Vec<Action> = by_action
                        .legal_moves()
                        .into_iter()
                        .map(Action::Place)
                        .collect();
                    assert_eq!(actions, moves, "{name}");
                    assert!(by_action.legal_decisions().is_empty());
                    // A decision is refused in the "place" phase and changes nothing.
                    let before = by_action.to_json();
                    let d = Action::Decide(Decision::Deliver(None));
                    assert!(by_action.apply(d).is_err(), "{name}: {d:?}");
                    assert_eq!(by_action.to_json(), before);
                } else {
                    decisions += 1;
                    let listed: Vec<Action> = by_action
                        .legal_decisions()
                        .into_iter()
                        .map(Action::Decide)
                        .collect();
                    assert_eq!(actions, listed, "{name}");
                    let before = by_action.to_json();
                    let mv = Action::Place(carcassonne_core::Move::place(0, 0, 0, None));
                    assert!(matches!(
                        by_action.apply(mv),
                        Err(IllegalMove::SouthSeas(IllegalSouthSeasPlay::NotPlacePhase)
                            | IllegalMove::SouthSeas(IllegalSouthSeasPlay::DecisionPending))
                    ));
                    assert_eq!(by_action.to_json(), before);
                }
                let a = actions[rng.below(actions.len() as u32) as usize];
                by_action.apply(a).expect("a listed action is legal");
                match a {
                    Action::Place(mv) => by_phase.play(mv).expect("the same move"),
                    Action::Decide(d) => by_phase.decide(d).expect("the same decision"),
                }
                assert_eq!(by_action.to_json(), by_phase.to_json(), "{name}");
            }
            assert!(by_action.legal_actions().is_empty());
            let a = Action::Place(carcassonne_core::Move::place(0, 0, 0, None));
            assert_eq!(by_action.apply(a), Err(IllegalMove::GameOver));
        }
        if name == "south-seas" || name == "friday" {
            assert!(decisions > 0, "{name}: decisions were made");
        }
    }
}

#[test]
fn determinize_keeps_what_the_player_sees_and_reshuffles_the_rest() {
    for (name, rules) in configs() {
        for index in 0..4 {
            let mut game = Game::shuffled(Arc::clone(&rules), 12, index);
            let mut rng = Rng::for_game(12, 500 + index);
            let mut buf = Vec::new();
            let stop_at = 8 + 9 * index as usize;
            while !game.is_over() && game.moves().len() < stop_at {
                Policy::Random.step(&mut game, &mut rng, &mut buf);
            }
            if game.is_over() {
                continue;
            }
            let mut changed = 0;
            for k in 0..20 {
                let mut copy = game.clone();
                copy.determinize(&mut Rng::for_game(99, k));
                assert_eq!(visible(&copy), visible(&game), "{name}");
                assert_eq!(copy.seed(), None);
                // The hidden pieces are the same multiset (a full deck), or drawn from
                // every unseen tile (a shorter Maps deck).
                if rules.deck_limit == rules.full_deck.len() {
                    assert_eq!(sorted(copy.remaining()), sorted(game.remaining()), "{name}");
                } else {
                    let mut unseen: HashMap<u16, i32> = HashMap::new();
                    for &t in &rules.full_deck {
                        *unseen.entry(t).or_default() += 1;
                    }
                    let drawn = game.deck().len() - game.remaining().len();
                    for &t in &game.deck()[..drawn] {
                        *unseen.entry(t).or_default() -= 1;
                    }
                    for &t in copy.remaining() {
                        let n = unseen.entry(t).or_default();
                        *n -= 1;
                        assert!(*n >= 0, "{name}: tile {t} was not unseen");
                    }
                }
                // The face-down ships and the unrevealed Friday tiles, in any order.
                assert_eq!(game.sea().is_some(), copy.sea().is_some(), "{name}");
                if let (Some(sea), Some(theirs)) = (game.sea(), copy.sea()) {
                    assert_eq!(
                        sorted(&theirs.pile[sea.next_ship..]),
                        sorted(&sea.pile[sea.next_ship..])
                    );
                }
                assert_eq!(game.friday().is_some(), copy.friday().is_some(), "{name}");
                if let (Some(friday), Some(theirs)) = (game.friday(), copy.friday()) {
                    let revealed = friday.revealed;
                    assert_eq!(
                        sorted(&theirs.order[revealed..]),
                        sorted(&friday.order[revealed..])
                    );
                }
                if copy.remaining() != game.remaining() {
                    changed += 1;
                }
                // The copy plays on to the end like any game.
                let mut r = Rng::for_game(7, k);
                while !copy.is_over() {
                    Policy::Random.step(&mut copy, &mut r, &mut buf);
                }
            }
            if game.remaining().len() > 3 {
                assert!(
                    changed > 10,
                    "{name}: the hidden order changes ({changed}/20)"
                );
            }
        }
    }
}

/// A player that always takes the first listed action (checked play through the default
/// `Player::play`).
#[derive(Debug)]
struct First;

impl Player for First {
    fn name(&self) -> String {
        "first".into()
    }
    fn choose(&self, game: &Game, _: &mut Rng, s: &mut Scratch) -> Result<Action, PlayerError> {
        game.legal_actions_into(&mut s.actions);
        Ok(s.actions[0])
    }
}

/// A player that chooses an illegal placement.
#[derive(Debug)]
struct Cheat;

impl Player for Cheat {
    fn name(&self) -> String {
        "cheat".into()
    }
    fn choose(&self, _: &Game, _: &mut Rng, _: &mut Scratch) -> Result<Action, PlayerError> {
        Ok(Action::Place(carcassonne_core::Move::place(
            40, 40, 0, None,
        )))
    }
}

#[test]
fn lineups_seat_each_player_and_games_match_alone() {
    for (name, rules) in configs() {
        let n = rules.players();
        let seats: Vec<Arc<dyn Player>> = (0..n)
            .map(|s| -> Arc<dyn Player> {
                match s % 3 {
                    0 => Arc::new(Policy::Greedy),
                    1 => Arc::new(First),
                    _ => Arc::new(Policy::Random),
                }
            })
            .collect();
        let lineup = Lineup::new(seats, n).unwrap();
        let study = Study::new(Arc::clone(&rules), 3, 5, 6, lineup.clone(), Some(2)).unwrap();
        let cols = study.columns(&Stop::new()).unwrap();
        for i in 0..6u64 {
            let mut game = Game::new(Arc::clone(&rules), Vec::new());
            let mut rng = Rng::for_game(3, 5 + i);
            play_game(&mut game, &mut rng, &lineup, &mut seat_scratch()).unwrap();
            let row = &cols.scores[i as usize * n..(i as usize + 1) * n];
            assert_eq!(row, game.scores(), "{name}: game {i}");
        }
        // Built-in policies per seat (the enum-dispatch loop) match the same players
        // seen through the trait only.
        #[derive(Debug)]
        struct Opaque(Policy);
        impl Player for Opaque {
            fn name(&self) -> String {
                Player::name(&self.0)
            }
            fn choose(
                &self,
                g: &Game,
                r: &mut Rng,
                s: &mut Scratch,
            ) -> Result<Action, PlayerError> {
                self.0.choose(g, r, s)
            }
        }
        let mixed = |wrap: bool| {
            let seats = (0..n)
                .map(|s| -> Arc<dyn Player> {
                    let p = if s % 2 == 0 {
                        Policy::Greedy
                    } else {
                        Policy::Random
                    };
                    if wrap {
                        Arc::new(Opaque(p))
                    } else {
                        Arc::new(p)
                    }
                })
                .collect();
            Lineup::new(seats, n).unwrap()
        };
        for i in 0..3 {
            let scores = |lineup: &Lineup| {
                let mut game = Game::new(Arc::clone(&rules), Vec::new());
                let mut rng = Rng::for_game(4, i);
                play_game(&mut game, &mut rng, lineup, &mut seat_scratch()).unwrap();
                (game.scores().to_vec(), game.moves().to_vec())
            };
            // Ferries: the fast path draws ferry choices after the tile is down, the
            // chooser before it, from the same stream: the same games.
            assert_eq!(
                scores(&mixed(false)),
                scores(&mixed(true)),
                "{name}: game {i}"
            );
        }
    }
}

#[test]
fn lineup_errors() {
    let rules = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    let three: Vec<Arc<dyn Player>> = (0..3)
        .map(|_| -> Arc<dyn Player> { Arc::new(Policy::Random) })
        .collect();
    let e = Lineup::new(three, 2).unwrap_err();
    assert_eq!((e.given, e.players), (3, 2));
    assert!(Lineup::new(Vec::new(), 2).is_err());
    let cheat = Lineup::new(vec![Arc::new(Policy::Random), Arc::new(Cheat)], 2).unwrap();
    let study = Study::new(rules, 1, 0, 4, cheat, Some(1)).unwrap();
    match study.columns(&Stop::new()) {
        Err(SimulateError::Player {
            game, seat, error, ..
        }) => {
            assert_eq!((game, seat), (0, 1));
            assert!(matches!(*error, PlayerError::Illegal { .. }), "{error:?}");
        }
        other => panic!("{other:?}"),
    }
}

/// `Study::replay` rebuilds any game a study played: same scores, turns and discards as
/// the study's row, for every configuration and for built-in lineups (uniform, per seat,
/// with MCTS); its record names the seed and index and loads back through the checked
/// play to the same position; its event log is kept.
#[test]
fn a_replay_is_the_game_the_study_played() {
    use carcassonne_core::play::players::Mcts;
    for (name, rules) in configs() {
        let n = rules.players();
        let mcts = Mcts {
            playouts: 8,
            ..Mcts::default()
        };
        let mut per_seat: Vec<Arc<dyn Player>> = vec![Arc::new(mcts)];
        per_seat.extend((1..n).map(|_| Arc::new(Policy::Greedy) as Arc<dyn Player>));
        let lineups = [
            Lineup::from(Policy::Random),
            Lineup::from(Policy::Greedy),
            Lineup::new(per_seat, n).expect("one per seat"),
        ];
        for players in lineups {
            let (first, games) = (40u64, 6u64);
            let study =
                Study::new(Arc::clone(&rules), 9, first, games, players, Some(2)).expect("a study");
            let cols = study.columns(&Stop::new()).expect("played");
            for g in 0..games as usize {
                let game = study
                    .replay(first + g as u64, &Stop::new())
                    .expect("replayed");
                let row = &cols.scores[g * n..(g + 1) * n];
                assert_eq!(game.scores(), row, "{name} game {g}");
                assert_eq!(game.turn(), cols.turns[g], "{name} game {g}");
                assert_eq!(game.discarded().len() as u32, cols.discarded[g], "{name}");
                assert_eq!(game.seed(), Some((9, first + g as u64)), "{name}");
                let loaded = Game::from_json(&game.to_json()).expect("the record loads");
                assert_eq!(loaded.scores(), game.scores(), "{name}");
                assert_eq!(loaded.moves(), game.moves(), "{name}");
                // The log is kept (South Seas logs its wares and boats apart).
                let logged = game.events().len() + game.sea().map_or(0, |s| s.events.len());
                assert!(logged > 0, "{name}: the log is kept");
            }
        }
    }
}
