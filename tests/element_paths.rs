//! The IGVF client paths' element paths: the gene regulatory network, enhancer–gene predictions, genes and
//! cell types linked to the elements containing a variant, and element–element pairs. Answers
//! are checked against rows computed here from `testdata/catalog/` (the oracle's documents).

use serde_json::{json, Value};

use crate::oracle::{data, obj, s, GENE};
use crate::util::{assert_bad_request, assert_json_eq, assert_rows, get, get_json};

/// The documents of `coll` passing `keep`, in key order.
fn docs(coll: &str, keep: impl Fn(&Value) -> bool) -> Vec<&'static Value> {
    let mut v: Vec<&Value> = data().docs(coll).iter().filter(|d| keep(d)).collect();
    v.sort_by(|a, b| s(a, "_key").cmp(s(b, "_key")));
    v
}

/// The handle of the gene named `name`.
fn gene(name: &str) -> String {
    let g = docs("genes", |g| s(g, "name") == name);
    format!("genes/{}", s(g[0], "_key"))
}

/// The `/gene-regulatory-network` rows of the edges from promoters of `regulator` and to
/// `response` (either may be absent), CRISPR screen and Perturb-seq only.
fn grn(regulator: Option<&str>, response: Option<&str>) -> Vec<Value> {
    let (reg, resp) = (regulator.map(gene), response.map(gene));
    let mut rows = Vec::new();
    for e in docs("genomic_elements_genes", |e| {
        ["CRISPR screen", "Perturb-seq"].contains(&s(e, "method"))
    }) {
        let Some(el) = data().handle(s(e, "_from")) else {
            continue;
        };
        let promoter = s(el, "promoter_of");
        let (Some(rg), Some(to)) = (data().handle(promoter), data().handle(s(e, "_to"))) else {
            continue;
        };
        if reg.as_deref().is_some_and(|r| r != promoter)
            || resp.as_deref().is_some_and(|r| r != s(e, "_to"))
        {
            continue;
        }
        let eff = docs("genomic_elements_genes", |x| {
            s(x, "_from") == s(e, "_from")
                && s(x, "_to") == promoter
                && x["files_filesets"] == e["files_filesets"]
        });
        let eff = |m: &str| eff.first().map_or(Value::Null, |x| x[m].clone());
        rows.push(json!({
            "response_gene": to["name"],
            "genomic_element": {"chr": el["chr"], "start": el["start"], "end": el["end"],
                                "regulator_gene": rg["name"]},
            "crispr_modality": e["crispr_modality"],
            "class": e["class"],
            "method": e["method"],
            "source": e["source"],
            "biological_context": e["biological_context"],
            "files_filesets": e["files_filesets"],
            "log2FC": e["log2FC"],
            "neg_log10_pvalue": e["neg_log10_pvalue"],
            "neg_log10_pvalue_adj": e["neg_log10_pvalue_adj"],
            "significant": e["significant"],
            "perturbation_efficiency_log2FC": eff("log2FC"),
            "perturbation_efficiency_neg_log10_pvalue": eff("neg_log10_pvalue"),
            "perturbation_efficiency_neg_log10_pvalue_adj": eff("neg_log10_pvalue_adj"),
            "perturbation_efficiency_significant": eff("significant"),
        }));
    }
    rows
}

#[test]
fn test_gene_regulatory_network_matches_the_oracle() {
    let by_regulator = grn(Some("TSTA1"), None);
    assert_eq!(
        by_regulator.len(),
        2,
        "hand count: TSTA1's promoter → TST-B, and → TSTA1 itself (the efficiency edge)"
    );
    assert_eq!(by_regulator[0]["response_gene"], "TST-B");
    assert_eq!(by_regulator[0]["perturbation_efficiency_log2FC"], -2.1);
    assert_json_eq(
        &get_json("/gene-regulatory-network?regulator_gene_name=TSTA1"),
        &Value::Array(by_regulator.clone()),
        "regulator",
    );
    assert_json_eq(
        &get_json("/gene-regulatory-network?regulator_hgnc_id=HGNC:900001&limit=1&page=1"),
        &Value::Array(by_regulator[1..].to_vec()),
        "regulator by HGNC id, second page",
    );
    let both = grn(Some("TSTA1"), Some("TST-B"));
    assert_eq!(both.len(), 1);
    assert_json_eq(
        &get_json(
            "/gene-regulatory-network?regulator_gene_name=TSTA1&response_gene_name=TST-B&method=Perturb-seq&significant=true",
        ),
        &Value::Array(both.clone()),
        "pair",
    );
    assert_json_eq(
        &get_json("/gene-regulatory-network?response_gene_id=ENSG90000000002.1"),
        &Value::Array(grn(None, Some("TST-B"))),
        "response",
    );
    // TSTC's only element edge is a CRISPR screen from an element that is no promoter: no
    // regulator, no row (IGVF answers 500 here).
    assert_rows(
        &get_json("/gene-regulatory-network?response_gene_name=TSTC"),
        &Value::Array(grn(None, Some("TSTC"))),
        "no regulator",
        true,
    );
    for q in [
        "/gene-regulatory-network?regulator_gene_name=TSTA1&method=CRISPR%20screen",
        "/gene-regulatory-network?regulator_gene_name=TSTA1&crispr_modality=knockout",
        "/gene-regulatory-network?regulator_gene_name=TSTA1&neg_log10_pvalue_adj=gt:10",
        "/gene-regulatory-network?regulator_gene_name=TSTA1&files_fileset=IGVFFI9000E2G",
    ] {
        assert_eq!(get_json(q), json!([]), "{q}");
    }
    assert_bad_request(
        "/gene-regulatory-network?method=Perturb-seq",
        &[(
            "at least one of regulator_gene_id, regulator_hgnc_id, regulator_gene_name, regulator_synonym, response_gene_id, response_hgnc_id, response_gene_name, response_synonym must be given",
            &[],
        )],
    );
    for (q, param) in [
        ("regulator_gene_name=TSTA1&significant=false", "significant"),
        ("regulator_gene_name=TSTA1&method=scE2G", "method"),
        ("regulator_gene_name=TSTA1&limit=501", "limit"),
        (
            "regulator_gene_name=TSTA1&organism=Mus%20musculus",
            "organism",
        ),
    ] {
        let r = get(&format!("/gene-regulatory-network?{q}"));
        assert_eq!(r.status, 400, "{q}: {}", r.text());
        assert_eq!(r.json()["issues"][0]["path"], json!([param]), "{q}");
    }
}

