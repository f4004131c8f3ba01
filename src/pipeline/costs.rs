//! Per-class costs: what breaking each class took (a run's journals) or is predicted to take
//! (`bogglemax estimate`), kept as a CSV file that `plan --costs` deals shards by.
//!
//! The file is `class_id,seconds,nodes,source` with a header line; `source` is `measured`
//! (a finished class) or `predicted` (a class the estimate did not break: its seconds come
//! from the estimate's cost model, its nodes are 0). A first line `# classes: SIZE PARTITION`
//! names the classes the ids number, so that `plan` refuses costs of another space. The lines
//! after it (`# score: S`, `# switchover: B`, `# scoring: ...`, `# wordlist: ...`,
//! `# wordlist sha256: ...`) name the proof the costs were measured in ([`CostSettings`]):
//! `plan` says where its own differs, and `estimate --replay` takes them as the proof's.
//! Files written before those lines existed have the space line only, and still load.

use super::error::PipelineError;
use super::journal::read_journal;
use super::manifest::{Manifest, RunDir};
use crate::bound::ClassSpace;
use std::path::Path;

/// The prefix of the line naming the class space.
const SPACE_LINE: &str = "# classes: ";
/// The key of that line.
const SPACE_KEY: &str = "classes";
/// The header of a costs file's table.
const COSTS_HEADER: &str = "class_id,seconds,nodes,source";
/// How a costs table's header must begin (`nodes` and `source` may be left out).
const COSTS_HEADER_START: &str = "class_id,seconds";

/// `seconds` to the nanosecond, the CPU clock's resolution, without trailing zeros: a class
/// timed in parts sums them in floating point, whose shortest form can carry noise digits
/// (`0.008135508999999999`).
fn seconds_text(seconds: f64) -> String {
    let text = format!("{seconds:.9}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The keys of the lines naming the proof's settings, in the order they are written.
const SETTING_KEYS: [&str; 5] = [
    "score",
    "switchover",
    "scoring",
    "wordlist",
    "wordlist sha256",
];

/// The settings of the proof whose classes the costs were measured in, besides the class
/// space: what decides how much work a class is (the same class costs more at a lower S).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostSettings {
    /// The score S.
    pub threshold: u32,
    /// The switchover to OrderlyBound.
    pub switchover: u32,
    /// The scoring, as [`crate::solve::Scoring`]'s `Display` writes it.
    pub scoring: String,
    /// Where the word list came from (for messages only).
    pub wordlist: String,
    /// SHA-256 of the word list's source bytes (what decides whether two lists are one).
    pub wordlist_sha256: String,
}

impl CostSettings {
    /// The settings of a planned run.
    pub fn of_manifest(m: &Manifest) -> CostSettings {
        CostSettings {
            threshold: m.threshold,
            switchover: m.switchover,
            scoring: m.scoring.clone(),
            wordlist: m.wordlist.clone(),
            wordlist_sha256: m.wordlist_sha256.clone(),
        }
    }

    /// Each setting where `self` differs from `other`: its name, `self`'s value and
    /// `other`'s (a word list by where it came from, compared by its SHA-256).
    pub fn differences(&self, other: &CostSettings) -> Vec<(&'static str, String, String)> {
        let mut out = Vec::new();
        if self.threshold != other.threshold {
            out.push((
                "score",
                self.threshold.to_string(),
                other.threshold.to_string(),
            ));
        }
        if self.switchover != other.switchover {
            out.push((
                "switchover",
                self.switchover.to_string(),
                other.switchover.to_string(),
            ));
        }
        if self.scoring != other.scoring {
            out.push(("scoring", self.scoring.clone(), other.scoring.clone()));
        }
        if self.wordlist_sha256 != other.wordlist_sha256 {
            // Two lists of one name (a file edited since) are told apart by their hashes.
            let same_name = self.wordlist == other.wordlist;
            let name = |s: &CostSettings| {
                if same_name {
                    format!("{} (SHA-256 {:.12})", s.wordlist, s.wordlist_sha256)
                } else {
                    s.wordlist.clone()
                }
            };
            out.push(("word list", name(self), name(other)));
        }
        out
    }

    /// The values in [`SETTING_KEYS`]' order.
    fn values(&self) -> [String; 5] {
        [
            self.threshold.to_string(),
            self.switchover.to_string(),
            self.scoring.clone(),
            self.wordlist.clone(),
            self.wordlist_sha256.clone(),
        ]
    }
}

/// The cost of one class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassCost {
    /// Canonical class id.
    pub class_id: u64,
    /// CPU seconds (one thread), measured or predicted.
    pub seconds: f64,
    /// Tree nodes created, when measured (0 when predicted).
    pub nodes: u64,
    /// Whether `seconds` was measured (the class was broken) rather than predicted.
    pub measured: bool,
}

