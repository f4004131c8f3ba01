//! The word list by groups of letters that a class cannot tell apart, for collecting its word
//! paths a group at a time instead of a letter at a time.
//!
//! Two letters that lie in exactly the same cells of a class (an *atom*: for a class of
//! buckets, a bucket) are interchangeable for finding where words lie: a walk over the
//! cells spells a word exactly when each cell's letter set holds the word's letter there,
//! and that depends only on each letter's atom. An [`AtomTrie`] is the word list's prefix
//! tree over atoms, every word kept at the node of its atom sequence; a walk over the cells
//! then visits one node per walk and atom sequence (a few) instead of one per walk and
//! letter sequence (many), and reads off the words of each node it reaches.

use crate::dict::Trie;

/// Atom index of a letter that lies in no cell: no word with it lies on the class.
const NO_ATOM: u8 = u8::MAX;

/// The letters of every word of a word list, by word id (as the trie spells them: `qu` one
/// letter).
#[derive(Debug)]
pub struct WordLetters {
    letters: Vec<u8>,
    /// `letters[spans[w][0]..spans[w][1]]` are word `w`'s.
    spans: Vec<[u32; 2]>,
}

impl WordLetters {
    /// The words of `trie`.
    pub fn new(trie: Trie<'_>) -> WordLetters {
        let mut spans = vec![[0, 0]; trie.word_count()];
        let mut letters = Vec::new();
        // A depth-first walk in letter order. One frame per open node: its next child's id
        // (a node's children are contiguous, in letter order) and the letters not yet taken.
        // Invariant: `prefix` spells the node of the top frame (the root's is empty).
        let mut prefix: Vec<u8> = Vec::new();
        let first_child =
            |node, mask: u32| trie.child_unchecked_letter(node, mask, mask.trailing_zeros() as u8);
        let root_mask = trie.child_mask(trie.root());
        let mut frames = Vec::new();
        if root_mask != 0 {
            frames.push((first_child(trie.root(), root_mask), root_mask));
        }
        while let Some((next, rest)) = frames.last_mut() {
            if *rest == 0 {
                frames.pop();
                prefix.pop();
                continue;
            }
            let (node, letter) = (*next, rest.trailing_zeros() as u8);
            *next += 1;
            *rest &= *rest - 1;
            prefix.push(letter);
            if let Some(w) = trie.word(node) {
                let from = letters.len() as u32;
                letters.extend_from_slice(&prefix);
                spans[w as usize] = [from, letters.len() as u32];
            }
            let mask = trie.child_mask(node);
            if mask != 0 {
                frames.push((first_child(node, mask), mask));
            } else {
                prefix.pop();
            }
        }
        WordLetters { letters, spans }
    }

    /// Word `w`'s letters.
    #[inline]
    pub fn word(&self, w: u32) -> &[u8] {
        let [from, to] = self.spans[w as usize];
        &self.letters[from as usize..to as usize]
    }

    /// The number of cells of every word (by word id), for
    /// [`TreeBuilder::dropping_redundant_paths`]: its letters, `qu` one cell (saturating: a
    /// word of over 255 cells lies on no board, which has at most 25).
    ///
    /// [`TreeBuilder::dropping_redundant_paths`]: super::TreeBuilder::dropping_redundant_paths
    pub fn cells(&self) -> Vec<u8> {
        self.spans
            .iter()
            .map(|&[from, to]| (to - from).min(u8::MAX as u32) as u8)
            .collect()
    }

    /// Number of words.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.spans.len()
    }
}

/// The atoms of a class: its letters grouped by the set of cells that hold them (letters in
/// no cell left out), as letter masks in the order of their lowest letter.
pub fn atoms_of(cells: &[u32]) -> Vec<u32> {
    let mut atoms: Vec<(u64, u32)> = Vec::new();
    for l in 0..26 {
        let holders = cells
            .iter()
            .enumerate()
            .filter(|(_, set)| *set & 1 << l != 0)
            .fold(0u64, |m, (c, _)| m | 1 << c);
        if holders == 0 {
            continue;
        }
        match atoms.iter_mut().find(|(h, _)| *h == holders) {
            Some((_, letters)) => *letters |= 1 << l,
            None => atoms.push((holders, 1 << l)),
        }
    }
    atoms.into_iter().map(|(_, letters)| letters).collect()
}

