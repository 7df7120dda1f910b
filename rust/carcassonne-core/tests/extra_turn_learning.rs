//! The learning interface for Carcassonne Maps' small-town variant 1, whose extra turn is
//! the player's choice (`Phase::ExtraTurn`, `Decision::ExtraTurn`):
//! - the action space adds one block, `extra_turn` (0 decline, 1 take), after every other,
//!   and the observations' `phase` field one entry, "extra_turn", last; a configuration
//!   without variant 1 (none, or variants 2 and 3 alone) keeps its action space and
//!   observation layout exactly;
//! - at an extra turn the mask is exactly the block's two tokens, each encodes, decodes
//!   and resolves to its decision alone, and a placement token is refused;
//! - the observation then shows the phase one-hot and no tile in hand, and does not depend
//!   on the order of the undrawn tiles (a game on the same deck with them in another
//!   order, and reshuffled or sorted copies, give the identical observation);
//! - the vectorised environment reaches the phase in self-play and against built-in
//!   opponents (who decide it by their policy) and finishes its games;
//! - the PUCT search at an extra turn weighs exactly the two decisions, and does not
//!   depend on the order of the undrawn tiles.

mod common;
mod learning_configs;
mod step_out;
use learning_configs::extra_turn_configs;
use step_out::Out;

use std::sync::Arc;

use carcassonne_core::Game;
use carcassonne_core::engine::decision::{Decision, Phase};
use carcassonne_core::engine::rules::{DataSource, Rules, RulesSpec};
use carcassonne_core::learn::action_space::{ActionSpace, BlockKind};
use carcassonne_core::learn::codec::{CodecError, decode, encode, legal_tokens, resolve};
use carcassonne_core::learn::observation::{ObservationLayout, ObservationScratch};
use carcassonne_core::learn::search::{Puct, PuctTree};
use carcassonne_core::learn::system_parts::SystemParts;
use carcassonne_core::learn::vector_env::{EnvConfig, VectorEnv};
use carcassonne_core::play::action::Action;
use carcassonne_core::play::players::{Player, Policy, Scratch};
use carcassonne_core::rng::Rng;

/// The phases of the `phase` field in its order, with variant 1 (the engine's names).
const PHASES_SHOWN: [Phase; 6] = [
    Phase::Place,
    Phase::Deliver,
    Phase::Market,
    Phase::MoveFriday,
    Phase::Homecoming,
    Phase::ExtraTurn,
];

fn rules(spec: RulesSpec) -> Arc<Rules> {
    Arc::new(Rules::new(spec).expect("a configuration"))
}

/// A map configuration with the small-town variants `towns`, with The Ferries' tiles or
/// without.
fn map_rules(towns: &[u8], ferries: bool) -> Arc<Rules> {
    let mut spec = RulesSpec {
        small_towns: towns.to_vec(),
        ..RulesSpec::maps("continental", 2)
    };
    if ferries {
        spec.tile_sets = DataSource::builtins(&["base", "ferries"]);
    }
    rules(spec)
}

/// `game`'s observation for its decider: (board, vector).
fn observe(layout: &ObservationLayout, game: &Game) -> (Vec<u8>, Vec<f32>) {
    let mut board = vec![7; layout.board_len()];
    let mut vector = vec![f32::NAN; layout.vector_len()];
    layout
        .write(
            game,
            &[],
            &mut ObservationScratch::default(),
            &mut board,
            &mut vector,
        )
        .expect("a map's window holds the game");
    (board, vector)
}

/// The vector field `name` of an observation.
fn field<'a>(layout: &ObservationLayout, vector: &'a [f32], name: &str) -> &'a [f32] {
    let mut at = 0;
    for (f, n) in layout.fields() {
        if f == name {
            return &vector[at..][..*n];
        }
        at += n;
    }
    panic!("no field {name}")
}

/// The extra-turn block's first token.
fn extra_turn_start(space: &ActionSpace) -> u32 {
    space
        .block(BlockKind::ExtraTurn)
        .expect("the extra_turn block")
        .start
}

/// A random game of `rules` played until its first extra turn offered at or after move
/// `from` (None if it ends before), with the actions that led there.
fn to_extra_turn(
    rules: &Arc<Rules>,
    seed: u64,
    from: u32,
    rng: &mut Rng,
) -> Option<(Game, Vec<Action>)> {
    let mut game = Game::shuffled(rules.clone(), seed, 0);
    let mut played = Vec::new();
    while !game.is_over() {
        if game.phase() == Phase::ExtraTurn && game.turn() >= from {
            return Some((game, played));
        }
        let legal = game.legal_actions();
        let a = legal[rng.below(legal.len() as u32) as usize];
        game.apply(a).unwrap();
        played.push(a);
    }
    None
}

