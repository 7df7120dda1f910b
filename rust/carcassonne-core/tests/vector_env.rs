//! The vectorised environment (`learn::vector_env`):
//! - its games are the study's games played one by one with the same tokens (masks,
//!   observations, seats, rewards and end flags), across an episode's end and autoreset,
//!   in every configuration (with maps whose small-town variant 1 offers extra turns);
//! - the number of threads never changes what it writes;
//! - with opponents, the caller acts only for its seat, and the games are those of the
//!   opponents' policy playing the other seats with the game's random stream;
//! - an illegal token is refused, naming the game, with nothing stepped.

mod common;
mod learning_configs;
mod step_out;
use common::configs;
use learning_configs::learning_configs;
use step_out::Out;

use std::sync::Arc;

use carcassonne_core::Game;
use carcassonne_core::engine::rules::Rules;
use carcassonne_core::learn::action_space::ActionSpace;
use carcassonne_core::learn::codec::{legal_tokens, resolve};
use carcassonne_core::learn::observation::{ObservationLayout, ObservationScratch};
use carcassonne_core::learn::vector_env::{EnvConfig, StepError, VectorEnv};
use carcassonne_core::play::players::{Player, Policy, Scratch};
use carcassonne_core::rng::Rng;

fn config(n: usize, seed: u64) -> EnvConfig {
    EnvConfig {
        num_envs: n,
        seed,
        opponents: None,
        agent_seat: 0,
        shaping: 0.0,
        observe: true,
        window: None,
        reuse_buffers: false,
    }
}

/// A random legal token of game `e` from the mask.
fn pick(out: &Out, size: usize, e: usize, rng: &mut Rng) -> u32 {
    let legal: Vec<u32> = (0..size)
        .filter(|&t| out.mask[e * size + t])
        .map(|t| t as u32)
        .collect();
    assert!(!legal.is_empty(), "game {e} has a legal token");
    legal[rng.below(legal.len() as u32) as usize]
}

/// One game of the study played by hand, as the environment should play it.
struct Mirror {
    game: Game,
    prefix: Vec<u32>,
    index: u64,
}

/// How a test hands the environment its buffers.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Buffers {
    /// Written whole every step (`reuse_buffers` off), scribbled over between steps.
    Scribbled,
    /// Handed back unchanged with `reuse_buffers` (later tokens and masks rewrite only
    /// what changed).
    Reused,
}

#[test]
fn the_environment_plays_the_studys_games_one_by_one() {
    for (name, rules) in learning_configs() {
        for buffers in [Buffers::Scribbled, Buffers::Reused] {
            plays_the_studys_games(name, &rules, buffers);
        }
    }
}

fn plays_the_studys_games(name: &str, rules: &Arc<Rules>, buffers: Buffers) {
    {
        let n = 3;
        let cfg = EnvConfig {
            reuse_buffers: buffers == Buffers::Reused,
            ..config(n, 21)
        };
        let mut env = VectorEnv::new(rules.clone(), cfg, 1).unwrap();
        let space = ActionSpace::new(rules, None).unwrap();
        let layout = ObservationLayout::new(rules, &space);
        let mut out = Out::new(&env);
        env.reset(None, out.buffers()).unwrap();
        let mut mirrors: Vec<Mirror> = (0..n)
            .map(|e| Mirror {
                game: Game::shuffled(rules.clone(), 21, e as u64),
                prefix: Vec::new(),
                index: e as u64,
            })
            .collect();
        let size = space.size() as usize;
        let mut rng = Rng::for_game(22, 0);
        let mut seen = ObservationScratch::default();
        let mut ended = 0;
        for _step in 0..700 {
            // The environment's rows are the mirrors' positions.
            for (e, m) in mirrors.iter().enumerate() {
                let mut mask = vec![false; size];
                match legal_tokens(&space, &m.game, &m.prefix, |t| mask[t as usize] = true) {
                    Ok(()) => {}
                    Err(_) => panic!("{name}: game {e} outgrew the window"),
                }
                assert_eq!(
                    &out.mask[e * size..][..size],
                    &mask[..],
                    "{name}: mask of game {e}"
                );
                assert_eq!(out.to_play[e], m.game.decider() as i32);
                let (b, v) = (layout.board_len(), layout.vector_len());
                let (mut board, mut vector) = (vec![0u8; b], vec![0.0f32; v]);
                layout
                    .write(&m.game, &m.prefix, &mut seen, &mut board, &mut vector)
                    .unwrap();
                assert!(
                    out.board[e * b..][..b] == board[..],
                    "{name}: board of game {e}"
                );
                assert!(
                    out.vector[e * v..][..v] == vector[..],
                    "{name}: vector of game {e}"
                );
            }
            let tokens: Vec<u32> = (0..n).map(|e| pick(&out, size, e, &mut rng)).collect();
            if buffers == Buffers::Scribbled {
                out.board.fill(7);
                out.vector.fill(-3.0);
                out.mask.fill(true);
            }
            env.step(&tokens, out.buffers()).unwrap();
            for (e, m) in mirrors.iter_mut().enumerate() {
                m.prefix.push(tokens[e]);
                if let Some(a) = resolve(&space, &m.game, &m.prefix).unwrap() {
                    m.game.apply(a).unwrap();
                    m.prefix.clear();
                }
                assert_eq!(out.terminated[e], m.game.is_over(), "{name}");
                if m.game.is_over() {
                    let p = rules.players();
                    assert_eq!(&out.final_scores[e * p..][..p], &m.game.scores()[..p]);
                    let best = *m.game.scores().iter().max().unwrap();
                    for s in 0..p {
                        let r = out.rewards[e * p + s];
                        assert_eq!(
                            r < 0.0,
                            m.game.scores()[s] < best,
                            "{name}: reward of seat {s}"
                        );
                    }
                    // Autoreset: the next episode of this game is game index e + n.
                    m.index += n as u64;
                    m.game = Game::shuffled(rules.clone(), 21, m.index);
                    ended += 1;
                } else {
                    assert!(
                        out.rewards[e * rules.players()..][..rules.players()]
                            .iter()
                            .all(|&r| r == 0.0)
                    );
                }
            }
        }
        assert!(ended >= 1, "{name} ({buffers:?}): an episode ended");
    }
}

