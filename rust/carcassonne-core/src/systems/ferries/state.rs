//! The Ferries' part of a game's state: the ferry links on placed lake tiles and the
//! moves of one turn (decisions F-1..F-5); the turn code is `turn.rs`.

use std::hash::{Hash, Hasher};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::data::tileset::FeatureKind;
use crate::engine::rules::Rules;

/// Ferries that may move in one turn: the nearest one in each of at most four directions.
pub const MAX_FERRY_MOVES: usize = 4;

/// A ferry on a placed lake tile, joining road ends (segment indices) `a < b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FerryLink {
    pub placed: u16,
    pub a: u8,
    pub b: u8,
}

/// Moving the ferry of the lake at (x, y) to join road ends `a < b` of that lake.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct FerryMove {
    // 16 bits are enough (decks are at most 4000 tiles) and keep `Move` small.
    pub x: i16,
    pub y: i16,
    pub a: u8,
    pub b: u8,
}

/// Up to four ferry moves, ordered by (x, y), in a fixed-size value so `Move` stays `Copy`.
/// The entries past `len` are always the default (the fields are private, and `push` is
/// the only way to add one), so the derived order, which reads them, agrees with the
/// equality and hash below, which do not.
#[derive(Clone, Copy, Debug, Default, Eq, PartialOrd, Ord)]
pub struct FerryMoves {
    len: u8,
    items: [FerryMove; MAX_FERRY_MOVES],
}

impl FerryMoves {
    pub const NONE: FerryMoves = FerryMoves {
        len: 0,
        items: [FerryMove {
            x: 0,
            y: 0,
            a: 0,
            b: 0,
        }; 4],
    };

    pub fn from_slice(moves: &[FerryMove]) -> Option<Self> {
        if moves.len() > MAX_FERRY_MOVES {
            return None;
        }
        let mut out = FerryMoves::NONE;
        for m in moves {
            out.push(*m);
        }
        Some(out)
    }

    pub fn as_slice(&self) -> &[FerryMove] {
        &self.items[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the moves are listed as a move must list them: each ferry once, ordered
    /// by (x, y).
    pub fn is_ordered(&self) -> bool {
        self.as_slice()
            .windows(2)
            .all(|w| (w[0].x, w[0].y) < (w[1].x, w[1].y))
    }

    /// Appends a move. Panics when it already holds `MAX_FERRY_MOVES` (`from_slice` and
    /// deserialising refuse longer lists instead); the engine pushes at most one move per
    /// movable ferry, and at most `MAX_FERRY_MOVES` ferries may move.
    pub fn push(&mut self, m: FerryMove) {
        self.items[self.len as usize] = m;
        self.len += 1;
    }
}

/// Compares the moves listed only: most moves list none, and a search compares moves
/// when it looks up a node's children (the derived equality compared all four entries,
/// out of line).
impl PartialEq for FerryMoves {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.as_slice() == other.as_slice()
    }
}

impl Hash for FerryMoves {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h);
    }
}

impl Serialize for FerryMoves {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl<'de> Deserialize<'de> for FerryMoves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: Vec<FerryMove> = Vec::deserialize(d)?;
        FerryMoves::from_slice(&v)
            .ok_or_else(|| serde::de::Error::custom("at most 4 ferry moves per turn"))
    }
}

/// Ferries (indices into the game's ferry list) that may move this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Movable {
    pub len: usize,
    pub ferries: [usize; MAX_FERRY_MOVES],
}

impl Movable {
    pub fn as_slice(&self) -> &[usize] {
        &self.ferries[..self.len]
    }
}

/// Road ends of a lake tile (its road segments), as a bit set over segments (none for a
/// tile index the rules do not have).
pub fn lake_ends(rules: &Rules, tile: u16) -> u16 {
    // `get` costs the same bounds check as indexing.
    let Some(def) = rules.tiles.get(tile as usize) else {
        return 0;
    };
    def.segments
        .iter()
        .enumerate()
        .filter(|(_, s)| s.kind == FeatureKind::Road)
        .fold(0, |m, (i, _)| m | (1 << i))
}

/// Every pair `a < b` of the given ends (a bit set), in order.
pub fn pairs(ends: u16) -> impl Iterator<Item = (u8, u8)> {
    BitIter(ends).flat_map(move |a| BitIter(ends & !((2u16 << a) - 1)).map(move |b| (a, b)))
}

/// Indices of the set bits, lowest first.
struct BitIter(u16);

impl Iterator for BitIter {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        (self.0 != 0).then(|| {
            let i = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            i
        })
    }
}
