//! The endpoint table: every route with its parameters, rules, paging, organisms, response
//! shape, handler and examples. The router, the parameter checks, the OpenAPI document and the
//! landing page all read this one table.

pub mod coding;
pub mod genes;
pub mod proteins;
pub mod sets;
pub mod shapes;
pub mod transcripts;
pub mod variants;

use varcat_format::collection::{Collection, Collections};

use crate::error::ApiError;
use crate::params::{Accepts, Kind, Paging, Param, Params, Rule, HUMAN, HUMAN_MOUSE};
use crate::query::percent_decode;
use crate::shape::{Render, Shape};

/// A handler's answer: the JSON body.
pub type Reply = Result<Vec<u8>, ApiError>;

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
    /// Example queries that answer with data from the bundled sample catalog.
    pub examples: &'static [&'static str],
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

/// Every endpoint.
pub static ENDPOINTS: &[Endpoint] = &[
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
        examples: &["spdi=NC_000001.11:15000:A:G", "rsid=rs900004"],
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
