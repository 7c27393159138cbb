//! 4.20 `/ontology-terms/{ontology_term_id}/children`: the terms that are a subclass of a term.

use crate::engine::Filter;
use crate::engine::Read;
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::parse::ident::TermId;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, renamed, Shape, Src, Ty};
use varcat_format::schema;
use varcat_format::schema::{ontology_terms, ontology_terms_ontology_terms as edges};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/ontology-terms/{ontology_term_id}/children",
    section: Some("4.20"),
    summary: "Terms that are a subclass of an ontology term",
    accepts: Accepts {
        params: &[&ONTOLOGY_TERM_ID],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(children),
    body: Body::Array(&CHILD),
    examples: &[
        "/ontology-terms/VCT_0000002/children",
        "/ontology-terms/VCT_0000003/children?limit=2&page=1",
    ],
};

/// The term (path parameter).
pub const ONTOLOGY_TERM_ID: Param = Param::new("ontology_term_id", Kind::TermId, TERM_PATH);

/// The term of a child row (synonyms and description always present, as the client requires).
pub static TERM_FULL: Shape = Shape {
    name: "OntologyTermFull",
    members: &[
        field(schema::ontology_terms::m::uri, Ty::Str).required(),
        field(schema::ontology_terms::m::term_id, Ty::Str).required(),
        field(schema::ontology_terms::m::name, Ty::Str).required(),
        field(schema::ontology_terms::m::synonyms, Ty::StrArr).required(),
        field(schema::ontology_terms::m::description, Ty::Str).required(),
        field(schema::ontology_terms::m::source, Ty::Str),
        field(schema::ontology_terms::m::subontology, Ty::Str),
        field(schema::ontology_terms::m::source_url, Ty::Str),
        field(schema::ontology_terms::m::class, Ty::Str),
        field(schema::ontology_terms::m::method, Ty::Str),
        field(schema::ontology_terms::m::files_filesets, Ty::Str),
    ],
};

/// 4.20 record.
pub static CHILD: Shape = Shape {
    name: "OntologyTermChild",
    members: &[
        member(
            "term",
            Src::Obj(schema::ontology_terms_ontology_terms::m::_from, &TERM_FULL),
            Ty::Obj(&TERM_FULL),
        ),
        renamed(
            "relationship_type",
            schema::ontology_terms_ontology_terms::m::name,
            Ty::Str,
        ),
    ],
};

/// 4.20: the terms that are a subclass of the given term, in edge-key order (a child missing
/// from the catalog has no row).
pub fn children(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll(edges::COLL);
    let id = p.term_id(&ONTOLOGY_TERM_ID).map_or("", TermId::as_str);
    let mut f = Filter::over(e);
    f.and(sets::handle_is(e, edges::m::_to, ontology_terms::COLL, id));
    f.and(sets::facet(e, edges::m::name, "subclass"));
    if let Some(ec) = e {
        f.pred(move |o| {
            ec.str_of(o, edges::m::_from)
                .and_then(|h| ctx.cat.resolve(&h))
                .is_some()
        });
    }
    ctx.page(p, e, &f, &CHILD)
}
