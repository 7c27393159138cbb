"""Minimal read-only parser of a varcat v2 catalog (FORMAT.md v2): section table, meta, records.

Used by the other tools in this directory; no dependency beyond the standard library.
"""
import json, mmap, os, struct


class Catalog:
    def __init__(self, path):
        self.path = path
        self.f = open(path, 'rb')
        self.m = mmap.mmap(self.f.fileno(), 0, access=mmap.ACCESS_READ)
        n = len(self.m)
        to, tl, _tx, fl = struct.unpack_from('<4Q', self.m, n - 48)
        assert fl == n
        cnt = struct.unpack_from('<Q', self.m, to)[0]
        p = to + 8
        self.sections = {}
        self.order = []
        for _ in range(cnt):
            nl, _r, off, ln, _x = struct.unpack_from('<IIQQQ', self.m, p)
            p += 32
            name = bytes(self.m[p:p + nl]).decode()
            p += (nl + 7) // 8 * 8
            self.sections[name] = (off, ln)
            self.order.append(name)
        self.meta = json.loads(self.section('meta'))
        self.colls = {c['name']: c for c in self.meta['collections']}

    def section(self, name):
        off, ln = self.sections[name]
        return self.m[off:off + ln]

    def records(self, coll, start=0, stop=None):
        """Yields (ordinal, raw record bytes) of `coll` in ordinal order."""
        off, ln = self.sections[coll + '.records']
        t = off + ln - 24
        n, at = struct.unpack_from('<QQ', self.m, t)
        stop = n if stop is None else min(stop, n)
        base = off
        offs = off + at
        for i in range(start, stop):
            s, e = struct.unpack_from('<QQ', self.m, offs + 8 * i)
            yield i, self.m[base + s:base + e]

    def count(self, coll):
        off, ln = self.sections[coll + '.records']
        return struct.unpack_from('<Q', self.m, off + ln - 24)[0]


def members(rec):
    """Decodes a v2 record into [(field id, JSON bytes)] (FORMAT.md: n u16, ids u16×n, ends u32×n)."""
    n = struct.unpack_from('<H', rec, 0)[0]
    ids = struct.unpack_from('<%dH' % n, rec, 2)
    ends = struct.unpack_from('<%dI' % n, rec, 2 + 2 * n)
    base = 2 + 6 * n
    out, s = [], 0
    for i, e in zip(ids, ends):
        out.append((i, bytes(rec[base + s:base + e])))
        s = e
    return out


def section_class(name):
    """(collection, class) of a section name; class is one of the brief's section classes."""
    if name == 'meta':
        return None, 'meta'
    coll, rest = name.split('.', 1)
    if rest == 'records':
        return coll, 'records'
    if rest == 'key':
        return coll, 'key map'
    kind = rest.split('.', 1)[0]
    if kind in ('by', 'fold', 'tok'):
        return coll, 'value map fst' if rest.endswith('.fst') else 'value map postings'
    if kind == 'facet':
        return coll, 'facets'
    if kind == 'num':
        return coll, 'columns'
    if kind in ('intervals', 'ends', 'points'):
        return coll, 'intervals/points'
    if kind == 'adj':
        return coll, 'adjacency'
    return coll, 'other'


def input_bytes(cat):
    """JSONL input bytes and documents per collection, from the meta's input list (file stem minus .pN)."""
    out = {}
    for f in cat.meta['inputs']:
        stem = f['name'].split('.')[0]
        b, d = out.get(stem, (0, 0))
        out[stem] = (b + f['bytes'], d + f['documents'])
    return out
