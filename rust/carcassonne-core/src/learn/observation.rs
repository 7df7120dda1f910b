//! Observations for learning agents: board planes (bytes) over the action space's window
//! and a vector of the rest (floats), written into buffers the caller owns, from the point of view of
//! the player who decides now (`Game::decider`: player 0 of every per-player part is the
//! decider, then the others in seat order after him).
//!
//! An observation holds only what that player can see: the board, scores, supplies,
//! wares and the face-up ships; of the tiles still to come only how many of each kind are
//! unseen (never their order, nor, with a shorter Maps deck, which ones were left out);
//! of the Friday tiles only the revealed ones. The facts a network cannot derive from the
//! board by convolution are given per square: for the feature along each side of a tile
//! (the road or city crossing its middle, else the field), its open sides, its value now
//! and the meeples on it; with farmers, which fields border which cities and whose
//! farmers are on them.

use crate::board::map_board::Geometry;
use crate::data::tileset::MAX_SEGMENTS;
use crate::data::tileset::{FeatureKind, NO_SEGMENT, Shape};
use crate::engine::game::Game;
use crate::learn::action_space::{ActionSpace, BlockKind};
use crate::learn::codec::{CodecError, MAX_TOKENS};
use crate::learn::window::{Window, WindowRule};
use crate::systems::south_seas::state::{DISPLAY_SIZE, Phase};
use crate::topology::{CENTRE, HALF_LEFT, SIDE_NAMES, slot};

/// The `chosen_meeple` field: no meeple, one per feature, the islander taken back.
const CHOSEN_MEEPLES: usize = 2 + MAX_SEGMENTS;
/// The fields of the action under way, the last of the vector: `token`,
/// `chosen_rotation`, `chosen_meeple`.
const CHOSEN_FIELDS: usize = MAX_TOKENS + 4 + CHOSEN_MEEPLES;

/// Phases in the order of the `phase` field.
const PHASES: [Phase; 5] = [
    Phase::Place,
    Phase::Deliver,
    Phase::Market,
    Phase::MoveFriday,
    Phase::Homecoming,
];

/// The layout of a rules configuration's observations: the board planes (each `window`
/// x `window`, row y then column x, as the action space's "place" block) and the vector
/// fields, by name, in order.
#[derive(Clone, Debug)]
pub struct ObservationLayout {
    space: ActionSpace,
    window: u32,
    rule: WindowRule,
    players: usize,
    planes: Vec<String>,
    fields: Vec<(String, usize)>,
    deck_tiles: usize,
    map: bool,
    goods: bool,
    south_seas: bool,
    friday: usize,
    ships: usize,
    ferries: bool,
    /// Whether fields score (farmers): then the `cities_*` and `farmers_*` planes.
    farmers: bool,
}

/// Reused buffers of `ObservationLayout::write`.
#[derive(Debug, Default)]
pub struct ObservationScratch {
    /// Per element, its feature's value once computed this call (`stamp` says which).
    value: Vec<u8>,
    stamp: Vec<u32>,
    now: u32,
    tiles: Vec<u16>,
    cities: Vec<u32>,
    counts: Vec<u32>,
    /// Per root element, its `BORDERS` counts and for a field the finished cities it
    /// borders (valid where `border_stamp` is `now`).
    border: Vec<[u8; 4]>,
    border_stamp: Vec<u32>,
    /// Per city root, the field that counted it last (`count_field`).
    counted_for: Vec<u32>,
}

/// Board planes of one kind per side, in side order.
const PER_SIDE: [&str; 4] = ["open", "value", "mine", "theirs"];
/// With farmers, which fields border which cities, per side: for a field, the cities it
/// borders (finished or not); for a city, the fields bordering it and the viewer's and
/// the others' farmers on them (who gains when it is finished).
const BORDERS: [&str; 3] = ["cities", "farmers_mine", "farmers_theirs"];

