//! The greedy valuation's part of The Ferries. A placement that lets ferries move has
//! ferry choices whose effect reaches along whole roads (a moved ferry cuts one road and
//! joins two others anywhere on the board): its moves are played on a copy. A lake tile
//! that lets none move is valued without playing: its new ferry joins two of the tile's
//! own road ends, so each ferry is the classic valuation with the groups of those two
//! ends merged (`with_ferry`), as `Features::link` merges their features.

use super::{Candidate, GreedyValues, Work, classic_values};
use crate::data::tileset::MAX_SEGMENTS;
use crate::engine::game::{Game, Groups, Placement};
use crate::limits::MAX_PLAYERS;
use crate::systems::ferries::Ferries;
use crate::systems::ferries::state::{lake_ends, pairs};

/// Ferries a lake tile can take: a pair of its road ends each, and a lake has at most
/// four ends (`parse_tileset` puts them at side centres), so six.
const MAX_FERRIES: usize = 6;

impl GreedyValues for Ferries {
    fn plays_out(game: &Game, tile: u16, p: Placement) -> bool {
        game.movable_ferries(p.cell, tile, p.rotation).len > 0
    }

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
        if !game.rules().tiles[tile as usize].lake {
            classic_values(game, w, tile, p, g, options, before, f);
            return;
        }
        // The lead after each (ferry, meeple choice): no meeple first, then by segment.
        let mut ferries = [(0u8, 0u8); MAX_FERRIES];
        let mut leads = [[0i32; 1 + MAX_SEGMENTS]; MAX_FERRIES];
        let mut n = 0;
        for (a, b) in pairs(lake_ends(game.rules(), tile)) {
            debug_assert!(n < MAX_FERRIES, "a lake has at most four road ends");
            let merged = with_ferry(g, a, b);
            let row = &mut leads[n];
            classic_values(game, w, tile, p, &merged, options, before, &mut |c, v| {
                row[c.meeple.map_or(0, |m| 1 + m as usize)] = v;
            });
            ferries[n] = (a, b);
            n += 1;
        }
        // In the order the moves are played out (and listed): by meeple, then ferry.
        let mut emit = |meeple: Option<u8>| {
            for (ferry, row) in ferries[..n].iter().zip(&leads[..n]) {
                let c = Candidate {
                    ferry: Some(*ferry),
                    ..Candidate::new(p, meeple, None)
                };
                f(c, row[meeple.map_or(0, |m| 1 + m as usize)]);
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
