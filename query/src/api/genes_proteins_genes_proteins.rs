//! `/genes-proteins/genes-proteins` (the IGVF client\'s `genes_proteins_genes_proteins`): the
//! interaction partners of the genes and proteins a name or id designates — one record per
//! protein (its protein–protein partners) and per gene (its gene–gene partners), `related`
//! paged.

use std::collections::BTreeSet;

use crate::api::genes_proteins_variants::{
    handle_json, query_genes, query_proteins, PROTEIN_COMPACT, QUERY,
};
use crate::engine::Set;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, Shape, Src, Ty};
use varcat_format::schema::{
    self, genes_genes as gg, genes_proteins as gp, proteins_proteins as pp,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes-proteins/genes-proteins",
    section: None,
    summary:
        "Interaction partners of the genes and proteins a name or id designates (related paged)",
    accepts: Accepts {
        params: &[&QUERY],
        rules: &[Rule::Required(&QUERY)],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(genes_proteins_genes_proteins),
    body: Body::Array(&GENES_PROTEINS_RELATED),
    examples: &["query=TSTA1", "query=ENSP90000000002"],
};

/// The record (documentation; rendered by [`genes_proteins_genes_proteins`]): exactly one of
/// `protein` and `gene` is an object, `related` holds partners of its kind.
pub static GENES_PROTEINS_RELATED: Shape = Shape {
    name: "GenesProteinsGenesProteins",
    members: &[
        member("protein", Src::Const("null"), Ty::Obj(&PROTEIN_COMPACT)),
        member("gene", Src::Const("null"), Ty::Obj(&GENE_COMPACT)),
        member("related", Src::Const("[]"), Ty::Any),
    ],
};

/// The gene in the client's `GeneCompact` member order (4.17's part 2.18 order differs: `hgnc`
/// after `organism`).
pub static GENE_COMPACT: Shape = Shape {
    name: "GeneCompactRelated",
    members: &[
        member("_id", Src::Fn(handle_json), Ty::Str),
        field(schema::genes::m::chr, Ty::Str).required(),
        field(schema::genes::m::gene_id, Ty::Str).required(),
        field(schema::genes::m::hgnc, Ty::Str),
        field(schema::genes::m::name, Ty::Str).required(),
        field(schema::genes::m::organism, Ty::Str).required(),
        // IGVF has it; the catalog keeps none for this collection.
        member("files_filesets", Src::Const("null"), Ty::Str),
    ],
};

/// The handles of the records `ords` of `coll`.
fn handles_of(coll: Option<&Collection>, ords: &Set<'_>) -> BTreeSet<String> {
    coll.map(|c| ords.iter().filter_map(|o| sets::handle(c, o)).collect())
        .unwrap_or_default()
}

/// The `want` ends of the `pairs` rows whose `from` end is one of `handles` (a gene's proteins
/// or a protein's genes through the derived gene–protein table).
fn across(
    ctx: &Ctx<'_>,
    handles: &BTreeSet<String>,
    from: schema::Member,
    want: schema::Member,
) -> BTreeSet<String> {
    let pairs = ctx.coll(gp::COLL);
    let Some(pc) = pairs else {
        return BTreeSet::new();
    };
    sets::adjacent(pairs, from, handles.iter().cloned())
        .iter()
        .filter_map(|o| pc.str_of(o, want))
        .collect()
}

/// The partners of node `h` through the undirected interaction edges `edges` (the other end
/// of every edge touching `h`; `h` itself for a self-interaction) that are in the catalog, in
/// record order, once each.
fn partners<'a>(
    ctx: &Ctx<'a>,
    edges: schema::Coll,
    (from_m, to_m): (schema::Member, schema::Member),
    h: &str,
) -> Vec<(&'a Collection, u64)> {
    let e = ctx.coll(edges);
    let Some(ec) = e else { return Vec::new() };
    let mut found = Vec::new();
    for (end, other) in [(from_m, to_m), (to_m, from_m)] {
        for o in sets::adjacent(e, end, [h.to_string()]).iter() {
            if let Some(r) = ec.str_of(o, other).and_then(|t| ctx.cat.resolve(&t)) {
                found.push(r);
            }
        }
    }
    found.sort_by(|a, b| (a.0.name(), a.1).cmp(&(b.0.name(), b.1)));
    found.dedup_by(|a, b| (a.0.name(), a.1) == (b.0.name(), b.1));
    found
}

/// One record per protein (those `query` names and those of the genes it names), then one per
/// gene (those it names and those of the proteins it names), each in record order with its
/// page of partners; a record whose page of partners is empty is left out (as IGVF).
fn genes_proteins_genes_proteins(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let q = p.str(&QUERY).unwrap_or_default();
    let (g, pr) = (
        ctx.coll(schema::genes::COLL),
        ctx.coll(schema::proteins::COLL),
    );
    let genes = handles_of(g, &query_genes(ctx, q));
    let proteins = handles_of(pr, &query_proteins(ctx, q));
    let mut all_proteins = across(ctx, &genes, gp::m::gene, gp::m::protein);
    all_proteins.extend(proteins.iter().cloned());
    let mut all_genes = across(ctx, &proteins, gp::m::protein, gp::m::gene);
    all_genes.extend(genes);
    let render = ctx.render_plain();
    let (offset, limit) = (
        p.offset().min(usize::MAX as u64) as usize,
        p.limit.min(usize::MAX as u64) as usize,
    );
    let mut out = vec![b'['];
    // Paging is per node (its related list): another page exists when any list goes on.
    let mut more = false;
    for (nodes, edges, ends, shape, is_protein) in [
        (
            all_proteins,
            pp::COLL,
            (pp::m::_from, pp::m::_to),
            &PROTEIN_COMPACT,
            true,
        ),
        (
            all_genes,
            gg::COLL,
            (gg::m::_from, gg::m::_to),
            &GENE_COMPACT,
            false,
        ),
    ] {
        // Record order: nodes of one collection by ordinal (the collection's key order).
        let mut resolved: Vec<(&Collection, u64, &String)> = nodes
            .iter()
            .filter_map(|h| ctx.cat.resolve(h).map(|(c, o)| (c, o, h)))
            .collect();
        resolved.sort_by_key(|&(_, o, _)| o);
        for (c, o, h) in resolved {
            let mut related: Vec<_> = partners(ctx, edges, ends, h)
                .into_iter()
                .skip(offset)
                .take(limit.saturating_add(1))
                .collect();
            more |= related.len() > limit;
            related.truncate(limit);
            if related.is_empty() {
                continue;
            }
            if out.len() > 1 {
                out.push(b',');
            }
            let mut node = Vec::new();
            render.object(&mut node, c, o, shape);
            let (protein, gene): (&[u8], &[u8]) = if is_protein {
                (&node, b"null")
            } else {
                (b"null", &node)
            };
            out.extend_from_slice(b"{\"protein\":");
            out.extend_from_slice(protein);
            out.extend_from_slice(b",\"gene\":");
            out.extend_from_slice(gene);
            out.extend_from_slice(b",\"related\":[");
            for (i, (rc, ro)) in related.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                render.object(&mut out, rc, ro, shape);
            }
            out.extend_from_slice(b"]}");
        }
    }
    out.push(b']');
    Ok(crate::handler::Answer::page(out, more))
}
