//! Tile geometry shared by every rule system.
//!
//! Each tile side is split into three slots: left half, centre, right half ("left" as seen
//! from the tile centre looking out through that side). Classic cities fill all three slots
//! of a side, roads the centre and fields the halves; South Seas islands, bridges and seas
//! and printed map pieces use the same three patterns (`shared/spec/engine-notes.md`).
//! Slots are numbered clockwise from the top-left corner, so a quarter turn clockwise adds 3.

/// Sides in clockwise order from the top. `y` grows southward, `x` eastward.
pub const SIDE_NAMES: [&str; 4] = ["N", "E", "S", "W"];
/// Offset `(dx, dy)` to the neighbouring square across each side.
pub const SIDE_DELTA: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
/// Offsets of the eight squares around a square (monastery neighbourhood).
pub const RING_DELTA: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
];

pub const SLOTS: usize = 12;
/// Half-edge and centre slot names, clockwise from the top-left corner.
pub const SLOT_NAMES: [&str; SLOTS] = [
    "NL", "N", "NR", "EL", "E", "ER", "SL", "S", "SR", "WL", "W", "WR",
];

/// Bit set over the 12 slots.
pub type SlotMask = u16;

/// Position of a slot within its side.
pub const HALF_LEFT: usize = 0;
pub const CENTRE: usize = 1;
pub const HALF_RIGHT: usize = 2;

#[inline]
pub const fn slot(side: usize, pos: usize) -> usize {
    side * 3 + pos
}

/// The slot of the neighbouring tile that touches `slot` across the shared side.
/// Left and right swap because each tile names its halves looking outward.
#[inline]
pub const fn facing_slot(slot: usize) -> usize {
    let side = slot / 3;
    let pos = slot % 3;
    ((side + 2) % 4) * 3 + (2 - pos)
}

/// Where `slot` ends up after `rotation` quarter turns clockwise.
#[inline]
pub const fn rotate_slot(slot: usize, rotation: u8) -> usize {
    (slot + 3 * rotation as usize) % SLOTS
}

pub fn rotate_mask(mask: SlotMask, rotation: u8) -> SlotMask {
    let mut out = 0;
    for s in 0..SLOTS {
        if mask & (1 << s) != 0 {
            out |= 1 << rotate_slot(s, rotation);
        }
    }
    out
}

pub const fn side_mask(side: usize) -> SlotMask {
    0b111 << (side * 3)
}

/// What a tile side shows, as far as matching a neighbour is concerned. The discriminants
/// are the 2-bit codes of an open square's demand byte (0 = no neighbour on that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum EdgeKind {
    /// Whole-side feature: a city (classic), an island (South Seas).
    City = 1,
    /// Centre feature with halves on both sides: a road (classic), a bridge (South Seas).
    Road = 2,
    /// Halves only: a field (classic), sea (South Seas).
    Field = 3,
}

impl EdgeKind {
    /// The edge in words, for messages: "a city", "a road", "a field".
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::City => "a city",
            EdgeKind::Road => "a road",
            EdgeKind::Field => "a field",
        }
    }

    pub fn letter(self) -> char {
        match self {
            EdgeKind::City => 'C',
            EdgeKind::Road => 'R',
            EdgeKind::Field => 'F',
        }
    }
    pub fn from_letter(c: char) -> Option<Self> {
        match c {
            'C' => Some(EdgeKind::City),
            'R' => Some(EdgeKind::Road),
            'F' => Some(EdgeKind::Field),
            _ => None,
        }
    }
}

pub fn parse_side(name: &str) -> Option<usize> {
    SIDE_NAMES.iter().position(|s| *s == name)
}

pub fn parse_slot(name: &str) -> Option<usize> {
    SLOT_NAMES.iter().position(|s| *s == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_slots_pair_up() {
        // North-west half faces the neighbour's south-west half, which that tile calls SR.
        assert_eq!(SLOT_NAMES[facing_slot(parse_slot("NL").unwrap())], "SR");
        assert_eq!(SLOT_NAMES[facing_slot(parse_slot("E").unwrap())], "W");
        assert_eq!(SLOT_NAMES[facing_slot(parse_slot("ER").unwrap())], "WL");
        for s in 0..SLOTS {
            assert_eq!(facing_slot(facing_slot(s)), s);
        }
    }

    #[test]
    fn rotation_moves_slots_clockwise() {
        assert_eq!(SLOT_NAMES[rotate_slot(parse_slot("NL").unwrap(), 1)], "EL");
        assert_eq!(SLOT_NAMES[rotate_slot(parse_slot("WR").unwrap(), 1)], "NR");
        assert_eq!(rotate_mask(side_mask(0), 3), side_mask(3));
    }
}
