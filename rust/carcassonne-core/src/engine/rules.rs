//! A validated rules configuration and the tables derived from it.
//!
//! `RulesSpec` is what a user writes (serialisable, unchecked); `Rules` is built from it
//! only through validation, so a `Game` never sees a bad configuration.

use std::collections::HashMap;
use std::fmt;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::board::map_board::{Geometry, MapBoard};
pub use crate::data::DataSource;
use crate::data::map::{join_maps, parse_map};
use crate::data::tileset::{
    FeatureKind, Segment, Shape, System, TileDef, parse_tileset, printed_tile,
};
use crate::data::{DataError, DataKind, SourceError, source_text};
use crate::quote::quote;
use crate::systems::south_seas::friday_tiles::{FridayTile, parse_friday};
use crate::systems::south_seas::ships::{AffordTable, Ship, parse_ships};

pub use crate::limits::{
    MAX_DECK, MAX_MEEPLES, MAX_PLAYERS, MAX_PLAYERS_SOUTH_SEAS, MAX_TILE_SET_COPIES, MIN_PLAYERS,
};

/// Bumped whenever the behaviour of the rules changes (not for refactors); stored with
/// every result so that studies run on different versions are never silently mixed.
/// 2: a South Seas "3 + 3" ship lists each payment once (version 1 listed each twice,
/// which weighted the random player's step-4 choice).
/// 3: a South Seas fishing boat evaluates an occupied sea region even when no fish is left
/// uncovered, sending its islanders home (DECISIONS S-4 as amended).
/// 4: on a Carcassonne Maps board the random player draws its placement as the k-th of
/// the tile's counted placements instead of redrawing squares until one fits: the same
/// distribution (uniform over placement and meeple option), another random stream, so
/// seeded random Maps games (and MCTS playouts on maps) differ from version 3. Records
/// replay unchanged (they hold the moves); the shuffles are the same.
/// 5: a map may take the tile sets several times (`RulesSpec::tile_set_copies`), by
/// default the multiple nearest its recommended tiles: the joined USA maps (230 tiles)
/// take them twice, a deck of 227 tiles instead of 113, so their seeded games differ from
/// version 4. Single maps and the open table keep their decks and games. A record of an
/// earlier version that names no `tile_set_copies` replays with the sets taken once, as
/// it was played (`Game::from_record`).
/// 6: Carcassonne Maps, small-town variant 1: the extra turn after covering a small town
/// is the player's choice (`Phase::ExtraTurn`, `Decision::ExtraTurn`), as the rulebook
/// says ("you may"); it was always taken. Seeded games with variant 1 differ from
/// version 5 (players now choose, and random and greedy draw for or weigh the choice);
/// others are unchanged. A record of an earlier version replays with every extra turn
/// taken, as it was played.
pub const RULES_VERSION: u32 = 6;

/// The user-facing configuration. Unknown keys are refused when it is read from JSON (a
/// misspelt `"fridayy"` must not silently give a game without Friday).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesSpec {
    pub players: u32,
    pub meeples: u32,
    pub tile_sets: Vec<DataSource>,
    /// Full id of the tile placed at (0, 0), rotation 0, before the first turn; one copy
    /// is taken out of the deck. Empty: the tile the sets mark `start = true`.
    pub start_tile: String,
    /// Meeples may be placed on fields and fields score at the end.
    pub farmers: bool,
    /// Inns & Cathedrals scoring: inn roads 2 per tile (0 if incomplete), cathedral cities
    /// 3 per tile and pennant (0 if incomplete). Decision C-4.
    pub inns_and_cathedrals_scoring: bool,
    /// Traders & Builders goods: completing a city takes its goods; 10 points per majority.
    pub traders_goods: bool,
    /// Edition whose tile counts are used where a tile file gives several (The Ferries:
    /// "C3" 3/3/2 by default, "C2" 3/4/1; decision F-1).
    #[serde(default = "default_edition")]
    pub ferries_edition: String,
    /// South Seas: the ship set (decision S-2 for the built-in one).
    #[serde(default = "default_ships")]
    pub ships: DataSource,
    /// South Seas: an islander may be taken back only with an empty supply (the English
    /// Z-Man reading; decision S-3).
    #[serde(default)]
    pub retrieve_only_when_supply_empty: bool,
    /// South Seas: a fishing boat covers fish even in a region nobody fishes (S-4).
    #[serde(default)]
    pub boat_evaluates_unoccupied: bool,
    /// South Seas: play with the Friday mini expansion (S-8).
    #[serde(default)]
    pub friday: bool,
    /// Friday: the bonus file (the built-in "friday" is a labelled reconstruction).
    #[serde(default = "default_friday_tiles")]
    pub friday_tiles: DataSource,
    /// Carcassonne Maps: the map played on (a built-in name or a map file); none: the
    /// open table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<DataSource>,
    /// Maps: a second half map joined to `map` along their half squares (`map` has
    /// `join = "E"`, this one `join = "W"`), like USA West + East.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join_map: Option<DataSource>,
    /// Maps: which of the map's start squares get a tile before the first turn (the
    /// start tile on the first, then the first fitting tiles of the deck): how many, from
    /// the first of the file, or exactly which; none: the map's recommendation (M-12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_squares: Option<StartSquares>,
    /// Maps: how each start square's tile is turned (quarter turns clockwise), one entry
    /// per start square used; `None` (or no list): the first clockwise rotation whose
    /// edges fit the square's printed sides and the tiles already there (M-12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_rotations: Vec<Option<u8>>,
    /// Maps: how many times the tile sets are taken (every tile's count multiplied; one
    /// start tile taken out), 1 to `MAX_TILE_SET_COPIES`; none: the multiple of the sets
    /// nearest the map's recommended tiles, at least 1 (`tile_set_copies` below): once for
    /// a map recommending 110-120 tiles, twice for the joined USA maps (230).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile_set_copies: Option<u32>,
    /// Maps: tiles in the deck (every tile of a game but the start tile; the start squares
    /// after the first take theirs from it), drawn from the shuffled tile sets (taken
    /// `tile_set_copies` times); none: the map's recommendation, as far as they reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deck_size: Option<u32>,
    /// Maps: the seed's small-town variants played (M-4; each at most once, 1 to 3):
    /// 1 covering a small town gives an extra turn (once per turn), 2 covering one costs 2
    /// points, 3 a scored road gains 2 per uncovered small town beside it. Sorted once
    /// validated (`Rules::new`): the same variants in any order are the same rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub small_towns: Vec<u8>,
}