#[test]
fn threads_never_change_what_the_environment_writes() {
    let rules = configs().remove(0).1;
    let run = |threads: usize| -> Vec<Out> {
        let mut env = VectorEnv::new(
            rules.clone(),
            EnvConfig {
                shaping: 0.1,
                ..config(16, 5)
            },
            threads,
        )
        .unwrap();
        let size = env.space().size() as usize;
        let mut out = Out::new(&env);
        env.reset(None, out.buffers()).unwrap();
        let mut rng = Rng::for_game(6, 0);
        let mut all = vec![out.clone()];
        for _ in 0..300 {
            let tokens: Vec<u32> = (0..16).map(|e| pick(&out, size, e, &mut rng)).collect();
            env.step(&tokens, out.buffers()).unwrap();
            all.push(out.clone());
        }
        all
    };
    assert!(run(1) == run(2));
}

#[test]
fn with_opponents_the_caller_plays_its_seat_alone() {
    let rules: Arc<Rules> = configs().remove(0).1;
    let cfg = EnvConfig {
        opponents: Some(Arc::new(Policy::Random)),
        agent_seat: 1,
        observe: false,
        ..config(2, 8)
    };
    let mut env = VectorEnv::new(rules.clone(), cfg, 1).unwrap();
    let size = env.space().size() as usize;
    let mut out = Out::new(&env);
    env.reset(None, out.buffers()).unwrap();
    // The mirror: the same game, the opponent playing seat 0 from the game's stream.
    let space = ActionSpace::new(&rules, None).unwrap();
    let mut rng = Rng::for_game(8, 0);
    let mut game = Game::new(rules.clone(), Vec::new());
    game.reset_shuffled(&mut rng);
    let mut scratch = Scratch::default();
    let opponents = |game: &mut Game, rng: &mut Rng, scratch: &mut Scratch| {
        while !game.is_over() && game.decider() != 1 {
            Policy::Random.play(game, rng, scratch).unwrap();
        }
    };
    opponents(&mut game, &mut rng, &mut scratch);
    let mut pick_rng = Rng::for_game(9, 0);
    let mut prefix = Vec::new();
    loop {
        assert_eq!(out.to_play[0], 1, "the caller's seat");
        let t = pick(&out, size, 0, &mut pick_rng);
        let t1 = pick(&out, size, 1, &mut pick_rng);
        env.step(&[t, t1], out.buffers()).unwrap();
        prefix.push(t);
        if let Some(a) = resolve(&space, &game, &prefix).unwrap() {
            game.apply(a).unwrap();
            prefix.clear();
            opponents(&mut game, &mut rng, &mut scratch);
        }
        if game.is_over() {
            assert!(out.terminated[0]);
            assert_eq!(&out.final_scores[..2], &game.scores()[..2]);
            break;
        }
        assert!(!out.terminated[0]);
    }
}

#[test]
fn an_illegal_token_is_refused_and_nothing_is_stepped() {
    let rules = configs().remove(0).1;
    let mut env = VectorEnv::new(rules.clone(), config(2, 1), 1).unwrap();
    let size = env.space().size() as usize;
    let mut out = Out::new(&env);
    env.reset(None, out.buffers()).unwrap();
    let before = out.clone();
    let good = (0..size).find(|&t| out.mask[t]).unwrap() as u32;
    let bad = (0..size).find(|&t| !out.mask[size + t]).unwrap() as u32;
    let e = env.step(&[good, bad], out.buffers()).unwrap_err();
    assert_eq!(
        e,
        StepError::NotLegal {
            env: 1,
            token: bad as u64
        }
    );
    assert!(e.to_string().contains("environment 1"), "{e}");
    let e = env
        .step(&[good, size as u32 + 5], out.buffers())
        .unwrap_err();
    assert_eq!(
        e,
        StepError::NotLegal {
            env: 1,
            token: size as u64 + 5
        }
    );
    assert!(out == before, "nothing was written");
    // And the environment still steps from where it was.
    let ok = (0..size).find(|&t| out.mask[size + t]).unwrap() as u32;
    env.step(&[good, ok], out.buffers()).unwrap();
    assert!(VectorEnv::new(rules.clone(), config(0, 1), 1).is_err());
    assert!(
        VectorEnv::new(
            rules,
            EnvConfig {
                opponents: Some(Arc::new(Policy::Random)),
                agent_seat: 2,
                ..config(1, 1)
            },
            1
        )
        .is_err()
    );
}
