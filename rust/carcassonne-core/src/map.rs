//! Carcassonne Maps: the map file format, its checks, and the tables a map board reads.
//!
//! A map is a TOML data file (read by the one loader in `data`) whose `grid` is a
//! literal multi-line string, one character per square, rows top to bottom:
//!
//! | symbol | square |
//! |---|---|
//! | `.` | no square: outside the map (or sea) |
//! | `o` | an ordinary square |
//! | `t` | a small town (an ordinary square; the small-town variants look at it) |
//! | `S` | a start square (a small town with a red or brown border) |
//! | `~` | a wave square: takes no tile, closes the features facing it (M-9) |
//! | `^` | a Nordic-style highlight: takes no tile, closes the features facing it |
//! | `A`-`Z` except `S` | a square of the large city with that letter (see `[cities]`) |
//! | `i` | an island square: takes a tile once its island is linked by a ferry (M-10) |
//!
//! | `h` | a half square on the edge where two maps join (`join = "E"` or `"W"`): not a
//! square on one map; on two joined maps, the two halves make one ordinary square |
//!
//! The legend: `[cities.X]` names large city X and lists every one of its squares with
//! the edges it shows (N E S W: `C` city, `R` road, `F` field; sides towards another
//! square of the same city must be `C`) and its coats of arms; `[[border]]` lists the
//! printed road and city pieces on the map's border (a square on the edge, the side, the
//! piece and its coats of arms). Every other border side is neutral. `[[ferries]]` lists
//! the printed ferry connections: two border sides (`from`, `to`: `[column, row, side]`)
//! joined by a route with its coats of arms; `[[arms]]` the coats of arms printed on
//! island squares. Coordinates are `[column, row]`, counted from 0 at the top left.
//!
//! How the engine plays a map (DECISIONS M-5..M-9): each large-city square and each
//! printed border piece becomes a printed tile, placed before the first turn, whose
//! segments enter the same union-find as the tiles' own: completion, majorities and
//! scoring stay one code path, and a printed piece counts as one tile of its feature.
//! Coats of arms are pennants (2 each on a completed road or city, 1 at the end). A ferry
//! connection is one printed road piece standing at both of its ends (the board's cells
//! beyond both border sides name the same piece): a road reaching one end continues at the
//! other, and the connection counts as one piece.

use std::collections::{HashMap, HashSet};

use serde::Deserialize;
use toml::Spanned;

use crate::data::{DataError, DataKind, decode};
use crate::quote::{line_column, quote};
use crate::topology::{EdgeKind, SIDE_DELTA, SIDE_NAMES, parse_side};

/// Largest map side, in squares: far above any printed map (two joined USA maps are
/// about 30 squares wide), and it keeps the board's tables small.
pub const MAX_MAP_SIDE: usize = 128;
/// Most coats of arms on one printed square or piece.
pub const MAX_ARMS: u8 = 9;

/// What a square of the grid is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    /// Not a square: outside the map.
    None,
    Ordinary,
    Town,
    Start,
    Wave,
    Highlight,
    /// A square of large city `i` (index into `MapDef::cities`).
    City(u8),
    /// A square of island `i` (islands are the orthogonally connected groups of `i`
    /// squares, numbered in reading order of their first square).
    Island(u8),
    /// Half a square on the joining edge: no square until two maps are joined, and like
    /// the outside (a neutral border) meanwhile.
    Half,
}

impl Square {
    /// Whether a tile may ever stand here.
    pub fn playable(self) -> bool {
        matches!(self, Square::Ordinary | Square::Town | Square::Start)
    }

    /// Whether a monastery counts this square among its neighbours (M-9: squares that take
    /// a tile, now or once linked, and printed large-city squares; never waves, highlights
    /// or the outside).
    pub fn in_ring(self) -> bool {
        self.playable() || matches!(self, Square::City(_) | Square::Island(_))
    }

