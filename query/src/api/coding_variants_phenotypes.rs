//! `/coding-variants/phenotypes` and its record (an IGVF client path): the phenotype scores of the coding
//! variants a protein change selects; `/phenotypes/coding-variants` reads them from the
//! phenotype's side.

use crate::api::coding_variants_variants::{GENE_NAME, HGVSP, TRANSCRIPT_ID, UNIPROT_NAME};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::prelude::*;
use crate::shape::{field, member, write_str, Render, Shape, Src, Ty};
use crate::vocab::variants::SHORT_VARIANT;
use varcat_format::schema::{
    coding_variants as cv, coding_variants_phenotypes as cvp, ontology_terms as ot,
    variants_coding_variants as vcv,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/coding-variants/phenotypes",
    section: None,
    summary: "Phenotype scores of coding variants (MAVE, SGE, predictors)",
    accepts: Accepts {
        params: &[
            &CODING_VARIANT_NAME,
            &HGVSP,
            &UNIPROT_NAME,
            &GENE_NAME,
            &AMINO_ACID_POSITION,
            &TRANSCRIPT_ID,
            &METHOD,
            &FILESET,
        ],
        rules: &[Rule::AtLeastOne(&[
            &CODING_VARIANT_NAME,
            &HGVSP,
            &UNIPROT_NAME,
            &GENE_NAME,
            &TRANSCRIPT_ID,
            &METHOD,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Edge(&QUERY),
    body: Body::Array(&CV_PHENOTYPE),
    examples: &[
        "gene_name=TSTA1",
        "gene_name=TSTA1&amino_acid_position=1&method=ESM-1v",
    ],
};

/// Coding-variant name (`_key` or `name`; IGVF's display form `?`/`>` accepted).
pub const CODING_VARIANT_NAME: Param = Param::new(
    "coding_variant_name",
    Kind::Id,
    "e.g. SRY_ENST00000383070_p.A135S_c.403G>T",
);
/// Amino-acid position (a number, as the client sends it).
pub const AMINO_ACID_POSITION: Param =
    Param::new("amino_acid_position", Kind::Int, "amino-acid position");
/// Method.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(&[
        "DUAL-IPA",
        "ESM-1v",
        "MutPred2",
        "SGE",
        "VAMP-seq",
        "Variant painting via fluorescence",
    ]),
    "method",
);

/// Coding variants by the client's protein-change parameters, ANDed.
fn coding_variants<'a>(_: &Ctx<'a>, c: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut f = Filter::over(c);
    if let Some(n) = p.str(&CODING_VARIANT_NAME) {
        let mut forms = varcat_format::text::coding_variant_names(n);
        forms.dedup();
        let by_name = sets::exact_any(c, cv::m::name, &forms);
        let by_key = crate::engine::Set::from_unsorted(match c {
            Some(c) => forms.iter().filter_map(|k| c.ord(k)).collect(),
            None => Vec::new(),
        });
        f.and(crate::engine::Set::union([by_name, by_key]));
    }
    for (param, m) in [
        (&HGVSP, cv::m::hgvsp),
        (&GENE_NAME, cv::m::gene_name),
        (&UNIPROT_NAME, cv::m::protein_name),
        (&TRANSCRIPT_ID, cv::m::transcript_id),
    ] {
        if let Some(x) = p.str(param) {
            f.and(sets::exact_any(
                c,
                m,
                &crate::parse::ident::ensembl_candidates(x),
            ));
        }
    }
    if let Some(pos) = p.int(&AMINO_ACID_POSITION) {
        f.and(sets::exact(c, cv::m::aapos, &pos.to_string()));
    }
    f
}

