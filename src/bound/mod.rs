//! Bounding and breaking board classes: classes and partitions, the 2009 bounds, orderly
//! trees, branching by merge, OrderlyBound, and the class breaker that drives them.

mod bounds2009;
mod breaker;
mod class;
mod orderly_bound;
mod tree;

pub use bounds2009::{max_nomark, sum_union};
pub use breaker::{
    BreakOutcome, BreakSettings, Candidate, ClassBreaker, PAIR_SOURCE_PATHS, TWO_CELL_FEW_PAIRS,
    TWO_CELL_FEW_PAIRS_PATHS, TWO_CELL_MANY_PAIRS, TWO_CELL_MANY_PAIRS_PATHS, TWO_CELL_PAIRS,
    TWO_CELL_PATHS, TopSplitHooks, WHOLE_TREE_PATHS,
};
pub use class::{
    ALL_LETTERS, BoardClass, ClassError, ClassSpace, LetterSet, Partition, parse_set, set_string,
};
pub use orderly_bound::{MirrorPair, OrderlyBound, WalkScratch};
pub use tree::{
    Arena, CellOrder, CellOrderError, MAX_TREE_CELLS, Mark, PathBuffers, SumId, TreeBuilder,
};

#[cfg(test)]
mod tests;