/// The predicted elements of gene `g` (edges to it by ENCODE-rE2G or scE2G), as elements.
fn predictions(g: &Value, keep: impl Fn(&Value) -> bool) -> Option<Value> {
    let handle = format!("genes/{}", s(g, "_key"));
    let elements: Vec<Value> = docs("genomic_elements_genes", |e| {
        s(e, "_to") == handle && ["ENCODE-rE2G", "scE2G"].contains(&s(e, "method")) && keep(e)
    })
    .into_iter()
    .map(|e| {
        let el = data().handle(s(e, "_from")).cloned().unwrap_or(Value::Null);
        let cell = if e["cell_annotation"].is_null() {
            e["biological_context"].clone()
        } else {
            e["cell_annotation"].clone()
        };
        json!({
            "id": e["_from"], "cell_type": cell, "score": e["score"], "model": e["source"],
            "dataset": e["source_url"], "element_type": el["type"], "element_chr": el["chr"],
            "element_start": el["start"], "element_end": el["end"], "name": e["inverse_name"],
            "method": e["method"], "class": e["class"], "files_filesets": e["files_filesets"],
        })
    })
    .collect();
    let gene_ref = obj(
        g,
        &[
            ("name", "name"),
            ("_id", "_key"),
            ("start", "start"),
            ("end", "end"),
            ("chr", "chr"),
        ],
    );
    (!elements.is_empty()).then(|| json!({"gene": gene_ref, "elements": elements}))
}

#[test]
fn test_enhancer_gene_predictions_group_by_gene() {
    let tsta1 = data().get("genes", "ENSG90000000001").unwrap();
    let want = predictions(tsta1, |_| true).unwrap();
    assert_eq!(
        want["elements"].as_array().unwrap().len(),
        3,
        "hand count: TSTA1 has one scE2G and two ENCODE-rE2G predictions"
    );
    assert_eq!(
        want["elements"][0]["cell_type"], "T cell",
        "scE2G: cell annotation"
    );
    assert_json_eq(
        &get_json("/enhancer-gene-predictions?gene_name=TSTA1"),
        &json!([want]),
        "TSTA1",
    );
    // Without a gene: every gene with predictions of the method, one group per gene, paged
    // over the groups.
    let all: Vec<Value> = docs("genes", |_| true)
        .into_iter()
        .filter_map(|g| predictions(g, |e| s(e, "method") == "ENCODE-rE2G"))
        .collect();
    assert!(all.len() >= 2, "two genes have ENCODE-rE2G predictions");
    assert_json_eq(
        &get_json("/enhancer-gene-predictions?method=ENCODE-rE2G&limit=500"),
        &Value::Array(all.clone()),
        "method",
    );
    assert_json_eq(
        &get_json("/enhancer-gene-predictions?method=ENCODE-rE2G&limit=1&page=1"),
        &Value::Array(all[1..2].to_vec()),
        "second group",
    );
    assert_json_eq(
        &get_json("/enhancer-gene-predictions?files_fileset=IGVFFI9000SCE"),
        &json!([predictions(tsta1, |e| s(e, "method") == "scE2G").unwrap()]),
        "file set",
    );
    // TSTC has a CRISPR screen edge only; an unknown gene has nothing (IGVF: 404).
    for q in ["gene_name=TSTC", "gene_id=ENSG99999999999"] {
        assert_eq!(
            get_json(&format!("/enhancer-gene-predictions?{q}")),
            json!([]),
            "{q}"
        );
    }
    assert_bad_request(
        "/enhancer-gene-predictions",
        &[(
            "at least one of gene_id, hgnc_id, gene_name, synonym, region, method, files_fileset must be given",
            &[],
        )],
    );
    let r = get("/enhancer-gene-predictions?method=Perturb-seq");
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["issues"][0]["path"], json!(["method"]));
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

