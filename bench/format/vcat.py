"""Minimal read-only parser of a varcat catalog: section table and meta of any version (the
header, footer, section table and JSON `meta` are the same in v2 and v3), records of a v2 one.

Used by rung.py and compare.py (section classes for the size tables); no dependency beyond the
standard library.
"""
import json, mmap, os, struct


class Catalog:
    def __init__(self, path):
        self.path = path
        self.f = open(path, 'rb')
        self.m = mmap.mmap(self.f.fileno(), 0, access=mmap.ACCESS_READ)
        n = len(self.m)
        # Header: magic (8) · format_version u32 (FORMAT.md "Header").
        self.version = struct.unpack_from('<I', self.m, 8)[0]
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
        """Yields (ordinal, raw record bytes) of `coll` in ordinal order (v2 record stores only:
        v3 stores encoded, block-compressed records)."""
        assert self.version == 2, 'records() reads v2 record stores only'
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
        return self.colls[coll]['documents']


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


# The section classes of the size tables, in table order.
CLASSES = ['records', 'key map', 'value maps', 'adjacency', 'facets', 'columns',
           'intervals/points', 'other']


def section_class(name):
    """(collection, class) of a section name, class one of CLASSES (or 'meta', collection None).

    Names are `<collection>.<rest>` (FORMAT.md "Sections"), v2 and v3:
      records      `.records`, and v3's `.codebook` and `.zdict` (the records' dictionaries)
      key map      `.key`
      value maps   `.by.*`, `.fold.*`, `.tok.*` (FST and postings)
      adjacency    `.adj.<end>`, `.adj.<end>.post`, `.adj.<end>.unresolved.fst|.post`, and v2's
                   `.by._from.*`/`.by._to.*` (the edge-end value maps v3's adjacency replaces)
      facets       `.facet.*`; columns `.num.*`; intervals/points `.intervals`, `.ends`, `.points`
    Anything else is 'other', so a new section kind shows up in the tables rather than vanish.
    """
    if name == 'meta':
        return None, 'meta'
    coll, rest = name.split('.', 1)
    kind = rest.split('.', 1)[0]
    if kind in ('records', 'codebook', 'zdict'):
        return coll, 'records'
    if rest == 'key':
        return coll, 'key map'
    if rest.startswith(('by._from.', 'by._to.')):
        return coll, 'adjacency'
    if kind in ('by', 'fold', 'tok'):
        return coll, 'value maps'
    if kind == 'adj':
        return coll, 'adjacency'
    if kind == 'facet':
        return coll, 'facets'
    if kind == 'num':
        return coll, 'columns'
    if kind in ('intervals', 'ends', 'points'):
        return coll, 'intervals/points'
    return coll, 'other'


def input_bytes(cat):
    """JSONL input bytes and documents per collection, from the meta's input list (file stem minus .pN)."""
    out = {}
    for f in cat.meta['inputs']:
        stem = f['name'].split('.')[0]
        b, d = out.get(stem, (0, 0))
        out[stem] = (b + f['bytes'], d + f['documents'])
    return out
