//! One loader for every data file: tile sets, ship sets, Friday bonuses and maps.
//!
//! A data file is named by a `DataSource`: a built-in file compiled into the library, or a
//! user's file whose text was read when the rules were made (so rules and game records are
//! self-contained). This module finds the text, refuses files over `MAX_DATA_FILE_BYTES`
//! before parsing them, and decodes the TOML with error messages of bounded size (line,
//! column and a short excerpt). What the decoded file means is checked by each kind's own
//! parser (`tileset` and `map` here; South Seas' `ships` and `friday_tiles` in its folder).

pub mod map;
pub mod tileset;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::quote::{FAULT_CHARS, cap_to, excerpt_at, path, quote};

/// Largest data file accepted, in bytes (1 MiB). The built-in files are under 10 kB; a
/// tile file at the deck limit of 4,000 distinct tiles takes about 400 kB.
pub const MAX_DATA_FILE_BYTES: usize = 1 << 20;

/// Where a data file comes from: compiled in, or a user's file (its text is kept, so a
/// saved game is self-contained).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DataSource {
    Builtin(String),
    File { path: String, toml: String },
}

impl DataSource {
    /// The built-in files of the given names, in order.
    pub fn builtins(names: &[&str]) -> Vec<DataSource> {
        names
            .iter()
            .map(|n| DataSource::Builtin(n.to_string()))
            .collect()
    }

    /// The data file `name` names: a built-in file of `kind`, or a user's file read now (a
    /// path ending in `.toml`, or any path that exists), so that rules and records are
    /// self-contained. A path that is not a regular file (a directory, FIFO or device) is
    /// refused unread, one over `MAX_DATA_FILE_BYTES` by its size before it is read (and
    /// again after, in case it grew).
    pub fn named(kind: DataKind, name: &str) -> Result<DataSource, SourceError> {
        if kind.builtin_text(name).is_some() {
            return Ok(DataSource::Builtin(name.to_string()));
        }
        let path = std::path::Path::new(name);
        if !(name.ends_with(".toml") || path.exists()) {
            return Err(SourceError::UnknownBuiltin(kind, name.to_string()));
        }
        let cannot = |why: String| SourceError::Unreadable {
            kind,
            file: name.to_string(),
            why,
        };
        let meta = std::fs::metadata(path).map_err(|e| cannot(e.to_string()))?;
        if !meta.is_file() {
            return Err(cannot("not a regular file".into()));
        }
        check_size(kind, name, meta.len())?;
        // Read at most one byte past the limit, in case the file grew since.
        let mut bytes = Vec::new();
        use std::io::Read;
        std::fs::File::open(path)
            .and_then(|f| {
                f.take(MAX_DATA_FILE_BYTES as u64 + 1)
                    .read_to_end(&mut bytes)
            })
            .map_err(|e| cannot(e.to_string()))?;
        check_size(kind, name, bytes.len() as u64)?;
        let toml = String::from_utf8(bytes).map_err(|e| cannot(e.to_string()))?;
        Ok(DataSource::File {
            path: name.to_string(),
            toml,
        })
    }

    /// The built-in name or the file's path.
    pub fn label(&self) -> &str {
        match self {
            DataSource::Builtin(name) => name,
            DataSource::File { path, .. } => path,
        }
    }
}

/// The kinds of data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    Tiles,
    Ships,
    Friday,
    Map,
}

const BUILTIN_TILES: [(&str, &str); 5] = [
    ("base", include_str!("../../data/base.toml")),
    (
        "inns-and-cathedrals",
        include_str!("../../data/inns-and-cathedrals.toml"),
    ),
    (
        "traders-and-builders",
        include_str!("../../data/traders-and-builders.toml"),
    ),
    ("ferries", include_str!("../../data/ferries.toml")),
    ("south-seas", include_str!("../../data/south-seas.toml")),
];

const BUILTIN_SHIPS: [(&str, &str); 1] = [(
    "south-seas",
    include_str!("../../data/south-seas-ships.toml"),
)];

const BUILTIN_FRIDAY: [(&str, &str); 1] = [("friday", include_str!("../../data/friday.toml"))];

