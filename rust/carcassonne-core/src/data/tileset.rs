//! Tile sets as data: parsing, validation and the per-rotation tables the engine uses.
//!
//! A tile file is TOML:
//!
//! ```toml
//! name = "base"                     # set name; tile ids become "base/<id>"
//! title = "Carcassonne base game"
//!
//! [[tiles]]
//! id = "D"
//! count = 4                         # copies in the set, start tile included
//! edges = "CRFR"                    # N E S W: C city, R road, F field (checked)
//! features = "R(W E) ; C(N) ; F(EL WR)~N ; F(ER SL SR WL)"
//! ```
//!
//! Feature notation (as in `shared/spec/classic.md`): `C(sides)` a city segment, `R(sides)`
//! a road segment, `F(half-edges)~sides` a field segment (`I` = an inner field touching no
//! edge) that borders the city segments containing the listed sides, `MONASTERY`, `garden`
//! (printed, no effect), `LAKE` (a ferry lake: every road of the tile ends at it, and a
//! ferry joins two of those ends). Symbols follow a segment: `+pennant`, `+inn`, `+cathedral`,
//! `+wine`, `+grain`, `+cloth`. Edges are written in the tile's unrotated orientation.
//!
//! A file with `system = "south-seas"` uses the South Seas kinds on the same topology:
//! `I(sides)` an island (whole sides, like a city), `B(sides)` a bridge (side centres, like
//! a road; a bridge ending on the tile ends at a crossing stone, an island or a market),
//! `S(half-edges)` a sea part (like a field), `MARKET` (tile centre, like a monastery); edge
//! letters I, B, S; symbols `+banana` (islands), `+shell` (bridges), `+fish` (a group of one
//! fish), `+fish2` (a group of two) and `+boat` (a fishing boat) on sea parts. One tile may
//! be marked `start = true`: the start tile, which is not shuffled into the deck.

use std::collections::HashSet;

use serde::Deserialize;

use crate::data::{DataError, DataKind, decode};
use crate::limits::MAX_DECK;
use crate::quote::quote;

use crate::topology::{
    CENTRE, EdgeKind, HALF_LEFT, HALF_RIGHT, SIDE_NAMES, SLOTS, SlotMask, parse_side, parse_slot,
    rotate_mask, rotate_slot, side_mask, slot,
};

/// Largest number of segments one tile may have (tile X has 8).
pub const MAX_SEGMENTS: usize = 10;
/// Marks "no segment" in a slot table.
pub const NO_SEGMENT: u8 = u8::MAX;

pub const GOODS: [&str; 3] = ["wine", "grain", "cloth"];

/// Kinds of features a tile segment can belong to. New rule systems add kinds here; the
/// topology class (`edge_kind`) decides how a kind connects to neighbouring tiles.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum FeatureKind {
    Road = 0,
    City = 1,
    Monastery = 2,
    Field = 3,
    /// South Seas: a bridge (shells), connected like a road.
    Bridge = 4,
    /// South Seas: an island (bananas), connected like a city.
    Island = 5,
    /// South Seas: a market (ships), a tile-centre feature like a monastery.
    Market = 6,
    /// South Seas: a sea region (fish), connected like a field but completed when enclosed.
    Sea = 7,
}

/// How a feature kind sits on the tile topology (`engine-notes.md`): what it shares with
/// the kinds of other rule systems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Side centres, ending on the tile or crossing it: roads, bridges.
    Path,
    /// Whole sides: cities, islands.
    Area,
    /// The tile centre, completed by the 8 squares around it: monasteries, markets.
    Centre,
    /// Half-edges between the others: fields, sea.
    Halves,
}

