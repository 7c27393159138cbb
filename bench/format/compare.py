"""The format comparison tables from two outputs of bench/format/rung.sh (a baseline, e.g. the last
v2 commit, and a candidate) on the same input, and the projection to IGVF's row counts.

usage: python3 compare.py <baseline-prefix> <candidate-prefix> [--ld <ld-rung-prefix>]
                          [--names v2,v3]                        (markdown on stdout)

Tables: build; bytes per document by collection; bytes by section class; warm p50/p99 per
endpoint group against each run's floor; cold disk reads per request; the projection. The
projection: each IGVF row count × the collection's bytes per document; QTL, caQTL, pQTL, GWAS
and the other per-variant edges at the rung's rate per variant × 1.2 × 10⁹ variants; LD (`variants_variants`) at 12 × 10⁹ rows with
the bytes per row of the LD rung (`--ld`: the candidate binary on an input made with
`varcat synth --ld-draws 12`, ~10 rows per variant), else of the rung itself (3.8 per variant).
"""
import csv
import os
import sys

from vcat import CLASSES

IGVF_VARIANTS = 1.2e9
# IGVF's row counts (the real catalog: variants, coding variants and their scores, LD).
IGVF_FIXED = {'variants': IGVF_VARIANTS, 'coding_variants': 1.56e9,
              'variants_coding_variants': 1.56e9, 'coding_variants_phenotypes': 1.1e9,
              'coding_variant_scores': 1.1e9, 'variants_variants': 12e9}
# Edges hanging off variants: the generator's rate per variant × IGVF's variants.
PER_VARIANT = ['variants_genes', 'variants_genomic_elements', 'variants_proteins',
               'variants_phenotypes', 'variants_biosamples', 'variants_drugs', 'variants_diseases',
               'variants_diseases_genes', 'variant_ld_predictions']


def sizes(prefix):
    """collection → dict(kind, documents, jsonl, bytes, per class) from <prefix>.sizes.tsv."""
    out = {}
    with open(prefix + '.sizes.tsv') as f:
        for r in csv.DictReader(f, delimiter='\t'):
            out[r['collection']] = {k: int(v) if v.isdigit() else (0 if v == '' else v)
                                    for k, v in r.items()}
    return out


def build(prefix):
    with open(prefix + '.build.tsv') as f:
        return dict(line.rstrip('\n').split('\t', 1) for line in f if '\t' in line)