#[test]
fn only_variant_1_adds_the_block_and_the_phase() {
    for ferries in [false, true] {
        let plain = map_rules(&[], ferries);
        let space = ActionSpace::new(&plain, None).unwrap();
        let layout = ObservationLayout::new(&plain, &space);
        assert!(!SystemParts::of(&plain).extra_turn);
        assert!(space.block(BlockKind::ExtraTurn).is_none());
        // Variants 2 and 3 change no decision: the same space and layout.
        for towns in [&[2][..], &[3], &[2, 3]] {
            let other = map_rules(towns, ferries);
            assert!(!SystemParts::of(&other).extra_turn, "{towns:?}");
            let s = ActionSpace::new(&other, None).unwrap();
            assert_eq!(s, space, "{towns:?}");
            let l = ObservationLayout::new(&other, &s);
            assert_eq!(l.planes(), layout.planes(), "{towns:?}");
            assert_eq!(l.fields(), layout.fields(), "{towns:?}");
        }
        // Variant 1 (with the others or alone): two more tokens after every other
        // block, and a sixth phase.
        for towns in [&[1][..], &[1, 2, 3]] {
            let with = map_rules(towns, ferries);
            assert!(SystemParts::of(&with).extra_turn, "{towns:?}");
            assert_eq!(
                SystemParts {
                    extra_turn: false,
                    ..SystemParts::of(&with)
                },
                SystemParts::of(&plain)
            );
            let s = ActionSpace::new(&with, None).unwrap();
            let (last, before) = s.blocks().split_last().unwrap();
            assert_eq!(
                before,
                space.blocks(),
                "{towns:?}: the other blocks as they were"
            );
            assert_eq!(last.kind, BlockKind::ExtraTurn);
            assert_eq!((last.start, last.shape.clone()), (space.size(), vec![2]));
            assert_eq!(last.decl().name, "extra_turn");
            assert_eq!(last.decl().axes, ["choice"]);
            assert_eq!(s.size(), space.size() + 2);
            assert_eq!(s.window(), space.window());
            let l = ObservationLayout::new(&with, &s);
            assert_eq!(l.planes(), layout.planes(), "{towns:?}");
            assert_eq!(l.fields()[0], ("phase".to_string(), 6));
            assert_eq!(layout.fields()[0], ("phase".to_string(), 5));
            assert_eq!(l.fields()[1..], layout.fields()[1..], "{towns:?}");
        }
    }
    // The open grid and South Seas have no small towns: no extra turn.
    for spec in [RulesSpec::default(), RulesSpec::south_seas(2)] {
        assert!(!SystemParts::of(&rules(spec)).extra_turn);
    }
}

