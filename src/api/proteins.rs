//! 4.23 `/proteins/genes` and 4.24 `/genes/proteins`, over the build-time `genes_proteins`
//! table (every gene–protein pair linked through a transcript, ordered by (gene, protein)).

use crate::api::shapes::{id_or, GENE, PROTEIN};
use crate::api::{genes, sets, Ctx, Reply};
use crate::engine::{Filter, Set};
use crate::params::Params;
use crate::parse::ident::ensembl_candidates;
use crate::shape::{field, Shape, Ty};

/// The protein filters of 4.23 (and the protein path of 4.10).
const PROTEIN_FILTERS: &[&str] = &[
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

/// 4.23 record.
pub static PROTEIN_GENE: Shape = Shape {
    name: "ProteinGene",
    members: &[id_or("gene", "gene", &GENE), field("protein", Ty::Str)],
};

/// 4.24 record.
pub static GENE_PROTEIN: Shape = Shape {
    name: "GeneProtein",
    members: &[
        field("gene", Ty::Str),
        id_or("protein", "protein", &PROTEIN),
    ],
};

/// 4.23: genes of the matching proteins; with no protein filter, every pair of the organism.
pub fn proteins_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let pairs = ctx.coll("genes_proteins");
    let mut f = Filter::over(pairs);
    if PROTEIN_FILTERS.iter().any(|n| p.has(n)) {
        f.and(sets::adjacent_to(
            pairs,
            "protein",
            ctx.coll("proteins"),
            matching(ctx, p).lazy(),
        ));
    } else {
        f.and(sets::facet(pairs, "organism", p.organism.name()));
    }
    ctx.page(p, pairs, &f, &PROTEIN_GENE)
}

/// 4.24: proteins of the resolved genes.
pub fn genes_proteins(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let pairs = ctx.coll("genes_proteins");
    let gene_ords = genes::resolve(ctx, p, p.organism);
    let mut f = Filter::over(pairs);
    f.and(sets::adjacent_to(
        pairs,
        "gene",
        genes::collection(ctx, p.organism),
        gene_ords,
    ));
    ctx.page(p, pairs, &f, &GENE_PROTEIN)
}