    /// A square that takes a tile now or once its island is linked.
    pub fn takes_tiles(self) -> bool {
        self.playable() || matches!(self, Square::Island(_))
    }
}

/// One square of a large city.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CitySquare {
    pub at: (usize, usize),
    pub edges: [EdgeKind; 4],
    pub arms: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LargeCity {
    pub letter: char,
    /// How its pieces' tile ids name it: the letter, or on joined maps "<map>.<letter>".
    pub tag: String,
    pub name: String,
    pub squares: Vec<CitySquare>,
}

/// A road or city printed on one border side of a square at the map's edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BorderPiece {
    pub at: (usize, usize),
    pub side: usize,
    pub kind: EdgeKind,
    pub arms: u8,
}

/// A printed ferry connection between two border sides (M-10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FerryRoute {
    /// `(square, side)` of each end.
    pub ends: [((usize, usize), usize); 2],
    pub arms: u8,
}

/// A checked map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapDef {
    pub name: String,
    pub title: String,
    /// What the map is: the built-in maps say they are original layouts (M-1, M-2).
    pub original: Option<String>,
    /// Recommended tiles in a game (start tiles included).
    pub tiles: u32,
    /// Start squares used by default.
    pub start_squares: u32,
    pub width: usize,
    pub height: usize,
    /// Row-major, `width * height`.
    pub squares: Vec<Square>,
    pub cities: Vec<LargeCity>,
    pub borders: Vec<BorderPiece>,
    pub ferries: Vec<FerryRoute>,
    /// Coats of arms on island squares: `(square, count)`; a tile placed there scores 2
    /// per coat of arms at once (M-5).
    pub island_arms: Vec<((usize, usize), u8)>,
    /// Number of islands.
    pub islands: usize,
    /// The side whose column holds this map's half squares (E or W), for joining.
    pub join: Option<usize>,
    /// The start squares, in reading order.
    pub starts: Vec<(usize, usize)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    original: Option<String>,
    tiles: u32,
    start_squares: u32,
    grid: Spanned<String>,
    #[serde(default)]
    cities: std::collections::BTreeMap<String, Spanned<RawCity>>,
    #[serde(default)]
    border: Vec<Spanned<RawBorder>>,
    #[serde(default)]
    ferries: Vec<Spanned<RawFerry>>,
    #[serde(default)]
    arms: Vec<Spanned<RawArms>>,
    #[serde(default)]
    join: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFerry {
    from: (i64, i64, String),
    to: (i64, i64, String),
    #[serde(default)]
    arms: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArms {
    at: [i64; 2],
    count: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCity {
    name: String,
    squares: Vec<RawCitySquare>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCitySquare {
    at: [i64; 2],
    edges: String,
    #[serde(default)]
    arms: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBorder {
    at: [i64; 2],
    side: String,
    piece: String,
    #[serde(default)]
    arms: u8,
}

impl MapDef {
    /// Whether side `side` of square `at` may hold a printed piece or ferry end: it faces
    /// off the map, a wave or a highlight (M-13); the fault otherwise (`what` names it).
    fn piece_side(&self, at: (usize, usize), side: usize, what: &str) -> Result<(), String> {
        let (dx, dy) = SIDE_DELTA[side];
        let (col, row) = (at.0 as i64 + dx as i64, at.1 as i64 + dy as i64);
        match self.square(col, row) {
            Square::None | Square::Wave | Square::Highlight => Ok(()),
            Square::Half => Err(format!(
                "side {} of [{}, {}] faces a half square, which becomes a square when two maps join; {what} belongs to a side facing off the map, a wave or a highlight",
                SIDE_NAMES[side], at.0, at.1
            )),
            _ => Err(format!(
                "side {} of [{}, {}] faces square [{col}, {row}], not the outside; {what} belongs to a side facing off the map, a wave or a highlight",
                SIDE_NAMES[side], at.0, at.1
            )),
        }
    }

    /// While islands are numbered: whether the island square at (col, row) has its number.
    fn islands_seen(&self, col: usize, row: usize) -> bool {
        !matches!(self.squares[row * self.width + col], Square::Island(0))
    }

    pub fn square(&self, col: i64, row: i64) -> Square {
        if col < 0 || row < 0 || col as usize >= self.width || row as usize >= self.height {
            return Square::None;
        }
        self.squares[row as usize * self.width + col as usize]
    }

    /// The square across `side` of (col, row).
    pub fn beside(&self, (col, row): (usize, usize), side: usize) -> Square {
        let (dx, dy) = SIDE_DELTA[side];
        self.square(col as i64 + dx as i64, row as i64 + dy as i64)
    }

    /// The grid's rows in the file's symbols (joined half squares shown as `o`).
    pub fn grid_rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|row| {
                (0..self.width)
                    .map(|col| match self.squares[row * self.width + col] {
                        Square::None => '.',
                        Square::Ordinary => 'o',
                        Square::Town => 't',
                        Square::Start => 'S',
                        Square::Wave => '~',
                        Square::Highlight => '^',
                        Square::City(i) => self.cities[i as usize].letter,
                        Square::Island(_) => 'i',
                        Square::Half => 'h',
                    })
                    .collect()
            })
            .collect()
    }

    /// What the map itself prints around square `at`, per side: the printed border piece
    /// or ferry end on that side (a ferry shows a road), or the edge of the large-city
    /// square across; None where a tile may show anything (M-12: a start square's tile
    /// obeys these like any tile).
    pub fn printed_demand(&self, at: (usize, usize)) -> [Option<EdgeKind>; 4] {
        let mut out = [None; 4];
        for (side, want) in out.iter_mut().enumerate() {
            if let Some(b) = self.borders.iter().find(|b| (b.at, b.side) == (at, side)) {
                *want = Some(b.kind);
            } else if self.ferries.iter().any(|f| f.ends.contains(&(at, side))) {
                *want = Some(EdgeKind::Road);
            } else if let Square::City(i) = self.beside(at, side) {
                let (dx, dy) = SIDE_DELTA[side];
                let across = (
                    (at.0 as i64 + dx as i64) as usize,
                    (at.1 as i64 + dy as i64) as usize,
                );
                *want = self.cities[i as usize]
                    .squares
                    .iter()
                    .find(|sq| sq.at == across)
                    .map(|sq| sq.edges[(side + 2) % 4]);
            }
        }
        out
    }

    /// Squares a tile may ever stand on (island squares included).
    pub fn playable_squares(&self) -> usize {
        self.squares.iter().filter(|s| s.takes_tiles()).count()
    }
}

/// Parses and checks a map file. `file` names the source in error messages.
pub fn parse_map(text: &str, file: &str) -> Result<MapDef, DataError> {
    let err = DataError::maker(file, DataKind::Map);
    let fail = |fault: String| err(None, fault);
    let raw: RawMap = decode(text, DataKind::Map).map_err(fail)?;
    if raw.name.is_empty() || raw.name.contains(['/', '+']) {
        return Err(fail(format!(
            "map name {} must be non-empty and contain no '/' or '+'",
            quote(&raw.name)
        )));
    }
    // Where a grid character is in the file, for messages: a literal string (''') is
    // the file's own text, so its offset is found by searching for its first line.
    let grid_text = raw.grid.get_ref();
    let span = raw.grid.span();
    let body_start = text
        .get(span.start..span.end)
        .and_then(|s| s.find(grid_text.lines().next().unwrap_or("")))
        .map(|i| span.start + i)
        .filter(|&i| text[i..].starts_with(grid_text.as_str()));
    let at = |row: usize, col: usize| -> String {
        match body_start {
            Some(start) => {
                let offset: usize = grid_text
                    .split('\n')
                    .take(row)
                    .map(|l| l.len() + 1)
                    .sum::<usize>()
                    + grid_text
                        .split('\n')
                        .nth(row)
                        .map_or(0, |l| l.char_indices().nth(col).map_or(l.len(), |(i, _)| i));
                let (line, column) = line_column(text, start + offset);
                format!("line {line}, column {column} (square [{col}, {row}])")
            }
            None => format!("grid row {row}, column {col}"),
        }
    };
    let item_line = |offset: usize| line_column(text, offset).0;
    let rows: Vec<&str> = grid_text
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .collect();
    let height = rows.len();
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    if height == 0 || width == 0 {
        return Err(fail("the grid has no squares".into()));
    }
    if width > MAX_MAP_SIDE || height > MAX_MAP_SIDE {
        return Err(fail(format!(
            "the grid is {width} x {height} squares; at most {MAX_MAP_SIDE} x {MAX_MAP_SIDE}"
        )));
    }
    // City letters in the legend, in letter order: index = position.
    let mut letters: Vec<char> = Vec::new();
    for key in raw.cities.keys() {
        let mut chars = key.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() && c != 'S' => letters.push(c),
            _ => {
                return Err(fail(format!(
                    "large city {} must be named by one capital letter other than S",
                    quote(key)
                )));
            }
        }
    }
    let mut squares = vec![Square::None; width * height];
    let mut starts = Vec::new();
    // The grid's rows were filtered for blank lines: count the row in the file's own terms.
    let file_rows: Vec<usize> = grid_text
        .split('\n')
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, _)| i)
        .collect();
    for (row, line) in rows.iter().enumerate() {
        for (col, c) in line.chars().enumerate() {
            squares[row * width + col] = match c {
                '.' | ' ' => Square::None,
                'o' => Square::Ordinary,
                't' => Square::Town,
                'S' => {
                    starts.push((col, row));
                    Square::Start
                }
                '~' => Square::Wave,
                '^' => Square::Highlight,
                'i' => Square::Island(0),
                'h' => Square::Half,
                c if c.is_ascii_uppercase() => match letters.iter().position(|l| *l == c) {
                    Some(i) => Square::City(i as u8),
                    None => {
                        return Err(fail(format!(
                            "{}: large city {c} has no [cities.{c}] entry",
                            at(file_rows[row], col)
                        )));
                    }
                },
                other => {
                    return Err(fail(format!(
                        "{}: unknown symbol {} (use . o t S ~ ^ or a city letter)",
                        at(file_rows[row], col),
                        quote(&other.to_string())
                    )));
                }
            };
        }
    }
    let mut map = MapDef {
        name: raw.name.clone(),
        title: raw.title.clone(),
        original: raw.original.clone(),
        tiles: raw.tiles,
        start_squares: raw.start_squares,
        width,
        height,
        squares,
        cities: Vec::new(),
        borders: Vec::new(),
        ferries: Vec::new(),
        island_arms: Vec::new(),
        islands: 0,
        join: None,
        starts,
    };
    if let Some(side) = &raw.join {
        map.join = match side.as_str() {
            "E" => Some(1),
            "W" => Some(3),
            other => {
                return Err(fail(format!(
                    "join = {} must be \"E\" or \"W\" (the side whose column holds the half squares)",
                    quote(other)
                )));
            }
        };
    }
    let join_column = map.join.map(|side| if side == 1 { width - 1 } else { 0 });
    for row in 0..height {
        for col in 0..width {
            if map.squares[row * width + col] == Square::Half && join_column != Some(col) {
                return Err(fail(format!(
                    "{}: a half square away from the joining edge (set join = \"E\" or \"W\" and put half squares in that column)",
                    at(file_rows[row], col)
                )));
            }
        }
    }
    if let Some(col) = join_column
        && (0..height).all(|row| map.squares[row * width + col] != Square::Half)
    {
        return Err(fail(
            "join is set but the joining column has no half square (h)".into(),
        ));
    }
    // Number the islands: orthogonally connected groups of island squares.
    for row in 0..height {
        for col in 0..width {
            if map.squares[row * width + col] != Square::Island(0) || map.islands_seen(col, row) {
                continue;
            }
            if map.islands >= u8::MAX as usize {
                return Err(fail(format!("more than {} islands", u8::MAX - 1)));
            }
            let id = map.islands as u8 + 1;
            let mut stack = vec![(col, row)];
            map.squares[row * width + col] = Square::Island(id);
            while let Some((c, r)) = stack.pop() {
                for side in 0..4 {
                    let (dx, dy) = SIDE_DELTA[side];
                    let (nc, nr) = (c as i64 + dx as i64, r as i64 + dy as i64);
                    if map.square(nc, nr) == Square::Island(0) {
                        map.squares[nr as usize * width + nc as usize] = Square::Island(id);
                        stack.push((nc as usize, nr as usize));
                    }
                }
            }
            map.islands += 1;
        }
    }
    // Islands are numbered from 1 while grouping (0 marks a square not yet grouped): shift.
    for sq in &mut map.squares {
        if let Square::Island(i) = sq {
            *i -= 1;
        }
    }
    let square_at = |at: [i64; 2], what: &str| -> Result<(usize, usize), String> {
        if at[0] < 0 || at[1] < 0 || at[0] as usize >= width || at[1] as usize >= height {
            return Err(format!(
                "{what} at [{}, {}] is off the map ({width} x {height} squares)",
                at[0], at[1]
            ));
        }
        Ok((at[0] as usize, at[1] as usize))
    };
    for (key, city) in &raw.cities {
        let letter = key.chars().next().unwrap_or('?');
        let index = map.cities.len() as u8;
        let line = item_line(city.span().start);
        let city = city.get_ref();
        let cerr = |fault: String| err(Some(&format!("city {letter} (line {line})")), fault);
        let mut listed = HashSet::new();
        let mut out = Vec::new();
        for sq in &city.squares {
            let at = square_at(sq.at, "a square").map_err(cerr)?;
            if map.square(at.0 as i64, at.1 as i64) != Square::City(index) {
                return Err(cerr(format!(
                    "square [{}, {}] is not marked {letter} in the grid",
                    at.0, at.1
                )));
            }
            if !listed.insert(at) {
                return Err(cerr(format!("square [{}, {}] is listed twice", at.0, at.1)));
            }
            let edges = parse_edges(&sq.edges).map_err(cerr)?;
            if !edges.contains(&EdgeKind::City) {
                return Err(cerr(format!(
                    "square [{}, {}] shows no city edge",
                    at.0, at.1
                )));
            }
            if sq.arms > MAX_ARMS {
                return Err(cerr(format!(
                    "at most {MAX_ARMS} coats of arms on a square"
                )));
            }
            out.push(CitySquare {
                at,
                edges,
                arms: sq.arms,
            });
        }
        let in_grid = map
            .squares
            .iter()
            .filter(|s| **s == Square::City(index))
            .count();
        if in_grid != out.len() {
            return Err(cerr(format!(
                "the grid has {in_grid} squares marked {letter}, the legend lists {}",
                out.len()
            )));
        }
        // Squares of one city agree where they touch, and form one piece.
        for sq in &out {
            for side in 0..4 {
                if map.beside(sq.at, side) != Square::City(index) {
                    continue;
                }
                if sq.edges[side] != EdgeKind::City {
                    return Err(cerr(format!(
                        "square [{}, {}] shows {} on side {} towards another square of the city (the squares disagree)",
                        sq.at.0,
                        sq.at.1,
                        sq.edges[side].letter(),
                        SIDE_NAMES[side]
                    )));
                }
            }
        }
        if !connected(&out.iter().map(|s| s.at).collect::<Vec<_>>()) {
            return Err(cerr(
                "its squares do not form one orthogonally connected area".into(),
            ));
        }
        map.cities.push(LargeCity {
            letter,
            tag: letter.to_string(),
            name: city.name.clone(),
            squares: out,
        });
    }
    // Which piece holds each (square, side): one per side (M-13).
    let mut sides_used: HashMap<((usize, usize), usize), String> = HashMap::new();
    for (i, b) in raw.border.iter().enumerate() {
        let line = item_line(b.span().start);
        let b = b.get_ref();
        let berr = |fault: String| {
            err(
                Some(&format!("border piece {} (line {line})", i + 1)),
                fault,
            )
        };
        let at = square_at(b.at, "a border piece").map_err(berr)?;
        let side = parse_side(&b.side)
            .ok_or_else(|| berr(format!("side {} is not N, E, S or W", quote(&b.side))))?;
        let kind = match b.piece.as_str() {
            "road" => EdgeKind::Road,
            "city" => EdgeKind::City,
            other => {
                return Err(berr(format!(
                    "piece {} is not \"road\" or \"city\"",
                    quote(other)
                )));
            }
        };
        if !map.square(at.0 as i64, at.1 as i64).takes_tiles() {
            return Err(berr(format!(
                "square [{}, {}] takes no tile, so nothing can meet a printed piece there",
                at.0, at.1
            )));
        }
        map.piece_side(at, side, "a printed piece").map_err(berr)?;
        if b.arms > MAX_ARMS {
            return Err(berr(format!("at most {MAX_ARMS} coats of arms on a piece")));
        }
        if let Some(other) = sides_used.insert((at, side), format!("border piece {}", i + 1)) {
            return Err(berr(format!(
                "side {} of [{}, {}] already holds {other}; one printed piece per side",
                SIDE_NAMES[side], at.0, at.1
            )));
        }
        map.borders.push(BorderPiece {
            at,
            side,
            kind,
            arms: b.arms,
        });
    }
    for (i, f) in raw.ferries.iter().enumerate() {
        let line = item_line(f.span().start);
        let f = f.get_ref();
        let ferr = |fault: String| err(Some(&format!("ferry {} (line {line})", i + 1)), fault);
        let mut ends = [((0, 0), 0); 2];
        for (k, (col, row, side)) in [&f.from, &f.to].into_iter().enumerate() {
            let at = square_at([*col, *row], "a ferry end").map_err(ferr)?;
            let side = parse_side(side)
                .ok_or_else(|| ferr(format!("side {} is not N, E, S or W", quote(side))))?;
            if !map.square(at.0 as i64, at.1 as i64).takes_tiles() {
                return Err(ferr(format!(
                    "the end at [{}, {}] is on a square that takes no tile",
                    at.0, at.1
                )));
            }
            map.piece_side(at, side, "a ferry end").map_err(ferr)?;
            if let Some(other) = sides_used.insert((at, side), format!("ferry {}", i + 1)) {
                return Err(ferr(format!(
                    "side {} of [{}, {}] already holds {other}; one printed piece per side",
                    SIDE_NAMES[side], at.0, at.1
                )));
            }
            ends[k] = (at, side);
        }
        if ends[0].0 == ends[1].0 {
            return Err(ferr(format!(
                "both ends are on square [{}, {}]; a route joins two squares",
                ends[0].0.0, ends[0].0.1
            )));
        }
        if f.arms > MAX_ARMS {
            return Err(ferr(format!("at most {MAX_ARMS} coats of arms on a route")));
        }
        map.ferries.push(FerryRoute { ends, arms: f.arms });
    }
    let mut arms_at = HashSet::new();
    for (i, a) in raw.arms.iter().enumerate() {
        let line = item_line(a.span().start);
        let a = a.get_ref();
        let aerr = |fault: String| err(Some(&format!("arms {} (line {line})", i + 1)), fault);
        let at = square_at(a.at, "coats of arms").map_err(aerr)?;
        if !matches!(map.square(at.0 as i64, at.1 as i64), Square::Island(_)) {
            return Err(aerr(format!(
                "[{}, {}] is not an island square (coats of arms on squares are island squares')",
                at.0, at.1
            )));
        }
        if !(1..=MAX_ARMS).contains(&a.count) || !arms_at.insert(at) {
            return Err(aerr(format!(
                "count must be 1 to {MAX_ARMS}, once per square, at [{}, {}]",
                at.0, at.1
            )));
        }
        map.island_arms.push((at, a.count));
    }
    // Every island is reachable: from the mainland, over ferry routes.
    let region = |at: (usize, usize)| match map.square(at.0 as i64, at.1 as i64) {
        Square::Island(i) => i as usize + 1,
        _ => 0,
    };
    let mut reached = vec![false; map.islands + 1];
    reached[0] = true;
    loop {
        let mut grew = false;
        for f in &map.ferries {
            let (a, b) = (region(f.ends[0].0), region(f.ends[1].0));
            if reached[a] != reached[b] {
                reached[a] = true;
                reached[b] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    if let Some(island) = reached.iter().position(|r| !r) {
        let (col, row) = (0..map.squares.len())
            .find(|i| map.squares[*i] == Square::Island(island as u8 - 1))
            .map(|i| (i % width, i / width))
            .unwrap_or((0, 0));
        return Err(fail(format!(
            "{}: the island there is reached by no ferry connection from the mainland",
            at(file_rows[row], col)
        )));
    }
    if map.starts.is_empty() {
        return Err(fail("the map has no start square (S)".into()));
    }
    if !(1..=map.starts.len() as u32).contains(&map.start_squares) {
        return Err(fail(format!(
            "start_squares = {} but the map has {} start squares",
            map.start_squares,
            map.starts.len()
        )));
    }
    let playable = map.playable_squares();
    if !(1..=playable as u32).contains(&map.tiles) {
        return Err(fail(format!(
            "tiles = {} must be between 1 and the {playable} squares that take a tile",
            map.tiles
        )));
    }
    Ok(map)
}

fn parse_edges(text: &str) -> Result<[EdgeKind; 4], String> {
    let letters: Vec<Option<EdgeKind>> = text.chars().map(EdgeKind::from_letter).collect();
    match letters.as_slice() {
        [Some(n), Some(e), Some(s), Some(w)] => Ok([*n, *e, *s, *w]),
        _ => Err(format!(
            "edges {} must be four letters from C, R, F (N E S W)",
            quote(text)
        )),
    }
}

/// Whether the squares form one orthogonally connected area.
fn connected(squares: &[(usize, usize)]) -> bool {
    let set: HashSet<(usize, usize)> = squares.iter().copied().collect();
    let Some(&first) = squares.first() else {
        return false;
    };
    let mut seen = HashSet::from([first]);
    let mut stack = vec![first];
    while let Some((c, r)) = stack.pop() {
        for (dx, dy) in SIDE_DELTA {
            let n = (
                (c as i64 + dx as i64) as usize,
                (r as i64 + dy as i64) as usize,
            );
            if set.contains(&n) && seen.insert(n) {
                stack.push(n);
            }
        }
    }
    seen.len() == set.len()
}

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
        .filter(|&(col, row)| out.squares[row * width + col] == Square::Start)
        .collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
name = "small"
tiles = 10
start_squares = 1
grid = '''
........
.oooBBo.
.oSoBBo.
.oooooo.
'''

[cities.B]
name = "Bigtown"
squares = [
  { at = [4, 1], edges = "FCCF", arms = 1 },
  { at = [5, 1], edges = "FRCC" },
  { at = [4, 2], edges = "CCFC", arms = 1 },
  { at = [5, 2], edges = "CFFC" },
]

[[border]]
at = [1, 1]
side = "W"
piece = "road"
arms = 2
"#;

    #[test]
    fn a_small_map_parses() {
        let m = parse_map(SMALL, "small.toml").unwrap();
        assert_eq!((m.width, m.height), (8, 4));
        assert_eq!(m.starts, vec![(2, 2)]);
        assert_eq!(m.cities.len(), 1);
        assert_eq!(m.cities[0].squares.len(), 4);
        assert_eq!(m.borders[0].side, 3);
        let pieces = m.printed_pieces();
        assert_eq!(pieces.len(), 5);
        assert_eq!(pieces[4].at, (0, 1));
        assert_eq!(pieces[4].edges, "FRFF");
    }

    fn fault(text: &str) -> String {
        parse_map(text, "m.toml").unwrap_err().to_string()
    }

    #[test]
    fn faults_name_the_place() {
        let e = fault(&SMALL.replace(".oooooo.", ".ooxooo."));
        assert!(e.contains("unknown symbol \"x\""), "{e}");
        assert!(e.contains("line 9, column 4"), "{e}");
        let e = fault(&SMALL.replace("edges = \"FRCC\"", "edges = \"FRFC\""));
        assert!(e.contains("disagree"), "{e}");
        let e = fault(&SMALL.replace(".oSoBBo.", ".oooBBo."));
        assert!(e.contains("no start square"), "{e}");
        let e = fault(&SMALL.replace("side = \"W\"", "side = \"E\""));
        assert!(e.contains("faces square [2, 1], not the outside"), "{e}");
        let e = fault(&SMALL.replace(".oooBBo.\n.oS", ".oooBBC.\n.oS"));
        assert!(e.contains("large city C has no [cities.C] entry"), "{e}");
        let e = fault(&SMALL.replace("start_squares = 1", "start_squares = 3"));
        assert!(e.contains("has 1 start squares"), "{e}");
    }

    #[test]
    fn builtin_maps_parse() {
        let builtins = crate::data::DataKind::Map.builtins();
        assert!(builtins.len() >= 2);
        for (name, text) in builtins {
            let m = parse_map(text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(m.name, *name);
            let playable = m.playable_squares();
            match *name {
                "continental" => {
                    assert!(
                        (100..=140).contains(&playable),
                        "{name}: {playable} squares"
                    );
                    assert!(
                        m.cities.iter().any(|c| c.squares.len() == 6
                            && c.squares.iter().map(|s| s.arms as u32).sum::<u32>() == 4),
                        "{name}: no 6-square city with 4 coats of arms"
                    );
                }
                "northern" => {
                    assert!((90..=130).contains(&playable), "{name}: {playable} squares");
                }
                "coastal" => {
                    assert!(
                        (100..=135).contains(&playable),
                        "{name}: {playable} squares"
                    );
                    assert!(m.islands >= 2, "{name}: {} islands", m.islands);
                    assert!(m.ferries.len() >= 3, "{name}: {} ferries", m.ferries.len());
                    assert!(
                        m.island_arms.len() >= 2,
                        "{name}: {} island arms",
                        m.island_arms.len()
                    );
                }
                "west" | "east" => {
                    assert!(
                        (100..=130).contains(&playable),
                        "{name}: {playable} squares"
                    );
                    let side = if *name == "west" { 1 } else { 3 };
                    assert_eq!(m.join, Some(side), "{name}: join");
                }
                other => panic!("unexpected built-in map {other}"),
            }
        }
    }

    #[test]
    fn builtin_half_maps_join() {
        let builtin = |name: &str| {
            let text = crate::data::DataKind::Map
                .builtin_text(name)
                .unwrap_or_else(|| panic!("no built-in map {name}"));
            parse_map(text, name).unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        let (west, east) = (builtin("west"), builtin("east"));
        let joined = join_maps(&west, &east).unwrap_or_else(|e| panic!("west+east: {e}"));
        assert_eq!(joined.name, "west+east");
        assert_eq!(joined.width, west.width + east.width - 1);
        assert_eq!(joined.height, west.height);
        assert_eq!(joined.starts.len(), 4);
        let half_rows = (0..west.height)
            .filter(|&row| west.squares[row * west.width + west.width - 1] == Square::Half)
            .count();
        assert!(half_rows > 0);
        assert_eq!(
            joined.playable_squares(),
            west.playable_squares() + east.playable_squares() + half_rows
        );
    }
}