#[test]
fn at_an_extra_turn_the_mask_is_its_two_tokens_and_they_round_trip() {
    for (name, rules) in extra_turn_configs() {
        let space = ActionSpace::new(&rules, None).unwrap();
        let layout = ObservationLayout::new(&rules, &space);
        let start = extra_turn_start(&space);
        let (decline, take) = (start, start + 1);
        let (mut offers, mut taken, mut declined, mut placing) = (0, 0, 0, 0);
        for g in 0..6u64 {
            let mut game = Game::shuffled(rules.clone(), 40, g);
            let mut rng = Rng::for_game(41, g);
            while !game.is_over() {
                let (_, vector) = observe(&layout, &game);
                let phase = field(&layout, &vector, "phase");
                let k = PHASES_SHOWN
                    .iter()
                    .position(|&p| p == game.phase())
                    .unwrap();
                let mut one_hot = [0.0; 6];
                one_hot[k] = 1.0;
                assert_eq!(phase, one_hot, "{name}: phase {:?}", game.phase());
                let mut mask = Vec::new();
                legal_tokens(&space, &game, &[], |t| mask.push(t)).unwrap();
                if game.phase() != Phase::ExtraTurn {
                    // A placement: no extra-turn token, and a tile in hand.
                    assert!(mask.iter().all(|&t| t < start), "{name}");
                    assert!(game.tile().is_some(), "{name}");
                    placing += 1;
                } else {
                    offers += 1;
                    assert_eq!(mask, [decline, take], "{name}: each once, in order");
                    // No tile in hand: the tile field is empty.
                    assert_eq!(game.tile(), None);
                    assert!(field(&layout, &vector, "tile").iter().all(|&v| v == 0.0));
                    let legal = game.legal_actions();
                    assert_eq!(
                        legal,
                        [
                            Action::Decide(Decision::ExtraTurn(false)),
                            Action::Decide(Decision::ExtraTurn(true)),
                        ]
                    );
                    for (a, t) in legal.iter().zip([decline, take]) {
                        assert_eq!(encode(&space, &game, *a).unwrap().as_slice(), [t]);
                        assert_eq!(decode(&space, &game, &[t]), Ok(*a));
                        assert_eq!(resolve(&space, &game, &[t]), Ok(Some(*a)));
                        assert!(matches!(
                            legal_tokens(&space, &game, &[t], |_| {}),
                            Err(CodecError::Complete { .. })
                        ));
                        assert!(matches!(
                            decode(&space, &game, &[t, t]),
                            Err(CodecError::TooLong { .. })
                        ));
                    }
                    // A placement, even one of a tile that could come, is no action now.
                    assert!(matches!(
                        resolve(&space, &game, &[0]),
                        Err(CodecError::NotLegal { .. })
                    ));
                    assert!(matches!(
                        legal_tokens(&space, &game, &[0], |_| {}),
                        Err(CodecError::NotLegal { .. })
                    ));
                }
                let legal = game.legal_actions();
                let a = legal[rng.below(legal.len() as u32) as usize];
                match a {
                    Action::Decide(Decision::ExtraTurn(true)) => taken += 1,
                    Action::Decide(Decision::ExtraTurn(false)) => declined += 1,
                    _ => {}
                }
                game.apply(a).unwrap();
            }
            // Over: no phase shown, nothing legal.
            let (_, vector) = observe(&layout, &game);
            assert!(field(&layout, &vector, "phase").iter().all(|&v| v == 0.0));
            let mut n = 0;
            legal_tokens(&space, &game, &[], |_| n += 1).unwrap();
            assert_eq!(n, 0);
        }
        assert!(
            offers >= 12 && taken > 0 && declined > 0 && placing > 300,
            "{name}: {offers} extra turns offered, {taken} taken, {declined} declined"
        );
    }
}

#[test]
fn the_order_of_the_undrawn_tiles_is_not_seen_at_an_extra_turn() {
    for (name, rules) in extra_turn_configs() {
        let space = ActionSpace::new(&rules, None).unwrap();
        let layout = ObservationLayout::new(&rules, &space);
        let mut checked = 0;
        for (seed, from) in [(50u64, 0u32), (51, 20), (52, 50), (53, 80)] {
            let mut rng = Rng::for_game(seed, 1);
            let Some((game, played)) = to_extra_turn(&rules, seed, from, &mut rng) else {
                continue;
            };
            let seen = observe(&layout, &game);
            // The same game on a deck whose undrawn tiles are in another order (the
            // drawn ones as they were): the same actions reach the same decision.
            let deck = game.deck().to_vec();
            let next = deck.len() - game.remaining().len();
            let mut other_deck = deck.clone();
            other_deck[next..].reverse();
            let mut turned = 1;
            while other_deck == deck && turned < other_deck.len() - next {
                other_deck[next..].rotate_left(1);
                turned += 1;
            }
            if other_deck == deck {
                continue;
            }
            let mut other = Game::new(rules.clone(), other_deck);
            for &a in &played {
                other.apply(a).unwrap();
            }
            assert_eq!(other.phase(), Phase::ExtraTurn, "{name}");
            assert_ne!(other.remaining(), game.remaining());
            assert_eq!(observe(&layout, &other), seen, "{name}: another order");
            // Every seat's view, not the decider's alone.
            for viewer in 0..rules.players() {
                let write = |g: &Game| {
                    let mut b = vec![0; layout.board_len()];
                    let mut v = vec![0.0; layout.vector_len()];
                    let mut s = ObservationScratch::default();
                    layout
                        .write_for(g, viewer, &[], &mut s, &mut b, &mut v)
                        .unwrap();
                    (b, v)
                };
                assert_eq!(write(&other), write(&game), "{name}: seat {viewer}");
            }
            // Reshuffled and sorted copies alike.
            let mut shuffled = game.clone();
            shuffled.determinize(&mut Rng::for_game(seed, 2));
            assert_eq!(observe(&layout, &shuffled), seen, "{name}: determinize");
            let mut sorted = game.clone();
            sorted.forget_hidden_order();
            assert_eq!(observe(&layout, &sorted), seen, "{name}: sorted");
            checked += 1;
        }
        assert!(checked >= 3, "{name}: {checked} extra turns compared");
    }
}

