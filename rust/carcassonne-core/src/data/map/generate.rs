//! Random valid maps for studies: whether a layout favours anyone is a question over many
//! maps, not one. `generate(seed, shape)` writes a map file in the format of `parse` (so it
//! can be read, changed and shared like a transcription) whose every square kind and
//! printed piece is drawn at random from the seed: a mainland grown square by square
//! (so its coast has bays and capes), large cities of 1 to 6 squares with walls, roads
//! and coats of arms, islands (some beside the mainland, M-13) reached by ferries, ferries
//! across the water between two coasts, printed border roads and cities on the coast
//! (several may face one outside square), waves, highlights, small towns and start
//! squares anywhere (the first one, where the start tile goes, where any tile fits at
//! some rotation, so the default start tile always fits). The same seed and shape give
//! the same file; the result is checked by the parser before it is returned.

use std::collections::HashSet;
use std::fmt::Write;

use super::{MAX_ARMS, MAX_MAP_SIDE, Square, check_map};
use crate::rng::Rng;
use crate::topology::{EdgeKind, SIDE_DELTA, SIDE_NAMES};

/// How many of each element a generated map has (each at most; the layout may leave less
/// room, e.g. for border pieces on a small coast).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapShape {
    /// Mainland squares (large-city squares included), 1 to `MAX_SQUARES`.
    pub squares: u32,
    /// Large cities (1 to 6 squares each), at most 25 (letters A-Z but S).
    pub large_cities: u32,
    /// Islands (1 to 4 squares each), each reached by one or two ferries.
    pub islands: u32,
    /// Ferries between two places on the mainland's coast, across the water.
    pub ferries: u32,
    /// Printed border roads and cities on the coast.
    pub border_pieces: u32,
    pub waves: u32,
    pub highlights: u32,
    pub towns: u32,
    /// Start squares on the map (at least 1); games use the first two by default.
    pub start_squares: u32,
}

/// Most mainland squares of a generated map: its grid stays within `MAX_MAP_SIDE`.
pub const MAX_SQUARES: u32 = 6_000;

impl Default for MapShape {
    /// About the size of a printed map (110-120 tiles).
    fn default() -> Self {
        MapShape {
            squares: 125,
            large_cities: 4,
            islands: 2,
            ferries: 1,
            border_pieces: 8,
            waves: 4,
            highlights: 2,
            towns: 6,
            start_squares: 3,
        }
    }
}

impl MapShape {
    /// The fault of a shape no map can have, naming the field and its range.
    pub fn check(&self) -> Result<(), String> {
        let limits: [(&str, u32, u32, u32); 9] = [
            ("squares", self.squares, 1, MAX_SQUARES),
            ("large_cities", self.large_cities, 0, 25),
            ("islands", self.islands, 0, 100),
            ("ferries", self.ferries, 0, 100),
            ("border_pieces", self.border_pieces, 0, 1_000),
            ("waves", self.waves, 0, 1_000),
            ("highlights", self.highlights, 0, 1_000),
            ("towns", self.towns, 0, 1_000),
            ("start_squares", self.start_squares, 1, 100),
        ];
        for (name, value, lo, hi) in limits {
            if !(lo..=hi).contains(&value) {
                return Err(format!("{name} must be between {lo} and {hi}, got {value}"));
            }
        }
        Ok(())
    }
}

/// A grid under construction: squares by (col, row), with the outside all round.
struct Layout {
    side: usize,
    squares: Vec<Square>,
    rng: Rng,
}

type At = (usize, usize);

impl Layout {
    fn get(&self, col: i64, row: i64) -> Square {
        if col < 0 || row < 0 || col as usize >= self.side || row as usize >= self.side {
            return Square::None;
        }
        self.squares[row as usize * self.side + col as usize]
    }

    fn set(&mut self, (col, row): At, sq: Square) {
        self.squares[row * self.side + col] = sq;
    }

    fn beside(&self, (col, row): At, side: usize) -> (i64, i64) {
        let (dx, dy) = SIDE_DELTA[side];
        (col as i64 + dx as i64, row as i64 + dy as i64)
    }

