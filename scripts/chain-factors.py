#!/usr/bin/env python3
"""Carries an estimate's per-class time factors over to a newer breaker.

    scripts/chain-factors.py OLD_FACTORS PAIRED [NOTE] > NEW_FACTORS

OLD_FACTORS has one `id factor` line per class, after an optional header line (`class_id
factor`, or `merged_id factor`; '#' starts a comment): what the estimate journals' seconds are multiplied by
to stand for the older breaker (scripts/rescale-journals.py, scripts/merged-edges-ratio.py's
MERGED_FACTORS). PAIRED is a paired table of the same classes broken by the older breaker
(`old_s`, the second column) and the newer one (`new_s`, the third) in turn, as the
`...-paired.tsv` files of results/estimates/ hold ('#' lines are its description).

Each class's new factor is its old factor times its own new/old ratio where PAIRED measured it,
else times the measured classes' pooled ratio (their new seconds over their old). NOTE, if
given, is written first as the file's '#' description, with POOLED replaced by that ratio;
without it a one-line description names the inputs. The pooled ratio goes to standard error.
"""
import sys


def rows(path):
    """The lines of a tab-separated file that are not '#' comments, split."""
    with open(path) as f:
        return [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]


def is_number(text):
    """Whether `text` reads as a float."""
    try:
        float(text)
        return True
    except ValueError:
        return False


def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return
    if len(sys.argv) not in (3, 4):
        raise SystemExit("usage: " + __doc__.strip().splitlines()[2].strip())
    old_path, paired_path = sys.argv[1], sys.argv[2]
    measured = rows(paired_path)[1:]
    if not measured:
        raise SystemExit(f"error: {paired_path} has no measured class")
    try:
        ratio = {r[0]: float(r[2]) / float(r[1]) for r in measured}
        pooled = sum(float(r[2]) for r in measured) / sum(float(r[1]) for r in measured)
    except (IndexError, ValueError, ZeroDivisionError):
        raise SystemExit(f"error: {paired_path}: not a paired table (id, old_s, new_s, ...)") from None
    old = rows(old_path)
    # A header line is one whose factor is not a number (the default partition's factor files
    # have none: their header is in the '#' description).
    header = None
    if old and not is_number(old[0][-1]):
        header, old = old[0], old[1:]
    if not old:
        raise SystemExit(f"error: {old_path} has no class")
    # Written whole at the end: a bad line leaves no half-written output.
    out = []
    if sys.argv[3:]:
        with open(sys.argv[3]) as f:
            out.append(f.read().replace("POOLED", f"{pooled:.4f}"))
    else:
        out.append(f"# {old_path} times the new/old ratios of {paired_path} (pooled {pooled:.4f})\n")
    if header:
        out.append("\t".join(header) + "\n")
    for number, row in enumerate(old, 1):
        try:
            class_id, factor = row
            out.append(f"{class_id}\t{float(factor) * ratio.get(class_id, pooled):.4f}\n")
        except ValueError:
            raise SystemExit(f"error: {old_path}: not 'id<TAB>factor': {' '.join(row)}") from None
    sys.stdout.write("".join(out))
    missing = sorted(set(ratio) - {r[0] for r in old})
    if missing:
        print(f"warning: measured classes not in {old_path}: {' '.join(missing)}", file=sys.stderr)
    print(f"pooled new/old: {pooled:.4f} over {len(ratio)} classes", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError, IndexError, ZeroDivisionError) as e:
        raise SystemExit(f"error: {e}")
