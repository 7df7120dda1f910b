//! The squares of the table: placed tiles and the open squares beside them.
//!
//! A flat grid sized so that no game can reach its border (a deck of n tiles can never
//! reach further than n squares from the start). Only touched cells are cleared between
//! games. Each open square carries one demand byte: 2 bits per side saying what the
//! neighbour on that side shows (0 = no neighbour), so legality is one table lookup.

use crate::topology::{EdgeKind, SIDE_DELTA};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub x: i32,
    pub y: i32,
    pub cell: u32,
    pub tile: u16,
    pub rotation: u8,
    /// Union-find element of this tile's segment 0; segment i is `first_element + i`.
    pub first_element: u32,
}

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

#[derive(Clone, Debug)]
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
        }
    }

    /// Empties the board, keeping its buffers when they are large enough.
    pub fn reset(&mut self, tiles: usize) {
        if tiles as i32 + 2 > self.origin {
            *self = Board::new(tiles);
            return;
        }
        for p in &self.placed {
            let c = ((p.y + self.origin) * self.dim + p.x + self.origin) as usize;
            self.cells[c] = 0;
        }
        for o in &self.open {
            self.open_at[o.cell as usize] = 0;
        }
        self.placed.clear();
        self.neighbours.clear();
        self.open.clear();
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
    pub fn place(
        &mut self,
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
        self.cells[cell as usize] = index as u16 + 1;
        if let Some(i) = self.open_index(cell) {
            self.open_at[cell as usize] = 0;
            self.open.swap_remove(i);
            if i < self.open.len() {
                self.open_at[self.open[i].cell as usize] = i as u16 + 1;
            }
        }
        let mut around = [0u16; 4];
        for (side, edge) in edges.iter().enumerate() {
            let n = self.neighbour_cell(cell, side);
            let nb = self.cells[n as usize];
            if nb != 0 {
                around[side] = nb;
                self.neighbours[nb as usize - 1][(side + 2) % 4] = index as u16 + 1;
                continue;
            }
            // The neighbour sees this tile across its opposite side.
            let bits = (*edge as u8) << (2 * ((side + 2) % 4));
            match self.open_index(n) {
                Some(i) => self.open[i].demand |= bits,
                None => {
                    self.open.push(OpenSquare {
                        cell: n,
                        demand: bits,
                    });
                    self.open_at[n as usize] = self.open.len() as u16;
                }
            }
        }
        self.neighbours.push(around);
        index
    }

    /// The placed neighbour of placed tile `placed` across `side`. Panics if `placed` is
    /// not an index of `placed`.
    #[inline]
    pub fn neighbour_of(&self, placed: usize, side: usize) -> Option<usize> {
        let v = self.neighbours[placed][side];
        (v != 0).then(|| v as usize - 1)
    }
}
