//! 4.15 `/coding-variants/variants`: the variants that cause the given protein changes, each once,
//! in key order.

use crate::engine::Read;
use crate::engine::{Filter, Set};
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::vocab::variants::{self, SHORT_VARIANT};
use varcat_format::collection::Collection;
use varcat_format::schema::{self, coding_variants, variants_coding_variants};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/coding-variants/variants",
    section: Some("4.15"),
    summary: "Variants that cause the given protein changes",
    accepts: Accepts {
        params: &[
            &CODING_VARIANT_NAME,
            &HGVSP,
            &GENE_NAME,
            &PROTEIN_ID,
            &UNIPROT_NAME,
            &TRANSCRIPT_ID,
            &AMINO_ACID_POSITION,
            &ALT_AMINO_ACID,
        ],
        rules: &[Rule::AtLeastOne(&[
            &CODING_VARIANT_NAME,
            &HGVSP,
            &PROTEIN_ID,
            &UNIPROT_NAME,
            &GENE_NAME,
            &TRANSCRIPT_ID,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(coding_variants_variants),
    body: Body::Array(&variants::SHORT_VARIANT),
    examples: &[
        "gene_name=TSTA1&amino_acid_position=1",
        "coding_variant_name=TSTA1_ENST90000000001_p.M1T_c.2T>C",
    ],
};

/// Coding-variant name.
pub const CODING_VARIANT_NAME: Param = Param::new(
    "coding_variant_name",
    Kind::Id,
    "e.g. SRY_ENST00000383070_p.A135S_c.403G>T",
);
/// Protein change.
pub const HGVSP: Param = Param::new("hgvsp", Kind::Id, "protein change, e.g. p.A135S");
/// Gene symbol.
pub const GENE_NAME: Param = Param::new("gene_name", Kind::Id, "gene symbol (exact)");
/// Ensembl protein id.
pub const PROTEIN_ID: Param = Param::new("protein_id", Kind::Id, "Ensembl protein id");
/// UniProt entry name.
pub const UNIPROT_NAME: Param = Param::new(
    "uniprot_name",
    Kind::Id,
    "UniProt entry name, e.g. SRY_HUMAN",
);
/// Ensembl transcript id.
pub const TRANSCRIPT_ID: Param = Param::new("transcript_id", Kind::Id, "Ensembl transcript id");
/// Amino-acid position.
pub const AMINO_ACID_POSITION: Param =
    Param::new("amino_acid_position", Kind::Int, "amino-acid position");
/// Alternate amino acid.
pub const ALT_AMINO_ACID: Param = Param::new(
    "alt_amino_acid",
    Kind::Enum(AMINO_ACIDS),
    "alternate amino acid, or * for a stop",
);

/// Coding variants matching 4.15's filters: its name, the shared protein-change filters
/// ([`protein_change`]) and an exact amino-acid position.
fn matching_coding<'a>(cv: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = protein_change(cv, p);
    if let Some(n) = p.str(&CODING_VARIANT_NAME) {
        f.and(sets::exact_any(
            cv,
            coding_variants::m::name,
            &varcat_format::text::coding_variant_names(n),
        ));
    }
    if let Some(pos) = p.int(&AMINO_ACID_POSITION) {
        f.and(sets::exact(cv, coding_variants::m::aapos, &pos.to_string()));
    }
    f
}

/// The coding-variant resolver 4.15 and `/coding-variants` share: `hgvsp`, `gene_name`,
/// `protein_id`, `uniprot_name`, `transcript_id` (each exact, Ensembl ids with or without a
/// version) and `alt_amino_acid`, all ANDed. It reads only these parameters, so an endpoint
/// using it declares them.
pub fn protein_change<'a>(cv: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(cv);
    for (param, member) in [
        (&HGVSP, coding_variants::m::hgvsp),
        (&GENE_NAME, coding_variants::m::gene_name),
        (&PROTEIN_ID, coding_variants::m::protein_id),
        (&UNIPROT_NAME, coding_variants::m::protein_name),
        (&TRANSCRIPT_ID, coding_variants::m::transcript_id),
    ] {
        if let Some(x) = p.str(param) {
            f.and(sets::exact_any(
                cv,
                member,
                &crate::parse::ident::ensembl_candidates(x),
            ));
        }
    }
    if let Some(alt) = p.str(&ALT_AMINO_ACID) {
        f.and(sets::facet(cv, coding_variants::m::alt, alt));
    }
    f
}

/// 4.15: the variants linked to the matching coding variants, each once, in key order.
pub fn coding_variants_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let cv = ctx.coll(coding_variants::COLL);
    let edges = ctx.coll(variants_coding_variants::COLL);
    let v = ctx.coll(schema::variants::COLL);
    let links = sets::adjacent_to(
        edges,
        variants_coding_variants::m::_to,
        cv,
        matching_coding(cv, p).lazy(),
    );
    let ords: Vec<u64> = match (edges, v) {
        (Some(e), Some(v)) => links
            .iter()
            .filter_map(|l| e.str_of(l, variants_coding_variants::m::_from))
            .filter_map(|h| v.ord(sets::key_in(&h, schema::variants::COLL)?))
            .collect(),
        _ => Vec::new(),
    };
    let all = Set::from_unsorted(ords);
    let mut f = Filter::over(v);
    f.and(all);
    ctx.page(p, v, &f, &SHORT_VARIANT)
}
