//! Builder hooks of variant associations, and the derived LD-partner predictions.

use serde_json::{json, Map, Value};

use super::{
    genes, variant_ld_predictions, variants_diseases, variants_genes, variants_genomic_elements,
    variants_proteins, variants_variants, Hooks,
};
use crate::derive::{object, Ctx, Generator, Unit, Units};
use crate::doc::Doc;

/// The hooks of these collections.
pub(super) const HOOKS: &[(&str, Hooks)] = &[
    (
        variants_genomic_elements::NAME,
        Hooks::prepare(super::elements::element_type),
    ),
    (variants_diseases::NAME, Hooks::prepare(disease_gene_name)),
    (
        variant_ld_predictions::NAME,
        Hooks::derive(VARIANT_LD_PREDICTIONS),
    ),
];

/// `variants_diseases.gene_name`: the name of the gene its `gene_id` handle points at (4.13).
fn disease_gene_name(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    if doc
        .get(variants_diseases::gene_name)
        .is_some_and(|v| !v.is_null())
    {
        return Ok(());
    }
    let gene_id = doc.get(variants_diseases::gene_id).and_then(Value::as_str);
    let name = gene_id.and_then(|h| {
        let (c, o) = ctx.resolve(h)?;
        c.string(o, genes::name)
    });
    if let Some(n) = name {
        doc.insert(variants_diseases::gene_name.into(), Value::String(n));
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
    if let Some(vg) = ctx.get(variants_genes::NAME) {
        if let Some(list) = vg
            .adjacency(variants_genes::_from)
            .and_then(|m| m.get(handle))
        {
            for e in list.iter() {
                let Some(label) = vg.string(e, variants_genes::label) else {
                    continue;
                };
                let entry = qtls.entry(label).or_default();
                *entry
                    .0
                    .entry(vg.string(e, variants_genes::biological_context))
                    .or_insert(0) += 1;
                let gene = vg.string(e, variants_genes::_to).map(|h| {
                    ctx.resolve(&h)
                        .and_then(|(c, o)| c.string(o, genes::name))
                        .unwrap_or_else(|| h.split_once('/').map_or(h.clone(), |x| x.1.to_string()))
                });
                *entry.1.entry(gene).or_insert(0) += 1;
            }
        }
    }
    let mut tf: BTreeMap<String, (u64, Counts)> = BTreeMap::new();
    if let Some(vp) = ctx.get(variants_proteins::NAME) {
        if let Some(list) = vp
            .adjacency(variants_proteins::_from)
            .and_then(|m| m.get(handle))
        {
            for e in list.iter() {
                let asb = vp.string(e, variants_proteins::label).as_deref()
                    == Some("allele-specific binding");
                let hit = vp.string(e, variants_proteins::motif_conc).as_deref() != Some("No Hit");
                if !(asb && hit) {
                    continue;
                }
                // GVATdb's binding has no motif: counted under "".
                let motif = vp.string(e, variants_proteins::motif).unwrap_or_default();
                let entry = tf.entry(motif).or_default();
                entry.0 += 1;
                *entry
                    .1
                    .entry(vp.string(e, variants_proteins::biological_context))
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
const VARIANT_LD_PREDICTIONS: Generator = Generator {
    units: |ctx| {
        let Some(ld) = ctx.get(variants_variants::NAME) else {
            return Units::none();
        };
        Units::Keys(Box::new(ctx.end_handles(
            ld,
            &[variants_variants::_from, variants_variants::_to],
        )))
    },
    docs: variant_ld_predictions,
};

fn variant_ld_predictions(ctx: &Ctx, unit: Unit<'_>, out: &mut Vec<Map<String, Value>>) {
    let Unit::Key(k) = unit else { return };
    let handle = String::from_utf8_lossy(k);
    if let Some(p) = ld_predictions(ctx, &handle) {
        out.push(object(json!({
            variant_ld_predictions::_key: handle,
            variant_ld_predictions::predictions: p,
        })));
    }
}
