-- /api/ontology-terms/$1/transitive-closure/$2: every shortest path between two terms over the
-- relations taken both ways (a recursive walk without revisiting a vertex, at most 4 steps:
-- the targets' terms are 2-3 steps apart), the vertices on them (OntologyTermBasic shape) and
-- the paths as {from, to, name} edges, paths in the order of their edge keys.
WITH RECURSIVE walk(v, edges, verts) AS (
  SELECT $1::text, ARRAY[]::text[], ARRAY[$1::text]
  WHERE EXISTS (SELECT 1 FROM %S.ontology_terms WHERE key = $1)
    AND EXISTS (SELECT 1 FROM %S.ontology_terms WHERE key = $2)
  UNION ALL
  SELECT n.w, w.edges || n.k, w.verts || n.w
  FROM walk w CROSS JOIN LATERAL (
    SELECT e.key AS k, substr(e._to, 16) AS w FROM %S.ontology_terms_ontology_terms e
    WHERE e._from = 'ontology_terms/' || w.v
    UNION ALL
    SELECT e.key, substr(e._from, 16) FROM %S.ontology_terms_ontology_terms e
    WHERE e._to = 'ontology_terms/' || w.v) n
  WHERE cardinality(w.edges) < 4 AND w.v <> $2 AND n.w <> ALL (w.verts)
    AND EXISTS (SELECT 1 FROM %S.ontology_terms t WHERE t.key = n.w)),
hits AS (SELECT edges, verts FROM walk WHERE v = $2),
best AS (SELECT * FROM hits WHERE cardinality(edges) = (SELECT min(cardinality(edges)) FROM hits))
SELECT json_build_object(
  'vertices', coalesce((
    SELECT json_object_agg(t.key, json_build_object('uri', coalesce(td.uri, '""'),
      'term_id', coalesce(td.term_id, '""'), 'name', coalesce(td.name, '""'),
      'synonyms', coalesce(td.synonyms, '[]'), 'description', coalesce(td.description, '""'),
      'source', coalesce(td.source, '""'), 'subontology', td.subontology, 'class', td.class,
      'method', td.method, 'files_filesets', td.files_filesets))
    FROM %S.ontology_terms t, %R_to_record(t.doc) AS td(uri %T, term_id %T, name %T, synonyms %T,
      description %T, source %T, subontology %T, class %T, method %T, files_filesets %T)
    WHERE t.key IN (SELECT unnest(verts) FROM best)), '{}'),
  'paths', coalesce((
    SELECT json_agg((
      SELECT json_agg(json_build_object('from', substr(e._from, 16), 'to', substr(e._to, 16),
                                        'name', coalesce(e.doc->>'name', '')) ORDER BY u.i)
      FROM unnest(b.edges) WITH ORDINALITY u(k, i) JOIN %S.ontology_terms_ontology_terms e ON e.key = u.k)
      ORDER BY b.edges)
    FROM best b), '[]'))
