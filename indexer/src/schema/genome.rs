//! Builder hooks of genes, transcripts, proteins and gene structure, and the derived gene–protein pairs.

use serde_json::{json, Map, Value};

use super::{
    genes_proteins, genes_structure, genes_transcripts, mm_genes_structure, mm_transcripts,
    proteins, transcripts, transcripts_proteins, Hooks,
};
use crate::derive::{object, Ctx, Generator, Unit, Units};
use crate::doc::Doc;

/// The hooks of these collections.
pub(super) const HOOKS: &[(&str, Hooks)] = &[
    (proteins::NAME, Hooks::prepare(protein_dbxref_ids)),
    (genes_structure::NAME, Hooks::prepare(structure_protein_id)),
    (
        mm_genes_structure::NAME,
        Hooks::prepare(structure_protein_id),
    ),
    (genes_proteins::NAME, Hooks::derive(GENES_PROTEINS)),
];

/// The member of each `proteins.dbxrefs[]` object holding the reference's identifier: IGVF's
/// UniProt adapter writes `{"name": <database>, "id": <identifier>}`.
const DBXREF_ID: &str = "id";

/// `proteins.dbxref_ids`: the ids of `dbxrefs[]`, for the `dbxrefs` filter of 4.23.
fn protein_dbxref_ids(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
    let ids: Vec<Value> = doc
        .get(proteins::dbxrefs)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.get(DBXREF_ID).filter(|v| v.is_string()).cloned())
                .collect()
        })
        .unwrap_or_default();
    doc.insert(proteins::dbxref_ids.into(), Value::Array(ids));
    Ok(())
}

/// `genes_structure.protein_id`: the protein the row's transcript translates to (first
/// `transcripts_proteins` edge in key order), unless the document has one.
fn structure_protein_id(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
    if doc
        .get(genes_structure::protein_id)
        .is_some_and(|v| !v.is_null())
    {
        return Ok(());
    }
    let Some(tid) = doc
        .get(genes_structure::transcript_id)
        .and_then(Value::as_str)
    else {
        return Ok(());
    };
    let mouse = doc.get(genes_structure::organism).and_then(Value::as_str) == Some("Mus musculus");
    let handle = format!(
        "{}/{tid}",
        if mouse {
            mm_transcripts::NAME
        } else {
            transcripts::NAME
        }
    );
    let protein = ctx.get(transcripts_proteins::NAME).and_then(|tp| {
        let list = tp.adjacency(transcripts_proteins::_from)?.get(&handle)?;
        let to = tp.string(list.iter().next()?, transcripts_proteins::_to)?;
        Some(
            to.split_once('/')
                .map_or(to.clone(), |(_, k)| k.to_string()),
        )
    });
    if let Some(p) = protein {
        doc.insert(genes_structure::protein_id.into(), Value::String(p));
    }
    Ok(())
}

/// `genes_proteins`: every (gene, protein) pair linked through a transcript
/// (`genes_transcripts` ⋈ `transcripts_proteins`), for 4.23 and 4.24, one unit per
/// `transcripts_proteins` edge. Duplicate pairs merge.
const GENES_PROTEINS: Generator = Generator {
    units: |ctx| match (
        ctx.get(transcripts_proteins::NAME),
        ctx.get(genes_transcripts::NAME),
    ) {
        (Some(tp), Some(gt)) if gt.adjacency(genes_transcripts::_to).is_some() => {
            Units::ords(tp.len())
        }
        _ => Units::none(),
    },
    docs: genes_proteins,
};

fn genes_proteins(ctx: &Ctx, unit: Unit<'_>, out: &mut Vec<Map<String, Value>>) {
    let (Some(tp), Some(gt), Unit::Ord(ord)) = (
        ctx.get(transcripts_proteins::NAME),
        ctx.get(genes_transcripts::NAME),
        unit,
    ) else {
        return;
    };
    let Some(by_to) = gt.adjacency(genes_transcripts::_to) else {
        return;
    };
    let (Some(tr), Some(pr)) = (
        tp.string(ord, transcripts_proteins::_from),
        tp.string(ord, transcripts_proteins::_to),
    ) else {
        return;
    };
    let Some(list) = by_to.get(&tr) else {
        return;
    };
    let proteins = ctx.get(proteins::NAME);
    let organism = pr
        .split_once('/')
        .and_then(|(_, k)| proteins?.string(ctx.ord(proteins::NAME, k)?, proteins::organism))
        .or_else(|| tp.string(ord, transcripts_proteins::organism));
    for e in list.iter() {
        let Some(gene) = gt.string(e, genes_transcripts::_from) else {
            continue;
        };
        out.push(object(json!({
            genes_proteins::_key: format!("{gene} {pr}"),
            genes_proteins::gene: gene,
            genes_proteins::protein: pr,
            genes_proteins::organism: organism,
        })));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids are read from each reference's own `id` member (not its `name`); a reference
    /// without a string id gives none.
    #[test]
    fn test_dbxref_ids_are_the_ids_of_the_references() {
        let text = r#"{"dbxrefs": [{"name": "PDB", "id": "1ABC"}, {"name": "EMBL", "id": null},
            {"name": "RefSeq", "id": "NP_1.1"}]}"#;
        let mut doc = Doc::parse(text).unwrap();
        protein_dbxref_ids(&mut doc, &Ctx::default()).unwrap();
        assert_eq!(doc.get("dbxref_ids"), Some(&json!(["1ABC", "NP_1.1"])));
    }
}
