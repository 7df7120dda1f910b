//! Virtual scores: what each player would score if the game ended now, from the same
//! end-of-game scoring that ends a game (each rule system's `RuleSystem::virtual_thirds`:
//! `Game::end_awards`, `Game::end_wares_roots`), read-only. The greedy player judges
//! actions by them.
//!
//! They are counted in thirds of a point so that South Seas wares stay exact: a ware is
//! worth a third of a point at the end (`WARES_PER_POINT`), and rounding each player's
//! wares down only at the very end keeps a ware gained now from being worth nothing.

use crate::engine::game::{EndScratch, FeatureCounts, Game};
use crate::engine::system::RuleSystem;
use crate::limits::MAX_PLAYERS;
use crate::systems::any::for_system;
use crate::systems::south_seas::state::WARES_PER_POINT;

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

    /// `virtual_thirds` with reused buffers: the rule system's own
    /// (`RuleSystem::virtual_thirds`), looked up once.
    pub(crate) fn virtual_thirds_with(&self, s: &mut EndScratch) -> [i32; MAX_PLAYERS] {
        for_system!(self.rules.kind(), S => S::virtual_thirds(self, s))
    }

    /// `virtual_scores` with the features' counts from `counts` (an observation's, found
    /// for every feature at once; `roots`: a buffer).
    pub(crate) fn virtual_scores_counted(
        &self,
        roots: &mut Vec<u32>,
        counts: &mut impl FeatureCounts,
    ) -> [i32; MAX_PLAYERS] {
        let mut v = self.virtual_thirds_counted(roots, counts);
        for x in &mut v {
            *x = x.div_euclid(WARES_PER_POINT as i32);
        }
        v
    }

    /// `virtual_thirds` with the features' counts from `counts` (see
    /// `virtual_scores_counted`).
    pub(crate) fn virtual_thirds_counted(
        &self,
        roots: &mut Vec<u32>,
        counts: &mut impl FeatureCounts,
    ) -> [i32; MAX_PLAYERS] {
        for_system!(self.rules.kind(), S => S::virtual_thirds_counted(self, roots, counts))
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
        self.extra_turn_offered = false;
        self.next_draw = self.deck.len();
        for_system!(self.rules.kind(), S => S::drop_pending(self));
        self.finish_now();
    }
}
