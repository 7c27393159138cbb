//! `/variants/summary` and `/variants/gnomad-alleles`: answers against expectations computed
//! here from `testdata/catalog/`, errors naming the parameter.

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, s};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, get, get_json, put};

/// The gene (protein-coding with `coding`) nearest to `pos` on `chr` by IGVF's distance (to the
/// nearer end): the overlapping gene of least distance, else the nearer of the closest gene on
/// each side (the left one on a tie); ties between genes by key.
fn nearest(genes: &str, chr: &str, pos: u64, coding: bool) -> Value {
    let num = |g: &Value, f: &str| g[f].as_u64().unwrap();
    let dist = |g: &Value| {
        pos.abs_diff(num(g, "start"))
            .min(pos.abs_diff(num(g, "end")))
    };
    let on: Vec<&Value> = oracle::sorted_by_key(
        data()
            .docs(genes)
            .iter()
            .filter(|g| s(g, "chr") == chr)
            .filter(|g| !coding || s(g, "gene_type") == "protein_coding")
            .collect(),
    );
    let least = |v: Vec<&'static Value>| v.into_iter().min_by_key(|g| dist(g));
    let over = least(
        on.iter()
            .copied()
            .filter(|g| num(g, "start") <= pos && num(g, "end") > pos)
            .collect(),
    );
    let pick = over.or_else(|| {
        let left_end = on.iter().map(|g| num(g, "end")).filter(|&e| e <= pos).max();
        let right_start = on
            .iter()
            .map(|g| num(g, "start"))
            .filter(|&st| st > pos)
            .min();
        let left = on.iter().copied().find(|g| Some(num(g, "end")) == left_end);
        let right = on
            .iter()
            .copied()
            .find(|g| Some(num(g, "start")) == right_start);
        match (left, right) {
            (Some(l), Some(r)) if dist(r) < dist(l) => Some(r),
            (l, r) => l.or(r),
        }
    });
    match pick {
        Some(g) => json!({
            "gene_name": g["name"], "id": g["_key"], "start": g["start"], "end": g["end"],
            "distance": dist(g),
        }),
        None => json!({"gene_name": null, "id": "", "start": 0, "end": 0, "distance": 0}),
    }
}

/// `/variants/summary` of variant document `v` (of `genes`' organism).
fn variant_summary(v: &Value, genes: &str, igvf_only: bool) -> Value {
    let ann = oracle::annotations(v);
    let raw = |k: &str| v["annotations"].get(k).cloned().unwrap_or(Value::Null);
    let mut gnomad = Map::new();
    for k in ["total", "male", "female", "raw"] {
        put(&mut gnomad, k, ann[format!("gnomad_af_{k}")].clone());
    }
    for (name, pop) in [
        ("african", "afr"),
        ("amish", "ami"),
        ("ashkenazi_jewish", "asj"),
        ("east_asian", "eas"),
        ("finnish", "fin"),
        ("native_american", "amr"),
        ("non_finnish_european", "nfe"),
        ("other", "oth"),
        ("south_asian", "sas"),
    ] {
        let f = |suffix: &str| ann[format!("gnomad_af_{pop}{suffix}")].clone();
        put(
            &mut gnomad,
            name,
            json!({"total": f(""), "male": f("_male"), "female": f("_female")}),
        );
    }
    let handle = format!(
        "{}/{}",
        if genes == "genes" {
            "variants"
        } else {
            "mm_variants"
        },
        s(v, "_key")
    );
    let mut annotations = Map::new();
    let mut all = 0;
    for (name, coll, contexts) in [
        ("genes", "variants_genes", true),
        ("drugs", "variants_drugs", false),
        ("proteins", "variants_proteins", true),
        ("diseases", "variants_diseases", false),
        ("phenotypes", "variants_phenotypes", true),
        ("biosamples", "variants_biosamples", true),
        ("genomic_elements", "variants_genomic_elements", true),
    ] {
        let mut counts: std::collections::BTreeMap<(Option<String>, Option<String>), u64> =
            Default::default();
        for e in data().docs(coll).iter().filter(|e| s(e, "_from") == handle) {
            if igvf_only && s(e, "source") != "IGVF" {
                continue;
            }
            let text = |f: &str| e.get(f).and_then(Value::as_str).map(str::to_string);
            let context = if contexts {
                text("biological_context")
            } else {
                None
            };
            *counts.entry((text("method"), context)).or_default() += 1;
        }
        let total: u64 = counts.values().sum();
        all += total;
        let list: Vec<Value> = counts
            .into_iter()
            .map(|((m, b), n)| json!({"method": m, "biological_context": b, "count": n}))
            .collect();
        put(
            &mut annotations,
            name,
            json!({"total": total, "methods_and_contexts": list}),
        );
    }
    put(&mut annotations, "total", json!(all));
    let pos = v["pos"].as_u64().unwrap();
    json!({
        "summary": {
            "rsid": v["rsid"], "varinfo": raw("varinfo"), "spdi": v["spdi"], "hgvs": v["hgvs"],
            "ca_id": v["ca_id"], "ref": v["ref"], "alt": v["alt"], "pos": v["pos"],
        },
        "allele_frequencies_gnomad": gnomad,
        "cadd_scores": {"raw": raw("cadd_rawscore"), "phread": raw("cadd_phred")},
        "nearest_genes": {
            "nearestCodingGene": nearest(genes, s(v, "chr"), pos, true),
            "nearestGene": nearest(genes, s(v, "chr"), pos, false),
        },
        "annotations": annotations,
    })
}

