//! `/variants/variant-ld` (an IGVF client path): the linkage-disequilibrium pairs of the variants the
//! identifiers and region select, found from either end; `sequence_variant` is the partner's
//! key (or, verbose, its record).

use crate::api::variants_genes::{anchor, VARIANT_PARAMS};
use crate::edge::{Anchor, EdgeQuery, End, Record};
use crate::engine::Read;
use crate::node::{NodeFilter, Nodes, Resolve};
use crate::params::VARIANTS;
use crate::prelude::*;
use crate::shape::{field, member, write_str, Compute, Member, Render, Shape, Src, Ty};
use crate::vocab::variants::FREQUENCY;
use varcat_format::collection::Collection;
use varcat_format::schema::{variants, variants_variants as vv, Member as Stored};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/variant-ld",
    section: None,
    summary: "Variants in linkage disequilibrium with variants",
    accepts: Accepts {
        params: &[
            VARIANT_PARAMS[0],
            VARIANT_PARAMS[1],
            VARIANT_PARAMS[2],
            VARIANT_PARAMS[3],
            VARIANT_PARAMS[4],
            VARIANT_PARAMS[5],
            &R2,
            &D_PRIME,
            &ANCESTRY,
        ],
        rules: &[Rule::AtLeastOne(&VARIANT_PARAMS)],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Edge(&QUERY),
    body: Body::Array(&LD_FROM),
    examples: &[
        "rsid=rs900001",
        "rsid=rs900001&verbose=true",
        "rsid=rs900001&r2=gte:0.5&ancestry=EUR",
    ],
};

/// r².
pub const R2: Param = Param::new("r2", Kind::Threshold, "r2");
/// D′.
pub const D_PRIME: Param = Param::new("d_prime", Kind::Threshold, "d_prime");
/// Ancestry.
pub const ANCESTRY: Param = Param::new(
    "ancestry",
    Kind::Enum(&["AFR", "EAS", "EUR", "SAS"]),
    "ancestry",
);

/// Member `m` of the variant the edge's `end` points at (null when missing).
fn end_member(
    r: &Render<'_>,
    e: &Collection,
    o: u64,
    end: Stored,
    m: Stored,
    out: &mut Vec<u8>,
) -> bool {
    let value = e
        .str_of(o, end)
        .and_then(|h| r.cat.resolve(&h))
        .and_then(|(c, v)| c.raw(v, m).filter(|b| *b != b"null").map(|v| v.to_vec()));
    value.map(|b| out.extend_from_slice(&b)).is_some()
}

macro_rules! end_members {
    ($($f:ident: $end:ident . $m:ident;)*) => {$(
        fn $f(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
            end_member(r, e, o, vv::m::$end, variants::m::$m, out)
        }
    )*};
}

end_members! {
    from_pos: _from.pos;
    from_spdi: _from.spdi;
    from_hgvs: _from.hgvs;
    to_pos: _to.pos;
    to_spdi: _to.spdi;
    to_hgvs: _to.hgvs;
}

/// The client's `positive_corr`: not `negated`.
fn positive_corr(_: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    match member_value(e, o, vv::m::negated).as_bool() {
        Some(n) => {
            out.extend_from_slice(if n { b"false" } else { b"true" });
            true
        }
        None => false,
    }
}

/// The partner variant the edge's `end` points at, as IGVF gives it: its key (a `variant_id`
/// a client can send back), or with `verbose` its record in a one-element array (`[]` when it
/// is missing from the catalog).
fn partner(r: &Render<'_>, e: &Collection, o: u64, end: Stored, out: &mut Vec<u8>) -> bool {
    let Some(handle) = e.str_of(o, end) else {
        return false;
    };
    if r.verbose {
        out.push(b'[');
        if let Some((c, v)) = r.expansion(&handle) {
            r.object(out, c, v, &FREQUENCY);
        }
        out.push(b']');
    } else {
        let key = handle.split_once('/').map_or(handle.as_str(), |(_, k)| k);
        write_str(out, key);
    }
    true
}

fn partner_to(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    partner(r, e, o, vv::m::_to, out)
}

fn partner_from(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    partner(r, e, o, vv::m::_from, out)
}

/// The client's `VariantsFromVariantID` with `sequence_variant` from `partner` (the other end).
const fn members(partner: Compute) -> [Member; 20] {
    [
        field(vv::m::chr, Ty::Str),
        field(vv::m::ancestry, Ty::Str),
        field(vv::m::d_prime, Ty::Num),
        field(vv::m::r2, Ty::Num),
        member("positive_corr", Src::Fn(positive_corr), Ty::Bool),
        field(vv::m::label, Ty::Str).required(),
        field(vv::m::variant_1_base_pair, Ty::Str).required(),
        field(vv::m::variant_1_rsid, Ty::Str).required(),
        field(vv::m::variant_2_base_pair, Ty::Str).required(),
        field(vv::m::variant_2_rsid, Ty::Str).required(),
        member("variant_1_pos", Src::Fn(from_pos), Ty::Int),
        member("variant_1_spdi", Src::Fn(from_spdi), Ty::Str),
        member("variant_1_hgvs", Src::Fn(from_hgvs), Ty::Str),
        member("variant_2_pos", Src::Fn(to_pos), Ty::Int),
        member("variant_2_spdi", Src::Fn(to_spdi), Ty::Str),
        member("variant_2_hgvs", Src::Fn(to_hgvs), Ty::Str),
        field(vv::m::source, Ty::Str),
        field(vv::m::source_url, Ty::Str),
        member(
            "sequence_variant",
            Src::Fn(partner),
            Ty::IdOrList(&FREQUENCY),
        ),
        field(vv::m::name, Ty::Str).required(),
    ]
}

const FROM_MEMBERS: [Member; 20] = members(partner_to);
const TO_MEMBERS: [Member; 20] = members(partner_from);

/// A pair whose `_from` is the anchor's: the partner is `_to` (the documented shape).
pub static LD_FROM: Shape = Shape {
    name: "VariantsFromVariantID",
    members: &FROM_MEMBERS,
};

/// A pair whose `_to` is the anchor's: the partner is `_from` (same document as [`LD_FROM`]).
pub static LD_TO: Shape = Shape {
    name: "VariantsFromVariantID",
    members: &TO_MEMBERS,
};

/// `/variants/variant-ld` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(vv::COLL),
    from: vv::m::_from,
    to: vv::m::_to,
    anchors: &[Anchor {
        params: &VARIANT_PARAMS,
        nodes: Nodes::ByOrganism(VARIANTS),
        resolve: Resolve::Fn(anchor),
        end: End::Either,
    }],
    filters: &[
        NodeFilter::Threshold(&R2, vv::m::r2),
        NodeFilter::Threshold(&D_PRIME, vv::m::d_prime),
        NodeFilter::Facet(&ANCESTRY, vv::m::ancestry),
    ],
    record: Record::ByEnd(&LD_FROM, &LD_TO),
};
