//! 4.9 `/variants/predictions`: the genes predicted to be regulated by the elements containing a
//! variant.

use crate::engine::Read;
use crate::engine::{Filter, Set};
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::params::{GENOMIC_ELEMENTS, VARIANTS};
use crate::prelude::*;
use crate::sets;
use crate::shape::{doc, member, Shape, Src, Ty};
use crate::vocab::variants::{self};
use serde_json::{json, Map, Value};
use varcat_format::collection::Collection;
use varcat_format::schema::{
    self, genomic_elements as elements, genomic_elements_genes as ege, Member as SchemaMember,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/predictions",
    section: Some("4.9"),
    summary: "Genes predicted to be regulated by elements containing a variant",
    accepts: Accepts {
        params: &[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &FILESET_OR_FILESETS,
            &METHOD,
        ],
        rules: &[Rule::AtLeastOne(&[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &FILESET_OR_FILESETS,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 300,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Handler(predictions),
    body: Body::Array(&PREDICTION),
    examples: &[
        "rsid=rs900004",
        "files_fileset=IGVFFI9000SCE",
        "hgvs=NC_000001.11:g.15001A%3EG",
    ],
};

/// The file-set filter, also under IGVF's plural name.
pub const FILESET_OR_FILESETS: Param = FILESET.aliases(&["files_filesets"]);
/// Prediction method.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(&["scE2G", "ENCODE-rE2G", "caQTL"]),
    "prediction method (default: scE2G and ENCODE-rE2G)",
);

/// Methods 4.9 reports unless `method` is given (predictions, not screens).
const DEFAULT_METHODS: &[&str] = &["scE2G", "ENCODE-rE2G"];

fn num(c: &Collection, o: u64, f: SchemaMember) -> Option<i64> {
    member_value(c, o, f).as_f64().map(|x| x as i64)
}

/// 4.9 target gene (documentation).
pub static TARGET_GENE: Shape = Shape {
    name: "TargetGene",
    members: &[
        doc("gene_name", Ty::Str),
        doc("id", Ty::Str),
        doc("chr", Ty::Str),
        doc("start", Ty::Int),
        doc("end", Ty::Int),
    ],
};

/// 4.9 record (documentation; rendered by [`predictions`]).
pub static PREDICTION: Shape = Shape {
    name: "VariantPrediction",
    members: &[
        doc("distance_gene_variant", Ty::Int),
        doc("element_chr", Ty::Str),
        doc("element_start", Ty::Int),
        doc("element_end", Ty::Int),
        doc("element_type", Ty::Str),
        doc("id", Ty::Str),
        doc("cell_type", Ty::Str),
        member("target_gene", Src::Const("null"), Ty::Obj(&TARGET_GENE)),
        doc("score", Ty::Num),
        doc("model", Ty::Str),
        doc("dataset", Ty::Str),
        doc("name", Ty::Str),
        doc("files_filesets", Ty::Str),
    ],
};

/// One 4.9 row: an element–gene edge seen from a variant inside the element.
fn prediction_row(
    ctx: &Ctx<'_>,
    e: &Collection,
    eo: u64,
    v: &Collection,
    vo: u64,
) -> Option<Value> {
    let (el, elo) = ctx.cat.resolve(&e.str_of(eo, ege::m::_from)?)?;
    let gene_handle = e.str_of(eo, ege::m::_to)?;
    let (g, go) = ctx.cat.resolve(&gene_handle)?;
    let pos = num(v, vo, schema::variants::m::pos)?;
    let (gs, ge) = (
        num(g, go, schema::genes::m::start),
        num(g, go, schema::genes::m::end),
    );
    let distance = match (gs, ge) {
        (Some(s), Some(en)) => (pos - s).abs().min((pos - en).abs()),
        _ => 0,
    };
    let cell = e
        .str_of(eo, ege::m::cell_annotation)
        .or_else(|| e.str_of(eo, ege::m::biological_context))
        .unwrap_or_default();
    let mut m = Map::new();
    m.insert("distance_gene_variant".into(), json!(distance));
    m.insert(
        "element_chr".into(),
        json!(el.str_of(elo, elements::m::chr).unwrap_or_default()),
    );
    m.insert(
        "element_start".into(),
        member_value(el, elo, elements::m::start),
    );
    m.insert(
        "element_end".into(),
        member_value(el, elo, elements::m::end),
    );
    m.insert(
        "element_type".into(),
        json!(el.str_of(elo, elements::m::r#type).unwrap_or_default()),
    );
    m.insert(
        "id".into(),
        json!(e.str_of(eo, ege::m::_from).unwrap_or_default()),
    );
    m.insert("cell_type".into(), json!(cell));
    m.insert(
        "target_gene".into(),
        json!({
            "gene_name": g.str_of(go, schema::genes::m::name).unwrap_or_default(),
            "id": gene_handle,
            "chr": g.str_of(go, schema::genes::m::chr).unwrap_or_default(),
            "start": member_value(g, go, schema::genes::m::start),
            "end": member_value(g, go, schema::genes::m::end),
        }),
    );
    m.insert("score".into(), member_value(e, eo, ege::m::score));
    m.insert(
        "model".into(),
        json!(e.str_of(eo, ege::m::source).unwrap_or_default()),
    );
    m.insert(
        "dataset".into(),
        json!(e.str_of(eo, ege::m::source_url).unwrap_or_default()),
    );
    m.insert(
        "name".into(),
        json!(e.str_of(eo, ege::m::name).unwrap_or_default()),
    );
    m.insert(
        "files_filesets".into(),
        member_value(e, eo, ege::m::files_filesets),
    );
    Some(Value::Object(m))
}

/// 4.9: for each variant, the elements containing it (`start <= pos < end`) and their predicted
/// target genes, ordered by edge key then variant key. With only a file set, every variant
/// inside the elements of that file set's edges. Rows whose target gene is missing are left out.
pub fn predictions(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let org = p.organism;
    let v = ctx.coll(org.collection(VARIANTS));
    let els = ctx.coll(org.collection(GENOMIC_ELEMENTS));
    let e = ctx.coll(ege::COLL);
    let (Some(vc), Some(ec)) = (v, e) else {
        return Ok(b"[]".to_vec().into());
    };
    let methods: Vec<&str> = match p.str(&METHOD) {
        Some(m) => vec![m],
        None => DEFAULT_METHODS.to_vec(),
    };
    let mut f = Filter::over(e);
    f.and(Set::union(
        methods.iter().map(|m| sets::facet(e, ege::m::method, m)),
    ));
    if let Some(fs) = p.str(&FILESET_OR_FILESETS) {
        f.and(sets::in_fileset(e, ege::m::files_filesets, fs));
    }
    // A row needs its target gene.
    f.pred(move |o| {
        ec.str_of(o, ege::m::_to)
            .and_then(|h| ctx.cat.resolve(&h))
            .is_some()
    });
    // Rows as (edge, variant), in that order.
    let mut rows: Vec<(u64, u64)> = Vec::new();
    if p.any(&variants::IDS) {
        let mut element_handles = Vec::new();
        let mut per_element: std::collections::HashMap<String, Vec<u64>> =
            std::collections::HashMap::new();
        for vo in variants::identified(v, p).lazy() {
            let (Some(chr), Some(pos)) = (
                vc.str_of(vo, schema::variants::m::chr),
                num(vc, vo, schema::variants::m::pos),
            ) else {
                continue;
            };
            let Some(ix) = els.and_then(|c| c.intervals()) else {
                continue;
            };
            let pos = pos as u32;
            for eo in ix.overlapping(&chr, pos, pos.saturating_add(1)) {
                if let Some(h) = els.and_then(|c| sets::handle(c, eo)) {
                    per_element.entry(h.clone()).or_default().push(vo);
                    element_handles.push(h);
                }
            }
        }
        f.and(sets::adjacent(e, ege::m::_from, element_handles));
        for eo in f.lazy() {
            let Some(h) = ec.str_of(eo, ege::m::_from) else {
                continue;
            };
            let mut vs = per_element.get(&h).cloned().unwrap_or_default();
            vs.sort_unstable();
            vs.dedup();
            rows.extend(vs.into_iter().map(|vo| (eo, vo)));
        }
        let (page, more) = crate::params::window(rows, p);
        return render_rows(ctx, ec, vc, &page, more);
    }
    // A file set alone: walk its edges in key order, expanding each element's variants, until
    // the page is full.
    let (skip, take) = (
        p.offset().min(usize::MAX as u64) as usize,
        p.limit.min(usize::MAX as u64) as usize,
    );
    let mut seen = 0usize;
    'edges: for eo in f.lazy() {
        let Some((el, elo)) = ec
            .str_of(eo, ege::m::_from)
            .and_then(|h| ctx.cat.resolve(&h))
        else {
            continue;
        };
        let (Some(chr), Some(s), Some(en)) = (
            el.str_of(elo, elements::m::chr),
            num(el, elo, elements::m::start),
            num(el, elo, elements::m::end),
        ) else {
            continue;
        };
        let mut inside = vc
            .points()
            .map_or(Vec::new(), |ix| ix.in_range(&chr, s as u32, en as u32));
        inside.sort_unstable();
        for vo in inside {
            if seen >= skip {
                rows.push((eo, vo));
                // One row past the page says whether another page exists.
                if rows.len() > take {
                    break 'edges;
                }
            }
            seen += 1;
        }
    }
    let more = rows.len() > take;
    rows.truncate(take);
    render_rows(ctx, ec, vc, &rows, more)
}

fn render_rows(
    ctx: &Ctx<'_>,
    e: &Collection,
    v: &Collection,
    rows: &[(u64, u64)],
    more: bool,
) -> Reply {
    let out: Vec<Value> = rows
        .iter()
        .filter_map(|&(eo, vo)| prediction_row(ctx, e, eo, v, vo))
        .collect();
    Ok(crate::handler::Answer::page(
        serde_json::to_vec(&out).expect("serialises"),
        more,
    ))
}
