//! Points per word: the standard length table, the `words`, `pow2` and `fibonacci` length
//! tables, and `boojum`, whose points also depend on the word's letters.

use crate::dict::Trie;
use std::fmt;
use std::str::FromStr;

/// How many points a word is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scoring {
    /// 3→1, 4→1, 5→2, 6→3, 7→5, 8 and more→11.
    #[default]
    Standard,
    /// Every word 1 point (the "wordiest board").
    Words,
    /// 3→1, 4→2, 5→4, … doubling with each letter.
    Pow2,
    /// 3→1, 4→1, 5→2, 6→3, 7→5, 8→8, 9→13, …: each length the sum of the two before, no cap.
    Fibonacci,
    /// Boojum's letter values (a e i o u l n r s t 1, d g 2, b c m p 3, f h v w y 4, k 5,
    /// j x 8, q z 10; the Qu die is q and u, 11) summed, times a length multiplier (3 and 4
    /// letters ×1, 5 ×2, 6 ×3, 7 ×4, 8 ×5, 9 and more ×6). Boojum's bonus tiles are not
    /// modelled.
    Boojum,
}

/// Boojum's value of each letter, a to z (`q` alone; the Qu die adds `u`).
const BOOJUM_VALUES: [u32; 26] = [
    1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10,
];

impl Scoring {
    /// Points of a word given as its letters (0 = a, …, with 16 = q standing for `qu`, as on
    /// a board and in the word tree). Its length as spelled counts `qu` as two letters. Words
    /// shorter than 3 score nothing; points saturate at `u32::MAX` (pow2 from 35 letters on).
    pub fn points_of(self, letters: &[u8]) -> u32 {
        const Q: u8 = b'q' - b'a';
        let len = letters.len() + letters.iter().filter(|&&l| l == Q).count();
        match self {
            Scoring::Boojum if len >= 3 => {
                let values: u32 = letters
                    .iter()
                    .map(|&l| BOOJUM_VALUES[l as usize] + if l == Q { 1 } else { 0 })
                    .sum();
                let multiplier = match len {
                    3 | 4 => 1,
                    5 => 2,
                    6 => 3,
                    7 => 4,
                    8 => 5,
                    _ => 6,
                };
                values.saturating_mul(multiplier)
            }
            _ => self.length_points(len),
        }
    }

    /// Points of a word of `len` letters as spelled, for the scorings whose points depend on
    /// the length only (for `boojum`, the multiplier: letter values are added by
    /// [`Scoring::points_of`]).
    fn length_points(self, len: usize) -> u32 {
        if len < 3 {
            return 0;
        }
        match self {
            Scoring::Standard => match len {
                3 | 4 => 1,
                5 => 2,
                6 => 3,
                7 => 5,
                _ => 11,
            },
            Scoring::Words => 1,
            Scoring::Pow2 => 1u32.checked_shl(len as u32 - 3).unwrap_or(u32::MAX),
            Scoring::Fibonacci => {
                let (mut a, mut b) = (1u32, 1u32); // lengths 3 and 4
                for _ in 4..=len {
                    (a, b) = (b, a.saturating_add(b));
                }
                a
            }
            Scoring::Boojum => 0,
        }
    }

    /// The points of every word of `trie`, by word id: one walk over the tree, which spells
    /// each word on the way to it.
    pub fn word_points(self, trie: Trie<'_>) -> Vec<u32> {
        let mut points = vec![0; trie.word_count()];
        // Depth-first: the stack holds (node, its depth, its last letter); `letters` spells
        // the node just popped.
        let mut letters: Vec<u8> = Vec::new();
        let mut stack = vec![(trie.root(), 0usize, 0u8)];
        while let Some((node, depth, letter)) = stack.pop() {
            if depth > 0 {
                letters.truncate(depth - 1);
                letters.push(letter);
            }
            if let Some(w) = trie.word(node) {
                points[w as usize] = self.points_of(&letters);
            }
            let mut mask = trie.child_mask(node);
            while mask != 0 {
                let l = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                let child = trie.child_unchecked_letter(node, trie.child_mask(node), l);
                stack.push((child, depth + 1, l));
            }
        }
        points
    }

    /// The name used on the command line and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Words => "words",
            Scoring::Pow2 => "pow2",
            Scoring::Fibonacci => "fibonacci",
            Scoring::Boojum => "boojum",
        }
    }
}

