//! Every rules option, declared once: its name, what it takes, its default, the rule
//! system it belongs to, its command-line flag and one line of documentation.
//!
//! The binding's `Rules(**options)` converts each keyword by its `OptionKind` and hands
//! the values to `Rules::from_options`, which fills in the defaults (the rule systems'
//! own among them: 9 meeples on a map, 4 islanders in South Seas); the stub, the command
//! line, the report's rules line, `metadata()` and the README's option table are derived
//! from `OPTIONS` (through `Rules.options()` in Python; `tools/options.py` writes the
//! generated parts and `tests/test_options.py` checks they agree). An option is added
//! here and in `RulesSpec` (the serialised configuration), and used where it acts.

use serde_json::{Map, Value};

use crate::data::tileset::System;
use crate::data::{DataKind, DataSource};
use crate::engine::rules::{Rules, RulesError, RulesSpec};
use crate::limits::{MAX_DECK, MAX_MEEPLES, MAX_PLAYERS, MAX_TILE_SET_COPIES, MIN_PLAYERS};

/// What an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Bool,
    /// An integer in `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// A text; one of `choices` unless that is empty.
    Text {
        choices: &'static [&'static str],
    },
    /// A built-in data file's name, or the path of a `.toml` file of that kind.
    File(DataKind),
    /// A sequence of those.
    Files(DataKind),
    /// A map, or two half maps joined (`RulesSpec::map` and `join_map`).
    Map,
    /// Maps: how many start squares, or which (`RulesSpec::start_squares`).
    StartSquares,
    /// Maps: a quarter-turn count or none per start square.
    StartRotations,
    /// Maps: small-town variants, each of 1 to 3 at most once.
    SmallTowns,
}

impl OptionKind {
    /// The Python type of the option's values, as the stub writes it.
    pub fn python_type(self) -> &'static str {
        match self {
            OptionKind::Bool => "bool",
            OptionKind::Int { .. } => "SupportsIndex",
            OptionKind::Text { .. } => "str",
            OptionKind::File(_) => "str | os.PathLike[str]",
            OptionKind::Files(_) => "Iterable[str | os.PathLike[str]]",
            OptionKind::Map => {
                "str | os.PathLike[str] | tuple[str | os.PathLike[str], str | os.PathLike[str]]"
            }
            OptionKind::StartSquares => {
                "SupportsIndex | Iterable[tuple[SupportsIndex, SupportsIndex]]"
            }
            OptionKind::StartRotations => "Iterable[SupportsIndex | None]",
            OptionKind::SmallTowns => "Iterable[SupportsIndex]",
        }
    }

    /// The Python type of the value in effect (`Rules::value_in_effect`), as the stub
    /// writes its property.
    pub fn value_type(self) -> &'static str {
        match self {
            OptionKind::Bool => "bool",
            OptionKind::Int { .. } => "int",
            OptionKind::Text { .. } | OptionKind::File(_) => "str",
            OptionKind::Files(_) => "list[str]",
            OptionKind::Map => "str | None",
            OptionKind::StartSquares => "int | None",
            OptionKind::StartRotations => "list[int | None]",
            OptionKind::SmallTowns => "list[int]",
        }
    }

    /// The kind of data file it names, if it names one.
    pub fn data_kind(self) -> Option<DataKind> {
        match self {
            OptionKind::File(kind) | OptionKind::Files(kind) => Some(kind),
            OptionKind::Map => Some(DataKind::Map),
            _ => None,
        }
    }

    /// A short name of the kind (`Rules.options()`, the README's table).
    pub fn name(self) -> &'static str {
        match self {
            OptionKind::Bool => "bool",
            OptionKind::Int { .. } => "int",
            OptionKind::Text { .. } => "text",
            OptionKind::File(_) => "file",
            OptionKind::Files(_) => "files",
            OptionKind::Map => "map",
            OptionKind::StartSquares => "start squares",
            OptionKind::StartRotations => "rotations",
            OptionKind::SmallTowns => "variants",
        }
    }
}

