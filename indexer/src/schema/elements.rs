//! Builder hooks of genomic elements and disease–gene associations.

use serde_json::{json, Value};

use super::{
    diseases_genes, genomic_elements_biosamples, variants_diseases, variants_diseases_genes, Hooks,
};
use crate::derive::Ctx;
use crate::doc::Doc;

/// The hooks of these collections (and `variants_genomic_elements` takes [`element_type`]).
pub(super) const HOOKS: &[(&str, Hooks)] = &[
    (
        genomic_elements_biosamples::NAME,
        Hooks::prepare(element_type),
    ),
    (diseases_genes::NAME, Hooks::prepare(disease_gene_variants)),
];

/// `element_type` of an edge to a genomic element: the element's `type`, so 4.5/4.11 filter
/// by element type with one bitmap instead of collecting every element of the type.
pub(super) fn element_type(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
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
fn disease_gene_variants(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    let (Some(disease), Some(gene)) = (
        doc.get("_from").and_then(Value::as_str),
        doc.get("_to").and_then(Value::as_str),
    ) else {
        return Ok(());
    };
    let Some(vd) = ctx.get(variants_diseases::NAME) else {
        return Ok(());
    };
    let Some(list) = vd
        .adjacency(variants_diseases::_to)
        .and_then(|m| m.get(disease))
    else {
        return Ok(());
    };
    let vdg = ctx.get(variants_diseases_genes::NAME);
    let mut variants = Vec::new();
    let mut inheritance: Option<String> = None;
    for e in list.iter() {
        if vd.string(e, "gene_id").as_deref() != Some(gene) {
            continue;
        }
        if inheritance.is_none() {
            let handle = format!(
                "{}/{}",
                variants_diseases::NAME,
                vd.string(e, "_key").unwrap_or_default()
            );
            inheritance = vdg.and_then(|c| {
                let l = c.adjacency(variants_diseases_genes::_from)?.get(&handle)?;
                let first = l.iter().find_map(|x| c.string(x, "inheritance_mode"));
                first
            });
        }
        let Some((vc, vo)) = vd.string(e, "_from").and_then(|h| ctx.resolve(&h)) else {
            continue;
        };
        let field = |f: &str| {
            vc.value(vo, f)
                .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
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
