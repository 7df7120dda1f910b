//! The Ferries: ferry links on lake tiles, the walk to the nearest ferry in each direction,
//! and moving a ferry, which can split a road again (decisions F-1..F-5).
//!
//! A lake tile's road ends are separate road segments, each closed at the lake. A ferry
//! is a link between two ends of one lake, applied as a union in the feature union-find.
//! Moving a ferry removes a link, which a union-find cannot undo, so the road that held it
//! is rebuilt from its members (a road is a few dozen segments at most) and the remaining
//! links are applied again. Games without lake tiles never reach this module.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::Game;
use crate::tileset::FeatureKind;
use crate::topology::{CENTRE, EdgeKind, facing_slot, slot};

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
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

    pub fn push(&mut self, m: FerryMove) {
        self.items[self.len as usize] = m;
        self.len += 1;
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

/// Road ends of a lake tile (its road segments), as a bit set over segments.
pub fn lake_ends(game: &Game, tile: u16) -> u16 {
    let def = &game.rules().tiles[tile as usize];
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

impl Game {
    /// Index of the ferry standing at road end `seg` of placed tile `placed`, if any.
    pub fn ferry_at_end(&self, placed: u16, seg: u8) -> Option<usize> {
        self.ferries()
            .iter()
            .position(|f| f.placed == placed && (f.a == seg || f.b == seg))
    }

    /// The ferries a tile placed at `cell` would allow to move: walking each road that the
    /// tile extends, away from it, the first ferry met (F-3). A walk stops at a ferry, at
    /// a lake end without one (closed), at a junction, city or monastery, or at an empty
    /// square; ferries further along cannot move, and neither can a ferry on the same lake
    /// that does not join the extended road.
    pub fn movable_ferries(&self, cell: u32, tile: u16, rotation: u8) -> Movable {
        let mut out = Movable::default();
        if self.ferries().is_empty() {
            return out;
        }
        let rules = self.rules();
        let board = self.board();
        let def = &rules.tiles[tile as usize];
        for side in 0..4 {
            if def.edges_at[rotation as usize][side] != EdgeKind::Road {
                continue;
            }
            let Some(mut placed) = board.placed_at(board.neighbour_cell(cell, side)) else {
                continue;
            };
            let mut entry = (side + 2) % 4;
            // Only a road that holds a ferry can lead to one.
            let start = {
                let p = &board.placed[placed];
                p.first_element + rules.roads(p.tile, p.rotation).centre[entry] as u32
            };
            if self.features().node(self.features().find(start)).ferries == 0 {
                continue;
            }
            let bound = board.placed.len() + 1;
            for _ in 0..bound {
                let p = &board.placed[placed];
                let roads = rules.roads(p.tile, p.rotation);
                if roads.lake {
                    if let Some(f) = self.ferry_at_end(placed as u16, roads.centre[entry])
                        && !out.as_slice().contains(&f)
                    {
                        out.ferries[out.len] = f;
                        out.len += 1;
                    }
                    break;
                }
                // Leave the segment by its other side, if it has one.
                let exit = roads.exit[entry];
                if exit == crate::tileset::NO_SIDE {
                    break;
                }
                let exit = exit as usize;
                let Some(next) = board.neighbour_of(placed, exit) else {
                    break;
                };
                placed = next;
                entry = (exit + 2) % 4;
            }
        }
        out
    }

    /// Joins road ends `a` and `b` of placed lake tile `placed` with a new ferry.
    pub(crate) fn add_ferry(&mut self, placed: u16, a: u8, b: u8) {
        self.ferries_mut().push(FerryLink { placed, a, b });
        let (ea, eb) = (
            self.element(placed as usize, a as usize),
            self.element(placed as usize, b as usize),
        );
        self.features_mut().link(ea, eb);
    }

    /// Moves ferry `f` to ends `a`, `b` of its lake: the road it joined is rebuilt without
    /// it, then the new link is applied. Returns elements whose features changed.
    pub(crate) fn move_ferry(&mut self, f: usize, a: u8, b: u8) -> [u32; 4] {
        let old = self.ferries()[f];
        let placed = old.placed as usize;
        let old_a = self.element(placed, old.a as usize);
        self.ferries_mut()[f].a = a;
        self.ferries_mut()[f].b = b;
        self.rebuild_feature(old_a);
        let (ea, eb) = (
            self.element(placed, a as usize),
            self.element(placed, b as usize),
        );
        self.features_mut().link(ea, eb);
        [old_a, self.element(placed, old.b as usize), ea, eb]
    }

    /// Rebuilds the feature containing `e` from its members: every member becomes a lone
    /// segment again, then the joins that still hold (tile sides, ferries) are redone.
    fn rebuild_feature(&mut self, e: u32) {
        let root = self.features().find(e);
        let mut members = std::mem::take(self.scratch_elements());
        members.clear();
        members.extend(self.features().members(root));
        let rules = std::sync::Arc::clone(self.rules());
        for &m in &members {
            let n = *self.features().node(m);
            let p = self.board().placed[n.placed as usize];
            let seg = &rules.tiles[p.tile as usize].segments[n.segment as usize];
            self.features_mut().detach(m, seg);
        }
        for &m in &members {
            let n = *self.features().node(m);
            let p = self.board().placed[n.placed as usize];
            let def = &rules.tiles[p.tile as usize];
            let road = n.kind == FeatureKind::Road;
            for side in 0..4 {
                let Some(nb) = self.board().neighbour_of(n.placed as usize, side) else {
                    continue;
                };
                // Each shared side is joined once, from the later of its two tiles.
                if nb > n.placed as usize {
                    continue;
                }
                let nbp = self.board().placed[nb];
                if road {
                    // A road only ever occupies side centres (the split case of ferries).
                    if rules.roads(p.tile, p.rotation).centre[side] != n.segment {
                        continue;
                    }
                    let nseg = rules.roads(nbp.tile, nbp.rotation).centre[(side + 2) % 4];
                    let r = self
                        .features_mut()
                        .union(m, nbp.first_element + nseg as u32);
                    self.features_mut().node_mut(r).open -= 2;
                    continue;
                }
                let nbdef = &rules.tiles[nbp.tile as usize];
                for pos in 0..3 {
                    let s = slot(side, pos);
                    if def.slot_segment[p.rotation as usize][s] != n.segment {
                        continue;
                    }
                    let nseg = nbdef.slot_segment[nbp.rotation as usize][facing_slot(s)];
                    let r = self
                        .features_mut()
                        .union(m, nbp.first_element + nseg as u32);
                    if pos == CENTRE && def.segments[n.segment as usize].kind.closes_by_edges() {
                        self.features_mut().node_mut(r).open -= 2;
                    }
                }
            }
        }
        // Ferries whose ends lie in the rebuilt feature join again.
        for i in 0..self.ferries().len() {
            let f = self.ferries()[i];
            let a = self.element(f.placed as usize, f.a as usize);
            if members.contains(&a) {
                let b = self.element(f.placed as usize, f.b as usize);
                self.features_mut().link(a, b);
            }
        }
        *self.scratch_elements() = members;
    }
}
