//! A variant's genes, proteins, elements and biosamples: `/variants/genes`,
//! `/variants/genes/summary`, `/variants/genes-proteins`, `/variants/proteins`,
//! `/variants/genomic-elements/genes`, `/variants/genomic-elements/cell-gene-predictions`,
//! `/variants/biosamples`.

use serde_json::{json, Value};

use crate::oracle::{self, data, id_or, obj, s, VariantQuery, GENE, PROTEIN};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, docs, edges, get, get_json};

#[test]
fn test_variant_genes_proteins() {
    let v = "NC_000001.11:15000:A:G";
    let h = format!("variants/{v}");
    // From the JSONL: genes (any, missing ones as their handle) then resolvable proteins, each
    // target once with its number of edges.
    let mut want: Vec<(String, usize)> = Vec::new();
    for (coll, keep_missing) in [("variants_genes", true), ("variants_proteins", false)] {
        let mut by: std::collections::BTreeMap<String, usize> = Default::default();
        for e in data().docs(coll).iter().filter(|e| s(e, "_from") == h) {
            if keep_missing || data().handle(s(e, "_to")).is_some() {
                *by.entry(s(e, "_to").to_string()).or_default() += 1;
            }
        }
        want.extend(by);
    }
    assert!(want.len() >= 2, "{want:?}");
    let got = get_json(&format!("/variants/genes-proteins?variant_id={v}"));
    assert_eq!(got.as_array().unwrap().len(), 1);
    assert_eq!(got[0]["sequence_variant"]["_id"], v);
    assert_eq!(got[0]["sequence_variant"]["spdi"], v);
    let related = got[0]["related"].as_array().unwrap();
    let seen: Vec<(String, usize)> = related
        .iter()
        .map(|r| {
            let t = if r["gene"].is_null() {
                &r["protein"]
            } else {
                &r["gene"]
            };
            let id = t["_id"].as_str().or(t.as_str()).unwrap().to_string();
            (id, r["sources"].as_array().unwrap().len())
        })
        .collect();
    assert_eq!(seen, want);
    // The same entries as 4.17 gives this variant for its gene.
    let forward = get_json("/genes-proteins/variants?query=TSTA1");
    let row = forward
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["sequence_variant"]["_id"] == v)
        .unwrap();
    for entry in row["related"].as_array().unwrap() {
        assert!(related.contains(entry), "{entry}");
    }
    // Paging applies to `related`.
    let page = get_json(&format!(
        "/variants/genes-proteins?variant_id={v}&page=1&limit=1"
    ));
    assert_eq!(page[0]["related"], json!([related[1].clone()]));
    assert_rows(
        &get_json("/variants/genes-proteins?variant_id=NC_000001.11:1:A:G"),
        &json!([]),
        "unknown",
        true,
    );
    assert_bad_request(
        "/variants/genes-proteins",
        &[("variant_id is required", &["variant_id"])],
    );
}

/// Members `names` of each row.
fn project(rows: &Value, names: &[&str]) -> Value {
    Value::Array(
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                Value::Object(
                    names
                        .iter()
                        .map(|n| (n.to_string(), r[*n].clone()))
                        .collect(),
                )
            })
            .collect(),
    )
}

