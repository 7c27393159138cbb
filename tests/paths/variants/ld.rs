//! `/variants/variant-ld` (either end, partner, filters, records without a key, a partner a
//! client can send back) and `/variants/variant-ld/summary`.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::oracle::{self, data, id_or, s, sorted_by_key};
use crate::util::{assert_bad_request, assert_json_eq, get, get_json};

#[test]
fn test_variants_variant_ld_either_end_partner_and_filters() {
    let v = "variants/NC_000001.11:15000:A:G".to_string();
    let pairs: Vec<&Value> = sorted_by_key(
        data()
            .docs("variants_variants")
            .iter()
            .filter(|e| s(e, "_from") == v || s(e, "_to") == v)
            .collect(),
    );
    assert!(pairs.len() >= 2, "LD pairs from both ends");
    // The partner's key, as IGVF (PARSE_IDENTIFIER(...).key), not its handle.
    let partner = |e: &Value| {
        let p = if s(e, "_from") == v {
            s(e, "_to")
        } else {
            s(e, "_from")
        };
        json!(p.strip_prefix("variants/").unwrap())
    };
    let want: Vec<Value> = pairs
        .iter()
        .map(|e| json!([e["r2"], e["ancestry"], partner(e)]))
        .collect();
    let row = |r: &Value| json!([r["r2"], r["ancestry"], r["sequence_variant"]]);
    let q = "/variants/variant-ld?rsid=rs900001";
    let got: Vec<Value> = get_json(q).as_array().unwrap().iter().map(row).collect();
    assert_json_eq(&json!(got), &json!(want), q);
    let want: Vec<Value> = pairs
        .iter()
        .filter(|e| e["r2"].as_f64().unwrap() >= 0.5)
        .map(|e| json!([e["r2"], e["ancestry"], partner(e)]))
        .collect();
    let q = "/variants/variant-ld?rsid=rs900001&r2=gte:0.5";
    let got: Vec<Value> = get_json(q).as_array().unwrap().iter().map(row).collect();
    assert_json_eq(&json!(got), &json!(want), q);
    let q = "/variants/variant-ld?rsid=rs900001&verbose=true&ancestry=EUR";
    let got = get_json(q);
    let rows = got.as_array().unwrap();
    assert!(!rows.is_empty(), "{q}");
    for r in rows {
        assert_eq!(r["ancestry"], "EUR", "{q}");
        let sv = r["sequence_variant"].as_array().expect("verbose: an array");
        assert!(sv.len() <= 1, "{q}");
        assert!(r["variant_1_base_pair"].is_string(), "{q}");
    }
    assert_bad_request(
        "/variants/variant-ld?r2=gte:0.5",
        &[(
            "at least one of spdi, hgvs, rsid, ca_id, variant_id, region must be given",
            &[],
        )],
    );
}

/// The LD edges' records keep no `_key` (`Spec::key_stored: false`: a digest printed by no
/// shape), every other collection's do, and no LD answer prints a `_key` or `_id`.
#[test]
fn test_ld_records_store_no_key_and_answers_print_none() {
    use varcat_format::catalog::Catalog;
    use varcat_format::collection::Collections;
    let cat = Collections::open(Catalog::open(crate::util::catalog()).unwrap()).unwrap();
    for spec in varcat_format::schema::SPECS {
        let Some(c) = cat.get(spec.name) else {
            continue;
        };
        let key = c.field("_key").expect("every collection names _key");
        let with_key = (0..c.len())
            .filter(|&o| c.record(o).unwrap().get(key).is_some())
            .count();
        let want = if spec.key_stored { c.len() as usize } else { 0 };
        assert_eq!(with_key, want, "{}: records with _key", spec.name);
    }
    let ld = cat.get("variants_variants").unwrap();
    assert!(!ld.is_empty() && !varcat_format::schema::spec(ld.name()).unwrap().key_stored);
    for q in [
        "/variants/variant-ld?rsid=rs900001",
        "/variants/variant-ld?rsid=rs900001&verbose=true",
        "/variants/variant-ld/summary?rsid=rs900001",
    ] {
        let got = get_json(q);
        let rows = got.as_array().unwrap();
        assert!(!rows.is_empty(), "{q}");
        for r in rows {
            assert!(
                r.get("_key").is_none() && r.get("_id").is_none(),
                "{q}: {r}"
            );
        }
    }
}

type Counts = BTreeMap<Option<String>, u64>;

/// The predictions of a variant handle, recomputed from the edges.
fn ld_predictions(handle: &str) -> Value {
    let mut qtls: BTreeMap<String, (Counts, Counts)> = BTreeMap::new();
    for e in data()
        .docs("variants_genes")
        .iter()
        .filter(|e| s(e, "_from") == handle)
    {
        let q = qtls.entry(s(e, "label").to_string()).or_default();
        *q.0.entry(
            e.get("biological_context")
                .and_then(Value::as_str)
                .map(String::from),
        )
        .or_default() += 1;
        let gene = data().handle(s(e, "_to")).map_or_else(
            || s(e, "_to").split_once('/').unwrap().1.to_string(),
            |g| s(g, "name").to_string(),
        );
        *q.1.entry(Some(gene)).or_default() += 1;
    }
    let mut tf: BTreeMap<String, (u64, Counts)> = BTreeMap::new();
    for e in data().docs("variants_proteins").iter().filter(|e| {
        s(e, "_from") == handle
            && s(e, "label") == "allele-specific binding"
            && s(e, "motif_conc") != "No Hit"
    }) {
        let t = tf.entry(s(e, "motif").to_string()).or_default();
        t.0 += 1;
        *t.1.entry(
            e.get("biological_context")
                .and_then(Value::as_str)
                .map(String::from),
        )
        .or_default() += 1;
    }
    let list = |m: &Counts, k: &str| {
        let mut v: Vec<(&Option<String>, &u64)> = m.iter().collect();
        v.sort_by_key(|(n, _)| (n.is_none(), (*n).clone()));
        v.into_iter()
            .map(|(n, c)| json!({k: n, "count": c}))
            .collect::<Vec<_>>()
    };
    json!({
        "qtls": qtls.iter().map(|(t, (c, g))| json!({"type": t, "cell_types": list(c, "name"), "genes": list(g, "name")})).collect::<Vec<_>>(),
        "tf_binding": tf.iter().map(|(m, (n, c))| json!({"motif": m, "count": n, "cell_types": list(c, "cell_type")})).collect::<Vec<_>>(),
    })
}

