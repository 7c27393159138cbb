//! Synthetic catalogs of any size: a deterministic (seeded) generator that writes a collection
//! directory in the IGVF document shapes, sized by a number of variants.
//!
//! Everything scales with the genome span the variants occupy, at fixed densities, so a query
//! of a given kind meets the same number of records whatever the catalog size: one variant per
//! [`MEAN_GAP`] bp, one gene per [`GENE_PITCH`] bp (three transcripts, two proteins, ~40
//! structure rows, three protein–protein pairs, five GO annotations, ~0.83 gene–gene pairs and
//! one or two pathway memberships each), one genomic element per [`ELEMENT_PITCH`] bp (one in
//! ten a tested element with a screened phenotype; half of those a perturbed promoter with
//! Perturb-seq edges to up to three genes and Multiome edges to the next two elements).
//! Associations hang off
//! variants at the per-variant rates of [`RATES`] (written down in BENCHMARKS.md). Documents
//! carry the full field sets of real data (variants with their FAVOR `annotations`), and every
//! `"<collection>/<key>"` reference resolves, `files_filesets` included.
//!
//! Variants are spread evenly over chr1–chr22 and chrX; when the span exceeds a chromosome's
//! real length positions simply run on (the catalog does not check them against a genome).
//! The output is split into [`PARTS`] part files per chromosome-bound collection
//! (`variants.p0.jsonl` …) so that parts can be written in parallel; the bytes do not depend
//! on the number of threads. [`Plan`] computes identifiers (rsids, genes, regions, ontology
//! terms) without generating anything, for benchmarks that need real query targets.

mod coding;
mod drugs;
mod elements;
mod filesets;
mod gencode;
mod genes;
mod interactions;
pub mod json;
mod ld;
mod motifs;
mod mouse;
mod ontology;
mod pathways;
mod perturbation;
mod qtl;
mod screens;
mod sink;
mod studies;
mod traits;
mod variants;
mod write;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

pub use write::generate;

/// Mean distance between consecutive variants on a chromosome (bp).
pub const MEAN_GAP: u64 = 250;
/// One gene per this many bp.
pub const GENE_PITCH: u64 = 150_000;
/// One genomic element per this many bp.
pub const ELEMENT_PITCH: u64 = 3_000;
/// Where genes and variants start on each chromosome.
pub const ORIGIN: u64 = 20_000;
/// Part files per chromosome-bound collection.
pub const PARTS: usize = 4;
/// One gene in this many is a transcription factor with a motif.
pub const TF_STRIDE: u64 = 8;
/// One variant in this many comes from a variant-effect screen (no rsid, no annotations).
pub const SCREEN_STRIDE: u64 = 100;
/// The common traits: term `COMMON_TRAIT` of each GWAS ontology (EFO, HP) takes one GWAS hit in
/// [`COMMON_TRAIT_SHARE`] of its ontology, as a broad phenotype (height, BMI) does in real data,
/// so `/phenotypes/variants` has a heavy query to measure.
pub const COMMON_TRAIT: u64 = 2;
/// One GWAS hit in this many goes to its ontology's common trait.
pub const COMMON_TRAIT_SHARE: u64 = 4;

/// One gene in this many, when at least [`DENSE_CODING_MIN_LEN`] bp long, has a coding variant
/// for every SNV inside it (dbNSFP lists every possible change; elsewhere 15 % of SNVs), so
/// `/genes/coding-variants/all-scores` has large genes to measure.
pub const DENSE_CODING_STRIDE: u64 = 8;
/// See [`DENSE_CODING_STRIDE`].
pub const DENSE_CODING_MIN_LEN: u64 = 60_000;

/// Whether every SNV inside gene `g` is a coding variant (see [`DENSE_CODING_STRIDE`]).
pub fn dense_coding(g: &Gene) -> bool {
    g.gg.is_multiple_of(DENSE_CODING_STRIDE) && g.end - g.start >= DENSE_CODING_MIN_LEN
}