/// Maps: the start squares used (`RulesSpec::start_squares`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StartSquares {
    /// The first N start squares of the map (reading order of the grid).
    Count(u32),
    /// Exactly these start squares, as (column, row), in this order.
    At(Vec<(u32, u32)>),
}

/// A start square of a game and the rotation asked for its tile (M-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartSquare {
    /// (column, row) on the map.
    pub at: (usize, usize),
    /// Quarter turns clockwise, or None: the first rotation that fits.
    pub rotation: Option<u8>,
}

fn default_friday_tiles() -> DataSource {
    DataSource::Builtin("friday".into())
}

fn default_ships() -> DataSource {
    DataSource::Builtin("south-seas".into())
}

fn default_edition() -> String {
    "C3".into()
}

impl Default for RulesSpec {
    fn default() -> Self {
        RulesSpec {
            players: 2,
            meeples: 7,
            tile_sets: vec![DataSource::Builtin("base".into())],
            start_tile: "base/D".into(),
            farmers: true,
            inns_and_cathedrals_scoring: false,
            traders_goods: false,
            ferries_edition: default_edition(),
            ships: default_ships(),
            retrieve_only_when_supply_empty: false,
            boat_evaluates_unoccupied: false,
            friday: false,
            friday_tiles: default_friday_tiles(),
            map: None,
            join_map: None,
            start_squares: None,
            start_rotations: Vec::new(),
            tile_set_copies: None,
            deck_size: None,
            small_towns: Vec::new(),
        }
    }
}

impl RulesSpec {
    /// Carcassonne Maps on a built-in map with the seed's defaults: base + Inns &
    /// Cathedrals + Traders & Builders tiles with their extra rules off (M-3), 9 meeples.
    pub fn maps(map: &str, players: u32) -> Self {
        RulesSpec {
            players,
            meeples: 9,
            tile_sets: DataSource::builtins(&[
                "base",
                "inns-and-cathedrals",
                "traders-and-builders",
            ]),
            map: Some(DataSource::Builtin(map.into())),
            ..RulesSpec::default()
        }
    }

