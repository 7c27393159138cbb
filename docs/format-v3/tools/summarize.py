"""Tables for the brief from compress.py / domain.py TSV output.

usage: python3 summarize.py <tsv> <column> <config>…   column: ratio | B/doc | decomp_MB/s | us/fetch
prints a markdown table: one row per collection, one column per configuration.
"""
import sys
from collections import OrderedDict


def main():
    path, col, *configs = sys.argv[1:]
    idx = {'ratio': 5, 'B/doc': 6, 'decomp_MB/s': 7, 'us/fetch': 8}[col]
    rows = OrderedDict()
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        if len(f) < 9 or f[0] == 'coll' or f[0].startswith('#'):
            continue
        rows.setdefault(f[0], {})[f[1]] = f[idx]
    print('| collection (%s) | %s |' % (col, ' | '.join(configs)))
    print('|---|' + '---:|' * len(configs))
    for c, d in rows.items():
        def fmt(x):
            try:
                v = float(x)
            except (TypeError, ValueError):
                return '–'
            return ('%.3f' % v) if col == 'ratio' else ('%.1f' % v if v < 100 else '%.0f' % v)
        print('| %s | %s |' % (c, ' | '.join(fmt(d.get(k)) for k in configs)))


if __name__ == '__main__':
    main()