/// Associations per variant (edge collection, rate), as measured on the 1M-variant catalog
/// (seed 1); they do not depend on the size.
pub const RATES: &[(&str, f64)] = &[
    ("variants_genes (eQTL/sQTL, AFGR and EBI; screens)", 0.506),
    ("variants_genomic_elements (caQTL)", 0.300),
    (
        "variants_proteins (pQTL, allele-specific binding, SEMVAR)",
        0.150,
    ),
    (
        "variants_variants (TopLD, 4 draws among the 32 previous variants)",
        3.815,
    ),
    ("variants_phenotypes (GWAS)", 0.0196),
    ("variants_biosamples (MPRA/STARR-seq)", 0.0496),
    ("variants_drugs (PharmGKB)", 0.0029),
    (
        "variants_diseases (+ variants_diseases_genes, ClinGen)",
        0.0050,
    ),
    (
        "coding_variants (+ variants_coding_variants; 15% of SNVs inside a gene, all in dense genes)",
        0.0668,
    ),
    (
        "coding_variants_phenotypes (two per coding variant)",
        0.1335,
    ),
];

/// Chromosomes and their GRCh38 RefSeq accessions.
pub const CHROMS: [(&str, &str); 23] = [
    ("chr1", "NC_000001.11"),
    ("chr2", "NC_000002.12"),
    ("chr3", "NC_000003.12"),
    ("chr4", "NC_000004.12"),
    ("chr5", "NC_000005.10"),
    ("chr6", "NC_000006.12"),
    ("chr7", "NC_000007.14"),
    ("chr8", "NC_000008.11"),
    ("chr9", "NC_000009.12"),
    ("chr10", "NC_000010.11"),
    ("chr11", "NC_000011.10"),
    ("chr12", "NC_000012.12"),
    ("chr13", "NC_000013.11"),
    ("chr14", "NC_000014.9"),
    ("chr15", "NC_000015.10"),
    ("chr16", "NC_000016.10"),
    ("chr17", "NC_000017.11"),
    ("chr18", "NC_000018.10"),
    ("chr19", "NC_000019.10"),
    ("chr20", "NC_000020.11"),
    ("chr21", "NC_000021.9"),
    ("chr22", "NC_000022.11"),
    ("chrX", "NC_000023.11"),
];

/// Ontologies of the synthetic term forest (one 4-ary tree each).
pub const ONTOLOGIES: [&str; 8] = ["EFO", "CL", "UBERON", "GO", "MONDO", "OBA", "BAO", "HP"];

const GENE_PREFIXES: [&str; 26] = [
    "ZNF", "SLC", "KLHL", "TMEM", "CCDC", "FAM", "ANKRD", "LRRC", "RBM", "WDR", "PRDM", "ADAM",
    "ARID", "BTBD", "CDK", "DNAJC", "EIF", "FBXO", "GPR", "HOXA", "IFT", "KIF", "MYO", "NUP",
    "PCDH", "RAB",
];

/// LD draws per variant by default: each draw picks one of the 32 previous variants and
/// repeats are skipped, so the expected rows per variant are 32·(1 − (31/32)^draws): 3.8 at 4.
pub const LD_DRAWS: u32 = 4;

/// Expected `variants_variants` rows per variant (away from a chromosome's first 32 variants)
/// when each variant makes `draws` LD draws: 4 → 3.8, 12 → 10.1.
pub fn ld_rows_per_variant(draws: u32) -> f64 {
    32.0 * (1.0 - (31.0f64 / 32.0).powi(draws as i32))
}

/// Generator options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Number of human variants.
    pub variants: u64,
    /// Seed: the same seed and size give the same bytes.
    pub seed: u64,
    /// Output directory (created).
    pub out: PathBuf,
    /// Write `.jsonl.gz` instead of `.jsonl`.
    pub gz: bool,
    /// Worker threads (does not change the output).
    pub threads: usize,
    /// LD draws per variant ([`LD_DRAWS`] by default; see [`ld_rows_per_variant`]), to size
    /// the LD table alone (to size the LD table alone). Another value changes every later random draw
    /// of the chromosome, so the other collections differ too.
    pub ld_draws: u32,
}

