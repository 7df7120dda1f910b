//! Players for self-play: uniform random over legal moves, and greedy (best immediate
//! score for the player to move). Both draw only from the game's own random stream.

use serde::{Deserialize, Serialize};

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

fn to_move(game: &Game, p: Placement, meeple: Option<u8>) -> Move {
    let (x, y) = game.board().xy(p.cell);
    Move {
        x,
        y,
        rotation: p.rotation,
        meeple,
    }
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
            return to_move(game, p, None);
        }
        let seg = (k - 1) as u8;
        if game.meeple_options(p) & (1 << seg) != 0 {
            return to_move(game, p, Some(seg));
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
    to_move(game, chosen.0, chosen.1)
}