impl ObservationLayout {
    pub fn new(rules: &crate::engine::rules::Rules, space: &ActionSpace) -> Self {
        let players = rules.players();
        let map = matches!(rules.geometry, Geometry::Map(_));
        let south_seas = rules.takes_back;
        let goods = south_seas || rules.spec.traders_goods;
        let friday = rules.friday.len();
        let deck_tiles = rules.printed_from as usize;
        let mut planes: Vec<String> = vec!["tile".into(), "open".into()];
        if map {
            planes.push("playable".into());
        }
        for side in SIDE_NAMES {
            for kind in ["city", "road", "field"] {
                planes.push(format!("edge_{kind}_{side}"));
            }
        }
        for p in 0..players {
            planes.push(format!("meeples_{p}"));
        }
        for side in SIDE_NAMES {
            for what in PER_SIDE {
                planes.push(format!("{what}_{side}"));
            }
        }
        let farmers = rules.spec.farmers && !south_seas;
        if farmers {
            for side in SIDE_NAMES {
                for what in BORDERS {
                    planes.push(format!("{what}_{side}"));
                }
            }
        }
        planes.extend(["centre_value", "centre_mine", "centre_theirs"].map(String::from));
        if goods {
            planes.extend(["goods_0", "goods_1", "goods_2"].map(String::from));
        }
        // The action under way: its placement's square, and (The Ferries) the lake whose
        // ferry is being moved.
        planes.push("chosen_place".into());
        let ferries = space.block(BlockKind::FerryAt).is_some();
        if ferries {
            planes.push("chosen_ferry".into());
        }
        let mut fields: Vec<(String, usize)> = vec![
            ("phase".into(), PHASES.len()),
            ("tile".into(), deck_tiles),
            ("supply".into(), players),
            ("score".into(), players),
            ("virtual_score".into(), players),
            ("unseen".into(), deck_tiles),
            ("tiles_left".into(), 1),
        ];
        if goods {
            fields.push(("goods".into(), 3 * players));
        }
        if south_seas {
            fields.push(("display".into(), DISPLAY_SIZE * rules.ships.len()));
            fields.push(("tokens_left".into(), 1));
        }
        if friday > 0 {
            fields.push(("friday_revealed".into(), friday));
            fields.push(("friday_at".into(), friday));
        }
        // The action under way: which of its tokens comes next, the chosen rotation, and
        // the chosen meeple (none, a feature, or the islander taken back).
        fields.push(("token".into(), MAX_TOKENS));
        fields.push(("chosen_rotation".into(), 4));
        fields.push(("chosen_meeple".into(), CHOSEN_MEEPLES));
        ObservationLayout {
            space: space.clone(),
            window: space.window(),
            rule: space.window_rule(),
            players,
            planes,
            fields,
            deck_tiles,
            map,
            goods,
            south_seas,
            friday,
            ships: rules.ships.len(),
            ferries,
            farmers,
        }
    }

    /// The action space whose window and tokens the observations follow.
    pub fn space(&self) -> &ActionSpace {
        &self.space
    }

    /// The board planes' names, in order.
    pub fn planes(&self) -> &[String] {
        &self.planes
    }

    /// The vector's fields as (name, length), in order.
    pub fn fields(&self) -> &[(String, usize)] {
        &self.fields
    }

    pub fn window(&self) -> u32 {
        self.window
    }

    /// Floats of the board part: planes x window x window.
    pub fn board_len(&self) -> usize {
        self.planes.len() * (self.window * self.window) as usize
    }

    /// Floats of the vector part.
    pub fn vector_len(&self) -> usize {
        self.fields.iter().map(|f| f.1).sum()
    }

    /// Writes `game`'s observation for its decider into `board` (`board_len` bytes) and
    /// `vector` (`vector_len` floats), overwriting them whole; `prefix` is the tokens
    /// already chosen for the action under way (shown in the `chosen_*` parts). Refuses
    /// a game that has outgrown the window (the buffers are then unchanged).
    pub fn write(
        &self,
        game: &Game,
        prefix: &[u32],
        scratch: &mut ObservationScratch,
        board: &mut [u8],
        vector: &mut [f32],
    ) -> Result<(), CodecError> {
        let decider = game.decider();
        self.write_for(game, decider, prefix, scratch, board, vector)
    }

