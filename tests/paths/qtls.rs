//! `/qtls`: by anchor genes or variants with exact filters, errors.

use serde_json::{json, Value};

use crate::oracle::{self, data, s};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get, get_json};

/// `{name, id}` of a handle's record (`""` for what is missing).
fn id_name(handle: Option<&str>) -> Value {
    match handle {
        None => json!({"name": "", "id": ""}),
        Some(h) => {
            let name = data()
                .handle(h)
                .and_then(|d| d["name"].as_str().map(str::to_string))
                .unwrap_or_default();
            json!({"name": name, "id": h.split_once('/').unwrap().1})
        }
    }
}

fn int(v: Value) -> Value {
    match v.as_str().and_then(|x| x.parse::<u64>().ok()) {
        Some(n) => json!(n),
        None => v,
    }
}

fn overlaps(a: &Value, b: &Value) -> bool {
    let n = |d: &Value, f: &str| d[f].as_u64().unwrap_or(0);
    s(a, "chr") == s(b, "chr") && n(a, "start") < n(b, "end") && n(a, "end") > n(b, "start")
}

/// `/qtls` of anchor genes (`genes`) or variants (`variants`), with exact filters.
fn qtls(
    genes: &[&Value],
    variants: &[&Value],
    method: Option<&str>,
    source: Option<&str>,
    context: Option<&str>,
) -> Vec<Value> {
    let handle = |c: &str, d: &Value| format!("{c}/{}", s(d, "_key"));
    let gene_handles: Vec<String> = genes.iter().map(|g| handle("genes", g)).collect();
    let variant_handles: Vec<String> = variants.iter().map(|v| handle("variants", v)).collect();
    let mut rows: Vec<(&Value, &str, Option<String>)> = Vec::new();
    for (coll, methods) in [
        ("variants_genes", &["eQTL", "spliceQTL"][..]),
        ("variants_proteins", &["pQTL"][..]),
        ("variants_genomic_elements", &["caQTL"][..]),
    ] {
        for e in data().docs(coll) {
            if !methods.contains(&s(e, "method"))
                || method.is_some_and(|m| s(e, "method") != m)
                || source.is_some_and(|x| s(e, "source") != x)
                || context.is_some_and(|x| s(e, "biological_context") != x)
            {
                continue;
            }
            let gene = if !genes.is_empty() {
                match coll {
                    "variants_genes" => gene_handles
                        .contains(&s(e, "_to").to_string())
                        .then(|| s(e, "_to").to_string()),
                    "variants_proteins" => gene_handles
                        .contains(&s(e, "gene").to_string())
                        .then(|| s(e, "gene").to_string()),
                    _ => data()
                        .handle(s(e, "_to"))
                        .and_then(|el| genes.iter().find(|g| overlaps(el, g)))
                        .map(|g| handle("genes", g)),
                }
            } else if variant_handles.contains(&s(e, "_from").to_string()) {
                Some(match coll {
                    "variants_genes" => s(e, "_to").to_string(),
                    "variants_proteins" => s(e, "gene").to_string(),
                    _ => {
                        let v = data().handle(s(e, "_from")).unwrap();
                        let pos = v["pos"].as_u64().unwrap();
                        oracle::sorted_by_key(data().docs("genes").iter().collect())
                            .into_iter()
                            .find(|g| {
                                s(g, "chr") == s(v, "chr")
                                    && g["start"].as_u64().unwrap() <= pos
                                    && g["end"].as_u64().unwrap() > pos
                            })
                            .map(|g| handle("genes", g))
                            .unwrap_or_default()
                    }
                })
            } else {
                None
            };
            if let Some(g) = gene {
                rows.push((e, coll, Some(g).filter(|g| !g.is_empty())));
            }
        }
    }
    rows.retain(|r| data().handle(s(r.0, "_from")).is_some());
    rows.sort_by(|a, b| s(a.0, "_key").cmp(s(b.0, "_key")));
    rows.into_iter()
        .map(|(e, coll, gene)| {
            let v = data().handle(s(e, "_from")).unwrap();
            let of = |c: &str, f: &str| if coll == c { e.get(f).cloned().unwrap_or(Value::Null) } else { Value::Null };
            let element = (coll == "variants_genomic_elements")
                .then(|| data().handle(s(e, "_to")))
                .flatten()
                .map_or(Value::Null, |el| {
                    json!({"name": el["name"], "chr": el["chr"], "start": el["start"], "stop": el["end"], "type": el["type"]})
                });
            let study = of("variants_genes", "study").as_str().map_or(Value::Null, |h| {
                json!({"id": h.split_once('/').unwrap().1,
                       "pmid": data().handle(h).map_or(Value::Null, |d| d["pmid"].clone())})
            });
            let effect = if coll == "variants_genes" { e.get("effect_size") } else { e.get("beta") };
            json!({
                "variant": {"chr": v["chr"], "pos": v["pos"], "spdi": v["spdi"], "rsid": v["rsid"], "ca_id": v["ca_id"]},
                "gene": id_name(gene.as_deref()),
                "protein_complex": if coll == "variants_proteins" { id_name(Some(s(e, "_to"))) } else { id_name(None) },
                "genomic_element": element,
                "source": e["source"],
                "method": e["method"],
                "regulatory_type": of("variants_proteins", "regulatory_type"),
                "gene_consequence": of("variants_proteins", "gene_consequence"),
                "biological_context": e.get("biological_context").cloned().unwrap_or(Value::Null),
                "neg_log10_pvalue": e.get("neg_log10_pvalue").cloned().unwrap_or(Value::Null),
                "effect_size": effect.cloned().unwrap_or(Value::Null),
                "posterior_inclusion_probability": of("variants_genes", "posterior_inclusion_probability"),
                "intron_chr": of("variants_genes", "intron_chr"),
                // Stored as integers (the sample has them as strings; the client wants numbers).
                "intron_start": int(of("variants_genes", "intron_start")),
                "intron_end": int(of("variants_genes", "intron_end")),
                "study": study,
                "files_filesets": e.get("files_filesets").cloned().unwrap_or(Value::Null),
            })
        })
        .collect()
}