/// The costs of a set of classes, sorted by class id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassCosts {
    costs: Vec<ClassCost>,
    /// The class space the ids number (`SIZE PARTITION`), if known.
    space: Option<String>,
    /// The proof the costs were measured in, if known.
    settings: Option<CostSettings>,
}

impl ClassCosts {
    /// Costs from any list (sorted here; a class listed twice keeps its last entry).
    pub fn new(mut costs: Vec<ClassCost>) -> ClassCosts {
        costs.sort_by_key(|c| c.class_id);
        costs.reverse();
        costs.dedup_by_key(|c| c.class_id);
        costs.reverse();
        ClassCosts {
            costs,
            space: None,
            settings: None,
        }
    }

    /// These costs, marked as numbering the classes of `space`.
    pub fn of_space(mut self, space: &ClassSpace) -> ClassCosts {
        self.space = Some(ClassCosts::space_label(space));
        self
    }

    /// These costs, marked as measured (or predicted) in a proof of these settings.
    pub fn measured_in(mut self, settings: CostSettings) -> ClassCosts {
        self.settings = Some(settings);
        self
    }

    /// The proof the costs were measured in, if the file says.
    pub fn settings(&self) -> Option<&CostSettings> {
        self.settings.as_ref()
    }

    /// The size and partition of the classes the ids number, if the file says.
    pub fn space(&self) -> Option<(&str, &str)> {
        self.space.as_deref().and_then(|s| s.split_once(' '))
    }

    /// How a costs file names a class space: `SIZE PARTITION`.
    fn space_label(space: &ClassSpace) -> String {
        format!("{} {}", space.size(), space.partition())
    }

    /// Refuses costs that say they number the classes of another space (size or
    /// partition): their ids would match this space's by accident only.
    pub fn check_space(&self, space: &ClassSpace) -> Result<(), String> {
        let here = ClassCosts::space_label(space);
        match self.space.as_deref() {
            Some(theirs) if theirs != here => Err(format!("the costs are of {theirs}, not {here}")),
            _ => Ok(()),
        }
    }

    /// The measured costs of every finished class of a run (from its journals).
    pub fn from_run(run: &RunDir) -> Result<ClassCosts, PipelineError> {
        let m = run.manifest();
        let mut costs = Vec::new();
        for k in 0..m.shards {
            let j = read_journal(&run.journal_path(k), m.run_id(), run.size())?;
            costs.extend(j.classes.values().map(|r| ClassCost {
                class_id: r.class_id,
                seconds: r.seconds,
                nodes: r.nodes,
                measured: true,
            }));
        }
        Ok(ClassCosts::new(costs)
            .of_space(run.space())
            .measured_in(CostSettings::of_manifest(m)))
    }

