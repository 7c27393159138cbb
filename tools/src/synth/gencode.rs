//! GENCODE genes: one builder writes a gene, its transcripts (with their edges from the gene)
//! and their structure for either species, from a description of the release ([`HUMAN`],
//! [`MOUSE`]).

use std::io;

use super::json::Obj;
use super::ontology::go_term;
use super::sink::Sink;

/// A GENCODE release as the generator writes it.
pub(super) struct Gencode {
    pub organism: &'static str,
    /// `v43` …
    pub version: &'static str,
    pub url: &'static str,
    /// Collections of genes, transcripts and structures (`genes_transcripts` is shared).
    genes: &'static str,
    pub transcripts: &'static str,
    structure: &'static str,
    /// Ensembl identifier prefixes of genes, transcripts and exons.
    prefixes: [&'static str; 3],
    /// The transcripts of every gene, in order.
    isoforms: &'static [Isoform],
    exons: Exons,
    /// The full human annotation: identifier versions, MANE Select, introns, and UTRs, CDSs
    /// and codons on coding transcripts (the mouse catalog has exons only).
    full: bool,
}

/// A transcript's span within its gene.
#[derive(Clone, Copy)]
enum Isoform {
    /// The whole gene, coding.
    Whole,
    /// Coding, starting a tenth of the way in.
    Truncated,
    /// The first two fifths, retaining an intron (not coding).
    RetainedIntron,
}

impl Isoform {
    fn coding(self) -> bool {
        !matches!(self, Isoform::RetainedIntron)
    }
}

/// How a transcript is cut into exons: `count` evenly spaced, each `1/share` of the spacing
/// (the last one running to the transcript's end when `last_to_end`); `ids` exon numbers are
/// reserved per transcript.
struct Exons {
    count: u64,
    share: u64,
    last_to_end: bool,
    ids: u64,
}

pub(super) const HUMAN: Gencode = Gencode {
    organism: "Homo sapiens",
    version: "v43",
    url: "https://ftp.ebi.ac.uk/pub/databases/gencode/Gencode_human/release_43/gencode.v43.chr_patch_hapl_scaff.annotation.gtf.gz",
    genes: "genes",
    transcripts: "transcripts",
    structure: "genes_structure",
    prefixes: ["ENSG", "ENST", "ENSE"],
    isoforms: &[Isoform::Whole, Isoform::Truncated, Isoform::RetainedIntron],
    exons: Exons {
        count: 5,
        share: 3,
        last_to_end: true,
        ids: 8,
    },
    full: true,
};

pub(super) const MOUSE: Gencode = Gencode {
    organism: "Mus musculus",
    version: "vM36",
    url: "https://ftp.ebi.ac.uk/pub/databases/gencode/Gencode_mouse/release_M36/gencode.vM36.chr_patch_hapl_scaff.annotation.gtf.gz",
    genes: "mm_genes",
    transcripts: "mm_transcripts",
    structure: "mm_genes_structure",
    prefixes: ["ENSMUSG", "ENSMUST", "ENSMUSE"],
    isoforms: &[Isoform::Whole, Isoform::Whole],
    exons: Exons {
        count: 3,
        share: 2,
        last_to_end: false,
        ids: 3,
    },
    full: false,
};

/// A gene to write: `n` numbers it within its release.
pub(super) struct GeneSpec<'a> {
    pub n: u64,
    pub symbol: &'a str,
    pub chr: &'a str,
    pub start: u64,
    pub end: u64,
    pub strand: &'a str,
}

/// A transcript being written.
struct Transcript<'a> {
    gene: &'a GeneSpec<'a>,
    gid: &'a str,
    t: u64,
    id: String,
    name: String,
    start: u64,
    end: u64,
    coding: bool,
}

impl Gencode {
    /// Ensembl id (no version) of gene `n`.
    pub(super) fn gene_id(&self, n: u64) -> String {
        format!("{}{:011}", self.prefixes[0], 500_000 + n)
    }

    /// Ensembl id of transcript `t` of gene `n`.
    pub(super) fn transcript_id(&self, n: u64, t: u64) -> String {
        format!(
            "{}{:011}",
            self.prefixes[1],
            500_000 + n * self.isoforms.len() as u64 + t
        )
    }

    fn exon_id(&self, n: u64, t: u64, x: u64) -> String {
        format!(
            "{}{:011}",
            self.prefixes[2],
            500_000 + (n * self.isoforms.len() as u64 + t) * self.exons.ids + x
        )
    }

