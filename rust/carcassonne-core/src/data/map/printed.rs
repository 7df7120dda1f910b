//! A map's printed pieces as tiles: large-city squares, border pieces and ferry
//! connections, in the tile-file notation, so they are parsed and joined like any tile.

use super::MapDef;
use crate::topology::{EdgeKind, SIDE_DELTA, SIDE_NAMES};

/// A printed tile the map puts on the board before the first turn: a large-city square
/// (on its own square), a border piece or a ferry connection (attached to the sides of
/// squares it belongs to, M-13, and shown at the outside square beyond its first side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintedPiece {
    /// Tile id, `map/<name>/...`.
    pub id: String,
    /// Where it is shown, in map coordinates (a border piece: beyond its side; several
    /// pieces may be shown at one outside square).
    pub at: (i64, i64),
    /// Edges N E S W and features, in the tile-file notation.
    pub edges: String,
    pub features: String,
    /// Coats of arms on its road (tile files allow pennants only in cities).
    pub road_arms: u8,
    /// The sides of squares it belongs to, as (square, side): one for a border piece,
    /// both ends for a ferry connection; none for a large-city square, which is a square.
    pub sides: Option<Vec<((usize, usize), usize)>>,
}

impl MapDef {
    /// The printed tiles of the map, large-city squares first (in city and listing order).
    pub fn printed_pieces(&self) -> Vec<PrintedPiece> {
        let mut out = Vec::new();
        for city in &self.cities {
            for (k, sq) in city.squares.iter().enumerate() {
                let edges: String = sq.edges.iter().map(|e| e.letter()).collect();
                out.push(PrintedPiece {
                    id: format!("map/{}/{}{}", self.name, city.tag, k + 1),
                    at: (sq.at.0 as i64, sq.at.1 as i64),
                    edges,
                    features: city_square_features(&sq.edges, sq.arms),
                    road_arms: 0,
                    sides: None,
                });
            }
        }
        for (i, b) in self.borders.iter().enumerate() {
            let (dx, dy) = SIDE_DELTA[b.side];
            let facing = (b.side + 2) % 4;
            let mut edges = ['F'; 4];
            edges[facing] = b.kind.letter();
            let f = SIDE_NAMES[facing];
            let others: Vec<String> = (0..4)
                .filter(|s| *s != facing)
                .flat_map(|s| [format!("{}L", SIDE_NAMES[s]), format!("{}R", SIDE_NAMES[s])])
                .collect();
            let rest = format!("F({})", others.join(" "));
            let (features, road_arms) = match b.kind {
                EdgeKind::Road => (format!("R({f}) ; F({f}L) ; F({f}R) ; {rest}"), b.arms),
                _ => (
                    format!("C({f}){} ; {rest}", "+pennant".repeat(b.arms as usize)),
                    0,
                ),
            };
            out.push(PrintedPiece {
                id: format!("map/{}/border{}", self.name, i + 1),
                at: (b.at.0 as i64 + dx as i64, b.at.1 as i64 + dy as i64),
                edges: edges.iter().collect(),
                features,
                road_arms,
                sides: Some(vec![(b.at, b.side)]),
            });
        }
        for (i, f) in self.ferries.iter().enumerate() {
            // One road facing both ends (the sides facing them may be one side).
            let outside = |((col, row), side): ((usize, usize), usize)| {
                let (dx, dy) = SIDE_DELTA[side];
                (col as i64 + dx as i64, row as i64 + dy as i64)
            };
            let facing: Vec<usize> = f.ends.iter().map(|(_, side)| (side + 2) % 4).collect();
            let mut road_sides: Vec<usize> = facing.clone();
            road_sides.dedup();
            let mut edges = ['F'; 4];
            let mut parts = vec![format!(
                "R({})",
                road_sides
                    .iter()
                    .map(|s| SIDE_NAMES[*s])
                    .collect::<Vec<_>>()
                    .join(" ")
            )];
            for side in 0..4 {
                if road_sides.contains(&side) {
                    edges[side] = 'R';
                    parts.push(format!("F({}L)", SIDE_NAMES[side]));
                    parts.push(format!("F({}R)", SIDE_NAMES[side]));
                } else {
                    parts.push(format!("F({}L {}R)", SIDE_NAMES[side], SIDE_NAMES[side]));
                }
            }
            out.push(PrintedPiece {
                id: format!("map/{}/ferry{}", self.name, i + 1),
                at: outside(f.ends[0]),
                edges: edges.iter().collect(),
                features: parts.join(" ; "),
                road_arms: f.arms,
                sides: Some(f.ends.to_vec()),
            });
        }
        out
    }
}

/// The features of a large-city square: one city over its city sides (with the coats of
/// arms, M-7), a road ending in the city on each road side, and a field on each half-edge
/// (printed land does not join the fields around it), bordering the city.
fn city_square_features(edges: &[EdgeKind; 4], arms: u8) -> String {
    let city_sides: Vec<&str> = (0..4)
        .filter(|s| edges[*s] == EdgeKind::City)
        .map(|s| SIDE_NAMES[s])
        .collect();
    let mut parts = vec![format!(
        "C({}){}",
        city_sides.join(" "),
        "+pennant".repeat(arms as usize)
    )];
    for side in 0..4 {
        if edges[side] == EdgeKind::City {
            continue;
        }
        if edges[side] == EdgeKind::Road {
            parts.push(format!("R({})", SIDE_NAMES[side]));
        }
        for half in ["L", "R"] {
            parts.push(format!("F({}{half})~{}", SIDE_NAMES[side], city_sides[0]));
        }
    }
    parts.join(" ; ")
}
