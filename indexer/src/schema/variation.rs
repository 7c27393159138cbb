//! Builder hooks of variants and coding variants, and the derived coding-variant scores.

use std::sync::OnceLock;

use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use varcat_format::namemap::FastMap;

use super::{
    coding_variant_scores, coding_variants, coding_variants_phenotypes, mm_variants,
    variant_annotations, variants, Hooks, Member, AF_SOURCES,
};
use crate::derive::{object, Ctx, Generator, Unit, Units};
use crate::doc::{raw_members, Doc};

/// The hooks of these collections.
pub(super) const HOOKS: &[(&str, Hooks)] = &[
    (variants::NAME, Hooks::prepare(human_variant)),
    (mm_variants::NAME, Hooks::prepare(mouse_variant)),
    (coding_variants::NAME, Hooks::prepare(coding_variant_name)),
    (
        coding_variant_scores::NAME,
        Hooks::derive(CODING_VARIANT_SCORES),
    ),
];

/// The variant `annotations` member in its output shape (4.2, verbose 4.1): every
/// allele-frequency source under its interface name (`gnomad_af_X` from the document's
/// `af_X`; the gnomAD members would otherwise be lost, as in IGVF's verbose answers), then
/// `GENCODE_category` and `funseq_description` (both from `funseq_description`). Every member
/// is present (null when unknown); the rest of FAVOR's annotations is not kept.
fn variant_annotations(doc: &mut Doc<'_>, organism: &str) {
    let sources = AF_SOURCES;
    // Read from the raw text: only the members kept are parsed (see crate::doc). One pass
    // over FAVOR's ~95 members finds the ones kept, a hash each (looking each kept name up
    // in them was ~1,700 comparisons per variant; each of them among the kept ones, ~25).
    let members = doc
        .raw(variants::annotations)
        .and_then(|raw| raw_members(raw.get()).ok())
        .unwrap_or_default();
    let wanted = annotation_slots();
    let mut found: Vec<Option<&RawValue>> = vec![None; sources.len() + 1 + KEPT_APART.len()];
    for (name, raw) in &members {
        if let Some(&i) = wanted.get(name.as_ref()) {
            found[i] = Some(*raw); // a repeated name counts with its last value
        }
    }
    let parsed = |raw: Option<&RawValue>, keep: fn(&Value) -> bool| {
        raw.and_then(|r| serde_json::from_str::<Value>(r.get()).ok())
            .filter(keep)
            .unwrap_or(Value::Null)
    };
    // The output's names are cloned from a template (no hashing per variant).
    let mut out = annotation_template().clone();
    let mut values = out.values_mut();
    // `found` first: zip takes from its first iterator first, and must not take the
    // `GENCODE_category` slot from `values` when the sources run out.
    for (raw, v) in found[..sources.len()].iter().zip(values.by_ref()) {
        *v = parsed(*raw, Value::is_number);
    }
    let funseq = parsed(found[sources.len()], Value::is_string);
    for v in values {
        *v = funseq.clone();
    }
    doc.insert(variants::annotations.into(), Value::Object(out));
    // Kept beside `annotations`, which other endpoints output whole (/variants/summary).
    for (i, (name, keep)) in KEPT_APART.iter().enumerate() {
        let v = parsed(found[sources.len() + 1 + i], *keep);
        if !v.is_null() {
            doc.insert((*name).into(), v);
        }
    }
    if doc.get(variants::organism).is_none_or(Value::is_null) {
        doc.insert(variants::organism.into(), json!(organism));
    }
}

/// A JSON type test.
type IsType = fn(&Value) -> bool;

/// FAVOR annotations kept as top-level variant members (not in the output `annotations`), with
/// the JSON type each must have: FAVOR's names are the catalog's.
const KEPT_APART: &[(&str, IsType)] = &[
    (variants::varinfo, Value::is_string),
    (variants::cadd_rawscore, Value::is_number),
    (variants::cadd_phred, Value::is_number),
];

