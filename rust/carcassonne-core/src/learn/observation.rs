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

use crate::board::features::NO_PLAYER;
use crate::board::grid::Board;
use crate::board::map_board::{Geometry, NO_ISLAND};
use crate::data::tileset::MAX_SEGMENTS;
use crate::data::tileset::{NO_SEGMENT, Shape, TileDef};
use crate::engine::decision::Phase;
use crate::engine::game::Game;
use crate::learn::action_space::{ActionSpace, BlockKind};
use crate::learn::codec::{CodecError, MAX_TOKENS};
use crate::learn::feature_facts::{
    CITIES, FARMERS_MINE, FARMERS_THEIRS, FeatureFacts, FieldBorders, MINE, OPEN, THEIRS, VALUE,
    byte,
};
use crate::learn::system_parts::SystemParts;
use crate::learn::window::{Window, WindowRule};
use crate::systems::south_seas::state::DISPLAY_SIZE;
use crate::topology::{CENTRE, HALF_LEFT, SIDE_NAMES, slot};

/// The `chosen_meeple` field: no meeple, one per feature, the islander taken back.
const CHOSEN_MEEPLES: usize = 2 + MAX_SEGMENTS;
/// The fields of the action under way, the last of the vector: `token`,
/// `chosen_rotation`, `chosen_meeple`.
const CHOSEN_FIELDS: usize = MAX_TOKENS + 4 + CHOSEN_MEEPLES;

/// Phases in the order of the `phase` field. Every configuration's field has the first
/// five; `Phase::ExtraTurn`, last, is in it only with Carcassonne Maps' small-town variant
/// 1 (`SystemParts::extra_turn`), so that every other configuration's observations keep
/// their layout and values.
const PHASES: [Phase; 6] = [
    Phase::Place,
    Phase::Deliver,
    Phase::Market,
    Phase::MoveFriday,
    Phase::Homecoming,
    Phase::ExtraTurn,
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
    /// What the rule system adds (`learn::system_parts`).
    parts: SystemParts,
    /// Friday's tiles (with `parts.friday`).
    friday: usize,
    /// The entries of the `phase` field: the first of `PHASES`.
    phases: usize,
    ships: usize,
    /// Where each kind of board plane starts.
    at: PlaneIndex,
    /// Per tile of the rules and rotation, what its square shows that the tile alone
    /// decides.
    views: Vec<[TileView; 4]>,
    /// With farmers, which tile segments border which: for the `cities_*` planes.
    borders: Option<FieldBorders>,
    /// Carcassonne Maps: the `playable` plane, the same for every position (the map's
    /// window is fixed). Empty on the open grid.
    playable: Vec<u8>,
}

/// The first plane of each kind (`usize::MAX`: a kind these rules do not show).
#[derive(Clone, Copy, Debug)]
struct PlaneIndex {
    tile: usize,
    open: usize,
    playable: usize,
    /// Twelve: per side, city, road, field.
    edge: usize,
    /// One per player, from the viewer's seat.
    meeple: usize,
    /// `PER_SIDE` per side.
    side: usize,
    /// `BORDERS` per side.
    border: usize,
    /// Value, mine, theirs.
    centre: usize,
    goods: usize,
}

/// What a tile in one rotation shows on its square, whatever the position.
#[derive(Clone, Copy, Debug)]
struct TileView {
    /// Per side, the plane of its edge's kind, from the first edge plane.
    edge: [u8; 4],
    /// Per side, the segment whose feature the side shows: the road or city crossing its
    /// middle, else the field along it (its halves are one field); NO_SEGMENT: none.
    side: [u8; 4],
    /// The tile's last segment of centre shape (monastery, market), or NO_SEGMENT.
    centre: u8,
    /// Its goods or wares of each kind, over all its segments (at most 255).
    goods: [u8; 3],
}

impl TileView {
    fn new(def: &TileDef, rotation: usize) -> Self {
        let own = &def.slot_segment[rotation];
        let mut view = TileView {
            edge: [0; 4],
            side: [NO_SEGMENT; 4],
            centre: NO_SEGMENT,
            goods: [0; 3],
        };
        for side in 0..4 {
            view.edge[side] = (3 * side + (def.edges_at[rotation][side] as usize - 1)) as u8;
            view.side[side] = match own[slot(side, CENTRE)] {
                NO_SEGMENT => own[slot(side, HALF_LEFT)],
                seg => seg,
            };
        }
        for (seg, segment) in def.segments.iter().enumerate() {
            if segment.kind.shape() == Shape::Centre {
                view.centre = seg as u8;
            }
            for g in 0..3 {
                view.goods[g] = view.goods[g].saturating_add(segment.goods[g]);
            }
        }
        view
    }
}

