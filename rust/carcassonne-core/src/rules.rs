//! A validated rules configuration and the tables derived from it.
//!
//! `RulesSpec` is what a user writes (serialisable, unchecked); `Rules` is built from it
//! only through validation, so a `Game` never sees a bad configuration.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::friday::{FridayTile, builtin_friday_text, parse_friday};
use crate::ships::{AffordTable, DataError, Ship, builtin_ship_text, parse_ships};
use crate::tileset::{
    FeatureKind, Shape, System, TileDataError, TileDef, builtin_set_text, parse_tileset,
};

pub const MAX_PLAYERS: usize = 6;
/// South Seas: 4 islanders in each of 5 colours.
pub const MAX_PLAYERS_SOUTH_SEAS: usize = 5;
pub const MIN_PLAYERS: usize = 2;
/// Upper bound on meeples per player, far above any published variant.
pub const MAX_MEEPLES: u32 = 99;

/// Bumped whenever the behaviour of the rules changes (not for refactors); stored with
/// every result so that studies run on different versions are never silently mixed.
/// 2: a South Seas "3 + 3" ship lists each payment once (version 1 listed each twice,
/// which weighted the random player's step-4 choice).
pub const RULES_VERSION: u32 = 2;

/// Where a tile set comes from: compiled in, or a user's file (its text is kept, so a
/// saved game is self-contained).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileSetSource {
    Builtin(String),
    File { path: String, toml: String },
}

impl TileSetSource {
    /// The built-in sets of the given names, in order.
    pub fn builtins(names: &[&str]) -> Vec<TileSetSource> {
        names
            .iter()
            .map(|n| TileSetSource::Builtin(n.to_string()))
            .collect()
    }

    pub fn label(&self) -> &str {
        match self {
            TileSetSource::Builtin(name) => name,
            TileSetSource::File { path, .. } => path,
        }
    }
}

/// The user-facing configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesSpec {
    pub players: u32,
    pub meeples: u32,
    pub tile_sets: Vec<TileSetSource>,
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
    pub ships: TileSetSource,
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
    pub friday_tiles: TileSetSource,
}

fn default_friday_tiles() -> TileSetSource {
    TileSetSource::Builtin("friday".into())
}

fn default_ships() -> TileSetSource {
    TileSetSource::Builtin("south-seas".into())
}

fn default_edition() -> String {
    "C3".into()
}

impl Default for RulesSpec {
    fn default() -> Self {
        RulesSpec {
            players: 2,
            meeples: 7,
            tile_sets: vec![TileSetSource::Builtin("base".into())],
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
        }
    }
}

