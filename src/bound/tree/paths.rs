//! The word paths a tree build collects and sorts: each path a key that sorts by its choices
//! by position, then by its word, in one of three layouts by board size, and the buffers
//! that keep them from one build to the next.

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

#[cfg(doc)]
use super::{MAX_TREE_CELLS, TreeBuilder};

/// One word path: its choices packed by position (5 bits each, `letter + 1`, position 0 in
/// the most significant used bits, 0 = cell unused or forced) and its word. Sorting paths
/// sorts them by their choices, then by word.
pub(super) trait PathKey: Copy + Ord + Send {
    /// The integer its choices are packed in.
    type C: Choices;
    /// The path with `choices` of word `word`, which scores `points`.
    fn new(choices: Self::C, word: u32, points: u32) -> Self;
    fn choices(self) -> Self::C;
    /// The points of the path's word (`word_points` by word id).
    fn points(self, word_points: &[u32]) -> u32;
    /// The path's word id.
    fn word(self) -> u32;

    /// The same word (and points) with other choices.
    fn with_choices(self, choices: Self::C) -> Self;
}

/// The integer a path's choices are packed in: `u64` for boards of up to 9 cells
/// ([`SmallPath`]), else `u128`. Collecting and splitting paths do their bit arithmetic in
/// it, so that small boards do not pay for 128-bit shifts and compares.
pub(super) trait Choices:
    Copy
    + Eq
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// No bit set.
    const ZERO: Self;
    /// Its width in bits.
    const BITS: u32;
    /// `x` as this integer.
    fn from_u8(x: u8) -> Self;
    /// The low eight bits.
    fn low_u8(self) -> u8;
    /// Leading zero bits.
    fn leading_zeros(self) -> u32;
    /// Bits set.
    fn count_ones(self) -> u32;
}

macro_rules! choices_in {
    ($t:ty) => {
        impl Choices for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn from_u8(x: u8) -> Self {
                x as $t
            }
            #[inline(always)]
            fn low_u8(self) -> u8 {
                self as u8
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
        }
    };
}
choices_in!(u64);
choices_in!(u128);

/// Bits of a word id in a [`PackedPath`].
pub(super) const WORD_BITS: u32 = 24;
/// Bits of the word's points in a [`PackedPath`].
pub(super) const POINTS_BITS: u32 = 8;
/// The most cells whose choices fit a [`PackedPath`] beside the word.
pub(super) const PACKED_CELLS: usize = ((128 - WORD_BITS - POINTS_BITS) / 5) as usize;

/// A path in one integer: `choices | points | word id`. Half the size of a [`WidePath`] and
/// compared in one step, so collecting, sorting and splitting paths move half the bytes, and
/// the points travel with the path instead of being looked up at random by word id. Boards
/// of up to [`PACKED_CELLS`] cells, fewer than `1 << WORD_BITS` words, points below 256.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct PackedPath(pub(super) u128);

impl PathKey for PackedPath {
    type C = u128;
    fn new(choices: u128, word: u32, points: u32) -> Self {
        PackedPath(choices << (POINTS_BITS + WORD_BITS) | (points << WORD_BITS | word) as u128)
    }
    fn choices(self) -> u128 {
        self.0 >> (POINTS_BITS + WORD_BITS)
    }
    fn points(self, _: &[u32]) -> u32 {
        (self.0 >> WORD_BITS) as u32 & ((1 << POINTS_BITS) - 1)
    }
    fn word(self) -> u32 {
        self.0 as u32 & ((1 << WORD_BITS) - 1)
    }
    fn with_choices(self, choices: u128) -> Self {
        let tail = (1u128 << (POINTS_BITS + WORD_BITS)) - 1;
        PackedPath(choices << (POINTS_BITS + WORD_BITS) | (self.0 & tail))
    }
}

/// Bits of a word id in a [`SmallPath`].
pub(super) const SMALL_WORD_BITS: u32 = 19;
/// The most cells whose choices fit a [`SmallPath`] beside the word: 9, a 3x3 board.
pub(super) const SMALL_CELLS: usize = ((64 - SMALL_WORD_BITS) / 5) as usize;