/// The prefix tree of a word list over the atoms of some class, with the words of at most a
/// given number of letters whose letters all lie in an atom.
#[derive(Debug)]
pub struct AtomTrie {
    /// The atoms, letter masks (see [`atoms_of`]).
    atoms: Vec<u32>,
    /// Node `i`: `[atoms extending it, its first child, start, end, spelled]`; its children
    /// are contiguous in atom order from `first`, `words[start..end]` are the words whose
    /// atom sequence ends at it, and their letters follow each other in `letters` from
    /// `spelled` (all as long as the node is deep).
    nodes: Vec<[u32; 5]>,
    words: Vec<u32>,
    /// The letters of the words of each node, in `words` order: a walk reads a node's
    /// words in one run instead of looking each one up by word id (two cache misses a word).
    letters: Vec<u8>,
}

impl AtomTrie {
    /// The tree of the words of `trie` (whose letters `words` holds) of at most `max_len`
    /// letters over `atoms` (disjoint letter masks).
    pub fn new(trie: Trie<'_>, words: &WordLetters, atoms: &[u32], max_len: usize) -> AtomTrie {
        assert!(
            atoms.len() < 32 && max_len <= 25,
            "atoms fit a mask and lengths a byte"
        );
        let mut atom_of = [NO_ATOM; 26];
        for (a, &letters) in atoms.iter().enumerate() {
            for (l, slot) in atom_of.iter_mut().enumerate() {
                if letters & 1 << l != 0 {
                    *slot = a as u8;
                }
            }
        }
        // `reach[n]`: the fewest letters, all in atoms, from word-list node `n` down to a word
        // (u8::MAX: none). In the breadth-first layout children come after their parent, so
        // one pass backwards has every child's figure before its parent's.
        let mut reach = vec![u8::MAX; trie.node_count()];
        for n in (0..trie.node_count()).rev() {
            let mut best = if trie.word(n as u32).is_some() {
                0
            } else {
                u8::MAX
            };
            let mask = trie.child_mask(n as u32);
            let mut rest = mask;
            while rest != 0 {
                let l = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                if atom_of[l as usize] != NO_ATOM {
                    let child = trie.child_unchecked_letter(n as u32, mask, l);
                    best = best.min(reach[child as usize].saturating_add(1));
                }
            }
            reach[n] = best;
        }
        let mut tree = AtomTrie {
            atoms: atoms.to_vec(),
            nodes: vec![[0; 5]],
            words: Vec::new(),
            letters: Vec::new(),
        };
        let mut build = Build {
            trie,
            words,
            atom_of,
            atoms: atoms.len(),
            reach,
            max_len,
            sets: vec![trie.root()],
            children: Vec::new(),
        };
        build.fill(&mut tree, 0..1, 0, 0);
        tree
    }

    /// The atoms this tree is over.
    pub fn atoms(&self) -> &[u32] {
        &self.atoms
    }

    /// The root.
    #[inline]
    pub fn root(&self) -> u32 {
        0
    }

    /// The atoms extending `node`.
    #[inline]
    pub fn mask(&self, node: u32) -> u32 {
        self.nodes[node as usize][0]
    }

    /// The child of `node` for atom `a`, which must extend it.
    #[inline]
    pub fn child(&self, node: u32, a: u32) -> u32 {
        let [mask, first, ..] = self.nodes[node as usize];
        first + (mask & ((1 << a) - 1)).count_ones()
    }

    /// The words whose atom sequence ends at `node`.
    #[inline]
    pub fn words(&self, node: u32) -> &[u32] {
        let [_, _, start, end, _] = self.nodes[node as usize];
        &self.words[start as usize..end as usize]
    }

    /// The letters of the words of `node`, a node `depth` atoms deep: those of its `i`-th word
    /// ([`AtomTrie::words`]) are the `i`-th chunk of `depth`.
    #[inline]
    pub fn spelled(&self, node: u32, depth: usize) -> &[u8] {
        let [_, _, start, end, spelled] = self.nodes[node as usize];
        let from = spelled as usize;
        &self.letters[from..from + (end - start) as usize * depth]
    }
}

/// The state of [`AtomTrie::new`]'s depth-first fill.
struct Build<'t, 'w> {
    trie: Trie<'t>,
    words: &'w WordLetters,
    atom_of: [u8; 26],
    /// How many atoms there are.
    atoms: usize,
    reach: Vec<u8>,
    max_len: usize,
    /// The word-list nodes of each open atom node, one run after another (the deepest last).
    sets: Vec<u32>,
    /// Scratch: the children of one set, with their atoms, before they are grouped.
    children: Vec<(u8, u32)>,
}

