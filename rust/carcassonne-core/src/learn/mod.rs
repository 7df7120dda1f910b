//! What a learning agent needs from the engine: a fixed integer action space per rules
//! configuration (`action_space`), the board window its placements and board planes are
//! laid out in (`window`), the codec between the engine's actions and the agent's
//! integer actions, with the masks of the legal ones (`codec`), and observations written
//! into the caller's buffers (`observation`, from the per-feature facts of
//! `feature_facts`); what an end is worth (`outcome`) and a PUCT search that takes a
//! learned evaluation (`search`).
//!
//! An engine action (`play::action::Action`) is one or more agent actions, its tokens: a
//! placement is its square and rotation, then its meeple (or, in South Seas, the islander
//! taken back instead), then, with The Ferries, its ferry and ferry moves and a closing
//! token; every other decision is one token. Each kind of token has its own block of the
//! action space, so an index means one thing in every position (see `ActionSpace`).

pub mod action_space;
pub mod codec;
pub mod feature_facts;
pub mod observation;
pub mod outcome;
pub mod search;
pub mod system_parts;
pub mod value;
pub mod vector_env;
pub mod window;
