//! The Ferries: ferry links on lake tiles, the walk to the nearest ferry in each direction,
//! and moving a ferry, which can split a road again (decisions F-1..F-5).
//!
//! A lake tile's road ends are separate road segments, each closed at the lake. A ferry
//! is a link between two ends of one lake, applied as a union in the feature union-find.
//! Moving a ferry removes a link, which a union-find cannot undo, so the road that held it
//! is rebuilt from its members (a road is a few dozen segments at most) and the remaining
//! links are applied again. Games without lake tiles never reach this module.

use crate::engine::game::{Game, IllegalMove, Move, Placement};
use crate::systems::ferries::errors::IllegalFerryPart;
use crate::systems::ferries::state::{
    FerryLink, FerryMoves, MAX_FERRY_MOVES, Movable, lake_ends, pairs,
};
use crate::topology::EdgeKind;

impl Game {
    /// Every way to make the ferry choices of placing the current tile at `p`: the new
    /// ferry (lake tiles) times, for each movable ferry, staying or each other pair. None
    /// when the game is over or the tile does not fit at `p`.
    pub fn ferry_choices(&self, p: Placement) -> Vec<(Option<(u8, u8)>, FerryMoves)> {
        let Some(tile) = self.fitting(p) else {
            return Vec::new();
        };
        let new_ferries: Vec<Option<(u8, u8)>> = if self.rules.tiles[tile as usize].lake {
            pairs(lake_ends(&self.rules, tile)).map(Some).collect()
        } else {
            vec![None]
        };
        let mut moves = vec![FerryMoves::NONE];
        let movable = self.movable_ferries(p.cell, tile, p.rotation);
        let mut order: Vec<usize> = movable.as_slice().to_vec();
        order.sort_by_key(|f| {
            let q = &self.board.placed[self.system.ferries()[*f].placed as usize];
            (q.x, q.y)
        });
        for f in order {
            let link = self.system.ferries()[f];
            let q = &self.board.placed[link.placed as usize];
            let mut next = Vec::new();
            for m in &moves {
                next.push(*m);
                for (a, b) in pairs(lake_ends(&self.rules, q.tile)) {
                    if (a, b) != (link.a, link.b) {
                        let mut with = *m;
                        with.push(crate::systems::ferries::state::FerryMove {
                            x: q.x as i16,
                            y: q.y as i16,
                            a,
                            b,
                        });
                        next.push(with);
                    }
                }
            }
            moves = next;
        }
        new_ferries
            .iter()
            .flat_map(|n| moves.iter().map(move |m| (*n, *m)))
            .collect()
    }

