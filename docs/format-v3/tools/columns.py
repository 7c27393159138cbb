"""Numeric columns (num.<field>): null share, distinct values and compressed size per column.

usage: .venv/bin/python columns.py <catalog> [collection]
"""
import math, struct, sys
import zstandard as zstd
from vcat import Catalog


def main(path, only=None):
    cat = Catalog(path)
    c = zstd.ZstdCompressor(level=3)
    print('| column | n | null % | distinct | bytes/doc v2 | zstd-3 per 64 KiB block, bytes/doc |')
    print('|---|---:|---:|---:|---:|---:|')
    tot = totz = docs = 0
    for name in cat.order:
        coll, _, rest = name.partition('.')
        if not rest.startswith('num.') or (only and coll != only):
            continue
        b = bytes(cat.section(name))
        n = struct.unpack_from('<Q', b, len(b) - 16)[0]
        vals = struct.unpack_from('<%dd' % n, b, 0)
        nulls = sum(1 for v in vals if math.isnan(v))
        distinct = len(set(v for v in vals if not math.isnan(v)))
        raw = b[:8 * n]
        z = sum(len(c.compress(raw[i:i + 65536])) for i in range(0, len(raw), 65536))
        tot += len(b)
        totz += z
        docs = n
        print('| %s | %d | %.1f | %d | %.1f | %.2f |' % (name, n, 100 * nulls / max(n, 1), distinct, len(b) / max(n, 1), z / max(n, 1)))
    if only:
        print('| total %s | %d | | | %.1f | %.1f |' % (only, docs, tot / max(docs, 1), totz / max(docs, 1)))


if __name__ == '__main__':
    main(*sys.argv[1:])
