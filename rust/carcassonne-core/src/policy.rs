//! Players for self-play: uniform random over legal moves, and greedy (best immediate
//! score for the player to move). Both draw only from the game's own random stream.

use serde::{Deserialize, Serialize};

use crate::ferries::{FerryMove, lake_ends, pairs};
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
        match self {
            Policy::Random => random_move(game, rng, buf),
            Policy::Greedy => greedy_move(game, rng, buf),
        }
    }
}

/// The move for a chosen placement and meeple. With The Ferries, both policies make the
/// ferry choices uniformly at random: where the new ferry goes (each pair of road ends
/// alike) and, for each ferry that may move, staying or each other pair alike.
fn to_move(game: &Game, p: Placement, meeple: Option<u8>, rng: &mut Rng) -> Move {
    let (x, y) = game.board().xy(p.cell);
    let mut mv = Move::place(x, y, p.rotation, meeple);
    if !game.rules().ferries {
        return mv;
    }
    let tile = game.tile().expect("game not over");
    if game.rules().tiles[tile as usize].lake {
        mv.ferry = Some(random_pair(lake_ends(game, tile), None, rng));
    }
    let movable = game.movable_ferries(p.cell, tile, p.rotation);
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
        mv.ferry_moves.push(FerryMove {
            x: fx as i16,
            y: fy as i16,
            a,
            b,
        });
    }
    mv
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
pub fn random_move(game: &Game, rng: &mut Rng, _buf: &mut Vec<Placement>) -> Move {
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
            return to_move(game, p, None, rng);
        }
        let seg = (k - 1) as u8;
        if game.meeple_options(p) & (1 << seg) != 0 {
            return to_move(game, p, Some(seg), rng);
        }
    }
}

/// Best immediate gain for the player to move; ties broken uniformly at random.
pub fn greedy_move(game: &Game, rng: &mut Rng, buf: &mut Vec<Placement>) -> Move {
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
    to_move(game, chosen.0, chosen.1, rng)
}
