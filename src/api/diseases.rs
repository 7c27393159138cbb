//! 4.6 `/diseases/genes` and 4.16 `/pathways`.

use varcat_format::collection::Collection;

use crate::api::shapes::{id_or, GENE, ONTOLOGY_TERM};
use crate::api::{sets, Ctx, Reply};
use crate::engine::{cascade, Filter, Set, DISEASE_TIERS, NAME_TIERS};
use crate::params::Params;
use crate::shape::{field, member, renamed, Member, Shape, Src, Ty};

const PMIDS: Member = field("pmids", Ty::StrArr);
const TERM_NAME: Member = field("term_name", Ty::Str);
const SYMBOL: Member = field("gene_symbol", Ty::Str);
const TAIL: [Member; 9] = [
    field("class", Ty::Str),
    field("method", Ty::Str),
    field("label", Ty::Str),
    field("files_filesets", Ty::Str),
    field("source", Ty::Str),
    field("source_url", Ty::Str),
    id_or("gene", "_to", &GENE),
    id_or("disease", "_from", &ONTOLOGY_TERM),
    field("name", Ty::Str).required(),
];

/// A ClinGen variant of a disease–gene row.
pub static VARIANT_MINIMAL: Shape = Shape {
    name: "VariantMinimal",
    members: &[
        field("chr", Ty::Str),
        field("pos", Ty::Int),
        field("ref", Ty::Str),
        field("alt", Ty::Str),
        field("rsid", Ty::StrArr),
        field("spdi", Ty::Str),
        field("hgvs", Ty::Str),
    ],
};

const INHERITANCE: Member = field("inheritance_mode", Ty::Str);
/// `null` on a row with no ClinGen variants (DESIGN §12a).
const VARIANTS: Member = field("variants", Ty::Arr(&VARIANT_MINIMAL));

/// 4.6 GenCC rows.
pub static DISEASE_GENE_GENCC: Shape = Shape {
    name: "DiseaseGeneGenCC",
    members: &[
        PMIDS,
        TERM_NAME,
        SYMBOL,
        field("sgc_id", Ty::Str),
        field("hgnc", Ty::Str),
        field("classification", Ty::Str),
        field("moi_id", Ty::Str),
        field("moi_name", Ty::Str),
        field("submitter", Ty::Str),
        TAIL[0],
        TAIL[1],
        TAIL[2],
        TAIL[3],
        TAIL[4],
        TAIL[5],
        TAIL[6],
        TAIL[7],
        TAIL[8],
        field("association_type", Ty::Str),
        field("association_status", Ty::Str),
        INHERITANCE,
        VARIANTS,
    ],
};

/// 4.6 Orphanet rows (and any other source).
pub static DISEASE_GENE_ORPHANET: Shape = Shape {
    name: "DiseaseGeneOrphanet",
    members: &[
        field("association_type", Ty::Str),
        PMIDS,
        TERM_NAME,
        SYMBOL,
        field("association_status", Ty::Str),
        TAIL[0],
        TAIL[1],
        TAIL[2],
        TAIL[3],
        TAIL[4],
        TAIL[5],
        TAIL[6],
        TAIL[7],
        TAIL[8],
        field("sgc_id", Ty::Str),
        field("hgnc", Ty::Str),
        field("classification", Ty::Str),
        field("moi_id", Ty::Str),
        field("moi_name", Ty::Str),
        field("submitter", Ty::Str),
        INHERITANCE,
        VARIANTS,
    ],
};

/// The 4.6 shapes, for the OpenAPI document.
pub static DISEASE_GENE_SHAPES: &[&Shape] = &[&DISEASE_GENE_GENCC, &DISEASE_GENE_ORPHANET];

fn disease_gene_shape(e: &Collection, o: u32) -> &'static Shape {
    if e.string(o, "source").as_deref() == Some("GenCC") {
        &DISEASE_GENE_GENCC
    } else {
        &DISEASE_GENE_ORPHANET
    }
}

/// 4.6: genes associated with a disease id and/or name (exact, else all tokens of the name),
/// by source.
pub fn diseases_genes(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let e = ctx.coll("diseases_genes");
    let base = || {
        let mut f = Filter::over(e);
        if let Some(id) = p.str("disease_id") {
            f.and(sets::handle_is(e, "_from", "ontology_terms", id));
        }
        if let Some(s) = p.str("source") {
            f.and(sets::facet(e, "source", s));
        }
        f
    };
    let f = match (p.str("disease_name"), e) {
        (Some(q), Some(c)) => cascade(c, "term_name", q, DISEASE_TIERS, base),
        _ => base(),
    };
    ctx.page_with(p, e, &f, disease_gene_shape)
}

/// 4.16 record; `biological_process` repeats `go_biological_process` under the name the IGVF
/// client reads.
pub static PATHWAY: Shape = Shape {
    name: "Pathway",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("name", Ty::Str).required(),
        field("organism", Ty::Str).required(),
        field("source", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
        field("id_version", Ty::Str).required(),
        field("is_in_disease", Ty::Bool),
        field("is_top_level_pathway", Ty::Bool),
        field("name_aliases", Ty::StrArr).required(),
        field("disease_ontology_terms", Ty::StrArr),
        field("go_biological_process", Ty::Str),
        field("class", Ty::Str).required(),
        field("method", Ty::Str),
        field("label", Ty::Str),
        field("files_filesets", Ty::Str).required(),
        renamed("biological_process", "go_biological_process", Ty::Str),
    ],
};

/// 4.16: pathways by id, names (each name filter runs its own cascade; a row must be in both),
/// disease flags and terms, GO process; every pathway when nothing is given.
pub fn pathways(ctx: &Ctx<'_>, p: &Params) -> Reply {
    let pw = ctx.coll("pathways");
    let base = || {
        let mut f = Filter::over(pw);
        if let Some(id) = p.str("id") {
            f.and(sets::keys(pw, id));
        }
        for flag in ["is_in_disease", "is_top_level_pathway"] {
            if let Some(b) = p.bool(flag) {
                f.and(sets::facet(pw, flag, if b { "true" } else { "false" }));
            }
        }
        if let Some(t) = p.str("disease_ontology_terms") {
            f.and(sets::handle_is(
                pw,
                "disease_ontology_terms",
                "ontology_terms",
                t,
            ));
        }
        if let Some(t) = p.str("go_biological_process") {
            f.and(sets::handle_is(
                pw,
                "go_biological_process",
                "ontology_terms",
                t,
            ));
        }
        f
    };
    let mut f = base();
    if let Some(c) = pw {
        for field in ["name", "name_aliases"] {
            if let Some(q) = p.str(field) {
                f.and(Set::Vec(cascade(c, field, q, NAME_TIERS, base).collect()));
            }
        }
    }
    ctx.page(p, pw, &f, &PATHWAY)
}
