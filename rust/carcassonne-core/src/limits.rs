//! Sizes every layer agrees on, in one module that imports nothing, so that no lower
//! module needs the rules (or the tile files) for a constant.

/// Most players a game takes (the engine's fixed per-player arrays).
pub const MAX_PLAYERS: usize = 6;
/// South Seas: 4 islanders in each of 5 colours.
pub const MAX_PLAYERS_SOUTH_SEAS: usize = 5;
pub const MIN_PLAYERS: usize = 2;
/// Upper bound on meeples per player, far above any published variant.
pub const MAX_MEEPLES: u32 = 99;
/// Most tiles a deck may hold (the start tile not counted). A tile's count is checked
/// against it when its file is read, and the sum of all counts by `Rules::new`, before any
/// deck is built.
pub const MAX_DECK: usize = 4000;
/// Most times a game may take its tile sets (`RulesSpec::tile_set_copies`, Carcassonne
/// Maps): the joined USA maps ask for two; a deck still holds at most `MAX_DECK` tiles.
pub const MAX_TILE_SET_COPIES: u32 = 8;
