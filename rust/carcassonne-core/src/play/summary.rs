//! What a study keeps of each game: one `GameResult` per game, gathered either as columns
//! (one row per game, for analysis) or as running totals (constant memory, for reports over
//! any number of games).

use std::collections::TryReserveError;

use crate::engine::game::Game;
use crate::engine::scoring::SCORE_KINDS;
use crate::limits::MAX_PLAYERS;

/// The result of one finished game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameResult {
    pub scores: [i32; MAX_PLAYERS],
    /// Bit p set for every player with the top score.
    pub winners: u8,
    pub turns: u32,
    pub by_kind: [[i32; SCORE_KINDS]; MAX_PLAYERS],
    pub discarded: u32,
    /// South Seas: ships taken and wares left per player (zero in classic games).
    pub ships: [u32; MAX_PLAYERS],
    pub wares_left: [u32; MAX_PLAYERS],
}

impl GameResult {
    pub fn of(game: &Game) -> Self {
        let mut s = GameResult {
            winners: game.winners(),
            turns: game.turn(),
            discarded: game.discarded().len() as u32,
            ..GameResult::default()
        };
        for (p, v) in game.scores().iter().enumerate() {
            s.scores[p] = *v;
            s.by_kind[p] = *game.points_by_kind(p);
            s.wares_left[p] = game.wares(p).iter().sum();
        }
        for (p, _) in game.sea().map_or(&[][..], |sea| &sea.taken) {
            s.ships[*p as usize] += 1;
        }
        s
    }
}

/// Per-game results, flattened row-major (`games × players`, `games × players × kinds`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    pub games: usize,
    pub players: usize,
    pub scores: Vec<i32>,
    pub winners: Vec<bool>,
    pub turns: Vec<u32>,
    pub points_by_kind: Vec<i32>,
    pub discarded: Vec<u32>,
    /// South Seas (`games × players`; zero in classic games): ships taken, wares left.
    pub ships: Vec<u32>,
    pub wares_left: Vec<u32>,
}

impl Columns {
    /// Bytes the columns of one game take with `players` players.
    pub const fn bytes_per_game(players: usize) -> usize {
        let per_player = size_of::<i32>()              // score
            + size_of::<bool>()                        // winner
            + SCORE_KINDS * size_of::<i32>()           // points by kind
            + 2 * size_of::<u32>(); // ships, wares left
        players * per_player + 2 * size_of::<u32>() // turns, discarded
    }

    /// Empty columns with room for `games` games, reserved up front so that a result too
    /// large for memory is refused before any game is played (not an abort half-way).
    pub fn with_capacity(games: usize, players: usize) -> Result<Self, TryReserveError> {
        fn reserve<T>(n: usize) -> Result<Vec<T>, TryReserveError> {
            let mut v = Vec::new();
            v.try_reserve_exact(n)?;
            Ok(v)
        }
        let rows = games.saturating_mul(players);
        Ok(Columns {
            games: 0,
            players,
            scores: reserve(rows)?,
            winners: reserve(rows)?,
            turns: reserve(games)?,
            points_by_kind: reserve(rows.saturating_mul(SCORE_KINDS))?,
            discarded: reserve(games)?,
            ships: reserve(rows)?,
            wares_left: reserve(rows)?,
        })
    }

    pub fn push(&mut self, r: &GameResult) {
        for p in 0..self.players {
            self.scores.push(r.scores[p]);
            self.winners.push(r.winners & (1 << p) != 0);
            self.points_by_kind.extend_from_slice(&r.by_kind[p]);
            self.ships.push(r.ships[p]);
            self.wares_left.push(r.wares_left[p]);
        }
        self.turns.push(r.turns);
        self.discarded.push(r.discarded);
        self.games += 1;
    }
}

/// A win shared by k players counts 1/k for each; shares are kept exactly, in units of
/// 1/60 (60 is divisible by every possible k, 1 to 6).
pub const WIN_SHARE_UNIT: u64 = 60;

/// Running totals over any number of games, kept exactly in integers so that the mean and
/// spread of each figure can be worked out at the end, in any order of games, without
/// keeping the games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    pub players: usize,
    /// Per seat: sum of win shares and of their squares, in units of 1/`WIN_SHARE_UNIT`
    /// and its square.
    pub win_shares: [u64; MAX_PLAYERS],
    pub win_shares_squared: [u128; MAX_PLAYERS],
    /// Per seat: sum of scores and of their squares.
    pub scores: [i64; MAX_PLAYERS],
    pub scores_squared: [u128; MAX_PLAYERS],
    pub points_by_kind: [[i64; SCORE_KINDS]; MAX_PLAYERS],
    pub ships: [u64; MAX_PLAYERS],
    pub wares_left: [u64; MAX_PLAYERS],
    pub turns: u64,
    pub discarded: u64,
    /// Per pair of seats: sum of the products of their win shares (units squared) and of
    /// their scores, for the covariances a test of all seats at once needs.
    pub win_share_products: [[u128; MAX_PLAYERS]; MAX_PLAYERS],
    pub score_products: [[i128; MAX_PLAYERS]; MAX_PLAYERS],
    /// Sum (and sum of squares) of the margin of victory: the top score minus the next
    /// seat's (0 when the top is tied).
    pub margins: u64,
    pub margins_squared: u128,
    /// Sum (and sum of squares) of the spread within a game: top score minus bottom.
    pub ranges: u64,
    pub ranges_squared: u128,
    /// Games won by more than one player.
    pub ties: u64,
}

impl Totals {
    pub fn new(players: usize) -> Self {
        Totals {
            players,
            ..Totals::default()
        }
    }

    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        // A finished game always has at least one winner; max(1) only guards the division.
        let share = WIN_SHARE_UNIT / u64::from(r.winners.count_ones().max(1));
        for p in 0..self.players {
            let s = if r.winners & (1 << p) != 0 { share } else { 0 };
            self.win_shares[p] += s;
            self.win_shares_squared[p] += u128::from(s * s);
            self.scores[p] += i64::from(r.scores[p]);
            self.scores_squared[p] += (i128::from(r.scores[p]) * i128::from(r.scores[p])) as u128;
            for k in 0..SCORE_KINDS {
                self.points_by_kind[p][k] += i64::from(r.by_kind[p][k]);
            }
            self.ships[p] += u64::from(r.ships[p]);
            self.wares_left[p] += u64::from(r.wares_left[p]);
        }
        self.turns += u64::from(r.turns);
        self.discarded += u64::from(r.discarded);
        let scores = &r.scores[..self.players];
        for p in 0..self.players {
            let sp = if r.winners & (1 << p) != 0 { share } else { 0 };
            for q in 0..self.players {
                let sq = if r.winners & (1 << q) != 0 { share } else { 0 };
                self.win_share_products[p][q] += u128::from(sp * sq);
                self.score_products[p][q] += i128::from(scores[p]) * i128::from(scores[q]);
            }
        }
        // The two highest scores and the lowest, in one pass.
        let (mut top, mut next, mut bottom) = (i64::MIN, i64::MIN, i64::MAX);
        for &s in scores {
            let s = i64::from(s);
            if s > top {
                next = top;
                top = s;
            } else if s > next {
                next = s;
            }
            bottom = bottom.min(s);
        }
        if self.players >= 2 {
            let margin = (top - next) as u64;
            let range = (top - bottom) as u64;
            self.margins += margin;
            self.margins_squared += u128::from(margin) * u128::from(margin);
            self.ranges += range;
            self.ranges_squared += u128::from(range) * u128::from(range);
        }
        if r.winners.count_ones() > 1 {
            self.ties += 1;
        }
    }
}
