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

/// Two hundred pathways and one per twenty genes.
pub(super) fn pathways(plan: &Plan, s: &mut Sink) -> io::Result<()> {
    for i in 0..(200 + plan.genes / 20) {
        let key = format!("R-HSA-{}", 9_000_000 + i);
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
    Ok(())
}
