//! Molecular interactions (gene–gene, protein–protein, complex membership), gene-product GO
//! annotations and pathway membership and hierarchy.

use super::{Handles, Index, Kind, Spec, NODE};

collection! {
    genes_genes {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        version: Str,
        organism: Str,
        detection_method: Str,
        detection_method_code: Str,
        interaction_type: StrArray,
        interaction_type_code: StrArray,
        confidence_value_biogrid: Num,
        confidence_value_intact: Num,
        pmids: StrArray,
        z_score: Num,
        associated_process: Str,
        method: Str,
        label: Str,
        class: Str,
        files_filesets: Str,
    }
}

/// Genetic interactions (BioGRID) and co-expression (COXPRESdb) between human genes; found from
/// either end (/genes/genes).
pub(super) const GENES_GENES: Spec = Spec {
    name: genes_genes::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: genes_genes::FIELDS,
    known: &["molecular_function"],
    indexes: &[
        Index::Exact(genes_genes::_from),
        Index::Exact(genes_genes::_to),
        Index::Exact(genes_genes::files_filesets),
        Index::Facet(genes_genes::interaction_type),
        Index::Facet(genes_genes::label),
        Index::Facet(genes_genes::method),
        Index::Facet(genes_genes::source),
        Index::Facet(genes_genes::name),
        Index::Number(genes_genes::z_score),
    ],
    ..NODE
};

collection!(mm_genes_mm_genes = genes_genes);

/// The same between mouse genes.
pub(super) const MM_GENES_MM_GENES: Spec = Spec {
    name: mm_genes_mm_genes::NAME,
    ..GENES_GENES
};

collection! {
    proteins_proteins {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        version: Str,
        organism: Str,
        detection_method: Str,
        detection_method_code: Str,
        interaction_type: StrArray,
        interaction_type_code: StrArray,
        confidence_value_biogrid: Num,
        confidence_value_intact: Num,
        pmids: StrArray,
        method: Str,
        label: Str,
        class: Str,
        files_filesets: Str,
    }
}

/// Protein–protein interactions (IntAct, BioGRID); `interaction_type` keeps only the values the
/// client's enum admits (the builder drops the others, counted).
pub(super) const PROTEINS_PROTEINS: Spec = Spec {
    name: proteins_proteins::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: proteins_proteins::FIELDS,
    known: &["molecular_function"],
    indexes: &[
        Index::Exact(proteins_proteins::_from),
        Index::Exact(proteins_proteins::_to),
        Index::Exact(proteins_proteins::pmids),
        Index::Exact(proteins_proteins::files_filesets),
        Index::Facet(proteins_proteins::detection_method),
        Index::Facet(proteins_proteins::interaction_type),
        Index::Facet(proteins_proteins::label),
        Index::Facet(proteins_proteins::method),
        Index::Facet(proteins_proteins::source),
        Index::Facet(proteins_proteins::organism),
    ],
    ..NODE
};

/// The interaction types the client's `ProteinsProteins.interaction_type` admits (its enum,
/// spelled as it is, double space included).
pub const PROTEIN_INTERACTION_TYPES: &[&str] = &[
    "acetylation reaction",
    "adp ribosylation reaction",
    "ampylation reaction",
    "association",
    "atpase reaction",
    "cleavage reaction",
    "colocalization",
    "covalent binding",
    "de-ADP-ribosylation reaction",
    "deacetylation reaction",
    "demethylation reaction",
    "deneddylation reaction",
    "dephosphorylation reaction",
    "deubiquitination reaction",
    "direct interaction",
    "disulfide bond",
    "dna cleavage",
    "enzymatic reaction",
    "glycosylation reaction",
    "gtpase reaction",
    "guanine nucleotide exchange factor reaction",
    "hydroxylation reaction",
    "lipid addition",
    "lipoprotein cleavage reaction",
    "methylation reaction",
    "myristoylation reaction",
    "neddylation reaction",
    "oxidoreductase activity electron transfer reaction",
    "palmitoylation reaction",
    "phosphorylation reaction",
    "phosphotransfer reaction",
    "physical association",
    "proline isomerization  reaction",
    "protein cleavage",
    "proximity",
    "putative self interaction",
    "rna cleavage",
    "self interaction",
    "sumoylation reaction",
    "transglutamination reaction",
    "ubiquitination reaction",
];

collection! {
    complexes_proteins {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        version: Str,
        organism: Str,
        stoichiometry: Num,
        chain_id: Str,
        isoform_id: Str,
        number_of_paralogs: Num,
        linked_features: Any,
        class: Str,
        method: Str,
        label: Str,
        files_filesets: Str,
    }
}

/// Complex membership (Complex Portal): complex → protein.
pub(super) const COMPLEXES_PROTEINS: Spec = Spec {
    name: complexes_proteins::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: complexes_proteins::FIELDS,
    known: &["paralogs"],
    indexes: &[
        Index::Exact(complexes_proteins::_from),
        Index::Exact(complexes_proteins::_to),
    ],
    ..NODE
};

collection! {
    gene_products_terms {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        version: Str,
        organism: Str,
        gene_product_id: Str,
        gene_product_symbol: Str,
        gene_product_name: Str,
        gene_product_type: Str,
        qualifier: StrArray,
        go_id: Str,
        evidence: Str,
        class: Str,
        method: Str,
        label: Str,
        files_filesets: Str,
    }
}

/// GO annotations of gene products (proteins, transcripts) → GO terms.
pub(super) const GENE_PRODUCTS_TERMS: Spec = Spec {
    name: gene_products_terms::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: gene_products_terms::FIELDS,
    known: &[
        "db",
        "db_reference",
        "with",
        "aspect",
        "synonyms",
        "taxon_id",
        "date",
        "assigned_by",
        "annotation_extension",
        "gene_product_form_id",
    ],
    indexes: &[
        Index::Exact(gene_products_terms::_from),
        Index::Exact(gene_products_terms::_to),
        Index::Exact(gene_products_terms::gene_product_id),
        Index::Facet(gene_products_terms::name),
        Index::Facet(gene_products_terms::inverse_name),
    ],
    ..NODE
};

collection! {
    genes_pathways {
        _key: Str,
        _from: Str,
        _to: Str,
        name: Str,
        inverse_name: Str,
        source: Str,
        source_url: Str,
        version: Str,
        organism: Str,
        class: Str,
        method: Str,
        label: Str,
        files_filesets: Str,
    }
}

/// Reactome pathway membership: gene → pathway.
pub(super) const GENES_PATHWAYS: Spec = Spec {
    name: genes_pathways::NAME,
    kind: Kind::Edge,
    handles: Handles::Linked,
    fields: genes_pathways::FIELDS,
    indexes: &[
        Index::Exact(genes_pathways::_from),
        Index::Exact(genes_pathways::_to),
    ],
    ..NODE
};

collection!(pathways_pathways = genes_pathways);

/// Reactome pathway hierarchy: parent → child.
pub(super) const PATHWAYS_PATHWAYS: Spec = Spec {
    name: pathways_pathways::NAME,
    ..GENES_PATHWAYS
};
