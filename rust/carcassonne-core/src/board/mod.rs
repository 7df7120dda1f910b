//! The table: placed tiles (`placed`), the flat grid with its open squares (`grid`), a
//! printed map's squares, borders and ferries (`map_board`), and the union-find over
//! placed segments with its running totals per feature (`features`).

pub mod features;
pub mod grid;
pub mod map_board;
pub mod placed;
