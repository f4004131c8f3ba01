//! Board classes (a letter set per cell), bucket partitions of the alphabet, and class ids.
//!
//! # Class ids
//! A partition gives every cell a list of buckets (corners, and the other cells of the
//! border, the edges, may use lists of their own). A class picks one bucket per cell; its id
//! is the mixed-radix number whose digit for cell `i` is the bucket index, cell 0 the least
//! significant digit. A class id is canonical when it is the smallest id among the ids of its
//! symmetry images; symmetries map corners to corners and edges to edges, so every image is
//! again a class of the same partition.

use crate::board::{ALPHABET, Board, Geometry, Size, Symmetries, letter_char};
use std::fmt;

/// A set of letters as a 26-bit mask (bit `l` = letter `l`).
pub type LetterSet = u32;

/// Every letter.
pub const ALL_LETTERS: LetterSet = (1 << ALPHABET) - 1;

/// Why a class or partition was rejected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClassError {
    /// A class with the wrong number of cells.
    #[error("class has {got} cells, but a {size} board has {expected}")]
    WrongCells {
        /// The size.
        size: Size,
        /// Cells it needs.
        expected: usize,
        /// Cells given.
        got: usize,
    },
    /// A set with a character outside a-z, or empty.
    #[error("bad letter set '{0}': use letters a-z, e.g. 'aeiou'")]
    BadSet(String),
    /// A set that names a letter twice (a typo more often than not).
    #[error("letter set '{set}' has '{letter}' twice: name each letter once")]
    RepeatedLetter {
        /// The set as written.
        set: String,
        /// The letter written twice.
        letter: char,
    },
    /// Bucket lists must cover the alphabet exactly once.
    #[error("partition '{sets}' {problem}; each bucket list must cover a-z exactly once")]
    NotAPartition {
        /// The lists as written.
        sets: String,
        /// What is wrong.
        problem: String,
    },
    /// Unparseable partition syntax.
    #[error(
        "bad partition '{0}': expected 'SETS[, edge:SETS][, corner:SETS]', e.g. 'aeiosuy bcdfghjklmnpqrtvwxz'"
    )]
    BadPartition(String),
    /// A size and partition with more class ids than a `u64` numbers.
    #[error("a {0} board under this partition has more than 2^64 classes: use fewer buckets")]
    TooManyClasses(Size),
    /// An id beyond the last class.
    #[error("class id {id} is out of range: this size and partition have {count} classes")]
    IdOutOfRange {
        /// The id.
        id: u64,
        /// How many ids exist.
        count: u64,
    },
}

/// Parses one letter set such as `aeiou` (upper case allowed, each letter once).
pub fn parse_set(s: &str) -> Result<LetterSet, ClassError> {
    let mut set: LetterSet = 0;
    for ch in s.chars() {
        let l = ch.to_ascii_lowercase();
        if !l.is_ascii_lowercase() {
            return Err(ClassError::BadSet(s.to_string()));
        }
        let bit = 1 << (l as u8 - b'a');
        if set & bit != 0 {
            return Err(ClassError::RepeatedLetter {
                set: s.to_string(),
                letter: l,
            });
        }
        set |= bit;
    }
    if set == 0 {
        return Err(ClassError::BadSet(s.to_string()));
    }
    Ok(set)
}

/// Writes a letter set as its letters in order.
pub fn set_string(set: LetterSet) -> String {
    (0..ALPHABET as u8)
        .filter(|&l| set >> l & 1 != 0)
        .map(letter_char)
        .collect()
}

/// A board class: one letter set per cell.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct BoardClass {
    size: Size,
    cells: Vec<LetterSet>,
}

impl BoardClass {
    /// A class from per-cell letter sets.
    pub fn new(size: Size, cells: Vec<LetterSet>) -> Result<BoardClass, ClassError> {
        if cells.len() != size.cells() {
            return Err(ClassError::WrongCells {
                size,
                expected: size.cells(),
                got: cells.len(),
            });
        }
        if let Some(bad) = cells.iter().find(|&&s| s == 0 || s & !ALL_LETTERS != 0) {
            return Err(ClassError::BadSet(format!("{bad:#x}")));
        }
        Ok(BoardClass { size, cells })
    }

