//! The greedy player's yardstick: for every legal action, the player's virtual score
//! after it minus the best opponent's (`Game::virtual_thirds`, thirds of a point).
//!
//! Playing every candidate on a copy of the game would take a copy of the board per
//! candidate; instead a placement's effect is worked out from what the tile changes,
//! against the virtual scores before it:
//! - the features its segments join (`Game::groups`): each joined feature's end-of-game
//!   value (or wares) is replaced by the merged feature's, complete or not, for its
//!   majority, with and without the player's own meeple on the tile's segment;
//! - classic: occupied monasteries around the square (one more neighbour), the square's
//!   own points (Maps), Traders & Builders goods of the cities it completes, and fields:
//!   merged fields, and every occupied field bordering a city the tile completes;
//! - South Seas: an islander taken back leaves its feature; boats, completed features
//!   and Friday's wares change nothing a virtual score does not already count (a feature
//!   gives the same wares complete or not, Friday gives every player alike).
//!
//! The rare placements whose effect reaches further are played on a copy instead: ferry
//! choices (The Ferries), a tile covering a small town with the road bonus (Maps variant
//! 3), a completed market (South Seas: ships are handed out). Decisions after the
//! placement are few: deliveries are valued directly (ship points less the wares paid),
//! the Maps extra turn by the expected lead after the next tile (`greedy/extra_turn.rs`),
//! the others on a copy. Tests check every value against playing the action on a copy
//! (the extra turn's against its expectation worked out by hand).
//!
//! The valuation is compiled once per rule system (`GreedyValues`, a `RuleSystem` with
//! the player's own questions): the classic parts are here as its defaults, South Seas'
//! and The Ferries' in `greedy/south_seas.rs` and `greedy/ferries.rs`.

use std::cell::RefCell;

mod extra_turn;
mod ferries;
mod south_seas;

use crate::data::tileset::{FeatureKind, MAX_SEGMENTS};
use crate::engine::decision::{Decision, Phase};
use crate::engine::game::{EndScratch, Game, Groups, Move, Placement, goods_majorities};
use crate::engine::scoring::{
    FIELD_POINTS_PER_CITY, GOODS_MAJORITY_POINTS, edge_feature_points, majority, monastery_points,
};
use crate::engine::system::RuleSystem;
use crate::limits::MAX_PLAYERS;
use crate::play::action::Action;
use crate::rng::Rng;
use crate::systems::any::for_system;
use crate::systems::classic::Classic;
use crate::systems::ferries::state::FerryMoves;
use crate::topology::RING_DELTA;

/// A candidate move, as the evaluation lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub placement: Placement,
    pub meeple: Option<u8>,
    /// South Seas: the element of the islander taken back.
    pub retrieve: Option<u32>,
    pub ferry: Option<(u8, u8)>,
    pub ferry_moves: FerryMoves,
}

impl Candidate {
    fn new(placement: Placement, meeple: Option<u8>, retrieve: Option<u32>) -> Self {
        Candidate {
            placement,
            meeple,
            retrieve,
            ferry: None,
            ferry_moves: FerryMoves::NONE,
        }
    }

    pub fn to_move(self, game: &Game) -> Move {
        let (x, y) = game.board().xy(self.placement.cell);
        Move {
            x,
            y,
            rotation: self.placement.rotation,
            meeple: self.meeple,
            ferry: self.ferry,
            ferry_moves: self.ferry_moves,
            retrieve: self.retrieve.map(|e| game.spot_of(e)),
        }
    }
}

/// Working memory reused from one decision to the next (one per thread).
#[derive(Default)]
pub(crate) struct Work {
    end: EndScratch,
    tiles: Vec<u16>,
    /// Per field root asked this decision: the completed cities it borders.
    field_cities: Vec<(u32, Vec<u32>)>,
    /// Per city root asked this decision: the field roots bordering it.
    city_fields: Vec<(u32, Vec<u32>)>,
    /// South Seas: the lead after taking back each of `retrievable` when the tile joins
    /// no occupied feature (the same for every such placement).
    back_lead: Vec<i32>,
    /// South Seas: the wares on each segment of the tile to place.
    seg_wares: [i32; MAX_SEGMENTS],
    /// Vectors of the two lists above, kept for reuse.
    spare: Vec<Vec<u32>>,
    roots: Vec<u32>,
    cities: Vec<u32>,
    /// South Seas: the islanders the player may take back (element, root of its
    /// feature), and the change taking each back makes when the tile does not join its
    /// feature.
    retrievable: Vec<(u32, u32)>,
    back: Vec<[i32; MAX_PLAYERS]>,
    /// A copy of the game for the candidates played out.
    copy: Option<Game>,
}

