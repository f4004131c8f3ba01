//! The word-list filter of DESIGN.md: which lines of a word list are Boggle words.

/// Applies the filter to one line: trims white space (a CR too) from both ends, folds case,
/// keeps the word only if it is all `a`-`z`, at least 3 letters, and every `q` is followed by
/// `u`. Appends the kept word's letters to `out`, `qu` folded to the single letter `q`, and
/// returns its length as spelled (counting both letters of `qu`: the length that scores); on
/// a refused line `out` is left as it was.
fn fold_into(line: &str, out: &mut Vec<u8>) -> Option<u8> {
    let bytes = line.trim().as_bytes();
    if bytes.len() < 3 || bytes.len() > u8::MAX as usize {
        return None;
    }
    let start = out.len();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i].to_ascii_lowercase();
        let q_without_u = b == b'q' && bytes.get(i + 1).map(u8::to_ascii_lowercase) != Some(b'u');
        if !b.is_ascii_lowercase() || q_without_u {
            out.truncate(start);
            return None;
        }
        out.push(b - b'a');
        i += if b == b'q' { 2 } else { 1 };
    }
    Some(bytes.len() as u8)
}

/// The words of a list that passed the filter: sorted by their folded letters, distinct, and
/// kept in one buffer (a list of 170,000 words is then three allocations, not 170,000).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilteredWords {
    /// Every word's folded letters, one word after another.
    letters: Vec<u8>,
    /// Word `i`'s letters are `letters[starts[i]..starts[i + 1]]`; one entry more than words.
    starts: Vec<usize>,
    /// Each word's length as spelled, counting both letters of `qu` (the length that scores).
    spelled_len: Vec<u8>,
    /// Lines of the list that were not blank and that the filter refused.
    skipped_lines: usize,
    /// Lines that passed the filter but spell a word an earlier line kept (the same word in
    /// another case, or again).
    repeated_lines: usize,
}

impl FilteredWords {
    /// Number of words.
    pub fn len(&self) -> usize {
        self.spelled_len.len()
    }

    /// Whether no word passed the filter.
    pub fn is_empty(&self) -> bool {
        self.spelled_len.is_empty()
    }

    /// Word `i`'s folded letters.
    #[inline]
    pub fn letters(&self, i: usize) -> &[u8] {
        &self.letters[self.starts[i]..self.starts[i + 1]]
    }

    /// Word `i`'s spelled length, the length that scores.
    pub fn spelled_len(&self, i: usize) -> u8 {
        self.spelled_len[i]
    }

    /// Lines of the list that were not blank and that the filter refused.
    pub fn skipped_lines(&self) -> usize {
        self.skipped_lines
    }

    /// Lines that passed the filter but spell a word another line kept.
    pub fn repeated_lines(&self) -> usize {
        self.repeated_lines
    }

    /// Every word's spelled length, by position.
    pub fn spelled_lens(&self) -> &[u8] {
        &self.spelled_len
    }

    /// The words in the given order, keeping only the first of equal ones.
    fn reordered(&self, order: &[usize]) -> FilteredWords {
        let mut out = FilteredWords {
            letters: Vec::with_capacity(self.letters.len()),
            starts: vec![0],
            spelled_len: Vec::with_capacity(order.len()),
            skipped_lines: self.skipped_lines,
            repeated_lines: self.repeated_lines,
        };
        for &i in order {
            let word = self.letters(i);
            if !out.is_empty() && out.letters(out.len() - 1) == word {
                continue;
            }
            out.letters.extend_from_slice(word);
            out.starts.push(out.letters.len());
            out.spelled_len.push(self.spelled_len[i]);
        }
        out.repeated_lines += order.len() - out.len();
        out
    }
}

