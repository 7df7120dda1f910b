//! Players for self-play: uniform random over legal moves, and greedy (best immediate
//! score for the player to move). Both draw only from the game's own random stream.

use serde::{Deserialize, Serialize};

use crate::ferries::{FerryMove, FerryMoves, Movable, lake_ends, pairs};
use crate::game::{Game, Move, Placement};
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Policy {
    /// Uniform over the full set of legal moves (placement and meeple choice jointly).
    Random,
    /// The move giving the player to move the most points this turn; ties uniform.
    Greedy,
}

impl Policy {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "random" => Some(Policy::Random),
            "greedy" => Some(Policy::Greedy),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Policy::Random => "random",
            Policy::Greedy => "greedy",
        }
    }

    /// Chooses a move for the current player. `buf` is scratch space reused between calls.
    pub fn choose(self, game: &Game, rng: &mut Rng, buf: &mut Vec<Placement>) -> Move {
        let (p, meeple) = self.choose_placement(game, rng, buf);
        let mut mv = base_move(game, p, meeple);
        if game.rules().ferries {
            let tile = game.tile().expect("game not over");
            let movable = game.movable_ferries(p.cell, tile, p.rotation);
            let lake = game.rules().tiles[tile as usize].lake.then_some(tile);
            (mv.ferry, mv.ferry_moves) = choose_ferries(game, lake, &movable, rng);
        }
        mv
    }

    /// Chooses and plays a move for the current player: the same move as `choose` with
    /// the same random stream, but the ferry choices are made once the tile is down, from
    /// the board lookups the placement has just made (the self-play fast path).
    pub fn play(self, game: &mut Game, rng: &mut Rng, buf: &mut Vec<Placement>) {
        let (p, meeple) = self.choose_placement(game, rng, buf);
        let mv = base_move(game, p, meeple);
        let tile = game.tile().expect("game not over");
        let lake = game.rules().tiles[tile as usize].lake.then_some(tile);
        game.play_choosing_ferries(mv, |game, movable| choose_ferries(game, lake, movable, rng));
    }

    /// The placement and meeple part of a move.
    fn choose_placement(
        self,
        game: &Game,
        rng: &mut Rng,
        buf: &mut Vec<Placement>,
    ) -> (Placement, Option<u8>) {
        match self {
            Policy::Random => random_placement(game, rng),
            Policy::Greedy => greedy_placement(game, rng, buf),
        }
    }
}

fn base_move(game: &Game, p: Placement, meeple: Option<u8>) -> Move {
    let (x, y) = game.board().xy(p.cell);
    Move::place(x, y, p.rotation, meeple)
}

/// The Ferries choices, made uniformly at random by both policies: where the new ferry of
/// `lake` (the tile being placed, if it is a lake tile) goes, each pair of road ends alike,
/// and, for each movable ferry in (x, y) order, staying or each other pair alike.
fn choose_ferries(
    game: &Game,
    lake: Option<u16>,
    movable: &Movable,
    rng: &mut Rng,
) -> (Option<(u8, u8)>, FerryMoves) {
    let ferry = lake.map(|tile| random_pair(lake_ends(game, tile), None, rng));
    let mut moves = FerryMoves::NONE;
    let mut order = [(0i32, 0i32, 0usize); crate::ferries::MAX_FERRY_MOVES];
    for (slot, f) in order.iter_mut().zip(movable.as_slice()) {
        let q = &game.board().placed[game.ferries()[*f].placed as usize];
        *slot = (q.x, q.y, *f);
    }
    let order = &mut order[..movable.len];
    order.sort_unstable();
    for &mut (fx, fy, f) in order {
        let link = game.ferries()[f];
        let lake = game.board().placed[link.placed as usize].tile;
        let ends = lake_ends(game, lake);
        // Staying is one option among (pairs - 1) moves.
        let n = pairs(ends).count() as u32;
        if rng.below(n) == 0 {
            continue;
        }
        let (a, b) = random_pair(ends, Some((link.a, link.b)), rng);
        moves.push(FerryMove {
            x: fx as i16,
            y: fy as i16,
            a,
            b,
        });
    }
    (ferry, moves)
}

/// A uniformly drawn pair of the given road ends, other than `except`.
fn random_pair(ends: u16, except: Option<(u8, u8)>, rng: &mut Rng) -> (u8, u8) {
    let mut all = [(0u8, 0u8); 16];
    let mut n = 0;
    for p in pairs(ends) {
        if Some(p) != except {
            all[n] = p;
            n += 1;
        }
    }
    all[rng.below(n as u32) as usize]
}

/// Uniform over all (placement, meeple option) pairs without listing them: draw a legal
/// placement uniformly (an open square and a rotation, redrawn until the rotation fits;
/// symmetric tiles fit only at their canonical rotations), then an option index in
/// `0..=segments`; if that option does not exist, start again. Each attempt picks every
/// legal (placement, option) pair with the same chance, so the accepted move is exactly
/// uniform over the joint set, and meeple options are computed only for drawn placements.
fn random_placement(game: &Game, rng: &mut Rng) -> (Placement, Option<u8>) {
    let tile = game.tile().expect("game not over");
    let open = &game.board().open;
    let rules = game.rules();
    let options_bound = if game.supply()[game.current_player()] > 0 {
        rules.tiles[tile as usize].segments.len() as u32 + 1
    } else {
        1
    };
    let squares = open.len() as u32;
    loop {
        // A uniformly drawn legal placement (redraw square and rotation until it fits) ...
        let (square, rotation) = loop {
            let r = rng.below(squares * 4);
            let square = open[(r >> 2) as usize];
            let rotation = (r & 3) as u8;
            if rules.legal_rotations(tile, square.demand) & (1 << rotation) != 0 {
                break (square, rotation);
            }
        };
        // ... then a uniformly drawn option index; a missing option restarts both draws.
        let p = Placement {
            cell: square.cell,
            rotation,
        };
        let k = rng.below(options_bound);
        if k == 0 {
            return (p, None);
        }
        let seg = (k - 1) as u8;
        if game.meeple_options(p) & (1 << seg) != 0 {
            return (p, Some(seg));
        }
    }
}

/// Best immediate gain for the player to move; ties broken uniformly at random.
fn greedy_placement(
    game: &Game,
    rng: &mut Rng,
    buf: &mut Vec<Placement>,
) -> (Placement, Option<u8>) {
    let tile = game.tile().expect("game not over");
    game.placements_into(tile, buf);
    let mut best = i32::MIN;
    let mut ties = 0u32;
    let mut chosen = (buf[0], None);
    for &p in buf.iter() {
        let (base, extra, mut options) = game.immediate_gains(p);
        let mut consider = |gain: i32, meeple: Option<u8>| {
            if gain > best {
                best = gain;
                ties = 1;
                chosen = (p, meeple);
            } else if gain == best {
                ties += 1;
                if rng.below(ties) == 0 {
                    chosen = (p, meeple);
                }
            }
        };
        consider(base, None);
        while options != 0 {
            let i = options.trailing_zeros() as usize;
            options &= options - 1;
            consider(base + extra[i], Some(i as u8));
        }
    }
    chosen
}