/// The rule system an option belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every rule system.
    Every,
    /// Classic Carcassonne (with its expansions and Maps).
    Classic,
    /// The Ferries' lake tiles.
    Ferries,
    /// Carcassonne Maps.
    Maps,
    /// South Seas.
    SouthSeas,
    /// South Seas with Friday.
    Friday,
}

impl Scope {
    /// Whether the options of this scope act in a game of `rules`.
    pub fn applies(self, rules: &Rules) -> bool {
        match self {
            Scope::Every => true,
            Scope::Classic => rules.system == System::Classic,
            Scope::Ferries => rules.ferries,
            Scope::Maps => rules.spec.map.is_some(),
            Scope::SouthSeas => rules.system == System::SouthSeas,
            Scope::Friday => rules.spec.friday,
        }
    }

    /// Whether `Rules`' repr writes the options of this scope: those of the rule system
    /// played (The Ferries' with every classic game, being classic options), Maps' and
    /// Friday's only when played.
    pub fn in_repr(self, rules: &Rules) -> bool {
        match self {
            Scope::Ferries => rules.system == System::Classic,
            other => other.applies(rules),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::Every => "every",
            Scope::Classic => "classic",
            Scope::Ferries => "ferries",
            Scope::Maps => "maps",
            Scope::SouthSeas => "south-seas",
            Scope::Friday => "friday",
        }
    }
}

/// One rules option.
#[derive(Clone, Copy, Debug)]
pub struct RuleOption {
    /// The keyword of `Rules(...)` and the key of `RulesSpec` it sets.
    pub name: &'static str,
    pub kind: OptionKind,
    /// Its value when not given, as Python writes it; `None`: chosen as `doc` says.
    pub default: &'static str,
    pub scope: Scope,
    /// The command-line flag of `carcassonne simulate` (without `--`); for a flag of a
    /// `Bool` that defaults to true, giving it turns the option off. Empty: no flag (the
    /// command line sets it otherwise, as `players` from the lineup).
    pub flag: &'static str,
    /// What the option is named in messages.
    pub label: &'static str,
    /// How a report names it with its value (`{}`); a `Bool` is named when on, and with
    /// "no " before when off against a default of on.
    pub summary: &'static str,
    /// One line: what it does.
    pub doc: &'static str,
    /// The `Rules` property that reads its value in effect (the option's name but for
    /// `ship_set` and `friday_set`, whose names hold richer views).
    pub property: &'static str,
    /// Its value in effect where that is not the value given (`Rules::given_value`):
    /// the rule system's choice (a map's start squares, the deck's size...).
    pub in_effect: Option<fn(&Rules) -> Value>,
}