/// A path in one `u64`, `choices | word id`, for boards of up to [`SMALL_CELLS`] cells and
/// fewer than `1 << SMALL_WORD_BITS` words: half the bytes of a [`PackedPath`] to collect,
/// sort and read (a 3x3 class's build is most of its time); the points are looked up by
/// word id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct SmallPath(u64);

impl PathKey for SmallPath {
    type C = u64;
    fn new(choices: u64, word: u32, _: u32) -> Self {
        SmallPath(choices << SMALL_WORD_BITS | word as u64)
    }
    fn choices(self) -> u64 {
        self.0 >> SMALL_WORD_BITS
    }
    fn points(self, word_points: &[u32]) -> u32 {
        word_points[self.word() as usize]
    }
    fn word(self) -> u32 {
        self.0 as u32 & ((1 << SMALL_WORD_BITS) - 1)
    }
    fn with_choices(self, choices: u64) -> Self {
        SmallPath(choices << SMALL_WORD_BITS | self.0 & ((1 << SMALL_WORD_BITS) - 1))
    }
}

/// A path for boards of any size up to [`MAX_TREE_CELLS`] cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct WidePath(u128, u32);

impl PathKey for WidePath {
    type C = u128;
    fn new(choices: u128, word: u32, _: u32) -> Self {
        WidePath(choices, word)
    }
    fn choices(self) -> u128 {
        self.0
    }
    fn points(self, word_points: &[u32]) -> u32 {
        word_points[self.1 as usize]
    }
    fn word(self) -> u32 {
        self.1
    }
    fn with_choices(self, choices: u128) -> Self {
        WidePath(choices, self.1)
    }
}

/// Path buffers that [`TreeBuilder::build_reusing`] and [`TreeBuilder::build_limited`] keep
/// from one class to the next.
#[derive(Default, Debug)]
pub struct PathBuffers {
    pub(super) small: Vec<SmallPath>,
    pub(super) packed: Vec<PackedPath>,
    pub(super) wide: Vec<WidePath>,
    /// The paths two-cell units share ([`TreeBuilder::collect_pair_source`]), and the top
    /// cell and its letter set they are for.
    pub(super) pair_source: Vec<PackedPath>,
    pub(super) pair_source_first: Option<(usize, u32)>,
    /// Whether builds keep buffers of any size ([`PathBuffers::keep_all`]).
    keep_all: bool,
}

impl PathBuffers {
    /// Makes builds keep their buffers whatever their size (`keep`), or only up to
    /// [`KEEP_PATHS`] paths, freeing larger ones now. Keeping them suits a series of builds
    /// of about the same size, a class's unit trees: the buffer's pages are not faulted in
    /// afresh for each unit (on 4x4 59040, eight units of 8-13 million paths, 283,000 fewer
    /// page faults, 1.1 GB), and the peak rises little, as the arena already keeps the pages
    /// of the units before (59040 624 → 627 MiB, 705707 746 → 786 MiB).
    pub fn keep_all(&mut self, keep: bool) {
        self.keep_all = keep;
        self.trim();
    }

    /// Frees the buffers over [`KEEP_PATHS`] paths, unless all are kept.
    pub(super) fn trim(&mut self) {
        if self.keep_all {
            return;
        }
        if self.small.capacity() > KEEP_PATHS {
            self.small = Vec::new();
        }
        if self.packed.capacity() > KEEP_PATHS {
            self.packed = Vec::new();
        }
        if self.wide.capacity() > KEEP_PATHS {
            self.wide = Vec::new();
        }
    }

    /// Whether the pair source is for the top cell `first` with the one letter of `letter`.
    pub fn has_pair_source(&self, first: usize, letter: u32) -> bool {
        self.pair_source_first == Some((first, letter))
    }

    /// Frees the pair source ([`TreeBuilder::collect_pair_source`]).
    pub fn release_pair_source(&mut self) {
        self.pair_source = Vec::new();
        self.pair_source_first = None;
    }
}

/// The most paths a [`PathBuffers`] keeps between builds (32 MiB packed): reusing a
/// buffer saves page faults on small trees; on big ones they do not matter, while the buffer
/// would sit in memory beside the tree for the whole branching. (At 64 MiB, 4x4 class
/// 4696655 peaked at 250 MiB instead of 224.)
pub(super) const KEEP_PATHS: usize = 1 << 21;
