//! Gene resolution (4.1, 4.4, 4.24): `gene_id`, `hgnc_id`, `synonym` and `region` ANDed, and
//! `gene_name` through the name cascade with those filters applied (the tier is decided on
//! genes, so an exact name never falls through to a similar one).

use varcat_format::collection::Collection;

use crate::api::sets;
use crate::api::Ctx;
use crate::engine::{cascade, Filter, NAME_TIERS};
use crate::params::{Organism, Params};

/// The genes collection of `org`.
pub fn collection<'a>(ctx: &Ctx<'a>, org: Organism) -> Option<&'a Collection> {
    ctx.coll(&org.collection("genes"))
}

/// True when any gene parameter was given.
pub fn any_given(p: &Params) -> bool {
    ["gene_id", "hgnc_id", "gene_name", "synonym"]
        .iter()
        .any(|n| p.has(n))
}

/// Genes matching the gene parameters of `p`, as ordinals of [`collection`].
pub fn resolve(ctx: &Ctx<'_>, p: &Params, org: Organism) -> Vec<u32> {
    let g = collection(ctx, org);
    let base = || {
        let mut f = Filter::over(g);
        if let Some(id) = p.str("gene_id") {
            f.and(sets::keys(g, id));
        }
        if let Some(h) = p.str("hgnc_id") {
            f.and(sets::exact(g, "hgnc", h));
        }
        if let Some(s) = p.str("synonym") {
            f.and(sets::exact(g, "synonyms", s));
        }
        if let Some(r) = p.region("region") {
            f.and(sets::overlapping(g, r));
        }
        f
    };
    match (p.str("gene_name"), g) {
        (Some(name), Some(coll)) => cascade(coll, "name", name, NAME_TIERS, base).collect(),
        _ => base().collect(),
    }
}
