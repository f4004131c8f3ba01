//! The boards already known for a size, word list and scoring: the published exhaustive
//! searches of `refdata/` and this project's own proofs in `results/`, embedded at build time.

use std::collections::HashMap;

include!(concat!(env!("OUT_DIR"), "/known_files.rs"));

/// One list of proven boards: every board of a size, word list and scoring at or above a
/// threshold.
#[derive(Clone, Debug, PartialEq)]
pub struct KnownList {
    /// Where it comes from, e.g. `refdata/best-boards-4x4.enable2k.txt`.
    pub source: String,
    /// Whether it was published by others (refdata/) rather than proven by bogglemax.
    pub published: bool,
    /// Board size, e.g. `4x4`.
    pub size: String,
    /// SHA-256 of the word list.
    pub wordlist_sha256: String,
    /// Scoring name, as a manifest writes it.
    pub scoring: String,
    /// Every board with a score at or above this is listed.
    pub threshold: u64,
    /// `(canonical board, score)`, best first.
    pub boards: Vec<(String, u64)>,
}

/// Every known list, from the embedded files.
pub fn known_lists() -> Vec<KnownList> {
    parse_known(KNOWN_FILES)
}

/// The known lists of a run's size, word list and scoring.
pub fn lists_for(size: &str, wordlist_sha256: &str, scoring: &str) -> Vec<KnownList> {
    known_lists()
        .into_iter()
        .filter(|k| k.size == size && k.wordlist_sha256 == wordlist_sha256 && k.scoring == scoring)
        .collect()
}

/// Parses the files: `results/*.txt` carry their settings in `# key: value` headers;
/// `refdata/best-boards-SIZE.LIST.txt` are named by list, with thresholds in the table of
/// `refdata/README.md` and the list's checksum taken from a results header of that list.
fn parse_known(files: &[(&str, &str)]) -> Vec<KnownList> {
    parse_known_with_checksums(files).0
}

/// The lists, and the checksum of each word list named in a results header (by lower-case
/// name).
fn parse_known_with_checksums(files: &[(&str, &str)]) -> (Vec<KnownList>, HashMap<String, String>) {
    let boards = |text: &str| -> Vec<(String, u64)> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let (board, score) = l.split_once(": ")?;
                Some((board.trim().to_string(), score.trim().parse().ok()?))
            })
            .collect()
    };
    let mut lists = Vec::new();
    let mut sha_of_list: HashMap<String, String> = HashMap::new();
    for (path, text) in files.iter().filter(|(p, _)| p.starts_with("results/")) {
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix("# ")?.strip_prefix(key)?.strip_prefix(": "))
                .map(str::trim)
        };
        let (Some(size), Some(score), Some(scoring), Some(wordlist)) = (
            field("size"),
            field("score").and_then(|s| s.parse().ok()),
            field("scoring"),
            field("wordlist"),
        ) else {
            continue;
        };
        // `NAME (sha256 HEX)`
        let Some((name, sha)) = wordlist.split_once(" (sha256 ") else {
            continue;
        };
        let sha = sha.trim_end_matches(')').to_string();
        sha_of_list.insert(name.to_lowercase(), sha.clone());
        lists.push(KnownList {
            source: path.to_string(),
            published: false,
            size: size.to_string(),
            wordlist_sha256: sha,
            scoring: scoring.to_string(),
            threshold: score,
            boards: boards(text),
        });
    }
    let readme = files
        .iter()
        .find(|(p, _)| *p == "refdata/README.md")
        .map_or("", |(_, t)| t);
    for (path, text) in files
        .iter()
        .filter(|(p, _)| p.starts_with("refdata/best-boards-"))
    {
        let file = path.trim_start_matches("refdata/");
        let Some((size, list)) = file
            .trim_start_matches("best-boards-")
            .trim_end_matches(".txt")
            .split_once('.')
        else {
            continue;
        };
        // `| best-boards-3x4.enable2k.txt | 3x4 | ENABLE2K | 1500 | 33 |`
        let threshold = readme.lines().find_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells.get(1) == Some(&file))
                .then(|| cells.get(4)?.parse().ok())
                .flatten()
        });
        let (Some(threshold), Some(sha)) = (threshold, sha_of_list.get(list)) else {
            continue;
        };
        lists.push(KnownList {
            source: path.to_string(),
            published: true,
            size: size.to_string(),
            wordlist_sha256: sha.clone(),
            scoring: "standard".to_string(),
            threshold,
            boards: boards(text),
        });
    }
    (lists, sha_of_list)
}