impl Work {
    fn forget(&mut self) {
        for (_, v) in self
            .field_cities
            .drain(..)
            .chain(self.city_fields.drain(..))
        {
            self.spare.push(v);
        }
    }
}

thread_local! {
    static WORK: RefCell<Work> = RefCell::default();
}

/// The player's virtual score minus the best opponent's.
#[inline]
pub(super) fn lead(v: &[i32; MAX_PLAYERS], player: usize, players: usize) -> i32 {
    let best = (0..players)
        .filter(|q| *q != player)
        .map(|q| v[q])
        .max()
        .unwrap_or(0);
    v[player] - best
}

/// Adds `amount` to every player of `winners` (a bit set).
#[inline]
fn give(d: &mut [i32; MAX_PLAYERS], winners: u8, amount: i32) {
    if amount == 0 {
        return;
    }
    for (p, x) in d.iter_mut().enumerate() {
        if winners & (1 << p) != 0 {
            *x += amount;
        }
    }
}

/// `game` after `action`, played on the kept copy `slot` (made on first use; later
/// copies reuse its buffers), without the game's history (`Game::copy_position_from`).
fn played_copy<'c>(slot: &'c mut Option<Game>, game: &Game, action: Action) -> &'c Game {
    let copy = slot.get_or_insert_with(|| game.clone());
    copy.copy_position_from(game);
    copy.set_record_events(false);
    copy.apply_unchecked(action);
    copy
}

/// The lead of the decider after `action`, played on a copy.
fn played(game: &Game, w: &mut Work, action: Action) -> i32 {
    let copy = played_copy(&mut w.copy, game, action);
    lead(
        &copy.virtual_thirds_with(&mut w.end),
        game.decider(),
        game.rules().players(),
    )
}

/// Every player's virtual score after `action` (in thirds of a point), played on a copy,
/// for moves that differ from each other only in their roads: The Ferries' ferry moves
/// after the same placement (a ferry joins and cuts roads, and no other feature's award
/// depends on a road) with no meeple or one on a road. Their virtual scores are the points
/// so far, the unfinished roads' awards and the same awards of every other feature:
/// `others` holds the latter for such a group (None before its first move, which sums
/// them as the whole virtual score less the roads' part and the points).
pub(super) fn played_roads(
    game: &Game,
    w: &mut Work,
    action: Action,
    others: &mut Option<[i32; MAX_PLAYERS]>,
) -> [i32; MAX_PLAYERS] {
    let copy = played_copy(&mut w.copy, game, action);
    if copy.is_over() {
        // The final scoring has given every award: the points are the whole score.
        return copy.virtual_thirds_with(&mut w.end);
    }
    let roads = copy.road_virtual_thirds(&mut w.end);
    let others = *others.get_or_insert_with(|| {
        let all = copy.virtual_thirds_with(&mut w.end);
        std::array::from_fn(|p| all[p] - roads[p] - 3 * copy.scores[p])
    });
    let v = std::array::from_fn(|p| 3 * copy.scores[p] + roads[p] + others[p]);
    debug_assert_eq!(
        v,
        copy.virtual_thirds_with(&mut w.end),
        "a ferry move's virtual scores"
    );
    v
}

/// Calls `f(candidate, lead after it)` for every legal move of the current player (the
/// "place" phase of a game not over); `buf` is scratch space. Looks the rule system up:
/// `move_values` is compiled once per system.
pub(crate) fn for_each_move_value(
    game: &Game,
    buf: &mut Vec<Placement>,
    mut f: impl FnMut(Candidate, i32),
) {
    for_system!(game.rules().kind(), S => for_each_move_value_as::<S>(game, buf, &mut f))
}

