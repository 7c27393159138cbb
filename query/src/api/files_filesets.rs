//! `/files-filesets` (an IGVF client path): the catalog's data files and their file sets, by id, lab, assay,
//! method, donor, sample, software, cell annotation, browser link, source or class; in `_key`
//! order. Every filter is optional (no filter pages all).

use crate::node::{NodeFilter, NodeQuery, Nodes};
use crate::prelude::*;
use crate::shape::{field, member, Shape, Src, Ty};
use varcat_format::schema::files_filesets as ff;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/files-filesets",
    section: None,
    summary: "Data files and file sets by id, lab, assay, method, sample, software or source",
    accepts: Accepts {
        params: &[
            &FILE_FILESET_ID,
            &FILESET_ID,
            &LAB,
            &PREFERRED_ASSAY_TITLE,
            &METHOD,
            &CRISPR_MODALITY,
            &DONOR_ID,
            &SAMPLE_TERM,
            &SAMPLE_SUMMARY,
            &SOFTWARE_PARAM,
            &CELL_ANNOTATION,
            &CELL_ANNOTATION_TERM,
            &HAS_GENOME_BROWSER_LINK,
            &SOURCE,
            &CLASS,
        ],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&FILES_FILESET),
    examples: &[
        "file_fileset_id=ENCFF004PFU",
        "fileset_id=ENCSR359DFW",
        "lab=jesse-engreitz&donor_id=ENCDO221AAA&has_genome_browser_link=true",
        "sample_term=EFO_0005904&sample_summary=H7",
        "cell_annotation_term=CL_0000223",
        "preferred_assay_title=STARR-seq&source=IGVF&class=observed%20data",
    ],
};

/// The file (set) record, members in IGVF's order (client `FilesFilesets`).
pub static FILES_FILESET: Shape = Shape {
    name: "FilesFilesets",
    members: &[
        member("_id", Src::Key, Ty::Str),
        field(ff::m::file_set_id, Ty::Str).required(),
        field(ff::m::lab, Ty::Str).required(),
        field(ff::m::preferred_assay_titles, Ty::StrArr),
        field(ff::m::assay_term_ids, Ty::StrArr),
        field(ff::m::method, Ty::Str),
        field(ff::m::class, Ty::Str).required(),
        field(ff::m::software, Ty::StrArr),
        field(ff::m::collections, Ty::StrArr),
        field(ff::m::samples, Ty::StrArr),
        field(ff::m::sample_ids, Ty::StrArr),
        field(ff::m::simple_sample_summaries, Ty::StrArr),
        field(ff::m::donors, Ty::StrArr),
        field(ff::m::source, Ty::Str).required(),
        field(ff::m::source_url, Ty::Str),
        field(ff::m::download_link, Ty::Str).required(),
        field(ff::m::cell_annotation, Ty::Str),
        field(ff::m::cell_annotation_term, Ty::Str),
        field(ff::m::genome_browser_link, Ty::Str),
        field(ff::m::crispr_modality, Ty::Str),
    ],
};

/// File accession (`_key`).
pub const FILE_FILESET_ID: Param = Param::new(
    "file_fileset_id",
    Kind::Id,
    "file accession, e.g. ENCFF004PFU",
);
/// File-set accession.
pub const FILESET_ID: Param = Param::new(
    "fileset_id",
    Kind::Id,
    "file-set accession, e.g. ENCSR359DFW",
);
/// Lab.
pub const LAB: Param = Param::new("lab", Kind::Enum(LABS), "lab, e.g. jesse-engreitz");
/// Assay title (any of the record's).
pub const PREFERRED_ASSAY_TITLE: Param = Param::new(
    "preferred_assay_title",
    Kind::Enum(ASSAY_TITLES),
    "preferred assay title, e.g. DNase-seq",
);
/// Method.
pub const METHOD: Param = Param::new("method", Kind::Enum(METHODS), "method, e.g. MPRA");
/// CRISPR modality.
pub const CRISPR_MODALITY: Param = Param::new(
    "crispr_modality",
    Kind::Enum(CRISPR_MODALITIES),
    "CRISPR modality",
);
/// Donor accession.
pub const DONOR_ID: Param = Param::new("donor_id", Kind::Id, "donor accession, e.g. ENCDO000AAK");
/// Sample ontology term.
pub const SAMPLE_TERM: Param = Param::new(
    "sample_term",
    Kind::Id,
    "sample ontology term id, e.g. EFO_0002784",
);
/// Sample summary (exact).
pub const SAMPLE_SUMMARY: Param =
    Param::new("sample_summary", Kind::Id, "sample summary, e.g. GM12878");
/// Software (any of the record's).
pub const SOFTWARE_PARAM: Param = Param::new(
    "software",
    Kind::Enum(SOFTWARE),
    "software, e.g. Distal regulation ENCODE-rE2G",
);
/// Cell annotation (exact).
pub const CELL_ANNOTATION: Param = Param::new(
    "cell_annotation",
    Kind::Id,
    "cell annotation, e.g. mesodermal cell",
);
/// Cell annotation ontology term.
pub const CELL_ANNOTATION_TERM: Param = Param::new(
    "cell_annotation_term",
    Kind::Id,
    "cell annotation ontology term id, e.g. CL_0000352",
);
/// Whether the record has a genome-browser link.
pub const HAS_GENOME_BROWSER_LINK: Param = Param::new(
    "has_genome_browser_link",
    Kind::Bool,
    "true: records with a genome-browser link; false: records without",
);
/// Source.
pub const SOURCE: Param = Param::new("source", Kind::Enum(SOURCES), "source, e.g. ENCODE");
/// Class.
pub const CLASS: Param = Param::new("class", Kind::Enum(CLASSES), "class, e.g. prediction");

