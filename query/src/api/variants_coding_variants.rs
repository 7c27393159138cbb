//! 4.14 `/variants/coding-variants`: coding consequences and scores of a variant.

use crate::engine::Filter;
use crate::engine::Read;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, Shape, Src, Ty};
use crate::vocab::variants::{self};
use varcat_format::collection::Collection;
use varcat_format::schema::{self, coding_variants, variants_coding_variants as vcv};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/coding-variants",
    section: Some("4.14"),
    summary: "Coding consequences and scores of a variant",
    accepts: Accepts {
        params: &variants::IDS,
        rules: &[variants::ID_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(variants_coding_variants),
    body: Body::Array(&CODING_VARIANT),
    examples: &[
        "spdi=NC_000001.11:15000:A:G",
        "rsid=rs900004",
        "ca_id=CA800003",
    ],
};

/// The coding-variant record (2.15).
pub static CODING_VARIANT: Shape = Shape {
    name: "CodingVariant",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::coding_variants::m::name, Ty::Str),
        field(schema::coding_variants::m::r#ref, Ty::Str),
        field(schema::coding_variants::m::alt, Ty::Str),
        field(schema::coding_variants::m::protein_name, Ty::Str),
        field(schema::coding_variants::m::protein_id, Ty::Str),
        field(schema::coding_variants::m::gene_name, Ty::Str),
        field(schema::coding_variants::m::transcript_id, Ty::Str),
        field(schema::coding_variants::m::hgvsp, Ty::Str),
        field(schema::coding_variants::m::hgvsc, Ty::Str),
        field(schema::coding_variants::m::refcodon, Ty::Str),
        field(schema::coding_variants::m::aapos, Ty::Int),
        field(schema::coding_variants::m::codonpos, Ty::Int),
        field(schema::coding_variants::m::SIFT_score, Ty::Num),
        field(schema::coding_variants::m::SIFT4G_score, Ty::Num),
        field(schema::coding_variants::m::Polyphen2_HDIV_score, Ty::Num),
        field(schema::coding_variants::m::Polyphen2_HVAR_score, Ty::Num),
        field(schema::coding_variants::m::VEST4_score, Ty::Num),
        field(schema::coding_variants::m::REVEL_score, Ty::Num),
        field(schema::coding_variants::m::MutPred_score, Ty::Num),
        field(schema::coding_variants::m::BayesDel_addAF_score, Ty::Num),
        field(schema::coding_variants::m::BayesDel_noAF_score, Ty::Num),
        field(schema::coding_variants::m::VARITY_R_score, Ty::Num),
        field(schema::coding_variants::m::VARITY_ER_score, Ty::Num),
        field(schema::coding_variants::m::VARITY_R_LOO_score, Ty::Num),
        field(schema::coding_variants::m::VARITY_ER_LOO_score, Ty::Num),
        field(schema::coding_variants::m::ESM1b_score, Ty::Num),
        field(schema::coding_variants::m::AlphaMissense_score, Ty::Num),
        field(schema::coding_variants::m::CADD_raw_score, Ty::Num),
        field(schema::coding_variants::m::source, Ty::Str).required(),
        field(schema::coding_variants::m::source_url, Ty::Str).required(),
    ],
};

/// 4.14: the coding variants of the matching variants, ordered by the linking edge's key.
pub fn variants_coding_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let v = ctx.coll(schema::variants::COLL);
    let edges = ctx.coll(vcv::COLL);
    let cv = ctx.coll(coding_variants::COLL);
    let mut f = Filter::over(edges);
    f.and(sets::adjacent_to(
        edges,
        vcv::m::_from,
        v,
        variants::identified(v, p).lazy(),
    ));
    // A row is its coding variant: an edge to a missing one has no row.
    let target = move |e: u64| -> Option<(&Collection, u64)> {
        let h = edges?.str_of(e, vcv::m::_to)?;
        let c = cv?;
        Some((c, c.ord(sets::key_in(&h, coding_variants::COLL)?)?))
    };
    f.pred(move |e| target(e).is_some());
    let (page, more) = f.window(p.offset(), p.limit);
    let items: Vec<(&Collection, u64)> = page.into_iter().filter_map(target).collect();
    Ok(crate::handler::Answer::page(
        ctx.render(p).array_of(&items, &CODING_VARIANT),
        more,
    ))
}
