//! Saving and loading games as JSON.
//!
//! A record holds the rules, the full draw order and the moves; loading replays the moves
//! through the checked `play`, so a record can never produce a position the rules forbid,
//! and the stored scores are compared with the replay as an integrity check.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::engine::decision::{Decision, Phase};
use crate::engine::game::{Game, IllegalMove, Move};
use crate::engine::rules::{RULES_VERSION, Rules, RulesError, RulesSpec};

pub const RECORD_FORMAT: &str = "carcassonne-game";
pub const RECORD_FORMAT_VERSION: u32 = 1;
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");
/// Largest record accepted, in bytes (a record embeds its user data files, each at most
/// `MAX_DATA_FILE_BYTES`, and a few hundred kB of moves).
pub const MAX_RECORD_BYTES: usize = 16 << 20;

/// Unknown keys are refused: a record is either what this library wrote or tampered with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub format: String,
    pub format_version: u32,
    pub engine_version: String,
    pub rules_version: u32,
    pub rules: RulesSpec,
    /// Study seed and game index the deck was shuffled with, if it was.
    pub seed: Option<(u64, u64)>,
    /// Every tile of the draw order after the start tile, as tile ids.
    pub deck: Vec<String>,
    pub moves: Vec<Move>,
    /// South Seas: the ship order (ship ids; the first four start face up).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ships: Vec<String>,
    /// Friday: the order in which the Friday tiles are revealed (ids).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub friday: Vec<String>,
    /// Decisions after placements (South Seas' deliveries and market picks, Friday's,
    /// the Maps extra turn), with the turn (the move number, from 1) they belong to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<(u32, Decision)>,
    /// Scores when saved (checked on load).
    pub scores: Vec<i32>,
}

#[derive(Debug)]
pub enum RecordError {
    Json(serde_json::Error),
    Format(String),
    Rules(RulesError),
    Move {
        index: usize,
        error: IllegalMove,
    },
    Scores {
        saved: Vec<i32>,
        replayed: Vec<i32>,
    },
    /// The record names a seed, but its tile, ship or Friday order is not that seed's.
    Seed {
        seed: u64,
        game_index: u64,
    },
    TooLarge(usize),
    /// The record was played under an older rules version and does not replay under this
    /// one.
    OlderRules {
        version: u32,
        error: Box<RecordError>,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // serde_json names line and column; what it quotes of the input is cut short.
            RecordError::Json(e) => write!(
                f,
                "not a valid game record: {}",
                crate::quote::cap_to(&e.to_string(), 300)
            ),
            RecordError::Format(s) => write!(f, "{s}"),
            RecordError::Rules(e) => write!(f, "the record's rules are invalid: {e}"),
            RecordError::Move { index, error } => {
                write!(f, "move {index} of the record is illegal: {error}")
            }
            RecordError::Seed { seed, game_index } => write!(
                f,
                "the record says its game was shuffled by seed {seed}, game {game_index}, but its tile, ship or Friday order is not that shuffle"
            ),
            RecordError::OlderRules { version, error } => write!(
                f,
                "{error} (the record was played under rules version {version}; this library plays version {RULES_VERSION}, whose rules differ)"
            ),
            RecordError::TooLarge(bytes) => write!(
                f,
                "the record has {bytes} bytes, more than the {MAX_RECORD_BYTES} a record may have"
            ),
            RecordError::Scores { saved, replayed } => {
                write!(
                    f,
                    "the record says scores {saved:?} but replaying its moves gives {replayed:?}"
                )
            }
        }
    }
}

impl std::error::Error for RecordError {}

impl Game {
    pub fn to_record(&self) -> GameRecord {
        let rules = self.rules();
        GameRecord {
            format: RECORD_FORMAT.into(),
            format_version: RECORD_FORMAT_VERSION,
            engine_version: ENGINE_VERSION.into(),
            rules_version: RULES_VERSION,
            rules: rules.spec.clone(),
            seed: self.seed(),
            deck: self
                .deck()
                .iter()
                .map(|t| rules.tiles[*t as usize].id.clone())
                .collect(),
            moves: self.moves().to_vec(),
            ships: self.sea().map_or_else(Vec::new, |sea| {
                sea.pile
                    .iter()
                    .map(|s| rules.ships[*s as usize].id.clone())
                    .collect()
            }),
            friday: self.friday().map_or_else(Vec::new, |friday| {
                friday
                    .order
                    .iter()
                    .map(|t| rules.friday[*t as usize].id.clone())
                    .collect()
            }),
            decisions: self.decisions.clone(),
            scores: self.scores().to_vec(),
        }
    }

    pub fn to_json(&self) -> String {
        // Cannot fail: a record holds strings, numbers and lists only (no map with
        // non-string keys, nothing whose serialisation can fail).
        serde_json::to_string(&self.to_record()).expect("records always serialise")
    }

