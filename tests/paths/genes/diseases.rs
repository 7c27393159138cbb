//! `/genes/diseases`: answers against expectations computed here from `testdata/catalog/`,
//! errors naming the parameter, paging.

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, id_or, obj, s, GENE, TERM};
use crate::util::{
    assert_bad_request, assert_json_eq, assert_rows, check_paging, get, get_json, put,
};

const MINIMAL: &[(&str, &str)] = &[
    ("chr", "chr"),
    ("pos", "pos"),
    ("ref", "ref"),
    ("alt", "alt"),
    ("rsid", "rsid"),
    ("spdi", "spdi"),
    ("hgvs", "hgvs"),
];

const SHORT: &[(&str, &str)] = &[
    ("chr", "chr"),
    ("pos", "pos"),
    ("ref", "ref"),
    ("alt", "alt"),
    ("rsid", "rsid"),
    ("spdi", "spdi"),
    ("hgvs", "hgvs"),
    ("ca_id", "ca_id"),
    ("_id", "_key"),
];

/// The assertions (`variants_diseases`, key order) of ClinGen edges `vdg` naming `disease`.
fn assertions<'a>(vdg: &[&'a Value], disease: &str) -> Vec<&'a Value> {
    let mut out: Vec<&Value> = vdg
        .iter()
        .filter_map(|x| data().handle(s(x, "_from")))
        .filter(|a| s(a, "_to") == disease)
        .collect();
    out.sort_by_key(|a| s(a, "_key").to_string());
    out.dedup_by_key(|a| s(a, "_key").to_string());
    out
}

/// `/genes/diseases` for one gene handle: GenCC/Orphanet edges (key order), then one row per
/// (disease) of the gene's ClinGen edges (first edge by key).
fn genes_diseases(gene: &str, source: Option<&str>, verbose: bool) -> Vec<Value> {
    let mut rows = Vec::new();
    if source != Some("ClinGen") {
        let dg = oracle::sorted_by_key(
            data()
                .docs("diseases_genes")
                .iter()
                .filter(|e| s(e, "_to") == gene && source.is_none_or(|x| s(e, "source") == x))
                .collect(),
        );
        for e in dg {
            let mut m = Map::new();
            for k in ["pmids", "term_name"] {
                put(&mut m, k, e.get(k).cloned().unwrap_or(Value::Null));
            }
            put(
                &mut m,
                "gene_name",
                e.get("gene_symbol").cloned().unwrap_or(Value::Null),
            );
            for k in [
                "association_type",
                "association_status",
                "sgc_id",
                "hgnc",
                "classification",
                "moi_id",
                "moi_name",
                "submitter",
                "class",
                "method",
                "label",
                "files_filesets",
                "source",
                "source_url",
            ] {
                put(&mut m, k, e.get(k).cloned().unwrap_or(Value::Null));
            }
            put(&mut m, "gene", id_or(s(e, "_to"), verbose, GENE));
            put(&mut m, "disease", id_or(s(e, "_from"), verbose, TERM));
            // 4.6's build-time ClinGen members of the same pair.
            let vd: Vec<&Value> = oracle::sorted_by_key(
                data()
                    .docs("variants_diseases")
                    .iter()
                    .filter(|a| s(a, "_to") == s(e, "_from") && s(a, "gene_id") == gene)
                    .collect(),
            );
            let inheritance = vd.iter().find_map(|a| {
                data()
                    .docs("variants_diseases_genes")
                    .iter()
                    .find(|x| s(x, "_from") == format!("variants_diseases/{}", s(a, "_key")))
                    .and_then(|x| x.get("inheritance_mode").cloned())
            });
            let inheritance = inheritance.unwrap_or(Value::Null);
            put(&mut m, "inheritance_mode", inheritance.clone());
            let variants: Vec<Value> = vd
                .iter()
                .filter_map(|a| data().handle(s(a, "_from")))
                .map(|v| obj(v, MINIMAL))
                .collect();
            put(
                &mut m,
                "variants",
                if variants.is_empty() {
                    Value::Null
                } else {
                    Value::Array(variants)
                },
            );
            put(&mut m, "name", json!(s(e, "inverse_name")));
            put(
                &mut m,
                "gene_symbol",
                e.get("gene_symbol").cloned().unwrap_or(Value::Null),
            );
            put(
                &mut m,
                "Orphanet_association_type",
                e.get("association_type").cloned().unwrap_or(Value::Null),
            );
            put(&mut m, "ClinGen_inheritance_mode", inheritance);
            rows.push(Value::Object(m));
        }
    }
    if source.is_none_or(|x| x == "ClinGen") {
        let vdg: Vec<&Value> = oracle::sorted_by_key(
            data()
                .docs("variants_diseases_genes")
                .iter()
                .filter(|e| s(e, "_to") == gene)
                .collect(),
        );
        let mut seen = Vec::new();
        for e in &vdg {
            let Some(disease) = data()
                .handle(s(e, "_from"))
                .map(|a| s(a, "_to").to_string())
            else {
                continue;
            };
            if seen.contains(&disease) {
                continue;
            }
            seen.push(disease.clone());
            let group = assertions(&vdg, &disease);
            let mut pmids: Vec<Value> = Vec::new();
            for a in &group {
                for p in a["pmids"].as_array().into_iter().flatten() {
                    if !pmids.contains(p) {
                        pmids.push(p.clone());
                    }
                }
            }
            let gene_name = data()
                .handle(gene)
                .map_or(Value::Null, |g| g["name"].clone());
            let mut m = Map::new();
            put(&mut m, "pmids", Value::Array(pmids));
            put(
                &mut m,
                "term_name",
                data()
                    .handle(&disease)
                    .map_or(Value::Null, |t| t["name"].clone()),
            );
            put(&mut m, "gene_name", gene_name.clone());
            for k in [
                "association_type",
                "association_status",
                "sgc_id",
                "hgnc",
                "classification",
                "moi_id",
                "moi_name",
                "submitter",
            ] {
                put(&mut m, k, Value::Null);
            }
            for k in [
                "class",
                "method",
                "label",
                "files_filesets",
                "source",
                "source_url",
            ] {
                put(&mut m, k, e.get(k).cloned().unwrap_or(Value::Null));
            }
            put(&mut m, "gene", id_or(gene, verbose, GENE));
            put(&mut m, "disease", id_or(&disease, verbose, TERM));
            let inheritance = e.get("inheritance_mode").cloned().unwrap_or(Value::Null);
            put(&mut m, "inheritance_mode", inheritance.clone());
            let variants = verbose.then(|| {
                group
                    .iter()
                    .filter_map(|a| data().handle(s(a, "_from")))
                    .map(|v| obj(v, SHORT))
                    .collect::<Vec<_>>()
            });
            put(
                &mut m,
                "variants",
                variants.map_or(Value::Null, Value::Array),
            );
            put(&mut m, "name", json!(s(e, "inverse_name")));
            put(&mut m, "gene_symbol", gene_name);
            put(&mut m, "Orphanet_association_type", Value::Null);
            put(&mut m, "ClinGen_inheritance_mode", inheritance);
            rows.push(Value::Object(m));
        }
    }
    rows
}

