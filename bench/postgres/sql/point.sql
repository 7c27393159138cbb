-- /api/variants/freq?source=bravo_af&rsid=$1: variants carrying the rsid whose bravo_af is in
-- [0, 1], each in the VariantFrequency shape (every member, in order; null when absent, "" or
-- [] where the shape requires), in key order. $1: rsid.
SELECT coalesce(json_agg(json_build_object('organism', d.organism, '_id', v.key, 'chr', coalesce(d.chr, '""'), 'pos', d.pos, 'rsid', coalesce(d.rsid, '[]'), 'ref', coalesce(d.ref, '""'), 'alt', coalesce(d.alt, '""'), 'spdi', d.spdi, 'hgvs', d.hgvs, 'ca_id', d.ca_id, 'qual', d.qual, 'files_filesets', d.files_filesets, 'annotations', v.annotations, 'source', coalesce(d.source, '""'), 'source_url', coalesce(d.source_url, '""'), 'strain', d.strain) ORDER BY v.key), '[]')
FROM %S.variants v, %R_to_record(v.doc) AS d(organism %T, chr %T, pos %T, rsid %T, ref %T, alt %T, spdi %T, hgvs %T, ca_id %T, qual %T, files_filesets %T, source %T, source_url %T, strain %T)
WHERE v.rsid @> ARRAY[$1::text] AND v.bravo_af BETWEEN 0 AND 1
