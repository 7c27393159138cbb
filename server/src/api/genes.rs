//! Gene resolution (4.1, 4.4, 4.24): `gene_id`, `hgnc_id`, `synonym` and `region` ANDed, and
//! `gene_name` through the name cascade with those filters applied (the tier is decided on
//! genes, so an exact name never falls through to a similar one).

use varcat_format::collection::Collection;
use varcat_format::schema::genes;

use crate::api::sets;
use crate::api::Ctx;
use crate::engine::{cascade, Filter, NAME_TIERS};
use crate::params::{Kind, Organism, Param, Params, Rule, GENES};

/// Ensembl gene id.
pub const GENE_ID: Param = Param::new(
    "gene_id",
    Kind::Id,
    "Ensembl gene id (ENSG…; a version suffix is ignored)",
);
/// HGNC id.
pub const HGNC_ID: Param = Param::new("hgnc_id", Kind::Hgnc, "HGNC id, HGNC:<n> or <n>");
/// Gene symbol, through the name cascade.
pub const GENE_NAME: Param = Param::new(
    "gene_name",
    Kind::Text,
    "gene symbol: exact, else all tokens, else one typo",
);
/// Gene synonym.
pub const SYNONYM: Param =
    Param::new("synonym", Kind::Id, "gene synonym (exact)").aliases(&["alias"]);
/// Genes overlapping a region.
pub const REGION: Param = Param::new(
    "region",
    Kind::Region(None),
    "genes overlapping chr<name>:<start>-<end>",
);

/// The gene parameters, in the order endpoints list them.
pub const PARAMS: [&Param; 5] = [&GENE_ID, &HGNC_ID, &GENE_NAME, &SYNONYM, &REGION];

/// At least one gene parameter.
pub const RULE: Rule = Rule::AtLeastOne(&PARAMS);

/// The genes collection of `org`.
pub fn collection<'a>(ctx: &Ctx<'a>, org: Organism) -> Option<&'a Collection> {
    ctx.coll(org.collection(GENES))
}

/// Genes matching the gene parameters of `p`, as ordinals of [`collection`].
pub fn resolve(ctx: &Ctx<'_>, p: &Params, org: Organism) -> Vec<u32> {
    let g = collection(ctx, org);
    let base = || {
        let mut f = Filter::over(g);
        if let Some(id) = p.str(&GENE_ID) {
            f.and(sets::keys(g, id));
        }
        if let Some(h) = p.hgnc_id(&HGNC_ID) {
            f.and(sets::exact(g, genes::m::hgnc, &h.stored()));
        }
        if let Some(s) = p.str(&SYNONYM) {
            f.and(sets::exact(g, genes::m::synonyms, s));
        }
        if let Some(r) = p.region(&REGION) {
            f.and(sets::overlapping(g, r));
        }
        f
    };
    match (p.str(&GENE_NAME), g) {
        (Some(name), Some(coll)) => cascade(coll, genes::m::name, name, NAME_TIERS, base).collect(),
        _ => base().collect(),
    }
}
