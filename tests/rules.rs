//! Parameter rules against IGVF's: the "at least one of" table of `igvf_rules.json` checked
//! against varcat's endpoint table and a live server, and the two gene-parameter sweeps
//! (`alias` only where the interface names it; `region` selecting genes wherever it sits beside
//! the gene parameters).

use std::collections::BTreeSet;

use serde_json::Value;
use varcat_query::api::{llm_query, ENDPOINTS};
use varcat_query::endpoint::Endpoint;
use varcat_query::params::Rule;
use varcat_query::vocab::genes;

use crate::util::{get, get_json, root};

/// One rule as a set of names, at least one of which must be given.
type RuleSet = BTreeSet<String>;

fn table() -> Value {
    let path = root().join("tests/igvf_rules.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// `rules` of the table (a list of lists of names) as sets.
fn rule_sets(rules: &Value) -> BTreeSet<RuleSet> {
    rules
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

/// varcat's rules of `ep`: its declared rules, and each path parameter as a required one.
fn varcat_rules(ep: &Endpoint) -> BTreeSet<RuleSet> {
    let mut out: BTreeSet<RuleSet> = ep
        .accepts
        .rules
        .iter()
        .map(|r| match r {
            Rule::AtLeastOne(ps) => ps.iter().map(|p| p.name.to_string()).collect(),
            Rule::Required(p) => BTreeSet::from([p.name.to_string()]),
        })
        .collect();
    for seg in ep.path.split('/') {
        if let Some(name) = seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            out.insert(BTreeSet::from([name.to_string()]));
        }
    }
    out
}

fn endpoint(path: &str) -> &'static Endpoint {
    ENDPOINTS
        .iter()
        .copied()
        .find(|ep| ep.path == path)
        .unwrap_or_else(|| panic!("{path} is not in the endpoint table"))
}

/// The differences document (docs/igvf-differences.md).
fn differences() -> String {
    std::fs::read_to_string(root().join("docs/igvf-differences.md")).unwrap()
}

#[test]
fn test_rules_table_matches_the_endpoint_table() {
    let t = table();
    let entries = t["paths"].as_array().unwrap();
    let paths: BTreeSet<&str> = entries
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths.len(), entries.len(), "a path listed twice");
    // Every client path beyond the interface is in the table (and only those).
    let beyond: BTreeSet<&str> = ENDPOINTS
        .iter()
        .filter(|ep| ep.section.is_none())
        .map(|ep| ep.path)
        .chain([llm_query::PATH])
        .collect();
    // An endpoint of the table without an interface section is a path of the IGVF client:
    // adding one means adding its row here, IGVF's rule for it, read from IGVF's router.
    let missing: Vec<&&str> = beyond.difference(&paths).collect();
    assert!(
        missing.is_empty(),
        "{missing:?}: endpoints of the table beyond the interface with no row in \
         tests/igvf_rules.json; add each with its IGVF router file and rule (`router` and \
         `igvf` null where IGVF has no router, and the client's model is followed)"
    );
    let stale: Vec<&&str> = paths.difference(&beyond).collect();
    assert!(
        stale.is_empty(),
        "{stale:?}: rows of tests/igvf_rules.json for no endpoint of the table beyond the interface"
    );
    let differences = differences();
    for e in entries {
        let path = e["path"].as_str().unwrap();
        let Some(igvf) = e.get("igvf").filter(|v| !v.is_null()) else {
            // No router to compare with: the client's model is followed.
            assert!(e["router"].is_null(), "{path}: a router but no rule");
            continue;
        };
        assert!(
            e["router"].as_str().unwrap().ends_with(".ts"),
            "{path}: the router file"
        );
        let want = match e.get("varcat") {
            Some(v) => {
                assert_ne!(rule_sets(v), rule_sets(igvf), "{path}: no difference");
                assert!(
                    e["difference"].is_string(),
                    "{path}: a difference needs its reason"
                );
                assert!(
                    differences.contains(&format!("`{path}`")),
                    "{path}: docs/igvf-differences.md does not mention it"
                );
                rule_sets(v)
            }
            None => rule_sets(igvf),
        };
        let got = if path == llm_query::PATH {
            // The POST body's members: an empty object names each required one.
            let err = llm_query::check(b"{}").unwrap_err();
            err.issues
                .iter()
                .map(|i| i.path.iter().cloned().collect())
                .collect()
        } else {
            varcat_rules(endpoint(path))
        };
        assert_eq!(got, want, "{path}: varcat's rules against IGVF's table");
    }
}