/// Every option, in the order of `Rules(...)`'s keywords.
pub const OPTIONS: [RuleOption; 19] = [
    RuleOption {
        name: "players",
        kind: OptionKind::Int {
            min: MIN_PLAYERS as i64,
            max: MAX_PLAYERS as i64,
        },
        default: "2",
        scope: Scope::Every,
        flag: "",
        label: "players",
        summary: "{} players",
        doc: "Players (South Seas: at most 5).",
        property: "players",
        in_effect: None,
    },
    RuleOption {
        name: "meeples",
        kind: OptionKind::Int {
            min: 0,
            max: MAX_MEEPLES as i64,
        },
        default: "None",
        scope: Scope::Every,
        flag: "meeples",
        label: "meeples per player",
        summary: "{} meeples",
        doc: "Meeples (islanders) per player; default 7, 9 on a map, 4 in South Seas.",
        property: "meeples",
        in_effect: None,
    },
    RuleOption {
        name: "tile_sets",
        kind: OptionKind::Files(DataKind::Tiles),
        default: "None",
        scope: Scope::Every,
        flag: "tile-sets",
        label: "tile_sets",
        summary: "tile sets {}",
        doc: "Tile sets (built-in names or .toml files); default base, on a map base, inns-and-cathedrals and traders-and-builders.",
        property: "tile_sets",
        in_effect: None,
    },
    RuleOption {
        name: "start_tile",
        kind: OptionKind::Text { choices: &[] },
        default: "None",
        scope: Scope::Every,
        flag: "start-tile",
        label: "start_tile",
        summary: "start tile {}",
        doc: "Full id of the start tile; default the one the sets mark (base/D).",
        property: "start_tile",
        in_effect: Some(|r| r.tiles[r.start_tile as usize].id.clone().into()),
    },
    RuleOption {
        name: "farmers",
        kind: OptionKind::Bool,
        default: "True",
        scope: Scope::Classic,
        flag: "no-farmers",
        label: "farmers",
        summary: "farmers",
        doc: "Meeples may lie on fields, and fields score at the end.",
        property: "farmers",
        in_effect: None,
    },
    RuleOption {
        name: "inns_and_cathedrals_scoring",
        kind: OptionKind::Bool,
        default: "False",
        scope: Scope::Classic,
        flag: "inns-and-cathedrals",
        label: "inns_and_cathedrals_scoring",
        summary: "Inns & Cathedrals scoring",
        doc: "Inns & Cathedrals scoring: inn roads 2 per tile, cathedral cities 3 per tile and pennant, 0 if incomplete (C-4).",
        property: "inns_and_cathedrals_scoring",
        in_effect: None,
    },
    RuleOption {
        name: "traders_goods",
        kind: OptionKind::Bool,
        default: "False",
        scope: Scope::Classic,
        flag: "traders-goods",
        label: "traders_goods",
        summary: "Traders & Builders goods",
        doc: "Traders & Builders goods: completing a city takes its goods; 10 points per majority of each good at the end.",
        property: "traders_goods",
        in_effect: None,
    },
    RuleOption {
        name: "ferries_edition",
        kind: OptionKind::Text {
            choices: &["C3", "C2"],
        },
        default: "\"C3\"",
        scope: Scope::Ferries,
        flag: "ferries-edition",
        label: "ferries_edition",
        summary: "{} lakes",
        doc: "The Ferries: which edition's lake tile counts (F-1).",
        property: "ferries_edition",
        in_effect: None,
    },
    RuleOption {
        name: "ships",
        kind: OptionKind::File(DataKind::Ships),
        default: "None",
        scope: Scope::SouthSeas,
        flag: "ships",
        label: "ships",
        summary: "ships {}",
        doc: "South Seas: the ship set (a built-in name or a .toml file); default south-seas.",
        property: "ship_set",
        in_effect: None,
    },
    RuleOption {
        name: "retrieve_only_when_supply_empty",
        kind: OptionKind::Bool,
        default: "False",
        scope: Scope::SouthSeas,
        flag: "retrieve-only-when-supply-empty",
        label: "retrieve_only_when_supply_empty",
        summary: "islanders taken back only with an empty supply",
        doc: "South Seas: an islander is taken back only with an empty supply (S-3).",
        property: "retrieve_only_when_supply_empty",
        in_effect: None,
    },
    RuleOption {
        name: "boat_evaluates_unoccupied",
        kind: OptionKind::Bool,
        default: "False",
        scope: Scope::SouthSeas,
        flag: "boat-evaluates-unoccupied",
        label: "boat_evaluates_unoccupied",
        summary: "boats cover unoccupied fish",
        doc: "South Seas: a fishing boat covers fish even where nobody fishes (S-4).",
        property: "boat_evaluates_unoccupied",
        in_effect: None,
    },
    RuleOption {
        name: "friday",
        kind: OptionKind::Bool,
        default: "False",
        scope: Scope::SouthSeas,
        flag: "friday",
        label: "friday",
        summary: "Friday",
        doc: "South Seas: play with the Friday expansion (S-8).",
        property: "friday",
        in_effect: None,
    },
    RuleOption {
        name: "friday_tiles",
        kind: OptionKind::File(DataKind::Friday),
        default: "None",
        scope: Scope::Friday,
        flag: "friday-tiles",
        label: "friday_tiles",
        summary: "Friday tiles {}",
        doc: "Friday: the bonus file (a built-in name or a .toml file); default friday.",
        property: "friday_set",
        in_effect: None,
    },
    RuleOption {
        name: "map",
        kind: OptionKind::Map,
        default: "None",
        scope: Scope::Maps,
        flag: "map",
        label: "map",
        summary: "map {}",
        doc: "Carcassonne Maps: the map (a built-in name, a .toml file, or two half maps joined); default the open table.",
        property: "map",
        in_effect: None,
    },
    RuleOption {
        name: "start_squares",
        kind: OptionKind::StartSquares,
        default: "None",
        scope: Scope::Maps,
        flag: "start-squares",
        label: "start_squares",
        summary: "start squares {}",
        doc: "Maps: how many start squares get a tile, or which (column, row); default the map's recommendation (M-12).",
        property: "start_squares",
        in_effect: Some(|r| {
            r.spec
                .map
                .as_ref()
                .map_or(Value::Null, |_| r.start_squares.into())
        }),
    },
    RuleOption {
        name: "start_rotations",
        kind: OptionKind::StartRotations,
        default: "None",
        scope: Scope::Maps,
        flag: "start-rotations",
        label: "start_rotations",
        summary: "start rotations {}",
        doc: "Maps: quarter turns of each start square's tile, None for the first that fits (M-12).",
        property: "start_rotations",
        in_effect: Some(|r| {
            r.starts
                .iter()
                .map(|s| s.rotation)
                .collect::<Vec<_>>()
                .into()
        }),
    },
    RuleOption {
        name: "tile_set_copies",
        kind: OptionKind::Int {
            min: 1,
            max: MAX_TILE_SET_COPIES as i64,
        },
        default: "None",
        scope: Scope::Maps,
        flag: "tile-set-copies",
        label: "tile_set_copies",
        summary: "tile sets taken {} times",
        doc: "Maps: times the tile sets are taken (one start tile out); default the multiple nearest the map's recommended tiles (2 for west+east's 230, 1 for 110-120).",
        property: "tile_set_copies",
        in_effect: Some(|r| {
            r.spec
                .map
                .as_ref()
                .map_or(Value::Null, |_| r.tile_set_copies.into())
        }),
    },
    RuleOption {
        name: "deck_size",
        kind: OptionKind::Int {
            min: 0,
            max: MAX_DECK as i64,
        },
        default: "None",
        scope: Scope::Maps,
        flag: "deck-size",
        label: "deck_size",
        summary: "{} tiles in the deck",
        doc: "Maps: tiles in the deck, at most the sets' tiles taken tile_set_copies times less the start tile; default the map's recommendation as far as they reach.",
        property: "deck_size",
        in_effect: Some(|r| r.deck_limit.into()),
    },
    RuleOption {
        name: "small_towns",
        kind: OptionKind::SmallTowns,
        default: "None",
        scope: Scope::Maps,
        flag: "small-towns",
        label: "small_towns",
        summary: "small-town variants {}",
        doc: "Maps: small-town variants 1 (extra turn), 2 (penalty), 3 (road bonus) (M-4).",
        property: "small_towns",
        // The given list (sorted by `Rules::new`), also when empty (left out of the JSON).
        in_effect: Some(|r| r.spec.small_towns.clone().into()),
    },
];

