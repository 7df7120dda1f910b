//! `Clone` for `Game`, field by field (see `clone_by_field!` in `clone.rs`): `clone_from`
//! into a game kept from the last copy reuses every buffer, which a search copying the game
//! thousands of times depends on.

use crate::clone::clone_by_field;
use crate::engine::game::Game;

clone_by_field!(Game {
    rules,
    board,
    features,
    deck,
    next_draw,
    tile,
    current,
    turn,
    scores,
    by_kind,
    supply,
    goods,
    discarded,
    moves,
    events,
    record_events,
    over,
    seed,
    tiles_buf,
    watched_monasteries,
    scratch,
    system,
    extra_turn_due,
    in_extra_turn,
    end_cities,
    end_awards,
});
