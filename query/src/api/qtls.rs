//! `/qtls` (the IGVF client\'s `qtls`): the QTLs of genes, of variants or of the variants in a
//! region — one list over three edge kinds, by edge key: expression and splicing QTLs
//! (`variants_genes`), protein QTLs (`variants_proteins`, whose `gene` member names the gene) and
//! chromatin-accessibility QTLs (`variants_genomic_elements`, whose gene is one containing the
//! element or the variant).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::engine::{cascade, Filter, Read, NAME_TIERS};
use crate::error::ApiError;
use crate::handler::{Ctx, Reply};
use crate::prelude::*;
use crate::sets;
use crate::shape::{doc, Shape, Ty};
use varcat_format::collection::Collection;
use varcat_format::schema::{
    complexes as cx, genes as gn, genomic_elements as el, proteins as pr, studies as st,
    variants as vr, variants_genes as vg, variants_genomic_elements as vge,
    variants_proteins as vp,
};

/// Exact biological context.
pub const CONTEXT: Param = Param::new(
    "biological_context",
    Kind::Id,
    "biological context, exact (e.g. lymphoblastoid cell line)",
);
/// QTL kind.
pub const METHOD: Param = Param::new(
    "method",
    Kind::Enum(&["eQTL", "pQTL", "spliceQTL", "caQTL"]),
    "QTL kind",
);
/// Data source.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&["AFGR", "EBI", "IGVF", "ENCODE", "UKB"]),
    "data source",
);

const GENE_KIND: [&Param; 2] = [&genes::GENE_ID, &genes::GENE_NAME];
const VARIANT_KIND: [&Param; 5] = [
    &variants::VARIANT_ID,
    &variants::SPDI,
    &variants::HGVS,
    &variants::RSID,
    &variants::CA_ID,
];

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/qtls",
    section: None,
    summary: "QTLs (eQTL, spliceQTL, pQTL, caQTL) of genes, variants or a region",
    accepts: Accepts {
        params: &[
            &genes::GENE_ID,
            &genes::GENE_NAME,
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &variants::REGION_10KB,
            &CONTEXT,
            &METHOD,
            &SOURCE,
        ],
        rules: &[Rule::AtLeastOne(&[
            &genes::GENE_ID,
            &genes::GENE_NAME,
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &variants::REGION_10KB,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(qtls),
    body: Body::Array(&QTL),
    examples: &[
        "gene_name=TSTA1",
        "rsid=rs900001",
        "spdi=NC_000001.11:15000:A:G&method=pQTL",
        "region=chr1:14000-16000&method=caQTL",
    ],
};

/// The three edge kinds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Qtl {
    /// eQTL, spliceQTL.
    Genes,
    /// pQTL.
    Proteins,
    /// caQTL.
    Elements,
}

impl Qtl {
    const ALL: [Qtl; 3] = [Qtl::Genes, Qtl::Proteins, Qtl::Elements];

    fn coll(self) -> Coll {
        match self {
            Qtl::Genes => vg::COLL,
            Qtl::Proteins => vp::COLL,
            Qtl::Elements => vge::COLL,
        }
    }

    fn from(self) -> Member {
        match self {
            Qtl::Genes => vg::m::_from,
            Qtl::Proteins => vp::m::_from,
            Qtl::Elements => vge::m::_from,
        }
    }

    /// Its methods (a collection holds other edges too).
    fn methods(self) -> &'static [&'static str] {
        match self {
            Qtl::Genes => &["eQTL", "spliceQTL"],
            Qtl::Proteins => &["pQTL"],
            Qtl::Elements => &["caQTL"],
        }
    }

    /// The members every kind has, in this collection.
    fn common(self) -> [Member; 4] {
        match self {
            Qtl::Genes => [
                vg::m::method,
                vg::m::source,
                vg::m::biological_context,
                vg::m::_key,
            ],
            Qtl::Proteins => [
                vp::m::method,
                vp::m::source,
                vp::m::biological_context,
                vp::m::_key,
            ],
            Qtl::Elements => [
                vge::m::method,
                vge::m::source,
                vge::m::biological_context,
                vge::m::_key,
            ],
        }
    }
}

/// A selected edge and the gene it is reported for (None: the edge's own end, or none).
struct Row<'a> {
    kind: Qtl,
    edges: &'a Collection,
    ord: u64,
    gene: Option<String>,
}

