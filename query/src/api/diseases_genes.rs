//! 4.6 `/diseases/genes`: genes associated with a disease (GenCC, Orphanet).

use crate::engine::Read;
use crate::engine::{cascade, Filter, DISEASE_TIERS};
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{doc, field, Member, Shape, Ty};
use crate::vocab::shapes::{id_or, GENE, ONTOLOGY_TERM};
use varcat_format::collection::Collection;
use varcat_format::schema;
use varcat_format::schema::{diseases_genes, ontology_terms};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/diseases/genes",
    section: Some("4.6"),
    summary: "Genes associated with a disease (GenCC, Orphanet)",
    accepts: Accepts {
        params: &[&DISEASE_ID, &DISEASE_NAME, &SOURCE],
        rules: &[Rule::AtLeastOne(&[&DISEASE_ID, &DISEASE_NAME])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Handler(diseases_genes),
    body: Body::ArrayOf(DISEASE_GENE_SHAPES),
    examples: &[
        "disease_id=MONDO_9000001&verbose=true",
        "disease_name=test%20disease",
    ],
};

/// Disease ontology term.
pub const DISEASE_ID: Param = Param::new(
    "disease_id",
    Kind::Id,
    "disease ontology term id, e.g. MONDO_0008426",
);
/// Disease name, through the disease cascade.
pub const DISEASE_NAME: Param = Param::new(
    "disease_name",
    Kind::Text,
    "disease name: exact, else all tokens",
);
/// Data source.
pub const SOURCE: Param = Param::new("source", Kind::Enum(&["GenCC", "Orphanet"]), "data source");

const PMIDS: Member = field(schema::diseases_genes::m::pmids, Ty::StrArr);
const TERM_NAME: Member = field(schema::diseases_genes::m::term_name, Ty::Str);
const SYMBOL: Member = field(schema::diseases_genes::m::gene_symbol, Ty::Str);
const TAIL: [Member; 9] = [
    field(schema::diseases_genes::m::class, Ty::Str),
    field(schema::diseases_genes::m::method, Ty::Str),
    field(schema::diseases_genes::m::label, Ty::Str),
    field(schema::diseases_genes::m::files_filesets, Ty::Str),
    field(schema::diseases_genes::m::source, Ty::Str),
    field(schema::diseases_genes::m::source_url, Ty::Str),
    id_or("gene", schema::diseases_genes::m::_to, &GENE),
    id_or("disease", schema::diseases_genes::m::_from, &ONTOLOGY_TERM),
    field(schema::diseases_genes::m::name, Ty::Str).required(),
];

/// A ClinGen variant of a disease–gene row.
pub static VARIANT_MINIMAL: Shape = Shape {
    name: "VariantMinimal",
    members: &[
        doc("chr", Ty::Str),
        doc("pos", Ty::Int),
        doc("ref", Ty::Str),
        doc("alt", Ty::Str),
        doc("rsid", Ty::StrArr),
        doc("spdi", Ty::Str),
        doc("hgvs", Ty::Str),
    ],
};

const INHERITANCE: Member = field(schema::diseases_genes::m::inheritance_mode, Ty::Str);
/// `null` on a row with no ClinGen variants (docs/igvf-differences.md).
const VARIANTS: Member = field(
    schema::diseases_genes::m::variants,
    Ty::Arr(&VARIANT_MINIMAL),
);

/// 4.6 GenCC rows.
pub static DISEASE_GENE_GENCC: Shape = Shape {
    name: "DiseaseGeneGenCC",
    members: &[
        PMIDS,
        TERM_NAME,
        SYMBOL,
        field(schema::diseases_genes::m::sgc_id, Ty::Str),
        field(schema::diseases_genes::m::hgnc, Ty::Str),
        field(schema::diseases_genes::m::classification, Ty::Str),
        field(schema::diseases_genes::m::moi_id, Ty::Str),
        field(schema::diseases_genes::m::moi_name, Ty::Str),
        field(schema::diseases_genes::m::submitter, Ty::Str),
        TAIL[0],
        TAIL[1],
        TAIL[2],
        TAIL[3],
        TAIL[4],
        TAIL[5],
        TAIL[6],
        TAIL[7],
        TAIL[8],
        field(schema::diseases_genes::m::association_type, Ty::Str),
        field(schema::diseases_genes::m::association_status, Ty::Str),
        INHERITANCE,
        VARIANTS,
    ],
};

/// 4.6 Orphanet rows (and any other source).
pub static DISEASE_GENE_ORPHANET: Shape = Shape {
    name: "DiseaseGeneOrphanet",
    members: &[
        field(schema::diseases_genes::m::association_type, Ty::Str),
        PMIDS,
        TERM_NAME,
        SYMBOL,
        field(schema::diseases_genes::m::association_status, Ty::Str),
        TAIL[0],
        TAIL[1],
        TAIL[2],
        TAIL[3],
        TAIL[4],
        TAIL[5],
        TAIL[6],
        TAIL[7],
        TAIL[8],
        field(schema::diseases_genes::m::sgc_id, Ty::Str),
        field(schema::diseases_genes::m::hgnc, Ty::Str),
        field(schema::diseases_genes::m::classification, Ty::Str),
        field(schema::diseases_genes::m::moi_id, Ty::Str),
        field(schema::diseases_genes::m::moi_name, Ty::Str),
        field(schema::diseases_genes::m::submitter, Ty::Str),
        INHERITANCE,
        VARIANTS,
    ],
};

/// The 4.6 shapes, for the OpenAPI document.
pub static DISEASE_GENE_SHAPES: &[&Shape] = &[&DISEASE_GENE_GENCC, &DISEASE_GENE_ORPHANET];

fn disease_gene_shape(e: &Collection, o: u64) -> &'static Shape {
    if e.str_of(o, diseases_genes::m::source).as_deref() == Some("GenCC") {
        &DISEASE_GENE_GENCC
    } else {
        &DISEASE_GENE_ORPHANET
    }
}

/// 4.6: genes associated with a disease id and/or name (exact, else all tokens of the name),
/// by source.
pub fn diseases_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(diseases_genes::COLL);
    let base = || {
        let mut f = Filter::over(e);
        if let Some(id) = p.str(&DISEASE_ID) {
            f.and(sets::handle_is(
                e,
                diseases_genes::m::_from,
                ontology_terms::COLL,
                id,
            ));
        }
        if let Some(s) = p.str(&SOURCE) {
            f.and(sets::facet(e, diseases_genes::m::source, s));
        }
        f
    };
    let f = match (p.str(&DISEASE_NAME), e) {
        (Some(q), Some(c)) => cascade(c, diseases_genes::m::term_name, q, DISEASE_TIERS, base),
        _ => base(),
    };
    ctx.page_with(p, e, &f, disease_gene_shape)
}
