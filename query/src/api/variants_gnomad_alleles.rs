//! `/variants/gnomad-alleles` (the IGVF client\'s `variants_alleles`): the gnomAD population
//! frequencies of the human variants in a region of at most 1 kb, as a table — a header row,
//! then one row per variant (none at all when the region has no variant, as IGVF).

use serde_json::{json, Value};

use crate::engine::Read;
use crate::error::ApiError;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use varcat_format::schema::variants as vr;

/// The region (IGVF's limit for this table: 1 kb).
pub const REGION_1KB: Param = Param::new(
    "region",
    Kind::Region(Some(1_000)),
    "variants in chr<name>:<start>-<end> (at most 1 kb)",
);

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/gnomad-alleles",
    section: None,
    summary: "gnomAD population frequencies of the variants in a region (a table)",
    accepts: Accepts {
        params: &[&REGION_1KB],
        rules: &[Rule::Required(&REGION_1KB)],
        paging: Paging::Ignored,
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(gnomad_alleles),
    body: Body::Table,
    examples: &["region=chr1:14500-15500", "region=chr20:9564000-9565000"],
};

/// The header row; the populations are read as `gnomad_af_<name>` from `annotations`.
const HEADER: [&str; 10] = [
    "chr", "pos", "afr", "ami", "amr", "asj", "eas", "fin", "nfe", "sas",
];

/// The region's variants by (position, key): `[chr, pos, af_afr, …, af_sas]` each.
fn gnomad_alleles(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let Some(r) = p.region(&REGION_1KB) else {
        return Err(ApiError::param("region", "region is required"));
    };
    let v = ctx.coll(vr::COLL);
    let mut rows: Vec<(u64, u64, Value)> = Vec::new();
    if let Some(c) = v {
        for o in sets::within(v, r).iter() {
            let pos = member_value(c, o, vr::m::pos);
            let ann = member_value(c, o, vr::m::annotations);
            let mut row = vec![json!(c.str_of(o, vr::m::chr)), pos.clone()];
            row.extend(HEADER[2..].iter().map(|pop| {
                ann.get(format!("gnomad_af_{pop}"))
                    .cloned()
                    .unwrap_or(Value::Null)
            }));
            rows.push((pos.as_u64().unwrap_or(0), o, Value::Array(row)));
        }
    }
    rows.sort_by_key(|r| (r.0, r.1));
    let mut out: Vec<Value> = Vec::with_capacity(rows.len() + 1);
    if !rows.is_empty() {
        out.push(json!(HEADER));
        out.extend(rows.into_iter().map(|r| r.2));
    }
    Ok(serde_json::to_vec(&out).expect("serialises").into())
}
