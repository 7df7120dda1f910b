//! Carcassonne Maps, small-town variant 1: a player who covers a small town "may
//! immediately take another turn, only once within his turn". The engine offers it as a
//! decision (`Phase::ExtraTurn`, `Decision::ExtraTurn`) after the turn's scoring and
//! before the next tile is drawn, so the player decides without seeing that tile, as at
//! the table. It is offered only when a tile is still to come: with none left, the game
//! ends as it would anyway. Taking it, the same player draws the next tile, and covering a
//! small town in that extra turn offers none; declining, the next player draws.

use crate::engine::decision::Decision;
use crate::engine::game::Game;
use crate::engine::system::RuleSystem;

impl Game {
    /// The end of a turn that covered a small town under variant 1, not itself an extra
    /// turn: offers the extra turn if a tile is still to come, drawing nothing (true),
    /// or leaves the turn to end as usual (false). Out of line: few turns come here, and
    /// the turn loop of every other game keeps its code as it was.
    #[cold]
    #[inline(never)]
    pub(crate) fn offer_extra_turn(&mut self) -> bool {
        // The drawn tile is the first left that fits somewhere (C-3), whoever draws it:
        // the board is the same either way, so asking now is asking about that draw.
        let to_come = self.deck[self.next_draw..]
            .iter()
            .any(|&t| self.has_placement(t));
        if to_come {
            self.extra_turn_offered = true;
            self.tile = None;
        }
        to_come
    }

    /// Takes (`take`) or declines the extra turn offered, then the next tile is drawn:
    /// by the same player, whose next turn is the extra one, or by the next player.
    pub(crate) fn decide_extra_turn<S: RuleSystem>(&mut self, take: bool) {
        debug_assert!(self.extra_turn_offered, "no extra turn is offered");
        self.extra_turn_offered = false;
        self.decisions.push((self.turn, Decision::ExtraTurn(take)));
        self.in_extra_turn = take;
        if !take {
            self.current += 1;
            if self.current == self.rules.players() {
                self.current = 0;
            }
        }
        self.draw::<S>();
    }
}