#[test]
fn test_qtls_match_the_oracle() {
    let tsta1 = data().get("genes", "ENSG90000000001").unwrap();
    let rs900001 = data().get("variants", "NC_000001.11:15000:A:G").unwrap();
    let region: Vec<&Value> = oracle::variants(
        "variants",
        oracle::VariantQuery {
            region: Some(("chr1", 14000, 16000)),
            ..Default::default()
        },
    );
    let none: &[&Value] = &[];
    for (query, genes, variants, method, source, context) in [
        ("gene_name=TSTA1", vec![tsta1], none, None, None, None),
        (
            "gene_id=ENSG90000000001&method=eQTL",
            vec![tsta1],
            none,
            Some("eQTL"),
            None,
            None,
        ),
        (
            "gene_name=TSTA1&method=caQTL",
            vec![tsta1],
            none,
            Some("caQTL"),
            None,
            None,
        ),
        ("rsid=rs900001", vec![], &[rs900001][..], None, None, None),
        (
            "spdi=NC_000001.11:15000:A:G&method=pQTL",
            vec![],
            &[rs900001][..],
            Some("pQTL"),
            None,
            None,
        ),
        (
            "rsid=rs900001&source=AFGR",
            vec![],
            &[rs900001][..],
            None,
            Some("AFGR"),
            None,
        ),
        (
            "rsid=rs900001&biological_context=K562",
            vec![],
            &[rs900001][..],
            None,
            None,
            Some("K562"),
        ),
        (
            "region=chr1:14000-16000",
            vec![],
            &region[..],
            None,
            None,
            None,
        ),
    ] {
        let want = qtls(&genes, variants, method, source, context);
        assert_json_eq(
            &get_json(&format!("/qtls?{query}")),
            &Value::Array(want),
            query,
        );
    }
    // Hand checks: rs900001 has two eQTLs, a spliceQTL, a pQTL (no gene recorded) and a caQTL
    // whose gene is TSTA1, the first gene by key containing the variant.
    let all = get_json("/qtls?rsid=rs900001");
    let methods: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|r| s(r, "method"))
        .collect();
    assert_eq!(methods, ["caQTL", "eQTL", "eQTL", "spliceQTL", "pQTL"]);
    assert_eq!(all[0]["gene"]["id"], "ENSG90000000001");
    assert_eq!(all[4]["protein_complex"]["id"], "ENSP90000000001");
    assert_eq!(all[4]["gene"], json!({"name": "", "id": ""}));
    check_paging(
        "/qtls?rsid=rs900001",
        &qtls(&[], &[rs900001], None, None, None),
        2,
    );
    // A method/source pair that cannot match: nothing.
    assert_rows(
        &get_json("/qtls?rsid=rs900001&method=pQTL&source=AFGR"),
        &Value::Array(qtls(&[], &[rs900001], Some("pQTL"), Some("AFGR"), None)),
        "pQTL from AFGR",
        true,
    );
}

#[test]
fn test_qtls_errors() {
    assert_bad_request(
        "/qtls?method=eQTL",
        &[(
            "at least one of gene_id, gene_name, variant_id, spdi, hgvs, rsid, ca_id, region must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/qtls?gene_name=TSTA1&rsid=rs900001",
        &[(
            "give gene parameters (gene_id, gene_name) or variant identifiers, not both",
            &["rsid"],
        )],
    );
    assert_bad_request(
        "/qtls?rsid=rs900001&region=chr1:1-100",
        &[(
            "give variant identifiers or a region, not both",
            &["region"],
        )],
    );
    assert_bad_request(
        "/qtls?gene_name=TSTA1&region=chr1:1-100",
        &[(
            "give gene parameters (gene_id, gene_name) or a region, not both",
            &["region"],
        )],
    );
    assert_bad_request(
        "/qtls?rsid=rs900001&method=mQTL",
        &[(
            "method must be one of 'eQTL', 'pQTL', 'spliceQTL', 'caQTL', got 'mQTL'",
            &["method"],
        )],
    );
    assert_eq!(get("/qtls?region=chr1:1-20002").status, 400);
    assert_eq!(get("/qtls?rsid=rs900001&limit=101").status, 400);
}
