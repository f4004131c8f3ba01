#!/usr/bin/env python3
"""The merged-edge and the default 4x4 partition estimated over the same draws, at the same hours.

    scripts/merged-edges-ratio.py OUTDIR JOURNAL SEED [OUTDIR JOURNAL SEED ...]

OUTDIR is what `scripts/bench-merged-edges.sh OUTDIR ID...` wrote: each merged-edge class's
CPU seconds and those of its default-partition children, broken at the same time on the two
cores. JOURNAL is the merged-edge estimate journal the ids were drawn from, in its order,
and SEED its seed. K is the longest run of the journal's first draws whose merged class and
children are all measured.

Two copies of the journal are made (as scripts/rescale-journals.py makes them) with each of the first K
classes' seconds replaced by today's: the merged class's own in one, its children's sum in
the other. `bogglemax estimate --sample K` over each gives the whole proof's cost in the
merged partition and in the default one from the same importance-weighted draws: every
default class is the child of exactly one merged class, so the children's seconds, weighted
as the draws weight their merged class, add up to the default proof. The two estimates share
their draws, so their ratio is much tighter than either. Prints the per-class table, the two
estimates and the ratio of their CPU seconds.

Several OUTDIR JOURNAL SEED triples (the draws of several seeds' journals, each measured into
its own OUTDIR) are pooled as `estimate --seed A,B --journal ... --journal ...` pools them:
one estimate a side from all their draws.

A merged class re-measured later against a changed breaker can carry its ratio: a file
OUTDIR/merged-factors.tsv, if present, has lines `merged_id<TAB>factor` (with a header line),
and those classes' merged seconds are multiplied by their factor (the per-class table shows
the factored seconds and marks them with `*`).

A newer breaker measured against the one the files were written with can be carried over
without breaking the draws again: MERGED_FACTORS=FILE, lines `merged_id<TAB>factor` (a header
line first, after any `#` comment lines; a line `other<TAB>factor` covers every merged class
not listed) multiplies each merged class's seconds (after merged-factors.tsv; the table marks
a listed class with `+`), and CHILDREN_FACTOR=F every child's. The ratio printed is then the
newer breaker's, and the hours those of the day the files were measured, as the newer
breaker would have taken them.

BOGGLEMAX (default target/release/bogglemax) is the binary that runs the estimates, at the
switchover SWITCHOVER (default 7000: `estimate` reads a journal only at the switchover it was
written at, and the journals in results/estimates/ were written at 7000, 2 × S, the default
before 2026-12-06).
"""
import csv
import importlib.util
import os
import subprocess
import sys
import tempfile

MERGED_PARTITION = ("aeijou bcdfgmpqvwxz hklnrsty, edge:aeijou bcdfghklmnpqrstvwxyz, "
                    "corner:abcdefghijklmnopqrstuvwxyz")

# The journal reading and rescaling of scripts/rescale-journals.py (a file name with a dash).
_spec = importlib.util.spec_from_file_location(
    "rescale_journals", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "rescale-journals.py"))
rescale_journals = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rescale_journals)


def journal_classes(path):
    """The journal's (class id, seconds) in the order written."""
    with open(path, "rb") as f:
        data = f.read()
    return [(class_id, seconds) for _, class_id, seconds in rescale_journals.records(data)]


def measured(path):
    """Per merged id: (CPU seconds, classes, tree nodes, largest peak RSS in KiB)."""
    totals = {}
    with open(path) as f:
        for number, row in enumerate(csv.DictReader(f, delimiter="\t"), 2):
            try:
                m = int(row["merged_id"])
                s, n, nodes, rss = totals.get(m, (0.0, 0, 0, 0))
                totals[m] = (s + float(row["user_s"]) + float(row["system_s"]), n + 1,
                             nodes + int(row["nodes"]), max(rss, int(row["maxrss_kb"])))
            except (KeyError, TypeError, ValueError):
                raise SystemExit(f"error: {path} line {number}: not a row of its table") from None
    return totals


def read_factors(path):
    """A factors file's `merged_id<TAB>factor` lines (a header line first, after any `#`
    comment lines): merged id -> factor, and the factor of its `other` line (1 without one).
    Nothing, and 1, if there is no file."""
    factors, other = {}, 1.0
    if not os.path.exists(path):
        return factors, other
    try:
        with open(path) as f:
            lines = (line for line in f if not line.startswith("#"))
            for row in csv.DictReader(lines, delimiter="\t"):
                if row["merged_id"] == "other":
                    other = float(row["factor"])
                else:
                    factors[int(row["merged_id"])] = float(row["factor"])
    except (KeyError, TypeError, ValueError):
        raise SystemExit(f"error: {path}: not lines of merged_id<TAB>factor") from None
    return factors, other


def breaker_factors():
    """MERGED_FACTORS's factors (merged id -> factor), its factor for the classes it does not
    list (1 without an `other` line or a file), and CHILDREN_FACTOR (1 if unset)."""
    path = os.environ.get("MERGED_FACTORS")
    if path and not os.path.isfile(path):
        raise SystemExit(f"error: no file {path} (MERGED_FACTORS)")
    factors, other = read_factors(path) if path else ({}, 1.0)
    try:
        children = float(os.environ.get("CHILDREN_FACTOR", "1"))
    except ValueError:
        raise SystemExit("error: CHILDREN_FACTOR is not a number") from None
    return factors, other, children