#[test]
fn test_variants_proteins_both_directions() {
    let names = [
        "sequence_variant",
        "protein_complex",
        "name",
        "is_complex",
        "source",
    ];
    // From the variant.
    let q = "/variants/proteins?spdi=NC_000001.11:15000:A:T";
    let want: Vec<Value> = edges(
        "variants_proteins",
        "_from",
        &["variants/NC_000001.11:15000:A:T".to_string()],
    )
    .into_iter()
    .map(|e| {
        json!({
            "sequence_variant": e["_from"],
            "protein_complex": e["_to"],
            "name": e["name"],
            "is_complex": s(e, "_to").starts_with("complexes/"),
            "source": e["source"],
        })
    })
    .collect();
    assert_json_eq(&project(&get_json(q), &names), &Value::Array(want), q);
    // From the protein: the inverse name; the edges of the protein and of the complexes it
    // belongs to (as IGVF); verbose proteins in the client's ProteinBasic, complexes whole.
    let protein = "proteins/ENSP90000000001";
    let mut targets = vec![protein.to_string()];
    for m in data().docs("complexes_proteins") {
        if s(m, "_to") == protein {
            targets.push(s(m, "_from").to_string());
        }
    }
    assert!(targets.len() > 1, "{targets:?}");
    let rows = edges("variants_proteins", "_to", &targets);
    assert!(rows.iter().any(|e| s(e, "_to").starts_with("complexes/")));
    let q = "/proteins/variants?protein_id=ENSP90000000001";
    let want: Vec<Value> = rows
        .iter()
        .map(|e| {
            json!({
                "sequence_variant": e["_from"],
                "protein_complex": e["_to"],
                "name": e["inverse_name"],
                "is_complex": s(e, "_to").starts_with("complexes/"),
                "source": e["source"],
            })
        })
        .collect();
    assert_json_eq(&project(&get_json(q), &names), &Value::Array(want), q);
    let q = "/proteins/variants?protein_id=ENSP90000000001&verbose=true";
    let got = get_json(q);
    let want: Vec<Value> = rows
        .iter()
        .map(|e| {
            let p = data().handle(s(e, "_to")).unwrap();
            let basic: Vec<(&str, &str)> = PROTEIN
                .iter()
                .copied()
                .filter(|(n, _)| *n != "dbxrefs")
                .collect();
            let complex = s(e, "_to").starts_with("complexes/");
            json!({
                "sequence_variant": s(e, "_from").strip_prefix("variants/").unwrap(),
                "protein_complex": if complex { json!(s(p, "_key")) } else { obj(p, &basic) },
                "name": e["inverse_name"],
                "is_complex": complex,
                "source": e["source"],
            })
        })
        .collect();
    let mut g = project(&got, &names);
    for r in g.as_array_mut().unwrap() {
        r["sequence_variant"] = r["sequence_variant"]["_id"].clone();
        if r["is_complex"] == json!(true) {
            // A complex is the client's Complex object: its key identifies it here.
            r["protein_complex"] = r["protein_complex"]["_id"].clone();
        }
    }
    assert_json_eq(&g, &Value::Array(want), q);
    // A filter on the edges still applies to the complexes' edges.
    let got = get_json("/proteins/variants?protein_id=ENSP90000000001&method=SEMVAR");
    let complex_rows: Vec<&Value> = rows
        .iter()
        .filter(|e| s(e, "method") == "SEMVAR")
        .copied()
        .collect();
    assert_eq!(got.as_array().unwrap().len(), complex_rows.len());
    assert!(!complex_rows.is_empty());
}

#[test]
fn test_variants_genes_forward_name_filters_and_errors() {
    let q = "/variants/genes?rsid=rs900001&name=modulates%20splicing%20of&verbose=true";
    let vars = oracle::variants(
        "variants",
        oracle::VariantQuery {
            rsid: Some("rs900001"),
            ..Default::default()
        },
    );
    let want: Vec<Value> = oracle::edges_from("variants_genes", &vars)
        .into_iter()
        .filter(|e| s(e, "name") == "modulates splicing of")
        .map(|e| {
            json!({
                "gene": id_or(s(e, "_to"), true, GENE),
                "name": e["name"],
                "method": e["method"],
            })
        })
        .collect();
    assert_json_eq(
        &project(&get_json(q), &["gene", "name", "method"]),
        &Value::Array(want),
        q,
    );
    assert_bad_request(
        "/variants/genes?rsid=rs900001&name=nope",
        &[(
            "name must be one of 'modulates expression of', 'modulates splicing of', got 'nope'",
            &["name"],
        )],
    );
    assert_bad_request(
        "/variants/proteins?region=chr1:1-20000",
        &[(
            "region spans 19999 bases; at most 10000 are allowed, got \"chr1:1-20000\"",
            &["region"],
        )],
    );
}

