//! One action model for every phase of every rule system: an `Action` is either the
//! placement of the drawn tile (a `Move`, with its meeple and ferry choices) or one of the
//! decisions South Seas, Friday and the Maps extra turn ask for afterwards (a
//! `Decision`, `engine::decision`). Players, search,
//! tests and the Python binding all list, check and apply actions through here; the
//! per-phase methods (`play`, `decide`, ...) are what these dispatch to.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::engine::MoveLists;
use crate::engine::decision::{Decision, Phase};
use crate::engine::game::{Game, IllegalMove, Move};
use crate::systems::any::for_system;

/// What the player who decides now (`Game::decider`) can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Place the drawn tile (the "place" phase).
    Place(Move),
    /// Any other decision (South Seas step 4, a market pick, Friday's move, homecoming,
    /// the Maps extra turn).
    Decide(Decision),
}

/// In words, for error messages: "place at (3, -1) turned 1, meeple on feature 2".
impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(mv) => {
                write!(f, "place at ({}, {}) turned {}", mv.x, mv.y, mv.rotation)?;
                if let Some(s) = mv.meeple {
                    write!(f, ", meeple on feature {s}")?;
                }
                if let Some(spot) = mv.retrieve {
                    write!(
                        f,
                        ", take back the islander at ({}, {}) feature {}",
                        spot.x, spot.y, spot.segment
                    )?;
                }
                if let Some((a, b)) = mv.ferry {
                    write!(f, ", ferry joining road ends {a} and {b}")?;
                }
                for m in mv.ferry_moves.as_slice() {
                    write!(
                        f,
                        ", ferry at ({}, {}) moved to ends {} and {}",
                        m.x, m.y, m.a, m.b
                    )?;
                }
                Ok(())
            }
            Action::Decide(Decision::Deliver(None)) => write!(f, "deliver nothing"),
            Action::Decide(Decision::Deliver(Some(d))) => write!(
                f,
                "deliver to the ship in slot {} paying {:?}",
                d.ship, d.pay
            ),
            Action::Decide(Decision::MarketShip(slot)) => {
                write!(f, "take the market ship in slot {slot}")
            }
            Action::Decide(Decision::MoveFriday(t)) => write!(f, "move Friday to tile {t}"),
            Action::Decide(Decision::Homecoming(s)) => write!(
                f,
                "take home the islander at ({}, {}) feature {}",
                s.x, s.y, s.segment
            ),
            Action::Decide(Decision::Trade(g, t)) => write!(f, "trade ware {g} for ware {t}"),
            Action::Decide(Decision::ExtraTurn(true)) => write!(f, "take the extra turn"),
            Action::Decide(Decision::ExtraTurn(false)) => write!(f, "decline the extra turn"),
        }
    }
}

/// Reused buffers of `Game::legal_actions_with`.
#[derive(Debug, Default)]
pub(crate) struct ActionLists {
    moves: Vec<Move>,
    move_lists: MoveLists,
}

impl From<Move> for Action {
    fn from(mv: Move) -> Self {
        Action::Place(mv)
    }
}

impl From<Decision> for Action {
    fn from(d: Decision) -> Self {
        Action::Decide(d)
    }
}

impl Game {
    /// Every legal action of the decider, in a fixed order: the sorted `legal_moves` in
    /// the "place" phase, else `legal_decisions` in their order. Empty once the game is
    /// over.
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// `legal_actions` into a reused buffer (cleared first).
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        self.legal_actions_with(out, &mut ActionLists::default());
    }

    /// `legal_actions_into` with reused buffers for the listing too: a search lists the
    /// actions at every node it visits, and allocates nothing once they have grown.
    pub(crate) fn legal_actions_with(&self, out: &mut Vec<Action>, lists: &mut ActionLists) {
        out.clear();
        if self.is_over() {
            return;
        }
        if self.phase() == Phase::Place {
            let ActionLists { moves, move_lists } = lists;
            for_system!(self.rules().kind(), S => self.legal_moves_into_as::<S>(moves, move_lists));
            out.extend(moves.iter().map(|m| Action::Place(*m)));
        } else {
            out.extend(self.legal_decisions().into_iter().map(Action::Decide));
        }
    }

    /// Checks an action; a refused one changes nothing. A placement outside the "place"
    /// phase and a decision inside it are refused with the phase's own error.
    pub fn check_action(&self, action: Action) -> Result<(), IllegalMove> {
        match action {
            Action::Place(mv) => self.check(mv),
            Action::Decide(d) => self.check_decision(d),
        }
    }

    /// Applies an action after checking it; a refused action leaves the game unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalMove> {
        self.check_action(action)?;
        self.apply_unchecked(action);
        Ok(())
    }

    /// Applies an action `check_action` accepts (from `legal_actions` or a player).
    /// Debug builds check it; a refused one may panic or leave the game inconsistent.
    #[inline]
    pub fn apply_unchecked(&mut self, action: Action) {
        match action {
            Action::Place(mv) => self.play_unchecked(mv),
            Action::Decide(d) => self.decide_unchecked(d),
        }
    }
}
