//! Boards: sizes, cell geometry, letters, parsing, symmetry (canonical forms) and dice.
//!
//! Cells are numbered column-major: cell `i` sits in column `i / rows`, row `i % rows`.
//! A letter is stored as `0..26` (`a` = 0); the letter `q` stands for the die face "Qu".

pub mod dice;
mod geometry;
mod symmetry;

pub use dice::{Dice, DiceError};
pub use geometry::{Geometry, Size};
pub use symmetry::Symmetries;

use std::fmt;

/// The largest board side this program handles.
pub const MAX_SIDE: usize = 6;
/// The most cells any board can have (6x6).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
/// Letters in the alphabet.
pub const ALPHABET: usize = 26;
/// The letter index of `q` (which stands for "Qu").
pub const LETTER_Q: u8 = b'q' - b'a';

/// What a board of the wrong length most likely meant: its Qu die spelled out, or a board
/// of the sizes (sides 2 to 6) with that many cells.
fn length_hint(got: usize, qu_spelled_out: bool) -> String {
    if qu_spelled_out {
        return " (the Qu die is written q)".to_string();
    }
    let sizes: Vec<String> = (2..=MAX_SIDE)
        .flat_map(|c| (2..=MAX_SIDE).map(move |r| (c, r)))
        .filter(|(c, r)| c * r == got)
        .map(|(c, r)| format!("{c}x{r}"))
        .collect();
    match sizes.as_slice() {
        [] => String::new(),
        [one] => format!(" ({got} letters make a {one} board)"),
        [rest @ .., last] => format!(
            " ({got} letters make a {} or {last} board)",
            rest.join(", ")
        ),
    }
}

/// Why a board, size or letter string was rejected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardError {
    /// The size is not of the form `CxR` with both sides in 1..=6.
    #[error("bad size '{got}': expected CxR with C and R from 1 to 6, e.g. 4x4 or 3x4")]
    BadSize {
        /// What the user wrote.
        got: String,
    },
    /// The board has the wrong number of letters for its size.
    #[error(
        "board '{board}' has {got} letter{}, but a {size} board needs {expected}{}",
        if *.got == 1 { "" } else { "s" },
        length_hint(*.got, *.qu_spelled_out)
    )]
    WrongLength {
        /// The board as given.
        board: String,
        /// The size it was read with.
        size: Size,
        /// How many letters that size needs.
        expected: usize,
        /// How many it had.
        got: usize,
        /// Whether it has the right length once each `qu` is read as the one letter `q`.
        qu_spelled_out: bool,
    },
    /// A character outside `a`..`z`.
    #[error("board '{board}' has '{ch}', which is not a letter a-z")]
    BadLetter {
        /// The board as given.
        board: String,
        /// The offending character.
        ch: char,
    },
}

/// The most characters of a rejected board that its error repeats.
const ECHO_CHARS: usize = 40;

/// `text` for an error message: whole if short, else its first [`ECHO_CHARS`] characters
/// and `…` (a whole file piped in as one line is not repeated back).
fn echo(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// One concrete board: a letter on every cell of a [`Size`].
///
/// Cells past `size.cells()` are always zero, so derived equality and hashing are exact.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    size: Size,
    letters: [u8; MAX_CELLS],
}

impl Board {
    /// Parses a board written as its letters in cell order (case-insensitive).
    pub fn parse(size: Size, text: &str) -> Result<Board, BoardError> {
        let text = text.trim();
        let n = size.cells();
        // Counted by characters, without decoding them when each is one byte (the common case).
        let got = if text.is_ascii() {
            text.len()
        } else {
            text.chars().count()
        };
        if got != n {
            // A space or a stray character says more than a count that includes it.
            if let Some(ch) = text.chars().find(|c| !c.is_ascii_alphabetic()) {
                return Err(BoardError::BadLetter {
                    board: echo(text),
                    ch,
                });
            }
            let qu = text.to_ascii_lowercase().matches("qu").count();
            return Err(BoardError::WrongLength {
                board: echo(text),
                size,
                expected: n,
                got,
                qu_spelled_out: qu > 0 && got - qu == n,
            });
        }
        let mut letters = [0u8; MAX_CELLS];
        for (slot, ch) in letters.iter_mut().zip(text.chars()) {
            let lower = ch.to_ascii_lowercase();
            if !lower.is_ascii_lowercase() {
                return Err(BoardError::BadLetter {
                    board: text.to_string(),
                    ch,
                });
            }
            *slot = lower as u8 - b'a';
        }
        Ok(Board { size, letters })
    }

    /// Builds a board from letter indices (each below 26), one per cell.
    ///
    /// # Panics
    /// If `letters` has the wrong length or holds a value of 26 or more: callers build these
    /// from validated data, so a mismatch is a bug, not bad input.
    pub fn from_letters(size: Size, letters: &[u8]) -> Board {
        assert_eq!(letters.len(), size.cells(), "board length");
        assert!(letters.iter().all(|&l| (l as usize) < ALPHABET), "letter");
        let mut out = [0u8; MAX_CELLS];
        out[..letters.len()].copy_from_slice(letters);
        Board { size, letters: out }
    }

    /// The board's size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The letter indices, one per cell.
    pub fn letters(&self) -> &[u8] {
        &self.letters[..self.size.cells()]
    }

    /// The letter on one cell.
    pub fn get(&self, cell: usize) -> u8 {
        self.letters()[cell]
    }

