//! Build-time joins: members derived from other collections, and derived tables.
//!
//! A preparation hook sees each document before it is stored, with read access to every
//! collection built before it; a generator produces the documents of a derived table.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use varcat_format::collection::Collection;

use crate::error::BuildError;
use crate::keyset::KeySet;

/// What build steps can read: the collections written so far.
#[derive(Default)]
pub struct Ctx {
    /// Collections built before the current one.
    pub built: HashMap<String, Collection>,
    /// Fingerprints of some of their keys, for reference checks.
    pub key_sets: HashMap<String, KeySet>,
    /// Threads a generator may use (at least 1).
    pub threads: usize,
}

impl Ctx {
    /// Collection `name`, if already built.
    pub fn get(&self, name: &str) -> Option<&Collection> {
        self.built.get(name)
    }

    /// True when handle `collection/key` resolves: from the collection's [`KeySet`] when it
    /// has one (see its note on fingerprints), else from its key map.
    pub fn exists(&self, handle: &str) -> bool {
        let Some((coll, c, key)) = self.target(handle) else {
            return false;
        };
        match self.key_sets.get(coll) {
            Some(s) => c
                .meta
                .key_encoding
                .encode(key.as_bytes())
                .is_some_and(|k| s.contains(&k)),
            None => c.ord(key).is_some(),
        }
    }

    /// Resolves a handle `collection/key` to its collection and ordinal.
    pub fn resolve(&self, handle: &str) -> Option<(&Collection, u32)> {
        let (_, c, key) = self.target(handle)?;
        Some((c, c.ord(key)?))
    }

    /// A handle's collection name, built collection and key.
    fn target<'h>(&self, handle: &'h str) -> Option<(&'h str, &Collection, &'h str)> {
        let (coll, key) = handle.split_once('/')?;
        Some((coll, self.get(coll)?, key))
    }
}

/// Sink of derived documents.
pub type Emit<'a> = dyn FnMut(Map<String, Value>) -> Result<(), BuildError> + 'a;

/// Produces a derived table's documents.
pub type Generator = fn(&Ctx, &mut Emit<'_>) -> Result<(), BuildError>;

use crate::doc::{raw_members, Doc};

/// `proteins.dbxref_ids`: the ids of `dbxrefs[]`, for the `dbxrefs` filter of 4.23.
pub fn protein_dbxref_ids(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    let ids: Vec<Value> = doc
        .get("dbxrefs")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.get("id").filter(|v| v.is_string()).cloned())
                .collect()
        })
        .unwrap_or_default();
    doc.insert("dbxref_ids".into(), Value::Array(ids));
    Ok(())
}

/// `genes_structure.protein_id`: the protein the row's transcript translates to (first
/// `transcripts_proteins` edge in key order), unless the document has one.
pub fn structure_protein_id(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    if doc.get("protein_id").is_some_and(|v| !v.is_null()) {
        return Ok(());
    }
    let Some(tid) = doc.get("transcript_id").and_then(Value::as_str) else {
        return Ok(());
    };
    let mouse = doc.get("organism").and_then(Value::as_str) == Some("Mus musculus");
    let handle = format!(
        "{}/{tid}",
        if mouse {
            "mm_transcripts"
        } else {
            "transcripts"
        }
    );
    let protein = ctx.get("transcripts_proteins").and_then(|tp| {
        let list = tp.by("_from")?.get(handle.as_bytes())?;
        let to = tp.string(list.iter().next()?, "_to")?;
        Some(
            to.split_once('/')
                .map_or(to.clone(), |(_, k)| k.to_string()),
        )
    });
    if let Some(p) = protein {
        doc.insert("protein_id".into(), Value::String(p));
    }
    Ok(())
}