    /// `write` from the seat of `viewer` (below the number of players) instead of the
    /// decider's: player 0 of every per-player part is `viewer` (a multi-agent
    /// environment shows each agent the game from its own seat; nothing of the game is
    /// hidden from one player and not from another).
    pub fn write_for(
        &self,
        game: &Game,
        viewer: usize,
        prefix: &[u32],
        scratch: &mut ObservationScratch,
        board: &mut [u8],
        vector: &mut [f32],
    ) -> Result<(), CodecError> {
        assert!(viewer < self.players, "a seat of the game");
        assert_eq!(board.len(), self.board_len(), "board buffer");
        assert_eq!(vector.len(), self.vector_len(), "vector buffer");
        let window = if game.is_over() && self.rule == WindowRule::Centred {
            // A finished game's board may have outgrown the window: it is seen as far as
            // the window holds it, centred as at the last placement's window would be.
            self.rule
                .window_of(game, self.window)
                .unwrap_or_else(|_| last_window(game, self.window))
        } else {
            self.rule.window_of(game, self.window)?
        };
        board.fill(0);
        vector.fill(0.0);
        self.write_board(game, viewer, &window, scratch, board);
        self.write_vector(game, viewer, scratch, vector);
        self.write_chosen(prefix, board, vector);
        Ok(())
    }

    /// Player `p` relative to the viewer (0 = the viewer).
    #[inline]
    fn relative(&self, viewer: usize, p: usize) -> usize {
        (p + self.players - viewer) % self.players
    }

