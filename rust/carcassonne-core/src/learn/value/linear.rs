//! The linear value over the seats' fact differences, blended over the stages of the
//! game, and its one-ply player (see the parent module).

use std::fmt;

use crate::engine::game::Game;
use crate::learn::value::facts::{FACTS, FactsScratch, STAGES, WEIGHTS, facts};
use crate::limits::MAX_PLAYERS;
use crate::play::action::Action;
use crate::play::players::{Player, PlayerError, Scratch};
use crate::rng::Rng;

/// The stage blend of `game`: weights of the three stages, summing to 1, by the share of
/// the deck on the board. Not by the tiles left to draw: after an action the next tile is
/// drawn, and one that fits nowhere is set aside at once, so the count left would depend
/// on a draw the player did not know of when choosing.
fn stage(game: &Game) -> [f32; STAGES] {
    let total = game.rules().full_deck.len().max(1) as f32;
    let left = (1.0 - game.placed().len() as f32 / total).max(0.0); // 1 at the start, 0 at the end
    let x = (1.0 - left) * (STAGES - 1) as f32;
    let k = (x.floor() as usize).min(STAGES - 2);
    let t = x - k as f32;
    let mut w = [0.0; STAGES];
    w[k] = 1.0 - t;
    w[k + 1] = t;
    w
}

/// Seat `seat`'s input from every seat's facts `f` of `game` (see `LinearValue::input`).
fn input_of(f: &[[f32; FACTS]; MAX_PLAYERS], game: &Game, seat: usize, x: &mut [f32]) {
    let players = game.rules().players();
    let mut others = [0.0f32; FACTS];
    for (p, facts) in f.iter().enumerate().take(players) {
        if p != seat {
            for (o, v) in others.iter_mut().zip(facts) {
                *o += v / (players - 1) as f32;
            }
        }
    }
    let blend = stage(game);
    for k in 0..STAGES {
        for i in 0..FACTS {
            x[k * FACTS + i] = blend[k] * (f[seat][i] - others[i]);
        }
    }
}

/// A linear value over the seats' fact differences.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearValue {
    pub weights: Vec<f32>,
}

/// Weights a `LinearValue` cannot use.
#[derive(Clone, Debug, PartialEq)]
pub enum WeightsError {
    /// Not `WEIGHTS` of them.
    Length { given: usize },
    /// A NaN or infinite weight, at this index.
    NotFinite { index: usize },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Length { given } => {
                write!(f, "{given} weights, but the linear value has {WEIGHTS}")
            }
            WeightsError::NotFinite { index } => {
                write!(f, "weight {index} is not a finite number")
            }
        }
    }
}

impl std::error::Error for WeightsError {}

impl Default for LinearValue {
    /// The virtual-score lead alone, 10 points worth tanh(1): the greedy player's view.
    fn default() -> Self {
        let mut weights = vec![0.0; WEIGHTS];
        for k in 0..STAGES {
            weights[k * FACTS] = 1.0;
        }
        LinearValue { weights }
    }
}

impl LinearValue {
    /// The value of these weights, checked: `WEIGHTS` finite numbers.
    pub fn new(weights: Vec<f32>) -> Result<Self, WeightsError> {
        if weights.len() != WEIGHTS {
            return Err(WeightsError::Length {
                given: weights.len(),
            });
        }
        if let Some(index) = weights.iter().position(|w| !w.is_finite()) {
            return Err(WeightsError::NotFinite { index });
        }
        Ok(LinearValue { weights })
    }

    /// The input of `seat`'s value: its facts less the mean of the other seats' (with
    /// two players, the other seat's), with the stage blend applied, into `x` (`WEIGHTS`
    /// long).
    pub fn input(&self, game: &Game, seat: usize, s: &mut FactsScratch, x: &mut [f32]) {
        let f = facts(game, s);
        input_of(&f, game, seat, x);
    }

    /// `tanh(w . x)`.
    pub fn value_of(&self, x: &[f32]) -> f32 {
        let z: f32 = self.weights.iter().zip(x).map(|(w, v)| w * v).sum();
        z.tanh()
    }

