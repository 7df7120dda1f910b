//! The squares of the table: placed tiles and the open squares beside them.
//!
//! A flat grid sized so that no game can reach its border (a deck of n tiles can never
//! reach further than n squares from the start). Only touched cells are cleared between
//! games. Each open square carries one demand byte: 2 bits per side saying what the
//! neighbour on that side shows (0 = no neighbour), so legality is one table lookup.

use std::sync::Arc;

use crate::board::map_board::{FIT_LANES, Geometry, MapBoard, NO_CITY, NO_ISLAND};
use crate::board::placed::Placed;
use crate::topology::{EdgeKind, RING_DELTA, SIDE_DELTA};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSquare {
    pub cell: u32,
    pub demand: u8,
}

#[cfg(test)]
mod tests {
    #[test]
    fn xy_round_trips_every_cell() {
        for tiles in [1usize, 71, 113, 500, 3999] {
            let b = super::Board::new(tiles);
            for y in -(tiles as i32)..=(tiles as i32) {
                for x in [-(tiles as i32), -1, 0, 1, tiles as i32] {
                    assert_eq!(b.xy(b.cell(x, y).unwrap()), (x, y));
                }
            }
        }
    }
}

// `Clone`: written out below, copying only what is on the board.
#[derive(Debug)]
pub struct Board {
    dim: i32,
    /// ceil(2^42 / dim): exact division for every cell, since dim^3 < 2^42 for decks up to 4000.
    dim_inverse: u64,
    origin: i32,
    /// Placed index + 1, or 0 for an empty cell.
    cells: Vec<u16>,
    /// Open-square index + 1, or 0.
    open_at: Vec<u16>,
    pub placed: Vec<Placed>,
    /// Per placed tile, the placed index + 1 of its neighbour on each side (0 = none):
    /// walking along roads then never touches the grid.
    pub neighbours: Vec<[u16; 4]>,
    pub open: Vec<OpenSquare>,
    /// What the table is (an open grid or a map); fixed for the board's life.
    geometry: Geometry,
    /// Map boards: per cell, the edges of the tile there (2 bits per side, side s at bit
    /// 2s), from which a square that opens late (beside a large city) learns its demand.
    shows: Vec<u8>,
    /// Map boards: per large city, whether a tile stands beside it yet (M-8).
    connected: Vec<bool>,
    /// Map boards: per island, whether a ferry connection reaching it is linked (M-10).
    linked: Vec<bool>,
    /// Map boards: per fit class of the deck's tiles (`FIT_LANES` an array, as in
    /// `MapBoard::fit_rows`), the legal placements of one of its tiles over all open
    /// squares (a distinct rotation on a square each). Empty on the open grid.
    fits: Vec<[u16; FIT_LANES]>,
}

/// A copy costs in proportion to what is on the board, not to the grids' area (sized for
/// the whole deck: 23,000 cells for 72 tiles, about 90 KB in all). The grids are non-zero
/// only at the cells of placed tiles (`cells`, and on a map `shows`) and at open squares
/// (`open_at`): `place`, `apply_printed` and `open_if_empty` write nowhere else, and `reset` clears exactly these. So a copy
/// starts from zeroed grids (`vec![0; n]` is a `calloc`, whose fresh pages cost nothing
/// to clear) and copies those cells; `clone_from` into a board of the same size clears
/// the cells its own tiles and open squares marked, then copies the source's, with no
/// allocation. A map's printed pieces are placed tiles, so they are copied cell by cell
/// too (a few hundred at most).
impl Clone for Board {
    fn clone(&self) -> Self {
        let mut b = Board {
            dim: self.dim,
            dim_inverse: self.dim_inverse,
            origin: self.origin,
            cells: vec![0; self.cells.len()],
            open_at: vec![0; self.open_at.len()],
            // The copy plays on: it keeps the room the original reserved for the deck.
            placed: with_room_of(&self.placed),
            neighbours: with_room_of(&self.neighbours),
            open: with_room_of(&self.open),
            geometry: self.geometry.clone(),
            shows: vec![0; self.shows.len()],
            connected: self.connected.clone(),
            linked: self.linked.clone(),
            fits: self.fits.clone(),
        };
        b.copy_marks(self);
        b
    }

