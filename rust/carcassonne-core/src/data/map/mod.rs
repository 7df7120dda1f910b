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
//! | `S` | a start square that is a small town (red border, as on the maps this format is modelled on), anywhere (M-12) |
//! | `s` | a start square that is no small town (a brown border or a mountain, as some maps print them) |
//! | `~` | a wave square: takes no tile, closes the features facing it (M-9) |
//! | `^` | a Nordic-style highlight: takes no tile, closes the features facing it |
//! | `A`-`Z` except `S` | a square of the large city with that letter (see `[cities]`) |
//! | `i` | an island square: takes a tile once its island is linked by a ferry (M-10) |
//! | `h` | a half square on the edge where two maps join (`join = "E"` or `"W"`): not a square on one map; on two joined maps, the two halves make one ordinary square |
//!
//! The legend: `[cities.X]` names large city X and lists every one of its squares with
//! the edges it shows (N E S W: `C` city, `R` road, `F` field; sides towards another
//! square of the same city must be `C`) and its coats of arms; `[[border]]` lists the
//! printed road and city pieces (a square, the side of it the piece belongs to, the
//! piece and its coats of arms); `[[ferries]]` the printed ferry connections: two sides
//! (`from`, `to`: `[column, row, side]`) joined by a route with its coats of arms;
//! `[[arms]]` the coats of arms printed on island squares. A printed piece or ferry end
//! belongs to a side that faces off the map, a wave or a highlight (M-13): several sides
//! may face one outside square or wave (bays, straits, a ferry across one wave), one
//! piece per side. Every other such side is neutral. Island squares may touch the
//! mainland. Coordinates are `[column, row]`, counted from 0 at the top left.
//!
//! How the engine plays a map (DECISIONS M-5..M-13): each large-city square, printed
//! border piece and ferry connection becomes a printed tile, placed before the first
//! turn, whose segments enter the same union-find as the tiles' own: completion,
//! majorities and scoring stay one code path, and a printed piece counts as one tile of
//! its feature. Coats of arms are pennants (2 each on a completed road or city, 1 at the
//! end). A large-city square stands on its square; a border piece or ferry connection on
//! a board cell of its own that the sides it belongs to lead to (`geometry::MapBoard`):
//! a road reaching one end of a ferry continues at the other, and the connection counts
//! as one piece.
//!
//! The modules: `parse` reads and checks a file, listing every fault; `printed` turns a
//! map's printed pieces into tiles; `join` joins two half maps; `summary` describes a
//! checked map for a transcriber; `generate` writes random valid maps for studies.

mod generate;
mod join;
mod parse;
mod printed;
mod summary;

pub use generate::{MAX_SQUARES, MapShape, generate};
pub use join::join_maps;
pub use parse::{MAX_FAULTS, MapFault, check_map, parse_map};
pub use printed::PrintedPiece;
pub use summary::{MapSummary, summarize};

use crate::topology::{EdgeKind, SIDE_DELTA};

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
    /// A start square; `town`: it is a small town too (covered without a start tile, it
    /// counts for the small-town variants as any other).
    Start {
        town: bool,
    },
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
    /// The square's symbol in a map file's grid; `letter` names large city `i`.
    pub fn symbol(self, letter: impl Fn(u8) -> char) -> char {
        match self {
            Square::None => '.',
            Square::Ordinary => 'o',
            Square::Town => 't',
            Square::Start { town: true } => 'S',
            Square::Start { town: false } => 's',
            Square::Wave => '~',
            Square::Highlight => '^',
            Square::City(i) => letter(i),
            Square::Island(_) => 'i',
            Square::Half => 'h',
        }
    }

    /// Whether a tile may ever stand here.
    pub fn playable(self) -> bool {
        matches!(self, Square::Ordinary | Square::Town | Square::Start { .. })
    }

    /// Whether the small-town variants look at this square: a small town, or a start
    /// square that is one.
    pub fn small_town(self) -> bool {
        matches!(self, Square::Town | Square::Start { town: true })
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

impl MapDef {
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
                    .map(|col| {
                        self.squares[row * self.width + col]
                            .symbol(|i| self.cities[i as usize].letter)
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