/// Which input kind the request gives: exactly one of gene, variant (or region) — IGVF's rule.
fn input_kind(p: &Params) -> Result<bool, ApiError> {
    let gene = p.any(&GENE_KIND);
    let variant = p.any(&VARIANT_KIND);
    let region = p.has(&variants::REGION_10KB);
    let clash = |name: &str, msg: &str| Err(ApiError::param(name, msg.to_string()));
    if gene && variant {
        return clash(
            VARIANT_KIND
                .iter()
                .find(|x| p.has(x))
                .map_or("variant_id", |x| x.name),
            "give gene parameters (gene_id, gene_name) or variant identifiers, not both",
        );
    }
    if gene && region {
        return clash(
            "region",
            "give gene parameters (gene_id, gene_name) or a region, not both",
        );
    }
    if variant && region {
        return clash("region", "give variant identifiers or a region, not both");
    }
    Ok(gene)
}

/// `/qtls`: the edges of every kind the `method` filter allows, filtered by exact context,
/// method and source, in edge key order over the union, paged once.
fn qtls(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let by_gene = input_kind(p)?;
    let method = p.str(&METHOD);
    let mut rows: Vec<Row<'_>> = Vec::new();
    let g = ctx.coll(gn::COLL);
    for kind in Qtl::ALL {
        if method.is_some_and(|m| !kind.methods().contains(&m)) {
            continue;
        }
        let Some(e) = ctx.coll(kind.coll()) else {
            continue;
        };
        let found = if by_gene {
            from_genes(ctx, p, kind, e)
        } else {
            from_variants(ctx, p, kind, e)
        };
        let [m, s, c, _] = kind.common();
        for (ord, gene) in found {
            let method = e.str_of(ord, m);
            if !method
                .as_deref()
                .is_some_and(|x| kind.methods().contains(&x))
                || p.str(&METHOD).is_some_and(|x| method.as_deref() != Some(x))
                || p.str(&SOURCE)
                    .is_some_and(|x| e.str_of(ord, s).as_deref() != Some(x))
                || p.str(&CONTEXT)
                    .is_some_and(|x| e.str_of(ord, c).as_deref() != Some(x))
            {
                continue;
            }
            rows.push(Row {
                kind,
                edges: e,
                ord,
                gene: gene.or_else(|| gene_of(ctx, g, kind, e, ord)),
            });
        }
    }
    rows.sort_by_cached_key(|r| (r.edges.str_of(r.ord, r.kind.common()[3]), r.ord));
    let (out, more) = crate::params::window(rows.iter().filter_map(|r| record(ctx, r)), p);
    Ok(crate::handler::Answer::page(
        serde_json::to_vec(&out).expect("serialises"),
        more,
    ))
}

/// The genes of `gene_id` and `gene_name` (the name cascade), in key order.
fn anchor_genes(ctx: &Ctx<'_>, p: &Params) -> Vec<u64> {
    let g = ctx.coll(gn::COLL);
    let base = || {
        let mut f = Filter::over(g);
        if let Some(id) = p.str(&genes::GENE_ID) {
            f.and(sets::keys(g, id));
        }
        f
    };
    match (p.str(&genes::GENE_NAME), g) {
        (Some(name), Some(c)) => cascade(c, gn::m::name, name, NAME_TIERS, base).collect(),
        _ => base().collect(),
    }
}

/// Edges of `kind` of the anchor genes, with the gene each is reported for when it is not the
/// edge's own (caQTL: the first anchor gene, by key, overlapping the element).
fn from_genes<'a>(
    ctx: &Ctx<'a>,
    p: &Params,
    kind: Qtl,
    e: &'a Collection,
) -> Vec<(u64, Option<String>)> {
    let g = ctx.coll(gn::COLL);
    let anchors = anchor_genes(ctx, p);
    let Some(gc) = g else {
        return Vec::new();
    };
    match kind {
        Qtl::Genes => sets::adjacent_to(Some(e), vg::m::_to, g, anchors)
            .iter()
            .map(|o| (o, None))
            .collect(),
        Qtl::Proteins => sets::adjacent_to(Some(e), vp::m::gene, g, anchors)
            .iter()
            .map(|o| (o, None))
            .collect(),
        Qtl::Elements => {
            let els = ctx.coll(el::COLL);
            let mut gene_of_element: HashMap<String, String> = HashMap::new();
            if let Some((ec, ix)) = els.and_then(|c| Some((c, c.intervals()?))) {
                for &go in &anchors {
                    let (Some(chr), Some(s), Some(end), Some(h)) = (
                        gc.str_of(go, gn::m::chr),
                        member_value(gc, go, gn::m::start).as_u64(),
                        member_value(gc, go, gn::m::end).as_u64(),
                        sets::handle(gc, go),
                    ) else {
                        continue;
                    };
                    let (s, end) = (clamp(s), clamp(end));
                    for eo in ix.overlapping(&chr, s, end) {
                        if let Some(eh) = sets::handle(ec, eo) {
                            gene_of_element.entry(eh).or_insert_with(|| h.clone());
                        }
                    }
                }
            }
            let edges = sets::adjacent(Some(e), vge::m::_to, gene_of_element.keys().cloned());
            edges
                .iter()
                .map(|o| {
                    let gene = e
                        .str_of(o, vge::m::_to)
                        .and_then(|h| gene_of_element.get(&h).cloned());
                    (o, gene)
                })
                .collect()
        }
    }
}

