//! The shared turn loop, generic over the rule system (`engine::system::RuleSystem`) and
//! compiled once per system: setting up a game, checking and listing moves, placing the
//! tile and its meeple, the classic end of a turn, the draw and the end of the game. A
//! system's own part of a turn is one of its hooks; nothing here asks which system plays.
//! The public entry points that pick the system are in `systems::any`.

use std::sync::Arc;

use crate::board::features::Features;
use crate::board::grid::Board;
use crate::data::tileset::{FeatureKind, NO_SEGMENT, TileDef};
use crate::engine::game::{
    Game, IllegalMove, Joined, Move, Placement, Scored, for_each_contact_of_placed,
};
use crate::engine::rules::Rules;
use crate::engine::scoring::{SCORE_KINDS, ScoreKind};
use crate::engine::system::RuleSystem;
use crate::limits::MAX_PLAYERS;
use crate::rng::Rng;
use crate::systems::ferries::state::{FerryMoves, MAX_FERRY_MOVES, Movable};
use crate::topology::{EdgeKind, slot};

/// Puts a tile on the board and unions each segment with the segments it touches. A free
/// function over disjoint fields so the hot path borrows the rules without cloning the Arc.
fn place_and_join<const ON_MAP: bool, S: RuleSystem>(
    rules: &Rules,
    board: &mut Board,
    features: &mut Features,
    cell: u32,
    tile: u16,
    rotation: u8,
) -> Joined {
    let def = &rules.tiles[tile as usize];
    let index = board.placed.len() as u16;
    let first = features.add_tile(index, &def.segments);
    let map = match &rules.geometry {
        crate::board::map_board::Geometry::Map(m) if ON_MAP => Some(&**m),
        _ => None,
    };
    let placed = board.place::<ON_MAP>(
        map,
        cell,
        tile,
        rotation,
        first,
        &def.edges_at[rotation as usize & 3],
    );
    let mut ferry_roads = 0u8;
    let mut occupied = 0u16;
    let mut touched = 0u16;
    let open_slots = def.open_slots[rotation as usize & 3];
    // The slots of one side often pair the same two segments (a city side: all three),
    // and nothing joins in between: the union is done once.
    let mut last = (u8::MAX, u32::MAX, 0u32);
    for_each_contact_of_placed::<ON_MAP>(rules, board, placed, |side, pos, seg, neighbour| {
        let r = if (last.0, last.1) == (seg, neighbour) {
            last.2
        } else {
            let r = features.union(first + seg as u32, neighbour);
            last = (seg, neighbour, r);
            r
        };
        // Both tests below depend on the board, so they are hard to predict: computed
        // without branching.
        touched |= 1 << seg;
        let root = features.node_mut(r);
        if S::WATCHES_OCCUPIED {
            occupied |= ((root.meeple_total > 0) as u16) << seg;
        }
        // At an open-counting slot one open side of each of the two features is now
        // matched.
        let open = ((open_slots >> slot(side, pos)) & 1) as i16;
        root.open -= 2 * open;
        // The Ferries: the road joined here may lead to a ferry that can move.
        if S::WATCHES_FERRIES && open != 0 && root.ferries > 0 {
            ferry_roads |= 1 << side;
        }
    });
    // A map's neutral border, waves and highlights close the features facing them: each
    // open end there is matched as if by a neighbour (M-5, M-9).
    if ON_MAP {
        let closing = board.closing_sides(cell);
        if closing != 0 {
            touched |= close_sides(features, def, first, rotation, closing);
        }
    }
    Joined {
        placed,
        ferry_roads,
        occupied,
        touched,
    }
}

/// Closes the open ends of a tile's segments on the `closing` sides (bit per side) as if
/// a neighbour matched them; returns the segments touched (bit per segment). Kept out of
/// `place_and_join`, which the open grid runs without it.
#[inline(never)]
fn close_sides(
    features: &mut Features,
    def: &TileDef,
    first: u32,
    rotation: u8,
    closing: u8,
) -> u16 {
    let own = &def.slot_segment[rotation as usize & 3];
    let open_slots = def.open_slots[rotation as usize & 3];
    let mut touched = 0u16;
    let mut sides = closing & 0xf;
    while sides != 0 {
        let side = sides.trailing_zeros() as usize;
        sides &= sides - 1;
        for s in 3 * side..3 * side + 3 {
            let seg = own[s];
            if seg == NO_SEGMENT || (open_slots >> s) & 1 == 0 {
                continue;
            }
            let r = features.find(first + seg as u32);
            features.node_mut(r).open -= 1;
            touched |= 1 << seg;
        }
    }
    touched
}