    /// Reads a costs file, or, if `path` is a run directory, the costs of its finished
    /// classes.
    pub fn load(path: &Path) -> Result<ClassCosts, PipelineError> {
        if path.is_dir() {
            return ClassCosts::from_run(&RunDir::open(path)?);
        }
        let bad = |line: u64, why: String| PipelineError::Corrupt {
            path: path.to_path_buf(),
            why: format!("line {line}: {why}"),
        };
        let text = std::fs::read_to_string(path).map_err(|e| PipelineError::io(path, e))?;
        // The comment lines before the table: the space, then the settings (other comment
        // lines are passed over). `first` is the line `body` starts at.
        let mut body = text.as_str();
        let mut first = 1;
        // The space's and each setting's line and value, in that order.
        let mut values: [Option<(u64, String)>; 6] = Default::default();
        while let Some(comment) = body.strip_prefix('#') {
            let (line, rest) = comment.split_once('\n').unwrap_or((comment, ""));
            if let Some((key, value)) = line.trim().split_once(": ") {
                let slot = std::iter::once(SPACE_KEY)
                    .chain(SETTING_KEYS)
                    .position(|k| k == key);
                if let Some(k) = slot {
                    if values[k].is_some() {
                        return Err(bad(first, format!("a second `# {key}:` line")));
                    }
                    values[k] = Some((first, value.trim().to_string()));
                }
            }
            body = rest;
            first += 1;
        }
        let [space, settings @ ..] = values;
        let corrupt = |why: String| PipelineError::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        let number = |(line, v): (u64, String)| {
            v.parse::<u32>()
                .map_err(|_| bad(line, format!("{v:?} is not a number")))
        };
        let settings = match settings {
            [None, None, None, None, None] => None,
            [Some(s), Some(b), Some(scoring), Some(wordlist), Some(sha)] => Some(CostSettings {
                threshold: number(s)?,
                switchover: number(b)?,
                scoring: scoring.1,
                wordlist: wordlist.1,
                wordlist_sha256: sha.1,
            }),
            given => {
                let missing = SETTING_KEYS
                    .iter()
                    .zip(&given)
                    .filter(|(_, v)| v.is_none())
                    .map(|(k, _)| format!("`# {k}:`"))
                    .collect::<Vec<_>>();
                return Err(corrupt(format!(
                    "no {} line (a costs file names all {} of its proof's settings, or none)",
                    missing.join(" or "),
                    SETTING_KEYS.len()
                )));
            }
        };
        if let Some((line, value)) = &space
            && value.split_once(' ').is_none()
        {
            return Err(bad(
                *line,
                format!("{value:?} is not `SIZE PARTITION` (the classes the ids number)"),
            ));
        }
        if settings.is_some() && space.is_none() {
            return Err(corrupt(format!(
                "names its proof's settings but not its classes (no `{SPACE_LINE}SIZE PARTITION` \
                 line)"
            )));
        }
        let space = space.map(|(_, label)| label);
        let mut reader = csv::Reader::from_reader(body.as_bytes());
        // The csv reader counts lines from `body`'s first; its own messages say where too.
        let skipped = first - 1;
        let csv_error = |e: csv::Error| {
            let line = e.position().map_or(1, |p| p.line()) + skipped;
            let why = match e.kind() {
                csv::ErrorKind::UnequalLengths {
                    expected_len, len, ..
                } => format!("{len} fields, not {expected_len} as on the lines before"),
                csv::ErrorKind::Utf8 { err, .. } => format!("not UTF-8 ({err})"),
                _ => e.to_string(),
            };
            bad(line, why)
        };
        if body.trim().is_empty() {
            return Err(corrupt(format!(
                "no table after its `#` lines (a costs file has a `{COSTS_HEADER_START}...` \
                 header line)"
            )));
        }
        let header = reader.headers().map_err(csv_error)?.clone();
        if header.get(0) != Some("class_id") || header.get(1) != Some("seconds") {
            // The csv reader passes over blank lines before the header.
            let blank = body.lines().take_while(|l| l.trim().is_empty()).count() as u64;
            return Err(bad(
                first + blank,
                format!("not a costs file (the header must start {COSTS_HEADER_START})"),
            ));
        }
        let mut costs = Vec::new();
        for record in reader.records() {
            let record = record.map_err(csv_error)?;
            let line = record.position().map_or(0, |p| p.line()) + skipped;
            let field = |i: usize| record.get(i).unwrap_or("");
            let class_id = field(0)
                .parse::<u64>()
                .map_err(|_| bad(line, format!("class id {:?} is not a number", field(0))))?;
            let seconds = field(1)
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| bad(line, format!("seconds {:?} is not a number ≥ 0", field(1))))?;
            let nodes = match field(2) {
                "" => 0,
                n => n
                    .parse::<u64>()
                    .map_err(|_| bad(line, format!("nodes {n:?} is not a number")))?,
            };
            let measured = match field(3) {
                "" | "measured" => true,
                "predicted" => false,
                s => return Err(bad(line, format!("source {s:?}: measured or predicted"))),
            };
            costs.push(ClassCost {
                class_id,
                seconds,
                nodes,
                measured,
            });
        }
        Ok(ClassCosts {
            space,
            settings,
            ..ClassCosts::new(costs)
        })
    }

    /// Whether [`ClassCosts::write`] may write `path`: nothing is there, or a costs file.
    /// Any other file (a run's manifest, a CSV of something else) is refused. For commands
    /// that write one after long work, to refuse before it.
    pub fn check_replaceable(path: &Path) -> Result<(), PipelineError> {
        use std::io::{BufRead, BufReader, Read};
        // Not opened to be read if it is no regular file: a pipe would block the open.
        crate::format::check_writable_path(path).map_err(|e| {
            PipelineError::Usage(format!("{}: {e} (choose another file)", path.display()))
        })?;
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(PipelineError::io(path, e)),
        };
        // An empty file (made by `mktemp` or `: > FILE` for the costs) holds nothing to lose.
        if file.metadata().is_ok_and(|m| m.len() == 0) {
            return Ok(());
        }
        // A costs file's header comes after its comment lines, in its first few KiB; a binary
        // file need not have lines at all.
        let mut head = BufReader::new(file.take(16 << 10));
        let mut line = String::new();
        while head.read_line(&mut line).is_ok_and(|n| n > 0) && line.starts_with('#') {
            line.clear();
        }
        if line.starts_with(COSTS_HEADER_START) {
            return Ok(());
        }
        Err(PipelineError::Usage(format!(
            "{}: exists and is not a costs file; nothing was written (choose another file)",
            path.display()
        )))
    }

    /// Writes the costs file (atomically: a reader sees the old file or the whole new one).
    /// Replaces only a costs file ([`ClassCosts::check_replaceable`]).
    pub fn write(&self, path: &Path) -> Result<(), PipelineError> {
        ClassCosts::check_replaceable(path)?;
        let mut out = String::with_capacity(32 * self.costs.len() + 200);
        if let Some(space) = &self.space {
            out.push_str(SPACE_LINE);
            out.push_str(space);
            out.push('\n');
        }
        if let Some(settings) = &self.settings {
            for (key, value) in SETTING_KEYS.iter().zip(settings.values()) {
                out.push_str("# ");
                out.push_str(key);
                out.push_str(": ");
                // One line each: a file name with a line break in it loses the break.
                out.push_str(&value.replace(['\n', '\r'], " "));
                out.push('\n');
            }
        }
        out.push_str(COSTS_HEADER);
        out.push('\n');
        for c in &self.costs {
            use std::fmt::Write;
            // Writing to a String cannot fail.
            let _ = writeln!(
                out,
                "{},{},{},{}",
                c.class_id,
                seconds_text(c.seconds),
                c.nodes,
                if c.measured { "measured" } else { "predicted" }
            );
        }
        crate::format::write_atomic(path, out.as_bytes()).map_err(|e| PipelineError::io(path, e))
    }

    /// The cost of one class, if listed.
    pub fn get(&self, class_id: u64) -> Option<&ClassCost> {
        self.costs
            .binary_search_by_key(&class_id, |c| c.class_id)
            .ok()
            .map(|i| &self.costs[i])
    }

    /// Number of classes listed.
    pub fn len(&self) -> usize {
        self.costs.len()
    }

    /// Whether no class is listed.
    pub fn is_empty(&self) -> bool {
        self.costs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_file_round_trips_and_bad_lines_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("costs.csv");
        let costs = ClassCosts::new(vec![
            ClassCost {
                class_id: 7,
                seconds: 1.5,
                nodes: 99,
                measured: true,
            },
            ClassCost {
                class_id: 3,
                seconds: 0.25,
                nodes: 0,
                measured: false,
            },
        ]);
        costs.write(&path).unwrap();
        let back = ClassCosts::load(&path).unwrap();
        assert_eq!(back, costs);
        assert_eq!(back.get(3).map(|c| c.class_id), Some(3));
        assert_eq!(back.get(7).map(|c| c.nodes), Some(99));

        // Seconds are written to the nanosecond, without a sum's noise digits.
        let noisy = ClassCosts::new(vec![
            ClassCost {
                class_id: 1,
                seconds: 0.003 + 0.005135509,
                nodes: 5,
                measured: true,
            },
            ClassCost {
                class_id: 2,
                seconds: 2.0,
                nodes: 6,
                measured: true,
            },
        ]);
        noisy.write(&path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.ends_with("1,0.008135509,5,measured\n2,2,6,measured\n"),
            "{text}"
        );

        std::fs::write(&path, "class_id,seconds\n1,2\n2,-1\n").unwrap();
        let err = ClassCosts::load(&path).unwrap_err().to_string();
        assert!(err.contains("line 3"), "{err}");
        std::fs::write(&path, "board,score\nabc,1\n").unwrap();
        let err = ClassCosts::load(&path).unwrap_err().to_string();
        assert!(err.contains("not a costs file"), "{err}");

        // Writing replaces a costs file, and refuses any other file, leaving it as it was.
        let err = costs.write(&path).unwrap_err().to_string();
        assert!(
            err.contains("not a costs file; nothing was written"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"board,score\nabc,1\n");
        std::fs::write(&path, [0x8f, 0xff, 0, 1]).unwrap();
        assert!(costs.write(&path).is_err());
        std::fs::write(&path, "class_id,seconds\n1,2\n").unwrap();
        costs.write(&path).unwrap();
        assert_eq!(ClassCosts::load(&path).unwrap(), costs);
        // An empty file holds nothing to lose.
        std::fs::write(&path, "").unwrap();
        costs.write(&path).unwrap();
        assert_eq!(ClassCosts::load(&path).unwrap(), costs);

        // Comment lines without a table, a bad header after a blank line, a classes line
        // without its partition: each named where it is.
        for (text, why) in [
            ("# classes: 3x3 ab c\n", "no table after its `#` lines"),
            ("# x\n\nboard,score\n", "line 3: not a costs file"),
            (
                "# classes: 3x3\nclass_id,seconds\n1,2\n",
                "line 1: \"3x3\" is not `SIZE PARTITION`",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = ClassCosts::load(&path).unwrap_err().to_string();
            assert!(err.contains(why), "{text:?}: {err}");
        }
    }

    #[test]
    fn the_proof_costs_were_measured_in_round_trips_and_must_be_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("costs.csv");
        let settings = CostSettings {
            threshold: 500,
            switchover: 1125,
            scoring: "table:0,0,0,1,1,2,3,5,11".into(),
            wordlist: "my words: v2.txt".into(),
            wordlist_sha256: "ab12".into(),
        };
        let one = ClassCost {
            class_id: 4,
            seconds: 2.0,
            nodes: 10,
            measured: true,
        };
        let size = crate::board::Size::new(3, 3).unwrap();
        let space = crate::pipeline::class_space(size, "aeiosuy bcdfghjklmnpqrtvwxz").unwrap();
        let costs = ClassCosts::new(vec![one])
            .of_space(&space)
            .measured_in(settings.clone());
        costs.write(&path).unwrap();
        let back = ClassCosts::load(&path).unwrap();
        assert_eq!(back, costs);
        assert_eq!(back.settings(), Some(&settings));
        assert_eq!(back.space(), Some(("3x3", "aeiosuy bcdfghjklmnpqrtvwxz")));
        let other = CostSettings {
            threshold: 400,
            ..settings.clone()
        };
        assert_eq!(
            settings.differences(&other),
            vec![("score", "500".to_string(), "400".to_string())]
        );
        let edited = CostSettings {
            wordlist_sha256: "cd34".into(),
            ..settings.clone()
        };
        assert_eq!(
            settings.differences(&edited)[0].1,
            "my words: v2.txt (SHA-256 ab12)"
        );

        // A settings line lost or given twice, one that is not a number, or settings without
        // the classes they are of: refused, naming the line or what is missing.
        let text = std::fs::read_to_string(&path).unwrap();
        let refused = |text: String| {
            std::fs::write(&path, text).unwrap();
            ClassCosts::load(&path).unwrap_err().to_string()
        };
        let err = refused(text.replace("# switchover: 1125\n", "# Switchover: 1125\n"));
        assert!(err.contains("no `# switchover:` line"), "{err}");
        let err = refused(text.replace("# score: 500", "# score: many"));
        assert!(err.contains("line 2: \"many\" is not a number"), "{err}");
        let err = refused(text.replace("# scoring:", "# score: 400\n# scoring:"));
        assert!(err.contains("line 4: a second `# score:` line"), "{err}");
        let err = refused(text.replace("# classes: ", "# class: "));
        assert!(err.contains("no `# classes: SIZE PARTITION` line"), "{err}");
        // Other comment lines are passed over, and the table's lines keep their numbers.
        let err = refused(format!("# made by hand\n{text}4,x\n"));
        assert!(err.contains("line 10: 2 fields, not 4"), "{err}");
        let err = refused(format!(
            "# made by hand\n{}",
            text.replace("class_id", "id")
        ));
        assert!(err.contains("line 8: not a costs file"), "{err}");
        // A costs file with comments of its own above is one to replace, not to refuse.
        std::fs::write(&path, format!("# made by hand\n{text}")).unwrap();
        costs.write(&path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}
