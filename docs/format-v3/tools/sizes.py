"""Bytes per document of a catalog (v2 or v3) by collection and section class, against the JSONL input.

usage: python3 sizes.py <catalog>            (markdown table on stdout)
"""
import sys
from collections import defaultdict
from vcat import Catalog, CLASSES, section_class, input_bytes


def main(path):
    cat = Catalog(path)
    per = defaultdict(lambda: defaultdict(int))
    for name in cat.order:
        coll, cls = section_class(name)
        per[coll][cls] += cat.sections[name][1]
    inp = input_bytes(cat)
    total_in = sum(b for b, _ in inp.values())
    rows = []
    for c in cat.meta['collections']:
        name, docs = c['name'], c['documents']
        jb = inp.get(name, (0, 0))[0]
        tot = sum(per[name].values())
        rows.append((tot, name, docs, jb, per[name]))
    rows.sort(reverse=True)
    print('| collection | docs | JSONL B/doc | B/doc | catalog/JSONL | ' + ' | '.join(CLASSES) + ' |')
    print('|---|---:|---:|---:|---:|' + '---:|' * len(CLASSES))
    tot_cls = defaultdict(int)
    for tot, name, docs, jb, p in rows:
        d = max(docs, 1)
        for k in CLASSES:
            tot_cls[k] += p[k]
        ratio = '%.2f' % (tot / jb) if jb else '–'
        print('| %s | %d | %s | %.0f | %s | %s |' % (
            name, docs, '%.0f' % (jb / d) if jb else '–', tot / d, ratio,
            ' | '.join('%.1f' % (p[k] / d) if p[k] else '·' for k in CLASSES)))
    size = len(cat.m)
    print()
    print('file %d bytes; JSONL input %d bytes; ratio %.3f' % (size, total_in, size / total_in))
    print('| class | bytes | share of file |')
    print('|---|---:|---:|')
    for k in CLASSES:
        print('| %s | %d | %.1f %% |' % (k, tot_cls[k], 100 * tot_cls[k] / size))
    print('| meta + table + padding | %d | %.1f %% |' % (size - sum(tot_cls.values()),
                                                        100 * (size - sum(tot_cls.values())) / size))


if __name__ == '__main__':
    main(sys.argv[1])