/// Reused buffers of `Game::legal_moves_into_as`.
#[derive(Debug, Default)]
pub(crate) struct MoveLists {
    /// The open squares where the tile fits: their place in `Move`'s order
    /// (`square_order`), cell and fitting rotations (a bit each).
    squares: Vec<(u64, u32, u8)>,
}

/// A square's place in `Move`'s order (x, then y) as one integer. Coordinates stay far
/// inside +-2^31: a board holds at most a few thousand tiles.
#[inline]
fn square_order(x: i32, y: i32) -> u64 {
    let biased = |v: i32| (v as i64 + (1 << 31)) as u64;
    (biased(x) << 32) | biased(y)
}

impl Game {
    /// Starts again with the full tile set shuffled by `rng` (`Game::reset_shuffled`).
    pub(crate) fn reset_shuffled_as<S: RuleSystem>(&mut self, rng: &mut Rng) {
        let mut deck = std::mem::take(&mut self.deck);
        deck.clear();
        deck.extend_from_slice(&self.rules.full_deck);
        rng.shuffle(&mut deck);
        // Carcassonne Maps plays a chosen number of the tiles (a no-op otherwise).
        deck.truncate(self.rules.deck_limit);
        self.deck = deck;
        S::shuffle(self, rng);
        self.setup::<S>();
    }

    /// Sets up a new game on the deck in `self.deck`: the start tile (on a map, the printed
    /// pieces and the start squares), then the first draw.
    pub(crate) fn setup<S: RuleSystem>(&mut self) {
        debug_assert_eq!(self.rules.kind(), S::KIND, "the game's rule system");
        let rules = Arc::clone(&self.rules);
        self.board.reset(self.deck.len() + 1);
        self.features.clear();
        self.features.list_occupied(S::LISTS_OCCUPIED);
        self.next_draw = 0;
        self.current = 0;
        self.turn = 0;
        self.scores = [0; MAX_PLAYERS];
        self.by_kind = [[0; SCORE_KINDS]; MAX_PLAYERS];
        self.supply = [0; MAX_PLAYERS];
        for p in 0..rules.players() {
            self.supply[p] = rules.spec.meeples as u8;
        }
        self.goods = [[0; 3]; MAX_PLAYERS];
        self.discarded.clear();
        self.moves.clear();
        self.events.clear();
        self.watched_monasteries.clear();
        S::reset(self);
        self.over = false;
        self.seed = None;
        self.extra_turn_due = false;
        self.in_extra_turn = false;
        self.extra_turn_offered = false;
        self.decisions.clear();
        let start = rules.start_tile;
        match self.board.map().cloned() {
            None => {
                // Cannot fail: `Board::reset` sized the grid around (0, 0) with a margin of 2.
                let cell = self.board.cell(0, 0).expect("origin is on the board");
                self.add_tile::<S>(cell, start, 0);
            }
            Some(map) => {
                // The printed pieces first (they open nothing), then the start tile and
                // the first tiles of the deck, unturned, on the start squares used. The
                // pieces are the same in every game: the first game puts them down one by
                // one and keeps the result, the next ones copy it.
                match map.printed.get() {
                    Some(t) => {
                        self.board.apply_printed(t);
                        self.features.extend_nodes(&t.nodes);
                    }
                    None => {
                        for &(cell, tile, shown) in &map.pieces {
                            let joined = self.add_tile::<S>(cell, tile, 0);
                            self.board.show_at(joined.placed, shown);
                        }
                        let t = self.board.printed_template(self.features.nodes().to_vec());
                        // Another thread may have made it meanwhile: the same template.
                        let _ = map.printed.set(t);
                    }
                }
                // The start tile on the first start square, then the next tiles of the
                // deck on the others (M-12): each turned as asked, or by default the
                // first clockwise rotation whose edges fit what stands and is printed
                // around the square. A deck tile that does not fit is removed (C-3) and
                // the next one drawn; the start tile was checked with the rules.
                for (k, square) in rules.starts.iter().enumerate() {
                    // Cannot fail: the map's squares are cells of its board.
                    let cell = self
                        .board
                        .cell(square.at.0 as i32, square.at.1 as i32)
                        .expect("a map square is on the board");
                    let demand = self.board.demand_at(&map, cell);
                    let rotation = |tile: u16| {
                        let def = &rules.tiles[tile as usize];
                        let fits = |r: u8| {
                            (0..4).all(|side| {
                                let want = (demand >> (2 * side)) & 3;
                                want == 0 || want == def.edges_at[r as usize][side] as u8
                            })
                        };
                        match square.rotation {
                            Some(r) => fits(r).then_some(r),
                            None => (0..4).find(|&r| fits(r)),
                        }
                    };
                    if k == 0 {
                        // Cannot fail: `Rules::new` refused a start tile that does not
                        // fit its square, and nothing stands there yet.
                        let r = rotation(start).expect("the rules checked the start tile");
                        self.add_tile::<S>(cell, start, r);
                        continue;
                    }
                    while self.next_draw < self.deck.len() {
                        let tile = self.deck[self.next_draw];
                        self.next_draw += 1;
                        match rotation(tile) {
                            Some(r) => {
                                self.add_tile::<S>(cell, tile, r);
                                break;
                            }
                            None => self.discarded.push((0, tile)),
                        }
                    }
                }
            }
        }
        self.draw::<S>();
    }