    fn at(&self, (col, row): At) -> Square {
        self.get(col as i64, row as i64)
    }

    /// Squares of the grid in reading order that satisfy `keep`.
    fn all(&self, keep: impl Fn(At, Square) -> bool) -> Vec<At> {
        (0..self.side * self.side)
            .map(|i| (i % self.side, i / self.side))
            .filter(|&at| keep(at, self.at(at)))
            .collect()
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.rng.below(items.len() as u32) as usize])
    }

    /// Whether (col, row) is at least `margin` squares from the grid's edge.
    fn inner(&self, (col, row): (i64, i64), margin: i64) -> bool {
        let s = self.side as i64;
        col >= margin && row >= margin && col < s - margin && row < s - margin
    }

    /// Grows an area of up to `size` squares from `start` over squares where `may` holds,
    /// marking each with `mark`; returns its squares.
    fn grow(
        &mut self,
        start: At,
        size: usize,
        mark: Square,
        may: impl Fn(&Layout, At) -> bool,
    ) -> Vec<At> {
        let mut area = vec![start];
        self.set(start, mark);
        let mut frontier: Vec<At> = Vec::new();
        let add_frontier = |l: &Layout, at: At, frontier: &mut Vec<At>| {
            for side in 0..4 {
                let (c, r) = l.beside(at, side);
                if c >= 0 && r >= 0 && may(l, (c as usize, r as usize)) {
                    frontier.push((c as usize, r as usize));
                }
            }
        };
        add_frontier(self, start, &mut frontier);
        while area.len() < size && !frontier.is_empty() {
            let k = self.rng.below(frontier.len() as u32) as usize;
            let at = frontier.swap_remove(k);
            if !may(self, at) {
                continue;
            }
            self.set(at, mark);
            area.push(at);
            add_frontier(self, at, &mut frontier);
        }
        area
    }
}

fn faces_highlight(l: &Layout, (at, side): (At, usize)) -> bool {
    let (x, y) = l.beside(at, side);
    l.get(x, y) == Square::Highlight
}

fn is_mainland(sq: Square) -> bool {
    matches!(sq, Square::Ordinary | Square::Town | Square::Start { .. })
}

/// What a side may face to hold a printed piece or ferry end (M-13).
fn open_water(sq: Square) -> bool {
    matches!(sq, Square::None | Square::Wave | Square::Highlight)
}

