//! 4.2 `/variants/freq`: variants by identifier or region, filtered by allele frequency.

use crate::error::ApiError;
use crate::handler::{Ctx, Reply};
use crate::params::{Kind, Param, Params};
use crate::prelude::*;
use crate::sets;
use crate::vocab::variants::{self, matching, FREQUENCY};
use varcat_format::schema::{self, variant_annotations};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/freq",
    section: Some("4.2"),
    summary: "Variants by identifier or region, filtered by allele frequency",
    accepts: Accepts {
        params: &[
            &SOURCE,
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &variants::REGION_10KB,
            &GENCODE_CATEGORY,
            &MINIMUM_AF,
            &MAXIMUM_AF,
        ],
        rules: &[Rule::Required(&SOURCE), variants::ID_OR_REGION_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(freq),
    body: Body::Array(&FREQUENCY),
    examples: &[
        "source=bravo_af&region=chr20:9564500-9574500&minimum_af=0.0001",
        "source=gnomad_af_total&rsid=rs900002",
    ],
};

/// Allele-frequency source.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(varcat_format::vocab::AF_SOURCES),
    "allele-frequency source",
);
/// GENCODE category.
pub const GENCODE_CATEGORY: Param = Param::new(
    "GENCODE_category",
    Kind::Enum(&["coding", "noncoding"]),
    "GENCODE category",
);
/// Lowest frequency.
pub const MINIMUM_AF: Param = Param::new(
    "minimum_af",
    Kind::Number,
    "lowest frequency (inclusive, default 0)",
);
/// Highest frequency.
pub const MAXIMUM_AF: Param = Param::new(
    "maximum_af",
    Kind::Number,
    "highest frequency (inclusive, default 1)",
);

/// 4.2: variants by identifiers or region, filtered by the frequency of one source
/// (both bounds inclusive; a variant without that frequency is left out).
pub fn freq(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (min, max) = (
        p.num(&MINIMUM_AF).unwrap_or(0.0),
        p.num(&MAXIMUM_AF).unwrap_or(1.0),
    );
    if min > max {
        return Err(ApiError::param(
            "minimum_af",
            format!("minimum_af ({min}) must not exceed maximum_af ({max})"),
        ));
    }
    let v = ctx.coll(schema::variants::COLL);
    let mut f = matching(v, p);
    if let Some(c) = p.str(&GENCODE_CATEGORY) {
        f.and(sets::facet(v, variant_annotations::GENCODE_category, c));
    }
    let source = p.str(&SOURCE).unwrap_or("bravo_af");
    // A source that is none (SOURCE's values are the sources) has no member: no row passes.
    // The frequencies have no column: the candidates (one identifier's or a 10 kb region's
    // variants) are few, and their records are read to print them anyway.
    match variant_annotations::af(source) {
        Some(member) => {
            f.pred(sets::member_number_test(v, member, move |x| {
                min <= x && x <= max
            }));
        }
        None => {
            f.pred(|_| false);
        }
    }
    ctx.page(p, v, &f, &FREQUENCY)
}
