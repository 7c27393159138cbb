#!/usr/bin/env python3
"""summarize.py RESULTS: the lines of `client run` (system group conns req/s p50 p99 bytes
errors bad), several rounds, as a Markdown table of medians per (group, conns, system) and
varcat's req/s over the better PostgreSQL's (by median req/s) in the same run."""
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
order = []
for line in open(sys.argv[1]):
    f = line.split()
    # '#' lines are run.sh's headers (a PIN with spaces can give them nine fields too).
    if line.startswith("#") or len(f) != 9:
        continue
    sysname, group, conns = f[0], f[1], int(f[2])
    rps, p50, p99, size, err, bad = float(f[3]), float(f[4]), float(f[5]), float(f[6]), int(f[7]), int(f[8])
    if (group, conns) not in order:
        order.append((group, conns))
    runs[(group, conns, sysname)].append((rps, p50, p99, size, err, bad))


def us(x):
    return f"{x / 1000:.2f} ms" if x >= 1000 else f"{x:.0f} µs"


print("| group | c | system | runs | req/s (median; each run) | p50 | p99 | mean answer | errors/bad | varcat ÷ best PG |")
print("|---|---:|---|---:|---|---:|---:|---:|---:|---:|")
for group, conns in order:
    med = {}
    for s in ("varcat", "pg-json", "pg-jsonb"):
        r = runs.get((group, conns, s))
        if not r:
            continue
        med[s] = tuple(statistics.median(x[k] for x in r) for k in range(4))
    pg = [s for s in ("pg-json", "pg-jsonb") if s in med]
    best = max(pg, key=lambda s: med[s][0]) if pg else None
    for s in ("varcat", "pg-json", "pg-jsonb"):
        if s not in med:
            continue
        r = runs[(group, conns, s)]
        each = " / ".join(f"{x[0]:,.0f}" for x in r)
        ratio = ""
        if s == "varcat" and best:
            ratio = f"**{med[s][0] / med[best][0]:.2f}** (vs {best})"
        eb = f"{sum(x[4] for x in r)}/{sum(x[5] for x in r)}"
        print(f"| {group} | {conns} | {s} | {len(r)} | {med[s][0]:,.0f} ({each}) | {us(med[s][1])} | {us(med[s][2])} | {med[s][3]:,.0f} B | {eb} | {ratio} |")
