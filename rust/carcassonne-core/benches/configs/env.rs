//! The learning environment's cost: a `VectorEnv` stepped on one thread with random legal
//! tokens drawn from its masks (`pick`), with or without observations. Timed by
//! `examples/env_speed`, counted by `examples/costs` (`env-masks`, `env-observations`:
//! base games, `COST_GAMES` of them, `COST_ROUNDS` steps each).

use std::sync::Arc;

use carcassonne_core::engine::rules::Rules;
use carcassonne_core::learn::vector_env::{EnvConfig, StepBuffers, VectorEnv};
use carcassonne_core::rng::Rng;

/// The cost counts of the environment: key, whether it observes.
pub const COSTS: [(&str, bool); 2] = [("env-masks", false), ("env-observations", true)];
/// The games of a cost count's environment...
pub const COST_GAMES: usize = 64;
/// ... and the steps each takes at scale 1: a whole base episode (142 steps) and a bit,
/// so that early and late positions count as they come.
pub const COST_ROUNDS: usize = 150;

/// An environment with the buffers a caller hands it, and the random stream of the
/// tokens it is given.
pub struct EnvBench {
    pub env: VectorEnv,
    board: Vec<u8>,
    vector: Vec<f32>,
    mask: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    to_play: Vec<i32>,
    final_scores: Vec<i32>,
    tokens: Vec<u32>,
    counts: Vec<u32>,
    rng: Rng,
}

macro_rules! buffers {
    ($b:expr) => {
        StepBuffers {
            board: &mut $b.board,
            vector: &mut $b.vector,
            mask: &mut $b.mask,
            rewards: &mut $b.rewards,
            terminated: &mut $b.terminated,
            truncated: &mut $b.truncated,
            to_play: &mut $b.to_play,
            final_scores: &mut $b.final_scores,
        }
    };
}

impl EnvBench {
    /// `games` games of `rules` (study seed 1), reset, on one thread.
    pub fn new(rules: Arc<Rules>, games: usize, observe: bool) -> Self {
        let config = EnvConfig {
            num_envs: games,
            seed: 1,
            opponents: None,
            agent_seat: 0,
            shaping: 0.0,
            observe,
            window: None,
            // The same buffers every step, as the Python binding hands them.
            reuse_buffers: true,
        };
        let env = VectorEnv::new(rules, config, 1).expect("a valid configuration");
        let (b, v) = if observe {
            (env.layout().board_len(), env.layout().vector_len())
        } else {
            (0, 0)
        };
        let (size, p) = (env.space().size() as usize, env.players());
        let mut bench = EnvBench {
            env,
            board: vec![0; games * b],
            vector: vec![0.0; games * v],
            mask: vec![false; games * size],
            rewards: vec![0.0; games * p],
            terminated: vec![false; games],
            truncated: vec![false; games],
            to_play: vec![0; games],
            final_scores: vec![0; games * p],
            tokens: vec![0; games],
            counts: Vec::new(),
            rng: Rng::for_game(2, 0),
        };
        bench
            .env
            .reset(None, buffers!(bench))
            .expect("the reset of a valid configuration");
        bench
    }

    /// Steps every game `rounds` times, each with a random legal token of its mask;
    /// returns the episodes that ended and a checksum of the tokens played.
    pub fn run(&mut self, rounds: usize) -> (usize, u64) {
        let size = self.env.space().size() as usize;
        let (mut episodes, mut checksum) = (0, 0u64);
        for _ in 0..rounds {
            for (e, token) in self.tokens.iter_mut().enumerate() {
                *token = pick(
                    &self.mask[e * size..][..size],
                    &mut self.counts,
                    &mut self.rng,
                );
                checksum = checksum.wrapping_mul(1_000_003).wrapping_add(*token as u64);
            }
            let tokens = std::mem::take(&mut self.tokens);
            self.env
                .step(&tokens, buffers!(self))
                .expect("legal tokens");
            self.tokens = tokens;
            episodes += self.terminated.iter().filter(|&&d| d).count();
        }
        (episodes, checksum)
    }
}

/// A uniformly drawn legal token of a game's mask row, with few branches on the mask
/// (a few dozen legal tokens lie among thousands, where no branch predictor can follow):
/// the row read as 64-bit words of eight entries (a bool is one byte, 0 or 1); the set
/// entries of each block of four words counted, one entry drawn, then found by walking
/// the counts up to it.
pub fn pick(row: &[bool], counts: &mut Vec<u32>, rng: &mut Rng) -> u32 {
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
