//! The IGVF client paths' gene and variant summaries: `/genes/diseases`, `/variants/summary`,
//! `/variants/gnomad-alleles` — answers against expectations computed here from
//! `testdata/catalog/`, errors naming the parameter, paging.

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, id_or, obj, s, GENE, TERM};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, check_paging, get, get_json};

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

fn put(m: &mut Map<String, Value>, k: &str, v: Value) {
    m.insert(k.to_string(), v);
}

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
