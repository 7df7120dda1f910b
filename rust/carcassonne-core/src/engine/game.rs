//! A game in progress: its state, moves and errors, queries, the joins of a placed tile,
//! the evaluation of a placement without playing it, scoring during play and at the end,
//! and the event log. The turn loop is `engine::turn` (generic over the rule system) and
//! the public entry points that start and play games are in `systems::any`.
//!
//! A turn: the current player holds `tile` (drawn; tiles with no legal placement were
//! already removed, decision C-3), plays a `Move` (square, rotation, optional meeple on one
//! of the tile's segments), completed features score, then the next player draws.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::board::features::{Features, NO_PLAYER};
use crate::board::grid::Board;
use crate::board::placed::Placed;
use crate::data::tileset::{FeatureKind, MAX_SEGMENTS, NO_SEGMENT, Shape};
use crate::engine::decision::{Decision, Spot};
use crate::engine::rules::Rules;
use crate::engine::scoring::{
    FIELD_POINTS_PER_CITY, FeatureTally, GOODS_MAJORITY_POINTS, SCORE_KINDS, ScoreKind,
    edge_feature_points, majority, monastery_points,
};
use crate::engine::system_state::SystemState;
use crate::limits::MAX_PLAYERS;
use crate::systems::ferries::errors::IllegalFerryPart;
use crate::systems::ferries::state::{FerryLink, FerryMoves};
use crate::systems::south_seas::errors::IllegalSouthSeasPlay;
use crate::topology::{CENTRE, EdgeKind, RING_DELTA, SIDE_NAMES, SLOTS, facing_slot, slot};

/// A move: where the drawn tile goes, how it is turned (quarter turns clockwise), the
/// segment of the tile (index in its tile definition) that gets a meeple, if any, and, with
/// The Ferries, the two road ends the new ferry joins (lake tiles only, `a < b`) and the
/// ferries moved this turn (ordered by square). In South Seas the meeple is an islander,
/// and `retrieve` takes one back instead.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Move {
    pub x: i32,
    pub y: i32,
    pub rotation: u8,
    pub meeple: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ferry: Option<(u8, u8)>,
    #[serde(default, skip_serializing_if = "FerryMoves::is_empty")]
    pub ferry_moves: FerryMoves,
    /// South Seas step 2b: instead of placing an islander, take back the current player's
    /// islander standing there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retrieve: Option<Spot>,
}

impl Move {
    /// A tile placement with an optional meeple and no ferry choices.
    pub fn place(x: i32, y: i32, rotation: u8, meeple: Option<u8>) -> Self {
        Move {
            x,
            y,
            rotation,
            meeple,
            ..Move::default()
        }
    }
}

/// A tile position on the board, before the meeple choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub cell: u32,
    pub rotation: u8,
}

/// Why a move was refused. The game is unchanged when a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    GameOver,
    BadRotation(u8),
    Occupied {
        x: i32,
        y: i32,
    },
    NotAdjacent {
        x: i32,
        y: i32,
    },
    EdgeMismatch {
        side: usize,
        tile: EdgeKind,
        neighbour: EdgeKind,
    },
    SymmetricRotation {
        tile: String,
        rotation: u8,
        canonical: u8,
    },
    NoSuchSegment {
        tile: String,
        segment: u8,
        segments: usize,
    },
    FarmersOff,
    NoMeeplesLeft {
        player: usize,
    },
    FeatureOccupied {
        feature: String,
    },
    /// A ferry part of the move refused (The Ferries, or any ferry part elsewhere).
    Ferries(IllegalFerryPart),
    /// A South Seas part of the move or a South Seas decision refused (or a South Seas
    /// part played under other rules).
    SouthSeas(IllegalSouthSeasPlay),
    /// Maps: a placement or another decision while the extra turn is to be decided.
    ExtraTurnPending,
    /// Maps: taking or declining an extra turn when none is offered.
    NoExtraTurn,
}

fn edge_name(e: EdgeKind) -> &'static str {
    match e {
        EdgeKind::City => "city",
        EdgeKind::Road => "road",
        EdgeKind::Field => "field",
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => write!(f, "the game is over; no more moves can be played"),
            IllegalMove::ExtraTurnPending => write!(
                f,
                "the current player covered a small town and must first decide whether to take the extra turn (decision extra_turn, true or false); no tile is drawn before"
            ),
            IllegalMove::NoExtraTurn => write!(
                f,
                "no extra turn is offered: one is offered only after covering a small town with small-town variant 1, before the next draw"
            ),
            IllegalMove::BadRotation(r) => write!(
                f,
                "rotation must be 0, 1, 2 or 3 (quarter turns clockwise), got {r}"
            ),
            IllegalMove::Occupied { x, y } => write!(f, "square ({x}, {y}) already holds a tile"),
            IllegalMove::NotAdjacent { x, y } => {
                write!(
                    f,
                    "square ({x}, {y}) does not touch any placed tile edge to edge"
                )
            }
            IllegalMove::EdgeMismatch {
                side,
                tile,
                neighbour,
            } => write!(
                f,
                "the tile's {} side shows a {} but the neighbouring tile shows a {}",
                // `check` gives sides 0..4; a value built by hand prints as "?".
                SIDE_NAMES.get(*side).unwrap_or(&"?"),
                edge_name(*tile),
                edge_name(*neighbour)
            ),
            IllegalMove::SymmetricRotation {
                tile,
                rotation,
                canonical,
            } => write!(
                f,
                "{tile} is symmetric: rotation {rotation} is the same placement as rotation {canonical}; play rotation {canonical}"
            ),
            IllegalMove::NoSuchSegment {
                tile,
                segment,
                segments,
            } => {
                write!(
                    f,
                    "{tile} has no feature {segment} (it has {segments}, numbered from 0)"
                )
            }
            IllegalMove::FarmersOff => {
                write!(f, "farmers are off in these rules: no meeple on a field")
            }
            IllegalMove::NoMeeplesLeft { player } => {
                write!(f, "player {player} has no meeple left in supply")
            }
            IllegalMove::FeatureOccupied { feature } => {
                write!(
                    f,
                    "the {feature} joins a feature that already holds a meeple"
                )
            }
            IllegalMove::Ferries(e) => e.fmt(f),
            IllegalMove::SouthSeas(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl From<IllegalFerryPart> for IllegalMove {
    fn from(e: IllegalFerryPart) -> Self {
        IllegalMove::Ferries(e)
    }
}

impl From<IllegalSouthSeasPlay> for IllegalMove {
    fn from(e: IllegalSouthSeasPlay) -> Self {
        IllegalMove::SouthSeas(e)
    }
}

/// One entry of the scoring log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreEvent {
    /// Turn during which it happened (1 = the first tile after the start tile); final
    /// scoring uses the number of turns played.
    pub turn: u32,
    pub kind: ScoreKind,
    /// Points each listed player receives.
    pub points: i32,
    pub players: Vec<u8>,
    /// Squares of the tiles the feature covers (empty for goods majorities).
    pub tiles: Vec<(i32, i32)>,
    /// Carcassonne Maps: ids of the map's printed pieces in the feature (large-city
    /// squares, border pieces, ferry connections; their squares are among `tiles`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub printed: Vec<String>,
    pub complete: bool,
    pub final_scoring: bool,
    /// Traders & Builders: goods taken by `players[0]` when completing a city (points 0),
    /// or the good a majority was for.
    pub goods: [u16; 3],
}

/// Why the tiles of a segment group (during evaluation) might complete.
#[derive(Clone, Copy, Default)]
pub(crate) struct Contacts {
    pub(crate) n: usize,
    pub(crate) seg: [u8; 12],
    pub(crate) root: [u32; 12],
    pub(crate) matched: [u8; MAX_SEGMENTS],
    /// Open ends per segment that a map's neutral border, waves or highlights close.
    pub(crate) closed: [u8; MAX_SEGMENTS],
}

/// Features already scored this turn.
#[derive(Default)]
pub(crate) struct Scored {
    len: usize,
    roots: [u32; MAX_SEGMENTS + 4 * crate::systems::ferries::state::MAX_FERRY_MOVES],
}

/// Segments of a candidate tile grouped by the features they would join.
#[derive(Clone, Copy)]
pub(crate) struct Groups {
    pub(crate) contacts: Contacts,
    /// Representative segment of each segment's group.
    pub(crate) group: [u8; MAX_SEGMENTS],
    /// Bit i set when the group represented by segment i already holds a meeple.
    pub(crate) busy: u16,
}

/// One award of the end-of-game scoring of a classic game (`Game::end_awards`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EndAward {
    pub(crate) winners: u8,
    pub(crate) points: i32,
    pub(crate) kind: ScoreKind,
    /// The feature scored (none for goods majorities).
    pub(crate) root: Option<u32>,
    /// Goods majorities: the good and the most of it any player holds.
    pub(crate) good: Option<(usize, u16)>,
}

