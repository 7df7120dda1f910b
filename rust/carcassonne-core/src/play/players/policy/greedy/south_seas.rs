//! The greedy valuation's South Seas part: wares instead of points, islanders taken
//! back, and markets (a completed market hands out ships: played on a copy).

use super::{Candidate, GreedyValues, Work, give, lead, play_out};
use crate::data::tileset::{FeatureKind, MAX_SEGMENTS};
use crate::engine::game::{Game, Groups, Placement};
use crate::engine::scoring::majority;
use crate::limits::MAX_PLAYERS;
use crate::systems::south_seas::SouthSeas;
use crate::systems::south_seas::state::feature_wares;

impl GreedyValues for SouthSeas {
    fn prepare(game: &Game, w: &mut Work, tile: u16, before: &[i32; MAX_PLAYERS]) {
        let rules = game.rules();
        let player = game.current_player();
        for (x, seg) in w
            .seg_wares
            .iter_mut()
            .zip(&rules.tiles[tile as usize].segments)
        {
            *x = seg.goods.iter().map(|g| *g as i32).sum();
        }
        if !game.may_retrieve() {
            return;
        }
        let feats = game.features();
        for e in game.islanders_of(player) {
            let root = feats.find(e);
            let n = feats.node(root);
            let mut d = [0i32; MAX_PLAYERS];
            // Markets give nothing at the end.
            if n.kind != FeatureKind::Market {
                let (winners, goods) = feature_wares(n);
                let v = goods.iter().sum::<u32>() as i32;
                let mut m = n.meeples;
                m[player] -= 1;
                give(&mut d, majority(&m), v);
                give(&mut d, winners, -v);
            }
            w.retrievable.push((e, root));
            w.back.push(d);
            let mut t = *before;
            for q in 0..MAX_PLAYERS {
                t[q] += d[q];
            }
            w.back_lead.push(lead(&t, player, rules.players()));
        }
    }

    /// The lead after each move of placement `p`: wares instead of points.
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
        let rules = game.rules();
        let def = &rules.tiles[tile as usize];
        let feats = game.features();
        let player = game.current_player();
        let players = rules.players();
        let nseg = def.segments.len();
        let market = rules.monastery[tile as usize];
        // A market completed this turn hands out ships: played on a copy (rare).
        let board = game.board();
        let completes_watched = game
            .system
            .sea()
            .watched_markets
            .iter()
            .any(|&(mx, my, _)| {
                let (x, y) = board.xy(p.cell);
                (mx - x).abs() <= 1
                    && (my - y).abs() <= 1
                    && board
                        .cell(mx, my)
                        .is_some_and(|cell| game.ring_complete(cell, Some(p.cell)))
            });
        let own_market =
            market.is_some_and(|m| options & (1 << m) != 0) && game.ring_complete(p.cell, None);
        if completes_watched || own_market {
            play_out::<SouthSeas>(game, w, tile, p, f);
            return;
        }
        // Per group of the tile (by representative): its segments, the wares and islanders
        // of the merged feature, and whether it joins an occupied feature.
        let c = &g.contacts;
        let mut wares = [0i32; MAX_SEGMENTS];
        for i in 0..nseg {
            wares[g.group[i] as usize] += w.seg_wares[i];
        }
        let mut meeples = [[0u8; MAX_PLAYERS]; MAX_SEGMENTS];
        let mut occupied = 0u16;
        // Wares (thirds of a point each) per player without an islander.
        let mut base = [0i32; MAX_PLAYERS];
        let mut seen = [u32::MAX; 12];
        for k in 0..c.n {
            let r = c.root[k];
            if seen[..k].contains(&r) {
                continue;
            }
            seen[k] = r;
            let rep = g.group[c.seg[k] as usize] as usize;
            let n = feats.node(r);
            let (winners, goods) = feature_wares(n);
            let v = goods.iter().sum::<u32>() as i32;
            wares[rep] += v;
            if n.meeple_total > 0 {
                occupied |= 1 << rep;
                give(&mut base, winners, -v);
                for q in 0..MAX_PLAYERS {
                    meeples[rep][q] += n.meeples[q];
                }
            }
        }
        let market_bit = market.map_or(0, |m| 1u16 << m);
        let mut reps = occupied & !market_bit;
        while reps != 0 {
            let rep = reps.trailing_zeros() as usize;
            reps &= reps - 1;
            give(&mut base, majority(&meeples[rep]), wares[rep]);
        }
        let mut total = *before;
        for q in 0..players {
            total[q] += base[q];
        }
        f(Candidate::new(p, None, None), lead(&total, player, players));
        // An islander on segment i: the merged feature's majority with it.
        let mut opts = options & !market_bit;
        while opts != 0 {
            let i = opts.trailing_zeros() as usize;
            opts &= opts - 1;
            let rep = g.group[i] as usize;
            let mut m = meeples[rep];
            m[player] += 1;
            let mut t = total;
            give(&mut t, majority(&m), wares[rep]);
            give(&mut t, majority(&meeples[rep]), -wares[rep]);
            f(
                Candidate::new(p, Some(i as u8), None),
                lead(&t, player, players),
            );
        }
        // A merchant on the tile's market (which it does not complete) gives nothing now.
        if options & market_bit != 0 {
            f(
                Candidate::new(p, market, None),
                lead(&total, player, players),
            );
        }
        // An islander taken back: its feature's majority without it; a feature the tile
        // joins is valued merged.
        for k in 0..w.retrievable.len() {
            let (e, root) = w.retrievable[k];
            let mut t = total;
            if occupied == 0 {
                // Its feature is not among those the tile joins (they hold no islander).
                f(Candidate::new(p, None, Some(e)), w.back_lead[k]);
                continue;
            }
            match (0..c.n).find(|j| c.root[*j] == root) {
                Some(j) => {
                    let rep = g.group[c.seg[j] as usize] as usize;
                    let mut m = meeples[rep];
                    m[player] -= 1;
                    give(&mut t, majority(&m), wares[rep]);
                    give(&mut t, majority(&meeples[rep]), -wares[rep]);
                }
                None => {
                    for q in 0..players {
                        t[q] += w.back[k][q];
                    }
                }
            }
            f(Candidate::new(p, None, Some(e)), lead(&t, player, players));
        }
    }
}