def md_table(text, first_header):
    """Rows (dicts by header) of the markdown table whose header starts with `first_header`."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(first_header):
            head = [h.strip() for h in line.strip('|').split('|')]
            rows = []
            for row in lines[i + 2:]:
                if not row.startswith('|'):
                    break
                rows.append(dict(zip(head, [c.strip() for c in row.strip('|').split('|')])))
            return rows
    return []


def bench(prefix):
    path = prefix + '.bench.md'
    if not os.path.exists(path):
        return [], []
    text = open(path).read()
    return (md_table(text, '| group | conns | req/s | p50 |'),
            md_table(text, '| group | conns | resident before |'))


def us(s):
    """Microseconds of '123 µs', '1.23 ms'."""
    try:
        v, unit = s.split()
        return float(v) * (1000.0 if unit == 'ms' else 1.0 if unit == 'µs' else 1e6)
    except ValueError:
        return None


def ratio(b, a, fmt='%.2f'):
    return fmt % (b / a) if a and b is not None else '–'


def main(argv):
    names = ['baseline', 'candidate']
    ld = None
    args = list(argv)
    if '--names' in args:
        i = args.index('--names')
        names = args[i + 1].split(',')
        del args[i:i + 2]
    if '--ld' in args:
        i = args.index('--ld')
        ld = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        raise SystemExit(__doc__)
    a_name, b_name = names
    A, B = sizes(args[0]), sizes(args[1])
    ba, bb = build(args[0]), build(args[1])

    print('### Build\n')
    print('| | %s | %s | %s/%s |\n|---|---:|---:|---:|' % (a_name, b_name, b_name, a_name))
    # Input documents per CPU second: steadier than per wall second on a shared machine.
    for b in (ba, bb):
        b['documents_per_cpu_s'] = '%.0f' % (float(b['input_documents']) / max(float(b['cpu_s']), 1e-9))
    for key, label in [('wall_s', 'wall (s)'), ('cpu_s', 'CPU (s)'),
                       ('max_rss_kib', 'max RSS (KiB)'),
                       ('documents_per_s', 'input documents/s'),
                       ('documents_per_cpu_s', 'input documents/CPU s'),
                       ('catalog_bytes', 'catalog bytes'),
                       ('catalog_per_jsonl', 'catalog / JSONL')]:
        x, y = float(ba[key]), float(bb[key])
        print('| %s | %s | %s | %s |' % (label, ba[key], bb[key], ratio(y, x)))
    print('\n(%s input documents, %s bytes of JSONL; format %s → %s)' % (
        bb['input_documents'], bb['input_bytes'], ba['format_version'], bb['format_version']))

    print('\n### Bytes per document by collection\n')
    print('| collection | docs | JSONL | %s | %s | %s/%s | %s/JSONL |' % (
        a_name, b_name, b_name, a_name, b_name))
    print('|---|---:|---:|---:|---:|---:|---:|')
    colls = [c for c in B if not c.startswith('(')]
    colls += [c for c in A if c not in B and not c.startswith('(')]
    colls.sort(key=lambda c: -(B.get(c, A.get(c))['bytes'] or 0))
    for c in colls:
        ra, rb = A.get(c), B.get(c)
        r = rb or ra
        n = r['documents'] or 0
        if not n:
            continue
        j = r['jsonl_bytes']
        pa = ra['bytes'] / n if ra else None
        pb = rb['bytes'] / n if rb else None
        print('| %s | %d | %s | %s | %s | %s | %s |' % (
            c, n, '%.0f' % (j / n) if j else '–', '%.1f' % pa if pa is not None else '–',
            '%.1f' % pb if pb is not None else '–', ratio(pb, pa), ratio(pb, j / n if j else 0, '%.3f')))
    ta, tb = A['(total)'], B['(total)']
    fa, fb = A['(file)']['bytes'], B['(file)']['bytes']
    print('| **file** | %d | %.0f | %.1f | %.1f | %s | %s |' % (
        tb['documents'], tb['jsonl_bytes'] / tb['documents'], fa / ta['documents'], fb / tb['documents'],
        ratio(fb, fa), ratio(fb, tb['jsonl_bytes'], '%.3f')))

    print('\n### Bytes by section class\n')
    print('| class | %s bytes | %s share | %s bytes | %s share | %s/%s |' % (
        a_name, a_name, b_name, b_name, b_name, a_name))
    print('|---|---:|---:|---:|---:|---:|')
    for k in CLASSES:
        x, y = ta[k], tb[k]
        print('| %s | %d | %.1f %% | %d | %.1f %% | %s |' % (
            k, x, 100 * x / fa, y, 100 * y / fb, ratio(y, x)))
    print('\nPer collection and class: the rungs\' `.sizes.md`.')

    wa, ca = bench(args[0])
    wb, cb = bench(args[1])
    if wa and wb:
        print('\n### Warm latency per endpoint group (each against its own run\'s floor)\n')
        print('| group | conns | %s p50 | %s p50 | p50 %s/%s | %s p99 | %s p99 | p99 %s/%s | '
              '%s floor p50 | %s floor p50 | %s req/s | %s req/s |' % (
                  a_name, b_name, b_name, a_name, a_name, b_name, b_name, a_name,
                  a_name, b_name, a_name, b_name))
        print('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
        ia = {(r['group'], r['conns']): r for r in wa}
        for r in wb:
            o = ia.get((r['group'], r['conns']))
            if not o:
                continue
            print('| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                r['group'], r['conns'], o['p50'], r['p50'], ratio(us(r['p50']), us(o['p50'])),
                o['p99'], r['p99'], ratio(us(r['p99']), us(o['p99'])), o['floor p50'],
                r['floor p50'], o['req/s'], r['req/s']))
    if ca and cb:
        print('\n### Cold: block-device reads per request (first requests after eviction)\n')
        print('| group | %s reads/req | %s reads/req | %s/%s | %s KiB/req | %s KiB/req | '
              '%s p50 | %s p50 |' % (a_name, b_name, b_name, a_name, a_name, b_name, a_name,
                                     b_name))
        print('|---|---:|---:|---:|---:|---:|---:|---:|')
        ia = {r['group']: r for r in ca}
        for r in cb:
            o = ia.get(r['group'])
            if not o:
                continue
            x, y = o['disk reads/req'], r['disk reads/req']
            try:
                rr = ratio(float(y), float(x))
            except ValueError:
                rr = '–'
            print('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
                r['group'], x, y, rr, o['KiB read/req'], r['KiB read/req'], o['p50'], r['p50']))

    print('\n### Projection to IGVF\'s row counts\n')
    L = sizes(ld)['variants_variants'] if ld else None
    igvf = dict(IGVF_FIXED)
    nv = B['variants']['documents']
    for c in PER_VARIANT:
        if c in B and B[c]['documents']:
            igvf[c] = B[c]['documents'] / nv * IGVF_VARIANTS
    print('| collection | rows | how | JSONL B/doc | %s B/doc | %s TB | %s B/doc | %s TB |' % (
        a_name, a_name, b_name, b_name))
    print('|---|---:|---|---:|---:|---:|---:|---:|')
    P = [0.0, 0.0, 0.0]
    for c, rows in sorted(igvf.items(), key=lambda kv: -kv[1]):
        if c == 'variants_variants' and L:
            how = 'LD rung (%.1f rows/variant)' % (L['documents'] / nv)
            src_b, src_a = L, A.get(c)
        else:
            how = 'fixed' if c in IGVF_FIXED else 'rate %.4f × 1.2 B' % (B[c]['documents'] / nv)
            src_b, src_a = B.get(c), A.get(c)
        jb = src_b['jsonl_bytes'] / src_b['documents']
        pb = src_b['bytes'] / src_b['documents']
        pa = src_a['bytes'] / src_a['documents'] if src_a else None
        P[0] += jb * rows
        P[1] += (pa if pa is not None else 0) * rows
        P[2] += pb * rows
        print('| %s | %.3g | %s | %s | %s | %s | %.1f | %.3f |' % (
            c, rows, how, '%.0f' % jb if jb else '–', '%.1f' % pa if pa is not None else '–',
            '%.3f' % (pa * rows / 1e12) if pa is not None else '–', pb, pb * rows / 1e12))
    print('| **total** | | | %.2f TB | | %.2f | | %.2f |' % (P[0] / 1e12, P[1] / 1e12, P[2] / 1e12))
    if L:
        print('\n%s LD bytes per row from the LD rung (%s: %d rows); %s\'s from its own rung '
              '(%d rows, %.1f per variant), as no %s LD rung was run.' % (
                  b_name, ld, L['documents'], a_name, A['variants_variants']['documents'],
                  A['variants_variants']['documents'] / nv, a_name))


if __name__ == '__main__':
    main(sys.argv[1:])
