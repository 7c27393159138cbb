//! 4.12 `/variants/variant-ld/summary`: the variants in linkage disequilibrium with a variant,
//! each with its QTL and TF-binding predictions (the build-time `variant_ld_predictions` table).

use crate::engine::Read;
use crate::engine::{Filter, Set};
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{doc, member, Shape, Src, Ty};
use crate::vocab::variants::SHORT_VARIANT;
use crate::vocab::variants::{self, required_variants};
use serde_json::{json, Value};
use varcat_format::schema::{variant_ld_predictions, variants_variants as vv};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/variant-ld/summary",
    section: Some("4.12"),
    summary: "Variants in linkage disequilibrium with a variant, with their QTLs and TF binding",
    accepts: Accepts {
        params: &variants::IDS,
        rules: &[variants::ID_RULE],
        paging: Paging::Paged {
            default: 15,
            max: 100,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Handler(ld_summary),
    body: Body::Array(&LD_SUMMARY),
    examples: &[
        "rsid=rs900001",
        "spdi=NC_000001.11:15000:A:T",
        "ca_id=CA800001",
    ],
};

/// The partner of an LD edge as the short variant form, or its id string when missing.
fn partner_json(ctx: &Ctx<'_>, handle: &str) -> Value {
    match ctx.cat.resolve(handle) {
        Some((c, o)) => {
            let mut buf = Vec::new();
            ctx.render_plain().object(&mut buf, c, o, &SHORT_VARIANT);
            serde_json::from_slice(&buf).unwrap_or(Value::Null)
        }
        None => json!(handle),
    }
}

/// 4.12 record (documentation; rendered by [`ld_summary`]).
pub static LD_SUMMARY: Shape = Shape {
    name: "VariantLDSummary",
    members: &[
        doc("ancestry", Ty::Str),
        doc("d_prime", Ty::Num),
        doc("r2", Ty::Num),
        member(
            "sequence variant",
            Src::Const("null"),
            Ty::IdOr(&SHORT_VARIANT),
        ),
        doc("predictions", Ty::Any),
    ],
};

/// 4.12: the variant's LD partners (edges from either end, in key order), each with its
/// QTL and TF-binding predictions computed at build time.
pub fn ld_summary(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (v, ords) = required_variants(ctx, p)?;
    let ld = ctx.coll(vv::COLL);
    let Some(vc) = v else {
        return Ok(b"[]".to_vec().into());
    };
    let handles = sets::handles(vc, &ords);
    let edges = Set::union([
        sets::adjacent(ld, vv::m::_from, handles.clone()),
        sets::adjacent(ld, vv::m::_to, handles.clone()),
    ]);
    let mut f = Filter::over(ld);
    f.and(edges);
    let preds = ctx.coll(variant_ld_predictions::COLL);
    let empty = json!({"qtls": [], "tf_binding": []});
    let (page, more) = f.window(p.offset(), p.limit);
    let out: Vec<Value> = match ld {
        None => Vec::new(),
        Some(l) => page
            .into_iter()
            .map(|o| {
                let from = l.str_of(o, vv::m::_from).unwrap_or_default();
                let partner = if handles.contains(&from) {
                    l.str_of(o, vv::m::_to).unwrap_or_default()
                } else {
                    from
                };
                let predictions = preds
                    .and_then(|c| c.raw(c.ord(&partner)?, variant_ld_predictions::m::predictions))
                    .and_then(|b| serde_json::from_slice(&b).ok())
                    .unwrap_or_else(|| empty.clone());
                json!({
                    "ancestry": l.str_of(o, vv::m::ancestry).unwrap_or_default(),
                    "d_prime": member_value(l, o, vv::m::d_prime),
                    "r2": member_value(l, o, vv::m::r2),
                    "sequence variant": partner_json(ctx, &partner),
                    "predictions": predictions,
                })
            })
            .collect(),
    };
    Ok(crate::handler::Answer::page(
        serde_json::to_vec(&out).expect("serialises"),
        more,
    ))
}
