//! 4.16 `/pathways`: Reactome pathways by id, name, alias, disease and GO process.

use crate::engine::{cascade, Filter, Set, NAME_TIERS};
use crate::handler::{Ctx, Reply};
use crate::params::Params;
use crate::prelude::*;
use crate::sets;
use crate::shape::{field, member, renamed, Shape, Src, Ty};
use varcat_format::schema;
use varcat_format::schema::{ontology_terms, pathways};

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/pathways",
    section: Some("4.16"),
    summary: "Reactome pathways by id, name, alias, disease and GO process",
    accepts: Accepts {
        params: &[
            &ID,
            &NAME,
            &NAME_ALIASES,
            &IS_IN_DISEASE,
            &IS_TOP_LEVEL_PATHWAY,
            &DISEASE_ONTOLOGY_TERMS,
            &GO_BIOLOGICAL_PROCESS,
        ],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Handler(pathways),
    body: Body::Array(&PATHWAY),
    examples: &[
        "name=Disease",
        "name=glycosilation",
        "is_top_level_pathway=true",
    ],
};

/// Pathway id.
pub const ID: Param = Param::new("id", Kind::Id, "pathway id, e.g. R-HSA-446203");
/// Name, through the name cascade.
pub const NAME: Param = Param::new(
    "name",
    Kind::Text,
    "name: exact, else all tokens, else one typo",
);
/// Alias, through the name cascade.
pub const NAME_ALIASES: Param = Param::new(
    "name_aliases",
    Kind::Text,
    "alias: exact, else all tokens, else one typo",
);
/// Disease pathways.
pub const IS_IN_DISEASE: Param = Param::new("is_in_disease", Kind::Bool, "disease pathways");
/// Top-level pathways.
pub const IS_TOP_LEVEL_PATHWAY: Param =
    Param::new("is_top_level_pathway", Kind::Bool, "top-level pathways");
/// Disease term.
pub const DISEASE_ONTOLOGY_TERMS: Param = Param::new(
    "disease_ontology_terms",
    Kind::Id,
    "disease term id, e.g. MONDO_0009861",
);
/// GO biological process.
pub const GO_BIOLOGICAL_PROCESS: Param = Param::new(
    "go_biological_process",
    Kind::Id,
    "GO term id, e.g. GO_0006486",
)
.aliases(&["biological_process"]);

/// 4.16 record; `biological_process` repeats `go_biological_process` under the name the IGVF
/// client reads.
pub static PATHWAY: Shape = Shape {
    name: "Pathway",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::pathways::m::name, Ty::Str).required(),
        field(schema::pathways::m::organism, Ty::Str).required(),
        field(schema::pathways::m::source, Ty::Str).required(),
        field(schema::pathways::m::source_url, Ty::Str).required(),
        field(schema::pathways::m::id_version, Ty::Str).required(),
        field(schema::pathways::m::is_in_disease, Ty::Bool),
        field(schema::pathways::m::is_top_level_pathway, Ty::Bool),
        field(schema::pathways::m::name_aliases, Ty::StrArr).required(),
        field(schema::pathways::m::disease_ontology_terms, Ty::StrArr),
        field(schema::pathways::m::go_biological_process, Ty::Str),
        field(schema::pathways::m::class, Ty::Str).required(),
        field(schema::pathways::m::method, Ty::Str),
        field(schema::pathways::m::label, Ty::Str),
        field(schema::pathways::m::files_filesets, Ty::Str).required(),
        renamed(
            "biological_process",
            schema::pathways::m::go_biological_process,
            Ty::Str,
        ),
    ],
};

/// 4.16: pathways by id, names (each name filter runs its own cascade; a row must be in both),
/// disease flags and terms, GO process; every pathway when nothing is given.
pub fn pathways(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let pw = ctx.coll(pathways::COLL);
    let base = || {
        let mut f = Filter::over(pw);
        if let Some(id) = p.str(&ID) {
            f.and(sets::keys(pw, id));
        }
        for (param, member) in [
            (&IS_IN_DISEASE, pathways::m::is_in_disease),
            (&IS_TOP_LEVEL_PATHWAY, pathways::m::is_top_level_pathway),
        ] {
            if let Some(b) = p.bool(param) {
                f.and(sets::facet(pw, member, if b { "true" } else { "false" }));
            }
        }
        if let Some(t) = p.str(&DISEASE_ONTOLOGY_TERMS) {
            f.and(sets::handle_is(
                pw,
                pathways::m::disease_ontology_terms,
                ontology_terms::COLL,
                t,
            ));
        }
        if let Some(t) = p.str(&GO_BIOLOGICAL_PROCESS) {
            f.and(sets::handle_is(
                pw,
                pathways::m::go_biological_process,
                ontology_terms::COLL,
                t,
            ));
        }
        f
    };
    let mut f = base();
    if let Some(c) = pw {
        for (param, member) in [
            (&NAME, pathways::m::name),
            (&NAME_ALIASES, pathways::m::name_aliases),
        ] {
            if let Some(q) = p.str(param) {
                f.and(Set::Vec(cascade(c, member, q, NAME_TIERS, base).collect()));
            }
        }
    }
    ctx.page(p, pw, &f, &PATHWAY)
}
