//! Build-time joins: members derived from other collections, and derived tables.
//!
//! A preparation hook sees each document before it is stored, with read access to every
//! collection built before it; a generator produces the documents of a derived table.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use varcat_format::collection::Collection;

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

/// A derived table: the units its documents come from, in output order, and the documents of
/// one unit. A unit's documents depend only on the unit and the collections built before, so
/// units are computed on every core, encoded there, and stored in unit order (the table does
/// not depend on the thread count).
#[derive(Clone, Copy)]
pub struct Generator {
    /// The units.
    pub units: for<'c> fn(&'c Ctx) -> Units<'c>,
    /// Appends the documents of one unit.
    pub docs: fn(&Ctx, Unit<'_>, &mut Vec<Map<String, Value>>),
}

/// A derived table's units, in output order.
pub enum Units<'c> {
    /// The ordinals `next..end` of a collection.
    Ords { next: u32, end: u32 },
    /// Keys, in order.
    Keys(Box<dyn Iterator<Item = Vec<u8>> + 'c>),
}

/// One unit.
#[derive(Clone, Copy)]
pub enum Unit<'a> {
    Ord(u32),
    Key(&'a [u8]),
}

/// Units for a worker: ordinals, or keys in one buffer (a `Vec` per key, freed on the worker,
/// would contend with the producing thread's allocations).
pub struct UnitBatch {
    /// The 0-based number of the batch's first unit.
    pub first: u64,
    ords: std::ops::Range<u32>,
    keys: Vec<u8>,
    ends: Vec<usize>,
}

impl Units<'_> {
    /// No units (a table whose sources were not built).
    pub fn none() -> Units<'static> {
        Units::Ords { next: 0, end: 0 }
    }

    /// Ordinals `0..n`.
    pub fn ords(n: u32) -> Units<'static> {
        Units::Ords { next: 0, end: n }
    }

    /// The next at most `max` units, the first being unit number `first`; None when done.
    pub fn next_batch(&mut self, first: u64, max: usize) -> Option<UnitBatch> {
        let mut b = UnitBatch {
            first,
            ords: 0..0,
            keys: Vec::new(),
            ends: Vec::new(),
        };
        match self {
            Units::Ords { next, end } => {
                let take = (*end - *next).min(max as u32);
                b.ords = *next..*next + take;
                *next += take;
            }
            Units::Keys(it) => {
                for k in it.by_ref().take(max) {
                    b.keys.extend_from_slice(&k);
                    b.ends.push(b.keys.len());
                }
            }
        }
        (!b.is_empty()).then_some(b)
    }
}

impl UnitBatch {
    /// Units in the batch.
    pub fn len(&self) -> usize {
        self.ords.len() + self.ends.len()
    }

    /// True when it holds no unit.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The units, in order.
    pub fn units(&self) -> impl Iterator<Item = Unit<'_>> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        let keys = starts
            .zip(&self.ends)
            .map(|(a, &b)| Unit::Key(&self.keys[a..b]));
        self.ords.clone().map(Unit::Ord).chain(keys)
    }
}

/// A `json!` object as a map.
fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

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
/// (`genes_transcripts` ⋈ `transcripts_proteins`), for 4.23 and 4.24, one unit per
/// `transcripts_proteins` edge. Duplicate pairs merge.
pub const GENES_PROTEINS: Generator = Generator {
    units: |ctx| match (
        ctx.get("transcripts_proteins"),
        ctx.get("genes_transcripts"),
    ) {
        (Some(tp), Some(gt)) if gt.by("_to").is_some() => Units::ords(tp.len()),
        _ => Units::none(),
    },
    docs: genes_proteins,
};

