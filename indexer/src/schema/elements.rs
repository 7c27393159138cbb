//! Builder hooks of genomic elements and disease–gene associations.

use serde_json::{Map, Value};

use super::{
    diseases_genes, genomic_elements, genomic_elements_biosamples, mm_genomic_elements, system,
    variants, variants_diseases, variants_diseases_genes, variants_genomic_elements, Hooks,
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

/// The member both edge collections that take [`element_type`] store it under (a test holds
/// them to one name).
const ELEMENT_TYPE: &str = variants_genomic_elements::element_type;

/// `element_type` of an edge to a genomic element: the element's `type`, so 4.5/4.11 filter
/// by element type with one bitmap instead of collecting every element of the type.
pub(super) fn element_type(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    let end = |m| doc.get(m).and_then(Value::as_str).filter(|h| is_element(h));
    let ty = end(system::TO).or_else(|| end(system::FROM)).and_then(|h| {
        let (c, o) = ctx.resolve(h)?;
        c.string(o, genomic_elements::r#type)
    });
    if let Some(t) = ty {
        doc.insert(ELEMENT_TYPE.into(), Value::String(t));
    }
    Ok(())
}

/// Whether `handle` names a genomic element of either organism.
fn is_element(handle: &str) -> bool {
    handle
        .split_once('/')
        .is_some_and(|(c, _)| c == genomic_elements::NAME || c == mm_genomic_elements::NAME)
}

/// The members of a variant (of either organism) in its minimal form, in output order.
const MINIMAL_VARIANT: &[&str] = &[
    variants::chr,
    variants::pos,
    variants::r#ref,
    variants::alt,
    variants::rsid,
    variants::spdi,
    variants::hgvs,
];

/// `diseases_genes.variants` and `inheritance_mode`: the ClinGen variants associated with the
/// same disease whose gene is this row's gene (`variants_diseases`), in key order, in their
/// minimal form (absent when there are none), and the first inheritance mode their `variants_diseases_genes` edges give.
fn disease_gene_variants(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    let (Some(disease), Some(gene)) = (
        doc.get(diseases_genes::_from).and_then(Value::as_str),
        doc.get(diseases_genes::_to).and_then(Value::as_str),
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
        if vd.string(e, variants_diseases::gene_id).as_deref() != Some(gene) {
            continue;
        }
        if inheritance.is_none() {
            let handle = format!(
                "{}/{}",
                variants_diseases::NAME,
                vd.string(e, variants_diseases::_key).unwrap_or_default()
            );
            inheritance = vdg.and_then(|c| {
                let l = c.adjacency(variants_diseases_genes::_from)?.get(&handle)?;
                let first = l
                    .iter()
                    .find_map(|x| c.string(x, variants_diseases_genes::inheritance_mode));
                first
            });
        }
        let Some((vc, vo)) = vd
            .string(e, variants_diseases::_from)
            .and_then(|h| ctx.resolve(&h))
        else {
            continue;
        };
        let field = |f: &str| {
            vc.value(vo, f)
                .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                .unwrap_or(Value::Null)
        };
        let minimal: Map<String, Value> = MINIMAL_VARIANT
            .iter()
            .map(|&m| (m.to_string(), field(m)))
            .collect();
        variants.push(Value::Object(minimal));
    }
    // A row with no variants has none (rendered null), not an empty list.
    if !variants.is_empty() {
        doc.insert(diseases_genes::variants.into(), Value::Array(variants));
    }
    if let Some(i) = inheritance {
        doc.insert(diseases_genes::inheritance_mode.into(), Value::String(i));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`element_type`] writes one name into both collections it serves.
    #[test]
    fn test_element_type_is_one_member_of_both_edge_collections() {
        assert_eq!(ELEMENT_TYPE, genomic_elements_biosamples::element_type);
    }

    #[test]
    fn test_element_handles_of_either_organism() {
        assert!(is_element("genomic_elements/chr1_10_20_GRCh38"));
        assert!(is_element("mm_genomic_elements/chr1_10_20_GRCm39"));
        assert!(!is_element("variants/NC_000001.11:10:A:G"));
        assert!(!is_element("genomic_elements"));
    }
}
