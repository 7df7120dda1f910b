//! The learned value looking two plies ahead: an expectimax over the next draw.
//!
//! The one-ply player values the position right after its action. What it cannot see is
//! what the next player does with the tile drawn next: close the city it just opened into,
//! join its field, take the road. This player takes its `width` best actions by the
//! one-ply value and, for each, weighs every tile kind the next draw may bring by its
//! share of the unseen tiles (`Game::chance_outcomes`, which knows nothing of their
//! order), lets whoever places that tile play it as the one-ply player would (the action
//! best for that seat by the same value), and values what follows for itself. It plays
//! the action of best expected value. Decisions between the placements (South Seas'
//! deliveries, Friday's, a Maps extra turn) are played the same way, by whoever makes
//! them, up to the end of the turn that places the drawn tile.
//!
//! A tile that fits nowhere is put aside and another drawn (C-3); that other one comes
//! from a copy of the pile put in a fixed order and reshuffled by the player's own random
//! stream, so nothing the player may not see decides its choice.

use std::sync::Arc;

use crate::engine::decision::Phase;
use crate::engine::game::Game;
use crate::learn::outcome::outcome;
use crate::learn::value::facts::{FactsScratch, WEIGHTS};
use crate::learn::value::linear::LinearValue;
use crate::play::action::Action;
use crate::play::players::mcts::search_root;
use crate::play::players::{Player, PlayerError, Scratch};
use crate::rng::Rng;

/// The two-ply expectimax player of a `LinearValue` (see the module).
#[derive(Clone, Debug)]
pub struct Expectimax {
    pub value: Arc<LinearValue>,
    /// The name of the value's weights ("learned" for the package's own).
    pub value_name: String,
    /// The actions looked ahead at: the best this many by the one-ply value (1: the
    /// one-ply player).
    pub width: u32,
}

/// Reused copies of the game and the value's buffers.
#[derive(Debug, Default)]
struct Buffers {
    facts: FactsScratch,
    seen: Option<Game>,
    drawn: Option<Game>,
    reply: Option<Game>,
}

fn copy_into<'a>(slot: &'a mut Option<Game>, from: &Game) -> &'a mut Game {
    match slot {
        Some(g) => {
            g.clone_from(from);
            g
        }
        None => slot.insert(from.clone()),
    }
}

impl Expectimax {
    /// `seat`'s value once the next tile drawn has been placed and the turn it is placed
    /// in is over. From `drawn` (the position after `seat`'s action, that tile next on
    /// the pile) whoever decides plays the action best for itself by the one-ply value:
    /// first what is left of `seat`'s own turn (South Seas' deliveries, Friday's decisions,
    /// a Maps extra turn), then the next placement, then its own follow-ups. In a game
    /// with a placement only, that is the next player's reply alone; stopping right after
    /// `seat`'s own delivery would never meet the reply in South Seas.
    fn after_reply(
        &self,
        drawn: &mut Game,
        seat: usize,
        reply: &mut Option<Game>,
        s: &mut FactsScratch,
        x: &mut [f32],
    ) -> f32 {
        let mut placed = false;
        loop {
            if drawn.is_over() {
                return outcome(drawn.scores())[seat];
            }
            let decider = drawn.decider();
            let placing = drawn.phase() == Phase::Place;
            // (decider's value, seat's value, action)
            let mut best: Option<(f32, f32, Action)> = None;
            for a in drawn.legal_actions() {
                let after = copy_into(reply, drawn);
                after.apply_unchecked(a);
                let v = self.value.values_or_outcome(after, s, x);
                if best.is_none_or(|(b, _, _)| v[decider] > b) {
                    best = Some((v[decider], v[seat], a));
                }
            }
            // Cannot fail: a game not over has a legal action.
            let (_, value, action) = best.expect("a game not over has a legal action");
            drawn.apply_unchecked(action);
            placed |= placing;
            if placed && (drawn.is_over() || drawn.phase() == Phase::Place) {
                return value;
            }
        }
    }

    /// The chosen action and, for each action looked ahead at, its expected value.
    pub fn choose_valued(&self, game: &Game, rng: &mut Rng) -> (Action, Vec<(Action, f64)>) {
        let mut b = Buffers::default();
        self.choose_with(game, rng, &mut b)
    }

    fn choose_with(
        &self,
        game: &Game,
        rng: &mut Rng,
        b: &mut Buffers,
    ) -> (Action, Vec<(Action, f64)>) {
        let seat = game.decider();
        let mut x = vec![0.0; WEIGHTS];
        // The position with the unseen tiles in a fixed order, as a search copies it,
        // then in the player's own.
        let seen = search_root(&mut b.seen, game);
        seen.determinize(rng);
        let seen = &*seen;
        // One ply: every action valued, the best `width` kept (ties: the first listed).
        let mut ranked: Vec<(usize, Action, f32)> = Vec::new();
        for (i, a) in game.legal_actions().into_iter().enumerate() {
            let after = copy_into(&mut b.drawn, seen);
            after.apply_unchecked(a);
            ranked.push((
                i,
                a,
                self.value.values_or_outcome(after, &mut b.facts, &mut x)[seat],
            ));
        }
        ranked.sort_by(|p, q| q.2.total_cmp(&p.2).then(p.0.cmp(&q.0)));
        ranked.truncate(self.width.max(1) as usize);
        if ranked.len() == 1 {
            return (ranked[0].1, vec![(ranked[0].1, ranked[0].2 as f64)]);
        }
        let draws = seen.chance_outcomes();
        let mut valued = Vec::with_capacity(ranked.len());
        for &(_, a, one_ply) in &ranked {
            let v = if draws.is_empty() {
                one_ply as f64 // the last tile: nothing is drawn after it
            } else {
                let mut sum = 0.0;
                for &(tile, p) in &draws {
                    let drawn = copy_into(&mut b.drawn, seen);
                    drawn.put_next(tile);
                    drawn.apply_unchecked(a);
                    sum += p * self.after_reply(drawn, seat, &mut b.reply, &mut b.facts, &mut x)
                        as f64;
                }
                sum
            };
            valued.push((a, v));
        }
        let best = valued
            .iter()
            .fold(None, |best: Option<(Action, f64)>, &(a, v)| match best {
                Some((_, bv)) if bv >= v => best,
                _ => Some((a, v)),
            })
            .expect("at least two actions looked at")
            .0;
        (best, valued)
    }
}

