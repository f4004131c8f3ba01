//! Boggle dice: the classic and new 4x4 sets, rolling a board, and deciding exactly whether a
//! board can be rolled (a perfect matching of dice to cells, found by augmenting paths).
//!
//! A face `Qu` is the letter `q`, as on boards. Whether a board is rollable is a bipartite
//! matching question: cell `c` may take die `d` when one of `d`'s faces is `c`'s letter, and
//! the board is rollable when every cell gets its own die. Kuhn's algorithm answers it
//! exactly; a greedy "first free die" assignment does not (see the tests).

use super::{Board, Size};
use crate::rng::Rng;

/// The classic (pre-1987) 4x4 set, one die per string.
pub const CLASSIC: [&str; 16] = [
    "aaciot", "ahmors", "egkluy", "abilty", "acdemp", "egintv", "gilruw", "elpstu", "denosw",
    "acelrs", "abjmoq", "eefhiy", "ehinps", "dknotu", "adenvz", "biforx",
];

/// The new 4x4 set (`q` is the face Qu).
pub const NEW: [&str; 16] = [
    "aaeegn", "elrtty", "aoottw", "abbjoo", "ehrtvw", "cimotu", "distty", "eiosst", "delrvy",
    "achops", "himnqu", "eeinsu", "eeghnw", "affkps", "hlnnrz", "deilrx",
];

/// Why a dice set or a board could not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiceError {
    /// A set name other than `classic` or `new`.
    #[error("unknown dice set '{name}': expected classic or new")]
    UnknownSet {
        /// What the user wrote.
        name: String,
    },
    /// A die that is not six letters a-z.
    #[error("die '{die}' is not six letters a-z")]
    BadDie {
        /// The die as given.
        die: String,
    },
    /// A line of a dice file that is not a die.
    #[error("{set} line {line}: '{die}' is not a die of six letters a-z (q for Qu)")]
    BadDieLine {
        /// The file's name.
        set: String,
        /// Its line, from 1.
        line: usize,
        /// The line's text.
        die: String,
    },
    /// A set with no dice, or more than a board has cells.
    #[error("the {set} dice set has {dice} dice: a set has 1 to {MAX_DICE}")]
    DiceCount {
        /// The set's name.
        set: String,
        /// Its dice.
        dice: usize,
    },
    /// The board's cell count differs from the number of dice.
    #[error("a {size} board has {cells} cells, but the {set} dice set has {dice} dice")]
    WrongSize {
        /// The board size.
        size: Size,
        /// Its cells.
        cells: usize,
        /// The set's name.
        set: String,
        /// Dice in the set.
        dice: usize,
    },
}

/// The most dice in a set: a 6x6 board's cells (matchings are 64-bit masks over dice).
pub const MAX_DICE: usize = 36;

/// A set of six-sided dice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dice {
    name: String,
    faces: Vec<[u8; 6]>,
    /// `masks[d]` has bit `l` set when die `d` has letter `l` on a face.
    masks: Vec<u32>,
}

impl Dice {
    /// A set from its dice, each six letters (`q` = Qu), 1 to [`MAX_DICE`] dice.
    pub fn from_faces(name: &str, dice: &[&str]) -> Result<Dice, DiceError> {
        if dice.is_empty() || dice.len() > MAX_DICE {
            return Err(DiceError::DiceCount {
                set: name.to_string(),
                dice: dice.len(),
            });
        }
        let mut faces = Vec::with_capacity(dice.len());
        let mut masks = Vec::with_capacity(dice.len());
        for die in dice {
            let bytes = die.as_bytes();
            let bad = || DiceError::BadDie {
                die: die.to_string(),
            };
            if bytes.len() != 6 {
                return Err(bad());
            }
            let mut f = [0u8; 6];
            let mut mask = 0u32;
            for (slot, &b) in f.iter_mut().zip(bytes) {
                let l = b.to_ascii_lowercase();
                if !l.is_ascii_lowercase() {
                    return Err(bad());
                }
                *slot = l - b'a';
                mask |= 1 << *slot;
            }
            faces.push(f);
            masks.push(mask);
        }
        Ok(Dice {
            name: name.to_string(),
            faces,
            masks,
        })
    }

