#!/usr/bin/env python3
"""Benchmark input for `varcat annotate` (BENCHMARKS.md "Annotation against bcftools and vcfanno").

Reads a synthetic collection directory's variants (`varcat synth`: variants.*.jsonl), draws
N records from them with replacement (seeded), and adds ABSENT_SHARE of N records that the
catalog does not hold (a catalog SNV's position and REF with another ALT base), sorted by
(chromosome as first seen, position), sites only. Writes VCF text and, with --bgzf, a BGZF copy
(plain zlib, no dependencies). Synthetic SPDIs are trimmed and unanchored, so an indel is
written with an `N` anchor base (POS = SPDI position), which varcat trims away again.

usage: make_input.py <synth-dir> <out.vcf> [--records 1000000] [--absent 0.2] [--seed 1] [--bgzf out.vcf.gz]
"""
import argparse
import glob
import json
import random
import struct
import zlib


def vcf_form(spdi):
    _acc, pos, d, i = spdi.rsplit(":", 3)
    p = int(pos)
    if len(d) == len(i):
        return p + 1, d, i
    return p, "N" + d, "N" + i


def bgzf_write(path, data):
    """BGZF: gzip members of at most 64 KiB input each, with the BC extra field, then EOF."""
    with open(path, "wb") as f:
        for off in range(0, len(data), 65280):
            chunk = data[off:off + 65280]
            c = zlib.compressobj(6, zlib.DEFLATED, -15)
            body = c.compress(chunk) + c.flush()
            bsize = len(body) + 25
            f.write(b"\x1f\x8b\x08\x04" + b"\0\0\0\0" + b"\0\xff" + struct.pack("<H", 6)
                    + b"BC" + struct.pack("<HH", 2, bsize)
                    + body + struct.pack("<II", zlib.crc32(chunk) & 0xFFFFFFFF, len(chunk)))
        f.write(bytes.fromhex("1f8b08040000000000ff0600424302001b0003000000000000000000"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("synth")
    ap.add_argument("out")
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--absent", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bgzf")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    variants, alts_at = [], {}
    for path in sorted(glob.glob(f"{a.synth}/variants.*jsonl")) or [f"{a.synth}/variants.jsonl"]:
        for line in open(path):
            v = json.loads(line)
            chrom = v["chr"]
            pos, r, alt = vcf_form(v["spdi"])
            variants.append((chrom, pos, r, alt))
            alts_at.setdefault((chrom, pos, r), set()).add(alt)
    absent = int(a.records * a.absent)
    present = a.records - absent
    rows = [rng.choice(variants) for _ in range(present)]
    snvs = [v for v in variants if len(v[2]) == 1 and len(v[3]) == 1 and v[2] in "ACGT"]
    while len(rows) < a.records:
        chrom, pos, r, _ = rng.choice(snvs)
        free = [b for b in "ACGT" if b != r and b not in alts_at[(chrom, pos, r)]]
        if free:
            rows.append((chrom, pos, r, rng.choice(free)))
    order = {}
    for chrom, *_ in variants:
        order.setdefault(chrom, len(order))
    rows.sort(key=lambda x: (order[x[0]], x[1]))
    out = ["##fileformat=VCFv4.2"]
    out += [f"##contig=<ID={c}>" for c in order]
    out.append("#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO")
    out += [f"{c}\t{p}\t.\t{r}\t{al}\t.\t.\t." for c, p, r, al in rows]
    data = ("\n".join(out) + "\n").encode()
    with open(a.out, "wb") as f:
        f.write(data)
    if a.bgzf:
        bgzf_write(a.bgzf, data)
    print(f"{a.records} records ({present} drawn from {len(variants)} variants, {absent} absent)")


if __name__ == "__main__":
    main()
