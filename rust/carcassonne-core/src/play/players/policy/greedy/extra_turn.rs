//! The greedy player's extra turn (Carcassonne Maps, small-town variant 1). Deciding
//! changes no score, so the lead after the decision itself says nothing; what it changes
//! is who places the next tile. Greedy values each choice by the lead it expects after
//! that tile: for every kind of tile still unseen that fits somewhere, weighted by how
//! many are unseen (the player cannot know which comes), the tile is placed by the
//! greedy move of whoever draws it (the player himself when he takes the turn, the next
//! player when he declines), and the decider's lead after it is averaged. Only what the
//! player may see is read: the unseen counts, never the order of the pile.

use crate::engine::decision::Decision;
use crate::engine::game::{Game, Placement};
use crate::limits::MAX_PLAYERS;
use crate::play::players::policy::greedy::{Candidate, for_each_move_value, lead};

/// The decider's expected lead (thirds of a point, rounded) after the next tile when he
/// declines and when he takes the extra turn offered: `[decline, take]`.
pub(super) fn values(game: &Game) -> [i32; 2] {
    let me = game.decider();
    let players = game.rules().players();
    let mut unseen = Vec::new();
    game.unseen_counts(&mut unseen);
    let mut copy = game.clone();
    copy.set_record_events(false);
    let mut after = game.clone();
    after.set_record_events(false);
    let mut buf: Vec<Placement> = Vec::new();
    let mut sums = [0i64; 2];
    let mut weight = 0i64;
    for (tile, &count) in unseen.iter().enumerate() {
        let tile = tile as u16;
        // A tile that fits nowhere would be put aside (C-3): it is not the next placed.
        if count == 0 || !game.has_placement(tile) {
            continue;
        }
        weight += count as i64;
        for (k, take) in [false, true].into_iter().enumerate() {
            copy.copy_position_from(game);
            copy.put_next(tile);
            copy.decide_unchecked(Decision::ExtraTurn(take));
            // The mover's greedy move (the first of equal ones): the best lead for him.
            let mut best: Option<(Candidate, i32)> = None;
            for_each_move_value(&copy, &mut buf, |c, v| {
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((c, v));
                }
            });
            // Cannot fail: the tile fits somewhere, and a placement lists at least its
            // move without a meeple.
            let (c, v) = best.expect("a fitting tile has a move");
            let value = if take {
                v
            } else if players == 2 {
                // Two players: the decider's lead is the mover's, negated.
                -v
            } else {
                after.copy_position_from(&copy);
                after.play_unchecked(c.to_move(&copy));
                let thirds: [i32; MAX_PLAYERS] = after.virtual_thirds();
                lead(&thirds, me, players)
            };
            sums[k] += count as i64 * value as i64;
        }
    }
    if weight == 0 {
        return [0, 0];
    }
    sums.map(|s| (s as f64 / weight as f64).round() as i32)
}
