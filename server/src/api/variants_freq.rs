//! 4.2 `/variants/freq`: variants by identifier or region, filtered by allele frequency.

use super::*;
use crate::api::variants::{matching, FREQUENCY};
use crate::api::{sets, Ctx, Reply};
use crate::error::ApiError;
use crate::params::{Kind, Param, Params};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/freq",
    section: "4.2",
    summary: "Variants by identifier or region, filtered by allele frequency",
    accepts: Accepts {
        params: &[
            Param::new(
                "source",
                Kind::Enum(varcat_format::vocab::AF_SOURCES),
                "allele-frequency source",
            ),
            ID[0],
            ID[1],
            ID[2],
            ID[3],
            ID[4],
            Param::new(
                "region",
                Kind::Region(Some(10_000)),
                "variants in chr<name>:<start>-<end> (at most 10 kb)",
            ),
            Param::new(
                "GENCODE_category",
                Kind::Enum(&["coding", "noncoding"]),
                "GENCODE category",
            ),
            Param::new(
                "minimum_af",
                Kind::Number,
                "lowest frequency (inclusive, default 0)",
            ),
            Param::new(
                "maximum_af",
                Kind::Number,
                "highest frequency (inclusive, default 1)",
            ),
        ],
        rules: &[
            Rule::Required("source"),
            Rule::AtLeastOne(&["variant_id", "spdi", "hgvs", "rsid", "ca_id", "region"]),
        ],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: freq,
    body: Body::Array(&FREQUENCY),
    examples: &[
        "source=bravo_af&region=chr20:9564500-9574500&minimum_af=0.0001",
        "source=gnomad_af_total&rsid=rs900002",
    ],
};

/// 4.2: variants by identifiers or region, filtered by the frequency of one source
/// (both bounds inclusive; a variant without that frequency is left out).
pub fn freq(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (min, max) = (
        p.num("minimum_af").unwrap_or(0.0),
        p.num("maximum_af").unwrap_or(1.0),
    );
    if min > max {
        return Err(ApiError::param(
            "minimum_af",
            format!("minimum_af ({min}) must not exceed maximum_af ({max})"),
        ));
    }
    let v = ctx.coll("variants");
    let mut f = matching(v, p);
    if let Some(c) = p.str("GENCODE_category") {
        f.and(sets::facet(v, "annotations.GENCODE_category", c));
    }
    let source = p.str("source").unwrap_or("bravo_af");
    let column = v.and_then(|c| c.number(&format!("annotations.{source}")));
    f.pred(move |o| {
        column
            .and_then(|col| col.get(o))
            .is_some_and(|x| min <= x && x <= max)
    });
    ctx.page(p, v, &f, &FREQUENCY)
}