    fn write_board(
        &self,
        game: &Game,
        viewer: usize,
        window: &Window,
        s: &mut ObservationScratch,
        out: &mut [u8],
    ) {
        let squares = (self.window * self.window) as usize;
        let rules = game.rules();
        let board = game.board();
        let features = game.features();
        let mut plane = 0usize;
        let mut next = |n: usize| {
            let p = plane;
            plane += n;
            p
        };
        let tile_p = next(1);
        let open_p = next(1);
        let playable_p = if self.map { next(1) } else { usize::MAX };
        let edge_p = next(12);
        let meeple_p = next(self.players);
        let side_p = next(4 * PER_SIDE.len());
        let border_p = if self.farmers {
            next(4 * BORDERS.len())
        } else {
            usize::MAX
        };
        let centre_p = next(3);
        let goods_p = if self.goods { next(3) } else { usize::MAX };
        // The chosen square planes (`write_chosen`).
        next(1 + self.ferries as usize);
        debug_assert_eq!(plane, self.planes.len());
        let at = |p: usize, i: u32| p * squares + i as usize;
        for o in &board.open {
            let (x, y) = board.xy(o.cell);
            if let Some(i) = window.index(x, y) {
                out[at(open_p, i)] = 1;
            }
        }
        if let (true, Geometry::Map(map)) = (self.map, &rules.geometry) {
            for i in 0..squares as u32 {
                let (x, y) = window.square(i);
                if let Some(cell) = board.cell(x, y)
                    && ((cell as usize) < map.grid_cells)
                    && (map.playable[cell as usize]
                        || map.island[cell as usize] != crate::board::map_board::NO_ISLAND)
                {
                    out[at(playable_p, i)] = 1;
                }
            }
        }
        s.now = s.now.wrapping_add(1);
        if s.now == 0 {
            s.stamp.fill(0);
            s.border_stamp.fill(0);
            s.now = 1;
        }
        s.value.resize(features.len(), 0);
        s.stamp.resize(features.len(), 0);
        let decider = viewer;
        if self.farmers {
            count_borders(game, viewer, s);
        }
        for (index, p) in board.placed.iter().enumerate() {
            if !board.on_square(index) {
                continue;
            }
            let Some(i) = window.index(p.x, p.y) else {
                continue;
            };
            out[at(tile_p, i)] = 1;
            let def = &rules.tiles[p.tile as usize];
            let r = p.rotation as usize & 3;
            for (side, edge) in def.edges_at[r].iter().enumerate() {
                out[at(edge_p + 3 * side + (*edge as usize - 1), i)] = 1;
            }
            for (seg, segment) in def.segments.iter().enumerate() {
                let e = p.first_element + seg as u32;
                let node = features.node(e);
                if node.meeple != crate::board::features::NO_PLAYER {
                    let m = &mut out[at(meeple_p + self.relative(viewer, node.meeple as usize), i)];
                    *m = m.saturating_add(1);
                }
                if self.goods {
                    for g in 0..3 {
                        let w = &mut out[at(goods_p + g, i)];
                        *w = w.saturating_add(segment.goods[g]);
                    }
                }
                if segment.kind.shape() == Shape::Centre {
                    let root = features.node(features.find(e));
                    out[at(centre_p, i)] = byte(1 + board.ring_filled(p.cell, None) as i32);
                    out[at(centre_p + 1, i)] = root.meeples[decider];
                    out[at(centre_p + 2, i)] =
                        byte((root.meeple_total - root.meeples[decider] as u16) as i32);
                }
            }
            let own = &def.slot_segment[r];
            for side in 0..4 {
                // The road or city crossing the side's middle; on a side that has
                // neither, the field along it (its halves are one field).
                let mut seg = own[slot(side, CENTRE)];
                if seg == NO_SEGMENT {
                    seg = own[slot(side, HALF_LEFT)];
                }
                if seg == NO_SEGMENT {
                    continue;
                }
                let root = features.find(p.first_element + seg as u32);
                let node = features.node(root);
                let base = side_p + PER_SIDE.len() * side;
                out[at(base, i)] = byte(node.open as i32);
                out[at(base + 1, i)] = self.value(game, root, s);
                out[at(base + 2, i)] = node.meeples[decider];
                out[at(base + 3, i)] =
                    byte((node.meeple_total - node.meeples[decider] as u16) as i32);
                if self.farmers && s.border_stamp.get(root as usize) == Some(&s.now) {
                    let b = s.border[root as usize];
                    let base = border_p + BORDERS.len() * side;
                    for (k, v) in b[..BORDERS.len()].iter().enumerate() {
                        out[at(base + k, i)] = *v;
                    }
                }
            }
        }
    }

    /// The points still pending on the feature rooted at `root`: an unfinished road's or
    /// city's end-of-game points (0 once complete: its points are banked), a field's
    /// points for the completed cities it borders (0 without farmers), a South Seas
    /// feature's wares not yet covered.
    fn value(&self, game: &Game, root: u32, s: &mut ObservationScratch) -> u8 {
        let r = root as usize;
        if s.stamp[r] == s.now {
            return s.value[r];
        }
        let node = game.features().node(root);
        let v = match node.kind {
            // Complete: its points are banked already.
            FeatureKind::Road | FeatureKind::City if node.open == 0 => 0,
            FeatureKind::Road | FeatureKind::City => game.end_value(root, &mut s.tiles),
            FeatureKind::Field => {
                if self.farmers && s.border_stamp[r] == s.now {
                    // Counted with the borders (`count_borders`).
                    3 * s.border[r][3] as i32
                } else if game.rules().spec.farmers {
                    game.field_cities(root, &mut s.cities);
                    3 * s.cities.len() as i32
                } else {
                    0
                }
            }
            FeatureKind::Bridge | FeatureKind::Island | FeatureKind::Sea => {
                node.goods.iter().map(|&g| g as i32).sum()
            }
            FeatureKind::Monastery | FeatureKind::Market => 0,
        };
        s.stamp[r] = s.now;
        s.value[r] = byte(v);
        s.value[r]
    }