#[test]
fn test_variants_biosamples_by_rsid() {
    let vars = oracle::variants(
        "variants",
        oracle::VariantQuery {
            rsid: Some("rs900001"),
            ..Default::default()
        },
    );
    let want: Vec<Value> = oracle::edges_from("variants_biosamples", &vars)
        .into_iter()
        .map(|e| json!([e["_from"], e["_to"], e["method"]]))
        .collect();
    let q = "/variants/biosamples?rsid=rs900001";
    let got: Vec<Value> = get_json(q)
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["variant"], r["biosample"], r["method"]]))
        .collect();
    assert_json_eq(&json!(got), &json!(want), q);
    assert_bad_request(
        "/variants/biosamples?significant=true",
        &[(
            "at least one of spdi, hgvs, rsid, ca_id, variant_id, region, method, files_fileset must be given",
            &[],
        )],
    );
}

/// The genes a Perturb-seq screen links to the Perturb-seq elements containing the variant.
fn element_genes(variant: &str, nearby: bool) -> Vec<Value> {
    let v = data().get("variants", variant).unwrap();
    let pos = v["pos"].as_i64().unwrap();
    let mut rows = Vec::new();
    for el in docs("genomic_elements", |el| {
        s(el, "chr") == s(v, "chr")
            && el["start"].as_i64().unwrap() <= pos
            && pos < el["end"].as_i64().unwrap()
            && s(el, "method") == "Perturb-seq"
    }) {
        let handle = format!("genomic_elements/{}", s(el, "_key"));
        for e in docs("genomic_elements_genes", |e| {
            s(e, "_from") == handle && s(e, "method") == "Perturb-seq"
        }) {
            let Some(g) = data().handle(s(e, "_to")) else {
                continue;
            };
            let tss = if s(g, "strand") == "-" {
                &g["end"]
            } else {
                &g["start"]
            };
            let tss = tss.as_i64().unwrap();
            let d = (el["start"].as_i64().unwrap() - tss)
                .abs()
                .min((el["end"].as_i64().unwrap() - tss).abs());
            if nearby && (s(g, "chr") != s(v, "chr") || d > 2_000_000) {
                continue;
            }
            let mut row = json!({
                "variant": obj(v, &[("chr", "chr"), ("pos", "pos"), ("ref", "ref"), ("alt", "alt"),
                    ("rsid", "rsid"), ("spdi", "spdi"), ("hgvs", "hgvs"), ("ca_id", "ca_id"),
                    ("_id", "_key")]),
                "distance_to_tss": if nearby { json!(d) } else { Value::Null },
                "genomic_element": obj(el, &[("_id", "_key"), ("name", "name"), ("chr", "chr"),
                    ("start", "start"), ("end", "end"), ("type", "type"), ("source", "source"),
                    ("source_url", "source_url"), ("source_annotation", "source_annotation")]),
                "gene": obj(g, &[("_id", "_key"), ("name", "name"), ("chr", "chr"),
                    ("start", "start"), ("end", "end"), ("strand", "strand")]),
            });
            let edge = obj(
                e,
                &[
                    ("name", "name"),
                    ("label", "label"),
                    ("method", "method"),
                    ("class", "class"),
                    ("source", "source"),
                    ("source_url", "source_url"),
                    ("files_filesets", "files_filesets"),
                    ("biological_context", "biological_context"),
                    ("biosample_term", "biosample_term"),
                    ("crispr_modality", "crispr_modality"),
                    ("log2FC", "log2FC"),
                    ("neg_log10_pvalue", "neg_log10_pvalue"),
                    ("neg_log10_pvalue_adj", "neg_log10_pvalue_adj"),
                    ("p_value", "p_value"),
                    ("p_value_adj", "p_value_adj"),
                    ("effect_size", "effect_size"),
                    ("significant", "significant"),
                ],
            );
            let m = row.as_object_mut().unwrap();
            m.extend(edge.as_object().unwrap().clone());
            rows.push(row);
        }
    }
    // Strongest adjusted p-value first.
    rows.sort_by(|a, b| {
        let p = |r: &Value| {
            r["neg_log10_pvalue_adj"]
                .as_f64()
                .unwrap_or(f64::NEG_INFINITY)
        };
        p(b).partial_cmp(&p(a)).unwrap()
    });
    rows
}