/// Names IGVF's FAVOR adapter writes into a variant document's `annotations` that the
/// catalog's schema does not declare.
mod favor {
    /// The prefix of an allele-frequency source's name that FAVOR's member lacks: FAVOR writes
    /// gnomAD's frequencies as `af_total`, `af_afr`, … (sources `gnomad_af_total`, …) and
    /// BRAVO's as `bravo_af` (its source's name).
    pub const GNOMAD_PREFIX: &str = "gnomad_";
    /// FunSeq's description of the variant (`coding`, `noncoding`): the output has it both as
    /// `GENCODE_category` and under this name.
    pub const FUNSEQ_DESCRIPTION: &str = "funseq_description";
}

/// The name of a member of `annotations` inside it (`annotations.GENCODE_category`:
/// `GENCODE_category`).
fn annotation_member(m: Member) -> &'static str {
    let name = m.name();
    name.strip_prefix(variants::annotations)
        .and_then(|n| n.strip_prefix('.'))
        .unwrap_or(name)
}

/// The `annotations` members read by [`variant_annotations`], each with its slot: the
/// allele-frequency sources in their order, then `funseq_description`, then [`KEPT_APART`].
fn annotation_slots() -> &'static FastMap<&'static str, usize> {
    static SLOTS: OnceLock<FastMap<&'static str, usize>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let sources = AF_SOURCES;
        sources
            .iter()
            .map(|s| s.strip_prefix(favor::GNOMAD_PREFIX).unwrap_or(s))
            .chain([favor::FUNSEQ_DESCRIPTION])
            .chain(KEPT_APART.iter().map(|k| k.0))
            .enumerate()
            .fold(FastMap::default(), |mut m, (i, n)| {
                m.entry(n).or_insert(i); // the first slot of a repeated name, as a scan finds
                m
            })
    })
}

/// The output `annotations` with every member null, in output order: the sources, then
/// `GENCODE_category` and `funseq_description`.
fn annotation_template() -> &'static Map<String, Value> {
    static TEMPLATE: OnceLock<Map<String, Value>> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        AF_SOURCES
            .iter()
            .copied()
            .chain([
                annotation_member(variant_annotations::GENCODE_category),
                favor::FUNSEQ_DESCRIPTION,
            ])
            .map(|n| (n.to_string(), Value::Null))
            .collect()
    })
}

/// Preparation of `variants` documents.
fn human_variant(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    variant_annotations(doc, "Homo sapiens");
    Ok(())
}

/// Preparation of `mm_variants` documents.
fn mouse_variant(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    variant_annotations(doc, "Mus musculus");
    Ok(())
}

/// Coding-variant names in display form (see `varcat_format::text::coding_variant_name`).
fn coding_variant_name(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    if let Some(Value::String(n)) = doc.get(coding_variants::name) {
        let shown = varcat_format::text::coding_variant_name(n);
        doc.insert(coding_variants::name.into(), Value::String(shown));
    }
    Ok(())
}

/// The score members of `coding_variants_phenotypes`, in the order the first present one is
/// taken (one per method: MutPred2, ESM-1v, SGE/VAMP-seq, DUAL-IPA, variant painting). A 0 is
/// a score.
const SCORE_MEMBERS: &[&str] = &[
    coding_variants_phenotypes::pathogenicity_score,
    coding_variants_phenotypes::esm_1v_score,
    coding_variants_phenotypes::score,
    coding_variants_phenotypes::dualipa_abun_score,
    coding_variants_phenotypes::localization_score,
];

/// `coding_variant_scores`: one record per coding variant, in the coding variants' own order
/// (so both share ordinals), with its scores from `coding_variants_phenotypes` ordered by
/// (method, source_url), and the methods and file sets present (4.4 filters).
const CODING_VARIANT_SCORES: Generator = Generator {
    units: |ctx| {
        ctx.get(coding_variants::NAME)
            .map_or(Units::none(), |cv| Units::ords(cv.len()))
    },
    docs: coding_variant_scores,
};

