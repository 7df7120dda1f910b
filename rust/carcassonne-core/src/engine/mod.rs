//! The shared engine: a validated configuration (`rules`) and its options declared once
//! (`options`), points for features
//! (`scoring`), the turn loop with checked and unchecked play (`game`) and its copy
//! (`copy`), one action model for every phase (`action`), and games saved as JSON
//! (`record`).

pub mod action;
mod copy;
pub mod game;
pub mod options;
pub mod record;
pub mod rules;
pub mod scoring;
