//! `/enhancer-gene-predictions` (the IGVF client\'s `enhancer_gene_predictions`): the elements
//! ENCODE-rE2G and scE2G predict to regulate the genes the gene parameters select, one row per
//! gene with its elements. IGVF pages the edges and then groups them (a gene split across
//! pages, short pages); varcat pages the gene groups, genes in key order, each gene's elements
//! in edge key order.

use crate::api::genes_genomic_elements::GENE_REF;
use crate::engine::Set;
use crate::params::Organism;
use crate::prelude::*;
use crate::shape::{field, member, renamed, Render, Shape, Src, Ty};
use varcat_format::schema::{genes as g, genomic_elements as ge, genomic_elements_genes as eg};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/enhancer-gene-predictions",
    section: None,
    summary: "Enhancer–gene predictions (ENCODE-rE2G, scE2G) grouped by gene",
    accepts: Accepts {
        params: &[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM,
            &genes::REGION,
            &METHOD,
            &FILESET,
        ],
        rules: &[Rule::AtLeastOne(&[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM,
            &genes::REGION,
            &METHOD,
            &FILESET,
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(enhancer_gene_predictions),
    body: Body::Array(&PREDICTIONS),
    examples: &[
        "gene_name=TSTA1",
        "method=ENCODE-rE2G",
        "files_fileset=IGVFFI9000SCE",
    ],
};

/// The two prediction methods.
const METHODS: &[&str] = &["ENCODE-rE2G", "scE2G"];
/// Method (both when absent).
pub const METHOD: Param = Param::new("method", Kind::Enum(METHODS), "method (default: both)");

type Stored = varcat_format::schema::Member;

/// Member `m` of the element edge `o` leaves.
fn element_member(r: &Render<'_>, e: &Collection, o: u64, m: Stored, out: &mut Vec<u8>) -> bool {
    let raw = e.str_of(o, eg::m::_from).and_then(|h| {
        let (c, eo) = r.cat.resolve(&h)?;
        c.raw(eo, m).filter(|v| *v != b"null").map(|v| v.to_vec())
    });
    raw.map(|v| out.extend_from_slice(&v)).is_some()
}

fn element_type(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    element_member(r, e, o, ge::m::r#type, out)
}

fn element_chr(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    element_member(r, e, o, ge::m::chr, out)
}

fn element_start(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    element_member(r, e, o, ge::m::start, out)
}

fn element_end(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    element_member(r, e, o, ge::m::end, out)
}

/// The cell annotation of single-cell predictions (scE2G), else the biological context.
fn cell_type(_: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let raw = [eg::m::cell_annotation, eg::m::biological_context]
        .into_iter()
        .find_map(|m| e.raw(o, m).filter(|v| *v != b"null"));
    raw.map(|v| out.extend_from_slice(&v)).is_some()
}

/// One predicted element of a gene (the client's `Elements`).
pub static ELEMENT: Shape = Shape {
    name: "EnhancerGenePredictionElement",
    members: &[
        renamed("id", eg::m::_from, Ty::Str).required(),
        member("cell_type", Src::Fn(cell_type), Ty::Str),
        field(eg::m::score, Ty::Num),
        renamed("model", eg::m::source, Ty::Str),
        renamed("dataset", eg::m::source_url, Ty::Str),
        member("element_type", Src::Fn(element_type), Ty::Str),
        member("element_chr", Src::Fn(element_chr), Ty::Str),
        member("element_start", Src::Fn(element_start), Ty::Int),
        member("element_end", Src::Fn(element_end), Ty::Int),
        renamed("name", eg::m::inverse_name, Ty::Str).required(),
        field(eg::m::method, Ty::Str),
        field(eg::m::class, Ty::Str),
        field(eg::m::files_filesets, Ty::Str),
    ],
};

/// The record (the client's `EnhancerGenePredictions`; documentation, rendered by
/// [`enhancer_gene_predictions`]).
pub static PREDICTIONS: Shape = Shape {
    name: "EnhancerGenePredictions",
    members: &[
        member("gene", Src::Doc, Ty::Obj(&GENE_REF)),
        member("elements", Src::Doc, Ty::Arr(&ELEMENT)),
    ],
};

/// Prediction edges of the selected genes (all genes when no gene parameter is given), by
/// method and file set, grouped by gene. Genes are walked in key order through the edges' `_to`
/// index, so a page costs the genes up to its last group, whatever the number of edges.
fn enhancer_gene_predictions(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(eg::COLL);
    let gc = ctx.coll(g::COLL);
    let (Some(ec), Some(gcoll)) = (e, gc) else {
        return Ok(b"[]".to_vec().into());
    };
    let genes: Box<dyn Iterator<Item = u64>> = if p.any(&genes::PARAMS) {
        let mut ords = genes::resolve(ctx, p, Organism::Human);
        ords.sort_unstable();
        ords.dedup();
        Box::new(ords.into_iter())
    } else {
        Box::new(0..gcoll.len())
    };
    // Each method's facet set on its own: their union would copy every prediction edge.
    let methods: Vec<Set> = match p.str(&METHOD) {
        Some(m) => vec![sets::facet(e, eg::m::method, m)],
        None => METHODS
            .iter()
            .map(|m| sets::facet(e, eg::m::method, m))
            .collect(),
    };
    let files = p
        .str(&FILESET)
        .map(|fs| sets::in_fileset(e, eg::m::files_filesets, fs));
    let keep = |o: u64| {
        methods.iter().any(|m| m.contains(o)) && files.as_ref().is_none_or(|f| f.contains(o))
    };
    let groups = genes.filter_map(|go| {
        let h = sets::handle(gcoll, go)?;
        let edges: Vec<u64> = sets::adjacent(e, eg::m::_to, [h])
            .iter()
            .filter(|&o| keep(o))
            .collect();
        (!edges.is_empty()).then_some((go, edges))
    });
    let render = ctx.render(p);
    let (page, more) = crate::params::window(groups, p);
    let mut out = vec![b'['];
    for (i, (go, edges)) in page.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"gene\":");
        render.object(&mut out, gcoll, go, &GENE_REF);
        out.extend_from_slice(b",\"elements\":");
        out.extend_from_slice(&render.array(Some(ec), &edges, &ELEMENT));
        out.push(b'}');
    }
    out.push(b']');
    Ok(crate::handler::Answer::page(out, more))
}
