//! Playing whole games: players (`players`), games in parallel (`simulate`), results as
//! columns or running totals (`summary`), reshuffling hidden information for search
//! (`determinize`), and every player's score if the game ended now (`virtual_score`).

pub mod determinize;
pub mod players;
pub mod simulate;
pub mod summary;
pub mod virtual_score;