/// Filters a whole word list (one word per line; lines end in LF, CRLF or a lone CR, and a
/// byte-order mark at a line's start is dropped, as lists joined with `cat` carry them);
/// duplicates are removed and the words are returned sorted by their folded letters.
pub fn filter_words(text: &str) -> FilteredWords {
    let mut words = FilteredWords {
        letters: Vec::with_capacity(text.len()),
        starts: vec![0],
        spelled_len: Vec::new(),
        skipped_lines: 0,
        repeated_lines: 0,
    };
    for line in crate::text::lines(text) {
        let line = line.trim_start_matches('\u{feff}');
        if let Some(len) = fold_into(line, &mut words.letters) {
            words.starts.push(words.letters.len());
            words.spelled_len.push(len);
        } else if !line.trim().is_empty() {
            words.skipped_lines += 1;
        }
    }
    // A list sorted as written (ENABLE2K and most lists) is sorted folded too, since every
    // `q` is followed by `u`; any other is sorted here, the first of equal words kept.
    let sorted = (1..words.len()).all(|i| words.letters(i - 1) < words.letters(i));
    if sorted {
        return words;
    }
    let mut order: Vec<usize> = (0..words.len()).collect();
    order.sort_by(|&a, &b| words.letters(a).cmp(words.letters(b)));
    words.reordered(&order)
}

/// Spells folded letters as the word is written, `q` as `qu`.
pub fn spell(letters: &[u8]) -> String {
    let mut s = String::with_capacity(letters.len() + 2);
    for &l in letters {
        s.push((b'a' + l) as char);
        if l == crate::board::LETTER_Q {
            s.push('u');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One line's folded letters and spelled length, if the filter keeps it.
    fn filter_word(line: &str) -> Option<(Vec<u8>, u8)> {
        let mut letters = Vec::new();
        fold_into(line, &mut letters).map(|len| (letters, len))
    }

    #[test]
    fn filter_rules() {
        assert_eq!(filter_word("Queen\r").unwrap().1, 5);
        assert_eq!(spell(&filter_word("queen").unwrap().0), "queen");
        assert_eq!(filter_word("queen").unwrap().0.len(), 4);
        assert!(filter_word("qat").is_none());
        assert!(filter_word("ab").is_none());
        assert!(filter_word("don't").is_none());
        assert!(filter_word("café").is_none());
        assert!(filter_word("tranq").is_none());
        assert!(filter_word("CAT").is_some());
    }

    /// A list out of order, with a word twice in two cases and lines the filter refuses
    /// (`ab` too short, `qat` a q without u), comes out sorted by folded letters (`quit` and
    /// `quiz` fold to `qit` and `qiz`) and distinct, each word with its spelled length, and
    /// counts the lines it refused and the lines that repeated a word.
    #[test]
    fn lists_come_out_sorted_and_distinct() {
        let words = filter_words("zoo\nquiz\r\nCat\nab\ncat\nqat\n  dog \nquit\n");
        let spelled: Vec<(String, u8)> = (0..words.len())
            .map(|i| (spell(words.letters(i)), words.spelled_len(i)))
            .collect();
        let expected = [("cat", 3), ("dog", 3), ("quit", 4), ("quiz", 4), ("zoo", 3)];
        let expected: Vec<(String, u8)> = expected.iter().map(|&(w, l)| (w.into(), l)).collect();
        assert_eq!(spelled, expected);
        assert_eq!(words.spelled_lens(), &[3, 3, 4, 4, 3]);
        let sorted = filter_words("cat\ndog\nquit\nquiz\nzoo\n");
        assert_eq!(words.letters, sorted.letters);
        assert_eq!((words.skipped_lines(), sorted.skipped_lines()), (2, 0));
        // `cat` after `Cat`: one word, one line repeated.
        assert_eq!((words.repeated_lines(), sorted.repeated_lines()), (1, 0));
        assert!(filter_words("ab\nq\n").is_empty());
    }

    /// Lines end in LF, CRLF or a lone CR (old Mac files); a byte-order mark at any line's
    /// start (lists joined with `cat`) is not part of the word; blank lines are not counted
    /// as skipped, refused ones are.
    #[test]
    fn line_ends_and_byte_order_marks() {
        let words = filter_words("\u{feff}cat\rsea\r\n\u{feff}tea\n\n  \r\neat\rab\rcafé\n");
        let spelled: Vec<String> = (0..words.len()).map(|i| spell(words.letters(i))).collect();
        assert_eq!(spelled, ["cat", "eat", "sea", "tea"]);
        assert_eq!(words.skipped_lines(), 2);
    }
}
