//! Features as a union-find over tile segments, with running totals at each root.
//!
//! Every segment of every placed tile is one element. Placing a tile unions its segments
//! with the segments they touch; each root carries what scoring needs (open sides,
//! pennants, inns, cathedrals, goods, meeples per player). Members of a feature form a
//! circular list, so a feature can be walked (distinct tiles, meeples to return) and, when
//! a rule splits a feature again (a ferry moved), rebuilt from its members. `find` does no
//! path compression: union by size keeps trees shallow and lets read-only evaluation of a
//! move share the same code.

use crate::data::tileset::{FeatureKind, Segment};
use crate::limits::MAX_PLAYERS;

pub const NO_PLAYER: u8 = u8::MAX;

/// Parent link of an element set aside while its feature is being regrouped.
const SET_ASIDE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    parent: u32,
    next: u32,
    size: u32,
    pub placed: u16,
    pub segment: u8,
    pub kind: FeatureKind,
    /// Owner of the meeple standing on this segment, or NO_PLAYER.
    pub meeple: u8,
    // Totals, meaningful at roots only.
    /// Sides of the feature not yet matched by a neighbour (roads and cities; half-edges
    /// of sea). Fits 16 bits for any deck: a tile adds at most 8 open ends to a feature
    /// and each of the at least n - 1 contacts joining its n tiles removes 2, so a feature
    /// has at most 6n + 2 open ends, under 25,000 for the largest deck (4,001 tiles).
    pub open: i16,
    pub pennants: u16,
    pub inns: u16,
    pub cathedrals: u16,
    /// South Seas: uncovered fish groups of two (their fish are in `goods`).
    pub fish_pairs: u16,
    /// T&B goods, or South Seas wares not yet covered (see `Segment::goods`).
    pub goods: [u16; 3],
    /// Per player at most `MAX_MEEPLES` (99), which fits a byte.
    pub meeples: [u8; MAX_PLAYERS],
    /// All players together: up to 6 x 99, more than a byte holds.
    pub meeple_total: u16,
    /// Ferries joining segments of this feature (The Ferries): a road without one needs
    /// no walk to find the nearest ferry. One per lake tile at most, and a deck may hold
    /// more than 255 of those.
    pub ferries: u16,
}

impl Node {
    /// A feature of one segment: its own totals, and its meeple if it has one.
    fn lone(e: u32, placed: u16, segment: u8, seg: &Segment, meeple: u8) -> Node {
        let mut meeples = [0; MAX_PLAYERS];
        if meeple != NO_PLAYER {
            meeples[meeple as usize] = 1;
        }
        Node {
            parent: e,
            next: e,
            size: 1,
            placed,
            segment,
            kind: seg.kind,
            meeple,
            open: seg.sides as i16,
            pennants: seg.pennants as u16,
            inns: seg.inns as u16,
            cathedrals: seg.cathedrals as u16,
            fish_pairs: seg.fish_pairs as u16,
            goods: [
                seg.goods[0] as u16,
                seg.goods[1] as u16,
                seg.goods[2] as u16,
            ],
            meeples,
            meeple_total: (meeple != NO_PLAYER) as u16,
            ferries: 0,
        }
    }

    /// Adds the totals of `other` (a root being joined) to this root's.
    fn add_totals(&mut self, other: &Node) {
        self.size += other.size;
        self.open += other.open;
        self.pennants += other.pennants;
        self.inns += other.inns;
        self.cathedrals += other.cathedrals;
        self.fish_pairs += other.fish_pairs;
        for g in 0..3 {
            self.goods[g] += other.goods[g];
        }
        for p in 0..MAX_PLAYERS {
            self.meeples[p] += other.meeples[p];
        }
        self.meeple_total += other.meeple_total;
        self.ferries += other.ferries;
    }
}

/// The union-find. Elements are indices (`0..len()`, see `Game::element`): like slice
/// indices, every method taking an element panics on one that is out of range. The
/// checked queries of `Game` (`feature_tiles`, `is_complete`) accept any value.
// `Clone`: field by field (`clone_by_field!` below), so a reused copy keeps its buffers.
#[derive(Debug, Default)]
pub struct Features {
    nodes: Vec<Node>,
    /// Meeples on the board per feature kind (`FeatureKind as usize`): with none on a
    /// kind, every feature of that kind is free without looking at the board.
    on_kind: [u16; FeatureKind::ALL.len()],
    /// The elements a meeple stands on, in no order, when `lists_occupied`: the occupied
    /// features are found from these few (at most every player's supply) instead of from
    /// every element.
    occupied: Vec<u32>,
    /// Whether `occupied` is kept: set per game (`list_occupied`) by rule systems whose
    /// end of game asks for the occupied features (classic scoring); South Seas keeps its
    /// own islanders and would only pay for the list.
    lists_occupied: bool,
}

