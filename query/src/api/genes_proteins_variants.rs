//! 4.17 `/genes-proteins/variants`: variants associated with the genes and proteins a name or id
//! designates, grouped by variant.

use crate::engine::Read;
use crate::engine::Set;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, Render, Shape, Src, Ty};
use serde_json::{json, Map, Value};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use varcat_format::collection::Collection;
use varcat_format::schema::{self, variants_genes as vg, variants_proteins as vp};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes-proteins/variants",
    section: Some("4.17"),
    summary: "Variants associated with the genes and proteins a name or id designates",
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
    run: Run::Handler(genes_proteins_variants),
    body: Body::Array(&GENES_PROTEINS_VARIANT),
    examples: &["query=TSTA1", "query=ENSP90000000001"],
};

/// The gene or protein name or id.
pub const QUERY: Param = Param::new("query", Kind::Text, "gene or protein name or id (exact)");

/// The full handle of a record as a JSON string (`_id` of 4.17's compact objects).
pub fn handle_json(_: &Render<'_>, c: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    match sets::handle(c, o) {
        Some(h) => {
            crate::shape::write_str(out, &h);
            true
        }
        None => false,
    }
}

/// 4.17 gene.
pub static GENE_COMPACT: Shape = Shape {
    name: "GeneCompact",
    members: &[
        member("_id", Src::Fn(handle_json), Ty::Str),
        field(schema::genes::m::chr, Ty::Str).required(),
        field(schema::genes::m::gene_id, Ty::Str).required(),
        field(schema::genes::m::name, Ty::Str).required(),
        field(schema::genes::m::organism, Ty::Str).required(),
        field(schema::genes::m::hgnc, Ty::Str),
        // IGVF has it; the catalog keeps none for this collection.
        member("files_filesets", Src::Const("null"), Ty::Str),
    ],
};

/// 4.17 protein.
pub static PROTEIN_COMPACT: Shape = Shape {
    name: "ProteinCompact",
    members: &[
        member("_id", Src::Fn(handle_json), Ty::Str),
        field(schema::proteins::m::name, Ty::Str).required(),
        field(schema::proteins::m::uniprot_names, Ty::StrArr).required(),
        // IGVF has it; the catalog keeps none for this collection.
        member("files_filesets", Src::Const("null"), Ty::Str),
    ],
};

/// 4.17 sequence variant.
pub static VARIANT_9: Shape = Shape {
    name: "GeneProteinVariant",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::variants::m::chr, Ty::Str).required(),
        field(schema::variants::m::pos, Ty::Int),
        field(schema::variants::m::rsid, Ty::StrArr),
        field(schema::variants::m::r#ref, Ty::Str).required(),
        field(schema::variants::m::alt, Ty::Str).required(),
        field(schema::variants::m::spdi, Ty::Str).required(),
        field(schema::variants::m::hgvs, Ty::Str).required(),
        field(schema::variants::m::ca_id, Ty::Str),
    ],
};

/// 4.17 record (documentation; rendered by [`genes_proteins_variants`]).
pub static GENES_PROTEINS_VARIANT: Shape = Shape {
    name: "GenesProteinsVariant",
    members: &[
        member("sequence_variant", Src::Const("null"), Ty::Obj(&VARIANT_9)),
        member("related", Src::Const("[]"), Ty::Any),
    ],
};

/// Sorts JSON objects by the string members `keys`, nulls last.
fn sort_by_members(items: &mut [Value], keys: &[&str]) {
    items.sort_by(|a, b| {
        for k in keys {
            let ord = match (a[*k].as_str(), b[*k].as_str()) {
                (Some(x), Some(y)) => x.cmp(y),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            };
            if ord != Ordering::Equal {
                return ord;
            }
        }
        Ordering::Equal
    });
}

/// A 4.17 source of a variant–gene edge.
fn gene_source(ec: &Collection, o: u64) -> Option<Value> {
    let mut m = Map::new();
    m.insert(
        "label".into(),
        json!(ec.str_of(o, vg::m::label).unwrap_or_default()),
    );
    m.insert(
        "source".into(),
        json!(ec.str_of(o, vg::m::source).unwrap_or_default()),
    );
    m.insert(
        "neg_log10_pvalue".into(),
        member_value(ec, o, vg::m::neg_log10_pvalue),
    );
    m.insert(
        "biological_context".into(),
        json!(ec.str_of(o, vg::m::biological_context).unwrap_or_default()),
    );
    m.insert(
        "name".into(),
        json!(ec.str_of(o, vg::m::inverse_name).unwrap_or_default()),
    );
    m.insert(
        "files_filesets".into(),
        member_value(ec, o, vg::m::files_filesets),
    );
    Some(Value::Object(m))
}

/// A 4.17 source of a variant–protein edge.
fn protein_source(ec: &Collection, o: u64) -> Option<Value> {
    let mut m = Map::new();
    m.insert("motif".into(), member_value(ec, o, vp::m::motif));
    m.insert(
        "source".into(),
        json!(ec.str_of(o, vp::m::source).unwrap_or_default()),
    );
    m.insert(
        "name".into(),
        json!(ec.str_of(o, vp::m::inverse_name).unwrap_or_default()),
    );
    m.insert(
        "files_filesets".into(),
        member_value(ec, o, vp::m::files_filesets),
    );
    m.insert("label".into(), member_value(ec, o, vp::m::label));
    m.insert(
        "biological_context".into(),
        member_value(ec, o, vp::m::biological_context),
    );
    m.insert(
        "neg_log10_pvalue".into(),
        member_value(ec, o, vp::m::neg_log10_pvalue),
    );
    Some(Value::Object(m))
}

