//! Playing games: one action model for every phase (`action`), games saved as JSON and
//! replayed (`record`), players (`players`), games in parallel (`simulate`), results as
//! columns or running totals (`summary`), reshuffling hidden information for search
//! (`determinize`), and every player's score if the game ended now (`virtual_score`).
//! Everything here starts and plays games through `Game`'s entry points
//! (`systems::any`), so it sits above the rule systems.

pub mod action;
pub mod determinize;
pub mod players;
pub mod record;
pub mod simulate;
pub mod summary;
pub mod virtual_score;