    /// Parses space-separated sets, one per cell in cell order.
    pub fn parse(size: Size, text: &str) -> Result<BoardClass, ClassError> {
        let cells = text
            .split_whitespace()
            .map(parse_set)
            .collect::<Result<Vec<_>, _>>()?;
        BoardClass::new(size, cells)
    }

    /// The class holding just one board.
    pub fn of_board(board: &Board) -> BoardClass {
        BoardClass {
            size: board.size(),
            cells: board.letters().iter().map(|&l| 1 << l).collect(),
        }
    }

    /// The size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The letter set of each cell.
    pub fn cells(&self) -> &[LetterSet] {
        &self.cells
    }

    /// How many boards the class holds (saturating).
    pub fn board_count(&self) -> u128 {
        self.cells
            .iter()
            .fold(1u128, |n, s| n.saturating_mul(s.count_ones() as u128))
    }

    /// Whether a board belongs to the class.
    pub fn contains(&self, board: &Board) -> bool {
        board.size() == self.size
            && board
                .letters()
                .iter()
                .zip(&self.cells)
                .all(|(&l, &s)| s >> l & 1 != 0)
    }

    /// Every board of the class, in mixed-radix order (cell 0 fastest). For tests and small
    /// classes only.
    pub fn boards(&self) -> impl Iterator<Item = Board> + '_ {
        let choices: Vec<Vec<u8>> = self
            .cells
            .iter()
            .map(|&s| (0..ALPHABET as u8).filter(|&l| s >> l & 1 != 0).collect())
            .collect();
        let total = self.board_count();
        let size = self.size;
        (0..total).map(move |mut k| {
            let letters: Vec<u8> = choices
                .iter()
                .map(|c| {
                    let l = c[(k % c.len() as u128) as usize];
                    k /= c.len() as u128;
                    l
                })
                .collect();
            Board::from_letters(size, &letters)
        })
    }
}

impl fmt::Display for BoardClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sets: Vec<String> = self.cells.iter().map(|&s| set_string(s)).collect();
        f.write_str(&sets.join(" "))
    }
}

/// A partition of the alphabet into buckets, optionally with other ones for the edge cells
/// (the border but its corners) and the corner cells.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Partition {
    main: Vec<LetterSet>,
    edge: Option<Vec<LetterSet>>,
    corner: Option<Vec<LetterSet>>,
}

/// Parses a bucket list; `recorded`: as a run recorded it, where a bucket may name a letter
/// twice (runs planned before 2026-12-06 were, and read it as a set).
fn parse_bucket_list(text: &str, recorded: bool) -> Result<Vec<LetterSet>, ClassError> {
    let parse = |set: &str| match parse_set(set) {
        Err(ClassError::RepeatedLetter { .. }) if recorded => {
            // Each letter once, the first of each kept: then checked as any set.
            let mut seen = String::new();
            for ch in set.chars().map(|c| c.to_ascii_lowercase()) {
                if !seen.contains(ch) {
                    seen.push(ch);
                }
            }
            parse_set(&seen)
        }
        other => other,
    };
    let sets = text
        .split_whitespace()
        .map(parse)
        .collect::<Result<Vec<_>, _>>()?;
    let mut seen = 0;
    for &s in &sets {
        if seen & s != 0 {
            return Err(ClassError::NotAPartition {
                sets: text.trim().to_string(),
                problem: format!("repeats '{}'", set_string(seen & s)),
            });
        }
        seen |= s;
    }
    if seen != ALL_LETTERS {
        return Err(ClassError::NotAPartition {
            sets: text.trim().to_string(),
            problem: format!("misses '{}'", set_string(ALL_LETTERS & !seen)),
        });
    }
    Ok(sets)
}

impl Partition {
    /// Parses `SETS[, edge:SETS][, corner:SETS]`.
    pub fn parse(text: &str) -> Result<Partition, ClassError> {
        Partition::parse_with(text, false)
    }

    /// Parses a partition as a run's manifest recorded it: as [`Partition::parse`], but a
    /// bucket may name a letter twice, which runs planned before that was refused accepted.
    pub fn parse_recorded(text: &str) -> Result<Partition, ClassError> {
        Partition::parse_with(text, true)
    }

