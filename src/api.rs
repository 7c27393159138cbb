//! The endpoint table: every route with its parameters, rules, paging, organisms, response
//! shape, handler and examples. The router, the parameter checks, the OpenAPI document and the
//! landing page all read this one table.

pub mod associations;
pub mod coding;
pub mod diseases;
pub mod elements;
pub mod genes;
pub mod motifs;
pub mod ontology;
pub mod phenotypes;
pub mod predictions;
pub mod proteins;
pub mod sets;
pub mod shapes;
pub mod transcripts;
pub mod variants;

use varcat_format::collection::{Collection, Collections};

use crate::engine::Filter;
use crate::error::ApiError;
use crate::params::{Accepts, Kind, Paging, Param, Params, Rule, HUMAN, HUMAN_MOUSE};
use crate::query::percent_decode;
use crate::shape::{Render, Shape};

/// A handler's answer: the JSON body and any extra response headers.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// JSON body.
    pub body: Vec<u8>,
    /// Extra headers (e.g. the mark of a capped answer).
    pub headers: Vec<(&'static str, String)>,
}

impl From<Vec<u8>> for Answer {
    fn from(body: Vec<u8>) -> Answer {
        Answer {
            body,
            headers: Vec::new(),
        }
    }
}

/// What a handler returns.
pub type Reply = Result<Answer, ApiError>;

/// What a handler reads.
pub struct Ctx<'a> {
    /// The catalog's collections.
    pub cat: &'a Collections,
}

impl<'a> Ctx<'a> {
    /// Collection `name` (None when the catalog has none: answers are then empty).
    pub fn coll(&self, name: &str) -> Option<&'a Collection> {
        self.cat.get(name)
    }

    /// A renderer that never expands references.
    pub fn render_plain(&self) -> Render<'a> {
        Render::new(self.cat, false)
    }

    /// The requested page of `f`'s records of `coll`, in `shape` (the usual handler answer).
    pub fn page(
        &self,
        p: &Params,
        coll: Option<&Collection>,
        f: &Filter<'_>,
        shape: &Shape,
    ) -> Reply {
        self.page_with(p, coll, f, |_, _| shape)
    }

    /// The requested page of `f`'s records of `coll`, each in the shape `select` picks.
    pub fn page_with<'s>(
        &self,
        p: &Params,
        coll: Option<&Collection>,
        f: &Filter<'_>,
        select: impl Fn(&Collection, u32) -> &'s Shape,
    ) -> Reply {
        Ok(self
            .render(p)
            .array_with(coll, &f.page(p.offset(), p.limit), select)
            .into())
    }

    /// A renderer honouring `verbose`.
    pub fn render(&self, p: &Params) -> Render<'a> {
        Render::new(self.cat, p.verbose)
    }
}

