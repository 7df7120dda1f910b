//! Steps per second of the vectorised environment (`learn::vector_env`) with random legal
//! tokens drawn from the masks, on one thread: `env_speed [STEPS] [ENVS] [SETS] [obs]`
//! (SETS as `examples/speed`: `base`, `base,ferries`, `south-seas`, `map:continental`;
//! `obs` writes full observations, else masks only). Then, as a gauge of how fast this
//! machine runs now (shared machines move by a third), the engine's own speed on the same
//! thread: random base games per second (about 55,000 on the README's machines).

use std::sync::Arc;
use std::time::Instant;

use carcassonne_core::engine::rules::{Rules, RulesSpec};
use carcassonne_core::learn::vector_env::{EnvConfig, StepBuffers, VectorEnv};
use carcassonne_core::play::players::Policy;
use carcassonne_core::play::simulate::simulate;
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
    let mut counts = Vec::new();
    let rounds = steps.div_ceil(n);
    let (mut episodes, t) = (0usize, Instant::now());
    for _ in 0..rounds {
        for (e, token) in tokens.iter_mut().enumerate() {
            *token = pick(&mask[e * size..][..size], &mut counts, &mut rng);
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
    let base = Arc::new(Rules::new(RulesSpec::default()).unwrap());
    let games = 20_000;
    let t = Instant::now();
    simulate(&base, games, 0, 1, Policy::Random, Some(1)).unwrap();
    println!(
        "gauge: the engine plays {:.0} random base games/s on this thread now",
        games as f64 / t.elapsed().as_secs_f64()
    );
}

/// A uniformly drawn legal token of a game's mask row, with few branches on the mask
/// (a few dozen legal tokens lie among thousands, where no branch predictor can follow):
/// the row read as 64-bit words of eight entries (a bool is one byte, 0 or 1); the set
/// entries of each block of four words counted, one entry drawn, then found by walking
/// the counts up to it.
fn pick(row: &[bool], counts: &mut Vec<u32>, rng: &mut Rng) -> u32 {
    // SAFETY: the 8 bytes at `at` are in the row; a bool is one byte, 0 or 1.
    let word =
        |at: usize| -> u64 { unsafe { std::ptr::read_unaligned(row.as_ptr().add(at).cast()) } };
    // The set entries of four words added up: their sum's bytes (each at most 4) summed
    // into the top byte by one multiplication (no popcount in the baseline x86-64 target).
    let set = |w: u64| (w.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
    let blocks = row.len() / 32;
    counts.clear();
    counts.extend((0..blocks).map(|b| {
        let at = 32 * b;
        set(word(at) + word(at + 8) + word(at + 16) + word(at + 24))
    }));
    let tail = &row[32 * blocks..];
    let total = counts.iter().sum::<u32>() + tail.iter().filter(|&&b| b).count() as u32;
    let mut k = rng.below(total);
    for (b, &n) in counts.iter().enumerate() {
        if k < n {
            let block = &row[32 * b..32 * b + 32];
            let i = block
                .iter()
                .enumerate()
                .filter(|(_, b)| **b)
                .nth(k as usize);
            return (32 * b + i.expect("the drawn entry").0) as u32;
        }
        k -= n;
    }
    let i = tail.iter().enumerate().filter(|(_, b)| **b).nth(k as usize);
    (32 * blocks + i.expect("the drawn entry").0) as u32
}
