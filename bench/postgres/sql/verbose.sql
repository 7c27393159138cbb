-- /api/genes/variants?gene_id=$1&method=eQTL&verbose=true&limit=10: the gene's first 10 eQTL
-- edges in key order, with the gene (Gene shape), the variant (VariantFrequency shape) and
-- the study (Study shape) expanded; a reference whose target is missing stays a handle.
-- Each expansion is a keyed lookup (LIMIT 1: keys are unique; without it the planner may hash
-- all 200 studies, building each one's object, for 10 rows).
SELECT coalesce(json_agg(r ORDER BY k), '[]') FROM (
  SELECT e.key AS k, json_build_object('gene', coalesce(g.o, d._to::json), 'sequence_variant', coalesce(vv.o, d._from::json), 'intron_chr', d.intron_chr, 'intron_start', d.intron_start, 'intron_end', d.intron_end, 'effect_size', d.effect_size, 'neg_log10_pvalue', d.neg_log10_pvalue, 'neg_log10_pvalue_adj', d.neg_log10_pvalue_adj, 'log2FC', d."log2FC", 'posterior_inclusion_probability', d.posterior_inclusion_probability, 'coefficient_stddev', d.coefficient_stddev, 'power', d.power, 'significant', d.significant, 'standard_error', d.standard_error, 'z_score', d.z_score, 'credible_set_min_r2', d.credible_set_min_r2, 'method', d.method, 'crispr_modality', d.crispr_modality, 'source', coalesce(d.source, '""'), 'source_url', coalesce(d.source_url, '""'), 'label', coalesce(d.label, '""'), 'p_value', d.p_value, 'chr', d.chr, 'biological_context', coalesce(d.biological_context, '""'), 'biosample_term', coalesce(d.biosample_term, '""'), 'study', coalesce(st.o, d.study::json), 'name', d.inverse_name, 'class', d.class, 'files_filesets', d.files_filesets) AS r
  FROM (SELECT key, _from, _to, doc FROM %S.variants_genes
        WHERE _to = (SELECT 'genes/' || key FROM %S.genes WHERE key = $1) AND method = 'eQTL'
        ORDER BY key LIMIT 10) e
  CROSS JOIN %R_to_record(e.doc) AS d(_from %T, _to %T, intron_chr %T, intron_start %T, intron_end %T, effect_size %T, neg_log10_pvalue %T, neg_log10_pvalue_adj %T, "log2FC" %T, posterior_inclusion_probability %T, coefficient_stddev %T, power %T, significant %T, standard_error %T, z_score %T, credible_set_min_r2 %T, method %T, crispr_modality %T, source %T, source_url %T, label %T, p_value %T, chr %T, biological_context %T, biosample_term %T, study %T, inverse_name %T, class %T, files_filesets %T)
  LEFT JOIN LATERAL (
    SELECT json_build_object('_id', x.key, 'chr', coalesce(gd.chr, '""'), 'start', gd.start, 'end', gd."end",
      'gene_type', gd.gene_type, 'name', coalesce(gd.name, '""'), 'strand', gd.strand, 'hgnc', gd.hgnc,
      'entrez', gd.entrez, 'collections', gd.collections, 'study_sets', gd.study_sets,
      'source', coalesce(gd.source, '""'), 'version', coalesce(gd.version, '""'),
      'source_url', coalesce(gd.source_url, '""'), 'synonyms', gd.synonyms) AS o
    FROM %S.genes x, %R_to_record(x.doc) AS gd(chr %T, start %T, "end" %T, gene_type %T, name %T,
      strand %T, hgnc %T, entrez %T, collections %T, study_sets %T, source %T, version %T,
      source_url %T, synonyms %T)
    WHERE x.key = substr(e._to, 7) LIMIT 1) g ON true
  LEFT JOIN LATERAL (
    SELECT json_build_object('organism', d.organism, '_id', v.key, 'chr', coalesce(d.chr, '""'), 'pos', d.pos, 'rsid', coalesce(d.rsid, '[]'), 'ref', coalesce(d.ref, '""'), 'alt', coalesce(d.alt, '""'), 'spdi', d.spdi, 'hgvs', d.hgvs, 'ca_id', d.ca_id, 'qual', d.qual, 'files_filesets', d.files_filesets, 'annotations', v.annotations, 'source', coalesce(d.source, '""'), 'source_url', coalesce(d.source_url, '""'), 'strain', d.strain) AS o
    FROM %S.variants v, %R_to_record(v.doc) AS d(organism %T, chr %T, pos %T, rsid %T, ref %T, alt %T, spdi %T, hgvs %T, ca_id %T, qual %T, files_filesets %T, source %T, source_url %T, strain %T)
    WHERE v.key = substr(e._from, 10) LIMIT 1) vv ON true
  LEFT JOIN LATERAL (
    SELECT json_build_object('_id', x.key, 'name', coalesce(sd.name, '""'),
      'ancestry_initial', sd.ancestry_initial, 'ancestry_replication', sd.ancestry_replication,
      'n_cases', sd.n_cases, 'n_initial', sd.n_initial, 'n_replication', sd.n_replication,
      'pmid', sd.pmid, 'pub_author', sd.pub_author, 'pub_date', sd.pub_date,
      'pub_journal', sd.pub_journal, 'pub_title', sd.pub_title, 'has_sumstats', sd.has_sumstats,
      'num_assoc_loci', sd.num_assoc_loci, 'study_source', sd.study_source,
      'trait_reported', sd.trait_reported, 'trait_efos', sd.trait_efos,
      'trait_category', sd.trait_category, 'source', sd.source, 'study_type', sd.study_type,
      'version', sd.version, 'files_filesets', sd.files_filesets) AS o
    FROM %S.studies x, %R_to_record(x.doc) AS sd(name %T, ancestry_initial %T,
      ancestry_replication %T, n_cases %T, n_initial %T, n_replication %T, pmid %T, pub_author %T,
      pub_date %T, pub_journal %T, pub_title %T, has_sumstats %T, num_assoc_loci %T,
      study_source %T, trait_reported %T, trait_efos %T, trait_category %T, source %T,
      study_type %T, version %T, files_filesets %T)
    WHERE x.key = substr(d.study #>> '{}', 9) LIMIT 1) st ON true
) x
