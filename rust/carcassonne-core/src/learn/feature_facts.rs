//! What an observation shows of each feature, for a whole position at once: every
//! element's root, and at each root the bytes its squares show (open sides, points
//! pending, the viewer's and the others' meeples, and with farmers which fields border
//! which cities and whose farmers are on them).
//!
//! Found in straight passes over the union-find's elements and the placed tiles, never by
//! walking a feature's members, and with as few branches on the position as can be: the
//! features of a position come in no order a processor can predict, and a mispredicted
//! branch costs as much as a dozen instructions (`examples/obs_speed` measures it; the
//! cost gate counts mispredictions the same way).

use crate::data::tileset::FeatureKind;
use crate::engine::game::{FeatureCounts, Game};
use crate::engine::rules::Rules;

/// The bytes shown for a feature, by position: see the constants below.
pub type Shown = [u8; 8];
/// Open sides left (0 for a complete feature).
pub const OPEN: usize = 0;
/// Points pending (`FeatureFacts::find` says which).
pub const VALUE: usize = 1;
/// The viewer's meeples on the feature.
pub const MINE: usize = 2;
/// The other players' meeples on it.
pub const THEIRS: usize = 3;
/// With farmers: a field's cities (finished or not), a city's bordering fields.
pub const CITIES: usize = 4;
/// With farmers, of a city: the viewer's farmers on its bordering fields.
pub const FARMERS_MINE: usize = 5;
/// With farmers, of a city: the other players' farmers on its bordering fields.
pub const FARMERS_THEIRS: usize = 6;

/// Each tile's (field segment, city segment) pairs that touch, in one list: what
/// `FeatureFacts::find` walks to learn which fields border which cities.
#[derive(Clone, Debug, Default)]
pub struct FieldBorders {
    /// Per tile of the rules, where its pairs start in `pairs` (and one more: the end).
    start: Vec<u32>,
    pairs: Vec<(u8, u8)>,
}

impl FieldBorders {
    pub fn new(rules: &Rules) -> Self {
        let mut b = FieldBorders {
            start: Vec::with_capacity(rules.tiles.len() + 1),
            pairs: Vec::new(),
        };
        for def in &rules.tiles {
            b.start.push(b.pairs.len() as u32);
            for (seg, segment) in def.segments.iter().enumerate() {
                if segment.kind == FeatureKind::Field {
                    b.pairs
                        .extend(segment.adjacent_cities.iter().map(|&c| (seg as u8, c)));
                }
            }
        }
        b.start.push(b.pairs.len() as u32);
        b
    }

    fn of(&self, tile: u16) -> &[(u8, u8)] {
        let t = tile as usize;
        &self.pairs[self.start[t] as usize..self.start[t + 1] as usize]
    }
}

/// The buckets of roots by kind: each is valued by one rule, without a branch per root.
const ROADS: usize = 0;
const CITIES_KIND: usize = 1;
const FIELDS: usize = 2;
const OTHERS: usize = 3;

fn bucket(kind: FeatureKind) -> usize {
    match kind {
        FeatureKind::Road => ROADS,
        FeatureKind::City => CITIES_KIND,
        FeatureKind::Field => FIELDS,
        _ => OTHERS,
    }
}

/// Reused buffers: `find` fills them for one position. Per element, meaningful at roots
/// (but `root`).
#[derive(Debug, Default)]
pub struct FeatureFacts {
    root: Vec<u32>,
    shown: Vec<Shown>,
    /// Distinct placed tiles of the feature.
    tiles: Vec<u32>,
    /// The placed index + 1 of the tile that counted last (a tile's elements are
    /// consecutive, so each tile counts once).
    last_tile: Vec<u32>,
    /// A field: the finished cities it borders.
    finished: Vec<u32>,
    /// The roots of each bucket (`ROADS`...), the first `roots_in[k]` of each.
    roots: [Vec<u32>; 4],
    roots_in: [usize; 4],
    /// Whether the last `find` counted which fields border which cities.
    borders: bool,
    /// The (field, city) pairs of roots counted, each once however many tiles it
    /// touches on.
    pairs: PairSet,
}

