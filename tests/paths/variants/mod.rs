//! `/variants` (node look-ups), `/variants/freq` (each identifier alone and combined, region
//! edges, inclusive bounds, paging, errors), `/variants/region-summary` and
//! `/variants/nearest-genes`. The other `/variants/...` paths have files of their own in this
//! folder.

mod coding_variants;
mod genes;
mod ld;
mod phenotypes;
mod predictions;
mod summary;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::oracle::{self, data, obj, s, VariantQuery, GENE};
use crate::util::{
    assert_bad_request, assert_json_eq, assert_rows, check, check_paging, get_json, has, q,
};

#[test]
fn test_variants_match_the_oracle() {
    let full = |v: &&Value| oracle::variant_full(v);
    let q = oracle::VariantQuery {
        rsid: Some("rs900001"),
        ..Default::default()
    };
    check(
        "/variants?rsid=rs900001",
        oracle::variants("variants", q).iter().map(full).collect(),
    );
    // The region is not capped at 10 kb here (IGVF does not cap /variants).
    let q = oracle::VariantQuery {
        region: Some(("chr20", 9_000_000, 10_000_000)),
        ..Default::default()
    };
    let all: Vec<Value> = oracle::variants("variants", q).iter().map(full).collect();
    check_paging("/variants?region=chr20:9000000-10000000", &all, 2);
    let q = oracle::VariantQuery {
        region: Some(("chr1", 3_000_000, 4_000_000)),
        ..Default::default()
    };
    check(
        "/variants?organism=Mus%20musculus&region=chr1:3000000-4000000&mouse_strain=A_J",
        oracle::variants("mm_variants", q)
            .into_iter()
            .filter(|v| has(v, "strain", "A_J"))
            .map(oracle::variant_full)
            .collect(),
    );
    assert_bad_request(
        "/variants?organism=Mus%20musculus&region=chr1:3000000-4000000&GENCODE_category=coding",
        &[(
            "GENCODE_category applies to Homo sapiens only",
            &["GENCODE_category"],
        )],
    );
    assert_bad_request(
        "/variants?region=chr1:1-100000&mouse_strain=A_J",
        &[(
            "mouse_strain applies to Mus musculus only",
            &["mouse_strain"],
        )],
    );
    let r = crate::util::get("/variants?GENCODE_category=coding");
    assert_eq!(
        r.status,
        400,
        "an identifier or a region is required: {}",
        r.text()
    );
}

fn freq_row(v: &Value) -> Value {
    oracle::variant_full(v)
}

fn freq(
    q: VariantQuery<'_>,
    source: &str,
    min: f64,
    max: f64,
    gencode: Option<&str>,
) -> Vec<Value> {
    oracle::variants("variants", q)
        .into_iter()
        .filter(|v| oracle::af(v, source).is_some_and(|x| min <= x && x <= max))
        .filter(|v| gencode.is_none_or(|g| v["annotations"]["funseq_description"] == g))
        .map(freq_row)
        .collect()
}

#[test]
fn test_freq_each_identifier_alone_and_combined() {
    let cases: Vec<(&str, VariantQuery)> = vec![
        (
            "variant_id=NC_000001.11:15000:A:T",
            VariantQuery {
                variant_id: Some("NC_000001.11:15000:A:T"),
                ..q()
            },
        ),
        (
            "spdi=NC_000001.11:15000:A:G",
            VariantQuery {
                spdi: Some("NC_000001.11:15000:A:G"),
                ..q()
            },
        ),
        (
            "hgvs=NC_000001.11:g.25011_25012del",
            VariantQuery {
                hgvs: Some("NC_000001.11:g.25011_25012del"),
                ..q()
            },
        ),
        (
            "ca_id=CA800003",
            VariantQuery {
                ca_id: Some("CA800003"),
                ..q()
            },
        ),
        (
            "rsid=rs6086938",
            VariantQuery {
                rsid: Some("rs6086938"),
                ..q()
            },
        ),
        (
            "rsid=rs900002&ca_id=CA800002",
            VariantQuery {
                rsid: Some("rs900002"),
                ca_id: Some("CA800002"),
                ..q()
            },
        ),
        (
            "spdi=NC_000001.11:15500::AAA&hgvs=NC_000001.11:g.15500_15501insAAA",
            VariantQuery {
                spdi: Some("NC_000001.11:15500::AAA"),
                hgvs: Some("NC_000001.11:g.15500_15501insAAA"),
                ..q()
            },
        ),
    ];
    for (query, vq) in cases {
        let want = freq(vq, "bravo_af", 0.0, 1.0, None);
        assert_eq!(want.len(), 1, "{query}");
        assert_json_eq(
            &get_json(&format!("/variants/freq?source=bravo_af&{query}")),
            &Value::Array(want),
            query,
        );
    }
    // Identifiers are ANDed: two that name different variants find nothing.
    assert_eq!(
        get_json("/variants/freq?source=bravo_af&rsid=rs900001&ca_id=CA800002"),
        json!([])
    );
    assert_eq!(
        get_json("/variants/freq?source=bravo_af&rsid=rs1"),
        json!([])
    );
}