impl FromStr for Scoring {
    type Err = String;
    fn from_str(s: &str) -> Result<Scoring, String> {
        match s {
            "standard" => Ok(Scoring::Standard),
            "words" => Ok(Scoring::Words),
            "pow2" => Ok(Scoring::Pow2),
            "fibonacci" => Ok(Scoring::Fibonacci),
            "boojum" => Ok(Scoring::Boojum),
            _ => Err(format!(
                "unknown scoring '{s}': expected standard, words, pow2, fibonacci or boojum"
            )),
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Points of a word spelled in letters a-z, `qu` folded to `q` as in the word tree.
    fn of(scoring: Scoring, word: &str) -> u32 {
        let letters: Vec<u8> = word.replace("qu", "q").bytes().map(|b| b - b'a').collect();
        scoring.points_of(&letters)
    }

    #[test]
    fn tables() {
        let len = |s: Scoring, n: usize| s.points_of(&vec![0; n]);
        let std: Vec<u32> = (3..10).map(|l| len(Scoring::Standard, l)).collect();
        assert_eq!(std, [1, 1, 2, 3, 5, 11, 11]);
        assert_eq!(len(Scoring::Pow2, 8), 32);
        assert_eq!(len(Scoring::Pow2, 17), 16384);
        assert_eq!(len(Scoring::Words, 12), 1);
        assert_eq!(len(Scoring::Pow2, 40), u32::MAX);
        let fib: Vec<u32> = (1..12).map(|l| len(Scoring::Fibonacci, l)).collect();
        assert_eq!(fib, [0, 0, 1, 1, 2, 3, 5, 8, 13, 21, 34]);
        // No cap, and no wrap: fib(48) > u32::MAX saturates.
        assert_eq!(len(Scoring::Fibonacci, 25), 28657);
        assert_eq!(len(Scoring::Fibonacci, 60), u32::MAX);
        // `qu` counts two letters of length.
        assert_eq!(of(Scoring::Standard, "quiz"), 1);
        assert_eq!(of(Scoring::Fibonacci, "quiet"), 2);
    }

    /// Words worked by hand: Boojum's letter values times its length multiplier.
    #[test]
    fn boojum_by_hand() {
        // (q+u 11 + i 1 + z 10) × 1 for 4 letters.
        assert_eq!(of(Scoring::Boojum, "quiz"), 22);
        // (s t r a n e 1 each + g 2) = 8, × 4 for 7 letters.
        assert_eq!(of(Scoring::Boojum, "strange"), 32);
        // (j 8 + a e 1 + z 10 + ... ): "jazz" = 8 + 1 + 10 + 10, × 1.
        assert_eq!(of(Scoring::Boojum, "jazz"), 29);
        // "boggle" = b3 o1 g2 g2 l1 e1 = 10, × 3 for 6 letters.
        assert_eq!(of(Scoring::Boojum, "boggle"), 30);
        // "quizzes": q+u 11, i 1, z 10, z 10, e 1, s 1 = 34, 7 letters × 4.
        assert_eq!(of(Scoring::Boojum, "quizzes"), 136);
        // 9 letters and more: × 6. "strangers" = 8 + r 1 + s 1 = 10, × 6.
        assert_eq!(of(Scoring::Boojum, "strangers"), 60);
        assert_eq!(of(Scoring::Boojum, "at"), 0);
    }

    /// The per-word points of a word tree are each word's own.
    #[test]
    fn word_points_follow_the_words() {
        let d = crate::dict::Dictionary::from_text("t", b"quiz\nstrange\nbee\nboggle\n");
        let trie = d.trie();
        for scoring in [Scoring::Standard, Scoring::Fibonacci, Scoring::Boojum] {
            let points = scoring.word_points(trie);
            for word in ["quiz", "strange", "bee", "boggle"] {
                let letters: Vec<u8> = word.replace("qu", "q").bytes().map(|b| b - b'a').collect();
                let node = trie.walk(&letters).expect("in the tree");
                let w = trie.word(node).expect("a word");
                assert_eq!(points[w as usize], of(scoring, word), "{scoring} {word}");
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for s in [
            Scoring::Standard,
            Scoring::Words,
            Scoring::Pow2,
            Scoring::Fibonacci,
            Scoring::Boojum,
        ] {
            assert_eq!(s.name().parse::<Scoring>(), Ok(s));
        }
        assert!(
            "scrabble"
                .parse::<Scoring>()
                .unwrap_err()
                .contains("boojum")
        );
    }
}