/// Reused buffers of `ObservationLayout::write`.
#[derive(Debug, Default)]
pub struct ObservationScratch {
    facts: FeatureFacts,
    counts: Vec<u32>,
    roots: Vec<u32>,
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
        let parts = SystemParts::of(rules);
        let friday = rules.friday.len();
        let deck_tiles = rules.printed_from as usize;
        let phases = PHASES.len() - (!parts.extra_turn) as usize;
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
        if parts.farmers {
            for side in SIDE_NAMES {
                for what in BORDERS {
                    planes.push(format!("{what}_{side}"));
                }
            }
        }
        planes.extend(["centre_value", "centre_mine", "centre_theirs"].map(String::from));
        if parts.goods {
            planes.extend(["goods_0", "goods_1", "goods_2"].map(String::from));
        }
        // The action under way: its placement's square, and (The Ferries) the lake whose
        // ferry is being moved.
        planes.push("chosen_place".into());
        if parts.ferries {
            planes.push("chosen_ferry".into());
        }
        let mut fields: Vec<(String, usize)> = vec![
            ("phase".into(), phases),
            ("tile".into(), deck_tiles),
            ("supply".into(), players),
            ("score".into(), players),
            ("virtual_score".into(), players),
            ("unseen".into(), deck_tiles),
            ("tiles_left".into(), 1),
        ];
        if parts.goods {
            fields.push(("goods".into(), 3 * players));
        }
        if parts.ships {
            fields.push(("display".into(), DISPLAY_SIZE * rules.ships.len()));
            fields.push(("tokens_left".into(), 1));
        }
        if parts.friday {
            fields.push(("friday_revealed".into(), friday));
            fields.push(("friday_at".into(), friday));
        }
        // The action under way: which of its tokens comes next, the chosen rotation, and
        // the chosen meeple (none, a feature, or the islander taken back).
        fields.push(("token".into(), MAX_TOKENS));
        fields.push(("chosen_rotation".into(), 4));
        fields.push(("chosen_meeple".into(), CHOSEN_MEEPLES));
        let first = |name: &str| planes.iter().position(|p| p == name).unwrap_or(usize::MAX);
        let at = PlaneIndex {
            tile: first("tile"),
            open: first("open"),
            playable: first("playable"),
            edge: first("edge_city_N"),
            meeple: first("meeples_0"),
            side: first("open_N"),
            border: first("cities_N"),
            centre: first("centre_value"),
            goods: first("goods_0"),
        };
        let views = rules
            .tiles
            .iter()
            .map(|def| [0, 1, 2, 3].map(|r| TileView::new(def, r)))
            .collect();
        let window = space.window();
        let playable = match (&rules.geometry, space.window_rule()) {
            (Geometry::Map(map), WindowRule::Fixed { x0, y0 }) => {
                let board = Board::with_geometry(0, &rules.geometry);
                let w = Window {
                    size: window,
                    x0,
                    y0,
                };
                (0..window * window)
                    .map(|i| {
                        let (x, y) = w.square(i);
                        board.cell(x, y).is_some_and(|cell| {
                            let c = cell as usize;
                            c < map.grid_cells && (map.playable[c] || map.island[c] != NO_ISLAND)
                        }) as u8
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        ObservationLayout {
            space: space.clone(),
            window: space.window(),
            rule: space.window_rule(),
            players,
            planes,
            fields,
            deck_tiles,
            parts,
            friday,
            phases,
            ships: rules.ships.len(),
            at,
            views,
            borders: parts.farmers.then(|| FieldBorders::new(rules)),
            playable,
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

    /// Each board plane's largest value, in plane order: 1 for the planes that mark (a
    /// tile, an open or playable square, an edge's kind, the square chosen), 9 for
    /// `centre_value` (a monastery's tiles), 255 for counts and points (shown up to 255).
    /// Learning libraries take these as the board's bounds: with them the board is not
    /// mistaken for an 8-bit picture whose channel axis is to be guessed.
    pub fn plane_max(&self) -> Vec<u8> {
        self.planes
            .iter()
            .map(|name| match name.as_str() {
                "tile" | "open" | "playable" | "chosen_place" | "chosen_ferry" => 1,
                edge if edge.starts_with("edge_") => 1,
                // 1 + the tiles around it, as `write_board` shows it.
                "centre_value" => 9,
                _ => 255,
            })
            .collect()
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
        let board = game.board();
        let features = game.features();
        let at = &self.at;
        let plane = |p: usize| p * squares;
        for o in &board.open {
            let (x, y) = board.xy(o.cell);
            if let Some(i) = window.index(x, y) {
                out[plane(at.open) + i as usize] = 1;
            }
        }
        if !self.playable.is_empty() {
            out[plane(at.playable)..][..squares].copy_from_slice(&self.playable);
        }
        s.facts.find(game, viewer, self.borders.as_ref());
        // The meeples, from the list of the elements they stand on where the rule system
        // keeps one (a pass over every element otherwise).
        let nodes = features.nodes();
        let mut meeple = |e: usize| {
            let node = &nodes[e];
            let p = &board.placed[node.placed as usize];
            if let (true, Some(i)) = (
                board.on_square(node.placed as usize),
                window.index(p.x, p.y),
            ) {
                let m = &mut out
                    [plane(at.meeple + self.relative(viewer, node.meeple as usize)) + i as usize];
                *m = m.saturating_add(1);
            }
        };
        match features.occupied_elements() {
            Some(occupied) => occupied.iter().for_each(|&e| meeple(e as usize)),
            None => (0..nodes.len())
                .filter(|&e| nodes[e].meeple != NO_PLAYER)
                .for_each(&mut meeple),
        }
        let facts = &s.facts;
        let (side_planes, border_planes) = (PER_SIDE.len(), BORDERS.len());
        for (index, p) in board.placed.iter().enumerate() {
            if !board.on_square(index) {
                continue;
            }
            let Some(i) = window.index(p.x, p.y) else {
                continue;
            };
            let i = i as usize;
            let view = &self.views[p.tile as usize][p.rotation as usize & 3];
            out[plane(at.tile) + i] = 1;
            for &edge in &view.edge {
                out[plane(at.edge + edge as usize) + i] = 1;
            }
            if self.parts.goods {
                for (g, &n) in view.goods.iter().enumerate() {
                    let w = &mut out[plane(at.goods + g) + i];
                    *w = w.saturating_add(n);
                }
            }
            if view.centre != NO_SEGMENT {
                let shown = facts.shown(facts.root(p.first_element + view.centre as u32));
                out[plane(at.centre) + i] = byte(1 + board.ring_filled(p.cell, None) as i32);
                out[plane(at.centre + 1) + i] = shown[MINE];
                out[plane(at.centre + 2) + i] = shown[THEIRS];
            }
            for (side, &seg) in view.side.iter().enumerate() {
                if seg == NO_SEGMENT {
                    continue;
                }
                let shown = facts.shown(facts.root(p.first_element + seg as u32));
                let base = at.side + side_planes * side;
                out[plane(base) + i] = shown[OPEN];
                out[plane(base + 1) + i] = shown[VALUE];
                out[plane(base + 2) + i] = shown[MINE];
                out[plane(base + 3) + i] = shown[THEIRS];
                if self.parts.farmers {
                    let base = at.border + border_planes * side;
                    out[plane(base) + i] = shown[CITIES];
                    out[plane(base + 1) + i] = shown[FARMERS_MINE];
                    out[plane(base + 2) + i] = shown[FARMERS_THEIRS];
                }
            }
        }
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
        let place_plane = self.planes.len() - 1 - self.parts.ferries as usize;
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
        if let (true, Some(i)) = (self.parts.ferries, moving) {
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
        let phase = field(self.phases);
        if !game.is_over() {
            // `PHASES` lists the phases in their declaration order, so a phase's entry is
            // its discriminant (no search: a loop over the phases cost 15 mispredicted
            // branches per observation, callgrind). A configuration's games reach only the
            // phases of its field.
            let k = game.phase() as usize;
            debug_assert!(
                k < self.phases && PHASES[k] == game.phase(),
                "phase {:?} in the field",
                game.phase()
            );
            out[phase + k.min(self.phases - 1)] = 1.0;
        }
        // The tile in hand: none while an extra turn is decided (it is drawn after).
        let tile = field(self.deck_tiles);
        if let Some(t) = game.tile().filter(|&t| (t as usize) < self.deck_tiles) {
            out[tile + t as usize] = 1.0;
        }
        let (supply, score, virtual_score) = (
            field(self.players),
            field(self.players),
            field(self.players),
        );
        // The features' tiles and cities as the board's facts counted them (`write_board`
        // found them for this position).
        let virtual_scores = game.virtual_scores_counted(&mut s.roots, &mut s.facts);
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
        if self.parts.goods {
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
        if self.parts.ships {
            let display = field(DISPLAY_SIZE * self.ships);
            let tokens = field(1);
            if let Some(sea) = game.sea() {
                for (slot, &ship) in sea.display.iter().enumerate().take(DISPLAY_SIZE) {
                    out[display + slot * self.ships + ship as usize] = 1.0;
                }
                out[tokens] = sea.tokens_left as f32;
            }
        }
        if self.parts.friday {
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