impl Player for Expectimax {
    fn name(&self) -> String {
        format!("{}-expectimax(width={})", self.value_name, self.width)
    }

    fn choose(
        &self,
        game: &Game,
        rng: &mut Rng,
        scratch: &mut Scratch,
    ) -> Result<Action, PlayerError> {
        if scratch.stop.is_raised() {
            return Err(PlayerError::Interrupted);
        }
        Ok(self.choose_with(game, rng, scratch.own::<Buffers>()).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::{Rules, RulesSpec};
    use crate::learn::value::linear::testing::{assert_plays_as_one_ply, scores_of, some_value};

    fn base() -> Arc<Rules> {
        Arc::new(Rules::new(RulesSpec::default()).expect("the base game"))
    }

    /// The base game, South Seas with Friday (decisions between the placements, by both
    /// seats) and a Maps map with the extra turn of small towns.
    fn systems() -> Vec<Arc<Rules>> {
        let specs = [
            RulesSpec::default(),
            RulesSpec {
                friday: true,
                ..RulesSpec::south_seas(2)
            },
            RulesSpec {
                small_towns: vec![1],
                ..RulesSpec::maps("coastal", 2)
            },
        ];
        specs
            .into_iter()
            .map(|spec| Arc::new(Rules::new(spec).expect("built-in rules")))
            .collect()
    }

    /// Width 1 is the one-ply player, move by move through a whole game.
    #[test]
    fn width_one_is_the_one_ply_player() {
        let wide = Expectimax {
            value: Arc::new(some_value()),
            value_name: "learned".into(),
            width: 1,
        };
        assert_plays_as_one_ply(&wide, some_value(), &base());
    }

    /// Two games that differ only in the order of the tiles still to come get the same
    /// choice and expected values: nothing hidden reaches the look-ahead.
    #[test]
    fn never_reads_the_hidden_order() {
        let player = Expectimax {
            value: Arc::new(some_value()),
            value_name: "learned".into(),
            width: 3,
        };
        for (index, rules) in (0..9).zip(systems().iter().cycle()) {
            let mut game = Game::shuffled(Arc::clone(rules), 12, index);
            let mut rng = Rng::for_game(12, 1000 + index);
            for _ in 0..(index * 7) % 50 {
                let a = player.choose_valued(&game, &mut rng).0;
                game.apply_unchecked(a);
            }
            let mut other = game.clone();
            other.determinize(&mut Rng::for_game(99, index));
            assert_eq!(
                player.choose_valued(&game, &mut Rng::for_game(5, index)),
                player.choose_valued(&other, &mut Rng::for_game(5, index))
            );
        }
    }

    /// Whole games of legal actions, the same game for the same seed, with two and four
    /// seats.
    #[test]
    fn plays_whole_games_reproducibly() {
        let player = Expectimax {
            value: Arc::new(LinearValue::default()),
            value_name: "learned".into(),
            width: 2,
        };
        assert_eq!(player.name(), "learned-expectimax(width=2)");
        let four = Arc::new(
            Rules::new(RulesSpec {
                players: 4,
                ..RulesSpec::default()
            })
            .expect("the base game"),
        );
        for rules in systems().iter().chain([&four]) {
            assert_eq!(scores_of(&player, rules, 1), scores_of(&player, rules, 1));
        }
    }

    /// The look-ahead after an action ends once the next tile has been placed and the
    /// turn it was placed in is over, in every system: in South Seas and with Friday past
    /// the decisions of both seats between the placements, not at the first of them.
    #[test]
    fn looks_ahead_to_the_end_of_the_next_placement() {
        let player = Expectimax {
            value: Arc::new(some_value()),
            value_name: "learned".into(),
            width: 2,
        };
        let mut b = Buffers::default();
        let mut x = vec![0.0; WEIGHTS];
        let mut past_a_decision = 0;
        for (index, rules) in (0..6).zip(systems().iter().cycle()) {
            let mut game = Game::shuffled(Arc::clone(rules), 4, index);
            let mut rng = Rng::for_game(4, index);
            while !game.is_over() {
                let seat = game.decider();
                let a = player.choose_with(&game, &mut rng, &mut b).0;
                game.apply_unchecked(a);
                let Some(&(tile, _)) = game.chance_outcomes().first() else {
                    continue;
                };
                let mut drawn = game.clone();
                drawn.put_next(tile);
                past_a_decision += usize::from(drawn.phase() != Phase::Place);
                let placed = drawn.placed().len();
                player.after_reply(&mut drawn, seat, &mut b.reply, &mut b.facts, &mut x);
                assert!(drawn.placed().len() > placed || drawn.is_over());
                assert!(drawn.phase() == Phase::Place || drawn.is_over());
            }
        }
        assert!(past_a_decision > 50, "{past_a_decision}");
    }
}