/// `for_each_move_value` in a game of rule system `S`.
pub(crate) fn for_each_move_value_as<S: GreedyValues>(
    game: &Game,
    buf: &mut Vec<Placement>,
    f: &mut impl FnMut(Candidate, i32),
) {
    WORK.with(|w| {
        // Cannot fail: the work is borrowed only here, and nothing below calls back in.
        let mut w = w.borrow_mut();
        move_values::<S>(game, &mut w, buf, f);
    });
}

/// What the greedy valuation asks of a rule system beyond the classic parts (the
/// defaults): its own moves' values. Each system's part is in `greedy/<system>.rs`.
pub(crate) trait GreedyValues: RuleSystem {
    /// Prepares the values that are the same for every placement of `tile` (South Seas:
    /// the wares of its segments, the islanders that may be taken back and the change
    /// each makes), given the virtual thirds `before` the move.
    fn prepare(_game: &Game, _w: &mut Work, _tile: u16, _before: &[i32; MAX_PLAYERS]) {}

    /// Calls `f` with the lead after each move of placement `p` (its feature groups
    /// `g`, the meeple segments `options`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn placement_values(
        game: &Game,
        w: &mut Work,
        tile: u16,
        p: Placement,
        g: &Groups,
        options: u16,
        before: &[i32; MAX_PLAYERS],
        f: &mut impl FnMut(Candidate, i32),
    ) {
        classic_values(game, w, tile, p, g, options, before, f);
    }
}

impl GreedyValues for Classic {}

fn move_values<S: GreedyValues>(
    game: &Game,
    w: &mut Work,
    buf: &mut Vec<Placement>,
    f: &mut impl FnMut(Candidate, i32),
) {
    // Cannot fail while the game is not over (the precondition of every chooser).
    let tile = game.tile().expect("game not over");
    game.placements_unchecked(tile, buf);
    w.forget();
    let rules = game.rules().clone();
    let player = game.current_player();
    let before = S::virtual_thirds(game, &mut w.end);
    w.retrievable.clear();
    w.back.clear();
    w.back_lead.clear();
    S::prepare(game, w, tile, &before);
    for &p in buf.iter() {
        // Covering a small town changes the bonus of every road beside it.
        let covers_town =
            rules.town_road_bonus && game.board().map().is_some_and(|m| m.town[p.cell as usize]);
        if covers_town {
            play_out::<S>(game, w, tile, p, f);
            continue;
        }
        let g = game.groups(p.cell, tile, p.rotation);
        let options = if game.supply()[player] > 0 {
            game.options_of_groups(tile, &g)
        } else {
            0
        };
        S::placement_values(game, w, tile, p, &g, options, &before, f);
    }
}

/// Every move of placement `p`, played on a copy.
fn play_out<S: RuleSystem>(
    game: &Game,
    w: &mut Work,
    tile: u16,
    p: Placement,
    f: &mut impl FnMut(Candidate, i32),
) {
    let choices = S::placement_choices(game, p);
    let options = game.meeple_options_unchecked(tile, p);
    let mut islander: Vec<(Option<u8>, Option<u32>)> = vec![(None, None)];
    islander.extend(
        (0..MAX_SEGMENTS as u8)
            .filter(|i| options & (1 << i) != 0)
            .map(|i| (Some(i), None)),
    );
    islander.extend(w.retrievable.iter().map(|(e, _)| (None, Some(*e))));
    for (meeple, retrieve) in islander {
        for &(ferry, ferry_moves) in &choices {
            let c = Candidate {
                ferry,
                ferry_moves,
                ..Candidate::new(p, meeple, retrieve)
            };
            let v = played(game, w, Action::Place(c.to_move(game)));
            f(c, v);
        }
    }
}

/// The roots of the features the group of segment `rep` joins (distinct), into `out`.
fn group_roots(g: &Groups, rep: usize, out: &mut Vec<u32>) {
    out.clear();
    let c = &g.contacts;
    for k in 0..c.n {
        if g.group[c.seg[k] as usize] as usize == rep && !out.contains(&c.root[k]) {
            out.push(c.root[k]);
        }
    }
}

