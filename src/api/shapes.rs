//! Record shapes shared by several endpoints (reference: igvf-behaviour §0.2; spec part 2).

use crate::shape::{field, member, Member, Shape, Src, Ty};

/// The gene object (spec 2.1; nearest genes, verbose genes).
pub static GENE: Shape = Shape {
    name: "Gene",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("chr", Ty::Str).required(),
        field("start", Ty::Int),
        field("end", Ty::Int),
        field("gene_type", Ty::Str),
        field("name", Ty::Str).required(),
        field("strand", Ty::Str),
        field("hgnc", Ty::Str),
        field("entrez", Ty::Str),
        field("collections", Ty::StrArr),
        field("study_sets", Ty::StrArr),
        field("source", Ty::Str).required(),
        field("version", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
        field("synonyms", Ty::StrArr),
    ],
};

/// The protein object (verbose proteins of 4.21 and 4.24).
pub static PROTEIN: Shape = Shape {
    name: "Protein",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("name", Ty::Str),
        field("uniprot_names", Ty::StrArr),
        field("uniprot_full_names", Ty::StrArr),
        field("uniprot_ids", Ty::StrArr),
        field("dbxrefs", Ty::Any),
        field("MANE_Select", Ty::Bool),
        field("organism", Ty::Str).required(),
        field("source", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
    ],
};

/// Shorthand for a handle member toggled by `verbose`.
pub const fn id_or(name: &'static str, from: &'static str, target: &'static Shape) -> Member {
    member(name, Src::Ref(from, target), Ty::IdOr(target))
}
