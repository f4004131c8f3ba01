//! Points per word: the standard length table, the `words`, `pow2` and `fibonacci` length
//! tables, `boojum`, whose points also depend on the word's letters, and tables of the user's
//! own ([`ScoringTable`], read from a small text file).

use crate::board::{LETTER_Q, MAX_CELLS};
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
    /// A table of the user's own (see [`ScoringTable`]). Tables are made once per process
    /// and live as long as it does, so a scoring stays a small `Copy` value.
    Table(&'static ScoringTable),
}

/// Points per length, and optionally values per letter, read from a text file:
///
/// ```text
/// # one rule per line; '#' starts a comment
/// 3 1          # a word of 3 letters (Qu counting two) scores 1
/// 4 1
/// 5 2
/// 8+ 11        # the last length rule ends in '+': 8 letters or more
/// letter q 10  # optional: with values for all 26 letters, a word scores the sum of its
///              # letters' values times its length's points; the Qu die is q's value plus u's
/// ```
///
/// Length rules start at 3 and name every length up to the last one, which ends in `+`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScoringTable {
    /// `by_length[n]`: points of a word of `n` letters; the last entry holds for longer ones.
    by_length: Vec<u32>,
    /// Letter values, a to z, if the table gives them.
    letters: Option<[u32; 26]>,
    /// The table written as one line, `table:3=1,4=1,5=2,8+=11[;letters=v,v,...]`: how runs
    /// record it, and how it is compared.
    text: String,
}

