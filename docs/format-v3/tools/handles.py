"""Which collections are referenced by handles ("<collection>/<key>") stored in records, and by
which member: those targets need a key map (or, in v3, an ordinal stored in place of the handle).
Also: key length and encoding per collection.

usage: python3 handles.py <catalog>
"""
import re, sys
from collections import Counter, defaultdict
from vcat import Catalog, members

H = re.compile(rb'"([a-z_]+)/')


def main(path):
    cat = Catalog(path)
    names = set(cat.colls)
    targets = defaultdict(Counter)     # target → (source coll.member) → count
    keylen = {}
    for c in cat.meta['collections']:
        coll, fields = c['name'], c['fields']
        kid = fields.index('_key') if '_key' in fields else None
        tot = n = 0
        for _, r in cat.records(coll):
            for fid, v in members(r):
                if fid == kid:
                    tot += len(v) - 2
                    n += 1
                for m in H.finditer(v):
                    t = m.group(1).decode()
                    if t in names:
                        targets[t]['%s.%s' % (coll, fields[fid])] += 1
        keylen[coll] = (tot / n if n else 0, c.get('key_encoding'))
    print('| collection | docs | key bytes (text) | key_encoding | key map B/doc | referenced by (member: handles) |')
    print('|---|---:|---:|---|---:|---|')
    for c in cat.meta['collections']:
        coll = c['name']
        km = cat.sections.get(coll + '.key', (0, 0))[1]
        refs = ', '.join('%s: %d' % kv for kv in targets[coll].most_common())
        print('| %s | %d | %.1f | %s | %.1f | %s |' % (coll, c['documents'], keylen[coll][0], keylen[coll][1],
                                                  km / max(c['documents'], 1), refs or '—'))


if __name__ == '__main__':
    main(sys.argv[1])
