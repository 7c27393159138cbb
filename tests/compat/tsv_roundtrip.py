#!/usr/bin/env python3
"""Reads varcat's TSV answers back with the README's own recipes (pandas, and R when Rscript is
there) and checks that every cell is the JSON answer's value.

Answers checked: every example URL in README.md and every example of /openapi.json
(`x-varcat-examples`, plain and with verbose=true) on the server given, and a hostile catalog
built here from JSONL written into a temporary directory (formula characters, quotes, tabs,
line breaks, NUL, ESC, C1 characters, commas inside array members, negative numbers), answered
by `varcat query` (`--tsv` against the JSON of the same query).

Checked for each answer: the TSV has one row per record; pandas with the README's recipe gives,
for every column of every row, the JSON value (numbers and booleans converted as the README says
for the columns the schema types so; a dotted column is the member of the member; an expanded
reference's own column is its id when it was not expanded); no member of the JSON is left
without a column; no string cell starts with a formula character or `"`; no cell holds a raw
control character. R (the README's `read.delim` recipe) must give the same values, except that R
strings cannot hold NUL (dropped, as the README says).

Usage: tsv_roundtrip.py <origin> <varcat binary> <README.md>
"""

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

FORMULA = ("=", "+", "-", "@", '"', "\t", "\r")


def recipe(readme, lang):
    """The README TSV section's code block in `lang`."""
    section = readme[readme.index("### TSV\n"):]
    section = section[:section.index("\n## ")]
    return re.search(r"```%s\n(.*?)```" % lang, section, re.S).group(1)


def get(url):
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.status, r.headers.get("Content-Type"), r.read()


def with_param(url, param):
    return url + ("&" if "?" in url else "?") + param


def schema_types(openapi):
    """path template -> {dotted column -> set of JSON types}, from the record schemas."""
    schemas = openapi["components"]["schemas"]

    def alternatives(s):
        if "$ref" in s:
            return alternatives(schemas[s["$ref"].split("/")[-1]])
        if "anyOf" in s or "oneOf" in s:
            return [a for x in s.get("anyOf", s.get("oneOf")) for a in alternatives(x)]
        return [s]

    def walk(s, prefix, depth, out):
        for alt in alternatives(s):
            types = alt.get("type", "any")
            types = set(types) if isinstance(types, list) else {types}
            if prefix:
                out.setdefault(prefix[:-1], set()).update(types)
            if "object" in types and "properties" in alt and depth < 6:
                for name, member in alt["properties"].items():
                    walk(member, prefix + name + ".", depth + 1, out)
        return out

    result = {}
    for path, item in openapi["paths"].items():
        content = item.get("get", {}).get("responses", {}).get("200", {}).get("content", {})
        if "text/tab-separated-values" not in content:
            continue
        body = content["application/json"]["schema"]
        records = body.get("items", body)
        result[path] = walk(records, "", 0, {})
    return result


def kind(types):
    """How the README's recipe converts a column whose schema types are `types`."""
    types = types - {"null"}
    if types and types <= {"integer", "number"}:
        return "number"
    if types == {"boolean"}:
        return "boolean"
    return "value"


def expected_cells(rec, columns):
    """The value each column must read back as: the member at the dotted path (null through a
    null or non-object); an expanded reference's own column holds it only when not an object."""
    groups = {c.rsplit(".", 1)[0] for c in columns if "." in c}
    out = []
    for col in columns:
        v = rec
        for part in col.split("."):
            v = v.get(part) if isinstance(v, dict) else None
        if col in groups and isinstance(v, dict):
            v = None
        out.append(v)
    return out


def uncovered(rec, columns, prefix=""):
    """Members of the JSON record that no column holds (they would be lost)."""
    lost = []
    names = set(columns)
    for k, v in rec.items():
        name = prefix + k
        nested = any(c.startswith(name + ".") for c in columns)
        if nested and isinstance(v, dict):
            lost += uncovered(v, columns, name + ".")
        elif name not in names and v is not None:
            lost.append(name)
    return lost


def same(a, b, loose=False):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or a == b and type(a) is type(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or loose and math.isclose(a, b, rel_tol=1e-12)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, loose) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k], loose) for k in a)
    return type(a) is type(b) and a == b


def control_characters(text):
    return [c for c in text if (ord(c) < 0x20 and c not in "\t\n") or 0x7F <= ord(c) < 0xA0]