impl FeatureKind {
    pub const ALL: [FeatureKind; 8] = [
        FeatureKind::Road,
        FeatureKind::City,
        FeatureKind::Monastery,
        FeatureKind::Field,
        FeatureKind::Bridge,
        FeatureKind::Island,
        FeatureKind::Market,
        FeatureKind::Sea,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FeatureKind::Road => "road",
            FeatureKind::City => "city",
            FeatureKind::Monastery => "monastery",
            FeatureKind::Field => "field",
            FeatureKind::Bridge => "bridge",
            FeatureKind::Island => "island",
            FeatureKind::Market => "market",
            FeatureKind::Sea => "sea",
        }
    }

    pub fn shape(self) -> Shape {
        match self {
            FeatureKind::Road | FeatureKind::Bridge => Shape::Path,
            FeatureKind::City | FeatureKind::Island => Shape::Area,
            FeatureKind::Monastery | FeatureKind::Market => Shape::Centre,
            FeatureKind::Field | FeatureKind::Sea => Shape::Halves,
        }
    }

    /// Features that are completed by closing every open side (not fields, not centres).
    pub fn closes_by_edges(self) -> bool {
        matches!(self.shape(), Shape::Path | Shape::Area)
    }

    /// Whether a feature of this kind counts slot position `pos` of a side (`CENTRE` or a
    /// half) as an open end until a neighbour matches it: side centres for paths and areas
    /// (one per side), both halves for sea (enclosed when no half-edge is left open).
    /// Fields never close.
    #[inline]
    pub fn counts_open_at(self, pos: usize) -> bool {
        match self {
            FeatureKind::Sea => pos != CENTRE,
            _ => pos == CENTRE && self.closes_by_edges(),
        }
    }
}

/// One connected piece of a feature printed on a tile.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub kind: FeatureKind,
    /// Slots of the unrotated tile that this segment occupies.
    pub slots: SlotMask,
    /// Open ends of this segment when alone: sides reached (paths and areas), half-edges
    /// (sea); 0 for fields and centres. See `FeatureKind::counts_open_at`.
    pub sides: u8,
    pub pennants: u8,
    pub inns: u8,
    pub cathedrals: u8,
    /// Goods symbols: T&B wine, grain, cloth (cities); South Seas wares shell, banana, fish
    /// (bridges, islands, sea; indexed by `crate::systems::south_seas::state::Ware`).
    pub goods: [u8; 3],
    /// South Seas: fish printed as groups of two (each also counted in `goods`), which a
    /// boat token covers first.
    pub fish_pairs: u8,
    /// South Seas: a fishing boat on this sea part.
    pub boat: bool,
    /// For fields: indices of the city segments of this tile that the field borders.
    pub adjacent_cities: Vec<u8>,
}

/// A tile layout, with the tables the hot path needs precomputed for all four rotations.
#[derive(Clone, Debug)]
pub struct TileDef {
    /// Full id, `"<set>/<id>"`.
    pub id: String,
    pub set: String,
    pub count: u32,
    /// Copies in other editions (e.g. "C2"), where they differ from `count`.
    pub edition_counts: Vec<(String, u32)>,
    pub garden: bool,
    /// A ferry lake: all road segments are single ends at the lake.
    pub lake: bool,
    /// The start tile of its set (`start = true` in the file).
    pub start: bool,
    /// Side kinds in the unrotated orientation.
    pub edges: [EdgeKind; 4],
    pub segments: Vec<Segment>,
    /// `slot_segment[rotation][slot]`: the segment at a board-oriented slot, or NO_SEGMENT.
    pub slot_segment: [[u8; SLOTS]; 4],
    /// `open_slots[rotation]`: board-oriented slots (bit per slot) whose segment counts
    /// as an open end there until a neighbour matches it (`FeatureKind::counts_open_at`).
    pub open_slots: [u16; 4],
    /// `edges_at[rotation][side]`: side kinds after rotation.
    pub edges_at: [[EdgeKind; 4]; 4],
    /// Bit r set when rotation r is the smallest of the rotations that look identical
    /// (symmetric tiles list each distinct placement once).
    pub canonical_rotations: u8,
    /// For each rotation, the smallest rotation that gives the same oriented tile.
    pub canonical_of: [u8; 4],
    /// `road_exit[rotation][side]`: the other side of the road entering at `side`, or
    /// NO_SIDE when that road ends on the tile (used to walk along roads).
    pub road_exit: [[u8; 4]; 4],
}

pub const NO_SIDE: u8 = u8::MAX;

impl TileDef {
    /// The segment at `slot` (board orientation) of this tile placed with `rotation`.
    #[inline]
    pub fn segment_at(&self, rotation: u8, slot: usize) -> Option<usize> {
        let s = self.slot_segment[rotation as usize][slot];
        (s != NO_SEGMENT).then_some(s as usize)
    }