/// The memoised list of `key` in `memo`, made by `make` on first use (inlined: see
/// `fields`).
#[inline(always)]
fn memo<'m>(
    memo: &'m mut Vec<(u32, Vec<u32>)>,
    spare: &mut Vec<Vec<u32>>,
    key: u32,
    make: impl FnOnce(&mut Vec<u32>),
) -> &'m [u32] {
    let i = match memo.iter().position(|(k, _)| *k == key) {
        Some(i) => i,
        None => {
            let mut v = spare.pop().unwrap_or_default();
            v.clear();
            make(&mut v);
            memo.push((key, v));
            memo.len() - 1
        }
    };
    &memo[i].1
}

/// The field roots bordering the city rooted at `root` (distinct), into `out`: for each
/// city segment, the fields of its tile whose `adjacent_cities` name it.
fn city_fields(game: &Game, root: u32, out: &mut Vec<u32>) {
    let f = game.features();
    let rules = game.rules();
    for m in f.members(root) {
        let node = f.node(m);
        let p = &game.board().placed[node.placed as usize];
        for (s, seg) in rules.tiles[p.tile as usize].segments.iter().enumerate() {
            if seg.kind == FeatureKind::Field && seg.adjacent_cities.contains(&node.segment) {
                let field = f.find(p.first_element + s as u32);
                if !out.contains(&field) {
                    out.push(field);
                }
            }
        }
    }
}

/// Classic placement `p`: the lead after each of its moves. Inlined into each system's
/// valuation loop (the default `placement_values`, itself inlined): a call per placement
/// cost the greedy base game 5% more instructions (callgrind, 2026-12-03).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn classic_values(
    game: &Game,
    w: &mut Work,
    tile: u16,
    p: Placement,
    g: &Groups,
    options: u16,
    before: &[i32; MAX_PLAYERS],
    f: &mut impl FnMut(Candidate, i32),
) {
    let (player, players) = (game.current_player(), game.rules().players());
    let mut leads = Leads { f, player, players };
    classic_totals(game, w, tile, p, g, options, before, &mut leads);
}

/// Where `classic_totals` sends each move's virtual scores after it (every player's, in
/// thirds of a point).
pub(super) trait Totals {
    fn total(&mut self, c: Candidate, t: &[i32; MAX_PLAYERS]);
}

/// The leads of the player to move, to `f` (`classic_values`). A type rather than a
/// closure: the compiler inlines its method, where a closure here stayed a call (the
/// greedy base game cost 1.8% more instructions, callgrind, 2026-12-03).
struct Leads<'a, F> {
    f: &'a mut F,
    player: usize,
    players: usize,
}

impl<F: FnMut(Candidate, i32)> Totals for Leads<'_, F> {
    #[inline(always)]
    fn total(&mut self, c: Candidate, t: &[i32; MAX_PLAYERS]) {
        (self.f)(c, lead(t, self.player, self.players))
    }
}