    /// Carcassonne: South Seas with its defaults: the reconstructed tile and ship sets,
    /// 4 islanders per player.
    pub fn south_seas(players: u32) -> Self {
        RulesSpec {
            players,
            meeples: 4,
            tile_sets: vec![DataSource::Builtin("south-seas".into())],
            start_tile: String::new(),
            ..RulesSpec::default()
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    Players(u32),
    Meeples(u32),
    NoTileSets,
    /// A data file that cannot be found or is too large to read.
    Source(SourceError),
    /// A malformed or inconsistent data file (tiles, ships, Friday tiles).
    Data(DataError),
    DuplicateTile(String),
    UnknownTile(String),
    UnknownStartTile(String),
    DeckTooLarge(u64),
    Edition(String),
    MixedSystems,
    PlayersSouthSeas(u32),
    NoStartTile,
    UnknownShip(String),
    BadOrder(String),
    FridayNeedsSouthSeas,
    UnknownFridayTile(String),
    /// A ship set was chosen for a game without South Seas tiles.
    ShipsNeedSouthSeas,
    /// A Friday file was chosen for a game without Friday.
    FridayTilesNeedFriday,
    /// The deck holds more of a symbol than a feature's total can count.
    TooManySymbols {
        symbol: &'static str,
        total: u64,
    },
    /// A Maps option (`start_squares`, `deck_size`) without a map.
    NeedsMap(&'static str),
    /// A map with South Seas tiles.
    MapNeedsClassic,
    StartSquares {
        asked: u32,
        available: usize,
    },
    /// A listed start square that is not one, listed twice, or an empty list.
    StartSquareList(String),
    /// `start_rotations` longer than the start squares used, or a rotation above 3.
    StartRotations(String),
    /// The start tile fits its start square at no rotation, or not at the one asked.
    StartRotationMismatch(String),
    DeckSize {
        asked: u32,
        least: u32,
        most: u64,
        /// Times the tile sets are taken (`RulesSpec::tile_set_copies` in effect).
        copies: u32,
    },
    /// `tile_set_copies` outside 1..=`most`: `MAX_TILE_SET_COPIES`, or fewer where the
    /// sets' `set_tiles` tiles taken that many times would pass `MAX_DECK`.
    TileSetCopies {
        asked: u32,
        most: u32,
        set_tiles: u64,
    },
    SmallTowns(Vec<u8>),
    /// An option value of the wrong type (`Rules::from_options`).
    Option(String),
}

impl From<SourceError> for RulesError {
    fn from(e: SourceError) -> Self {
        RulesError::Source(e)
    }
}

impl From<DataError> for RulesError {
    fn from(e: DataError) -> Self {
        RulesError::Data(e)
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Players(n) => write!(
                f,
                "players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, got {n}"
            ),
            RulesError::Meeples(n) => write!(
                f,
                "meeples per player must be between 0 and {MAX_MEEPLES}, got {n}"
            ),
            RulesError::NoTileSets => write!(f, "at least one tile set is needed"),
            RulesError::Source(e) => write!(f, "{e}"),
            RulesError::Data(e) => write!(f, "{e}"),
            RulesError::DuplicateTile(id) => {
                write!(f, "tile id {} is defined by two tile sets", quote(id))
            }
            RulesError::UnknownTile(id) => {
                write!(
                    f,
                    "unknown tile id {} (ids look like \"base/D\")",
                    quote(id)
                )
            }
            RulesError::UnknownStartTile(id) => {
                write!(f, "start tile {} is not in the chosen tile sets", quote(id))
            }
            RulesError::DeckTooLarge(n) => {
                write!(f, "a deck of {n} tiles is too large (at most {MAX_DECK})")
            }
            RulesError::Edition(e) => {
                write!(
                    f,
                    "ferries_edition must be \"C3\" or \"C2\", got {}",
                    quote(e)
                )
            }
            RulesError::MixedSystems => write!(
                f,
                "the tile sets mix rule systems (classic and south-seas tiles cannot share a game)"
            ),
            RulesError::PlayersSouthSeas(n) => write!(
                f,
                "South Seas takes {MIN_PLAYERS} to {MAX_PLAYERS_SOUTH_SEAS} players (4 islanders in 5 colours), got {n}"
            ),
            RulesError::NoStartTile => write!(
                f,
                "no start tile: name one with start_tile or mark one start = true in a tile set"
            ),
            RulesError::UnknownShip(id) => write!(f, "unknown ship id {}", quote(id)),
            RulesError::BadOrder(why) => write!(f, "{why}"),
            RulesError::FridayNeedsSouthSeas => write!(
                f,
                "Friday is an expansion of South Seas: use tile_sets=(\"south-seas\",) with friday=True"
            ),
            RulesError::UnknownFridayTile(id) => write!(
                f,
                "unknown Friday tile {} (Friday is off, or the id is not in the Friday file)",
                quote(id)
            ),
            RulesError::ShipsNeedSouthSeas => write!(
                f,
                "ships= chooses the ships of South Seas: use it with tile_sets=(\"south-seas\",)"
            ),
            RulesError::FridayTilesNeedFriday => write!(
                f,
                "friday_tiles= chooses the Friday tiles: use it with friday=True"
            ),
            RulesError::NeedsMap(option) => {
                write!(
                    f,
                    "{option} is an option of Carcassonne Maps: choose a map too"
                )
            }
            RulesError::SmallTowns(v) => write!(
                f,
                "small_towns lists the seed's small-town variants 1, 2 and 3, each at most once; got {v:?}"
            ),
            RulesError::Option(why) => write!(f, "a rules option: {}", quote(why)),
            RulesError::MapNeedsClassic => write!(
                f,
                "Carcassonne Maps is played with classic tiles, not South Seas tiles"
            ),
            RulesError::StartSquares { asked, available } => write!(
                f,
                "start_squares must be between 1 and the map's {available} start squares, got {asked}"
            ),
            RulesError::StartSquareList(why)
            | RulesError::StartRotations(why)
            | RulesError::StartRotationMismatch(why) => write!(f, "{why}"),
            RulesError::DeckSize {
                asked,
                least,
                most,
                copies: 1,
            } => write!(
                f,
                "deck_size must be between {least} (a tile for each start square after the first) and {most} (every tile of the sets but the start tile), got {asked}"
            ),
            RulesError::DeckSize {
                asked,
                least,
                most,
                copies,
            } => write!(
                f,
                "deck_size must be between {least} (a tile for each start square after the first) and {most} (every tile of the sets taken {copies} times, tile_set_copies, but the start tile), got {asked}"
            ),
            RulesError::TileSetCopies {
                asked,
                most,
                set_tiles,
            } => {
                if *most < MAX_TILE_SET_COPIES {
                    write!(
                        f,
                        "tile_set_copies must be between 1 and {most} (the tile sets hold {set_tiles} tiles, and a deck at most {MAX_DECK} besides the start tile), got {asked}"
                    )
                } else {
                    write!(
                        f,
                        "tile_set_copies must be between 1 and {most}, got {asked}"
                    )
                }
            }
            RulesError::TooManySymbols { symbol, total } => write!(
                f,
                "the deck holds {total} {symbol} symbols; a feature can count at most {}",
                u16::MAX
            ),
        }
    }
}

impl std::error::Error for RulesError {}

/// The start squares a game on `map` uses (M-12), checked: `spec.start_squares` (how many
/// from the first, or which; by default the map's recommendation) and
/// `spec.start_rotations`; the start tile `start` must fit the first at the rotation asked
/// (by default at some rotation) against the map's printed sides.
fn start_squares_of(
    map: &crate::data::map::MapDef,
    spec: &RulesSpec,
    start: &TileDef,
) -> Result<Vec<StartSquare>, RulesError> {
    let available = map.starts.len();
    let squares: Vec<(usize, usize)> = match &spec.start_squares {
        None => map.starts[..(map.start_squares as usize).min(available)].to_vec(),
        Some(StartSquares::Count(n)) => {
            if !(1..=available as u32).contains(n) {
                return Err(RulesError::StartSquares {
                    asked: *n,
                    available,
                });
            }
            map.starts[..*n as usize].to_vec()
        }
        Some(StartSquares::At(list)) => {
            if list.is_empty() {
                return Err(RulesError::StartSquareList(
                    "start_squares lists no square; give at least one (column, row)".into(),
                ));
            }
            if list.len() > available {
                return Err(RulesError::StartSquares {
                    asked: list.len().min(u32::MAX as usize) as u32,
                    available,
                });
            }
            let mut out: Vec<(usize, usize)> = Vec::with_capacity(list.len());
            for &(col, row) in list {
                let at = (col as usize, row as usize);
                if !map.starts.contains(&at) {
                    let shown: Vec<String> = map
                        .starts
                        .iter()
                        .take(8)
                        .map(|(c, r)| format!("({c}, {r})"))
                        .collect();
                    return Err(RulesError::StartSquareList(format!(
                        "start_squares: ({col}, {row}) is not a start square of the map (S); its start squares are {}{}",
                        shown.join(", "),
                        if available > 8 { ", ..." } else { "" }
                    )));
                }
                if out.contains(&at) {
                    return Err(RulesError::StartSquareList(format!(
                        "start_squares lists ({col}, {row}) twice"
                    )));
                }
                out.push(at);
            }
            out
        }
    };
    if spec.start_rotations.len() > squares.len() {
        return Err(RulesError::StartRotations(format!(
            "start_rotations has {} entries for {} start squares; give at most one per start square used",
            spec.start_rotations.len(),
            squares.len()
        )));
    }
    if let Some((k, r)) = spec
        .start_rotations
        .iter()
        .enumerate()
        .find_map(|(k, r)| r.filter(|r| *r > 3).map(|r| (k, r)))
    {
        return Err(RulesError::StartRotations(format!(
            "start_rotations[{k}] = {r}: a rotation is 0 to 3 quarter turns clockwise"
        )));
    }
    let starts: Vec<StartSquare> = squares
        .iter()
        .enumerate()
        .map(|(k, &at)| StartSquare {
            at,
            rotation: spec.start_rotations.get(k).copied().flatten(),
        })
        .collect();
    // The start tile against what the map prints around its square (other start tiles
    // come later and must fit it, like every tile).
    let first = starts[0];
    let demand = map.printed_demand(first.at);
    let misfit = |r: u8| {
        (0..4)
            .find(|&side| demand[side].is_some_and(|want| start.edges_at[r as usize][side] != want))
    };
    let (col, row) = first.at;
    match first.rotation {
        Some(r) => {
            if let Some(side) = misfit(r) {
                return Err(RulesError::StartRotationMismatch(format!(
                    "start_rotations[0] = {r} does not fit start square ({col}, {row}): turned so, start tile {} shows {} on side {}, where the map needs {}",
                    quote(&start.id),
                    start.edges_at[r as usize][side].name(),
                    crate::topology::SIDE_NAMES[side],
                    demand[side].map_or("anything", |e| e.name())
                )));
            }
        }
        None => {
            if (0..4).all(|r| misfit(r).is_some()) {
                let side = misfit(0).unwrap_or(0);
                return Err(RulesError::StartRotationMismatch(format!(
                    "start tile {} fits start square ({col}, {row}) at no rotation (side {} needs {}); choose other start squares or another start tile",
                    quote(&start.id),
                    crate::topology::SIDE_NAMES[side],
                    demand[side].map_or("anything", |e| e.name())
                )));
            }
        }
    }
    Ok(starts)
}

/// Indices into `known` of `ids`, which must name every one of them exactly once (the
/// order of a shuffled pile: ships, Friday tiles).
fn full_order<S: AsRef<str>>(
    ids: &[S],
    known: &[&str],
    what: &str,
    unknown: fn(String) -> RulesError,
) -> Result<Vec<usize>, RulesError> {
    let index: HashMap<&str, usize> = known.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let mut seen = vec![false; known.len()];
    let mut out = Vec::with_capacity(ids.len().min(known.len()));
    for id in ids {
        let id = id.as_ref();
        let i = *index.get(id).ok_or_else(|| unknown(id.to_string()))?;
        if std::mem::replace(&mut seen[i], true) {
            return Err(RulesError::BadOrder(format!(
                "{what} {} is listed twice",
                quote(id)
            )));
        }
        out.push(i);
    }
    if out.len() != known.len() {
        return Err(RulesError::BadOrder(format!(
            "a {what} order lists every {what} once: {} of {} given",
            out.len(),
            known.len()
        )));
    }
    Ok(out)
}

/// How many of one symbol a segment carries.
type SymbolCount = fn(&crate::data::tileset::Segment) -> u64;

/// The tiles of every set of `spec`, in order (with the counts of its edition of The
/// Ferries), their index by full id and the rule system they share; mixed systems,
/// duplicate ids and too many kinds are refused. The sets' reconstruction notes are
/// added to `reconstructions`.
#[allow(clippy::type_complexity)]
fn load_tile_sets(
    spec: &RulesSpec,
    reconstructions: &mut Vec<(String, String)>,
) -> Result<(Vec<TileDef>, HashMap<String, u16>, System), RulesError> {
    let mut tiles: Vec<TileDef> = Vec::new();
    // Tile index by full id, also the duplicate check. (An index past u16 is never
    // used: more than MAX_DECK + 1 tiles are refused below, after each set.)
    let mut tile_ids: HashMap<String, u16> = HashMap::new();
    let mut system = None;
    for source in &spec.tile_sets {
        let set = load(source, DataKind::Tiles, parse_tileset)?;
        if system.is_some_and(|s| s != set.system) {
            return Err(RulesError::MixedSystems);
        }
        system = Some(set.system);
        if let Some(text) = &set.reconstruction {
            reconstructions.push((
                format!("{} (tiles)", source.label()),
                text.trim().to_string(),
            ));
        }
        for mut t in set.tiles {
            if let Some((_, c)) = t
                .edition_counts
                .iter()
                .find(|(e, _)| *e == spec.ferries_edition)
            {
                t.count = *c;
            }
            if tile_ids.insert(t.id.clone(), tiles.len() as u16).is_some() {
                return Err(RulesError::DuplicateTile(t.id));
            }
            tiles.push(t);
        }
        // Every tile has at least one copy, so more kinds than this make too large a
        // deck; checked per set, so a spec listing a million sets stops early (and tile
        // indices stay far inside u16).
        if tiles.len() > MAX_DECK + 1 {
            return Err(RulesError::DeckTooLarge(tiles.len() as u64 - 1));
        }
    }
    Ok((tiles, tile_ids, system.unwrap_or_default()))
}

/// Carcassonne Maps: the map of `spec` (two half maps joined), with its printed pieces
/// appended to `tiles` as tiles no deck holds (named in `tile_ids` like any tile); None
/// without a map, where the options that need one are refused.
fn load_map(
    spec: &RulesSpec,
    system: System,
    tiles: &mut Vec<TileDef>,
    tile_ids: &mut HashMap<String, u16>,
    reconstructions: &mut Vec<(String, String)>,
) -> Result<Option<MapBoard>, RulesError> {
    Ok(match &spec.map {
        None => {
            if spec.join_map.is_some() {
                return Err(RulesError::NeedsMap("join_map"));
            }
            if spec.start_squares.is_some() {
                return Err(RulesError::NeedsMap("start_squares"));
            }
            if !spec.start_rotations.is_empty() {
                return Err(RulesError::NeedsMap("start_rotations"));
            }
            if spec.tile_set_copies.is_some() {
                return Err(RulesError::NeedsMap("tile_set_copies"));
            }
            if spec.deck_size.is_some() {
                return Err(RulesError::NeedsMap("deck_size"));
            }
            if !spec.small_towns.is_empty() {
                return Err(RulesError::NeedsMap("small_towns"));
            }
            None
        }
        Some(source) => {
            if system == System::SouthSeas {
                return Err(RulesError::MapNeedsClassic);
            }
            let mut def = load(source, DataKind::Map, parse_map)?;
            let mut label = source.label().to_string();
            if let Some(second) = &spec.join_map {
                let east = load(second, DataKind::Map, parse_map)?;
                def = join_maps(&def, &east).map_err(|fault| {
                    crate::data::DataError::maker(second.label(), DataKind::Map)(None, fault)
                })?;
                label = format!("{label}+{}", second.label());
            }
            if let Some(text) = &def.original {
                reconstructions.push((format!("{label} (map)"), text.trim().to_string()));
            }
            let mut piece_tiles = Vec::new();
            for piece in def.printed_pieces() {
                // Cannot fail for a checked map: its pieces are built from checked
                // edges; a fault here is the engine's, reported as the map's.
                let tile = printed_tile(
                    &piece.id,
                    &piece.edges,
                    &piece.features,
                    piece.road_arms,
                    piece.sides.as_ref().is_some_and(|s| s.len() == 2),
                )
                .map_err(|fault| {
                    crate::data::DataError::maker(source.label(), DataKind::Map)(
                        Some(&piece.id),
                        fault,
                    )
                })?;
                piece_tiles.push(tiles.len() as u16);
                // Named like any tile (the views describe them), but never in a deck.
                tile_ids.insert(tile.id.clone(), tiles.len() as u16);
                tiles.push(tile);
            }
            Some(MapBoard::new(def, &piece_tiles))
        }
    })
}

/// How many times the tile sets are taken (`RulesSpec::tile_set_copies`), checked: as
/// asked, or by default the multiple of the sets' `set_tiles` tiles (the start tile
/// included) nearest the map's recommended tiles, at least 1 (halves round up): once for
/// the single maps (110-120 tiles against 114), twice for the joined USA maps (230). Never
/// so many that the deck passes `MAX_DECK`. 1 without a map (where an asked value was
/// refused by `load_map`).
fn tile_set_copies(
    spec: &RulesSpec,
    map: Option<&MapBoard>,
    set_tiles: u64,
) -> Result<u32, RulesError> {
    let Some(map) = map else {
        return Ok(1);
    };
    // `set_tiles` >= 1 (a start tile) and `set_tiles - 1 <= MAX_DECK`: at least 1.
    let most = ((MAX_DECK as u64 + 1) / set_tiles).min(u64::from(MAX_TILE_SET_COPIES)) as u32;
    match spec.tile_set_copies {
        Some(asked) if !(1..=most).contains(&asked) => Err(RulesError::TileSetCopies {
            asked,
            most,
            set_tiles,
        }),
        Some(asked) => Ok(asked),
        None => {
            let nearest = (2 * u64::from(map.def.tiles) + set_tiles) / (2 * set_tiles);
            Ok(nearest.clamp(1, u64::from(most)) as u32)
        }
    }
}

/// The board a game is played on: the open table, or the map with its start squares
/// (`start_tile` on the first) and the number of tiles its deck holds (the map's
/// recommendation as far as the `deck_len` tiles of the sets taken `copies` times reach,
/// or as asked).
fn board_geometry(
    map: Option<MapBoard>,
    spec: &RulesSpec,
    start_tile: &TileDef,
    (deck_len, copies): (usize, u32),
    (legal, deck_tiles): (&[u8], usize),
) -> Result<(Geometry, u32, Vec<StartSquare>, usize), RulesError> {
    Ok(match map {
        None => (Geometry::Open, 1, Vec::new(), deck_len),
        Some(mut map) => {
            map.set_fit_rows(legal, deck_tiles);
            let starts = start_squares_of(&map.def, spec, start_tile)?;
            let used = starts.len() as u32;
            let most = deck_len as u64;
            let least = used - 1;
            // The map's recommendation (tiles in a game, the start tile included), as
            // far as the sets reach: 113 drawn tiles for maps recommending 110-120, 227
            // for the joined USA maps (230, the sets taken twice).
            let size = spec
                .deck_size
                .unwrap_or_else(|| map.def.tiles.saturating_sub(1).min(most as u32));
            if !(least as u64..=most).contains(&(size as u64)) {
                return Err(RulesError::DeckSize {
                    asked: size,
                    least,
                    most,
                    copies,
                });
            }
            (
                Geometry::Map(std::sync::Arc::new(map)),
                used,
                starts,
                size as usize,
            )
        }
    })
}

/// What South Seas adds to the rules: the ship set with each ship's payments and the
/// table of what affords it, and the Friday tiles. A ship set or Friday tiles asked for
/// without South Seas or Friday are refused; the sets' reconstruction notes are added to
/// `reconstructions`.
struct SouthSeasData {
    ships: Vec<Ship>,
    ship_payments: Vec<[Vec<[u8; 3]>; 2]>,
    ship_afford: Vec<[AffordTable; 2]>,
    friday: Vec<FridayTile>,
}

fn south_seas_data(
    spec: &RulesSpec,
    system: System,
    reconstructions: &mut Vec<(String, String)>,
) -> Result<SouthSeasData, RulesError> {
    let ships = match system {
        System::Classic => {
            if spec.ships != default_ships() {
                return Err(RulesError::ShipsNeedSouthSeas);
            }
            Vec::new()
        }
        System::SouthSeas => {
            let set = load(&spec.ships, DataKind::Ships, parse_ships)?;
            if let Some(text) = &set.reconstruction {
                reconstructions.push((
                    format!("{} (ships)", spec.ships.label()),
                    text.trim().to_string(),
                ));
            }
            set.ships
        }
    };
    let ship_payments = ships
        .iter()
        .map(|s| [s.need.all_payments(0), s.need.all_payments(1)])
        .collect();
    let ship_afford = ships
        .iter()
        .map(|s| [AffordTable::new(s.need, 0), AffordTable::new(s.need, 1)])
        .collect();
    if spec.friday && system != System::SouthSeas {
        return Err(RulesError::FridayNeedsSouthSeas);
    }
    if !spec.friday && spec.friday_tiles != default_friday_tiles() {
        return Err(RulesError::FridayTilesNeedFriday);
    }
    let friday = if spec.friday {
        let set = load(&spec.friday_tiles, DataKind::Friday, parse_friday)?;
        if let Some(text) = &set.reconstruction {
            reconstructions.push((
                format!("{} (Friday tiles)", spec.friday_tiles.label()),
                text.trim().to_string(),
            ));
        }
        set.tiles
    } else {
        Vec::new()
    };
    Ok(SouthSeasData {
        ships,
        ship_payments,
        ship_afford,
        friday,
    })
}

/// Per tile, the bit set of its segments that `keep` selects.
fn segment_masks(tiles: &[TileDef], keep: impl Fn(&Segment) -> bool) -> Vec<u16> {
    tiles
        .iter()
        .map(|t| {
            t.segments
                .iter()
                .enumerate()
                .filter(|(_, s)| keep(s))
                .fold(0u16, |m, (i, _)| m | (1 << i))
        })
        .collect()
}

/// Per tile and per demand of a square (2 bits of edge kind per side, 0 for none), the
/// bit set of the tile's distinct rotations that meet it (`Rules::legal_row`).
fn legal_rotations(tiles: &[TileDef]) -> Vec<u8> {
    let mut legal = vec![0u8; tiles.len() * 256];
    for (i, t) in tiles.iter().enumerate() {
        for demand in 0..256usize {
            let mut mask = 0u8;
            for r in 0..4 {
                if t.canonical_rotations & (1 << r) == 0 {
                    continue;
                }
                let fits = (0..4).all(|side| {
                    let want = (demand >> (2 * side)) & 3;
                    want == 0 || want == t.edges_at[r][side] as usize
                });
                if fits {
                    mask |= 1 << r;
                }
            }
            legal[i * 256 + demand] = mask;
        }
    }
    legal
}

/// Reads and parses one data file of the rules.
fn load<T>(
    source: &DataSource,
    kind: DataKind,
    parse: fn(&str, &str) -> Result<T, DataError>,
) -> Result<T, RulesError> {
    let text = source_text(source, kind)?;
    Ok(parse(text, source.label())?)
}

/// What a road walk needs of a tile in one rotation, packed small so that walks stay in
/// the first-level cache: the segment at the centre of each side, where a road entering at
/// a side leaves (NO_SIDE if it ends on the tile), and whether the tile is a ferry lake.
#[derive(Clone, Copy, Debug)]
pub struct OrientedRoads {
    pub centre: [u8; 4],
    pub exit: [u8; 4],
    pub lake: bool,
}

/// Validated rules plus the tables the hot path reads.
#[derive(Debug)]
pub struct Rules {
    pub spec: RulesSpec,
    pub tiles: Vec<TileDef>,
    pub start_tile: u16,
    /// Every tile copy of the chosen sets, taken `tile_set_copies` times, except one start
    /// tile, in set order (each tile's copies together).
    pub full_deck: Vec<u16>,
    /// Times the tile sets are taken (`RulesSpec::tile_set_copies` in effect; 1 without a
    /// map).
    pub tile_set_copies: u32,
    /// Per tile: segments a meeple may stand on (bit i = segment i).
    pub meeple_segments: Vec<u16>,
    /// Per tile: segments of kinds that close by their edges (roads, cities, bridges,
    /// islands; bit per segment).
    pub closing_segments: Vec<u16>,
    /// Per tile: the monastery (classic) or market (South Seas) segment, if any.
    pub monastery: Vec<Option<u8>>,
    /// Per tile: segments carrying a fishing boat (South Seas; bit per segment).
    pub boats: Vec<u16>,
    /// Any lake tile in the sets: the ferry rules are active.
    pub ferries: bool,
    /// The rule system of the tile sets.
    pub system: System,
    /// South Seas: the ships (empty for classic games).
    pub ships: Vec<Ship>,
    /// `ship_payments[ship][discount]` (discount 0, or Friday's 1): every payment of the
    /// ship for a player holding enough of everything, sorted. Filtered by what a player
    /// holds, it lists that player's deliveries without working out any need.
    pub ship_payments: Vec<[Vec<[u8; 3]>; 2]>,
    /// `ship_afford[ship][discount]`: whether a player can pay for the ship, by lookup.
    pub ship_afford: Vec<[AffordTable; 2]>,
    /// Friday: the six Friday tiles (empty unless `spec.friday`).
    pub friday: Vec<FridayTile>,
    /// (source, text) of every data set in use that says it is a reconstruction.
    pub reconstructions: Vec<(String, String)>,
    /// `roads[tile * 4 + rotation]`.
    pub roads: Vec<OrientedRoads>,
    /// `segment_sides[tile * 4 + rotation][segment]`: the sides (bit per side) a segment
    /// reaches; a segment reaching no side that has a neighbour is a feature of its own.
    pub segment_sides: Vec<[u8; crate::data::tileset::MAX_SEGMENTS]>,
    /// `kin_slots[tile * 4 + rotation][segment]`: the board-oriented slots (bit per slot)
    /// of every segment of the same kind: the only slots where that segment's feature can
    /// meet the board (edges join only their own kind).
    pub kin_slots: Vec<[u16; crate::data::tileset::MAX_SEGMENTS]>,
    /// Tile index by full id.
    tile_ids: HashMap<String, u16>,
    /// `legal[tile * 256 + demand]`: bit r set when canonical rotation r fits an open
    /// square whose neighbours demand `demand` (2 bits per side, 0 = no neighbour).
    legal: Vec<u8>,
    /// The table: the open grid, or a map (whose printed pieces are tiles
    /// `printed_from..` of `tiles`, never in a deck).
    pub geometry: Geometry,
    /// First tile index of a map's printed pieces (`tiles.len()` without a map).
    pub printed_from: u16,
    /// Maps: start squares given a tile before the first turn (1 without a map).
    pub start_squares: u32,
    /// Maps: those start squares, in order, with the rotation asked for each (empty
    /// without a map).
    pub starts: Vec<StartSquare>,
    /// Tiles a shuffled deck keeps (all of them but on a map).
    pub deck_limit: usize,
    /// Maps: the small-town variants (`RulesSpec::small_towns`) 1, 2 and 3.
    pub town_extra_turn: bool,
    pub town_penalty: bool,
    pub town_road_bonus: bool,
    /// A player may take one of his meeples back instead of placing one (South Seas'
    /// islanders, S-3): a rule of the turn, read where a player counts his options.
    pub takes_back: bool,
}

impl Rules {
    pub fn new(mut spec: RulesSpec) -> Result<Self, RulesError> {
        if !(MIN_PLAYERS as u32..=MAX_PLAYERS as u32).contains(&spec.players) {
            return Err(RulesError::Players(spec.players));
        }
        if spec.meeples > MAX_MEEPLES {
            return Err(RulesError::Meeples(spec.meeples));
        }
        if !["C3", "C2"].contains(&spec.ferries_edition.as_str()) {
            return Err(RulesError::Edition(spec.ferries_edition.clone()));
        }
        if spec.tile_sets.is_empty() {
            return Err(RulesError::NoTileSets);
        }
        let mut reconstructions = Vec::new();
        let (mut tiles, mut tile_ids, system) = load_tile_sets(&spec, &mut reconstructions)?;
        if system == System::SouthSeas && spec.players as usize > MAX_PLAYERS_SOUTH_SEAS {
            return Err(RulesError::PlayersSouthSeas(spec.players));
        }
        let start = if spec.start_tile.is_empty() {
            tiles
                .iter()
                .position(|t| t.start)
                .ok_or(RulesError::NoStartTile)?
        } else {
            tiles
                .iter()
                .position(|t| t.id == spec.start_tile)
                .ok_or_else(|| RulesError::UnknownStartTile(spec.start_tile.clone()))?
        } as u16;
        // Stored resolved, so equal rules compare equal and records name their start tile.
        spec.start_tile = tiles[start as usize].id.clone();
        let printed_from = tiles.len() as u16;
        let map = load_map(
            &spec,
            system,
            &mut tiles,
            &mut tile_ids,
            &mut reconstructions,
        )?;
        // Counted before the deck is built: a file's counts may add up to anything.
        let set_tiles: u64 = tiles[..printed_from as usize]
            .iter()
            .map(|t| u64::from(t.count))
            .sum();
        if set_tiles - 1 > MAX_DECK as u64 {
            return Err(RulesError::DeckTooLarge(set_tiles - 1));
        }
        let tile_set_copies = tile_set_copies(&spec, map.as_ref(), set_tiles)?;
        let times = u64::from(tile_set_copies);
        let copies =
            |i: usize, t: &TileDef| u64::from(t.count) * times - u64::from(i as u16 == start);
        // Symbol totals count a map's printed pieces (count 0 in no deck) once each.
        let on_table = |i: usize, t: &TileDef| {
            if i as u16 >= printed_from {
                u64::from(t.count.max(1))
            } else {
                u64::from(t.count) * times
            }
        };
        let deck_size: u64 = tiles.iter().enumerate().map(|(i, t)| copies(i, t)).sum();
        // Within MAX_DECK by `tile_set_copies`' checks.
        debug_assert!(deck_size <= MAX_DECK as u64);
        // Feature totals count symbols in 16 bits: a deck with more of a symbol than that
        // could overflow them in one feature.
        let symbols: [(&'static str, SymbolCount); 5] = [
            ("pennant", |s| s.pennants.into()),
            ("inn", |s| s.inns.into()),
            ("cathedral", |s| s.cathedrals.into()),
            ("goods or wares", |s| {
                s.goods.iter().map(|g| u64::from(*g)).max().unwrap_or(0)
            }),
            ("fish2", |s| s.fish_pairs.into()),
        ];
        for (symbol, count) in symbols {
            let total: u64 = tiles
                .iter()
                .enumerate()
                .map(|(i, t)| on_table(i, t) * t.segments.iter().map(count).sum::<u64>())
                .sum();
            if total > u64::from(u16::MAX) {
                return Err(RulesError::TooManySymbols { symbol, total });
            }
        }
        let mut full_deck = Vec::with_capacity(deck_size as usize);
        for (i, t) in tiles.iter().enumerate() {
            full_deck.extend(std::iter::repeat_n(i as u16, copies(i, t) as usize));
        }
        let meeple_segments =
            segment_masks(&tiles, |s| spec.farmers || s.kind != FeatureKind::Field);
        let monastery = tiles
            .iter()
            .map(|t| {
                t.segments
                    .iter()
                    .position(|s| s.kind.shape() == Shape::Centre)
                    .map(|i| i as u8)
            })
            .collect();
        let closing_segments = segment_masks(&tiles, |s| s.kind.closes_by_edges());
        let boats = segment_masks(&tiles, |s| s.boat);
        let legal = legal_rotations(&tiles);
        let ferries = tiles.iter().any(|t| t.lake);
        let roads = tiles
            .iter()
            .flat_map(|t| {
                (0..4).map(move |r| OrientedRoads {
                    centre: std::array::from_fn(|side| {
                        t.slot_segment[r][crate::topology::slot(side, crate::topology::CENTRE)]
                    }),
                    exit: t.road_exit[r],
                    lake: t.lake,
                })
            })
            .collect();
        let SouthSeasData {
            ships,
            ship_payments,
            ship_afford,
            friday,
        } = south_seas_data(&spec, system, &mut reconstructions)?;
        let segment_sides: Vec<[u8; crate::data::tileset::MAX_SEGMENTS]> = tiles
            .iter()
            .flat_map(|t| {
                (0..4).map(move |r| {
                    let mut sides = [0u8; crate::data::tileset::MAX_SEGMENTS];
                    for (s, seg) in t.slot_segment[r].iter().enumerate() {
                        if *seg != crate::data::tileset::NO_SEGMENT {
                            sides[*seg as usize] |= 1 << (s / 3);
                        }
                    }
                    sides
                })
            })
            .collect();
        let kin_slots = tiles
            .iter()
            .flat_map(|t| {
                (0..4).map(move |r| {
                    let mut kin = [0u16; crate::data::tileset::MAX_SEGMENTS];
                    for (s, own) in t.slot_segment[r].iter().enumerate() {
                        if *own == crate::data::tileset::NO_SEGMENT {
                            continue;
                        }
                        let kind = t.segments[*own as usize].kind;
                        for (i, seg) in t.segments.iter().enumerate() {
                            if seg.kind == kind {
                                kin[i] |= 1 << s;
                            }
                        }
                    }
                    kin
                })
            })
            .collect();
        let mut towns = spec.small_towns.clone();
        towns.sort_unstable();
        towns.dedup();
        if towns.len() != spec.small_towns.len() || towns.iter().any(|v| !(1..=3).contains(v)) {
            return Err(RulesError::SmallTowns(
                spec.small_towns.iter().take(8).copied().collect(),
            ));
        }
        // A set of variants: the same ones in any order are the same rules (equal, one
        // JSON form, one repr).
        spec.small_towns.clone_from(&towns);
        let (geometry, start_squares, starts, deck_limit) = board_geometry(
            map,
            &spec,
            &tiles[start as usize],
            (full_deck.len(), tile_set_copies),
            (&legal, printed_from as usize),
        )?;
        Ok(Rules {
            town_extra_turn: towns.contains(&1),
            town_penalty: towns.contains(&2),
            town_road_bonus: towns.contains(&3),
            takes_back: system == System::SouthSeas,
            geometry,
            printed_from,
            start_squares,
            starts,
            deck_limit,
            tile_ids,
            segment_sides,
            kin_slots,
            system,
            ships,
            ship_payments,
            ship_afford,
            friday,
            reconstructions,
            roads,
            spec,
            tiles,
            start_tile: start,
            full_deck,
            tile_set_copies,
            meeple_segments,
            closing_segments,
            monastery,
            boats,
            ferries,
            legal,
        })
    }

    #[inline]
    pub fn roads(&self, tile: u16, rotation: u8) -> &OrientedRoads {
        &self.roads[tile as usize * 4 + rotation as usize]
    }

    /// The legal canonical rotations of one tile (bit r for rotation r) for every demand
    /// byte of an open square: indexed by a `u8`, it needs no bounds check in loops over
    /// open squares.
    #[inline]
    pub fn legal_row(&self, tile: u16) -> &[u8; 256] {
        let start = tile as usize * 256;
        self.legal[start..start + 256]
            .try_into()
            .expect("256 entries per tile")
    }

    pub fn tile_index(&self, id: &str) -> Option<u16> {
        self.tile_ids.get(id).copied()
    }

    pub fn deck_from_ids<S: AsRef<str>>(&self, ids: &[S]) -> Result<Vec<u16>, RulesError> {
        if ids.len() > MAX_DECK {
            return Err(RulesError::DeckTooLarge(ids.len() as u64));
        }
        ids.iter()
            .map(|id| {
                // A map's printed pieces are tiles of the rules, but never drawn.
                self.tile_index(id.as_ref())
                    .filter(|t| *t < self.printed_from)
                    .ok_or_else(|| RulesError::UnknownTile(id.as_ref().to_string()))
            })
            .collect()
    }

    /// Friday tile indices for ids, in order; every Friday tile exactly once.
    pub fn friday_from_ids<S: AsRef<str>>(&self, ids: &[S]) -> Result<Vec<u8>, RulesError> {
        let known: Vec<&str> = self.friday.iter().map(|t| t.id.as_str()).collect();
        let order = full_order(ids, &known, "Friday tile", RulesError::UnknownFridayTile)?;
        Ok(order.into_iter().map(|i| i as u8).collect())
    }

    /// Ship indices for ship ids, in order; every ship exactly once (a full ship order).
    pub fn ships_from_ids<S: AsRef<str>>(&self, ids: &[S]) -> Result<Vec<u16>, RulesError> {
        let known: Vec<&str> = self.ships.iter().map(|s| s.id.as_str()).collect();
        let order = full_order(ids, &known, "ship", RulesError::UnknownShip)?;
        Ok(order.into_iter().map(|i| i as u16).collect())
    }

    pub fn players(&self) -> usize {
        self.spec.players as usize
    }

    /// The validated rules of `spec`, shared with earlier calls: the last few specs
    /// validated here are kept with their rules, so that loading many records of the same
    /// rules (`Game::from_json`) validates them once (validation reads and checks every
    /// data file, about 200 µs for the base game; a record replays in far less). A spec
    /// holds the text of each user file, not its path alone, so equal specs always give
    /// equal rules.
    pub fn shared(spec: &RulesSpec) -> Result<Arc<Rules>, RulesError> {
        use std::sync::{Mutex, PoisonError};
        /// How many specs are kept: a few configurations in one process at a time.
        const KEPT: usize = 8;
        static VALIDATED: Mutex<Vec<(RulesSpec, Arc<Rules>)>> = Mutex::new(Vec::new());
        // A panic elsewhere while the list was held leaves it whole (pushes and removes
        // only): a poisoned lock is still usable.
        let lock = || VALIDATED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, rules)) = lock().iter().find(|(s, _)| s == spec) {
            return Ok(rules.clone());
        }
        // Validated without the lock held: other threads load their records meanwhile.
        let rules = Arc::new(Rules::new(spec.clone())?);
        let mut kept = lock();
        // Another thread may have validated the same spec meanwhile: keep one.
        if let Some((_, first)) = kept.iter().find(|(s, _)| s == spec) {
            return Ok(first.clone());
        }
        if kept.len() >= KEPT {
            kept.remove(0);
        }
        kept.push((spec.clone(), rules.clone()));
        Ok(rules)
    }
}
