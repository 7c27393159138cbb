//! `/ontology-terms` (node look-ups), `/ontology-terms/{id}/children` and
//! `/ontology-terms/{a}/transitive-closure/{b}`.

use std::collections::{HashMap, VecDeque};

use serde_json::{json, Map, Value};

use crate::oracle::{self, data, name_cascade, obj, s, sorted_by_key};
use crate::util::{
    assert_bad_request, assert_json_eq, assert_rows, check, check_paging, get, get_json, rows,
};

/// A path as (edge key, edge, vertex reached) steps.
type Steps<'a> = Vec<(String, &'a Value, String)>;

fn term_full(t: &Value) -> Value {
    let mut o = obj(t, TERM);
    if o["synonyms"].is_null() {
        o["synonyms"] = json!([]);
    }
    if o["description"].is_null() {
        o["description"] = json!("");
    }
    let m: Map<String, Value> = [
        "uri",
        "term_id",
        "name",
        "synonyms",
        "description",
        "source",
        "subontology",
        "source_url",
        "class",
        "method",
        "files_filesets",
    ]
    .iter()
    .map(|k| (k.to_string(), o[*k].clone()))
    .collect();
    Value::Object(m)
}

fn children(id: &str) -> Vec<Value> {
    oracle::sorted_by_key(data().docs("ontology_terms_ontology_terms").iter()
        .filter(|e| s(e, "_to") == format!("ontology_terms/{id}") && s(e, "name") == "subclass")
        .filter(|e| data().handle(s(e, "_from")).is_some()).collect())
        .into_iter()
        .map(|e| json!({"term": term_full(data().handle(s(e, "_from")).unwrap()), "relationship_type": e["name"]}))
        .collect()
}

#[test]
fn test_ontology_children() {
    for id in [
        "VCT_0000002",
        "VCT_0000005",
        "VCT_0000003",
        "VCT_0000300",
        "CVCL_B0T9",
    ] {
        let want = children(id);
        // VCT_0000300 and the cell line CVCL_B0T9 are leaves.
        assert_rows(
            &get_json(&format!("/ontology-terms/{id}/children?limit=500")),
            &Value::Array(want),
            id,
            matches!(id, "VCT_0000300" | "CVCL_B0T9"),
        );
    }
    // VCT_0000005 has its tree child and the diamond's bottom; VCT_0000300's parent is missing.
    assert!(get_json("/ontology-terms/VCT_0000005/children")
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["term"]["term_id"] == "VCT_0000301"));
    let want = children("VCT_0000001");
    assert_eq!(want.len(), 3);
    check_paging(
        "/ontology-terms/VCT_0000003/children",
        &children("VCT_0000003"),
        2,
    );
    assert_eq!(get_json("/ontology-terms/NOPE_1/children"), json!([]));
    // Identifiers are percent-decoded once.
    assert_eq!(
        get_json("/ontology-terms/VCT%5F0000002/children?limit=500"),
        Value::Array(children("VCT_0000002"))
    );
    assert_bad_request(
        "/ontology-terms/UBERON:0001/children",
        &[("ontology_term_id must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \"UBERON:0001\"", &["ontology_term_id"])],
    );
    assert_bad_request(
        "/ontology-terms/VCT_0000002/children?limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/ontology-terms/VCT_0000002/children?relationship=x",
        &[("unknown parameter `relationship`", &["relationship"])],
    );
}

/// All shortest paths by breadth-first search over the JSONL relations, undirected, through
/// existing terms only; paths ordered by their edge-key sequences.
fn closure(a: &str, b: &str) -> Value {
    let exists = |k: &str| data().get("ontology_terms", k).is_some();
    if !exists(a) || !exists(b) {
        return json!({"vertices": {}, "paths": []});
    }
    let key = |h: &str| h.split_once('/').unwrap().1.to_string();
    let mut adj: HashMap<String, Vec<(String, String, &Value)>> = HashMap::new();
    for e in data().docs("ontology_terms_ontology_terms") {
        let (f, t) = (key(s(e, "_from")), key(s(e, "_to")));
        if !exists(&f) || !exists(&t) {
            continue;
        }
        adj.entry(f.clone())
            .or_default()
            .push((s(e, "_key").to_string(), t.clone(), e));
        if f != t {
            adj.entry(t)
                .or_default()
                .push((s(e, "_key").to_string(), f, e));
        }
    }
    let vertex = |k: &str| {
        let mut v = term_full(data().get("ontology_terms", k).unwrap());
        v.as_object_mut().unwrap().shift_remove("source_url");
        v
    };
    if a == b {
        let mut m = Map::new();
        m.insert(a.to_string(), vertex(a));
        return json!({"vertices": m, "paths": [[]]});
    }
    // Layered search keeping every path that reaches a vertex first at its distance.
    let mut dist: HashMap<String, usize> = HashMap::from([(a.to_string(), 0)]);
    let mut paths_to: HashMap<String, Vec<Steps>> = HashMap::from([(a.to_string(), vec![vec![]])]);
    let mut queue = VecDeque::from([a.to_string()]);
    while let Some(v) = queue.pop_front() {
        for (ek, w, e) in adj.get(&v).cloned().unwrap_or_default() {
            let d = dist[&v] + 1;
            if dist.get(&w).is_none_or(|&x| x == d) {
                if !dist.contains_key(&w) {
                    queue.push_back(w.clone());
                }
                dist.insert(w.clone(), d);
                let ext: Vec<_> = paths_to[&v]
                    .iter()
                    .map(|p| {
                        let mut p = p.clone();
                        p.push((ek.clone(), e, w.clone()));
                        p
                    })
                    .collect();
                paths_to.entry(w.clone()).or_default().extend(ext);
            }
        }
    }
    let mut paths = paths_to.remove(b).unwrap_or_default();
    paths.sort_by(|x, y| x.iter().map(|s| &s.0).cmp(y.iter().map(|s| &s.0)));
    let mut vertices = Map::new();
    for p in &paths {
        for k in std::iter::once(a.to_string()).chain(p.iter().map(|s| s.2.clone())) {
            if !vertices.contains_key(&k) {
                vertices.insert(k.clone(), vertex(&k));
            }
        }
    }
    let paths: Vec<Value> = paths.iter().map(|p| Value::Array(p.iter().map(|(_, e, _)| json!({"from": key(s(e, "_from")), "to": key(s(e, "_to")), "name": e["name"]})).collect())).collect();
    json!({"vertices": vertices, "paths": paths})
}

