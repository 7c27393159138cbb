//! Record shapes shared by several endpoints (reference: igvf-behaviour §0.2; spec part 2).

use varcat_format::schema::{self, Member as Stored};

use crate::shape::{field, member, Member, Shape, Src, Ty};

/// The gene object (spec 2.1; nearest genes, verbose genes).
pub static GENE: Shape = Shape {
    name: "Gene",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::genes::m::chr, Ty::Str).required(),
        field(schema::genes::m::start, Ty::Int),
        field(schema::genes::m::end, Ty::Int),
        field(schema::genes::m::gene_type, Ty::Str),
        field(schema::genes::m::name, Ty::Str).required(),
        field(schema::genes::m::strand, Ty::Str),
        field(schema::genes::m::hgnc, Ty::Str),
        field(schema::genes::m::entrez, Ty::Str),
        field(schema::genes::m::collections, Ty::StrArr),
        field(schema::genes::m::study_sets, Ty::StrArr),
        field(schema::genes::m::source, Ty::Str).required(),
        field(schema::genes::m::version, Ty::Str).required(),
        field(schema::genes::m::source_url, Ty::Str).required(),
        field(schema::genes::m::synonyms, Ty::StrArr),
    ],
};

/// The protein object (verbose proteins of 4.21 and 4.24).
pub static PROTEIN: Shape = Shape {
    name: "Protein",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::proteins::m::name, Ty::Str),
        field(schema::proteins::m::uniprot_names, Ty::StrArr),
        field(schema::proteins::m::uniprot_full_names, Ty::StrArr),
        field(schema::proteins::m::uniprot_ids, Ty::StrArr),
        field(schema::proteins::m::dbxrefs, Ty::Any),
        field(schema::proteins::m::MANE_Select, Ty::Bool),
        field(schema::proteins::m::organism, Ty::Str).required(),
        field(schema::proteins::m::source, Ty::Str).required(),
        field(schema::proteins::m::source_url, Ty::Str).required(),
    ],
};

/// Shorthand for a handle member toggled by `verbose`.
pub const fn id_or(name: &'static str, from: Stored, target: &'static Shape) -> Member {
    member(name, Src::Ref(from, target), Ty::IdOr(target))
}

/// The study object (verbose GWAS and eQTL Catalogue rows).
pub static STUDY: Shape = Shape {
    name: "Study",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::studies::m::name, Ty::Str).required(),
        field(schema::studies::m::ancestry_initial, Ty::Str),
        field(schema::studies::m::ancestry_replication, Ty::Str),
        field(schema::studies::m::n_cases, Ty::Str),
        field(schema::studies::m::n_initial, Ty::Str),
        field(schema::studies::m::n_replication, Ty::Str),
        field(schema::studies::m::pmid, Ty::Str),
        field(schema::studies::m::pub_author, Ty::Str),
        field(schema::studies::m::pub_date, Ty::Str),
        field(schema::studies::m::pub_journal, Ty::Str),
        field(schema::studies::m::pub_title, Ty::Str),
        field(schema::studies::m::has_sumstats, Ty::Str),
        field(schema::studies::m::num_assoc_loci, Ty::Str),
        field(schema::studies::m::study_source, Ty::Str),
        field(schema::studies::m::trait_reported, Ty::Str),
        field(schema::studies::m::trait_efos, Ty::Str),
        field(schema::studies::m::trait_category, Ty::Str),
        field(schema::studies::m::source, Ty::Str),
        field(schema::studies::m::study_type, Ty::Str),
        field(schema::studies::m::version, Ty::Str),
        field(schema::studies::m::files_filesets, Ty::Str),
    ],
};

/// The drug object (verbose 4.7).
pub static DRUG: Shape = Shape {
    name: "Drug",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::drugs::m::name, Ty::Str).required(),
        field(schema::drugs::m::drug_ontology_terms, Ty::StrArr),
        field(schema::drugs::m::source, Ty::Str).required(),
        field(schema::drugs::m::source_url, Ty::Str).required(),
        field(schema::drugs::m::class, Ty::Str),
        field(schema::drugs::m::method, Ty::Str),
        field(schema::drugs::m::files_filesets, Ty::Str),
    ],
};

/// The ontology term object (no `_id`, as in IGVF).
pub static ONTOLOGY_TERM: Shape = Shape {
    name: "OntologyTerm",
    members: &[
        field(schema::ontology_terms::m::uri, Ty::Str).required(),
        field(schema::ontology_terms::m::term_id, Ty::Str).required(),
        field(schema::ontology_terms::m::name, Ty::Str).required(),
        field(schema::ontology_terms::m::synonyms, Ty::StrArr),
        field(schema::ontology_terms::m::description, Ty::Str),
        field(schema::ontology_terms::m::source, Ty::Str),
        field(schema::ontology_terms::m::subontology, Ty::Str),
        field(schema::ontology_terms::m::source_url, Ty::Str),
        field(schema::ontology_terms::m::class, Ty::Str),
        field(schema::ontology_terms::m::method, Ty::Str),
        field(schema::ontology_terms::m::files_filesets, Ty::Str),
    ],
};

/// The protein object without cross-references (the client's `ProteinBasic`).
pub static PROTEIN_BASIC: Shape = Shape {
    name: "ProteinBasic",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(schema::proteins::m::name, Ty::Str),
        field(schema::proteins::m::uniprot_names, Ty::StrArr),
        field(schema::proteins::m::uniprot_full_names, Ty::StrArr),
        field(schema::proteins::m::uniprot_ids, Ty::StrArr),
        field(schema::proteins::m::MANE_Select, Ty::Bool),
        field(schema::proteins::m::organism, Ty::Str).required(),
        field(schema::proteins::m::source, Ty::Str).required(),
        field(schema::proteins::m::source_url, Ty::Str).required(),
    ],
};
