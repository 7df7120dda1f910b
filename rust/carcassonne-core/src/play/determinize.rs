//! Hidden information: what the player to move cannot know, and reshuffling it.
//!
//! A search that plays on a copy of the game must not read the true order of the tiles
//! still to come, of the face-down ships or of the Friday tiles not yet revealed.
//! `Game::determinize` replaces all of it with a random order of the same unseen pieces,
//! which is what information-set search samples a new world from on every iteration.

use crate::engine::game::Game;
use crate::engine::system::RuleSystem;
use crate::rng::Rng;
use crate::systems::any::for_system;

impl Game {
    /// Reshuffles everything the player to move cannot know, keeping everything he can:
    /// the undrawn tiles (with Carcassonne Maps' shorter deck, drawn again from every
    /// tile not yet seen, since which tiles were left out is hidden too), the face-down
    /// ships and the Friday tiles not yet revealed. Placed tiles, the current tile, the
    /// discards, scores, supplies, wares and the face-up display are unchanged, as is
    /// the number of tiles still to come.
    ///
    /// The game's record of its seed is dropped: the copy is no longer that game.
    pub fn determinize(&mut self, rng: &mut Rng) {
        if self.rules.deck_limit >= self.rules.full_deck.len() {
            // The whole set is in the deck: the unseen tiles are the undrawn ones, shuffled
            // where they lie (the same draws and result as the general case below, without
            // its allocation: a search determinizes on every iteration).
            rng.shuffle(&mut self.deck[self.next_draw..]);
        } else {
            let remaining = self.deck.len() - self.next_draw;
            let mut unseen = self.deck.split_off(self.next_draw);
            // The tiles cut from the deck are unseen as well: the full set less every
            // tile of the deck (drawn or not).
            let mut left_out = vec![0u32; self.rules.tiles.len()];
            for &t in &self.rules.full_deck {
                left_out[t as usize] += 1;
            }
            for &t in &self.deck[..self.next_draw] {
                left_out[t as usize] = left_out[t as usize].saturating_sub(1);
            }
            for &t in &unseen {
                left_out[t as usize] = left_out[t as usize].saturating_sub(1);
            }
            for (t, &n) in left_out.iter().enumerate() {
                unseen.extend(std::iter::repeat_n(t as u16, n as usize));
            }
            rng.shuffle(&mut unseen);
            self.deck.extend_from_slice(&unseen[..remaining]);
        }
        for_system!(self.rules.kind(), S => S::shuffle_hidden(self, rng));
        self.seed = None;
    }
}

impl Game {
    /// Puts everything the player to move cannot know in a fixed order (sorted): the
    /// undrawn tiles (with a shorter Maps deck, the first of every tile not yet seen, as
    /// `determinize` draws them), the face-down ships and the unrevealed Friday tiles. A
    /// search that starts from such a copy and determinizes it on every iteration then
    /// depends only on what the player sees and on its random stream, not on the true
    /// hidden order. The copy is no longer the game: its seed record is dropped.
    pub fn forget_hidden_order(&mut self) {
        let next = self.next_draw;
        if self.rules.deck_limit >= self.rules.full_deck.len() {
            self.deck[next..].sort_unstable();
        } else {
            // Every tile not yet seen, by tile index: `determinize` lists the undrawn
            // tiles first, then the others; from this order its list is sorted too.
            let mut unseen = vec![0u32; self.rules.tiles.len()];
            for &t in &self.rules.full_deck {
                unseen[t as usize] += 1;
            }
            for &t in &self.deck[..next] {
                unseen[t as usize] = unseen[t as usize].saturating_sub(1);
            }
            let tiles = unseen
                .iter()
                .enumerate()
                .flat_map(|(t, &n)| std::iter::repeat_n(t as u16, n as usize));
            for (slot, t) in self.deck[next..].iter_mut().zip(tiles) {
                *slot = t;
            }
        }
        for_system!(self.rules.kind(), S => S::sort_hidden(self));
        self.seed = None;
    }
}

impl Game {
    /// Per tile index of the rules, how many of that tile the player to move has not seen
    /// (into `out`, cleared first): the full set less every tile drawn so far, the current
    /// one included. With the whole set in the deck these are the undrawn tiles; with
    /// Carcassonne Maps' shorter deck the tiles left out of it are unseen too (which ones
    /// is hidden). What an agent may know of the tiles to come: their order is hidden.
    pub fn unseen_counts(&self, out: &mut Vec<u32>) {
        out.clear();
        out.resize(self.rules.tiles.len(), 0);
        for &t in &self.rules.full_deck {
            out[t as usize] += 1;
        }
        for &t in &self.deck[..self.next_draw] {
            out[t as usize] = out[t as usize].saturating_sub(1);
        }
    }

    /// The chance outcomes of the next draw: each tile kind the next tile drawn from the
    /// pile may be, with its probability (its share of the unseen tiles: every unseen
    /// tile is equally likely to come next, the pile and, with a shorter Maps deck, the
    /// tiles left out being shuffled alike), by tile index. Empty when no tile is left to
    /// draw. The draw's discards are not anticipated: a drawn tile that fits nowhere is
    /// put aside and the next drawn (C-3).
    pub fn chance_outcomes(&self) -> Vec<(u16, f64)> {
        if self.remaining().is_empty() {
            return Vec::new();
        }
        let mut unseen = Vec::new();
        self.unseen_counts(&mut unseen);
        let total: u32 = unseen.iter().sum();
        unseen
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(t, &n)| (t as u16, n as f64 / total as f64))
            .collect()
    }
}

impl Game {
    /// Puts a tile of kind `tile` next on the pile, for a player weighing what the next
    /// draw may bring (a chance outcome of `chance_outcomes`): swapped with the first such
    /// tile still to come, or, if none is in the pile (one left out of a shorter Maps
    /// deck), written over the next one. For copies that look ahead (after
    /// `determinize` or not, the order is then known to be made up): the pile no longer
    /// follows the game's seed, which is dropped.
    pub fn put_next(&mut self, tile: u16) {
        let next = self.next_draw;
        if next >= self.deck.len() {
            return;
        }
        match self.deck[next..].iter().position(|&t| t == tile) {
            Some(i) => self.deck.swap(next, next + i),
            None => self.deck[next] = tile,
        }
        self.seed = None;
    }
}
