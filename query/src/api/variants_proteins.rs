//! `/variants/proteins` and the shape `/proteins/variants` shares (an IGVF client path): proteins and
//! complexes whose binding or levels the variants the identifiers and region select modulate.

use crate::api::motifs_proteins::COMPLEX;
use crate::api::variants_genes;
use crate::api::variants_genes::VARIANT_PARAMS;
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::VARIANTS;
use crate::prelude::*;
use crate::shape::{field, json_str, member, renamed, Member, Render, Shape, Src, Ty};
use crate::vocab::shapes::{id_or, ONTOLOGY_TERM, PROTEIN_BASIC};
use crate::vocab::variants::{CA_ID, HGVS, REGION_10KB, RSID, SHORT_VARIANT, SPDI, VARIANT_ID};
use varcat_format::schema::{complexes, variants_proteins as vp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/proteins",
    section: None,
    summary: "Proteins and complexes whose binding or levels variants modulate",
    accepts: Accepts {
        params: &[
            &SPDI,
            &HGVS,
            &RSID,
            &CA_ID,
            &VARIANT_ID,
            &REGION_10KB,
            &LABEL,
            &SOURCE,
            &METHOD,
            &FILESET,
            &NAME,
        ],
        rules: &[Rule::AtLeastOne(&[
            &SPDI,
            &HGVS,
            &RSID,
            &CA_ID,
            &VARIANT_ID,
            &REGION_10KB,
            &METHOD,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&VARIANT_PROTEIN),
    examples: &[
        "spdi=NC_000001.11:15000:A:T",
        "spdi=NC_000001.11:15000:A:T&verbose=true&source=ADASTRA",
        "method=pQTL&limit=3",
    ],
};

/// Label.
pub const LABEL: Param = Param::new(
    "label",
    Kind::Enum(&[
        "allele-specific binding",
        "pQTL",
        "predicted allele-specific binding",
    ]),
    "label",
);
/// Data source.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&["ADASTRA", "GVATdb", "IGVF", "UKB"]),
    "data source",
);
/// Method.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(&["ADASTRA", "GVATdb", "SEMVAR", "pQTL"]),
    "method",
);
/// Relation (the edge's forward names).
pub const NAME: Param = Param::new(
    "name",
    Kind::Enum(&["associated with levels of", "modulates binding of"]),
    "relation",
);

/// The edge's target handle, when it is a string.
fn target(e: &Collection, o: u64) -> Option<String> {
    e.raw(o, vp::m::_to)
        .and_then(|b| json_str(&b).map(|h| h.into_owned()))
}

/// The protein or complex: its handle, or with verbose its record (a protein in the client's
/// `ProteinBasic`, a complex in `Complex`).
fn protein_complex(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let Some(h) = target(e, o) else {
        return false;
    };
    match r.expansion(&h) {
        Some((c, to)) if c.name() == complexes::NAME => r.object(out, c, to, &COMPLEX),
        Some((c, to)) => r.object(out, c, to, &PROTEIN_BASIC),
        None => crate::shape::write_str(out, &h),
    }
    true
}

/// Whether the target is a complex (the client requires the boolean).
fn is_complex(_: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let yes = target(e, o).is_some_and(|h| sets::key_in(&h, complexes::COLL).is_some());
    out.extend_from_slice(if yes { b"true" } else { b"false" });
    true
}

/// IGVF's ADASTRA score: with exactly one of the adjusted p-values (ref, alt) below 0.05, minus
/// the ref one or plus the alt one; otherwise null (a missing value never counts as 0).
fn score(_: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let num = |m| member_value(e, o, m).as_f64();
    let (r, a) = (num(vp::m::p_value_adj_ref), num(vp::m::p_value_adj_alt));
    let low = |x: Option<f64>| x.is_some_and(|x| x < 0.05);
    let v = match (low(r), low(a)) {
        (true, false) => r.map(|x| -x),
        (false, true) => a,
        _ => None,
    };
    match v.and_then(serde_json::Number::from_f64) {
        Some(n) => {
            out.extend_from_slice(n.to_string().as_bytes());
            true
        }
        None => false,
    }
}

/// What a verbose `protein_complex` is (the client's `ProteinBasic` or `Complex`).
static PROTEIN_OR_COMPLEX: [&Shape; 2] = [&PROTEIN_BASIC, &COMPLEX];

/// The members of the record with `name` from `name_member`.
const fn members(name_member: varcat_format::schema::Member) -> [Member; 32] {
    [
        id_or("sequence_variant", vp::m::_from, &SHORT_VARIANT),
        member(
            "protein_complex",
            Src::Fn(protein_complex),
            Ty::IdOrOneOf(&PROTEIN_OR_COMPLEX),
        ),
        id_or("biosample_term", vp::m::biosample_term, &ONTOLOGY_TERM),
        field(vp::m::biological_context, Ty::Str),
        field(vp::m::regulatory_type, Ty::Str),
        field(vp::m::class, Ty::Str),
        field(vp::m::label, Ty::Str),
        renamed("name", name_member, Ty::Str).required(),
        field(vp::m::method, Ty::Str),
        field(vp::m::files_filesets, Ty::Str),
        field(vp::m::source, Ty::Str),
        field(vp::m::source_url, Ty::Str),
        member("is_complex", Src::Fn(is_complex), Ty::Bool),
        member("score", Src::Fn(score), Ty::Num),
        field(vp::m::neg_log10_pvalue_adj_ref, Ty::Num),
        field(vp::m::neg_log10_pvalue_adj_alt, Ty::Num),
        field(vp::m::motif, Ty::Str),
        renamed("motif_log2FC", vp::m::motif_fc, Ty::Num),
        field(vp::m::beta, Ty::Num),
        field(vp::m::se, Ty::Num),
        field(vp::m::gene, Ty::Str),
        field(vp::m::gene_consequence, Ty::Str),
        field(vp::m::neg_log10_pvalue, Ty::Num),
        field(vp::m::p_value, Ty::Num),
        field(vp::m::neg_log10_pvalue_adj, Ty::Num),
        field(vp::m::variant_effect_score, Ty::Num),
        field(vp::m::SEMpl_annotation, Ty::Str),
        field(vp::m::SEMpl_baseline, Ty::Num),
        field(vp::m::alt_score, Ty::Num),
        field(vp::m::ref_score, Ty::Num),
        field(vp::m::relative_binding_affinity, Ty::Num),
        field(vp::m::effect_on_binding, Ty::Str),
    ]
}

/// The variant–protein edge seen from the variant (the client's `ProteinsFromVariants`).
pub static VARIANT_PROTEIN: Shape = Shape {
    name: "ProteinsFromVariants",
    members: &members(vp::m::name),
};

/// The same edge seen from the protein: `name` is the inverse name.
pub static PROTEIN_VARIANT: Shape = Shape {
    name: "VariantsFromProteins",
    members: &members(vp::m::inverse_name),
};

/// `/variants/proteins` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vp::COLL),
    from: vp::m::_from,
    to: vp::m::_to,
    anchors: &[Anchor {
        params: &VARIANT_PARAMS,
        nodes: Nodes::ByOrganism(VARIANTS),
        resolve: Resolve::Fn(variants_genes::anchor),
        end: End::From,
    }],
    filters: &[
        NodeFilter::Facet(&LABEL, vp::m::label),
        NodeFilter::Facet(&SOURCE, vp::m::source),
        NodeFilter::Facet(&METHOD, vp::m::method),
        NodeFilter::Fileset(&FILESET, vp::m::files_filesets),
        NodeFilter::Facet(&NAME, vp::m::name),
    ],
    record: Record::One(&VARIANT_PROTEIN),
};
