-- bench/postgres/schema.sql: run by setup.sh after the raw lines are in raw."<collection>".
-- One table per collection in each of two schemas: pj (the document as `json`: its text, kept
-- verbatim) and pjb (the document as `jsonb`: parsed, binary). Both get the same extracted
-- columns (what the queries filter, join or sort on, copied out of the document at load time,
-- as varcat's builder copies them into its indexes) and the same indexes. README.md explains
-- each choice.

\set ON_ERROR_STOP 1
SET maintenance_work_mem = '2GB';
SET client_min_messages = warning;

-- Every collection: key (_key), _from, _to (edges), doc. Answers list records in `_key` byte
-- order (varcat's record order; the cluster's collation is C.UTF-8, i.e. code point = byte
-- order for UTF-8), so every table has a B-tree on key; edges have B-trees on _from and _to.
DO $$
DECLARE
  c text;
  s text;
BEGIN
  FOR c IN SELECT tablename FROM pg_tables WHERE schemaname = 'raw' AND tablename <> 'variants'
           ORDER BY 1 LOOP
    FOREACH s IN ARRAY ARRAY['pj', 'pjb'] LOOP
      EXECUTE format($f$
        CREATE TABLE %1$I.%2$I AS
        SELECT j->>'_key' AS key, j->>'_from' AS _from, j->>'_to' AS _to, line::%3$s AS doc
        FROM (SELECT line, line::jsonb AS j FROM raw.%2$I OFFSET 0) r  -- OFFSET 0: parse once per line
      $f$, s, c, CASE s WHEN 'pj' THEN 'json' ELSE 'jsonb' END);
      EXECUTE format('CREATE INDEX ON %I.%I (key)', s, c);
      EXECUTE format('SELECT 1 FROM %I.%I WHERE _from IS NOT NULL LIMIT 1', s, c);
      IF FOUND THEN
        EXECUTE format('CREATE INDEX ON %I.%I (_from)', s, c);
        EXECUTE format('CREATE INDEX ON %I.%I (_to)', s, c);
      END IF;
    END LOOP;
  END LOOP;
END $$;

-- variants: chr, pos, the rsid array, the bravo_af frequency (the /variants/freq filter), and
-- `annotations` in its output shape. varcat's builder derives that object once per variant at
-- build time (indexer/src/derive.rs, variant_annotations: every allele-frequency source under
-- its interface name, gnomad_af_X from the document's af_X, numbers only, then
-- GENCODE_category and funseq_description, both from funseq_description); the load does the
-- same here, so neither system reshapes FAVOR's ~80 annotation members per request.
DO $$
DECLARE
  src text[] := ARRAY['bravo_af','gnomad_af_total','gnomad_af_afr','gnomad_af_afr_female',
    'gnomad_af_afr_male','gnomad_af_ami','gnomad_af_ami_female','gnomad_af_ami_male',
    'gnomad_af_amr','gnomad_af_amr_female','gnomad_af_amr_male','gnomad_af_asj',
    'gnomad_af_asj_female','gnomad_af_asj_male','gnomad_af_eas','gnomad_af_eas_female',
    'gnomad_af_eas_male','gnomad_af_female','gnomad_af_fin','gnomad_af_fin_female',
    'gnomad_af_fin_male','gnomad_af_male','gnomad_af_nfe','gnomad_af_nfe_female',
    'gnomad_af_nfe_male','gnomad_af_oth','gnomad_af_oth_female','gnomad_af_oth_male',
    'gnomad_af_sas','gnomad_af_sas_male','gnomad_af_sas_female','gnomad_af_raw'];
  expr text := '';
  n text;
  s text;
BEGIN
  FOREACH n IN ARRAY src LOOP
    expr := expr || format('%L, CASE WHEN jsonb_typeof(a->%L) = ''number'' THEN a->%L END, ',
                           n, replace(n, 'gnomad_', ''), replace(n, 'gnomad_', ''));
  END LOOP;
  expr := expr || '''GENCODE_category'', CASE WHEN jsonb_typeof(a->''funseq_description'') = ''string'' THEN a->''funseq_description'' END, '
               || '''funseq_description'', CASE WHEN jsonb_typeof(a->''funseq_description'') = ''string'' THEN a->''funseq_description'' END';
  FOREACH s IN ARRAY ARRAY['pj', 'pjb'] LOOP
    EXECUTE format($f$
      DROP TABLE IF EXISTS %1$I.variants;
      CREATE TABLE %1$I.variants AS
      SELECT j->>'_key' AS key, NULL::text AS _from, NULL::text AS _to, line::%2$s AS doc,
        j->>'chr' AS chr, (j->>'pos')::int AS pos,
        ARRAY(SELECT jsonb_array_elements_text(CASE WHEN jsonb_typeof(j->'rsid') = 'array' THEN j->'rsid' ELSE '[]' END)) AS rsid,
        CASE WHEN jsonb_typeof(j->'annotations'->'bravo_af') = 'number' THEN (j->'annotations'->>'bravo_af')::float8 END AS bravo_af,
        (SELECT json_build_object(%3$s) FROM (SELECT j->'annotations' AS a) x)::%2$s AS annotations
      FROM (SELECT line, line::jsonb AS j FROM raw.variants OFFSET 0) r;  -- parse once per line
      CREATE INDEX ON %1$I.variants (key);
      CREATE INDEX ON %1$I.variants (chr, pos) INCLUDE (key, bravo_af);
      CREATE INDEX ON %1$I.variants USING gin (rsid);
    $f$, s, CASE s WHEN 'pj' THEN 'json' ELSE 'jsonb' END, expr);
  END LOOP;
END $$;

-- variants_genes: the /genes/variants filters. Its pages list edges in key order: one index
-- gives the gene's edges of a method in that order, with the p-value threshold checked in the
-- index (a page of 25 stops after 25 matches).
-- The five edge collections /variants/region-summary counts: covering (_from) INCLUDE (method)
-- indexes, so the counts are index-only scans (VACUUM below sets the visibility map).
DO $$
DECLARE
  s text;
  c text;
BEGIN
  FOREACH s IN ARRAY ARRAY['pj', 'pjb'] LOOP
    FOREACH c IN ARRAY ARRAY['variants_genes', 'variants_proteins', 'variants_biosamples',
                             'variants_genomic_elements', 'variants_phenotypes'] LOOP
      EXECUTE format($f$
        ALTER TABLE %1$I.%2$I ADD COLUMN method text;
        UPDATE %1$I.%2$I SET method = doc::jsonb->>'method';
        CREATE INDEX ON %1$I.%2$I (_from) INCLUDE (method);
      $f$, s, c);
    END LOOP;
    EXECUTE format($f$
      ALTER TABLE %1$I.variants_genes ADD COLUMN neg_log10_pvalue float8;
      UPDATE %1$I.variants_genes SET neg_log10_pvalue = (doc::jsonb->>'neg_log10_pvalue')::float8
        WHERE jsonb_typeof(doc::jsonb->'neg_log10_pvalue') = 'number';
      CREATE INDEX ON %1$I.variants_genes (_to, method, key) INCLUDE (neg_log10_pvalue);
    $f$, s);
    -- genes: the name search (exact, then case-folded); the gene -> transcript -> protein
    -- links of /genes/proteins (varcat derives genes_proteins at build time; here it is a
    -- join of the two edge collections, each through a covering index).
    EXECUTE format($f$
      ALTER TABLE %1$I.genes ADD COLUMN name text;
      UPDATE %1$I.genes SET name = doc::jsonb->>'name';
      CREATE INDEX ON %1$I.genes (name);
      CREATE INDEX ON %1$I.genes (lower(name));
      CREATE INDEX ON %1$I.genes_transcripts (_from) INCLUDE (_to);
      CREATE INDEX ON %1$I.transcripts_proteins (_from) INCLUDE (_to);
      CREATE INDEX ON %1$I.ontology_terms_ontology_terms (_from) INCLUDE (_to, key);
      CREATE INDEX ON %1$I.ontology_terms_ontology_terms (_to) INCLUDE (_from, key);
    $f$, s);
  END LOOP;
END $$;

DROP SCHEMA raw CASCADE;
VACUUM (FREEZE, ANALYZE);