    /// The value of `game` (not over) for every seat, the facts found once.
    pub fn values(&self, game: &Game, s: &mut FactsScratch, x: &mut [f32]) -> [f32; MAX_PLAYERS] {
        let f = facts(game, s);
        let mut out = [0.0; MAX_PLAYERS];
        for (seat, v) in out.iter_mut().enumerate().take(game.rules().players()) {
            input_of(&f, game, seat, x);
            *v = self.value_of(x);
        }
        out
    }

    /// Every seat's value of `game`: its outcome when it is over, else `values`.
    pub fn values_or_outcome(
        &self,
        game: &Game,
        s: &mut FactsScratch,
        x: &mut [f32],
    ) -> [f32; MAX_PLAYERS] {
        if game.is_over() {
            crate::learn::outcome::outcome(game.scores())
        } else {
            self.values(game, s, x)
        }
    }

    /// The value of `game` for `seat`: the outcome when it is over, else `value_of`.
    pub fn value(&self, game: &Game, seat: usize, s: &mut FactsScratch, x: &mut [f32]) -> f32 {
        if game.is_over() {
            return crate::learn::outcome::outcome(game.scores())[seat];
        }
        self.input(game, seat, s, x);
        self.value_of(x)
    }

    /// The one-ply choice of the decider: the legal action of highest value after it, on
    /// a copy whose hidden order `rng` reshuffled; ties go to the first listed.
    pub fn choose(&self, game: &Game, rng: &mut Rng, s: &mut FactsScratch) -> Action {
        self.action_values(game, rng, s)
            .into_iter()
            .fold(None, |best: Option<(Action, f32)>, (a, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((a, v)),
            })
            // Cannot fail: a game not over has a legal action.
            .expect("a game not over has a legal action")
            .0
    }

    /// Every legal action of the decider with its value for the decider after it (on a
    /// copy whose hidden order `rng` reshuffled), in `legal_actions` order.
    pub fn action_values(
        &self,
        game: &Game,
        rng: &mut Rng,
        s: &mut FactsScratch,
    ) -> Vec<(Action, f32)> {
        let seat = game.decider();
        let mut seen = game.clone();
        seen.determinize(rng);
        let mut x = vec![0.0; WEIGHTS];
        let mut after = seen.clone();
        game.legal_actions()
            .into_iter()
            .map(|a| {
                after.clone_from(&seen);
                after.apply_unchecked(a);
                (a, self.value(&after, seat, s, &mut x))
            })
            .collect()
    }
}

/// The one-ply player of a `LinearValue`, for any number of seats (each seat's input is
/// its facts less the mean of the others').
#[derive(Clone, Debug)]
pub struct Learned {
    pub value: std::sync::Arc<LinearValue>,
    /// The name results record: "learned" for the package's own weights, else the name
    /// its weights file gives.
    pub name: String,
}

impl Learned {
    /// The one-ply player of `value`, named "learned".
    pub fn new(value: LinearValue) -> Self {
        Learned {
            value: std::sync::Arc::new(value),
            name: "learned".to_string(),
        }
    }
}

impl Player for Learned {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<Action, PlayerError> {
        Ok(self.value.choose(game, rng, scratch.own::<FactsScratch>()))
    }
}

