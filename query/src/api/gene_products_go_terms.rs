//! `/gene-products/go-terms` and its shared GO-annotation record (an IGVF client path): GO annotations of
//! the gene products (transcripts, proteins) a `query` names; `/go-terms/gene-products` reads
//! them from the term's side.

use crate::edge::{EdgeQuery, Record};
use crate::engine::Set;
use crate::node::{rows, NodeFilter, Nodes};
use crate::prelude::*;
use crate::shape::{field, member, renamed, write_str, Member, Render, Shape, Src, Ty};
use varcat_format::schema::{
    gene_products_terms as gpt, ontology_terms as ot, proteins as pr, transcripts as tr,
    Member as Stored,
};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/gene-products/go-terms",
    section: None,
    summary: "GO annotations of gene products (proteins, transcripts)",
    accepts: Accepts {
        params: &[&QUERY_PARAM, &NAME],
        rules: &[Rule::Required(&QUERY_PARAM)],
        paging: Paging::Paged {
            default: 25,
            max: 100,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Edge(&QUERY),
    body: Body::Array(&PRODUCT_TERM),
    examples: &["query=ENSP90000000001", "query=Q90001&name=involved%20in"],
};

/// The gene product.
pub const QUERY_PARAM: Param = Param::new(
    "query",
    Kind::Id,
    "gene product: transcript id, protein id, name, UniProt name or dbxref, or the annotation's gene_product_id",
);
/// The relation, as the product has it.
pub const NAME: Param = Param::new(
    "name",
    Kind::Enum(&["has the function", "involved in", "is located in"]),
    "relation",
);

/// Transcripts by id.
static TRANSCRIPT_BY: [NodeFilter; 1] = [NodeFilter::Key(&QUERY_PARAM)];
/// Proteins by id, name, UniProt name, dbxref (each alone).
static PROTEIN_BY: [NodeFilter; 4] = [
    NodeFilter::Key(&QUERY_PARAM),
    NodeFilter::Exact(&QUERY_PARAM, pr::m::name),
    NodeFilter::Exact(&QUERY_PARAM, pr::m::uniprot_names),
    NodeFilter::Exact(&QUERY_PARAM, pr::m::dbxref_ids),
];

fn handles_of(q: &str) -> Vec<String> {
    vec![format!("proteins/{q}"), format!("transcripts/{q}")]
}

/// Annotations by the edge's own product id and bare product key.
static EDGE_BY: [NodeFilter; 2] = [
    NodeFilter::Exact(&QUERY_PARAM, gpt::m::gene_product_id),
    NodeFilter::ExactAny(&QUERY_PARAM, gpt::m::_from, handles_of),
];

/// The annotations of the products `query` names: transcripts, then proteins, then the
/// edge's own product id or a product key that is not loaded.
fn products<'a>(ctx: &Ctx<'a>, e: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    let mut sets: Vec<Set<'a>> = Vec::new();
    let t = ctx.coll(tr::COLL);
    for f in &TRANSCRIPT_BY {
        let ords = rows(ctx, t, std::slice::from_ref(f), p, || Filter::over(t)).collect();
        sets.push(sets::adjacent_to(e, gpt::m::_from, t, ords));
    }
    let pc = ctx.coll(pr::COLL);
    for f in &PROTEIN_BY {
        let ords = rows(ctx, pc, std::slice::from_ref(f), p, || Filter::over(pc)).collect();
        sets.push(sets::adjacent_to(e, gpt::m::_from, pc, ords));
    }
    for f in &EDGE_BY {
        let ords = rows(ctx, e, std::slice::from_ref(f), p, || Filter::over(e)).collect();
        sets.push(Set::Vec(ords));
    }
    let mut f = Filter::over(e);
    f.and(Set::union(sets));
    f
}

/// The product's handle when it is loaded, else the annotation's `gene_product_id`.
fn product_id(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let id = e
        .str_of(o, gpt::m::_from)
        .filter(|h| r.cat.resolve(h).is_some())
        .or_else(|| e.str_of(o, gpt::m::gene_product_id));
    id.map(|s| write_str(out, &s)).is_some()
}

/// The GO term's name ("" when the term is not loaded: the client requires a string).
fn go_term_name(r: &Render<'_>, e: &Collection, o: u64, out: &mut Vec<u8>) -> bool {
    let name = e
        .str_of(o, gpt::m::_to)
        .and_then(|h| {
            let (c, to) = r.cat.resolve(&h)?;
            c.str_of(to, ot::m::name)
        })
        .unwrap_or_default();
    write_str(out, &name);
    true
}

/// The members, `name` from `name_member` (the client's `AnnotationsFromGoTerms`).
pub const fn members(name_member: Stored) -> [Member; 15] {
    [
        member("gene_product_id", Src::Fn(product_id), Ty::Str).required(),
        field(gpt::m::gene_product_name, Ty::Str),
        member("go_term_name", Src::Fn(go_term_name), Ty::Str).required(),
        field(gpt::m::source, Ty::Str).required(),
        field(gpt::m::gene_product_type, Ty::Str).required(),
        field(gpt::m::gene_product_symbol, Ty::Str).required(),
        field(gpt::m::qualifier, Ty::StrArr).required(),
        field(gpt::m::organism, Ty::Str).required(),
        field(gpt::m::evidence, Ty::Str).required(),
        field(gpt::m::go_id, Ty::Str).required(),
        renamed("name", name_member, Ty::Str).required(),
        field(gpt::m::class, Ty::Str),
        field(gpt::m::method, Ty::Str),
        field(gpt::m::label, Ty::Str),
        field(gpt::m::files_filesets, Ty::Str),
    ]
}

/// Seen from the product.
pub static PRODUCT_TERM: Shape = Shape {
    name: "AnnotationsFromGoTerms",
    members: &members(gpt::m::name),
};

/// `/gene-products/go-terms` as data.
pub static QUERY: EdgeQuery = EdgeQuery {
    edges: Nodes::One(gpt::COLL),
    from: gpt::m::_from,
    to: gpt::m::_to,
    anchors: &[],
    filters: &[
        NodeFilter::Resolved(products),
        NodeFilter::Facet(&NAME, gpt::m::name),
    ],
    record: Record::One(&PRODUCT_TERM),
};
