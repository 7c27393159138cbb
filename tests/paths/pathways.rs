//! `/pathways`: look-ups by every filter, paging, errors.

use serde_json::{json, Value};

use crate::oracle::{self, data, obj, s, tokens};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json};

fn pathways(f: &[(&str, &str)]) -> Vec<Value> {
    let base: Vec<&Value> = oracle::sorted_by_key(
        data()
            .docs("pathways")
            .iter()
            .filter(|p| {
                f.iter().all(|(k, v)| match *k {
                    "id" => s(p, "_key") == *v,
                    "is_in_disease" | "is_top_level_pathway" => {
                        p[*k].as_bool().map(|b| b.to_string()).as_deref() == Some(*v)
                    }
                    "disease_ontology_terms" => p[*k]
                        .as_array()
                        .is_some_and(|a| a.iter().any(|x| x == &format!("ontology_terms/{v}"))),
                    "go_biological_process" => s(p, k) == format!("ontology_terms/{v}"),
                    _ => true,
                })
            })
            .collect(),
    );
    let mut rows = base.clone();
    for (k, q) in f {
        if *k == "name" {
            let hits = oracle::name_cascade(base.clone(), "name", q);
            rows.retain(|r| hits.iter().any(|h| h["_key"] == r["_key"]));
        }
        if *k == "name_aliases" {
            // The alias cascade: any alias matching (exact, all tokens, one typo on the first token).
            let alias_hit = |p: &Value, tier: usize| {
                p["name_aliases"].as_array().unwrap().iter().any(|a| {
                    let a = a.as_str().unwrap();
                    let qt = tokens(q);
                    match tier {
                        0 => a == *q,
                        1 => !qt.is_empty() && qt.iter().all(|t| tokens(a).contains(t)),
                        _ => {
                            !qt.is_empty()
                                && tokens(a)
                                    .iter()
                                    .any(|t| oracle::edit_distance(t, &qt[0]) <= 1)
                        }
                    }
                })
            };
            let hits = (0..3)
                .map(|t| {
                    base.iter()
                        .copied()
                        .filter(|p| alias_hit(p, t))
                        .collect::<Vec<_>>()
                })
                .find(|h| !h.is_empty())
                .unwrap_or_default();
            rows.retain(|r| hits.iter().any(|h| h["_key"] == r["_key"]));
        }
    }
    rows.into_iter()
        .map(|p| {
            let mut o = obj(
                p,
                &[
                    ("_id", "_key"),
                    ("name", "name"),
                    ("organism", "organism"),
                    ("source", "source"),
                    ("source_url", "source_url"),
                    ("id_version", "id_version"),
                    ("is_in_disease", "is_in_disease"),
                    ("is_top_level_pathway", "is_top_level_pathway"),
                    ("name_aliases", "name_aliases"),
                    ("disease_ontology_terms", "disease_ontology_terms"),
                    ("go_biological_process", "go_biological_process"),
                    ("class", "class"),
                    ("method", "method"),
                    ("label", "label"),
                    ("files_filesets", "files_filesets"),
                    ("biological_process", "go_biological_process"),
                ],
            );
            if o["name_aliases"].is_null() {
                o["name_aliases"] = json!([]);
            }
            o
        })
        .collect()
}

#[test]
fn test_pathways() {
    for (query, f) in [
        ("", vec![]),
        ("name=Disease", vec![("name", "Disease")]),
        ("name=disease", vec![("name", "disease")]),
        ("name=glycosilation", vec![("name", "glycosilation")]),
        ("name_aliases=TRD", vec![("name_aliases", "TRD")]),
        (
            "name_aliases=receptor%20test",
            vec![("name_aliases", "receptor test")],
        ),
        (
            "name=test&name_aliases=receptor",
            vec![("name", "test"), ("name_aliases", "receptor")],
        ),
        ("id=R-HSA-446203", vec![("id", "R-HSA-446203")]),
        ("is_in_disease=true", vec![("is_in_disease", "true")]),
        (
            "is_top_level_pathway=false&name=immune",
            vec![("is_top_level_pathway", "false"), ("name", "immune")],
        ),
        (
            "disease_ontology_terms=MONDO_9000002",
            vec![("disease_ontology_terms", "MONDO_9000002")],
        ),
        (
            "go_biological_process=GO_9000001",
            vec![("go_biological_process", "GO_9000001")],
        ),
        (
            "biological_process=GO_9000001",
            vec![("go_biological_process", "GO_9000001")],
        ),
    ] {
        let want = pathways(&f);
        assert!(!want.is_empty(), "{query}");
        assert_json_eq(
            &get_json(&format!("/pathways?{query}&limit=500")),
            &Value::Array(want),
            query,
        );
    }
    let all = pathways(&[]);
    check_paging("/pathways", &all, 10);
    assert_eq!(get_json("/pathways?name=zzzzzz"), json!([]));
    // name_aliases: one typo on the first token, and no hit at all.
    for (query, alias, ids) in [
        (
            "name_aliases=hemostasys",
            "hemostasys",
            vec!["R-HSA-109582"],
        ),
        ("name_aliases=TRX", "TRX", vec!["R-HSA-9000002"]),
    ] {
        let want = pathways(&[("name_aliases", alias)]);
        let got_ids: Vec<&str> = want.iter().map(|p| p["_id"].as_str().unwrap()).collect();
        assert_eq!(got_ids, ids, "oracle {query}");
        assert_json_eq(
            &get_json(&format!("/pathways?{query}")),
            &Value::Array(want),
            query,
        );
    }
    assert_eq!(get_json("/pathways?name_aliases=zzzzzz"), json!([]));
    assert_eq!(
        get_json("/pathways?name_aliases=qqq%20receptor"),
        json!([]),
        "every token must match in the token tier, and qqq is no typo of any"
    );
    assert_bad_request(
        "/pathways?is_in_disease=True",
        &[(
            "is_in_disease must be 'true' or 'false', got 'True'",
            &["is_in_disease"],
        )],
    );
    assert_bad_request(
        "/pathways?limit=501",
        &[(
            "limit must be an integer from 1 to 500, got \"501\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/pathways?names=x",
        &[(
            "unknown parameter `names`; did you mean `name`?",
            &["names"],
        )],
    );
}
