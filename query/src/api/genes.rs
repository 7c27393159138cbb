//! `/genes` (an IGVF client path): genes by id, HGNC, Entrez, name, region, synonym,
//! collection, study set and type.

use varcat_format::schema::genes;

use crate::endpoint::{Body, Endpoint, Run};
use crate::engine::NAME_TIERS;
use crate::node::{with_and_without, NodeFilter, NodeQuery, Nodes};
use crate::params::{Accepts, Kind, Paging, Param, GENES, HUMAN_MOUSE};
use crate::vocab::biotypes::GENE_TYPES;
use crate::vocab::genes::{GENE_ID, HGNC_ID, REGION, SYNONYM};
use crate::vocab::shapes::GENE;

/// `/genes` (an IGVF client path): genes by id, HGNC, Entrez, name, region, synonym, collection, study
/// set and type; every gene when nothing is given (as IGVF).
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes",
    section: None,
    summary: "Genes by id, HGNC, Entrez, name, region, synonym, collection, study set, type",
    accepts: Accepts {
        params: &[
            &GENE_ID,
            &HGNC_ID,
            &ENTREZ,
            &NAME,
            &REGION,
            &SYNONYM,
            &COLLECTION,
            &STUDY_SET,
            &GENE_TYPE,
        ],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 500,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: Run::Node(&QUERY),
    body: Body::Array(&GENE),
    examples: &[
        "name=TSTA1",
        "gene_id=ENSG00000101349",
        "region=chr1:1-30000",
        "gene_type=lncRNA",
        "organism=Mus%20musculus&name=Xkr4",
    ],
};

/// Entrez gene id.
pub const ENTREZ: Param = Param::new("entrez", Kind::Id, "Entrez gene id, ENTREZ:<n> or <n>");
/// Gene name (symbol), through the name cascade.
pub const NAME: Param = Param::new(
    "name",
    Kind::Text,
    "gene name: exact, else all tokens, else one typo",
);
/// Gene collection.
pub const COLLECTION: Param = Param::new(
    "collection",
    Kind::Enum(&["ACMG73", "GREGoR", "Morphic", "StanfordFCC"]),
    "gene collection",
);
/// Study set.
pub const STUDY_SET: Param = Param::new(
    "study_set",
    Kind::Enum(&[
        "16p11.2 Deletion - Shendure",
        "Blood Master Regulators",
        "Cardiac - Engreitz",
        "Cardiac - Munshi",
        "Cardiac - Quertermous",
        "Cardiometabolic TFs",
        "Cardiomyopathies-Steinmetz",
        "CdLS-like phenotype",
        "Coronary Artery Disease - Lettre",
        "DiGeorge Syndrome - Park",
        "DiGeorge Syndrome - Shendure",
        "GREGoR Candidate - BCM",
        "GREGoR Candidate - Broad",
        "GREGoR Candidate - GSS",
        "GREGoR Candidate - UW",
        "IGVFFI6537JARB",
        "IGVFFI7781XWZY",
        "LDL-C uptake",
        "MorPhiC",
        "Pancreatic differentiation",
        "Pulmonary arterial hypertension - Rabinovitch",
        "SGE-Starita",
        "Strong Selection - Sunyaev",
        "VAMP-seq",
        "Williams Syndrome - Park",
        "Williams Syndrome - Shendure",
    ]),
    "study set",
);
/// Gene biotype.
pub const GENE_TYPE: Param = Param::new("gene_type", Kind::Enum(GENE_TYPES), "gene biotype");

/// `/genes` as data.
pub static QUERY: NodeQuery = NodeQuery {
    nodes: Nodes::ByOrganism(GENES),
    filters: &[
        NodeFilter::Key(&GENE_ID),
        NodeFilter::Hgnc(&HGNC_ID, genes::m::hgnc),
        NodeFilter::ExactAny(&ENTREZ, genes::m::entrez, |v| {
            with_and_without("ENTREZ:", v)
        }),
        NodeFilter::Text(&NAME, genes::m::name, NAME_TIERS),
        NodeFilter::Overlaps(&REGION),
        NodeFilter::Exact(&SYNONYM, genes::m::synonyms),
        NodeFilter::Exact(&COLLECTION, genes::m::collections),
        NodeFilter::Exact(&STUDY_SET, genes::m::study_sets),
        NodeFilter::Facet(&GENE_TYPE, genes::m::gene_type),
    ],
    shape: &GENE,
};