impl Build<'_, '_> {
    /// Fills node `at` of `tree`, `depth` atoms deep, whose atom sequence the word-list nodes
    /// `sets[range]` spell (every node that spells it and has a word within reach), in the
    /// word list's depth-first order, so that their words come in word-id order (ids number
    /// the words in sorted order). Each word-list node lies in one set: the fill visits each
    /// at most once, where sorting every word's atom sequence took about 2.4 times the
    /// instructions (4x4 class 5553243).
    fn fill(
        &mut self,
        tree: &mut AtomTrie,
        range: std::ops::Range<usize>,
        depth: usize,
        at: usize,
    ) {
        let start = tree.words.len() as u32;
        let spelled = tree.letters.len() as u32;
        for &n in &self.sets[range.clone()] {
            if let Some(w) = self.trie.word(n) {
                tree.words.push(w);
                tree.letters.extend_from_slice(self.words.word(w));
            }
        }
        let end = tree.words.len() as u32;
        // The children that still reach a word within the length, grouped by atom (a
        // counting sort, so each group keeps the depth-first order).
        let mut counts = [0u32; 33];
        self.children.clear();
        if depth < self.max_len {
            let within = (self.max_len - depth - 1) as u8;
            for &n in &self.sets[range] {
                let mask = self.trie.child_mask(n);
                let mut rest = mask;
                while rest != 0 {
                    let l = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    let a = self.atom_of[l as usize];
                    if a == NO_ATOM {
                        continue;
                    }
                    let child = self.trie.child_unchecked_letter(n, mask, l);
                    if self.reach[child as usize] <= within {
                        counts[a as usize + 1] += 1;
                        self.children.push((a, child));
                    }
                }
            }
        }
        let mut mask = 0u32;
        for a in 0..self.atoms {
            if counts[a + 1] != 0 {
                mask |= 1 << a;
            }
            counts[a + 1] += counts[a];
        }
        let base = self.sets.len();
        self.sets.resize(base + self.children.len(), 0);
        let mut next = counts;
        for &(a, child) in &self.children {
            self.sets[base + next[a as usize] as usize] = child;
            next[a as usize] += 1;
        }
        let first = tree.nodes.len();
        tree.nodes[at] = [mask, first as u32, start, end, spelled];
        tree.nodes
            .resize(first + mask.count_ones() as usize, [0; 5]);
        let mut rest = mask;
        let mut rank = 0;
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let group = base + counts[a] as usize..base + counts[a + 1] as usize;
            self.fill(tree, group, depth + 1, first + rank);
            rank += 1;
        }
        self.sets.truncate(base);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dict::Dictionary;

    /// Letters are grouped by the cells that hold them; letters in no cell are left out.
    #[test]
    fn atoms_group_letters_by_the_cells_that_hold_them() {
        let set = |s: &str| s.bytes().fold(0u32, |m, b| m | 1 << (b - b'a'));
        let cells = [set("abc"), set("ab"), set("abcxyz"), set("d")];
        assert_eq!(
            atoms_of(&cells),
            vec![set("ab"), set("c"), set("d"), set("xyz")]
        );
        assert_eq!(atoms_of(&[set("aeiou"); 3]), vec![set("aeiou")]);
    }

    /// Every word's letters spell it (its cells are as many, `qu` one), and every word of at
    /// most the length, all of whose letters lie in atoms, is at the node of its atom sequence, and no other word is
    /// anywhere.
    #[test]
    fn each_word_sits_at_its_atom_sequence() {
        let dict = Dictionary::enable2k();
        let letters = WordLetters::new(dict.trie());
        assert_eq!(letters.len(), dict.trie().word_count());
        let cells = letters.cells();
        let set = |s: &str| s.bytes().fold(0u32, |m, b| m | 1 << (b - b'a'));
        let atoms = [set("aeiou"), set("rst"), set("lnbcd")];
        let tree = AtomTrie::new(dict.trie(), &letters, &atoms, 6);
        let mut found = 0;
        for w in 0..letters.len() as u32 {
            let spelled = letters.word(w);
            // The letters are the word's: they spell it in the word list's tree.
            let end = dict
                .trie()
                .walk(spelled)
                .expect("a word's letters are a path");
            assert_eq!(dict.trie().word(end), Some(w));
            assert_eq!(cells[w as usize] as usize, spelled.len(), "word {w}");
            let seq: Option<Vec<u32>> = spelled
                .iter()
                .map(|&l| {
                    atoms
                        .iter()
                        .position(|&a| a & 1 << l != 0)
                        .map(|a| a as u32)
                })
                .collect();
            let Some(seq) = seq.filter(|_| spelled.len() <= 6) else {
                continue;
            };
            let mut node = tree.root();
            for &a in &seq {
                assert!(tree.mask(node) & 1 << a != 0, "word {w}");
                node = tree.child(node, a);
            }
            let at = tree.words(node).iter().position(|&x| x == w);
            let at = at.unwrap_or_else(|| panic!("word {w} at its sequence"));
            // The node spells its words with their letters.
            let spelled = tree
                .spelled(node, seq.len())
                .chunks_exact(seq.len())
                .nth(at);
            assert_eq!(spelled, Some(letters.word(w)), "word {w}");
            found += 1;
        }
        // Every word in the tree was counted above: the tree holds no other.
        let mut stack = vec![tree.root()];
        let mut held = 0;
        while let Some(node) = stack.pop() {
            held += tree.words(node).len();
            let mask = tree.mask(node);
            for a in (0..atoms.len() as u32).filter(|a| mask & 1 << a != 0) {
                stack.push(tree.child(node, a));
            }
        }
        assert_eq!(held, found);
        assert!(found > 100, "the test sees words");
    }

