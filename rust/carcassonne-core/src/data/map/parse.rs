//! Reading and checking a map file: every fault at once, each with its line and column,
//! so that a transcriber can fix a whole file in one pass (`carcassonne map check`).
//!
//! The checks run in stages (the grid, then the legend's cities, border pieces, ferries
//! and coats of arms, then what needs all of them: islands reached, start squares, the
//! recommended tiles). A faulty entry is left out and the next one checked; a fault that
//! leaves nothing to check further (a file that is not TOML, a grid too large) ends the
//! list. Every stage is linear in the file's size.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use serde::Deserialize;
use toml::Spanned;

use super::{
    BorderPiece, CitySquare, FerryRoute, LargeCity, MAX_ARMS, MAX_MAP_SIDE, MapDef, Square,
};
use crate::data::{DataError, DataKind};
use crate::quote::{cap_to, line_column, quote};
use crate::topology::{EdgeKind, SIDE_DELTA, SIDE_NAMES, parse_side};

/// Most faults listed for one file; the rest are counted.
pub const MAX_FAULTS: usize = 100;

/// One fault of a map file: where it is and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapFault {
    /// 1-based line and column in the file; 0 for the file as a whole.
    pub line: usize,
    pub column: usize,
    /// The grid square the fault is at, as (column, row), if it is one.
    pub square: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for MapFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}, column {}", self.line, self.column)?;
            if let Some((col, row)) = self.square {
                write!(f, " (square [{col}, {row}])")?;
            }
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// The faults found so far, at most `MAX_FAULTS` of them.
struct Faults<'t> {
    text: &'t str,
    list: Vec<MapFault>,
    more: usize,
}

impl<'t> Faults<'t> {
    fn push(
        &mut self,
        line: usize,
        column: usize,
        square: Option<(usize, usize)>,
        message: String,
    ) {
        if self.list.len() < MAX_FAULTS {
            self.list.push(MapFault {
                line,
                column,
                square,
                message,
            });
        } else {
            self.more += 1;
        }
    }

    /// A fault at byte `offset` of the file.
    fn at(&mut self, offset: usize, message: String) {
        let (line, column) = line_column(self.text, offset);
        self.push(line, column, None, message);
    }

