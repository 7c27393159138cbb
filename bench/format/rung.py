"""The size and build half of bench/format/rung.sh: bytes per document by collection and by
section class, and the build's figures from `/usr/bin/time -v`.

usage: python3 rung.py <catalog> <input-dir> <time-v output> <prefix>

Writes
  <prefix>.sections.tsv  section, collection, class, bytes (every section of the catalog)
  <prefix>.sizes.tsv     per collection: kind, documents, JSONL bytes, catalog bytes, and bytes
                         per class (vcat.py CLASSES); a `(total)` row and a
                         `(file)` row (meta, section table, padding) at the end
  <prefix>.build.tsv     key, value: format version, wall s, CPU s, max RSS KiB, input documents
                         and bytes, documents/s, catalog bytes, catalog/JSONL
  <prefix>.sizes.md      the same as markdown tables
Reads v2 and v3 catalogs alike (only the section table and the JSON meta).
"""
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

from vcat import Catalog, CLASSES, section_class


def input_counts(input_dir):
    """Documents and uncompressed JSONL bytes per collection of an input directory: from the
    generator's synth.json when there is one, else by reading the files (`.jsonl[.gz]`)."""
    manifest = os.path.join(input_dir, 'synth.json')
    if os.path.exists(manifest):
        m = json.load(open(manifest))
        return {c: (m['documents'][c], m['bytes'].get(c, 0)) for c in m['documents']}
    out = defaultdict(lambda: (0, 0))
    for name in sorted(os.listdir(input_dir)):
        if not (name.endswith('.jsonl') or name.endswith('.jsonl.gz')):
            continue
        path = os.path.join(input_dir, name)
        cmd = ['sh', '-c', 'gzip -dc "$0" | wc -lc' if name.endswith('.gz') else 'wc -lc < "$0"',
               path]
        lines, chars = map(int, subprocess.check_output(cmd).split())
        coll = name.split('.')[0]
        d, b = out[coll]
        out[coll] = (d + lines, b + chars)
    return dict(out)


def time_v(path):
    """Wall seconds, CPU seconds (user + system) and max RSS KiB from `/usr/bin/time -v`."""
    text = open(path).read()

    def field(label):
        m = re.search(r'^\s*' + re.escape(label) + r':\s*(\S+)\s*$', text, re.M)
        if not m:
            raise SystemExit('%s: no "%s" line (not /usr/bin/time -v output?)' % (path, label))
        return m.group(1)
    wall = 0.0
    for part in field('Elapsed (wall clock) time (h:mm:ss or m:ss)').split(':'):
        wall = wall * 60 + float(part)
    cpu = float(field('User time (seconds)')) + float(field('System time (seconds)'))
    status = int(field('Exit status'))
    return wall, cpu, int(field('Maximum resident set size (kbytes)')), status


def main(catalog, input_dir, time_path, prefix):
    cat = Catalog(catalog)
    per = defaultdict(lambda: defaultdict(int))
    with open(prefix + '.sections.tsv', 'w') as f:
        f.write('section\tcollection\tclass\tbytes\n')
        for name in cat.order:
            coll, cls = section_class(name)
            ln = cat.sections[name][1]
            f.write('%s\t%s\t%s\t%d\n' % (name, coll or '', cls, ln))
            if coll is not None:
                per[coll][cls] += ln
    inp = input_counts(input_dir)
    size = len(cat.m)
    rows = []
    for c in cat.meta['collections']:
        name = c['name']
        docs_in, jb = inp.get(name, (0, 0))
        rows.append((name, c['kind'], c['documents'], jb, per[name]))
    rows.sort(key=lambda r: -sum(r[4].values()))
    tot = defaultdict(int)
    for r in rows:
        for k in CLASSES:
            tot[k] += r[4][k]
    json_total = sum(b for _, b in inp.values())
    docs_total = sum(d for d, _ in inp.values())
    with open(prefix + '.sizes.tsv', 'w') as f:
        f.write('collection\tkind\tdocuments\tjsonl_bytes\tbytes\t' + '\t'.join(CLASSES) + '\n')
        for name, kind, docs, jb, p in rows:
            f.write('%s\t%s\t%d\t%d\t%d\t%s\n' % (name, kind, docs, jb, sum(p.values()),
                                                 '\t'.join(str(p[k]) for k in CLASSES)))
        f.write('(total)\t\t%d\t%d\t%d\t%s\n' % (sum(r[2] for r in rows), json_total,
                                                sum(tot.values()),
                                                '\t'.join(str(tot[k]) for k in CLASSES)))
        f.write('(file)\t\t\t\t%d\t%s\n' % (size, '\t'.join('' for _ in CLASSES)))
    wall, cpu, rss, status = time_v(time_path)
    build = [('catalog', os.path.abspath(catalog)), ('format_version', cat.version),
             ('varcat_version', cat.meta.get('varcat_version', cat.meta.get('version', ''))),
             ('build_exit_status', status), ('wall_s', '%.1f' % wall), ('cpu_s', '%.1f' % cpu),
             ('max_rss_kib', rss), ('input_documents', docs_total), ('input_bytes', json_total),
             ('documents_per_s', '%.0f' % (docs_total / max(wall, 1e-9))),
             ('catalog_bytes', size), ('catalog_per_jsonl', '%.4f' % (size / max(json_total, 1)))]
    with open(prefix + '.build.tsv', 'w') as f:
        for k, v in build:
            f.write('%s\t%s\n' % (k, v))
    with open(prefix + '.sizes.md', 'w') as f:
        f.write('build: %.0f s wall, %.0f s CPU, max RSS %.0f MiB, %d input documents/s; '
                'catalog %d bytes (format %d) = %.3f × its %d bytes of JSONL\n\n' % (
                    wall, cpu, rss / 1024, docs_total / max(wall, 1e-9), size, cat.version,
                    size / max(json_total, 1), json_total))
        f.write('| collection | docs | JSONL B/doc | B/doc | /JSONL | ' + ' | '.join(CLASSES)
                + ' |\n|---|---:|---:|---:|---:|' + '---:|' * len(CLASSES) + '\n')
        for name, kind, docs, jb, p in rows:
            d = max(docs, 1)
            t = sum(p.values())
            f.write('| %s | %d | %s | %.1f | %s | %s |\n' % (
                name, docs, '%.0f' % (jb / d) if jb else '–', t / d,
                '%.3f' % (t / jb) if jb else '–',
                ' | '.join('%.1f' % (p[k] / d) if p[k] else '·' for k in CLASSES)))
        f.write('\n| class | bytes | share of file |\n|---|---:|---:|\n')
        for k in CLASSES + ['(meta, table, padding)']:
            b = tot[k] if k in tot else size - sum(tot.values())
            f.write('| %s | %d | %.1f %% |\n' % (k, b, 100 * b / size))


if __name__ == '__main__':
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