impl FeatureFacts {
    /// Finds the facts of every feature of `game` as `viewer` sees them. `borders`: count
    /// which fields border which cities (the game's fields score; `adjacent`: the
    /// rules' pairs).
    pub fn find(&mut self, game: &Game, viewer: usize, borders: Option<&FieldBorders>) {
        let features = game.features();
        let nodes = features.nodes();
        let rules = game.rules();
        features.roots_into(&mut self.root);
        let n = nodes.len();
        for v in [&mut self.tiles, &mut self.last_tile, &mut self.finished] {
            v.clear();
            v.resize(n, 0);
        }
        self.shown.clear();
        self.shown.resize(n, [0; 8]);
        for r in &mut self.roots {
            r.resize(n, 0);
        }
        self.roots_in = [0; 4];
        self.borders = borders.is_some();
        let root = &self.root;
        // Each feature's distinct tiles, its roots by kind, and the bytes every root
        // shows whatever its kind.
        for (e, node) in nodes.iter().enumerate() {
            let r = root[e] as usize;
            let tag = node.placed as u32 + 1;
            self.tiles[r] += (self.last_tile[r] != tag) as u32;
            self.last_tile[r] = tag;
            let k = bucket(node.kind);
            self.roots[k][self.roots_in[k]] = e as u32;
            self.roots_in[k] += (r == e) as usize;
            let mine = node.meeples[viewer];
            let f = &mut self.shown[e];
            f[OPEN] = byte(node.open as i32);
            f[MINE] = mine;
            f[THEIRS] = byte((node.meeple_total - mine as u16) as i32);
        }
        if let Some(adjacent) = borders {
            // Each (field, city) pair once: the first tile that shows it counts it.
            let bound = game
                .board()
                .placed
                .iter()
                .map(|p| adjacent.of(p.tile).len())
                .sum();
            self.pairs.start(bound);
            for p in &game.board().placed {
                let first = p.first_element as usize;
                for &(f, c) in adjacent.of(p.tile) {
                    let (field, city) = (root[first + f as usize], root[first + c as usize]);
                    let new = self.pairs.insert((field as u64) << 32 | city as u64) as u8;
                    let shown = &self.shown[field as usize];
                    let (mine, theirs) = (shown[MINE], shown[THEIRS]);
                    let b = &mut self.shown[city as usize];
                    b[CITIES] = b[CITIES].saturating_add(new);
                    b[FARMERS_MINE] = b[FARMERS_MINE].saturating_add(mine * new);
                    b[FARMERS_THEIRS] = b[FARMERS_THEIRS].saturating_add(theirs * new);
                    let f = &mut self.shown[field as usize];
                    f[CITIES] = f[CITIES].saturating_add(new);
                    self.finished[field as usize] +=
                        (new & (nodes[city as usize].open == 0) as u8) as u32;
                }
            }
        }
        // The points pending, one rule per bucket.
        for k in [ROADS, CITIES_KIND] {
            for &e in &self.roots[k][..self.roots_in[k]] {
                // Complete: its points are banked already.
                let open = (nodes[e as usize].open != 0) as i32;
                let v = open * game.end_value_of(e, self.tiles[e as usize]);
                debug_assert_eq!(
                    v,
                    open * game.end_value(e, &mut Vec::new()),
                    "the tiles counted in one pass"
                );
                self.shown[e as usize][VALUE] = byte(v);
            }
        }
        let spec = &rules.spec;
        let mut cities = Vec::new();
        for &e in &self.roots[FIELDS][..self.roots_in[FIELDS]] {
            let v = if borders.is_some() {
                3 * self.finished[e as usize] as i32
            } else if spec.farmers {
                game.field_cities(e, &mut cities);
                3 * cities.len() as i32
            } else {
                0
            };
            self.shown[e as usize][VALUE] = byte(v);
        }
        for &e in &self.roots[OTHERS][..self.roots_in[OTHERS]] {
            let node = &nodes[e as usize];
            let v = match node.kind {
                FeatureKind::Bridge | FeatureKind::Island | FeatureKind::Sea => {
                    node.goods.iter().map(|&g| g as i32).sum()
                }
                _ => 0,
            };
            self.shown[e as usize][VALUE] = byte(v);
        }
    }

    /// The root of element `e` (of the position last found).
    #[inline]
    pub fn root(&self, e: u32) -> u32 {
        self.root[e as usize]
    }

    /// The bytes shown for the feature rooted at `root`.
    #[inline]
    pub fn shown(&self, root: u32) -> &Shown {
        &self.shown[root as usize]
    }
}

/// The counts end-of-game scoring asks (`Game::virtual_scores_counted`), as `find` found
/// them: a field's finished cities only with `borders` (fields score only then; else
/// they are walked).
impl FeatureCounts for FeatureFacts {
    #[inline]
    fn tiles(&mut self, _game: &Game, root: u32) -> u32 {
        self.tiles[root as usize]
    }

    fn finished_cities(&mut self, game: &Game, root: u32) -> u32 {
        if self.borders {
            self.finished[root as usize]
        } else {
            let mut cities = Vec::new();
            game.field_cities(root, &mut cities);
            cities.len() as u32
        }
    }
}

/// A set of u64 keys by open addressing, emptied in constant time (`start`): each slot
/// belongs to the set only if stamped with the current round.
#[derive(Debug, Default)]
struct PairSet {
    keys: Vec<u64>,
    stamps: Vec<u32>,
    now: u32,
    /// log2 of the slots.
    bits: u32,
}

impl PairSet {
    /// Empties the set, with room for `most` keys at a load of at most a half.
    fn start(&mut self, most: usize) {
        let slots = (2 * most).next_power_of_two().max(16);
        if slots > self.keys.len() {
            self.keys = vec![0; slots];
            self.stamps = vec![0; slots];
            self.bits = slots.trailing_zeros();
            self.now = 0;
        }
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamps.fill(0);
            self.now = 1;
        }
    }

    /// Adds `key`; whether it was new. The probe ends at the first slot almost always
    /// (the set is at most half full), so the one branch on the answer is predictable.
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        let mask = (1usize << self.bits) - 1;
        let mut i = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - self.bits)) as usize;
        loop {
            let empty = self.stamps[i] != self.now;
            if empty || self.keys[i] == key {
                self.keys[i] = key;
                self.stamps[i] = self.now;
                return empty;
            }
            i = (i + 1) & mask;
        }
    }
}

/// A count or value as a board byte: 0 to 255 (a larger one is shown as 255).
#[inline]
pub fn byte(v: i32) -> u8 {
    v.clamp(0, 255) as u8
}
