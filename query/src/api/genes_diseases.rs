//! `/genes/diseases` (the IGVF client\'s `diseases_from_genes`): the diseases associated with the
//! genes the gene parameters select — GenCC and Orphanet rows (`diseases_genes`, 4.6's records
//! read from the gene end), then one ClinGen row per (disease, gene) pair of the genes'
//! variant–disease–gene edges, as IGVF lists its union.

use crate::api::diseases_genes;
use std::collections::HashSet;

use crate::engine::{Filter, Read};
use crate::handler::{Ctx, Reply};
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, renamed, write_str, Render, Shape, Src, Ty};
use crate::vocab::shapes::{id_or, GENE, ONTOLOGY_TERM};
use crate::vocab::variants::SHORT_VARIANT;
use varcat_format::schema::{
    diseases_genes as dg, genes as gn, ontology_terms as ot, variants_diseases as vd,
    variants_diseases_genes as vdg,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes/diseases",
    section: None,
    summary: "Diseases associated with genes (GenCC, Orphanet, ClinGen)",
    accepts: Accepts {
        params: &[
            &genes::GENE_ID,
            &genes::HGNC_ID,
            &genes::GENE_NAME,
            &genes::SYNONYM,
            &genes::REGION,
            &SOURCE,
        ],
        // A region selects the genes overlapping it, as beside the gene parameters everywhere.
        rules: &[genes::RULE],
        // The client documents 25; IGVF's router serves 100 (brief key finding 4: the larger).
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: Run::Handler(diseases_from_genes),
    body: Body::ArrayOf(&[&DISEASES_FROM_GENES, &DISEASES_FROM_GENES_CLINGEN]),
    examples: &[
        "gene_name=TSTA1",
        "gene_id=ENSG90000000001&verbose=true",
        "gene_name=TSTA1&source=ClinGen&verbose=true",
    ],
};

/// Data source: the two of `diseases_genes`, or ClinGen's variant–disease–gene edges.
pub const SOURCE: Param = Param::new(
    "source",
    Kind::Enum(&["GenCC", "Orphanet", "ClinGen"]),
    "data source",
);

/// A GenCC or Orphanet row, in the client's `DiseasesFromGenes` order, then IGVF's names for
/// the same members (`gene_symbol`, `Orphanet_association_type`, `ClinGen_inheritance_mode`).
pub static DISEASES_FROM_GENES: Shape = Shape {
    name: "DiseasesFromGenes",
    members: &[
        field(dg::m::pmids, Ty::StrArr),
        field(dg::m::term_name, Ty::Str),
        renamed("gene_name", dg::m::gene_symbol, Ty::Str),
        field(dg::m::association_type, Ty::Str),
        field(dg::m::association_status, Ty::Str),
        field(dg::m::sgc_id, Ty::Str),
        field(dg::m::hgnc, Ty::Str),
        field(dg::m::classification, Ty::Str),
        field(dg::m::moi_id, Ty::Str),
        field(dg::m::moi_name, Ty::Str),
        field(dg::m::submitter, Ty::Str),
        field(dg::m::class, Ty::Str),
        field(dg::m::method, Ty::Str),
        field(dg::m::label, Ty::Str),
        field(dg::m::files_filesets, Ty::Str),
        field(dg::m::source, Ty::Str),
        field(dg::m::source_url, Ty::Str),
        id_or("gene", dg::m::_to, &GENE),
        id_or("disease", dg::m::_from, &ONTOLOGY_TERM),
        field(dg::m::inheritance_mode, Ty::Str),
        field(dg::m::variants, Ty::Arr(&diseases_genes::VARIANT_MINIMAL)),
        // Read from the gene end: the edge's inverse name (as IGVF).
        renamed("name", dg::m::inverse_name, Ty::Str).required(),
        field(dg::m::gene_symbol, Ty::Str),
        renamed(
            "Orphanet_association_type",
            dg::m::association_type,
            Ty::Str,
        ),
        renamed("ClinGen_inheritance_mode", dg::m::inheritance_mode, Ty::Str),
    ],
};

/// A ClinGen row: one (disease, gene) pair of `variants_diseases_genes`, rendered from its first
/// edge (by key); the members GenCC and Orphanet alone have are null.
pub static DISEASES_FROM_GENES_CLINGEN: Shape = Shape {
    name: "DiseasesFromGenesClinGen",
    members: &[
        member("pmids", Src::Fn(clingen_pmids), Ty::StrArr),
        member("term_name", Src::Fn(clingen_term_name), Ty::Str),
        member("gene_name", Src::Fn(clingen_gene_name), Ty::Str),
        member("association_type", Src::Const("null"), Ty::Str),
        member("association_status", Src::Const("null"), Ty::Str),
        member("sgc_id", Src::Const("null"), Ty::Str),
        member("hgnc", Src::Const("null"), Ty::Str),
        member("classification", Src::Const("null"), Ty::Str),
        member("moi_id", Src::Const("null"), Ty::Str),
        member("moi_name", Src::Const("null"), Ty::Str),
        member("submitter", Src::Const("null"), Ty::Str),
        field(vdg::m::class, Ty::Str),
        field(vdg::m::method, Ty::Str),
        field(vdg::m::label, Ty::Str),
        field(vdg::m::files_filesets, Ty::Str),
        field(vdg::m::source, Ty::Str),
        field(vdg::m::source_url, Ty::Str),
        id_or("gene", vdg::m::_to, &GENE),
        member(
            "disease",
            Src::Fn(clingen_disease),
            Ty::IdOr(&ONTOLOGY_TERM),
        ),
        field(vdg::m::inheritance_mode, Ty::Str),
        member(
            "variants",
            Src::Fn(clingen_variants),
            Ty::Arr(&SHORT_VARIANT),
        ),
        renamed("name", vdg::m::inverse_name, Ty::Str).required(),
        member("gene_symbol", Src::Fn(clingen_gene_name), Ty::Str),
        member("Orphanet_association_type", Src::Const("null"), Ty::Str),
        renamed(
            "ClinGen_inheritance_mode",
            vdg::m::inheritance_mode,
            Ty::Str,
        ),
    ],
};

/// The disease handle of a ClinGen edge: the `_to` of the variant–disease edge it starts from.
fn disease_of(
    cat: &varcat_format::collection::Collections,
    e: &Collection,
    o: u64,
) -> Option<String> {
    let (c, a) = cat.resolve(&e.str_of(o, vdg::m::_from)?)?;
    c.str_of(a, vd::m::_to)
}

/// The variant–disease edges (collection, ordinals in key order) of the (disease, gene) pair of
/// ClinGen edge `o`, with the disease handle.
fn group<'a>(r: &Render<'a>, e: &Collection, o: u64) -> Option<(String, &'a Collection, Vec<u64>)> {
    let disease = disease_of(r.cat, e, o)?;
    let gene = e.str_of(o, vdg::m::_to)?;
    let ctx = Ctx { cat: r.cat };
    let (edges, assertions) = (ctx.coll(vdg::COLL)?, ctx.coll(vd::COLL)?);
    let mut ords = Vec::new();
    for x in sets::adjacent(Some(edges), vdg::m::_to, [gene]).iter() {
        if let Some((c, a)) = edges
            .str_of(x, vdg::m::_from)
            .and_then(|h| r.cat.resolve(&h))
        {
            if c.str_of(a, vd::m::_to).as_deref() == Some(disease.as_str()) && !ords.contains(&a) {
                ords.push(a);
            }
        }
    }
    ords.sort_unstable();
    Some((disease, assertions, ords))
}