#[test]
fn test_freq_multi_rsid_variants() {
    // One variant with two rsids, found by each.
    for r in ["rs900002", "rs900003"] {
        let got = get_json(&format!("/variants/freq?source=bravo_af&rsid={r}"));
        assert_eq!(got.as_array().unwrap().len(), 1);
        assert_eq!(got[0]["rsid"], json!(["rs900002", "rs900003"]));
    }
    // One rsid on two variants: the one with no frequency is excluded by the AF filter, so
    // ask with a source it has, and check the identifier alone through 4.14-independent data.
    let both = oracle::variants(
        "variants",
        VariantQuery {
            rsid: Some("rs900004"),
            ..q()
        },
    );
    assert_eq!(both.len(), 2);
    let got = get_json("/variants/freq?source=bravo_af&rsid=rs900004");
    assert_json_eq(
        &got,
        &Value::Array(freq(
            VariantQuery {
                rsid: Some("rs900004"),
                ..q()
            },
            "bravo_af",
            0.0,
            1.0,
            None,
        )),
        "rs900004",
    );
}

#[test]
fn test_freq_region_edges_and_paging() {
    let region = ("chr1", 15000, 25000);
    let want = freq(
        VariantQuery {
            region: Some(region),
            ..q()
        },
        "bravo_af",
        0.0,
        1.0,
        None,
    );
    // The variant at the start is in, the one at the end is out.
    assert!(want.iter().any(|v| v["pos"] == 15000));
    assert!(!want.iter().any(|v| v["pos"] == 25000));
    check_paging(
        "/variants/freq?source=bravo_af&region=chr1:15000-25000",
        &want,
        2,
    );
    // 10 000 bases are allowed, 10 001 are not.
    get_json("/variants/freq?source=bravo_af&region=chr1:15000-25000");
    assert_bad_request(
        "/variants/freq?source=bravo_af&region=chr1:15000-25001",
        &[(
            "region spans 10001 bases; at most 10000 are allowed, got \"chr1:15000-25001\"",
            &["region"],
        )],
    );
    let fixture = freq(
        VariantQuery {
            region: Some(("chr20", 9564500, 9574500)),
            ..q()
        },
        "gnomad_af_nfe",
        0.001,
        0.5,
        None,
    );
    assert!(fixture.len() > 5);
    check_paging("/variants/freq?source=gnomad_af_nfe&region=chr20:9564500-9574500&minimum_af=0.001&maximum_af=0.5", &fixture, 5);
    assert_eq!(
        get_json("/variants/freq?source=bravo_af&region=chrQ:1-2"),
        json!([])
    );
}

