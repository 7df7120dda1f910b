//! The buffers a `VectorEnv` step writes into, sized for an environment: the test
//! crates that step one declare `mod step_out;`.

// Each test crate uses only some of these.
#![allow(dead_code)]

use carcassonne_core::learn::vector_env::{StepBuffers, VectorEnv};

/// An environment's buffers.
#[derive(Clone, PartialEq, Debug)]
pub struct Out {
    pub board: Vec<u8>,
    pub vector: Vec<f32>,
    pub mask: Vec<bool>,
    pub rewards: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub to_play: Vec<i32>,
    pub final_scores: Vec<i32>,
}

impl Out {
    pub fn new(env: &VectorEnv) -> Self {
        let n = env.config().num_envs;
        let (b, v) = if env.config().observe {
            (env.layout().board_len(), env.layout().vector_len())
        } else {
            (0, 0)
        };
        let p = env.players();
        Out {
            board: vec![0; n * b],
            vector: vec![0.0; n * v],
            mask: vec![false; n * env.space().size() as usize],
            rewards: vec![0.0; n * p],
            terminated: vec![false; n],
            truncated: vec![false; n],
            to_play: vec![0; n],
            final_scores: vec![0; n * p],
        }
    }

    pub fn buffers(&mut self) -> StepBuffers<'_> {
        StepBuffers {
            board: &mut self.board,
            vector: &mut self.vector,
            mask: &mut self.mask,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_play: &mut self.to_play,
            final_scores: &mut self.final_scores,
        }
    }
}