/// `classic_values` giving each move's virtual scores after it (every player's, in
/// thirds of a point) instead of the lead.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn classic_totals(
    game: &Game,
    w: &mut Work,
    tile: u16,
    p: Placement,
    g: &Groups,
    options: u16,
    before: &[i32; MAX_PLAYERS],
    f: &mut impl Totals,
) {
    let rules = game.rules();
    let spec = &rules.spec;
    let def = &rules.tiles[tile as usize];
    let feats = game.features();
    let player = game.current_player();
    let players = rules.players();
    let c = &g.contacts;
    let nseg = def.segments.len();
    // Change of every player's virtual score in points without a meeple, and the further
    // change a meeple on the group of segment i makes (group representatives only).
    let mut base = [0i32; MAX_PLAYERS];
    let mut with = [[0i32; MAX_PLAYERS]; MAX_SEGMENTS];
    let mut new_goods = [0u16; 3];
    // Cities this tile completes: bit per representative segment.
    let mut completed = 0u16;
    let in_group = |rep: usize, i: usize| g.group[i] as usize == rep;
    let with_own = |meeples: &[u8; MAX_PLAYERS]| {
        let mut m = *meeples;
        m[player] += 1;
        m
    };
    for rep in 0..nseg {
        if g.group[rep] as usize != rep || !def.segments[rep].kind.closes_by_edges() {
            continue;
        }
        let kind = def.segments[rep].kind;
        group_roots(g, rep, &mut w.roots);
        let mut open = 0i32;
        let mut tally = crate::engine::scoring::FeatureTally::default();
        let mut meeples = [0u8; MAX_PLAYERS];
        let mut goods = [0u16; 3];
        for i in (0..nseg).filter(|i| in_group(rep, *i)) {
            let s = &def.segments[i];
            open += s.sides as i32 - 2 * c.matched[i] as i32 - c.closed[i] as i32;
            tally.pennants += s.pennants as u32;
            tally.inns += s.inns as u32;
            tally.cathedrals += s.cathedrals as u32;
            for k in 0..3 {
                goods[k] += s.goods[k] as u16;
            }
        }
        w.tiles.clear();
        for &r in &w.roots {
            let n = feats.node(r);
            open += n.open as i32;
            tally.pennants += n.pennants as u32;
            tally.inns += n.inns as u32;
            tally.cathedrals += n.cathedrals as u32;
            for k in 0..3 {
                goods[k] += n.goods[k];
            }
            for q in 0..MAX_PLAYERS {
                meeples[q] += n.meeples[q];
            }
            if n.meeple_total > 0 {
                give(
                    &mut base,
                    majority(&n.meeples),
                    -game.end_value(r, &mut w.end.tiles),
                );
            }
            w.tiles
                .extend(feats.members(r).map(|m| feats.node(m).placed));
        }
        let has_option = (0..nseg).any(|i| in_group(rep, i) && options & (1 << i) != 0);
        let complete = open == 0;
        if complete && kind == FeatureKind::City {
            completed |= 1 << rep;
            if spec.traders_goods {
                for k in 0..3 {
                    new_goods[k] += goods[k];
                }
            }
        }
        if meeples.iter().all(|m| *m == 0) && !has_option {
            continue;
        }
        w.tiles.sort_unstable();
        w.tiles.dedup();
        tally.tiles = w.tiles.len() as u32 + 1;
        let mut points = edge_feature_points(kind, tally, complete, spec);
        if rules.town_road_bonus && kind == FeatureKind::Road {
            let board = game.board();
            let squares = w
                .tiles
                .iter()
                .map(|t| board.placed[*t as usize].cell)
                .chain([p.cell]);
            points += game.towns_beside(squares, Some(p.cell));
        }
        give(&mut base, majority(&meeples), points);
        if has_option {
            give(&mut with[rep], majority(&with_own(&meeples)), points);
            give(&mut with[rep], majority(&meeples), -points);
        }
    }
    // Occupied monasteries around the square: one more neighbour each.
    let board = game.board();
    for (dx, dy) in RING_DELTA {
        let cell = board.offset_cell(p.cell, dx, dy);
        let Some(q) = board.placed_at(cell) else {
            continue;
        };
        let pl = &board.placed[q];
        let Some(seg) = rules.monastery[pl.tile as usize] else {
            continue;
        };
        let n = feats.node(pl.first_element + seg as u32);
        if n.meeple_total > 0 {
            let gain = monastery_points(board.ring_filled(cell, Some(p.cell)))
                - monastery_points(board.ring_filled(cell, None));
            give(&mut base, majority(&n.meeples), gain);
        }
    }
    // The tile's own monastery, if a monk goes on it.
    if let Some(seg) = rules.monastery[tile as usize]
        && options & (1 << seg) != 0
    {
        with[seg as usize][player] += monastery_points(board.ring_filled(p.cell, None));
    }
    base[player] += game.square_points(p.cell);
    // Goods of the cities completed: the majorities change.
    if new_goods.iter().any(|g| *g > 0) {
        let mut goods = [[0u16; 3]; MAX_PLAYERS];
        for (q, row) in goods.iter_mut().enumerate().take(players) {
            *row = game.goods(q);
        }
        goods_majorities(&goods, players, |_, winners, _| {
            give(&mut base, winners, -GOODS_MAJORITY_POINTS)
        });
        for k in 0..3 {
            goods[player][k] += new_goods[k];
        }
        goods_majorities(&goods, players, |_, winners, _| {
            give(&mut base, winners, GOODS_MAJORITY_POINTS)
        });
    }
    if spec.farmers {
        fields(game, w, tile, g, options, completed, &mut base, &mut with);
    }
    // The moves of this placement.
    let mut total = *before;
    for q in 0..players {
        total[q] += 3 * base[q];
    }
    f.total(Candidate::new(p, None, None), &total);
    let mut opts = options;
    while opts != 0 {
        let i = opts.trailing_zeros() as usize;
        opts &= opts - 1;
        let extra = &with[g.group[i] as usize];
        let mut t = total;
        for q in 0..players {
            t[q] += 3 * extra[q];
        }
        f.total(Candidate::new(p, Some(i as u8), None), &t);
    }
}

