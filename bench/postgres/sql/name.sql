-- /api/genes/proteins?gene_name=$1: genes named exactly $1, else case-insensitively (varcat's
-- tiers: exact, then tokens; the synthetic symbols are single tokens, so the token tier is
-- lower(name) = lower($1)); then each (gene, protein) pair linked through a transcript, in
-- (gene, protein) order, as handles.
WITH exact AS (SELECT key FROM %S.genes WHERE name = $1),
g AS (SELECT key FROM exact
      UNION ALL
      SELECT key FROM %S.genes WHERE lower(name) = lower($1) AND NOT EXISTS (SELECT 1 FROM exact))
SELECT coalesce(json_agg(json_build_object('gene', gene, 'protein', protein) ORDER BY gene, protein), '[]')
FROM (SELECT DISTINCT 'genes/' || g.key AS gene, tp._to AS protein
      FROM g JOIN %S.genes_transcripts gt ON gt._from = 'genes/' || g.key
             JOIN %S.transcripts_proteins tp ON tp._from = gt._to) x