/// `genes_proteins`: every (gene, protein) pair linked through a transcript
/// (`genes_transcripts` ⋈ `transcripts_proteins`), for 4.23 and 4.24. Duplicate pairs merge.
pub fn genes_proteins(ctx: &Ctx, emit: &mut Emit<'_>) -> Result<(), BuildError> {
    let (Some(tp), Some(gt)) = (
        ctx.get("transcripts_proteins"),
        ctx.get("genes_transcripts"),
    ) else {
        return Ok(());
    };
    let Some(by_to) = gt.by("_to") else {
        return Ok(());
    };
    let proteins = ctx.get("proteins");
    for ord in 0..tp.len() {
        let (Some(tr), Some(pr)) = (tp.string(ord, "_from"), tp.string(ord, "_to")) else {
            continue;
        };
        let Some(list) = by_to.get(tr.as_bytes()) else {
            continue;
        };
        let organism = pr
            .split_once('/')
            .and_then(|(_, k)| proteins.and_then(|p| p.string(p.ord(k)?, "organism")))
            .or_else(|| tp.string(ord, "organism"));
        for e in list.iter() {
            let Some(gene) = gt.string(e, "_from") else {
                continue;
            };
            emit(
                json!({
                    "_key": format!("{gene} {pr}"),
                    "gene": gene,
                    "protein": pr,
                    "organism": organism,
                })
                .as_object()
                .cloned()
                .unwrap_or_default(),
            )?;
        }
    }
    Ok(())
}

/// The variant `annotations` member in its output shape (4.2, verbose 4.1): every
/// allele-frequency source under its interface name (`gnomad_af_X` from the document's
/// `af_X`; the gnomAD members would otherwise be lost, as in IGVF's verbose answers), then
/// `GENCODE_category` and `funseq_description` (both from `funseq_description`). Every member
/// is present (null when unknown); the rest of FAVOR's annotations is not kept.
fn variant_annotations(doc: &mut Doc<'_>, organism: &str) {
    let sources = crate::schema::AF_SOURCES;
    // Read from the raw text: only the members kept are parsed (see crate::doc). One pass
    // over FAVOR's ~50 members finds the ones kept (looking each kept name up in them was
    // ~1,700 comparisons per variant).
    let members = doc
        .raw("annotations")
        .and_then(|raw| raw_members(raw.get().as_bytes()).ok())
        .unwrap_or_default();
    let wanted = annotation_slots();
    let mut found: Vec<Option<&RawValue>> = vec![None; sources.len() + 1];
    for (name, raw) in &members {
        // Lengths first: most names are rejected without comparing their bytes.
        let slot = wanted
            .iter()
            .find(|(n, _)| n.len() == name.len() && *n == name.as_ref());
        if let Some(&(_, i)) = slot {
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
    doc.insert("annotations".into(), Value::Object(out));
    if doc.get("organism").is_none_or(Value::is_null) {
        doc.insert("organism".into(), json!(organism));
    }
}

/// The `annotations` members read by [`variant_annotations`], each with its slot: the
/// allele-frequency sources in their order, then `funseq_description`.
fn annotation_slots() -> &'static [(&'static str, usize)] {
    static SLOTS: OnceLock<Vec<(&'static str, usize)>> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let sources = crate::schema::AF_SOURCES;
        sources
            .iter()
            .map(|s| s.strip_prefix("gnomad_").unwrap_or(s))
            .chain(["funseq_description"])
            .enumerate()
            .map(|(i, n)| (n, i))
            .collect()
    })
}

/// The output `annotations` with every member null, in output order: the sources, then
/// `GENCODE_category` and `funseq_description`.
fn annotation_template() -> &'static Map<String, Value> {
    static TEMPLATE: OnceLock<Map<String, Value>> = OnceLock::new();
    TEMPLATE.get_or_init(|| {
        crate::schema::AF_SOURCES
            .iter()
            .copied()
            .chain(["GENCODE_category", "funseq_description"])
            .map(|n| (n.to_string(), Value::Null))
            .collect()
    })
}