    fn parse_with(text: &str, recorded: bool) -> Result<Partition, ClassError> {
        let bad = || ClassError::BadPartition(text.to_string());
        let mut parts = text.split(',');
        // `split` yields at least one part.
        let main = parts.next().ok_or_else(bad)?;
        let (mut edge, mut corner) = (None, None);
        for part in parts {
            let part = part.trim();
            let (slot, sets) = if let Some(sets) = part.strip_prefix("edge:") {
                (&mut edge, sets)
            } else if let Some(sets) = part.strip_prefix("corner:") {
                (&mut corner, sets)
            } else {
                return Err(bad());
            };
            // A repeated or empty `edge:`/`corner:` list is a syntax error, named as such.
            if slot.is_some() || sets.trim().is_empty() {
                return Err(bad());
            }
            *slot = Some(parse_bucket_list(sets, recorded)?);
        }
        Ok(Partition {
            main: parse_bucket_list(main, recorded)?,
            edge,
            corner,
        })
    }

    /// The buckets a cell chooses from.
    pub fn buckets(&self, geometry: &Geometry, cell: usize) -> &[LetterSet] {
        match (&self.edge, &self.corner) {
            (_, Some(c)) if geometry.is_corner(cell) => c,
            (Some(e), _) if geometry.is_edge(cell) => e,
            _ => &self.main,
        }
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |sets: &[LetterSet]| {
            sets.iter()
                .map(|&s| set_string(s))
                .collect::<Vec<_>>()
                .join(" ")
        };
        write!(f, "{}", list(&self.main))?;
        if let Some(e) = &self.edge {
            write!(f, ", edge:{}", list(e))?;
        }
        if let Some(c) = &self.corner {
            write!(f, ", corner:{}", list(c))?;
        }
        Ok(())
    }
}

/// The numbering of the classes of one size and partition.
#[derive(Clone, Debug)]
pub struct ClassSpace {
    size: Size,
    partition: Partition,
    /// Bucket sets of each cell.
    buckets: Vec<Vec<LetterSet>>,
    /// `place[i]` = product of the radices of cells below `i`.
    place: Vec<u64>,
    count: u64,
    symmetries: Symmetries,
}

impl ClassSpace {
    /// The classes of `size` under `partition`; refused if their ids do not fit a `u64`.
    pub fn new(size: Size, partition: Partition) -> Result<ClassSpace, ClassError> {
        let geometry = Geometry::new(size);
        let buckets: Vec<Vec<LetterSet>> = (0..size.cells())
            .map(|c| partition.buckets(&geometry, c).to_vec())
            .collect();
        let mut place = Vec::with_capacity(size.cells());
        let mut count = 1u64;
        for b in &buckets {
            place.push(count);
            count = count
                .checked_mul(b.len() as u64)
                .ok_or(ClassError::TooManyClasses(size))?;
        }
        Ok(ClassSpace {
            size,
            partition,
            buckets,
            place,
            count,
            symmetries: Symmetries::new(size),
        })
    }

    /// The size.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The partition.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// How many class ids there are (canonical or not).
    pub fn count(&self) -> u64 {
        self.count
    }

    fn digits(&self, id: u64) -> Vec<u8> {
        let mut rest = id;
        self.buckets
            .iter()
            .map(|b| {
                let d = (rest % b.len() as u64) as u8;
                rest /= b.len() as u64;
                d
            })
            .collect()
    }

    /// The class with id `id`.
    pub fn class(&self, id: u64) -> Result<BoardClass, ClassError> {
        if id >= self.count {
            return Err(ClassError::IdOutOfRange {
                id,
                count: self.count,
            });
        }
        let cells = self
            .digits(id)
            .iter()
            .zip(&self.buckets)
            .map(|(&d, b)| b[d as usize])
            .collect();
        BoardClass::new(self.size, cells)
    }

    /// The id of the class that holds `board`.
    pub fn id_of_board(&self, board: &Board) -> u64 {
        board
            .letters()
            .iter()
            .zip(&self.buckets)
            .zip(&self.place)
            .map(|((&l, b), &p)| {
                let d = b
                    .iter()
                    .position(|&s| s >> l & 1 != 0)
                    .expect("a partition covers every letter");
                d as u64 * p
            })
            .sum()
    }

