"""Tool calls per second and latency of `varcat mcp` (stdio, in-process queries) against IGVF's
MCP server (igvf-catalog-mcp over stdio, querying `varcat serve` over HTTP), on the same catalog.

Usage: python bench/mcp_tools.py VARCAT CATALOG ORIGIN [ROUNDS]

Each server gets the call plan of tests/compat/mcp_check.py (every tool, entity type and
relationship kind) ROUNDS times (default 5), one call at a time, after one warm-up round.
Prints calls/s, p50, p90 and p99 per server and the p50 per tool.
"""

import asyncio
import os
import statistics
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'compat'))
from mcp_check import CALLS  # noqa: E402

VARCAT, CATALOG, ORIGIN = sys.argv[1:4]
ROUNDS = int(sys.argv[4]) if len(sys.argv) > 4 else 5


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def measure(params):
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            for tool, args in CALLS:  # warm-up
                await s.call_tool(tool, args)
            per_tool, all_ms = {}, []
            start = time.perf_counter()
            for _ in range(ROUNDS):
                for tool, args in CALLS:
                    t0 = time.perf_counter()
                    result = await s.call_tool(tool, args)
                    ms = (time.perf_counter() - t0) * 1000
                    assert not result.isError, (tool, args)
                    all_ms.append(ms)
                    per_tool.setdefault(tool, []).append(ms)
            wall = time.perf_counter() - start
    return len(all_ms) / wall, all_ms, per_tool


async def main():
    servers = [
        ('varcat mcp (stdio, in-process)', StdioServerParameters(command=VARCAT, args=['mcp', CATALOG])),
        ('igvf-catalog-mcp 1.3.0 → varcat serve (HTTP)', StdioServerParameters(
            command=os.path.join(os.path.dirname(sys.executable), 'igvf-catalog-mcp'),
            env={**os.environ, 'IGVF_CATALOG_API_URL': ORIGIN})),
    ]
    print(f'{len(CALLS)} calls × {ROUNDS} rounds, sequential')
    print(f"{'server':<48} {'calls/s':>8} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}")
    rows = []
    for name, params in servers:
        rate, ms, per_tool = await measure(params)
        rows.append((name, per_tool))
        print(f'{name:<48} {rate:8.1f} {pct(ms, .5):8.2f} {pct(ms, .9):8.2f} {pct(ms, .99):8.2f}')
    print('\np50 per tool (ms):', ' | '.join(name for name, _ in rows))
    for tool in rows[0][1]:
        print(f'  {tool:<34}', '  '.join(f'{statistics.median(r[1][tool]):8.2f}' for r in rows))


if __name__ == '__main__':
    asyncio.run(main())
