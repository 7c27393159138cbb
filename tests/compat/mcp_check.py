"""The IGVF Catalog MCP server (igvf-catalog-mcp) answers from varcat.

Usage: python mcp_check.py ORIGIN

Starts the MCP server over stdio with the MCP SDK's client, pointed at ORIGIN through
IGVF_CATALOG_API_URL, and calls every tool: get_entity and resolve_id for every entity type,
find_associations for every (entity type, relationship kind) the server can reach, find_ld,
search_region for both organisms, list_sources. Ids come from the bundled catalog
(testdata/catalog: ids whose look-ups answer with data). Every call must return data: no tool error,
no per-endpoint error in query_metadata (find_associations fails as a tool only when *every*
endpoint fails, so its metadata is what tells), no per-type error in search_region, and
non-empty results everywhere. The expected coverage is read from the installed server's own
tables, so a server version that adds an entity type or a relationship fails here until a call
covers it. Prints `mcp: N/N tool calls answered` and exits 1 listing each failure.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from igvf_catalog_mcp.services.edge_config import RELATIONSHIP_TYPE_MAPPING
from igvf_catalog_mcp.services.id_parser import IDParser

ORIGIN = sys.argv[1] if len(sys.argv) > 1 else 'http://127.0.0.1:8000'

# (tool, arguments). Ids are in testdata/catalog; comments say which rows answer.
CALLS = [
    # get_entity: every entity type, each id form the bundled data has, and every hint
    ('igvf_catalog_get_entity', {'id': 'TSTA1'}),  # gene symbol → /genes?name=TSTA1
    ('igvf_catalog_get_entity', {'id': 'ENSG90000000001'}),
    ('igvf_catalog_get_entity', {'id': 'HGNC:15916'}),  # PAK5
    ('igvf_catalog_get_entity', {'id': 'PAK5', 'hint': 'gene'}),
    ('igvf_catalog_get_entity', {'id': 'ENST00000353224'}),  # PAK5-201
    ('igvf_catalog_get_entity', {'id': 'ENST90000000001', 'hint': 'transcript'}),
    ('igvf_catalog_get_entity', {'id': 'ENSP90000000001'}),
    ('igvf_catalog_get_entity', {'id': 'Q9P286'}),  # bare UniProt accession → /proteins?dbxrefs
    ('igvf_catalog_get_entity', {'id': 'TSTA1', 'hint': 'protein'}),  # protein by name
    ('igvf_catalog_get_entity', {'id': 'rs900001'}),
    ('igvf_catalog_get_entity', {'id': 'rs900004', 'hint': 'variant'}),  # multi-allelic
    ('igvf_catalog_get_entity', {'id': 'NC_000001.11:15000:A:G'}),
    ('igvf_catalog_get_entity', {'id': 'NC_000001.11:g.15001A>G'}),
    ('igvf_catalog_get_entity', {'id': 'CA800001'}),
    ('igvf_catalog_get_entity', {'id': 'EFO_0000001'}),
    ('igvf_catalog_get_entity', {'id': 'MONDO_9000001'}),
    ('igvf_catalog_get_entity', {'id': 'test disease one', 'hint': 'disease'}),
    ('igvf_catalog_get_entity', {'id': 'PA451906'}),
    ('igvf_catalog_get_entity', {'id': 'warfarin', 'hint': 'drug'}),
    ('igvf_catalog_get_entity', {'id': 'CPX-9001'}),
    ('igvf_catalog_get_entity', {'id': 'TSTA1-TSTB complex', 'hint': 'complex'}),
    ('igvf_catalog_get_entity', {'id': 'GCST900001'}),
    ('igvf_catalog_get_entity', {'id': 'R-HSA-9000001'}),
    # search_region: genes, variants and regulatory elements of both organisms
    ('igvf_catalog_search_region', {'region': 'chr1:10000-30000'}),
    ('igvf_catalog_search_region', {'region': 'chr1:3000000-3300000', 'organism': 'Mus musculus'}),
    # find_associations: every relationship kind of every entity type the server reaches
    ('igvf_catalog_find_associations', {'entity_id': 'TSTA1', 'relationship': 'regulatory'}),
    ('igvf_catalog_find_associations', {'entity_id': 'rs900001', 'relationship': 'regulatory'}),
    ('igvf_catalog_find_associations', {'entity_id': 'TSTA1', 'relationship': 'genetic'}),
    ('igvf_catalog_find_associations', {'entity_id': 'rs900001', 'relationship': 'genetic'}),
    ('igvf_catalog_find_associations', {'entity_id': 'EFO_0000001', 'relationship': 'genetic'}),
    ('igvf_catalog_find_associations',
     {'entity_id': 'test disease one', 'hint': 'disease', 'relationship': 'genetic'}),
    ('igvf_catalog_find_associations', {'entity_id': 'ENSP90000000001', 'relationship': 'physical'}),
    ('igvf_catalog_find_associations', {'entity_id': 'CPX-9001', 'relationship': 'physical'}),
    ('igvf_catalog_find_associations', {'entity_id': 'TSTA1', 'relationship': 'physical'}),
    ('igvf_catalog_find_associations', {'entity_id': 'TSTA1', 'relationship': 'functional'}),
    ('igvf_catalog_find_associations', {'entity_id': 'ENSP90000000001', 'relationship': 'functional'}),
    ('igvf_catalog_find_associations', {'entity_id': 'rs900001', 'relationship': 'pharmacological'}),
    ('igvf_catalog_find_associations', {'entity_id': 'PA451906', 'relationship': 'pharmacological'}),
    ('igvf_catalog_find_associations', {'entity_id': 'rs900001', 'relationship': 'ld'}),
    ('igvf_catalog_find_associations',
     {'entity_id': 'rs900001', 'relationship': 'ld', 'filters': {'r2': 0.8, 'ancestry': 'EUR'}}),
    ('igvf_catalog_find_associations', {'entity_id': 'rs900001', 'relationship': 'coding'}),
    ('igvf_catalog_find_associations', {'entity_id': 'PAK5', 'relationship': 'transcription'}),
    ('igvf_catalog_find_associations', {'entity_id': 'ENST00000353224', 'relationship': 'transcription'}),
    ('igvf_catalog_find_associations', {'entity_id': 'ENSP00000322957', 'relationship': 'transcription'}),
    # the maximum limit (500): each endpoint gets min(500, its max_limit), the page sizes IGVF takes
    ('igvf_catalog_find_associations',
     {'entity_id': 'ENSP90000000001', 'relationship': 'physical', 'limit': 500, 'verbose': True}),
    ('igvf_catalog_find_associations', {'entity_id': 'TSTA1', 'relationship': 'all', 'limit': 500}),
    # find_ld: defaults (EUR, r2 ≥ 0.8), and by SPDI with D' and verbose
    ('igvf_catalog_find_ld', {'variant_id': 'rs900001'}),
    ('igvf_catalog_find_ld',
     {'variant_id': 'NC_000001.11:15000:A:G', 'd_prime_threshold': 0.5, 'verbose': True, 'limit': 500}),
    # resolve_id: every entity type
    ('igvf_catalog_resolve_id', {'id': 'rs900004'}),
    ('igvf_catalog_resolve_id', {'id': 'CA800001'}),
    ('igvf_catalog_resolve_id', {'id': 'TSTA1'}),
    ('igvf_catalog_resolve_id', {'id': 'ENSG00000101349'}),
    ('igvf_catalog_resolve_id', {'id': 'ENST00000353224'}),
    ('igvf_catalog_resolve_id', {'id': 'ENSP90000000001'}),
    ('igvf_catalog_resolve_id', {'id': 'Q9P286'}),
    ('igvf_catalog_resolve_id', {'id': 'MONDO_9000001'}),
    ('igvf_catalog_resolve_id', {'id': 'PA451906'}),
    ('igvf_catalog_resolve_id', {'id': 'CPX-9001'}),
    ('igvf_catalog_resolve_id', {'id': 'GCST900001'}),
    ('igvf_catalog_resolve_id', {'id': 'R-HSA-9000001'}),
    # list_sources: static tables, but the tool must run
    ('igvf_catalog_list_sources', {}),
    ('igvf_catalog_list_sources', {'category': 'regulatory'}),
    ('igvf_catalog_list_sources', {'endpoint': 'variants_variants'}),
]


def problems(tool, data):
    """What is wrong with a tool's parsed answer: a list of reasons, empty when it holds data."""
    if tool == 'igvf_catalog_get_entity':
        return [] if data.get('entities') else ['no entities']
    if tool == 'igvf_catalog_resolve_id':
        return [] if data.get('identifiers') else ['no identifiers']
    if tool == 'igvf_catalog_find_ld':
        return [] if data.get('ld_variants') else [f"no ld_variants ({data.get('message', '')})"]
    if tool == 'igvf_catalog_list_sources':
        return [] if data else ['empty answer']
    if tool == 'igvf_catalog_search_region':
        out = []
        for kind, answer in data.get('results', {}).items():
            if 'error' in answer:
                out.append(f"{kind}: {answer['error']}")
            elif not answer.get('items'):
                out.append(f'{kind}: no items')
        return out or ([] if data.get('results') else ['no results'])
    if tool == 'igvf_catalog_find_associations':
        # An endpoint without rows for this id is no failure of the call (an ontology term is a
        # phenotype or a disease, rarely both); run() checks that each endpoint answers rows once.
        out = [
            f"{meta.get('endpoint')} {meta.get('path')}: {meta['error']}"
            for meta in data.get('query_metadata', [])
            if 'error' in meta
        ]
        return out or ([] if data.get('num_associations') else ['no associations'])
    return [f'unchecked tool {tool}']


