//! The search with the learned value at its leaves: the engine's information-set MCTS
//! (`play::players::mcts`), each iteration judged by the learned value of the position
//! where it leaves the tree instead of by a random playout. A value is about as cheap as
//! a playout of a few tiles and says much more about who is ahead.

use std::sync::Arc;

use crate::engine::game::Game;
use crate::learn::value::facts::{FactsScratch, WEIGHTS};
use crate::learn::value::linear::LinearValue;
use crate::limits::MAX_PLAYERS;
use crate::play::action::Action;
use crate::play::players::mcts::{Leaf, Mcts};
use crate::play::players::{Player, PlayerError, Scratch};
use crate::rng::Rng;

/// MCTS whose leaves the learned value judges: `mcts`'s budget and exploration (its
/// cut-off is not used), a seat's reward `(1 + value) / 2` (of a finished game, of its
/// outcome: as the one-ply player judges it).
#[derive(Clone, Debug)]
pub struct LearnedSearch {
    pub mcts: Mcts,
    pub value: Arc<LinearValue>,
    /// The name of the value's weights ("learned" for the package's own).
    pub value_name: String,
    /// Visits each child starts with, of the value after its action (`Leaf::Judge`).
    pub prior: u32,
}

impl Player for LearnedSearch {
    fn name(&self) -> String {
        let time = self.mcts.time_in_name();
        format!(
            "{}-search(playouts={}{time},c={},prior={})",
            self.value_name, self.mcts.playouts, self.mcts.exploration, self.prior
        )
    }

    fn choose(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<Action, PlayerError> {
        // The value's buffers leave the scratch while the search holds it.
        let mut facts = std::mem::take(scratch.own::<FactsScratch>());
        let mut x = vec![0.0; WEIGHTS];
        let value = &self.value;
        let mut judge = |g: &Game| {
            let v = value.values_or_outcome(g, &mut facts, &mut x);
            let mut out = [0.0; MAX_PLAYERS];
            for (o, v) in out.iter_mut().zip(v) {
                *o = (1.0 + v as f64) / 2.0;
            }
            out
        };
        let chosen = self.mcts.choose_with(
            game,
            rng,
            scratch,
            &mut Leaf::Judge {
                judge: &mut judge,
                prior: self.prior,
            },
        );
        *scratch.own::<FactsScratch>() = facts;
        chosen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Rules, RulesSpec};
    use crate::learn::value::linear::testing::{assert_plays_as_one_ply, scores_of, some_value};

    /// The search plays whole games of legal actions, the same game for the same seed.
    #[test]
    fn the_search_plays_whole_games_reproducibly() {
        let rules = Arc::new(Rules::new(RulesSpec::default()).expect("the base game"));
        let player = LearnedSearch {
            mcts: Mcts {
                playouts: 30,
                ..Mcts::default()
            },
            value: Arc::new(LinearValue::default()),
            value_name: "learned".into(),
            prior: 2,
        };
        assert_eq!(player.name(), "learned-search(playouts=30,c=0.1,prior=2)");
        assert_eq!(scores_of(&player, &rules, 1), scores_of(&player, &rules, 1));
    }

    /// With priors, the first iteration values every root action and takes the best: a
    /// search of one iteration plays the one-ply player's move, everywhere in a game.
    #[test]
    fn one_iteration_with_priors_is_the_one_ply_choice() {
        let rules = Arc::new(Rules::new(RulesSpec::default()).expect("the base game"));
        let search = LearnedSearch {
            mcts: Mcts {
                playouts: 1,
                ..Mcts::default()
            },
            value: Arc::new(some_value()),
            value_name: "learned".into(),
            prior: 3,
        };
        assert_plays_as_one_ply(&search, some_value(), &rules);
    }
}
