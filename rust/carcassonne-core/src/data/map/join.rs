//! Two half maps joined along their half squares (like USA West + East).

use super::{BorderPiece, CitySquare, FerryRoute, LargeCity, MAX_MAP_SIDE, MapDef, Square};
use crate::quote::quote;

/// Joins two half maps along their half squares (like USA West + East): `west`'s join
/// column (E) lies on `east`'s (W), each pair of half squares becomes one ordinary square,
/// and `east`'s squares, pieces and islands follow. Both maps' start squares are used by
/// default, and the recommended tiles add up.
pub fn join_maps(west: &MapDef, east: &MapDef) -> Result<MapDef, String> {
    if west.join != Some(1) || east.join != Some(3) {
        return Err(format!(
            "maps {} and {} do not join: the first needs join = \"E\", the second join = \"W\"",
            quote(&west.name),
            quote(&east.name)
        ));
    }
    if west.height != east.height {
        return Err(format!(
            "maps {} and {} do not join: {} and {} rows",
            quote(&west.name),
            quote(&east.name),
            west.height,
            east.height
        ));
    }
    let shift = west.width - 1;
    let width = west.width + east.width - 1;
    if width > MAX_MAP_SIDE {
        return Err(format!(
            "the joined map is {width} squares wide; at most {MAX_MAP_SIDE}"
        ));
    }
    let name = format!("{}+{}", west.name, east.name);
    let mut squares = vec![Square::None; width * west.height];
    let cities = west.cities.len() as u8;
    let islands = west.islands as u8;
    for row in 0..west.height {
        for col in 0..width {
            let w = (col < west.width).then(|| west.squares[row * west.width + col]);
            let e = (col >= shift).then(|| east.squares[row * east.width + col - shift]);
            squares[row * width + col] = match (w, e) {
                (Some(Square::Half), Some(Square::Half)) => Square::Ordinary,
                (Some(Square::None), Some(Square::None)) => Square::None,
                (Some(_), Some(_)) => {
                    return Err(format!(
                        "maps {} and {} do not join: row {row} of the joining column holds a half square on one map only",
                        quote(&west.name),
                        quote(&east.name)
                    ));
                }
                (Some(sq), None) => sq,
                (None, Some(Square::City(i))) => Square::City(i + cities),
                (None, Some(Square::Island(i))) => Square::Island(i + islands),
                (None, Some(sq)) => sq,
                (None, None) => Square::None,
            };
        }
    }
    let moved = |(col, row): (usize, usize)| (col + shift, row);
    let tagged = |map: &MapDef, c: &LargeCity| LargeCity {
        tag: format!("{}.{}", map.name, c.letter),
        ..c.clone()
    };
    let mut out = MapDef {
        name,
        title: format!("{} + {}", west.title, east.title),
        original: match (&west.original, &east.original) {
            (None, None) => None,
            (a, b) => Some(
                [a.as_deref(), b.as_deref()]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
        },
        tiles: west.tiles + east.tiles,
        start_squares: west.start_squares + east.start_squares,
        width,
        height: west.height,
        squares,
        cities: west
            .cities
            .iter()
            .map(|c| tagged(west, c))
            .chain(east.cities.iter().map(|c| {
                LargeCity {
                    squares: c
                        .squares
                        .iter()
                        .map(|sq| CitySquare {
                            at: moved(sq.at),
                            ..sq.clone()
                        })
                        .collect(),
                    ..tagged(east, c)
                }
            }))
            .collect(),
        borders: west
            .borders
            .iter()
            .cloned()
            .chain(east.borders.iter().map(|b| BorderPiece {
                at: moved(b.at),
                ..b.clone()
            }))
            .collect(),
        ferries: west
            .ferries
            .iter()
            .cloned()
            .chain(east.ferries.iter().map(|f| FerryRoute {
                ends: f.ends.map(|(at, side)| (moved(at), side)),
                arms: f.arms,
            }))
            .collect(),
        island_arms: west
            .island_arms
            .iter()
            .copied()
            .chain(east.island_arms.iter().map(|&(at, n)| (moved(at), n)))
            .collect(),
        islands: west.islands + east.islands,
        join: None,
        starts: Vec::new(),
    };
    // Start squares in reading order of the joined grid.
    out.starts = (0..out.height)
        .flat_map(|row| (0..width).map(move |col| (col, row)))
        .filter(|&(col, row)| matches!(out.squares[row * width + col], Square::Start { .. }))
        .collect();
    Ok(out)
}