    /// Sets the letter on one cell.
    pub fn set(&mut self, cell: usize, letter: u8) {
        debug_assert!((letter as usize) < ALPHABET);
        let n = self.size.cells();
        self.letters[..n][cell] = letter;
    }

    /// Swaps the letters of two cells.
    pub fn swap(&mut self, a: usize, b: usize) {
        let n = self.size.cells();
        self.letters[..n].swap(a, b);
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = [0u8; MAX_CELLS];
        let n = self.letters().len();
        for (t, &l) in text.iter_mut().zip(self.letters()) {
            *t = b'a' + l;
        }
        // Letters are 0..26, so the bytes are ASCII.
        f.write_str(std::str::from_utf8(&text[..n]).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} {})", self.size, self)
    }
}

impl Board {
    /// The board drawn as its grid, one line per row, cells upper-case and separated by
    /// spaces, the Qu die as `Qu` (on a board with a Qu every cell is two characters wide, so
    /// the columns line up). Each line ends with a newline.
    pub fn grid(&self) -> String {
        let (cols, rows) = (self.size.cols(), self.size.rows());
        let wide = self.letters().contains(&(b'q' - b'a'));
        let mut out = String::new();
        for r in 0..rows {
            let cells: Vec<String> = (0..cols)
                .map(|c| {
                    let l = self.get(c * rows + r);
                    match (letter_char(l), wide) {
                        ('q', _) => "Qu".to_string(),
                        (ch, true) => format!("{} ", ch.to_ascii_uppercase()),
                        (ch, false) => ch.to_ascii_uppercase().to_string(),
                    }
                })
                .collect();
            out.push_str(cells.join(" ").trim_end());
            out.push('\n');
        }
        out
    }
}

/// The character for a letter index.
pub fn letter_char(letter: u8) -> char {
    (b'a' + letter) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_draws_rows_as_rows() {
        let b = Board::parse(Size::new(3, 3).unwrap(), "deslatper").unwrap();
        assert_eq!(b.grid(), "D L P\nE A E\nS T R\n");
        // 3 columns, 4 rows: column-major, so cells 0-3 are the first column.
        let b = Board::parse(Size::new(3, 4).unwrap(), "perslatesind").unwrap();
        assert_eq!(b.grid(), "P L S\nE A I\nR T N\nS E D\n");
        let b = Board::parse(Size::new(2, 2).unwrap(), "qiet").unwrap();
        assert_eq!(b.grid(), "Qu E\nI  T\n");
    }

    #[test]
    fn parse_round_trips_and_rejects_bad_input() {
        let size = Size::new(4, 4).unwrap();
        let b = Board::parse(size, "perslatgsineters").unwrap();
        assert_eq!(b.to_string(), "perslatgsineters");
        assert_eq!(b.get(0), b'p' - b'a');
        assert!(matches!(
            Board::parse(size, "abc"),
            Err(BoardError::WrongLength { got: 3, .. })
        ));
        // A number of letters that fills boards of other sizes names them.
        let five = "abcdefghijklmnopqrstuvwxy";
        assert_eq!(
            Board::parse(size, five).unwrap_err().to_string(),
            format!(
                "board '{five}' has 25 letters, but a 4x4 board needs 16 (25 letters make a 5x5 board)"
            )
        );
        let nine = Board::parse(Size::new(3, 4).unwrap(), "abcdefghi").unwrap_err();
        assert!(
            nine.to_string()
                .ends_with("needs 12 (9 letters make a 3x3 board)"),
            "{nine}"
        );
        let twelve = Board::parse(size, "abcdefghijkl").unwrap_err();
        assert!(
            twelve
                .to_string()
                .ends_with("(12 letters make a 2x6, 3x4, 4x3 or 6x2 board)"),
            "{twelve}"
        );
        let seven = Board::parse(size, "abcdefg").unwrap_err();
        assert!(seven.to_string().ends_with("needs 16"), "{seven}");
        assert!(matches!(
            Board::parse(size, "perslatgsinete1s"),
            Err(BoardError::BadLetter { ch: '1', .. })
        ));
        // A character that is not a letter is named, whatever the length: a space in a
        // board said more than "has 17 letters" did.
        assert!(matches!(
            Board::parse(size, "perslatgsinetere\u{df}"),
            Err(BoardError::BadLetter { ch: '\u{df}', .. })
        ));
        assert!(matches!(
            Board::parse(size, "perslatgsinete\u{e9}"),
            Err(BoardError::BadLetter { ch: '\u{e9}', .. })
        ));
        assert!(matches!(
            Board::parse(size, "pers latgsineters"),
            Err(BoardError::BadLetter { ch: ' ', .. })
        ));
        assert!(matches!(
            Board::parse(size, "perslatgsineter\u{df}"),
            Err(BoardError::BadLetter { ch: '\u{df}', .. })
        ));
        assert_eq!(
            Board::parse(size, "PERSLATGSINETERS").unwrap().to_string(),
            "perslatgsineters"
        );
        // A long line is not repeated back whole (and is cut between characters).
        let long = "a".repeat(100_000);
        let err = Board::parse(size, &long).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "board '{}…' has 100000 letters, but a 4x4 board needs 16",
                "a".repeat(40)
            )
        );
        let long = "\u{e9}".repeat(100_000);
        let err = Board::parse(size, &long).unwrap_err().to_string();
        assert_eq!(
            err,
            format!(
                "board '{}…' has '\u{e9}', which is not a letter a-z",
                "\u{e9}".repeat(40)
            )
        );
    }
}
