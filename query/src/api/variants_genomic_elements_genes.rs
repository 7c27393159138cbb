//! `/variants/genomic-elements/genes` (the IGVF client\'s `variants_genomic_elements_genes`):
//! genes whose expression changes when a Perturb-seq screen perturbs an element containing the
//! variant. With `nearby_genes` (the default) only genes on the variant's chromosome whose TSS
//! lies within 2 Mb of the element count, with that distance. Rows come by adjusted p-value,
//! strongest first (IGVF's documented order), ties by edge key.

use std::cmp::Ordering;

use crate::api::genes_variants::BIOSAMPLE_TERM;
use crate::api::variants_predictions_count::containing;
use crate::prelude::*;
use crate::shape::{doc, field, member, Member, Shape, Src, Ty};
use crate::vocab::variants::{self, required_variants, SHORT_VARIANT};
use varcat_format::schema::{genes as g, genomic_elements as ge, genomic_elements_genes as eg};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/genomic-elements/genes",
    section: None,
    summary: "Genes whose expression changes when an element containing a variant is perturbed",
    accepts: Accepts {
        params: &[
            &variants::VARIANT_ID,
            &variants::SPDI,
            &variants::HGVS,
            &variants::RSID,
            &variants::CA_ID,
            &FILESET,
            &BIOSAMPLE_TERM,
            &CONTEXT,
            &NEARBY_GENES,
        ],
        rules: &[variants::ID_RULE],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(variants_genomic_elements_genes),
    body: Body::Array(&RECORD),
    examples: &[
        "spdi=NC_000001.11:15000:A:G",
        "variant_id=NC_000001.11:15000:A:T&nearby_genes=false",
        "spdi=NC_000001.11:15000:A:G&files_fileset=IGVFFI9000PSQ&biological_context=K562",
    ],
};

/// Biological context, exact (as IGVF compares it here).
pub const CONTEXT: Param = Param::new("biological_context", Kind::Id, "biological context (exact)");
/// Nearby genes only.
pub const NEARBY_GENES: Param = Param::new(
    "nearby_genes",
    Kind::Bool,
    "only genes on the variant's chromosome whose TSS is within 2 Mb of the element (default true)",
);

/// How far a nearby gene's TSS may lie from the element.
const NEARBY_BP: i64 = 2_000_000;

/// The element (the client's `GenomicElement2`).
pub static ELEMENT: Shape = Shape {
    name: "GenomicElement2",
    members: &[
        member("_id", Src::Key, Ty::Str).required(),
        field(ge::m::name, Ty::Str).required(),
        field(ge::m::chr, Ty::Str).required(),
        field(ge::m::start, Ty::Int).required(),
        field(ge::m::end, Ty::Int).required(),
        field(ge::m::r#type, Ty::Str),
        field(ge::m::source, Ty::Str),
        field(ge::m::source_url, Ty::Str),
        field(ge::m::source_annotation, Ty::Str),
    ],
};

/// The gene (the client's `Gene6`).
pub static GENE: Shape = Shape {
    name: "Gene6",
    members: &[
        member("_id", Src::Key, Ty::Str).required(),
        field(g::m::name, Ty::Str).required(),
        field(g::m::chr, Ty::Str).required(),
        field(g::m::start, Ty::Int).required(),
        field(g::m::end, Ty::Int).required(),
        field(g::m::strand, Ty::Str),
    ],
};

/// The edge's own members, after the four the handler writes.
const EDGE: [Member; 17] = [
    field(eg::m::name, Ty::Str).required(),
    field(eg::m::label, Ty::Str).required(),
    field(eg::m::method, Ty::Str).required(),
    field(eg::m::class, Ty::Str).required(),
    field(eg::m::source, Ty::Str).required(),
    field(eg::m::source_url, Ty::Str).required(),
    field(eg::m::files_filesets, Ty::Str).required(),
    field(eg::m::biological_context, Ty::Str).required(),
    field(eg::m::biosample_term, Ty::Str).required(),
    field(eg::m::crispr_modality, Ty::Str),
    field(eg::m::log2FC, Ty::Num),
    field(eg::m::neg_log10_pvalue, Ty::Num),
    field(eg::m::neg_log10_pvalue_adj, Ty::Num),
    field(eg::m::p_value, Ty::Num),
    field(eg::m::p_value_adj, Ty::Num),
    field(eg::m::effect_size, Ty::Num),
    field(eg::m::significant, Ty::Bool),
];

/// The edge part of a row, rendered from the edge.
static EDGE_PART: Shape = Shape {
    name: "VariantsGenomicElementsGenesEdge",
    members: &EDGE,
};

/// The four written members, then the edge's.
const fn record(edge: [Member; 17]) -> [Member; 21] {
    let mut out = [doc("variant", Ty::Obj(&SHORT_VARIANT)); 21];
    out[1] = doc("distance_to_tss", Ty::Int);
    out[2] = doc("genomic_element", Ty::Obj(&ELEMENT));
    out[3] = doc("gene", Ty::Obj(&GENE));
    let mut i = 0;
    while i < 17 {
        out[4 + i] = edge[i];
        i += 1;
    }
    out
}

/// The record (the client's `VariantsGenomicElementsGenes`).
pub static RECORD: Shape = Shape {
    name: "VariantsGenomicElementsGenes",
    members: &record(EDGE),
};

/// One row: variant, element, edge, gene (collection and ordinal), distance to the TSS.
type Row<'a> = (u64, u64, u64, (&'a Collection, u64), Option<i64>);