#[test]
fn test_freq_bounds_are_inclusive() {
    let all = Some(("chr1", 15000, 25000));
    for (min, max, want_positions) in [
        (0.5, 0.5, vec![15000]), // exactly the bound, both sides
        (0.0, 0.0, vec![]),      // V4 (0.0) lies at 25010, outside this region
        (0.05, 0.1, vec![15000, 15500]),
    ] {
        let got = get_json(&format!("/variants/freq?source=bravo_af&region=chr1:15000-25000&minimum_af={min}&maximum_af={max}"));
        let want = freq(
            VariantQuery { region: all, ..q() },
            "bravo_af",
            min,
            max,
            None,
        );
        assert_rows(
            &got,
            &Value::Array(want.clone()),
            &format!("{min}..{max}"),
            want_positions.is_empty(),
        );
        let mut pos: Vec<u64> = want.iter().map(|v| v["pos"].as_u64().unwrap()).collect();
        pos.dedup();
        assert_eq!(pos, want_positions);
    }
    // One bound alone: the other is its default (0 or 1); each leaves some variants out.
    let unbounded = freq(
        VariantQuery { region: all, ..q() },
        "bravo_af",
        0.0,
        1.0,
        None,
    );
    for (bound, min, max) in [("minimum_af=0.05", 0.05, 1.0), ("maximum_af=0.1", 0.0, 0.1)] {
        let got = get_json(&format!(
            "/variants/freq?source=bravo_af&region=chr1:15000-25000&{bound}"
        ));
        let want = freq(
            VariantQuery { region: all, ..q() },
            "bravo_af",
            min,
            max,
            None,
        );
        assert!(!want.is_empty() && want.len() < unbounded.len(), "{bound}");
        assert_json_eq(&got, &Value::Array(want), bound);
    }
    // AF 1.0 is within the default bounds (IGVF's maximum is exclusive), and so is 0.0.
    let got = get_json("/variants/freq?source=bravo_af&region=chr1:25000-25020");
    assert_eq!(
        got.as_array()
            .unwrap()
            .iter()
            .map(|v| v["annotations"]["bravo_af"].clone())
            .collect::<Vec<_>>(),
        vec![json!(1.0), json!(0.0)]
    );
    // A variant without that frequency is left out.
    assert_eq!(
        get_json("/variants/freq?source=bravo_af&ca_id=CA800005"),
        json!([])
    );
    // gnomAD sources read the document's af_* members.
    let v1 = data().get("variants", "NC_000001.11:15000:A:G").unwrap();
    let x = v1["annotations"]["af_sas_female"].as_f64().unwrap();
    let got = get_json(&format!("/variants/freq?source=gnomad_af_sas_female&spdi=NC_000001.11:15000:A:G&minimum_af={x}&maximum_af={x}"));
    assert_eq!(got[0]["annotations"]["gnomad_af_sas_female"], json!(x));
    let cat = freq(
        VariantQuery { region: all, ..q() },
        "bravo_af",
        0.0,
        1.0,
        Some("noncoding"),
    );
    assert_json_eq(
        &get_json(
            "/variants/freq?source=bravo_af&region=chr1:15000-25000&GENCODE_category=noncoding",
        ),
        &Value::Array(cat),
        "GENCODE",
    );
}

#[test]
fn test_freq_errors() {
    let rule = "at least one of variant_id, spdi, hgvs, rsid, ca_id, region must be given";
    assert_bad_request(
        "/variants/freq?rsid=rs900001",
        &[("source is required", &["source"])],
    );
    assert_bad_request("/variants/freq?source=bravo_af", &[(rule, &[])]);
    assert_bad_request(
        "/variants/freq",
        &[("source is required", &["source"]), (rule, &[])],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&rsid=900001",
        &[("rsid must look like rs<digits>, got \"900001\"", &["rsid"])],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&ca_id=CAX",
        &[("ca_id must look like CA<digits>, got \"CAX\"", &["ca_id"])],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&spdi=NC_000001.11:15000:A",
        &[(
            "spdi must be SPDI, <accession>:<position>:<ref>:<alt>, got \"NC_000001.11:15000:A\"",
            &["spdi"],
        )],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&hgvs=NC_000001.11:c.1A>G",
        &[(
            "hgvs must be genomic HGVS, <accession>:g.<change>, got \"NC_000001.11:c.1A>G\"",
            &["hgvs"],
        )],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&variant_id=chr1:5:A",
        &[("variant_id must be SPDI (<accession>:<position>:<ref>:<alt>) or a variant key without ':', got \"chr1:5:A\"", &["variant_id"])],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&rsid=rs1&minimum_af=lots",
        &[(
            "minimum_af must be a finite number, got \"lots\"",
            &["minimum_af"],
        )],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&rsid=rs1&minimum_af=0.6&maximum_af=0.5",
        &[(
            "minimum_af (0.6) must not exceed maximum_af (0.5)",
            &["minimum_af"],
        )],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&rsid=rs1&GENCODE_category=Coding",
        &[(
            "GENCODE_category must be one of 'coding', 'noncoding', got 'Coding'",
            &["GENCODE_category"],
        )],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&rsid=rs1&limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&rsid=rs1&minimum=0.1",
        &[(
            "unknown parameter `minimum`; did you mean `minimum_af`?",
            &["minimum"],
        )],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&region=chr1-5-10",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1-5-10\"", &["region"])],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&region=chr1:5",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1:5\"", &["region"])],
    );
    assert_bad_request(
        "/variants/freq?source=bravo_af&rsid=rs1&organism=Mus%20musculus",
        &[(
            "organism must be one of 'Homo sapiens', got 'Mus musculus'",
            &["organism"],
        )],
    );
    assert_bad_request(
        "/variants/freq?source=gnomad&rsid=rs900001",
        &[("source must be one of 'bravo_af', 'gnomad_af_total', 'gnomad_af_afr', 'gnomad_af_afr_female', 'gnomad_af_afr_male', 'gnomad_af_ami', 'gnomad_af_ami_female', 'gnomad_af_ami_male', 'gnomad_af_amr', 'gnomad_af_amr_female', 'gnomad_af_amr_male', 'gnomad_af_asj', 'gnomad_af_asj_female', 'gnomad_af_asj_male', 'gnomad_af_eas', 'gnomad_af_eas_female', 'gnomad_af_eas_male', 'gnomad_af_female', 'gnomad_af_fin', 'gnomad_af_fin_female', 'gnomad_af_fin_male', 'gnomad_af_male', 'gnomad_af_nfe', 'gnomad_af_nfe_female', 'gnomad_af_nfe_male', 'gnomad_af_oth', 'gnomad_af_oth_female', 'gnomad_af_oth_male', 'gnomad_af_sas', 'gnomad_af_sas_male', 'gnomad_af_sas_female', 'gnomad_af_raw', got 'gnomad'", &["source"])],
    );
}

