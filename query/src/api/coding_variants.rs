//! `/coding-variants` (an IGVF client path): coding variants by id, name, protein change, gene, protein,
//! transcript or amino-acid position, in the collection's record order (protein, position,
//! change, key).

use crate::api::coding_variants_variants::{
    protein_change, ALT_AMINO_ACID, GENE_NAME, HGVSP, PROTEIN_ID, TRANSCRIPT_ID, UNIPROT_NAME,
};
use crate::api::variants_coding_variants::CODING_VARIANT;
use crate::engine::Filter;
use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::prelude::*;
use crate::sets;
use varcat_format::schema::coding_variants;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/coding-variants",
    section: None,
    summary: "Coding variants by id, name, protein change, gene, protein or transcript",
    accepts: Accepts {
        params: &[
            &ID,
            &NAME,
            &HGVSP,
            &PROTEIN_ID,
            &UNIPROT_NAME,
            &GENE_NAME,
            &AMINO_ACID_POSITION,
            &ALT_AMINO_ACID,
            &TRANSCRIPT_ID,
        ],
        rules: &[Rule::AtLeastOne(&[
            &ID,
            &NAME,
            &HGVSP,
            &PROTEIN_ID,
            &UNIPROT_NAME,
            &GENE_NAME,
            &TRANSCRIPT_ID,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 25,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&CODING_VARIANT),
    examples: &[
        "gene_name=SRY&amino_acid_position=range:135-137",
        "id=SRY_ENST00000383070_p.X205Y_c.615G>T",
        "protein_id=ENSP00000372547&alt_amino_acid=Y&amino_acid_position=205",
    ],
};

/// Coding-variant id (`_key`); IGVF's display form (`?`, `>`) is accepted.
pub const ID: Param = Param::new(
    "id",
    Kind::Id,
    "coding-variant id, e.g. SRY_ENST00000383070_p.X205Y_c.615G>T",
);
/// Coding-variant name; IGVF's display form is accepted.
pub const NAME: Param = Param::new(
    "name",
    Kind::Id,
    "coding-variant name, e.g. SRY_ENST00000383070_p.X205Y_c.615G>T",
);
/// Amino-acid position or inclusive range.
pub const AMINO_ACID_POSITION: Param = Param::new(
    "amino_acid_position",
    Kind::IntRange,
    "amino-acid position, e.g. 205, or range:<a>-<b>",
);

/// `/coding-variants` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::One(coding_variants::COLL),
    filters: &[
        NodeFilter::Resolved(identified),
        NodeFilter::Resolved(|_, cv, p| protein_change(cv, p)),
        NodeFilter::InRange(&AMINO_ACID_POSITION, coding_variants::m::aapos),
    ],
    shape: &CODING_VARIANT,
};

/// The stored keys an id may mean: as given, and with IGVF's display form (`?` for `!`, `>` for
/// `-`) read back.
fn key_forms(v: &str) -> Vec<String> {
    let mut out = vec![v.to_string(), v.replace('?', "!").replace('>', "-")];
    out.dedup();
    out
}

/// Coding variants by `id` and `name`.
fn identified<'a>(_: &Ctx<'a>, cv: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(cv);
    if let Some(id) = p.str(&ID) {
        let ords: Vec<u64> = match cv {
            Some(c) => key_forms(id).iter().filter_map(|k| c.ord(k)).collect(),
            None => Vec::new(),
        };
        f.and(crate::engine::Set::from_unsorted(ords));
    }
    if let Some(n) = p.str(&NAME) {
        f.and(sets::exact_any(
            cv,
            coding_variants::m::name,
            &varcat_format::text::coding_variant_names(n),
        ));
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_key_forms_read_igvf_display_form_back() {
        assert_eq!(
            key_forms("A_p.X1!_c.1G>T"),
            ["A_p.X1!_c.1G>T", "A_p.X1!_c.1G-T"]
        );
        assert_eq!(key_forms("A_c.1G-T"), ["A_c.1G-T"]);
    }
}