    /// Checks a move without playing it (`Game::check`).
    pub(crate) fn check_as<S: RuleSystem>(&self, mv: Move) -> Result<(), IllegalMove> {
        let Some(tile) = self.tile else {
            return Err(if self.extra_turn_offered {
                IllegalMove::ExtraTurnPending
            } else {
                IllegalMove::GameOver
            });
        };
        S::check_phase(self)?;
        if mv.rotation > 3 {
            return Err(IllegalMove::BadRotation(mv.rotation));
        }
        let (x, y) = (mv.x, mv.y);
        let Some(cell) = self.board.cell(x, y) else {
            return Err(IllegalMove::NotAdjacent { x, y });
        };
        if self.board.placed_at(cell).is_some() {
            return Err(IllegalMove::Occupied { x, y });
        }
        let Some(open) = self.board.open_index(cell) else {
            return Err(IllegalMove::NotAdjacent { x, y });
        };
        let demand = self.board.open[open].demand;
        let def = &self.rules.tiles[tile as usize];
        for side in 0..4 {
            let want = (demand >> (2 * side)) & 3;
            let have = def.edges_at[mv.rotation as usize][side];
            if want != 0 && want != have as u8 {
                let neighbour = match want {
                    1 => EdgeKind::City,
                    2 => EdgeKind::Road,
                    _ => EdgeKind::Field,
                };
                return Err(IllegalMove::EdgeMismatch {
                    side,
                    tile: have,
                    neighbour,
                });
            }
        }
        let canonical = def.canonical_of[mv.rotation as usize];
        if canonical != mv.rotation {
            return Err(IllegalMove::SymmetricRotation {
                tile: def.id.clone(),
                rotation: mv.rotation,
                canonical,
            });
        }
        if let Some(seg) = mv.meeple {
            if seg as usize >= def.segments.len() {
                return Err(IllegalMove::NoSuchSegment {
                    tile: def.id.clone(),
                    segment: seg,
                    segments: def.segments.len(),
                });
            }
            if def.segments[seg as usize].kind == FeatureKind::Field && !self.rules.spec.farmers {
                return Err(IllegalMove::FarmersOff);
            }
            if self.supply[self.current] == 0 {
                return Err(IllegalMove::NoMeeplesLeft {
                    player: self.current,
                });
            }
            let p = Placement {
                cell,
                rotation: mv.rotation,
            };
            if !self.meeple_allowed_unchecked(tile, p, seg) {
                return Err(IllegalMove::FeatureOccupied {
                    feature: def.describe_segment(seg as usize, mv.rotation),
                });
            }
        }
        if let Some(spot) = mv.retrieve {
            S::check_retrieve(self, spot, mv.meeple)?;
        }
        S::check_ferry_parts(self, mv, cell, tile)
    }

