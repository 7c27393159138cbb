//! Build-time joins: members derived from other collections, and derived tables.
//!
//! A preparation hook sees each document before it is stored, with read access to every
//! collection built before it; a generator produces the documents of a derived table.

use std::collections::HashMap;

use serde_json::{json, Map, Value};
use varcat_format::collection::Collection;

use crate::error::BuildError;

/// What build steps can read: the collections written so far.
#[derive(Default)]
pub struct Ctx {
    /// Collections built before the current one.
    pub built: HashMap<String, Collection>,
}

impl Ctx {
    /// Collection `name`, if already built.
    pub fn get(&self, name: &str) -> Option<&Collection> {
        self.built.get(name)
    }

    /// Resolves a handle `collection/key` to its collection and ordinal.
    pub fn resolve(&self, handle: &str) -> Option<(&Collection, u32)> {
        let (coll, key) = handle.split_once('/')?;
        let c = self.get(coll)?;
        Some((c, c.ord(key)?))
    }
}

/// Sink of derived documents.
pub type Emit<'a> = dyn FnMut(Map<String, Value>) -> Result<(), BuildError> + 'a;

/// Produces a derived table's documents.
pub type Generator = fn(&Ctx, &mut Emit<'_>) -> Result<(), BuildError>;

type Doc = Map<String, Value>;

/// `proteins.dbxref_ids`: the ids of `dbxrefs[]`, for the `dbxrefs` filter of 4.23.
pub fn protein_dbxref_ids(doc: &mut Doc, _: &Ctx) -> Result<(), String> {
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
pub fn structure_protein_id(doc: &mut Doc, ctx: &Ctx) -> Result<(), String> {
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