fn ld_summary(v: &Value) -> Vec<Value> {
    let h = format!("variants/{}", s(v, "_key"));
    let edges = oracle::sorted_by_key(
        data()
            .docs("variants_variants")
            .iter()
            .filter(|e| s(e, "_from") == h || s(e, "_to") == h)
            .collect(),
    );
    edges.into_iter().map(|e| {
        let partner = if s(e, "_from") == h { s(e, "_to") } else { s(e, "_from") };
        json!({"ancestry": e["ancestry"], "d_prime": e["d_prime"], "r2": e["r2"],
            "sequence variant": id_or(partner, true, oracle::SHORT_VARIANT), "predictions": ld_predictions(partner)})
    }).collect()
}

#[test]
fn test_ld_summary() {
    for (query, key) in [
        ("rsid=rs900001", "NC_000001.11:15000:A:G"),
        ("spdi=NC_000001.11:15000:A:T", "NC_000001.11:15000:A:T"),
        ("ca_id=CA800005", "NC_000002.12:100:G:A"),
    ] {
        let want = ld_summary(data().get("variants", key).unwrap());
        assert!(!want.is_empty());
        assert_json_eq(
            &get_json(&format!("/variants/variant-ld/summary?{query}")),
            &Value::Array(want),
            query,
        );
    }
    // A partner the catalog lacks is its id string; its predictions are empty.
    let rows = get_json("/variants/variant-ld/summary?rsid=rs900001");
    // The partner NC_000001.11:15000:A:T has GVATdb binding, which names no motif: counted
    // under "" with no cell type (docs/igvf-differences.md).
    let partner = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["sequence variant"]["spdi"] == "NC_000001.11:15000:A:T")
        .expect("the partner");
    assert_eq!(
        partner["predictions"]["tf_binding"][0],
        json!({"motif": "", "count": 1, "cell_types": [{"cell_type": null, "count": 1}]})
    );
    assert_eq!(
        rows[2]["sequence variant"],
        "variants/NC_000001.11:99999:A:C"
    );
    assert_eq!(
        rows[2]["predictions"],
        json!({"qtls": [], "tf_binding": []})
    );
    assert_eq!(
        get_json("/variants/variant-ld/summary?rsid=rs900001&limit=1&page=1"),
        json!([rows[1].clone()])
    );
    assert_eq!(get("/variants/variant-ld/summary?rsid=rs42").status, 404);
    assert_eq!(
        get_json("/variants/variant-ld/summary?rsid=rs580000001&organism=Mus%20musculus"),
        json!([])
    );
    assert_bad_request(
        "/variants/variant-ld/summary?limit=101&rsid=rs900001",
        &[(
            "limit must be an integer from 1 to 100, got \"101\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/variants/variant-ld/summary",
        &[(
            "at least one of variant_id, spdi, hgvs, rsid, ca_id must be given",
            &[],
        )],
    );
    assert_bad_request(
        "/variants/variant-ld/summary?rsid=rs900001&region=chr1:1-2",
        &[("unknown parameter `region`", &["region"])],
    );
}

#[test]
fn test_variant_ld_partner_is_a_key_a_client_can_send_back() {
    // IGVF answers the partner's key without verbose and its record in a one-element array
    // with it; the key is a `variant_id` the same path accepts.
    let anchor = "NC_000001.11:15000:A:G";
    let plain = get_json("/variants/variant-ld?rsid=rs900001");
    let verbose = get_json("/variants/variant-ld?rsid=rs900001&verbose=true");
    let (plain, verbose) = (plain.as_array().unwrap(), verbose.as_array().unwrap());
    assert!(plain.len() >= 2, "pairs at either end");
    assert_eq!(plain.len(), verbose.len());
    let mut sent_back = 0;
    for (r, rv) in plain.iter().zip(verbose) {
        let key = r["sequence_variant"].as_str().expect("a string");
        assert!(!key.contains('/'), "{key}: the key, not a handle");
        assert_ne!(key, anchor, "the partner, not the anchor");
        let list = rv["sequence_variant"]
            .as_array()
            .expect("verbose: an array");
        match data().handle(&format!("variants/{key}")) {
            Some(doc) => {
                assert_eq!(list.len(), 1, "{key}");
                assert_eq!(list[0]["_id"], json!(key));
                assert_eq!(list[0]["spdi"], doc["spdi"]);
                let q = format!("/variants/variant-ld?variant_id={key}");
                let back = get_json(&q);
                assert!(
                    back.as_array()
                        .unwrap()
                        .iter()
                        .any(|b| b["sequence_variant"] == json!(anchor)),
                    "{q}: the pair, seen from the partner"
                );
                sent_back += 1;
            }
            None => assert!(list.is_empty(), "{key}: a missing partner is []"),
        }
    }
    assert!(sent_back >= 1, "a partner in the catalog");
}
