#!/usr/bin/env python3
"""Compares annotated VCFs record by record (BENCHMARKS.md "Annotation against bcftools and vcfanno").

The first file is the reference (varcat's output); each other file must have the same records
in the same order (CHROM, POS, ID, REF, ALT, QUAL, FILTER equal; records of one position may
come in another order) and the same INFO entries after sorting keys. Values are compared per comma-separated element: numbers numerically, to the
precision of an f32 (bcftools stores Float as f32 and prints it with 6 significant digits),
everything else as text. Prints, per file, the number of records, of differing records and the
differences grouped by (key, kind) with up to 3 examples each: "value", "rounded" (the other
shows fewer digits of the same number), "only in" one file, and "a repeated record" (an
identical record after the first lacks the entry). Exits 1 when any file differs.

usage: compare.py <reference.vcf[.gz]> <other.vcf[.gz]>...
"""
import gzip
import math
import sys
from collections import defaultdict


def records(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            if not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def sites(path):
    """Groups of records at one (CHROM, POS), each sorted by columns 1-7 then INFO entry count
    (most first): bcftools and vcfanno may reorder the records of one position."""
    group, at = [], None
    for r in records(path):
        if (r[0], r[1]) != at and group:
            yield at, sorted(group, key=lambda g: (g[:7], -len(g[7])))
            group = []
        at = (r[0], r[1])
        group.append(r)
    if group:
        yield at, sorted(group, key=lambda g: (g[:7], -len(g[7])))


def info(col):
    if col == ".":
        return {}
    out = {}
    for entry in col.split(";"):
        k, _, v = entry.partition("=")
        out[k] = v
    return out


def number(s):
    try:
        x = float(s)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def digits(text):
    """Significant digits written in a number's text (`0.0213` -> 3, `1.5e-05` -> 2)."""
    mantissa = text.lower().split("e")[0].lstrip("+-").replace(".", "").lstrip("0")
    return max(len(mantissa), 1)


def same_value(a, b):
    """None when one INFO value (comma-separated elements) equals another, numbers to f32
    precision; "rounded" when `b` is `a` rounded to the fewer digits `b` shows (vcfanno prints
    floats that way); else "value"."""
    ea, eb = a.split(","), b.split(",")
    if len(ea) != len(eb):
        return "value"
    kind = None
    for x, y in zip(ea, eb):
        if x == y:
            continue
        nx, ny = number(x), number(y)
        if nx is None or ny is None:
            return "value"
        # bcftools prints an f32 with %g (6 significant digits): a relative 1e-5 covers both
        # the f32 rounding and the printing.
        if math.isclose(nx, ny, rel_tol=1e-5, abs_tol=1e-30):
            continue
        # Half a unit in the last place `y` shows (and a little for binary ties).
        ulp = 10 ** (math.floor(math.log10(abs(ny))) - digits(y) + 1) if ny else 0
        if abs(nx - ny) <= 0.51 * ulp:
            kind = "rounded"
            continue
        return "value"
    return kind


def compare(ref, other):
    diffs = defaultdict(list)
    n = bad = 0
    sa, sb = sites(ref), sites(other)
    for at, ga in sa:
        gb = next(sb, (None, []))[1]
        n += len(ga)
        if [r[:7] for r in ga] != [r[:7] for r in gb]:
            diffs[("<records>", "differ at this position")].append((at, len(ga), len(gb)))
            bad += len(ga)
            continue
        for i, (a, b) in enumerate(zip(ga, gb)):
            # bcftools annotates only the first of identical records (one annotation record
            # pairs with one input record).
            repeat = i > 0 and ga[i - 1][:7] == a[:7]
            ia, ib = info(a[7]), info(b[7])
            wrong = False
            for k in sorted(set(ia) | set(ib)):
                if k not in ib:
                    kind = "only in the reference" + (", a repeated record" if repeat else "")
                    diffs[(k, kind)].append((a[:5], ia[k]))
                elif k not in ia:
                    diffs[(k, "only in " + other)].append((a[:5], ib[k]))
                else:
                    kind = same_value(ia[k], ib[k])
                    if kind is None:
                        continue
                    diffs[(k, kind)].append((a[:5], ia[k], ib[k]))
                wrong = True
            bad += wrong
    extra = sum(len(g) for _, g in sb)
    if extra:
        diffs[("<records>", f"{extra} extra in " + other)].append(n)
    return n, bad, diffs


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ref, failed = sys.argv[1], False
    for other in sys.argv[2:]:
        n, bad, diffs = compare(ref, other)
        print(f"{other}: {n} records, {bad} differ from {ref}")
        for (key, kind), ex in sorted(diffs.items()):
            failed = True
            print(f"  {key} {kind}: {len(ex)} records, e.g. {ex[:3]}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