const PAIR_ELEMENT: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("chr", "chr"),
    ("start", "start"),
    ("end", "end"),
    ("type", "type"),
    ("source_annotation", "source_annotation"),
];

/// An end of an element pair: the handle, or verbose the element with its promoter gene.
fn pair_end(handle: &str, verbose: bool) -> Value {
    match data().handle(handle) {
        Some(el) if verbose => {
            let mut o = obj(el, PAIR_ELEMENT);
            let promoter = match data().handle(s(el, "promoter_of")) {
                Some(g) => obj(g, GENE),
                None => el["promoter_of"].clone(),
            };
            o.as_object_mut()
                .unwrap()
                .insert("promoter_of".into(), promoter);
            o
        }
        _ => json!(handle),
    }
}

fn element_pairs(keep: impl Fn(&Value) -> bool, verbose: bool) -> Vec<Value> {
    docs("genomic_elements_genomic_elements", keep)
        .into_iter()
        .map(|e| {
            let mut row = json!({
                "perturbed_genomic_element": pair_end(s(e, "_from"), verbose),
                "accessible_genomic_element": pair_end(s(e, "_to"), verbose),
            });
            let rest = obj(
                e,
                &[
                    ("name", "name"),
                    ("inverse_name", "inverse_name"),
                    ("label", "label"),
                    ("class", "class"),
                    ("method", "method"),
                    ("source", "source"),
                    ("source_url", "source_url"),
                    ("files_filesets", "files_filesets"),
                    ("biological_context", "biological_context"),
                    ("biosample_term", "biosample_term"),
                    ("treatments_term_ids", "treatments_term_ids"),
                    ("crispr_modality", "crispr_modality"),
                    ("log2FC", "log2FC"),
                    ("p_value", "p_value"),
                    ("p_value_adj", "p_value_adj"),
                    ("neg_log10_pvalue", "neg_log10_pvalue"),
                    ("neg_log10_pvalue_adj", "neg_log10_pvalue_adj"),
                    ("significant", "significant"),
                ],
            );
            row.as_object_mut()
                .unwrap()
                .extend(rest.as_object().unwrap().clone());
            row
        })
        .collect()
}

#[test]
fn test_element_pairs_match_the_oracle() {
    let from_promoter =
        |e: &Value| s(e, "_from") == "genomic_elements/TSTPROMOTER_chr1_14950_15050";
    let want = element_pairs(from_promoter, false);
    assert_eq!(want.len(), 3, "hand count: TSTA1's promoter to three peaks");
    assert_json_eq(
        &get_json("/genomic-elements/genomic-elements?promoter_gene_name=TSTA1"),
        &Value::Array(want),
        "promoter gene",
    );
    // Verbose: both ends expanded, the promoter's gene too; the missing peak stays a handle.
    let verbose = element_pairs(from_promoter, true);
    assert!(verbose[2]["accessible_genomic_element"].is_string());
    assert_eq!(
        verbose[0]["perturbed_genomic_element"]["promoter_of"]["name"],
        "TSTA1"
    );
    assert_json_eq(
        &get_json(
            "/genomic-elements/genomic-elements?promoter_gene_id=ENSG90000000001&verbose=true",
        ),
        &Value::Array(verbose),
        "verbose",
    );
    assert_json_eq(
        &get_json("/genomic-elements/genomic-elements?accessible_region=chr1:50000-50400&method=Multiome%20Perturb-seq"),
        &Value::Array(element_pairs(
            |e| s(e, "_to") == "genomic_elements/TSTPEAK_chr1_50000_50400",
            false,
        )),
        "accessible region",
    );
    assert_json_eq(
        &get_json("/genomic-elements/genomic-elements?files_fileset=IGVFFI9000MPS&significant=true&log2FC=lt:0&limit=1&page=1"),
        &Value::Array(element_pairs(
            |e| e["significant"] == true && e["log2FC"].as_f64().unwrap() < 0.0,
            false,
        )[1..]
            .to_vec()),
        "thresholds, second page",
    );
    // The perturbed side only matches promoters: a region holding only the peak finds nothing.
    assert_eq!(
        get_json("/genomic-elements/genomic-elements?perturbed_region=chr1:50000-50400"),
        json!([])
    );
    assert_bad_request(
        "/genomic-elements/genomic-elements?significant=true",
        &[(
            "at least one of perturbed_region, accessible_region, promoter_gene_id, promoter_gene_name, files_fileset, method must be given",
            &[],
        )],
    );
    let r = get("/genomic-elements/genomic-elements?method=Perturb-seq");
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["issues"][0]["path"], json!(["method"]));
}
