//! The Ferries (decisions F-1..F-5): ferry links on lake tiles (`state`), the walk to the
//! nearest ferry and moving one (`turn`).

pub mod errors;
pub mod state;
pub mod system;
mod turn;

pub use system::Ferries;
