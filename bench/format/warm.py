"""Warm latency of two binaries over several alternated varcat-bench runs: per endpoint group,
the median p50 (with its range), the median p99 and the median ratio of p50 to the same run's
floor p50 (markdown on stdout).

usage: python3 warm.py [--names v2,v3] <baseline bench.md …> -- <candidate bench.md …>

The files are varcat-bench outputs (a rung's `.bench.md`, or `varcat-bench <catalog> --variants N
--seed S --conns 1 --secs 2 --bin <its varcat> > run.md` repeated, the two alternated).
"""
import statistics
import sys

from compare import md_table, us


def runs(paths):
    return [md_table(open(p).read(), '| group | conns | req/s | p50 |') for p in paths]


def fmt(x):
    return '%.0f µs' % x if x < 1000 else '%.2f ms' % (x / 1000)


def span(lo, hi):
    """'36–79 µs'; both units when they differ ('812 µs–1.20 ms')."""
    a, b = fmt(lo), fmt(hi)
    return '%s–%s' % (a.split()[0] if a.split()[1] == b.split()[1] else a, b)


def main(argv):
    names = ['baseline', 'candidate']
    if argv[:1] == ['--names']:
        names = argv[1].split(',')
        argv = argv[2:]
    if '--' not in argv:
        raise SystemExit(__doc__)
    i = argv.index('--')
    A, B = runs(argv[:i]), runs(argv[i + 1:])
    if not A or not B or not A[0]:
        raise SystemExit(__doc__)
    a, b = names
    print('runs: %s %d, %s %d\n' % (a, len(A), b, len(B)))
    print('| group | %s p50 | %s p50 | %s/%s | %s p99 | %s p99 | %s p50 / floor | %s p50 / floor |'
          % (a, b, b, a, a, b, a, b))
    print('|---|---:|---:|---:|---:|---:|---:|---:|')
    for g in [r['group'] for r in A[0]]:
        def vals(rs, f):
            return [f(r) for t in rs for r in t if r['group'] == g]
        pa, pb = vals(A, lambda r: us(r['p50'])), vals(B, lambda r: us(r['p50']))
        if not pa or not pb:
            continue
        qa = statistics.median(vals(A, lambda r: us(r['p99'])))
        qb = statistics.median(vals(B, lambda r: us(r['p99'])))
        fa = statistics.median(vals(A, lambda r: us(r['p50']) / us(r['floor p50'])))
        fb = statistics.median(vals(B, lambda r: us(r['p50']) / us(r['floor p50'])))
        ma, mb = statistics.median(pa), statistics.median(pb)
        print('| %s | %s [%s] | %s [%s] | %.2f | %s | %s | %.2f | %.2f |' % (
            g, fmt(ma), span(min(pa), max(pa)), fmt(mb), span(min(pb), max(pb)), mb / ma,
            fmt(qa), fmt(qb), fa, fb))


if __name__ == '__main__':
    main(sys.argv[1:])