    /// Every legal move (`Game::legal_moves`).
    pub(crate) fn legal_moves_as<S: RuleSystem>(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into_as::<S>(&mut out, &mut MoveLists::default());
        out
    }

    /// `legal_moves_as` into a reused list (cleared first), with reused buffers: a search
    /// lists the moves at every node it visits.
    ///
    /// The list comes out sorted without comparing whole moves: the open squares where the
    /// tile fits are sorted by square (packed in one integer), each square's rotations
    /// taken in increasing order, and each placement's moves are made in the order of
    /// the rest of `Move` (meeple, then the system's choices, sorted once per placement,
    /// then the islander taken back, sorted once per listing).
    pub(crate) fn legal_moves_into_as<S: RuleSystem>(
        &self,
        out: &mut Vec<Move>,
        lists: &mut MoveLists,
    ) {
        out.clear();
        let Some(tile) = self.tile else { return };
        if S::check_phase(self).is_err() {
            return;
        }
        let legal = self.rules.legal_row(tile);
        lists.squares.clear();
        lists.squares.extend(self.board.open.iter().filter_map(|o| {
            let rotations = legal[o.demand as usize];
            let (x, y) = self.board.xy(o.cell);
            (rotations != 0).then_some((square_order(x, y), o.cell, rotations))
        }));
        lists.squares.sort_unstable_by_key(|(k, _, _)| *k);
        // In `Spot` order: a move's retrieve part is the last it is sorted by.
        let mut retrievable = S::retrievable(self);
        retrievable.sort_unstable();
        let placements = lists.squares.iter().flat_map(|&(_, cell, mut rotations)| {
            std::iter::from_fn(move || {
                (rotations != 0).then(|| {
                    let rotation = rotations.trailing_zeros() as u8;
                    rotations &= rotations - 1;
                    Placement { cell, rotation }
                })
            })
        });
        let mut choices = Vec::new();
        for p in placements {
            self.moves_at_as::<S>(tile, p, &retrievable, &mut choices, out);
        }
        debug_assert!(out.is_sorted(), "legal moves come out sorted");
    }

    /// Appends the legal moves of `tile` at placement `p` (a fitting one) to `out`, in
    /// `Move`'s order: no meeple, then each free feature, each with every choice the rule
    /// system adds (`choices`: a reused buffer), and with no meeple each islander of
    /// `retrievable` (sorted) taken back. `legal_moves` is this for every placement in
    /// order; the action codec lists one placement's moves alone.
    #[inline]
    pub(crate) fn moves_at_as<S: RuleSystem>(
        &self,
        tile: u16,
        p: Placement,
        retrievable: &[crate::engine::decision::Spot],
        choices: &mut Vec<(Option<(u8, u8)>, FerryMoves)>,
        out: &mut Vec<Move>,
    ) {
        // Without choices of the system's own, the one "no choice" (no allocation).
        let no_choice = [(None, FerryMoves::NONE)];
        let (x, y) = self.board.xy(p.cell);
        // The choices the rule system adds (The Ferries: the new ferry, the ferry
        // moves), sorted: they come next in `Move`'s order.
        if S::HAS_PLACEMENT_CHOICES {
            *choices = S::placement_choices(self, p);
            choices.sort_unstable();
        }
        // The islander (meeple) choice: none, one on a free feature of the tile, or
        // (South Seas, with no meeple placed) one of the player's islanders taken
        // back; each with every choice the system adds. Made in `Move`'s order (by
        // meeple, then choice, then islander taken back), so nothing is sorted here.
        let choices: &[_] = if S::HAS_PLACEMENT_CHOICES {
            choices
        } else {
            &no_choice
        };
        // No meeple first, then each free segment in increasing order.
        let mut opts = self.meeple_options_unchecked(tile, p);
        let mut meeple = None;
        loop {
            for &(ferry, ferry_moves) in choices {
                let mv = Move {
                    x,
                    y,
                    rotation: p.rotation,
                    meeple,
                    ferry,
                    ferry_moves,
                    retrieve: None,
                };
                out.push(mv);
                if meeple.is_none() && !retrievable.is_empty() {
                    out.extend(retrievable.iter().map(|s| Move {
                        retrieve: Some(*s),
                        ..mv
                    }));
                }
            }
            if opts == 0 {
                break;
            }
            meeple = Some(opts.trailing_zeros() as u8);
            opts &= opts - 1;
        }
    }