/// The response body's form.
#[derive(Clone, Copy, Debug)]
pub enum Body {
    /// A JSON array of records of a shape.
    Array(&'static Shape),
    /// One JSON object of a shape.
    Object(&'static Shape),
    /// A JSON array whose records each have one of these shapes.
    ArrayOf(&'static [&'static Shape]),
}

/// One endpoint.
pub struct Endpoint {
    /// Path under the base path; `{name}` marks a path parameter.
    pub path: &'static str,
    /// Section of the interface specification.
    pub section: &'static str,
    /// One-line description.
    pub summary: &'static str,
    /// Parameters, rules, paging, organisms.
    pub accepts: Accepts,
    /// Whether `verbose=true` changes the answer (it is accepted everywhere).
    pub verbose: bool,
    /// The handler.
    pub run: fn(&Ctx<'_>, &Params) -> Reply,
    /// Response form.
    pub body: Body,
    /// Examples that answer with data from the bundled sample catalog: a query string for
    /// `path`, or (starting with `/`) a whole path and query for endpoints with path parameters.
    pub examples: &'static [&'static str],
}

impl Endpoint {
    /// The examples as URLs below the base path.
    pub fn example_urls(&self) -> Vec<String> {
        self.examples
            .iter()
            .map(|e| {
                if e.starts_with('/') {
                    e.to_string()
                } else {
                    format!("{}?{e}", self.path)
                }
            })
            .collect()
    }
}

/// GENCODE transcript biotypes (4.8).
pub const TRANSCRIPT_TYPES: &[&str] = &[
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
    "non_stop_decay",
    "nonsense_mediated_decay",
    "processed_pseudogene",
    "processed_transcript",
    "protein_coding",
    "protein_coding_CDS_not_defined",
    "protein_coding_LoF",
    "pseudogene",
    "rRNA",
    "rRNA_pseudogene",
    "retained_intron",
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

const GENE_PARAMS: [Param; 5] = [
    Param::new(
        "gene_id",
        Kind::Id,
        "Ensembl gene id (ENSG…; a version suffix is ignored)",
    ),
    Param::new("hgnc_id", Kind::Hgnc, "HGNC id, HGNC:<n> or <n>"),
    Param::new(
        "gene_name",
        Kind::Text,
        "gene symbol: exact, else all tokens, else one typo",
    ),
    Param::new("synonym", Kind::Id, "gene synonym (exact)").aliases(&["alias"]),
    Param::new(
        "region",
        Kind::Region(None),
        "genes overlapping chr<name>:<start>-<end>",
    ),
];

const ID: [Param; 5] = variants::ID_PARAMS;

/// 4.4 score methods.
pub const SCORE_METHODS: &[&str] = &[
    "DUAL-IPA",
    "ESM-1v",
    "MutPred2",
    "SGE",
    "VAMP-seq",
    "Variant painting via fluorescence",
];

/// Amino acids (one-letter) and `*` for a stop codon.
pub const AMINO_ACIDS: &[&str] = &[
    "A", "C", "D", "E", "F", "G", "H", "I", "K", "L", "M", "N", "P", "Q", "R", "S", "T", "V", "W",
    "Y", "*",
];

const VARIANT_RULE: Rule =
    Rule::AtLeastOne(&["variant_id", "spdi", "hgvs", "rsid", "ca_id", "region"]);
const ID_RULE: Rule = Rule::AtLeastOne(&["variant_id", "spdi", "hgvs", "rsid", "ca_id"]);
const REGION_10KB: Param = Param::new(
    "region",
    Kind::Region(Some(10_000)),
    "variants in chr<name>:<start>-<end> (at most 10 kb)",
);
const FILESET: Param = Param::new(
    "files_fileset",
    Kind::Id,
    "file set accession (IGVFFI…, ENCFF…)",
);

const TERM_PATH: &str = "ontology term id, PREFIX_ID (e.g. UBERON_0003663)";

/// Every endpoint.
pub static ENDPOINTS: &[Endpoint] = &[
    Endpoint {
        path: "/genomic-elements/variants",
        section: "4.5",
        summary: "Variants associated with genomic elements (caQTLs)",
        accepts: Accepts {
            params: &[
                Param::new(
                    "region",
                    Kind::Region(None),
                    "elements overlapping chr<name>:<start>-<end>",
                ),
                Param::new(
                    "region_type",
                    Kind::Enum(&["accessible dna elements"]),
                    "element type",
                ),
                Param::new(
                    "biosample_term",
                    Kind::Id,
                    "ontology term id, e.g. EFO_0002067",
                ),
                Param::new(
                    "biological_context",
                    Kind::Text,
                    "exact, else prefix, else all tokens, else one typo",
                ),
                Param::new("method", Kind::Enum(&["caQTL"]), "method"),
                FILESET,
            ],
            rules: &[Rule::AtLeastOne(&[
                "region",
                "region_type",
                "method",
                "files_fileset",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 300,
            },
            organisms: HUMAN,
        },
        verbose: false,
        run: elements::elements_variants,
        body: Body::Array(&elements::ELEMENT_VARIANT),
        examples: &[
            "region=chr1:24000-26000",
            "method=caQTL&biological_context=hepg",
        ],
    },
    Endpoint {
        path: "/diseases/genes",
        section: "4.6",
        summary: "Genes associated with a disease (GenCC, Orphanet)",
        accepts: Accepts {
            params: &[
                Param::new(
                    "disease_id",
                    Kind::Id,
                    "disease ontology term id, e.g. MONDO_0008426",
                ),
                Param::new(
                    "disease_name",
                    Kind::Text,
                    "disease name: exact, else all tokens",
                ),
                Param::new("source", Kind::Enum(&["GenCC", "Orphanet"]), "data source"),
            ],
            rules: &[Rule::AtLeastOne(&["disease_id", "disease_name"])],
            paging: Paging::Paged {
                default: 25,
                max: 100,
            },
            organisms: HUMAN,
        },
        verbose: true,
        run: diseases::diseases_genes,
        body: Body::ArrayOf(diseases::DISEASE_GENE_SHAPES),
        examples: &[
            "disease_id=MONDO_9000001&verbose=true",
            "disease_name=test%20disease",
        ],
    },
    Endpoint {
        path: "/genomic-elements/biosamples",
        section: "4.11",
        summary: "Reporter-assay (MPRA) results of genomic elements",
        accepts: Accepts {
            params: &[
                Param::new(
                    "region",
                    Kind::Region(None),
                    "elements overlapping chr<name>:<start>-<end>",
                ),
                Param::new(
                    "region_type",
                    Kind::Enum(&[
                        "accessible dna elements",
                        "candidate cis regulatory element",
                        "tested elements",
                    ]),
                    "element type",
                ),
                FILESET,
                Param::new("method", Kind::Enum(&["MPRA"]), "method"),
                Param::new("source", Kind::Enum(&["ENCODE", "IGVF"]), "data source"),
            ],
            rules: &[Rule::AtLeastOne(&[
                "region",
                "region_type",
                "files_fileset",
                "method",
                "source",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 50,
            },
            organisms: HUMAN,
        },
        verbose: true,
        run: elements::elements_biosamples,
        body: Body::Array(&elements::ELEMENT_BIOSAMPLE),
        examples: &[
            "region=chr1:10000-30000&verbose=true",
            "region_type=tested%20elements",
        ],
    },
    Endpoint {
        path: "/pathways",
        section: "4.16",
        summary: "Reactome pathways by id, name, alias, disease and GO process",
        accepts: Accepts {
            params: &[
                Param::new("id", Kind::Id, "pathway id, e.g. R-HSA-446203"),
                Param::new(
                    "name",
                    Kind::Text,
                    "name: exact, else all tokens, else one typo",
                ),
                Param::new(
                    "name_aliases",
                    Kind::Text,
                    "alias: exact, else all tokens, else one typo",
                ),
                Param::new("is_in_disease", Kind::Bool, "disease pathways"),
                Param::new("is_top_level_pathway", Kind::Bool, "top-level pathways"),
                Param::new(
                    "disease_ontology_terms",
                    Kind::Id,
                    "disease term id, e.g. MONDO_0009861",
                ),
                Param::new(
                    "go_biological_process",
                    Kind::Id,
                    "GO term id, e.g. GO_0006486",
                )
                .aliases(&["biological_process"]),
            ],
            rules: &[],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN,
        },
        verbose: false,
        run: diseases::pathways,
        body: Body::Array(&diseases::PATHWAY),
        examples: &[
            "name=Disease",
            "name=glycosilation",
            "is_top_level_pathway=true",
        ],
    },
    Endpoint {
        path: "/ontology-terms/{ontology_term_id}/children",
        section: "4.20",
        summary: "Terms that are a subclass of an ontology term",
        accepts: Accepts {
            params: &[Param::new("ontology_term_id", Kind::TermId, TERM_PATH)],
            rules: &[],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN,
        },
        verbose: false,
        run: ontology::children,
        body: Body::Array(&ontology::CHILD),
        examples: &[
            "/ontology-terms/VCT_0000002/children",
            "/ontology-terms/VCT_0000003/children?limit=2&page=1",
        ],
    },
    Endpoint {
        path: "/motifs/proteins",
        section: "4.21",
        summary: "Proteins and complexes that use a motif",
        accepts: Accepts {
            params: &[
                Param::new(
                    "tf_name",
                    Kind::Id,
                    "transcription factor, e.g. ATF1_HUMAN (HOCOMOCO) or AHR (SEMpl)",
                ),
                Param::new(
                    "source",
                    Kind::Enum(&["IGVF", "HOCOMOCOv11"]),
                    "motif source",
                ),
                Param::new("method", Kind::Enum(&["HOCOMOCO", "SEMpl"]), "method"),
                FILESET,
            ],
            rules: &[],
            paging: Paging::Paged {
                default: 25,
                max: 1000,
            },
            organisms: HUMAN,
        },
        verbose: true,
        run: motifs::motifs_proteins,
        body: Body::Array(&motifs::MOTIF_PROTEIN),
        examples: &["tf_name=TSTA1&verbose=true", "source=HOCOMOCOv11"],
    },
    Endpoint {
        path: "/ontology-terms/{ontology_term_id_start}/transitive-closure/{ontology_term_id_end}",
        section: "4.22",
        summary: "All shortest paths between two ontology terms, over every relation",
        accepts: Accepts {
            params: &[
                Param::new("ontology_term_id_start", Kind::TermId, TERM_PATH),
                Param::new("ontology_term_id_end", Kind::TermId, TERM_PATH),
            ],
            rules: &[],
            paging: Paging::Ignored,
            organisms: HUMAN,
        },
        verbose: false,
        run: ontology::transitive_closure,
        body: Body::Object(&ontology::CLOSURE),
        examples: &[
            "/ontology-terms/VCT_0000301/transitive-closure/VCT_0000002",
            "/ontology-terms/VCT_0000310/transitive-closure/VCT_0000001",
        ],
    },
    Endpoint {
        path: "/genes/variants",
        section: "4.1",
        summary: "Variants associated with genes: QTLs, screens, variant-effect assays",
        accepts: Accepts {
            params: &[
                GENE_PARAMS[0],
                GENE_PARAMS[1],
                GENE_PARAMS[2],
                GENE_PARAMS[3],
                GENE_PARAMS[4],
                Param::new(
                    "neg_log10_pvalue",
                    Kind::Threshold,
                    "-log10 p-value: gt:, gte:, lt:, lte:<n> or <n>",
                ),
                Param::new("effect_size", Kind::Threshold, "effect size threshold"),
                Param::new(
                    "posterior_inclusion_probability",
                    Kind::Threshold,
                    "fine-mapping PIP threshold",
                ),
                Param::new("log2FC", Kind::Threshold, "log2 fold change threshold"),
                Param::new(
                    "significant",
                    Kind::Bool,
                    "significant rows only (true) or not significant (false)",
                ),
                Param::new(
                    "biosample_term",
                    Kind::Id,
                    "ontology term id, e.g. EFO_0002784",
                ),
                Param::new(
                    "biological_context",
                    Kind::Text,
                    "exact, else prefix, else all tokens, else one typo",
                ),
                Param::new(
                    "label",
                    Kind::Enum(&["eQTL", "spliceQTL", "variant effect on gene expression"]),
                    "label",
                ),
                Param::new(
                    "method",
                    Kind::Enum(&["CRISPR screen", "Variant-EFFECTS", "eQTL", "spliceQTL"]),
                    "method",
                ),
                FILESET,
                Param::new(
                    "source",
                    Kind::Enum(&["AFGR", "EBI", "IGVF"]),
                    "data source",
                ),
                Param::new(
                    "name",
                    Kind::Enum(&["expression modulated by", "splicing modulated by"]),
                    "relation",
                ),
            ],
            rules: &[Rule::AtLeastOne(&[
                "gene_id",
                "hgnc_id",
                "gene_name",
                "synonym",
                "region",
                "method",
                "files_fileset",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN,
        },
        verbose: true,
        run: associations::genes_variants,
        body: Body::Array(&associations::GENE_VARIANT),
        examples: &[
            "gene_name=TSTA1&verbose=true",
            "method=eQTL&neg_log10_pvalue=gte:3",
            "gene_id=ENSG90000000002&biological_context=naive",
        ],
    },
    Endpoint {
        path: "/variants/phenotypes",
        section: "4.3",
        summary: "Phenotypes associated with variants: GWAS, saturation editing, predictions",
        accepts: Accepts {
            params: &[
                ID[0],
                ID[1],
                ID[2],
                ID[3],
                ID[4],
                Param::new(
                    "region",
                    Kind::Region(None),
                    "variants in chr<name>:<start>-<end>",
                ),
                Param::new(
                    "phenotype_id",
                    Kind::Id,
                    "phenotype ontology term id, e.g. EFO_0000001",
                ),
                Param::new(
                    "neg_log10_pvalue",
                    Kind::Threshold,
                    "-log10 p-value threshold",
                ),
                Param::new(
                    "method",
                    Kind::Enum(&["CRISPR screen", "GWAS", "SGE", "cV2F"]),
                    "method",
                ),
                Param::new(
                    "label",
                    Kind::Enum(&[
                        "GWAS",
                        "predicted variant effect on phenotype",
                        "protein variant effect",
                        "variant effect on phenotype",
                    ]),
                    "label",
                ),
                Param::new(
                    "class",
                    Kind::Enum(&["observed data", "prediction"]),
                    "class",
                ),
                FILESET,
            ],
            rules: &[Rule::AtLeastOne(&[
                "variant_id",
                "spdi",
                "hgvs",
                "rsid",
                "ca_id",
                "region",
                "method",
                "files_fileset",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 100,
            },
            organisms: HUMAN,
        },
        verbose: true,
        run: phenotypes::variants_phenotypes,
        body: Body::ArrayOf(phenotypes::PHENO_SHAPES),
        examples: &[
            "rsid=rs900001&verbose=true",
            "method=GWAS&neg_log10_pvalue=gt:7",
        ],
    },
    Endpoint {
        path: "/variants/drugs",
        section: "4.7",
        summary: "Drugs whose response is associated with variants (PharmGKB)",
        accepts: Accepts {
            params: &[
                ID[0],
                ID[1],
                ID[2],
                ID[3],
                ID[4],
                REGION_10KB,
                Param::new(
                    "phenotype_categories",
                    Kind::Enum(&[
                        "Dosage",
                        "Efficacy",
                        "Metabolism/PK",
                        "Other",
                        "PD",
                        "Toxicity",
                    ]),
                    "phenotype category",
                ),
                Param::new("pmid", Kind::Id, "PubMed id"),
            ],
            rules: &[VARIANT_RULE],
            paging: Paging::Paged {
                default: 25,
                max: 100,
            },
            organisms: HUMAN,
        },
        verbose: true,
        run: phenotypes::variants_drugs,
        body: Body::Array(&phenotypes::VARIANT_DRUG),
        examples: &[
            "rsid=rs900001&verbose=true",
            "region=chr1:15000-16000&phenotype_categories=Dosage",
        ],
    },
    Endpoint {
        path: "/variants/predictions",
        section: "4.9",
        summary: "Genes predicted to be regulated by elements containing a variant",
        accepts: Accepts {
            params: &[
                ID[0],
                ID[1],
                ID[2],
                ID[3],
                ID[4],
                FILESET.aliases(&["files_filesets"]),
                Param::new(
                    "method",
                    Kind::Enum(&["scE2G", "ENCODE-rE2G", "caQTL"]),
                    "prediction method (default: scE2G and ENCODE-rE2G)",
                ),
            ],
            rules: &[Rule::AtLeastOne(&[
                "variant_id",
                "spdi",
                "hgvs",
                "rsid",
                "ca_id",
                "files_fileset",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 300,
            },
            organisms: HUMAN_MOUSE,
        },
        verbose: false,
        run: predictions::predictions,
        body: Body::Array(&predictions::PREDICTION),
        examples: &[
            "rsid=rs900004",
            "files_fileset=IGVFFI9000SCE",
            "hgvs=NC_000001.11:g.15001A%3EG",
        ],
    },
    Endpoint {
        path: "/variants/variant-ld/summary",
        section: "4.12",
        summary:
            "Variants in linkage disequilibrium with a variant, with their QTLs and TF binding",
        accepts: Accepts {
            params: &[ID[0], ID[1], ID[2], ID[3], ID[4]],
            rules: &[ID_RULE],
            paging: Paging::Paged {
                default: 15,
                max: 100,
            },
            organisms: HUMAN_MOUSE,
        },
        verbose: false,
        run: predictions::ld_summary,
        body: Body::Array(&predictions::LD_SUMMARY),
        examples: &[
            "rsid=rs900001",
            "spdi=NC_000001.11:15000:A:T",
            "ca_id=CA800001",
        ],
    },
    Endpoint {
        path: "/variants/diseases",
        section: "4.13",
        summary: "Diseases associated with variants (ClinGen)",
        accepts: Accepts {
            params: &[
                ID[0],
                ID[1],
                ID[2],
                ID[3],
                ID[4],
                REGION_10KB,
                Param::new(
                    "chr",
                    Kind::Id,
                    "only variants on this chromosome, e.g. chr1",
                ),
                Param::new("pmid", Kind::Id, "PubMed id (or its URL)"),
                Param::new(
                    "assertion",
                    Kind::Enum(&[
                        "Benign",
                        "Likely Benign",
                        "Likely Pathogenic",
                        "Pathogenic",
                        "Uncertain Significance",
                    ]),
                    "clinical assertion",
                ),
            ],
            rules: &[VARIANT_RULE],
            paging: Paging::Paged {
                default: 25,
                max: 100,
            },
            organisms: HUMAN,
        },
        verbose: true,
        run: phenotypes::variants_diseases,
        body: Body::Array(&phenotypes::VARIANT_DISEASE),
        examples: &[
            "rsid=rs900001&verbose=true",
            "region=chr1:20000-30000&assertion=Benign",
        ],
    },
    Endpoint {
        path: "/genes-proteins/variants",
        section: "4.17",
        summary: "Variants associated with the genes and proteins a name or id designates",
        accepts: Accepts {
            params: &[Param::new(
                "query",
                Kind::Text,
                "gene or protein name or id (exact)",
            )],
            rules: &[Rule::Required("query")],
            paging: Paging::Paged {
                default: 25,
                max: 100,
            },
            organisms: HUMAN,
        },
        verbose: false,
        run: associations::genes_proteins_variants,
        body: Body::Array(&associations::GENES_PROTEINS_VARIANT),
        examples: &["query=TSTA1", "query=ENSP90000000001"],
    },
    Endpoint {
        path: "/variants/genes/summary",
        section: "4.19",
        summary: "Expression and splicing QTLs of a variant",
        accepts: Accepts {
            params: &[ID[0], ID[1], ID[2], ID[3], ID[4], FILESET],
            rules: &[ID_RULE],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN_MOUSE,
        },
        verbose: false,
        run: associations::genes_summary,
        body: Body::Array(&associations::QTL_SUMMARY),
        examples: &[
            "rsid=rs900001",
            "variant_id=NC_000001.11:25000:C:T",
            "hgvs=NC_000001.11:g.15001A%3EG",
        ],
    },
    Endpoint {
        path: "/genes/coding-variants/scores",
        section: "4.4",
        summary: "Scores of every protein change of a gene, with the variants that cause it",
        accepts: Accepts {
            params: &[
                GENE_PARAMS[0],
                GENE_PARAMS[1],
                GENE_PARAMS[2],
                GENE_PARAMS[3],
                GENE_PARAMS[4],
                Param::new(
                    "method",
                    Kind::Enum(SCORE_METHODS),
                    "only coding variants scored by this method, and only those scores",
                ),
                Param::new(
                    "files_fileset",
                    Kind::Id,
                    "only scores from this file set (IGVFFI…)",
                ),
            ],
            rules: &[Rule::AtLeastOne(&[
                "gene_id",
                "hgnc_id",
                "gene_name",
                "synonym",
                "region",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN,
        },
        verbose: false,
        run: coding::gene_coding_scores,
        body: Body::Array(&coding::GENE_CODING_SCORES),
        examples: &["gene_name=TSTA1", "gene_id=ENSG90000000001&method=ESM-1v"],
    },
    Endpoint {
        path: "/variants/freq",
        section: "4.2",
        summary: "Variants by identifier or region, filtered by allele frequency",
        accepts: Accepts {
            params: &[
                Param::new(
                    "source",
                    Kind::Enum(varcat_indexer::schema::AF_SOURCES),
                    "allele-frequency source",
                ),
                ID[0],
                ID[1],
                ID[2],
                ID[3],
                ID[4],
                Param::new(
                    "region",
                    Kind::Region(Some(10_000)),
                    "variants in chr<name>:<start>-<end> (at most 10 kb)",
                ),
                Param::new(
                    "GENCODE_category",
                    Kind::Enum(&["coding", "noncoding"]),
                    "GENCODE category",
                ),
                Param::new(
                    "minimum_af",
                    Kind::Number,
                    "lowest frequency (inclusive, default 0)",
                ),
                Param::new(
                    "maximum_af",
                    Kind::Number,
                    "highest frequency (inclusive, default 1)",
                ),
            ],
            rules: &[
                Rule::Required("source"),
                Rule::AtLeastOne(&["variant_id", "spdi", "hgvs", "rsid", "ca_id", "region"]),
            ],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN,
        },
        verbose: false,
        run: variants::freq,
        body: Body::Array(&variants::FREQUENCY),
        examples: &[
            "source=bravo_af&region=chr20:9564500-9574500&minimum_af=0.0001",
            "source=gnomad_af_total&rsid=rs900002",
        ],
    },
    Endpoint {
        path: "/variants/coding-variants",
        section: "4.14",
        summary: "Coding consequences and scores of a variant",
        accepts: Accepts {
            params: &[ID[0], ID[1], ID[2], ID[3], ID[4]],
            rules: &[Rule::AtLeastOne(&[
                "variant_id",
                "spdi",
                "hgvs",
                "rsid",
                "ca_id",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN,
        },
        verbose: false,
        run: coding::variants_coding_variants,
        body: Body::Array(&coding::CODING_VARIANT),
        examples: &[
            "spdi=NC_000001.11:15000:A:G",
            "rsid=rs900004",
            "ca_id=CA800003",
        ],
    },
    Endpoint {
        path: "/coding-variants/variants",
        section: "4.15",
        summary: "Variants that cause the given protein changes",
        accepts: Accepts {
            params: &[
                Param::new(
                    "coding_variant_name",
                    Kind::Id,
                    "e.g. SRY_ENST00000383070_p.A135S_c.403G>T",
                ),
                Param::new("hgvsp", Kind::Id, "protein change, e.g. p.A135S"),
                Param::new("gene_name", Kind::Id, "gene symbol (exact)"),
                Param::new("protein_id", Kind::Id, "Ensembl protein id"),
                Param::new(
                    "uniprot_name",
                    Kind::Id,
                    "UniProt entry name, e.g. SRY_HUMAN",
                ),
                Param::new("transcript_id", Kind::Id, "Ensembl transcript id"),
                Param::new("amino_acid_position", Kind::Int, "amino-acid position"),
                Param::new(
                    "alt_amino_acid",
                    Kind::Enum(AMINO_ACIDS),
                    "alternate amino acid, or * for a stop",
                ),
            ],
            rules: &[Rule::AtLeastOne(&[
                "coding_variant_name",
                "hgvsp",
                "protein_id",
                "uniprot_name",
                "gene_name",
                "transcript_id",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN,
        },
        verbose: false,
        run: coding::coding_variants_variants,
        body: Body::Array(&variants::SHORT_VARIANT),
        examples: &[
            "gene_name=TSTA1&amino_acid_position=1",
            "coding_variant_name=TSTA1_ENST90000000001_p.M1T_c.2T>C",
        ],
    },
    Endpoint {
        path: "/variants/nearest-genes",
        section: "4.18",
        summary: "Genes overlapping a region, else the nearest gene on each side",
        accepts: Accepts {
            params: &[Param::new(
                "region",
                Kind::Region(Some(10_000)),
                "chr<name>:<start>-<end> (at most 10 kb)",
            )],
            rules: &[Rule::Required("region")],
            paging: Paging::Ignored,
            organisms: HUMAN,
        },
        verbose: false,
        run: variants::nearest_genes,
        body: Body::Array(&shapes::GENE),
        examples: &["region=chr20:9564500-9564600", "region=chr1:25000-25010"],
    },
    Endpoint {
        path: "/variants/region-summary",
        section: "4.25",
        summary: "Number of variants in a region and of their associations per method",
        accepts: Accepts {
            params: &[Param::new(
                "region",
                Kind::Region(Some(10_000)),
                "chr<name>:<start>-<end> (at most 10 kb)",
            )],
            rules: &[Rule::Required("region")],
            paging: Paging::Ignored,
            organisms: HUMAN,
        },
        verbose: false,
        run: variants::region_summary,
        body: Body::Object(&variants::REGION_SUMMARY),
        examples: &["region=chr1:15000-25000", "region=chr20:9564500-9574500"],
    },
    Endpoint {
        path: "/transcripts/genes",
        section: "4.8",
        summary: "Genes that transcribe the given transcripts",
        accepts: Accepts {
            params: &[
                Param::new("transcript_id", Kind::Id, "Ensembl transcript id (ENST…)"),
                Param::new(
                    "region",
                    Kind::Region(None),
                    "transcripts overlapping chr<name>:<start>-<end>",
                ),
                Param::new(
                    "transcript_type",
                    Kind::Enum(TRANSCRIPT_TYPES),
                    "GENCODE transcript biotype",
                ),
            ],
            rules: &[Rule::AtLeastOne(&[
                "transcript_id",
                "region",
                "transcript_type",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 100,
            },
            organisms: HUMAN_MOUSE,
        },
        verbose: true,
        run: transcripts::transcripts_genes,
        body: Body::Array(&transcripts::TRANSCRIPT_GENE),
        examples: &[
            "transcript_id=ENST00000353224",
            "region=chr20:9537369-9839076&verbose=true",
            "transcript_type=protein_coding&organism=Mus%20musculus",
        ],
    },
    Endpoint {
        path: "/genes-structure",
        section: "4.10",
        summary: "Exons, introns, CDS, UTRs and codons of genes, transcripts or proteins",
        accepts: Accepts {
            params: &[
                Param::new("gene_id", Kind::Id, "Ensembl gene id"),
                Param::new("gene_name", Kind::Id, "gene symbol (exact)"),
                Param::new("transcript_id", Kind::Id, "Ensembl transcript id"),
                Param::new(
                    "transcript_name",
                    Kind::Id,
                    "transcript name, e.g. PAK5-201",
                ),
                Param::new(
                    "protein_id",
                    Kind::Id,
                    "Ensembl protein id (with or without version) or UniProt accession",
                ),
                Param::new("protein_name", Kind::Id, "protein name (exact)"),
                Param::new(
                    "region",
                    Kind::Region(None),
                    "features overlapping chr<name>:<start>-<end>",
                ),
                Param::new(
                    "type",
                    Kind::Enum(&["CDS", "UTR", "exon", "intron", "start_codon", "stop_codon"]),
                    "feature type",
                ),
            ],
            rules: &[Rule::AtLeastOne(&[
                "gene_id",
                "gene_name",
                "transcript_id",
                "transcript_name",
                "protein_id",
                "protein_name",
                "region",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 500,
            },
            organisms: HUMAN_MOUSE,
        },
        verbose: false,
        run: transcripts::genes_structure,
        body: Body::Array(&transcripts::GENE_STRUCTURE),
        examples: &[
            "gene_name=PAK5&type=CDS",
            "protein_id=ENSP00000322957&type=exon",
            "gene_name=Rp1&organism=Mus%20musculus",
        ],
    },
    Endpoint {
        path: "/proteins/genes",
        section: "4.23",
        summary: "Genes coding for the given proteins",
        accepts: Accepts {
            params: &[
                Param::new(
                    "protein_id",
                    Kind::Id,
                    "Ensembl protein id (with or without version) or UniProt accession",
                ),
                Param::new("protein_name", Kind::Id, "protein name (exact)"),
                Param::new(
                    "uniprot_name",
                    Kind::Id,
                    "UniProt entry name, e.g. PAK5_HUMAN",
                ),
                Param::new("uniprot_full_name", Kind::Id, "UniProt full name"),
                Param::new("dbxrefs", Kind::Id, "a cross-reference id, e.g. HGNC:15916"),
            ],
            rules: &[],
            paging: Paging::Paged {
                default: 25,
                max: 100,
            },
            organisms: HUMAN_MOUSE,
        },
        verbose: true,
        run: proteins::proteins_genes,
        body: Body::Array(&proteins::PROTEIN_GENE),
        examples: &[
            "protein_id=ENSP00000322957",
            "uniprot_name=PAK5_HUMAN&verbose=true",
            "protein_name=Xkr4&organism=Mus%20musculus",
        ],
    },
    Endpoint {
        path: "/genes/proteins",
        section: "4.24",
        summary: "Proteins coded by the given genes",
        accepts: Accepts {
            params: &GENE_PARAMS,
            rules: &[Rule::AtLeastOne(&[
                "gene_id",
                "hgnc_id",
                "gene_name",
                "synonym",
                "region",
            ])],
            paging: Paging::Paged {
                default: 25,
                max: 100,
            },
            organisms: HUMAN_MOUSE,
        },
        verbose: true,
        run: proteins::genes_proteins,
        body: Body::Array(&proteins::GENE_PROTEIN),
        examples: &[
            "gene_id=ENSG00000101349",
            "gene_name=snap25&verbose=true",
            "hgnc_id=15916",
        ],
    },
];

/// A matched endpoint with its decoded path parameters.
pub type Routed = (&'static Endpoint, Vec<(&'static str, String)>);

/// Finds the endpoint of `path` (below the base path): literal segments compare ASCII
/// case-insensitively (as trpc-openapi does), one trailing `/` is ignored, and path parameters
/// are percent-decoded once.
pub fn route(path: &str) -> Option<Result<Routed, ApiError>> {
    let path = path
        .strip_suffix('/')
        .filter(|p| !p.is_empty())
        .unwrap_or(path);
    let segs: Vec<&str> = path.split('/').collect();
    'next: for ep in ENDPOINTS {
        let tmpl: Vec<&'static str> = ep.path.split('/').collect();
        if tmpl.len() != segs.len() {
            continue;
        }
        let mut params = Vec::new();
        for (t, s) in tmpl.iter().zip(&segs) {
            if let Some(name) = t.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
                if s.is_empty() {
                    continue 'next;
                }
                match percent_decode(s, false) {
                    Ok(v) => params.push((name, v)),
                    Err(why) => {
                        return Some(Err(ApiError::param(
                            name,
                            format!("{name} is {why}: {s:?}"),
                        )))
                    }
                }
            } else if !t.eq_ignore_ascii_case(s) {
                continue 'next;
            }
        }
        return Some(Ok((ep, params)));
    }
    None
}