fn clamp(x: u64) -> u32 {
    u32::try_from(x).unwrap_or(u32::MAX)
}

/// Edges of `kind` leaving the variants the identifiers or the region select.
fn from_variants<'a>(
    ctx: &Ctx<'a>,
    p: &Params,
    kind: Qtl,
    e: &'a Collection,
) -> Vec<(u64, Option<String>)> {
    variants::from_matching(ctx, p, Some(e), kind.from(), None)
        .iter()
        .map(|o| (o, None))
        .collect()
}

/// The gene handle an edge is reported for: its `_to` (eQTL), its `gene` member (pQTL), or the
/// first gene by key containing its variant (caQTL, as IGVF).
fn gene_of(
    ctx: &Ctx<'_>,
    g: Option<&Collection>,
    kind: Qtl,
    e: &Collection,
    o: u64,
) -> Option<String> {
    match kind {
        Qtl::Genes => e.str_of(o, vg::m::_to),
        Qtl::Proteins => e.str_of(o, vp::m::gene),
        Qtl::Elements => {
            let (vc, vo) = ctx.cat.resolve(&e.str_of(o, vge::m::_from)?)?;
            let chr = vc.str_of(vo, vr::m::chr)?;
            let pos = clamp(member_value(vc, vo, vr::m::pos).as_u64()?);
            let gc = g?;
            let first = gc
                .intervals()?
                .overlapping(&chr, pos, pos.saturating_add(1))
                .into_iter()
                .min()?;
            sets::handle(gc, first)
        }
    }
}

/// `{name, id}` of the record a handle names: the client requires both strings, so a missing
/// handle or record gives `""` (the id stays the handle's key when only the record is missing).
fn id_name(ctx: &Ctx<'_>, handle: Option<&str>, name: fn(&Collection, u64) -> Value) -> Value {
    let Some(h) = handle else {
        return json!({"name": "", "id": ""});
    };
    let key = h.split_once('/').map_or(h, |(_, k)| k);
    let name = ctx
        .cat
        .resolve(h)
        .map(|(c, o)| name(c, o))
        .filter(Value::is_string)
        .unwrap_or_else(|| json!(""));
    json!({"name": name, "id": key})
}