#[test]
fn test_variant_element_genes_match_the_oracle() {
    let v1 = "NC_000001.11:15000:A:G";
    let want = element_genes(v1, true);
    assert_eq!(
        want.len(),
        2,
        "hand count: TSTPROMOTER's two Perturb-seq edges"
    );
    assert_eq!(
        want[0]["gene"]["name"], "TSTA1",
        "adjusted p-value 9.0 first"
    );
    assert_eq!(
        want[1]["distance_to_tss"], 24950,
        "TST-B is on the minus strand: TSS at 40000"
    );
    assert_json_eq(
        &get_json(&format!("/variants/genomic-elements/genes?spdi={v1}")),
        &Value::Array(want.clone()),
        "nearby",
    );
    assert_json_eq(
        &get_json(&format!(
            "/variants/genomic-elements/genes?variant_id={v1}&nearby_genes=false&limit=1&page=1"
        )),
        &Value::Array(element_genes(v1, false)[1..].to_vec()),
        "all genes, second page",
    );
    // rs900004's variant lies in no Perturb-seq element; a biosample filter that matches no edge.
    for q in [
        "spdi=NC_000001.11:25000:C:T",
        "spdi=NC_000001.11:15000:A:G&biosample_term=CL_0000084",
        "spdi=NC_000001.11:15000:A:G&biological_context=K56",
    ] {
        assert_eq!(
            get_json(&format!("/variants/genomic-elements/genes?{q}")),
            json!([]),
            "{q}"
        );
    }
    let r = get("/variants/genomic-elements/genes?spdi=NC_000001.11:12345:C:T");
    assert_eq!(r.status, 404, "{}", r.text());
    let r = get("/variants/genomic-elements/genes?spdi=NC_000001.11:15000:A:G&nearby_genes=yes");
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["issues"][0]["path"], json!(["nearby_genes"]));
    assert_bad_request(
        "/variants/genomic-elements/genes?files_fileset=IGVFFI9000PSQ",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
}

#[test]
fn test_cell_gene_predictions_of_a_variant() {
    let got = get_json("/variants/genomic-elements/cell-gene-predictions?rsid=rs900001");
    // V1 (chr1:15000) lies in TSTELEMENT2 and TSTPROMOTER (TSTELEMENT3 ends at 15000): their
    // edges reach TSTA1 and TST-B (and a missing gene, left out), all in K562.
    let v = data().get("variants", "NC_000001.11:15000:A:G").unwrap();
    let want = json!({
        "sequence variant": obj(v, &[("chr", "chr"), ("pos", "pos"), ("ref", "ref"), ("alt", "alt"),
            ("rsid", "rsid"), ("spdi", "spdi"), ("hgvs", "hgvs"), ("ca_id", "ca_id"), ("_id", "_key")]),
        "predictions": {
            "cell_types": ["K562"],
            "genes": [
                {"gene_name": "TSTA1", "id": "genes/ENSG90000000001"},
                {"gene_name": "TST-B", "id": "genes/ENSG90000000002"},
            ],
        },
    });
    assert_json_eq(&got, &want, "rs900001");
    // A region: its first variant by key.
    assert_json_eq(
        &get_json("/variants/genomic-elements/cell-gene-predictions?region=chr1:14990-15010"),
        &want,
        "region",
    );
    let r = get("/variants/genomic-elements/cell-gene-predictions?rsid=rs999999999");
    assert_eq!(r.status, 404, "{}", r.text());
    let r = get("/variants/genomic-elements/cell-gene-predictions?region=chr1:1-20001");
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["issues"][0]["path"], json!(["region"]));
    assert_bad_request(
        "/variants/genomic-elements/cell-gene-predictions",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id, region must be given",
            &[],
        )],
    );
}

