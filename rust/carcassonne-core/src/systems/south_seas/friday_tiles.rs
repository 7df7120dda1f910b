//! Friday, the mini expansion of South Seas (decision S-8): the deck drawn in weekly stacks
//! of 7, a Friday tile revealed after each of weeks 1-6 and Friday moved by the player who
//! emptied weeks 7-10, and the bonus of the tile Friday stands on: one-time bonuses when
//! he arrives, week-long ones until the next stack empties.
//!
//! The bonuses come from a data file (`data/friday.toml`, a labelled reconstruction):
//!
//! ```toml
//! [[tiles]]
//! id = "A"
//! bonus = "wares"        # wares (with ware = "shell" | "banana" | "fish"), discount,
//! ware = "banana"        # trading or homecoming
//! ```

use serde::Deserialize;

use crate::data::{DataError, DataKind, decode};
use crate::quote::quote;
use crate::systems::south_seas::ships::WARES;

/// Tiles per weekly stack.
pub const STACK: usize = 7;
/// Weeks after which the next player reveals a Friday tile.
pub const REVEAL_WEEKS: usize = 6;
/// The last week after which Friday moves (stack 11 ends the game).
pub const LAST_WEEK: usize = 10;

/// What a Friday tile gives while Friday stands on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    /// When Friday arrives, every player takes 1 ware of this kind (index into `WARES`).
    Wares(u8),
    /// All week, a delivery needs 1 ware fewer (at least 1).
    Discount,
    /// All week, once per turn before delivering, a player may swap 1 ware for another.
    Trading,
    /// When Friday arrives, every player takes 1 own islander back (if any on the board).
    Homecoming,
}

impl Bonus {
    pub fn describe(self) -> String {
        match self {
            // A parsed bonus names a ware of WARES; one built by hand may not.
            Bonus::Wares(w) => format!(
                "wares: every player takes 1 {}",
                WARES.get(w as usize).unwrap_or(&"?")
            ),
            Bonus::Discount => "discount: deliveries need 1 ware fewer all week".into(),
            Bonus::Trading => "trading: swap 1 ware for another once per turn all week".into(),
            Bonus::Homecoming => "homecoming: every player takes 1 islander back".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FridayTile {
    pub id: String,
    pub bonus: Bonus,
}

#[derive(Clone, Debug)]
pub struct FridaySet {
    pub name: String,
    pub title: String,
    pub reconstruction: Option<String>,
    pub tiles: Vec<FridayTile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    reconstruction: Option<String>,
    tiles: Vec<RawTile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTile {
    id: String,
    bonus: String,
    #[serde(default)]
    ware: Option<String>,
}

/// Parses and validates a Friday file: exactly 6 tiles (6 reveals), known bonuses.
pub fn parse_friday(text: &str, file: &str) -> Result<FridaySet, DataError> {
    let err = DataError::maker(file, DataKind::Friday);
    let raw: RawSet = decode(text, DataKind::Friday).map_err(|fault| err(None, fault))?;
    if raw.tiles.len() != REVEAL_WEEKS {
        return Err(err(
            None,
            format!(
                "Friday has {REVEAL_WEEKS} tiles (one revealed after each of the first {REVEAL_WEEKS} weeks), the file lists {}",
                raw.tiles.len()
            ),
        ));
    }
    let mut tiles: Vec<FridayTile> = Vec::new();
    for t in raw.tiles {
        // Exactly REVEAL_WEEKS tiles (checked above): a linear search stays short.
        if tiles.iter().any(|o| o.id == t.id) {
            return Err(err(Some(&t.id), "tile id defined twice".into()));
        }
        let bonus = match (t.bonus.as_str(), t.ware.as_deref()) {
            ("wares", Some(w)) => {
                let i = WARES.iter().position(|x| *x == w).ok_or_else(|| {
                    err(
                        Some(&t.id),
                        format!("unknown ware {} (shell, banana, fish)", quote(w)),
                    )
                })?;
                Bonus::Wares(i as u8)
            }
            ("wares", None) => {
                return Err(err(Some(&t.id), "a wares bonus names its ware".into()));
            }
            ("discount", None) => Bonus::Discount,
            ("trading", None) => Bonus::Trading,
            ("homecoming", None) => Bonus::Homecoming,
            (b, Some(_)) if ["discount", "trading", "homecoming"].contains(&b) => {
                return Err(err(Some(&t.id), format!("a {b} bonus takes no ware")));
            }
            (b, _) => {
                return Err(err(
                    Some(&t.id),
                    format!(
                        "unknown bonus {} (wares, discount, trading, homecoming)",
                        quote(b)
                    ),
                ));
            }
        };
        tiles.push(FridayTile { id: t.id, bonus });
    }
    Ok(FridaySet {
        name: raw.name,
        title: raw.title,
        reconstruction: raw.reconstruction,
        tiles,
    })
}
