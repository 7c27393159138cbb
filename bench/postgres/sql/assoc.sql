-- /api/genes/variants?gene_id=$1&method=eQTL&neg_log10_pvalue=gte:2: the gene's eQTL edges
-- with -log10 p >= 2, the first page of 25 in key order, each in the GeneVariant shape
-- (references as handles).
SELECT coalesce(json_agg(r ORDER BY k), '[]') FROM (
  SELECT e.key AS k, json_build_object('gene', d._to, 'sequence_variant', d._from, 'intron_chr', d.intron_chr, 'intron_start', d.intron_start, 'intron_end', d.intron_end, 'effect_size', d.effect_size, 'neg_log10_pvalue', d.neg_log10_pvalue, 'neg_log10_pvalue_adj', d.neg_log10_pvalue_adj, 'log2FC', d."log2FC", 'posterior_inclusion_probability', d.posterior_inclusion_probability, 'coefficient_stddev', d.coefficient_stddev, 'power', d.power, 'significant', d.significant, 'standard_error', d.standard_error, 'z_score', d.z_score, 'credible_set_min_r2', d.credible_set_min_r2, 'method', d.method, 'crispr_modality', d.crispr_modality, 'source', coalesce(d.source, '""'), 'source_url', coalesce(d.source_url, '""'), 'label', coalesce(d.label, '""'), 'p_value', d.p_value, 'chr', d.chr, 'biological_context', coalesce(d.biological_context, '""'), 'biosample_term', coalesce(d.biosample_term, '""'), 'study', d.study, 'name', d.inverse_name, 'class', d.class, 'files_filesets', d.files_filesets) AS r
  FROM (SELECT key, doc FROM %S.variants_genes
        WHERE _to = (SELECT 'genes/' || key FROM %S.genes WHERE key = $1)
          AND method = 'eQTL' AND neg_log10_pvalue >= 2
        ORDER BY key LIMIT 25) e,
       %R_to_record(e.doc) AS d(_from %T, _to %T, intron_chr %T, intron_start %T, intron_end %T, effect_size %T, neg_log10_pvalue %T, neg_log10_pvalue_adj %T, "log2FC" %T, posterior_inclusion_probability %T, coefficient_stddev %T, power %T, significant %T, standard_error %T, z_score %T, credible_set_min_r2 %T, method %T, crispr_modality %T, source %T, source_url %T, label %T, p_value %T, chr %T, biological_context %T, biosample_term %T, study %T, inverse_name %T, class %T, files_filesets %T)
) x
