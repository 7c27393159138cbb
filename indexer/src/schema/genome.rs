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

/// `proteins.dbxref_ids`: the ids of `dbxrefs[]`, for the `dbxrefs` filter of 4.23.
fn protein_dbxref_ids(doc: &mut Doc<'_>, _: &Ctx) -> Result<(), String> {
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
fn structure_protein_id(doc: &mut Doc<'_>, ctx: &Ctx) -> Result<(), String> {
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
            mm_transcripts::NAME
        } else {
            transcripts::NAME
        }
    );
    let protein = ctx.get(transcripts_proteins::NAME).and_then(|tp| {
        let list = tp.adjacency(transcripts_proteins::_from)?.get(&handle)?;
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
    let (Some(tr), Some(pr)) = (tp.string(ord, "_from"), tp.string(ord, "_to")) else {
        return;
    };
    let Some(list) = by_to.get(&tr) else {
        return;
    };
    let proteins = ctx.get(proteins::NAME);
    let organism = pr
        .split_once('/')
        .and_then(|(_, k)| proteins?.string(ctx.ord(proteins::NAME, k)?, "organism"))
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
