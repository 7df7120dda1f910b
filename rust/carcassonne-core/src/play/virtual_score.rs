//! Virtual scores: what each player would score if the game ended now, from the same
//! end-of-game scoring that ends a game (`Game::end_awards`, `Game::end_wares_roots`),
//! read-only. The greedy player judges actions by them.
//!
//! They are counted in thirds of a point so that South Seas wares stay exact: a ware is
//! worth a third of a point at the end (`WARES_PER_POINT`), and rounding each player's
//! wares down only at the very end keeps a ware gained now from being worth nothing.

use crate::data::tileset::System;
use crate::engine::game::{EndScratch, Game};
use crate::engine::scoring::ScoreKind;
use crate::limits::MAX_PLAYERS;
use crate::systems::south_seas::state::{WARES_PER_POINT, feature_wares};

impl Game {
    /// Each player's score if the game ended now, in thirds of a point (players beyond
    /// the game's count get 0): the points scored so far, the end-of-game scoring of every
    /// unfinished occupied feature (roads, cities, monasteries, fields, Traders & Builders
    /// goods majorities; in South Seas the wares of unfinished occupied bridges, islands
    /// and sea regions), and South Seas wares at a third of a point each, not rounded.
    /// The final score the player would get is this value divided by 3, rounded down
    /// (`virtual_scores`); a finished game gives its final scores (with the wares' points
    /// taken back out and the wares counted as thirds again, so the value does not jump
    /// when the game ends). Pending decisions (a market ship, Friday's move, a homecoming)
    /// are not anticipated.
    pub fn virtual_thirds(&self) -> [i32; MAX_PLAYERS] {
        self.virtual_thirds_with(&mut EndScratch::default())
    }

    /// Each player's final score if the game ended now (see `virtual_thirds`): what
    /// `end_now` would leave in `scores`.
    pub fn virtual_scores(&self) -> [i32; MAX_PLAYERS] {
        let mut v = self.virtual_thirds();
        for x in &mut v {
            *x = x.div_euclid(WARES_PER_POINT as i32);
        }
        v
    }

    /// `virtual_thirds` with reused buffers.
    pub(crate) fn virtual_thirds_with(&self, s: &mut EndScratch) -> [i32; MAX_PLAYERS] {
        let players = self.rules.players();
        let mut v = [0i32; MAX_PLAYERS];
        let south_seas = self.rules.system == System::SouthSeas;
        for p in 0..players {
            v[p] = 3 * self.scores[p];
            if south_seas {
                // Wares count at their exact value; a finished game's wares points are
                // taken back out (the wares it evaluated at the end are held by now).
                v[p] += self.sea.wares[p].iter().sum::<u32>() as i32;
                if self.over {
                    v[p] -= 3 * self.by_kind[p][ScoreKind::Wares as usize];
                }
            }
        }
        if self.over {
            return v;
        }
        if south_seas {
            self.end_wares_roots(&mut s.roots);
            for &e in &s.roots {
                let (winners, wares) = feature_wares(self.features.node(e));
                let total = wares.iter().sum::<u32>() as i32;
                for p in 0..players {
                    if winners & (1 << p) != 0 {
                        v[p] += total;
                    }
                }
            }
        } else {
            self.end_awards(s, |a| {
                for p in 0..players {
                    if a.winners & (1 << p) != 0 {
                        v[p] += 3 * a.points;
                    }
                }
            });
        }
        v
    }

    /// Ends the game now, as if the deck had run out after the last action: the
    /// end-of-game scoring is given and pending decisions (step 4, a market ship,
    /// Friday's move, a homecoming) are dropped. Afterwards `scores` are what
    /// `virtual_scores` said before. Does nothing to a game that is already over.
    pub fn end_now(&mut self) {
        if self.over {
            return;
        }
        self.tile = None;
        self.next_draw = self.deck.len();
        self.sea.phase = crate::systems::south_seas::state::Phase::Place;
        self.sea.pending_markets.clear();
        self.finish_now();
    }
}