fn qtl_summary(vars: &[&Value], files: Option<&str>) -> Vec<Value> {
    oracle::edges_from("variants_genes", vars)
        .into_iter()
        .filter(|e| files.is_none_or(|f| s(e, "files_filesets") == format!("files_filesets/{f}")))
        .map(|e| {
            let chr = e.get("chr").and_then(Value::as_str).map(str::to_string)
                .unwrap_or_else(|| s(data().handle(s(e, "_from")).unwrap(), "chr").to_string());
            let gene = data().handle(s(e, "_to")).map_or(Value::Null, |g| json!({
                "gene_name": g["name"], "gene_id": g["_key"], "gene_start": g["start"], "gene_end": g["end"]}));
            json!({"qtl_type": e["label"], "neg_log10_pvalue": e.get("neg_log10_pvalue"), "chr": chr,
                "biological_context": e.get("biological_context"), "effect_size": e.get("effect_size"), "gene": gene,
                "name": e["name"], "files_filesets": e.get("files_filesets")})
        })
        .collect()
}

#[test]
fn test_variant_genes_summary() {
    let q = VariantQuery::default;
    for (query, vq, files) in [
        (
            "rsid=rs900001",
            VariantQuery {
                rsid: Some("rs900001"),
                ..q()
            },
            None,
        ),
        (
            "variant_id=NC_000001.11:25000:C:T",
            VariantQuery {
                variant_id: Some("NC_000001.11:25000:C:T"),
                ..q()
            },
            None,
        ),
        (
            "rsid=rs900004&files_fileset=IGVFFI9000EBI",
            VariantQuery {
                rsid: Some("rs900004"),
                ..q()
            },
            Some("IGVFFI9000EBI"),
        ),
        (
            "spdi=NC_000010.11:79347444::CCTCCTCAGG",
            VariantQuery {
                spdi: Some("NC_000010.11:79347444::CCTCCTCAGG"),
                ..q()
            },
            None,
        ),
    ] {
        let vars = oracle::variants("variants", vq);
        let want = qtl_summary(&vars, files);
        assert!(!want.is_empty(), "{query}");
        assert_json_eq(
            &get_json(&format!("/variants/genes/summary?{query}")),
            &Value::Array(want),
            query,
        );
    }
    // The EBI row has no chr of its own: it comes from the variant.
    let rows = get_json("/variants/genes/summary?rsid=rs900004");
    assert!(rows.as_array().unwrap().iter().all(|r| r["chr"] == "chr1"));
    // limit and page are honoured (IGVF fixes the page size at 25).
    assert_eq!(
        get_json("/variants/genes/summary?rsid=rs900001&limit=1&page=2")
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let r = get("/variants/genes/summary?rsid=rs1");
    assert_eq!(
        (r.status, r.json()),
        (
            404,
            json!({"message": "variant not found", "code": "NOT_FOUND"})
        )
    );
    assert_eq!(
        get("/variants/genes/summary?rsid=rs900001&organism=Mus%20musculus").status,
        404
    );
    assert_eq!(
        get_json("/variants/genes/summary?rsid=rs580000001&organism=Mus%20musculus"),
        json!([])
    );
    assert_bad_request(
        "/variants/genes/summary",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/variants/genes/summary?region=chr1:1-2",
        &[
            ("unknown parameter `region`", &["region"]),
            (
                "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
                &[],
            ),
        ],
    );
}