/// The PubMed ids of the pair's variant–disease assertions, each once, in assertion key order.
fn clingen_pmids(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let Some((_, c, ords)) = group(r, e, o) else {
        return false;
    };
    let mut ids: Vec<String> = Vec::new();
    for a in ords {
        if let serde_json::Value::Array(l) = member_value(c, a, vd::m::pmids) {
            for id in l.into_iter().filter_map(|v| v.as_str().map(str::to_string)) {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
    }
    out.extend_from_slice(&serde_json::to_vec(&ids).expect("serialises"));
    true
}

/// The disease term's name (null when the term is not loaded).
fn clingen_term_name(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let name = disease_of(r.cat, e, o)
        .and_then(|h| r.cat.resolve(&h))
        .and_then(|(c, t)| c.str_of(t, ot::m::name));
    name.map(|n| write_str(out, &n)).is_some()
}

/// The gene's symbol (null when the gene is not loaded).
fn clingen_gene_name(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let name = e
        .str_of(o, vdg::m::_to)
        .and_then(|h| r.cat.resolve(&h))
        .and_then(|(c, g)| c.str_of(g, gn::m::name));
    name.map(|n| write_str(out, &n)).is_some()
}

/// The disease handle, or with `verbose` the term (the handle stays when it is not loaded).
fn clingen_disease(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let Some(h) = disease_of(r.cat, e, o) else {
        return false;
    };
    match r.expansion(&h) {
        Some((c, t)) => r.object(out, c, t, &ONTOLOGY_TERM),
        None => write_str(out, &h),
    }
    true
}

/// With `verbose`, the pair's variants (of its assertions, in assertion key order; unloaded
/// ones left out); null otherwise, as the client documents.
fn clingen_variants(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    if !r.verbose {
        return false;
    }
    let Some((_, c, ords)) = group(r, e, o) else {
        return false;
    };
    out.push(b'[');
    let mut first = true;
    for a in ords {
        if let Some((vc, v)) = c.str_of(a, vd::m::_from).and_then(|h| r.cat.resolve(&h)) {
            if !first {
                out.push(b',');
            }
            first = false;
            r.object(out, vc, v, &SHORT_VARIANT);
        }
    }
    out.push(b']');
    true
}

/// GenCC/Orphanet edges of the genes in key order (unless `source=ClinGen`), then the first
/// ClinGen edge of each (disease, gene) pair in key order (unless `source` names another
/// source): IGVF applies `source` to the first part only and always adds ClinGen rows.
fn diseases_from_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let g = genes::collection(ctx, p.organism);
    let anchors = genes::resolve(ctx, p, p.organism);
    let source = p.str(&SOURCE);
    let mut rows: Vec<(&Collection, u64)> = Vec::new();
    if let (Some(e), false) = (ctx.coll(dg::COLL), source == Some("ClinGen")) {
        let mut f = Filter::over(Some(e));
        f.and(sets::adjacent_to(
            Some(e),
            dg::m::_to,
            g,
            anchors.iter().copied(),
        ));
        if let Some(s) = source {
            f.and(sets::facet(Some(e), dg::m::source, s));
        }
        rows.extend(f.collect().into_iter().map(|o| (e, o)));
    }
    if let (Some(e), None | Some("ClinGen")) = (ctx.coll(vdg::COLL), source) {
        let mut seen = HashSet::new();
        for o in sets::adjacent_to(Some(e), vdg::m::_to, g, anchors.iter().copied()).iter() {
            if seen.insert((disease_of(ctx.cat, e, o), e.str_of(o, vdg::m::_to))) {
                rows.push((e, o));
            }
        }
    }
    let (page, more) = crate::params::window(rows, p);
    let clingen = vdg::COLL.name();
    let body = ctx.render(p).items(page, |c, _| {
        if c.name() == clingen {
            &DISEASES_FROM_GENES_CLINGEN
        } else {
            &DISEASES_FROM_GENES
        }
    });
    Ok(crate::handler::Answer::page(body, more))
}
