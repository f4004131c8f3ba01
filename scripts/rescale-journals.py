#!/usr/bin/env python3
"""Copies estimate journals with each class's seconds multiplied by a factor of its own.

    scripts/rescale-journals.py FACTORS OUTDIR JOURNAL...

FACTORS has one `class_id factor` line per class to rescale ('#' starts a comment); classes
it does not name keep their seconds. Each JOURNAL is written to OUTDIR under its own file
name, every record the same but its seconds (and checksum).

What it is for: a change to the breaker alters the seconds of some classes of a finished
estimate. Breaking those classes again with the old and the new binary at the same time, one
per core, gives each a same-hours ratio new/old; multiplied into the journal's seconds, the
journals then say what the estimate's own draws cost with the new breaker on the days they
were written, and `bogglemax estimate` over the copies (the same --seed and --sample) gives a
projection that compares with the original's. The draws follow the journals' tree nodes,
which this leaves alone, so the copies draw the same classes.

Journal format: src/pipeline/journal.rs (header of 16 bytes; records `len u32 | crc32 u32 |
payload`, the payload's class id at byte 1 and seconds, an f64, at byte 30).
"""
import os
import struct
import sys
import zlib

HEADER = 16
MAGIC = b"BMXJRNL2"
ID_AT = 1
SECONDS_AT = 30


def read_factors(path):
    """`{class_id: factor}` from FACTORS; a first line that is not numbers is its header."""
    factors = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            try:
                if len(fields) != 2:
                    raise ValueError
                factors[int(fields[0])] = float(fields[1])
            except ValueError:
                # Only a first line of words, a header, is passed over.
                if factors or not fields[0].isidentifier():
                    raise SystemExit(f"error: {path} line {number}: not 'class_id factor': {line}")
    if not factors:
        raise SystemExit(f"error: {path} names no class")
    return factors


def records(data):
    """The journal's records in the order written: (payload, class id, seconds) each."""
    if data[:8] != MAGIC:
        raise ValueError("not an estimate journal of format 2")
    at = HEADER
    while at + 8 <= len(data):
        length, crc = struct.unpack_from("<II", data, at)
        payload = bytearray(data[at + 8 : at + 8 + length])
        if len(payload) != length or zlib.crc32(payload) != crc:
            raise ValueError(f"a torn or corrupt record at byte {at}")
        at += 8 + length
        (class_id,) = struct.unpack_from("<Q", payload, ID_AT)
        (seconds,) = struct.unpack_from("<d", payload, SECONDS_AT)
        yield payload, class_id, seconds


def rescale(data, factors):
    out = bytearray(data[:HEADER])
    for payload, class_id, seconds in records(data):
        struct.pack_into("<d", payload, SECONDS_AT, seconds * factors.get(class_id, 1.0))
        out += struct.pack("<II", len(payload), zlib.crc32(payload)) + payload
    return bytes(out)

def main():
    if sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return
    if len(sys.argv) < 4:
        raise SystemExit(__doc__.strip().splitlines()[2].strip())
    factors = read_factors(sys.argv[1])
    outdir = sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    for journal in sys.argv[3:]:
        target = os.path.join(outdir, os.path.basename(journal))
        if os.path.abspath(target) == os.path.abspath(journal):
            raise SystemExit(f"error: {journal}: OUTDIR must not hold the journals themselves")
        try:
            with open(journal, "rb") as f:
                data = f.read()
            # Rescaled whole before the target is opened: a bad journal leaves no copy.
            copy = rescale(data, factors)
        except (OSError, ValueError) as e:
            raise SystemExit(f"error: {journal}: {e}")
        with open(target, "wb") as f:
            f.write(copy)


if __name__ == "__main__":
    try:
        main()
    except OSError as e:
        raise SystemExit(f"error: {e}")
