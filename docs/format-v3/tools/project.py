"""v2 vs estimated v3 bytes per document by collection and section class, and the projection
to IGVF's row counts (issue 24).

Inputs: the v2 catalog (section sizes, edge ends) and the TSV of domain.py (v3 record bytes per
document, configuration chosen with --config). v3 estimate per class:
  records      domain.py's B/doc for the configuration (encoded + compressed + block index);
               collections domain.py did not measure: v2 records × --fallback-ratio
  key map      v2's B/doc if some query looks the collection up by key (KEYED below), else 0
  value maps   `by._from`/`by._to` of edges → ordinal adjacency: per edge and direction one
               edge ordinal (4 bytes; 5 where the edge collection passes 2^32), per distinct
               end one (node ordinal u32, first u40) pair = 9 bytes; other value maps as v2
  facets       as v2
  columns      variants' 32 allele-frequency columns dropped (the freq filter reads the
               record it prints anyway); other columns as v2
  intervals    as v2
usage: python3 project.py <catalog> <domain.tsv> [--config enc-blk-16-zstd-d64-19]
       [--fallback-ratio 0.15] [--records-factor 1.0]
"""
import sys
from collections import defaultdict
from vcat import Catalog, members, section_class, input_bytes

# Collections some query looks up by key: targets of stored handles (handles.py) and the direct
# `Collection::ord` callers in server/src/api (see the brief, "Which collections need a key map").
KEYED = {'genes', 'mm_genes', 'transcripts', 'mm_transcripts', 'proteins', 'variants', 'mm_variants',
         'coding_variants', 'studies', 'drugs', 'ontology_terms', 'genomic_elements',
         'mm_genomic_elements', 'pathways', 'motifs', 'complexes', 'files_filesets',
         'variants_diseases', 'coding_variant_scores', 'variant_ld_predictions'}
WIDE = {'variants_variants'}
# IGVF row counts (issue 24) and, for the QTL/caQTL/pQTL/GWAS edges, the generator's rate per
# variant × 1.2 B (rates from this 100k catalog's document counts).
IGVF_FIXED = {'variants': 1.2e9, 'coding_variants': 1.56e9, 'variants_coding_variants': 1.56e9,
              'coding_variants_phenotypes': 1.1e9, 'coding_variant_scores': 1.1e9,
              'variants_variants': 12e9}
PER_VARIANT = ['variants_genes', 'variants_genomic_elements', 'variants_proteins', 'variants_phenotypes',
               'variants_biosamples', 'variants_drugs', 'variants_diseases', 'variants_diseases_genes',
               'variant_ld_predictions']
CLASSES = ['records', 'key map', 'value maps', 'facets', 'columns', 'intervals/points']


def cls(c):
    return 'value maps' if c.startswith('value map') else c


