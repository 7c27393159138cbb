#!/usr/bin/env python3
"""Batch look-ups (issue 25): ids/s of 1,000 single GETs on one keep-alive connection against one
POST listing the same 1,000 ids, per endpoint; each batch item is checked against its GET.

    python3 bench/batch.py --bin target/release/varcat --catalog /tmp/s10-main100k.varcat \
        --input /tmp/g100k [--rounds 5]

Starts `varcat serve` on a free loopback port (--threads 2), takes ids from the catalog's JSONL
input (variants with gene links from variants_genes.*.jsonl, genes from genes.*.jsonl, cycled
to 1,000 when the input has fewer), and prints one row per endpoint: the median of --rounds
runs each way (Python's http.client, one connection, warm page cache).
"""

import argparse
import glob
import http.client
import itertools
import json
import statistics
import subprocess
import sys
import time
import urllib.parse


def ids_from(pattern, field, n, strip=""):
    out, seen = [], set()
    for path in sorted(glob.glob(pattern)):
        with open(path) as f:
            for line in f:
                v = json.loads(line)[field].removeprefix(strip)
                if v not in seen:
                    seen.add(v)
                    out.append(v)
                    if len(out) == n:
                        return out
    return out


def start(binary, catalog):
    p = subprocess.Popen(
        [binary, "serve", catalog, "--addr", "127.0.0.1:0", "--threads", "2", "--quiet"],
        stderr=subprocess.PIPE,
        text=True,
    )
    for line in p.stderr:
        if "listening on http://" in line:
            hostport = line.split("http://")[1].split("/")[0]
            host, port = hostport.rsplit(":", 1)
            return p, host, int(port)
    raise SystemExit("the server did not start")


def singles(conn, path, param, ids):
    answers = []
    t = time.perf_counter()
    for v in ids:
        conn.request("GET", f"/api{path}?{param}={urllib.parse.quote(v, safe='')}")
        r = conn.getresponse()
        answers.append((r.status, r.read()))
    return time.perf_counter() - t, answers


def batch(conn, path, param, ids):
    body = json.dumps({param: ids})
    t = time.perf_counter()
    conn.request("POST", f"/api{path}", body=body, headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    data = r.read()
    took = time.perf_counter() - t
    if r.status != 200:
        raise SystemExit(f"POST {path}: {r.status} {data[:200]!r}")
    return took, json.loads(data)


def check(path, ids, answers, items):
    """Every batch item is its GET's answer (results for 200, error otherwise)."""
    assert len(items) == len(ids), path
    found = 0
    for v, (status, body), item in zip(ids, answers, items):
        assert item["query"] == v, (path, v)
        got = item["results"] if status == 200 else item["error"]
        assert got == json.loads(body), (path, v, status)
        found += status == 200 and got not in ([], {})
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--catalog", required=True)
    ap.add_argument("--input", required=True, help="the catalog's JSONL input directory")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()

    variants = ids_from(f"{a.input}/variants_genes.*.jsonl", "_from", a.n, "variants/")
    genes = ids_from(f"{a.input}/genes.*.jsonl", "_key", a.n)
    genes = list(itertools.islice(itertools.cycle(genes), a.n))
    cases = [
        ("/variants", "spdi", variants),
        ("/genes", "gene_id", genes),
        ("/variants/genes", "spdi", variants),
    ]
    proc, host, port = start(a.bin, a.catalog)
    try:
        conn = http.client.HTTPConnection(host, port)
        print(f"{'endpoint':<28} {'ids':>5} {'found':>5} {'GET ids/s':>10} {'POST ids/s':>11} {'ratio':>6}")
        for path, param, ids in cases:
            g, p = [], []
            for _ in range(a.rounds):
                tg, answers = singles(conn, path, param, ids)
                tp, items = batch(conn, path, param, ids)
                g.append(tg)
                p.append(tp)
            found = check(path, ids, answers, items)
            gs, ps = len(ids) / statistics.median(g), len(ids) / statistics.median(p)
            print(f"{path + '?' + param + '=':<28} {len(ids):>5} {found:>5} {gs:>10.0f} {ps:>11.0f} {ps / gs:>5.1f}x")
            sys.stdout.flush()
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