/// Fields: the fields the tile joins are valued merged (the cities they border, the
/// cities the tile completes among them), and every other occupied field bordering a
/// city the tile completes gains that city.
// Inlined into the classic valuation with `memo`: out of line, the two cost the greedy
// base game 3% more instructions (callgrind, 2026-12-03).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn fields(
    game: &Game,
    w: &mut Work,
    tile: u16,
    g: &Groups,
    options: u16,
    completed: u16,
    base: &mut [i32; MAX_PLAYERS],
    with: &mut [[i32; MAX_PLAYERS]; MAX_SEGMENTS],
) {
    let rules = game.rules();
    let def = &rules.tiles[tile as usize];
    let feats = game.features();
    let player = game.current_player();
    let nseg = def.segments.len();
    let is_field = |i: usize| def.segments[i].kind == FeatureKind::Field;
    // Field roots the tile joins, and the representative of the field group each joins.
    let mut joined: [(u32, u8); 12] = [(u32::MAX, 0); 12];
    let mut nj = 0;
    let c = &g.contacts;
    for k in 0..c.n {
        let s = c.seg[k] as usize;
        if is_field(s) && !joined[..nj].iter().any(|(r, _)| *r == c.root[k]) {
            joined[nj] = (c.root[k], g.group[s]);
            nj += 1;
        }
    }
    // For each completed city (bit per representative): the field groups of the tile
    // bordering it (bit per representative), and the untouched fields bordering it.
    let mut city_groups = [0u16; MAX_SEGMENTS];
    let mut untouched: Vec<(u8, u32)> = Vec::new();
    let mut done = completed;
    while done != 0 {
        let city = done.trailing_zeros() as usize;
        done &= done - 1;
        // The tile's own fields beside a segment of that city.
        for i in (0..nseg).filter(|i| is_field(*i)) {
            if def.segments[i]
                .adjacent_cities
                .iter()
                .any(|s| g.group[*s as usize] as usize == city)
            {
                city_groups[city] |= 1 << g.group[i];
            }
        }
        group_roots(g, city, &mut w.roots);
        for r in 0..w.roots.len() {
            let root = w.roots[r];
            let list = memo(&mut w.city_fields, &mut w.spare, root, |v| {
                city_fields(game, root, v)
            });
            for &field in list {
                match joined[..nj].iter().find(|(r, _)| *r == field) {
                    Some((_, rep)) => city_groups[city] |= 1 << rep,
                    None => {
                        if !untouched.contains(&(city as u8, field)) {
                            untouched.push((city as u8, field));
                        }
                    }
                }
            }
        }
    }
    for &(_, field) in &untouched {
        let n = feats.node(field);
        if n.meeple_total > 0 {
            give(base, majority(&n.meeples), FIELD_POINTS_PER_CITY);
        }
    }
    for rep in (0..nseg).filter(|i| is_field(*i) && g.group[*i] as usize == *i) {
        let mut meeples = [0u8; MAX_PLAYERS];
        w.cities.clear();
        for &(root, _) in joined[..nj].iter().filter(|(_, r)| *r as usize == rep) {
            let n = feats.node(root);
            for q in 0..MAX_PLAYERS {
                meeples[q] += n.meeples[q];
            }
            let list = memo(&mut w.field_cities, &mut w.spare, root, |v| {
                game.field_cities(root, v)
            });
            if n.meeple_total > 0 {
                give(
                    base,
                    majority(&n.meeples),
                    -FIELD_POINTS_PER_CITY * list.len() as i32,
                );
            }
            for city in list {
                if !w.cities.contains(city) {
                    w.cities.push(*city);
                }
            }
        }
        let has_option = (0..nseg).any(|i| g.group[i] as usize == rep && options & (1 << i) != 0);
        if meeples.iter().all(|m| *m == 0) && !has_option {
            continue;
        }
        let new = (0..nseg)
            .filter(|city| completed & (1 << city) != 0 && city_groups[*city] & (1 << rep) != 0)
            .count();
        let points = FIELD_POINTS_PER_CITY * (w.cities.len() + new) as i32;
        give(base, majority(&meeples), points);
        if has_option {
            let mut m = meeples;
            m[player] += 1;
            give(&mut with[rep], majority(&m), points);
            give(&mut with[rep], majority(&meeples), -points);
        }
    }
}