impl RulesSpec {
    /// Carcassonne: South Seas with its defaults: the reconstructed tile and ship sets,
    /// 4 islanders per player.
    pub fn south_seas(players: u32) -> Self {
        RulesSpec {
            players,
            meeples: 4,
            tile_sets: vec![TileSetSource::Builtin("south-seas".into())],
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
    UnknownTileSet(String),
    TileData(TileDataError),
    DuplicateTile(String),
    UnknownTile(String),
    UnknownStartTile(String),
    DeckTooLarge(usize),
    Edition(String),
    MixedSystems,
    PlayersSouthSeas(u32),
    NoStartTile,
    UnknownShipSet(String),
    ShipData(DataError),
    UnknownShip(String),
    BadOrder(String),
    FridayNeedsSouthSeas,
    UnknownFridaySet(String),
    UnknownFridayTile(String),
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
            RulesError::UnknownTileSet(s) => write!(
                f,
                "unknown tile set {s:?}: use one of \"base\", \"inns-and-cathedrals\", \"traders-and-builders\" or the path of a .toml tile file"
            ),
            RulesError::TileData(e) => write!(f, "{e}"),
            RulesError::DuplicateTile(id) => {
                write!(f, "tile id {id:?} is defined by two tile sets")
            }
            RulesError::UnknownTile(id) => {
                write!(f, "unknown tile id {id:?} (ids look like \"base/D\")")
            }
            RulesError::UnknownStartTile(id) => {
                write!(f, "start tile {id:?} is not in the chosen tile sets")
            }
            RulesError::DeckTooLarge(n) => {
                write!(f, "a deck of {n} tiles is too large (at most 4000)")
            }
            RulesError::Edition(e) => {
                write!(f, "ferries_edition must be \"C3\" or \"C2\", got {e:?}")
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
            RulesError::UnknownShipSet(s) => write!(
                f,
                "unknown ship set {s:?}: use \"south-seas\" or the path of a .toml ship file"
            ),
            RulesError::ShipData(e) => write!(f, "{e}"),
            RulesError::UnknownShip(id) => write!(f, "unknown ship id {id:?}"),
            RulesError::BadOrder(why) => write!(f, "{why}"),
            RulesError::FridayNeedsSouthSeas => write!(
                f,
                "Friday is an expansion of South Seas: use tile_sets=(\"south-seas\",) with friday=True"
            ),
            RulesError::UnknownFridayTile(id) => write!(
                f,
                "unknown Friday tile {id:?} (Friday is off, or the id is not in the Friday file)"
            ),
            RulesError::UnknownFridaySet(s) => write!(
                f,
                "unknown Friday set {s:?}: use \"friday\" or the path of a .toml Friday file"
            ),
        }
    }
}

impl std::error::Error for RulesError {}

/// Indices into `known` of `ids`, which must name every one of them exactly once (the
/// order of a shuffled pile: ships, Friday tiles).
fn full_order<S: AsRef<str>>(
    ids: &[S],
    known: &[&str],
    what: &str,
    unknown: fn(String) -> RulesError,
) -> Result<Vec<usize>, RulesError> {
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let id = id.as_ref();
        let i = known
            .iter()
            .position(|k| *k == id)
            .ok_or_else(|| unknown(id.to_string()))?;
        if out.contains(&i) {
            return Err(RulesError::BadOrder(format!(
                "{what} {id:?} is listed twice"
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
    /// Every tile copy of the chosen sets except one start tile, in set order.
    pub full_deck: Vec<u16>,
    /// Per tile: segments a meeple may stand on (bit i = segment i).
    pub meeple_segments: Vec<u16>,
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
    pub segment_sides: Vec<[u8; crate::tileset::MAX_SEGMENTS]>,
    /// `kin_slots[tile * 4 + rotation][segment]`: the board-oriented slots (bit per slot)
    /// of every segment of the same kind: the only slots where that segment's feature can
    /// meet the board (edges join only their own kind).
    pub kin_slots: Vec<[u16; crate::tileset::MAX_SEGMENTS]>,
    /// `legal[tile * 256 + demand]`: bit r set when canonical rotation r fits an open
    /// square whose neighbours demand `demand` (2 bits per side, 0 = no neighbour).
    legal: Vec<u8>,
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
        let mut tiles: Vec<TileDef> = Vec::new();
        let mut system = None;
        let mut reconstructions = Vec::new();
        for source in &spec.tile_sets {
            let set = match source {
                TileSetSource::Builtin(name) => {
                    let text = builtin_set_text(name)
                        .ok_or_else(|| RulesError::UnknownTileSet(name.clone()))?;
                    parse_tileset(text, name)
                }
                TileSetSource::File { path, toml } => parse_tileset(toml, path),
            }
            .map_err(RulesError::TileData)?;
            if system.is_some_and(|s| s != set.system) {
                return Err(RulesError::MixedSystems);
            }
            system = Some(set.system);
            if let Some(text) = &set.reconstruction {
                reconstructions.push((source.label().to_string(), text.trim().to_string()));
            }
            for mut t in set.tiles {
                if let Some((_, c)) = t
                    .edition_counts
                    .iter()
                    .find(|(e, _)| *e == spec.ferries_edition)
                {
                    t.count = *c;
                }
                if tiles.iter().any(|d| d.id == t.id) {
                    return Err(RulesError::DuplicateTile(t.id));
                }
                tiles.push(t);
            }
        }
        let system = system.unwrap_or_default();
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
        let mut full_deck = Vec::new();
        for (i, t) in tiles.iter().enumerate() {
            let copies = if i as u16 == start {
                t.count - 1
            } else {
                t.count
            };
            full_deck.extend(std::iter::repeat_n(i as u16, copies as usize));
        }
        if full_deck.len() > 4000 {
            return Err(RulesError::DeckTooLarge(full_deck.len()));
        }
        let meeple_segments = tiles
            .iter()
            .map(|t| {
                t.segments
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| spec.farmers || s.kind != FeatureKind::Field)
                    .fold(0u16, |m, (i, _)| m | (1 << i))
            })
            .collect();
        let monastery = tiles
            .iter()
            .map(|t| {
                t.segments
                    .iter()
                    .position(|s| s.kind.shape() == Shape::Centre)
                    .map(|i| i as u8)
            })
            .collect();
        let boats = tiles
            .iter()
            .map(|t| {
                t.segments
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.boat)
                    .fold(0u16, |m, (i, _)| m | (1 << i))
            })
            .collect();
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
        let ships = match system {
            System::Classic => Vec::new(),
            System::SouthSeas => {
                let set = match &spec.ships {
                    TileSetSource::Builtin(name) => {
                        let text = builtin_ship_text(name)
                            .ok_or_else(|| RulesError::UnknownShipSet(name.clone()))?;
                        parse_ships(text, name)
                    }
                    TileSetSource::File { path, toml } => parse_ships(toml, path),
                }
                .map_err(RulesError::ShipData)?;
                if let Some(text) = &set.reconstruction {
                    reconstructions.push((spec.ships.label().to_string(), text.trim().to_string()));
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
        let friday = if spec.friday {
            let set = match &spec.friday_tiles {
                TileSetSource::Builtin(name) => {
                    let text = builtin_friday_text(name)
                        .ok_or_else(|| RulesError::UnknownFridaySet(name.clone()))?;
                    parse_friday(text, name)
                }
                TileSetSource::File { path, toml } => parse_friday(toml, path),
            }
            .map_err(RulesError::ShipData)?;
            if let Some(text) = &set.reconstruction {
                reconstructions.push((
                    spec.friday_tiles.label().to_string(),
                    text.trim().to_string(),
                ));
            }
            set.tiles
        } else {
            Vec::new()
        };
        let segment_sides: Vec<[u8; crate::tileset::MAX_SEGMENTS]> = tiles
            .iter()
            .flat_map(|t| {
                (0..4).map(move |r| {
                    let mut sides = [0u8; crate::tileset::MAX_SEGMENTS];
                    for (s, seg) in t.slot_segment[r].iter().enumerate() {
                        if *seg != crate::tileset::NO_SEGMENT {
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
                    let mut kin = [0u16; crate::tileset::MAX_SEGMENTS];
                    for (s, own) in t.slot_segment[r].iter().enumerate() {
                        if *own == crate::tileset::NO_SEGMENT {
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
        Ok(Rules {
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
            meeple_segments,
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

    #[inline]
    pub fn legal_rotations(&self, tile: u16, demand: u8) -> u8 {
        self.legal[tile as usize * 256 + demand as usize]
    }

    pub fn tile_index(&self, id: &str) -> Option<u16> {
        self.tiles.iter().position(|t| t.id == id).map(|i| i as u16)
    }

    pub fn deck_from_ids<S: AsRef<str>>(&self, ids: &[S]) -> Result<Vec<u16>, RulesError> {
        if ids.len() > 4000 {
            return Err(RulesError::DeckTooLarge(ids.len()));
        }
        ids.iter()
            .map(|id| {
                self.tile_index(id.as_ref())
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
}
