#!/usr/bin/env python3
"""Batch look-ups: ids/s of 1,000 single GETs on one keep-alive connection against one
POST listing the same 1,000 ids, per endpoint; each batch item is checked against its GET.

    python3 bench/batch.py --bin target/release/varcat --catalog s100k.varcat \
        --input s100k [--rounds 5]

Starts `varcat serve` on a free loopback port (--threads 2), takes ids from the catalog's JSONL
input (variants with gene links from variants_genes.*.jsonl, genes from genes.*.jsonl, cycled
to 1,000 when the input has fewer), and prints one row per endpoint: the median of --rounds
runs each way (one keep-alive connection with TCP_NODELAY, a minimal client that reads each
answer by its Content-Length, so the client costs as little as Python allows; warm page cache).
--get-only times the GETs alone (for a binary without batches, e.g. main's, as a baseline).
"""

import argparse
import glob
import itertools
import json
import socket
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


class Conn:
    """One keep-alive HTTP/1.1 connection; answers are framed by Content-Length (varcat's are)."""

    def __init__(self, host, port):
        self.s = socket.create_connection((host, port))
        self.s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def send(self, method, target, body=b""):
        head = f"{method} {target} HTTP/1.1\r\nHost: x\r\n"
        if body:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self.s.sendall(head.encode() + b"\r\n" + body)
        while b"\r\n\r\n" not in self.buf:
            self.buf += self.s.recv(1 << 16)
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        status = int(head[9:12])
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        while len(self.buf) < length:
            self.buf += self.s.recv(1 << 20)
        data, self.buf = self.buf[:length], self.buf[length:]
        return status, data


def target(path, query):
    return f"/api{path}?{query}" if query else f"/api{path}"


def singles(conn, path, query, param, ids):
    answers = []
    sep = "&" if query else ""
    t = time.perf_counter()
    for v in ids:
        q = f"{query}{sep}{param}={urllib.parse.quote(v, safe='')}"
        answers.append(conn.send("GET", target(path, q)))
    return time.perf_counter() - t, answers


def batch(conn, path, query, param, ids):
    body = json.dumps({param: ids}).encode()
    t = time.perf_counter()
    status, data = conn.send("POST", target(path, query), body)
    took = time.perf_counter() - t
    if status != 200:
        raise SystemExit(f"POST {path}: {status} {data[:200]!r}")
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
    ap.add_argument("--get-only", action="store_true")
    a = ap.parse_args()

    variants = ids_from(f"{a.input}/variants_genes.*.jsonl", "_from", a.n, "variants/")
    genes = ids_from(f"{a.input}/genes.*.jsonl", "_key", a.n)
    genes = list(itertools.islice(itertools.cycle(genes), a.n))
    # (path, other query parameters, listed parameter, ids); the last two are heavier answers
    # (records expanded; a gene's variants, a page of 25 each).
    cases = [
        ("/variants", "", "spdi", variants),
        ("/genes", "", "gene_id", genes),
        ("/variants/genes", "", "spdi", variants),
        ("/variants/genes", "verbose=true", "spdi", variants),
        ("/genes/variants", "", "gene_id", genes),
    ]
    proc, host, port = start(a.bin, a.catalog)
    try:
        conn = Conn(host, port)
        print(f"{'endpoint':<42} {'ids':>5} {'found':>5} {'GET ids/s':>10} {'POST ids/s':>11} {'ratio':>6}")
        for path, query, param, ids in cases:
            g, p = [], []
            for _ in range(a.rounds):
                tg, answers = singles(conn, path, query, param, ids)
                g.append(tg)
                if not a.get_only:
                    tp, items = batch(conn, path, query, param, ids)
                    p.append(tp)
            gs = len(ids) / statistics.median(g)
            name = f"{path}?{query + '&' if query else ''}{param}="
            if a.get_only:
                print(f"{name:<42} {len(ids):>5} {'-':>5} {gs:>10.0f} {'-':>11} {'-':>6}")
            else:
                found = check(path, ids, answers, items)
                ps = len(ids) / statistics.median(p)
                print(f"{name:<42} {len(ids):>5} {found:>5} {gs:>10.0f} {ps:>11.0f} {ps / gs:>5.1f}x")
            sys.stdout.flush()
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    main()
