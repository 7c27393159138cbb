//! `/coding-variants/phenotypes/score-summary` (the IGVF client\'s `coding_variants_summary`)
//! and its deprecated alias `/variants/phenotypes/score-summary`: one row per phenotype score
//! of the coding variants of a variant or of a coding-variant id.

use crate::api::coding_variants_phenotypes_count::score_fields;
use crate::api::genes_coding_variants_all_scores::score_member;
use crate::engine::Read;
use crate::handler::{member_value, Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{doc, Shape, Ty};
use crate::vocab::variants::VARIANT_ID;
use serde_json::{json, Value};
use varcat_format::schema::{
    self, coding_variants, coding_variants_phenotypes as cvp, variants_coding_variants as vcv,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/coding-variants/phenotypes/score-summary",
    section: None,
    summary: "Phenotype scores of the coding variants of a variant or coding-variant id",
    accepts: ACCEPTS,
    verbose: false,
    run: Run::Handler(score_summary),
    body: Body::Array(&SUMMARY),
    examples: &[
        "variant_id=NC_000001.11:15000:A:G",
        "coding_variant_id=TSTA1_ENST90000000001_p.M1V_c.1A>G",
        "coding_variant_id=TSTA1_ENST90000000001_p.M1T_c.2T-C&files_fileset=IGVFFI9000TEST",
    ],
};

/// The deprecated alias (client `deprecated_coding_variants_summary`).
pub static ALIAS: Endpoint = Endpoint {
    path: "/variants/phenotypes/score-summary",
    section: None,
    summary: "Deprecated alias of /coding-variants/phenotypes/score-summary",
    examples: &["variant_id=NC_000001.11:15000:A:G"],
    ..ENDPOINT
};

const ACCEPTS: Accepts = Accepts {
    params: &[&VARIANT_ID, &CODING_VARIANT_ID, &FILESET],
    rules: &[Rule::AtLeastOne(&[&VARIANT_ID, &CODING_VARIANT_ID])],
    paging: Paging::Ignored,
    organisms: HUMAN,
};

/// Coding-variant id (`_key`; IGVF's display form accepted).
pub const CODING_VARIANT_ID: Param = Param::new(
    "coding_variant_id",
    Kind::Id,
    "coding-variant id, e.g. TSTA1_ENST90000000001_p.M1V_c.1A>G",
);

/// One row (client `CodingVariantsSummary`).
pub static SUMMARY: Shape = Shape {
    name: "CodingVariantsSummary",
    members: &[
        doc("variant_id", Ty::Str),
        doc("hgvsp", Ty::Str),
        doc("gene_name", Ty::Str),
        doc("transcript_id", Ty::Str),
        doc("dataType", Ty::Str).required(),
        doc("score", Ty::Num),
        doc("portalLink", Ty::Str),
    ],
};

/// Rows in (coding-variant key, edge key) order. `variant_id` is the asked variant's handle,
/// else the first (by handle) variant linked to the coding variant; `score` the dataset's
/// score member, else the first non-null score.
fn score_summary(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (Some(cv), v, links, edges) = (
        ctx.coll(coding_variants::COLL),
        ctx.coll(schema::variants::COLL),
        ctx.coll(vcv::COLL),
        ctx.coll(cvp::COLL),
    ) else {
        return Ok(b"[]".to_vec().into());
    };
    let asked = p
        .variant_id(&VARIANT_ID)
        .map(|id| format!("{}/{}", schema::variants::COLL.name(), id.as_str()));
    // The coding variants: those of the variant, and the id (both ANDed when both are given).
    let mut keys: Option<Vec<String>> = None;
    if let Some(h) = &asked {
        let known = v.is_some_and(|c| c.ord(&h[h.find('/').map_or(0, |i| i + 1)..]).is_some());
        let mut k: Vec<String> = if known {
            sets::adjacent(links, vcv::m::_from, [h.clone()])
                .iter()
                .filter_map(|e| links?.str_of(e, vcv::m::_to))
                .filter_map(|t| sets::key_in(&t, coding_variants::COLL).map(str::to_string))
                .collect()
        } else {
            Vec::new()
        };
        k.sort();
        k.dedup();
        keys = Some(k);
    }
    if let Some(id) = p.str(&CODING_VARIANT_ID) {
        let forms = [id.to_string(), id.replace('?', "!").replace('>', "-")];
        let mine: Vec<String> = forms.into_iter().filter(|k| cv.ord(k).is_some()).collect();
        keys = Some(match keys {
            Some(k) => k.into_iter().filter(|x| mine.contains(x)).collect(),
            None => mine,
        });
    }
    let mut keys = keys.unwrap_or_default();
    keys.sort();
    keys.dedup();
    let fileset = p.str(&FILESET).map(sets::fileset_handle);
    let mut rows = Vec::new();
    for key in keys {
        let Some(o) = cv.ord(&key) else { continue };
        let handle = format!("{}/{key}", coding_variants::COLL.name());
        let variant = asked.clone().or_else(|| {
            let mut hs: Vec<String> = sets::adjacent(links, vcv::m::_to, [handle.clone()])
                .iter()
                .filter_map(|e| links?.str_of(e, vcv::m::_from))
                .collect();
            hs.sort();
            hs.into_iter().next()
        });
        let Some(ec) = edges else { continue };
        let mut es: Vec<(String, u64)> = sets::adjacent(edges, cvp::m::_from, [handle])
            .iter()
            .filter(|&e| {
                fileset
                    .as_deref()
                    .is_none_or(|fs| ec.str_of(e, cvp::m::files_filesets).as_deref() == Some(fs))
            })
            .map(|e| (sets::key(ec, e).unwrap_or_default(), e))
            .collect();
        es.sort();
        for (_, e) in es {
            let method = ec.str_of(e, cvp::m::method).unwrap_or_default();
            let mut score = member_value(ec, e, score_member(&method));
            if score.is_null() {
                score = score_fields()
                    .iter()
                    .map(|m| member_value(ec, e, *m))
                    .find(|x| !x.is_null())
                    .unwrap_or(Value::Null);
            }
            rows.push(json!({
                "variant_id": variant,
                "hgvsp": member_value(cv, o, coding_variants::m::hgvsp),
                "gene_name": member_value(cv, o, coding_variants::m::gene_name),
                "transcript_id": member_value(cv, o, coding_variants::m::transcript_id),
                "dataType": method,
                "score": score,
                "portalLink": member_value(ec, e, cvp::m::source_url),
            }));
        }
    }
    Ok(serde_json::to_vec(&rows).expect("serialises").into())
}
