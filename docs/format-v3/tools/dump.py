"""Writes a collection's evaluation run (as compress.py picks it) for the native zstd/lz4 CLI
benchmarks: <out>/all.bin (records back to back), <out>/rec/<i> (one file per record) and
<out>/dict64 (a 64 KiB dictionary trained as compress.py trains it).

usage: .venv/bin/python dump.py <catalog> <collection> <out> [--eval MB] [--train MB]
"""
import os, sys
import zstandard as zstd
import compress as cx
from vcat import Catalog


def main():
    args = sys.argv[1:]
    for flag in ['--eval', '--train']:
        if flag in args:
            i = args.index(flag)
            v = int(float(args[i + 1]) * (1 << 20))
            setattr(cx, 'EVAL' if flag == '--eval' else 'TRAIN', v)
            del args[i:i + 2]
    path, coll, out = args
    cat = Catalog(path)
    train, ev = cx.sample(cat, coll)
    os.makedirs(out + '/rec', exist_ok=True)
    with open(out + '/all.bin', 'wb') as f:
        for r, _ in ev:
            f.write(r)
    for i, (r, _) in enumerate(ev):
        with open('%s/rec/%06d' % (out, i), 'wb') as f:
            f.write(r)
    with open(out + '/dict64', 'wb') as f:
        f.write(zstd.train_dictionary(64 << 10, train, threads=1).as_bytes())
    print(out, len(ev), 'records', sum(len(r) for r, _ in ev), 'bytes')


if __name__ == '__main__':
    main()