    /// Rewrites the `chosen_*` parts and `token` of an observation of this position for
    /// `prefix`, the tokens chosen so far for the action under way: an environment that
    /// keeps the observation written at the action's first token updates only these for
    /// the next ones (the position itself does not change until the action is complete).
    pub fn write_chosen(&self, prefix: &[u32], board: &mut [u8], vector: &mut [f32]) {
        let squares = (self.window * self.window) as usize;
        // The chosen parts are the last planes (`chosen_place`, with The Ferries
        // `chosen_ferry`) and the last fields (`token`, `chosen_rotation`,
        // `chosen_meeple`), as `new` declares them.
        let place_plane = self.planes.len() - 1 - self.ferries as usize;
        let token = self.vector_len() - CHOSEN_FIELDS;
        let (rotation, meeple) = (token + MAX_TOKENS, token + MAX_TOKENS + 4);
        board[place_plane * squares..].fill(0);
        vector[token..].fill(0.0);
        vector[token + prefix.len().min(MAX_TOKENS - 1)] = 1.0;
        let mut moving = None;
        for &t in prefix {
            let Some((block, offset)) = self.space.locate(t) else {
                continue;
            };
            match block.kind {
                BlockKind::Place => {
                    board[place_plane * squares + (offset / 4) as usize] = 1;
                    vector[rotation + (offset % 4) as usize] = 1.0;
                }
                BlockKind::Meeple => vector[meeple + offset as usize] = 1.0,
                BlockKind::Islander => vector[meeple + CHOSEN_MEEPLES - 1] = 1.0,
                BlockKind::FerryAt => moving = Some(offset),
                BlockKind::Ferry => moving = None,
                _ => {}
            }
        }
        if let (true, Some(i)) = (self.ferries, moving) {
            board[(place_plane + 1) * squares + i as usize] = 1;
        }
    }

    fn write_vector(
        &self,
        game: &Game,
        viewer: usize,
        s: &mut ObservationScratch,
        out: &mut [f32],
    ) {
        let mut at = 0usize;
        let mut field = |n: usize| {
            let start = at;
            at += n;
            start
        };
        let phase = field(PHASES.len());
        if !game.is_over() {
            let k = PHASES.iter().position(|p| *p == game.phase()).unwrap_or(0);
            out[phase + k] = 1.0;
        }
        let tile = field(self.deck_tiles);
        if let Some(t) = game.tile().filter(|&t| (t as usize) < self.deck_tiles) {
            out[tile + t as usize] = 1.0;
        }
        let (supply, score, virtual_score) = (
            field(self.players),
            field(self.players),
            field(self.players),
        );
        let virtual_scores = game.virtual_scores();
        for p in 0..self.players {
            let r = self.relative(viewer, p);
            out[supply + r] = game.supply()[p] as f32;
            out[score + r] = game.scores()[p] as f32;
            out[virtual_score + r] = virtual_scores[p] as f32;
        }
        // The unseen tiles: the full set less every tile drawn so far (the current one
        // included); the order of the undrawn ones, and with a shorter deck which tiles
        // were left out, stay hidden.
        let unseen = field(self.deck_tiles);
        game.unseen_counts(&mut s.counts);
        for t in 0..self.deck_tiles {
            out[unseen + t] = s.counts[t] as f32;
        }
        let left = field(1);
        out[left] = game.remaining().len() as f32;
        if self.goods {
            let goods = field(3 * self.players);
            for p in 0..self.players {
                let r = self.relative(viewer, p);
                let have = match game.sea() {
                    Some(sea) => sea.wares[p].map(|w| w as f32),
                    None => game.goods(p).map(|g| g as f32),
                };
                out[goods + 3 * r..][..3].copy_from_slice(&have);
            }
        }
        if self.south_seas {
            let display = field(DISPLAY_SIZE * self.ships);
            let tokens = field(1);
            if let Some(sea) = game.sea() {
                for (slot, &ship) in sea.display.iter().enumerate().take(DISPLAY_SIZE) {
                    out[display + slot * self.ships + ship as usize] = 1.0;
                }
                out[tokens] = sea.tokens_left as f32;
            }
        }
        if self.friday > 0 {
            let (revealed, friday_at) = (field(self.friday), field(self.friday));
            if let Some(f) = game.friday() {
                for &t in &f.order[..f.revealed] {
                    out[revealed + t as usize] = 1.0;
                }
                if let Some(t) = f.at {
                    out[friday_at + t as usize] = 1.0;
                }
            }
        }
        // The action under way (`write_chosen`).
        field(CHOSEN_FIELDS);
        debug_assert_eq!(at, self.vector_len());
    }
}