    /// The smallest id among the symmetry images of class `id`.
    pub fn canonical_id(&self, id: u64) -> u64 {
        let digits = self.digits(id);
        self.symmetries
            .perms()
            .iter()
            .map(|perm| {
                perm.iter()
                    .zip(&self.place)
                    .map(|(&src, &p)| digits[src as usize] as u64 * p)
                    .sum::<u64>()
            })
            .min()
            .expect("the identity is always a symmetry")
    }

    /// Whether `id` is the canonical id of its class.
    pub fn is_canonical(&self, id: u64) -> bool {
        self.canonical_id(id) == id
    }

    /// Every canonical class id, in increasing order.
    pub fn canonical_ids(&self) -> Vec<u64> {
        use rayon::prelude::*;
        (0..self.count)
            .into_par_iter()
            .filter(|&id| self.is_canonical(id))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_set_names_each_letter_once() {
        assert_eq!(parse_set("Ab"), Ok(0b11));
        assert_eq!(
            parse_set("aeia"),
            Err(ClassError::RepeatedLetter {
                set: "aeia".to_string(),
                letter: 'a'
            })
        );
        assert!(matches!(
            parse_set("bB"),
            Err(ClassError::RepeatedLetter { letter: 'b', .. })
        ));
        let size: Size = "2x2".parse().unwrap();
        assert!(matches!(
            BoardClass::parse(size, "ab aab c d"),
            Err(ClassError::RepeatedLetter { .. })
        ));
        // A bucket list with a letter twice in one bucket was once read as a partition: runs
        // that recorded one still open.
        assert!(matches!(
            Partition::parse("aaeiou bcdfghjklmnpqrstvwxyz"),
            Err(ClassError::RepeatedLetter { .. })
        ));
        assert_eq!(
            Partition::parse_recorded("aaeiou bcdfghjklmnpqrstvwxyz"),
            Partition::parse("aeiou bcdfghjklmnpqrstvwxyz")
        );
        assert!(Partition::parse_recorded("aaeiou bcdfghjklmnpqrstvwxy").is_err());
        assert!(matches!(
            Partition::parse_recorded("aa1eiou bcdfghjklmnpqrstvwxyz"),
            Err(ClassError::BadSet(_))
        ));
    }

    #[test]
    fn partitions_must_cover_alphabet_once() {
        assert!(Partition::parse("aeiosuy bcdfghjklmnpqrtvwxz").is_ok());
        let p =
            Partition::parse("aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz")
                .unwrap();
        assert_eq!(
            p.to_string(),
            "aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz"
        );
        assert!(matches!(
            Partition::parse("aeiou bcd"),
            Err(ClassError::NotAPartition { .. })
        ));
        assert!(matches!(
            Partition::parse("aeiou aeiou bcdfghjklmnpqrstvwxyz"),
            Err(ClassError::NotAPartition { .. })
        ));
        assert!(Partition::parse("abc, edge:xyz").is_err());
        // An empty list after `corner:` is the syntax's error, not a list missing a-z.
        assert!(matches!(
            Partition::parse("aeiosuy bcdfghjklmnpqrtvwxz, corner:"),
            Err(ClassError::BadPartition(_))
        ));
        assert!(Partition::parse("ab1 c").is_err());
        let all = "abcdefghijklmnopqrstuvwxyz";
        let text =
            format!("aeijou bcdfgmpqvwxz hklnrsty, edge:aeijou bcdfghklmnpqrstvwxyz, corner:{all}");
        assert_eq!(Partition::parse(&text).unwrap().to_string(), text);
        // Either order of the two lists; neither twice, nor an unknown one.
        let swapped = format!("aeiou bcdfghjklmnpqrstvwxyz, corner:{all}, edge:{all}");
        assert_eq!(
            Partition::parse(&swapped).unwrap().to_string(),
            format!("aeiou bcdfghjklmnpqrstvwxyz, edge:{all}, corner:{all}")
        );
        for bad in [
            format!("aeiou bcdfghjklmnpqrstvwxyz, edge:{all}, edge:{all}"),
            format!("aeiou bcdfghjklmnpqrstvwxyz, centre:{all}"),
            format!("aeiou bcdfghjklmnpqrstvwxyz,, corner:{all}"),
        ] {
            assert!(
                matches!(Partition::parse(&bad), Err(ClassError::BadPartition(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn edge_and_corner_lists_apply_to_their_cells() {
        let size: Size = "4x4".parse().unwrap();
        let p = Partition::parse("aeiou bcdfghjklmnpqrstvwxyz, edge:abcdefghijklm nopqrstuvwxyz, corner:abcdefghijklmnopqrstuvwxyz").unwrap();
        let space = ClassSpace::new(size, p).unwrap();
        // 4 centre cells of 2 buckets, 8 edges of 2, 4 corners of 1.
        assert_eq!(space.count(), 1 << 12);
        let geometry = Geometry::new(size);
        for cell in 0..16 {
            let sets: Vec<String> = space
                .partition()
                .buckets(&geometry, cell)
                .iter()
                .map(|&s| set_string(s))
                .collect();
            let want = match cell {
                0 | 3 | 12 | 15 => vec!["abcdefghijklmnopqrstuvwxyz"],
                5 | 6 | 9 | 10 => vec!["aeiou", "bcdfghjklmnpqrstvwxyz"],
                _ => vec!["abcdefghijklm", "nopqrstuvwxyz"],
            };
            assert_eq!(sets, want, "cell {cell}");
        }
        // Symmetries keep edges on edges: every image of a class is a class of the space.
        let canon = space.canonical_ids();
        for &id in &canon {
            let class = space.class(id).unwrap();
            let board = class.boards().next().unwrap();
            assert_eq!(space.canonical_id(space.id_of_board(&board)), id);
        }
        // Burnside over the 8 symmetries of the square, counting the cycles of each on the 12
        // two-bucket cells: identity 12; quarter turns 3 each (the centre, two rings of four
        // edges); half turn 6; the two axis flips 6 each (2 centre pairs, 4 edge pairs); the
        // two diagonal flips 7 each (2 centre cells fixed, 1 centre pair, 4 edge pairs).
        let orbits = (4096 + 2 * 8 + 64 + 2 * 64 + 2 * 128) / 8;
        assert_eq!(canon.len() as u64, orbits);
    }

    #[test]
    fn ids_round_trip_and_canonical_counts() {
        let size: Size = "3x3".parse().unwrap();
        let space = ClassSpace::new(
            size,
            Partition::parse("aeiou bdfgjqvwxz lnrsy chkmpt").unwrap(),
        )
        .unwrap();
        assert_eq!(space.count(), 4u64.pow(9));
        let b = Board::parse(size, "streaedlp").unwrap();
        let id = space.id_of_board(&b);
        assert!(space.class(id).unwrap().contains(&b));
        // Burnside: the number of orbits of 4^9 colourings under the 8 symmetries of 3x3.
        let canon = space.canonical_ids();
        let orbits = (4u64.pow(9) + 2 * 4u64.pow(3) + 4u64.pow(5) + 4 * 4u64.pow(6)) / 8;
        assert_eq!(canon.len() as u64, orbits);
        assert!(
            canon
                .iter()
                .all(|&i| space.class(space.canonical_id(i)).is_ok())
        );
        assert!(space.class(space.count()).is_err());
    }

    /// Ids are `u64`: a space with more is refused, never numbered modulo 2^64.
    #[test]
    fn spaces_beyond_u64_ids_are_refused() {
        let singletons =
            Partition::parse("a b c d e f g h i j k l m n o p q r s t u v w x y z").unwrap();
        // 26^12 ids fit, 26^16 do not.
        let size: Size = "3x4".parse().unwrap();
        let space = ClassSpace::new(size, singletons.clone()).unwrap();
        assert_eq!(space.count(), 26u64.pow(12));
        let last = Board::parse(size, "zzzzzzzzzzzz").unwrap();
        assert_eq!(space.id_of_board(&last), space.count() - 1);
        assert!(matches!(
            ClassSpace::new("4x4".parse().unwrap(), singletons),
            Err(ClassError::TooManyClasses(_))
        ));
    }

    #[test]
    fn class_parse_and_boards() {
        let size: Size = "2x2".parse().unwrap();
        let c = BoardClass::parse(size, "t ae i r").unwrap();
        assert_eq!(c.board_count(), 2);
        let boards: Vec<String> = c.boards().map(|b| b.to_string()).collect();
        assert_eq!(boards, ["tair", "teir"]);
        assert_eq!(c.to_string(), "t ae i r");
        assert!(BoardClass::parse(size, "t ae i").is_err());
    }
}
