//! A compact prefix tree stored as one flat `u32` array, children found by bit counting.
//!
//! # Layout
//! Node `i` occupies `nodes[3i .. 3i+3]`:
//! - `mask`: bit `l` is set when the node has a child for letter `l`;
//! - `first`: index of its first child; the children of a node are contiguous and in letter
//!   order, so the child for letter `l` is `first + popcount(mask & ((1 << l) - 1))`;
//! - `word`: `0` when no word ends here, else `1 + word id`.
//!
//! Node 0 is the root. Nodes are laid out breadth first. Word ids number the words in the
//! sorted order of their folded letters; `word_len[id]` is the spelled length that scores.

use super::filter::FilteredWords;

/// Words per node slot in the flat array.
pub const NODE_WORDS: usize = 3;

/// A borrowed view of a prefix tree; the bytes may come from a `Vec` or a memory map.
#[derive(Clone, Copy, Debug)]
pub struct Trie<'a> {
    nodes: &'a [u32],
    word_len: &'a [u8],
}

/// The index of a node in a [`Trie`].
pub type NodeId = u32;

impl<'a> Trie<'a> {
    /// A view over a flat node array and word lengths.
    ///
    /// The arrays must satisfy the layout of the module doc; [`TrieBuf::check`] verifies it.
    pub fn new(nodes: &'a [u32], word_len: &'a [u8]) -> Trie<'a> {
        Trie { nodes, word_len }
    }

    /// The root node.
    #[inline]
    pub fn root(&self) -> NodeId {
        0
    }

    /// The set of letters that extend this node, as a bit mask.
    #[inline]
    pub fn child_mask(&self, node: NodeId) -> u32 {
        self.nodes[node as usize * NODE_WORDS]
    }

    /// The child for `letter`, if any.
    #[inline]
    pub fn child(&self, node: NodeId, letter: u8) -> Option<NodeId> {
        let base = node as usize * NODE_WORDS;
        let mask = self.nodes[base];
        let bit = 1u32 << letter;
        if mask & bit == 0 {
            return None;
        }
        Some(self.nodes[base + 1] + (mask & (bit - 1)).count_ones())
    }

    /// The child for a letter known to be in [`Trie::child_mask`].
    #[inline]
    pub fn child_unchecked_letter(&self, node: NodeId, mask: u32, letter: u8) -> NodeId {
        let base = node as usize * NODE_WORDS;
        self.nodes[base + 1] + (mask & ((1u32 << letter) - 1)).count_ones()
    }

    /// The id of the word ending at this node, if one does.
    #[inline]
    pub fn word(&self, node: NodeId) -> Option<u32> {
        let w = self.nodes[node as usize * NODE_WORDS + 2];
        w.checked_sub(1)
    }

    /// The spelled length (counting `qu` as 2) of a word.
    #[inline]
    pub fn word_len(&self, word: u32) -> u8 {
        self.word_len[word as usize]
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len() / NODE_WORDS
    }

    /// Number of words.
    pub fn word_count(&self) -> usize {
        self.word_len.len()
    }

    /// The flat node array (see the module doc).
    pub fn raw_nodes(&self) -> &'a [u32] {
        self.nodes
    }

    /// Word lengths by word id.
    pub fn raw_word_len(&self) -> &'a [u8] {
        self.word_len
    }

    /// The node reached by following `letters` from the root.
    pub fn walk(&self, letters: &[u8]) -> Option<NodeId> {
        letters
            .iter()
            .try_fold(self.root(), |node, &l| self.child(node, l))
    }

    /// The fewest dice (letters, Qu one) any word takes, or `None` for a tree without words:
    /// a board of fewer cells holds no word.
    pub fn fewest_dice(&self) -> Option<usize> {
        // Level by level from the root: `level` holds the nodes `depth` letters deep.
        let mut level = vec![self.root()];
        let mut depth = 0;
        while !level.is_empty() {
            if level.iter().any(|&node| self.word(node).is_some()) {
                return Some(depth);
            }
            let mut next = Vec::new();
            for &node in &level {
                let mut mask = self.child_mask(node);
                while mask != 0 {
                    let l = mask.trailing_zeros() as u8;
                    mask &= mask - 1;
                    next.push(self.child_unchecked_letter(node, self.child_mask(node), l));
                }
            }
            level = next;
            depth += 1;
        }
        None
    }
}

/// An owned prefix tree, as built from a word list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrieBuf {
    /// The flat node array of the module doc.
    pub nodes: Vec<u32>,
    /// Spelled length of each word, by word id.
    pub word_len: Vec<u8>,
}