fn genes_proteins(ctx: &Ctx, unit: Unit<'_>, out: &mut Vec<Map<String, Value>>) {
    let (Some(tp), Some(gt), Unit::Ord(ord)) = (
        ctx.get("transcripts_proteins"),
        ctx.get("genes_transcripts"),
        unit,
    ) else {
        return;
    };
    let Some(by_to) = gt.by("_to") else {
        return;
    };
    let (Some(tr), Some(pr)) = (tp.string(ord, "_from"), tp.string(ord, "_to")) else {
        return;
    };
    let Some(list) = by_to.get(tr.as_bytes()) else {
        return;
    };
    let proteins = ctx.get("proteins");
    let organism = pr
        .split_once('/')
        .and_then(|(_, k)| proteins.and_then(|p| p.string(p.ord(k)?, "organism")))
        .or_else(|| tp.string(ord, "organism"));
    for e in list.iter() {
        let Some(gene) = gt.string(e, "_from") else {
            continue;
        };
        out.push(object(json!({
            "_key": format!("{gene} {pr}"),
            "gene": gene,
            "protein": pr,
            "organism": organism,
        })));
    }
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
pub const CODING_VARIANT_SCORES: Generator = Generator {
    units: |ctx| {
        ctx.get("coding_variants")
            .map_or(Units::none(), |cv| Units::ords(cv.len()))
    },
    docs: coding_variant_scores,
};

fn coding_variant_scores(ctx: &Ctx, unit: Unit<'_>, out: &mut Vec<Map<String, Value>>) {
    let (Some(cv), Unit::Ord(ord)) = (ctx.get("coding_variants"), unit) else {
        return;
    };
    let cvp = ctx.get("coding_variants_phenotypes");
    let by_from = cvp.and_then(|c| c.by("_from"));
    let Some(key) = cv.string(ord, "_key") else {
        return;
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
    out.push(object(json!({
        "_key": key,
        "protein_id": value("protein_id"),
        "aapos": value("aapos"),
        "hgvsp": value("hgvsp"),
        "scores": scores.into_iter().map(|s| s.2).collect::<Vec<_>>(),
        "score_methods": methods,
        "score_files": files,
    })));
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
/// with label "allele-specific binding" whose motif is not "No Hit": ADASTRA, GVATdb) grouped
/// by motif (`""` for GVATdb's, which name none) with counts per cell type. Empty when it has neither.
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
                if !(asb && hit) {
                    continue;
                }
                // GVATdb's binding has no motif: counted under "".
                let motif = vp.string(e, "motif").unwrap_or_default();
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
/// one unit per variant handle, streamed from the union of the sorted `_from` and `_to` keys
/// of `variants_variants`.
pub const VARIANT_LD_PREDICTIONS: Generator = Generator {
    units: |ctx| {
        let Some(ld) = ctx.get("variants_variants") else {
            return Units::none();
        };
        let maps: Vec<&varcat_format::fstmap::MultiMap> = [ld.by("_from"), ld.by("_to")]
            .into_iter()
            .flatten()
            .collect();
        Units::Keys(Box::new(varcat_format::fstmap::MultiMap::keys_in_union(
            &maps,
        )))
    },
    docs: variant_ld_predictions,
};

fn variant_ld_predictions(ctx: &Ctx, unit: Unit<'_>, out: &mut Vec<Map<String, Value>>) {
    let Unit::Key(k) = unit else { return };
    let handle = String::from_utf8_lossy(k);
    if let Some(p) = ld_predictions(ctx, &handle) {
        out.push(object(json!({"_key": handle, "predictions": p})));
    }
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
/// minimal form (absent when there are none), and the first inheritance mode their `variants_diseases_genes` edges give.
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
    // A row with no variants has none (rendered null), not an empty list.
    if !variants.is_empty() {
        doc.insert("variants".into(), Value::Array(variants));
    }
    if let Some(i) = inheritance {
        doc.insert("inheritance_mode".into(), Value::String(i));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The units of batches, as (number, unit) pairs.
    fn drain(mut units: Units<'_>, max: usize) -> Vec<(u64, String)> {
        let mut out = Vec::new();
        let mut first = 0;
        while let Some(b) = units.next_batch(first, max) {
            assert!(b.len() <= max && !b.is_empty());
            for (n, u) in (b.first..).zip(b.units()) {
                out.push((
                    n,
                    match u {
                        Unit::Ord(o) => format!("#{o}"),
                        Unit::Key(k) => String::from_utf8(k.to_vec()).unwrap(),
                    },
                ));
            }
            first += b.len() as u64;
        }
        out
    }

    proptest! {
        /// Batches of any size hand out every unit once, in order, numbered from 0.
        #[test]
        fn prop_unit_batches_keep_every_unit_in_order(keys in prop::collection::vec("[a-c]{0,4}", 0..40), n in 0u32..40, max in 1usize..9) {
            let want: Vec<(u64, String)> = (0..).zip(keys.iter().cloned()).collect();
            let it = keys.clone().into_iter().map(String::into_bytes);
            prop_assert_eq!(drain(Units::Keys(Box::new(it)), max), want);
            let want: Vec<(u64, String)> = (0..n).map(|o| (o as u64, format!("#{o}"))).collect();
            prop_assert_eq!(drain(Units::ords(n), max), want);
        }
    }

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