#[test]
fn test_transitive_closure() {
    for (a, b) in [
        ("VCT_0000301", "VCT_0000002"), // the diamond: two shortest paths
        ("VCT_0000002", "VCT_0000301"), // either direction
        ("VCT_0000310", "VCT_0000001"), // through the cycle and a "derives from"
        ("VCT_0000312", "VCT_0000300"), // around the cycle
        ("VCT_0000250", "VCT_0000003"), // through "part of" shortcuts
        ("CVCL_T001", "VCT_0000010"),
        ("VCT_0000005", "VCT_0000005"), // one empty path
        ("VCT_0000005", "CVCL_B0T9"),   // not connected
        ("VCT_0000005", "NOPE_1"),      // missing term
    ] {
        let got = get(&format!("/ontology-terms/{a}/transitive-closure/{b}"));
        assert_eq!(got.status, 200);
        assert!(got.header("X-Varcat-Capped").is_none());
        assert_json_eq(&got.json(), &closure(a, b), &format!("{a} -> {b}"));
    }
    let diamond = get_json("/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002");
    assert_eq!(diamond["paths"].as_array().unwrap().len(), 2);
    assert_eq!(
        get_json("/ontology-terms/VCT_0000005/transitive-closure/VCT_0000005")["paths"],
        json!([[]])
    );
    // page and limit are accepted and ignored.
    assert_eq!(
        get_json("/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002?page=3&limit=1"),
        diamond
    );
    assert_bad_request(
        "/ontology-terms/VCT_0000301/transitive-closure/VCT%200001",
        &[("ontology_term_id_end must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \"VCT 0001\"", &["ontology_term_id_end"])],
    );
    assert_bad_request(
        "/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002?depth=3",
        &[("unknown parameter `depth`", &["depth"])],
    );
    assert_bad_request(
        "/ontology-terms/VCT:0000301/transitive-closure/VCT_0000002",
        &[("ontology_term_id_start must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \"VCT:0000301\"", &["ontology_term_id_start"])],
    );
    assert_bad_request(
        "/ontology-terms/%20/transitive-closure/VCT_0000002",
        &[("ontology_term_id_start must look like PREFIX_ID (e.g. UBERON_0003663 or CVCL_B0T9), got \" \"", &["ontology_term_id_start"])],
    );
}

const TERM: &[(&str, &str)] = &[
    ("uri", "uri"),
    ("term_id", "term_id"),
    ("name", "name"),
    ("synonyms", "synonyms"),
    ("description", "description"),
    ("source", "source"),
    ("subontology", "subontology"),
    ("source_url", "source_url"),
    ("class", "class"),
    ("method", "method"),
    ("files_filesets", "files_filesets"),
];

#[test]
fn test_ontology_terms_match_the_oracle() {
    check(
        "/ontology-terms?term_id=VCT_0000001",
        rows("ontology_terms", |t| s(t, "_key") == "VCT_0000001", TERM),
    );
    let terms: Vec<&Value> = data().docs("ontology_terms").iter().collect();
    for q in ["T cell", "test term 1", "tst term"] {
        let want = sorted_by_key(name_cascade(terms.clone(), "name", q));
        check(
            &format!("/ontology-terms?name={}", q.replace(' ', "%20")),
            want.iter().map(|t| obj(t, TERM)).collect(),
        );
    }
    let cello = rows("ontology_terms", |t| s(t, "source") == "Cellosaurus", TERM);
    check_paging("/ontology-terms?source=Cellosaurus", &cello, 7);
    assert_bad_request(
        "/ontology-terms?subontology=cells",
        &[(
            "subontology must be one of 'biological_process', 'cellular_component', 'molecular_function', got 'cells'",
            &["subontology"],
        )],
    );
}