/// `/files-filesets` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::One(ff::COLL),
    filters: &[
        NodeFilter::Key(&FILE_FILESET_ID),
        NodeFilter::Exact(&FILESET_ID, ff::m::file_set_id),
        NodeFilter::Facet(&LAB, ff::m::lab),
        NodeFilter::Facet(&PREFERRED_ASSAY_TITLE, ff::m::preferred_assay_titles),
        NodeFilter::Facet(&METHOD, ff::m::method),
        NodeFilter::Facet(&CRISPR_MODALITY, ff::m::crispr_modality),
        NodeFilter::ExactAny(&DONOR_ID, ff::m::donors, |v| vec![format!("donors/{v}")]),
        NodeFilter::ExactAny(&SAMPLE_TERM, ff::m::samples, term_handle),
        NodeFilter::Exact(&SAMPLE_SUMMARY, ff::m::simple_sample_summaries),
        NodeFilter::Facet(&SOFTWARE_PARAM, ff::m::software),
        NodeFilter::Exact(&CELL_ANNOTATION, ff::m::cell_annotation),
        NodeFilter::ExactAny(
            &CELL_ANNOTATION_TERM,
            ff::m::cell_annotation_term,
            term_handle,
        ),
        NodeFilter::Bool(&HAS_GENOME_BROWSER_LINK, ff::m::has_genome_browser_link),
        NodeFilter::Facet(&SOURCE, ff::m::source),
        NodeFilter::Facet(&CLASS, ff::m::class),
    ],
    shape: &FILES_FILESET,
};

/// The handle of ontology term `v`.
fn term_handle(v: &str) -> Vec<String> {
    vec![format!("ontology_terms/{v}")]
}

// The values of the bundled file sets (the union of IGVF's schema enums).
const LABS: &[&str] = &[
    "alan-boyle",
    "bill-majoros",
    "charles-gersbach",
    "community",
    "danwei-huangfu",
    "doug-fowler",
    "gary-hon",
    "j-michael-cherry",
    "jay-shendure",
    "jesse-engreitz",
    "karen-mohlke",
    "kushal-dey",
    "lea-starita",
    "luca-pinello",
    "marc-vidal",
    "mark-craven",
    "nadav-ahituv",
    "predrag-radivojac",
    "richard-sherwood",
    "thomas-quertermous",
    "tim-reddy",
    "zhiping-weng",
];
const ASSAY_TITLES: &[&str] = &[
    "CRISPR FACS screen",
    "CRISPR FlowFISH screen",
    "DNase-seq",
    "DUAL-IPA",
    "MPRA",
    "Migration CRISPR screen",
    "Parse Perturb-seq",
    "Perturb-seq",
    "Proliferation CRISPR screen",
    "SGE",
    "STARR-seq",
    "TAP-seq",
    "VAMP-seq",
    "VAMP-seq (MultiSTEP)",
    "Variant painting via fluorescence",
    "Variant-EFFECTS",
    "electroporated MPRA",
    "lentiMPRA",
    "scCRISPR screen",
    "snATAC-seq",
];
const METHODS: &[&str] = &[
    "ADASTRA",
    "BlueSTARR",
    "COXPRESdb",
    "CRISPR screen",
    "ClinGen",
    "DUAL-IPA",
    "DepMap",
    "ENCODE-rE2G",
    "ESM-1v",
    "GVATdb",
    "GWAS",
    "GenCC",
    "HOCOMOCO",
    "Homology",
    "MPRA",
    "MutPred2",
    "Orphanet",
    "Perturb-seq",
    "PharmGKB",
    "SEMVAR",
    "SEMpl",
    "SGE",
    "STARR-seq",
    "TopLD",
    "VAMP-seq",
    "VAMP-seq (MultiSTEP)",
    "Variant painting via fluorescence",
    "Variant-EFFECTS",
    "cV2F",
    "caQTL",
    "candidate Cis-Regulatory Elements",
    "eQTL",
    "elements",
    "pQTL",
    "scE2G",
    "snATAC-seq",
    "spliceQTL",
];
const CRISPR_MODALITIES: &[&str] = &[
    "activation",
    "base editing",
    "interference",
    "knockout",
    "prime editing",
];
const SOFTWARE: &[&str] = &[
    "2024_multistep",
    "BCalm",
    "BEDTools",
    "BIRD",
    "BlueSTARR",
    "CRISPR BEAN",
    "CRISPR-Millipede",
    "CRISPR-SURF",
    "CRISPResso2",
    "Cell Profiler",
    "Cooler",
    "CountESS",
    "DESeq2",
    "DUAL-IPA analysis scripts",
    "Distal regulation ENCODE-rE2G",
    "DistalRegulationCRISPRdata",
    "ESM-1v",
    "FRACTEL",
    "Irreproducible Discovery Rate",
    "MPRAflow tsv-to-bed",
    "MutPred2",
    "NumPy",
    "Pysam",
    "R",
    "SEMVAR",
    "SEMpl",
    "SGE Pipeline",
    "Samtools",
    "Sceptre",
    "SciPy",
    "Seaborn",
    "Seurat",
    "Snakemake",
    "Straw",
    "Variant-EFFECTS",
    "bigWigAverageOverBed",
    "cV2F",
    "cyp2c19_2c9",
    "matplotlib",
    "mpralm",
    "pandas",
    "pySpade",
    "pybedtools",
    "scATAC-seq processing",
    "scE2G",
    "statsmodels",
];
const SOURCES: &[&str] = &["Community", "ENCODE", "IGVF"];
const CLASSES: &[&str] = &["biological relationship", "observed data", "prediction"];
