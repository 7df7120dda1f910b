//! South Seas' part of a game's state (decisions S-3..S-8): the phase of the turn, the
//! ship display and boat tokens, wares, islanders, deliveries and events, and Friday's
//! part; the turn code is `turn.rs` and `friday.rs`. The phases and decisions of every
//! rule system are listed in `engine::decision`.

use serde::{Deserialize, Serialize};

use crate::engine::decision::Phase;

use crate::board::features::Node;
use crate::data::tileset::FeatureKind;
use crate::engine::scoring::majority;
use crate::limits::MAX_PLAYERS;
use crate::systems::south_seas::friday_tiles::Bonus;

/// Face-up ships while the pile lasts.
pub const DISPLAY_SIZE: usize = 4;
/// Fishing-boat tokens in the box (S-5: when they run out, boats cover nothing).
pub const BOAT_TOKENS: u8 = 19;
/// Wares per point at the end.
pub const WARES_PER_POINT: u32 = 3;
/// Index of fish in ware arrays (shell, banana, fish).
pub const FISH: usize = 2;

/// South Seas entries of the event log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SeaEvent {
    /// A bridge, island or sea region evaluated: each of `players` received `wares`.
    Wares {
        turn: u32,
        kind: FeatureKind,
        players: Vec<u8>,
        wares: [u32; 3],
        tiles: Vec<(i32, i32)>,
        complete: bool,
        /// Evaluated because a fishing boat was placed in it.
        boat: bool,
        final_scoring: bool,
    },
    /// A boat token covered `fish` fish (a group of 2, else 1) on the tile at (x, y).
    Boat { turn: u32, x: i32, y: i32, fish: u8 },
    /// Friday arrived on Friday tile `tile` (index into the rules' Friday tiles): revealed
    /// after weeks 1-6, or moved there by `player` after weeks 7-10; a wares bonus gave
    /// every player `wares`.
    Friday {
        turn: u32,
        tile: u8,
        moved_by: Option<u8>,
        wares: [u32; 3],
    },
    /// Friday's homecoming: `player` took his islander at (x, y) back.
    Homecoming {
        turn: u32,
        player: u8,
        x: i32,
        y: i32,
    },
    /// Friday's trading: `player` swapped one ware `give` for one ware `take`.
    Trade {
        turn: u32,
        player: u8,
        give: u8,
        take: u8,
    },
    /// `player` took ship `ship` (index in the rules' ship list), paying `paid`, or
    /// nothing for a completed market.
    Ship {
        turn: u32,
        player: u8,
        ship: u16,
        points: u8,
        paid: Option<[u8; 3]>,
    },
}

/// A remembered answer of `Game::delivery_possible`, valid while its inputs are unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DeliveryMemo {
    pub(crate) have: [u32; 3],
    pub(crate) discount: u8,
    pub(crate) display_version: u32,
    /// Display slots (bit per slot) whose ship the player can pay for.
    pub(crate) affordable: u8,
}

/// The South Seas part of a game's state (empty in classic games).
// `Clone`: field by field (`clone_by_field!` below), so a reused copy keeps its buffers.
#[derive(Debug, Default)]
pub struct SeaState {
    pub phase: Phase,
    pub wares: [[u32; 3]; MAX_PLAYERS],
    /// Face-down ships, drawn from the front.
    pub pile: Vec<u16>,
    pub next_ship: usize,
    /// Face-up ships (indices into the rules' ships), at most `DISPLAY_SIZE`.
    pub display: Vec<u16>,
    /// Fewest wares any face-up ship needs (u32::MAX with none): most turns a player
    /// holds fewer, and no delivery needs checking.
    pub least_need: u32,
    /// Changes whenever the display does (see `Game::update_least_need`).
    pub(crate) display_version: u32,
    /// Per player: the display slots he could pay for when last asked, and for which
    /// wares, discount and display. Wares change on a few turns only, so most turns reuse
    /// it.
    pub(crate) delivery_memo: [Option<DeliveryMemo>; MAX_PLAYERS],
    /// Ships taken, in order: (player, ship).
    pub taken: Vec<(u8, u16)>,
    pub tokens_left: u8,
    /// Elements holding each player's islanders, in the order they were placed.
    pub islanders: [Vec<u32>; MAX_PLAYERS],
    /// (x, y, element) of markets holding a merchant, not yet complete.
    pub watched_markets: Vec<(i32, i32, u32)>,
    pub events: Vec<SeaEvent>,
    /// Completed markets not yet given a ship, in picking order: (player, element).
    pub pending_markets: Vec<(u8, u32)>,
}