#[test]
fn the_environment_offers_the_extra_turn_and_finishes_its_games() {
    for (name, rules) in extra_turn_configs() {
        for policy in [None, Some(Policy::Random), Some(Policy::Greedy)] {
            let opponents = policy.map(|p| Arc::new(p) as Arc<dyn Player>);
            let n = 4;
            let cfg = EnvConfig {
                num_envs: n,
                seed: 60,
                opponents,
                agent_seat: 1,
                shaping: 0.1,
                observe: true,
                window: None,
                reuse_buffers: policy == Some(Policy::Random),
            };
            let mut env = VectorEnv::new(rules.clone(), cfg, 2).unwrap();
            let size = env.space().size() as usize;
            let start = extra_turn_start(env.space()) as usize;
            let layout = env.layout().clone();
            let vl = layout.vector_len();
            let phase_at = 0;
            let tile_at = layout.fields()[0].1;
            let tile_len = layout.fields()[1].1;
            let mut out = Out::new(&env);
            env.reset(None, out.buffers()).unwrap();
            let mut rng = Rng::for_game(61, 0);
            let (mut offers, mut ended, mut seats) = (0, 0, [0u32; 3]);
            for _ in 0..1500 {
                let mut tokens = Vec::with_capacity(n);
                for e in 0..n {
                    let mask = &out.mask[e * size..][..size];
                    let legal: Vec<usize> = (0..size).filter(|&t| mask[t]).collect();
                    let vector = &out.vector[e * vl..][..vl];
                    let extra = legal.iter().any(|&t| t >= start);
                    if extra {
                        // The decision alone: its two tokens, the phase shown, no tile.
                        assert_eq!(legal, [start, start + 1], "{name}");
                        assert_eq!(vector[phase_at + 5], 1.0, "{name}");
                        assert_eq!(vector[phase_at..phase_at + 6].iter().sum::<f32>(), 1.0);
                        assert!(vector[tile_at..][..tile_len].iter().all(|&v| v == 0.0));
                        offers += 1;
                        seats[out.to_play[e] as usize] += 1;
                    } else {
                        assert_eq!(vector[phase_at + 5], 0.0, "{name}");
                    }
                    if policy.is_some() {
                        assert_eq!(out.to_play[e], 1, "{name}: the agent's seat");
                    }
                    tokens.push(legal[rng.below(legal.len() as u32) as usize] as u32);
                }
                env.step(&tokens, out.buffers()).unwrap();
                assert!(
                    out.truncated.iter().all(|&t| !t),
                    "{name}: a map never outgrows"
                );
                ended += out.terminated.iter().filter(|&&t| t).count();
            }
            assert!(
                offers >= 10 && ended >= 4,
                "{name} {policy:?}: {offers} extra turns, {ended} games ended"
            );
            if policy.is_none() {
                // Self-play: every seat decides its own extra turns.
                let players = rules.players();
                assert!(seats[..players].iter().all(|&s| s > 0), "{name}: {seats:?}");
            }
        }
    }
}

