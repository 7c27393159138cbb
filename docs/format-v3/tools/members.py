"""Per-member statistics of a v2 catalog's records: how often a member is present, its JSON
types, distinct values, bytes, whether it is constant, a handle ("<collection>/<key>") or a
number, and (for object members such as variants.annotations) the same one level down.

usage: python3 members.py <catalog> [collection …] [--sample N]   (default: every collection,
first N = 200000 records each; prints a markdown table per collection)
"""
import json, sys
from collections import Counter, defaultdict
from vcat import Catalog, members


def jtype(b):
    c = b[:1]
    if c == b'"':
        return 'str'
    if c == b'{':
        return 'obj'
    if c == b'[':
        return 'arr'
    if c in (b't', b'f'):
        return 'bool'
    if c == b'n':
        return 'null'
    return 'int' if all(ch in '-0123456789' for ch in b.decode()) else 'float'


class Stat:
    def __init__(self):
        self.n = 0
        self.bytes = 0
        self.types = Counter()
        self.values = Counter()
        self.handles = Counter()   # target collection of handle-like strings
        self.capped = False

    def add(self, b, colls):
        self.n += 1
        self.bytes += len(b)
        t = jtype(b)
        self.types[t] += 1
        if len(self.values) < 100000:
            self.values[b] += 1
        else:
            self.capped = True
            if b in self.values:
                self.values[b] += 1
        if t == 'str':
            s = b[1:-1].decode('utf-8', 'replace')
            if '/' in s and s.split('/', 1)[0] in colls:
                self.handles[s.split('/', 1)[0]] += 1


def analyse(cat, coll, sample):
    fields = cat.colls[coll]['fields']
    colls = set(cat.colls) | {'files_filesets', 'ontology_terms'}
    top = defaultdict(Stat)
    sub = defaultdict(Stat)
    shapes = defaultdict(Counter)
    n = 0
    for _, rec in cat.records(coll, 0, sample):
        n += 1
        for fid, v in members(rec):
            name = fields[fid]
            top[name].add(v, colls)
            if v[:1] == b'{':
                o = json.loads(v, object_pairs_hook=lambda kv: kv)
                shapes[name][tuple(k for k, _ in o)] += 1
                for k, x in o:
                    sub[name + '.' + k].add(json.dumps(x, separators=(',', ':')).encode(), colls)
    return n, top, sub, shapes


def row(name, s, n):
    d = len(s.values)
    distinct = ('≥%d' % d) if s.capped else str(d)
    const = 'yes' if d == 1 and s.n == n else ''
    top = s.values.most_common(1)[0][0][:40].decode('utf-8', 'replace') if s.values else ''
    h = ','.join('%s' % k for k, _ in s.handles.most_common(3))
    return '| %s | %.3f | %.1f | %s | %s | %s | %s | `%s` |' % (
        name, s.n / n, s.bytes / n, ' '.join('%s:%d' % kv for kv in s.types.most_common()),
        distinct, const, h, top.replace('|', '\\|'))


def main():
    args = sys.argv[1:]
    sample = 200000
    if '--sample' in args:
        i = args.index('--sample')
        sample = int(args[i + 1])
        del args[i:i + 2]
    cat = Catalog(args[0])
    colls = args[1:] or [c['name'] for c in cat.meta['collections']]
    for coll in colls:
        n, top, sub, shapes = analyse(cat, coll, sample)
        if not n:
            continue
        print('\n### %s (%d records read of %d)\n' % (coll, n, cat.count(coll)))
        print('| member | present | bytes/doc | types | distinct | constant | handle to | most common |')
        print('|---|---:|---:|---|---:|---|---|---|')
        for k, s in top.items():
            print(row(k, s, n))
        for k, c in shapes.items():
            print('| %s: %d distinct member lists | | | | | | | |' % (k, len(c)))
        for k, s in sub.items():
            print(row(k, s, n))


if __name__ == '__main__':
    main()
