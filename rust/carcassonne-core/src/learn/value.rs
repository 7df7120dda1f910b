//! A first learned evaluation, for measuring what one can do (not yet a player of the
//! library): per-seat facts of a position a player may see, a linear value over their
//! differences, and the one-ply player that picks the action whose position after it
//! (before anything hidden is revealed) it values most.
//!
//! The facts of seat `s` (`facts`): its virtual score, its meeples in supply, and for
//! roads, cities and fields bucketed by how far they are from done (open sides; for a
//! field, the unfinished cities it borders), the points pending where `s` holds the
//! majority, its meeples there, and the points where another player outnumbers it. The
//! value of a position for seat `s` is `tanh(w . (f_s - f_o))` (two players: `o` the
//! other seat), with weights blended between three stages of the game by the share of
//! tiles still to come, so that the same lead counts for more near the end.
//!
//! The one-ply player values each legal action on a copy of the game whose unseen tiles
//! were reshuffled first (`Game::determinize`): what it sees after an action never
//! depends on the true order of the deck.

use crate::board::features::NO_PLAYER;
use crate::data::tileset::FeatureKind;
use crate::engine::game::Game;
use crate::learn::feature_facts::{CITIES, FeatureFacts, FieldBorders, OPEN, VALUE};
use crate::limits::MAX_PLAYERS;
use crate::play::action::Action;
use crate::rng::Rng;

/// Facts per seat.
pub const FACTS: usize = 31;
/// Stages of the game the weights are blended over.
pub const STAGES: usize = 3;
/// Weights of a linear value.
pub const WEIGHTS: usize = FACTS * STAGES;

const KINDS: usize = 3;
const BUCKETS: usize = 3;
/// Where the per-kind facts start.
const PER_KIND: usize = 2;
/// Own monks on monasteries.
const MONKS: usize = PER_KIND + KINDS * BUCKETS * 3;

/// Reused buffers for `facts`.
#[derive(Debug, Default)]
pub struct FactsScratch {
    facts: FeatureFacts,
    roots: Vec<u32>,
    borders: Option<FieldBorders>,
}

/// Each seat's facts of `game` (see the module), scaled to a few units.
pub fn facts(game: &Game, s: &mut FactsScratch) -> [[f32; FACTS]; MAX_PLAYERS] {
    let rules = game.rules();
    if rules.spec.farmers && s.borders.is_none() {
        s.borders = Some(FieldBorders::new(rules));
    }
    let borders = if rules.spec.farmers {
        s.borders.as_ref()
    } else {
        None
    };
    s.facts.find(game, 0, borders);
    let players = rules.players();
    let mut out = [[0.0f32; FACTS]; MAX_PLAYERS];
    let virtual_scores = game.virtual_scores();
    for p in 0..players {
        out[p][0] = virtual_scores[p] as f32 / 10.0;
        out[p][1] = game.supply()[p] as f32 / 7.0;
    }
    let features = game.features();
    features.roots_into(&mut s.roots);
    let nodes = features.nodes();
    for (e, node) in nodes.iter().enumerate() {
        if s.roots[e] as usize != e || node.meeple_total == 0 {
            continue;
        }
        let shown = s.facts.shown(e as u32);
        let (kind, bucket) = match node.kind {
            FeatureKind::Road | FeatureKind::City => {
                if shown[OPEN] == 0 {
                    continue; // complete: its points are banked
                }
                let k = if node.kind == FeatureKind::Road { 0 } else { 1 };
                (k, (shown[OPEN] as usize).min(3) - 1)
            }
            FeatureKind::Field => {
                let finished = shown[VALUE] as usize / 3;
                let unfinished = (shown[CITIES] as usize).saturating_sub(finished);
                (2, unfinished.min(2))
            }
            FeatureKind::Monastery => {
                for p in 0..players {
                    out[p][MONKS] += node.meeples[p] as f32;
                }
                continue;
            }
            _ => continue,
        };
        let value = shown[VALUE] as f32 / 10.0;
        let most = node.meeples[..players].iter().copied().max().unwrap_or(0);
        let at = PER_KIND + (kind * BUCKETS + bucket) * 3;
        for p in 0..players {
            let m = node.meeples[p];
            if m == 0 {
                continue;
            }
            if m == most {
                out[p][at] += value;
            } else {
                out[p][at + 2] += value;
            }
            out[p][at + 1] += m as f32;
        }
    }
    debug_assert!(NO_PLAYER as usize >= MAX_PLAYERS);
    out
}

/// The stage blend of `game`: weights of the three stages, summing to 1.
fn stage(game: &Game) -> [f32; STAGES] {
    let total = game.rules().full_deck.len().max(1) as f32;
    let left = game.remaining().len() as f32 / total; // 1 at the start, 0 at the end
    let x = (1.0 - left) * (STAGES - 1) as f32;
    let k = (x.floor() as usize).min(STAGES - 2);
    let t = x - k as f32;
    let mut w = [0.0; STAGES];
    w[k] = 1.0 - t;
    w[k + 1] = t;
    w
}

/// A linear value over the seats' fact differences.
#[derive(Clone, Debug)]
pub struct LinearValue {
    pub weights: Vec<f32>,
}

impl Default for LinearValue {
    /// The virtual-score lead alone, 10 points worth tanh(1): the greedy player's view.
    fn default() -> Self {
        let mut weights = vec![0.0; WEIGHTS];
        for k in 0..STAGES {
            weights[k * FACTS] = 1.0;
        }
        LinearValue { weights }
    }
}

impl LinearValue {
    /// The input of `seat`'s value: its facts less the other seat's (two players), with
    /// the stage blend applied, into `x` (`WEIGHTS` long).
    pub fn input(&self, game: &Game, seat: usize, s: &mut FactsScratch, x: &mut [f32]) {
        let f = facts(game, s);
        let other = 1 - seat;
        let blend = stage(game);
        for k in 0..STAGES {
            for i in 0..FACTS {
                x[k * FACTS + i] = blend[k] * (f[seat][i] - f[other][i]);
            }
        }
    }

    /// `tanh(w . x)`.
    pub fn value_of(&self, x: &[f32]) -> f32 {
        let z: f32 = self.weights.iter().zip(x).map(|(w, v)| w * v).sum();
        z.tanh()
    }

    /// The value of `game` for `seat`: the outcome when it is over, else `value_of`.
    pub fn value(&self, game: &Game, seat: usize, s: &mut FactsScratch, x: &mut [f32]) -> f32 {
        if game.is_over() {
            return crate::learn::outcome::outcome(game.scores())[seat];
        }
        self.input(game, seat, s, x);
        self.value_of(x)
    }

    /// The one-ply choice of the decider: the legal action of highest value after it, on
    /// a copy whose hidden order `rng` reshuffled; ties go to the first listed.
    pub fn choose(&self, game: &Game, rng: &mut Rng, s: &mut FactsScratch) -> Action {
        let seat = game.decider();
        let mut seen = game.clone();
        seen.determinize(rng);
        let actions = game.legal_actions();
        let mut x = vec![0.0; WEIGHTS];
        let mut best = (f32::NEG_INFINITY, actions[0]);
        let mut after = seen.clone();
        for &a in &actions {
            after.clone_from(&seen);
            after.apply_unchecked(a);
            let v = self.value(&after, seat, s, &mut x);
            if v > best.0 {
                best = (v, a);
            }
        }
        best.1
    }
}