/// Preparation of `variants` documents.
pub fn human_variant(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    variant_annotations(doc, "Homo sapiens");
    Ok(())
}

/// Preparation of `mm_variants` documents.
pub fn mouse_variant(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    variant_annotations(doc, "Mus musculus");
    Ok(())
}

/// Coding-variant names in display form (see `varcat_format::text::coding_variant_name`).
pub fn coding_variant_name(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    if let Some(Value::String(n)) = doc.get("name") {
        let shown = varcat_format::text::coding_variant_name(n);
        doc.insert("name".into(), Value::String(shown));
    }
    Ok(())
}

/// The score members of `coding_variants_phenotypes`, in the order the first present one is
/// taken (one per method: MutPred2, ESM-1v, SGE/VAMP-seq, DUAL-IPA, variant painting). A 0 is
/// a score.
const SCORE_MEMBERS: &[&str] = &[
    "pathogenicity_score",
    "esm_1v_score",
    "score",
    "dualipa_abun_score",
    "localization_score",
];

/// `coding_variant_scores`: one record per coding variant, in the coding variants' own order
/// (so both share ordinals), with its scores from `coding_variants_phenotypes` ordered by
/// (method, source_url), and the methods and file sets present (4.4 filters).
pub fn coding_variant_scores(ctx: &Ctx, emit: &mut Emit<'_>) -> Result<(), BuildError> {
    let Some(cv) = ctx.get("coding_variants") else {
        return Ok(());
    };
    let cvp = ctx.get("coding_variants_phenotypes");
    let by_from = cvp.and_then(|c| c.by("_from"));
    for ord in 0..cv.len() {
        let Some(key) = cv.string(ord, "_key") else {
            continue;
        };
        let mut scores: Vec<(String, String, Value)> = Vec::new();
        if let (Some(cvp), Some(list)) = (
            cvp,
            by_from.and_then(|m| m.get(format!("coding_variants/{key}").as_bytes())),
        ) {
            for e in list.iter() {
                let num = |f: &str| {
                    cvp.value(e, f)
                        .and_then(|b| serde_json::from_slice::<Value>(b).ok())
                        .filter(Value::is_number)
                };
                let score = SCORE_MEMBERS
                    .iter()
                    .find_map(|f| num(f))
                    .unwrap_or(Value::Null);
                let method = cvp.string(e, "method").unwrap_or_default();
                let url = cvp.string(e, "source_url").unwrap_or_default();
                let files = cvp.string(e, "files_filesets");
                scores.push((
                    method.clone(),
                    url.clone(),
                    json!({"method": method, "score": score, "source_url": url, "files_filesets": files}),
                ));
            }
        }
        scores.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
        let methods: Vec<String> = scores.iter().map(|s| s.0.clone()).collect();
        let files: Vec<Value> = scores
            .iter()
            .map(|s| s.2["files_filesets"].clone())
            .filter(|v| v.is_string())
            .collect();
        let value = |f: &str| {
            cv.value(ord, f)
                .and_then(|b| serde_json::from_slice::<Value>(b).ok())
                .unwrap_or(Value::Null)
        };
        emit(
            json!({
                "_key": key,
                "protein_id": value("protein_id"),
                "aapos": value("aapos"),
                "hgvsp": value("hgvsp"),
                "scores": scores.into_iter().map(|s| s.2).collect::<Vec<_>>(),
                "score_methods": methods,
                "score_files": files,
            })
            .as_object()
            .cloned()
            .unwrap_or_default(),
        )?;
    }
    Ok(())
}

/// `variants_diseases.gene_name`: the name of the gene its `gene_id` handle points at (4.13).
pub fn disease_gene_name(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    if doc.get("gene_name").is_some_and(|v| !v.is_null()) {
        return Ok(());
    }
    let name = doc.get("gene_id").and_then(Value::as_str).and_then(|h| {
        let (c, o) = ctx.resolve(h)?;
        c.string(o, "name")
    });
    if let Some(n) = name {
        doc.insert("gene_name".into(), Value::String(n));
    }
    Ok(())
}

