//! 4.24 `/genes/proteins`: proteins coded by the given genes.

use crate::engine::Filter;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, Shape, Ty};
use crate::vocab::genes;
use crate::vocab::shapes::{id_or, PROTEIN};
use varcat_format::schema;
use varcat_format::schema::genes_proteins;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/proteins",
    section: Some("4.24"),
    summary: "Proteins coded by the given genes",
    accepts: Accepts {
        params: &[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM_OR_ALIAS,
            &genes::REGION,
        ],
        rules: &[genes::RULE],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: true,
    run: Run::Handler(genes_proteins),
    body: Body::Array(&GENE_PROTEIN),
    examples: &[
        "gene_id=ENSG00000101349",
        "gene_name=snap25&verbose=true",
        "hgnc_id=15916",
    ],
};

/// 4.24 record.
pub static GENE_PROTEIN: Shape = Shape {
    name: "GeneProtein",
    members: &[
        field(schema::genes_proteins::m::gene, Ty::Str),
        id_or("protein", schema::genes_proteins::m::protein, &PROTEIN),
    ],
};

/// 4.24: proteins of the resolved genes.
pub fn genes_proteins(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let pairs = ctx.coll(genes_proteins::COLL);
    let gene_ords = genes::resolve(ctx, p, p.organism);
    let mut f = Filter::over(pairs);
    f.and(sets::adjacent_to(
        pairs,
        genes_proteins::m::gene,
        genes::collection(ctx, p.organism),
        gene_ords,
    ));
    ctx.page(p, pairs, &f, &GENE_PROTEIN)
}
