"""Record compression experiments on a v2 catalog's record stores (issue 24, brief §2).

For each collection: a training sample (every k-th record, ≤ TRAIN bytes, spread over the whole
collection) and an evaluation run (a contiguous run of records from the middle of the store,
≤ EVAL bytes, so blocks hold neighbouring records as a v3 block would). Units are the v2 record
encodings (the member bytes a v3 record must reproduce), or the output of an encoder given with
--encode (domain.py uses this module that way).

Configurations:
  rec-zstd-L            per record, no dictionary
  rec-zstd-dK-L         per record, dictionary of K KiB trained on the collection
  blk-B-zstd-L          blocks of ≥ B KiB of consecutive records, no dictionary
  blk-B-zstd-dK-L       blocks with a dictionary
  blk-B-lz4 / -lz4hc    lz4 block format per block (with -dK: a raw-content dictionary)
Sizes count the compressed payload plus an offset per unit (4 bytes; records inside a block
carry a u16 offset each, counted). Decompression is timed over every unit (µs per unit = the
cost of fetching one record, since a record fetch decompresses its whole unit).

usage: .venv/bin/python compress.py <catalog> <collection>… [--eval MB] [--train MB] [--quick]
prints one TSV line per (collection, configuration):
  coll  config  docs  v2_bytes  bytes  ratio  B/doc  decomp_MB/s  us/fetch
"""
import sys, time
import zstandard as zstd
import lz4.block
from vcat import Catalog

EVAL = 4 << 20
TRAIN = 8 << 20


def sample(cat, coll, encode=None):
    n = cat.count(coll)
    tot = cat.sections[coll + '.records'][1]
    avg = max(tot / max(n, 1), 1)
    k = max(1, int(tot / TRAIN))
    want = int(EVAL / avg) + 1
    start = max(0, n // 2 - want // 2)
    # training records are spread over the collection but never from the evaluation run (for a
    # collection smaller than the run, the dictionary is trained on the records it compresses,
    # as a build would do)
    outside = [i for i in range(0, n, k) if not start <= i < start + want] or list(range(0, n, k))
    train = [encode(bytes(r)) if encode else bytes(r)
             for i in outside for _, r in cat.records(coll, i, i + 1)]
    ev = [(bytes(r), (encode(bytes(r)) if encode else bytes(r))) for _, r in cat.records(coll, start, start + want)]
    return train, ev


def timed(fn, units, reps):
    best = None
    for _ in range(reps):
        t = time.perf_counter()
        for u in units:
            fn(u)
        d = time.perf_counter() - t
        best = d if best is None else min(best, d)
    return best


def blocks(units, size):
    out, cur, curlen = [], [], 0
    for u in units:
        cur.append(u)
        curlen += len(u)
        if curlen >= size:
            out.append(cur)
            cur, curlen = [], 0
    if cur:
        out.append(cur)
    return out


def run(cat, coll, encode=None, quick=False, label=None):
    label = label or coll
    train, ev = sample(cat, coll, encode)
    v2 = sum(len(r) for r, _ in ev)
    units = [u for _, u in ev]
    raw = sum(len(u) for u in units)
    docs = len(units)
    out = sum(len(u) for u in units)
    reps = 5
    res = []

    def emit(name, nbytes, dtime, nunits):
        res.append((label, name, docs, v2, nbytes, nbytes / v2, nbytes / docs,
                    raw / dtime / 1e6, dtime / nunits * 1e6))
        print('\t'.join(str(x if not isinstance(x, float) else round(x, 4)) for x in res[-1]), flush=True)

    print('\t'.join([label, 'v2-raw', str(docs), str(v2), str(out + 8 * docs), str(round((out + 8 * docs) / v2, 4)),
                     str(round((out + 8 * docs) / docs, 1)), '', '']), flush=True)
    dicts = {}
    dsizes = [64] if quick else [16, 64, 112]
    for kib in dsizes:
        try:
            dicts[kib] = zstd.train_dictionary(kib << 10, train, threads=1)
        except Exception as e:  # too few samples
            print('# %s: dictionary %d KiB not trained: %s' % (label, kib, e), file=sys.stderr)
    levels = [3, 19] if quick else [3, 9, 19]
    # per record
    for kib in [None] + list(dicts):
        for lv in levels:
            if kib is None and lv != 3:
                continue
            d = dicts.get(kib)
            c = zstd.ZstdCompressor(level=lv, dict_data=d, write_content_size=False, write_checksum=False,
                                    write_dict_id=False)
            comp = [c.compress(u) for u in units]
            dd = zstd.ZstdDecompressor(dict_data=d)
            sizes = [len(u) for u in units]
            pairs = list(zip(comp, sizes))
            dt = timed(lambda p: dd.decompress(p[0], max_output_size=p[1]), pairs, reps)
            emit('rec-zstd-%s%d' % ('d%d-' % kib if kib else '', lv), sum(map(len, comp)) + 4 * docs, dt, docs)
    # blocks
    dbig = dicts.get(64) or (dicts and dicts[max(dicts)])
    for bs in [4, 16, 64]:
        bl = [b''.join(b) for b in blocks(units, bs << 10)]
        over = 4 * len(bl) + 2 * docs
        for use in [None, 64]:
            d = dbig if use else None
            if use and not d:
                continue
            for lv in levels:
                c = zstd.ZstdCompressor(level=lv, dict_data=d, write_content_size=False, write_checksum=False,
                                        write_dict_id=False)
                comp = [(c.compress(b), len(b)) for b in bl]
                dd = zstd.ZstdDecompressor(dict_data=d)
                dt = timed(lambda p: dd.decompress(p[0], max_output_size=p[1]), comp, reps)
                emit('blk-%d-zstd-%s%d' % (bs, 'd64-' if use else '', lv), sum(len(x) for x, _ in comp) + over, dt, len(bl))
            # lz4
            dictb = (d.as_bytes() if d else b'')
            for mode in ['lz4', 'lz4hc']:
                kw = dict(mode='high_compression', compression=12) if mode == 'lz4hc' else {}
                comp = [(lz4.block.compress(b, store_size=False, dict=dictb, **kw), len(b)) for b in bl]
                dt = timed(lambda p: lz4.block.decompress(p[0], uncompressed_size=p[1], dict=dictb), comp, reps)
                emit('blk-%d-%s%s' % (bs, mode, '-d64' if use else ''), sum(len(x) for x, _ in comp) + over, dt, len(bl))
    return res


def main():
    args = sys.argv[1:]
    global EVAL, TRAIN
    quick = '--quick' in args
    args = [a for a in args if a != '--quick']
    for flag in ['--eval', '--train']:
        if flag in args:
            i = args.index(flag)
            v = int(float(args[i + 1]) * (1 << 20))
            if flag == '--eval':
                EVAL = v
            else:
                TRAIN = v
            del args[i:i + 2]
    cat = Catalog(args[0])
    print('coll\tconfig\tdocs\tv2_bytes\tbytes\tratio\tB/doc\tdecomp_MB/s\tus/fetch')
    for coll in args[1:]:
        run(cat, coll, quick=quick)


if __name__ == '__main__':
    main()