/// A count or value as a board byte: 0 to 255 (a larger one is shown as 255).
#[inline]
fn byte(v: i32) -> u8 {
    v.clamp(0, 255) as u8
}

/// A window over a finished game's board that outgrew the action space's: centred on
/// the last tile placed.
fn last_window(game: &Game, size: u32) -> Window {
    let (x, y) = game.board().placed.last().map_or((0, 0), |p| (p.x, p.y));
    Window {
        size,
        x0: x - (size as i32 - 1) / 2,
        y0: y - (size as i32 - 1) / 2,
    }
}

/// Fills `s.border` (`BORDERS`, and a field's finished cities, which its value needs:
/// `Game::field_cities` counted once) for every field and every city a field borders,
/// from the fields' tile segments' adjacent cities: each (field, city) pair counted once,
/// however many tiles it touches on. Stamped with `s.now` (set by the caller).
fn count_borders(game: &Game, viewer: usize, s: &mut ObservationScratch) {
    let features = game.features();
    let board = game.board();
    let tiles = &game.rules().tiles;
    let n = features.len();
    s.border.resize(n, [0; 4]);
    s.border_stamp.resize(n, 0);
    s.counted_for.resize(n, u32::MAX);
    let now = s.now;
    // The fields from the placed tiles' field segments, each root once (its stamp).
    for p in &board.placed {
        for (seg, segment) in tiles[p.tile as usize].segments.iter().enumerate() {
            if segment.kind != FeatureKind::Field {
                continue;
            }
            let f = features.find(p.first_element + seg as u32);
            if s.border_stamp[f as usize] != now {
                count_field(game, viewer, f, s);
            }
        }
    }
}

/// `count_borders` for the field rooted at `f`: its members' adjacent cities, each city
/// once (`counted_for` holds the last field that counted it, and a field's members are
/// walked together).
fn count_field(game: &Game, viewer: usize, f: u32, s: &mut ObservationScratch) {
    let (features, board, tiles) = (game.features(), game.board(), &game.rules().tiles);
    let now = s.now;
    let field = features.node(f);
    let mine = field.meeples[viewer];
    let theirs = byte((field.meeple_total - mine as u16) as i32);
    let (mut cities, mut finished) = (0u8, 0u8);
    for m in features.members(f) {
        let node = features.node(m);
        let p = &board.placed[node.placed as usize];
        for &c in &tiles[p.tile as usize].segments[node.segment as usize].adjacent_cities {
            let city = features.find(p.first_element + c as u32) as usize;
            if s.border_stamp[city] != now {
                s.border_stamp[city] = now;
                s.border[city] = [0; 4];
                s.counted_for[city] = u32::MAX;
            }
            if s.counted_for[city] == f {
                continue;
            }
            s.counted_for[city] = f;
            cities = cities.saturating_add(1);
            finished = finished.saturating_add((features.node(city as u32).open == 0) as u8);
            let b = &mut s.border[city];
            b[0] = b[0].saturating_add(1);
            b[1] = b[1].saturating_add(mine);
            b[2] = b[2].saturating_add(theirs);
        }
    }
    s.border_stamp[f as usize] = now;
    s.border[f as usize] = [cities, 0, 0, finished];
}
