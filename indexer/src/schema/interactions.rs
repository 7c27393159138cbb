//! Builder hooks of protein–protein interactions, variant–biosample effects and file sets.

use serde_json::Value;

use super::{
    files_filesets, proteins_proteins, variants_biosamples, variants_biosamples_input as starr,
    Hooks, PROTEIN_INTERACTION_TYPES,
};
use crate::derive::Ctx;
use crate::doc::Doc;

/// The hooks of these collections.
pub(super) const HOOKS: &[(&str, Hooks)] = &[
    (
        proteins_proteins::NAME,
        Hooks::prepare(protein_interaction_types),
    ),
    (variants_biosamples::NAME, Hooks::prepare(biosample_counts)),
    (files_filesets::NAME, Hooks::prepare(genome_browser_link)),
];

/// `proteins_proteins.interaction_type`: a value the client's enum does not admit becomes null,
/// which the array normalisation then drops and counts (the client refuses the whole row
/// otherwise).
fn protein_interaction_types(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    let Some(Value::Array(types)) = doc.get(proteins_proteins::interaction_type) else {
        return Ok(());
    };
    let admitted = |v: &Value| {
        v.as_str()
            .is_some_and(|t| PROTEIN_INTERACTION_TYPES.contains(&t))
    };
    if types.iter().all(admitted) {
        return Ok(());
    }
    let kept = types
        .iter()
        .map(|v| if admitted(v) { v.clone() } else { Value::Null })
        .collect();
    doc.insert(
        proteins_proteins::interaction_type.into(),
        Value::Array(kept),
    );
    Ok(())
}

/// STARR-seq rows name their counts and fold change differently from MPRA rows: the MPRA
/// member takes the first non-null of (MPRA name, STARR-seq name).
const BIOSAMPLE_ALIASES: &[(&str, &str)] = &[
    (variants_biosamples::DNA_count_ref, starr::inputCountRef),
    (variants_biosamples::RNA_count_ref, starr::outputCountRef),
    (variants_biosamples::DNA_count_alt, starr::inputCountAlt),
    (variants_biosamples::RNA_count_alt, starr::outputCountAlt),
    (variants_biosamples::log2FC, starr::log2FoldChange),
];

/// `variants_biosamples` counts and `log2FC` under one set of names ([`BIOSAMPLE_ALIASES`]).
fn biosample_counts(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    for &(name, alias) in BIOSAMPLE_ALIASES {
        if doc.get(name).is_some_and(|v| !v.is_null()) {
            continue;
        }
        if let Some(v) = doc.get(alias).filter(|v| !v.is_null()).cloned() {
            doc.insert(name.into(), v);
        }
    }
    Ok(())
}

/// `files_filesets.has_genome_browser_link`: whether `genome_browser_link` is a non-empty
/// string (the /files-filesets facet).
fn genome_browser_link(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    let has = doc
        .get(files_filesets::genome_browser_link)
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty());
    doc.insert(
        files_filesets::has_genome_browser_link.into(),
        Value::Bool(has),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(f: super::super::Prepare, text: &str) -> Value {
        let mut doc = Doc::parse(text).unwrap();
        f(&mut doc, &Ctx::default()).unwrap();
        let members = doc
            .into_members()
            .map(|(n, t)| (n.into_owned(), t.value().unwrap()));
        Value::Object(members.collect())
    }

    #[test]
    fn test_interaction_types_outside_the_enum_become_null() {
        let v = run(
            protein_interaction_types,
            r#"{"interaction_type": ["physical association", "made up"]}"#,
        );
        assert_eq!(v["interaction_type"], json!(["physical association", null]));
    }

    #[test]
    fn test_starr_seq_counts_take_mpra_names() {
        let v = run(
            biosample_counts,
            r#"{"inputCountRef": 1.5, "outputCountRef": 2, "log2FC": null, "log2FoldChange": 0.3, "DNA_count_alt": 7, "inputCountAlt": 9}"#,
        );
        assert_eq!(v["DNA_count_ref"], json!(1.5));
        assert_eq!(v["RNA_count_ref"], json!(2));
        assert_eq!(v["log2FC"], json!(0.3));
        assert_eq!(v["DNA_count_alt"], json!(7));
        assert!(v.get("RNA_count_alt").is_none());
    }

    #[test]
    fn test_genome_browser_link_flag() {
        let v = run(
            genome_browser_link,
            r#"{"genome_browser_link": "https://x"}"#,
        );
        assert_eq!(v["has_genome_browser_link"], json!(true));
        let v = run(genome_browser_link, r#"{"genome_browser_link": null}"#);
        assert_eq!(v["has_genome_browser_link"], json!(false));
    }
}
