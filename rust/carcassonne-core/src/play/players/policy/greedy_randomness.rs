//! The greedy player with randomness (epsilon-greedy): before each action it draws from
//! its random stream, and with probability `randomness` takes the action the random
//! player would take, otherwise the greedy one. Between the two built-in policies in
//! strength, for the low rungs of a rating ladder, where greedy against random is a
//! sweep (greedy wins every pair) that no rating can measure.
//!
//! Every action is drawn alike: a placement (with its meeple, islander and ferry choices)
//! and every decision after it (South Seas, Friday, the Maps extra turn). The draw comes
//! from the stream the player is handed (a study's game stream), so a game depends only
//! on its seed and index. At the ends no draw is made: randomness 0 is the greedy player
//! and randomness 1 the random player, action for action and draw for draw.

use std::fmt;

use crate::engine::game::Game;
use crate::play::action::Action;
use crate::play::players::{Player, PlayerError, Policy, Scratch};
use crate::rng::Rng;

/// The greedy player taking a random action with probability `randomness`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomizedGreedy {
    randomness: f64,
    /// `randomness` in units of 2^-53: an action is random when the top 53 bits of one
    /// 64-bit draw fall below it (exact for every `randomness` of 2^-53 or more).
    threshold: u64,
}

/// A randomness outside [0, 1] (or not a number).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomnessError(pub f64);

impl fmt::Display for RandomnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "greedy randomness must be a number from 0 to 1, got {}",
            self.0
        )
    }
}

impl std::error::Error for RandomnessError {}

/// 2^53: the draws compared with the threshold have 53 bits, as many as an f64's
/// significand, so `randomness * 2^53` loses nothing above 2^-53.
const SCALE: f64 = (1u64 << 53) as f64;

impl RandomizedGreedy {
    /// The greedy player taking a random action with probability `randomness`, from 0
    /// (the greedy player) to 1 (the random player).
    pub fn new(randomness: f64) -> Result<Self, RandomnessError> {
        if !(0.0..=1.0).contains(&randomness) {
            return Err(RandomnessError(randomness));
        }
        Ok(RandomizedGreedy {
            // -0.0 names itself "greedy" like 0.0.
            randomness: randomness + 0.0,
            threshold: (randomness * SCALE) as u64,
        })
    }

    /// The chance of a random action.
    pub fn randomness(&self) -> f64 {
        self.randomness
    }

    /// The policy of the next action: at the ends without a draw, else one 64-bit draw
    /// from `rng`, before the policy draws its own.
    #[inline]
    pub fn pick(&self, rng: &mut Rng) -> Policy {
        if let Some(p) = self.as_policy() {
            return p;
        }
        if rng.next_u64() >> 11 < self.threshold {
            Policy::Random
        } else {
            Policy::Greedy
        }
    }
}

impl Player for RandomizedGreedy {
    /// "greedy" at randomness 0, else "greedy(randomness=0.25)" (the number as Rust
    /// writes an f64: the fewest digits that read back the same, no exponent).
    fn name(&self) -> String {
        if self.randomness == 0.0 {
            "greedy".to_string()
        } else {
            format!("greedy(randomness={})", self.randomness)
        }
    }

    fn choose(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<Action, PlayerError> {
        self.pick(rng).choose(game, rng, scratch)
    }

    #[inline]
    fn play(
        &self,
        game: &mut Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<(), PlayerError> {
        self.pick(rng).play(game, rng, scratch)
    }

    /// At the ends, the policy it is (so a study of it runs the built-in policies' loop);
    /// in between none, as each action needs a draw first.
    fn as_policy(&self) -> Option<Policy> {
        if self.randomness == 0.0 {
            Some(Policy::Greedy)
        } else if self.randomness == 1.0 {
            Some(Policy::Random)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_is_refused() {
        for bad in [-0.01, 1.01, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let e = RandomizedGreedy::new(bad).unwrap_err();
            assert!(e.to_string().contains("from 0 to 1"), "{e}");
        }
        assert_eq!(RandomizedGreedy::new(-0.0).unwrap().name(), "greedy");
        assert_eq!(
            RandomizedGreedy::new(0.25).unwrap().name(),
            "greedy(randomness=0.25)"
        );
        assert_eq!(
            RandomizedGreedy::new(1.0).unwrap().name(),
            "greedy(randomness=1)"
        );
    }

    /// The threshold's chance is the randomness: over a million draws, within five
    /// standard deviations.
    #[test]
    fn draws_are_random_with_the_given_chance() {
        for p in [1e-3, 0.1, 0.5, 0.9] {
            let player = RandomizedGreedy::new(p).unwrap();
            let mut rng = Rng::for_game(5, 0);
            let n = 1_000_000;
            let random = (0..n)
                .filter(|_| player.pick(&mut rng) == Policy::Random)
                .count() as f64;
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!((random - n as f64 * p).abs() < 5.0 * sd, "{p}: {random}");
        }
    }
}