#[test]
fn test_a_bare_request_is_refused_exactly_where_a_rule_requires_something() {
    for e in table()["paths"].as_array().unwrap() {
        let path = e["path"].as_str().unwrap();
        if path == llm_query::PATH || path.contains('{') {
            continue;
        }
        let rules = e.get("varcat").or(e.get("igvf")).filter(|v| !v.is_null());
        let rules = match rules {
            Some(r) => rule_sets(r),
            None => varcat_rules(endpoint(path)),
        };
        let status = get(path).status;
        if rules.is_empty() {
            assert_eq!(status, 200, "{path}: no rule, a bare request answers");
        } else {
            assert_eq!(status, 400, "{path}: a bare request breaks its rule");
        }
    }
}

/// The endpoints taking the shared gene parameters (those declaring `/genes/variants`' gene
/// id), each with its synonym parameter and whether its gene `region` is declared.
fn gene_parameter_endpoints() -> Vec<&'static Endpoint> {
    ENDPOINTS
        .iter()
        .copied()
        .filter(|ep| {
            ep.accepts
                .params
                .iter()
                .any(|p| p.name == "synonym" && p.doc == genes::SYNONYM.doc)
        })
        .collect()
}

#[test]
fn test_alias_is_accepted_only_where_the_interface_names_it() {
    let eps = gene_parameter_endpoints();
    let named: BTreeSet<&str> = ["4.1", "4.4", "4.24"].into();
    let with_alias: BTreeSet<&str> = eps
        .iter()
        .filter(|ep| {
            ep.accepts
                .params
                .iter()
                .any(|p| p.aliases.contains(&"alias"))
        })
        .map(|ep| ep.section.unwrap_or("a client path"))
        .collect();
    assert_eq!(with_alias, named);
    assert!(
        eps.len() >= 10,
        "the sweep covers every gene-parameter path"
    );
    for ep in eps {
        let q = format!("{}?alias=TSTALPHA", ep.path);
        let r = get(&q);
        if ep.section.is_some_and(|s| named.contains(s)) {
            assert_eq!(r.status, 200, "{q}");
            let by_synonym = get_json(&format!("{}?synonym=TSTALPHA", ep.path));
            assert_eq!(get_json(&q), by_synonym, "{q}: alias is synonym");
        } else {
            assert_eq!(r.status, 400, "{q}");
            let body: Value = r.json();
            assert_eq!(
                body["issues"][0]["path"],
                serde_json::json!(["alias"]),
                "{q}"
            );
        }
    }
}

#[test]
fn test_region_alone_selects_genes_wherever_it_sits_beside_the_gene_parameters() {
    // chr1:10000-10500 overlaps TSTA1 (ENSG90000000001) and no other gene.
    let with_region: Vec<&Endpoint> = gene_parameter_endpoints()
        .into_iter()
        .filter(|ep| {
            ep.accepts
                .params
                .iter()
                .any(|p| p.name == "region" && p.doc == genes::REGION.doc)
        })
        .collect();
    let paths: BTreeSet<&str> = with_region.iter().map(|ep| ep.path).collect();
    for p in [
        "/genes/variants",
        "/genes/coding-variants/scores",
        "/genes/proteins",
        "/genes/transcripts",
        "/genes/pathways",
        "/genes/genes",
        "/genes/genomic-elements",
        "/genes/diseases",
        "/enhancer-gene-predictions",
    ] {
        assert!(
            paths.contains(p),
            "{p} takes region beside the gene parameters"
        );
    }
    let mut answered = 0;
    for ep in with_region {
        let by_region = format!("{}?region=chr1:10000-10500", ep.path);
        let by_id = format!("{}?gene_id=ENSG90000000001", ep.path);
        assert_eq!(get(&by_region).status, 200, "{by_region}");
        let want = get_json(&by_id);
        assert_eq!(get_json(&by_region), want, "{by_region} against {by_id}");
        answered += usize::from(want.as_array().is_some_and(|a| !a.is_empty()));
    }
    assert!(answered >= 7, "most paths have rows for TSTA1 ({answered})");
}