    /// The tree as a sort of every word's atom sequence makes it (how it was built until
    /// 2026-12-06): a node for each prefix of a kept word's sequence, children in atom order
    /// after their parent's block, words in id order.
    fn sorted_reference(words: &WordLetters, atoms: &[u32], max_len: usize) -> AtomTrie {
        let atom_of = |l: u8| atoms.iter().position(|&a| a & 1 << l != 0);
        let mut keyed: Vec<(Vec<u8>, u32)> = (0..words.len() as u32)
            .filter_map(|w| {
                let letters = words.word(w);
                let seq: Option<Vec<u8>> = letters
                    .iter()
                    .map(|&l| atom_of(l).map(|a| a as u8))
                    .collect();
                seq.filter(|s| s.len() <= max_len).map(|s| (s, w))
            })
            .collect();
        keyed.sort();
        let mut tree = AtomTrie {
            atoms: atoms.to_vec(),
            nodes: vec![[0; 5]],
            words: Vec::new(),
            letters: Vec::new(),
        };
        fn fill(
            tree: &mut AtomTrie,
            words: &WordLetters,
            keyed: &[(Vec<u8>, u32)],
            depth: usize,
            at: usize,
        ) {
            let ends = keyed.partition_point(|(k, _)| k.len() == depth);
            let (start, spelled) = (tree.words.len() as u32, tree.letters.len() as u32);
            for &(_, w) in &keyed[..ends] {
                tree.words.push(w);
                tree.letters.extend_from_slice(words.word(w));
            }
            let end = tree.words.len() as u32;
            let rest = &keyed[ends..];
            let mut groups = Vec::new();
            let mut i = 0;
            while i < rest.len() {
                let a = rest[i].0[depth];
                let j = i + rest[i..].partition_point(|(k, _)| k[depth] == a);
                groups.push((a, i, j));
                i = j;
            }
            let first = tree.nodes.len();
            let mask = groups.iter().fold(0u32, |m, &(a, _, _)| m | 1 << a);
            tree.nodes[at] = [mask, first as u32, start, end, spelled];
            tree.nodes.resize(first + groups.len(), [0; 5]);
            for (rank, &(_, i, j)) in groups.iter().enumerate() {
                fill(tree, words, &rest[i..j], depth + 1, first + rank);
            }
        }
        fill(&mut tree, words, &keyed, 0, 0);
        tree
    }

    /// The one-pass fill over the word list's tree makes exactly the tree a sort of every
    /// word's atom sequence makes: the same nodes in the same places, the same words and
    /// letters, for atom sets that leave letters out, split vowels, and hold every letter.
    #[test]
    fn the_fill_is_the_sorted_tree() {
        let dict = Dictionary::enable2k();
        let letters = WordLetters::new(dict.trie());
        let set = |s: &str| s.bytes().fold(0u32, |m, b| m | 1 << (b - b'a'));
        let cases: [(&[&str], usize); 5] = [
            (&["aeiou", "rst", "lnbcd"], 6),
            (&["aeijou", "bcdfgmpqvwxz", "hklnrsty"], 16),
            (&["ae", "io", "u", "rstlnq", "bcdfgh", "y"], 9),
            (&["abcdefghijklmnopqrstuvwxyz"], 25),
            (&["q", "u", "e", "n", "st"], 12),
        ];
        for (sets, max_len) in cases {
            let atoms: Vec<u32> = sets.iter().map(|s| set(s)).collect();
            let fill = AtomTrie::new(dict.trie(), &letters, &atoms, max_len);
            let sorted = sorted_reference(&letters, &atoms, max_len);
            assert_eq!(fill.nodes, sorted.nodes, "{sets:?} {max_len}");
            assert_eq!(fill.words, sorted.words, "{sets:?} {max_len}");
            assert_eq!(fill.letters, sorted.letters, "{sets:?} {max_len}");
            assert!(fill.words.len() > 10, "{sets:?}: the case holds words");
        }
    }
}