    // ----- playing ------------------------------------------------------------------

    /// Plays a move known to be legal (`Game::play_unchecked`).
    pub(crate) fn play_unchecked_as<S: RuleSystem>(&mut self, mv: Move) {
        debug_assert_eq!(self.rules.kind(), S::KIND, "the game's rule system");
        debug_assert_eq!(self.check_as::<S>(mv), Ok(()));
        // Cannot fail for a checked move: `check` refuses squares off the board
        // (NotAdjacent) and spots without an own islander (NoOwnIslander).
        let cell = self
            .board
            .cell(mv.x, mv.y)
            .expect("check() refused squares off the board");
        let retrieved = mv.retrieve.map(|spot| {
            self.spot_element(spot)
                .expect("check() refused spots without an islander")
        });
        let joined = self.place_tile::<S>(mv, cell, retrieved);
        S::end_turn(self, mv, &joined);
    }

    /// Self-play: places the current tile as `mv` says (position, rotation, meeple), then
    /// asks `choose` for the choices that follow the placement (The Ferries: if there are
    /// any to make, given the lake tile just placed, if it is one, and the ferries this
    /// placement lets move, found from the placed tile, in the order of
    /// `Game::movable_ferries`), and plays them. Equivalent to making the choices first
    /// and calling `play_unchecked`; the recorded move carries them. `cell` is the move's
    /// square and `retrieved` the element of its `retrieve` spot, which the caller
    /// already knows.
    pub(crate) fn play_choosing<S: RuleSystem>(
        &mut self,
        mut mv: Move,
        cell: u32,
        retrieved: Option<u32>,
        choose: impl FnOnce(&Game, Option<u16>, &Movable) -> (Option<(u8, u8)>, FerryMoves),
    ) {
        debug_assert_eq!(self.board.cell(mv.x, mv.y), Some(cell));
        debug_assert_eq!(mv.retrieve.and_then(|s| self.spot_element(s)), retrieved);
        let joined = self.place_tile::<S>(mv, cell, retrieved);
        S::choose_after_placing(self, &mut mv, &joined, choose);
        S::end_turn(self, mv, &joined);
    }

    /// The first part of a turn: the tile at `cell` (the move's square) and its meeple, or
    /// (South Seas) the islander on element `retrieved` taken back.
    fn place_tile<S: RuleSystem>(&mut self, mv: Move, cell: u32, retrieved: Option<u32>) -> Joined {
        // Cannot fail for a checked move (`check` refuses GameOver) or a policy's (which
        // plays only while the game is not over).
        let tile = self.tile.expect("game not over");
        self.turn += 1;
        let joined = self.add_tile::<S>(cell, tile, mv.rotation);
        if let Some(seg) = mv.meeple {
            let first = self.board.placed[joined.placed].first_element;
            self.features
                .place_meeple(first + seg as u32, self.current as u8);
            self.supply[self.current] -= 1;
            S::on_meeple_placed(self, first + seg as u32);
        }
        if let Some(e) = retrieved {
            S::take_back(self, e);
        }
        joined
    }

