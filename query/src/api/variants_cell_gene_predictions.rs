//! `/variants/genomic-elements/cell-gene-predictions` (the IGVF client's
//! `genomic_elements_predictions_from_variant`): one object, the cell types and genes the
//! elements containing a variant are linked to. The client's record holds one variant: as IGVF,
//! the first matching variant (by key) is the one described.

use std::collections::{BTreeMap, BTreeSet};

use crate::api::variants_predictions_count::containing;
use crate::error::ApiError;
use crate::prelude::*;
use crate::shape::{doc, Shape, Ty};
use crate::vocab::variants::{self, SHORT_VARIANT};
use varcat_format::schema::{
    genes as g, genomic_elements as ge, genomic_elements_genes as eg, ontology_terms as ot,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/genomic-elements/cell-gene-predictions",
    section: None,
    summary: "Cell types and genes linked to the elements containing a variant",
    accepts: Accepts {
        params: &[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &variants::REGION_10KB,
        ],
        rules: &[variants::ID_OR_REGION_RULE],
        paging: Paging::Ignored,
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(cell_gene_predictions),
    body: Body::Object(&RECORD),
    examples: &[
        "spdi=NC_000001.11:15000:A:G",
        "rsid=rs900004",
        "region=chr1:14990-15010",
    ],
};

/// A linked gene.
pub static PREDICTED_GENE: Shape = Shape {
    name: "PredictedGene",
    members: &[doc("gene_name", Ty::Str), doc("id", Ty::Str)],
};

/// The predictions.
pub static PREDICTIONS: Shape = Shape {
    name: "Predictions",
    members: &[
        doc("cell_types", Ty::StrArr),
        doc("genes", Ty::Arr(&PREDICTED_GENE)),
    ],
};

/// The record (the client's `GenomicElementsPredictionsFromVariant`).
pub static RECORD: Shape = Shape {
    name: "GenomicElementsPredictionsFromVariant",
    members: &[
        doc("sequence variant", Ty::Obj(&SHORT_VARIANT)),
        doc("predictions", Ty::Obj(&PREDICTIONS)),
    ],
};

/// The first matching variant; the distinct biological contexts of the edges leaving the
/// elements containing it (a term handle as the term's name, an unresolvable one left out) in
/// byte order; the genes of the catalog they point at, by handle.
fn cell_gene_predictions(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let v = ctx.coll(varcat_format::schema::variants::COLL);
    let Some(first) = variants::matching(v, p).lazy().next() else {
        return Err(ApiError::not_found("variant not found"));
    };
    let els = ctx.coll(ge::COLL);
    let e = ctx.coll(eg::COLL);
    let handles: Vec<String> = containing(els, v, &[first])
        .into_iter()
        .filter_map(|(_, eo)| els.and_then(|c| sets::handle(c, eo)))
        .collect();
    let mut cell_types = BTreeSet::new();
    let mut genes: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    if let Some(ec) = e {
        for o in sets::adjacent(e, eg::m::_from, handles).iter() {
            if let Some(c) = ec.str_of(o, eg::m::biological_context) {
                if sets::key_in(&c, ot::COLL).is_some() {
                    let name = ctx
                        .cat
                        .resolve(&c)
                        .and_then(|(tc, to)| tc.str_of(to, ot::m::name));
                    cell_types.extend(name);
                } else {
                    cell_types.insert(c);
                }
            }
            if let Some(h) = ec.str_of(o, eg::m::_to) {
                if let Some((gc, go)) = ctx.cat.resolve(&h) {
                    let name = member_value(gc, go, g::m::name);
                    genes.entry(h).or_insert(name);
                }
            }
        }
    }
    let genes: Vec<serde_json::Value> = genes
        .into_iter()
        .map(|(id, name)| serde_json::json!({"gene_name": name, "id": id}))
        .collect();
    let mut out = b"{\"sequence variant\":".to_vec();
    if let Some(vc) = v {
        ctx.render(p).object(&mut out, vc, first, &SHORT_VARIANT);
    }
    out.extend_from_slice(b",\"predictions\":");
    let predictions = serde_json::json!({"cell_types": cell_types, "genes": genes});
    out.extend_from_slice(&serde_json::to_vec(&predictions).expect("serialises"));
    out.push(b'}');
    Ok(out.into())
}
