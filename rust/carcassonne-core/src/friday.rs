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
use crate::game::{Game, IllegalMove};
use crate::quote::quote;
use crate::ships::WARES;
use crate::south_seas::{Decision, Phase, SeaEvent, Spot};

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
    pub(crate) fn reset(&mut self) {
        self.revealed = 0;
        self.at = None;
        self.bonus = None;
        self.weeks_done = 0;
        self.homecoming.clear();
        self.traded = false;
    }
}

impl Game {
    pub fn friday(&self) -> &FridayState {
        &self.friday
    }

    /// The bonus in force now (the tile Friday stands on), if Friday is played.
    pub fn friday_bonus(&self) -> Option<Bonus> {
        self.friday.bonus
    }

    /// Wares fewer a delivery needs this week.
    pub(crate) fn delivery_discount(&self) -> u8 {
        (self.friday_bonus() == Some(Bonus::Discount)) as u8
    }

    /// Whether the current player may still swap a ware this turn.
    pub(crate) fn may_trade(&self) -> bool {
        self.friday_bonus() == Some(Bonus::Trading)
            && !self.friday.traded
            && self.sea.wares[self.current].iter().any(|w| *w > 0)
    }

    /// The swaps open to the current player: (ware given, ware taken).
    pub(crate) fn legal_trades(&self) -> Vec<(u8, u8)> {
        let mut out = Vec::new();
        self.for_each_trade(|g, t| out.push((g, t)));
        out
    }

    /// Calls `f(given, taken)` with each swap of `legal_trades`, in order.
    pub(crate) fn for_each_trade(&self, mut f: impl FnMut(u8, u8)) {
        if !self.may_trade() {
            return;
        }
        let have = self.sea.wares[self.current];
        for give in (0..3u8).filter(|g| have[*g as usize] > 0) {
            for take in (0..3u8).filter(|t| *t != give) {
                f(give, take);
            }
        }
    }

    /// After a turn: deals with every week that has just ended (Friday is revealed or
    /// must be moved). Returns true when a decision is now pending.
    pub(crate) fn end_friday_weeks(&mut self) -> bool {
        if !self.rules.spec.friday {
            return false;
        }
        // Tiles count as drawn from their stack even when they could not be placed.
        let weeks = (self.next_draw / STACK).min(LAST_WEEK);
        while self.friday.weeks_done < weeks {
            self.friday.weeks_done += 1;
            if self.friday.weeks_done <= REVEAL_WEEKS {
                // The next player turns up the next Friday tile; Friday moves onto it.
                // Cannot fail: `revealed` = weeks_done - 1 < REVEAL_WEEKS, and the order
                // lists every Friday tile (`Game::with_orders` asserts it), of which
                // `parse_friday` requires exactly REVEAL_WEEKS.
                let tile = self.friday.order[self.friday.revealed];
                self.friday.revealed += 1;
                if self.friday_arrives(tile, None) {
                    return true;
                }
            } else {
                // The player who drew the stack's last tile must move Friday (S-8).
                self.sea.phase = Phase::MoveFriday;
                return true;
            }
        }
        false
    }

    /// Friday arrives on `tile`: one-time bonuses are given. Returns true when players
    /// must now choose islanders to take back.
    fn friday_arrives(&mut self, tile: u8, moved_by: Option<u8>) -> bool {
        // `tile` comes from the reveal order or a checked move (one of `friday_targets`,
        // drawn from that order): an index of the rules' Friday tiles.
        let bonus = self.rules.friday[tile as usize].bonus;
        self.friday.at = Some(tile);
        self.friday.bonus = Some(bonus);
        let players = self.rules.players();
        if self.record_events {
            let mut wares = [0; 3];
            if let Bonus::Wares(w) = bonus {
                wares[w as usize] = 1;
            }
            self.sea.events.push(SeaEvent::Friday {
                turn: self.turn,
                tile,
                moved_by,
                wares,
            });
        }
        match bonus {
            Bonus::Wares(w) => {
                for p in 0..players {
                    self.sea.wares[p][w as usize] += 1;
                }
                false
            }
            Bonus::Homecoming => {
                // From the next player on, each player with an islander on the board.
                let next = (self.current + 1) % players;
                let mut order = std::mem::take(&mut self.friday.homecoming);
                order.clear();
                order.extend(
                    (0..players)
                        .map(|k| ((next + k) % players) as u8)
                        .filter(|p| !self.sea.islanders[*p as usize].is_empty()),
                );
                self.friday.homecoming = order;
                if self.friday.homecoming.is_empty() {
                    return false;
                }
                self.sea.phase = Phase::Homecoming;
                true
            }
            Bonus::Discount | Bonus::Trading => false,
        }
    }

