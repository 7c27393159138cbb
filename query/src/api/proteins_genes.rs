//! 4.23 `/proteins/genes`: genes coding for the given proteins.

use crate::engine::Filter;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, Shape, Ty};
use crate::vocab::proteins::{matching, FILTERS};
use crate::vocab::shapes::{id_or, GENE};
use varcat_format::schema::{self, genes_proteins};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/proteins/genes",
    section: Some("4.23"),
    summary: "Genes coding for the given proteins",
    accepts: Accepts {
        params: &FILTERS,
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Handler(proteins_genes),
    body: Body::Array(&PROTEIN_GENE),
    examples: &[
        "protein_id=ENSP00000322957",
        "uniprot_name=PAK5_HUMAN&verbose=true",
        "protein_name=Xkr4&organism=Mus%20musculus",
    ],
};

/// 4.23 record.
pub static PROTEIN_GENE: Shape = Shape {
    name: "ProteinGene",
    members: &[
        id_or("gene", schema::genes_proteins::m::gene, &GENE),
        field(schema::genes_proteins::m::protein, Ty::Str),
    ],
};

/// 4.23: genes of the matching proteins; with no protein filter, every pair of the organism.
pub fn proteins_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let pairs = ctx.coll(genes_proteins::COLL);
    let mut f = Filter::over(pairs);
    if p.any(&FILTERS) {
        f.and(sets::adjacent_to(
            pairs,
            genes_proteins::m::protein,
            ctx.coll(schema::proteins::COLL),
            matching(ctx, p, &FILTERS).lazy(),
        ));
    } else {
        f.and(sets::facet(
            pairs,
            genes_proteins::m::organism,
            p.organism.name(),
        ));
    }
    ctx.page(p, pairs, &f, &PROTEIN_GENE)
}