/// The coding variant, in brief.
pub static CODING_VARIANT_BRIEF: Shape = Shape {
    name: "CodingVariantsFromPhenotypesCodingVariant",
    members: &[
        member("_id", Src::Key, Ty::Str).required(),
        field(cv::m::aapos, Ty::Int),
        field(cv::m::hgvsp, Ty::Str),
        field(cv::m::protein_name, Ty::Str),
        field(cv::m::gene_name, Ty::Str),
        field(cv::m::r#ref, Ty::Str),
        field(cv::m::alt, Ty::Str),
    ],
};

/// `{phenotype_id, phenotype_name}` of the edge's term (name "" when it is not loaded).
fn phenotype(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let Some(h) = e.str_of(o, cvp::m::_to) else {
        return false;
    };
    let id = h.split_once('/').map_or(h.as_str(), |(_, k)| k);
    let name = r
        .cat
        .resolve(&h)
        .and_then(|(c, t)| c.str_of(t, ot::m::name))
        .unwrap_or_default();
    out.extend_from_slice(b"{\"phenotype_id\":");
    write_str(out, id);
    out.extend_from_slice(b",\"phenotype_name\":");
    write_str(out, &name);
    out.push(b'}');
    true
}

/// The first non-null score (0 included).
fn score(_: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let raw = [
        cvp::m::pathogenicity_score,
        cvp::m::esm_1v_score,
        cvp::m::score,
        cvp::m::dualipa_abun_score,
        cvp::m::localization_score,
    ]
    .into_iter()
    .find_map(|m| e.raw(o, m).filter(|b| *b != b"null"));
    raw.map(|b| out.extend_from_slice(&b)).is_some()
}

/// The first variant (by edge key) linked to the edge's coding variant.
fn variant(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let Some(h) = e.str_of(o, cvp::m::_from) else {
        return false;
    };
    let links = Ctx { cat: r.cat }.coll(vcv::COLL);
    let first = sets::adjacent(links, vcv::m::_to, [h]).iter().next();
    let v = first
        .and_then(|l| links?.str_of(l, vcv::m::_from))
        .and_then(|vh| r.cat.resolve(&vh));
    match v {
        Some((c, vo)) => {
            r.object(out, c, vo, &SHORT_VARIANT);
            true
        }
        None => false,
    }
}

/// The client's `CodingVariantsFromPhenotypes`.
pub static CV_PHENOTYPE: Shape = Shape {
    name: "CodingVariantsFromPhenotypes",
    members: &[
        member(
            "coding_variant",
            Src::Obj(cvp::m::_from, &CODING_VARIANT_BRIEF),
            Ty::Obj(&CODING_VARIANT_BRIEF),
        ),
        member("phenotype", Src::Fn(phenotype), Ty::Any),
        member("score", Src::Fn(score), Ty::Num),
        field(cvp::m::method, Ty::Str),
        field(cvp::m::class, Ty::Str),
        field(cvp::m::label, Ty::Str),
        field(cvp::m::files_filesets, Ty::Str),
        field(cvp::m::source, Ty::Str).required(),
        field(cvp::m::source_url, Ty::Str).required(),
        member("variant", Src::Fn(variant), Ty::Obj(&SHORT_VARIANT)),
    ],
};

/// The edge filters both directions share.
pub static EDGE_FILTERS: [NodeFilter; 2] = [
    NodeFilter::Facet(&METHOD, cvp::m::method),
    NodeFilter::Fileset(&FILESET, cvp::m::files_filesets),
];

/// `/coding-variants/phenotypes` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(cvp::COLL),
    from: cvp::m::_from,
    to: cvp::m::_to,
    anchors: &[Anchor {
        params: &[
            &CODING_VARIANT_NAME,
            &HGVSP,
            &UNIPROT_NAME,
            &GENE_NAME,
            &AMINO_ACID_POSITION,
            &TRANSCRIPT_ID,
        ],
        nodes: Nodes::One(cv::COLL),
        resolve: Resolve::Fn(coding_variants),
        end: End::From,
    }],
    filters: &EDGE_FILTERS,
    record: Record::One(&CV_PHENOTYPE),
};