def main():
    args = sys.argv[1:]
    config = 'enc-blk-16-zstd-d64-19'
    fallback = 0.15
    if '--config' in args:
        i = args.index('--config'); config = args[i + 1]; del args[i:i + 2]
    factor = 1.0
    if '--records-factor' in args:   # safety factor on v3 record bytes (real data is less regular)
        i = args.index('--records-factor'); factor = float(args[i + 1]); del args[i:i + 2]
    if '--fallback-ratio' in args:
        i = args.index('--fallback-ratio'); fallback = float(args[i + 1]); del args[i:i + 2]
    cat = Catalog(args[0])
    dom = {}
    for line in open(args[1]):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 7 and f[1] == config:
            dom[f[0]] = (float(f[6]), float(f[5]))
    docs = {c['name']: c['documents'] for c in cat.meta['collections']}
    v2 = defaultdict(lambda: defaultdict(int))
    adj_v2 = defaultdict(int)
    for name in cat.order:
        coll, c = section_class(name)
        if coll is None:
            continue
        v2[coll][cls(c)] += cat.sections[name][1]
        if '.by._from.' in name or '.by._to.' in name:
            adj_v2[coll] += cat.sections[name][1]
    # distinct ends of each edge collection
    ends = {}
    for c in cat.meta['collections']:
        f = c['fields']
        if c['kind'] != 'edge' or '_from' not in f:
            continue
        ids = [f.index(x) for x in ('_from', '_to') if x in f]
        seen = [set() for _ in ids]
        for _, r in cat.records(c['name']):
            m = dict(members(r))
            for s, i in zip(seen, ids):
                if i in m:
                    s.add(m[i])
        ends[c['name']] = [len(s) for s in seen]
    inp = input_bytes(cat)
    v3 = defaultdict(lambda: defaultdict(float))
    for coll, n in docs.items():
        if not n:
            continue
        d = v2[coll]
        rec = (dom[coll][0] * n if coll in dom else d['records'] * fallback) * factor
        v3[coll]['records'] = rec
        v3[coll]['key map'] = d['key map'] if coll in KEYED else 0
        # vcat.section_class puts v2's `by._from`/`by._to` in 'adjacency' (adj_v2), not here.
        vm = d['value maps']
        if coll in ends:
            idx = [x for x in cat.colls[coll]['indexes'] if x in ('by._from', 'by._to')]
            w = 5 if coll in WIDE else 4
            for k, e in zip(('by._from', 'by._to'), ends[coll]):
                if k in idx:
                    vm += n * w + e * 9
        else:
            vm += adj_v2[coll]
        v3[coll]['value maps'] = vm
        v3[coll]['facets'] = d['facets']
        v3[coll]['columns'] = 0 if coll == 'variants' else d['columns']
        v3[coll]['intervals/points'] = d['intervals/points']
    # table at 100k
    print('### bytes per document at 100k: v2 measured, v3 estimated (records: %s)\n' % config)
    print('| collection | docs | JSONL | v2 | v3 | v3/JSONL | ' + ' | '.join('v3 ' + k for k in CLASSES) + ' |')
    print('|---|---:|---:|---:|---:|---:|' + '---:|' * len(CLASSES))
    T = defaultdict(float)
    rows = sorted(docs, key=lambda c: -sum(v2[c].values()))
    for coll in rows:
        n = docs[coll]
        if not n:
            continue
        j = inp.get(coll, (0, 0))[0]
        a, b = sum(v2[coll].values()), sum(v3[coll].values())
        T['jsonl'] += j; T['v2'] += a; T['v3'] += b
        for k in CLASSES:
            T[k] += v3[coll][k]
        print('| %s%s | %d | %s | %.0f | %.0f | %s | %s |' % (
            coll, '' if coll in dom else ' (fallback)', n, '%.0f' % (j / n) if j else '–', a / n, b / n,
            '%.3f' % (b / j) if j else '–', ' | '.join('%.1f' % (v3[coll][k] / n) for k in CLASSES)))
    print('\ntotal: JSONL %d, v2 %d (%.3f), v3 est. %d (%.3f); v3 by class: %s' % (
        T['jsonl'], T['v2'], T['v2'] / T['jsonl'], T['v3'], T['v3'] / T['jsonl'],
        ', '.join('%s %.1f MB' % (k, T[k] / 1e6) for k in CLASSES)))
    # projection
    igvf = dict(IGVF_FIXED)
    for c in PER_VARIANT:
        igvf[c] = docs[c] / docs['variants'] * 1.2e9
    print('\n### projection to IGVF row counts\n')
    print('| collection | rows | JSONL B/doc | JSONL TB | v2 B/doc | v2 TB | v3 B/doc | v3 TB |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|')
    P = defaultdict(float)
    for coll, rows_ in sorted(igvf.items(), key=lambda kv: -kv[1]):
        n = docs[coll]
        j = inp.get(coll, (0, 0))[0] / n if coll in inp else 0
        a = sum(v2[coll].values()) / n
        b = sum(v3[coll].values()) / n
        P['j'] += j * rows_; P['a'] += a * rows_; P['b'] += b * rows_
        print('| %s | %.3g | %s | %s | %.0f | %.2f | %.0f | %.3f |' % (
            coll, rows_, '%.0f' % j if j else '–', '%.2f' % (j * rows_ / 1e12) if j else '–',
            a, a * rows_ / 1e12, b, b * rows_ / 1e12))
    print('| **total** | | | %.2f | | %.2f | | %.3f |' % (P['j'] / 1e12, P['a'] / 1e12, P['b'] / 1e12))
    print('\nv2/JSONL %.3f, v3/JSONL %.3f (derived tables have no JSONL: counted on the catalog side only)'
          % (P['a'] / P['j'], P['b'] / P['j']))


if __name__ == '__main__':
    main()