/// A random valid map file for `seed` and `shape`, or the fault of the shape.
pub fn generate(seed: u64, shape: &MapShape) -> Result<String, String> {
    shape.check()?;
    let side = (((shape.squares as f64) * 1.9).sqrt().ceil() as usize + 12).min(MAX_MAP_SIDE);
    let mut l = Layout {
        side,
        squares: vec![Square::None; side * side],
        rng: Rng::for_game(seed, 0x6d61_7073), // "maps"
    };
    // The mainland, grown from the centre, 3 squares clear of the grid's edge (room for
    // islands and the outside).
    let centre = (side / 2, side / 2);
    let land = l.grow(centre, shape.squares as usize, Square::Ordinary, |l, at| {
        l.at(at) == Square::None && l.inner((at.0 as i64, at.1 as i64), 4)
    });
    // Large cities: areas of 1 to 6 mainland squares, apart from each other.
    let mut cities: Vec<Vec<At>> = Vec::new();
    for c in 0..shape.large_cities as usize {
        let far_from_cities = |l: &Layout, at: At| {
            l.at(at) == Square::Ordinary
                && (0..4).all(|s| {
                    let (x, y) = l.beside(at, s);
                    !matches!(l.get(x, y), Square::City(_))
                })
        };
        let candidates: Vec<At> = land
            .iter()
            .copied()
            .filter(|&at| far_from_cities(&l, at))
            .collect();
        let Some(start) = l.pick(&candidates) else {
            break;
        };
        let size = 1 + l.rng.below(6) as usize;
        let id = Square::City(c as u8);
        let area = l.grow(start, size, id, move |l, at| {
            l.at(at) == Square::Ordinary
                && (0..4).all(|s| {
                    let (x, y) = l.beside(at, s);
                    !matches!(l.get(x, y), Square::City(k) if Square::City(k) != id)
                })
        });
        cities.push(area);
    }
    // Waves on the coast, outside the mainland.
    let coast_water = |l: &Layout| {
        l.all(|at, sq| {
            sq == Square::None
                && (0..4).any(|s| {
                    let (x, y) = l.beside(at, s);
                    is_mainland(l.get(x, y))
                })
        })
    };
    let mut water = coast_water(&l);
    l.rng.shuffle(&mut water);
    for &at in water.iter().take(shape.waves as usize) {
        l.set(at, Square::Wave);
    }
    // Islands: 1 to 4 squares out at sea, 1 to 3 squares off the coast (so some touch
    // the mainland).
    let mut islands: Vec<Vec<At>> = Vec::new();
    for _ in 0..shape.islands {
        let water = l.all(|at, sq| {
            sq == Square::None
                && l.inner((at.0 as i64, at.1 as i64), 1)
                && (0..4).all(|s| {
                    let (x, y) = l.beside(at, s);
                    l.get(x, y) != Square::Island(0)
                })
        });
        let near: Vec<At> = water
            .iter()
            .copied()
            .filter(|&(c, r)| {
                let d = 1 + l.rng.below(3) as i64;
                (-d..=d)
                    .any(|dx| (-d..=d).any(|dy| is_mainland(l.get(c as i64 + dx, r as i64 + dy))))
            })
            .collect();
        let Some(start) = l.pick(&near) else { break };
        let size = 1 + l.rng.below(4) as usize;
        let area = l.grow(start, size, Square::Island(0), |l, at| {
            l.at(at) == Square::None && l.inner((at.0 as i64, at.1 as i64), 1)
        });
        islands.push(area);
    }
    // Highlights inside the mainland, away from the large cities.
    let mut inland = l.all(|at, sq| {
        sq == Square::Ordinary
            && (0..4).all(|s| {
                let (x, y) = l.beside(at, s);
                matches!(l.get(x, y), Square::Ordinary | Square::Town)
            })
    });
    l.rng.shuffle(&mut inland);
    for &at in inland.iter().take(shape.highlights as usize) {
        l.set(at, Square::Highlight);
    }
    // Sides that may hold a printed piece: a square that takes tiles, facing water.
    let mut used: HashSet<(At, usize)> = HashSet::new();
    let free_sides = |l: &Layout,
                      used: &HashSet<(At, usize)>,
                      of: &dyn Fn(Square) -> bool|
     -> Vec<(At, usize)> {
        l.all(|_, sq| of(sq))
            .into_iter()
            .flat_map(|at| (0..4).map(move |s| (at, s)))
            .filter(|&(at, s)| {
                let (x, y) = l.beside(at, s);
                open_water(l.get(x, y)) && !used.contains(&(at, s))
            })
            .collect()
    };
    // Ferries: each island from the nearest of a few mainland coast sides; then routes
    // between two coasts of the mainland.
    let mut ferries: Vec<[(At, usize); 2]> = Vec::new();
    let dist = |a: At, b: At| a.0.abs_diff(b.0) + a.1.abs_diff(b.1);
    for island in &islands {
        let ends = free_sides(&l, &used, &|sq| matches!(sq, Square::Island(_)));
        let ends: Vec<_> = ends
            .into_iter()
            .filter(|(at, _)| island.contains(at))
            .collect();
        let coast = free_sides(&l, &used, &is_mainland);
        // Ferries cross water: their ends face the outside or a wave, not a highlight.
        let ends: Vec<_> = ends
            .into_iter()
            .filter(|e| !faces_highlight(&l, *e))
            .collect();
        let coast: Vec<_> = coast
            .into_iter()
            .filter(|e| !faces_highlight(&l, *e))
            .collect();
        let routes = 1 + l.rng.below(2);
        for _ in 0..routes {
            let Some(end) = l.pick(&ends) else { break };
            if used.contains(&end) {
                continue;
            }
            let mut best: Option<(At, usize)> = None;
            for _ in 0..12 {
                if let Some(c) = l.pick(&coast)
                    && !used.contains(&c)
                    && best.is_none_or(|b| dist(c.0, end.0) < dist(b.0, end.0))
                {
                    best = Some(c);
                }
            }
            let Some(from) = best else { break };
            used.insert(from);
            used.insert(end);
            ferries.push([from, end]);
        }
    }
    // An island no ferry reaches could never take a tile: it goes back to sea.
    for island in &islands {
        if !ferries
            .iter()
            .any(|f| f.iter().any(|(at, _)| island.contains(at)))
        {
            for &at in island {
                l.set(at, Square::None);
            }
        }
    }
    islands.retain(|island| l.at(island[0]) != Square::None);
    let coast: Vec<_> = free_sides(&l, &used, &is_mainland)
        .into_iter()
        .filter(|e| !faces_highlight(&l, *e))
        .collect();
    for _ in 0..shape.ferries {
        let Some(a) = l.pick(&coast) else { break };
        if used.contains(&a) {
            continue;
        }
        // The other end: a coast side 2 to 8 squares away, across the water.
        let others: Vec<_> = coast
            .iter()
            .copied()
            .filter(|b| b.0 != a.0 && (2..=8).contains(&dist(a.0, b.0)) && !used.contains(b))
            .collect();
        let Some(b) = l.pick(&others) else { continue };
        used.insert(a);
        used.insert(b);
        ferries.push([a, b]);
    }
    // Printed border roads and cities on the coast (mainland and islands).
    let mut borders: Vec<((At, usize), EdgeKind, u8)> = Vec::new();
    let mut sides = free_sides(&l, &used, &|sq| sq.takes_tiles());
    l.rng.shuffle(&mut sides);
    for &s in sides.iter().take(shape.border_pieces as usize) {
        used.insert(s);
        let kind = if l.rng.below(5) < 3 {
            EdgeKind::Road
        } else {
            EdgeKind::City
        };
        let arms = [0, 0, 0, 1, 1, 2][l.rng.below(6) as usize];
        borders.push((s, kind, arms));
    }
    // The large cities' edges: C towards their own squares; outwards mostly walls, some
    // roads, some city continuing into the next square; coats of arms on some squares.
    let mut city_squares: Vec<Vec<(At, [EdgeKind; 4], u8)>> = Vec::new();
    for (c, area) in cities.iter().enumerate() {
        let mut out = Vec::new();
        for &at in area {
            let mut edges = [EdgeKind::Field; 4];
            for (s, edge) in edges.iter_mut().enumerate() {
                let (x, y) = l.beside(at, s);
                *edge = if l.get(x, y) == Square::City(c as u8) {
                    EdgeKind::City
                } else {
                    match l.rng.below(20) {
                        0..=11 => EdgeKind::Field,
                        12..=16 => EdgeKind::Road,
                        _ => EdgeKind::City,
                    }
                };
            }
            if !edges.contains(&EdgeKind::City) {
                edges[l.rng.below(4) as usize] = EdgeKind::City;
            }
            let arms = [0, 0, 0, 1, 1, 2][l.rng.below(6) as usize].min(MAX_ARMS);
            out.push((at, edges, arms));
        }
        city_squares.push(out);
    }
    // What the map prints around a square, per side (the start tile must fit the first
    // start square at some rotation).
    let printed = |at: At| -> [Option<EdgeKind>; 4] {
        let mut want = [None; 4];
        for (s, w) in want.iter_mut().enumerate() {
            if let Some((_, kind, _)) = borders.iter().find(|(p, _, _)| *p == (at, s)) {
                *w = Some(*kind);
            } else if ferries.iter().any(|f| f.contains(&(at, s))) {
                *w = Some(EdgeKind::Road);
            } else {
                let (x, y) = l.beside(at, s);
                if let Square::City(c) = l.get(x, y) {
                    *w = city_squares[c as usize]
                        .iter()
                        .find(|(p, _, _)| (p.0 as i64, p.1 as i64) == (x, y))
                        .map(|(_, e, _)| e[(s + 2) % 4]);
                }
            }
        }
        want
    };
    // D, the base start tile: city N, road E, field S, road W.
    let start_tile = [
        EdgeKind::City,
        EdgeKind::Road,
        EdgeKind::Field,
        EdgeKind::Road,
    ];
    let takes_start_tile: Vec<At> = l
        .all(|_, sq| sq == Square::Ordinary)
        .into_iter()
        .filter(|&at| {
            let want = printed(at);
            (0..4).any(|r| (0..4).all(|s| want[s].is_none_or(|w| start_tile[(s + 4 - r) % 4] == w)))
        })
        .collect();
    // Start squares anywhere on the mainland; the first in reading order must take the
    // start tile.
    let mut starts: Vec<At> = Vec::new();
    for k in 0..shape.start_squares {
        let candidates = l.all(|at, sq| {
            sq == Square::Ordinary
                && (k > 0
                    || takes_start_tile
                        .binary_search_by_key(&(at.1, at.0), |p| (p.1, p.0))
                        .is_ok())
        });
        // The first start square must stay first in reading order: later ones come after.
        let candidates: Vec<At> = candidates
            .into_iter()
            .filter(|&(c, r)| starts.first().is_none_or(|&(c0, r0)| (r, c) > (r0, c0)))
            .collect();
        let Some(at) = l.pick(&candidates) else { break };
        l.set(at, Square::Start { town: true });
        starts.push(at);
    }
    if starts.is_empty() {
        return Err(
            "the mainland has no square where the start tile fits: try another seed or shape"
                .into(),
        );
    }
    let mut ordinary = l.all(|_, sq| sq == Square::Ordinary);
    l.rng.shuffle(&mut ordinary);
    for &at in ordinary.iter().take(shape.towns as usize) {
        l.set(at, Square::Town);
    }
    // Coats of arms on some island squares.
    let mut island_arms: Vec<(At, u8)> = Vec::new();
    for area in &islands {
        for &at in area {
            if l.rng.below(10) < 3 {
                island_arms.push((at, 1 + l.rng.below(2) as u8));
            }
        }
    }
    // The file.
    let letters: Vec<char> = ('A'..='Z').filter(|c| *c != 'S').collect();
    let playable = l.squares.iter().filter(|s| s.takes_tiles()).count() as u32;
    let mut text = String::new();
    let shape_text = format!(
        "squares={}, large_cities={}, islands={}, ferries={}, border_pieces={}, waves={}, highlights={}, towns={}, start_squares={}",
        shape.squares,
        shape.large_cities,
        shape.islands,
        shape.ferries,
        shape.border_pieces,
        shape.waves,
        shape.highlights,
        shape.towns,
        shape.start_squares
    );
    let _ = writeln!(
        text,
        "# A random layout from carcassonne.maps.generate(seed={seed}, {shape_text}).\n# Not a printed Carcassonne map. The format is described in the README (\"Map files\")."
    );
    let _ = writeln!(text, "name = \"generated-{seed}\"");
    let _ = writeln!(text, "title = \"Generated map {seed}\"");
    let _ = writeln!(
        text,
        "original = \"A random layout generated for studies (seed {seed}); not a transcription of any printed Carcassonne map.\""
    );
    let _ = writeln!(text, "tiles = {}", playable.min(114));
    let _ = writeln!(text, "start_squares = {}", starts.len().min(2));
    let _ = writeln!(text, "grid = '''");
    for row in 0..side {
        let line: String = (0..side)
            .map(|col| l.at((col, row)).symbol(|c| letters[c as usize]))
            .collect();
        let _ = writeln!(text, "{line}");
    }
    let _ = writeln!(text, "'''");
    for (c, squares) in city_squares.iter().enumerate() {
        let _ = writeln!(text, "\n[cities.{}]", letters[c]);
        let _ = writeln!(text, "name = \"City {}\"", letters[c]);
        let _ = writeln!(text, "squares = [");
        for ((col, row), edges, arms) in squares {
            let e: String = edges.iter().map(|e| e.letter()).collect();
            let _ = writeln!(
                text,
                "  {{ at = [{col}, {row}], edges = \"{e}\", arms = {arms} }},"
            );
        }
        let _ = writeln!(text, "]");
    }
    for (((col, row), s), kind, arms) in &borders {
        let piece = if *kind == EdgeKind::Road {
            "road"
        } else {
            "city"
        };
        let _ = writeln!(
            text,
            "\n[[border]]\nat = [{col}, {row}]\nside = \"{}\"\npiece = \"{piece}\"\narms = {arms}",
            SIDE_NAMES[*s]
        );
    }
    for [((c1, r1), s1), ((c2, r2), s2)] in &ferries {
        let arms = [0, 0, 1][l.rng.below(3) as usize];
        let _ = writeln!(
            text,
            "\n[[ferries]]\nfrom = [{c1}, {r1}, \"{}\"]\nto = [{c2}, {r2}, \"{}\"]\narms = {arms}",
            SIDE_NAMES[*s1], SIDE_NAMES[*s2]
        );
    }
    for ((col, row), count) in &island_arms {
        let _ = writeln!(text, "\n[[arms]]\nat = [{col}, {row}]\ncount = {count}");
    }
    // The generator's own check: every map it writes must load.
    if let Err(faults) = check_map(&text) {
        let shown: Vec<String> = faults.iter().take(5).map(|f| f.to_string()).collect();
        return Err(format!(
            "the generated map is not valid (an engine fault; please report seed {seed} and the shape): {}",
            shown.join("; ")
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_maps_load_with_every_element() {
        let shape = MapShape::default();
        let mut seen_shared = false;
        for seed in 0..40 {
            let text = generate(seed, &shape).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert_eq!(
                text,
                generate(seed, &shape).unwrap(),
                "seed {seed}: not deterministic"
            );
            let map = check_map(&text).unwrap();
            assert!(!map.starts.is_empty());
            assert!(map.cities.len() <= 4 && !map.cities.is_empty());
            // Two printed pieces or ferry ends facing one outside square: a bay.
            let mut outside: Vec<(i64, i64)> = map
                .borders
                .iter()
                .map(|b| (b.at, b.side))
                .chain(map.ferries.iter().flat_map(|f| f.ends))
                .map(|(at, s)| {
                    let (dx, dy) = SIDE_DELTA[s];
                    (at.0 as i64 + dx as i64, at.1 as i64 + dy as i64)
                })
                .collect();
            let n = outside.len();
            outside.sort_unstable();
            outside.dedup();
            seen_shared |= outside.len() < n;
        }
        assert!(
            seen_shared,
            "no generated map had two pieces facing one outside square"
        );
    }

    #[test]
    fn every_shape_gives_a_map_that_loads() {
        for seed in 0..300u64 {
            let k = seed as u32;
            let shape = MapShape {
                squares: 1 + (k * 37) % 400,
                large_cities: k % 9,
                islands: k % 7,
                ferries: k % 4,
                border_pieces: (k * 7) % 40,
                waves: k % 11,
                highlights: k % 5,
                towns: k % 13,
                start_squares: 1 + k % 5,
            };
            match generate(seed, &shape) {
                Ok(text) => {
                    check_map(&text).unwrap();
                }
                // Only a mainland left with no square for the start tile may fail.
                Err(e) => assert!(
                    e.contains("no square where the start tile fits"),
                    "seed {seed}: {e}"
                ),
            }
        }
    }

    #[test]
    fn impossible_shapes_are_refused() {
        let e = generate(
            1,
            &MapShape {
                squares: 0,
                ..MapShape::default()
            },
        )
        .unwrap_err();
        assert!(e.contains("squares must be between 1"), "{e}");
        let e = generate(
            1,
            &MapShape {
                large_cities: 26,
                ..MapShape::default()
            },
        )
        .unwrap_err();
        assert!(e.contains("large_cities"), "{e}");
        // The largest shape fits the grid.
        let big = MapShape {
            squares: MAX_SQUARES,
            ..MapShape::default()
        };
        generate(3, &big).unwrap();
        // A single square.
        let tiny = MapShape {
            squares: 1,
            large_cities: 0,
            islands: 0,
            ferries: 0,
            border_pieces: 0,
            waves: 0,
            highlights: 0,
            towns: 0,
            start_squares: 1,
        };
        generate(3, &tiny).unwrap();
    }
}