class Check:
    def __init__(self, ns, rscript, work):
        self.ns, self.rscript, self.work = ns, rscript, work
        self.failures, self.answers, self.cells = [], 0, 0
        self.r_jobs = []

    def fail(self, what, msg):
        self.failures.append(f"{what}: {msg}")

    def answer(self, what, json_body, tsv_body, types):
        """Checks one TSV answer against its JSON answer."""
        import pandas as pd  # noqa: F401  (the recipe's import; fails early when missing)

        self.answers += 1
        answer = json.loads(json_body)
        records = answer if isinstance(answer, list) else [answer]
        text = tsv_body.decode("utf-8")
        if control_characters(text):
            self.fail(what, f"raw control characters {control_characters(text)[:5]!r}")
        lines = text.split("\n")
        if lines[-1] != "" or len(lines) - 2 != len(records):
            self.fail(what, f"{len(lines) - 2} rows for {len(records)} records")
            return
        columns = lines[0].split("\t")
        kinds = [kind(types.get(c, {"any"})) for c in columns]
        path = os.path.join(self.work, f"answer{self.answers}.tsv")
        with open(path, "wb") as f:
            f.write(tsv_body)
        df = self.ns["read_varcat_tsv"](path)
        if list(df.columns) != columns or len(df) != len(records):
            self.fail(what, f"pandas read {df.shape}, columns {list(df.columns)[:5]}")
            return
        decoded = {}
        for col, k in zip(columns, kinds):
            if k == "number":
                decoded[col] = pd.to_numeric(df[col])
            elif k == "boolean":
                decoded[col] = df[col].map({"true": True, "false": False})
            else:
                decoded[col] = df[col].map(self.ns["value"], na_action="ignore")
        rows = []
        for i, rec in enumerate(records):
            lost = uncovered(rec, columns) if isinstance(rec, dict) else []
            if lost:
                self.fail(what, f"row {i}: members without a column: {lost}")
            want = expected_cells(rec, columns)
            rows.append(want)
            raw = lines[i + 1].split("\t")
            for col, k, w, cell in zip(columns, kinds, want, raw):
                self.cells += 1
                got = decoded[col].iloc[i]
                got = None if not isinstance(got, (list, dict)) and pd.isna(got) else got
                if hasattr(got, "item"):
                    got = got.item()
                if not same(got, w):
                    self.fail(what, f"row {i} column {col}: pandas read {got!r}, JSON has {w!r}")
                if k == "value" and cell[:1] in FORMULA and cell not in ("+", "-"):
                    self.fail(what, f"row {i} column {col}: string cell {cell!r}")
        if self.rscript:
            self.r_jobs.append((what, path, columns, kinds, rows))

    def run_r(self, r_recipe):
        """Reads every answer with the README's R recipe; compares with the JSON values."""
        if not self.r_jobs:
            return
        jobs = os.path.join(self.work, "r-jobs.json")
        with open(jobs, "w") as f:
            json.dump([{"path": p, "kinds": k, "out": p + ".r.json"}
                       for (_, p, _, k, _) in self.r_jobs], f)
        script = os.path.join(self.work, "read.R")
        with open(script, "w") as f:
            f.write(r_recipe + R_DRIVER)
        env = dict(os.environ, LC_ALL="C.UTF-8")
        r = subprocess.run([self.rscript, script, jobs], env=env, capture_output=True,
                           text=True, timeout=600)
        if r.returncode != 0:
            self.fail("R", r.stderr[-2000:])
            return
        for what, path, columns, kinds, rows in self.r_jobs:
            with open(path + ".r.json", encoding="utf-8") as f:
                got = json.load(f)
            if got["columns"] != columns or len(got["rows"]) != len(rows):
                self.fail(f"R {what}", f"read columns {got['columns'][:5]}, "
                                       f"{len(got['rows'])} rows")
                continue
            for i, (grow, wrow) in enumerate(zip(got["rows"], rows)):
                for col, k, g, w in zip(columns, kinds, grow, wrow):
                    if k == "number" and g is not None:
                        g = float(g)
                    w = strip_nul(w)
                    if not same(g, w, loose=True):
                        self.fail(f"R {what}", f"row {i} column {col}: R read {g!r}, JSON has "
                                               f"{w!r}")


def strip_nul(v):
    """What R can hold of a JSON value: strings without NUL."""
    if isinstance(v, str):
        return v.replace("\0", "")
    if isinstance(v, list):
        return [strip_nul(x) for x in v]
    if isinstance(v, dict):
        return {k: strip_nul(x) for k, x in v.items()}
    return v


