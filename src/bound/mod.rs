//! Bounding and breaking board classes: classes and partitions, the 2009 bounds, orderly
//! trees, branching by merge, OrderlyBound, and the class breaker that drives them.

mod breaker;
mod class;

pub use breaker::{BreakOutcome, BreakSettings, Candidate, ClassBreaker, TopSplitHooks};
pub use class::{
    ALL_LETTERS, BoardClass, ClassError, ClassSpace, LetterSet, Partition, parse_set, set_string,
};