def estimate(bogglemax, journals, seeds, samples):
    """The pooled estimate over the journals (one a seed, its first `samples` draws)."""
    args = [bogglemax, "estimate", "--size", "4x4", "--partition", MERGED_PARTITION, "--score",
            "3500", "--threads", "1", "--seed", ",".join(map(str, seeds)), "--sample",
            ",".join(map(str, samples)), "--switchover", os.environ.get("SWITCHOVER", "7000"),
            "--quiet"]
    for journal in journals:
        args += ["--journal", journal]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"error: bogglemax estimate failed: {run.stderr.strip()}")
    out = run.stdout
    lines = dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)
    return float(lines["cpu_seconds"]), lines["cpu_hours"]


def measured_prefix(outdir, journal):
    """The journal's first draws whose merged class and children are all measured in OUTDIR:
    [(class id, journal seconds)], and per side the measured seconds a class."""
    for path in (os.path.join(outdir, "merged.tsv"), os.path.join(outdir, "children.tsv"), journal):
        if not os.path.isfile(path):
            raise SystemExit(f"error: no file {path}")
    merged = measured(os.path.join(outdir, "merged.tsv"))
    children = measured(os.path.join(outdir, "children.tsv"))
    factors, _ = read_factors(os.path.join(outdir, "merged-factors.tsv"))
    for class_id, factor in factors.items():
        if class_id in merged:
            seconds, rest = merged[class_id][0], merged[class_id][1:]
            merged[class_id] = (seconds * factor,) + rest
    newer, newer_other, children_factor = breaker_factors()
    for class_id, row in merged.items():
        merged[class_id] = (row[0] * newer.get(class_id, newer_other),) + row[1:]
    for class_id, row in children.items():
        children[class_id] = (row[0] * children_factor,) + row[1:]
    done_path = os.path.join(outdir, "children-done")
    done = set()
    if os.path.exists(done_path):
        with open(done_path) as f:
            try:
                done = {int(line) for line in f if line.strip()}
            except ValueError:
                raise SystemExit(f"error: {done_path}: not one class id a line") from None
    prefix = []
    for class_id, seconds in journal_classes(journal):
        if class_id not in merged or class_id not in done:
            break
        if class_id in (c for c, _ in prefix):
            continue
        prefix.append((class_id, seconds))
    if not prefix:
        raise SystemExit(f"error: {journal}'s first draw is not measured yet in {outdir}")
    print(f"# {outdir}")
    print("merged_id\tchildren\tmerged_s\tchildren_s\tratio\tnodes_ratio\tmerged_MiB\tchild_MiB")
    for class_id, _ in prefix:
        ms, _, mn, mr = merged[class_id]
        mark = ("*" if class_id in factors else "") + ("+" if class_id in newer else "")
        cs, cn, cno, cr = children[class_id]
        print(f"{class_id}\t{cn}\t{ms:.1f}{mark}\t{cs:.1f}\t{ms / cs:.3f}\t{mn / cno:.3f}\t"
              f"{mr // 1024}\t{cr // 1024}")
    return prefix, {"merged": merged, "children": children}


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return
    args = sys.argv[1:]
    if not args or len(args) % 3 != 0:
        raise SystemExit(__doc__.split("\n\n")[1])
    # The default binary is the repository's, wherever the script is run from.
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    bogglemax = os.environ.get("BOGGLEMAX", os.path.join(repo, "target/release/bogglemax"))
    if not os.access(bogglemax, os.X_OK):
        raise SystemExit(f"error: no bogglemax at {bogglemax} (make build, or set BOGGLEMAX)")
    try:
        triples = [(args[i], args[i + 1], int(args[i + 2])) for i in range(0, len(args), 3)]
    except ValueError:
        raise SystemExit("error: every third argument is a SEED, a whole number") from None
    measured_draws = [measured_prefix(outdir, journal) for outdir, journal, _ in triples]
    seeds = [seed for _, _, seed in triples]
    samples = [len(prefix) for prefix, _ in measured_draws]
    results = {}
    # The journal copies are scratch: OUTDIR keeps only what was measured.
    journals = []
    for _, journal, _ in triples:
        with open(journal, "rb") as f:
            journals.append(f.read())
    with tempfile.TemporaryDirectory() as scratch:
        for side in ("merged", "children"):
            copies = []
            for i, (data, (prefix, tables)) in enumerate(zip(journals, measured_draws)):
                table = tables[side]
                to_measured = {class_id: table[class_id][0] / seconds
                               for class_id, seconds in prefix}
                copy = os.path.join(scratch, f"{side}.{i}.journal")
                with open(copy, "wb") as f:
                    f.write(rescale_journals.rescale(data, to_measured))
                copies.append(copy)
            results[side] = estimate(bogglemax, copies, seeds, samples)
    print(f"draws: {' + '.join(map(str, samples))} (seeds {', '.join(map(str, seeds))})")
    print(f"merged partition: {results['merged'][1]} CPU-hours")
    print(f"default partition, the same draws: {results['children'][1]} CPU-hours")
    print(f"merged / default: {results['merged'][0] / results['children'][0]:.3f}")


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError) as e:
        raise SystemExit(f"error: {e}")