# Appended to the README's R recipe: reads each job's TSV and writes what R read as JSON.
R_DRIVER = r'''
jobs <- jsonlite::fromJSON(commandArgs(trailingOnly = TRUE)[1], simplifyVector = FALSE)
for (job in jobs) {
  d <- read_varcat_tsv(job$path)
  rows <- lapply(seq_len(nrow(d)), function(i) lapply(seq_along(job$kinds), function(j) {
    x <- d[[j]][i]
    if (is.na(x)) return(NULL)
    switch(job$kinds[[j]],
           number = sprintf("%.17g", as.numeric(x)),
           boolean = x == "true",
           varcat_value(x))
  }))
  out <- list(columns = as.list(names(d)), rows = rows)
  writeLines(jsonlite::toJSON(out, auto_unbox = TRUE, null = "null", na = "null",
                              digits = NA), job$out, useBytes = TRUE)
}
'''


def template_of(path, templates):
    for t in templates:
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", t), path):
            return t
    return None


def server_examples(origin, readme, openapi, types, check):
    urls = set()
    for m in re.finditer(r"\(http://127\.0\.0\.1:2023(/api/[^)\s]+)\)", readme):
        urls.add(m.group(1))
    for m in re.finditer(r"curl '(?:localhost|127\.0\.0\.1):2023(/api/[^']+)'", readme):
        urls.add(m.group(1))
    readme_urls = len(urls)
    for path, item in openapi["paths"].items():
        for example in item.get("get", {}).get("x-varcat-examples", []):
            urls.add("/api" + example)
            if "verbose=" not in example:
                urls.add(with_param("/api" + example, "verbose=true"))
    checked = 0
    for url in sorted(urls):
        url = re.sub(r"[?&]format=tsv", "", url)
        path = urllib.parse.urlsplit(url).path[len("/api"):]
        template = template_of(path, types)
        if template is None:
            continue  # no TSV form (not records)
        status, _, json_body = get(origin + url)
        tsv_status, ctype, tsv_body = get(origin + with_param(url, "format=tsv"))
        if (status, tsv_status) != (200, 200) or not ctype.startswith("text/tab-separated"):
            check.fail(url, f"status {status}/{tsv_status}, {ctype}")
            continue
        check.answer(url, json_body, tsv_body, types[template])
        checked += 1
    return readme_urls, checked


def hostile_documents():
    """Collections of documents whose values are what a hostile or careless catalog holds."""
    nasty = ["=HYPERLINK(\"http://x\",\"click\")", "+/+ (A)", "-2+3+cmd|' /C calc'!A0",
             "@SUM(1+1)", "\"quoted\" start", "tab\there", "line\nbreak", "cr\rhere",
             "nul\0here", "esc\x1b[31mred", "c1\x85\x9bhere", "del\x7fhere", "back\\slash",
             "\\N", "", "'=already", "''+x", "'5' UTR", "[not json]", "{not json}",
             "\ttab first", "\rcr first", "a,b,c", "+", "-", "NA", "null", "TRUE", "1e5",
             "é ü 漢字", "\u2028sep"]
    genes, transcripts, links = [], [], []
    for i, name in enumerate(nasty):
        key = f"ENSG990000{i:05d}"
        genes.append({
            "_key": key, "gene_id": key + ".1", "gene_type": nasty[(i + 1) % len(nasty)],
            "chr": "chr1", "start": 1000 + i, "end": 2000 + i, "strand": "-+"[i % 2],
            "symbol": name, "name": name, "source": nasty[(i + 2) % len(nasty)],
            "version": nasty[(i + 3) % len(nasty)], "source_url": nasty[(i + 4) % len(nasty)],
            "organism": "Homo sapiens", "hgnc": nasty[(i + 5) % len(nasty)],
            "synonyms": [name, "x,y", "=1+1", "\"q\"", nasty[(i + 6) % len(nasty)]],
            "collections": [] if i % 3 == 0 else None,
        })
        tkey = f"ENST990000{i:05d}"
        transcripts.append({
            "_key": tkey, "transcript_id": tkey + ".1", "name": name,
            "transcript_type": "protein_coding", "chr": "chr1", "start": 1000 + i,
            "end": 2000 + i, "strand": "+", "gene_name": name, "source": name,
            "version": "v1", "source_url": "https://example.org", "organism": "Homo sapiens",
        })
        # Every third link points to a transcript missing from the catalog: verbose keeps the id.
        target = tkey if i % 3 else f"ENST98{i:09d}"
        links.append({
            "_key": f"{key}_{target}", "_from": f"genes/{key}", "_to": f"transcripts/{target}",
            "name": name, "inverse_name": "transcribed by", "source": name,
            "source_url": "https://example.org", "version": "v1", "organism": "Homo sapiens",
        })
    variant = {
        "_key": "NC_000001.11:1500:A:G", "name": "NC_000001.11:1500:A:G", "chr": "chr1",
        "pos": 1500, "ref": "A", "alt": "G", "variation_type": "SNP",
        "spdi": "NC_000001.11:1500:A:G", "hgvs": "NC_000001.11:g.1501A>G",
        "organism": "Homo sapiens", "rsid": ["rs990001"], "qual": ".", "source": "=cmd",
        "source_url": "https://example.org", "annotations": {"bravo_af": 0.1, "cadd_phred": -1.5},
    }
    # Negative effect sizes and fold changes stay numbers; the strings beside them are guarded.
    effects = [{
        "_key": f"VG99{i}", "_from": "variants/" + variant["_key"],
        "_to": f"genes/ENSG990000{i:05d}", "chr": "chr1", "effect_size": -0.25 * (i + 1),
        "log2FC": -1.5 - i, "p_value": 1e-300, "neg_log10_pvalue": 300.0, "source": nasty[i],
        "label": nasty[i + 1], "method": nasty[i + 2], "biological_context": nasty[i + 3],
        "source_url": "https://example.org", "name": "modulates expression of",
        "inverse_name": "expression modulated by",
    } for i in range(len(nasty) - 3)]
    return {"genes": genes, "transcripts": transcripts, "genes_transcripts": links,
            "variants": [variant], "variants_genes": effects}