    fn clone_from(&mut self, source: &Self) {
        if self.cells.len() != source.cells.len() || self.shows.len() != source.shows.len() {
            *self = source.clone();
            return;
        }
        self.clear_marks();
        self.dim = source.dim;
        self.dim_inverse = source.dim_inverse;
        self.origin = source.origin;
        self.placed.clone_from(&source.placed);
        self.neighbours.clone_from(&source.neighbours);
        self.open.clone_from(&source.open);
        self.geometry.clone_from(&source.geometry);
        self.connected.clone_from(&source.connected);
        self.linked.clone_from(&source.linked);
        self.fits.clone_from(&source.fits);
        self.copy_marks(source);
    }
}

/// A copy of `v` with `v`'s capacity.
fn with_room_of<T: Copy>(v: &Vec<T>) -> Vec<T> {
    let mut out = Vec::with_capacity(v.capacity());
    out.extend_from_slice(v);
    out
}

impl Board {
    /// Copies the grid cells `source` marks (placed tiles, open squares) into this
    /// board's grids of the same size, whose `placed` and `open` are already `source`'s.
    fn copy_marks(&mut self, source: &Board) {
        let on_map = !self.shows.is_empty();
        for c in self.placed.iter().map(|p| p.cell) {
            let c = c as usize;
            self.cells[c] = source.cells[c];
            if on_map {
                self.shows[c] = source.shows[c];
            }
        }
        for o in &self.open {
            self.open_at[o.cell as usize] = source.open_at[o.cell as usize];
        }
    }

    /// Zeroes the grid cells this board marks (the inverse of `copy_marks`).
    fn clear_marks(&mut self) {
        let on_map = !self.shows.is_empty();
        for c in self.placed.iter().map(|p| p.cell) {
            self.cells[c as usize] = 0;
            if on_map {
                self.shows[c as usize] = 0;
            }
        }
        for o in &self.open {
            self.open_at[o.cell as usize] = 0;
        }
    }
}

impl Board {
    /// A board large enough for `tiles` placements around the start square.
    pub fn new(tiles: usize) -> Self {
        let origin = tiles as i32 + 2;
        let dim = 2 * origin + 1;
        Board {
            dim,
            dim_inverse: (1u64 << 42).div_ceil(dim as u64),
            origin,
            cells: vec![0; (dim * dim) as usize],
            open_at: vec![0; (dim * dim) as usize],
            placed: Vec::with_capacity(tiles + 1),
            neighbours: Vec::with_capacity(tiles + 1),
            open: Vec::with_capacity(2 * tiles + 4),
            geometry: Geometry::Open,
            shows: Vec::new(),
            connected: Vec::new(),
            linked: Vec::new(),
            fits: Vec::new(),
        }
    }

    /// An empty board of `geometry`: an open grid for `tiles` placements, or the map's grid.
    pub fn with_geometry(tiles: usize, geometry: &Geometry) -> Self {
        match geometry {
            Geometry::Open => Board::new(tiles),
            Geometry::Map(map) => {
                let cells = map.cells;
                Board {
                    dim: map.dim,
                    dim_inverse: (1u64 << 42).div_ceil(map.dim as u64),
                    origin: map.origin,
                    cells: vec![0; cells],
                    open_at: vec![0; cells],
                    placed: Vec::with_capacity(tiles + map.pieces.len() + 1),
                    neighbours: Vec::with_capacity(tiles + map.pieces.len() + 1),
                    open: Vec::with_capacity(map.def.playable_squares()),
                    geometry: geometry.clone(),
                    shows: vec![0; cells],
                    connected: vec![false; map.def.cities.len()],
                    linked: vec![false; map.def.islands],
                    fits: vec![[0; FIT_LANES]; map.fit_chunks],
                }
            }
        }
    }

