#!/usr/bin/env python3
"""Calls every varcat endpoint through the official IGVF Catalog Python client
(igvf-catalog-client on PyPI: OpenAPI Generator output with pydantic models) and fails when a
response does not validate against the client's models.

The arguments come from the server's own examples (`x-varcat-examples` in /openapi.json, the
same examples the landing page links), each called as given, with `verbose=true` and with
paging, wherever the client's method has those parameters.

Usage: igvf_client.py http://127.0.0.1:2023   (the server's origin; the API is below /api)
"""

import inspect
import json
import re
import sys
import urllib.parse
import urllib.request

import igvf_catalog_client as ic

# varcat path (interface section) -> the client's method for it.
METHODS = {
    "/genes/variants": "variants_from_genes",  # 4.1
    "/variants/freq": "variant_by_frequency_source",  # 4.2
    "/variants/phenotypes": "phenotypes_from_variants",  # 4.3
    "/genes/coding-variants/scores": "coding_variants_from_genes",  # 4.4
    "/genomic-elements/variants": "variants_from_genomic_elements",  # 4.5
    "/diseases/genes": "genes_from_diseases",  # 4.6
    "/variants/drugs": "drugs_from_variants",  # 4.7
    "/transcripts/genes": "genes_from_transcripts",  # 4.8
    "/variants/predictions": "predictions_from_variants",  # 4.9
    "/genes-structure": "genes_structure",  # 4.10
    "/genomic-elements/biosamples": "biosamples_from_genomic_elements",  # 4.11
    "/variants/variant-ld/summary": "variants_from_variant_id_summary",  # 4.12
    "/variants/diseases": "disease_from_variants",  # 4.13
    "/variants/coding-variants": "coding_variants_from_variants",  # 4.14
    "/coding-variants/variants": "variants_from_coding_variants",  # 4.15
    "/pathways": "pathways",  # 4.16
    "/genes-proteins/variants": "variants_from_gene_proteins",  # 4.17
    "/variants/nearest-genes": "nearest_genes",  # 4.18
    "/variants/genes/summary": "qtl_summary_endpoint",  # 4.19
    "/ontology-terms/{ontology_term_id}/children": "ontology_term_children",  # 4.20
    "/motifs/proteins": "proteins_from_motifs",  # 4.21
    "/ontology-terms/{ontology_term_id_start}/transitive-closure/{ontology_term_id_end}":
        "ontology_term_transitive_closure",  # 4.22
    "/proteins/genes": "genes_from_proteins",  # 4.23
    "/genes/proteins": "proteins_from_genes",  # 4.24
    "/variants/region-summary": "variants_region_summary",  # 4.25
    # The client's other paths (beyond the interface's 25).
    "/genes": "genes",  # r18
    "/variants": "variants",  # r64
    "/proteins": "proteins",  # r52
    "/transcripts": "transcripts",  # r61
    "/ontology-terms": "ontology_term",  # r42
    "/drugs": "drugs",  # r12
    "/complexes": "complexes",  # r8
    "/studies": "studies",  # r60
    "/genomic-elements": "genomic_elements",  # r32
    "/motifs": "motifs",  # r40
    "/coding-variants": "coding_variants",  # r3
    "/files-filesets": "files_filesets",  # r15
    "/coding-variants/phenotypes-count": "coding_variants_count_from_gene",  # r5
    "/genes/coding-variants/all-scores": "all_coding_variants_from_genes",  # r22
    "/coding-variants/phenotypes/score-summary": "coding_variants_summary",  # r6
    "/variants/phenotypes/score-summary": "deprecated_coding_variants_summary",  # r79
    "/variants/predictions-count": "genomic_elements_from_variants_count",  # r81
    "/variants/genes-proteins": "genes_proteins_from_variants",  # r71
    "/genes/transcripts": "transcripts_from_genes",  # r29
    "/transcripts/proteins": "proteins_from_transcripts",  # r63
    "/proteins/transcripts": "transcripts_from_proteins",  # r57
    "/variants/genes": "genes_from_variants",  # r70
    "/variants/proteins": "proteins_from_variants",  # r82
    "/proteins/variants": "variants_from_proteins",  # r58
    "/variants/genomic-elements": "genomic_elements_from_variants",  # r73
    "/genes/genomic-elements": "genomic_elements_from_genes",  # r26
    "/genomic-elements/genes": "genes_from_genomic_elements",  # r34
    "/phenotypes/variants": "variants_from_phenotypes",  # r51
    "/diseases/variants": "variants_from_diseases",  # r11
    "/drugs/variants": "variants_from_drugs",  # r13
    "/genes/pathways": "pathways_from_genes",  # r27
    "/pathways/genes": "genes_from_pathways",  # r47
    "/pathways/pathways": "pathways_from_pathways",  # r48
    "/complexes/proteins": "proteins_from_complexes",  # r9
    "/proteins/complexes": "complexes_from_proteins",  # r53
    "/ontology-terms/{ontology_term_id}/parents": "ontology_term_parents",  # r45
    "/genes/genes": "genes_genes",  # r25
    "/proteins/proteins": "proteins_proteins",  # r56
    "/genes-proteins/genes-proteins": "genes_proteins_genes_proteins",  # r19
    "/genes/transcripts/genes": "genes_transcripts_genes",  # r30
    "/genomic-elements/phenotypes": "phenotypes_from_genomic_elements",  # r36
    "/phenotypes/genomic-elements": "genomic_elements_from_phenotypes",  # r50
    "/gene-products/go-terms": "go_terms_from_annotations",  # r16
    "/go-terms/gene-products": "annotations_from_go_terms",  # r38
    "/coding-variants/phenotypes": "phenotypes_from_coding_variants",  # r4
    "/phenotypes/coding-variants": "coding_variants_from_phenotypes",  # r49
    "/proteins/motifs": "motifs_from_proteins",  # r55
    "/variants/biosamples": "biosamples_from_variants",  # r65
    "/biosamples/variants": "variants_from_biosamples",  # r2
    "/biosamples/genomic-elements": "genomic_elements_from_biosamples",  # r1
    "/variants/variant-ld": "variants_from_variant_id",  # r85
    "/genes/diseases": "diseases_from_genes",  # r24
    "/variants/summary": "variant_summary",  # r84
    "/variants/gnomad-alleles": "variants_alleles",  # r76
    "/qtls": "qtls",  # r59
    "/gene-regulatory-network": "grn",  # r17
    "/enhancer-gene-predictions": "enhancer_gene_predictions",  # r14
    "/variants/genomic-elements/genes": "variants_genomic_elements_genes",  # r75
    "/variants/genomic-elements/cell-gene-predictions": "genomic_elements_predictions_from_variant",  # r74
    "/genomic-elements/genomic-elements": "genomic_elements_from_genomic_elements",  # r35
}

