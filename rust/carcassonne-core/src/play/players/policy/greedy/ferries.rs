//! The greedy valuation's part of The Ferries. Moving a ferry reaches along whole roads
//! (a moved ferry cuts one road and joins two others anywhere on the board): the moves
//! that move ferries are played on a copy. Every other move is valued without playing:
//! a lake tile's new ferry joins two of the tile's own road ends, so each ferry is the
//! classic valuation with the groups of those two ends merged (`with_ferry`), as
//! `Features::link` merges their features; a move that moves no ferry is the classic
//! valuation (or that one, on a lake tile).

use super::{
    Candidate, GreedyValues, Totals, Work, classic_totals, classic_values, lead, played_roads,
};
use crate::data::tileset::{FeatureKind, MAX_SEGMENTS};
use crate::engine::game::{Game, Groups, Placement};
use crate::limits::MAX_PLAYERS;
use crate::play::action::Action;
use crate::systems::ferries::Ferries;
use crate::systems::ferries::state::{lake_ends, pairs};

/// New ferries a lake tile can take: a pair of its road ends each, and a lake has at most
/// four ends (`parse_tileset` puts them at side centres), so six.
const MAX_FERRIES: usize = 6;

impl GreedyValues for Ferries {
    #[inline(always)]
    fn placement_values(
        game: &Game,
        w: &mut Work,
        tile: u16,
        p: Placement,
        g: &Groups,
        options: u16,
        before: &[i32; MAX_PLAYERS],
        f: &mut impl FnMut(Candidate, i32),
    ) {
        let lake = game.rules().tiles[tile as usize].lake;
        if !lake && game.movable_ferries(p.cell, tile, p.rotation).len == 0 {
            classic_values(game, w, tile, p, g, options, before, f);
            return;
        }
        // The virtual scores after each (new ferry, meeple choice) moving no ferry: no
        // meeple first, then by segment. Without a lake, the one "new ferry" is none.
        let mut ferries = [None; MAX_FERRIES];
        let mut totals = [[[0i32; MAX_PLAYERS]; 1 + MAX_SEGMENTS]; MAX_FERRIES];
        let mut n = 0;
        let mut value = |ferry: Option<(u8, u8)>, groups: &Groups| {
            debug_assert!(n < MAX_FERRIES, "a lake has at most four road ends");
            classic_totals(
                game,
                w,
                tile,
                p,
                groups,
                options,
                before,
                &mut Row(&mut totals[n]),
            );
            ferries[n] = ferry;
            n += 1;
        };
        if lake {
            for (a, b) in pairs(lake_ends(game.rules(), tile)) {
                value(Some((a, b)), &with_ferry(g, a, b));
            }
        } else {
            value(None, g);
        }
        // Every choice in the order the moves are listed and were always played out (by
        // meeple, then the choices as `ferry_choices` lists them). A ferry moved joins and
        // cuts roads only: after a choice's ferry moves, every player's virtual score
        // differs from the same choice's without them by as much whatever the meeple off
        // the roads (`moved`, from the move without a meeple, played on a copy first);
        // with a meeple on a road, the move is played on a copy, the awards of every
        // feature but the roads summed once (`others`, see `played_roads`).
        let choices = game.ferry_choices(p);
        let mut moved = vec![[0i32; MAX_PLAYERS]; choices.len()];
        let mut others = None;
        let segments = &game.rules().tiles[tile as usize].segments;
        let (player, players) = (game.current_player(), game.rules().players());
        let mut emit = |meeple: Option<u8>| {
            let on_road = meeple.is_some_and(|m| segments[m as usize].kind == FeatureKind::Road);
            let column = meeple.map_or(0, |m| 1 + m as usize);
            for (j, &(ferry, ferry_moves)) in choices.iter().enumerate() {
                let c = Candidate {
                    ferry,
                    ferry_moves,
                    ..Candidate::new(p, meeple, None)
                };
                // Cannot fail: every new ferry of the choices is one of the lake's pairs (or
                // none, without a lake), each valued above.
                let k = ferries[..n]
                    .iter()
                    .position(|x| *x == ferry)
                    .expect("a valued ferry");
                let without_moves = &totals[k][column];
                let t = if ferry_moves.is_empty() {
                    *without_moves
                } else if meeple.is_some() && !on_road {
                    let t = std::array::from_fn(|q| without_moves[q] + moved[j][q]);
                    debug_assert_eq!(
                        t,
                        played_roads(game, w, Action::Place(c.to_move(game)), &mut None),
                        "the ferry moves' change with a meeple off the roads"
                    );
                    t
                } else {
                    let t = played_roads(game, w, Action::Place(c.to_move(game)), &mut others);
                    if meeple.is_none() {
                        moved[j] = std::array::from_fn(|q| t[q] - without_moves[q]);
                    }
                    t
                };
                f(c, lead(&t, player, players));
            }
        };
        emit(None);
        let mut opts = options;
        while opts != 0 {
            let i = opts.trailing_zeros() as u8;
            opts &= opts - 1;
            emit(Some(i));
        }
    }
}

/// Virtual scores after each meeple choice of one placement: no meeple first, then by
/// segment.
struct Row<'a>(&'a mut [[i32; MAX_PLAYERS]; 1 + MAX_SEGMENTS]);

impl Totals for Row<'_> {
    #[inline(always)]
    fn total(&mut self, c: Candidate, t: &[i32; MAX_PLAYERS]) {
        self.0[c.meeple.map_or(0, |m| 1 + m as usize)] = *t;
    }
}

/// `g` with a ferry joining the tile's road ends `a` and `b`: their groups are one (the
/// smaller representative kept, as `Game::groups` keeps them), held by a meeple if either
/// was.
fn with_ferry(g: &Groups, a: u8, b: u8) -> Groups {
    let mut merged = *g;
    let (ra, rb) = (g.group[a as usize], g.group[b as usize]);
    if ra == rb {
        return merged;
    }
    let (keep, gone) = (ra.min(rb), ra.max(rb));
    for rep in merged.group.iter_mut() {
        if *rep == gone {
            *rep = keep;
        }
    }
    if merged.busy & (1 << gone) != 0 {
        merged.busy = (merged.busy & !(1 << gone)) | (1 << keep);
    }
    merged
}