    /// Human-readable name of a segment in board orientation, e.g. `"city N"`,
    /// `"road W E"`, `"field EL WR"`, `"monastery"`.
    pub fn describe_segment(&self, segment: usize, rotation: u8) -> String {
        let seg = &self.segments[segment];
        let mask = rotate_mask(seg.slots, rotation);
        match seg.kind {
            FeatureKind::Monastery | FeatureKind::Market => seg.kind.name().to_string(),
            FeatureKind::Field | FeatureKind::Sea => {
                if mask == 0 {
                    return format!("{} I", seg.kind.name());
                }
                let names: Vec<&str> = (0..SLOTS)
                    .filter(|s| mask & (1 << s) != 0)
                    .map(|s| crate::topology::SLOT_NAMES[s])
                    .collect();
                format!("{} {}", seg.kind.name(), names.join(" "))
            }
            kind => {
                let names: Vec<&str> = (0..4)
                    .filter(|side| mask & (1 << slot(*side, CENTRE)) != 0)
                    .map(|side| SIDE_NAMES[side])
                    .collect();
                format!("{} {}", kind.name(), names.join(" "))
            }
        }
    }
}

/// A whole tile file.
#[derive(Clone, Debug)]
pub struct TileSet {
    pub name: String,
    pub title: String,
    /// The rule system the tiles belong to.
    pub system: System,
    /// How the data was obtained, when it is not a transcription of the printed game
    /// (shown to users; see DECISIONS S-1).
    pub reconstruction: Option<String>,
    pub tiles: Vec<TileDef>,
}

/// The rule systems: which feature kinds and rules a tile set is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum System {
    /// Classic Carcassonne with its expansions (and The Ferries).
    #[default]
    Classic,
    /// Carcassonne: South Seas (and Friday).
    SouthSeas,
}

impl System {
    pub fn name(self) -> &'static str {
        match self {
            System::Classic => "classic",
            System::SouthSeas => "south-seas",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "classic" => Some(System::Classic),
            "south-seas" => Some(System::SouthSeas),
            _ => None,
        }
    }

    /// Edge letters for whole sides, centres between halves, and halves only.
    fn edge_letters(self) -> [char; 3] {
        match self {
            System::Classic => ['C', 'R', 'F'],
            System::SouthSeas => ['I', 'B', 'S'],
        }
    }

    pub fn edge_letter(self, e: EdgeKind) -> char {
        let l = self.edge_letters();
        match e {
            EdgeKind::City => l[0],
            EdgeKind::Road => l[1],
            EdgeKind::Field => l[2],
        }
    }

    /// The kind written with `letter` in a feature token.
    fn kind_of_letter(self, letter: char) -> Option<FeatureKind> {
        match (self, letter) {
            (System::Classic, 'C') => Some(FeatureKind::City),
            (System::Classic, 'R') => Some(FeatureKind::Road),
            (System::Classic, 'F') => Some(FeatureKind::Field),
            (System::SouthSeas, 'I') => Some(FeatureKind::Island),
            (System::SouthSeas, 'B') => Some(FeatureKind::Bridge),
            (System::SouthSeas, 'S') => Some(FeatureKind::Sea),
            _ => None,
        }
    }
}

