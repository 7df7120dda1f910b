//! Friday's turn code (decision S-8): revealing Friday tiles at the end of weeks 1-6,
//! moving Friday after weeks 7-10, and applying the bonus he stands on. The tiles and
//! their bonuses are `friday_tiles.rs`; Friday's state is in `state.rs`.

use crate::engine::decision::{Decision, Phase, Spot};
use crate::engine::game::{Game, IllegalMove};
use crate::systems::south_seas::errors::IllegalSouthSeasPlay;
use crate::systems::south_seas::friday_tiles::{Bonus, LAST_WEEK, REVEAL_WEEKS, STACK};
use crate::systems::south_seas::state::{FridayState, SeaEvent};

impl Game {
    /// Friday's state: None unless the game plays South Seas with Friday.
    pub fn friday(&self) -> Option<&FridayState> {
        self.system
            .south_seas()
            .filter(|_| self.rules.spec.friday)
            .map(|s| &s.friday)
    }

    /// The bonus in force now (the tile Friday stands on), if Friday is played.
    pub fn friday_bonus(&self) -> Option<Bonus> {
        self.system.south_seas().and_then(|s| s.friday.bonus)
    }

    /// Whether the current player may still swap a ware this turn (never outside South
    /// Seas).
    pub(crate) fn may_trade(&self) -> bool {
        self.system.south_seas().is_some_and(|s| {
            s.friday.bonus == Some(Bonus::Trading)
                && !s.friday.traded
                && s.sea.wares[self.current].iter().any(|w| *w > 0)
        })
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
        let have = self.system.sea().wares[self.current];
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
        while self.system.friday().weeks_done < weeks {
            let friday = self.system.friday_mut();
            friday.weeks_done += 1;
            if friday.weeks_done <= REVEAL_WEEKS {
                // The next player turns up the next Friday tile; Friday moves onto it.
                // Cannot fail: `revealed` = weeks_done - 1 < REVEAL_WEEKS, and the order
                // lists every Friday tile (`Game::with_orders` asserts it), of which
                // `parse_friday` requires exactly REVEAL_WEEKS.
                let tile = friday.order[friday.revealed];
                friday.revealed += 1;
                if self.friday_arrives(tile, None) {
                    return true;
                }
            } else {
                // The player who drew the stack's last tile must move Friday (S-8).
                self.system.sea_mut().phase = Phase::MoveFriday;
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
        let friday = self.system.friday_mut();
        friday.at = Some(tile);
        friday.bonus = Some(bonus);
        let players = self.rules.players();
        if self.record_events {
            let mut wares = [0; 3];
            if let Bonus::Wares(w) = bonus {
                wares[w as usize] = 1;
            }
            self.system.sea_mut().events.push(SeaEvent::Friday {
                turn: self.turn,
                tile,
                moved_by,
                wares,
            });
        }
        match bonus {
            Bonus::Wares(w) => {
                for held in &mut self.system.sea_mut().wares[..players] {
                    held[w as usize] += 1;
                }
                false
            }
            Bonus::Homecoming => {
                // From the next player on, each player with an islander on the board.
                let next = (self.current + 1) % players;
                let mut order = std::mem::take(&mut self.system.friday_mut().homecoming);
                order.clear();
                order.extend(
                    (0..players)
                        .map(|k| ((next + k) % players) as u8)
                        .filter(|p| !self.system.sea().islanders[*p as usize].is_empty()),
                );
                self.system.friday_mut().homecoming = order;
                if self.system.friday().homecoming.is_empty() {
                    return false;
                }
                self.system.sea_mut().phase = Phase::Homecoming;
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
        let friday = self.system.friday();
        friday.order[..friday.revealed]
            .iter()
            .copied()
            .filter(|t| Some(*t) != friday.at)
    }

    pub(crate) fn check_friday_decision(&self, d: Decision) -> Result<(), IllegalMove> {
        match d {
            Decision::MoveFriday(tile) => {
                if self.phase() != Phase::MoveFriday {
                    return Err(IllegalSouthSeasPlay::NotFridayPhase.into());
                }
                if Some(tile) == self.system.friday().at {
                    return Err(IllegalSouthSeasPlay::FridayStays.into());
                }
                if !self.friday_targets().contains(&tile) {
                    return Err(IllegalSouthSeasPlay::NoSuchFridayTile { tile }.into());
                }
                Ok(())
            }
            Decision::Homecoming(spot) => {
                if self.phase() != Phase::Homecoming {
                    return Err(IllegalSouthSeasPlay::NotHomecomingPhase.into());
                }
                let player = self.homecoming_player();
                match self.spot_element(spot) {
                    Some(e) if self.features.node(e).meeple as usize == player => Ok(()),
                    _ => Err(IllegalSouthSeasPlay::NoOwnIslander {
                        x: spot.x as i32,
                        y: spot.y as i32,
                        segment: spot.segment,
                    }
                    .into()),
                }
            }
            Decision::Trade(give, take) => {
                if self.phase() != Phase::Deliver {
                    return Err(IllegalSouthSeasPlay::NotDeliveryPhase.into());
                }
                if !self.legal_trades().contains(&(give, take)) {
                    return Err(IllegalSouthSeasPlay::NoTrade { give, take }.into());
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
                self.system.sea_mut().phase = Phase::Place;
                self.friday_arrives(tile, Some(self.current as u8)) || self.end_friday_weeks()
            }
            Decision::Homecoming(spot) => {
                // Cannot fail: checked in the Homecoming phase (see `homecoming_player`).
                let player = self.system.friday_mut().homecoming.remove(0) as usize;
                if self.record_events {
                    self.system.sea_mut().events.push(SeaEvent::Homecoming {
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
                if !self.system.friday().homecoming.is_empty() {
                    return true;
                }
                self.system.sea_mut().phase = Phase::Place;
                self.end_friday_weeks()
            }
            Decision::Trade(give, take) => {
                if self.record_events {
                    self.system.sea_mut().events.push(SeaEvent::Trade {
                        turn: self.turn,
                        player: self.current as u8,
                        give,
                        take,
                    });
                }
                let w = &mut self.system.sea_mut().wares[self.current];
                // `(give, take)` is one of `legal_trades` (checked: NoTrade), so both < 3.
                w[give as usize] -= 1;
                w[take as usize] += 1;
                self.system.friday_mut().traded = true;
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
        self.system.friday().homecoming[0] as usize
    }

    /// Islanders the homecoming player may take back.
    pub(crate) fn homecoming_spots(&self) -> Vec<Spot> {
        self.system.sea().islanders[self.homecoming_player()]
            .iter()
            .map(|e| self.spot_of(*e))
            .collect()
    }
}