impl ScoringTable {
    /// Parses a table file's text; errors name the line.
    pub fn parse(text: &str) -> Result<ScoringTable, String> {
        let mut by_length: Vec<u32> = vec![0; 3];
        let mut open_ended = false;
        let mut letters = [None; 26];
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let at = |why: String| format!("line {}: {why}: '{}'", i + 1, raw.trim());
            let fields: Vec<&str> = line.split_whitespace().collect();
            let number = |f: &str| {
                f.parse::<u32>().map_err(|_| {
                    at(if !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) {
                        format!("'{f}' is more than {} points", u32::MAX)
                    } else {
                        format!("'{f}' is not a whole number of points")
                    })
                })
            };
            match fields.as_slice() {
                ["letter", l, v] => {
                    let b = l.as_bytes();
                    if b.len() != 1 || !b[0].is_ascii_alphabetic() {
                        return Err(at(format!("'{l}' is not a letter a-z")));
                    }
                    let slot = &mut letters[(b[0].to_ascii_lowercase() - b'a') as usize];
                    if slot.is_some() {
                        return Err(at(format!("letter {l} is given twice")));
                    }
                    *slot = Some(number(v)?);
                }
                [len, v] => {
                    if open_ended {
                        return Err(at("no length rule may follow the one ending in '+'".into()));
                    }
                    let (digits, plus) = match len.strip_suffix('+') {
                        Some(d) => (d, true),
                        None => (*len, false),
                    };
                    let n: usize = digits
                        .parse()
                        .map_err(|_| at(format!("'{len}' is not a length (like 5 or 8+)")))?;
                    if n != by_length.len() {
                        return Err(at(format!(
                            "expected the rule for length {} (rules start at 3, one per length)",
                            by_length.len()
                        )));
                    }
                    by_length.push(number(v)?);
                    open_ended = plus;
                }
                _ => {
                    return Err(at(
                        "expected 'LENGTH POINTS', 'LENGTH+ POINTS' or 'letter L VALUE'".into(),
                    ));
                }
            }
        }
        if !open_ended {
            return Err(format!(
                "the last length rule must end in '+' (like '{}+ 11'), for longer words",
                by_length.len().max(4) - 1
            ));
        }
        let letters = match letters.iter().filter(|v| v.is_some()).count() {
            0 => None,
            26 => Some(letters.map(|v| v.unwrap_or(0))),
            _ => {
                let missing: String = (b'a'..=b'z')
                    .zip(letters)
                    .filter(|(_, v)| v.is_none())
                    .map(|(l, _)| l as char)
                    .collect();
                return Err(format!(
                    "letter values must name all 26 letters; missing: {missing}"
                ));
            }
        };
        Ok(ScoringTable::new(by_length, letters))
    }

    fn new(by_length: Vec<u32>, letters: Option<[u32; 26]>) -> ScoringTable {
        let rules: Vec<String> = (3..by_length.len())
            .map(|n| {
                let plus = if n + 1 == by_length.len() { "+" } else { "" };
                format!("{n}{plus}={}", by_length[n])
            })
            .collect();
        let mut text = format!("table:{}", rules.join(","));
        if let Some(values) = letters {
            let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            text += &format!(";letters={}", values.join(","));
        }
        ScoringTable {
            by_length,
            letters,
            text,
        }
    }

    /// Parses the one-line form of [`ScoringTable::text`].
    fn from_text(line: &str) -> Result<ScoringTable, String> {
        let bad = || format!("malformed scoring table '{line}'");
        let body = line.strip_prefix("table:").ok_or_else(bad)?;
        let (rules, letters) = match body.split_once(";letters=") {
            Some((r, l)) => (r, Some(l)),
            None => (body, None),
        };
        let mut file = String::new();
        for rule in rules.split(',') {
            let (len, points) = rule.split_once('=').ok_or_else(bad)?;
            file += &format!("{len} {points}\n");
        }
        if let Some(values) = letters {
            let values: Vec<&str> = values.split(',').collect();
            if values.len() != 26 {
                return Err(bad());
            }
            for (l, v) in (b'a'..=b'z').zip(values) {
                file += &format!("letter {} {v}\n", l as char);
            }
        }
        // Only the exact form a table writes is accepted, so a run's record compares equal.
        match ScoringTable::parse(&file) {
            Ok(table) if table.text == line => Ok(table),
            _ => Err(bad()),
        }
    }

    /// The table as one line, as run directories record it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The points of a word of `len` letters as spelled, with these `letters` (16 = the Qu
    /// die), without saturation.
    fn exact_points(&self, len: usize, letters: &[u8]) -> u128 {
        if len < 3 {
            return 0;
        }
        let per_length = self.by_length[len.min(self.by_length.len() - 1)] as u128;
        match &self.letters {
            None => per_length,
            Some(values) => {
                let sum: u128 = letters
                    .iter()
                    .map(|&l| {
                        let v = values[l as usize] as u128;
                        if l == LETTER_Q {
                            v + values[LETTER_U] as u128
                        } else {
                            v
                        }
                    })
                    .sum();
                sum * per_length
            }
        }
    }
}

/// `points` as a word's 32-bit points: `u32::MAX` past it.
fn saturate(points: u128) -> u32 {
    points.min(u32::MAX as u128) as u32
}

/// `u`'s place among the letters (the Qu die adds its value to q's).
const LETTER_U: usize = (b'u' - b'a') as usize;

/// Calls `f(word id, its letters)` for every word of `trie` (letters 0 = a, …, 16 = q for
/// the Qu die), depth first, until `f` returns false.
fn for_each_word(trie: Trie<'_>, mut f: impl FnMut(u32, &[u8]) -> bool) {
    // The stack holds (node, its depth, its last letter); `letters` spells the node just
    // popped.
    let mut letters: Vec<u8> = Vec::new();
    let mut stack = vec![(trie.root(), 0usize, 0u8)];
    while let Some((node, depth, letter)) = stack.pop() {
        if depth > 0 {
            letters.truncate(depth - 1);
            letters.push(letter);
        }
        if let Some(w) = trie.word(node)
            && !f(w, &letters)
        {
            return;
        }
        let mut mask = trie.child_mask(node);
        while mask != 0 {
            let l = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let child = trie.child_unchecked_letter(node, trie.child_mask(node), l);
            stack.push((child, depth + 1, l));
        }
    }
}

