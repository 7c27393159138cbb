"""Domain-aware record encoding estimate (issue 24, brief §3).

Simulates a v3 record encoding per collection and measures it, alone and with zstd/lz4 on top:
  * a per-collection member codebook built from all its records (pass 1):
      const  member present in every record with one value          → 0 bytes
      ref    handle "<collection>/<key>" that resolves in the catalog  → target ordinal
             (4 bytes for targets that reach 2^24+ documents at IGVF scale: variants,
             coding_variants, variants_variants; a varint otherwise); unresolved → raw text
      same   equal to an earlier member of the record (spdi = _key)   → 0 bytes (+ escape)
      dict   few distinct values (≤ 65536, each used 8 times on average)
                                                                       → varint code
      int    JSON integer                                              → zigzag varint
      float  JSON decimal text                                          → zigzag varint of the
             shortest decimal mantissa + 1 byte exponent (ryu output is reproducible from it)
      hex    a digest key (64 lowercase hex)                            → 32 bytes
      str    other strings                                              → varint length + bytes
      obj    an object whose member list is the same in every record (variants.annotations)
             → its members encoded the same way, nulls in a bitmap
      raw    anything else (arrays, objects of varying shape)          → varint length + JSON
  * per record: a presence bitmap over the non-constant members; a `_key` that contains the
    key text of its `_from`/`_to` references stores those parts as 1-byte markers.
Then the encoded records are compressed as compress.py does (per record or in blocks, with a
dictionary trained on encoded records).

usage: .venv/bin/python domain.py <catalog> <collection>… [--refs ord|text|both] [--drop coll.member]…
prints TSV: coll  config  docs  v2_bytes  bytes  ratio  B/doc  decomp_MB/s  us/fetch
plus, on stderr, the member classes chosen for each collection.
"""
import json, re, sys, time
from collections import Counter, defaultdict
import zstandard as zstd
import lz4.block
from vcat import Catalog, members
import compress as cx

BIG = {'variants', 'coding_variants', 'variants_variants', 'coding_variant_scores'}
HEX64 = re.compile(rb'^"[0-9a-f]{64}"$')
NUM = re.compile(rb'^-?(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$')


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def zz(n):
    return (n << 1) if n >= 0 else ((-n << 1) - 1)


def enc_float(b):
    m = NUM.match(b)
    if not m:
        return None
    ip, fp, ex = m.group(1), m.group(2) or b'', m.group(3)
    mant = int(ip + fp)
    if b.startswith(b'-'):
        mant = -mant
    return varint(zz(mant)) + b'\x00'   # 1 byte: exponent and notation


class Keys:
    """key → ordinal of every collection (the catalog's own ordinals)."""

    def __init__(self, cat):
        self.ords = {}
        for c in cat.meta['collections']:
            fields = c['fields']
            if '_key' not in fields:
                continue
            kid = fields.index('_key')
            d = {}
            for o, r in cat.records(c['name']):
                for fid, v in members(r):
                    if fid == kid:
                        d[v[1:-1]] = o
            self.ords[c['name']] = d

    def resolve(self, v):
        if v[:1] != b'"' or b'/' not in v:
            return None
        coll, key = v[1:-1].split(b'/', 1)
        coll = coll.decode('utf-8', 'replace')
        o = self.ords.get(coll, {}).get(key)
        return None if o is None else (coll, o)


class Member:
    def __init__(self):
        self.n = 0
        self.values = Counter()
        self.capped = False
        self.types = Counter()
        self.refs = Counter()
        self.same = Counter()
        self.sub = None       # for struct objects: name → Member
        self.shapes = Counter()


def jt(b):
    c = b[:1]
    return {b'"': 'str', b'{': 'obj', b'[': 'arr', b't': 'bool', b'f': 'bool', b'n': 'null'}.get(
        c, 'int' if re.fullmatch(rb'-?\d+', b) else 'float')


def observe(m, v, keys, prior):
    m.n += 1
    t = jt(v)
    m.types[t] += 1
    if not m.capped:
        m.values[v] += 1
        if len(m.values) > 70000:
            m.capped = True
    if t == 'str' and keys is not None:
        r = keys.resolve(v)
        if r:
            m.refs[r[0]] += 1
    for name, pv in prior:
        if pv == v:
            m.same[name] += 1
    if t == 'obj':
        o = json.loads(v, object_pairs_hook=lambda kv: kv)
        m.shapes[tuple(k for k, _ in o)] += 1
        if m.sub is None:
            m.sub = defaultdict(Member)
        for k, x in o:
            observe(m.sub[k], json.dumps(x, separators=(',', ':'), ensure_ascii=False).encode(), None, [])


