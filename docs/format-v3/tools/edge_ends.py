"""Bytes of the edge-end indexes of a catalog: the `<c>.by._from*` / `<c>.by._to*` value maps
(v2, main before step 7a) or the `<c>.adj._from*` / `<c>.adj._to*` adjacencies (step 7a), in
total and by collection.

usage: python3 edge_ends.py <catalog>...
"""
import re
import sys
from collections import defaultdict
from vcat import Catalog

END = re.compile(r'^([^.]+)\.(by|adj)\.(_from|_to)(\..*)?$')


def main(paths):
    for path in paths:
        cat = Catalog(path)
        per = defaultdict(lambda: defaultdict(int))
        for name in cat.order:
            m = END.match(name)
            if m:
                per[m.group(1)][m.group(2)] += cat.sections[name][1]
        total = defaultdict(int)
        for kinds in per.values():
            for k, n in kinds.items():
                total[k] += n
        print(f'{path}: by {total["by"]:,} B, adj {total["adj"]:,} B')
        for coll in sorted(per, key=lambda c: -sum(per[c].values())):
            print(f'  {coll}: ' + ', '.join(f'{k} {n:,}' for k, n in sorted(per[coll].items())))


if __name__ == '__main__':
    main(sys.argv[1:])