#[test]
fn built_in_opponents_decide_their_extra_turns_in_the_environment() {
    // The opponents' choices are made inside the environment by their policy: the
    // environment's game is the mirror's, whose opponent plays seat 1 from the game's
    // random stream (as the environment does), whatever the agent's tokens.
    let (name, rules) = extra_turn_configs().remove(0);
    for policy in [Policy::Random, Policy::Greedy] {
        let cfg = EnvConfig {
            num_envs: 1,
            seed: 70,
            opponents: Some(Arc::new(policy)),
            agent_seat: 0,
            shaping: 0.0,
            observe: false,
            window: None,
            reuse_buffers: false,
        };
        let mut env = VectorEnv::new(rules.clone(), cfg, 1).unwrap();
        let space = env.space().clone();
        let size = space.size() as usize;
        let mut out = Out::new(&env);
        env.reset(None, out.buffers()).unwrap();
        let mut rng = Rng::for_game(70, 0);
        let mut game = Game::new(rules.clone(), Vec::new());
        game.reset_shuffled(&mut rng);
        let mut scratch = Scratch::default();
        // Extra turns decided by the agent (seat 0) and by the opponent (seat 1).
        let mut decided = [0u32; 2];
        let opponent =
            |game: &mut Game, rng: &mut Rng, scratch: &mut Scratch, decided: &mut [u32; 2]| {
                while !game.is_over() && game.decider() != 0 {
                    decided[1] += (game.phase() == Phase::ExtraTurn) as u32;
                    policy.play(game, rng, scratch).unwrap();
                }
            };
        opponent(&mut game, &mut rng, &mut scratch, &mut decided);
        let mut pick = Rng::for_game(71, 0);
        let mut prefix = Vec::new();
        loop {
            let mut mask = vec![false; size];
            legal_tokens(&space, &game, &prefix, |t| mask[t as usize] = true).unwrap();
            assert_eq!(out.mask, mask, "{name} {policy:?}");
            assert_eq!(out.to_play[0], 0);
            decided[0] += (game.phase() == Phase::ExtraTurn) as u32;
            let legal: Vec<u32> = (0..size as u32).filter(|&t| mask[t as usize]).collect();
            let t = legal[pick.below(legal.len() as u32) as usize];
            env.step(&[t], out.buffers()).unwrap();
            prefix.push(t);
            if let Some(a) = resolve(&space, &game, &prefix).unwrap() {
                game.apply(a).unwrap();
                prefix.clear();
                opponent(&mut game, &mut rng, &mut scratch, &mut decided);
            }
            if game.is_over() {
                assert!(out.terminated[0]);
                assert_eq!(&out.final_scores[..], game.scores());
                break;
            }
            assert!(!out.terminated[0]);
        }
        assert!(
            decided.iter().all(|&d| d > 0),
            "{name} {policy:?}: extra turns decided by seat: {decided:?}"
        );
    }
}

#[test]
fn the_search_weighs_the_two_decisions_and_not_the_hidden_order() {
    for (name, rules) in extra_turn_configs() {
        let space = ActionSpace::new(&rules, None).unwrap();
        let layout = ObservationLayout::new(&rules, &space);
        let start = extra_turn_start(&space) as usize;
        let mut rng = Rng::for_game(80, 0);
        let (game, _) = to_extra_turn(&rules, 80, 10, &mut rng).expect("an extra turn offered");
        // An evaluation that reads the observations and favours taking the extra turn.
        let size = space.size() as usize;
        let players = rules.players();
        let rows = std::cell::Cell::new(0);
        let mut eval = |n: usize, b: &[u8], v: &[f32], p: &mut [f32], val: &mut [f32]| {
            let (bl, vl) = (b.len() / n, v.len() / n);
            for row in 0..n {
                let s: u32 = b[row * bl..][..bl].iter().map(|&x| x as u32).sum();
                for (t, w) in p[row * size..][..size].iter_mut().enumerate() {
                    *w = ((s as usize + t) % 5) as f32 + 0.1;
                }
                p[row * size + start] = 1.0;
                p[row * size + start + 1] = 9.0;
                let vs: f32 = v[row * vl..][..vl].iter().sum();
                val[row * players] = (vs / 1000.0).tanh();
            }
            rows.set(rows.get() + n);
            Ok::<(), String>(())
        };
        let puct = Puct::new(40, 4, 1.25).unwrap();
        let mut tree = PuctTree::default();
        let report = puct
            .search(
                &game,
                &layout,
                &mut eval,
                &mut Rng::for_game(81, 0),
                &mut tree,
            )
            .unwrap();
        let actions: Vec<Action> = report.actions.iter().map(|a| a.action).collect();
        assert_eq!(actions, game.legal_actions(), "{name}");
        assert_eq!(actions.len(), 2);
        let take = &report.actions[1];
        assert!(
            (take.prior - 0.9).abs() < 1e-4,
            "{name}: prior {}",
            take.prior
        );
        assert_eq!(
            report.actions.iter().map(|a| a.visits).sum::<u32>(),
            39,
            "{name}"
        );
        assert!(rows.get() > 1, "{name}: positions below the root evaluated");
        // Another order of the undrawn tiles: the same search.
        let mut other = game.clone();
        other.determinize(&mut Rng::for_game(82, 0));
        let again = puct
            .search(
                &other,
                &layout,
                &mut eval,
                &mut Rng::for_game(81, 0),
                &mut tree,
            )
            .unwrap();
        assert_eq!(again, report, "{name}");
    }
}
