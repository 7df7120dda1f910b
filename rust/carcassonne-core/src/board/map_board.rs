//! What the table is: an open grid without bounds, or a printed map. Chosen once per game
//! (by the rules) and matched where the two differ, like shakmaty's `VariantPosition`:
//! which squares open beside a placed tile, which sides close the features facing them,
//! and how many squares a monastery's ring holds. Everything else (joining features,
//! legality by demand bytes, scoring) is the same code for both.

use std::sync::{Arc, OnceLock};

use crate::board::features::Node;
use crate::board::placed::Placed;
use crate::data::map::{MapDef, Square};
use crate::topology::{RING_DELTA, SIDE_DELTA};

#[derive(Clone, Debug, Default)]
pub enum Geometry {
    /// The classic table: any square next to a placed tile may take one.
    #[default]
    Open,
    /// A printed map (Carcassonne Maps).
    Map(Arc<MapBoard>),
}

/// A sentinel for "no large city here" (and "no island here").
pub const NO_CITY: u8 = u8::MAX;
pub const NO_ISLAND: u8 = u8::MAX;

/// The tables of one map, indexed by board cell. The board's grid is sized by the map,
/// with a margin of two cells around it, so every neighbour of a square is a cell; after
/// the grid's `dim * dim` cells come one cell of its own for each printed border piece and
/// ferry connection (they belong to a side of a square, M-13, so several may face one
/// outside square), then one cell that is always empty.
#[derive(Debug)]
pub struct MapBoard {
    pub def: MapDef,
    /// Cell of map square (0, 0) is `origin * dim + origin`.
    pub origin: i32,
    pub dim: i32,
    /// All cells: the grid's (`grid_cells`, `dim * dim`), the printed pieces' own, and the
    /// empty one.
    pub cells: usize,
    pub grid_cells: usize,
    /// Per cell, per side: the cell across that side as tiles meet it.
    /// The grid's neighbour, but the piece's own cell on a side holding a printed border
    /// piece or ferry end, and the empty cell from a piece's own cell (a piece meets only
    /// the squares it belongs to, through their sides).
    pub across: Vec<[u32; 4]>,
    /// Per cell: a tile may stand here.
    pub playable: Vec<bool>,
    /// Per cell: the large city this printed square belongs to, or NO_CITY.
    pub city: Vec<u8>,
    /// Per cell: sides (bit per side) that close the features facing them: the outside
    /// without a printed piece, waves and highlights.
    pub closing: Vec<u8>,
    /// Per cell: squares of the monastery ring that can ever be filled (M-9).
    pub ring_size: Vec<u8>,
    /// Per cell: the cell counts as a monastery's neighbour once filled.
    pub in_ring: Vec<bool>,
    /// Per large city: the playable cells beside it, which open once it is connected.
    pub frontier: Vec<Vec<u32>>,
    /// The printed pieces as (cell, tile index, square it is shown at), in the order they
    /// are put down: the piece `k` is placed tile `k` of every game on this map. A
    /// large-city square stands on its own cell; a border piece or ferry connection on a
    /// cell of its own, shown at the outside square beyond its (first) side.
    pub pieces: Vec<(u32, u16, (i32, i32))>,
    /// Per cell: the island this square belongs to, or NO_ISLAND.
    pub island: Vec<u8>,
    /// Per island: its cells.
    pub island_cells: Vec<Vec<u32>>,
    /// Per ferry connection, as (its piece index = placed index, its two ends as (square
    /// cell, side of the square facing the route)): road walks cross a route end to end.
    pub connections: Vec<(usize, [(u32, usize); 2])>,
    /// Per cell: coats of arms printed on this island square (2 points each for the tile
    /// placed here).
    pub arms: Vec<u8>,
    /// Per cell: a small town (the small-town variants look at it).
    pub town: Vec<bool>,
    /// The board and features once the printed pieces are down, the same for every game
    /// on this map: made by the first game, copied by the others.
    pub printed: OnceLock<PrintedTemplate>,
    /// Per deck tile (`0..` the first printed piece's tile), its fit class: tiles whose
    /// distinct rotations meet every demand in equal numbers share one (73 deck tiles of
    /// the default Maps sets make 25 classes).
    pub fit_class: Vec<u16>,
    /// Per demand of an open square and per fit class: how many distinct rotations of
    /// the class's tiles meet it (`set_fit_rows`), in `fit_chunks` arrays of `FIT_LANES`
    /// classes per demand (the last padded with zeros): the count of class `c` for
    /// `demand` is `fit_rows[demand * fit_chunks + c / FIT_LANES][c % FIT_LANES]`. A map
    /// board adds and takes away these rows as its squares open, change and fill, so it
    /// knows each tile's number of legal placements at once (`Board::fit_count`): the
    /// random player draws one of them instead of redrawing squares (on a map most
    /// squares fit few tiles), and the draw's discard test needs no scan. Whole arrays
    /// are added in vector registers, with no widening.
    pub fit_rows: Vec<[u16; FIT_LANES]>,
    pub fit_chunks: usize,
}

