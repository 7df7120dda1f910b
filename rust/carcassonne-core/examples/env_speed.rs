//! Steps per second of the vectorised environment (`learn::vector_env`) with random legal
//! tokens drawn from the masks, on one thread: `env_speed [STEPS] [ENVS] [SETS] [obs]`
//! (SETS as `examples/speed`: `base`, `base,ferries`, `south-seas`, `map:continental`;
//! `obs` writes full observations, else masks only).

use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::engine::rules::{Rules, RulesSpec};
use carcassonne_core::learn::vector_env::{EnvConfig, StepBuffers, VectorEnv};
use carcassonne_core::rng::Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let steps: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(64);
    let sets: Vec<&str> = args.get(3).map_or(vec!["base"], |s| s.split(',').collect());
    let observe = args.get(4).is_some_and(|s| s == "obs");
    let spec = if let Some(map) = sets[0].strip_prefix("map:") {
        RulesSpec::maps(map, 2)
    } else if sets == ["south-seas"] {
        RulesSpec::south_seas(2)
    } else {
        RulesSpec {
            tile_sets: carcassonne_core::DataSource::builtins(&sets),
            ..RulesSpec::default()
        }
    };
    let rules = Arc::new(Rules::new(spec).unwrap());
    let config = EnvConfig {
        num_envs: n,
        seed: 1,
        opponents: None,
        agent_seat: 0,
        shaping: 0.0,
        observe,
        window: None,
        // The same buffers every step, as the Python binding hands them.
        reuse_buffers: true,
    };
    let mut env = VectorEnv::new(rules, config, 1).unwrap();
    let (b, v) = if observe {
        (env.layout().board_len(), env.layout().vector_len())
    } else {
        (0, 0)
    };
    let size = env.space().size() as usize;
    let p = env.players();
    let mut board = vec![0u8; n * b];
    let mut vector = vec![0.0; n * v];
    let mut mask = vec![false; n * size];
    let mut rewards = vec![0.0; n * p];
    let (mut terminated, mut truncated) = (vec![false; n], vec![false; n]);
    let mut to_play = vec![0; n];
    let mut final_scores = vec![0; n * p];
    macro_rules! buffers {
        () => {
            StepBuffers {
                board: &mut board,
                vector: &mut vector,
                mask: &mut mask,
                rewards: &mut rewards,
                terminated: &mut terminated,
                truncated: &mut truncated,
                to_play: &mut to_play,
                final_scores: &mut final_scores,
            }
        };
    }
    env.reset(None, buffers!()).unwrap();
    let mut rng = Rng::for_game(2, 0);
    let mut tokens = vec![0u32; n];
    let mut legal: Vec<u32> = Vec::with_capacity(256);
    let rounds = steps.div_ceil(n);
    let (mut episodes, t) = (0usize, Instant::now());
    for _ in 0..rounds {
        for (e, token) in tokens.iter_mut().enumerate() {
            *token = pick(&mask[e * size..][..size], &mut legal, &mut rng);
        }
        env.step(&tokens, buffers!()).unwrap();
        episodes += terminated.iter().filter(|&&d| d).count();
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{} steps, {n} envs, {}, {}: {:.0} steps/s ({episodes} episodes)",
        rounds * n,
        sets.join(","),
        if observe {
            "observations"
        } else {
            "masks only"
        },
        (rounds * n) as f64 / dt
    );
}

/// A uniformly drawn legal token of a game's mask row: the legal tokens listed into
/// `legal`, then one drawn. The row is read as 64-bit words (a bool is one byte, 0 or 1),
/// four at a time: a mask has a few dozen legal tokens among thousands, so most of the
/// row is skipped 32 entries at once.
fn pick(row: &[bool], legal: &mut Vec<u32>, rng: &mut Rng) -> u32 {
    legal.clear();
    let blocks = row.len() / 32;
    for k in 0..blocks {
        // SAFETY: the 32 bytes from 32 k are in the row; a bool is one byte, 0 or 1.
        let w: [u64; 4] = unsafe { std::ptr::read_unaligned(row.as_ptr().add(32 * k).cast()) };
        if w[0] | w[1] | w[2] | w[3] == 0 {
            continue;
        }
        for (j, &w) in w.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                legal.push((32 * k + 8 * j) as u32 + w.trailing_zeros() / 8);
                w &= w - 1;
            }
        }
    }
    for (i, &b) in row.iter().enumerate().skip(32 * blocks) {
        if b {
            legal.push(i as u32);
        }
    }
    legal[rng.below(legal.len() as u32) as usize]
}