/// A published result known by its count and best board only (refdata/README.md).
#[derive(Clone, Debug, PartialEq)]
pub struct PublishedCount {
    /// Where it is stated.
    pub source: &'static str,
    /// The threshold.
    pub threshold: u64,
    /// Boards scoring at least the threshold.
    pub boards: usize,
    /// The best of them and its score.
    pub best: (&'static str, u64),
}

/// `(size, word list name, scoring, result)` for each published count.
const PUBLISHED_COUNTS: &[(&str, &str, &str, PublishedCount)] = &[(
    "3x3",
    "enable2k",
    "standard",
    PublishedCount {
        source: "refdata/README.md",
        threshold: 500,
        boards: 42,
        best: ("deslatper", 545),
    },
)];

/// The published counts of a size, word list and scoring.
pub fn published_counts_for(
    size: &str,
    wordlist_sha256: &str,
    scoring: &str,
) -> Vec<PublishedCount> {
    let (_, sha_of_list) = parse_known_with_checksums(KNOWN_FILES);
    PUBLISHED_COUNTS
        .iter()
        .filter(|(z, list, sc, _)| {
            *z == size
                && *sc == scoring
                && sha_of_list.get(*list).map(String::as_str) == Some(wordlist_sha256)
        })
        .map(|(_, _, _, p)| p.clone())
        .collect()
}

/// How a run's results compare with a known list, over the boards both must hold: those
/// scoring at least the higher of the two thresholds.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The threshold compared at.
    pub at: u64,
    /// Boards both hold.
    pub same: usize,
    /// Boards of the known list the run lacks.
    pub missing: Vec<(String, u64)>,
    /// Boards of the run the known list lacks.
    pub extra: Vec<(String, u64)>,
}

impl Comparison {
    /// Whether the two agree.
    pub fn equal(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty()
    }
}

/// Compares a run's boards (canonical, with scores) with a known list.
pub fn compare(run_threshold: u64, run_boards: &[(String, u64)], known: &KnownList) -> Comparison {
    let at = run_threshold.max(known.threshold);
    let mut mine: Vec<(String, u64)> = run_boards.iter().filter(|b| b.1 >= at).cloned().collect();
    let mut theirs: Vec<(String, u64)> =
        known.boards.iter().filter(|b| b.1 >= at).cloned().collect();
    mine.sort();
    theirs.sort();
    let missing: Vec<_> = theirs
        .iter()
        .filter(|b| mine.binary_search(b).is_err())
        .cloned()
        .collect();
    let extra: Vec<_> = mine
        .iter()
        .filter(|b| theirs.binary_search(b).is_err())
        .cloned()
        .collect();
    Comparison {
        at,
        same: mine.len() - extra.len(),
        missing,
        extra,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded files parse into lists, refdata's named by the checksum of their list.
    #[test]
    fn the_embedded_lists_read() {
        let lists = known_lists();
        let enable2k = "f1e9b50e535a31d0d8451f7b373bb7966637d225e256a7c485983a0c7545fcd3";
        let four = lists
            .iter()
            .find(|k| k.source == "refdata/best-boards-4x4.enable2k.txt")
            .expect("refdata's 4x4 ENABLE2K list");
        assert_eq!(four.wordlist_sha256, enable2k);
        assert_eq!(four.threshold, 3500);
        assert_eq!(four.boards[0], ("perslatgsineters".to_string(), 3625));
        let three = lists_for("3x3", enable2k, "standard");
        assert!(
            three
                .iter()
                .any(|k| k.boards[0] == ("deslatper".to_string(), 545))
        );
        assert_eq!(
            published_counts_for("3x3", enable2k, "standard")[0].boards,
            42
        );
        assert!(published_counts_for("3x3", enable2k, "words").is_empty());
    }

    #[test]
    fn comparisons_use_the_higher_threshold() {
        let known = KnownList {
            source: "x".into(),
            published: true,
            size: "3x3".into(),
            wordlist_sha256: "s".into(),
            scoring: "standard".into(),
            threshold: 500,
            boards: vec![("a".into(), 545), ("b".into(), 510)],
        };
        let run = vec![("a".to_string(), 545), ("c".to_string(), 520)];
        let c = compare(500, &run, &known);
        assert!(!c.equal());
        assert_eq!(c.missing, vec![("b".to_string(), 510)]);
        assert_eq!(c.extra, vec![("c".to_string(), 520)]);
        let c = compare(530, &run, &known);
        assert!(c.equal());
        assert_eq!((c.at, c.same), (530, 1));
    }
}
