//! The word-list filter of DESIGN.md: which lines of a word list are Boggle words.

/// A word that passed the filter, with `qu` folded to `q`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FilteredWord {
    /// Letter indices (0..26), `qu` folded to the single letter `q`.
    pub letters: Vec<u8>,
    /// The word's length as spelled, counting both letters of `qu`: the length that scores.
    pub spelled_len: u8,
}

/// Applies the filter to one line: trims a trailing CR and white space, folds case, keeps the
/// word only if it is all `a`-`z`, at least 3 letters, and every `q` is followed by `u`.
pub fn filter_word(line: &str) -> Option<FilteredWord> {
    let word = line.trim();
    let bytes = word.as_bytes();
    if bytes.len() < 3 || bytes.len() > u8::MAX as usize {
        return None;
    }
    let mut letters = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i].to_ascii_lowercase();
        if !b.is_ascii_lowercase() {
            return None;
        }
        if b == b'q' {
            if bytes.get(i + 1).map(|c| c.to_ascii_lowercase()) != Some(b'u') {
                return None;
            }
            i += 1;
        }
        letters.push(b - b'a');
        i += 1;
    }
    Some(FilteredWord {
        letters,
        spelled_len: bytes.len() as u8,
    })
}

/// Filters a whole word list (one word per line, CRLF tolerated); duplicates are removed and
/// the words are returned sorted by their folded letters.
pub fn filter_words(text: &str) -> Vec<FilteredWord> {
    let mut words: Vec<FilteredWord> = text.lines().filter_map(filter_word).collect();
    words.sort();
    words.dedup_by(|a, b| a.letters == b.letters);
    words
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

    #[test]
    fn filter_rules() {
        assert_eq!(filter_word("Queen\r").unwrap().spelled_len, 5);
        assert_eq!(spell(&filter_word("queen").unwrap().letters), "queen");
        assert_eq!(filter_word("queen").unwrap().letters.len(), 4);
        assert!(filter_word("qat").is_none());
        assert!(filter_word("ab").is_none());
        assert!(filter_word("don't").is_none());
        assert!(filter_word("café").is_none());
        assert!(filter_word("tranq").is_none());
        assert!(filter_word("CAT").is_some());
    }
}