    /// Friday tiles the current player may move Friday to (all revealed, not his own).
    pub(crate) fn friday_targets(&self) -> Vec<u8> {
        self.friday_targets_iter().collect()
    }

    /// `friday_targets` without a list.
    pub(crate) fn friday_targets_iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.friday.order[..self.friday.revealed]
            .iter()
            .copied()
            .filter(|t| Some(*t) != self.friday.at)
    }

    pub(crate) fn check_friday_decision(&self, d: Decision) -> Result<(), IllegalMove> {
        match d {
            Decision::MoveFriday(tile) => {
                if self.sea.phase != Phase::MoveFriday {
                    return Err(IllegalMove::NotFridayPhase);
                }
                if Some(tile) == self.friday.at {
                    return Err(IllegalMove::FridayStays);
                }
                if !self.friday_targets().contains(&tile) {
                    return Err(IllegalMove::NoSuchFridayTile { tile });
                }
                Ok(())
            }
            Decision::Homecoming(spot) => {
                if self.sea.phase != Phase::Homecoming {
                    return Err(IllegalMove::NotHomecomingPhase);
                }
                let player = self.homecoming_player();
                match self.spot_element(spot) {
                    Some(e) if self.features.node(e).meeple as usize == player => Ok(()),
                    _ => Err(IllegalMove::NoOwnIslander {
                        x: spot.x as i32,
                        y: spot.y as i32,
                        segment: spot.segment,
                    }),
                }
            }
            Decision::Trade(give, take) => {
                if self.sea.phase != Phase::Deliver {
                    return Err(IllegalMove::NotDeliveryPhase);
                }
                if !self.legal_trades().contains(&(give, take)) {
                    return Err(IllegalMove::NoTrade { give, take });
                }
                Ok(())
            }
            // Unreachable: `check_decision` handles Deliver and MarketShip itself.
            _ => unreachable!("not a Friday decision"),
        }
    }

    /// Applies a checked Friday decision; returns true while a decision is still pending.
    pub(crate) fn apply_friday_decision(&mut self, d: Decision) -> bool {
        match d {
            Decision::MoveFriday(tile) => {
                self.sea.phase = Phase::Place;
                self.friday_arrives(tile, Some(self.current as u8)) || self.end_friday_weeks()
            }
            Decision::Homecoming(spot) => {
                // Cannot fail: checked in the Homecoming phase (see `homecoming_player`).
                let player = self.friday.homecoming.remove(0) as usize;
                if self.record_events {
                    self.sea.events.push(SeaEvent::Homecoming {
                        turn: self.turn,
                        player: player as u8,
                        x: spot.x as i32,
                        y: spot.y as i32,
                    });
                }
                // Cannot fail: `check_friday_decision` refused spots without an islander
                // of this player (NoOwnIslander).
                let e = self
                    .spot_element(spot)
                    .expect("check_decision() refused spots without an islander");
                self.take_back(player, e);
                if !self.friday.homecoming.is_empty() {
                    return true;
                }
                self.sea.phase = Phase::Place;
                self.end_friday_weeks()
            }
            Decision::Trade(give, take) => {
                if self.record_events {
                    self.sea.events.push(SeaEvent::Trade {
                        turn: self.turn,
                        player: self.current as u8,
                        give,
                        take,
                    });
                }
                let w = &mut self.sea.wares[self.current];
                // `(give, take)` is one of `legal_trades` (checked: NoTrade), so both < 3.
                w[give as usize] -= 1;
                w[take as usize] += 1;
                self.friday.traded = true;
                true
            }
            // Unreachable: `decide_unchecked` handles Deliver and MarketShip itself.
            _ => unreachable!("not a Friday decision"),
        }
    }

    /// The player deciding a homecoming now. Only in the Homecoming phase, which is set
    /// only with a player listed and left as soon as the list is empty
    /// (`friday_arrives`, `apply_friday_decision`): the list is not empty.
    pub(crate) fn homecoming_player(&self) -> usize {
        self.friday.homecoming[0] as usize
    }

    /// Islanders the homecoming player may take back.
    pub(crate) fn homecoming_spots(&self) -> Vec<Spot> {
        self.sea.islanders[self.homecoming_player()]
            .iter()
            .map(|e| self.spot_of(*e))
            .collect()
    }
}
