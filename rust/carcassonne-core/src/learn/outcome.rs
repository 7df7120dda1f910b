//! What a game's end (or its virtual end) is worth to each seat, on the scale learning
//! agents use: the environment's rewards and the PUCT search's values.

use crate::engine::game::Game;
use crate::limits::MAX_PLAYERS;

/// The outcome of `scores` for each seat: 1 to the sole best, 0 to seats tied for the
/// best score, -1 to every other seat (entries past `scores.len()` are 0).
pub fn outcome(scores: &[i32]) -> [f32; MAX_PLAYERS] {
    let best = scores.iter().copied().max().unwrap_or(0);
    let tied = scores.iter().filter(|&&s| s == best).count();
    let mut out = [0.0; MAX_PLAYERS];
    for (r, &s) in out.iter_mut().zip(scores) {
        *r = if s < best {
            -1.0
        } else if tied == 1 {
            1.0
        } else {
            0.0
        };
    }
    out
}

/// Each seat's virtual score less the best other player's, in points.
pub fn margins(game: &Game) -> [i32; MAX_PLAYERS] {
    let v = game.virtual_scores();
    let n = game.rules().players();
    let mut m = [0; MAX_PLAYERS];
    for p in 0..n {
        let best = (0..n).filter(|&q| q != p).map(|q| v[q]).max().unwrap_or(0);
        m[p] = v[p] - best;
    }
    m
}
