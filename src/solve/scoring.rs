//! Points per word length: the standard table and the `words` and `pow2` variants.

use std::fmt;
use std::str::FromStr;

/// How many points a word of each length is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scoring {
    /// 3→1, 4→1, 5→2, 6→3, 7→5, 8 and more→11.
    #[default]
    Standard,
    /// Every word 1 point (the "wordiest board").
    Words,
    /// 3→1, 4→2, 5→4, … doubling with each letter.
    Pow2,
}

impl Scoring {
    /// Points for a word of `len` letters as spelled (`qu` counts 2). Words shorter than 3
    /// score nothing; `pow2` saturates at `u32::MAX` for words of 35 letters and more.
    pub fn points(self, len: usize) -> u32 {
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
        }
    }

    /// The name used on the command line and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Words => "words",
            Scoring::Pow2 => "pow2",
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
            _ => Err(format!(
                "unknown scoring '{s}': expected standard, words or pow2"
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

    #[test]
    fn tables() {
        let std: Vec<u32> = (3..10).map(|l| Scoring::Standard.points(l)).collect();
        assert_eq!(std, [1, 1, 2, 3, 5, 11, 11]);
        assert_eq!(Scoring::Pow2.points(8), 32);
        assert_eq!(Scoring::Pow2.points(17), 16384);
        assert_eq!(Scoring::Words.points(12), 1);
        assert_eq!(Scoring::Pow2.points(40), u32::MAX);
    }
}