/// Why a node array does not form a valid prefix tree.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("invalid word tree: {0}")]
pub struct TrieError(pub &'static str);

impl TrieBuf {
    /// Builds the tree of filtered words, which must be sorted and distinct (as
    /// [`super::filter::filter_words`] returns them).
    pub fn build(words: &FilteredWords) -> TrieBuf {
        debug_assert!((1..words.len()).all(|i| words.letters(i - 1) < words.letters(i)));
        // Word `i` adds the nodes of its prefixes longer than the prefix it shares with word
        // `i - 1`. In breadth-first order a node's place is its depth's first place plus the
        // number of nodes of that depth that words before it added, since sorted words add
        // the nodes of one depth in the order of their paths.
        // `shared[i]`: the letters word `i` shares with word `i - 1` (a word has at most 255).
        let shared: Vec<u8> = (0..words.len())
            .map(|i| match i {
                0 => 0,
                _ => {
                    let (a, b) = (words.letters(i - 1), words.letters(i));
                    a.iter().zip(b).take_while(|(x, y)| x == y).count() as u8
                }
            })
            .collect();
        let mut per_depth = vec![1usize]; // the root
        for (i, &from) in shared.iter().enumerate() {
            let (from, len) = (from as usize, words.letters(i).len());
            if per_depth.len() <= len {
                per_depth.resize(len + 1, 0);
            }
            for count in &mut per_depth[from + 1..=len] {
                *count += 1;
            }
        }
        // `next[d]`: the place of the next node of depth d; `path[d]`: the node of depth d on
        // the current word's path (the words before it placed every node above).
        let mut next = Vec::with_capacity(per_depth.len());
        let mut total = 0;
        for &count in &per_depth {
            next.push(total);
            total += count;
        }
        let mut nodes = vec![0u32; total * NODE_WORDS];
        let mut path = vec![0usize; per_depth.len()];
        // A node's first child goes where the next node of the depth below goes when the
        // node is placed: the words before it added no node under it. A leaf keeps that
        // place too (readers ignore it), as compiled dictionaries always had it.
        let first_below = |next: &[usize], depth: usize| next.get(depth + 1).map_or(total, |&n| n);
        nodes[1] = first_below(&next, 0) as u32;
        next[0] = 1;
        for (i, &from) in shared.iter().enumerate() {
            let letters = words.letters(i);
            for depth in from as usize + 1..=letters.len() {
                let (node, parent) = (next[depth], path[depth - 1]);
                next[depth] += 1;
                path[depth] = node;
                nodes[node * NODE_WORDS + 1] = first_below(&next, depth) as u32;
                nodes[parent * NODE_WORDS] |= 1 << letters[depth - 1];
            }
            nodes[path[letters.len()] * NODE_WORDS + 2] = i as u32 + 1;
        }
        TrieBuf {
            nodes,
            word_len: words.spelled_lens().to_vec(),
        }
    }

    /// A view of this tree.
    pub fn view(&self) -> Trie<'_> {
        Trie::new(&self.nodes, &self.word_len)
    }

    /// Checks the structural rules every reader relies on, so that no lookup can index out of
    /// bounds or loop: masks use 26 bits, children lie after their parent and inside the
    /// array, word ids are in range and each used once, and the nodes form one tree in the
    /// breadth-first layout [`TrieBuf::build`] writes (each node's children directly after
    /// the children of the nodes before it), so that no node has two parents or none.
    pub fn check(nodes: &[u32], word_len: &[u8]) -> Result<(), TrieError> {
        if nodes.is_empty() || !nodes.len().is_multiple_of(NODE_WORDS) {
            return Err(TrieError("node array length"));
        }
        let count = nodes.len() / NODE_WORDS;
        let mut seen = vec![false; word_len.len()];
        // Where the next node's children must start: after the root and every child so far.
        let mut next_first = 1;
        for i in 0..count {
            let (mask, first, word) = (
                nodes[i * NODE_WORDS],
                nodes[i * NODE_WORDS + 1] as usize,
                nodes[i * NODE_WORDS + 2],
            );
            if mask >> 26 != 0 {
                return Err(TrieError("letter mask"));
            }
            if mask != 0 && (first <= i || first + mask.count_ones() as usize > count) {
                return Err(TrieError("child index"));
            }
            if mask != 0 && first != next_first {
                return Err(TrieError("not a breadth-first tree"));
            }
            next_first += mask.count_ones() as usize;
            if word != 0 {
                let id = word as usize - 1;
                if id >= seen.len() || std::mem::replace(&mut seen[id], true) {
                    return Err(TrieError("word id"));
                }
            }
        }
        if seen.iter().any(|s| !s) {
            return Err(TrieError("word count"));
        }
        if next_first != count {
            return Err(TrieError("not a breadth-first tree"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::filter::filter_words;
    use super::*;

    #[test]
    fn fewest_dice_counts_qu_as_one() {
        let tree = |text: &str| TrieBuf::build(&filter_words(text));
        assert_eq!(tree("abandon\ncattle\n").view().fewest_dice(), Some(6));
        // 'qua' is spelled with 3 letters on 2 dice.
        assert_eq!(tree("abandon\nqua\n").view().fewest_dice(), Some(2));
        assert_eq!(tree("").view().fewest_dice(), None);
    }

    #[test]
    fn builds_and_finds_words() {
        let words = filter_words("cat\ncats\ncar\ndog\nquit\nqat\n");
        let buf = TrieBuf::build(&words);
        TrieBuf::check(&buf.nodes, &buf.word_len).unwrap();
        let t = buf.view();
        assert_eq!(t.word_count(), 5);
        let l = |s: &str| s.bytes().map(|b| b - b'a').collect::<Vec<_>>();
        let cat = t.walk(&l("cat")).unwrap();
        assert!(t.word(cat).is_some());
        assert!(t.word(t.walk(&l("ca")).unwrap()).is_none());
        assert!(t.walk(&l("cx")).is_none());
        let quit = t.word(t.walk(&l("qit")).unwrap()).unwrap();
        assert_eq!(t.word_len(quit), 4);
    }

    /// The breadth-first layout the plain way, as the module doc defines it: a queue of
    /// (node, the words under it, depth); a node's children are placed when it is taken
    /// from the queue, so its `first` is the array's length then (for a leaf too).
    fn build_by_queue(words: &FilteredWords) -> Vec<u32> {
        let mut nodes = vec![0u32; NODE_WORDS];
        let mut queue = std::collections::VecDeque::from([(0, 0, words.len(), 0)]);
        while let Some((node, mut lo, hi, depth)) = queue.pop_front() {
            if lo < hi && words.letters(lo).len() == depth {
                nodes[node * NODE_WORDS + 2] = lo as u32 + 1;
                lo += 1;
            }
            nodes[node * NODE_WORDS + 1] = (nodes.len() / NODE_WORDS) as u32;
            while lo < hi {
                let letter = words.letters(lo)[depth];
                let mut end = lo;
                while end < hi && words.letters(end)[depth] == letter {
                    end += 1;
                }
                nodes[node * NODE_WORDS] |= 1 << letter;
                queue.push_back((nodes.len() / NODE_WORDS, lo, end, depth + 1));
                nodes.extend_from_slice(&[0; NODE_WORDS]);
                lo = end;
            }
        }
        nodes
    }

    /// The one-pass build lays out exactly the queue's tree, node for node (leaves' `first`
    /// included, which compiled dictionaries store): on lists of prefixes of each other,
    /// `qu` words, one word, none, and the built-in ENABLE2K.
    #[test]
    fn one_pass_build_is_the_breadth_first_layout() {
        let lists = [
            "",
            "cat",
            "cat\ncats\ncar\ndog\nquit\nqat\n",
            "aaa\naaaa\naaaaa\naab\naaab\nabc\nabcd\nbcd\nzzz\nquaquaqua\nquag\nequal\n",
            super::super::ENABLE2K,
        ];
        for list in lists {
            let words = filter_words(list);
            let buf = TrieBuf::build(&words);
            assert_eq!(
                buf.nodes,
                build_by_queue(&words),
                "list of {} words",
                words.len()
            );
            assert_eq!(buf.word_len, words.spelled_lens());
            TrieBuf::check(&buf.nodes, &buf.word_len).unwrap();
        }
    }

    /// Arrays that pass every per-node rule but are no tree are refused: a node with two
    /// parents (which a walk would visit twice and a relayout would place twice), and a node
    /// with no parent.
    #[test]
    fn check_refuses_what_is_not_a_tree() {
        // Root {a, b} -> nodes 1 and 2, both {c} -> the same node 3, a word.
        let shared = [0b11, 1, 0, 0b100, 3, 0, 0b100, 3, 0, 0, 0, 1];
        assert_eq!(
            TrieBuf::check(&shared, &[3]),
            Err(TrieError("not a breadth-first tree"))
        );
        // Root {a} -> node 1, a word; node 2 a word that no node points to.
        let orphan = [0b1, 1, 0, 0, 0, 1, 0, 0, 2];
        assert_eq!(
            TrieBuf::check(&orphan, &[3, 3]),
            Err(TrieError("not a breadth-first tree"))
        );
        let words = filter_words("cat\ncats\ncar\ndog\nquit\nqat\n");
        let buf = TrieBuf::build(&words);
        assert_eq!(TrieBuf::check(&buf.nodes, &buf.word_len), Ok(()));
    }
}