impl Options {
    /// The default options for `variants` variants into `out`.
    pub fn new(variants: u64, out: &Path) -> Options {
        Options {
            variants,
            seed: 1,
            out: out.to_path_buf(),
            gz: false,
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            ld_draws: LD_DRAWS,
        }
    }
}

/// What was written: documents and uncompressed bytes per collection, files.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Documents per collection.
    pub docs: BTreeMap<String, u64>,
    /// Uncompressed JSON Lines bytes per collection.
    pub bytes: BTreeMap<String, u64>,
    /// Bytes on disk (compressed when `gz`).
    pub disk_bytes: u64,
}

impl Summary {
    /// Total documents.
    pub fn total_docs(&self) -> u64 {
        self.docs.values().sum()
    }
    /// Total uncompressed bytes.
    pub fn total_bytes(&self) -> u64 {
        self.bytes.values().sum()
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (c, n) in &self.docs {
            writeln!(
                f,
                "  {c:<34} {n:>12} documents {:>14} bytes",
                self.bytes.get(c).copied().unwrap_or(0)
            )?;
        }
        write!(
            f,
            "  {:<34} {:>12} documents {:>14} bytes ({} on disk)",
            "total",
            self.total_docs(),
            self.total_bytes(),
            self.disk_bytes
        )
    }
}

/// One chromosome's share of the catalog.
#[derive(Clone, Debug)]
pub struct Chrom {
    /// Index into [`CHROMS`].
    pub index: usize,
    /// `chr1` …
    pub name: &'static str,
    /// RefSeq accession.
    pub acc: &'static str,
    /// Global index of its first variant.
    pub first_variant: u64,
    /// Variants on it.
    pub variants: u64,
    /// Expected end of its variants (genes and elements are laid out up to here).
    pub span: u64,
    /// Global index of its first gene.
    pub first_gene: u64,
    /// Genes on it.
    pub genes: u64,
    /// Genomic elements on it.
    pub elements: u64,
}

/// A gene as laid out by the plan.
#[derive(Clone, Debug)]
pub struct Gene {
    /// Global gene index.
    pub gg: u64,
    /// Start (0-based).
    pub start: u64,
    /// End (exclusive).
    pub end: u64,
    /// `+` or `-`.
    pub strand: &'static str,
}

/// A genomic element as laid out by the plan.
#[derive(Clone, Debug)]
pub struct Element {
    /// Start.
    pub start: u64,
    /// End.
    pub end: u64,
    /// 0: cCRE, 1: accessible DNA element (caQTL), 2: tested element (CRISPR/MPRA).
    pub kind: u8,
    /// `_key`.
    pub key: String,
}

/// The layout of a synthetic catalog, computed from (variants, seed) alone.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Human variants.
    pub variants: u64,
    /// Seed.
    pub seed: u64,
    /// Per chromosome.
    pub chroms: Vec<Chrom>,
    /// Total genes.
    pub genes: u64,
    /// Terms per ontology.
    pub terms: u64,
}

/// SplitMix64 finaliser: a good 64-bit mix.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A hash of several numbers.
pub fn hash(parts: &[u64]) -> u64 {
    parts.iter().fold(0x243f_6a88_85a3_08d3, |h, &p| mix(h ^ p))
}

/// A small deterministic random number generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(mix(seed))
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
    /// One element of `s`.
    pub fn pick<'a, T>(&mut self, s: &'a [T]) -> &'a T {
        &s[self.below(s.len() as u64) as usize]
    }
}

/// `x` rounded to `d` significant digits (as real data prints them).
pub fn sig(x: f64, d: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let e = x.abs().log10().floor() as i32;
    let p = 10f64.powi(d - 1 - e);
    (x * p).round() / p
}

