//! bogglemax: score Boggle boards, search for high-scoring ones, and prove them optimal by
//! branch and bound over board classes (see DESIGN.md and the paper it follows).
//!
//! The modules follow the pipeline: [`board`] and [`dict`] hold the inputs, [`solve`] scores
//! one board, [`search`] finds good boards (drawing on the seeded generator of [`rng`]),
//! [`bound`] bounds and breaks board classes, and [`pipeline`] turns class breaking into a
//! resumable, sharded proof, which [`report`] shows as one page. The command line is the
//! binary's (src/main.rs and src/cli/).
//!
//! The documentation is written for maintainers as much as for users of the library: read it
//! with `cargo doc --document-private-items`, where the links to private items some public
//! items' docs make (the constants a behaviour depends on) resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod board;
pub mod bound;
pub mod cpu_clock;
pub mod dict;
pub mod failpoint;
pub mod format;
pub mod pipeline;
pub mod progress;
pub mod report;
pub mod rng;
pub mod search;
pub mod solve;
pub mod text;
