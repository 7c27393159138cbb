//! Genes as the endpoints that start from one resolve them (4.1, 4.4, 4.24): `gene_id`,
//! `hgnc_id`, `synonym` and `region` ANDed, and `gene_name` through the name cascade with those
//! filters applied (the tier is decided on genes, so an exact name never falls through to a
//! similar one).

use varcat_format::collection::Collection;
use varcat_format::schema::genes;

use crate::engine::{cascade, Filter, NAME_TIERS};
use crate::handler::Ctx;
use crate::params::{Kind, Organism, Param, Params, Rule, GENES};
use crate::sets;

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
pub const SYNONYM: Param = Param::new("synonym", Kind::Id, "gene synonym (exact)");
/// [`SYNONYM`] also under the name `alias`, on the three paths whose interface names it (4.1,
/// 4.4, 4.24); elsewhere, as in IGVF and its client, `alias` is an unknown parameter.
pub const SYNONYM_OR_ALIAS: Param = SYNONYM.aliases(&["alias"]);
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

/// The parameters of a gene resolver: the plain ones, or another end's (`associated_*`).
pub struct GeneParams {
    /// Ensembl id.
    pub id: &'static Param,
    /// HGNC id.
    pub hgnc: &'static Param,
    /// Symbol (name cascade).
    pub name: &'static Param,
    /// Synonym.
    pub synonym: &'static Param,
    /// Overlapping region, when the resolver has one.
    pub region: Option<&'static Param>,
}

/// The plain gene parameters.
pub const PLAIN: GeneParams = GeneParams {
    id: &GENE_ID,
    hgnc: &HGNC_ID,
    name: &GENE_NAME,
    synonym: &SYNONYM,
    region: Some(&REGION),
};

/// Genes matching the gene parameters of `p`, as ordinals of [`collection`].
pub fn resolve(ctx: &Ctx<'_>, p: &Params, org: Organism) -> Vec<u64> {
    resolve_by(ctx, p, org, &PLAIN)
}

/// Genes matching the parameters `by` of `p`, as ordinals of [`collection`].
pub fn resolve_by(ctx: &Ctx<'_>, p: &Params, org: Organism, by: &GeneParams) -> Vec<u64> {
    let g = collection(ctx, org);
    let base = || {
        let mut f = Filter::over(g);
        if let Some(id) = p.str(by.id) {
            f.and(sets::keys(g, id));
        }
        if let Some(h) = p.hgnc_id(by.hgnc) {
            f.and(sets::exact(g, genes::m::hgnc, &h.stored()));
        }
        if let Some(s) = p.str(by.synonym) {
            f.and(sets::exact(g, genes::m::synonyms, s));
        }
        if let Some(r) = by.region.and_then(|r| p.region(r)) {
            f.and(sets::overlapping(g, r));
        }
        f
    };
    match (p.str(by.name), g) {
        (Some(name), Some(coll)) => cascade(coll, genes::m::name, name, NAME_TIERS, base).collect(),
        _ => base().collect(),
    }
}

/// [`resolve`] as an anchor resolver over the request organism's genes.
pub fn anchor<'a>(ctx: &Ctx<'a>, g: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    crate::edge::from_ords(g, resolve(ctx, p, p.organism))
}
