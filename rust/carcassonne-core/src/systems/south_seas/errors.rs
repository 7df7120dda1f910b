//! South Seas' refusals: a move's islander taken back, a decision out of its phase, a
//! delivery, a market ship, Friday's move, a homecoming or a trade that the rules do not
//! allow.

use std::fmt;

/// Why a South Seas part of a move, or a South Seas decision, was refused
/// (`IllegalMove::SouthSeas`). The game is unchanged when a move or decision is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalSouthSeasPlay {
    NotSouthSeas,
    PlaceAndRetrieve,
    RetrieveWithSupply,
    NoOwnIslander { x: i32, y: i32, segment: u8 },
    NotPlacePhase,
    DecisionPending,
    NotDeliveryPhase,
    NotMarketPhase,
    NotFridayPhase,
    FridayStays,
    NoSuchFridayTile { tile: u8 },
    NotHomecomingPhase,
    NoTrade { give: u8, take: u8 },
    NotTopShip { slot: u8, top: Vec<u8> },
    NoSuchShip { slot: u8, display: usize },
    MissingWares { pay: [u8; 3], have: [u32; 3] },
    WrongWares { pay: [u8; 3], need: String },
}

impl fmt::Display for IllegalSouthSeasPlay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalSouthSeasPlay::NotSouthSeas => write!(
                f,
                "only South Seas lets a player take an islander back (retrieve)"
            ),
            IllegalSouthSeasPlay::PlaceAndRetrieve => write!(
                f,
                "a turn either places an islander or takes one back, not both"
            ),
            IllegalSouthSeasPlay::RetrieveWithSupply => write!(
                f,
                "these rules (retrieve_only_when_supply_empty) allow taking an islander back only with an empty supply"
            ),
            IllegalSouthSeasPlay::NoOwnIslander { x, y, segment } => write!(
                f,
                "no islander of the current player stands on feature {segment} of the tile at ({x}, {y})"
            ),
            IllegalSouthSeasPlay::NotPlacePhase => write!(
                f,
                "the current player must first decide the delivery (deliver to a ship or not)"
            ),
            IllegalSouthSeasPlay::DecisionPending => write!(
                f,
                "a decision must be made first: a market ship, Friday's move or an islander taken home (see the game's phase)"
            ),
            IllegalSouthSeasPlay::NotDeliveryPhase => write!(
                f,
                "no delivery is possible now: the current player must place the drawn tile"
            ),
            IllegalSouthSeasPlay::NotFridayPhase => write!(f, "Friday is not to be moved now"),
            IllegalSouthSeasPlay::FridayStays => write!(
                f,
                "Friday must move to another tile: he already stands on that one"
            ),
            IllegalSouthSeasPlay::NoSuchFridayTile { tile } => {
                write!(f, "Friday tile {tile} is not a revealed Friday tile")
            }
            IllegalSouthSeasPlay::NotHomecomingPhase => {
                write!(f, "no islander is to be taken home now")
            }
            IllegalSouthSeasPlay::NoTrade { give, take } => write!(
                f,
                "no trade of ware {give} for ware {take} now: trading needs Friday's trading bonus, once per turn, a ware to give and another kind to take"
            ),
            IllegalSouthSeasPlay::NotMarketPhase => write!(f, "no market ship is to be chosen now"),
            IllegalSouthSeasPlay::NotTopShip { slot, top } => write!(
                f,
                "a completed market takes a face-up ship with the most points: slot {slot} is not one of {top:?}"
            ),
            IllegalSouthSeasPlay::NoSuchShip { slot, display } => write!(
                f,
                "no ship in display slot {slot}: {display} ships are face up (slots from 0)"
            ),
            IllegalSouthSeasPlay::MissingWares { pay, have } => write!(
                f,
                "delivering {pay:?} (shells, bananas, fish) needs more wares than the player holds {have:?}"
            ),
            IllegalSouthSeasPlay::WrongWares { pay, need } => write!(
                f,
                "{pay:?} (shells, bananas, fish) does not meet the ship's need {need:?}"
            ),
        }
    }
}

impl std::error::Error for IllegalSouthSeasPlay {}
