//! The board window: the `size` x `size` board squares an action space lays its
//! placements out in (and the observations their board planes).
//!
//! On the open grid the window follows the play: each position's window is centred on
//! the bounding box of the placed tiles, widened by the one square around it where a
//! tile can go next, so every open square and every placed tile is inside. A game whose
//! played area outgrows the window cannot be encoded: the codec refuses it with
//! `WindowError::Overflow` (an environment truncates the episode) rather than
//! leave placements out. On a map the window is fixed over the map's squares, which the
//! play never leaves.

use crate::board::map_board::{MapBoard, NO_ISLAND};
use crate::board::placed::Placed;
use crate::engine::game::Game;
use std::fmt;

/// Why a position or a rules configuration has no window: the codec's errors hold these
/// (`CodecError::WindowSize`, `CodecError::WindowOverflow`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WindowError {
    /// A window size the rules cannot take (`least`: the smallest accepted).
    Size { asked: u32, least: u32 },
    /// The played area and the squares around it (`width` x `height`) do not fit the
    /// window: the game has outgrown the action space.
    Overflow {
        width: u32,
        height: u32,
        window: u32,
    },
}

impl fmt::Display for WindowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WindowError::Size { asked, least } => write!(
                f,
                "window of {asked} squares: the window must be {least} to 255 squares a side"
            ),
            WindowError::Overflow {
                width,
                height,
                window,
            } => write!(
                f,
                "the played area with the squares around it is {width} x {height} squares, \
                 more than the {window} x {window} window (use a larger window)"
            ),
        }
    }
}

impl std::error::Error for WindowError {}

/// The smallest window of the open grid, and the default for decks up to 60 tiles.
pub const MIN_DEFAULT_WINDOW: u32 = 21;

/// The window of the open grid when none is asked for, for a game of `tiles` tiles (the
/// start tile included): the odd size from 2.7 x sqrt(tiles), at least 21. The played
/// area of random games, with the squares around it, grows as about 2.6 x sqrt(tiles)
/// at its 99.9th percentile (4,000 random games each, 2026-12-04: 22 squares for the
/// base game's 72 tiles, 23 with The Ferries' 80, 27 with I&C and T&B's 114); this gives
/// 23, 25 and 29, which held every one of those games.
pub fn default_window(tiles: usize) -> u32 {
    let size = (2.7 * (tiles as f64).sqrt()).ceil() as u32;
    let odd = size | 1;
    odd.clamp(MIN_DEFAULT_WINDOW, *WINDOW_SIZES.end())
}

/// The window sizes an action space accepts on the open grid.
pub const WINDOW_SIZES: std::ops::RangeInclusive<u32> = 3..=255;

/// Where a position's window lies: the square (`x0`, `y0`) is its index 0, and index
/// `i` is the square (`x0 + i % size`, `y0 + i / size`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub size: u32,
    pub x0: i32,
    pub y0: i32,
}

impl Window {
    /// The index of board square (x, y), or None outside the window.
    #[inline]
    pub fn index(&self, x: i32, y: i32) -> Option<u32> {
        let (dx, dy) = ((x as i64) - (self.x0 as i64), (y as i64) - (self.y0 as i64));
        let size = self.size as i64;
        ((0..size).contains(&dx) && (0..size).contains(&dy)).then(|| (dy * size + dx) as u32)
    }

    /// The board square of window index `i` (below `size * size`).
    #[inline]
    pub fn square(&self, i: u32) -> (i32, i32) {
        debug_assert!(i < self.size * self.size);
        (
            self.x0 + (i % self.size) as i32,
            self.y0 + (i / self.size) as i32,
        )
    }
}

/// How an action space places its window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowRule {
    /// The open grid: centred on each position's played area.
    Centred,
    /// A map: always at (`x0`, `y0`).
    Fixed { x0: i32, y0: i32 },
}

/// The bounding box of the placed tiles' squares (on the open grid the window is centred
/// on it); an environment keeps it up to date as tiles are placed instead of finding it
/// anew each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    pub x_min: i32,
    pub x_max: i32,
    pub y_min: i32,
    pub y_max: i32,
}

impl Extent {
    /// The extent of `placed`, or None for no tile.
    pub fn of(placed: &[Placed]) -> Option<Extent> {
        let (first, rest) = placed.split_first()?;
        let mut e = Extent {
            x_min: first.x,
            x_max: first.x,
            y_min: first.y,
            y_max: first.y,
        };
        for p in rest {
            e.add(p);
        }
        Some(e)
    }

    /// Grows the extent to hold `p`'s square.
    #[inline]
    pub fn add(&mut self, p: &Placed) {
        self.x_min = self.x_min.min(p.x);
        self.x_max = self.x_max.max(p.x);
        self.y_min = self.y_min.min(p.y);
        self.y_max = self.y_max.max(p.y);
    }
}

impl WindowRule {
    /// The window of `game`'s position, `size` squares wide.
    pub fn window_of(self, game: &Game, size: u32) -> Result<Window, WindowError> {
        match self {
            WindowRule::Fixed { x0, y0 } => Ok(Window { size, x0, y0 }),
            WindowRule::Centred => self.window_for(Extent::of(&game.board().placed), size),
        }
    }

    /// `window_of` for a position whose placed tiles have `extent` (None: no tile yet).
    pub fn window_for(self, extent: Option<Extent>, size: u32) -> Result<Window, WindowError> {
        match (self, extent) {
            (WindowRule::Fixed { x0, y0 }, _) => Ok(Window { size, x0, y0 }),
            // A game always has its start tile down.
            (WindowRule::Centred, None) => Ok(Window {
                size,
                x0: -((size as i32 - 1) / 2),
                y0: -((size as i32 - 1) / 2),
            }),
            (WindowRule::Centred, Some(e)) => {
                // The played area and the squares around it.
                let width = (e.x_max - e.x_min + 3) as u32;
                let height = (e.y_max - e.y_min + 3) as u32;
                if width > size || height > size {
                    return Err(WindowError::Overflow {
                        width,
                        height,
                        window: size,
                    });
                }
                // The slack split evenly (the odd square after the area).
                Ok(Window {
                    size,
                    x0: e.x_min - 1 - ((size - width) / 2) as i32,
                    y0: e.y_min - 1 - ((size - height) / 2) as i32,
                })
            }
        }
    }
}

/// The squares of a map where a tile can stand (playable squares and island squares),
/// as (x, y) bounding box corners: (x_min, y_min, x_max, y_max).
pub(crate) fn map_extent(map: &MapBoard) -> (i32, i32, i32, i32) {
    let mut extent = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for cell in 0..map.grid_cells {
        if !(map.playable[cell] || map.island[cell] != NO_ISLAND) {
            continue;
        }
        let (row, col) = (cell as i32 / map.dim, cell as i32 % map.dim);
        let (x, y) = (col - map.origin, row - map.origin);
        extent = (
            extent.0.min(x),
            extent.1.min(y),
            extent.2.max(x),
            extent.3.max(y),
        );
    }
    extent
}
