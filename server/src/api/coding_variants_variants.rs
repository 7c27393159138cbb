//! 4.15 `/coding-variants/variants`: the variants that cause the given protein changes, each once,
//! in key order.

use super::*;
use crate::api::variants::{self, SHORT_VARIANT};
use crate::api::{sets, Ctx, Reply};
use crate::engine::{Filter, Set};
use crate::params::Params;
use varcat_format::collection::Collection;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/coding-variants/variants",
    section: "4.15",
    summary: "Variants that cause the given protein changes",
    accepts: Accepts {
        params: &[
            Param::new(
                "coding_variant_name",
                Kind::Id,
                "e.g. SRY_ENST00000383070_p.A135S_c.403G>T",
            ),
            Param::new("hgvsp", Kind::Id, "protein change, e.g. p.A135S"),
            Param::new("gene_name", Kind::Id, "gene symbol (exact)"),
            Param::new("protein_id", Kind::Id, "Ensembl protein id"),
            Param::new(
                "uniprot_name",
                Kind::Id,
                "UniProt entry name, e.g. SRY_HUMAN",
            ),
            Param::new("transcript_id", Kind::Id, "Ensembl transcript id"),
            Param::new("amino_acid_position", Kind::Int, "amino-acid position"),
            Param::new(
                "alt_amino_acid",
                Kind::Enum(AMINO_ACIDS),
                "alternate amino acid, or * for a stop",
            ),
        ],
        rules: &[Rule::AtLeastOne(&[
            "coding_variant_name",
            "hgvsp",
            "protein_id",
            "uniprot_name",
            "gene_name",
            "transcript_id",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: coding_variants_variants,
    body: Body::Array(&variants::SHORT_VARIANT),
    examples: &[
        "gene_name=TSTA1&amino_acid_position=1",
        "coding_variant_name=TSTA1_ENST90000000001_p.M1T_c.2T>C",
    ],
};

/// Coding variants matching 4.15's filters.
fn matching_coding<'a>(cv: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(cv);
    if let Some(n) = p.str("coding_variant_name") {
        f.and(sets::exact_any(
            cv,
            "name",
            &varcat_format::text::coding_variant_names(n),
        ));
    }
    for (param, member) in [
        ("hgvsp", "hgvsp"),
        ("gene_name", "gene_name"),
        ("protein_id", "protein_id"),
        ("uniprot_name", "protein_name"),
        ("transcript_id", "transcript_id"),
    ] {
        if let Some(x) = p.str(param) {
            f.and(sets::exact_any(
                cv,
                member,
                &crate::parse::ident::ensembl_candidates(x),
            ));
        }
    }
    if let Some(pos) = p.int("amino_acid_position") {
        f.and(sets::exact(cv, "aapos", &pos.to_string()));
    }
    if let Some(alt) = p.str("alt_amino_acid") {
        f.and(sets::facet(cv, "alt", alt));
    }
    f
}

/// 4.15: the variants linked to the matching coding variants, each once, in key order.
pub fn coding_variants_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let cv = ctx.coll("coding_variants");
    let edges = ctx.coll("variants_coding_variants");
    let v = ctx.coll("variants");
    let links = sets::adjacent_to(edges, "_to", cv, matching_coding(cv, p).lazy());
    let ords: Vec<u32> = match (edges, v) {
        (Some(e), Some(v)) => links
            .iter()
            .filter_map(|l| e.string(l, "_from"))
            .filter_map(|h| v.ord(h.strip_prefix("variants/")?))
            .collect(),
        _ => Vec::new(),
    };
    let all = Set::from_unsorted(ords);
    let mut f = Filter::over(v);
    f.and(all);
    ctx.page(p, v, &f, &SHORT_VARIANT)
}