    /// A fault of the file as a whole.
    fn whole(&mut self, message: String) {
        self.push(0, 0, None, message);
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    fn done(mut self) -> Vec<MapFault> {
        if self.more > 0 {
            let n = self.more;
            self.list.push(MapFault {
                line: 0,
                column: 0,
                square: None,
                message: format!("and {n} more faults"),
            });
        }
        self.list
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMap {
    name: Spanned<String>,
    #[serde(default)]
    title: String,
    #[serde(default)]
    original: Option<String>,
    tiles: Spanned<u32>,
    start_squares: Spanned<u32>,
    grid: Spanned<String>,
    #[serde(default)]
    cities: BTreeMap<String, Spanned<RawCity>>,
    #[serde(default)]
    border: Vec<Spanned<RawBorder>>,
    #[serde(default)]
    ferries: Vec<Spanned<RawFerry>>,
    #[serde(default)]
    arms: Vec<Spanned<RawArms>>,
    #[serde(default)]
    join: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFerry {
    from: Spanned<(i64, i64, String)>,
    to: Spanned<(i64, i64, String)>,
    #[serde(default)]
    arms: Option<Spanned<u8>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArms {
    at: Spanned<[i64; 2]>,
    count: Spanned<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCity {
    name: String,
    squares: Vec<Spanned<RawCitySquare>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCitySquare {
    at: Spanned<[i64; 2]>,
    edges: Spanned<String>,
    #[serde(default)]
    arms: Option<Spanned<u8>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBorder {
    at: Spanned<[i64; 2]>,
    side: Spanned<String>,
    piece: Spanned<String>,
    #[serde(default)]
    arms: Option<Spanned<u8>>,
}

/// The value and its offset of an optional spanned number (0 where absent).
fn arms_of(a: &Option<Spanned<u8>>, fallback: usize) -> (u8, usize) {
    a.as_ref()
        .map_or((0, fallback), |a| (*a.get_ref(), a.span().start))
}

/// Parses and checks a map file. `file` names the source in error messages: the first
/// fault, and how many more there are (`check_map` lists them all).
pub fn parse_map(text: &str, file: &str) -> Result<MapDef, DataError> {
    check_map(text).map_err(|faults| {
        let mut fault = faults.first().map(|f| f.to_string()).unwrap_or_default();
        if faults.len() > 1 {
            fault = format!(
                "{} (and {} more; `carcassonne map check FILE` lists every fault)",
                cap_to(&fault, 400),
                faults.len() - 1
            );
        }
        DataError::maker(file, DataKind::Map)(None, fault)
    })
}

/// Reads and checks a map file: the map, or every fault found (at most `MAX_FAULTS`, then
/// a count), in the order of the checks.
pub fn check_map(text: &str) -> Result<MapDef, Vec<MapFault>> {
    let mut faults = Faults {
        text,
        list: Vec::new(),
        more: 0,
    };
    let raw: RawMap = match toml::from_str(text) {
        Ok(raw) => raw,
        Err(e) => {
            // The message names the fault (missing field, wrong type, ...); keys and values
            // it repeats are the user's, so it is cut like any quote.
            let message = format!("not a valid map file: {}", cap_to(e.message().trim(), 300));
            match e.span() {
                Some(span) => faults.at(span.start, message),
                None => faults.whole(message),
            }
            return Err(faults.done());
        }
    };
    let name = raw.name.get_ref();
    if name.is_empty() || name.contains(['/', '+']) {
        faults.at(
            raw.name.span().start,
            format!(
                "map name {} must be non-empty and contain no '/' or '+'",
                quote(name)
            ),
        );
    }
    let Some(grid) = read_grid(&raw, &mut faults) else {
        return Err(faults.done());
    };
    let mut map = MapDef {
        name: name.clone(),
        title: raw.title.clone(),
        original: raw.original.clone(),
        tiles: *raw.tiles.get_ref(),
        start_squares: *raw.start_squares.get_ref(),
        width: grid.width,
        height: grid.height,
        squares: grid.squares,
        cities: Vec::new(),
        borders: Vec::new(),
        ferries: Vec::new(),
        island_arms: Vec::new(),
        islands: 0,
        join: None,
        starts: grid.starts,
    };
    let at_square = grid.offsets;
    let square_fault = |faults: &mut Faults, (col, row): (usize, usize), message: String| {
        let (line, column) = at_square(col, row).map_or((0, 0), |o| line_column(text, o));
        faults.push(line, column, Some((col, row)), message);
    };
    check_join(&raw, &mut map, &mut faults, &square_fault);
    if !number_islands(&mut map, &mut faults, raw.grid.span().start) {
        return Err(faults.done());
    }
    read_cities(&raw, &grid.letters, &mut map, &mut faults);
    // Which piece holds each (square, side): one per side (M-13).
    let mut sides_used: HashMap<((usize, usize), usize), String> = HashMap::new();
    read_borders(&raw, &mut map, &mut faults, &mut sides_used);
    read_ferries(&raw, &mut map, &mut faults, &mut sides_used);
    read_arms(&raw, &mut map, &mut faults);
    check_islands_reached(&map, &mut faults, &square_fault);
    if map.starts.is_empty() {
        faults.at(
            raw.grid.span().start,
            "the map has no start square (S): mark at least one in the grid".into(),
        );
    } else if !(1..=map.starts.len() as u32).contains(&map.start_squares) {
        faults.at(
            raw.start_squares.span().start,
            format!(
                "start_squares = {} but the map has {} start squares",
                map.start_squares,
                map.starts.len()
            ),
        );
    }
    let playable = map.playable_squares();
    if !(1..=playable as u32).contains(&map.tiles) {
        faults.at(
            raw.tiles.span().start,
            format!(
                "tiles = {} must be between 1 and the {playable} squares that take a tile",
                map.tiles
            ),
        );
    }
    if faults.is_empty() {
        Ok(map)
    } else {
        Err(faults.done())
    }
}

/// The grid as read: its squares, where each square's character is in the file, the
/// large-city letters of the legend (index = position) and the start squares.
struct Grid<F: Fn(usize, usize) -> Option<usize>> {
    width: usize,
    height: usize,
    squares: Vec<Square>,
    starts: Vec<(usize, usize)>,
    letters: Vec<char>,
    /// Byte offset in the file of square (col, row)'s character, when the grid is a
    /// literal string (then it is the file's own text).
    offsets: F,
}

fn read_grid<'r>(
    raw: &'r RawMap,
    faults: &mut Faults,
) -> Option<Grid<impl Fn(usize, usize) -> Option<usize> + 'r>> {
    let text = faults.text;
    let grid_text = raw.grid.get_ref();
    let span = raw.grid.span();
    // A literal string (''') is the file's own text: its offset is found by searching for
    // its first line.
    let body_start = text
        .get(span.start..span.end)
        .and_then(|s| s.find(grid_text.lines().next().unwrap_or("")))
        .map(|i| span.start + i)
        .filter(|&i| {
            text.get(i..)
                .is_some_and(|t| t.starts_with(grid_text.as_str()))
        });
    // Rows of the map (blank lines of the string left out) as (line in the string, text).
    let rows: Vec<(usize, &str)> = grid_text
        .split('\n')
        .enumerate()
        .map(|(i, l)| (i, l.trim_end_matches('\r')))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let height = rows.len();
    let width = rows
        .iter()
        .map(|(_, r)| r.chars().count())
        .max()
        .unwrap_or(0);
    if height == 0 || width == 0 {
        faults.at(span.start, "the grid has no squares".into());
        return None;
    }
    if width > MAX_MAP_SIDE || height > MAX_MAP_SIDE {
        faults.at(
            span.start,
            format!(
                "the grid is {width} x {height} squares; at most {MAX_MAP_SIDE} x {MAX_MAP_SIDE}"
            ),
        );
        return None;
    }
    // Byte offset of each string line's start, for the squares' places in the file.
    let mut line_starts = Vec::new();
    let mut o = 0;
    for l in grid_text.split('\n') {
        line_starts.push(o);
        o += l.len() + 1;
    }
    let row_of: Vec<(usize, &str)> = rows.clone();
    let offsets = move |col: usize, row: usize| -> Option<usize> {
        let start = body_start?;
        let (line, l) = row_of.get(row)?;
        let within = l.char_indices().nth(col).map_or(l.len(), |(i, _)| i);
        Some(start + line_starts[*line] + within)
    };
    // City letters in the legend, in letter order: index = position.
    let mut letters: Vec<char> = Vec::new();
    for (key, city) in &raw.cities {
        let mut chars = key.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() && c != 'S' => letters.push(c),
            _ => faults.at(
                city.span().start,
                format!(
                    "large city {} must be named by one capital letter other than S",
                    quote(key)
                ),
            ),
        }
    }
    let mut squares = vec![Square::None; width * height];
    let mut starts = Vec::new();
    for (row, (_, line)) in rows.iter().enumerate() {
        for (col, c) in line.chars().enumerate() {
            let fault = |faults: &mut Faults, message: String| {
                let (l, column) = offsets(col, row).map_or((0, 0), |o| line_column(text, o));
                faults.push(l, column, Some((col, row)), message);
            };
            squares[row * width + col] = match c {
                '.' | ' ' => Square::None,
                'o' => Square::Ordinary,
                't' => Square::Town,
                'S' | 's' => {
                    starts.push((col, row));
                    Square::Start { town: c == 'S' }
                }
                '~' => Square::Wave,
                '^' => Square::Highlight,
                'i' => Square::Island(0),
                'h' => Square::Half,
                c if c.is_ascii_uppercase() => match letters.iter().position(|l| *l == c) {
                    Some(i) => Square::City(i as u8),
                    None => {
                        fault(faults, format!("large city {c} has no [cities.{c}] entry"));
                        Square::None
                    }
                },
                other => {
                    fault(
                        faults,
                        format!(
                            "unknown symbol {} (use . o t S s ~ ^ i h or a city letter)",
                            quote(&other.to_string())
                        ),
                    );
                    Square::None
                }
            };
        }
    }
    Some(Grid {
        width,
        height,
        squares,
        starts,
        letters,
        offsets,
    })
}

/// `join` and the half squares: only in the column of the joining side.
fn check_join(
    raw: &RawMap,
    map: &mut MapDef,
    faults: &mut Faults,
    square_fault: &impl Fn(&mut Faults, (usize, usize), String),
) {
    if let Some(side) = &raw.join {
        map.join = match side.get_ref().as_str() {
            "E" => Some(1),
            "W" => Some(3),
            other => {
                faults.at(
                    side.span().start,
                    format!(
                        "join = {} must be \"E\" or \"W\" (the side whose column holds the half squares)",
                        quote(other)
                    ),
                );
                return;
            }
        };
    }
    let (width, height) = (map.width, map.height);
    let join_column = map.join.map(|side| if side == 1 { width - 1 } else { 0 });
    for row in 0..height {
        for col in 0..width {
            if map.squares[row * width + col] == Square::Half && join_column != Some(col) {
                square_fault(
                    faults,
                    (col, row),
                    "a half square away from the joining edge (set join = \"E\" or \"W\" and put half squares in that column)".into(),
                );
            }
        }
    }
    if let Some(col) = join_column
        && (0..height).all(|row| map.squares[row * width + col] != Square::Half)
    {
        let offset = raw.join.as_ref().map_or(0, |j| j.span().start);
        faults.at(
            offset,
            "join is set but the joining column has no half square (h)".into(),
        );
    }
}

/// Numbers the islands: the orthogonally connected groups of island squares, in reading
/// order of their first square. (Island squares may touch the mainland, M-13.)
fn number_islands(map: &mut MapDef, faults: &mut Faults, grid_start: usize) -> bool {
    let width = map.width;
    // While grouping, Island(0) marks a square not yet grouped; groups are numbered from 1.
    for row in 0..map.height {
        for col in 0..width {
            if map.squares[row * width + col] != Square::Island(0) {
                continue;
            }
            if map.islands + 1 >= u8::MAX as usize {
                faults.at(grid_start, format!("more than {} islands", u8::MAX - 1));
                return false;
            }
            let id = map.islands as u8 + 1;
            let mut stack = vec![(col, row)];
            map.squares[row * width + col] = Square::Island(id);
            while let Some((c, r)) = stack.pop() {
                for (dx, dy) in SIDE_DELTA {
                    let (nc, nr) = (c as i64 + dx as i64, r as i64 + dy as i64);
                    if map.square(nc, nr) == Square::Island(0) {
                        map.squares[nr as usize * width + nc as usize] = Square::Island(id);
                        stack.push((nc as usize, nr as usize));
                    }
                }
            }
            map.islands = id as usize;
        }
    }
    for sq in &mut map.squares {
        if let Square::Island(i) = sq {
            *i -= 1;
        }
    }
    true
}

/// (column, row) of `at` if it is on the grid; the fault otherwise.
fn on_grid(map: &MapDef, at: [i64; 2], what: &str) -> Result<(usize, usize), String> {
    if at[0] < 0 || at[1] < 0 || at[0] as usize >= map.width || at[1] as usize >= map.height {
        return Err(format!(
            "{what} at [{}, {}] is off the map ({} x {} squares)",
            at[0], at[1], map.width, map.height
        ));
    }
    Ok((at[0] as usize, at[1] as usize))
}

fn read_cities(raw: &RawMap, letters: &[char], map: &mut MapDef, faults: &mut Faults) {
    for (key, city) in &raw.cities {
        let Some(index) = key
            .chars()
            .next()
            .and_then(|c| letters.iter().position(|l| *l == c))
            .filter(|_| key.chars().count() == 1)
        else {
            continue; // a bad letter, already a fault
        };
        let letter = letters[index];
        let city_offset = city.span().start;
        let city = city.get_ref();
        let mut listed = HashSet::new();
        let mut out = Vec::new();
        // This city's faults, as (offset, message).
        let mut found: Vec<(usize, String)> = Vec::new();
        let fault = |found: &mut Vec<(usize, String)>, offset: usize, message: String| {
            found.push((offset, message));
        };
        for sq in &city.squares {
            let offset = sq.span().start;
            let sq = sq.get_ref();
            let at_offset = sq.at.span().start;
            let at = match on_grid(map, *sq.at.get_ref(), "a square") {
                Ok(at) => at,
                Err(e) => {
                    fault(&mut found, at_offset, e);
                    continue;
                }
            };
            if map.square(at.0 as i64, at.1 as i64) != Square::City(index as u8) {
                fault(
                    &mut found,
                    at_offset,
                    format!(
                        "square [{}, {}] is not marked {letter} in the grid",
                        at.0, at.1
                    ),
                );
                continue;
            }
            if !listed.insert(at) {
                fault(
                    &mut found,
                    at_offset,
                    format!("square [{}, {}] is listed twice", at.0, at.1),
                );
                continue;
            }
            let edges = match parse_edges(sq.edges.get_ref()) {
                Ok(edges) => edges,
                Err(e) => {
                    fault(&mut found, sq.edges.span().start, e);
                    continue;
                }
            };
            if !edges.contains(&EdgeKind::City) {
                fault(
                    &mut found,
                    sq.edges.span().start,
                    format!("square [{}, {}] shows no city edge", at.0, at.1),
                );
                continue;
            }
            let (arms, arms_offset) = arms_of(&sq.arms, offset);
            if arms > MAX_ARMS {
                fault(
                    &mut found,
                    arms_offset,
                    format!("at most {MAX_ARMS} coats of arms on a square"),
                );
                continue;
            }
            out.push((CitySquare { at, edges, arms }, sq.edges.span().start));
        }
        let in_grid = map
            .squares
            .iter()
            .filter(|s| **s == Square::City(index as u8))
            .count();
        if found.is_empty() && in_grid != out.len() {
            fault(
                &mut found,
                city_offset,
                format!(
                    "the grid has {in_grid} squares marked {letter}, the legend lists {}",
                    out.len()
                ),
            );
        }
        // Squares of one city agree where they touch, and form one piece.
        for (sq, edges_offset) in &out {
            for side in 0..4 {
                if map.beside(sq.at, side) == Square::City(index as u8)
                    && sq.edges[side] != EdgeKind::City
                {
                    fault(
                        &mut found,
                        *edges_offset,
                        format!(
                            "square [{}, {}] shows {} on side {} towards another square of the city (the squares disagree)",
                            sq.at.0,
                            sq.at.1,
                            sq.edges[side].letter(),
                            SIDE_NAMES[side]
                        ),
                    );
                }
            }
        }
        let squares: Vec<CitySquare> = out.into_iter().map(|(sq, _)| sq).collect();
        if !squares.is_empty() && !connected(&squares.iter().map(|s| s.at).collect::<Vec<_>>()) {
            fault(
                &mut found,
                city_offset,
                "its squares do not form one orthogonally connected area".into(),
            );
        }
        for (offset, message) in found {
            faults.at(offset, format!("city {letter}: {message}"));
        }
        // Listed in letter order even when faulty, so the indices in the grid stay right.
        map.cities.push(LargeCity {
            letter,
            tag: letter.to_string(),
            name: city.name.clone(),
            squares,
        });
    }
}

/// Whether side `side` of square `at` may hold a printed piece or ferry end: it faces off
/// the map, a wave or a highlight (M-13); the fault otherwise (`what` names it).
fn piece_side(map: &MapDef, at: (usize, usize), side: usize, what: &str) -> Result<(), String> {
    let (dx, dy) = SIDE_DELTA[side];
    let (col, row) = (at.0 as i64 + dx as i64, at.1 as i64 + dy as i64);
    match map.square(col, row) {
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

fn read_borders(
    raw: &RawMap,
    map: &mut MapDef,
    faults: &mut Faults,
    sides_used: &mut HashMap<((usize, usize), usize), String>,
) {
    for (i, b) in raw.border.iter().enumerate() {
        let name = format!("border piece {}", i + 1);
        let b = b.get_ref();
        let mut fault = |offset: usize, message: String| {
            faults.at(offset, format!("{name}: {message}"));
        };
        let at = match on_grid(map, *b.at.get_ref(), "a border piece") {
            Ok(at) => at,
            Err(e) => {
                fault(b.at.span().start, e);
                continue;
            }
        };
        let Some(side) = parse_side(b.side.get_ref()) else {
            fault(
                b.side.span().start,
                format!("side {} is not N, E, S or W", quote(b.side.get_ref())),
            );
            continue;
        };
        let kind = match b.piece.get_ref().as_str() {
            "road" => EdgeKind::Road,
            "city" => EdgeKind::City,
            other => {
                fault(
                    b.piece.span().start,
                    format!("piece {} is not \"road\" or \"city\"", quote(other)),
                );
                continue;
            }
        };
        if !map.square(at.0 as i64, at.1 as i64).takes_tiles() {
            fault(
                b.at.span().start,
                format!(
                    "square [{}, {}] takes no tile, so nothing can meet a printed piece there",
                    at.0, at.1
                ),
            );
            continue;
        }
        if let Err(e) = piece_side(map, at, side, "a printed piece") {
            fault(b.side.span().start, e);
            continue;
        }
        let (arms, arms_offset) = arms_of(&b.arms, b.at.span().start);
        if arms > MAX_ARMS {
            fault(
                arms_offset,
                format!("at most {MAX_ARMS} coats of arms on a piece"),
            );
            continue;
        }
        if let Some(other) = sides_used.get(&(at, side)) {
            fault(
                b.side.span().start,
                format!(
                    "side {} of [{}, {}] already holds {other}; one printed piece per side",
                    SIDE_NAMES[side], at.0, at.1
                ),
            );
            continue;
        }
        sides_used.insert((at, side), name.clone());
        map.borders.push(BorderPiece {
            at,
            side,
            kind,
            arms,
        });
    }
}

fn read_ferries(
    raw: &RawMap,
    map: &mut MapDef,
    faults: &mut Faults,
    sides_used: &mut HashMap<((usize, usize), usize), String>,
) {
    for (i, f) in raw.ferries.iter().enumerate() {
        let name = format!("ferry {}", i + 1);
        let entry = f.span().start;
        let f = f.get_ref();
        let mut fault = |offset: usize, message: String| {
            faults.at(offset, format!("{name}: {message}"));
        };
        let mut ends = Vec::with_capacity(2);
        for end in [&f.from, &f.to] {
            let offset = end.span().start;
            let (col, row, side) = end.get_ref();
            let at = match on_grid(map, [*col, *row], "an end") {
                Ok(at) => at,
                Err(e) => {
                    fault(offset, e);
                    continue;
                }
            };
            let Some(side) = parse_side(side) else {
                fault(offset, format!("side {} is not N, E, S or W", quote(side)));
                continue;
            };
            if !map.square(at.0 as i64, at.1 as i64).takes_tiles() {
                fault(
                    offset,
                    format!(
                        "the end at [{}, {}] is on a square that takes no tile",
                        at.0, at.1
                    ),
                );
                continue;
            }
            if let Err(e) = piece_side(map, at, side, "a ferry end") {
                fault(offset, e);
                continue;
            }
            if let Some(other) = sides_used.get(&(at, side)) {
                fault(
                    offset,
                    format!(
                        "side {} of [{}, {}] already holds {other}; one printed piece per side",
                        SIDE_NAMES[side], at.0, at.1
                    ),
                );
                continue;
            }
            ends.push(((at, side), offset));
        }
        let [(a, _), (b, b_offset)] = ends.as_slice() else {
            continue;
        };
        if a.0 == b.0 {
            fault(
                *b_offset,
                format!(
                    "both ends are on square [{}, {}]; a route joins two squares",
                    a.0.0, a.0.1
                ),
            );
            continue;
        }
        let (arms, arms_offset) = arms_of(&f.arms, entry);
        if arms > MAX_ARMS {
            fault(
                arms_offset,
                format!("at most {MAX_ARMS} coats of arms on a route"),
            );
            continue;
        }
        sides_used.insert(*a, name.clone());
        sides_used.insert(*b, name.clone());
        map.ferries.push(FerryRoute {
            ends: [*a, *b],
            arms,
        });
    }
}

fn read_arms(raw: &RawMap, map: &mut MapDef, faults: &mut Faults) {
    let mut arms_at = HashSet::new();
    for (i, a) in raw.arms.iter().enumerate() {
        let a = a.get_ref();
        let mut fault = |offset: usize, message: String| {
            faults.at(offset, format!("arms {}: {message}", i + 1));
        };
        let at = match on_grid(map, *a.at.get_ref(), "coats of arms") {
            Ok(at) => at,
            Err(e) => {
                fault(a.at.span().start, e);
                continue;
            }
        };
        if !matches!(map.square(at.0 as i64, at.1 as i64), Square::Island(_)) {
            fault(
                a.at.span().start,
                format!(
                    "[{}, {}] is not an island square (coats of arms on squares are island squares')",
                    at.0, at.1
                ),
            );
            continue;
        }
        let count = *a.count.get_ref();
        if !(1..=MAX_ARMS).contains(&count) {
            fault(
                a.count.span().start,
                format!("count must be 1 to {MAX_ARMS}, got {count}"),
            );
            continue;
        }
        if !arms_at.insert(at) {
            fault(
                a.at.span().start,
                format!(
                    "[{}, {}] already has its coats of arms; once per square",
                    at.0, at.1
                ),
            );
            continue;
        }
        map.island_arms.push((at, count));
    }
}

/// Every island is reachable from the mainland over ferry routes (its squares wait for a
/// linked ferry, M-10, even where they touch the mainland, M-13).
fn check_islands_reached(
    map: &MapDef,
    faults: &mut Faults,
    square_fault: &impl Fn(&mut Faults, (usize, usize), String),
) {
    let region = |at: (usize, usize)| match map.square(at.0 as i64, at.1 as i64) {
        Square::Island(i) => i as usize + 1,
        _ => 0,
    };
    let mut reached = vec![false; map.islands + 1];
    reached[0] = true;
    // Each pass links at least one more region or stops: at most one pass per island,
    // each over the ferries (a few hundred at most in a file of 1 MB).
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
    let mut first_square = vec![None; map.islands];
    for (i, sq) in map.squares.iter().enumerate() {
        if let Square::Island(k) = sq
            && first_square[*k as usize].is_none()
        {
            first_square[*k as usize] = Some((i % map.width, i / map.width));
        }
    }
    for (k, first) in first_square.iter().enumerate() {
        if let Some(at) = first
            && !reached[k + 1]
        {
            square_fault(
                faults,
                *at,
                "the island there is reached by no ferry connection from the mainland (its squares take tiles only once a ferry to it is linked, M-10)".into(),
            );
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::map::{Square, join_maps};

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
    fn every_fault_is_listed_with_its_place() {
        // An unknown symbol, a border piece facing another square, a ferry with an end
        // on an inner side, two pieces on one side, an island no ferry reaches, and too
        // many start squares recommended: six faults, in the order of the checks.
        let text = SMALL
            .replace(".oooooo.", ".ooxooi.")
            .replace("start_squares = 1", "start_squares = 2")
            .replace(
                "[[border]]\nat = [1, 1]",
                "[[border]]\nat = [2, 2]\nside = \"E\"\npiece = \"city\"\n\n[[ferries]]\nfrom = [1, 2, \"W\"]\nto = [3, 2, \"N\"]\n\n[[border]]\nat = [1, 2]\nside = \"W\"\npiece = \"road\"\n\n[[border]]\nat = [1, 1]",
            );
        let faults = check_map(&text).unwrap_err();
        let shown: Vec<String> = faults.iter().map(|f| f.to_string()).collect();
        assert_eq!(faults.len(), 6, "{shown:#?}");
        assert!(
            shown[0].starts_with("line 9, column 4 (square [3, 3]): unknown symbol"),
            "{shown:#?}"
        );
        let starts: Vec<&str> = shown
            .iter()
            .map(|s| s.split(": ").take(2).last().unwrap_or(""))
            .collect();
        assert_eq!(
            starts,
            [
                "unknown symbol \"x\" (use . o t S s ~ ^ i h or a city letter)",
                "border piece 1",
                "ferry 1",
                "ferry 1",
                "the island there is reached by no ferry connection from the mainland (its squares take tiles only once a ferry to it is linked, M-10)",
                "start_squares = 2 but the map has 1 start squares",
            ],
            "{shown:#?}"
        );
        assert!(
            shown[1].contains("side E of [2, 2] faces square [3, 2], not the outside"),
            "{shown:#?}"
        );
        assert!(
            shown[2].contains(
                "side W of [1, 2] already holds border piece 2; one printed piece per side"
            ),
            "{shown:#?}"
        );
        assert!(
            shown[3].contains("side N of [3, 2] faces square [3, 1], not the outside"),
            "{shown:#?}"
        );
        assert!(
            shown[4].starts_with("line 9, column 7 (square [6, 3])"),
            "{shown:#?}"
        );
        // Every legend fault has a line and column.
        assert!(
            faults.iter().all(|f| f.line > 0 && f.column > 0),
            "{shown:#?}"
        );
        // Loading reports the first and how many more.
        let e = parse_map(&text, "m.toml").unwrap_err().to_string();
        assert!(
            e.contains("unknown symbol") && e.contains("and 5 more"),
            "{e}"
        );
    }

    #[test]
    fn faults_stop_at_the_limit() {
        let mut text = SMALL.to_string();
        for _ in 0..(MAX_FAULTS + 20) {
            text.push_str("\n[[arms]]\nat = [0, 0]\ncount = 1\n");
        }
        let faults = check_map(&text).unwrap_err();
        assert_eq!(faults.len(), MAX_FAULTS + 1);
        assert_eq!(faults[MAX_FAULTS].message, "and 20 more faults");
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
