//! What a checked map holds, for a transcriber to hold beside the printed board
//! (`carcassonne map check`): squares by kind, large cities with their squares and coats
//! of arms, printed border pieces, ferries, islands and what opens them, start squares.

use serde::Serialize;

use super::{MapDef, Square};
use crate::topology::SIDE_NAMES;

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MapSummary {
    pub name: String,
    pub title: String,
    /// What the layout is (built-in maps: an original layout), if the file says.
    pub original: Option<String>,
    pub width: usize,
    pub height: usize,
    /// Squares by kind: "ordinary", "small town", "start", "wave", "highlight", "island",
    /// "large city", "half", in that order, with their counts (kinds with none left out).
    pub squares: Vec<(String, usize)>,
    /// Squares a tile may ever stand on (island squares included).
    pub playable: usize,
    pub tiles: u32,
    pub cities: Vec<CitySummary>,
    pub borders: Vec<BorderSummary>,
    pub ferries: Vec<FerrySummary>,
    pub islands: Vec<IslandSummary>,
    /// Coats of arms printed on island squares: (column, row, count).
    pub island_arms: Vec<(usize, usize, u8)>,
    /// Start squares in file (reading) order, and how many a game uses by default.
    pub starts: Vec<(usize, usize)>,
    /// Whether each start square (in `starts` order) is a small town too.
    pub start_towns: Vec<bool>,
    pub start_squares: u32,
    /// The side holding the half squares for joining ("E" or "W"), if any.
    pub join: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CitySummary {
    pub letter: char,
    pub name: String,
    /// (column, row, edges N E S W, coats of arms) of each square.
    pub squares: Vec<(usize, usize, String, u8)>,
    pub arms: u32,
    /// Roads leaving the city: (column, row, side).
    pub roads: Vec<(usize, usize, String)>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct BorderSummary {
    pub at: (usize, usize),
    pub side: String,
    /// "road" or "city".
    pub piece: String,
    pub arms: u8,
    /// What the side faces: "outside", "wave" or "highlight".
    pub faces: String,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct FerrySummary {
    /// (column, row, side, what the side faces) of each end.
    pub ends: [(usize, usize, String, String); 2],
    pub arms: u8,
    /// What each end is on: "mainland" or "island N" (numbered from 1).
    pub joins: [String; 2],
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct IslandSummary {
    /// Numbered from 1 in reading order of the first square.
    pub number: usize,
    pub squares: usize,
    /// Coats of arms printed on its squares.
    pub arms: u32,
    /// The ferries reaching it (numbered from 1 in file order): any one linked opens it.
    pub ferries: Vec<usize>,
    /// Whether any of its squares touches a mainland square.
    pub beside_mainland: bool,
}

fn faces(map: &MapDef, at: (usize, usize), side: usize) -> String {
    match map.beside(at, side) {
        Square::Wave => "wave",
        Square::Highlight => "highlight",
        _ => "outside",
    }
    .into()
}

fn region(map: &MapDef, at: (usize, usize)) -> String {
    match map.square(at.0 as i64, at.1 as i64) {
        Square::Island(i) => format!("island {}", i as usize + 1),
        _ => "mainland".into(),
    }
}

/// The summary of a checked map.
pub fn summarize(map: &MapDef) -> MapSummary {
    let kinds = [
        "ordinary",
        "small town",
        "start",
        "wave",
        "highlight",
        "island",
        "large city",
        "half",
    ];
    let mut counts = [0usize; 8];
    for sq in &map.squares {
        let k = match sq {
            Square::None => continue,
            Square::Ordinary => 0,
            Square::Town => 1,
            Square::Start { .. } => 2,
            Square::Wave => 3,
            Square::Highlight => 4,
            Square::Island(_) => 5,
            Square::City(_) => 6,
            Square::Half => 7,
        };
        counts[k] += 1;
    }
    let squares = kinds
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| (k.to_string(), n))
        .collect();
    let cities = map
        .cities
        .iter()
        .map(|c| CitySummary {
            letter: c.letter,
            name: c.name.clone(),
            squares: c
                .squares
                .iter()
                .map(|s| {
                    (
                        s.at.0,
                        s.at.1,
                        s.edges.iter().map(|e| e.letter()).collect(),
                        s.arms,
                    )
                })
                .collect(),
            arms: c.squares.iter().map(|s| s.arms as u32).sum(),
            roads: c
                .squares
                .iter()
                .flat_map(|s| {
                    (0..4)
                        .filter(|side| s.edges[*side] == crate::topology::EdgeKind::Road)
                        .map(|side| (s.at.0, s.at.1, SIDE_NAMES[side].to_string()))
                })
                .collect(),
        })
        .collect();
    let borders = map
        .borders
        .iter()
        .map(|b| BorderSummary {
            at: b.at,
            side: SIDE_NAMES[b.side].into(),
            piece: if b.kind == crate::topology::EdgeKind::Road {
                "road"
            } else {
                "city"
            }
            .into(),
            arms: b.arms,
            faces: faces(map, b.at, b.side),
        })
        .collect();
    let ferries = map
        .ferries
        .iter()
        .map(|f| FerrySummary {
            ends: f.ends.map(|(at, side)| {
                (
                    at.0,
                    at.1,
                    SIDE_NAMES[side].to_string(),
                    faces(map, at, side),
                )
            }),
            arms: f.arms,
            joins: f.ends.map(|(at, _)| region(map, at)),
        })
        .collect();
    let mut islands: Vec<IslandSummary> = (0..map.islands)
        .map(|i| IslandSummary {
            number: i + 1,
            squares: 0,
            arms: 0,
            ferries: Vec::new(),
            beside_mainland: false,
        })
        .collect();
    for row in 0..map.height {
        for col in 0..map.width {
            if let Square::Island(i) = map.squares[row * map.width + col] {
                let island = &mut islands[i as usize];
                island.squares += 1;
                island.beside_mainland |= (0..4).any(|side| {
                    matches!(
                        map.beside((col, row), side),
                        Square::Ordinary | Square::Town | Square::Start { .. }
                    )
                });
            }
        }
    }
    for &(at, n) in &map.island_arms {
        if let Square::Island(i) = map.square(at.0 as i64, at.1 as i64) {
            islands[i as usize].arms += n as u32;
        }
    }
    for (k, f) in map.ferries.iter().enumerate() {
        for (at, _) in f.ends {
            if let Square::Island(i) = map.square(at.0 as i64, at.1 as i64)
                && !islands[i as usize].ferries.contains(&(k + 1))
            {
                islands[i as usize].ferries.push(k + 1);
            }
        }
    }
    MapSummary {
        name: map.name.clone(),
        title: map.title.clone(),
        original: map.original.clone(),
        width: map.width,
        height: map.height,
        squares,
        playable: map.playable_squares(),
        tiles: map.tiles,
        cities,
        borders,
        ferries,
        islands,
        island_arms: map
            .island_arms
            .iter()
            .map(|&((c, r), n)| (c, r, n))
            .collect(),
        starts: map.starts.clone(),
        start_towns: map
            .starts
            .iter()
            .map(|&(c, r)| map.square(c as i64, r as i64).small_town())
            .collect(),
        start_squares: map.start_squares,
        join: map.join.map(|s| SIDE_NAMES[s].to_string()),
    }
}
