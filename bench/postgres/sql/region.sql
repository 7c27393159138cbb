-- /api/variants/freq?source=bravo_af&region=$1:$2-$3&limit=100: variants with
-- $2 <= pos < $3 on chromosome $1 whose bravo_af is in [0, 1], the first 100 in key order,
-- each in the VariantFrequency shape.
SELECT coalesce(json_agg(json_build_object('organism', d.organism, '_id', v.key, 'chr', coalesce(d.chr, '""'), 'pos', d.pos, 'rsid', coalesce(d.rsid, '[]'), 'ref', coalesce(d.ref, '""'), 'alt', coalesce(d.alt, '""'), 'spdi', d.spdi, 'hgvs', d.hgvs, 'ca_id', d.ca_id, 'qual', d.qual, 'files_filesets', d.files_filesets, 'annotations', v.annotations, 'source', coalesce(d.source, '""'), 'source_url', coalesce(d.source_url, '""'), 'strain', d.strain) ORDER BY v.key), '[]')
FROM (SELECT key, doc, annotations FROM %S.variants
      WHERE chr = $1 AND pos >= $2::int AND pos < $3::int AND bravo_af BETWEEN 0 AND 1
      ORDER BY key LIMIT 100) v,
     %R_to_record(v.doc) AS d(organism %T, chr %T, pos %T, rsid %T, ref %T, alt %T, spdi %T, hgvs %T, ca_id %T, qual %T, files_filesets %T, source %T, source_url %T, strain %T)