/// Reused buffers of the end-of-game scoring (tiles of a feature, occupied roots, the
/// cities of a field).
#[derive(Clone, Debug, Default)]
pub(crate) struct EndScratch {
    pub(crate) tiles: Vec<u16>,
    pub(crate) roots: Vec<u32>,
    pub(crate) cities: Vec<u32>,
}

impl EndScratch {
    /// Its occupied-roots buffer, and its other buffers as counts found by walking.
    pub(crate) fn split(&mut self) -> (&mut Vec<u32>, Walk<'_>) {
        let EndScratch {
            tiles,
            roots,
            cities,
        } = self;
        (roots, Walk { tiles, cities })
    }
}

/// The two counts of a feature that end-of-game scoring needs and that take a walk of
/// its members: its distinct tiles (roads, cities) and the completed cities a field
/// borders. The engine walks (`Walk`); an observation, which has counted them for every
/// feature at once, gives its own (`learn::feature_facts`).
pub(crate) trait FeatureCounts {
    /// The distinct placed tiles of the road or city rooted at `root`.
    fn tiles(&mut self, game: &Game, root: u32) -> u32;
    /// The distinct completed cities the field rooted at `root` borders.
    fn finished_cities(&mut self, game: &Game, root: u32) -> u32;
}

/// `FeatureCounts` by walking each feature's members (`EndScratch::split`).
pub(crate) struct Walk<'a> {
    tiles: &'a mut Vec<u16>,
    cities: &'a mut Vec<u32>,
}

impl FeatureCounts for Walk<'_> {
    #[inline]
    fn tiles(&mut self, game: &Game, root: u32) -> u32 {
        game.tiles_of(root, self.tiles);
        self.tiles.len() as u32
    }

    #[inline]
    fn finished_cities(&mut self, game: &Game, root: u32) -> u32 {
        game.field_cities(root, self.cities);
        self.cities.len() as u32
    }
}

// `Clone`: field by field, in `clone`.
#[derive(Debug)]
pub struct Game {
    pub(crate) rules: Arc<Rules>,
    pub(crate) board: Board,
    pub(crate) features: Features,
    pub(crate) deck: Vec<u16>,
    pub(crate) next_draw: usize,
    pub(crate) tile: Option<u16>,
    pub(crate) current: usize,
    pub(crate) turn: u32,
    pub(crate) scores: [i32; MAX_PLAYERS],
    pub(crate) by_kind: [[i32; SCORE_KINDS]; MAX_PLAYERS],
    pub(crate) supply: [u8; MAX_PLAYERS],
    pub(crate) goods: [[u16; 3]; MAX_PLAYERS],
    pub(crate) discarded: Vec<(u32, u16)>,
    pub(crate) moves: Vec<Move>,
    pub(crate) events: Vec<ScoreEvent>,
    pub(crate) record_events: bool,
    pub(crate) over: bool,
    pub(crate) seed: Option<(u64, u64)>,
    pub(crate) tiles_buf: Vec<u16>,
    /// (x, y, element) of monasteries holding a meeple and not yet complete.
    pub(crate) watched_monasteries: Vec<(i32, i32, u32)>,
    /// Reused buffer for rebuilding a feature.
    pub(crate) scratch: Vec<u32>,
    /// The rule system's own state (South Seas' wares and ships, The Ferries' ferries):
    /// each system's from its folder, and nothing for classic games.
    pub(crate) system: SystemState,
    /// Maps, small-town variant 1: the player to move covered a small town and plays
    /// again; and whether the turn being played is such an extra turn (never two).
    pub(crate) extra_turn_due: bool,
    pub(crate) in_extra_turn: bool,
    /// Maps, variant 1: the extra turn is offered and not yet decided (`Phase::ExtraTurn`;
    /// no tile is drawn meanwhile).
    pub(crate) extra_turn_offered: bool,
    /// The decisions other than placements, with the turn (move number, from 1) each
    /// belongs to: South Seas' and Friday's, the Maps extra turn. Records replay them.
    pub(crate) decisions: Vec<(u32, Decision)>,
    /// Reused by the end-of-game scoring: the cities of a field, the awards.
    pub(crate) end_cities: Vec<u32>,
    pub(crate) end_awards: Vec<EndAward>,
}

/// Calls `f(side, position on the side, segment, neighbour's element)` for every slot where a
/// segment of `tile` at `cell` touches a segment of a placed neighbour: the one place that
/// says how tiles connect, used both to join features and to evaluate a move. `ON_MAP`:
/// the board is a map's (see `Board::across`).
#[inline]
pub(crate) fn for_each_contact<const ON_MAP: bool>(
    rules: &Rules,
    board: &Board,
    cell: u32,
    tile: u16,
    rotation: u8,
    mut f: impl FnMut(usize, usize, u8, u32),
) {
    let def = &rules.tiles[tile as usize];
    // Rotations are below 4 (`& 3` lets the compiler drop the bounds checks).
    let own = &def.slot_segment[rotation as usize & 3];
    // On a map, the four cells across come from one row of its table.
    let across = if ON_MAP {
        board.across_row::<true>(cell)
    } else {
        [0; 4]
    };
    for side in 0..4 {
        let n = if ON_MAP {
            across[side]
        } else {
            board.neighbour_cell(cell, side)
        };
        let Some(nb) = board.placed_at(n) else {
            continue;
        };
        side_contacts::<ON_MAP>(rules, own, side, &board.placed[nb], &mut f);
    }
}

