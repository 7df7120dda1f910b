//! Points for features under the classic rules (`shared/spec/classic.md` §2.3, C-2, C-4).
//! Pure functions: the game decides when a feature is scored, this module how much.

use serde::{Deserialize, Serialize};

use crate::data::tileset::FeatureKind;
use crate::engine::rules::RulesSpec;
use crate::limits::MAX_PLAYERS;

/// What a score was for; also the columns of the points-by-kind table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum ScoreKind {
    Road = 0,
    City = 1,
    Monastery = 2,
    Field = 3,
    Goods = 4,
    /// South Seas: points of the ships taken.
    Ships = 5,
    /// South Seas: 1 point per 3 wares left at the end.
    Wares = 6,
    /// Carcassonne Maps: points for the square a tile goes on: coats of arms on an island
    /// square (2 each, M-5), the small-town penalty (variant 2, -2).
    Map = 7,
}

pub const SCORE_KINDS: usize = 8;

impl ScoreKind {
    pub const ALL: [ScoreKind; SCORE_KINDS] = [
        ScoreKind::Road,
        ScoreKind::City,
        ScoreKind::Monastery,
        ScoreKind::Field,
        ScoreKind::Goods,
        ScoreKind::Ships,
        ScoreKind::Wares,
        ScoreKind::Map,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ScoreKind::Road => "road",
            ScoreKind::City => "city",
            ScoreKind::Monastery => "monastery",
            ScoreKind::Field => "field",
            ScoreKind::Goods => "goods",
            ScoreKind::Ships => "ships",
            ScoreKind::Wares => "wares",
            ScoreKind::Map => "map",
        }
    }

    /// The column of a classic feature kind. Panics for the South Seas kinds, which give
    /// wares, not points: the engine asks only in classic games (`Rules::new` refuses
    /// tile sets mixing the two systems, so a classic game has no South Seas feature).
    pub fn of(kind: FeatureKind) -> Self {
        match kind {
            FeatureKind::Road => ScoreKind::Road,
            FeatureKind::City => ScoreKind::City,
            FeatureKind::Monastery => ScoreKind::Monastery,
            FeatureKind::Field => ScoreKind::Field,
            FeatureKind::Bridge | FeatureKind::Island | FeatureKind::Market | FeatureKind::Sea => {
                // Unreachable from a game: see the doc comment.
                unreachable!("South Seas features give wares, not points")
            }
        }
    }
}

/// What scoring needs to know about a road or a city.
#[derive(Clone, Copy, Debug, Default)]
pub struct FeatureTally {
    pub tiles: u32,
    pub pennants: u32,
    pub inns: u32,
    pub cathedrals: u32,
}

/// Points for a road or city, complete (during play) or not (at the end). Panics for any
/// other kind: the game calls it only for classic features that close by edges (roads and
/// cities), never in a South Seas game (`Game::immediate_gains` scores nothing there).
pub fn edge_feature_points(
    kind: FeatureKind,
    t: FeatureTally,
    complete: bool,
    rules: &RulesSpec,
) -> i32 {
    let ic = rules.inns_and_cathedrals_scoring;
    let points = match kind {
        FeatureKind::Road if ic && t.inns > 0 => {
            if complete {
                2 * t.tiles
            } else {
                0
            }
        }
        // Coats of arms on a road (printed on a map's pieces; no tile has any) score like
        // a city's pennants: 2 each when complete, 1 at the end (M-5).
        FeatureKind::Road => {
            if complete {
                t.tiles + 2 * t.pennants
            } else {
                t.tiles + t.pennants
            }
        }
        FeatureKind::City if ic && t.cathedrals > 0 => {
            if complete {
                3 * (t.tiles + t.pennants)
            } else {
                0
            }
        }
        FeatureKind::City => {
            if complete {
                2 * (t.tiles + t.pennants)
            } else {
                t.tiles + t.pennants
            }
        }
        // Unreachable from a game: see the doc comment.
        _ => unreachable!("not a classic road or city"),
    };
    points as i32
}

pub const MONASTERY_COMPLETE: i32 = 9;

/// Points for a monastery with `neighbours` of its 8 surrounding squares filled.
pub fn monastery_points(neighbours: u32) -> i32 {
    if neighbours >= 8 {
        MONASTERY_COMPLETE
    } else {
        1 + neighbours as i32
    }
}

pub const FIELD_POINTS_PER_CITY: i32 = 3;
pub const GOODS_MAJORITY_POINTS: i32 = 10;

/// Players holding the most meeples (all tied players); empty when nobody has one.
/// Returned as a bit set over players.
pub fn majority(meeples: &[u8; MAX_PLAYERS]) -> u8 {
    // Cannot fail: the array has MAX_PLAYERS > 0 entries.
    let best = *meeples.iter().max().unwrap();
    if best == 0 {
        return 0;
    }
    meeples
        .iter()
        .enumerate()
        .filter(|(_, m)| **m == best)
        .fold(0u8, |set, (p, _)| set | (1 << p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn city_and_road_points() {
        let spec = RulesSpec::default();
        let t = FeatureTally {
            tiles: 3,
            pennants: 1,
            inns: 1,
            cathedrals: 0,
        };
        assert_eq!(edge_feature_points(FeatureKind::City, t, true, &spec), 8);
        assert_eq!(edge_feature_points(FeatureKind::City, t, false, &spec), 4);
        // The road of this tally carries a coat of arms (a map's printed piece): 3 tiles
        // + 2 for the arms when complete, + 1 at the end; a tile road has none.
        assert_eq!(edge_feature_points(FeatureKind::Road, t, true, &spec), 5);
        assert_eq!(edge_feature_points(FeatureKind::Road, t, false, &spec), 4);
        let plain = FeatureTally { pennants: 0, ..t };
        assert_eq!(
            edge_feature_points(FeatureKind::Road, plain, true, &spec),
            3
        );
        assert_eq!(
            edge_feature_points(FeatureKind::Road, plain, false, &spec),
            3
        );
        let ic = RulesSpec {
            inns_and_cathedrals_scoring: true,
            ..RulesSpec::default()
        };
        assert_eq!(edge_feature_points(FeatureKind::Road, t, true, &ic), 6);
        assert_eq!(edge_feature_points(FeatureKind::Road, t, false, &ic), 0);
        let cathedral = FeatureTally { cathedrals: 1, ..t };
        assert_eq!(
            edge_feature_points(FeatureKind::City, cathedral, true, &ic),
            12
        );
        assert_eq!(
            edge_feature_points(FeatureKind::City, cathedral, false, &ic),
            0
        );
    }

    #[test]
    fn ties_all_score() {
        assert_eq!(majority(&[1, 1, 0, 0, 0, 0]), 0b11);
        assert_eq!(majority(&[2, 1, 0, 0, 0, 0]), 0b01);
        assert_eq!(majority(&[0; 6]), 0);
        assert_eq!(monastery_points(8), 9);
        assert_eq!(monastery_points(3), 4);
    }
}
