//! The Ferries' refusals: a move's ferry parts (the new ferry of a lake tile, the ferry
//! moves) that the rules do not allow.

use std::fmt;

/// Why a move's ferry part was refused (`IllegalMove::Ferries`). The game is unchanged
/// when a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalFerryPart {
    FerryMissing { tile: String },
    NotALake { tile: String },
    BadFerryEnds { tile: String, a: u8, b: u8 },
    FerryNotMovable { x: i32, y: i32 },
    FerryMovesUnordered,
    FerryNotMoved { x: i32, y: i32 },
}

impl fmt::Display for IllegalFerryPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalFerryPart::FerryMissing { tile } => write!(
                f,
                "{tile} is a lake tile: the move must place its ferry on two of its road ends"
            ),
            IllegalFerryPart::NotALake { tile } => {
                write!(
                    f,
                    "{tile} has no lake: a ferry can only be placed on a lake tile"
                )
            }
            IllegalFerryPart::BadFerryEnds { tile, a, b } => write!(
                f,
                "a ferry on {tile} must join two different road ends of that lake, smaller index first; ({a}, {b}) does not"
            ),
            IllegalFerryPart::FerryNotMovable { x, y } => write!(
                f,
                "the ferry at ({x}, {y}) may not move this turn: only the nearest ferry on each road this tile extends may move"
            ),
            IllegalFerryPart::FerryMovesUnordered => write!(
                f,
                "each ferry moves at most once per turn: list ferry moves once each, ordered by (x, y)"
            ),
            IllegalFerryPart::FerryNotMoved { x, y } => write!(
                f,
                "the ferry at ({x}, {y}) already joins those road ends: a move must take it elsewhere"
            ),
        }
    }
}

impl std::error::Error for IllegalFerryPart {}