/// The option named `name`.
pub fn option(name: &str) -> Option<&'static RuleOption> {
    OPTIONS.iter().find(|o| o.name == name)
}

impl Rules {
    /// Rules from the options a user gave (`RulesSpec` keys and their JSON values, as the
    /// binding converts them by `OptionKind`; a `Map` option's value is `[map]` or
    /// `[map, join_map]`); every other option takes its default, the rule systems' own
    /// included: on a map the Maps tile sets and 9 meeples (M-3), in South Seas 4
    /// islanders and the sets' own start tile. A ship set or a Friday file given for a
    /// game without South Seas or Friday is refused, even when it names the default.
    pub fn from_options(mut given: Map<String, Value>) -> Result<Rules, RulesError> {
        let on_map = given.contains_key("map");
        let meeples_given = given.contains_key("meeples");
        let ships_given = given.contains_key("ships");
        let friday_tiles_given = given.contains_key("friday_tiles");
        let mut spec = RulesSpec {
            // Empty: the tile the sets mark as the start tile (base/D in classic games).
            start_tile: String::new(),
            ..RulesSpec::default()
        };
        if on_map {
            let maps = RulesSpec::maps("", spec.players);
            spec.tile_sets = maps.tile_sets;
            spec.meeples = maps.meeples;
        }
        let mut json = match serde_json::to_value(&spec) {
            Ok(Value::Object(fields)) => fields,
            _ => unreachable!("RulesSpec serialises to an object"),
        };
        if let Some(Value::Array(maps)) = given.remove("map") {
            let mut maps = maps.into_iter();
            json.insert("map".into(), maps.next().unwrap_or(Value::Null));
            if let Some(second) = maps.next() {
                json.insert("join_map".into(), second);
            }
        }
        json.extend(given);
        let spec: RulesSpec = serde_json::from_value(Value::Object(json))
            .map_err(|e| RulesError::Option(e.to_string()))?;
        let mut rules = Rules::new(spec)?;
        if !meeples_given && rules.system == System::SouthSeas {
            // The system is known only once the tile files are read. `Rules::new` derives
            // nothing from the meeples and only checks their range, which 4 is in: set on
            // the validated rules rather than reading and checking everything again.
            rules.spec.meeples = RulesSpec::south_seas(rules.spec.players).meeples;
        }
        if ships_given && rules.system != System::SouthSeas {
            return Err(RulesError::ShipsNeedSouthSeas);
        }
        if friday_tiles_given && !rules.spec.friday {
            return Err(RulesError::FridayTilesNeedFriday);
        }
        Ok(rules)
    }
}

