//! A tile on the table: where it lies, which tile and rotation, and its first union-find
//! element. Shared by the grid (`grid.rs`) and the map board (`map_board.rs`).

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