/// Fit classes added at once (`MapBoard::fit_rows`): 16 counts, two SSE registers.
pub const FIT_LANES: usize = 16;

/// A map board with only its printed pieces: the placed pieces, their neighbour links,
/// the cells naming them (with the edges they show), and their union-find nodes.
#[derive(Debug)]
pub struct PrintedTemplate {
    pub placed: Vec<Placed>,
    pub neighbours: Vec<[u16; 4]>,
    /// (cell, placed index + 1, edges shown)
    pub cells: Vec<(u32, u16, u8)>,
    pub nodes: Vec<Node>,
}

impl MapBoard {
    /// The squares at the other end of the ferry connections ending at `cell`.
    pub fn far_ends(&self, cell: u32) -> impl Iterator<Item = u32> + '_ {
        self.connections
            .iter()
            .filter_map(move |(_, [(a, _), (b, _)])| match cell {
                c if c == *a => Some(*b),
                c if c == *b => Some(*a),
                _ => None,
            })
    }

    /// The tables of `def`, whose printed pieces are tiles `piece_tiles` of the rules (in
    /// the order of `MapDef::printed_pieces`).
    pub fn new(def: MapDef, piece_tiles: &[u16]) -> Self {
        let origin = 2;
        let dim = def.width.max(def.height) as i32 + 2 * origin + 1;
        let grid_cells = (dim * dim) as usize;
        let cell_of =
            |col: i64, row: i64| ((row as i32 + origin) * dim + col as i32 + origin) as u32;
        let printed = def.printed_pieces();
        // Large-city squares stand on the grid; every other piece gets a cell of its own.
        let own_cells = printed.iter().filter(|p| p.sides.is_some()).count();
        let cells = grid_cells + own_cells + 1;
        let empty = (cells - 1) as u32;
        let mut across = vec![[empty; 4]; cells];
        for c in 0..grid_cells as i32 {
            for (side, (dx, dy)) in SIDE_DELTA.iter().enumerate() {
                let n = c + dy * dim + dx;
                if (0..grid_cells as i32).contains(&n) {
                    across[c as usize][side] = n as u32;
                }
            }
        }
        let mut pieces = Vec::with_capacity(printed.len());
        let mut next_own = grid_cells as u32;
        for (p, t) in printed.iter().zip(piece_tiles) {
            let cell = match &p.sides {
                None => cell_of(p.at.0, p.at.1),
                Some(sides) => {
                    let own = next_own;
                    next_own += 1;
                    for &((col, row), side) in sides {
                        across[cell_of(col as i64, row as i64) as usize][side] = own;
                    }
                    own
                }
            };
            pieces.push((cell, *t, (p.at.0 as i32, p.at.1 as i32)));
        }
        let mut playable = vec![false; cells];
        let mut city = vec![NO_CITY; cells];
        let mut in_ring = vec![false; cells];
        let mut island = vec![NO_ISLAND; cells];
        let mut town = vec![false; cells];
        let mut island_cells = vec![Vec::new(); def.islands];
        for row in 0..def.height {
            for col in 0..def.width {
                let c = cell_of(col as i64, row as i64) as usize;
                let sq = def.squares[row * def.width + col];
                playable[c] = sq.playable();
                in_ring[c] = sq.in_ring();
                if let Square::City(i) = sq {
                    city[c] = i;
                }
                town[c] = sq.small_town();
                if let Square::Island(i) = sq {
                    island[c] = i;
                    island_cells[i as usize].push(c as u32);
                }
            }
        }
        // Ferry connections are the last printed pieces, in route order.
        let first_route = printed.len() - def.ferries.len();
        let connections = def
            .ferries
            .iter()
            .enumerate()
            .map(|(i, f)| {
                (
                    first_route + i,
                    f.ends
                        .map(|((col, row), side)| (cell_of(col as i64, row as i64), side)),
                )
            })
            .collect();
        let mut arms = vec![0u8; cells];
        for &((col, row), n) in &def.island_arms {
            arms[cell_of(col as i64, row as i64) as usize] = n;
        }
        // Sides holding a printed piece or a ferry end: they do not close.
        let bordered: std::collections::HashSet<((usize, usize), usize)> = def
            .borders
            .iter()
            .map(|b| (b.at, b.side))
            .chain(def.ferries.iter().flat_map(|f| f.ends))
            .collect();
        let mut closing = vec![0u8; cells];
        let mut ring_size = vec![0u8; cells];
        for row in 0..def.height {
            for col in 0..def.width {
                let c = cell_of(col as i64, row as i64) as usize;
                let sq = def.squares[row * def.width + col];
                if !sq.in_ring() {
                    continue;
                }
                for side in 0..4 {
                    let n = def.beside((col, row), side);
                    let closes = match n {
                        Square::None | Square::Wave | Square::Highlight => {
                            !bordered.contains(&((col, row), side))
                        }
                        Square::Half => true,
                        _ => false,
                    };
                    closing[c] |= (closes as u8) << side;
                }
                ring_size[c] = RING_DELTA
                    .iter()
                    .filter(|(dx, dy)| {
                        def.square(col as i64 + *dx as i64, row as i64 + *dy as i64)
                            .in_ring()
                    })
                    .count() as u8;
            }
        }
        let mut frontier = vec![Vec::new(); def.cities.len()];
        // Which city last listed each cell: linear in the squares, however large a city.
        let mut listed_by = vec![usize::MAX; cells];
        for (i, c) in def.cities.iter().enumerate() {
            for sq in &c.squares {
                for (dx, dy) in SIDE_DELTA {
                    let (col, row) = (sq.at.0 as i64 + dx as i64, sq.at.1 as i64 + dy as i64);
                    if def.square(col, row).takes_tiles() {
                        let cell = cell_of(col, row);
                        if listed_by[cell as usize] != i {
                            listed_by[cell as usize] = i;
                            frontier[i].push(cell);
                        }
                    }
                }
            }
        }
        MapBoard {
            def,
            origin,
            dim,
            cells,
            grid_cells,
            across,
            playable,
            city,
            closing,
            ring_size,
            in_ring,
            frontier,
            pieces,
            island,
            island_cells,
            connections,
            arms,
            town,
            printed: OnceLock::new(),
            fit_class: Vec::new(),
            fit_rows: Vec::new(),
            fit_chunks: 0,
        }
    }

    /// Fills `fit_class` and `fit_rows` from the rules' legality table
    /// (`legal[tile * 256 + demand]`: the bit set of the fitting distinct rotations) for
    /// the deck's tiles `0..deck_tiles`.
    pub fn set_fit_rows(&mut self, legal: &[u8], deck_tiles: usize) {
        let counts = |t: usize| -> Vec<u16> {
            legal[t * 256..][..256]
                .iter()
                .map(|m| m.count_ones() as u16)
                .collect()
        };
        let mut classes: Vec<Vec<u16>> = Vec::new();
        self.fit_class = (0..deck_tiles)
            .map(|t| {
                let row = counts(t);
                let class = classes.iter().position(|c| *c == row).unwrap_or_else(|| {
                    classes.push(row);
                    classes.len() - 1
                });
                // Fits: no more classes than tiles, whose indices are u16.
                class as u16
            })
            .collect();
        self.fit_chunks = classes.len().div_ceil(FIT_LANES);
        self.fit_rows = (0..256)
            .flat_map(|demand| {
                let classes = &classes;
                (0..self.fit_chunks).map(move |chunk| {
                    std::array::from_fn(|lane| {
                        classes
                            .get(chunk * FIT_LANES + lane)
                            .map_or(0, |c| c[demand])
                    })
                })
            })
            .collect();
    }
}
