//! Gene resolution (4.1, 4.4, 4.24): `gene_id`, `hgnc_id`, `synonym` and `region` ANDed, and
//! `gene_name` through the name cascade with those filters applied (the tier is decided on
//! genes, so an exact name never falls through to a similar one).

use varcat_format::collection::Collection;
use varcat_format::schema::genes;

use crate::api::node::{with_and_without, NodeFilter, NodeQuery, Nodes};
use crate::api::sets;
use crate::api::shapes::GENE;
use crate::api::{Body, Ctx, Endpoint};
use crate::engine::{cascade, Filter, NAME_TIERS};
use crate::params::{Accepts, Kind, Organism, Paging, Param, Params, Rule, GENES, HUMAN_MOUSE};

/// Ensembl gene id.
pub const GENE_ID: Param = Param::new(
    "gene_id",
    Kind::Id,
    "Ensembl gene id (ENSG…; a version suffix is ignored)",
);
/// HGNC id.
pub const HGNC_ID: Param = Param::new("hgnc_id", Kind::Hgnc, "HGNC id, HGNC:<n> or <n>");
/// Gene symbol, through the name cascade.
pub const GENE_NAME: Param = Param::new(
    "gene_name",
    Kind::Text,
    "gene symbol: exact, else all tokens, else one typo",
);
/// Gene synonym.
pub const SYNONYM: Param = Param::new("synonym", Kind::Id, "gene synonym (exact)");
/// [`SYNONYM`] also under the name `alias`, on the three paths whose interface names it (4.1,
/// 4.4, 4.24); elsewhere, as in IGVF and its client, `alias` is an unknown parameter.
pub const SYNONYM_OR_ALIAS: Param = SYNONYM.aliases(&["alias"]);
/// Genes overlapping a region.
pub const REGION: Param = Param::new(
    "region",
    Kind::Region(None),
    "genes overlapping chr<name>:<start>-<end>",
);

/// The gene parameters, in the order endpoints list them.
pub const PARAMS: [&Param; 5] = [&GENE_ID, &HGNC_ID, &GENE_NAME, &SYNONYM, &REGION];

/// At least one gene parameter.
pub const RULE: Rule = Rule::AtLeastOne(&PARAMS);

/// The genes collection of `org`.
pub fn collection<'a>(ctx: &Ctx<'a>, org: Organism) -> Option<&'a Collection> {
    ctx.coll(org.collection(GENES))
}

/// The parameters of a gene resolver: the plain ones, or another end's (`associated_*`).
pub struct GeneParams {
    /// Ensembl id.
    pub id: &'static Param,
    /// HGNC id.
    pub hgnc: &'static Param,
    /// Symbol (name cascade).
    pub name: &'static Param,
    /// Synonym.
    pub synonym: &'static Param,
    /// Overlapping region, when the resolver has one.
    pub region: Option<&'static Param>,
}

/// The plain gene parameters.
pub const PLAIN: GeneParams = GeneParams {
    id: &GENE_ID,
    hgnc: &HGNC_ID,
    name: &GENE_NAME,
    synonym: &SYNONYM,
    region: Some(&REGION),
};

/// Genes matching the gene parameters of `p`, as ordinals of [`collection`].
pub fn resolve(ctx: &Ctx<'_>, p: &Params, org: Organism) -> Vec<u64> {
    resolve_by(ctx, p, org, &PLAIN)
}

/// Genes matching the parameters `by` of `p`, as ordinals of [`collection`].
pub fn resolve_by(ctx: &Ctx<'_>, p: &Params, org: Organism, by: &GeneParams) -> Vec<u64> {
    let g = collection(ctx, org);
    let base = || {
        let mut f = Filter::over(g);
        if let Some(id) = p.str(by.id) {
            f.and(sets::keys(g, id));
        }
        if let Some(h) = p.hgnc_id(by.hgnc) {
            f.and(sets::exact(g, genes::m::hgnc, &h.stored()));
        }
        if let Some(s) = p.str(by.synonym) {
            f.and(sets::exact(g, genes::m::synonyms, s));
        }
        if let Some(r) = by.region.and_then(|r| p.region(r)) {
            f.and(sets::overlapping(g, r));
        }
        f
    };
    match (p.str(by.name), g) {
        (Some(name), Some(coll)) => cascade(coll, genes::m::name, name, NAME_TIERS, base).collect(),
        _ => base().collect(),
    }
}

/// `/genes` (an IGVF client path): genes by id, HGNC, Entrez, name, region, synonym, collection, study
/// set and type; every gene when nothing is given (as IGVF).
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/genes",
    section: "r18",
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
    run: |ctx, p| QUERY.run(ctx, p),
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

/// GENCODE gene biotypes (IGVF's enum).
pub const GENE_TYPES: &[&str] = &[
    "IG_C_gene",
    "IG_C_pseudogene",
    "IG_D_gene",
    "IG_J_gene",
    "IG_J_pseudogene",
    "IG_V_gene",
    "IG_V_pseudogene",
    "IG_pseudogene",
    "Mt_rRNA",
    "Mt_tRNA",
    "TEC",
    "TR_C_gene",
    "TR_D_gene",
    "TR_J_gene",
    "TR_J_pseudogene",
    "TR_V_gene",
    "TR_V_pseudogene",
    "artifact",
    "lncRNA",
    "miRNA",
    "misc_RNA",
    "processed_pseudogene",
    "protein_coding",
    "pseudogene",
    "rRNA",
    "rRNA_pseudogene",
    "ribozyme",
    "sRNA",
    "scRNA",
    "scaRNA",
    "snRNA",
    "snoRNA",
    "transcribed_processed_pseudogene",
    "transcribed_unitary_pseudogene",
    "transcribed_unprocessed_pseudogene",
    "translated_processed_pseudogene",
    "translated_unprocessed_pseudogene",
    "unitary_pseudogene",
    "unprocessed_pseudogene",
    "vault_RNA",
];

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

/// [`resolve`] as an anchor resolver over the request organism's genes.
pub fn anchor<'a>(ctx: &Ctx<'a>, g: Option<&'a Collection>, p: &Params) -> Filter<'a> {
    crate::api::edge::from_ords(g, resolve(ctx, p, p.organism))
}
