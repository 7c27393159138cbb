//! Genes, transcripts, proteins, gene structure, and the derived gene–protein pairs.

use super::{Handles, Index, Kind, Order, Spec, NODE};

collection! {
    genes {
        _key: Str,
        gene_id: Str,
        chr: Str,
        start: Int,
        end: Int,
        gene_type: Str,
        name: Str,
        symbol: Str,
        strand: Str,
        hgnc: Str,
        entrez: Str,
        mgi: Str,
        collections: StrArray,
        study_sets: StrArray,
        source: Str,
        version: Str,
        source_url: Str,
        synonyms: StrArray,
        organism: Str,
    }
}

const GENE_INDEXES: &[Index] = &[
    Index::Text(genes::name),
    Index::Exact(genes::hgnc),
    Index::Exact(genes::synonyms),
    Index::Exact(genes::gene_id),
    Index::Exact(genes::symbol),
    Index::Exact(genes::entrez),
    Index::Facet(genes::gene_type),
    Index::Exact(genes::collections),
    Index::Exact(genes::study_sets),
    Index::Intervals {
        chr: genes::chr,
        start: genes::start,
        end: genes::end,
    },
    Index::Ends {
        chr: genes::chr,
        end: genes::end,
    },
];

pub(super) const GENES: Spec = Spec {
    name: genes::NAME,
    keyed: Some("gene ids (/genes `gene_id`, the gene anchors: `sets::keys`); handles in variants_genes, genes_transcripts, genomic_elements_genes, variants_proteins.gene, … (joins, verbose)"),
    fields: genes::FIELDS,
    known: &["version_number"],
    indexes: GENE_INDEXES,
    ..NODE
};

collection!(mm_genes = genes);

pub(super) const MM_GENES: Spec = Spec {
    name: mm_genes::NAME,
    keyed: Some("mouse gene ids (organism=Mus musculus); handles in genes_transcripts._from, mm_genes_mm_genes"),
    ..GENES
};

collection! {
    transcripts {
        _key: Str,
        transcript_id: Str,
        name: Str,
        transcript_type: Str,
        chr: Str,
        start: Int,
        end: Int,
        strand: Str,
        gene_name: Str,
        source: Str,
        version: Str,
        source_url: Str,
        organism: Str,
        MANE_Select: Bool,
        refseq_transcript_ids: StrArray,
    }
}

pub(super) const TRANSCRIPTS: Spec = Spec {
    name: transcripts::NAME,
    keyed: Some("transcript ids (/transcripts, /genes/transcripts: `sets::keys`); handles in genes_transcripts._to, transcripts_proteins._from, gene_products_terms._from"),
    fields: transcripts::FIELDS,
    indexes: &[
        Index::Facet(transcripts::transcript_type),
        Index::Exact(transcripts::refseq_transcript_ids),
        Index::Intervals {
            chr: transcripts::chr,
            start: transcripts::start,
            end: transcripts::end,
        },
    ],
    ..NODE
};

collection!(mm_transcripts = transcripts);

pub(super) const MM_TRANSCRIPTS: Spec = Spec {
    name: mm_transcripts::NAME,
    keyed: Some(
        "mouse transcript ids; handles in genes_transcripts._to, transcripts_proteins._from",
    ),
    ..TRANSCRIPTS
};

collection! {
    proteins {
        _key: Str,
        name: Str,
        protein_id: Str,
        MANE_Select: Bool,
        source: Str,
        version: Str,
        source_url: Str,
        organism: Str,
        uniprot_collection: Str,
        uniprot_ids: StrArray,
        uniprot_names: StrArray,
        uniprot_full_names: StrArray,
        dbxrefs: Any,
        dbxref_ids: StrArray,
    }
}

pub(super) const PROTEINS: Spec = Spec {
    name: proteins::NAME,
    keyed: Some("protein ids (/proteins, /genes-proteins/variants: `sets::keys`); handles in variants_proteins, proteins_proteins, complexes_proteins, transcripts_proteins, motifs_proteins"),
    fields: proteins::FIELDS,
    indexes: &[
        Index::Exact(proteins::name),
        Index::Exact(proteins::protein_id),
        Index::Exact(proteins::uniprot_ids),
        Index::Exact(proteins::uniprot_names),
        Index::Exact(proteins::uniprot_full_names),
        Index::Exact(proteins::dbxref_ids),
        Index::Facet(proteins::organism),
    ],
    ..NODE
};

collection! {
    genes_transcripts {
        _key: Str,
        _from: Str,
        _to: Str,
        source: Str,
        source_url: Str,
        version: Str,
        name: Str,
        inverse_name: Str,
        organism: Str,
    }
}

pub(super) const GENES_TRANSCRIPTS: Spec = Spec {
    name: genes_transcripts::NAME,
    keyed: Some(
        "handles in genes_transcripts_genes._from (/genes/transcripts/genes resolves them)",
    ),
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: genes_transcripts::FIELDS,
    known: &["biological_process"],
    indexes: &[
        Index::Exact(genes_transcripts::_from),
        Index::Exact(genes_transcripts::_to),
    ],
    ..NODE
};

collection!(transcripts_proteins = genes_transcripts);

pub(super) const TRANSCRIPTS_PROTEINS: Spec = Spec {
    name: transcripts_proteins::NAME,
    keyed: None,
    ..GENES_TRANSCRIPTS
};

collection! {
    genes_structure {
        _key: Str,
        name: Str,
        chr: Str,
        start: Int,
        end: Int,
        strand: Str,
        r#type: Str,
        gene_id: Str,
        gene_name: Str,
        transcript_id: Str,
        transcript_name: Str,
        protein_id: Str,
        exon_number: Str,
        exon_id: Str,
        organism: Str,
        source: Str,
        version: Str,
        source_url: Str,
    }
}

/// Built after `transcripts_proteins`, whose edges give each row's `protein_id`.
pub(super) const GENES_STRUCTURE: Spec = Spec {
    name: genes_structure::NAME,
    fields: genes_structure::FIELDS,
    // 4.10 order: (gene_id, transcript_id, start, _key).
    order: Order::Fields(&[
        genes_structure::gene_id,
        genes_structure::transcript_id,
        genes_structure::start,
    ]),
    indexes: &[
        Index::Exact(genes_structure::gene_id),
        Index::Exact(genes_structure::gene_name),
        Index::Exact(genes_structure::transcript_id),
        Index::Exact(genes_structure::transcript_name),
        Index::Exact(genes_structure::protein_id),
        Index::Facet(genes_structure::r#type),
        Index::Intervals {
            chr: genes_structure::chr,
            start: genes_structure::start,
            end: genes_structure::end,
        },
    ],
    ..NODE
};

collection!(mm_genes_structure = genes_structure);

pub(super) const MM_GENES_STRUCTURE: Spec = Spec {
    name: mm_genes_structure::NAME,
    ..GENES_STRUCTURE
};

collection! {
    genes_proteins {
        _key: Str,
        gene: Str,
        protein: Str,
        organism: Str,
    }
}

pub(super) const GENES_PROTEINS: Spec = Spec {
    name: genes_proteins::NAME,
    kind: Kind::Derived,
    fields: genes_proteins::FIELDS,
    order: Order::Fields(&[genes_proteins::gene, genes_proteins::protein]),
    indexes: &[
        Index::Exact(genes_proteins::gene),
        Index::Exact(genes_proteins::protein),
        Index::Facet(genes_proteins::organism),
    ],
    ..NODE
};
