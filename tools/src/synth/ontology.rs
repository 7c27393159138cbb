//! The ontology term forest (`ontology_terms`, `ontology_terms_ontology_terms`) and the
//! references other documents make to it.

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::sink::Sink;
use super::*;

/// Words that make up term names.
const ADJ: [&str; 12] = [
    "naive",
    "activated",
    "primary",
    "embryonic",
    "adult",
    "fetal",
    "mature",
    "progenitor",
    "regulatory",
    "memory",
    "resting",
    "stimulated",
];
const NOUN: [&str; 8] = [
    "trait",
    "cell",
    "tissue",
    "process",
    "disease",
    "phenotype",
    "assay",
    "abnormality",
];

/// The name of term `k` of ontology `o`.
pub(super) fn term_name(o: usize, k: u64) -> String {
    let h = hash(&[o as u64, k]);
    format!("{} {} {k}", ADJ[(h % 12) as usize], NOUN[o])
}

/// A biosample term (CL, EFO or UBERON, among the first 40 of each) and its name.
pub(super) fn biosample(rng: &mut Rng) -> (String, String) {
    let o = [1usize, 0, 2][rng.below(3) as usize];
    let k = 1 + rng.below(40);
    (format!("ontology_terms/{}", term(o, k)), term_name(o, k))
}

/// The reference to GO term `k`.
pub(super) fn go_term(k: u64) -> String {
    format!("ontology_terms/{}", term(3, k))
}

/// A random term of ontology `o`: its reference and its name.
pub(super) fn term_ref(plan: &Plan, rng: &mut Rng, o: usize) -> (String, String) {
    let k = 1 + rng.below(plan.terms);
    (format!("ontology_terms/{}", term(o, k)), term_name(o, k))
}

/// Ontology terms: one 4-ary tree per ontology, plus a second parent on every 7th term.
pub(super) fn terms(plan: &Plan, s: &mut Sink) -> io::Result<()> {
    for (oi, onto) in ONTOLOGIES.iter().enumerate() {
        for k in 1..=plan.terms {
            let id = term(oi, k);
            let name = term_name(oi, k);
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &id)
                .s("uri", &format!("http://purl.obolibrary.org/obo/{id}"))
                .s("term_id", &id)
                .s("name", &name);
            if k % 3 == 0 {
                o.null("synonyms");
            } else {
                o.strs("synonyms", &[format!("{name} synonym")]);
            }
            o.s(
                "description",
                &format!("A synthetic {onto} term ({name}) for benchmarks."),
            )
            .s("source", onto)
            .s("source_url", "http://purl.obolibrary.org/obo/")
            .strs("subset", &["synthetic"])
            .s("class", "ontology term")
            .null("method")
            .s("files_filesets", &fs_handle(FS_ONTOLOGY));
            o.end();
            s.put("ontology_terms")?;
            if k > 1 {
                let mut parents = vec![term_parent(k)];
                if k % 7 == 0 && k > 6 && term_parent(k) + 1 < k {
                    parents.push(term_parent(k) + 1);
                }
                for p in parents {
                    let pid = term(oi, p);
                    let mut o = Obj::new(&mut s.buf);
                    o.s("_key", &format!("{id}_subclass_{pid}"))
                        .s("_from", &format!("ontology_terms/{id}"))
                        .s("_to", &format!("ontology_terms/{pid}"))
                        .s("name", "subclass")
                        .s("inverse_name", "superclass")
                        .s("source", onto)
                        .s("source_url", "http://purl.obolibrary.org/obo/")
                        .s("class", "ontology relationship")
                        .null("method")
                        .s("files_filesets", &fs_handle(FS_ONTOLOGY));
                    o.end();
                    s.put("ontology_terms_ontology_terms")?;
                }
            }
        }
    }
    Ok(())
}
