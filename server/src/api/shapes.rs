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

/// The study object (verbose GWAS and eQTL Catalogue rows).
pub static STUDY: Shape = Shape {
    name: "Study",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("name", Ty::Str).required(),
        field("ancestry_initial", Ty::Str),
        field("ancestry_replication", Ty::Str),
        field("n_cases", Ty::Str),
        field("n_initial", Ty::Str),
        field("n_replication", Ty::Str),
        field("pmid", Ty::Str),
        field("pub_author", Ty::Str),
        field("pub_date", Ty::Str),
        field("pub_journal", Ty::Str),
        field("pub_title", Ty::Str),
        field("has_sumstats", Ty::Str),
        field("num_assoc_loci", Ty::Str),
        field("study_source", Ty::Str),
        field("trait_reported", Ty::Str),
        field("trait_efos", Ty::Str),
        field("trait_category", Ty::Str),
        field("source", Ty::Str),
        field("study_type", Ty::Str),
        field("version", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};

/// The drug object (verbose 4.7).
pub static DRUG: Shape = Shape {
    name: "Drug",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field("name", Ty::Str).required(),
        field("drug_ontology_terms", Ty::StrArr),
        field("source", Ty::Str).required(),
        field("source_url", Ty::Str).required(),
        field("class", Ty::Str),
        field("method", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};

/// The ontology term object (no `_id`, as in IGVF).
pub static ONTOLOGY_TERM: Shape = Shape {
    name: "OntologyTerm",
    members: &[
        field("uri", Ty::Str).required(),
        field("term_id", Ty::Str).required(),
        field("name", Ty::Str).required(),
        field("synonyms", Ty::StrArr),
        field("description", Ty::Str),
        field("source", Ty::Str),
        field("subontology", Ty::Str),
        field("source_url", Ty::Str),
        field("class", Ty::Str),
        field("method", Ty::Str),
        field("files_filesets", Ty::Str),
    ],
};