impl Plan {
    /// The layout for `variants` variants and `seed`.
    pub fn new(variants: u64, seed: u64) -> Plan {
        let n = CHROMS.len() as u64;
        let mut chroms = Vec::new();
        let (mut first_variant, mut first_gene) = (0, 0);
        for (index, (name, acc)) in CHROMS.iter().enumerate() {
            let count = variants / n + u64::from((index as u64) < variants % n);
            let span = ORIGIN + count * MEAN_GAP;
            let genes = if count == 0 {
                0
            } else {
                (span - ORIGIN) / GENE_PITCH + 1
            };
            let elements = if count == 0 {
                0
            } else {
                span / ELEMENT_PITCH + 1
            };
            chroms.push(Chrom {
                index,
                name,
                acc,
                first_variant,
                variants: count,
                span,
                first_gene,
                genes,
                elements,
            });
            first_variant += count;
            first_gene += genes;
        }
        Plan {
            variants,
            seed,
            chroms,
            genes: first_gene,
            terms: 256 + variants / 4000,
        }
    }

    /// Gene `g` of chromosome `c`.
    pub fn gene(&self, c: &Chrom, g: u64) -> Gene {
        let h = hash(&[self.seed, 1, c.index as u64, g]);
        let start = ORIGIN + g * GENE_PITCH + h % 40_000;
        let len = 5_000 + (h >> 20) % 90_000;
        Gene {
            gg: c.first_gene + g,
            start,
            end: start + len,
            strand: if (h >> 50) & 1 == 0 { "+" } else { "-" },
        }
    }

    /// The gene whose slot holds `pos` on chromosome `c` (the nearest one).
    pub fn gene_at(&self, c: &Chrom, pos: u64) -> Gene {
        let g = (pos.saturating_sub(ORIGIN) / GENE_PITCH).min(c.genes.saturating_sub(1));
        self.gene(c, g)
    }

    /// Element `e` of chromosome `c`.
    pub fn element(&self, c: &Chrom, e: u64) -> Element {
        let h = hash(&[self.seed, 2, c.index as u64, e]);
        let start = e * ELEMENT_PITCH + h % 1_500;
        let end = start + 150 + (h >> 16) % 1_200;
        let kind = match (h >> 40) % 10 {
            0..=6 => 0,
            7 | 8 => 1,
            _ => 2,
        };
        let key = match kind {
            0 => format!(
                "candidate_cis_regulatory_element_{}_{start}_{end}_GRCh38_{}",
                c.name,
                fileset(FS_CCRE)
            ),
            1 => format!(
                "accessible_dna_element_{}_{start}_{end}_GRCh38_{}",
                c.name,
                fileset(FS_CAQTL)
            ),
            _ => format!(
                "CRISPR_{}_{start}_{end}_GRCh38_{}",
                c.name,
                fileset(FS_TESTED)
            ),
        };
        Element {
            start,
            end,
            kind,
            key,
        }
    }

    /// The element whose slot holds `pos`.
    pub fn element_at(&self, c: &Chrom, pos: u64) -> Element {
        self.element(c, (pos / ELEMENT_PITCH).min(c.elements.saturating_sub(1)))
    }

    /// The chromosome holding global variant `gi`.
    pub fn chrom_of(&self, gi: u64) -> &Chrom {
        self.chroms
            .iter()
            .find(|c| gi >= c.first_variant && gi < c.first_variant + c.variants)
            .unwrap_or(&self.chroms[0])
    }

    /// Transcription-factor genes (every [`TF_STRIDE`]th gene).
    pub fn tf_count(&self) -> u64 {
        self.genes.div_ceil(TF_STRIDE)
    }
}

/// The rsid of global variant `gi` (screen variants have none).
pub fn rsid(gi: u64) -> Option<String> {
    (gi % SCREEN_STRIDE != SCREEN_STRIDE - 1).then(|| format!("rs{}", 1_000_000 + gi))
}

/// Gene symbol of global gene `gg` (unique).
pub fn symbol(gg: u64) -> String {
    format!("{}{}", GENE_PREFIXES[(gg % 26) as usize], gg / 26 + 1)
}

/// Ensembl gene id (no version) of global gene `gg`.
pub fn gene_id(gg: u64) -> String {
    gencode::HUMAN.gene_id(gg)
}

/// Ensembl transcript id of transcript `t` (0..3) of gene `gg`.
pub fn transcript_id(gg: u64, t: u64) -> String {
    gencode::HUMAN.transcript_id(gg, t)
}