# POST paths: path -> (client method, the answer varcat gives; no language model here).
POSTS = {
    "/llm-query": ("llm_query", 501),  # r39
}


def wire_names(api, method):
    """Query/path parameter name on the wire -> the method's keyword argument."""
    src = inspect.getsource(getattr(api, f"_{method}_serialize"))
    out = {}
    for wire, kw in re.findall(r"_query_params\.append\(\('(\w+)', (\w+)\)\)", src):
        out[wire] = kw
    for wire, kw in re.findall(r"_path_params\['(\w+)'\] = (\w+)", src):
        out[wire] = kw
    return out


def typed(annotation, value):
    """`value` (a string from a URL) as the client's annotation wants it."""
    text = str(annotation)
    if "[bool," in text:
        return value == "true"
    if "[int," in text or "[float," in text:
        return int(value) if value.isdigit() else float(value)
    return value


def split_example(template, url):
    """(path params, query params) of an example URL of the path `template`."""
    path, _, query = url.partition("?")
    params = dict(urllib.parse.parse_qsl(query, keep_blank_values=True))
    for t, s in zip(template.split("/"), path.split("/")):
        if t.startswith("{"):
            params[t[1:-1]] = urllib.parse.unquote(s)
    return params


def variants(params, sig, template, paged):
    """The calls to make for one example: as given, verbose, and a second small page."""
    out = [dict(params)]
    if "verbose" in sig and params.get("verbose") != "true":
        out.append(dict(params, verbose="true"))
    if paged and "page" in sig and "limit" in sig:
        out.append(dict(params, page="1", limit="2"))
        out.append(dict(params, page="0", limit="1"))
    return out


def main():
    origin = sys.argv[1].rstrip("/")
    with urllib.request.urlopen(f"{origin}/openapi.json") as r:
        doc = json.load(r)
    base = doc["servers"][0]["url"].rstrip("/")
    conf = ic.Configuration(host=f"{origin}{base}")
    api = ic.IgvfCatalogApi(ic.ApiClient(conf))
    failures, calls = [], 0
    for path, method in METHODS.items():
        op = doc["paths"][path]["get"]
        paged = any(p["name"] == "limit" and "maximum" in p["schema"] for p in op["parameters"])
        fn = getattr(api, method)
        sig = inspect.signature(fn).parameters
        wire = wire_names(api, method)
        made = rows_seen = 0
        for url in op["x-varcat-examples"]:
            for params in variants(split_example(path, url), wire, path, paged):
                missing = [n for n in params if n not in wire]
                if missing:
                    print(f"  skip {url}: the client has no {', '.join(missing)}")
                    continue
                kwargs = {wire[n]: typed(sig[wire[n]].annotation, v) for n, v in params.items()}
                calls += 1
                try:
                    answer = fn(**kwargs, _request_timeout=10.0)
                except Exception as e:  # the client raises pydantic or HTTP errors
                    failures.append(f"{method}({kwargs}): {type(e).__name__}: {e}")
                    continue
                made += 1
                rows = len(answer) if isinstance(answer, list) else 1
                rows_seen += rows
                print(f"ok {method}({kwargs}) -> {rows} row(s)")
        if made == 0 or rows_seen == 0:
            failures.append(f"{path}: no example answered data through {method}")
    for path, (method, status) in POSTS.items():
        assert "post" in doc["paths"][path], f"{path}: no POST in the OpenAPI document"
        calls += 1
        try:
            getattr(api, method)(
                ic.LlmQueryRequest(query="genes near rs58658771", password="x"),
                _request_timeout=10.0,
            )
            failures.append(f"{method}: answered 2xx, expected {status}")
        except ic.ApiException as e:
            if e.status != status:
                failures.append(f"{method}: status {e.status}, expected {status}: {e.body}")
            else:
                print(f"ok {method} -> {status}")
    print(f"\n{calls - len(failures)} passed, {len(failures)} failed")
    for f in failures:
        print("FAILED", f[:2000])
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