/// The contacts across `side` of a tile whose slots hold segments `own`, with the placed
/// neighbour `nbp` there: `f(side, position on the side, segment, neighbour's element)`.
#[inline(always)]
fn side_contacts<const ON_MAP: bool>(
    rules: &Rules,
    own: &[u8; SLOTS],
    side: usize,
    nbp: &Placed,
    f: &mut impl FnMut(usize, usize, u8, u32),
) {
    let theirs = &rules.tiles[nbp.tile as usize].slot_segment[nbp.rotation as usize & 3];
    for pos in 0..3 {
        let s = slot(side, pos);
        let seg = own[s];
        if seg == NO_SEGMENT {
            continue;
        }
        let nseg = theirs[facing_slot(s)];
        // A map's ferry connection shows no land beside its road (a half-edge without a
        // segment): nothing joins there. No tile of a tile file has one.
        if ON_MAP && nseg == NO_SEGMENT {
            continue;
        }
        f(side, pos, seg, nbp.first_element + nseg as u32);
    }
}

/// `for_each_contact` for the tile just placed as `placed` (`Board::place` has recorded
/// its neighbours on every side, the cells across on a map too): the neighbours come from
/// that record instead of the grid.
#[inline]
pub(crate) fn for_each_contact_of_placed<const ON_MAP: bool>(
    rules: &Rules,
    board: &Board,
    placed: usize,
    mut f: impl FnMut(usize, usize, u8, u32),
) {
    let p = &board.placed[placed];
    let def = &rules.tiles[p.tile as usize];
    // Rotations are below 4 (`& 3` lets the compiler drop the bounds checks).
    let own = &def.slot_segment[p.rotation as usize & 3];
    let around = board.neighbours[placed];
    for side in 0..4 {
        let Some(nb) = (around[side] as usize).checked_sub(1) else {
            continue;
        };
        side_contacts::<ON_MAP>(rules, own, side, &board.placed[nb], &mut f);
    }
}

/// Which end-of-game awards `Game::end_awards_of` gives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Awards {
    /// Every feature's, and the goods majorities.
    All,
    /// The unfinished roads' alone.
    Roads,
}

/// Adds award `a`, in thirds of a point, to each of its winners among `players`.
#[inline]
fn add_award(v: &mut [i32; MAX_PLAYERS], players: usize, a: EndAward) {
    for p in 0..players {
        if a.winners & (1 << p) != 0 {
            v[p] += 3 * a.points;
        }
    }
}

/// What placing a tile did.
pub(crate) struct Joined {
    /// Index of the tile in `Board::placed`.
    pub(crate) placed: usize,
    /// Sides where the tile joined a road holding a ferry (bit per side): only from these
    /// can a walk reach a ferry that may move (F-3). A road joined at one side and merged
    /// at another may be marked at both; the walk decides.
    pub(crate) ferry_roads: u8,
    /// Segments (bit per segment) that joined a feature holding a meeple: with the
    /// segment the player's own meeple goes on, the only features this tile can make
    /// worth evaluating (South Seas gives nothing for unoccupied ones).
    pub(crate) occupied: u16,
    /// Segments (bit per segment) that touched a neighbour: alone, a road or city segment
    /// has an open side, so only these can have closed a feature.
    pub(crate) touched: u16,
}

/// The goods majorities of Traders & Builders: `f(good, winners, most held)` for each
/// good someone holds (all tied players win).
pub(crate) fn goods_majorities(
    goods: &[[u16; 3]; MAX_PLAYERS],
    players: usize,
    mut f: impl FnMut(usize, u8, u16),
) {
    for g in 0..3 {
        let best = (0..players).map(|p| goods[p][g]).max().unwrap_or(0);
        if best == 0 {
            continue;
        }
        let winners = (0..players)
            .filter(|p| goods[*p][g] == best)
            .fold(0u8, |m, p| m | (1 << p));
        f(g, winners, best);
    }
}

impl Game {
    /// A game of `rules` with nothing set up yet (`Game::new` sets it up), its board
    /// sized for `squares` tiles.
    pub(crate) fn blank(rules: Arc<Rules>, squares: usize) -> Self {
        let system = SystemState::new(rules.kind());
        Game {
            board: Board::with_geometry(squares, &rules.geometry),
            rules,
            features: Features::default(),
            deck: Vec::new(),
            next_draw: 0,
            tile: None,
            current: 0,
            turn: 0,
            scores: [0; MAX_PLAYERS],
            by_kind: [[0; SCORE_KINDS]; MAX_PLAYERS],
            supply: [0; MAX_PLAYERS],
            goods: [[0; 3]; MAX_PLAYERS],
            discarded: Vec::new(),
            moves: Vec::new(),
            events: Vec::new(),
            record_events: true,
            over: false,
            seed: None,
            tiles_buf: Vec::new(),
            watched_monasteries: Vec::new(),
            scratch: Vec::new(),
            system,
            extra_turn_due: false,
            in_extra_turn: false,
            extra_turn_offered: false,
            decisions: Vec::new(),
            end_cities: Vec::new(),
            end_awards: Vec::new(),
        }
    }

    pub fn set_record_events(&mut self, on: bool) {
        self.record_events = on;
    }

    /// Empties the event logs, the system's own among them (a search's copy, which
    /// never reads them).
    pub(crate) fn clear_events(&mut self) {
        self.events.clear();
        self.system.clear_events();
    }