    /// Rebuilds a game from a record; `rules` may be given to share an already built one.
    pub fn from_record(
        record: &GameRecord,
        rules: Option<Arc<Rules>>,
    ) -> Result<Game, RecordError> {
        if record.format != RECORD_FORMAT {
            return Err(RecordError::Format(format!(
                "not a game record (format {})",
                crate::quote::quote(&record.format)
            )));
        }
        if record.format_version > RECORD_FORMAT_VERSION {
            return Err(RecordError::Format(format!(
                "record format version {} is newer than this library reads ({RECORD_FORMAT_VERSION})",
                record.format_version
            )));
        }
        if record.rules_version > RULES_VERSION {
            return Err(RecordError::Format(format!(
                "the record was played under rules version {}, newer than this library's ({RULES_VERSION})",
                record.rules_version
            )));
        }
        let rules = match rules {
            Some(r) if r.spec == record.rules => r,
            _ => Rules::shared(&record.rules).map_err(RecordError::Rules)?,
        };
        let rules = if record.rules_version < 5 {
            as_played_before_copies(rules)?
        } else {
            rules
        };
        let deck = rules
            .deck_from_ids(&record.deck)
            .map_err(RecordError::Rules)?;
        let mut game = if record.ships.is_empty() {
            Game::new(rules, deck)
        } else {
            let ships = rules
                .ships_from_ids(&record.ships)
                .map_err(RecordError::Rules)?;
            let friday = if record.friday.is_empty() {
                (0..rules.friday.len() as u8).collect()
            } else {
                rules
                    .friday_from_ids(&record.friday)
                    .map_err(RecordError::Rules)?
            };
            Game::with_orders(rules, deck, ships, friday)
        };
        // A record that claims a seed must hold that seed's orders: the seed is what a
        // study reproduces the game from.
        if let Some((seed, game_index)) = record.seed {
            let shuffled = Game::shuffled(Arc::clone(game.rules()), seed, game_index);
            if shuffled.deck() != game.deck()
                || shuffled.sea().map(|s| &s.pile) != game.sea().map(|s| &s.pile)
                || shuffled.friday().map(|f| &f.order) != game.friday().map(|f| &f.order)
            {
                return Err(RecordError::Seed { seed, game_index });
            }
        }
        // A record of older rules may replay differently under today's: say so.
        replay(&mut game, record).map_err(|error| {
            if record.rules_version < RULES_VERSION {
                RecordError::OlderRules {
                    version: record.rules_version,
                    error: Box::new(error),
                }
            } else {
                error
            }
        })?;
        game.restore_seed(record.seed);
        Ok(game)
    }

    pub fn from_json(text: &str) -> Result<Game, RecordError> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge(text.len()));
        }
        let record: GameRecord = serde_json::from_str(text).map_err(RecordError::Json)?;
        Game::from_record(&record, None)
    }
}

/// The rules a record of rules version 4 or older was played under: before version 5 a
/// map took the tile sets once, so where its spec names no `tile_set_copies` and today's
/// default takes them more often (the joined USA maps), the record's game had the sets
/// once (and a deck of at most one set): replayed with `tile_set_copies = 1`, its seed
/// gives its deck again. Other rules are returned unchanged.
fn as_played_before_copies(rules: Arc<Rules>) -> Result<Arc<Rules>, RecordError> {
    if rules.tile_set_copies == 1 || rules.spec.tile_set_copies.is_some() {
        return Ok(rules);
    }
    Rules::shared(&RulesSpec {
        tile_set_copies: Some(1),
        ..rules.spec.clone()
    })
    .map_err(RecordError::Rules)
}

/// Plays a record's moves and decisions into `game` through the checked play and compares
/// the scores.
fn replay(game: &mut Game, record: &GameRecord) -> Result<(), RecordError> {
    let mut decisions = record.decisions.iter();
    for (index, mv) in record.moves.iter().enumerate() {
        game.play(*mv)
            .map_err(|error| RecordError::Move { index, error })?;
        // The decisions of the same turn, as they came up.
        let last = index + 1 == record.moves.len();
        while game.phase() != Phase::Place && !game.is_over() {
            // Before rules version 6 the Maps extra turn was always taken, and records
            // list no decision for it.
            if game.phase() == Phase::ExtraTurn && record.rules_version < 6 {
                game.decide(Decision::ExtraTurn(true))
                    .map_err(|error| RecordError::Move { index, error })?;
                continue;
            }
            let Some((turn, d)) = decisions.next() else {
                // A game saved while a decision was pending stops there.
                if last {
                    break;
                }
                return Err(RecordError::Format(format!(
                    "the record lacks the decisions of turn {}",
                    index + 1
                )));
            };
            if *turn as usize != index + 1 {
                return Err(RecordError::Format(format!(
                    "the record gives a decision for turn {turn} where turn {} needs one",
                    index + 1
                )));
            }
            game.decide(*d)
                .map_err(|error| RecordError::Move { index, error })?;
        }
    }
    if let Some((turn, _)) = decisions.next() {
        return Err(RecordError::Format(format!(
            "the record lists a decision at turn {turn} where none was open"
        )));
    }
    if game.scores() != record.scores.as_slice() {
        return Err(RecordError::Scores {
            saved: record.scores.clone(),
            replayed: game.scores().to_vec(),
        });
    }
    Ok(())
}