/// What the tests of the learned players share.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::engine::rules::Rules;
    use std::sync::Arc;

    /// A value with weights on every fact, so that every fact counts (equal values, from
    /// rotations of a symmetric tile, are common).
    pub fn some_value() -> LinearValue {
        LinearValue::new((0..WEIGHTS).map(|i| 0.01 * (i % 7) as f32 - 0.02).collect())
            .expect("finite weights")
    }

    /// Asserts that `player` chooses what the one-ply player of `value` chooses at every
    /// move of a whole base game (each from its own random stream).
    pub fn assert_plays_as_one_ply(player: &dyn Player, value: LinearValue, rules: &Arc<Rules>) {
        let one_ply = Learned::new(value);
        let mut game = Game::shuffled(Arc::clone(rules), 8, 0);
        let (mut s1, mut s2) = (Scratch::default(), Scratch::default());
        let mut compared = 0;
        while !game.is_over() {
            let a = player
                .choose(&game, &mut Rng::for_game(1, compared), &mut s1)
                .expect("legal");
            let b = one_ply
                .choose(&game, &mut Rng::for_game(2, compared), &mut s2)
                .expect("legal");
            assert_eq!(a, b, "move {compared}");
            game.apply_unchecked(a);
            compared += 1;
        }
        assert!(compared > 50);
    }

    /// The scores of game `index` of seed 3 of `rules` with `player` in every seat.
    pub fn scores_of(player: &dyn Player, rules: &Arc<Rules>, index: u64) -> Vec<i32> {
        let mut game = Game::shuffled(Arc::clone(rules), 3, index);
        let mut rng = Rng::for_game(3, index);
        let mut scratch = Scratch::default();
        while !game.is_over() {
            player
                .play(&mut game, &mut rng, &mut scratch)
                .expect("legal actions");
        }
        game.scores().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Rules, RulesSpec};
    use std::sync::Arc;

    fn base(players: u32) -> Arc<Rules> {
        Arc::new(
            Rules::new(RulesSpec {
                players,
                ..RulesSpec::default()
            })
            .expect("the base game"),
        )
    }

    #[test]
    fn weights_are_checked() {
        assert_eq!(
            LinearValue::new(vec![0.0; WEIGHTS - 1]),
            Err(WeightsError::Length { given: WEIGHTS - 1 })
        );
        let mut w = vec![0.0; WEIGHTS];
        w[5] = f32::NAN;
        assert_eq!(
            LinearValue::new(w.clone()),
            Err(WeightsError::NotFinite { index: 5 })
        );
        w[5] = f32::INFINITY;
        assert_eq!(
            LinearValue::new(w),
            Err(WeightsError::NotFinite { index: 5 })
        );
        let ok = LinearValue::default();
        assert_eq!(LinearValue::new(ok.weights.clone()), Ok(ok));
    }

    /// Two games that differ only in the order of the tiles still to come get the same
    /// values for every action: nothing hidden reaches the evaluation.
    #[test]
    fn values_never_read_the_hidden_order() {
        // Weights on every fact, so that every fact's sum is compared.
        let value = testing::some_value();
        let mut s = FactsScratch::default();
        for index in 0..20 {
            let mut game = Game::shuffled(base(2), 11, index);
            let mut rng = Rng::for_game(11, 1000 + index);
            for _ in 0..(index * 3) % 50 {
                let a = value.choose(&game, &mut rng, &mut s);
                game.apply_unchecked(a);
            }
            let mut other = game.clone();
            other.determinize(&mut Rng::for_game(99, index));
            assert_eq!(game.remaining().len(), other.remaining().len());
            // Reshuffled differently: the tiles drawn after each action differ (one that
            // fits nowhere is set aside at once), and the values may not.
            let (mut r1, mut r2) = (Rng::for_game(5, index), Rng::for_game(6, index));
            assert_eq!(
                value.action_values(&game, &mut r1, &mut s),
                value.action_values(&other, &mut r2, &mut s)
            );
            // A copy of the position alone, as a search makes (its features' nodes in
            // another order), reshuffled: the same values to the last bit.
            let mut slot = None;
            let copy = crate::play::players::mcts::search_root(&mut slot, &game);
            copy.determinize(&mut Rng::for_game(98, index));
            let mut x = vec![0.0; WEIGHTS];
            if !game.is_over() {
                assert_eq!(
                    value.values(&game, &mut s, &mut x),
                    value.values(copy, &mut s, &mut x)
                );
            }
        }
    }

    /// The player plays legal actions to the end, the same game for the same seed, with
    /// two and with four seats.
    #[test]
    fn the_player_plays_whole_games_reproducibly() {
        let player = Learned::new(LinearValue::default());
        for players in [2, 4] {
            let rules = base(players);
            for index in 0..3 {
                assert_eq!(
                    testing::scores_of(&player, &rules, index),
                    testing::scores_of(&player, &rules, index)
                );
            }
        }
    }
}