const BUILTIN_MAPS: [(&str, &str); 5] = [
    (
        "continental",
        include_str!("../../data/maps/continental.toml"),
    ),
    ("northern", include_str!("../../data/maps/northern.toml")),
    ("coastal", include_str!("../../data/maps/coastal.toml")),
    ("west", include_str!("../../data/maps/west.toml")),
    ("east", include_str!("../../data/maps/east.toml")),
];

impl DataKind {
    /// The files compiled into the library, as (name, text).
    pub fn builtins(self) -> &'static [(&'static str, &'static str)] {
        match self {
            DataKind::Tiles => &BUILTIN_TILES,
            DataKind::Ships => &BUILTIN_SHIPS,
            DataKind::Friday => &BUILTIN_FRIDAY,
            DataKind::Map => &BUILTIN_MAPS,
        }
    }

    /// Names of the built-in files.
    pub fn builtin_names(self) -> Vec<&'static str> {
        self.builtins().iter().map(|(n, _)| *n).collect()
    }

    /// The text of the built-in file `name`.
    pub fn builtin_text(self, name: &str) -> Option<&'static str> {
        self.builtins()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }

    /// How messages name a file of this kind: "tile file", "ship file", "Friday file".
    pub fn file_noun(self) -> &'static str {
        match self {
            DataKind::Tiles => "tile file",
            DataKind::Ships => "ship file",
            DataKind::Friday => "Friday file",
            DataKind::Map => "map file",
        }
    }
}

impl DataKind {
    /// How messages name one entry of a file of this kind.
    pub fn item_noun(self) -> &'static str {
        match self {
            DataKind::Tiles => "tile",
            DataKind::Ships => "ship",
            DataKind::Friday => "Friday tile",
            DataKind::Map => "legend entry",
        }
    }
}

/// A malformed or inconsistent data file: names the file, the entry (a tile, ship or
/// Friday tile, when the fault is in one) and the fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    pub file: String,
    pub kind: DataKind,
    pub item: Option<String>,
    pub fault: String,
}

impl DataError {
    /// The error-maker of one file's parser: `err(item, fault)`.
    pub fn maker(file: &str, kind: DataKind) -> impl Fn(Option<&str>, String) -> DataError {
        move |item, fault| DataError {
            file: file.to_string(),
            kind,
            item: item.map(str::to_string),
            fault,
        }
    }
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The file, entry and fault may repeat what the user wrote: all of it is cut short.
        let file = path(&self.file);
        let fault = cap_to(&self.fault, FAULT_CHARS);
        match &self.item {
            Some(item) => write!(
                f,
                "{file}: {} {}: {fault}",
                self.kind.item_noun(),
                quote(item)
            ),
            None => write!(f, "{file}: {fault}"),
        }
    }
}

impl std::error::Error for DataError {}

/// Why a data file could not be found or read (before its contents are judged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceError {
    /// No built-in file of this kind has the name.
    UnknownBuiltin(DataKind, String),
    /// The file is larger than `MAX_DATA_FILE_BYTES`.
    TooLarge {
        kind: DataKind,
        file: String,
        bytes: u64,
    },
    /// A path that is not a regular file (a directory, FIFO or device), cannot be read,
    /// or is not UTF-8.
    Unreadable {
        kind: DataKind,
        file: String,
        why: String,
    },
}

impl std::fmt::Display for SourceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SourceError::UnknownBuiltin(kind, name) => {
                let names: Vec<String> = kind.builtin_names().iter().map(|n| quote(n)).collect();
                write!(
                    f,
                    "unknown {} {}: use {} or the path of a .toml {}",
                    match kind {
                        DataKind::Tiles => "tile set",
                        DataKind::Ships => "ship set",
                        DataKind::Friday => "Friday set",
                        DataKind::Map => "map",
                    },
                    quote(name),
                    names.join(", "),
                    kind.file_noun()
                )
            }
            SourceError::TooLarge { kind, file, bytes } => write!(
                f,
                "{}: the {} has {bytes} bytes, more than the {MAX_DATA_FILE_BYTES} a data file may have",
                path(file),
                kind.file_noun()
            ),
            SourceError::Unreadable { kind, file, why } => write!(
                f,
                "{}: cannot read the {}: {why}",
                path(file),
                kind.file_noun()
            ),
        }
    }
}