/// Counts per name as `[{key: name, "count": n}]`, names in byte order, null names last.
fn counted(counts: &std::collections::BTreeMap<Option<String>, u64>, key: &str) -> Value {
    let mut items: Vec<(&Option<String>, &u64)> = counts.iter().collect();
    items.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    Value::Array(
        items
            .into_iter()
            .map(|(n, c)| json!({ key: n, "count": c }))
            .collect(),
    )
}

/// The 4.12 predictions of one variant handle: its QTLs (`variants_genes`) grouped by label
/// with counts per cell type and gene, and its allele-specific TF binding (`variants_proteins`
/// with label "allele-specific binding" and a motif hit) grouped by motif with counts per cell
/// type. Empty when it has neither.
fn ld_predictions(ctx: &Ctx, handle: &str) -> Option<Value> {
    use std::collections::BTreeMap;
    type Counts = BTreeMap<Option<String>, u64>;
    let mut qtls: BTreeMap<String, (Counts, Counts)> = BTreeMap::new();
    if let Some(vg) = ctx.get("variants_genes") {
        if let Some(list) = vg.by("_from").and_then(|m| m.get(handle.as_bytes())) {
            for e in list.iter() {
                let Some(label) = vg.string(e, "label") else {
                    continue;
                };
                let entry = qtls.entry(label).or_default();
                *entry
                    .0
                    .entry(vg.string(e, "biological_context"))
                    .or_insert(0) += 1;
                let gene = vg.string(e, "_to").map(|h| {
                    ctx.resolve(&h)
                        .and_then(|(c, o)| c.string(o, "name"))
                        .unwrap_or_else(|| h.split_once('/').map_or(h.clone(), |x| x.1.to_string()))
                });
                *entry.1.entry(gene).or_insert(0) += 1;
            }
        }
    }
    let mut tf: BTreeMap<String, (u64, Counts)> = BTreeMap::new();
    if let Some(vp) = ctx.get("variants_proteins") {
        if let Some(list) = vp.by("_from").and_then(|m| m.get(handle.as_bytes())) {
            for e in list.iter() {
                let asb = vp.string(e, "label").as_deref() == Some("allele-specific binding");
                let hit = vp.string(e, "motif_conc").as_deref() != Some("No Hit");
                let Some(motif) = vp.string(e, "motif").filter(|_| asb && hit) else {
                    continue;
                };
                let entry = tf.entry(motif).or_default();
                entry.0 += 1;
                *entry
                    .1
                    .entry(vp.string(e, "biological_context"))
                    .or_insert(0) += 1;
            }
        }
    }
    if qtls.is_empty() && tf.is_empty() {
        return None;
    }
    Some(json!({
        "qtls": qtls.iter().map(|(t, (cells, genes))| json!({
            "type": t, "cell_types": counted(cells, "name"), "genes": counted(genes, "name"),
        })).collect::<Vec<_>>(),
        "tf_binding": tf.iter().map(|(m, (n, cells))| json!({
            "motif": m, "count": n, "cell_types": counted(cells, "cell_type"),
        })).collect::<Vec<_>>(),
    }))
}

