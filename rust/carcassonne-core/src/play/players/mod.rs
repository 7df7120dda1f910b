//! Players: who chooses the next action of the player deciding now (`Game::decider`).
//!
//! A `Player` is an open set: the built-in random and greedy policies (`policy`), Monte
//! Carlo tree search, a Python function in the binding, or anything a user writes. A
//! `Lineup` says which player sits in which seat of a study. Every player draws only
//! from the random stream it is handed (the game's own stream in a study), so a study's
//! results never depend on threads or batches.

pub mod mcts;
pub mod policy;

use std::any::Any;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::game::{Game, IllegalMove, Placement};
use crate::limits::MAX_PLAYERS;
use crate::play::action::Action;
use crate::rng::Rng;

pub use mcts::Mcts;
pub use policy::Policy;

/// A flag another thread raises to end a long call early (the binding raises it on
/// Ctrl-C). Cheap to clone: every clone reads the same flag.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A flag not raised yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every holder of this flag to stop as soon as it can.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Working memory a player reuses from one action to the next on one thread: one per
/// seat and thread in a study, so a player never sees another seat's scratch.
#[derive(Default)]
pub struct Scratch {
    pub placements: Vec<Placement>,
    pub actions: Vec<Action>,
    /// Anything else a player keeps (a search tree): created by the player on first use.
    pub own: Option<Box<dyn Any + Send>>,
    /// Raised when the caller wants the player to give up (a search polls it every few
    /// hundred iterations and then fails with `PlayerError::Interrupted`).
    pub stop: Stop,
}

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scratch")
            .field("placements", &self.placements.len())
            .field("actions", &self.actions.len())
            .field("own", &self.own.is_some())
            .finish()
    }
}

impl Scratch {
    /// The player's own state of type `T`, made with `Default` on first use (or when the
    /// scratch held another type).
    pub fn own<T: Any + Send + Default>(&mut self) -> &mut T {
        if !self.own.as_ref().is_some_and(|b| b.is::<T>()) {
            self.own = Some(Box::new(T::default()));
        }
        // Cannot fail: just made sure it holds a T.
        self.own
            .as_mut()
            .and_then(|b| b.downcast_mut::<T>())
            .expect("holds a T")
    }
}

/// Why a player could not act.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerError {
    /// The player chose an action the rules refuse (the game is unchanged).
    Illegal { action: Action, why: IllegalMove },
    /// The player failed to choose (a Python function raised or returned something that
    /// is not an action); the message says what happened.
    Failed(String),
    /// The player gave up because its scratch's stop flag was raised.
    Interrupted,
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Illegal { action, why } => {
                write!(f, "chose an illegal action ({action}): {why}")
            }
            PlayerError::Failed(why) => write!(f, "{why}"),
            PlayerError::Interrupted => write!(f, "interrupted"),
        }
    }
}

impl std::error::Error for PlayerError {}

/// A policy for the player deciding now. Shared by every thread of a study (`Sync`);
/// what it changes while thinking lives in the `Scratch` it is handed.
pub trait Player: Send + Sync + fmt::Debug {
    /// A short name with the settings that change play ("random", "mcts(playouts=1000,
    /// c=0.3)"), as study results record it.
    fn name(&self) -> String;

    /// Chooses the decider's next action without playing it. The game is not over.
    fn choose(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<Action, PlayerError>;

    /// Chooses and applies the decider's next action. The default checks the choice
    /// (`Game::apply`): a player's mistake is an error and leaves the game unchanged.
    /// Built-in players, whose choices are legal by construction, override it with the
    /// unchecked fast path.
    fn play(
        &self,
        game: &mut Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<(), PlayerError> {
        let action = self.choose(game, rng, scratch)?;
        game.apply(action)
            .map_err(|why| PlayerError::Illegal { action, why })
    }

    /// The built-in policy this player is, if it is one: whole games of built-in policies
    /// run their loop with no virtual call (the enum dispatch of the fast path).
    fn as_policy(&self) -> Option<Policy> {
        None
    }
}

/// Which player sits in each seat: one player for every seat, or one per seat.
#[derive(Clone, Debug)]
pub struct Lineup {
    seats: Vec<Arc<dyn Player>>,
    /// Every seat's built-in policy, when every seat has one (`Player::as_policy`).
    policies: Option<[Policy; MAX_PLAYERS]>,
}

/// A lineup that does not fit the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatsError {
    pub given: usize,
    pub players: usize,
}

impl fmt::Display for SeatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} players were given for a game of {} seats: give one player for every seat, or one per seat",
            self.given, self.players
        )
    }
}

impl std::error::Error for SeatsError {}

impl Lineup {
    /// The same player in every seat.
    pub fn same(player: Arc<dyn Player>) -> Self {
        Lineup::of(vec![player])
    }

    fn of(seats: Vec<Arc<dyn Player>>) -> Self {
        let mut policies = [Policy::Random; MAX_PLAYERS];
        let mut all = true;
        for (s, slot) in policies.iter_mut().enumerate() {
            match seats[s.min(seats.len() - 1)].as_policy() {
                Some(p) => *slot = p,
                None => all = false,
            }
        }
        Lineup {
            seats,
            policies: all.then_some(policies),
        }
    }

    /// One player per seat (`players` seats), or a single player for all of them.
    pub fn new(seats: Vec<Arc<dyn Player>>, players: usize) -> Result<Self, SeatsError> {
        if seats.is_empty() {
            return Err(SeatsError { given: 0, players });
        }
        let lineup = Lineup::of(seats);
        lineup.check(players)?;
        Ok(lineup)
    }

    /// Whether the lineup fits a game of `players` seats.
    pub fn check(&self, players: usize) -> Result<(), SeatsError> {
        if self.seats.len() != 1 && self.seats.len() != players {
            return Err(SeatsError {
                given: self.seats.len(),
                players,
            });
        }
        Ok(())
    }

    /// The player in `seat`.
    #[inline]
    pub fn seat(&self, seat: usize) -> &dyn Player {
        if self.seats.len() == 1 {
            &*self.seats[0]
        } else {
            &*self.seats[seat]
        }
    }

    /// The same player in every seat.
    pub fn is_uniform(&self) -> bool {
        self.seats.len() == 1
    }

    /// The built-in policy of every seat, when each seat has one.
    #[inline]
    pub fn policies(&self) -> Option<&[Policy; MAX_PLAYERS]> {
        self.policies.as_ref()
    }

    /// The players' names, one per seat of a game of `players` seats.
    pub fn names(&self, players: usize) -> Vec<String> {
        (0..players).map(|s| self.seat(s).name()).collect()
    }
}

impl From<Policy> for Lineup {
    fn from(policy: Policy) -> Self {
        Lineup::same(Arc::new(policy))
    }
}