HOSTILE_QUERIES = [
    "/genes?region=chr1:1-100000&limit=100",
    "/genes/transcripts?region=chr1:1-100000&limit=100",
    "/genes/transcripts?region=chr1:1-100000&limit=100&verbose=true",
    "/transcripts?region=chr1:1-100000&limit=100",
    "/variants/genes?rsid=rs990001&limit=100",
    "/variants/genes?rsid=rs990001&limit=100&verbose=true",
    "/variants?rsid=rs990001",
]


def hostile(varcat, work, types, check):
    src = os.path.join(work, "hostile")
    os.makedirs(src)
    for name, docs in hostile_documents().items():
        with open(os.path.join(src, name + ".jsonl"), "w", encoding="utf-8") as f:
            for d in docs:
                f.write(json.dumps(d) + "\n")
    cat = os.path.join(work, "hostile.varcat")
    subprocess.run([varcat, "build", src, "-o", cat, "--quiet"], check=True, timeout=300)
    rows = 0
    for url in HOSTILE_QUERIES:
        json_body = subprocess.run([varcat, "query", cat, url], check=True,
                                   capture_output=True, timeout=60).stdout
        tsv_body = subprocess.run([varcat, "query", cat, url, "--tsv"], check=True,
                                  capture_output=True, timeout=60).stdout
        path = urllib.parse.urlsplit(url).path
        check.answer(f"hostile {url}", json_body, tsv_body, types[path])
        rows += len(json.loads(json_body))
    return rows


def main():
    origin, varcat, readme_path = sys.argv[1:4]
    with open(readme_path, encoding="utf-8") as f:
        readme = f.read()
    ns = {}
    exec(recipe(readme, "python"), ns)
    openapi = json.loads(get(origin + "/openapi.json")[2])
    types = schema_types(openapi)
    rscript = shutil.which("Rscript")
    work = tempfile.mkdtemp(prefix="varcat-tsv-")
    try:
        check = Check(ns, rscript, work)
        readme_urls, examples = server_examples(origin, readme, openapi, types, check)
        hostile_rows = hostile(varcat, work, types, check)
        if rscript:
            check.run_r(recipe(readme, "r"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in check.failures[:50]:
        print("FAILED", f)
    print(f"TSV read back: {examples} example answers ({readme_urls} README URLs among them), "
          f"{len(HOSTILE_QUERIES)} hostile answers ({hostile_rows} rows), {check.cells} cells; "
          f"pandas{' and R' if rscript else ' (no Rscript: R not checked)'}; "
          f"{len(check.failures)} failures")
    if not rscript and os.environ.get("CI"):
        print("Rscript missing in CI")
        sys.exit(1)
    sys.exit(1 if check.failures or examples < 50 or hostile_rows < 50 else 0)


if __name__ == "__main__":
    main()