/// Boojum's value of each letter, a to z (`q` alone; the Qu die adds `u`).
const BOOJUM_VALUES: [u32; 26] = [
    1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10,
];

impl Scoring {
    /// Every scoring with a name (all but tables of one's own), in the order help texts list
    /// them. Parsing, error messages and the soundness tests go through this list, so a new
    /// named scoring is added here (and to `name`, `length_points` and the points' match).
    pub const NAMED: [Scoring; 5] = [
        Scoring::Standard,
        Scoring::Words,
        Scoring::Pow2,
        Scoring::Fibonacci,
        Scoring::Boojum,
    ];

    /// The named scorings as a message lists them: `standard, words, ..., boojum`.
    fn named_list() -> String {
        let names: Vec<&str> = Scoring::NAMED.iter().map(|s| s.name()).collect();
        names.join(", ")
    }

    /// A scoring as a run recorded it ([`Scoring::name`]): a named one or a table's one-line
    /// form, never a file (a manifest's scoring must not depend on the directory a run is
    /// resumed from).
    pub fn from_recorded(s: &str) -> Result<Scoring, String> {
        if let Some(&named) = Scoring::NAMED.iter().find(|n| n.name() == s) {
            return Ok(named);
        }
        if s.starts_with("table:") {
            let table = ScoringTable::from_text(s)?;
            // One leak per table a process reads: a scoring is a small Copy value.
            return Ok(Scoring::Table(Box::leak(Box::new(table))));
        }
        Err(format!(
            "unknown scoring '{s}' (this bogglemax knows {} and tables; was the run planned by \
             a newer one?)",
            Scoring::named_list()
        ))
    }

    /// Points of a word given as its letters (0 = a, …, with 16 = q standing for `qu`, as on
    /// a board and in the word tree). Its length as spelled counts `qu` as two letters. Words
    /// shorter than 3 score nothing; points saturate at `u32::MAX` (pow2 from 35 letters on),
    /// which is why commands refuse a scoring that does so for a word of their list
    /// ([`Scoring::word_beyond_u32`]).
    pub fn points_of(self, letters: &[u8]) -> u32 {
        saturate(self.exact_points(letters))
    }

    /// [`Scoring::points_of`] without saturation.
    fn exact_points(self, letters: &[u8]) -> u128 {
        let len = letters.len() + letters.iter().filter(|&&l| l == LETTER_Q).count();
        match self {
            Scoring::Boojum if len >= 3 => {
                let values: u128 = letters
                    .iter()
                    .map(|&l| (BOOJUM_VALUES[l as usize] + u32::from(l == LETTER_Q)) as u128)
                    .sum();
                let multiplier = match len {
                    3 | 4 => 1,
                    5 => 2,
                    6 => 3,
                    7 => 4,
                    8 => 5,
                    _ => 6,
                };
                values * multiplier
            }
            Scoring::Table(table) => table.exact_points(len, letters),
            _ => self.exact_length_points(len),
        }
    }

    /// Points of a word of `len` letters as spelled, for the scorings whose points depend on
    /// the length only, saturated as [`Scoring::points_of`] is.
    fn length_points(self, len: usize) -> u32 {
        saturate(self.exact_length_points(len))
    }