fn region_summary(chr: &str, st: u64, en: u64) -> Value {
    let vars = oracle::variants(
        "variants",
        VariantQuery {
            region: Some((chr, st, en)),
            ..VariantQuery::default()
        },
    );
    let handles: Vec<String> = vars
        .iter()
        .map(|v| format!("variants/{}", s(v, "_key")))
        .collect();
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for coll in [
        "variants_genes",
        "variants_proteins",
        "variants_biosamples",
        "variants_genomic_elements",
        "variants_phenotypes",
    ] {
        for e in data().docs(coll) {
            if handles.iter().any(|h| h == s(e, "_from")) {
                *counts.entry(s(e, "method").to_string()).or_insert(0) += 1;
            }
        }
    }
    json!({"variant_count": vars.len(), "by_method": counts.iter().map(|(m, c)| json!({"method": m, "count": c})).collect::<Vec<_>>()})
}

#[test]
fn test_region_summary() {
    for (c, st, en) in [
        ("chr1", 15000, 25000),
        ("chr1", 15000, 15001),
        ("chr1", 25000, 25011),
        ("chr20", 9564500, 9574500),
        ("chr3", 0, 10),
    ] {
        let got = get_json(&format!("/variants/region-summary?region={c}:{st}-{en}"));
        assert_json_eq(&got, &region_summary(c, st, en), &format!("{c}:{st}-{en}"));
    }
    let got = get_json("/variants/region-summary?region=chr1:15000-25000");
    assert_eq!(got["variant_count"], 4);
    assert_eq!(
        got["by_method"][0],
        json!({"method": "ADASTRA", "count": 3})
    );
    assert_eq!(
        get_json("/variants/region-summary?region=chrQ:0-10"),
        json!({"variant_count": 0, "by_method": []})
    );
    // page and limit are accepted and ignored.
    assert_eq!(
        get_json("/variants/region-summary?region=chr1:15000-25000&page=3&limit=1"),
        got
    );
    assert_bad_request(
        "/variants/region-summary",
        &[("region is required", &["region"])],
    );
    assert_bad_request(
        "/variants/region-summary?region=chr1:0-10001",
        &[(
            "region spans 10001 bases; at most 10000 are allowed, got \"chr1:0-10001\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/variants/region-summary?region=chr1:15000-25000&regoin=chr1:1-2",
        &[(
            "unknown parameter `regoin`; did you mean `region`?",
            &["regoin"],
        )],
    );
    assert_bad_request(
        "/variants/region-summary?region=chr1:a-b",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"chr1:a-b\"", &["region"])],
    );
    assert_bad_request(
        "/variants/region-summary?region=1:1-5",
        &[("region must look like chr<name>:<start>-<end> (0-based, half-open, e.g. chr20:9564500-9564600), got \"1:1-5\"", &["region"])],
    );
}