impl Rules {
    /// The value `option` was given, or filled in with by `from_options` (the rule
    /// system's meeples and tile sets), as JSON: data files by their labels (a joined map
    /// as "first+second"); null where the rule system chooses (a map's start squares).
    pub fn given_value(&self, option: &RuleOption) -> Value {
        given_in(&self.spec_fields(), option)
    }

    /// `given_value` of every option, in the declarations' order (`filter` chooses
    /// which), the configuration read once.
    pub fn given_values(
        &self,
        filter: impl Fn(&RuleOption) -> bool,
    ) -> Vec<(&'static RuleOption, Value)> {
        let fields = self.spec_fields();
        OPTIONS
            .iter()
            .filter(|o| filter(o))
            .map(|o| (o, given_in(&fields, o)))
            .collect()
    }

    /// The serialised configuration's fields, by option name.
    fn spec_fields(&self) -> Map<String, Value> {
        let Ok(Value::Object(fields)) = serde_json::to_value(&self.spec) else {
            unreachable!("RulesSpec serialises to an object")
        };
        fields
    }

    /// The value of `option` these rules play with: the value given, or what the rule
    /// system chose (`RuleOption::in_effect`). The `Rules` properties read it.
    pub fn value_in_effect(&self, option: &RuleOption) -> Value {
        match option.in_effect {
            Some(derive) => derive(self),
            None => self.given_value(option),
        }
    }

    /// The value given of every option that acts in these rules (`Scope::applies`), in
    /// the declarations' order: what `metadata()` and the report record.
    pub fn option_values(&self) -> Vec<(&'static RuleOption, Value)> {
        self.given_values(|o| o.scope.applies(self))
    }
}

/// The value given of `option` in the configuration's `fields` (`Rules::given_value`).
fn given_in(fields: &Map<String, Value>, option: &RuleOption) -> Value {
    let value = fields.get(option.name).unwrap_or(&Value::Null);
    let label = |v: &Value| match serde_json::from_value::<DataSource>(v.clone()) {
        Ok(source) => Value::String(source.label().to_string()),
        Err(_) => Value::Null,
    };
    match option.kind {
        OptionKind::File(_) => label(value),
        OptionKind::Files(_) => match value {
            Value::Array(items) => Value::Array(items.iter().map(label).collect()),
            _ => Value::Null,
        },
        OptionKind::Map => match (label(value), fields.get("join_map").map(label)) {
            (Value::String(a), Some(Value::String(b))) => Value::String(format!("{a}+{b}")),
            (first, _) => first,
        },
        _ => value.clone(),
    }
}