fn coding_variant_scores(ctx: &Ctx, unit: Unit<'_>, out: &mut Vec<Map<String, Value>>) {
    let (Some(cv), Unit::Ord(ord)) = (ctx.get(coding_variants::NAME), unit) else {
        return;
    };
    let cvp = ctx.get(coding_variants_phenotypes::NAME);
    let by_from = cvp.and_then(|c| c.adjacency(coding_variants_phenotypes::_from));
    let Some(key) = cv.string(ord, coding_variants::_key) else {
        return;
    };
    let mut scores: Vec<(String, String, Value)> = Vec::new();
    if let (Some(cvp), Some(list)) = (
        cvp,
        by_from.and_then(|m| m.get(&format!("{}/{key}", coding_variants::NAME))),
    ) {
        for e in list.iter() {
            let num = |f: &str| {
                cvp.value(e, f)
                    .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                    .filter(Value::is_number)
            };
            let score = SCORE_MEMBERS
                .iter()
                .find_map(|f| num(f))
                .unwrap_or(Value::Null);
            let method = cvp
                .string(e, coding_variants_phenotypes::method)
                .unwrap_or_default();
            let url = cvp
                .string(e, coding_variants_phenotypes::source_url)
                .unwrap_or_default();
            let files = cvp.string(e, coding_variants_phenotypes::files_filesets);
            // The edge's members under their names, with the score it gives.
            scores.push((
                method.clone(),
                url.clone(),
                json!({
                    coding_variants_phenotypes::method: method,
                    "score": score,
                    coding_variants_phenotypes::source_url: url,
                    coding_variants_phenotypes::files_filesets: files,
                }),
            ));
        }
    }
    scores.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    let methods: Vec<String> = scores.iter().map(|s| s.0.clone()).collect();
    let files: Vec<Value> = scores
        .iter()
        .map(|s| s.2[coding_variants_phenotypes::files_filesets].clone())
        .filter(|v| v.is_string())
        .collect();
    let value = |f: &str| {
        cv.value(ord, f)
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .unwrap_or(Value::Null)
    };
    out.push(object(json!({
        coding_variant_scores::_key: key,
        coding_variant_scores::protein_id: value(coding_variants::protein_id),
        coding_variant_scores::aapos: value(coding_variants::aapos),
        coding_variant_scores::hgvsp: value(coding_variants::hgvsp),
        coding_variant_scores::scores: scores.into_iter().map(|s| s.2).collect::<Vec<_>>(),
        coding_variant_scores::score_methods: methods,
        coding_variant_scores::score_files: files,
    })));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_variant_annotations_take_sources_and_funseq_in_output_order() {
        let text = r#"{"_key":"v","annotations":{"varinfo":"x","af_total":0.5,"bravo_af":"0.1",
            "af_afr":0.25,"af_afr":0.125,"funseq_description":"coding","af_raw":1e-3,"nucdiv":2}}"#;
        let mut doc = Doc::parse(text).unwrap();
        variant_annotations(&mut doc, "Homo sapiens");
        let Some(Value::Object(out)) = doc.get("annotations") else {
            panic!("no annotations object");
        };
        let names: Vec<&str> = out.keys().map(String::as_str).collect();
        let mut want: Vec<&str> = AF_SOURCES.to_vec();
        want.extend(["GENCODE_category", "funseq_description"]);
        assert_eq!(names, want);
        // A string is not a frequency; a repeated member counts with its last value.
        assert_eq!(out["bravo_af"], Value::Null);
        assert_eq!(out["gnomad_af_total"], json!(0.5));
        assert_eq!(out["gnomad_af_afr"], json!(0.125));
        assert_eq!(out["gnomad_af_raw"], json!(1e-3));
        assert_eq!(out["gnomad_af_sas"], Value::Null);
        assert_eq!(out["GENCODE_category"], json!("coding"));
        assert_eq!(out["funseq_description"], json!("coding"));
        assert_eq!(doc.get("organism"), Some(&json!("Homo sapiens")));
        assert_eq!(doc.get("varinfo"), Some(&json!("x")));
        assert_eq!(doc.get("cadd_phred"), None);
    }
}