def classify(m, total):
    if m.n == total and len(m.values) == 1 and not m.capped:
        return ('const',)
    if m.refs and sum(m.refs.values()) >= 0.9 * m.n:
        return ('ref', m.refs.most_common(1)[0][0])
    if m.same:
        name, k = m.same.most_common(1)[0]
        if k >= 0.9 * m.n:
            return ('same', name)
    d = len(m.values)
    if not m.capped and d <= 65536 and d * 8 <= m.n:
        return ('dict', {v: i for i, (v, _) in enumerate(m.values.most_common())})
    nonnull = [t for t, _ in m.types.most_common() if t != 'null']
    t = nonnull[0] if nonnull else 'null'
    if t == 'obj' and len(m.shapes) == 1:
        return ('obj', {k: classify(s, m.n) for k, s in m.sub.items()}, list(m.sub))
    return (t,)


def encode_value(cls, v, keys, rec, out):
    kind = cls[0]
    if kind == 'const':
        return
    if kind == 'ref':
        r = keys.resolve(v)
        if r and r[0] == cls[1]:
            out += (r[1].to_bytes(4, 'little') if r[0] in BIG else varint(r[1] + 1))
            return
        out += b'\x00' + varint(len(v)) + v      # escape: raw text
        return
    if kind == 'same':
        if rec.get(cls[1]) == v:
            out += b'\x00'                        # 1 flag byte (could be a bitmap bit)
            return
        out += b'\x01' + varint(len(v)) + v
        return
    if kind == 'dict':
        i = cls[1].get(v)
        out += varint(i + 1) if i is not None else b'\x00' + varint(len(v)) + v
        return
    if kind == 'int' and jt(v) == 'int':
        out += varint(zz(int(v)))
        return
    if kind == 'float' and jt(v) in ('float', 'int'):
        f = enc_float(v)
        if f:
            out += f
            return
    if kind == 'str' and HEX64.match(v):
        out += bytes.fromhex(v[1:-1].decode())
        return
    if kind == 'obj':
        o = json.loads(v, object_pairs_hook=lambda kv: kv)
        names = cls[2]
        if [k for k, _ in o] == names:
            nulls = 0
            body = bytearray()
            for i, (k, x) in enumerate(o):
                if x is None:
                    nulls |= 1 << i
                    continue
                encode_value(cls[1][k], json.dumps(x, separators=(',', ':'), ensure_ascii=False).encode(),
                             keys, {}, body)
            out += nulls.to_bytes((len(names) + 7) // 8, 'little') + body
            return
    if kind == 'str' and v[:1] == b'"':
        out += varint(len(v) - 2) + v[1:-1]
        return
    out += varint(len(v)) + v


class Encoder:
    def __init__(self, cat, coll, keys, refs='ord', drop=()):
        self.fields = cat.colls[coll]['fields']
        self.drop = set(drop)
        self.keys = keys
        stats = defaultdict(Member)
        total = 0
        for _, r in cat.records(coll):
            total += 1
            prior = []
            for fid, v in members(r):
                name = self.fields[fid]
                observe(stats[name], v, keys, prior)
                prior.append((name, v))
        self.cls = {k: classify(m, total) for k, m in stats.items()}
        if refs == 'text':
            self.cls = {k: (c if c[0] != 'ref' else ('str',)) for k, c in self.cls.items()}
        self.refs = refs
        self.varying = [f for f in self.fields if f in self.cls and self.cls[f][0] != 'const']

    def describe(self):
        out = []
        for f in self.fields:
            if f not in self.cls:
                continue
            c = self.cls[f]
            if c[0] == 'dict':
                out.append('%s:dict(%d)' % (f, len(c[1])))
            elif c[0] in ('ref', 'same'):
                out.append('%s:%s(%s)' % (f, c[0], c[1]))
            elif c[0] == 'obj':
                sub = Counter(x[0] for x in c[1].values())
                out.append('%s:obj(%s)' % (f, ','.join('%s×%d' % kv for kv in sub.items())))
            else:
                out.append('%s:%s' % (f, c[0]))
        return ' '.join(out)

    def __call__(self, rec):
        ms = {self.fields[fid]: v for fid, v in members(rec)}
        present = 0
        body = bytearray()
        for i, f in enumerate(self.varying):
            if f in ms:
                present |= 1 << i
        for f in self.varying:
            if f not in ms or f in self.drop:
                continue
            v = ms[f]
            if f == '_key':
                for end in ('_from', '_to'):
                    h = ms.get(end)
                    if h and self.cls.get(end, ('',))[0] == 'ref' and b'/' in h:
                        k = h[1:-1].split(b'/', 1)[1]
                        if k and k in v:
                            v = v.replace(k, b'\x01' if end == '_from' else b'\x02', 1)
            encode_value(self.cls[f], v, self.keys, ms, body)
            if self.refs == 'both' and self.cls[f][0] == 'ref':
                body += varint(len(v)) + v
        return present.to_bytes((len(self.varying) + 7) // 8, 'little') + bytes(body)


def evaluate(cat, coll, enc, label):
    train, ev = cx.sample(cat, coll, enc)
    v2 = sum(len(r) for r, _ in ev)
    units = [u for _, u in ev]
    raw = sum(map(len, units))
    docs = len(units)
    rows = []

    def emit(name, nbytes, dt, nunits):
        row = (label, name, docs, v2, nbytes, nbytes / v2, nbytes / docs,
               (raw / dt / 1e6) if dt else 0.0, (dt / nunits * 1e6) if dt else 0.0)
        rows.append(row)
        print('\t'.join(str(x if not isinstance(x, float) else round(x, 4)) for x in row), flush=True)

    emit('enc-raw', raw + 4 * docs, 0, 1)
    try:
        d = zstd.train_dictionary(64 << 10, train, threads=1)
    except Exception as e:
        print('# %s: no dictionary: %s' % (label, e), file=sys.stderr)
        d = None
    for lv in (3, 19):
        c = zstd.ZstdCompressor(level=lv, dict_data=d, write_content_size=False, write_checksum=False,
                                write_dict_id=False)
        dd = zstd.ZstdDecompressor(dict_data=d)
        comp = [(c.compress(u), len(u)) for u in units]
        dt = cx.timed(lambda p: dd.decompress(p[0], max_output_size=p[1]), comp, 5)
        emit('enc-rec-zstd-d64-%d' % lv, sum(len(x) for x, _ in comp) + 4 * docs, dt, docs)
        for bs in (4, 16, 64):
            bl = [b''.join(b) for b in cx.blocks(units, bs << 10)]
            comp = [(c.compress(b), len(b)) for b in bl]
            dt = cx.timed(lambda p: dd.decompress(p[0], max_output_size=p[1]), comp, 5)
            emit('enc-blk-%d-zstd-d64-%d' % (bs, lv), sum(len(x) for x, _ in comp) + 4 * len(bl) + 2 * docs, dt, len(bl))
    db = d.as_bytes() if d else b''
    for bs in (4, 16):
        bl = [b''.join(b) for b in cx.blocks(units, bs << 10)]
        comp = [(lz4.block.compress(b, store_size=False, dict=db, mode='high_compression', compression=12), len(b)) for b in bl]
        dt = cx.timed(lambda p: lz4.block.decompress(p[0], uncompressed_size=p[1], dict=db), comp, 5)
        emit('enc-blk-%d-lz4hc-d64' % bs, sum(len(x) for x, _ in comp) + 4 * len(bl) + 2 * docs, dt, len(bl))
    return rows


def main():
    args = sys.argv[1:]
    refs = 'ord'
    if '--refs' in args:
        i = args.index('--refs')
        refs = args[i + 1]
        del args[i:i + 2]
    if '--eval' in args:
        i = args.index('--eval')
        cx.EVAL = int(float(args[i + 1]) * (1 << 20))
        del args[i:i + 2]
    drop = []
    while '--drop' in args:          # --drop coll.member: a member v3 need not store
        i = args.index('--drop')
        drop.append(args[i + 1])
        del args[i:i + 2]
    cat = Catalog(args[0])
    keys = Keys(cat)
    print('coll\tconfig\tdocs\tv2_bytes\tbytes\tratio\tB/doc\tdecomp_MB/s\tus/fetch')
    for coll in args[1:]:
        dr = [d.split('.', 1)[1] for d in drop if d.split('.', 1)[0] == coll]
        enc = Encoder(cat, coll, keys, refs, dr)
        print('# %s [refs=%s, drop=%s]: %s' % (coll, refs, dr, enc.describe()), file=sys.stderr, flush=True)
        evaluate(cat, coll, enc, coll + ('' if refs == 'ord' else '/refs=' + refs) + ''.join('/-' + d for d in dr))


if __name__ == '__main__':
    main()