/// A data source as `Rules::from_options` takes it.
pub fn source_value(source: &DataSource) -> Value {
    serde_json::to_value(source).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option sets a `RulesSpec` key, and every key but `join_map` (set by `map`)
    /// is an option: the declaration and the configuration cannot drift apart.
    #[test]
    fn options_and_spec_agree() {
        let full = RulesSpec {
            map: Some(DataSource::Builtin("west".into())),
            join_map: Some(DataSource::Builtin("east".into())),
            start_squares: Some(crate::engine::rules::StartSquares::Count(1)),
            start_rotations: vec![None],
            tile_set_copies: Some(2),
            deck_size: Some(10),
            small_towns: vec![1],
            ..RulesSpec::default()
        };
        let Value::Object(keys) = serde_json::to_value(full).unwrap() else {
            panic!("RulesSpec is an object");
        };
        let mut spec_keys: Vec<&str> = keys
            .keys()
            .map(|k| k.as_str())
            .filter(|k| *k != "join_map")
            .collect();
        let mut names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
        spec_keys.sort_unstable();
        names.sort_unstable();
        assert_eq!(spec_keys, names);
        let mut flags: Vec<&str> = OPTIONS
            .iter()
            .map(|o| o.flag)
            .filter(|f| !f.is_empty())
            .collect();
        let n = flags.len();
        flags.sort_unstable();
        flags.dedup();
        assert_eq!(flags.len(), n, "two options share a flag");
        assert_eq!(option("friday").map(|o| o.scope), Some(Scope::SouthSeas));
        assert!(option("fridayy").is_none());
    }

    #[test]
    fn defaults_of_the_rule_systems_come_from_the_core() {
        let plain = Rules::from_options(Map::new()).unwrap();
        assert_eq!(plain.spec.meeples, 7);
        assert_eq!(plain.spec.tile_sets, DataSource::builtins(&["base"]));
        let mut on_map = Map::new();
        on_map.insert(
            "map".into(),
            Value::Array(vec![source_value(&DataSource::Builtin("coastal".into()))]),
        );
        let maps = Rules::from_options(on_map).unwrap();
        assert_eq!(maps.spec.meeples, 9);
        assert_eq!(maps.spec.tile_sets.len(), 3);
        let mut seas = Map::new();
        seas.insert(
            "tile_sets".into(),
            Value::Array(vec![source_value(&DataSource::Builtin(
                "south-seas".into(),
            ))]),
        );
        let seas = Rules::from_options(seas).unwrap();
        assert_eq!(seas.system, System::SouthSeas);
        assert_eq!(seas.spec.meeples, 4);
        // The same rules as validated with 4 islanders from the start: the same games.
        let direct = Rules::new(RulesSpec::south_seas(2)).unwrap();
        assert_eq!(seas.spec, direct.spec);
        let games = |rules: Rules| {
            let rules = std::sync::Arc::new(rules);
            crate::play::simulate::simulate(&rules, 30, 0, 7, crate::Policy::Random, Some(1))
                .unwrap()
        };
        assert_eq!(games(seas), games(direct));
        let mut ships = Map::new();
        ships.insert(
            "ships".into(),
            source_value(&DataSource::Builtin("south-seas".into())),
        );
        assert_eq!(
            Rules::from_options(ships).err(),
            Some(RulesError::ShipsNeedSouthSeas)
        );
        let mut friday_tiles = Map::new();
        friday_tiles.insert(
            "friday_tiles".into(),
            source_value(&DataSource::Builtin("friday".into())),
        );
        assert_eq!(
            Rules::from_options(friday_tiles).err(),
            Some(RulesError::FridayTilesNeedFriday)
        );
    }
}