    /// The classic set.
    pub fn classic() -> Dice {
        // The constant is six lowercase letters per die, so this cannot fail.
        Dice::from_faces("classic", &CLASSIC).expect("the built-in classic set is valid")
    }

    /// The new set.
    pub fn new_set() -> Dice {
        // The constant is six lowercase letters per die, so this cannot fail.
        Dice::from_faces("new", &NEW).expect("the built-in new set is valid")
    }

    /// A set from the text of a dice file: one die a line, its six faces as letters (`q` =
    /// Qu, upper case allowed); blank lines and `#` comments are skipped. `name` (the file's
    /// path) names the set in errors and output.
    pub fn from_text(name: &str, text: &str) -> Result<Dice, DiceError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut dice = Vec::new();
        for (i, line) in crate::text::lines(text).enumerate() {
            let die = line.split('#').next().unwrap_or("").trim();
            if die.is_empty() {
                continue;
            }
            if die.len() != 6 || !die.bytes().all(|b| b.is_ascii_alphabetic()) {
                return Err(DiceError::BadDieLine {
                    set: name.to_string(),
                    line: i + 1,
                    die: die.to_string(),
                });
            }
            dice.push(die);
        }
        Dice::from_faces(name, &dice)
    }

    /// The set called `classic` or `new`.
    pub fn by_name(name: &str) -> Result<Dice, DiceError> {
        match name.trim().to_ascii_lowercase().as_str() {
            "classic" | "old" => Ok(Dice::classic()),
            "new" => Ok(Dice::new_set()),
            _ => Err(DiceError::UnknownSet {
                name: name.to_string(),
            }),
        }
    }

    /// The set's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of dice.
    pub fn len(&self) -> usize {
        self.faces.len()
    }

    /// Whether the set has no dice.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The faces of die `d` as text (`q` for Qu).
    pub fn die_text(&self, d: usize) -> String {
        self.faces[d].iter().map(|&l| (b'a' + l) as char).collect()
    }

    /// Whether die `d` shows letter `letter` on some face.
    pub fn has(&self, d: usize, letter: u8) -> bool {
        self.masks[d] >> letter & 1 != 0
    }

    /// Whether the dice fill a board of `size`, one die a cell.
    pub fn check_size(&self, size: Size) -> Result<(), DiceError> {
        if size.cells() != self.len() {
            return Err(DiceError::WrongSize {
                size,
                cells: size.cells(),
                set: self.name.clone(),
                dice: self.len(),
            });
        }
        Ok(())
    }

    /// Rolls the dice onto a board of `size`: a random placement of the dice on the cells,
    /// a random face up on each.
    pub fn roll(&self, size: Size, rng: &mut Rng) -> Result<Board, DiceError> {
        self.check_size(size)?;
        let mut order: Vec<usize> = (0..self.len()).collect();
        rng.shuffle(&mut order);
        let letters: Vec<u8> = order.iter().map(|&d| self.faces[d][rng.index(6)]).collect();
        Ok(Board::from_letters(size, &letters))
    }

    /// One die per cell (`out[cell] = die`) such that every cell's letter is on its die, or
    /// `None` when no such assignment exists. Exact: Kuhn's augmenting paths.
    pub fn assign(&self, board: &Board) -> Result<Option<Vec<usize>>, DiceError> {
        self.check_size(board.size())?;
        let n = self.len();
        // Cheap refusal first: a letter that no die has.
        if board
            .letters()
            .iter()
            .any(|&l| self.masks.iter().all(|m| m >> l & 1 == 0))
        {
            return Ok(None);
        }
        // Candidate dice of each cell, as bit masks over dice.
        let options: Vec<u64> = board
            .letters()
            .iter()
            .map(|&l| {
                (0..n)
                    .filter(|&d| self.masks[d] >> l & 1 != 0)
                    .fold(0u64, |acc, d| acc | 1 << d)
            })
            .collect();
        let mut cell_of_die = vec![usize::MAX; n];
        for cell in 0..n {
            let mut visited = 0u64;
            if !augment(cell, &options, &mut cell_of_die, &mut visited) {
                return Ok(None);
            }
        }
        let mut die_of_cell = vec![0; n];
        for (d, &c) in cell_of_die.iter().enumerate() {
            die_of_cell[c] = d;
        }
        Ok(Some(die_of_cell))
    }

    /// Whether the board can be rolled with these dice.
    pub fn is_rollable(&self, board: &Board) -> Result<bool, DiceError> {
        Ok(self.assign(board)?.is_some())
    }
}

