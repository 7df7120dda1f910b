//! The facts of each seat a learned value reads: what a player may see of a position,
//! per seat (see the parent module).

use std::sync::Arc;

use crate::board::features::NO_PLAYER;
use crate::data::tileset::FeatureKind;
use crate::engine::game::Game;
use crate::engine::rules::Rules;
use crate::learn::feature_facts::{CITIES, FeatureFacts, FieldBorders, OPEN, VALUE};
use crate::limits::MAX_PLAYERS;

/// Facts per seat: virtual score, supply, three per kind and bucket, monks.
pub const FACTS: usize = MONKS + 1;
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
    /// The field borders of the rules they were built for: a scratch handed positions of
    /// other rules builds them again, and never reads one system's tiles by another's.
    borders: Option<(Arc<Rules>, FieldBorders)>,
}

impl FactsScratch {
    /// Out of line and cold: done once per scratch and rules, and kept out of the facts'
    /// hot code.
    #[cold]
    #[inline(never)]
    fn build_borders(&mut self, rules: &Arc<Rules>) {
        self.borders = Some((Arc::clone(rules), FieldBorders::new(rules)));
    }
}

/// Each seat's facts of `game` (see the module), scaled to a few units.
pub fn facts(game: &Game, s: &mut FactsScratch) -> [[f32; FACTS]; MAX_PLAYERS] {
    let rules = game.rules();
    let borders = if rules.spec.farmers {
        if !s
            .borders
            .as_ref()
            .is_some_and(|(r, _)| Arc::ptr_eq(r, rules))
        {
            s.build_borders(rules);
        }
        s.borders.as_ref().map(|(_, b)| b)
    } else {
        None
    };
    s.facts.find(game, 0, borders);
    let players = rules.players();
    let mut out = [[0.0f32; FACTS]; MAX_PLAYERS];
    // From the facts just found: the end-of-game scoring walks no feature again.
    // In thirds of a point, not rounded: a South Seas ware is a third of a point, and
    // rounding each seat's down would hide most wares gained. Thirds / 30 is exactly
    // points / 10 where scores are whole points (both the nearest f32 to one number).
    let virtual_thirds = game.virtual_thirds_counted(&mut s.roots, &mut s.facts);
    for p in 0..players {
        out[p][0] = virtual_thirds[p] as f32 / 30.0;
        out[p][1] = game.supply()[p] as f32 / 7.0;
    }
    // Counted in whole points and meeples, scaled at the end: a sum of integers does not
    // depend on the order the features are visited in (a sum of tenths in f32 does, in
    // its last bits, and the order of the nodes is not the same in every copy of a
    // position), so the same position always gets the same value.
    let mut counted = [[0u32; FACTS]; MAX_PLAYERS];
    let features = game.features();
    features.roots_into(&mut s.roots);
    let nodes = features.nodes();
    for (e, node) in nodes.iter().enumerate() {
        if s.roots[e] as usize != e || node.meeple_total == 0 {
            continue;
        }
        let shown = s.facts.shown(e as u32);
        let (kind, bucket) = match node.kind {
            // South Seas' bridges, islands and sea regions count as the roads, cities and
            // fields of their slots (no game has both), their value the wares on them.
            FeatureKind::Road
            | FeatureKind::City
            | FeatureKind::Bridge
            | FeatureKind::Island
            | FeatureKind::Sea => {
                if shown[OPEN] == 0 {
                    continue; // complete: its points are banked
                }
                let k = match node.kind {
                    FeatureKind::Road | FeatureKind::Bridge => 0,
                    FeatureKind::City | FeatureKind::Island => 1,
                    _ => 2,
                };
                (k, (shown[OPEN] as usize).min(3) - 1)
            }
            FeatureKind::Field => {
                let finished = shown[VALUE] as usize / 3;
                let unfinished = (shown[CITIES] as usize).saturating_sub(finished);
                (2, unfinished.min(2))
            }
            FeatureKind::Monastery => {
                for p in 0..players {
                    counted[p][MONKS] += node.meeples[p] as u32;
                }
                continue;
            }
            _ => continue,
        };
        let value = shown[VALUE] as u32;
        let most = node.meeples[..players].iter().copied().max().unwrap_or(0);
        let at = PER_KIND + (kind * BUCKETS + bucket) * 3;
        for p in 0..players {
            let m = node.meeples[p];
            if m == 0 {
                continue;
            }
            if m == most {
                counted[p][at] += value;
            } else {
                counted[p][at + 2] += value;
            }
            counted[p][at + 1] += m as u32;
        }
    }
    for p in 0..players {
        for i in PER_KIND..FACTS {
            // Points in tens, meeples as they are.
            let points = i < MONKS && (i - PER_KIND) % 3 != 1;
            let c = counted[p][i] as f32;
            out[p][i] = if points { c / 10.0 } else { c };
        }
    }
    debug_assert!(NO_PLAYER as usize >= MAX_PLAYERS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rules::RulesSpec;
    use crate::play::players::Policy;
    use crate::rng::Rng;

    /// One scratch handed positions of rule systems with different tiles, in turn, finds
    /// the facts a fresh scratch finds: what it keeps of one system's tiles is not used
    /// for another's.
    #[test]
    fn a_scratch_follows_the_rules_of_each_position() {
        let systems = [
            RulesSpec::default(),
            RulesSpec::maps("coastal", 2),
            RulesSpec::default(),
        ];
        let mut kept = FactsScratch::default();
        let mut buf = Vec::new();
        for (index, spec) in (0u64..).zip(systems) {
            let rules = Arc::new(Rules::new(spec).expect("built-in rules"));
            let mut game = Game::shuffled(rules, 5, index);
            let mut rng = Rng::for_game(5, index);
            for _ in 0..40 {
                Policy::Random.step(&mut game, &mut rng, &mut buf);
            }
            assert_eq!(
                facts(&game, &mut kept),
                facts(&game, &mut FactsScratch::default())
            );
        }
    }
}
