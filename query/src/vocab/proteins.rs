//! Proteins as the endpoints that start from one resolve them (4.23 `/proteins/genes`, 4.10
//! `/genes-structure` and the protein paths), over the `proteins` collection.

use crate::engine::{Filter, Set};
use crate::handler::Ctx;
use crate::params::{Kind, Param, Params};
use crate::parse::ident::ensembl_candidates;
use crate::sets;
use varcat_format::collection::Collection;
use varcat_format::schema::{proteins, Member};

/// Ensembl protein id or UniProt accession.
pub const PROTEIN_ID: Param = Param::new(
    "protein_id",
    Kind::Id,
    "Ensembl protein id (with or without version) or UniProt accession",
);
/// Protein name.
pub const PROTEIN_NAME: Param = Param::new("protein_name", Kind::Id, "protein name (exact)");
/// UniProt entry name.
pub const UNIPROT_NAME: Param = Param::new(
    "uniprot_name",
    Kind::Id,
    "UniProt entry name, e.g. PAK5_HUMAN",
);
/// UniProt full name.
pub const UNIPROT_FULL_NAME: Param = Param::new("uniprot_full_name", Kind::Id, "UniProt full name");
/// Protein name, under the name `/proteins` gives it.
pub const NAME: Param = Param::new("name", Kind::Id, "protein name (exact)");
/// Cross-reference id.
pub const DBXREFS: Param = Param::new("dbxrefs", Kind::Id, "a cross-reference id, e.g. HGNC:15916");

/// The protein filters of 4.23.
pub const FILTERS: [&Param; 5] = [
    &PROTEIN_ID,
    &PROTEIN_NAME,
    &UNIPROT_NAME,
    &UNIPROT_FULL_NAME,
    &DBXREFS,
];

/// Proteins of `p.organism` matching those of `filters` (some of [`FILTERS`]: the ones the
/// endpoint offers) that `p` gives.
pub fn matching<'a>(ctx: &Ctx<'a>, p: &Params, filters: &[&Param]) -> Filter<'a> {
    // Only what the endpoint offers is read (an endpoint reads only what it declares).
    let offered = |param: &'static Param| filters.iter().any(|o| o.name == param.name);
    let exact: Vec<(&Param, Member)> = [
        (&PROTEIN_NAME, proteins::m::name),
        (&NAME, proteins::m::name),
        (&UNIPROT_NAME, proteins::m::uniprot_names),
        (&UNIPROT_FULL_NAME, proteins::m::uniprot_full_names),
        (&DBXREFS, proteins::m::dbxref_ids),
    ]
    .into_iter()
    .filter(|(param, _)| offered(param))
    .collect();
    matching_by(ctx, p, offered(&PROTEIN_ID).then_some(&PROTEIN_ID), &exact)
}

/// Proteins of `p.organism` matching the id parameter `id` (key, versioned Ensembl id or
/// UniProt accession) and the exact-value parameters `exact`, when given.
pub fn matching_by<'a>(
    ctx: &Ctx<'a>,
    p: &Params,
    id: Option<&Param>,
    exact: &[(&Param, Member)],
) -> Filter<'a> {
    let c = ctx.coll(proteins::COLL);
    let mut f = Filter::over(c);
    if let Some(id) = id.and_then(|id| p.str(id)) {
        // A protein is found by its key, its versioned Ensembl id or a UniProt accession.
        let cands = ensembl_candidates(id);
        f.and(Set::union([
            sets::keys(c, id),
            sets::exact_any(c, proteins::m::protein_id, &cands),
            sets::exact(c, proteins::m::uniprot_ids, id),
        ]));
    }
    for &(param, member) in exact {
        if let Some(v) = p.str(param) {
            f.and(sets::exact(c, member, v));
        }
    }
    f.and(sets::facet(c, proteins::m::organism, p.organism.name()));
    f
}

/// [`matching`] over [`FILTERS`], as an anchor resolver.
pub fn anchor<'a>(ctx: &Ctx<'a>, _: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    matching(ctx, p, &FILTERS)
}

/// At least one of [`FILTERS`].
pub const RULE: crate::params::Rule = crate::params::Rule::AtLeastOne(&FILTERS);
