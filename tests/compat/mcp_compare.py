"""`varcat mcp` answers as IGVF's MCP server does, over the same catalog.

Usage: python mcp_compare.py VARCAT CATALOG ORIGIN

Starts both servers over stdio with the MCP SDK's client: `VARCAT mcp CATALOG`, and IGVF's
igvf-catalog-mcp pointed at ORIGIN (`varcat serve` on the same CATALOG). Runs the plan of
mcp_check.py (every tool, entity type and relationship kind) on both and compares each result as
parsed JSON. A result must be equal, except for the differences docs/igvf-differences.md lists
under "The MCP server":
  - has_more (and the next_page and note that go with it) is exact in varcat; IGVF's server
    guesses it from a full page;
  - explanatory text (note, message, warning, descriptions, usage_hint) is varcat's own wording:
    present in both or in neither, its words not compared.
The tool list must offer the same tools with the same argument names, types, enums, bounds and
required arguments, and the resources the same URIs. The same plan over the HTTP transport (`POST
ORIGIN/api/mcp`, the SDK's Streamable HTTP client) must answer exactly what stdio answers. A
few calls beyond the plan show the has_more
difference, and bad calls must be refused (isError) by both. Prints one line per difference and
`mcp compare: N/N results equal or differing as listed`; exits 1 on any other difference.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_check import CALLS  # noqa: E402  (the same plan)

VARCAT, CATALOG, ORIGIN = sys.argv[1:4]

# Beyond the plan: calls where a page is full but nothing follows (IGVF's guess and the catalog
# disagree), and calls both servers must refuse (compared by isError alone: the words differ).
EXTRA_CALLS = [
    ('igvf_catalog_find_associations', {'entity_id': 'TSTA1', 'relationship': 'all', 'limit': 2}),
    ('igvf_catalog_search_region', {'region': '1:10K-30K', 'limit': 1}),
    ('igvf_catalog_find_ld', {'variant_id': 'rs900001', 'limit': 1}),
]
REFUSED = [
    ('igvf_catalog_search_region', {'region': 'chr1-10000-30000'}),
    ('igvf_catalog_search_region', {'region': 'chr99:1-2'}),
    ('igvf_catalog_get_entity', {'id': 'not an id at all'}),
    ('igvf_catalog_get_entity', {'id': 'TSTA1', 'limit': 0}),
    ('igvf_catalog_find_associations', {'entity_id': 'TSTA1'}),
    ('igvf_catalog_find_associations', {'entity_id': 'PA451906', 'relationship': 'ld'}),
    ('igvf_catalog_find_ld', {'variant_id': 'ENSG90000000001'}),
    ('igvf_catalog_list_sources', {'endpoint': 'no_such_endpoint'}),
]

# Members whose text is written by each server in its own words.
WORDING = {'note', 'message', 'warning', 'description', 'usage_hint'}
# Paging members that follow has_more.
PAGING = {'has_more', 'next_page', 'note'}


def diff(a, b, path=''):
    """Differences between IGVF's value a and varcat's b: a list of (path, what)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in sorted(set(a) | set(b)):
            sub = f'{path}.{key}' if path else key
            if key not in a or key not in b:
                out.append((sub, 'only in ' + ('varcat' if key in b else 'IGVF')))
            elif key in WORDING and isinstance(a[key], str) and isinstance(b[key], str):
                continue
            else:
                out.extend(diff(a[key], b[key], sub))
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [(path, f'{len(a)} items in IGVF, {len(b)} in varcat')]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in diff(x, y, f'{path}[{i}]')]
    if a != b or type(a) is not type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return [(path, f'IGVF {json.dumps(a)[:80]} varcat {json.dumps(b)[:80]}')]
    return []


def listed(differences, igvf, varcat):
    """Splits differences into (listed, unlisted): paging members under a _pagination whose
    has_more differs are the listed exact-has_more difference."""
    def at(doc, path):
        for part in path.replace('[', '.[').split('.'):
            if part.startswith('['):
                doc = doc[int(part[1:-1])]
            elif part:
                doc = doc.get(part, {}) if isinstance(doc, dict) else {}
        return doc

    ok, bad = [], []
    for path, what in differences:
        parent, _, member = path.rpartition('.')
        if member in PAGING and parent.endswith('_pagination'):
            a, b = at(igvf, parent), at(varcat, parent)
            if a.get('has_more') != b.get('has_more'):
                ok.append((path, 'exact has_more: ' + what))
                continue
        bad.append((path, what))
    return ok, bad