/// Ensembl protein id of the protein of transcript `t` (0 or 1) of gene `gg`.
pub fn protein_id(gg: u64, t: u64) -> String {
    format!("ENSP{:011}", 500_000 + gg * 3 + t)
}

/// UniProt accession of the protein of transcript `t` of gene `gg`.
pub fn uniprot(gg: u64, t: u64) -> String {
    let n = gg * 3 + t;
    format!(
        "S{}{:04}",
        (b'A' + (n / 10_000 % 26) as u8) as char,
        n % 10_000
    )
}

/// Term `k` (1-based) of ontology `o` (index into [`ONTOLOGIES`]).
pub fn term(o: usize, k: u64) -> String {
    format!("{}_{:07}", ONTOLOGIES[o], 9_000_000 + k)
}

/// The tree parent of term `k` (`k > 1`).
pub fn term_parent(k: u64) -> u64 {
    (k - 2) / 4 + 1
}

/// The accession of file set number `i` (see the `FS_*` roles).
pub fn fileset(i: usize) -> String {
    let l = |n: usize| (b'A' + (n % 26) as u8) as char;
    format!(
        "IGVFFI{:04}{}{}{}S",
        7000 + i,
        l(i),
        l(i / 26 + 3),
        l(i * 7 + 11)
    )
}

pub(crate) const FS_AFGR_EQTL: usize = 0;
pub(crate) const FS_AFGR_SQTL: usize = 1;
pub(crate) const FS_EBI: usize = 2;
pub(crate) const FS_SCREEN: usize = 3;
pub(crate) const FS_CAQTL: usize = 4;
pub(crate) const FS_UKB: usize = 5;
pub(crate) const FS_ADASTRA: usize = 6;
pub(crate) const FS_SEMVAR: usize = 7;
pub(crate) const FS_GWAS: usize = 8;
pub(crate) const FS_MPRA_VARIANT: usize = 9;
pub(crate) const FS_PHARMGKB: usize = 10;
pub(crate) const FS_CLINGEN: usize = 11;
pub(crate) const FS_GENCC: usize = 12;
pub(crate) const FS_E2G: usize = 13;
pub(crate) const FS_MPRA_ELEMENT: usize = 14;
pub(crate) const FS_CCRE: usize = 15;
pub(crate) const FS_TESTED: usize = 16;
pub(crate) const FS_MOTIF: usize = 17;
pub(crate) const FS_COMPLEX: usize = 18;
pub(crate) const FS_ONTOLOGY: usize = 19;
pub(crate) const FS_REACTOME: usize = 20;
pub(crate) const FS_DRUGS: usize = 21;
pub(crate) const FS_STUDIES: usize = 22;
pub(crate) const FS_CODING: usize = 23;
pub(crate) const FS_INTERACTIONS: usize = 24;
pub(crate) const FS_COXPRESDB: usize = 25;
pub(crate) const FS_GO: usize = 26;
pub(crate) const FS_ELEMENT_PHENOTYPE: usize = 27;
pub(crate) const FS_PERTURB_SEQ: usize = 28;
pub(crate) const FS_MULTIOME: usize = 29;
pub(crate) const FS_MORF: usize = 30;
pub(crate) const FILESETS: usize = 31;

/// Writes a `synth.json` manifest next to the collections (not a `.jsonl`: the indexer ignores it).
pub(crate) fn manifest(dir: &Path, opts: &Options, s: &Summary) -> io::Result<()> {
    let mut v = serde_json::json!({
        "generator": "varcat synth",
        "variants": opts.variants,
        "seed": opts.seed,
        "gz": opts.gz,
        "documents": s.docs,
        "bytes": s.bytes,
    });
    // Only a non-default LD rate is recorded, so a default input's manifest is unchanged.
    if opts.ld_draws != LD_DRAWS {
        v["ld_draws"] = opts.ld_draws.into();
    }
    std::fs::write(
        dir.join("synth.json"),
        serde_json::to_vec_pretty(&v).map_err(io::Error::other)?,
    )
}

#[cfg(test)]
mod tests;
