//! 4.10 `/genes-structure`: exons, introns, CDS, UTRs and codons of genes, transcripts or proteins.

use crate::engine::Filter;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::params::GENES_STRUCTURE;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, Shape, Src, Ty};
use crate::vocab::proteins;
use varcat_format::schema::{self, genes_structure as structure};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes-structure",
    section: Some("4.10"),
    summary: "Exons, introns, CDS, UTRs and codons of genes, transcripts or proteins",
    accepts: Accepts {
        params: &[
            &GENE_ID,
            &GENE_NAME,
            &TRANSCRIPT_ID,
            &TRANSCRIPT_NAME,
            &proteins::PROTEIN_ID,
            &proteins::PROTEIN_NAME,
            &REGION,
            &TYPE,
        ],
        rules: &[Rule::AtLeastOne(&[
            &GENE_ID,
            &GENE_NAME,
            &TRANSCRIPT_ID,
            &TRANSCRIPT_NAME,
            &proteins::PROTEIN_ID,
            &proteins::PROTEIN_NAME,
            &REGION,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Handler(genes_structure),
    body: Body::Array(&GENE_STRUCTURE),
    examples: &[
        "gene_name=PAK5&type=CDS",
        "protein_id=ENSP00000322957&type=exon",
        "gene_name=Rp1&organism=Mus%20musculus",
    ],
};

/// Ensembl gene id.
pub const GENE_ID: Param = Param::new("gene_id", Kind::Id, "Ensembl gene id");
/// Gene symbol.
pub const GENE_NAME: Param = Param::new("gene_name", Kind::Id, "gene symbol (exact)");
/// Ensembl transcript id.
pub const TRANSCRIPT_ID: Param = Param::new("transcript_id", Kind::Id, "Ensembl transcript id");
/// Transcript name.
pub const TRANSCRIPT_NAME: Param = Param::new(
    "transcript_name",
    Kind::Id,
    "transcript name, e.g. PAK5-201",
);
/// Features overlapping a region.
pub const REGION: Param = Param::new(
    "region",
    Kind::Region(None),
    "features overlapping chr<name>:<start>-<end>",
);
/// Feature type.
pub const TYPE: Param = Param::new(
    "type",
    Kind::Enum(&["CDS", "UTR", "exon", "intron", "start_codon", "stop_codon"]),
    "feature type",
);

/// The protein filters 4.10 offers.
const PROTEIN_FILTERS: [&Param; 2] = [&proteins::PROTEIN_ID, &proteins::PROTEIN_NAME];

/// 4.10 record.
pub static GENE_STRUCTURE: Shape = Shape {
    name: "GeneStructure",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::genes_structure::m::name, Ty::Str).required(),
        field(schema::genes_structure::m::chr, Ty::Str).required(),
        field(schema::genes_structure::m::start, Ty::Int),
        field(schema::genes_structure::m::end, Ty::Int),
        field(schema::genes_structure::m::strand, Ty::Str).required(),
        field(schema::genes_structure::m::r#type, Ty::Str).required(),
        field(schema::genes_structure::m::gene_id, Ty::Str).required(),
        field(schema::genes_structure::m::gene_name, Ty::Str).required(),
        field(schema::genes_structure::m::transcript_id, Ty::Str).required(),
        field(schema::genes_structure::m::transcript_name, Ty::Str).required(),
        field(schema::genes_structure::m::protein_id, Ty::Str),
        field(schema::genes_structure::m::exon_number, Ty::Str).required(),
        field(schema::genes_structure::m::exon_id, Ty::Str),
        field(schema::genes_structure::m::organism, Ty::Str).required(),
        field(schema::genes_structure::m::source, Ty::Str).required(),
        field(schema::genes_structure::m::version, Ty::Str).required(),
        field(schema::genes_structure::m::source_url, Ty::Str).required(),
    ],
};

/// 4.10: structure rows by gene, transcript, protein, region and type, all ANDed, in
/// (gene_id, transcript_id, start, _key) order (the stored order).
pub fn genes_structure(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let s = ctx.coll(p.organism.collection(GENES_STRUCTURE));
    let mut f = Filter::over(s);
    for (param, member) in [
        (&GENE_ID, structure::m::gene_id),
        (&TRANSCRIPT_ID, structure::m::transcript_id),
    ] {
        if let Some(id) = p.str(param) {
            f.and(sets::exact_any(
                s,
                member,
                &crate::parse::ident::ensembl_candidates(id),
            ));
        }
    }
    for (param, member) in [
        (&GENE_NAME, structure::m::gene_name),
        (&TRANSCRIPT_NAME, structure::m::transcript_name),
    ] {
        if let Some(v) = p.str(param) {
            f.and(sets::exact(s, member, v));
        }
    }
    if let Some(t) = p.str(&TYPE) {
        f.and(sets::facet(s, structure::m::r#type, t));
    }
    if let Some(r) = p.region(&REGION) {
        f.and(sets::overlapping(s, r));
    }
    if p.any(&PROTEIN_FILTERS) {
        let proteins = ctx.coll(schema::proteins::COLL);
        let keys: Vec<String> = proteins::matching(ctx, p, &PROTEIN_FILTERS)
            .lazy()
            .filter_map(|o| proteins.and_then(|c| sets::key(c, o)))
            .collect();
        f.and(sets::exact_any(s, structure::m::protein_id, &keys));
    }
    ctx.page(p, s, &f, &GENE_STRUCTURE)
}