/// `variant_ld_predictions`: the predictions of every variant that takes part in an LD pair,
/// found by streaming the union of the sorted `_from` and `_to` keys of `variants_variants`.
pub fn variant_ld_predictions(ctx: &Ctx, emit: &mut Emit<'_>) -> Result<(), BuildError> {
    let Some(ld) = ctx.get("variants_variants") else {
        return Ok(());
    };
    let maps: Vec<&varcat_format::fstmap::MultiMap> = [ld.by("_from"), ld.by("_to")]
        .into_iter()
        .flatten()
        .collect();
    let mut handles = varcat_format::fstmap::MultiMap::keys_in_union(&maps);
    // Each variant's predictions are independent joins: batches run on every core, and their
    // documents are emitted in key order, so the table does not depend on the thread count.
    crate::parallel::map_ordered(
        ctx.threads,
        || (),
        || {
            let batch: Vec<Vec<u8>> = handles.by_ref().take(256).collect();
            Ok::<_, BuildError>((!batch.is_empty()).then_some(batch))
        },
        |_, batch: Vec<Vec<u8>>| {
            batch
                .into_iter()
                .filter_map(|k| {
                    let handle = String::from_utf8_lossy(&k).into_owned();
                    let p = ld_predictions(ctx, &handle)?;
                    json!({"_key": handle, "predictions": p})
                        .as_object()
                        .cloned()
                })
                .collect::<Vec<_>>()
        },
        |docs| docs.into_iter().try_for_each(&mut *emit),
    )?;
    Ok(())
}

/// `element_type` of an edge to a genomic element: the element's `type`, so 4.5/4.11 filter
/// by element type with one bitmap instead of collecting every element of the type.
pub fn element_type(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    let handle = doc
        .get("_to")
        .and_then(Value::as_str)
        .filter(|h| h.contains("genomic_elements/"));
    let handle = handle.or_else(|| {
        doc.get("_from")
            .and_then(Value::as_str)
            .filter(|h| h.contains("genomic_elements/"))
    });
    let ty = handle.and_then(|h| {
        let (c, o) = ctx.resolve(h)?;
        c.string(o, "type")
    });
    if let Some(t) = ty {
        doc.insert("element_type".into(), Value::String(t));
    }
    Ok(())
}

/// `diseases_genes.variants` and `inheritance_mode`: the ClinGen variants associated with the
/// same disease whose gene is this row's gene (`variants_diseases`), in key order, in their
/// minimal form, and the first inheritance mode their `variants_diseases_genes` edges give.
pub fn disease_gene_variants(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    let (Some(disease), Some(gene)) = (
        doc.get("_from").and_then(Value::as_str),
        doc.get("_to").and_then(Value::as_str),
    ) else {
        return Ok(());
    };
    let Some(vd) = ctx.get("variants_diseases") else {
        return Ok(());
    };
    let Some(list) = vd.by("_to").and_then(|m| m.get(disease.as_bytes())) else {
        return Ok(());
    };
    let vdg = ctx.get("variants_diseases_genes");
    let mut variants = Vec::new();
    let mut inheritance: Option<String> = None;
    for e in list.iter() {
        if vd.string(e, "gene_id").as_deref() != Some(gene) {
            continue;
        }
        if inheritance.is_none() {
            let handle = format!(
                "variants_diseases/{}",
                vd.string(e, "_key").unwrap_or_default()
            );
            inheritance = vdg.and_then(|c| {
                let l = c.by("_from")?.get(handle.as_bytes())?;
                let first = l.iter().find_map(|x| c.string(x, "inheritance_mode"));
                first
            });
        }
        let Some((vc, vo)) = vd.string(e, "_from").and_then(|h| ctx.resolve(&h)) else {
            continue;
        };
        let field = |f: &str| {
            vc.value(vo, f)
                .and_then(|b| serde_json::from_slice::<Value>(b).ok())
                .unwrap_or(Value::Null)
        };
        variants.push(json!({
            "chr": field("chr"), "pos": field("pos"), "ref": field("ref"), "alt": field("alt"),
            "rsid": field("rsid"), "spdi": field("spdi"), "hgvs": field("hgvs"),
        }));
    }
    doc.insert("variants".into(), Value::Array(variants));
    if let Some(i) = inheritance {
        doc.insert("inheritance_mode".into(), Value::String(i));
    }
    Ok(())
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
        let mut want: Vec<&str> = crate::schema::AF_SOURCES.to_vec();
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
    }
}
