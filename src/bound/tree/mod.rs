//! Orderly sum/choice trees in an arena: building one for a class, merging, branching.
//!
//! Five parts: [`order`] (the cell order the tree follows), [`arena`] (storage, bounds,
//! merge and branch), [`atoms`] (the word list by groups of letters a class cannot tell
//! apart, which the builder walks), [`paths`] (the word paths a build collects and sorts, and
//! their buffers) and [`builder`] (the tree of a class from the word list).
//!
//! # The tree
//! A sum node holds `points` and choice-node children; a choice node holds a cell and one
//! sum-node child per letter. `Bound(sum) = points + Σ Bound(children)`,
//! `Bound(choice) = max Bound(children)`. Every word path of the class is added with its
//! (cell, letter) choices sorted by the cell order (position 0 = the top of the tree), so a
//! choice node's cell always comes after its ancestors' in that order (the orderly property).
//!
//! # The invariant (the paper's, with de-duplication)
//! `Force(T, B)` sums the points of every sum node whose path of choices board `B`
//! realises. For the built tree, `Force(T, B) = DeMulti(B)` for every board `B` of the class:
//! each (word, set of (cell, letter) choices) is added once, and on a fixed board a word's
//! cell set determines its letters. `Force ≤ Bound` holds by construction, so the root bound
//! bounds DeMulti ≥ Score over the class. `merge(a, b)` has `Force = Force(a) + Force(b)`;
//! `branch` on the top cell splits paths into those through it (forced to a letter) and
//! those that skip it, so each child keeps `Force(child_l, B) = DeMulti(B)` for the boards
//! with that letter there. A tree built with its top one or two cells forced may also leave
//! out the word paths that the forced letters make redundant
//! (`TreeBuilder::dropping_redundant_paths`; with two, a word's paths that differ only in
//! which forced cells they use are one path): then `Score(B) ≤ Force(T, B) ≤ DeMulti(B)`,
//! still a sound bound, and merges and branches keep it in the same way.
//!
//! # Storage
//! Every node lives in one arena of `u32` words and is named by its offset there. A node is a
//! header followed by one entry per child, and each entry holds the child's offset *and its
//! bound*, so merging, bounding and OrderlyBound read a node's children without touching
//! them (the walks are memory-latency bound: one node, one or two cache lines). A node does
//! not store its own bound: its parent's entry has it, and [`Arena::bound`] adds it up from
//! the node's entries where no entry is at hand (a root, a tree `branch` returns).
//!
//! - sum node: `[position mask, points, (child, child bound)...]`: one choice child per set
//!   bit of the position mask (bit `p` = the cell at position `p`), in position order; the
//!   points word is there only when the points are not 0 (nine sum nodes in ten have none),
//!   and bit 30 of the mask says so;
//! - choice node: `[1 << 31 | position << 26 | letter mask, (child, child bound)...]`: one
//!   sum child per set bit of the letter mask, in letter order;
//! - a leaf (a sum node with points and no children; a fifth of all nodes) is not stored:
//!   its id is `LEAF | points`, so reading or merging one costs no memory access (points of
//!   `LEAF` or more, from a user's table, are stored as a sum node without children);
//! - a pass-through (a sum node without points and with one choice child; a quarter of the
//!   bytes) is not stored either: its id is its child's, and bit 31 of the header found
//!   there says that the id names a choice. Its bound is the choice's.
//!
//! Nodes are never changed once the build or merge that makes them returns (a merge fills
//! in the child entries of its own nodes as the children are written, and then the bounds
//! of nodes whose children were still to merge), so subtrees are shared freely (the tree is
//! a DAG after merges), and everything allocated after a [`Mark`] can be dropped by
//! [`Arena::reset`] once the branch that made it is finished.

mod arena;
mod atoms;
mod builder;
mod order;
mod paths;

pub(crate) use arena::sat;
pub use arena::{Arena, Mark};
pub use atoms::{AtomTrie, WordLetters, atoms_of};
pub use builder::{MAX_DROP_FORCED, TreeBuilder};
pub use order::{CellOrder, CellOrderError};
pub use paths::PathBuffers;

/// Offset of a sum node in its [`Arena`], `LEAF | points` for a childless one, or the offset
/// of its choice child for a pass-through (no points, one child).
pub type SumId = u32;
/// Offset of a choice node in its [`Arena`].
pub type ChoiceId = u32;

/// The most cells a tree supports: path keys use 5 bits per cell in a `u128`, and a sum
/// node's children fit one bit per position.
pub const MAX_TREE_CELLS: usize = 25;