    // ----- read access -------------------------------------------------------------

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn current_player(&self) -> usize {
        self.current
    }
    /// The tile the current player must place, or None once the game is over.
    pub fn tile(&self) -> Option<u16> {
        self.tile
    }
    pub fn is_over(&self) -> bool {
        self.over
    }
    /// The decisions other than placements made so far, with the turn (move number, from
    /// 1) each belongs to: South Seas' and Friday's, the Maps extra turn.
    pub fn decisions(&self) -> &[(u32, Decision)] {
        &self.decisions
    }
    pub fn turn(&self) -> u32 {
        self.turn
    }
    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.rules.players()]
    }
    /// Points of `player` by kind (zeros for a player not in the game).
    pub fn points_by_kind(&self, player: usize) -> &[i32; SCORE_KINDS] {
        self.by_kind.get(player).unwrap_or(&[0; SCORE_KINDS])
    }
    pub fn supply(&self) -> &[u8] {
        &self.supply[..self.rules.players()]
    }
    /// Traders & Builders goods of `player` (zeros for a player not in the game).
    pub fn goods(&self, player: usize) -> [u16; 3] {
        self.goods.get(player).copied().unwrap_or_default()
    }
    pub fn placed(&self) -> &[Placed] {
        &self.board.placed
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn features(&self) -> &Features {
        &self.features
    }
    pub fn discarded(&self) -> &[(u32, u16)] {
        &self.discarded
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    pub fn events(&self) -> &[ScoreEvent] {
        &self.events
    }
    pub fn deck(&self) -> &[u16] {
        &self.deck
    }
    /// Tiles not yet drawn.
    pub fn remaining(&self) -> &[u16] {
        &self.deck[self.next_draw..]
    }
    pub fn seed(&self) -> Option<(u64, u64)> {
        self.seed
    }

    pub(crate) fn restore_seed(&mut self, seed: Option<(u64, u64)>) {
        self.seed = seed;
    }

    /// Winners as a bit set over players (all players with the top score).
    pub fn winners(&self) -> u8 {
        let s = self.scores();
        // Cannot fail: `Rules::new` refuses fewer than MIN_PLAYERS (2) players.
        let best = *s.iter().max().unwrap();
        s.iter()
            .enumerate()
            .filter(|(_, v)| **v == best)
            .fold(0, |m, (p, _)| m | (1 << p))
    }

    /// Union-find element of segment `segment` of placed tile `placed`. Panics if `placed`
    /// is not an index of `placed()`; `segment` is not checked against the tile's segments
    /// (`spot_element` checks both).
    pub fn element(&self, placed: usize, segment: usize) -> u32 {
        self.board.placed[placed].first_element + segment as u32
    }

    /// Squares (distinct) covered by the feature containing element `e` (none for an
    /// element that is not on the board): tiles and large-city squares; a map's printed
    /// border pieces and ferry connections stand on no square (`Board::on_square`).
    pub fn feature_tiles(&self, e: u32) -> Vec<(i32, i32)> {
        if e as usize >= self.features.len() {
            return Vec::new();
        }
        self.squares_of(e)
    }

    /// `feature_tiles` for an element known to be on the board (the event log). A map's
    /// printed border pieces and ferry connections stand on no square: they are named by
    /// `printed_in`, not here.
    pub(crate) fn squares_of(&self, e: u32) -> Vec<(i32, i32)> {
        let mut idx: Vec<u16> = self
            .features
            .members(e)
            .map(|m| self.features.node(m).placed)
            .filter(|i| self.board.on_square(*i as usize))
            .collect();
        idx.sort_unstable();
        idx.dedup();
        idx.iter()
            .map(|i| {
                (
                    self.board.placed[*i as usize].x,
                    self.board.placed[*i as usize].y,
                )
            })
            .collect()
    }

    /// Ids of the map's printed pieces in the feature containing element `e` (none on the
    /// open grid, or for an element that is not on the board).
    pub fn feature_printed(&self, e: u32) -> Vec<String> {
        if e as usize >= self.features.len() {
            return Vec::new();
        }
        self.printed_in(e)
    }

    /// Ids of the map's printed pieces in the feature of `e` (none on the open grid).
    pub(crate) fn printed_in(&self, e: u32) -> Vec<String> {
        if !self.board.is_map() {
            return Vec::new();
        }
        let mut out: Vec<String> = self
            .features
            .members(e)
            .map(|m| self.board.placed[self.features.node(m).placed as usize].tile)
            .filter(|t| *t >= self.rules.printed_from)
            .map(|t| self.rules.tiles[t as usize].id.clone())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    pub fn ferries(&self) -> &[FerryLink] {
        self.system.ferries()
    }

    pub(crate) fn ferries_mut(&mut self) -> &mut Vec<FerryLink> {
        self.system.ferries_mut()
    }

    pub(crate) fn scratch_elements(&mut self) -> &mut Vec<u32> {
        &mut self.scratch
    }

    pub(crate) fn features_mut(&mut self) -> &mut Features {
        &mut self.features
    }

    /// Whether the feature containing element `e` is complete now (false for an element
    /// that is not on the board).
    pub fn is_complete(&self, e: u32) -> bool {
        (e as usize) < self.features.len() && self.root_complete(self.features.find(e))
    }

    /// `is_complete` for a root element.
    #[inline]
    pub(crate) fn root_complete(&self, r: u32) -> bool {
        let n = self.features.node(r);
        match n.kind.shape() {
            Shape::Path | Shape::Area => n.open == 0,
            Shape::Centre => self.ring_complete(self.board.placed[n.placed as usize].cell, None),
            // Sea is enclosed when no half-edge is open; fields never complete.
            Shape::Halves => n.kind == FeatureKind::Sea && n.open == 0,
        }
    }

    // ----- legality ------------------------------------------------------------------

    /// Every legal placement of `tile`, appended to `out` (cleared first); none for a tile
    /// index the rules do not have.
    pub fn placements_into(&self, tile: u16, out: &mut Vec<Placement>) {
        if tile as usize >= self.rules.tiles.len() {
            out.clear();
            return;
        }
        self.placements_unchecked(tile, out);
    }

    /// `placements_into` for a tile of the rules (the drawn tile: self-play).
    pub(crate) fn placements_unchecked(&self, tile: u16, out: &mut Vec<Placement>) {
        out.clear();
        let legal = self.rules.legal_row(tile);
        for o in &self.board.open {
            let mut mask = legal[o.demand as usize];
            while mask != 0 {
                let r = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                out.push(Placement {
                    cell: o.cell,
                    rotation: r,
                });
            }
        }
    }

    /// Whether `tile` fits anywhere (the draw's test, C-3). The newest open squares are
    /// looked at first: they have the fewest neighbours, so a fit is found soonest (0.6%
    /// fewer instructions per random base game than oldest first, callgrind, 2026-12-03).
    pub(crate) fn has_placement(&self, tile: u16) -> bool {
        let legal = self.rules.legal_row(tile);
        // A map board counts every deck tile's placements as its squares change.
        if let Some(fits) = self.board.fit_count(tile) {
            debug_assert_eq!(
                fits as u32,
                self.board
                    .open
                    .iter()
                    .map(|o| legal[o.demand as usize].count_ones())
                    .sum::<u32>(),
                "a map board's count of the placements of tile {tile}"
            );
            return fits > 0;
        }
        self.board
            .open
            .iter()
            .rev()
            .any(|o| legal[o.demand as usize] != 0)
    }

    /// Whether `tile` fits on the open square at `cell` turned by `rotation`: its edges
    /// match every neighbour (symmetric duplicates included). Accepts any values: the
    /// checked queries call it on user input before the lookups that assume a fit.
    pub(crate) fn fits(&self, tile: u16, cell: u32, rotation: u8) -> bool {
        let (Some(def), Some(demand)) = (
            self.rules.tiles.get(tile as usize),
            self.board.open_demand(cell),
        ) else {
            return false;
        };
        // A rotation shows the same edges as its canonical one, whose fit the legality
        // table holds.
        let Some(&canonical) = def.canonical_of.get(rotation as usize) else {
            return false;
        };
        self.rules.legal_row(tile)[demand as usize] & (1 << canonical) != 0
    }

    /// The current tile, if placing it at `p` fits (see `fits`).
    pub(crate) fn fitting(&self, p: Placement) -> Option<u16> {
        let tile = self.tile?;
        self.fits(tile, p.cell, p.rotation).then_some(tile)
    }

    /// Segments of the current tile at `p` on which the current player may put a meeple
    /// (none when the game is over or the tile does not fit at `p`).
    pub fn meeple_options(&self, p: Placement) -> u16 {
        match self.fitting(p) {
            Some(tile) => self.meeple_options_unchecked(tile, p),
            None => 0,
        }
    }

    /// `meeple_options` for the current tile `tile` at a placement that fits (from
    /// `placements_into` or `Board::open`); anything else may panic.
    pub(crate) fn meeple_options_unchecked(&self, tile: u16, p: Placement) -> u16 {
        if self.supply[self.current] == 0 {
            return 0;
        }
        let g = self.groups(p.cell, tile, p.rotation);
        self.options_of_groups(tile, &g)
    }

    /// The meeple options of the current tile once its `groups` are known (the supply
    /// aside): allowed segments whose feature holds no meeple.
    pub(crate) fn options_of_groups(&self, tile: u16, g: &Groups) -> u16 {
        let mut free = 0u16;
        let allowed = self.rules.meeple_segments[tile as usize];
        for i in 0..self.rules.tiles[tile as usize].segments.len() {
            if allowed & (1 << i) != 0 && g.busy & (1 << g.group[i]) == 0 {
                free |= 1 << i;
            }
        }
        free
    }

    /// Whether the current player may put a meeple on segment `seg` of the current tile
    /// at `p`: the same answer as bit `seg` of `meeple_options`, found with fewer lookups.
    /// Edges join only segments of their own kind, so only the slots of same-kind
    /// segments are looked at (`Rules::kin_slots`).
    pub fn meeple_allowed(&self, p: Placement, seg: u8) -> bool {
        match self.fitting(p) {
            Some(tile) if (seg as usize) < self.rules.tiles[tile as usize].segments.len() => {
                self.meeple_allowed_unchecked(tile, p, seg)
            }
            _ => false,
        }
    }

    /// `meeple_allowed` for the current tile `tile` at a placement that fits and a
    /// segment of that tile (`check` and the random player establish both); anything
    /// else may panic.
    pub(crate) fn meeple_allowed_unchecked(&self, tile: u16, p: Placement, seg: u8) -> bool {
        if self.board.is_map() {
            self.meeple_allowed_on_map(tile, p, seg)
        } else {
            self.meeple_allowed_on::<false>(tile, p, seg)
        }
    }

    /// `meeple_allowed_unchecked` on a map board: kept out of line, so the open grid's
    /// callers inline only their own form.
    #[inline(never)]
    pub(crate) fn meeple_allowed_on_map(&self, tile: u16, p: Placement, seg: u8) -> bool {
        self.meeple_allowed_on::<true>(tile, p, seg)
    }

    /// `meeple_allowed_unchecked` on a map board or not (`ON_MAP`, see `Board::across`;
    /// the random player decides once per move).
    #[inline]
    pub(crate) fn meeple_allowed_on<const ON_MAP: bool>(
        &self,
        tile: u16,
        p: Placement,
        seg: u8,
    ) -> bool {
        if self.supply[self.current] == 0
            || self.rules.meeple_segments[tile as usize] & (1 << seg) == 0
        {
            return false;
        }
        let rules = &*self.rules;
        // No meeple stands on any feature of this kind (in South Seas a quarter of the
        // checks): nothing on the board can be in the way.
        if self
            .features
            .meeples_on(rules.tiles[tile as usize].segments[seg as usize].kind)
            == 0
        {
            debug_assert!(self.meeple_options(p) & (1 << seg) != 0);
            return true;
        }
        let slots = &rules.tiles[tile as usize].slot_segment[p.rotation as usize & 3];
        let kin = rules.kin_slots[tile as usize * 4 + p.rotation as usize][seg as usize];
        // (segment, root) of each contact of a same-kind segment; a busy root of `seg`
        // itself answers at once.
        let mut n = 0;
        let mut seg_of = [0u8; 12];
        let mut root_of = [0u32; 12];
        let mut others = false;
        for side in 0..4 {
            let mut on_side = (kin >> (3 * side)) & 7;
            if on_side == 0 {
                continue;
            }
            let Some(nb) = self
                .board
                .placed_at(self.board.across::<ON_MAP>(p.cell, side))
            else {
                continue;
            };
            let nbp = &self.board.placed[nb];
            let nb_slots = &rules.tiles[nbp.tile as usize].slot_segment[nbp.rotation as usize & 3];
            let mut last = u32::MAX;
            while on_side != 0 {
                let s = slot(side, on_side.trailing_zeros() as usize);
                on_side &= on_side - 1;
                let own = slots[s];
                let theirs = nb_slots[facing_slot(s)];
                // A ferry connection's half-edges beside its road hold nothing (see
                // `for_each_contact`).
                if ON_MAP && theirs == NO_SEGMENT {
                    continue;
                }
                let neighbour = nbp.first_element + theirs as u32;
                // The slots of a side often touch the same neighbour segment. (`last` is
                // u32::MAX until a contact was recorded, so `n >= 1` when it matches.)
                if neighbour == last && seg_of[n - 1] == own {
                    continue;
                }
                last = neighbour;
                let root = self.features.find(neighbour);
                if own == seg && self.features.node(root).meeple_total > 0 {
                    debug_assert!(self.meeple_options(p) & (1 << seg) == 0);
                    return false;
                }
                others |= own != seg;
                seg_of[n] = own;
                root_of[n] = root;
                n += 1;
            }
        }
        // Grow `seg`'s group through shared roots; it is busy if any root it reaches is.
        let mut group = 1u16 << seg;
        while others {
            let mut grown = group;
            for a in 0..n {
                if group & (1 << seg_of[a]) == 0 {
                    continue;
                }
                for b in 0..n {
                    if root_of[b] == root_of[a] {
                        grown |= 1 << seg_of[b];
                    }
                }
            }
            others = grown != group;
            group = grown;
        }
        let free = (0..n).all(|k| {
            group & (1 << seg_of[k]) == 0 || self.features.node(root_of[k]).meeple_total == 0
        });
        debug_assert_eq!(free, self.meeple_options(p) & (1 << seg) != 0);
        free
    }

    /// Which features of the board each segment of `tile` at `cell` would touch.
    fn contacts(&self, cell: u32, tile: u16, rotation: u8) -> Contacts {
        if self.board.is_map() {
            self.contacts_on::<true>(cell, tile, rotation)
        } else {
            self.contacts_on::<false>(cell, tile, rotation)
        }
    }

    /// `contacts` on a map board or not (`ON_MAP`, see `Board::across`).
    #[inline]
    fn contacts_on<const ON_MAP: bool>(&self, cell: u32, tile: u16, rotation: u8) -> Contacts {
        let mut c = Contacts::default();
        let mut last = (u32::MAX, 0u32);
        for_each_contact::<ON_MAP>(
            &self.rules,
            &self.board,
            cell,
            tile,
            rotation,
            |_, pos, seg, neighbour| {
                // Adjacent slots often touch the same neighbour segment: one find.
                let root = if neighbour == last.0 {
                    last.1
                } else {
                    let root = self.features.find(neighbour);
                    last = (neighbour, root);
                    root
                };
                if pos == CENTRE {
                    c.matched[seg as usize] += 1;
                }
                if !(0..c.n).any(|k| c.seg[k] == seg && c.root[k] == root) {
                    c.seg[c.n] = seg;
                    c.root[c.n] = root;
                    c.n += 1;
                }
            },
        );
        if ON_MAP {
            let closing = self.board.closing_sides(cell);
            if closing != 0 {
                self.count_closed(&mut c, tile, rotation, closing);
            }
        }
        c
    }

    /// `Contacts::closed` for a tile on a map square with `closing` sides.
    #[inline(never)]
    fn count_closed(&self, c: &mut Contacts, tile: u16, rotation: u8, closing: u8) {
        let def = &self.rules.tiles[tile as usize];
        let own = &def.slot_segment[rotation as usize & 3];
        let open_slots = def.open_slots[rotation as usize & 3];
        for s in (0..crate::topology::SLOTS).filter(|s| closing & (1 << (s / 3)) != 0) {
            if own[s] != NO_SEGMENT && (open_slots >> s) & 1 != 0 {
                c.closed[own[s] as usize] += 1;
            }
        }
    }

    pub(crate) fn groups(&self, cell: u32, tile: u16, rotation: u8) -> Groups {
        let c = self.contacts(cell, tile, rotation);
        let mut group = [0u8; MAX_SEGMENTS];
        for (i, g) in group.iter_mut().enumerate() {
            *g = i as u8;
        }
        fn rep(group: &[u8; MAX_SEGMENTS], mut i: u8) -> u8 {
            while group[i as usize] != i {
                i = group[i as usize];
            }
            i
        }
        for a in 0..c.n {
            for b in a + 1..c.n {
                if c.root[a] == c.root[b] {
                    let (ra, rb) = (rep(&group, c.seg[a]), rep(&group, c.seg[b]));
                    if ra != rb {
                        group[ra.max(rb) as usize] = ra.min(rb);
                    }
                }
            }
        }
        for i in 0..MAX_SEGMENTS {
            group[i] = rep(&group, i as u8);
        }
        let mut busy = 0u16;
        for k in 0..c.n {
            if self.features.node(c.root[k]).meeple_total > 0 {
                busy |= 1 << group[c.seg[k] as usize];
            }
        }
        Groups {
            contacts: c,
            group,
            busy,
        }
    }

    /// A move's ferry parts in a game without lake tiles or ferries: refused with the
    /// errors The Ferries' check gives where no tile is a lake and no ferry can move.
    pub(crate) fn refuse_ferry_parts(&self, mv: Move, tile: u16) -> Result<(), IllegalMove> {
        if mv.ferry.is_some() {
            return Err(IllegalMove::Ferries(IllegalFerryPart::NotALake {
                tile: self.rules.tiles[tile as usize].id.clone(),
            }));
        }
        if !mv.ferry_moves.is_ordered() {
            return Err(IllegalMove::Ferries(IllegalFerryPart::FerryMovesUnordered));
        }
        match mv.ferry_moves.as_slice().first() {
            Some(m) => Err(IllegalMove::Ferries(IllegalFerryPart::FerryNotMovable {
                x: m.x as i32,
                y: m.y as i32,
            })),
            None => Ok(()),
        }
    }

    // ----- scoring ------------------------------------------------------------------

    /// The placed tiles of the feature rooted at `root`, sorted and distinct, into `buf`.
    pub(crate) fn tiles_of(&self, root: u32, buf: &mut Vec<u16>) {
        buf.clear();
        buf.extend(
            self.features
                .members(root)
                .map(|m| self.features.node(m).placed),
        );
        buf.sort_unstable();
        buf.dedup();
    }

    fn tally(&mut self, root: u32) -> FeatureTally {
        let mut buf = std::mem::take(&mut self.tiles_buf);
        let t = self.tally_with(root, &mut buf);
        self.tiles_buf = buf;
        t
    }

    /// What scoring needs of the road or city rooted at `root` (`buf`: working memory).
    pub(crate) fn tally_with(&self, root: u32, buf: &mut Vec<u16>) -> FeatureTally {
        self.tiles_of(root, buf);
        let n = self.features.node(root);
        FeatureTally {
            tiles: buf.len() as u32,
            pennants: n.pennants as u32,
            inns: n.inns as u32,
            cathedrals: n.cathedrals as u32,
        }
    }

    pub(crate) fn award(
        &mut self,
        winners: u8,
        points: i32,
        kind: ScoreKind,
        root: Option<u32>,
        complete: bool,
    ) {
        if winners == 0 {
            return;
        }
        for p in 0..self.rules.players() {
            if winners & (1 << p) != 0 {
                self.scores[p] += points;
                self.by_kind[p][kind as usize] += points;
            }
        }
        if self.record_events {
            self.events.push(ScoreEvent {
                turn: self.turn,
                kind,
                points,
                players: (0..self.rules.players() as u8)
                    .filter(|p| winners & (1 << p) != 0)
                    .collect(),
                tiles: root.map(|r| self.squares_of(r)).unwrap_or_default(),
                printed: root.map(|r| self.printed_in(r)).unwrap_or_default(),
                complete,
                final_scoring: self.over,
                goods: [0; 3],
            });
        }
    }

    pub(crate) fn score_if_closed(&mut self, e: u32, scored: &mut Scored) {
        if !self.features.node(e).kind.closes_by_edges() {
            return;
        }
        let r = self.features.find(e);
        if self.features.node(r).open == 0 && !scored.roots[..scored.len].contains(&r) {
            scored.roots[scored.len] = r;
            scored.len += 1;
            self.score_closed(r);
        }
    }

    /// A road or city closed during play: score it, hand out goods, free its meeples.
    fn score_closed(&mut self, root: u32) {
        let n = *self.features.node(root);
        if n.kind == FeatureKind::City
            && self.rules.spec.traders_goods
            && n.goods.iter().any(|g| *g > 0)
        {
            let p = self.current;
            for g in 0..3 {
                self.goods[p][g] += n.goods[g];
            }
            if self.record_events {
                self.events.push(ScoreEvent {
                    turn: self.turn,
                    kind: ScoreKind::Goods,
                    points: 0,
                    players: vec![p as u8],
                    tiles: self.squares_of(root),
                    printed: self.printed_in(root),
                    complete: true,
                    final_scoring: false,
                    goods: n.goods,
                });
            }
        }
        if n.meeple_total == 0 {
            return;
        }
        let t = self.tally(root);
        let points = edge_feature_points(n.kind, t, true, &self.rules.spec) + self.town_bonus(root);
        self.award(
            majority(&n.meeples),
            points,
            ScoreKind::of(n.kind),
            Some(root),
            true,
        );
        let supply = &mut self.supply;
        self.features
            .return_meeples(root, |p, _| supply[p as usize] += 1);
    }

    /// Small-town variant 3: 2 points per uncovered small town orthogonally beside a square
    /// of the road rooted at `root` (0 for other features, and without the variant).
    pub(crate) fn town_bonus(&self, root: u32) -> i32 {
        if !self.rules.town_road_bonus || self.features.node(root).kind != FeatureKind::Road {
            return 0;
        }
        let squares = self
            .features
            .members(root)
            .map(|m| self.board.placed[self.features.node(m).placed as usize].cell);
        self.towns_beside(squares, None)
    }

    /// 2 points per distinct small town orthogonally beside one of `squares` that no tile
    /// covers (nor `covered`, the square of a tile being evaluated).
    pub(crate) fn towns_beside(
        &self,
        squares: impl Iterator<Item = u32>,
        covered: Option<u32>,
    ) -> i32 {
        let Some(map) = self.board.map() else {
            return 0;
        };
        let mut towns: Vec<u32> = Vec::new();
        // Printed pieces outside the map (border pieces, ferry connections) stand on no
        // square: only squares of the map count.
        for c in squares.filter(|c| map.in_ring[*c as usize]) {
            for side in 0..4 {
                let n = self.board.neighbour_cell(c, side);
                if map.town[n as usize]
                    && self.board.placed_at(n).is_none()
                    && Some(n) != covered
                    && !towns.contains(&n)
                {
                    towns.push(n);
                }
            }
        }
        2 * towns.len() as i32
    }

    /// Whether every square around `cell` that can be filled is (counting `extra`): 8 on
    /// the open grid, only the map's existing squares on a map (M-5, M-9).
    pub(crate) fn ring_complete(&self, cell: u32, extra: Option<u32>) -> bool {
        self.board.ring_filled(cell, extra) == self.board.ring_size(cell)
    }

    /// Scores the occupied monastery (element `e`) at (x, y) if its ring is full.
    pub(crate) fn score_monastery_if_complete(&mut self, x: i32, y: i32, e: u32) -> bool {
        // Cannot fail: (x, y) is the square of a move already played (checked).
        let cell = self
            .board
            .cell(x, y)
            .expect("a played square is on the board");
        if !self.ring_complete(cell, None) {
            return false;
        }
        let n = *self.features.node(e);
        self.award(
            majority(&n.meeples),
            monastery_points(self.board.ring_size(cell)),
            ScoreKind::Monastery,
            Some(e),
            true,
        );
        let supply = &mut self.supply;
        self.features
            .return_meeples(e, |pl, _| supply[pl as usize] += 1);
        true
    }

    /// The classic final scoring: incomplete roads, cities and monasteries, then fields,
    /// then goods (`end_awards`).
    pub(crate) fn finish_classic(&mut self) {
        let mut s = EndScratch {
            tiles: std::mem::take(&mut self.tiles_buf),
            roots: std::mem::take(&mut self.scratch),
            cities: std::mem::take(&mut self.end_cities),
        };
        let mut awards = std::mem::take(&mut self.end_awards);
        awards.clear();
        self.end_awards(&mut s, |a| awards.push(a));
        self.tiles_buf = s.tiles;
        self.scratch = s.roots;
        self.end_cities = s.cities;
        for &a in &awards {
            let before = self.events.len();
            self.award(a.winners, a.points, a.kind, a.root, false);
            if let (Some((g, best)), Some(ev)) = (a.good, self.events.get_mut(before)) {
                ev.goods[g] = best;
            }
        }
        self.end_awards = awards;
    }

    /// Classic virtual scores (`RuleSystem::virtual_thirds`): three times the points so
    /// far, and for a game not over the end-of-game awards of every unfinished feature.
    /// `counts`: how the features' tiles and a field's cities are counted (`roots`: a
    /// buffer).
    pub(crate) fn classic_virtual_thirds(
        &self,
        roots: &mut Vec<u32>,
        counts: &mut impl FeatureCounts,
    ) -> [i32; MAX_PLAYERS] {
        let players = self.rules.players();
        let mut v = [0i32; MAX_PLAYERS];
        for p in 0..players {
            v[p] = 3 * self.scores[p];
        }
        if !self.over {
            self.end_awards_of(roots, counts, Awards::All, |a| {
                add_award(&mut v, players, a)
            });
        }
        v
    }

    /// The part of `classic_virtual_thirds` that unfinished roads give (without the points
    /// so far), for a game not over: what moves differing only in their roads (The
    /// Ferries' ferry moves) change of the virtual scores.
    pub(crate) fn road_virtual_thirds(&self, s: &mut EndScratch) -> [i32; MAX_PLAYERS] {
        debug_assert!(
            !self.over,
            "a game over has no unfinished roads left to value"
        );
        let players = self.rules.players();
        let mut v = [0i32; MAX_PLAYERS];
        let (roots, mut walk) = s.split();
        self.end_awards_of(roots, &mut walk, Awards::Roads, |a| {
            add_award(&mut v, players, a)
        });
        v
    }

    /// The end-of-game scoring of a classic game as the board stands, without changing
    /// anything: `f` receives each award in the order `finish` gives them (every occupied
    /// road, city and monastery in root order, then fields, then goods majorities). The
    /// one statement of the end-of-game rules: `finish` applies the awards, the virtual
    /// scores add them up.
    pub(crate) fn end_awards(&self, s: &mut EndScratch, f: impl FnMut(EndAward)) {
        let (roots, mut walk) = s.split();
        self.end_awards_of(roots, &mut walk, Awards::All, f);
    }

    /// `end_awards`, of every feature or of the roads alone (`which`), with the
    /// features' counts from `counts` (`roots`: a buffer).
    fn end_awards_of(
        &self,
        roots: &mut Vec<u32>,
        counts: &mut impl FeatureCounts,
        which: Awards,
        mut f: impl FnMut(EndAward),
    ) {
        let rules = &*self.rules;
        self.features.occupied_roots(roots);
        for &e in roots.iter() {
            let n = self.features.node(e);
            if which == Awards::Roads && n.kind != FeatureKind::Road {
                continue;
            }
            let points = match n.kind {
                FeatureKind::Road | FeatureKind::City => {
                    self.end_value_of(e, counts.tiles(self, e))
                }
                FeatureKind::Monastery => {
                    let cell = self.board.placed[n.placed as usize].cell;
                    monastery_points(self.board.ring_filled(cell, None))
                }
                // Fields are scored after the rest, below.
                FeatureKind::Field => continue,
                // South Seas features give wares, evaluated by `south_seas`. Unreachable:
                // South Seas games never ask, and `Rules::new` refuses tile sets mixing
                // the systems (tile kinds are parsed per system).
                FeatureKind::Bridge
                | FeatureKind::Island
                | FeatureKind::Market
                | FeatureKind::Sea => {
                    unreachable!("a South Seas feature in a classic game")
                }
            };
            f(EndAward {
                winners: majority(&n.meeples),
                points,
                kind: ScoreKind::of(n.kind),
                root: Some(e),
                good: None,
            });
        }
        if which == Awards::Roads {
            return;
        }
        for &root in roots.iter() {
            if self.features.node(root).kind != FeatureKind::Field {
                continue;
            }
            let points = FIELD_POINTS_PER_CITY * counts.finished_cities(self, root) as i32;
            if points > 0 {
                f(EndAward {
                    winners: majority(&self.features.node(root).meeples),
                    points,
                    kind: ScoreKind::Field,
                    root: Some(root),
                    good: None,
                });
            }
        }
        if rules.spec.traders_goods {
            goods_majorities(&self.goods, rules.players(), |g, winners, best| {
                f(EndAward {
                    winners,
                    points: GOODS_MAJORITY_POINTS,
                    kind: ScoreKind::Goods,
                    root: None,
                    good: Some((g, best)),
                })
            });
        }
    }

    /// End-of-game points of the unfinished road or city rooted at `root`.
    pub(crate) fn end_value(&self, root: u32, tiles: &mut Vec<u16>) -> i32 {
        self.tiles_of(root, tiles);
        self.end_value_of(root, tiles.len() as u32)
    }

    /// `end_value` of the road or city rooted at `root`, of `tiles` distinct tiles.
    #[inline]
    pub(crate) fn end_value_of(&self, root: u32, tiles: u32) -> i32 {
        let n = self.features.node(root);
        let t = FeatureTally {
            tiles,
            pennants: n.pennants as u32,
            inns: n.inns as u32,
            cathedrals: n.cathedrals as u32,
        };
        edge_feature_points(n.kind, t, false, &self.rules.spec) + self.town_bonus(root)
    }

    /// The completed cities the field rooted at `root` borders, distinct, into `out`.
    pub(crate) fn field_cities(&self, root: u32, out: &mut Vec<u32>) {
        out.clear();
        for m in self.features.members(root) {
            let node = self.features.node(m);
            let p = &self.board.placed[node.placed as usize];
            for c in
                &self.rules.tiles[p.tile as usize].segments[node.segment as usize].adjacent_cities
            {
                let city = self.features.find(p.first_element + *c as u32);
                if self.features.node(city).open == 0 && !out.contains(&city) {
                    out.push(city);
                }
            }
        }
    }

    /// Points for the square at `cell` itself, to the player whose tile covers it (Maps:
    /// coats of arms, the small-town penalty; 0 on the open grid).
    pub(crate) fn square_points(&self, cell: u32) -> i32 {
        match self.board.map() {
            Some(map) => {
                2 * map.arms[cell as usize] as i32
                    - if self.rules.town_penalty && map.town[cell as usize] {
                        2
                    } else {
                        0
                    }
            }
            None => 0,
        }
    }

    // ----- evaluation without playing (greedy policy) --------------------------------

    /// `immediate_gains` for the current tile `tile` at a placement that fits, in a
    /// classic game (the greedy player); anything else may panic.
    pub(crate) fn immediate_gains_unchecked(
        &self,
        tile: u16,
        p: Placement,
    ) -> (i32, [i32; MAX_SEGMENTS], u16) {
        let def = &self.rules.tiles[tile as usize];
        let g = self.groups(p.cell, tile, p.rotation);
        let c = &g.contacts;
        let player = self.current;
        let options = self.meeple_options_unchecked(tile, p);
        let mut base = 0;
        let mut extra = [0i32; MAX_SEGMENTS];
        let mut tiles: Vec<u16> = Vec::new();
        for rep in 0..def.segments.len() {
            if g.group[rep] as usize != rep || !def.segments[rep].kind.closes_by_edges() {
                continue;
            }
            let mut open = 0i32;
            let mut tally = FeatureTally::default();
            let mut meeples = [0u8; MAX_PLAYERS];
            for i in 0..def.segments.len() {
                if g.group[i] as usize == rep {
                    let s = &def.segments[i];
                    open += s.sides as i32 - 2 * c.matched[i] as i32 - c.closed[i] as i32;
                    tally.pennants += s.pennants as u32;
                    tally.inns += s.inns as u32;
                    tally.cathedrals += s.cathedrals as u32;
                }
            }
            let mut roots: [u32; 12] = [u32::MAX; 12];
            for k in 0..c.n {
                if g.group[c.seg[k] as usize] as usize != rep || roots.contains(&c.root[k]) {
                    continue;
                }
                roots[k] = c.root[k];
                let n = self.features.node(c.root[k]);
                open += n.open as i32;
                tally.pennants += n.pennants as u32;
                tally.inns += n.inns as u32;
                tally.cathedrals += n.cathedrals as u32;
                for q in 0..MAX_PLAYERS {
                    meeples[q] += n.meeples[q];
                }
            }
            if open != 0 {
                continue;
            }
            tiles.clear();
            for r in roots.iter().filter(|r| **r != u32::MAX) {
                tiles.extend(
                    self.features
                        .members(*r)
                        .map(|m| self.features.node(m).placed),
                );
            }
            tiles.sort_unstable();
            tiles.dedup();
            tally.tiles = tiles.len() as u32 + 1;
            let mut points =
                edge_feature_points(def.segments[rep].kind, tally, true, &self.rules.spec);
            if self.rules.town_road_bonus && def.segments[rep].kind == FeatureKind::Road {
                let squares = tiles
                    .iter()
                    .map(|t| self.board.placed[*t as usize].cell)
                    .chain([p.cell]);
                points += self.towns_beside(squares, Some(p.cell));
            }
            if majority(&meeples) & (1 << player) != 0 {
                base += points;
            }
            for i in 0..def.segments.len() {
                if g.group[i] as usize == rep && options & (1 << i) != 0 {
                    extra[i] = points;
                }
            }
        }
        // Maps: coats of arms on the island square the tile goes on, and the small-town
        // penalty (variant 2).
        base += self.square_points(p.cell);
        // Monasteries: the neighbours' (the new tile fills one of their squares) and its own.
        for (dx, dy) in RING_DELTA {
            let cell = self.board.offset_cell(p.cell, dx, dy);
            let Some(q) = self.board.placed_at(cell) else {
                continue;
            };
            let pl = &self.board.placed[q];
            let Some(seg) = self.rules.monastery[pl.tile as usize] else {
                continue;
            };
            let n = self.features.node(pl.first_element + seg as u32);
            if n.meeples[player] > 0 && self.ring_complete(cell, Some(p.cell)) {
                base += monastery_points(self.board.ring_size(cell));
            }
        }
        if let Some(seg) = self.rules.monastery[tile as usize]
            && options & (1 << seg) != 0
            && self.ring_complete(p.cell, None)
        {
            extra[seg as usize] = monastery_points(self.board.ring_size(p.cell));
        }
        (base, extra, options)
    }

    /// Meeples on the board per player (for conservation checks).
    pub fn meeples_on_board(&self) -> [u8; MAX_PLAYERS] {
        let mut out = [0u8; MAX_PLAYERS];
        for e in 0..self.features.len() as u32 {
            let m = self.features.node(e).meeple;
            if m != NO_PLAYER {
                out[m as usize] += 1;
            }
        }
        out
    }
}
