//! Protein resolution shared by 4.23 `/proteins/genes` and 4.10 `/genes-structure` (over the
//! `proteins` collection).

use crate::api::{sets, Ctx};
use crate::engine::{Filter, Set};
use crate::params::Params;
use crate::parse::ident::ensembl_candidates;

/// The protein filters of 4.23 (and the protein path of 4.10).
pub const PROTEIN_FILTERS: &[&str] = &[
    "protein_id",
    "protein_name",
    "uniprot_name",
    "uniprot_full_name",
    "dbxrefs",
];

/// Proteins matching the protein parameters of `p` and its organism.
pub fn matching<'a>(ctx: &Ctx<'a>, p: &Params) -> Filter<'a> {
    let c = ctx.coll("proteins");
    let mut f = Filter::over(c);
    if let Some(id) = p.str("protein_id") {
        // A protein is found by its key, its versioned Ensembl id or a UniProt accession.
        let cands = ensembl_candidates(id);
        f.and(Set::union([
            sets::keys(c, id),
            sets::exact_any(c, "protein_id", &cands),
            sets::exact(c, "uniprot_ids", id),
        ]));
    }
    for (param, member) in [
        ("protein_name", "name"),
        ("uniprot_name", "uniprot_names"),
        ("uniprot_full_name", "uniprot_full_names"),
        ("dbxrefs", "dbxref_ids"),
    ] {
        if let Some(v) = p.str(param) {
            f.and(sets::exact(c, member, v));
        }
    }
    f.and(sets::facet(c, "organism", p.organism.name()));
    f
}