    /// The numbers of the coding transcripts of a gene.
    pub(super) fn coding_transcripts(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.isoforms.len() as u64).filter(|&t| self.isoforms[t as usize].coding())
    }

    /// Writes gene `g`, its transcripts and their structure; `xrefs` adds the species'
    /// cross-references to the gene.
    pub(super) fn gene(
        &self,
        s: &mut Sink,
        g: &GeneSpec,
        xrefs: impl FnOnce(&mut Obj<'_>),
    ) -> io::Result<()> {
        let gid = self.gene_id(g.n);
        let version = if self.full { 1 + g.n % 20 } else { 1 };
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &gid)
            .s("gene_id", &format!("{gid}.{version}"))
            .s("gene_type", "protein_coding")
            .s("chr", g.chr)
            .i("start", g.start as i64)
            .i("end", g.end as i64)
            .s("strand", g.strand)
            .s("symbol", g.symbol)
            .s("name", g.symbol)
            .null("study_sets")
            .null("collections")
            .s("source", "GENCODE")
            .s("version", self.version)
            .s("source_url", self.url)
            .s("organism", self.organism)
            .s("version_number", &version.to_string());
        xrefs(&mut o);
        o.end();
        s.put(self.genes)?;
        let len = g.end - g.start;
        for (t, &iso) in (0u64..).zip(self.isoforms) {
            let (start, end) = match iso {
                Isoform::Whole => (g.start, g.end),
                Isoform::Truncated => (g.start + len / 10, g.end),
                Isoform::RetainedIntron => (g.start, g.start + len * 2 / 5),
            };
            let tx = Transcript {
                gene: g,
                gid: &gid,
                t,
                id: self.transcript_id(g.n, t),
                name: format!("{}-20{}", g.symbol, t + 1),
                start,
                end,
                coding: iso.coding(),
            };
            self.transcript(s, &tx)?;
            self.structure(s, &tx)?;
        }
        Ok(())
    }

    /// The transcript and its edge from the gene.
    fn transcript(&self, s: &mut Sink, tx: &Transcript) -> io::Result<()> {
        let (g, gid, tid) = (tx.gene, tx.gid, &tx.id);
        let version = if self.full { 1 + tx.t } else { 1 };
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", tid)
            .s("transcript_id", &format!("{tid}.{version}"))
            .s("name", &tx.name)
            .s(
                "transcript_type",
                if tx.coding {
                    "protein_coding"
                } else {
                    "retained_intron"
                },
            )
            .s("chr", g.chr)
            .i("start", tx.start as i64)
            .i("end", tx.end as i64)
            .s("strand", g.strand)
            .s("gene_name", g.symbol)
            .s("source", "GENCODE")
            .s("version", self.version)
            .s("source_url", self.url)
            .s("organism", self.organism);
        if self.full {
            o.b("MANE_Select", tx.t == 0);
        }
        o.end();
        s.put(self.transcripts)?;
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("{gid}_{tid}"))
            .s("_from", &format!("{}/{gid}", self.genes))
            .s("_to", &format!("{}/{tid}", self.transcripts))
            .s("source", "GENCODE")
            .s("version", self.version)
            .s("source_url", self.url)
            .s("name", "transcribes")
            .s("inverse_name", "transcribed by")
            .s("organism", self.organism)
            .s("biological_process", &go_term(2));
        o.end();
        s.put("genes_transcripts")
    }

    /// The transcript's exons; with the full annotation also the introns between them and,
    /// on coding transcripts, CDS on the inner exons, UTRs on the outer ones, start and stop
    /// codons.
    fn structure(&self, s: &mut Sink, tx: &Transcript) -> io::Result<()> {
        let (g, tid, tname) = (tx.gene, &tx.id, &tx.name);
        let e = &self.exons;
        let step = (tx.end - tx.start) / e.count;
        let exons: Vec<(u64, u64, String)> = (0..e.count)
            .map(|x| {
                let es = tx.start + x * step;
                let ee = if e.last_to_end && x + 1 == e.count {
                    tx.end
                } else {
                    es + step / e.share
                };
                (es, ee, self.exon_id(g.n, tx.t, x))
            })
            .collect();
        let row = |s: &mut Sink,
                   key: String,
                   name: String,
                   typ: &str,
                   st: u64,
                   en: u64,
                   num: String,
                   exon: Option<&str>|
         -> io::Result<()> {
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &key)
                .s("name", &name)
                .s("chr", g.chr)
                .i("start", st as i64)
                .i("end", en as i64)
                .s("strand", g.strand)
                .s("type", typ)
                .s("gene_id", tx.gid)
                .s("gene_name", g.symbol)
                .s("transcript_id", tid)
                .s("transcript_name", tname)
                .s("exon_number", &num);
            if let Some(e) = exon {
                o.s("exon_id", &format!("{e}.1"));
            }
            o.s("source", "GENCODE")
                .s("version", self.version)
                .s("source_url", self.url)
                .s("organism", self.organism);
            o.end();
            s.put(self.structure)
        };
        for (x, (es, ee, eid)) in exons.iter().enumerate() {
            let n = x + 1;
            row(
                s,
                format!("{tid}_{eid}_exon"),
                format!("{tname}_exon_{n}_exon"),
                "exon",
                *es,
                *ee,
                n.to_string(),
                Some(eid),
            )?;
            if !self.full {
                continue;
            }
            if x + 1 < exons.len() {
                row(
                    s,
                    format!("{tid}_{eid}_intron"),
                    format!("{tname}_exon_{n}_{}_intron", n + 1),
                    "intron",
                    *ee,
                    exons[x + 1].0,
                    format!("{n}_{}", n + 1),
                    None,
                )?;
            }
            if tx.coding {
                if x == 0 || x + 1 == exons.len() {
                    row(
                        s,
                        format!("{tid}_{eid}_UTR"),
                        format!("{tname}_exon_{n}_UTR"),
                        "UTR",
                        *es,
                        *ee,
                        n.to_string(),
                        Some(eid),
                    )?;
                } else {
                    row(
                        s,
                        format!("{tid}_{eid}_CDS"),
                        format!("{tname}_exon_{n}_CDS"),
                        "CDS",
                        *es,
                        *ee,
                        n.to_string(),
                        Some(eid),
                    )?;
                }
                if x == 1 {
                    row(
                        s,
                        format!("{tid}_{eid}_start_codon_{n}"),
                        format!("{tname}_exon_{n}_start_codon"),
                        "start_codon",
                        *es,
                        es + 3,
                        n.to_string(),
                        Some(eid),
                    )?;
                }
                if x + 2 == exons.len() {
                    row(
                        s,
                        format!("{tid}_{eid}_stop_codon_{n}"),
                        format!("{tname}_exon_{n}_stop_codon"),
                        "stop_codon",
                        ee - 3,
                        *ee,
                        n.to_string(),
                        Some(eid),
                    )?;
                }
            }
        }
        Ok(())
    }
}