impl std::error::Error for SourceError {}

/// The text of a data file, checked for size before anyone parses it.
pub fn source_text(source: &DataSource, kind: DataKind) -> Result<&str, SourceError> {
    let text = match source {
        DataSource::Builtin(name) => kind
            .builtin_text(name)
            .ok_or_else(|| SourceError::UnknownBuiltin(kind, name.clone()))?,
        DataSource::File { toml, .. } => toml,
    };
    check_size(kind, source.label(), text.len() as u64)?;
    Ok(text)
}

/// Refuses a file of `bytes` bytes over `MAX_DATA_FILE_BYTES` (also used on a file's
/// size before it is read).
pub fn check_size(kind: DataKind, file: &str, bytes: u64) -> Result<(), SourceError> {
    if bytes > MAX_DATA_FILE_BYTES as u64 {
        return Err(SourceError::TooLarge {
            kind,
            file: file.to_string(),
            bytes,
        });
    }
    Ok(())
}

/// Decodes a data file's TOML into `T`. The fault names the line and column with a short
/// excerpt, never the whole input.
pub fn decode<T: DeserializeOwned>(text: &str, kind: DataKind) -> Result<T, String> {
    toml::from_str(text).map_err(|e| {
        let at = e
            .span()
            .map(|span| format!(" at {}", excerpt_at(text, span.start)))
            .unwrap_or_default();
        // The message names the fault (missing field, wrong type, ...); keys and values
        // it repeats are the user's, so it is cut like any quote.
        let message = crate::quote::cap_to(e.message().trim(), 300);
        format!("not a valid {}{at}: {message}", kind.file_noun())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oversized_files_are_refused_before_parsing() {
        let big = DataSource::File {
            path: "big.toml".into(),
            toml: "#".repeat(MAX_DATA_FILE_BYTES + 1),
        };
        let e = source_text(&big, DataKind::Tiles).unwrap_err();
        assert!(e.to_string().contains("more than the 1048576"), "{e}");
        let unknown = DataSource::Builtin("nope".into());
        let e = source_text(&unknown, DataKind::Ships).unwrap_err();
        assert!(e.to_string().contains("\"south-seas\""), "{e}");
    }

    #[test]
    fn named_files_are_read_now_and_special_files_refused_unread() {
        assert_eq!(
            DataSource::named(DataKind::Map, "coastal"),
            Ok(DataSource::Builtin("coastal".into()))
        );
        let unknown = DataSource::named(DataKind::Tiles, "nope").unwrap_err();
        assert_eq!(
            unknown,
            SourceError::UnknownBuiltin(DataKind::Tiles, "nope".into())
        );
        let dir = std::env::temp_dir().join(format!("carcassonne-named-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let folder = dir.join("folder.toml");
        std::fs::create_dir_all(&folder).unwrap();
        let e = DataSource::named(DataKind::Tiles, folder.to_str().unwrap()).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("cannot read the tile file: not a regular file"),
            "{e}"
        );
        let missing = dir.join("missing.toml");
        let e = DataSource::named(DataKind::Ships, missing.to_str().unwrap()).unwrap_err();
        assert!(matches!(e, SourceError::Unreadable { .. }), "{e}");
        let big = dir.join("big.toml");
        std::fs::write(&big, "#".repeat(MAX_DATA_FILE_BYTES + 1)).unwrap();
        let e = DataSource::named(DataKind::Friday, big.to_str().unwrap()).unwrap_err();
        assert!(matches!(e, SourceError::TooLarge { .. }), "{e}");
        let small = dir.join("small.toml");
        std::fs::write(&small, "name = 'x'\n").unwrap();
        let read = DataSource::named(DataKind::Map, small.to_str().unwrap()).unwrap();
        assert_eq!(
            read,
            DataSource::File {
                path: small.to_str().unwrap().into(),
                toml: "name = 'x'\n".into()
            }
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn decode_errors_are_short_and_placed() {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct T {
            name: String,
        }
        let text = format!("name = 3\nother = \"{}\"\n", "x".repeat(100_000));
        let e = decode::<T>(&text, DataKind::Ships).unwrap_err();
        assert!(e.len() < 600, "{e}");
        assert!(e.contains("line 1, column 8"), "{e}");
    }
}