    #[inline]
    pub fn is_map(&self) -> bool {
        matches!(self.geometry, Geometry::Map(_))
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Whether placed tile `index` stands on a square: every tile and large-city square
    /// does; a map's printed border pieces and ferry connections belong to sides of
    /// squares and stand on none (they are shown beyond their side).
    pub fn on_square(&self, index: usize) -> bool {
        match &self.geometry {
            Geometry::Open => true,
            Geometry::Map(map) => (self.placed[index].cell as usize) < map.grid_cells,
        }
    }

    /// The map, on a map board.
    pub fn map(&self) -> Option<&Arc<MapBoard>> {
        match &self.geometry {
            Geometry::Open => None,
            Geometry::Map(m) => Some(m),
        }
    }

    /// Empties the board, keeping its buffers when they are large enough.
    pub fn reset(&mut self, tiles: usize) {
        // A map board keeps the map's size; an open grid grows for a larger deck.
        if !self.is_map() && tiles as i32 + 2 > self.origin {
            *self = Board::new(tiles);
            return;
        }
        for p in &self.placed {
            self.cells[p.cell as usize] = 0;
        }
        for o in &self.open {
            self.open_at[o.cell as usize] = 0;
        }
        self.placed.clear();
        self.neighbours.clear();
        self.open.clear();
        self.connected.fill(false);
        self.linked.fill(false);
        self.fits.fill([0; FIT_LANES]);
    }

    /// The cell of square (x, y), or None off the board (any `i32` is accepted).
    #[inline]
    pub fn cell(&self, x: i32, y: i32) -> Option<u32> {
        // Wrapping: a coordinate near i32::MAX wraps to a negative value, which is off the
        // board, instead of overflowing (the same code as `+` in release builds).
        let (cx, cy) = (x.wrapping_add(self.origin), y.wrapping_add(self.origin));
        (cx > 0 && cy > 0 && cx < self.dim - 1 && cy < self.dim - 1)
            .then(|| (cy * self.dim + cx) as u32)
    }

    /// The square of a cell (`cell` from `cell`, `open` or `placed`).
    #[inline]
    pub fn xy(&self, cell: u32) -> (i32, i32) {
        self.xy_fast(cell)
    }

    /// `xy` by multiplication with a precomputed reciprocal (exact for cells of this grid).
    #[inline]
    fn xy_fast(&self, cell: u32) -> (i32, i32) {
        let row = ((cell as u64 * self.dim_inverse) >> 42) as i32;
        let col = cell as i32 - row * self.dim;
        (col - self.origin, row - self.origin)
    }

    /// The cell across `side` (0..4) of `cell`. For a cell of a placed tile or an open
    /// square the result is on the grid (the board never reaches its border); for other
    /// values it is meaningless.
    #[inline]
    pub fn neighbour_cell(&self, cell: u32, side: usize) -> u32 {
        let (dx, dy) = SIDE_DELTA[side];
        (cell as i32 + dy * self.dim + dx) as u32
    }

    /// The cell a tile at `cell` meets across `side`: `neighbour_cell`, but on a map a
    /// side holding a printed border piece or ferry end leads to that piece's own cell
    /// (see `MapBoard::across`). `ON_MAP` says at compile time whether this is a map
    /// board (the caller decides once), so the open grid's code is `neighbour_cell`.
    #[inline]
    pub fn across<const ON_MAP: bool>(&self, cell: u32, side: usize) -> u32 {
        if ON_MAP && let Geometry::Map(map) = &self.geometry {
            return map.across[cell as usize][side & 3];
        }
        self.neighbour_cell(cell, side)
    }

    /// `across` for the four sides of `cell` at once (one table row on a map).
    #[inline]
    pub fn across_row<const ON_MAP: bool>(&self, cell: u32) -> [u32; 4] {
        if ON_MAP && let Geometry::Map(map) = &self.geometry {
            return map.across[cell as usize];
        }
        [0, 1, 2, 3].map(|side| self.neighbour_cell(cell, side))
    }

    /// `across`, deciding at run time whether this is a map board (off the hot path).
    pub fn across_any(&self, cell: u32, side: usize) -> u32 {
        if self.is_map() {
            self.across::<true>(cell, side)
        } else {
            self.neighbour_cell(cell, side)
        }
    }

    #[inline]
    pub fn offset_cell(&self, cell: u32, dx: i32, dy: i32) -> u32 {
        (cell as i32 + dy * self.dim + dx) as u32
    }

    /// The placed tile at a cell, as an index into `placed`. Panics if `cell` is not a cell
    /// of this grid (cells come from `cell`, `open`, `placed` and `neighbour_cell` of those).
    #[inline]
    pub fn placed_at(&self, cell: u32) -> Option<usize> {
        let v = self.cells[cell as usize];
        (v != 0).then(|| v as usize - 1)
    }

    /// The open square at a cell, as an index into `open`. Panics, like `placed_at`, if
    /// `cell` is not a cell of this grid; `open_demand` accepts any value.
    #[inline]
    pub fn open_index(&self, cell: u32) -> Option<usize> {
        let v = self.open_at[cell as usize];
        (v != 0).then(|| v as usize - 1)
    }

    /// What the neighbours of the open square at `cell` demand, or None when `cell` is no
    /// open square (any `u32` is accepted: the checked queries use it on user input).
    pub fn open_demand(&self, cell: u32) -> Option<u8> {
        let v = *self.open_at.get(cell as usize)?;
        // Cannot fail: a non-zero `open_at` entry is the index + 1 of an entry of `open`
        // (`place` and `reset` keep the two in step).
        (v != 0).then(|| self.open[v as usize - 1].demand)
    }

    /// Records a tile at `cell` whose sides show `edges` (board orientation) and updates
    /// the open squares around it. Returns the placed index. `Game` calls it only with
    /// an empty cell of the grid's interior (the start square, or a square `Game::check`
    /// accepted or a policy drew from `open`).
    ///
    /// `map`: the board's map, on a map board. `ON_MAP` says the same at compile time
    /// (the caller decides once per placement), so the open grid's code carries no map
    /// test; with the option alone the compiled open-grid path kept the check (+1,600
    /// instructions per base game).
    pub fn place<const ON_MAP: bool>(
        &mut self,
        map: Option<&MapBoard>,
        cell: u32,
        tile: u16,
        rotation: u8,
        first_element: u32,
        edges: &[EdgeKind; 4],
    ) -> usize {
        let (x, y) = self.xy(cell);
        let index = self.placed.len();
        self.placed.push(Placed {
            x,
            y,
            cell,
            tile,
            rotation,
            first_element,
        });
        // The grids and lists as locals: a write through one of them could otherwise be
        // the write of another's length or pointer, which the compiler then reloads after
        // every store (4 to 6 instructions per access instead of 2).
        let (cells, open_at, open) = (&mut self.cells[..], &mut self.open_at[..], &mut self.open);
        cells[cell as usize] = index as u16 + 1;
        // A map board counts the placements of the square filled here out (`fits`).
        let mut filled = None;
        if let i @ 1.. = open_at[cell as usize] {
            let i = i as usize - 1;
            if ON_MAP {
                filled = Some(open[i].demand);
            }
            open_at[cell as usize] = 0;
            open.swap_remove(i);
            if let Some(moved) = open.get(i) {
                open_at[moved.cell as usize] = i as u16 + 1;
            }
        }
        if ON_MAP && let Some(map) = map {
            if let Some(demand) = filled {
                self.count_fits(map, demand, false);
            }
            return self.place_on_map(map, cell, index, edges);
        }
        // The squares around, with the same locals.
        let (cells, open_at, open, neighbours) = (
            &self.cells[..],
            &mut self.open_at[..],
            &mut self.open,
            &mut self.neighbours,
        );
        let mut around = [0u16; 4];
        for (side, edge) in edges.iter().enumerate() {
            let (dx, dy) = SIDE_DELTA[side];
            let n = (cell as i32 + dy * self.dim + dx) as u32;
            let nb = cells[n as usize];
            if nb != 0 {
                around[side] = nb;
                neighbours[nb as usize - 1][(side + 2) % 4] = index as u16 + 1;
                continue;
            }
            // The neighbour sees this tile across its opposite side.
            let bits = (*edge as u8) << (2 * ((side + 2) % 4));
            match open_at[n as usize] {
                0 => {
                    open.push(OpenSquare {
                        cell: n,
                        demand: bits,
                    });
                    open_at[n as usize] = open.len() as u16;
                }
                i => open[i as usize - 1].demand |= bits,
            }
        }
        neighbours.push(around);
        index
    }

    // Never inlined: the open grid's `place` stays as small as it was (the map's code
    // inlined made the hot loop keep its values on the stack).
    #[inline(never)]
    /// `place` on a map board, after the tile is recorded: squares open only where a tile
    /// may stand, a large city opens its whole frontier once a tile stands beside it, and
    /// printed pieces (on squares that take no tile) open nothing.
    fn place_on_map(
        &mut self,
        map: &MapBoard,
        cell: u32,
        index: usize,
        edges: &[EdgeKind; 4],
    ) -> usize {
        self.shows[cell as usize] = edges
            .iter()
            .enumerate()
            .fold(0u8, |m, (side, e)| m | ((*e as u8) << (2 * side)));
        // A tile on a square (not a printed piece) opens the squares around it.
        let real = map.playable[cell as usize] || map.island[cell as usize] != NO_ISLAND;
        let mut around = [0u16; 4];
        let across = map.across[cell as usize];
        for (side, edge) in edges.iter().enumerate() {
            let n = across[side];
            let nb = self.cells[n as usize];
            if nb != 0 {
                around[side] = nb;
                self.neighbours[nb as usize - 1][(side + 2) % 4] = index as u16 + 1;
                let city = map.city[n as usize];
                if real && city != NO_CITY && !self.connected[city as usize] {
                    self.connected[city as usize] = true;
                    for &p in &map.frontier[city as usize] {
                        self.open_if_free(map, p);
                    }
                }
                continue;
            }
            if !real || !self.takes_tile_now(map, n) {
                continue;
            }
            match self.open_index(n) {
                Some(i) => {
                    let old = self.open[i].demand;
                    let new = old | (*edge as u8) << (2 * ((side + 2) % 4));
                    self.open[i].demand = new;
                    self.count_fits_change(map, old, new);
                }
                // Empty, taking tiles and not open: opened without testing that again.
                None => self.open_new(map, n),
            }
        }
        self.neighbours.push(around);
        if real {
            // A road reaching a ferry connection's end continues at the other end (the
            // tile's edge there is a road: the printed piece demands one). An island at
            // the far end is linked: its squares take tiles from now on (M-10).
            for far in map.far_ends(cell) {
                let island = map.island[far as usize];
                if island != NO_ISLAND && !self.linked[island as usize] {
                    self.linked[island as usize] = true;
                    // Its squares beside a tile (on the island or, where the island
                    // touches the mainland, M-13, on the mainland) or beside a connected
                    // large city open now.
                    for &c in &map.island_cells[island as usize] {
                        let beside_a_tile = (0..4).any(|side| {
                            let n = self.neighbour_cell(c, side) as usize;
                            let city = map.city[n];
                            (self.cells[n] != 0 && (map.playable[n] || map.island[n] != NO_ISLAND))
                                || (city != NO_CITY && self.connected[city as usize])
                        });
                        if beside_a_tile {
                            self.open_if_free(map, c);
                        }
                    }
                }
                self.open_if_free(map, far);
            }
        }
        index
    }

    /// Whether a tile may stand on the map square at `cell` now: a playable square, or a
    /// square of a linked island.
    fn takes_tile_now(&self, map: &MapBoard, cell: u32) -> bool {
        let island = map.island[cell as usize];
        map.playable[cell as usize] || (island != NO_ISLAND && self.linked[island as usize])
    }

    /// Opens the map square at `cell` if a tile may stand there now and it is empty.
    fn open_if_free(&mut self, map: &MapBoard, cell: u32) {
        if self.takes_tile_now(map, cell) {
            self.open_if_empty(map, cell);
        }
    }

    /// The board right after a map's printed pieces are down, with the union-find's
    /// `nodes` then (see `PrintedTemplate`).
    pub(crate) fn printed_template(
        &self,
        nodes: Vec<crate::board::features::Node>,
    ) -> crate::board::map_board::PrintedTemplate {
        let cells = self
            .placed
            .iter()
            .map(|p| p.cell)
            .map(|c| (c, self.cells[c as usize], self.shows[c as usize]))
            .collect();
        crate::board::map_board::PrintedTemplate {
            placed: self.placed.clone(),
            neighbours: self.neighbours.clone(),
            cells,
            nodes,
        }
    }

    /// Puts down a map's printed pieces from their template, on an empty board (the
    /// same state as placing them one by one).
    pub(crate) fn apply_printed(&mut self, t: &crate::board::map_board::PrintedTemplate) {
        debug_assert!(self.placed.is_empty());
        self.placed.extend_from_slice(&t.placed);
        self.neighbours.extend_from_slice(&t.neighbours);
        for &(c, v, shows) in &t.cells {
            self.cells[c as usize] = v;
            self.shows[c as usize] = shows;
        }
    }

    /// Where placed tile `index` (a printed piece on a cell of its own) is shown.
    pub(crate) fn show_at(&mut self, index: usize, (x, y): (i32, i32)) {
        self.placed[index].x = x;
        self.placed[index].y = y;
    }

    /// If placed tile `piece` is a map's ferry connection and `from` the square at one of
    /// its ends: the other end's square and the side of it facing the route. Road walks
    /// cross a connection this way (its two ends may face the same way, so its sides do
    /// not say where it leads).
    pub fn across_connection(&self, piece: usize, from: u32) -> Option<(u32, usize)> {
        let map = self.map()?;
        let (_, ends) = map.connections.iter().find(|(p, _)| *p == piece)?;
        match ends {
            [(a, _), b] if *a == from => Some(*b),
            [a, (b, _)] if *b == from => Some(*a),
            _ => None,
        }
    }

    /// Opens the empty map square at `cell` (if not open yet), with the demand of every
    /// tile and printed piece around it.
    fn open_if_empty(&mut self, map: &MapBoard, cell: u32) {
        if self.cells[cell as usize] != 0 || self.open_at[cell as usize] != 0 {
            return;
        }
        self.open_new(map, cell);
    }

    /// `open_if_empty` for a square known to be empty and not open.
    #[inline]
    fn open_new(&mut self, map: &MapBoard, cell: u32) {
        debug_assert!(self.cells[cell as usize] == 0 && self.open_at[cell as usize] == 0);
        let demand = self.demand_at(map, cell);
        self.open.push(OpenSquare { cell, demand });
        self.open_at[cell as usize] = self.open.len() as u16;
        self.count_fits(map, demand, true);
    }

    /// Adds (`add`) or takes away the placements each deck tile has on an open square of
    /// `demand` to or from the map board's `fits`.
    #[inline]
    fn count_fits(&mut self, map: &MapBoard, demand: u8, add: bool) {
        let n = map.fit_chunks;
        let row = &map.fit_rows[demand as usize * n..][..n];
        // Wrapping: a square's placements are added before they are taken away, so no
        // count goes below zero; the sum is exact either way. Whole arrays read into a
        // register and written back: element by element the compiler did not vectorise
        // the loop.
        for (c, r) in self.fits.iter_mut().zip(row) {
            let mut sum = *c;
            for i in 0..FIT_LANES {
                sum[i] = if add {
                    sum[i].wrapping_add(r[i])
                } else {
                    sum[i].wrapping_sub(r[i])
                };
            }
            *c = sum;
        }
    }

    /// `count_fits` of `old` taken away and of `new` added, in one pass.
    #[inline]
    fn count_fits_change(&mut self, map: &MapBoard, old: u8, new: u8) {
        let n = map.fit_chunks;
        let old = &map.fit_rows[old as usize * n..][..n];
        let new = &map.fit_rows[new as usize * n..][..n];
        for ((c, o), r) in self.fits.iter_mut().zip(old).zip(new) {
            let mut sum = *c;
            for i in 0..FIT_LANES {
                sum[i] = sum[i].wrapping_sub(o[i]).wrapping_add(r[i]);
            }
            *c = sum;
        }
    }

    /// On a map board: the legal placements of `tile` (of the deck) over all open squares
    /// (a distinct rotation on a square each). None on the open grid, which keeps no count.
    #[inline]
    pub fn fit_count(&self, tile: u16) -> Option<u16> {
        match &self.geometry {
            Geometry::Map(map) => map
                .fit_class
                .get(tile as usize)
                .map(|&c| self.fits[c as usize / FIT_LANES][c as usize % FIT_LANES]),
            Geometry::Open => None,
        }
    }

    /// What the tiles and printed pieces around the map square at `cell` demand of a tile
    /// there (the demand byte of an open square).
    pub(crate) fn demand_at(&self, map: &MapBoard, cell: u32) -> u8 {
        let mut demand = 0u8;
        let across = map.across[cell as usize];
        for (side, &n) in across.iter().enumerate() {
            let n = n as usize;
            if self.cells[n] != 0 {
                let shown = (self.shows[n] >> (2 * ((side + 2) % 4))) & 3;
                demand |= shown << (2 * side);
            }
        }
        demand
    }

    /// Sides of the square at `cell` that close the features facing them (a map's
    /// neutral border, waves, highlights); none on the open grid.
    #[inline]
    pub fn closing_sides(&self, cell: u32) -> u8 {
        match &self.geometry {
            Geometry::Open => 0,
            Geometry::Map(map) => map.closing[cell as usize],
        }
    }

    /// How many squares around `cell` a monastery there needs filled: 8 on the open grid;
    /// on a map only those that exist and can be filled (M-9).
    #[inline]
    pub fn ring_size(&self, cell: u32) -> u32 {
        match &self.geometry {
            Geometry::Open => 8,
            Geometry::Map(map) => map.ring_size[cell as usize] as u32,
        }
    }

    /// Filled squares around `cell` (counting `extra` as filled, for evaluating a move).
    /// On a map, printed border pieces stand outside and never count.
    pub fn ring_filled(&self, cell: u32, extra: Option<u32>) -> u32 {
        let in_ring = |c: u32| match &self.geometry {
            Geometry::Open => true,
            Geometry::Map(map) => map.in_ring[c as usize],
        };
        RING_DELTA
            .iter()
            .filter(|(dx, dy)| {
                let c = self.offset_cell(cell, *dx, *dy);
                (Some(c) == extra || self.placed_at(c).is_some()) && in_ring(c)
            })
            .count() as u32
    }

    /// The placed neighbour of placed tile `placed` across `side`. Panics if `placed` is
    /// not an index of `placed`.
    #[inline]
    pub fn neighbour_of(&self, placed: usize, side: usize) -> Option<usize> {
        let v = self.neighbours[placed][side];
        (v != 0).then(|| v as usize - 1)
    }
}
