import ast, json, sys
src = open('/tmp/r23/mcp/x/igvf_catalog_mcp/services/edge_config.py').read()
tree = ast.parse(src)
env = {}
for node in tree.body:
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        name = target.id
        try:
            code = compile(ast.Expression(node.value), 'x', 'eval')
            env[name] = eval(code, {}, env)
        except Exception as e:
            pass
idp = open('/tmp/r23/mcp/x/igvf_catalog_mcp/services/id_parser.py').read()
t2 = ast.parse(idp); env2={}
for node in t2.body:
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        try: env2[target.id] = eval(compile(ast.Expression(node.value),'x','eval'), {}, env2)
        except Exception: pass
out = {
 "package": "igvf-catalog-mcp 1.3.0 (uses igvf-catalog-async-client 1.3.0, raw JSON via *_without_preload_content; no model validation)",
 "tools": ["igvf_catalog_get_entity","igvf_catalog_search_region","igvf_catalog_find_associations","igvf_catalog_find_ld","igvf_catalog_resolve_id","igvf_catalog_list_sources"],
 "entity_methods": env2.get("ENTITY_METHODS"), "entity_max_limits": env2.get("ENTITY_MAX_LIMITS"),
 "name_lookup_params": env2.get("NAME_LOOKUP_PARAMS"),
 "edge_endpoints": {k: {kk: vv for kk, vv in v.items() if kk not in ('labels','methods') or len(vv) < 12} for k, v in env["EDGE_ENDPOINTS"].items()},
 "relationship_type_mapping": env["RELATIONSHIP_TYPE_MAPPING"],
 "search_region_methods": {"genes": "genes", "variants": "variants", "regulatory_elements": "genomic_elements"},
 "find_ld": {"method": "variants_from_variant_id", "params": ["<variant param>", "r2=gte:<r2_threshold, default 0.8>", "ancestry (default EUR)", "limit=min(limit,500) default 100", "page", "d_prime=gte:x (optional)", "verbose=true (optional)"]},
 "edge_param_aliases": {"term_id": ["phenotype_id", "disease_id"], "protein_id": ["query"], "dbxrefs": ["query"]},
 "resolved_edge_params": {"variant/rsid": "spdi (via /variants?rsid=&limit=500 paging)", "protein/dbxrefs": "uniprot_name (via /proteins?dbxrefs=&limit=50)", "gene/name": "gene_id (via /genes?name=&limit=500, exact case-insensitive match)", "protein/name": "protein_id", "ontology/name": "term_id (via /ontology-terms?name= and ?synonyms=, limit 1000)", "drug/name": "drug_id", "complex/name": "complex_id (via /complexes?name=, pages of 25)"},
}
json.dump(out, sys.stdout, indent=1)