    /// [`Scoring::length_points`] without saturation (0 for `boojum` and tables, whose
    /// points [`Scoring::exact_points`] makes from the letters too).
    fn exact_length_points(self, len: usize) -> u128 {
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
            Scoring::Pow2 => 1u128.checked_shl(len as u32 - 3).unwrap_or(u128::MAX),
            Scoring::Fibonacci => {
                let (mut a, mut b) = (1u128, 1u128); // lengths 3 and 4
                for _ in 4..=len {
                    (a, b) = (b, a.saturating_add(b));
                }
                a
            }
            Scoring::Boojum | Scoring::Table(_) => 0,
        }
    }

    /// Whether a word's points depend on its length alone (not on its letters).
    fn by_length_alone(self) -> bool {
        match self {
            Scoring::Standard | Scoring::Words | Scoring::Pow2 | Scoring::Fibonacci => true,
            Scoring::Boojum | Scoring::Table(_) => false,
        }
    }

    /// The points of every word of `trie`, by word id: from each word's spelled length for
    /// the scorings by length alone, else one walk over the tree, which spells each word on
    /// the way to it.
    pub fn word_points(self, trie: Trie<'_>) -> Vec<u32> {
        if self.by_length_alone() {
            // Points by length alone: the tree keeps each word's spelled length.
            return trie
                .raw_word_len()
                .iter()
                .map(|&len| self.length_points(len as usize))
                .collect();
        }
        let mut points = vec![0; trie.word_count()];
        for_each_word(trie, |w, letters| {
            points[w as usize] = self.points_of(letters);
            true
        });
        points
    }

    /// The first word of `trie` that fits a board (at most [`MAX_CELLS`] dice) and would
    /// score more than `u32::MAX` points under this scoring, spelled (`qu` for the Qu die);
    /// `None` if every such word's points fit. A word's points are kept in 32 bits
    /// ([`Scoring::points_of`] saturates), so a scoring for which this is `Some` must be
    /// refused: that word's points, and every board score holding it, would be too low.
    pub fn word_beyond_u32(self, trie: Trie<'_>) -> Option<String> {
        const MAX: u128 = u32::MAX as u128;
        // Whether any word might: a cheap upper bound first, so that the usual scorings
        // never walk the word list.
        let might = match self {
            Scoring::Standard | Scoring::Words => false,
            // At most 6 × 11 × MAX_CELLS points: far below.
            Scoring::Boojum => false,
            Scoring::Pow2 | Scoring::Fibonacci => {
                let longest = trie.raw_word_len().iter().copied().max().unwrap_or(0);
                self.exact_length_points(longest as usize) > MAX
            }
            Scoring::Table(table) => match &table.letters {
                None => false,
                Some(values) => {
                    let q_die = values[LETTER_Q as usize] as u128 + values[LETTER_U] as u128;
                    let per_die = values.iter().map(|&v| v as u128).max().unwrap_or(0);
                    let per_length = table.by_length.iter().copied().max().unwrap_or(0);
                    per_die.max(q_die) * MAX_CELLS as u128 * per_length as u128 > MAX
                }
            },
        };
        if !might {
            return None;
        }
        let mut found = None;
        for_each_word(trie, |_, letters| {
            if letters.len() <= MAX_CELLS && self.exact_points(letters) > MAX {
                let spelled = letters.iter().map(|&l| {
                    if l == LETTER_Q {
                        "qu".to_string()
                    } else {
                        ((b'a' + l) as char).to_string()
                    }
                });
                found = Some(spelled.collect());
                return false;
            }
            true
        });
        found
    }

    /// The name used on the command line and in manifests; for a table, its one-line form
    /// ([`ScoringTable::text`]), so that runs compare tables by their contents.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Table(table) => table.text(),
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
    /// A built-in name, a table's one-line form (as runs record it), or the path of a table
    /// file.
    fn from_str(s: &str) -> Result<Scoring, String> {
        if Scoring::NAMED.iter().any(|n| n.name() == s) || s.starts_with("table:") {
            return Scoring::from_recorded(s);
        }
        let path = std::path::Path::new(s);
        if !path.is_file() {
            // A name with a slash or a dot was meant as a file.
            let what = if path.exists() {
                format!("'{s}' is not a file")
            } else if s.contains(['/', '.']) {
                format!("no such scoring table file '{s}'")
            } else {
                format!("unknown scoring '{s}'")
            };
            return Err(format!(
                "{what}: expected {} or a scoring table file",
                Scoring::named_list()
            ));
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("scoring table {s}: {e}"))?;
        let table = ScoringTable::parse(&text).map_err(|e| format!("scoring table {s}: {e}"))?;
        // One leak per table a process reads: a scoring is a small Copy value used everywhere.
        Ok(Scoring::Table(Box::leak(Box::new(table))))
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

    /// The scorings named on the command line (not tables).
    const NAMED: [Scoring; Scoring::NAMED.len()] = Scoring::NAMED;

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
        let scorings = NAMED;
        for scoring in scorings {
            let points = scoring.word_points(trie);
            for word in ["quiz", "strange", "bee", "boggle"] {
                let letters: Vec<u8> = word.replace("qu", "q").bytes().map(|b| b - b'a').collect();
                let node = trie.walk(&letters).expect("in the tree");
                let w = trie.word(node).expect("a word");
                assert_eq!(points[w as usize], of(scoring, word), "{scoring} {word}");
            }
        }
    }

    /// A table of the user's own: Standard's lengths as a file give Standard's points; with
    /// Boojum's letter values and multipliers, Boojum's; its one-line form reads back to the
    /// same table; malformed tables are refused naming the line.
    #[test]
    fn tables_of_ones_own() {
        let standard = ScoringTable::parse("# standard\n3 1\n4 1\n5 2\n6 3\n7 5\n8+ 11\n").unwrap();
        let values = [
            1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 5, 1, 3, 1, 1, 3, 10, 1, 1, 1, 1, 4, 4, 8, 4, 10,
        ];
        let mut boojum = "3 1\n4 1\n5 2\n6 3\n7 4\n8 5\n9+ 6\n".to_string();
        for (l, v) in (b'a'..=b'z').zip(values) {
            boojum += &format!("letter {} {v}  # Boojum\n", l as char);
        }
        let boojum = ScoringTable::parse(&boojum).unwrap();
        let (standard, boojum) = (
            Scoring::Table(Box::leak(Box::new(standard))),
            Scoring::Table(Box::leak(Box::new(boojum))),
        );
        for word in [
            "quiz",
            "strange",
            "boggle",
            "quizzes",
            "strangers",
            "at",
            "abracadabra",
        ] {
            assert_eq!(of(standard, word), of(Scoring::Standard, word), "{word}");
            assert_eq!(of(boojum, word), of(Scoring::Boojum, word), "{word}");
        }
        for s in [standard, boojum] {
            assert_eq!(s.name().parse::<Scoring>(), Ok(s));
        }
        assert_eq!(standard.name(), "table:3=1,4=1,5=2,6=3,7=5,8+=11");
        // Only that exact form reads back.
        for near in [
            "table:3=1,4=1,5=2,6=3,7=5,8+=+11",
            "table:3=1, 4=1,5=2,6=3,7=5,8+=11",
        ] {
            assert!(near.parse::<Scoring>().is_err(), "{near}");
        }
        for (text, why) in [
            ("3 1\n4 x\n5+ 2\n", "line 2: 'x' is not a whole number"),
            ("3 1\n5+ 2\n", "line 2: expected the rule for length 4"),
            ("3 1\n4 1\n", "must end in '+'"),
            ("3+ 1\n4 2\n", "line 2: no length rule may follow"),
            ("3+ 1\nletter a 1\n", "missing: bcdefghijklmnopqrstuvwxyz"),
            ("3+ 1\nletter ab 1\n", "line 2: 'ab' is not a letter"),
            ("3+ 1\nthree 1 2 3\n", "line 2: expected 'LENGTH POINTS'"),
            (
                "3 1\n4+ 4294967296\n",
                "line 2: '4294967296' is more than 4294967295 points",
            ),
            (
                "3+ 1\nletter A 1\nletter a 2\n",
                "line 3: letter a is given twice",
            ),
        ] {
            let err = ScoringTable::parse(text).unwrap_err();
            assert!(err.contains(why) && !err.contains('\n'), "{text:?}: {err}");
        }
    }

    /// A scoring that would give a word of the list more points than 32 bits hold is found
    /// out, naming the word: the first such word by any path, and only words a board can
    /// hold (at most 36 dice). Every scoring that fits finds none.
    #[test]
    fn words_beyond_32_bit_points_are_named() {
        let table =
            |text: &str| Scoring::Table(Box::leak(Box::new(ScoringTable::parse(text).unwrap())));
        let mut values = String::new();
        for l in b'a'..=b'z' {
            values += &format!(
                "letter {} {}\n",
                l as char,
                if l == b'z' { 2_000_000_000 } else { 1 }
            );
        }
        let big = table(&format!("3+ 1\n{values}"));
        // "zzz" sums to 6e9 (× 1); "zap" to 2e9 + 2, which fits.
        let d = crate::dict::Dictionary::from_text("t", b"zap\nquiz\nzzz\n");
        assert_eq!(big.word_beyond_u32(d.trie()), Some("zzz".to_string()));
        let d = crate::dict::Dictionary::from_text("t", b"zap\nquiz\nbee\n");
        assert_eq!(big.word_beyond_u32(d.trie()), None);
        // × 2 from 5 letters: "zebra" 2 (2e9 + 4) fits, "fizz" 4e9 + 2 (× 1) fits, "fizzy"
        // 2 (4e9 + 3) does not.
        let times2 = table(&format!("3 1\n4 1\n5+ 2\n{values}"));
        let d = crate::dict::Dictionary::from_text("t", b"zebra\nfizz\n");
        assert_eq!(times2.word_beyond_u32(d.trie()), None);
        let d = crate::dict::Dictionary::from_text("t", b"zebra\nfizzy\nfizz\n");
        assert_eq!(times2.word_beyond_u32(d.trie()), Some("fizzy".to_string()));
        // pow2: 2^32 points from 35 letters on; a word of 37 letters fits no board.
        let word = |n: usize| "a".repeat(n);
        for (len, beyond) in [(34, false), (35, true), (36, true), (37, false)] {
            let d = crate::dict::Dictionary::from_text("t", format!("{}\n", word(len)).as_bytes());
            let got = Scoring::Pow2.word_beyond_u32(d.trie());
            assert_eq!(got.is_some(), beyond, "pow2, {len} letters");
            // Fibonacci's 36-letter word has fib(34) points: 5.7 million.
            assert_eq!(Scoring::Fibonacci.word_beyond_u32(d.trie()), None, "{len}");
        }
        // The Qu die spells two letters: 18 Qu dice are 36 letters, on 18 cells.
        let d =
            crate::dict::Dictionary::from_text("t", format!("{}\n", "qu".repeat(18)).as_bytes());
        assert_eq!(
            Scoring::Pow2.word_beyond_u32(d.trie()),
            Some("qu".repeat(18))
        );
        let enable = crate::dict::Dictionary::enable2k();
        for s in NAMED {
            assert_eq!(s.word_beyond_u32(enable.trie()), None, "{s}");
        }
    }

    #[test]
    fn names_round_trip() {
        for s in NAMED {
            assert_eq!(s.name().parse::<Scoring>(), Ok(s));
            assert_eq!(Scoring::from_recorded(s.name()), Ok(s));
        }
        assert!(
            "scrabble"
                .parse::<Scoring>()
                .unwrap_err()
                .contains("fibonacci, boojum or a scoring table file")
        );
    }

    /// A run's recorded scoring is a name or a table's one-line form, never a file: an
    /// existing file of the name (here the crate's Cargo.toml) is not read.
    #[test]
    fn recorded_scorings_are_never_files() {
        let table = ScoringTable::parse("3 1\n4+ 2\n").unwrap();
        let text = table.text();
        assert_eq!(
            Scoring::from_recorded(text).map(|s| s.name().to_string()),
            Ok(text.to_string())
        );
        let cargo = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        for name in [cargo, "squares"] {
            let err = Scoring::from_recorded(name).unwrap_err();
            assert!(err.contains("planned by a newer one"), "{err}");
        }
    }
}
