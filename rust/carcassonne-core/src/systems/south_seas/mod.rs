//! Carcassonne: South Seas (decisions S-3..S-8): its state and decisions (`state`), its
//! turn (`turn`), ships and their payments (`ships`), and Friday (`friday_tiles`, the
//! bonus data; `friday`, its turn code).

pub mod errors;
mod friday;
pub mod friday_tiles;
pub mod ships;
pub mod state;
pub mod system;
mod turn;

pub use system::SouthSeas;