    /// The classic end of a turn after `place_tile` (and, with The Ferries, the ferry
    /// choices): roads, cities and monasteries closed score, then the next player draws.
    /// `ferry_turn`: a ferry was placed or moved, which can close features away from the
    /// tile; `moved`: the elements ferry moves changed.
    pub(crate) fn score_and_pass<S: RuleSystem>(
        &mut self,
        mv: Move,
        joined: &Joined,
        ferry_turn: bool,
        moved: Option<[u32; 4 * MAX_FERRY_MOVES]>,
    ) {
        let placed = joined.placed;
        // Cannot fail: `place_tile` found the tile and the next draw comes below.
        let tile = self.tile.expect("game not over");
        let first = self.board.placed[placed].first_element;
        // Roads and cities closed by this tile or by ferries, each scored once, in segment
        // order. Only a segment that touched a neighbour can have closed; a new ferry or a
        // ferry move can close others, so then every road and city segment is looked at.
        let mut candidates = self.rules.closing_segments[tile as usize]
            & if ferry_turn { u16::MAX } else { joined.touched };
        // `Scored` holds MAX_SEGMENTS + 4 * MAX_FERRY_MOVES roots: at most one per segment
        // of the tile and one per element a ferry move touched.
        let mut scored = Scored::default();
        while candidates != 0 {
            let i = candidates.trailing_zeros();
            candidates &= candidates - 1;
            self.score_if_closed(first + i, &mut scored);
        }
        if let Some(touched) = moved {
            for e in touched.into_iter().filter(|e| *e != u32::MAX) {
                self.score_if_closed(e, &mut scored);
            }
        }
        // Occupied monasteries completed by this tile: its own and its neighbours'.
        // Unoccupied ones score nothing, so only the (few) occupied ones are watched.
        if let Some(seg) = mv.meeple
            && Some(seg) == self.rules.monastery[tile as usize]
        {
            self.watched_monasteries
                .push((mv.x, mv.y, first + seg as u32));
        }
        let mut i = self.watched_monasteries.len();
        while i > 0 {
            i -= 1;
            let (x, y, e) = self.watched_monasteries[i];
            if (x - mv.x).abs() <= 1
                && (y - mv.y).abs() <= 1
                && self.score_monastery_if_complete(x, y, e)
            {
                self.watched_monasteries.swap_remove(i);
            }
        }
        self.moves.push(mv);
        // On a map, after covering a small town with variant 1: the player may take
        // another turn (`engine::extra_turn`), decided before the next draw.
        if self.extra_turn_due {
            self.extra_turn_due = false;
            if self.offer_extra_turn() {
                return;
            }
        }
        // The next player, without a division.
        self.in_extra_turn = false;
        self.current += 1;
        if self.current == self.rules.players() {
            self.current = 0;
        }
        self.draw::<S>();
    }

    /// Puts a tile on the board and joins its segments to their neighbours.
    fn add_tile<S: RuleSystem>(&mut self, cell: u32, tile: u16, rotation: u8) -> Joined {
        if self.board.is_map() {
            return self.add_tile_on_map::<S>(cell, tile, rotation);
        }
        place_and_join::<false, S>(
            &self.rules,
            &mut self.board,
            &mut self.features,
            cell,
            tile,
            rotation,
        )
    }

    #[inline(never)]
    fn add_tile_on_map<S: RuleSystem>(&mut self, cell: u32, tile: u16, rotation: u8) -> Joined {
        let joined = place_and_join::<true, S>(
            &self.rules,
            &mut self.board,
            &mut self.features,
            cell,
            tile,
            rotation,
        );
        // A tile played on an island square with coats of arms: 2 points each at once
        // (M-5). Only a move's tile: the start squares are never island squares.
        let (arms, town) = match &self.rules.geometry {
            crate::board::map_board::Geometry::Map(m) => {
                (m.arms[cell as usize], m.town[cell as usize])
            }
            crate::board::map_board::Geometry::Open => (0, false),
        };
        if self.turn > 0 && town {
            if self.rules.town_penalty {
                self.award_for_square(cell, -2);
            }
            self.extra_turn_due = self.rules.town_extra_turn && !self.in_extra_turn;
        }
        if arms > 0 && self.turn > 0 {
            self.award_for_square(cell, 2 * arms as i32);
        }
        joined
    }

    /// Points (kind "map") to the player to move for the square at `cell` itself; the
    /// event names that square.
    fn award_for_square(&mut self, cell: u32, points: i32) {
        self.award(1 << self.current, points, ScoreKind::Map, None, true);
        if let Some(e) = self.events.last_mut().filter(|_| self.record_events) {
            e.tiles = vec![self.board.xy(cell)];
        }
    }

    /// Draws the next tile that can be placed (C-3), or ends the game.
    pub(crate) fn draw<S: RuleSystem>(&mut self) {
        while self.next_draw < self.deck.len() {
            let t = self.deck[self.next_draw];
            self.next_draw += 1;
            if self.has_placement(t) {
                self.tile = Some(t);
                return;
            }
            self.discarded.push((self.turn, t));
        }
        self.tile = None;
        self.finish::<S>();
    }

    /// Ends the game with the final scoring. Meeples stay where they stood, so the final
    /// board can still be inspected.
    pub(crate) fn finish<S: RuleSystem>(&mut self) {
        self.over = true;
        S::finish(self);
    }
}
