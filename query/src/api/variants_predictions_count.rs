//! `/variants/predictions-count` (the IGVF client\'s `genomic_elements_from_variants_count`): how
//! many cell types and which genes the elements containing a variant are predicted to
//! regulate. The client declares a free-form `object`; IGVF answers an array holding one
//! object, `{cell_types: <count>, genes: [{gene_name, id}], name: "regulates"}`, and so does
//! varcat.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::{Filter, Read};
use crate::handler::{Ctx, Reply};
use crate::params::{Params, GENOMIC_ELEMENTS};
use crate::prelude::*;
use crate::sets;
use crate::vocab::variants::{self, required_variants};
use serde_json::{json, Value};
use varcat_format::schema::{self, genomic_elements_genes as ege};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/predictions-count",
    section: None,
    summary: "Cell types and genes predicted to be regulated by elements containing a variant",
    accepts: Accepts {
        params: &[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &FILESET,
        ],
        rules: &[variants::ID_RULE],
        paging: Paging::Ignored,
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Handler(predictions_count),
    body: Body::Any,
    examples: &[
        "rsid=rs900004",
        "spdi=NC_000001.11:15000:A:G",
        "rsid=rs900004&files_fileset=IGVFFI9000SCE",
    ],
};

/// One object in an array: the distinct biological contexts counted, the target genes by id.
/// Every element–gene edge counts (whatever its method); an unknown variant is a 404.
fn predictions_count(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (v, ords) = required_variants(ctx, p)?;
    let els = ctx.coll(p.organism.collection(GENOMIC_ELEMENTS));
    let e = ctx.coll(ege::COLL);
    let handles = containing(els, v, &ords)
        .into_iter()
        .flat_map(|(_, eo)| els.and_then(|c| sets::handle(c, eo)))
        .collect::<Vec<_>>();
    let mut f = Filter::over(e);
    f.and(sets::adjacent(e, ege::m::_from, handles));
    if let Some(fs) = p.str(&FILESET) {
        f.and(sets::in_fileset(e, ege::m::files_filesets, fs));
    }
    let mut contexts = BTreeSet::new();
    let mut genes: BTreeMap<String, Value> = BTreeMap::new();
    if let Some(ec) = e {
        for eo in f.lazy() {
            if let Some(c) = ec.str_of(eo, ege::m::biological_context) {
                contexts.insert(c);
            }
            if let Some(h) = ec.str_of(eo, ege::m::_to) {
                let name = ctx.cat.resolve(&h).map_or(Value::Null, |(g, go)| {
                    member_value(g, go, schema::genes::m::name)
                });
                genes.entry(h).or_insert(name);
            }
        }
    }
    let genes: Vec<Value> = genes
        .into_iter()
        .map(|(id, name)| json!({"gene_name": name, "id": id}))
        .collect();
    let out = json!([{"cell_types": contexts.len(), "genes": genes, "name": "regulates"}]);
    Ok(serde_json::to_vec(&out).expect("serialises").into())
}

/// The elements of `els` containing each variant `ords` of `v` (start ≤ pos < end), as
/// (variant, element) ordinal pairs in variant order.
pub fn containing(
    els: Option<&Collection>,
    v: Option<&Collection>,
    ords: &[u64],
) -> Vec<(u64, u64)> {
    let mut pairs = Vec::new();
    if let (Some(vc), Some(ix)) = (v, els.and_then(|c| c.intervals())) {
        for &vo in ords {
            let (Some(chr), Some(pos)) = (
                vc.str_of(vo, schema::variants::m::chr),
                member_value(vc, vo, schema::variants::m::pos).as_f64(),
            ) else {
                continue;
            };
            let pos = pos as u32;
            pairs.extend(
                ix.overlapping(&chr, pos, pos.saturating_add(1))
                    .into_iter()
                    .map(|eo| (vo, eo)),
            );
        }
    }
    pairs
}