/// The client's `Qtls` record of a row; None when its variant is missing (a required member).
fn record(ctx: &Ctx<'_>, r: &Row<'_>) -> Option<Value> {
    let (e, o) = (r.edges, r.ord);
    let (vc, vo) = ctx.cat.resolve(&e.str_of(o, r.kind.from())?)?;
    let v = |m| member_value(vc, vo, m);
    let f = |m| member_value(e, o, m);
    let gene = id_name(ctx, r.gene.as_deref(), |c, o| {
        member_value(c, o, gn::m::name)
    });
    let protein_complex = match r.kind {
        // Proteins and complexes both keep `name`.
        Qtl::Proteins => id_name(ctx, e.str_of(o, vp::m::_to).as_deref(), |c, o| {
            if c.name() == cx::NAME {
                member_value(c, o, cx::m::name)
            } else {
                member_value(c, o, pr::m::name)
            }
        }),
        _ => json!({"name": "", "id": ""}),
    };
    let element = match r.kind {
        Qtl::Elements => e
            .str_of(o, vge::m::_to)
            .and_then(|h| ctx.cat.resolve(&h))
            .map_or(Value::Null, |(c, x)| {
                json!({
                    "name": member_value(c, x, el::m::name),
                    "chr": member_value(c, x, el::m::chr),
                    "start": member_value(c, x, el::m::start),
                    "stop": member_value(c, x, el::m::end),
                    "type": member_value(c, x, el::m::r#type),
                })
            }),
        _ => Value::Null,
    };
    let [method, source, context, _] = r.kind.common();
    let (pvalue, effect, files) = match r.kind {
        Qtl::Genes => (
            vg::m::neg_log10_pvalue,
            f(vg::m::effect_size),
            vg::m::files_filesets,
        ),
        Qtl::Proteins => (
            vp::m::neg_log10_pvalue,
            f(vp::m::beta),
            vp::m::files_filesets,
        ),
        Qtl::Elements => (
            vge::m::neg_log10_pvalue,
            f(vge::m::beta),
            vge::m::files_filesets,
        ),
    };
    let only_genes = |m| {
        if r.kind == Qtl::Genes {
            f(m)
        } else {
            Value::Null
        }
    };
    let only_proteins = |m| {
        if r.kind == Qtl::Proteins {
            f(m)
        } else {
            Value::Null
        }
    };
    let study = match r.kind {
        Qtl::Genes => e.str_of(o, vg::m::study).map(|h| {
            let key = h.split_once('/').map_or(h.as_str(), |(_, k)| k).to_string();
            let pmid = ctx
                .cat
                .resolve(&h)
                .map_or(Value::Null, |(c, s)| member_value(c, s, st::m::pmid));
            json!({"id": key, "pmid": pmid})
        }),
        _ => None,
    };
    let text_or_empty = |x: Value| if x.is_string() { x } else { json!("") };
    let mut m = Map::new();
    m.insert(
        "variant".into(),
        json!({
            "chr": text_or_empty(v(vr::m::chr)),
            "pos": v(vr::m::pos),
            "spdi": v(vr::m::spdi),
            "rsid": v(vr::m::rsid),
            "ca_id": v(vr::m::ca_id),
        }),
    );
    m.insert("gene".into(), gene);
    m.insert("protein_complex".into(), protein_complex);
    m.insert("genomic_element".into(), element);
    m.insert("source".into(), text_or_empty(f(source)));
    m.insert("method".into(), text_or_empty(f(method)));
    m.insert(
        "regulatory_type".into(),
        only_proteins(vp::m::regulatory_type),
    );
    m.insert(
        "gene_consequence".into(),
        only_proteins(vp::m::gene_consequence),
    );
    m.insert("biological_context".into(), f(context));
    m.insert("neg_log10_pvalue".into(), f(pvalue));
    m.insert("effect_size".into(), effect);
    m.insert(
        "posterior_inclusion_probability".into(),
        only_genes(vg::m::posterior_inclusion_probability),
    );
    m.insert("intron_chr".into(), only_genes(vg::m::intron_chr));
    m.insert("intron_start".into(), only_genes(vg::m::intron_start));
    m.insert("intron_end".into(), only_genes(vg::m::intron_end));
    m.insert("study".into(), study.unwrap_or(Value::Null));
    m.insert("files_filesets".into(), f(files));
    Some(Value::Object(m))
}

const fn req(name: &'static str, ty: Ty) -> crate::shape::Member {
    doc(name, ty).required()
}

/// `variant` of a QTL.
pub static QTL_VARIANT: Shape = Shape {
    name: "QtlsVariant",
    members: &[
        req("chr", Ty::Str),
        req("pos", Ty::Int),
        doc("spdi", Ty::Str),
        doc("rsid", Ty::StrArr),
        doc("ca_id", Ty::Str),
    ],
};

/// `gene` and `protein_complex` of a QTL.
pub static ID_NAME: Shape = Shape {
    name: "QtlsIdName",
    members: &[req("name", Ty::Str), req("id", Ty::Str)],
};

/// `genomic_element` of a caQTL.
pub static QTL_ELEMENT: Shape = Shape {
    name: "QtlsGenomicElement",
    members: &[
        doc("name", Ty::Str),
        doc("chr", Ty::Str),
        doc("start", Ty::Int),
        doc("stop", Ty::Int),
        doc("type", Ty::Str),
    ],
};

/// `study` of an EBI eQTL.
pub static QTL_STUDY: Shape = Shape {
    name: "QtlsStudy",
    members: &[req("id", Ty::Str), doc("pmid", Ty::Str)],
};

/// The client's `Qtls` (written by the handler; the shape documents it).
pub static QTL: Shape = Shape {
    name: "Qtls",
    members: &[
        req("variant", Ty::Obj(&QTL_VARIANT)),
        req("gene", Ty::Obj(&ID_NAME)),
        req("protein_complex", Ty::Obj(&ID_NAME)),
        doc("genomic_element", Ty::Obj(&QTL_ELEMENT)),
        req("source", Ty::Str),
        req("method", Ty::Str),
        doc("regulatory_type", Ty::Str),
        doc("gene_consequence", Ty::Str),
        doc("biological_context", Ty::Str),
        doc("neg_log10_pvalue", Ty::Num),
        doc("effect_size", Ty::Num),
        doc("posterior_inclusion_probability", Ty::Num),
        doc("intron_chr", Ty::Str),
        doc("intron_start", Ty::Int),
        doc("intron_end", Ty::Int),
        doc("study", Ty::Obj(&QTL_STUDY)),
        doc("files_filesets", Ty::Str),
    ],
};
