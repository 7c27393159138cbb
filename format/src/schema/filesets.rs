//! IGVF file sets: the `files_filesets/<accession>` handles every edge's `files_filesets` names.

use super::{Index, Spec, NODE};

collection! {
    files_filesets {
        _key: Str,
        file_set_id: Str,
        lab: Str,
        preferred_assay_titles: StrArray,
        assay_term_ids: StrArray,
        method: Str,
        class: Str,
        software: StrArray,
        collections: StrArray,
        samples: StrArray,
        sample_ids: StrArray,
        simple_sample_summaries: StrArray,
        donors: StrArray,
        source: Str,
        source_url: Str,
        download_link: Str,
        cell_annotation: Str,
        cell_annotation_term: Str,
        genome_browser_link: Str,
        crispr_modality: Str,
        has_genome_browser_link: Bool,
    }
}

/// File sets (/files-filesets); `has_genome_browser_link` is derived at build time from
/// `genome_browser_link`.
pub(super) const FILES_FILESETS: Spec = Spec {
    name: files_filesets::NAME,
    keyed: Some("/files-filesets `file_fileset_id`; every `files_filesets` member holds its handles (verbose)"),
    fields: files_filesets::FIELDS,
    known: &[
        "name",
        "treatments_term_ids",
        "publication",
        "browser_index_file",
        "version",
    ],
    indexes: &[
        Index::Exact(files_filesets::file_set_id),
        Index::Exact(files_filesets::donors),
        Index::Exact(files_filesets::samples),
        Index::Exact(files_filesets::simple_sample_summaries),
        Index::Exact(files_filesets::cell_annotation),
        Index::Exact(files_filesets::cell_annotation_term),
        Index::Facet(files_filesets::lab),
        Index::Facet(files_filesets::preferred_assay_titles),
        Index::Facet(files_filesets::method),
        Index::Facet(files_filesets::crispr_modality),
        Index::Facet(files_filesets::software),
        Index::Facet(files_filesets::source),
        Index::Facet(files_filesets::class),
        Index::Facet(files_filesets::has_genome_browser_link),
    ],
    ..NODE
};