def entity_type(tool, args):
    """The entity type the server gives a call's id (offline: the id patterns and the hint)."""
    entity_id = args.get('id') or args.get('entity_id') or args.get('variant_id')
    if entity_id is None:
        return None
    try:
        return IDParser.detect_entity_type(entity_id, args.get('hint'))[0]
    except ValueError:
        return None


def expected_coverage():
    """What the installed server offers: its entity types and its reachable (type, relationship) pairs."""
    entity_types = {entity_type for _, entity_type, _ in IDParser.PATTERNS}
    pairs = {
        (entity_type, relationship)
        for relationship, by_type in RELATIONSHIP_TYPE_MAPPING.items()
        for entity_type in by_type
        # no id pattern yields genomic_element or coding_variant: the server cannot reach those rows
        if entity_type in entity_types
    }
    return entity_types, pairs


async def run():
    env = {**os.environ, 'IGVF_CATALOG_API_URL': ORIGIN}
    server = StdioServerParameters(
        command=os.path.join(os.path.dirname(sys.executable), 'igvf-catalog-mcp'), env=env
    )
    failures = []
    answered = 0
    # endpoint key → [path, rows over all calls, the calls that queried it]
    endpoint_rows = {}
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            offered = {tool.name for tool in (await session.list_tools()).tools}
            called = {tool for tool, _ in CALLS}
            for tool in sorted(offered - called):
                failures.append((tool, {}, 'offered by the server but never called'))
            for tool, args in CALLS:
                result = await session.call_tool(tool, args)
                text = ''.join(c.text for c in result.content if getattr(c, 'type', '') == 'text')
                if result.isError:
                    failures.append((tool, args, f'tool error: {text.strip()}'))
                    continue
                try:
                    data = json.loads(text)
                except ValueError:
                    # "No gene found with …" and the like come back as plain text
                    failures.append((tool, args, f'not data: {text[:300]}'))
                    continue
                for meta in data.get('query_metadata', []) if isinstance(data, dict) else []:
                    if 'error' in meta:
                        continue  # reported with the call
                    seen = endpoint_rows.setdefault(meta.get('endpoint'), [meta.get('path'), 0, []])
                    seen[1] += meta.get('results_count') or 0
                    seen[2].append(args)
                reasons = problems(tool, data)
                if reasons:
                    failures.append((tool, args, '; '.join(reasons)))
                else:
                    answered += 1
    for endpoint, (path, rows, calls) in sorted(endpoint_rows.items()):
        if rows == 0:
            failures.append(('igvf_catalog_find_associations', calls[0],
                             f'{endpoint} {path} answered no rows in any of {len(calls)} calls'))
    # Coverage: what was called, against what the installed server offers.
    entity_types, pairs = expected_coverage()
    for tool in ('igvf_catalog_get_entity', 'igvf_catalog_resolve_id'):
        seen = {entity_type(tool, args) for t, args in CALLS if t == tool}
        for missing in sorted(entity_types - seen):
            failures.append((tool, {}, f'never called for entity type {missing}'))
    seen_pairs = {
        (entity_type(tool, args), args['relationship'])
        for tool, args in CALLS
        if tool == 'igvf_catalog_find_associations'
    }
    for missing_type, relationship in sorted(pairs - seen_pairs):
        failures.append(('igvf_catalog_find_associations', {},
                         f'never called for {missing_type} · {relationship}'))
    return answered, failures


def main():
    answered, failures = asyncio.run(run())
    print(f'mcp: {answered}/{len(CALLS)} tool calls answered')
    for tool, args, reason in failures:
        reason = ' | '.join(line.strip() for line in reason.splitlines() if line.strip())
        print(f'FAILED {tool} {json.dumps(args)}: {reason}')
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