crate::clone::clone_by_field!(SeaState {
    phase,
    wares,
    pile,
    next_ship,
    display,
    least_need,
    display_version,
    delivery_memo,
    taken,
    tokens_left,
    islanders,
    watched_markets,
    events,
    pending_markets,
});

impl SeaState {
    /// A new game with the ships in `pile` order (kept).
    pub(crate) fn reset(&mut self) {
        self.phase = Phase::Place;
        self.wares = [[0; 3]; MAX_PLAYERS];
        self.next_ship = 0;
        self.display.clear();
        self.taken.clear();
        for list in &mut self.islanders {
            list.clear();
        }
        self.tokens_left = BOAT_TOKENS;
        self.watched_markets.clear();
        self.events.clear();
        self.pending_markets.clear();
        self.delivery_memo = [None; MAX_PLAYERS];
        self.refill();
    }

    pub(crate) fn refill(&mut self) {
        while self.display.len() < DISPLAY_SIZE && self.next_ship < self.pile.len() {
            self.display.push(self.pile[self.next_ship]);
            self.next_ship += 1;
        }
    }

    /// The last ship has been taken.
    pub fn ships_gone(&self) -> bool {
        self.display.is_empty() && self.next_ship == self.pile.len()
    }
}

/// What evaluating a feature gives: its uncovered wares to each player of the majority
/// of its islanders (all tied players in full), as a bit set over players.
pub(crate) fn feature_wares(n: &Node) -> (u8, [u32; 3]) {
    (
        majority(&n.meeples),
        [n.goods[0] as u32, n.goods[1] as u32, n.goods[2] as u32],
    )
}

/// Points for wares left at the end: 1 per `WARES_PER_POINT`, rounded down.
pub(crate) fn wares_points(wares: [u32; 3]) -> i32 {
    (wares.iter().sum::<u32>() / WARES_PER_POINT) as i32
}

/// Friday's part of a game's state.
// `Clone`: field by field (`clone_by_field!` below), so a reused copy keeps its buffers.
#[derive(Debug, Default)]
pub struct FridayState {
    /// Order in which the Friday tiles are revealed (indices into the rules' tiles).
    pub order: Vec<u8>,
    /// Tiles revealed so far (`order[..revealed]`).
    pub revealed: usize,
    /// The tile Friday stands on.
    pub at: Option<u8>,
    /// Its bonus (asked every turn, so kept at hand).
    pub bonus: Option<Bonus>,
    /// Weeks (stacks of 7) whose end has been dealt with.
    pub weeks_done: usize,
    /// Players still to take an islander back (homecoming), in order.
    pub homecoming: Vec<u8>,
    /// The current player has traded this turn.
    pub traded: bool,
}

crate::clone::clone_by_field!(FridayState {
    order,
    revealed,
    at,
    bonus,
    weeks_done,
    homecoming,
    traded,
});

impl FridayState {
    /// Wares fewer a delivery needs this week (the bonus Friday stands on).
    #[inline]
    pub(crate) fn discount(&self) -> u8 {
        (self.bonus == Some(Bonus::Discount)) as u8
    }

    pub(crate) fn reset(&mut self) {
        self.revealed = 0;
        self.at = None;
        self.bonus = None;
        self.weeks_done = 0;
        self.homecoming.clear();
        self.traded = false;
    }
}