fn nearest(chr: &str, st: u64, en: u64) -> Vec<Value> {
    let genes: Vec<&Value> = data()
        .docs("genes")
        .iter()
        .filter(|g| s(g, "chr") == chr)
        .collect();
    let num = |g: &Value, f: &str| g[f].as_u64().unwrap();
    let mut over: Vec<&Value> = genes
        .iter()
        .copied()
        .filter(|g| num(g, "start") < en && num(g, "end") > st)
        .collect();
    over.sort_by(|a, b| (num(a, "start"), s(a, "_key")).cmp(&(num(b, "start"), s(b, "_key"))));
    if over.is_empty() {
        let left = genes.iter().filter(|g| num(g, "end") <= st).max_by(|a, b| {
            (num(a, "end"), std::cmp::Reverse(s(a, "_key")))
                .cmp(&(num(b, "end"), std::cmp::Reverse(s(b, "_key"))))
        });
        let right = genes
            .iter()
            .filter(|g| num(g, "start") >= en)
            .min_by(|a, b| (num(a, "start"), s(a, "_key")).cmp(&(num(b, "start"), s(b, "_key"))));
        over.extend(left.into_iter().chain(right).copied());
    }
    over.into_iter().map(|g| obj(g, GENE)).collect()
}

#[test]
fn test_nearest_genes() {
    for (c, st, en, names) in [
        ("chr1", 15000, 15001, vec!["TSTA1", "TSTG"]), // overlap, by start then key
        ("chr1", 25000, 25010, vec!["TSTA1", "TST-B"]), // both sides; TSTA1 wins the end tie by key
        ("chr1", 45000, 46000, vec!["TSTC", "TSTD"]), // touching on the left; TSTD wins the start tie
        ("chr1", 50000, 60000, vec!["TSTC", "TSTD"]), // touching on the right
        ("chr2", 100, 200, vec!["TSTF"]),             // one side (right)
        ("chr2", 7000, 7100, vec!["TSTF"]),           // one side (left)
        ("chr3", 1, 100, vec![]),                     // no gene on the chromosome
        ("chr20", 9564500, 9564600, vec![]),          // checked against the oracle below
    ] {
        let got = get_json(&format!("/variants/nearest-genes?region={c}:{st}-{en}"));
        let want = nearest(c, st, en);
        if c != "chr20" {
            assert_eq!(
                want.iter()
                    .map(|g| g["name"].as_str().unwrap())
                    .collect::<Vec<_>>(),
                names,
                "oracle {c}:{st}-{en}"
            );
        }
        assert_rows(
            &got,
            &Value::Array(want),
            &format!("{c}:{st}-{en}"),
            names.is_empty() && c != "chr20",
        );
    }
    // page and limit are accepted and ignored.
    let both = get_json("/variants/nearest-genes?region=chr1:25000-25010");
    assert_eq!(both.as_array().unwrap().len(), 2);
    for q in ["page=1", "limit=1", "page=5&limit=1", "limit=10.0"] {
        assert_eq!(
            get_json(&format!(
                "/variants/nearest-genes?region=chr1:25000-25010&{q}"
            )),
            both,
            "{q}"
        );
    }
    assert_bad_request(
        "/variants/nearest-genes",
        &[("region is required", &["region"])],
    );
    assert_bad_request(
        "/variants/nearest-genes?region=chr1:1-10002",
        &[(
            "region spans 10001 bases; at most 10000 are allowed, got \"chr1:1-10002\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/variants/nearest-genes?region=chr1:10-2",
        &[(
            "region must have start < end, got \"chr1:10-2\"",
            &["region"],
        )],
    );
    assert_bad_request(
        "/variants/nearest-genes?region=chr1:1-2&genes=x",
        &[("unknown parameter `genes`", &["genes"])],
    );
    assert_bad_request(
        "/variants/nearest-genes?region=chr1:1-2&page=x",
        &[("page must be a non-negative integer, got \"x\"", &["page"])],
    );
}