    /// The Ferries part of a move: the new ferry (lake tiles) and the ferry moves.
    pub(crate) fn check_ferries(&self, mv: Move, cell: u32, tile: u16) -> Result<(), IllegalMove> {
        let def = &self.rules.tiles[tile as usize];
        match (def.lake, mv.ferry) {
            (true, None) => {
                return Err(IllegalFerryPart::FerryMissing {
                    tile: def.id.clone(),
                }
                .into());
            }
            (false, Some(_)) => {
                return Err(IllegalFerryPart::NotALake {
                    tile: def.id.clone(),
                }
                .into());
            }
            (true, Some((a, b))) => {
                let ends = lake_ends(&self.rules, tile);
                if a >= b || b >= 16 || ends & (1 << a) == 0 || ends & (1 << b) == 0 {
                    return Err(IllegalFerryPart::BadFerryEnds {
                        tile: def.id.clone(),
                        a,
                        b,
                    }
                    .into());
                }
            }
            (false, None) => {}
        }
        let moves = mv.ferry_moves.as_slice();
        if moves.is_empty() {
            return Ok(());
        }
        if !mv.ferry_moves.is_ordered() {
            return Err(IllegalFerryPart::FerryMovesUnordered.into());
        }
        let movable = self.movable_ferries(cell, tile, mv.rotation);
        for m in moves {
            let Some(&f) = movable.as_slice().iter().find(|f| {
                let p = &self.board.placed[self.system.ferries()[**f].placed as usize];
                (p.x, p.y) == (m.x as i32, m.y as i32)
            }) else {
                return Err(IllegalFerryPart::FerryNotMovable {
                    x: m.x as i32,
                    y: m.y as i32,
                }
                .into());
            };
            let link = self.system.ferries()[f];
            let lake = self.board.placed[link.placed as usize].tile;
            let ends = lake_ends(&self.rules, lake);
            if m.a >= m.b || m.b >= 16 || ends & (1 << m.a) == 0 || ends & (1 << m.b) == 0 {
                let tile = self.rules.tiles[lake as usize].id.clone();
                return Err(IllegalFerryPart::BadFerryEnds {
                    tile,
                    a: m.a,
                    b: m.b,
                }
                .into());
            }
            if (m.a, m.b) == (link.a, link.b) {
                return Err(IllegalFerryPart::FerryNotMoved {
                    x: m.x as i32,
                    y: m.y as i32,
                }
                .into());
            }
        }
        Ok(())
    }

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
    /// that does not join the extended road. Empty when the tile would not fit there (not
    /// an open square, a rotation above 3, an unknown tile, edges that do not match).
    pub fn movable_ferries(&self, cell: u32, tile: u16, rotation: u8) -> Movable {
        let mut out = Movable::default();
        if self.ferries().is_empty() || !self.fits(tile, cell, rotation) {
            return out;
        }
        let (rules, board) = (self.rules(), self.board());
        let def = &rules.tiles[tile as usize];
        for side in 0..4 {
            if def.edges_at[rotation as usize][side] != EdgeKind::Road {
                continue;
            }
            let Some(next) = board.placed_at(board.across_any(cell, side)) else {
                continue;
            };
            let entry = (side + 2) % 4;
            // Only a road that holds a ferry can lead to one.
            let p = &board.placed[next];
            let start = p.first_element + rules.roads(p.tile, p.rotation).centre[entry] as u32;
            if self.features().node(self.features().find(start)).ferries > 0 {
                self.walk_to_ferry(next, entry, usize::MAX, cell, &mut out);
            }
        }
        out
    }

    /// `movable_ferries` for the tile just placed as `placed`, before its ferry choices:
    /// the same walks, started only from the sides where placing it joined a road that
    /// holds a ferry (`ferry_roads`, one bit per side, noted while joining), so most turns
    /// need no lookup at all. A walk that comes back to the new tile stops there, as it
    /// would have at the empty square.
    pub(crate) fn movable_after_placing(&self, placed: usize, ferry_roads: u8) -> Movable {
        let mut out = Movable::default();
        let board = self.board();
        for side in 0..4 {
            if ferry_roads & (1 << side) == 0 {
                continue;
            }
            if let Some(next) = board.neighbour_of(placed, side) {
                let from = board.placed[placed].cell;
                self.walk_to_ferry(next, (side + 2) % 4, placed, from, &mut out);
            }
        }
        out
    }

