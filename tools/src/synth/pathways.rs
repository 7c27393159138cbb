//! Reactome pathways (`pathways`).

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::sink::Sink;
use super::*;

/// Words that make up drug and pathway names.
pub(super) const WORDS: [&str; 16] = [
    "signaling",
    "transport",
    "metabolism",
    "glycosylation",
    "repair",
    "splicing",
    "apoptosis",
    "adhesion",
    "migration",
    "secretion",
    "translation",
    "folding",
    "degradation",
    "binding",
    "activation",
    "regulation",
];

/// How many pathways there are: two hundred and one per twenty genes.
pub(super) fn count(plan: &Plan) -> u64 {
    200 + plan.genes / 20
}

/// The `_key` of pathway `i`.
pub(super) fn key(i: u64) -> String {
    format!("R-HSA-{}", 9_000_000 + i)
}

/// The parent of pathway `i` (none for the twenty top-level ones): a top-level pathway for the
/// next 180, one of those for the rest.
pub(super) fn parent(i: u64) -> Option<u64> {
    match i {
        0..20 => None,
        20..200 => Some(i % 20),
        _ => Some(20 + i % 180),
    }
}

/// The pathways, and their hierarchy (`pathways_pathways`, parent → child).
pub(super) fn pathways(plan: &Plan, s: &mut Sink) -> io::Result<()> {
    for i in 0..count(plan) {
        let key = key(i);
        let name = format!(
            "{} of {} {}",
            WORDS[(i % 16) as usize],
            WORDS[(i / 16 % 16) as usize],
            i
        );
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &key)
            .s("name", &name)
            .s("organism", "Homo sapiens")
            .s("source", "Reactome")
            .s("source_url", "https://reactome.org/")
            .s("class", "biological relationship")
            .null("method")
            .null("label")
            .s("files_filesets", &fs_handle(FS_REACTOME))
            .s("id_version", &key)
            .b("is_in_disease", i % 11 == 0)
            .strs("name_aliases", std::slice::from_ref(&name))
            .b("is_top_level_pathway", i < 20);
        o.end();
        s.put("pathways")?;
    }
    for i in 0..count(plan) {
        let Some(p) = parent(i) else { continue };
        let (pk, ck) = (key(p), key(i));
        let mut o = Obj::new(&mut s.buf);
        o.s("source", "Reactome")
            .s(
                "source_url",
                "https://reactome.org/download/current/ReactomePathwaysRelation.txt",
            )
            .s("organism", "Homo sapiens")
            .s("class", "biological relationship")
            .null("method")
            .null("label")
            .s("files_filesets", &fs_handle(FS_REACTOME))
            .s("_key", &format!("{pk}_{ck}"))
            .s("_from", &format!("pathways/{pk}"))
            .s("_to", &format!("pathways/{ck}"))
            .s("name", "parent of")
            .s("inverse_name", "child of");
        o.end();
        s.put("pathways_pathways")?;
    }
    Ok(())
}