crate::clone::clone_by_field!(Features {
    nodes,
    on_kind,
    occupied,
    lists_occupied
});

impl Features {
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.on_kind = Default::default();
        self.occupied.clear();
    }

    /// Keeps the list of the elements meeples stand on (`occupied_roots`), from the next
    /// meeple on: the game's rule system says once, before any is placed.
    pub fn list_occupied(&mut self, list: bool) {
        debug_assert!(self.occupied.is_empty());
        self.lists_occupied = list;
    }

    /// Forgets element `e` among those a meeple stands on.
    #[inline]
    fn vacate(&mut self, e: u32) {
        if !self.lists_occupied {
            return;
        }
        // Cannot fail: `e` holds a meeple (each caller checks), listed when placed.
        let i = self
            .occupied
            .iter()
            .position(|&o| o == e)
            .expect("a meeple's element is listed");
        self.occupied.swap_remove(i);
    }

    /// Meeples standing on features of `kind`.
    #[inline]
    pub fn meeples_on(&self, kind: FeatureKind) -> u16 {
        self.on_kind[kind as usize]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds one element per segment of a newly placed tile (segment i becomes element
    /// `first + i`, where `first` is the returned value). One extend of known length: the
    /// room is checked once, not per segment.
    pub fn add_tile(&mut self, placed: u16, segments: &[Segment]) -> u32 {
        let first = self.nodes.len() as u32;
        self.nodes.extend(
            segments
                .iter()
                .enumerate()
                .map(|(i, seg)| Node::lone(first + i as u32, placed, i as u8, seg, NO_PLAYER)),
        );
        first
    }

    /// Every element's node, in element order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Appends nodes taken from `nodes` of another union-find whose elements were the
    /// same (a map's printed pieces): the structure is copied as it was.
    pub(crate) fn extend_nodes(&mut self, nodes: &[Node]) {
        debug_assert!(self.nodes.is_empty());
        self.nodes.extend_from_slice(nodes);
    }

    #[inline]
    pub fn node(&self, e: u32) -> &Node {
        &self.nodes[e as usize]
    }

    #[inline]
    pub fn node_mut(&mut self, e: u32) -> &mut Node {
        &mut self.nodes[e as usize]
    }

    #[inline]
    pub fn find(&self, mut e: u32) -> u32 {
        loop {
            let p = self.nodes[e as usize].parent;
            if p == e {
                return e;
            }
            e = p;
        }
    }

    /// Every element's root, `out[e] == find(e)`, in a few straight passes and without a
    /// branch on the shape of the trees: a reader of the whole position (an
    /// observation) waits on no chain of parents and mispredicts little.
    pub fn roots_into(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.nodes.iter().map(|n| n.parent));
        // Pointer jumping: each pass sets every element to its parent's parent, in
        // element order (so a parent found earlier in the pass is already further up).
        // Union by size keeps the trees shallow: two or three passes, the last finding
        // nothing to change.
        loop {
            let mut changed = false;
            for e in 0..out.len() {
                let up = out[out[e] as usize];
                changed |= up != out[e];
                out[e] = up;
            }
            if !changed {
                break;
            }
        }
    }

    #[inline]
    pub fn is_root(&self, e: u32) -> bool {
        self.nodes[e as usize].parent == e
    }

    /// Joins the features of `a` and `b`; returns the root of the result.
    pub fn union(&mut self, a: u32, b: u32) -> u32 {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return ra;
        }
        if self.nodes[ra as usize].size < self.nodes[rb as usize].size {
            std::mem::swap(&mut ra, &mut rb);
        }
        let child = self.nodes[rb as usize];
        let root = &mut self.nodes[ra as usize];
        root.add_totals(&child);
        // Splice the two circular member lists.
        let root_next = root.next;
        root.next = child.next;
        self.nodes[rb as usize].next = root_next;
        self.nodes[rb as usize].parent = ra;
        ra
    }

    /// The elements meeples stand on, in no order, when the union-find lists them
    /// (`list_occupied`); else None.
    pub fn occupied_elements(&self) -> Option<&[u32]> {
        self.lists_occupied.then_some(&self.occupied[..])
    }

    /// The roots of the features holding at least one meeple, in element order, into
    /// `out` (cleared first). Only for a union-find that lists them (`list_occupied`).
    pub fn occupied_roots(&self, out: &mut Vec<u32>) {
        debug_assert!(self.lists_occupied, "the occupied elements are listed");
        out.clear();
        out.extend(self.occupied.iter().map(|&e| self.find(e)));
        out.sort_unstable();
        out.dedup();
        debug_assert!(
            out.iter().copied().eq(self
                .nodes
                .iter()
                .enumerate()
                .filter(|(e, n)| n.parent == *e as u32 && n.meeple_total > 0)
                .map(|(e, _)| e as u32))
        );
    }

    /// Every element of the feature that `e` belongs to.
    pub fn members(&self, e: u32) -> Members<'_> {
        Members {
            features: self,
            start: e,
            current: Some(e),
        }
    }

    /// Makes `members` one feature rooted at `members[0]`, listed in the given order, with
    /// the totals of their own segments (`segment_of` gives each member's) and meeples.
    /// For a feature that a rule cuts in two (a moved ferry): each part is regrouped from
    /// its members without any `find`, and the caller corrects the totals that depend on
    /// joins inside the part (open sides, ferries).
    pub fn regroup<'s>(&mut self, members: &[u32], segment_of: impl Fn(&Node) -> &'s Segment) {
        let Some(&root) = members.first() else {
            return;
        };
        let mut totals = None::<Node>;
        for (i, &e) in members.iter().enumerate() {
            let n = self.nodes[e as usize];
            let mut lone = Node::lone(e, n.placed, n.segment, segment_of(&n), n.meeple);
            match &mut totals {
                None => totals = Some(lone),
                Some(t) => t.add_totals(&lone),
            }
            lone.parent = root;
            lone.next = members[(i + 1) % members.len()];
            self.nodes[e as usize] = lone;
        }
        // Cannot fail: `members` is not empty (checked above), so the loop set `totals`.
        let mut t = totals.expect("at least one member");
        t.parent = root;
        t.next = self.nodes[root as usize].next;
        self.nodes[root as usize] = t;
    }

    /// Marks `e` as set aside during a regroup (see `is_set_aside`): its parent link is
    /// overwritten, so no `find` may run until the regroup is done.
    pub fn set_aside(&mut self, e: u32) {
        self.nodes[e as usize].parent = SET_ASIDE;
    }

    pub fn is_set_aside(&self, e: u32) -> bool {
        self.nodes[e as usize].parent == SET_ASIDE
    }

    /// Joins `a` and `b` by a ferry: a union that also counts the ferry in the feature.
    pub fn link(&mut self, a: u32, b: u32) {
        let r = self.union(a, b);
        self.nodes[r as usize].ferries += 1;
    }

    /// Puts a meeple of `player` on element `e`.
    pub fn place_meeple(&mut self, e: u32, player: u8) {
        debug_assert_eq!(self.nodes[e as usize].meeple, NO_PLAYER);
        self.nodes[e as usize].meeple = player;
        if self.lists_occupied {
            self.occupied.push(e);
        }
        self.on_kind[self.nodes[e as usize].kind as usize] += 1;
        let r = self.find(e) as usize;
        self.nodes[r].meeples[player as usize] += 1;
        self.nodes[r].meeple_total += 1;
    }

    /// Takes the meeple standing on element `e` off the board (South Seas: taken back).
    pub fn remove_meeple(&mut self, e: u32) {
        let player = self.nodes[e as usize].meeple;
        debug_assert!(player != NO_PLAYER);
        self.nodes[e as usize].meeple = NO_PLAYER;
        self.vacate(e);
        self.on_kind[self.nodes[e as usize].kind as usize] -= 1;
        let r = self.find(e) as usize;
        self.nodes[r].meeples[player as usize] -= 1;
        self.nodes[r].meeple_total -= 1;
    }

    /// Takes every meeple off the feature rooted at `root`; calls `back(player, element)`
    /// for each.
    pub fn return_meeples(&mut self, root: u32, mut back: impl FnMut(u8, u32)) {
        if self.nodes[root as usize].meeple_total == 0 {
            return;
        }
        let mut e = root;
        loop {
            let n = &mut self.nodes[e as usize];
            let next = n.next;
            if n.meeple != NO_PLAYER {
                back(n.meeple, e);
                n.meeple = NO_PLAYER;
                self.vacate(e);
            }
            e = next;
            if e == root {
                break;
            }
        }
        let r = &mut self.nodes[root as usize];
        self.on_kind[r.kind as usize] -= r.meeple_total;
        r.meeples = [0; MAX_PLAYERS];
        r.meeple_total = 0;
    }
}

pub struct Members<'a> {
    features: &'a Features,
    start: u32,
    current: Option<u32>,
}

impl Iterator for Members<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let e = self.current?;
        let n = self.features.nodes[e as usize].next;
        self.current = (n != self.start).then_some(n);
        Some(e)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nodes_stay_small() {
        // Nodes are the hot data of every game; keep them within one 64-byte cache line.
        assert!(std::mem::size_of::<super::Node>() <= 48);
    }
}
