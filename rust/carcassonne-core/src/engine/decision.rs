//! The phases of a turn and the decisions other than placing a tile, for every rule
//! system in one list: South Seas' step 4, market ships and Friday's decisions, and
//! Carcassonne Maps' extra turn (small-town variant 1). `Game::phase` says which one a
//! game waits for; `play::action` wraps a decision as an `Action`. One list, so the action
//! model, records, players and the learning codec see every decision of every system
//! the same way.

use serde::{Deserialize, Serialize};

/// An islander on the board: the square of its tile and the segment it stands on.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Spot {
    pub x: i16,
    pub y: i16,
    pub segment: u8,
}

/// Delivering wares to the ship in display slot `ship`: `pay` = (shells, bananas, fish).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Delivery {
    pub ship: u8,
    pub pay: [u8; 3],
}

/// Which decision the current player faces. The order is that of the observations'
/// `phase` field (`learn::observation`, which reads a phase's entry from its
/// discriminant): a new phase goes last.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Place the drawn tile (and choose the islander action).
    #[default]
    Place,
    /// South Seas step 4: deliver to one face-up ship, or not.
    Deliver,
    /// A completed market whose merchant chooses among face-up ships tied for the most
    /// points (S-6); the merchant's owner decides (`Game::decider`).
    Market,
    /// Friday: the player who emptied one of stacks 7-10 moves Friday to another tile.
    MoveFriday,
    /// Friday's homecoming: each player in turn takes one of his islanders back.
    Homecoming,
    /// Carcassonne Maps, small-town variant 1: the player who has just covered a small
    /// town may take another turn at once (once within his turn). He decides before the
    /// next tile is drawn, so no tile is in hand (`Game::tile` is None) meanwhile.
    ExtraTurn,
}

/// A decision other than placing a tile, as recorded and replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Step 4: a delivery, or none.
    Deliver(Option<Delivery>),
    /// A market merchant's pick among tied top ships: the display slot.
    MarketShip(u8),
    /// Friday moves to this Friday tile (index into the rules' Friday tiles).
    MoveFriday(u8),
    /// Homecoming: the deciding player's islander taken back.
    Homecoming(Spot),
    /// Friday's trading, in step 4 before delivering: (ware given, ware taken).
    Trade(u8, u8),
    /// Maps: take the extra turn (true: the same player draws the next tile) or decline
    /// it (false: the next player draws).
    ExtraTurn(bool),
}
