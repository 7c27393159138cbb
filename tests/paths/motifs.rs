//! `/motifs/proteins`: direct and through complexes, verbose, errors.

use serde_json::{json, Value};

use crate::oracle::{self, data, id_or, s, PROTEIN};
use crate::util::{assert_bad_request, assert_json_eq, check_paging, get_json};

const MOTIF: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("tf_name", "tf_name"),
    ("length", "length"),
    ("pwm", "pwm"),
    ("source", "source"),
    ("source_url", "source_url"),
    ("class", "class"),
    ("method", "method"),
    ("files_filesets", "files_filesets"),
];

const COMPLEX: &[(&str, &str)] = &[
    ("_id", "_key"),
    ("name", "name"),
    ("alias", "alias"),
    ("molecules", "molecules"),
    ("evidence_code", "evidence_code"),
    ("experimental_evidence", "experimental_evidence"),
    ("description", "description"),
    ("complex_assembly", "complex_assembly"),
    ("complex_source", "complex_source"),
    ("reactome_xref", "reactome_xref"),
    ("class", "class"),
    ("method", "method"),
    ("label", "label"),
    ("files_filesets", "files_filesets"),
    ("source", "source"),
    ("source_url", "source_url"),
];

fn motifs_proteins(
    tf: Option<&str>,
    source: Option<&str>,
    method: Option<&str>,
    files: Option<&str>,
    verbose: bool,
) -> Vec<Value> {
    let motifs: Vec<String> = data()
        .docs("motifs")
        .iter()
        .filter(|m| {
            tf.is_none_or(|t| s(m, "tf_name") == t) && source.is_none_or(|x| s(m, "source") == x)
        })
        .map(|m| format!("motifs/{}", s(m, "_key")))
        .collect();
    let any_motif_filter = tf.is_some() || source.is_some();
    oracle::sorted_by_key(data().docs("motifs_proteins").iter()
        .filter(|e| !any_motif_filter || motifs.iter().any(|m| m == s(e, "_from")))
        .filter(|e| method.is_none_or(|x| s(e, "method") == x))
        .filter(|e| files.is_none_or(|f| s(e, "files_filesets") == format!("files_filesets/{f}")))
        .collect())
        .into_iter()
        .map(|e| {
            let to = s(e, "_to");
            let (protein, complex) = if to.starts_with("proteins/") {
                (id_or(to, verbose, PROTEIN), Value::Null)
            } else {
                (Value::Null, id_or(to, verbose, COMPLEX))
            };
            json!({"source": e.get("source"), "protein": protein, "complex": complex, "motif": id_or(s(e, "_from"), verbose, MOTIF),
                "name": s(e, "name"), "class": e.get("class"), "method": e.get("method"), "files_filesets": e.get("files_filesets")})
        })
        .collect()
}

#[test]
fn test_motifs_proteins() {
    for verbose in [false, true] {
        for (query, tf, source, method, files) in [
            ("", None, None, None, None),
            ("tf_name=TSTA1", Some("TSTA1"), None, None, None),
            ("tf_name=TSTA1_HUMAN", Some("TSTA1_HUMAN"), None, None, None),
            ("source=HOCOMOCOv11", None, Some("HOCOMOCOv11"), None, None),
            ("method=SEMpl", None, None, Some("SEMpl"), None),
            (
                "files_fileset=IGVFFI9678CVIS&source=HOCOMOCOv11",
                None,
                Some("HOCOMOCOv11"),
                None,
                Some("IGVFFI9678CVIS"),
            ),
        ] {
            let want = motifs_proteins(tf, source, method, files, verbose);
            assert!(!want.is_empty(), "{query}");
            assert_json_eq(
                &get_json(&format!(
                    "/motifs/proteins?{query}&verbose={verbose}&limit=1000"
                )),
                &Value::Array(want),
                query,
            );
        }
    }
    // One list, paged once (IGVF pages proteins and complexes separately: up to 2 × limit).
    let all = motifs_proteins(None, None, None, None, false);
    check_paging("/motifs/proteins", &all, 4);
    let rows = get_json("/motifs/proteins?tf_name=TSTA1&verbose=true");
    assert!(
        rows[1]["complex"].is_string(),
        "a missing complex keeps its id"
    );
    assert_bad_request(
        "/motifs/proteins?source=HOCOMOCO",
        &[(
            "source must be one of 'IGVF', 'HOCOMOCOv11', got 'HOCOMOCO'",
            &["source"],
        )],
    );
    assert_bad_request(
        "/motifs/proteins?limit=1001",
        &[(
            "limit must be an integer from 1 to 1000, got \"1001\"",
            &["limit"],
        )],
    );
    assert_bad_request(
        "/motifs/proteins?tf_name=TSTA1&motif=x",
        &[("unknown parameter `motif`", &["motif"])],
    );
    assert_bad_request(
        "/motifs/proteins?method=sempl",
        &[(
            "method must be one of 'HOCOMOCO', 'SEMpl', got 'sempl'",
            &["method"],
        )],
    );
}