#[test]
fn test_genes_diseases_match_the_oracle() {
    let tsta1 = "genes/ENSG90000000001";
    for verbose in [false, true] {
        for (query, source) in [
            ("gene_name=TSTA1", None),
            ("gene_id=ENSG90000000001", None),
            ("hgnc_id=HGNC:900001", None),
            ("synonym=TSTALPHA", None),
            ("gene_name=TSTA1&source=GenCC", Some("GenCC")),
            ("gene_name=TSTA1&source=Orphanet", Some("Orphanet")),
            ("gene_name=TSTA1&source=ClinGen", Some("ClinGen")),
            ("gene_name=TSTA1&region=chr1:10000-10010", None),
        ] {
            let want = genes_diseases(tsta1, source, verbose);
            assert_json_eq(
                &get_json(&format!("/genes/diseases?{query}&verbose={verbose}")),
                &Value::Array(want),
                query,
            );
        }
    }
    // Hand check: one Orphanet and one GenCC edge (key order), then the ClinGen pair of VDI001.
    let all = get_json("/genes/diseases?gene_name=TSTA1&verbose=true");
    let sources: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|r| s(r, "source"))
        .collect();
    assert_eq!(sources, ["Orphanet", "GenCC", "ClinGen"]);
    assert_eq!(all[2]["variants"][0]["_id"], "NC_000001.11:15000:A:G");
    assert_eq!(all[2]["disease"]["term_id"], "MONDO_9000001");
    assert_eq!(all[2]["inheritance_mode"], "Autosomal dominant inheritance");
    check_paging(
        "/genes/diseases?gene_name=TSTA1",
        &genes_diseases(tsta1, None, false),
        2,
    );
    // A gene outside the region: nothing.
    assert_rows(
        &get_json("/genes/diseases?gene_name=TSTA1&region=chr2:1-100"),
        &json!([]),
        "region elsewhere",
        true,
    );
}

#[test]
fn test_genes_diseases_errors() {
    assert_bad_request(
        "/genes/diseases?source=GenCC",
        &[(
            "at least one of gene_id, hgnc_id, gene_name, synonym, region must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/genes/diseases?gene_name=TSTA1&source=OMIM",
        &[(
            "source must be one of 'GenCC', 'Orphanet', 'ClinGen', got 'OMIM'",
            &["source"],
        )],
    );
    assert_bad_request(
        "/genes/diseases?gene_name=TSTA1&limit=101",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
    assert_eq!(
        get("/genes/diseases?gene_name=TSTA1&organism=Mus%20musculus").status,
        400
    );
}