#[test]
fn test_variant_summary_matches_the_oracle() {
    let human = |k: &str| data().get("variants", k).unwrap();
    for (query, v, igvf_only) in [
        (
            "spdi=NC_000001.11:15000:A:G",
            human("NC_000001.11:15000:A:G"),
            false,
        ),
        (
            "rsid=rs900001&igvf_only=true",
            human("NC_000001.11:15000:A:G"),
            true,
        ),
        (
            "variant_id=NC_000020.11:9564577:A:T",
            human("NC_000020.11:9564577:A:T"),
            false,
        ),
        (
            "hgvs=NC_000020.11:g.9564578A%3ET",
            human("NC_000020.11:9564577:A:T"),
            false,
        ),
        (
            "ca_id=CA900000001",
            human("NC_000020.11:9564577:A:T"),
            false,
        ),
        // chr3 has no gene: the client still requires both nearest-gene objects.
        (
            "spdi=NC_000003.12:500:G:C",
            human("NC_000003.12:500:G:C"),
            false,
        ),
    ] {
        let got = get_json(&format!("/variants/summary?{query}"));
        assert_json_eq(&got, &variant_summary(v, "genes", igvf_only), query);
    }
    let mouse = data()
        .get("mm_variants", "NC_000067.7:3300000:G:A")
        .unwrap();
    assert_json_eq(
        &get_json("/variants/summary?organism=Mus%20musculus&rsid=rs580000001"),
        &variant_summary(mouse, "mm_genes", false),
        "mouse",
    );
    // Hand checks: the rich test variant has edges of every type, the FAVOR one its CADD.
    let rich = get_json("/variants/summary?spdi=NC_000001.11:15000:A:G");
    assert_eq!(rich["annotations"]["total"], 10);
    assert_eq!(
        rich["annotations"]["genes"]["methods_and_contexts"][0]["method"],
        "eQTL"
    );
    let favor = get_json("/variants/summary?variant_id=NC_000020.11:9564577:A:T");
    assert_eq!(favor["cadd_scores"]["phread"], 7.186);
    assert_eq!(favor["summary"]["varinfo"], "20-9564578-A-T");
    assert_eq!(
        favor["nearest_genes"]["nearestCodingGene"]["gene_name"],
        "PAK5"
    );
}

#[test]
fn test_variant_summary_errors() {
    assert_bad_request(
        "/variants/summary?igvf_only=true",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
    let r = get("/variants/summary?spdi=NC_000001.11:1:A:G");
    assert_eq!(r.status, 404, "{}", r.text());
    assert_eq!(get("/variants/summary?spdi=chr1-15000").status, 400);
    assert_eq!(
        get("/variants/summary?rsid=rs900001&igvf_only=maybe").status,
        400
    );
}

/// `/variants/gnomad-alleles` of a region: the header and a row per human variant by
/// (position, key), or nothing.
fn gnomad_alleles(chr: &str, start: u64, end: u64) -> Value {
    let mut vs: Vec<&Value> = oracle::variants(
        "variants",
        oracle::VariantQuery {
            region: Some((chr, start, end)),
            ..Default::default()
        },
    );
    vs.sort_by_key(|v| v["pos"].as_u64().unwrap());
    let pops = ["afr", "ami", "amr", "asj", "eas", "fin", "nfe", "sas"];
    let mut rows = vec![json!([
        "chr", "pos", "afr", "ami", "amr", "asj", "eas", "fin", "nfe", "sas"
    ])];
    for v in &vs {
        let mut row = vec![v["chr"].clone(), v["pos"].clone()];
        let ann = oracle::annotations(v);
        row.extend(pops.iter().map(|p| ann[format!("gnomad_af_{p}")].clone()));
        rows.push(Value::Array(row));
    }
    if vs.is_empty() {
        json!([])
    } else {
        Value::Array(rows)
    }
}

#[test]
fn test_gnomad_alleles_match_the_oracle() {
    for (chr, start, end) in [("chr1", 14500, 15500), ("chr20", 9564000, 9565000)] {
        let q = format!("/variants/gnomad-alleles?region={chr}:{start}-{end}");
        assert_json_eq(&get_json(&q), &gnomad_alleles(chr, start, end), &q);
    }
    // Hand check: the two test variants at chr1:15000, the first with its gnomAD values.
    let t = get_json("/variants/gnomad-alleles?region=chr1:14500-15500");
    assert_eq!(t.as_array().unwrap().len(), 3);
    assert_eq!(
        t[1],
        json!(["chr1", 15000, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.11, 0.13])
    );
    assert_rows(
        &get_json("/variants/gnomad-alleles?region=chr9:1-100"),
        &gnomad_alleles("chr9", 1, 100),
        "no variant: no header either",
        true,
    );
}

#[test]
fn test_gnomad_alleles_errors() {
    assert_bad_request(
        "/variants/gnomad-alleles",
        &[("region is required", &["region"])],
    );
    assert_bad_request(
        "/variants/gnomad-alleles?region=chr1:1-1002",
        &[(
            "region spans 1001 bases; at most 1000 are allowed, got \"chr1:1-1002\"",
            &["region"],
        )],
    );
}