def schema_shape(schema):
    """An input schema without its descriptions (and our annotations)."""
    if isinstance(schema, dict):
        return {k: schema_shape(v) for k, v in schema.items() if k != 'description'}
    if isinstance(schema, list):
        return [schema_shape(x) for x in schema]
    return schema


async def run():
    igvf = StdioServerParameters(
        command=os.path.join(os.path.dirname(sys.executable), 'igvf-catalog-mcp'),
        env={**os.environ, 'IGVF_CATALOG_API_URL': ORIGIN},
    )
    ours = StdioServerParameters(command=VARCAT, args=['mcp', CATALOG])
    failures, equal, as_listed, http_equal = [], 0, 0, 0
    async with stdio_client(igvf) as (r1, w1), stdio_client(ours) as (r2, w2), \
            streamable_http_client(f'{ORIGIN}/api/mcp') as (r3, w3, _):
        async with ClientSession(r1, w1) as theirs, ClientSession(r2, w2) as mine, \
                ClientSession(r3, w3) as over_http:
            await theirs.initialize()
            await mine.initialize()
            await over_http.initialize()
            t_tools = {t.name: t for t in (await theirs.list_tools()).tools}
            m_tools = {t.name: t for t in (await mine.list_tools()).tools}
            if set(t_tools) != set(m_tools):
                failures.append(f'tools: IGVF {sorted(t_tools)} varcat {sorted(m_tools)}')
            for name in sorted(set(t_tools) & set(m_tools)):
                a, b = schema_shape(t_tools[name].inputSchema), schema_shape(m_tools[name].inputSchema)
                for path, what in diff(a, b):
                    failures.append(f'{name} inputSchema {path}: {what}')
            t_res = sorted(str(r.uri) for r in (await theirs.list_resources()).resources)
            m_res = sorted(str(r.uri) for r in (await mine.list_resources()).resources)
            if t_res != m_res:
                failures.append(f'resources: IGVF {t_res} varcat {m_res}')
            for uri in m_res:
                await mine.read_resource(uri)
            for tool, args in REFUSED:
                results = [await s.call_tool(tool, args) for s in (theirs, mine)]
                if not (results[0].isError and results[1].isError):
                    failures.append(f'{tool} {json.dumps(args)}: isError IGVF {results[0].isError} '
                                    f'varcat {results[1].isError}')
            for tool, args in CALLS + EXTRA_CALLS:
                results = [await s.call_tool(tool, args) for s in (theirs, mine)]
                texts = [''.join(c.text for c in r.content if c.type == 'text') for r in results]
                label = f'{tool} {json.dumps(args)}'
                http_result = await over_http.call_tool(tool, args)
                http_text = ''.join(c.text for c in http_result.content if c.type == 'text')
                if (http_result.isError, http_text) != (results[1].isError, texts[1]):
                    failures.append(f'{label}: HTTP answers differ from stdio: {http_text[:200]}')
                else:
                    http_equal += 1
                if results[0].isError or results[1].isError:
                    failures.append(f'{label}: isError IGVF {results[0].isError} varcat '
                                    f'{results[1].isError}: {texts[1][:200]}')
                    continue
                try:
                    docs = [json.loads(t) for t in texts]
                except ValueError:
                    failures.append(f'{label}: not JSON: {texts[0][:100]!r} / {texts[1][:100]!r}')
                    continue
                ok, bad = listed(diff(*docs), *docs)
                for path, what in bad:
                    failures.append(f'{label}: {path}: {what}')
                if not bad:
                    equal += not ok
                    as_listed += bool(ok)
                for path, what in ok:
                    print(f'listed  {label}: {path}: {what}')
    return equal, as_listed, http_equal, failures


def main():
    equal, as_listed, http_equal, failures = asyncio.run(run())
    for f in failures:
        print(f'FAILED {f}')
    total = len(CALLS) + len(EXTRA_CALLS)
    print(f'mcp compare: {equal + as_listed}/{total} results equal or differing as listed '
          f'({equal} equal, {as_listed} with exact has_more); {len(REFUSED)} refusals compared; '
          f'HTTP transport: {http_equal}/{total} as stdio')
    sys.exit(1 if failures or equal + as_listed != total else 0)


if __name__ == '__main__':
    main()