    /// Walks the road entering placed tile `placed` at side `entry` to its first lake and
    /// adds that lake's ferry to `out` if one stands on the road end reached. Stops at a
    /// junction, city or monastery, an empty square, or the placed tile `stop`. `from`:
    /// the square the road comes from (a map's ferry connection leads on from its other
    /// end).
    fn walk_to_ferry(
        &self,
        mut placed: usize,
        mut entry: usize,
        stop: usize,
        mut from: u32,
        out: &mut Movable,
    ) {
        let (rules, board) = (self.rules(), self.board());
        for _ in 0..=board.placed.len() {
            let p = &board.placed[placed];
            if let Some((far, side)) = board.across_connection(placed, from) {
                match board.placed_at(far) {
                    Some(next) if next != stop => {
                        from = p.cell;
                        placed = next;
                        entry = side;
                        continue;
                    }
                    _ => return,
                }
            }
            let roads = rules.roads(p.tile, p.rotation);
            if roads.lake {
                if let Some(f) = self.ferry_at_end(placed as u16, roads.centre[entry])
                    && !out.as_slice().contains(&f)
                {
                    // Cannot overflow: one walk per side of the new tile, each adding at
                    // most one ferry, so at most 4 = MAX_FERRY_MOVES.
                    out.ferries[out.len] = f;
                    out.len += 1;
                }
                return;
            }
            // Leave the segment by its other side, if it has one.
            let exit = roads.exit[entry];
            if exit == crate::data::tileset::NO_SIDE {
                return;
            }
            let exit = exit as usize;
            match board.neighbour_of(placed, exit) {
                Some(next) if next != stop => {
                    from = p.cell;
                    placed = next;
                    entry = (exit + 2) % 4;
                }
                _ => return,
            }
        }
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

    /// Moves ferry `f` to ends `a`, `b` of its lake: its link is taken out of its road
    /// (which may split in two), then the new link is applied. Returns elements whose
    /// features changed.
    pub(crate) fn move_ferry(&mut self, f: usize, a: u8, b: u8) -> [u32; 4] {
        let old = self.ferries()[f];
        let placed = old.placed as usize;
        self.unlink_ferry(f);
        self.ferries_mut()[f].a = a;
        self.ferries_mut()[f].b = b;
        let (ea, eb) = (
            self.element(placed, a as usize),
            self.element(placed, b as usize),
        );
        self.features_mut().link(ea, eb);
        [
            self.element(placed, old.a as usize),
            self.element(placed, old.b as usize),
            ea,
            eb,
        ]
    }

    /// Takes ferry `f`'s link out of its road. A road is a path or a loop of segments
    /// (each road segment has at most two ends: sides, or one side and a lake end), so the
    /// part still joined to end `a` is found by walking from `a` away from the lake. If the
    /// walk reaches end `b`, the road was a loop and stays whole; otherwise the walked part
    /// and the rest become two features, regrouped from their members in one pass each.
    fn unlink_ferry(&mut self, f: usize) {
        let link = self.ferries()[f];
        let (ea, eb) = (
            self.element(link.placed as usize, link.a as usize),
            self.element(link.placed as usize, link.b as usize),
        );
        let root = self.features().find(ea);
        let old = *self.features().node(root);
        let mut members = std::mem::take(self.scratch_elements());
        members.clear();
        let Some(walk) = self.walk_from_lake_end(f, link.placed as usize, link.a, eb, &mut members)
        else {
            // A loop: the same members without this ferry.
            self.features_mut().node_mut(root).ferries -= 1;
            *self.scratch_elements() = members;
            return;
        };
        // The rest of the old road, found through its member list before any link changes.
        let part = members.len();
        for &m in &members {
            self.features_mut().set_aside(m);
        }
        let features = self.features();
        members.extend(features.members(eb).filter(|&e| !features.is_set_aside(e)));
        let mut features = std::mem::take(self.features_mut());
        {
            let (rules, board) = (self.rules(), self.board());
            let segment_of = |n: &crate::board::features::Node| {
                let tile = board.placed[n.placed as usize].tile;
                &rules.tiles[tile as usize].segments[n.segment as usize]
            };
            features.regroup(&members[..part], segment_of);
            features.regroup(&members[part..], segment_of);
        }
        // Removing a link leaves every side of the road as it was: open, joined, or closed
        // by a map's edge.
        let (open_a, ferries_a) = {
            let n = features.node_mut(ea);
            n.open -= 2 * walk.side_joins + walk.closed_ends;
            n.ferries = walk.ferries;
            (n.open, n.ferries)
        };
        let n = features.node_mut(eb);
        n.open = old.open - open_a;
        n.ferries = old.ferries - 1 - ferries_a;
        *self.features_mut() = features;
        *self.scratch_elements() = members;
    }

    /// Walks a road from lake end `seg` of lake tile `placed`, away from the lake, as if
    /// ferry `skip` were gone, pushing each element met. Returns the side joins and ferry
    /// links crossed, or None if the walk reached element `stop` (the road is a loop).
    fn walk_from_lake_end(
        &self,
        skip: usize,
        mut placed: usize,
        mut seg: u8,
        stop: u32,
        out: &mut Vec<u32>,
    ) -> Option<Walked> {
        let rules = self.rules();
        let board = self.board();
        let mut walked = Walked::default();
        // `leave`: the side by which the walk leaves the current segment, or NO_SIDE for
        // its lake end (lake tiles) or its end on the tile (a junction, city, monastery).
        let mut leave = lake_end_side(
            {
                let p = &board.placed[placed];
                rules.roads(p.tile, p.rotation)
            },
            seg,
        );
        // The square the walk comes from: a map's ferry connection leads on from its
        // other end.
        let mut from = u32::MAX;
        // A path visits each element once: more steps than elements means broken joins.
        for _ in 0..=self.features().len() {
            out.push(self.element(placed, seg as usize));
            // The next tile and the side the road enters it by.
            let (next, entry) = if let Some((far, side)) = board.across_connection(placed, from) {
                // A map's ferry connection: on at its other end, if a tile stands there.
                let Some(next) = board.placed_at(far) else {
                    return Some(walked);
                };
                (next, side)
            } else if leave == crate::data::tileset::NO_SIDE {
                let roads = {
                    let p = &board.placed[placed];
                    rules.roads(p.tile, p.rotation)
                };
                if !roads.lake {
                    return Some(walked);
                }
                let Some(g) = self.ferries().iter().enumerate().position(|(i, g)| {
                    i != skip && g.placed as usize == placed && (g.a == seg || g.b == seg)
                }) else {
                    return Some(walked);
                };
                let g = self.ferries()[g];
                seg = if g.a == seg { g.b } else { g.a };
                walked.ferries += 1;
                leave = lake_end_side(roads, seg);
                continue;
            } else {
                let side = leave as usize;
                let Some(next) = board.neighbour_of(placed, side) else {
                    // On a map, an end facing the neutral border, a wave or a highlight is
                    // closed.
                    if board.closing_sides(board.placed[placed].cell) & (1 << side) != 0 {
                        walked.closed_ends += 1;
                    }
                    return Some(walked);
                };
                (next, (side + 2) % 4)
            };
            let roads = {
                let p = &board.placed[next];
                rules.roads(p.tile, p.rotation)
            };
            from = board.placed[placed].cell;
            placed = next;
            seg = roads.centre[entry];
            walked.side_joins += 1;
            if self.element(placed, seg as usize) == stop {
                return None;
            }
            leave = if roads.lake {
                crate::data::tileset::NO_SIDE
            } else {
                roads.exit[entry]
            };
        }
        // Unreachable: tile data allow a road segment at most two ends (sides, or one side
        // and a lake end; `parse_tileset`) and a lake holds one ferry, so the road is a
        // path or a loop; the walk starts at an end (the link it starts from is skipped),
        // so it meets each element at most once and stops within `len()` steps.
        unreachable!("a road walk revisited an element: road joins are inconsistent")
    }

    /// Moves the ferries of `mv.ferry_moves` (checked); returns the elements each move
    /// changed (four per move, u32::MAX where unused).
    // Never inlined: ferry moves are rare, and inlined into the end of a turn they made every
    // turn's frame larger.
    #[inline(never)]
    pub(crate) fn move_ferries(&mut self, mv: &Move) -> [u32; 4 * MAX_FERRY_MOVES] {
        let mut touched = [u32::MAX; 4 * MAX_FERRY_MOVES];
        for (k, m) in mv.ferry_moves.as_slice().iter().enumerate() {
            // Cannot fail: `check_ferries` found a movable ferry on a lake at (m.x, m.y)
            // (else FerryNotMovable), and moving ferries moves no tile.
            let lake = self
                .board
                .cell(m.x as i32, m.y as i32)
                .and_then(|c| self.board.placed_at(c))
                .expect("check() refused ferry moves off a lake");
            let f = self
                .system
                .ferries()
                .iter()
                .position(|f| f.placed as usize == lake)
                .expect("check() refused ferry moves without a ferry");
            let changed = self.move_ferry(f, m.a, m.b);
            touched[4 * k..4 * k + 4].copy_from_slice(&changed);
        }
        touched
    }
}

/// What a walk along a road crossed.
#[derive(Default)]
struct Walked {
    side_joins: i16,
    /// Ends closed by a map's edge (each one open end fewer).
    closed_ends: i16,
    ferries: u16,
}

/// The side of lake end `seg` (each lake end reaches exactly one side).
fn lake_end_side(roads: &crate::engine::rules::OrientedRoads, seg: u8) -> u8 {
    (0..4u8)
        .find(|&side| roads.centre[side as usize] == seg)
        // Cannot fail: `parse_tileset` refuses a LAKE tile whose road segment does not
        // reach exactly one side, and `seg` is always a road end of a lake (a ferry end).
        .expect("a lake end reaches one side")
}