/// The genes `query` names exactly (4.17): by key, versioned id, symbol, name, HGNC id or
/// synonym.
pub fn query_genes<'a>(ctx: &Ctx<'a>, q: &str) -> Set<'a> {
    let g = ctx.coll(schema::genes::COLL);
    Set::union([
        sets::keys(g, q),
        sets::exact(g, schema::genes::m::name, q),
        sets::exact(g, schema::genes::m::gene_id, q),
        sets::exact(g, schema::genes::m::hgnc, &crate::parse::ident::hgnc(q)),
        sets::exact(g, schema::genes::m::symbol, q),
        sets::exact(g, schema::genes::m::synonyms, q),
    ])
}

/// The proteins `query` names exactly (4.17): by key, versioned id, name or UniProt id, entry
/// name or full name.
pub fn query_proteins<'a>(ctx: &Ctx<'a>, q: &str) -> Set<'a> {
    let pr = ctx.coll(schema::proteins::COLL);
    Set::union([
        sets::keys(pr, q),
        sets::exact(pr, schema::proteins::m::protein_id, q),
        sets::exact(pr, schema::proteins::m::name, q),
        sets::exact(pr, schema::proteins::m::uniprot_ids, q),
        sets::exact(pr, schema::proteins::m::uniprot_names, q),
        sets::exact(pr, schema::proteins::m::uniprot_full_names, q),
    ])
}

/// 4.17: variants associated with the genes and proteins `query` names (exactly: a gene by key,
/// versioned id, symbol, name, HGNC id or synonym; a protein by key, versioned id, name or
/// UniProt id, entry name or full name), grouped by variant in key order; a variant missing from
/// the catalog has no row.
pub fn genes_proteins_variants(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let q = p.str(&QUERY).unwrap_or_default();
    let (g, pr) = (
        ctx.coll(schema::genes::COLL),
        ctx.coll(schema::proteins::COLL),
    );
    let (genes, proteins) = (query_genes(ctx, q), query_proteins(ctx, q));
    // (variant handle) -> (target handle, is_gene) -> edge ordinals
    let mut groups: BTreeMap<String, BTreeMap<(bool, String), Vec<u64>>> = BTreeMap::new();
    for (edges, (from_m, to_m), targets, coll, is_gene) in [
        (vg::COLL, (vg::m::_from, vg::m::_to), &genes, g, true),
        (vp::COLL, (vp::m::_from, vp::m::_to), &proteins, pr, false),
    ] {
        let e = ctx.coll(edges);
        let Some(ec) = e else { continue };
        for o in sets::adjacent_to(e, to_m, coll, targets.iter()).iter() {
            let (Some(from), Some(to)) = (ec.str_of(o, from_m), ec.str_of(o, to_m)) else {
                continue;
            };
            groups
                .entry(from)
                .or_default()
                .entry((!is_gene, to))
                .or_default()
                .push(o);
        }
    }
    let render = ctx.render(p);
    let rows = groups
        .into_iter()
        .filter_map(|(h, related)| ctx.cat.resolve(&h).map(|(c, o)| (c, o, related)));
    let (page, more) = crate::params::window(rows, p);
    let mut out = vec![b'['];
    for (i, (vc, vo, related)) in page.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"sequence_variant\":");
        render.object(&mut out, vc, vo, &VARIANT_9);
        out.extend_from_slice(b",\"related\":[");
        let entries = related_entries(ctx, &render, related, true);
        out.extend_from_slice(&entries.join(&b',')[..]);
        out.extend_from_slice(b"]}");
    }
    out.push(b']');
    Ok(crate::handler::Answer::page(out, more))
}

/// A variant's related genes and proteins (target handle and whether it is a protein, with
/// the linking edges), each as one JSON `{gene, protein, sources}` entry in target order. A
/// target missing from the catalog is its handle string, or, unless `keep_missing_proteins`,
/// a protein is left out (the client types `protein` as an object only).
pub fn related_entries(
    ctx: &Ctx<'_>,
    render: &Render<'_>,
    related: BTreeMap<(bool, String), Vec<u64>>,
    keep_missing_proteins: bool,
) -> Vec<Vec<u8>> {
    let (gene_edges, protein_edges) = (ctx.coll(vg::COLL), ctx.coll(vp::COLL));
    let mut entries = Vec::new();
    for ((is_protein, target), edges) in related {
        let resolved = ctx.cat.resolve(&target);
        if is_protein && resolved.is_none() && !keep_missing_proteins {
            continue;
        }
        let mut sources: Vec<Value> = edges
            .iter()
            .filter_map(|&o| match is_protein {
                true => protein_source(protein_edges?, o),
                false => gene_source(gene_edges?, o),
            })
            .collect();
        sort_by_members(&mut sources, &["source", "name", "biological_context"]);
        let shape = if is_protein {
            &PROTEIN_COMPACT
        } else {
            &GENE_COMPACT
        };
        let mut target_json = Vec::new();
        match resolved {
            Some((tc, to)) => render.object(&mut target_json, tc, to, shape),
            None => crate::shape::write_str(&mut target_json, &target),
        }
        let (gene, protein): (&[u8], &[u8]) = if is_protein {
            (b"null", &target_json)
        } else {
            (&target_json, b"null")
        };
        let mut out = Vec::new();
        out.extend_from_slice(b"{\"gene\":");
        out.extend_from_slice(gene);
        out.extend_from_slice(b",\"protein\":");
        out.extend_from_slice(protein);
        out.extend_from_slice(b",\"sources\":");
        out.extend_from_slice(&serde_json::to_vec(&sources).expect("serialises"));
        out.push(b'}');
        entries.push(out);
    }
    entries
}