/// The distance from element [start, end) to the gene's TSS (its end on the minus strand).
fn tss_distance(els: &Collection, eo: u64, gc: &Collection, go: u64) -> Option<i64> {
    let num = |c: &Collection, o: u64, m| member_value(c, o, m).as_f64().map(|x| x as i64);
    let tss = if gc.str_of(go, g::m::strand).as_deref() == Some("-") {
        num(gc, go, g::m::end)?
    } else {
        num(gc, go, g::m::start)?
    };
    let (s, e) = (num(els, eo, ge::m::start)?, num(els, eo, ge::m::end)?);
    Some((s - tss).abs().min((e - tss).abs()))
}

fn variants_genomic_elements_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let (v, ords) = required_variants(ctx, p)?;
    let els = ctx.coll(ge::COLL);
    let e = ctx.coll(eg::COLL);
    let nearby = p.bool(&NEARBY_GENES).unwrap_or(true);
    let mut rows: Vec<Row> = Vec::new();
    let (Some(vc), Some(elc), Some(ec)) = (v, els, e) else {
        return Ok(b"[]".to_vec().into());
    };
    for (vo, eo) in containing(els, v, &ords) {
        if elc.str_of(eo, ge::m::method).as_deref() != Some("Perturb-seq") {
            continue;
        }
        let Some(h) = sets::handle(elc, eo) else {
            continue;
        };
        let mut f = Filter::over(e);
        f.and(sets::exact(e, eg::m::_from, &h));
        f.and(sets::facet(e, eg::m::method, "Perturb-seq"));
        if let Some(fs) = p.str(&FILESET) {
            f.and(sets::in_fileset(e, eg::m::files_filesets, fs));
        }
        if let Some(t) = p.str(&BIOSAMPLE_TERM) {
            f.and(sets::handle_is(
                e,
                eg::m::biosample_term,
                varcat_format::schema::ontology_terms::COLL,
                t,
            ));
        }
        if let Some(c) = p.str(&CONTEXT) {
            f.and(sets::exact(e, eg::m::biological_context, c));
        }
        let chr = vc.str_of(vo, varcat_format::schema::variants::m::chr);
        for o in f.lazy() {
            let Some((gc, go)) = ec.str_of(o, eg::m::_to).and_then(|t| ctx.cat.resolve(&t)) else {
                continue;
            };
            let distance = if nearby {
                if gc.str_of(go, g::m::chr) != chr {
                    continue;
                }
                match tss_distance(elc, eo, gc, go) {
                    Some(d) if d <= NEARBY_BP => Some(d),
                    _ => continue,
                }
            } else {
                None
            };
            rows.push((vo, eo, o, (gc, go), distance));
        }
    }
    let padj = |o: u64| member_value(ec, o, eg::m::neg_log10_pvalue_adj).as_f64();
    rows.sort_by(|a, b| {
        let by_p = match (padj(a.2), padj(b.2)) {
            (Some(x), Some(y)) => y.partial_cmp(&x).unwrap_or(Ordering::Equal),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        by_p.then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0))
    });
    let render = ctx.render(p);
    let (page, more) = crate::params::window(rows, p);
    let mut out = vec![b'['];
    for (i, (vo, eo, o, (gc, go), distance)) in page.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"variant\":");
        render.object(&mut out, vc, vo, &SHORT_VARIANT);
        out.extend_from_slice(b",\"distance_to_tss\":");
        match distance {
            Some(d) => out.extend_from_slice(d.to_string().as_bytes()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"genomic_element\":");
        render.object(&mut out, elc, eo, &ELEMENT);
        out.extend_from_slice(b",\"gene\":");
        render.object(&mut out, gc, go, &GENE);
        let mut edge = Vec::new();
        render.object(&mut edge, ec, o, &EDGE_PART);
        // The edge object without its opening brace continues this one.
        out.push(b',');
        out.extend_from_slice(&edge[1..]);
    }
    out.push(b']');
    Ok(crate::handler::Answer::page(out, more))
}