impl TileSet {
    pub fn tile_count(&self) -> u32 {
        self.tiles.iter().map(|t| t.count).sum()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    name: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    system: Option<String>,
    #[serde(default)]
    reconstruction: Option<String>,
    tiles: Vec<RawTile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTile {
    id: String,
    /// JCloisterZone's id of the layout, kept in the files for cross-reference only.
    #[serde(default)]
    #[allow(dead_code)]
    jcz: Option<String>,
    count: u32,
    #[serde(default)]
    counts: std::collections::BTreeMap<String, u32>,
    #[serde(default)]
    start: bool,
    edges: String,
    features: String,
}

/// Parses and validates a tile file. `file` names the source in error messages.
pub fn parse_tileset(text: &str, file: &str) -> Result<TileSet, DataError> {
    let err = DataError::maker(file, DataKind::Tiles);
    let raw: RawSet = decode(text, DataKind::Tiles).map_err(|fault| err(None, fault))?;
    if raw.name.is_empty() || raw.name.contains('/') {
        return Err(err(
            None,
            format!(
                "set name {} must be non-empty and contain no '/'",
                quote(&raw.name)
            ),
        ));
    }
    if raw.tiles.is_empty() {
        return Err(err(None, "the file defines no tiles".into()));
    }
    let system = match raw.system.as_deref() {
        None => System::Classic,
        Some(name) => System::parse(name).ok_or_else(|| {
            err(
                None,
                format!(
                    "unknown system {}; expected \"classic\" or \"south-seas\"",
                    quote(name)
                ),
            )
        })?,
    };
    if raw.tiles.iter().filter(|t| t.start).count() > 1 {
        return Err(err(
            None,
            "more than one tile is marked start = true".into(),
        ));
    }
    let mut tiles: Vec<TileDef> = Vec::with_capacity(raw.tiles.len());
    let mut ids = HashSet::with_capacity(raw.tiles.len());
    for t in &raw.tiles {
        let id = format!("{}/{}", raw.name, t.id);
        if t.id.is_empty() || t.id.contains(char::is_whitespace) {
            return Err(err(
                Some(&t.id),
                "tile id must be non-empty without spaces".into(),
            ));
        }
        if !ids.insert(t.id.as_str()) {
            return Err(err(Some(&t.id), "tile id defined twice".into()));
        }
        // Counts are checked before any deck is built from them (`Rules::new` then checks
        // the sum of all sets against the same limit).
        if !(1..=MAX_DECK as u32).contains(&t.count) {
            return Err(err(
                Some(&t.id),
                format!(
                    "count must be between 1 and {MAX_DECK} (the largest deck), got {}",
                    t.count
                ),
            ));
        }
        if let Some((edition, c)) = t
            .counts
            .iter()
            .find(|(_, c)| !(1..=MAX_DECK as u32).contains(*c))
        {
            return Err(err(
                Some(&t.id),
                format!(
                    "count for edition {} must be between 1 and {MAX_DECK}, got {c}",
                    quote(edition)
                ),
            ));
        }
        let def = parse_tile(&id, &raw.name, system, t).map_err(|fault| err(Some(&t.id), fault))?;
        tiles.push(def);
    }
    Ok(TileSet {
        name: raw.name,
        title: raw.title,
        system,
        reconstruction: raw.reconstruction,
        tiles,
    })
}

/// A printed piece of a map (a large-city square, a border piece) as a tile: edges and
/// features in the tile-file notation, plus coats of arms on its road, which tile files
/// do not allow (`Segment::pennants` counts them, like a city's).
/// `two_ends`: the road is a ferry connection, with two open ends even where both face
/// the same side of the piece.
pub(crate) fn printed_tile(
    id: &str,
    edges: &str,
    features: &str,
    road_arms: u8,
    two_ends: bool,
) -> Result<TileDef, String> {
    let raw = RawTile {
        id: id.to_string(),
        jcz: None,
        count: 0,
        counts: Default::default(),
        start: false,
        edges: edges.to_string(),
        features: features.to_string(),
    };
    let mut def = parse_tile(id, "map", System::Classic, &raw)?;
    if road_arms > 0 || two_ends {
        let road = def
            .segments
            .iter_mut()
            .find(|s| s.kind == FeatureKind::Road)
            .ok_or("coats of arms or ends on a road, but the piece has no road")?;
        road.pennants = road_arms;
        if two_ends {
            road.sides = 2;
        }
    }
    if two_ends {
        // A ferry connection is a route over the water: the half-edges beside its road
        // face its two ends but hold no land, so the fields of the tiles at its ends never
        // join through it (whichever way the ends face). Its field segments stay, touching
        // nothing (the tile notation needs a field on every half-edge).
        for rotation in 0..4 {
            for side in 0..4 {
                if def.edges_at[rotation][side] == EdgeKind::Road {
                    for pos in [HALF_LEFT, HALF_RIGHT] {
                        def.slot_segment[rotation][slot(side, pos)] = NO_SEGMENT;
                    }
                }
            }
        }
    }
    Ok(def)
}

fn parse_tile(id: &str, set: &str, system: System, raw: &RawTile) -> Result<TileDef, String> {
    let mut segments: Vec<Segment> = Vec::new();
    let mut garden = false;
    let mut lake = false;
    // Field adjacency is resolved after all city segments are known.
    let mut field_city_sides: Vec<(usize, Vec<usize>)> = Vec::new();
    for token in raw
        .features
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        match (system, token) {
            (System::Classic, "garden") => {
                garden = true;
                continue;
            }
            (System::Classic, "LAKE") => {
                lake = true;
                continue;
            }
            (System::Classic, "MONASTERY") => {
                segments.push(new_segment(FeatureKind::Monastery, 0, 0));
                continue;
            }
            (System::SouthSeas, "MARKET") => {
                segments.push(new_segment(FeatureKind::Market, 0, 0));
                continue;
            }
            _ => {}
        }
        // Faults quote the token (and its parts) short: a token may be a whole 1 MB line.
        let q = quote(token);
        let Some(kind) = token.chars().next().and_then(|c| system.kind_of_letter(c)) else {
            return Err(format!(
                "unknown feature {q} for a {} tile set",
                system.name()
            ));
        };
        let rest = &token[1..];
        let close = rest
            .find(')')
            .ok_or_else(|| format!("missing ')' in {q}"))?;
        if !rest.starts_with('(') {
            return Err(format!("missing '(' in {q}"));
        }
        let places: Vec<&str> = rest[1..close].split_whitespace().collect();
        let suffix = &rest[close + 1..];
        let mut mask: SlotMask = 0;
        let mut sides = 0u8;
        for p in &places {
            let pq = quote(p);
            match kind.shape() {
                Shape::Halves => {
                    if *p == "I" {
                        continue;
                    }
                    let s = parse_slot(p).filter(|s| s % 3 != CENTRE).ok_or_else(|| {
                        format!("{pq} in {q} is not a half-edge (NL NR EL ER SL SR WL WR or I)")
                    })?;
                    if mask & (1 << s) != 0 {
                        return Err(format!("{pq} listed twice in {q}"));
                    }
                    mask |= 1 << s;
                    if kind.counts_open_at(s % 3) {
                        sides += 1;
                    }
                }
                _ => {
                    let side = parse_side(p)
                        .ok_or_else(|| format!("{pq} in {q} is not a side (N E S W)"))?;
                    let m = if kind.shape() == Shape::Area {
                        side_mask(side)
                    } else {
                        1 << slot(side, CENTRE)
                    };
                    if mask & m != 0 {
                        return Err(format!("{pq} listed twice in {q}"));
                    }
                    mask |= m;
                    sides += 1;
                }
            }
        }
        if places.is_empty() {
            return Err(format!("{q} lists no edges"));
        }
        let mut seg = new_segment(kind, mask, sides);
        let (symbols, adjacency) = match suffix.split_once('~') {
            Some((sym, adj)) => (sym, Some(adj)),
            None => (suffix, None),
        };
        for sym in symbols.split('+').map(str::trim).filter(|s| !s.is_empty()) {
            let counter = match (sym, kind) {
                ("banana", FeatureKind::Island) => &mut seg.goods[1],
                ("shell", FeatureKind::Bridge) => &mut seg.goods[0],
                ("fish", FeatureKind::Sea) => &mut seg.goods[2],
                ("fish2", FeatureKind::Sea) => {
                    add_symbol(&mut seg.goods[2], 2, sym, token)?;
                    &mut seg.fish_pairs
                }
                ("boat", FeatureKind::Sea) if !seg.boat => {
                    seg.boat = true;
                    continue;
                }
                ("pennant", FeatureKind::City) => &mut seg.pennants,
                ("cathedral", FeatureKind::City) => &mut seg.cathedrals,
                ("inn", FeatureKind::Road) => &mut seg.inns,
                (g, FeatureKind::City) if GOODS.contains(&g) => {
                    // GOODS contains g (the guard), so the position exists.
                    &mut seg.goods[GOODS.iter().position(|x| *x == g).unwrap_or(0)]
                }
                _ => {
                    return Err(format!(
                        "symbol {} is not allowed on a {} in {}",
                        quote(sym),
                        kind.name(),
                        quote(token)
                    ));
                }
            };
            add_symbol(counter, 1, sym, token)?;
        }
        if let Some(adj) = adjacency {
            if kind != FeatureKind::Field {
                return Err(format!("only fields name adjacent cities ('~') in {q}"));
            }
            let mut list = Vec::new();
            for c in adj.trim().chars() {
                let side = parse_side(&c.to_string())
                    .ok_or_else(|| format!("{c:?} after '~' in {q} is not a side"))?;
                list.push(side);
            }
            field_city_sides.push((segments.len(), list));
        }
        // Roads end at junctions, so a road is a path (or a loop) of segments: the ferry
        // walks and road splits rely on it.
        if kind.shape() == Shape::Path && sides > 2 {
            return Err(format!(
                "{q} reaches {sides} sides: a road segment reaches at most two (a junction ends its roads)"
            ));
        }
        segments.push(seg);
    }
    if segments
        .iter()
        .filter(|s| s.kind.shape() == Shape::Centre)
        .count()
        > 1
    {
        return Err("a tile can have at most one monastery or market".into());
    }
    if lake {
        let roads: Vec<&Segment> = segments
            .iter()
            .filter(|s| s.kind == FeatureKind::Road)
            .collect();
        if roads.len() < 2 || roads.iter().any(|r| r.sides != 1) {
            return Err(
                "a LAKE tile needs at least two roads, each a single end at the lake".into(),
            );
        }
    }
    if segments.len() > MAX_SEGMENTS {
        return Err(format!(
            "{} segments; at most {MAX_SEGMENTS} are supported",
            segments.len()
        ));
    }
    // Resolve field adjacency: "~N" names the city segment containing side N.
    for (field, sides) in field_city_sides {
        let mut cities = Vec::new();
        for side in sides {
            let city = segments
                .iter()
                .position(|s| s.kind == FeatureKind::City && s.slots & side_mask(side) != 0)
                .ok_or_else(|| {
                    format!(
                        "field borders a city at {} but no city segment reaches {}",
                        SIDE_NAMES[side], SIDE_NAMES[side]
                    )
                })?;
            if !cities.contains(&(city as u8)) {
                cities.push(city as u8);
            }
        }
        segments[field].adjacent_cities = cities;
    }
    // Slots: no slot used twice; derive the edge kinds and check them against `edges`.
    let mut owner = [NO_SEGMENT; SLOTS];
    for (i, seg) in segments.iter().enumerate() {
        for s in 0..SLOTS {
            if seg.slots & (1 << s) != 0 {
                if owner[s] != NO_SEGMENT {
                    return Err(format!(
                        "slot {} belongs to two segments",
                        crate::topology::SLOT_NAMES[s]
                    ));
                }
                owner[s] = i as u8;
            }
        }
    }
    let mut edges = [EdgeKind::Field; 4];
    for side in 0..4 {
        let kinds: Vec<Option<FeatureKind>> = (0..3)
            .map(|p| {
                let o = owner[slot(side, p)];
                (o != NO_SEGMENT).then(|| segments[o as usize].kind)
            })
            .collect();
        let shapes: Vec<Option<Shape>> = kinds.iter().map(|k| k.map(FeatureKind::shape)).collect();
        edges[side] = match (shapes[HALF_LEFT], shapes[CENTRE], shapes[HALF_RIGHT]) {
            (Some(Shape::Area), Some(Shape::Area), Some(Shape::Area)) => EdgeKind::City,
            (Some(Shape::Halves), Some(Shape::Path), Some(Shape::Halves)) => EdgeKind::Road,
            (Some(Shape::Halves), None, Some(Shape::Halves)) => EdgeKind::Field,
            _ => {
                let [area, path, halves] = match system {
                    System::Classic => ["city", "road", "field"],
                    System::SouthSeas => ["island", "bridge", "sea"],
                };
                return Err(format!(
                    "side {} is not a {area}, a {path} between two {halves} halves, or two {halves} halves (every half-edge needs a {halves})",
                    SIDE_NAMES[side]
                ));
            }
        };
    }
    let letters = system.edge_letters();
    let declared: Vec<char> = raw.edges.chars().collect();
    if declared.len() != 4 || declared.iter().any(|c| !letters.contains(c)) {
        return Err(format!(
            "edges {} must be four letters from {}, {}, {}",
            quote(&raw.edges),
            letters[0],
            letters[1],
            letters[2]
        ));
    }
    let derived: String = edges.iter().map(|e| system.edge_letter(*e)).collect();
    if derived != raw.edges {
        return Err(format!(
            "edges say {} but the features make {derived:?}",
            quote(&raw.edges)
        ));
    }
    let mut def = build_def(id, set, raw.count, garden, edges, segments);
    def.lake = lake;
    def.start = raw.start;
    def.edition_counts = raw.counts.iter().map(|(e, c)| (e.clone(), *c)).collect();
    Ok(def)
}

/// Adds `n` to a segment's symbol count, refusing counts that do not fit (256 pennants
/// on one segment would otherwise read back as 0).
fn add_symbol(counter: &mut u8, n: u8, sym: &str, token: &str) -> Result<(), String> {
    *counter = counter.checked_add(n).ok_or_else(|| {
        format!(
            "too many +{sym} symbols in {} (at most {} on one segment)",
            quote(token),
            u8::MAX
        )
    })?;
    Ok(())
}

fn new_segment(kind: FeatureKind, slots: SlotMask, sides: u8) -> Segment {
    Segment {
        kind,
        slots,
        sides,
        pennants: 0,
        inns: 0,
        cathedrals: 0,
        goods: [0; 3],
        fish_pairs: 0,
        boat: false,
        adjacent_cities: Vec::new(),
    }
}

/// A segment as seen after rotation: kind, slots, symbols and the slots of the cities it borders.
type SegmentSignature = (
    FeatureKind,
    SlotMask,
    u8,
    u8,
    u8,
    ([u8; 3], u8, bool),
    Vec<SlotMask>,
);

fn build_def(
    id: &str,
    set: &str,
    count: u32,
    garden: bool,
    edges: [EdgeKind; 4],
    segments: Vec<Segment>,
) -> TileDef {
    let mut slot_segment = [[NO_SEGMENT; SLOTS]; 4];
    let mut edges_at = [[EdgeKind::Field; 4]; 4];
    for r in 0..4u8 {
        for (i, seg) in segments.iter().enumerate() {
            for s in 0..SLOTS {
                if seg.slots & (1 << s) != 0 {
                    slot_segment[r as usize][rotate_slot(s, r)] = i as u8;
                }
            }
        }
        for side in 0..4 {
            edges_at[r as usize][(side + r as usize) % 4] = edges[side];
        }
    }
    let open_slots = slot_segment.map(|slots| {
        (0..SLOTS).fold(0u16, |mask, s| {
            let seg = slots[s];
            let open = seg != NO_SEGMENT && segments[seg as usize].kind.counts_open_at(s % 3);
            mask | ((open as u16) << s)
        })
    });
    // Two rotations are the same placement when the rotated segments coincide as sets.
    let signature = |r: u8| {
        let mut sig: Vec<SegmentSignature> = segments
            .iter()
            .map(|s| {
                let mut adj: Vec<SlotMask> = s
                    .adjacent_cities
                    .iter()
                    .map(|c| rotate_mask(segments[*c as usize].slots, r))
                    .collect();
                adj.sort();
                (
                    s.kind,
                    rotate_mask(s.slots, r),
                    s.pennants,
                    s.inns,
                    s.cathedrals,
                    (s.goods, s.fish_pairs, s.boat),
                    adj,
                )
            })
            .collect();
        sig.sort();
        sig
    };
    let sigs: Vec<_> = (0..4).map(signature).collect();
    let mut canonical_of = [0u8; 4];
    let mut canonical_rotations = 0u8;
    for r in 0..4 {
        let first = (0..=r).find(|q| sigs[*q] == sigs[r]).unwrap();
        canonical_of[r] = first as u8;
        if first == r {
            canonical_rotations |= 1 << r;
        }
    }
    let mut road_exit = [[NO_SIDE; 4]; 4];
    for r in 0..4 {
        for side in 0..4 {
            let seg = slot_segment[r][slot(side, CENTRE)];
            if seg == NO_SEGMENT || segments[seg as usize].kind != FeatureKind::Road {
                continue;
            }
            if let Some(other) =
                (0..4).find(|o| *o != side && slot_segment[r][slot(*o, CENTRE)] == seg)
            {
                road_exit[r][side] = other as u8;
            }
        }
    }
    TileDef {
        road_exit,
        id: id.to_string(),
        set: set.to_string(),
        count,
        edition_counts: Vec::new(),
        garden,
        lake: false,
        start: false,
        edges,
        segments,
        slot_segment,
        open_slots,
        edges_at,
        canonical_rotations,
        canonical_of,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(name: &str) -> TileSet {
        parse_tileset(DataKind::Tiles.builtin_text(name).unwrap(), name).unwrap()
    }

    #[test]
    fn builtin_sets_match_the_spec_counts() {
        let base = set("base");
        assert_eq!(base.tile_count(), 72);
        let pennants: u32 = base
            .tiles
            .iter()
            .map(|t| t.count * t.segments.iter().map(|s| s.pennants as u32).sum::<u32>())
            .sum();
        assert_eq!(pennants, 10);
        let monasteries: u32 = base
            .tiles
            .iter()
            .map(|t| {
                t.count
                    * t.segments
                        .iter()
                        .filter(|s| s.kind == FeatureKind::Monastery)
                        .count() as u32
            })
            .sum();
        assert_eq!(monasteries, 6);
        let gardens: u32 = base
            .tiles
            .iter()
            .filter(|t| t.garden)
            .map(|t| t.count)
            .sum();
        assert_eq!(gardens, 8);
        assert_eq!(set("inns-and-cathedrals").tile_count(), 18);
        let tb = set("traders-and-builders");
        assert_eq!(tb.tile_count(), 24);
        let mut goods = [0u32; 3];
        for t in &tb.tiles {
            for s in &t.segments {
                for g in 0..3 {
                    goods[g] += t.count * s.goods[g] as u32;
                }
            }
        }
        assert_eq!(goods, [9, 6, 5]);
        let ic = set("inns-and-cathedrals");
        let inns: u32 = ic
            .tiles
            .iter()
            .map(|t| t.count * t.segments.iter().map(|s| s.inns as u32).sum::<u32>())
            .sum();
        let cathedrals: u32 = ic
            .tiles
            .iter()
            .map(|t| t.count * t.segments.iter().map(|s| s.cathedrals as u32).sum::<u32>())
            .sum();
        assert_eq!((inns, cathedrals), (6, 2));
        let ferries = set("ferries");
        assert_eq!(ferries.tile_count(), 8);
        assert!(ferries.tiles.iter().all(|t| t.lake));
        let c2: u32 = ferries
            .tiles
            .iter()
            .map(|t| t.edition_counts.iter().find(|(e, _)| e == "C2").unwrap().1)
            .sum();
        assert_eq!(c2, 8);
    }

    #[test]
    fn south_seas_set_meets_decision_s1() {
        let ss = set("south-seas");
        assert_eq!(ss.system, System::SouthSeas);
        assert!(ss.reconstruction.is_some());
        assert_eq!(ss.tile_count(), 73);
        let starts: Vec<&TileDef> = ss.tiles.iter().filter(|t| t.start).collect();
        assert_eq!(starts.len(), 1);
        assert_eq!(starts[0].count, 1);
        let copies_with = |pred: &dyn Fn(&Segment) -> bool| -> u32 {
            ss.tiles
                .iter()
                .filter(|t| t.segments.iter().any(pred))
                .map(|t| t.count)
                .sum()
        };
        assert_eq!(copies_with(&|s| s.kind == FeatureKind::Market), 6);
        assert_eq!(copies_with(&|s| s.boat), 19);
        // Wares: 0 shell (bridges), 1 banana (islands), 2 fish (sea), summed over copies.
        let mut wares = [0u32; 3];
        for t in &ss.tiles {
            for s in &t.segments {
                for (w, total) in wares.iter_mut().enumerate() {
                    *total += t.count * s.goods[w] as u32;
                }
            }
        }
        let (min, max) = (*wares.iter().min().unwrap(), *wares.iter().max().unwrap());
        assert!(min > 0 && max as f64 <= 1.1 * min as f64, "wares {wares:?}");
    }

    #[test]
    fn symmetric_tiles_have_fewer_distinct_rotations() {
        let base = set("base");
        let rots = |id: &str| {
            base.tiles
                .iter()
                .find(|t| t.id == id)
                .unwrap()
                .canonical_rotations
                .count_ones()
        };
        assert_eq!(rots("base/B"), 1); // plain monastery
        assert_eq!(rots("base/C"), 1); // four-sided city
        assert_eq!(rots("base/U"), 2); // straight road
        assert_eq!(rots("base/X"), 1); // crossroads
        assert_eq!(rots("base/D"), 4);
        assert_eq!(rots("base/H"), 2); // two opposite caps
    }

    #[test]
    fn faults_name_file_tile_and_fault() {
        let bad = "name = \"mine\"\n[[tiles]]\nid = \"Z\"\ncount = 1\nedges = \"CCCC\"\nfeatures = \"C(N E S W) ; R(N)\"\n";
        let e = parse_tileset(bad, "mine.toml").unwrap_err();
        assert_eq!(e.file, "mine.toml");
        assert_eq!(e.item.as_deref(), Some("Z"));
        assert!(e.fault.contains("two segments"), "{e}");
        let wrong_edges = bad.replace("; R(N)", "").replace("CCCC", "CCCF");
        let e = parse_tileset(&wrong_edges, "mine.toml").unwrap_err();
        assert!(e.fault.contains("edges say"), "{e}");
        let missing_field = "name = \"m\"\n[[tiles]]\nid = \"Y\"\ncount = 1\nedges = \"FFFF\"\nfeatures = \"F(NL NR EL ER SL SR WL)\"\n";
        let e = parse_tileset(missing_field, "m.toml").unwrap_err();
        assert!(e.fault.contains("side W"), "{e}");
        assert!(
            parse_tileset("name = 3", "x.toml")
                .unwrap_err()
                .fault
                .contains("not a valid tile file")
        );
    }
}