/// Tries to give `cell` a die, re-seating earlier cells along an augmenting path.
fn augment(cell: usize, options: &[u64], cell_of_die: &mut [usize], visited: &mut u64) -> bool {
    let mut free = options[cell] & !*visited;
    while free != 0 {
        let d = free.trailing_zeros() as usize;
        free &= free - 1;
        if *visited >> d & 1 != 0 {
            continue;
        }
        *visited |= 1 << d;
        if cell_of_die[d] == usize::MAX || augment(cell_of_die[d], options, cell_of_die, visited) {
            cell_of_die[d] = cell;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size4() -> Size {
        "4x4".parse().unwrap()
    }

    /// Brute force: is there a permutation of the dice that fits the board?
    fn brute(dice: &Dice, board: &Board) -> bool {
        fn go(dice: &Dice, board: &Board, cell: usize, used: u64) -> bool {
            if cell == dice.len() {
                return true;
            }
            (0..dice.len()).any(|d| {
                used >> d & 1 == 0
                    && dice.has(d, board.get(cell))
                    && go(dice, board, cell + 1, used | 1 << d)
            })
        }
        go(dice, board, 0, 0)
    }

    /// The naive assignment: each cell in turn takes the first free die with its letter.
    fn greedy(dice: &Dice, board: &Board) -> bool {
        let mut used = 0u64;
        board.letters().iter().all(|&l| {
            match (0..dice.len()).find(|&d| used >> d & 1 == 0 && dice.has(d, l)) {
                Some(d) => {
                    used |= 1 << d;
                    true
                }
                None => false,
            }
        })
    }

    #[test]
    fn sets_have_sixteen_dice_and_known_letters() {
        for d in [Dice::classic(), Dice::new_set()] {
            assert_eq!(d.len(), 16);
        }
        assert_eq!(Dice::by_name("new").unwrap().die_text(10), "himnqu");
        assert!(matches!(
            Dice::by_name("fancy"),
            Err(DiceError::UnknownSet { .. })
        ));
        assert!(Dice::from_faces("x", &["abc"]).is_err());
    }

    #[test]
    fn dice_files_are_read_and_checked() {
        let text = "\u{feff}# two dice\r\nABCDEF\r\r  aaaaaq # Qu on one face\n";
        let dice = Dice::from_text("two.txt", text).unwrap();
        assert_eq!(dice.len(), 2);
        assert_eq!(dice.die_text(0), "abcdef");
        assert!(dice.has(1, 16));
        assert_eq!(
            Dice::from_text("bad.txt", "abcdef\nabcde\n"),
            Err(DiceError::BadDieLine {
                set: "bad.txt".to_string(),
                line: 2,
                die: "abcde".to_string()
            })
        );
        // Lines counted as they end: CRLF once, a lone CR too.
        assert!(matches!(
            Dice::from_text("bad.txt", "abcdef\r\nabcdef\rabcde\n"),
            Err(DiceError::BadDieLine { line: 3, .. })
        ));
        assert!(matches!(
            Dice::from_text("bad.txt", "abcdé1\n"),
            Err(DiceError::BadDieLine { line: 1, .. })
        ));
        assert!(matches!(
            Dice::from_text("empty.txt", "# nothing\n"),
            Err(DiceError::DiceCount { dice: 0, .. })
        ));
        let many = "abcdef\n".repeat(MAX_DICE + 1);
        assert!(matches!(
            Dice::from_text("many.txt", &many),
            Err(DiceError::DiceCount { dice: 37, .. })
        ));
        assert_eq!(
            Dice::from_text("max.txt", &"abcdef\n".repeat(MAX_DICE))
                .unwrap()
                .len(),
            MAX_DICE
        );
    }

    #[test]
    fn rolled_boards_are_rollable_with_a_valid_assignment() {
        let mut rng = Rng::new(11);
        for dice in [Dice::classic(), Dice::new_set()] {
            for _ in 0..200 {
                let b = dice.roll(size4(), &mut rng).unwrap();
                let a = dice
                    .assign(&b)
                    .unwrap()
                    .expect("a rolled board is rollable");
                let mut seen = a.clone();
                seen.sort();
                assert_eq!(seen, (0..16).collect::<Vec<_>>());
                for (cell, &d) in a.iter().enumerate() {
                    assert!(dice.has(d, b.get(cell)));
                }
            }
        }
    }

    #[test]
    fn matching_agrees_with_brute_force_where_greedy_fails() {
        // Small sets, where brute force over all permutations is quick.
        let dice =
            Dice::from_faces("small", &["abcdef", "aaaaaa", "bbbghi", "cdeghi", "ghijkl"]).unwrap();
        let size: Size = "1x5".parse().unwrap();
        let mut rng = Rng::new(5);
        let mut greedy_failed = 0;
        let mut yes = 0;
        for _ in 0..3000 {
            let letters: Vec<u8> = (0..5).map(|_| rng.index(12) as u8).collect();
            let b = Board::from_letters(size, &letters);
            let exact = dice.is_rollable(&b).unwrap();
            assert_eq!(exact, brute(&dice, &b), "{b}");
            if exact {
                yes += 1;
                if !greedy(&dice, &b) {
                    greedy_failed += 1;
                }
            }
        }
        assert!(
            yes > 10 && greedy_failed > 0,
            "yes={yes} greedy_failed={greedy_failed}"
        );
        // A specific case: the first cell's 'a' would take die 0, which the 'b' needs.
        let b = Board::parse(size, "abghg").unwrap();
        assert!(!greedy(&dice, &b));
        assert!(dice.is_rollable(&b).unwrap());
    }

    #[test]
    fn impossible_boards_are_refused() {
        let classic = Dice::classic();
        // Only one classic die has a z, and only one has a q.
        let b = Board::parse(size4(), "zzaaaaaaaaaaaaaa").unwrap();
        assert_eq!(classic.assign(&b).unwrap(), None);
        let b = Board::parse(size4(), "qqeeeeeeeeeeeeee").unwrap();
        assert!(!classic.is_rollable(&b).unwrap());
        // Both sets show every letter somewhere; a set without z refuses any board with one.
        for set in [&classic, &Dice::new_set()] {
            assert!((0..26).all(|l| (0..16).any(|d| set.has(d, l))));
        }
        let small = Dice::from_faces("small", &["abcdef", "abcdef"]).unwrap();
        let two: Size = "1x2".parse().unwrap();
        assert!(
            small
                .is_rollable(&Board::parse(two, "fa").unwrap())
                .unwrap()
        );
        assert!(
            !small
                .is_rollable(&Board::parse(two, "az").unwrap())
                .unwrap()
        );
        assert!(matches!(
            classic.assign(&Board::parse("3x3".parse().unwrap(), "abcdefghi").unwrap()),
            Err(DiceError::WrongSize { .. })
        ));
    }
}