/// Calls `f(decision, lead after it)` for every legal decision of the decider (a phase
/// other than "place", game not over).
pub(crate) fn for_each_decision_value(game: &Game, mut f: impl FnMut(Decision, i32)) {
    let player = game.decider();
    let players = game.rules().players();
    let before = lead(&game.virtual_thirds(), player, players);
    if game.phase() == Phase::Deliver {
        // Step 4: a delivery adds the ship's points and costs the wares paid; trading
        // keeps the number of wares. What follows in the turn (Friday's wares for every
        // player, the end of the game) changes no lead.
        f(Decision::Deliver(None), before);
        game.for_each_delivery(|d| {
            let ship = game.system.sea().display[d.ship as usize];
            let points = game.rules().ships[ship as usize].points as i32;
            let paid: i32 = d.pay.iter().map(|x| *x as i32).sum();
            f(Decision::Deliver(Some(d)), before + 3 * points - paid);
        });
        game.for_each_trade(|give, take| f(Decision::Trade(give, take), before));
        return;
    }
    if game.phase() == Phase::ExtraTurn {
        // Maps: the expected lead after the next tile, placed by the player or by the
        // next one (`extra_turn`): deciding changes no score by itself.
        let [decline, take] = extra_turn::values(game);
        f(Decision::ExtraTurn(false), decline);
        f(Decision::ExtraTurn(true), take);
        return;
    }
    WORK.with(|w| {
        // Cannot fail: the work is borrowed only here, and nothing below calls back in.
        let mut w = w.borrow_mut();
        for d in game.legal_decisions() {
            let v = played(game, &mut w, Action::Decide(d));
            f(d, v);
        }
    });
}

/// The greedy move: the best lead after it, ties uniform.
pub(crate) fn greedy_move<S: GreedyValues>(
    game: &Game,
    rng: &mut Rng,
    buf: &mut Vec<Placement>,
) -> Move {
    let mut best = i32::MIN;
    let mut ties = 0u32;
    let mut chosen = None;
    for_each_move_value_as::<S>(game, buf, &mut |c, v| {
        if v > best {
            best = v;
            ties = 1;
            chosen = Some(c);
        } else if v == best {
            ties += 1;
            if rng.below(ties) == 0 {
                chosen = Some(c);
            }
        }
    });
    // Cannot fail: a tile is drawn only if it has a placement (`Game::draw`), and each
    // placement lists at least its move without a meeple.
    chosen.expect("a drawn tile has a placement").to_move(game)
}

/// The greedy decision: the best lead after it, ties uniform.
pub(crate) fn greedy_decision(game: &Game, rng: &mut Rng) -> Decision {
    let mut best = i32::MIN;
    let mut ties = 0u32;
    let mut chosen = None;
    for_each_decision_value(game, |d, v| {
        if v > best {
            best = v;
            ties = 1;
            chosen = Some(d);
        } else if v == best {
            ties += 1;
            if rng.below(ties) == 0 {
                chosen = Some(d);
            }
        }
    });
    // Cannot fail: a pending decision has at least one option (`legal_decisions`; step 4
    // always allows not delivering).
    chosen.expect("a pending decision has an option")
}

/// Every legal action of the decider with the lead after it, as the greedy player sees
/// it (for tests against playing each action on a copy).
#[doc(hidden)]
pub fn greedy_values(game: &Game) -> Vec<(Action, i32)> {
    let mut out = Vec::new();
    if game.is_over() {
        return out;
    }
    if game.phase() == Phase::Place {
        let mut buf = Vec::new();
        for_each_move_value(game, &mut buf, |c, v| {
            out.push((Action::Place(c.to_move(game)), v))
        });
    } else {
        for_each_decision_value(game, |d, v| out.push((Action::Decide(d), v)));
    }
    out
}
