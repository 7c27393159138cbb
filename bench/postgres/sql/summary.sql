-- /api/variants/region-summary?region=$1:$2-$3: the number of variants with $2 <= pos < $3 on
-- chromosome $1, and the number of their edges per method over the five edge collections
-- varcat counts (methods in byte order). Index-only scans: variants (chr, pos) INCLUDE (key),
-- and each edge table's (_from) INCLUDE (method).
WITH v AS MATERIALIZED (
  SELECT 'variants/' || key AS h FROM %S.variants
  WHERE chr = $1 AND pos >= $2::int AND pos < $3::int),
e AS (
  SELECT method FROM %S.variants_genes x JOIN v ON x._from = v.h
  UNION ALL SELECT method FROM %S.variants_proteins x JOIN v ON x._from = v.h
  UNION ALL SELECT method FROM %S.variants_biosamples x JOIN v ON x._from = v.h
  UNION ALL SELECT method FROM %S.variants_genomic_elements x JOIN v ON x._from = v.h
  UNION ALL SELECT method FROM %S.variants_phenotypes x JOIN v ON x._from = v.h)
SELECT json_build_object(
  'variant_count', (SELECT count(*) FROM v),
  'by_method', coalesce((SELECT json_agg(json_build_object('method', method, 'count', n) ORDER BY method)
                         FROM (SELECT method, count(*) AS n FROM e WHERE method IS NOT NULL GROUP BY method) m), '[]'))
