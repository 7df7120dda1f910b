//! The learned value as the evaluation of a PUCT search (`learn::search::Puct`): it
//! values the positions themselves, so the search takes each leaf's value at once, with
//! equal priors over its actions, and never asks for an observation.

use std::convert::Infallible;
use std::sync::Arc;

use crate::engine::game::Game;
use crate::learn::search::Evaluate;
use crate::learn::value::facts::{FactsScratch, WEIGHTS};
use crate::learn::value::linear::LinearValue;
use crate::limits::MAX_PLAYERS;

/// A `LinearValue` with its buffers, evaluating a PUCT search's leaves.
#[derive(Debug)]
pub struct ValueEvaluation {
    value: Arc<LinearValue>,
    facts: FactsScratch,
    x: Vec<f32>,
}

impl ValueEvaluation {
    pub fn new(value: Arc<LinearValue>) -> Self {
        ValueEvaluation {
            value,
            facts: FactsScratch::default(),
            x: vec![0.0; WEIGHTS],
        }
    }
}

impl Evaluate for ValueEvaluation {
    type Error = Infallible;

    /// Never given a row: every leaf is valued by `value_of`.
    fn evaluate(
        &mut self,
        n: usize,
        _board: &[u8],
        _vector: &[f32],
        _priors: &mut [f32],
        _values: &mut [f32],
    ) -> Result<(), Infallible> {
        debug_assert_eq!(n, 0, "the learned value reads positions, not observations");
        Ok(())
    }

    fn value_of(&mut self, game: &Game) -> Option<[f32; MAX_PLAYERS]> {
        Some(self.value.values(game, &mut self.facts, &mut self.x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Rules, RulesSpec};
    use crate::learn::action_space::ActionSpace;
    use crate::learn::observation::ObservationLayout;
    use crate::learn::search::{Puct, PuctTree};
    use crate::rng::Rng;

    /// A PUCT search on the learned value runs without observations, is the same for the
    /// same seed, and its root value is the learned value of the root for its decider.
    #[test]
    fn a_puct_search_on_the_learned_value() {
        let rules = Arc::new(Rules::new(RulesSpec::default()).expect("the base game"));
        let space = ActionSpace::new(&rules, None).expect("the base game's space");
        let layout = ObservationLayout::new(&rules, &space);
        let value = Arc::new(LinearValue::default());
        let puct = Puct::new(64, 8, 1.25).expect("settings");
        let mut game = Game::shuffled(Arc::clone(&rules), 4, 0);
        for _ in 0..10 {
            let a = game.legal_actions()[0];
            game.apply_unchecked(a);
        }
        let search = || {
            let mut eval = ValueEvaluation::new(Arc::clone(&value));
            let mut tree = PuctTree::default();
            let report = puct
                .search(
                    &game,
                    &layout,
                    &mut eval,
                    &mut Rng::for_game(1, 2),
                    &mut tree,
                )
                .expect("a search");
            let visits: Vec<u32> = report.actions.iter().map(|a| a.visits).collect();
            (report.best(), visits, report.value)
        };
        let (best, visits, root) = search();
        assert!(best.is_some());
        assert_eq!(
            visits.iter().sum::<u32>(),
            63,
            "every simulation past the root"
        );
        let mut x = vec![0.0; WEIGHTS];
        let own = value.values(&game, &mut FactsScratch::default(), &mut x)[game.decider()];
        assert_eq!(root, own);
        assert_eq!(search(), (best, visits, root));
    }
}
