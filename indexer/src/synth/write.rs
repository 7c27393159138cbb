//! Writing the documents: one job for the genome-independent collections, one per part of the
//! chromosomes.

use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use flate2::write::GzEncoder;

use super::json::Obj;
use super::*;

const GENCODE_URL: &str = "https://ftp.ebi.ac.uk/pub/databases/gencode/Gencode_human/release_43/gencode.v43.chr_patch_hapl_scaff.annotation.gtf.gz";
const GENCODE_MM_URL: &str = "https://ftp.ebi.ac.uk/pub/databases/gencode/Gencode_mouse/release_M36/gencode.vM36.chr_patch_hapl_scaff.annotation.gtf.gz";
const BASES: [&str; 4] = ["A", "C", "G", "T"];
const AMINO: [&str; 20] = [
    "A", "R", "N", "D", "C", "Q", "E", "G", "H", "I", "L", "K", "M", "F", "P", "S", "T", "W", "Y",
    "V",
];
const GNOMAD: [&str; 31] = [
    "af_total",
    "af_asj_female",
    "af_eas_female",
    "af_afr_male",
    "af_female",
    "af_fin_male",
    "af_oth_female",
    "af_ami",
    "af_oth",
    "af_male",
    "af_ami_female",
    "af_afr",
    "af_eas_male",
    "af_sas",
    "af_nfe_female",
    "af_asj_male",
    "af_raw",
    "af_oth_male",
    "af_nfe_male",
    "af_asj",
    "af_amr_male",
    "af_amr_female",
    "af_sas_female",
    "af_fin",
    "af_afr_female",
    "af_sas_male",
    "af_amr",
    "af_nfe",
    "af_eas",
    "af_ami_male",
    "af_fin_female",
];
const APC: [&str; 19] = [
    "apc_conservation",
    "apc_conservation_v2",
    "apc_epigenetics_active",
    "apc_epigenetics",
    "apc_epigenetics_repressed",
    "apc_epigenetics_transcription",
    "apc_local_nucleotide_diversity",
    "apc_local_nucleotide_diversity_v2",
    "apc_local_nucleotide_diversity_v3",
    "apc_mappability",
    "apc_micro_rna",
    "apc_mutation_density",
    "apc_protein_function",
    "apc_protein_function_v2",
    "apc_protein_function_v3",
    "apc_proximity_to_coding",
    "apc_proximity_to_coding_v2",
    "apc_proximity_to_tsstes",
    "apc_transcription_factor",
];
const FREQ_SOURCES: [&str; 5] = ["alspac", "gnomad", "gonl", "topmed", "twinsuk"];
const CV_METHODS: [(&str, &str); 5] = [
    ("MutPred2", "pathogenicity_score"),
    ("SGE", "score"),
    ("VAMP-seq", "score"),
    ("DUAL-IPA", "dualipa_abun_score"),
    ("Variant painting via fluorescence", "localization_score"),
];
const ADJ: [&str; 12] = [
    "naive",
    "activated",
    "primary",
    "embryonic",
    "adult",
    "fetal",
    "mature",
    "progenitor",
    "regulatory",
    "memory",
    "resting",
    "stimulated",
];
const NOUN: [&str; 8] = [
    "trait",
    "cell",
    "tissue",
    "process",
    "disease",
    "phenotype",
    "assay",
    "abnormality",
];
const WORDS: [&str; 16] = [
    "signaling",
    "transport",
    "metabolism",
    "glycosylation",
    "repair",
    "splicing",
    "apoptosis",
    "adhesion",
    "migration",
    "secretion",
    "translation",
    "folding",
    "degradation",
    "binding",
    "activation",
    "regulation",
];

/// One output file.
enum Out {
    Plain(BufWriter<File>),
    Gz(BufWriter<GzEncoder<File>>),
}

impl Out {
    fn w(&mut self) -> &mut dyn Write {
        match self {
            Out::Plain(w) => w,
            Out::Gz(w) => w,
        }
    }
    fn finish(self) -> io::Result<()> {
        match self {
            Out::Plain(mut w) => w.flush(),
            Out::Gz(w) => w
                .into_inner()
                .map_err(|e| e.into_error())?
                .finish()
                .map(drop),
        }
    }
}

/// The files of one job: one per collection, opened on first use.
struct Sink {
    dir: PathBuf,
    part: String,
    gz: bool,
    outs: BTreeMap<&'static str, (Out, u64, u64)>,
    buf: String,
}

impl Sink {
    fn new(dir: &Path, part: &str, gz: bool) -> Sink {
        Sink {
            dir: dir.to_path_buf(),
            part: part.to_string(),
            gz,
            outs: BTreeMap::new(),
            buf: String::with_capacity(8192),
        }
    }

    /// Writes the document in `buf` to `coll` and clears `buf`.
    fn put(&mut self, coll: &'static str) -> io::Result<()> {
        if !self.outs.contains_key(coll) {
            let name = format!(
                "{coll}{}.jsonl{}",
                self.part,
                if self.gz { ".gz" } else { "" }
            );
            let f = File::create(self.dir.join(name))?;
            let out = if self.gz {
                Out::Gz(BufWriter::with_capacity(
                    1 << 18,
                    GzEncoder::new(f, flate2::Compression::new(1)),
                ))
            } else {
                Out::Plain(BufWriter::with_capacity(1 << 18, f))
            };
            self.outs.insert(coll, (out, 0, 0));
        }
        self.buf.push('\n');
        let (out, docs, bytes) = self.outs.get_mut(coll).expect("opened above");
        out.w().write_all(self.buf.as_bytes())?;
        *docs += 1;
        *bytes += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    fn finish(self, into: &Mutex<Summary>) -> io::Result<()> {
        let mut s = into.lock().unwrap_or_else(|e| e.into_inner());
        for (coll, (out, docs, bytes)) in self.outs {
            out.finish()?;
            *s.docs.entry(coll.to_string()).or_default() += docs;
            *s.bytes.entry(coll.to_string()).or_default() += bytes;
        }
        Ok(())
    }
}

/// Generates the catalog of `opts` into `opts.out`; returns what was written.
pub fn generate(opts: &Options) -> io::Result<Summary> {
    std::fs::create_dir_all(&opts.out)?;
    // Leftovers of an earlier run with other settings would join this catalog.
    for e in std::fs::read_dir(&opts.out)? {
        let p = e?.path();
        let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if n.ends_with(".jsonl") || n.ends_with(".jsonl.gz") || n == "synth.json" {
            std::fs::remove_file(&p)?;
        }
    }
    let plan = Plan::new(opts.variants, opts.seed);
    let summary = Mutex::new(Summary::default());
    let next = AtomicUsize::new(0);
    let first_error: Mutex<Option<io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.clamp(1, PARTS + 1) {
            scope.spawn(|| loop {
                let job = next.fetch_add(1, Ordering::Relaxed);
                if job > PARTS {
                    return;
                }
                let r = if job == 0 {
                    let mut s = Sink::new(&opts.out, "", opts.gz);
                    global(&plan, &mut s).and_then(|_| s.finish(&summary))
                } else {
                    let part = job - 1;
                    let mut s = Sink::new(&opts.out, &format!(".p{part}"), opts.gz);
                    plan.chroms
                        .iter()
                        .filter(|c| c.index % PARTS == part)
                        .try_for_each(|c| chromosome(&plan, c, &mut s))
                        .and_then(|_| s.finish(&summary))
                };
                if let Err(e) = r {
                    first_error
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e);
                    return;
                }
            });
        }
    });
    if let Some(e) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let mut summary = summary.into_inner().unwrap_or_else(|e| e.into_inner());
    for e in std::fs::read_dir(&opts.out)? {
        let e = e?;
        let n = e.file_name();
        let n = n.to_string_lossy();
        if n.ends_with(".jsonl") || n.ends_with(".jsonl.gz") {
            summary.disk_bytes += e.metadata()?.len();
        }
    }
    manifest(&opts.out, opts, &summary)?;
    Ok(summary)
}

fn fs_handle(i: usize) -> String {
    format!("files_filesets/{}", fileset(i))
}

/// A sha256-like hex key (64 hex digits) from some numbers.
fn hex_key(parts: &[u64]) -> String {
    let h = hash(parts);
    format!(
        "{:016x}{:016x}{:016x}{:016x}",
        mix(h),
        mix(h ^ 1),
        mix(h ^ 2),
        mix(h ^ 3)
    )
}

fn term_name(o: usize, k: u64) -> String {
    let h = hash(&[o as u64, k]);
    format!("{} {} {k}", ADJ[(h % 12) as usize], NOUN[o])
}

/// A biosample term (CL, EFO or UBERON, among the first 40 of each) and its name.
fn biosample(rng: &mut Rng) -> (String, String) {
    let o = [1usize, 0, 2][rng.below(3) as usize];
    let k = 1 + rng.below(40);
    (format!("ontology_terms/{}", term(o, k)), term_name(o, k))
}

fn go_term(k: u64) -> String {
    format!("ontology_terms/{}", term(3, k))
}

fn term_ref(plan: &Plan, rng: &mut Rng, o: usize) -> (String, String) {
    let k = 1 + rng.below(plan.terms);
    (format!("ontology_terms/{}", term(o, k)), term_name(o, k))
}

/// The collections that do not depend on the genome layout.
fn global(plan: &Plan, s: &mut Sink) -> io::Result<()> {
    let mut rng = Rng::new(hash(&[plan.seed, 7]));
    // File sets.
    for i in 0..FILESETS {
        let acc = fileset(i);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &acc)
            .s("name", &acc)
            .s("file_set_id", &format!("IGVFFS{:04}SYN", 7000 + i))
            .s("lab", "/labs/synthetic-lab/")
            .strs("preferred_assay_titles", &["Synthetic assay"])
            .strs("assay_term_ids", &[format!("OBI:{:07}", i + 1)])
            .s("method", "synthetic")
            .s("class", "observed data")
            .strs("software", &["varcat-synth"])
            .strs(
                "samples",
                &[format!("ontology_terms/{}", term(1, 1 + i as u64))],
            )
            .strs("sample_ids", &[format!("IGVFSM{:04}SYN", i)])
            .strs("simple_sample_summaries", &[term_name(1, 1 + i as u64)])
            .null("donors")
            .null("treatments_term_ids")
            .null("publication")
            .strs("collections", &["ENCODE"])
            .s("source", "IGVF")
            .s(
                "source_url",
                &format!("https://data.igvf.org/tabular-files/{acc}/"),
            )
            .s(
                "download_link",
                &format!("https://api.data.igvf.org/tabular-files/{acc}/@@download/{acc}.tsv.gz"),
            )
            .null("cell_annotation")
            .null("cell_annotation_term")
            .null("genome_browser_link")
            .null("crispr_modality")
            .null("browser_index_file")
            .s("version", "IGVF_catalog_v1.0");
        o.end();
        s.put("files_filesets")?;
    }
    // Ontology terms: one 4-ary tree per ontology, plus a second parent on every 7th term.
    for (oi, onto) in ONTOLOGIES.iter().enumerate() {
        for k in 1..=plan.terms {
            let id = term(oi, k);
            let name = term_name(oi, k);
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &id)
                .s("uri", &format!("http://purl.obolibrary.org/obo/{id}"))
                .s("term_id", &id)
                .s("name", &name);
            if k % 3 == 0 {
                o.null("synonyms");
            } else {
                o.strs("synonyms", &[format!("{name} synonym")]);
            }
            o.s(
                "description",
                &format!("A synthetic {onto} term ({name}) for benchmarks."),
            )
            .s("source", onto)
            .s("source_url", "http://purl.obolibrary.org/obo/")
            .strs("subset", &["synthetic"])
            .s("class", "ontology term")
            .null("method")
            .s("files_filesets", &fs_handle(FS_ONTOLOGY));
            o.end();
            s.put("ontology_terms")?;
            if k > 1 {
                let mut parents = vec![term_parent(k)];
                if k % 7 == 0 && k > 6 && term_parent(k) + 1 < k {
                    parents.push(term_parent(k) + 1);
                }
                for p in parents {
                    let pid = term(oi, p);
                    let mut o = Obj::new(&mut s.buf);
                    o.s("_key", &format!("{id}_subclass_{pid}"))
                        .s("_from", &format!("ontology_terms/{id}"))
                        .s("_to", &format!("ontology_terms/{pid}"))
                        .s("name", "subclass")
                        .s("inverse_name", "superclass")
                        .s("source", onto)
                        .s("source_url", "http://purl.obolibrary.org/obo/")
                        .s("class", "ontology relationship")
                        .null("method")
                        .s("files_filesets", &fs_handle(FS_ONTOLOGY));
                    o.end();
                    s.put("ontology_terms_ontology_terms")?;
                }
            }
        }
    }
    // Studies: eQTL Catalogue datasets and GWAS.
    for i in 1..=100u64 {
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("QTS{i:06}"))
            .s("name", &format!("Synthetic_{i}"))
            .s("pmid", &format!("{}", 29_000_000 + i))
            .s("study_type", "bulk")
            .s("source", "EBI")
            .s("source_url", "https://github.com/eQTL-Catalogue/eQTL-Catalogue-resources/blob/master/data_tables/dataset_metadata.tsv")
            .s("files_filesets", &fs_handle(FS_STUDIES));
        o.end();
        s.put("studies")?;
        let (t, tname) = term_ref(plan, &mut rng, 0);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("GCST{i:06}"))
            .s("name", &format!("GCST{i:06}"))
            .s("ancestry_initial", "['European=361141']")
            .s("ancestry_replication", "[]")
            .s("n_cases", &format!("{}.0", 100 + rng.below(10_000)))
            .s("n_initial", &format!("{}", 10_000 + rng.below(400_000)))
            .s("n_replication", "0.0")
            .s("pmid", &format!("{}", 30_000_000 + i))
            .s("pub_author", "Synthetic A")
            .s("pub_date", "2020-01-01")
            .s("pub_journal", "Synthetic Journal")
            .s("pub_title", &format!("A synthetic study of {tname}"))
            .s("has_sumstats", "True")
            .s("num_assoc_loci", &format!("{}", 1 + rng.below(50)))
            .s("study_source", "GWAS Catalog")
            .s("trait_reported", &tname)
            .s(
                "trait_efos",
                &format!("['{}']", &t["ontology_terms/".len()..]),
            )
            .s("trait_category", "measurement")
            .s("source", "OpenTargets")
            .s("version", "October 2022 (22.10)")
            .s("files_filesets", &fs_handle(FS_GWAS))
            .s(
                "source_url",
                "https://data.igvf.org/reference-files/IGVFFI1309WDQG",
            );
        o.end();
        s.put("studies")?;
    }
    // Drugs.
    for i in 0..500u64 {
        let key = format!("PA{}", 166_000_000 + i);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &key)
            .s("name", &format!("{}mab {i}", WORDS[(i % 16) as usize]))
            .strs(
                "drug_ontology_terms",
                &if i % 4 == 0 {
                    vec![format!("ontology_terms/{}", term(0, 1 + i % plan.terms))]
                } else {
                    vec![]
                },
            )
            .s("source", "pharmGKB")
            .s(
                "source_url",
                &format!("https://www.pharmgkb.org/chemical/{key}"),
            )
            .s("class", "observed data")
            .s("method", "PharmGKB")
            .s("files_filesets", &fs_handle(FS_DRUGS));
        o.end();
        s.put("drugs")?;
    }
    // Pathways.
    for i in 0..(200 + plan.genes / 20) {
        let key = format!("R-HSA-{}", 9_000_000 + i);
        let name = format!(
            "{} of {} {}",
            WORDS[(i % 16) as usize],
            WORDS[(i / 16 % 16) as usize],
            i
        );
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &key)
            .s("name", &name)
            .s("organism", "Homo sapiens")
            .s("source", "Reactome")
            .s("source_url", "https://reactome.org/")
            .s("class", "biological relationship")
            .null("method")
            .null("label")
            .s("files_filesets", &fs_handle(FS_REACTOME))
            .s("id_version", &key)
            .b("is_in_disease", i % 11 == 0)
            .strs("name_aliases", std::slice::from_ref(&name))
            .b("is_top_level_pathway", i < 20);
        o.end();
        s.put("pathways")?;
    }
    // Motifs of transcription factors, and their proteins.
    for t in 0..plan.tf_count() {
        let gg = t * TF_STRIDE;
        let sym = symbol(gg);
        let key = format!("{sym}_HUMAN_HOCOMOCOv11");
        let len = 8 + rng.below(12);
        let pwm: Vec<String> = (0..len)
            .map(|_| {
                let v: Vec<String> = (0..4)
                    .map(|_| format!("\"{:?}\"", sig(rng.range(-3.5, 1.5), 16)))
                    .collect();
                format!("[{}]", v.join(", "))
            })
            .collect();
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &key)
            .s("name", &key)
            .s("tf_name", &format!("{sym}_HUMAN"))
            .s("source", "HOCOMOCOv11")
            .s(
                "source_url",
                &format!("hocomoco11.autosome.org/motif/{sym}_HUMAN.H11MO.0.B"),
            )
            .raw("pwm", &format!("[{}]", pwm.join(", ")))
            .i("length", len as i64)
            .s("class", "observed data")
            .s("method", "HOCOMOCO")
            .s("files_filesets", &fs_handle(FS_MOTIF));
        o.end();
        s.put("motifs")?;
        let pid = protein_id(gg, 0);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("{key}_{pid}"))
            .s("_from", &format!("motifs/{key}"))
            .s("_to", &format!("proteins/{pid}"))
            .s("name", "is used by")
            .s("inverse_name", "uses")
            .s("biological_process", &go_term(1))
            .s("source", "HOCOMOCOv11")
            .s("class", "observed data")
            .s("method", "HOCOMOCO")
            .s("files_filesets", &fs_handle(FS_MOTIF));
        o.end();
        s.put("motifs_proteins")?;
    }
    // Complexes of TF proteins.
    for i in 0..plan.tf_count().div_ceil(4) {
        let members: Vec<u64> = (0..3)
            .map(|j| ((i * 4 + j) * TF_STRIDE) % plan.genes.max(1))
            .collect();
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("CPX-{}", 90_000 + i))
            .s(
                "name",
                &format!(
                    "{} complex",
                    members
                        .iter()
                        .map(|&g| symbol(g))
                        .collect::<Vec<_>>()
                        .join("-")
                ),
            )
            .strs("alias", &[format!("synthetic complex {i}")])
            .strs(
                "molecules",
                &members
                    .iter()
                    .map(|&g| format!("{}(1)", uniprot(g, 0)))
                    .collect::<Vec<_>>(),
            )
            .s(
                "evidence_code",
                "ECO:0000353(physical interaction evidence used in manual assertion)",
            )
            .null("experimental_evidence")
            .s(
                "description",
                "A synthetic transcription factor complex for benchmarks.",
            )
            .s("complex_assembly", "Heterotrimer")
            .s("complex_source", "psi-mi:\"MI:0469\"(IntAct)")
            .strs(
                "reactome_xref",
                &[format!("R-HSA-{}(identity)", 9_000_000 + i)],
            )
            .s("source", "EBI")
            .s("source_url", "https://www.ebi.ac.uk/complexportal/")
            .s("class", "biological relationship")
            .null("method")
            .null("label")
            .s("files_filesets", &fs_handle(FS_COMPLEX));
        o.end();
        s.put("complexes")?;
    }
    mouse(plan, s, &mut rng)
}

/// A small mouse catalog: genes, transcripts, structures, elements and variants on chr1.
fn mouse(plan: &Plan, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let genes = 50 + plan.genes / 100;
    for g in 0..genes {
        let id = format!("ENSMUSG{:011}", 500_000 + g);
        let sym = format!("Syn{}", g + 1);
        let start = 3_000_000 + g * GENE_PITCH;
        let end = start + 20_000 + rng.below(50_000);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &id)
            .s("gene_id", &format!("{id}.1"))
            .s("gene_type", "protein_coding")
            .s("chr", "chr1")
            .i("start", start as i64)
            .i("end", end as i64)
            .s("strand", "+")
            .s("symbol", &sym)
            .s("name", &sym)
            .null("study_sets")
            .null("collections")
            .s("source", "GENCODE")
            .s("version", "vM36")
            .s("source_url", GENCODE_MM_URL)
            .s("organism", "Mus musculus")
            .s("version_number", "1")
            .s("mgi", &format!("MGI:{}", 1_900_000 + g))
            .strs("synonyms", &[format!("{sym}a")])
            .s("entrez", &format!("ENTREZ:{}", 70_000 + g));
        o.end();
        s.put("mm_genes")?;
        for t in 0..2u64 {
            let tid = format!("ENSMUST{:011}", 500_000 + g * 2 + t);
            let tname = format!("{sym}-20{}", t + 1);
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &tid)
                .s("transcript_id", &format!("{tid}.1"))
                .s("name", &tname)
                .s("transcript_type", "protein_coding")
                .s("chr", "chr1")
                .i("start", start as i64)
                .i("end", end as i64)
                .s("strand", "+")
                .s("gene_name", &sym)
                .s("source", "GENCODE")
                .s("version", "vM36")
                .s("source_url", GENCODE_MM_URL)
                .s("organism", "Mus musculus");
            o.end();
            s.put("mm_transcripts")?;
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &format!("{id}_{tid}"))
                .s("_from", &format!("mm_genes/{id}"))
                .s("_to", &format!("mm_transcripts/{tid}"))
                .s("source", "GENCODE")
                .s("version", "vM36")
                .s("source_url", GENCODE_MM_URL)
                .s("name", "transcribes")
                .s("inverse_name", "transcribed by")
                .s("organism", "Mus musculus")
                .s("biological_process", &go_term(2));
            o.end();
            s.put("genes_transcripts")?;
            let step = (end - start) / 3;
            for x in 0..3u64 {
                let eid = format!("ENSMUSE{:011}", 500_000 + (g * 2 + t) * 3 + x);
                let mut o = Obj::new(&mut s.buf);
                o.s("_key", &format!("{tid}_{eid}_exon"))
                    .s("name", &format!("{tname}_exon_{}_exon", x + 1))
                    .s("chr", "chr1")
                    .i("start", (start + x * step) as i64)
                    .i("end", (start + x * step + step / 2) as i64)
                    .s("strand", "+")
                    .s("type", "exon")
                    .s("gene_id", &id)
                    .s("gene_name", &sym)
                    .s("transcript_id", &tid)
                    .s("transcript_name", &tname)
                    .s("exon_number", &format!("{}", x + 1))
                    .s("exon_id", &format!("{eid}.1"))
                    .s("source", "GENCODE")
                    .s("version", "vM36")
                    .s("source_url", GENCODE_MM_URL)
                    .s("organism", "Mus musculus");
                o.end();
                s.put("mm_genes_structure")?;
            }
        }
        let es = start + 1_000;
        let mut o = Obj::new(&mut s.buf);
        o.s(
            "_key",
            &format!(
                "candidate_cis_regulatory_element_chr1_{es}_{}_GRCm39_{}",
                es + 350,
                fileset(FS_CCRE)
            ),
        )
        .s("name", &format!("EM10E{:07}", g))
        .s("chr", "chr1")
        .i("start", es as i64)
        .i("end", (es + 350) as i64)
        .s("source_annotation", "dELS: distal Enhancer-like signal")
        .s("method", "candidate Cis-Regulatory Elements")
        .s("type", "candidate cis regulatory element")
        .s("source", "ENCODE")
        .s(
            "source_url",
            &format!("https://www.encodeproject.org/files/{}", fileset(FS_CCRE)),
        )
        .s("files_filesets", &fs_handle(FS_CCRE));
        o.end();
        s.put("mm_genomic_elements")?;
        for v in 0..20u64 {
            let pos = start + v * 997;
            let (r, a) = (rng.below(4) as usize, rng.below(3) as usize);
            let (r, a) = (BASES[r], BASES[(r + 1 + a) % 4]);
            let spdi = format!("NC_000067.7:{pos}:{r}:{a}");
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &spdi)
                .s("chr", "chr1")
                .i("pos", pos as i64)
                .strs("rsid", &[format!("rs{}", 580_000_000 + g * 20 + v)])
                .s("ref", r)
                .s("alt", a)
                .s("organism", "Mus musculus")
                .strs("strain", &["129S1_SvImJ", "A_J"][..1 + (v % 2) as usize])
                .s("qual", "999")
                .s("filter", "PASS")
                .s("fi", "1")
                .s("name", &spdi)
                .s("spdi", &spdi)
                .s("hgvs", &format!("NC_000067.7:g.{}{r}>{a}", pos + 1))
                .s("source", "Mouse Genomes Project")
                .s(
                    "source_url",
                    "https://www.sanger.ac.uk/data/mouse-genomes-project/",
                );
            o.end();
            s.put("mm_variants")?;
        }
    }
    Ok(())
}

/// Genes, their transcripts, proteins and structures, and their gene-level edges.
fn gene_docs(plan: &Plan, c: &Chrom, gene: &Gene, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let gg = gene.gg;
    let (gid, sym) = (gene_id(gg), symbol(gg));
    let mut o = Obj::new(&mut s.buf);
    o.s("_key", &gid)
        .s("gene_id", &format!("{gid}.{}", 1 + gg % 20))
        .s("gene_type", "protein_coding")
        .s("chr", c.name)
        .i("start", gene.start as i64)
        .i("end", gene.end as i64)
        .s("strand", gene.strand)
        .s("symbol", &sym)
        .s("name", &sym)
        .null("study_sets")
        .null("collections")
        .s("source", "GENCODE")
        .s("version", "v43")
        .s("source_url", GENCODE_URL)
        .s("organism", "Homo sapiens")
        .s("version_number", &format!("{}", 1 + gg % 20));
    if gg.is_multiple_of(2) {
        o.s("hgnc", &format!("HGNC:{}", 100_000 + gg));
    }
    if gg.is_multiple_of(5) {
        o.strs(
            "synonyms",
            &[
                format!("{sym}L"),
                format!("C{}orf{}", c.index + 1, gg % 997),
            ],
        );
    }
    o.end();
    s.put("genes")?;
    let len = gene.end - gene.start;
    for t in 0..3u64 {
        let tid = transcript_id(gg, t);
        let tname = format!("{sym}-20{}", t + 1);
        let (ts, te) = match t {
            0 => (gene.start, gene.end),
            1 => (gene.start + len / 10, gene.end),
            _ => (gene.start, gene.start + len * 2 / 5),
        };
        let ttype = if t < 2 {
            "protein_coding"
        } else {
            "retained_intron"
        };
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &tid)
            .s("transcript_id", &format!("{tid}.{}", 1 + t))
            .s("name", &tname)
            .s("transcript_type", ttype)
            .s("chr", c.name)
            .i("start", ts as i64)
            .i("end", te as i64)
            .s("strand", gene.strand)
            .s("gene_name", &sym)
            .s("source", "GENCODE")
            .s("version", "v43")
            .s("source_url", GENCODE_URL)
            .s("organism", "Homo sapiens")
            .b("MANE_Select", t == 0);
        o.end();
        s.put("transcripts")?;
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("{gid}_{tid}"))
            .s("_from", &format!("genes/{gid}"))
            .s("_to", &format!("transcripts/{tid}"))
            .s("source", "GENCODE")
            .s("version", "v43")
            .s("source_url", GENCODE_URL)
            .s("name", "transcribes")
            .s("inverse_name", "transcribed by")
            .s("organism", "Homo sapiens")
            .s("biological_process", &go_term(2));
        o.end();
        s.put("genes_transcripts")?;
        if t < 2 {
            let pid = protein_id(gg, t);
            let up = uniprot(gg, t);
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &pid)
                .s("name", &sym)
                .s("protein_id", &format!("{pid}.{}", 1 + t))
                .b("MANE_Select", t == 0)
                .s("source", "GENCODE")
                .s("version", "v43")
                .s("source_url", GENCODE_URL)
                .s("organism", "Homo sapiens")
                .s("uniprot_collection", if t == 0 { "Swiss-Prot" } else { "TrEMBL" })
                .strs("uniprot_ids", &[up.as_str()])
                .strs("uniprot_names", &[format!("{sym}_HUMAN")])
                .raw(
                    "dbxrefs",
                    &format!(
                        "[{{\"name\": \"AlphaFoldDB\", \"id\": \"{up}\"}}, {{\"name\": \"Bgee\", \"id\": \"{gid}\"}}, {{\"name\": \"HGNC\", \"id\": \"HGNC:{}\"}}, {{\"name\": \"RefSeq\", \"id\": \"NP_{:06}.1\"}}]",
                        100_000 + gg,
                        gg * 3 + t
                    ),
                )
                .strs(
                    "uniprot_full_names",
                    &[format!("Synthetic protein {sym} isoform {}", t + 1)],
                );
            o.end();
            s.put("proteins")?;
            let mut o = Obj::new(&mut s.buf);
            o.s("_from", &format!("transcripts/{tid}"))
                .s("_to", &format!("proteins/{pid}"))
                .s("source", "GENCODE")
                .s("version", "v43")
                .s("source_url", GENCODE_URL)
                .s("organism", "Homo sapiens")
                .s("name", "translates to")
                .s("inverse_name", "translated from")
                .s("biological_process", &go_term(3));
            o.end();
            s.put("transcripts_proteins")?;
        }
        // Structure: 5 exons, the introns between them; for coding transcripts CDS on the
        // inner exons, UTRs on the outer ones, start and stop codons.
        let step = (te - ts) / 5;
        let exons: Vec<(u64, u64, String)> = (0..5u64)
            .map(|x| {
                let es = ts + x * step;
                let ee = if x == 4 { te } else { es + step / 3 };
                (
                    es,
                    ee,
                    format!("ENSE{:011}", 500_000 + (gg * 3 + t) * 8 + x),
                )
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
                .s("chr", c.name)
                .i("start", st as i64)
                .i("end", en as i64)
                .s("strand", gene.strand)
                .s("type", typ)
                .s("gene_id", &gid)
                .s("gene_name", &sym)
                .s("transcript_id", &tid)
                .s("transcript_name", &tname)
                .s("exon_number", &num);
            if let Some(e) = exon {
                o.s("exon_id", &format!("{e}.1"));
            }
            o.s("source", "GENCODE")
                .s("version", "v43")
                .s("source_url", GENCODE_URL)
                .s("organism", "Homo sapiens");
            o.end();
            s.put("genes_structure")
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
            if t < 2 {
                if x == 0 || x == 4 {
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
                if x == 3 {
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
    }
    // Gene–disease (GenCC), one gene in ten.
    if rng.chance(0.1) {
        let (d, dname) = term_ref(plan, rng, 4);
        let sgc = format!("SGC-{}", 900_000 + gg);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("{sgc}_{gid}"))
            .s("_from", &d)
            .s("_to", &format!("genes/{gid}"))
            .s("sgc_id", &format!("{sgc}.1"))
            .s("name", "associated_with")
            .s("inverse_name", "associated_with")
            .s("hgnc", &format!("HGNC:{}", 100_000 + gg))
            .s("gene_symbol", &sym)
            .s("term_name", &dname)
            .s(
                "classification",
                ["Definitive", "Strong", "Moderate", "Limited"][rng.below(4) as usize],
            )
            .s("moi_id", "HP:0000006")
            .s("moi_name", "Autosomal dominant")
            .s("submitter", "Synthetic Lab")
            .strs("pmids", &[format!("{}", 28_000_000 + gg)])
            .s("source", "GenCC")
            .s(
                "source_url",
                &format!("https://thegencc.org/submissions/{sgc}.1"),
            )
            .s("class", "observed data")
            .s("method", "GenCC")
            .s("label", "GenCC")
            .s("files_filesets", &fs_handle(FS_GENCC))
            .s("association_type", "disease_gene")
            .s("association_status", "validated");
        o.end();
        s.put("diseases_genes")?;
    }
    Ok(())
}

fn element_docs(
    plan: &Plan,
    c: &Chrom,
    e: &Element,
    s: &mut Sink,
    rng: &mut Rng,
) -> io::Result<()> {
    let mut o = Obj::new(&mut s.buf);
    o.s("_key", &e.key);
    match e.kind {
        0 => {
            o.s(
                "name",
                &format!("EH38E{:07}", hash(&[c.index as u64, e.start]) % 10_000_000),
            )
            .s("chr", c.name)
            .i("start", e.start as i64)
            .i("end", e.end as i64)
            .s(
                "source_annotation",
                [
                    "dELS: distal Enhancer-like signal",
                    "pELS: proximal Enhancer-like signal",
                    "CA: chromatin accessible",
                    "PLS: Promoter-like signal",
                ][rng.below(4) as usize],
            )
            .s("method", "candidate Cis-Regulatory Elements")
            .s("type", "candidate cis regulatory element")
            .s("source", "ENCODE")
            .s(
                "source_url",
                &format!("https://www.encodeproject.org/files/{}", fileset(FS_CCRE)),
            )
            .s("files_filesets", &fs_handle(FS_CCRE));
        }
        1 => {
            o.s("name", &e.key)
                .s("chr", c.name)
                .i("start", e.start as i64)
                .i("end", e.end as i64)
                .s("method", "caQTL")
                .s("source", "ENCODE")
                .s(
                    "source_url",
                    &format!("https://www.encodeproject.org/files/{}", fileset(FS_CAQTL)),
                )
                .s("files_filesets", &fs_handle(FS_CAQTL))
                .s("type", "accessible dna elements");
        }
        _ => {
            o.s("name", &e.key)
                .s("chr", c.name)
                .i("start", e.start as i64)
                .i("end", e.end as i64)
                .s("method", "CRISPR screen")
                .s("type", "tested elements")
                .s("source_annotation", "enhancer")
                .s("source", "ENCODE")
                .s(
                    "source_url",
                    &format!(
                        "https://www.encodeproject.org/files/{}/",
                        fileset(FS_TESTED)
                    ),
                )
                .s("files_filesets", &fs_handle(FS_TESTED))
                .strs("simple_sample_summaries", &["K562"])
                .null("treatments_term_ids")
                .s("strand", "+");
        }
    }
    o.end();
    s.put("genomic_elements")?;
    if c.genes > 0 && rng.chance(0.3) {
        let g = plan.gene_at(c, e.start);
        let gid = gene_id(g.gg);
        let (bt, bname) = biosample(rng);
        let mut o = Obj::new(&mut s.buf);
        let crispr = e.kind == 2;
        o.s("_key", &format!("{}_{gid}_{}", e.key, fileset(FS_E2G)))
            .s("_from", &format!("genomic_elements/{}", e.key))
            .s("_to", &format!("genes/{gid}"));
        if crispr {
            let es = sig(rng.range(-0.5, 0.5), 9);
            let p = sig(rng.unit().max(1e-12), 9);
            o.f("effect_size", es)
                .f("log2FC", sig(es * 1.4, 9))
                .f("p_value", p)
                .f("p_value_adj", sig((p * 3.0).min(1.0), 9))
                .f("neg_log10_pvalue", -p.log10())
                .f("neg_log10_pvalue_adj", -(p * 3.0).min(1.0).log10())
                .b("significant", p < 0.01)
                .s("method", "CRISPR screen")
                .s("crispr_modality", "interference")
                .s("class", "observed data")
                .s("label", "regulatory element effect on gene expression");
        } else {
            o.s("method", "ENCODE-rE2G")
                .s("class", "prediction")
                .s(
                    "label",
                    "predicted regulatory element effect on gene expression",
                )
                .f("score", sig(rng.unit(), 6))
                .null("treatments_term_ids");
        }
        o.s("source", "ENCODE")
            .s(
                "source_url",
                &format!("https://www.encodeproject.org/files/{}/", fileset(FS_E2G)),
            )
            .s("files_filesets", &fs_handle(FS_E2G))
            .s("biological_context", &bname)
            .s("biosample_term", &bt)
            .s("name", "regulates")
            .s("inverse_name", "regulated by");
        o.end();
        s.put("genomic_elements_genes")?;
    }
    if rng.chance(0.1) {
        let (bt, bname) = biosample(rng);
        let mut o = Obj::new(&mut s.buf);
        o.s(
            "_key",
            &format!("{}_{}", e.key, &bt["ontology_terms/".len()..]),
        )
        .s("_from", &format!("genomic_elements/{}", e.key))
        .s("_to", &bt)
        .s("strand", "+")
        .f("log2FC", sig(rng.range(-2.0, 2.0), 3))
        .i("bed_score", rng.below(1000) as i64)
        .f("DNA_count", sig(rng.range(0.0, 3.0), 3))
        .f("RNA_count", sig(rng.range(0.0, 3.0), 3))
        .null("neg_log10_pvalue")
        .null("neg_log10_pvalue_adj")
        .b("significant", rng.chance(0.2))
        .s("class", "observed data")
        .s("label", "regulatory reference element activity")
        .s("name", "expression effect in")
        .s("inverse_name", "has expression effect from")
        .s("method", "MPRA")
        .s("source", "ENCODE")
        .s(
            "source_url",
            &format!(
                "https://www.encodeproject.org/files/{}/",
                fileset(FS_MPRA_ELEMENT)
            ),
        )
        .s("files_filesets", &fs_handle(FS_MPRA_ELEMENT))
        .s("biological_context", &bname)
        .s("biosample_term", &bt)
        .null("treatments_term_ids");
        o.end();
        s.put("genomic_elements_biosamples")?;
    }
    Ok(())
}

/// A variant as generated.
struct Var {
    gi: u64,
    key: String,
    pos: u64,
    r: String,
    a: String,
    rsid: Option<String>,
}

fn p_value(rng: &mut Rng, max_exp: f64) -> f64 {
    sig(10f64.powf(-rng.range(0.5, max_exp)), 7)
}

fn variant_doc(
    c: &Chrom,
    v: &Var,
    vtype: &str,
    hgvs: &str,
    s: &mut Sink,
    rng: &mut Rng,
) -> io::Result<()> {
    let chn = &c.name[3..];
    let mut o = Obj::new(&mut s.buf);
    o.s("_key", &v.key)
        .s("name", &v.key)
        .s("chr", c.name)
        .i("pos", v.pos as i64)
        .s("ref", &v.r)
        .s("alt", &v.a)
        .s("variation_type", vtype)
        .s("spdi", &v.key)
        .s("hgvs", hgvs)
        .s("organism", "Homo sapiens");
    let Some(rs) = &v.rsid else {
        o.s("source", "IGVF")
            .s(
                "source_url",
                &format!(
                    "https://data.igvf.org/tabular-files/{}/",
                    fileset(FS_SCREEN)
                ),
            )
            .s("files_filesets", &fs_handle(FS_SCREEN));
        o.end();
        return s.put("variants");
    };
    if v.gi.is_multiple_of(97) {
        o.strs("rsid", &[rs.clone(), format!("rs{}", 900_000_000 + v.gi)]);
    } else {
        o.strs("rsid", &[rs]);
    }
    o.s("qual", ".");
    let af = if rng.chance(0.3) {
        0.0
    } else {
        sig(10f64.powf(-rng.range(0.0, 5.0)), 4)
    };
    let (p1, r1, a1) = (
        v.pos + 1,
        if v.r.is_empty() { "-" } else { &v.r },
        if v.a.is_empty() { "-" } else { &v.a },
    );
    o.obj("annotations", |o| {
        o.obj("freq", |o| {
            for src in FREQ_SOURCES {
                if rng.chance(0.4) {
                    let alt = sig(af * rng.range(0.5, 1.5), 4).min(1.0);
                    o.obj(src, |o| {
                        o.f("ref", sig(1.0 - alt, 4)).f("alt", alt);
                    });
                }
            }
            o.obj("dbgap_popfreq", |o| {
                o.f("ref", sig(1.0 - af, 4)).f("alt", af);
            });
        });
        o.s("varinfo", &format!("{chn}-{p1}-{r1}-{a1}"))
            .f("vid", (4_000_000_000 + v.gi * 1_000) as f64)
            .s("variant_vcf", &format!("{chn}-{p1}-{r1}-{a1}"))
            .s("variant_annovar", &format!("{chn}-{p1}-{p1}-{r1}-{a1}"))
            .f("start_position", (p1 / 10 * 10) as f64)
            .f("end_position", (p1 / 10 * 10) as f64)
            .s("ref_annovar", r1)
            .s("alt_annovar", a1)
            .s("ref_vcf", r1)
            .s("alt_vcf", a1);
        for k in APC {
            o.f(k, sig(rng.range(0.5, 25.0), 6));
        }
        if rng.chance(0.6) {
            o.f("bravo_an", 264_690.0)
                .f("bravo_af", sig((af * rng.range(0.8, 1.2)).min(1.0), 6))
                .s("filter_status", "PASS");
        }
        o.f("fathmm_xf", sig(rng.range(0.5, 30.0), 5)).s(
            "funseq_description",
            if rng.chance(0.1) {
                "coding"
            } else {
                "noncoding"
            },
        );
        if rng.chance(0.5) {
            for k in GNOMAD {
                let x = if k == "af_total" {
                    af
                } else {
                    sig((af * rng.range(0.0, 2.0)).min(1.0), 6)
                };
                o.f(k, x);
            }
        }
        o.f("linsight", sig(rng.range(0.0, 3.0), 6))
            .f("gc", sig(rng.range(0.2, 0.7), 3))
            .f("cpg", sig(rng.range(0.0, 0.1), 3))
            .f("priphcons", sig(rng.unit(), 3))
            .f("mamphcons", sig(rng.unit(), 3))
            .f("verphcons", sig(rng.unit(), 3))
            .f("priphylop", sig(rng.range(-2.0, 1.0), 3))
            .f("mamphylop", sig(rng.range(-3.0, 3.0), 4))
            .f("verphylop", sig(rng.range(-4.0, 6.0), 4))
            .f("bstatistic", rng.below(1000) as f64)
            .f("freq10000bp", (1 + rng.below(60)) as f64)
            .f("cadd_rawscore", sig(rng.range(-1.0, 3.0), 6))
            .f("cadd_phred", sig(rng.range(0.0, 30.0), 4))
            .f("k36_umap", 1.0)
            .f("k50_umap", 1.0)
            .f("nucdiv", sig(rng.range(0.5, 5.0), 2));
    });
    let d = hash(&[v.gi, 77]);
    o.s("vrs_digest", &format!("{:016x}{:016x}", d, mix(d)))
        .s("ca_id", &format!("CA{}", 100_000_000 + v.gi))
        .s("source", "FAVOR")
        .s("source_url", "http://favor.genohub.org/");
    o.end();
    s.put("variants")
}

/// The chromosome's genes, elements, variants and every association.
fn chromosome(plan: &Plan, c: &Chrom, s: &mut Sink) -> io::Result<()> {
    let mut rng = Rng::new(hash(&[plan.seed, 1000 + c.index as u64]));
    for g in 0..c.genes {
        let gene = plan.gene(c, g);
        gene_docs(plan, c, &gene, s, &mut rng)?;
    }
    for e in 0..c.elements {
        let el = plan.element(c, e);
        element_docs(plan, c, &el, s, &mut rng)?;
    }
    let tfs = plan.tf_count();
    let mut recent: VecDeque<Var> = VecDeque::with_capacity(33);
    let mut pos = ORIGIN - MEAN_GAP;
    let mut gene_cache: Option<(u64, Gene)> = None;
    for j in 0..c.variants {
        let gi = c.first_variant + j;
        pos += 1 + rng.below(2 * MEAN_GAP - 1);
        let kind = rng.below(100);
        let (r, a, vtype) = if kind < 92 {
            let r = rng.below(4) as usize;
            let a = (r + 1 + rng.below(3) as usize) % 4;
            (BASES[r].to_string(), BASES[a].to_string(), "SNP")
        } else if kind < 96 {
            let n = 1 + rng.below(3) as usize;
            (
                (0..n).map(|_| *rng.pick(&BASES)).collect::<String>(),
                String::new(),
                "deletion",
            )
        } else {
            let n = 1 + rng.below(8) as usize;
            (
                String::new(),
                (0..n).map(|_| *rng.pick(&BASES)).collect::<String>(),
                "insertion",
            )
        };
        let key = format!("{}:{pos}:{r}:{a}", c.acc);
        let hgvs = match vtype {
            "SNP" => format!("{}:g.{}{r}>{a}", c.acc, pos + 1),
            "deletion" if r.len() == 1 => format!("{}:g.{}del", c.acc, pos + 1),
            "deletion" => format!("{}:g.{}_{}del", c.acc, pos + 1, pos + r.len() as u64),
            _ => format!("{}:g.{pos}_{}ins{a}", c.acc, pos + 1),
        };
        let v = Var {
            gi,
            key,
            pos,
            r,
            a,
            rsid: rsid(gi),
        };
        variant_doc(c, &v, vtype, &hgvs, s, &mut rng)?;
        let from = format!("variants/{}", v.key);
        let g = (pos.saturating_sub(ORIGIN) / GENE_PITCH).min(c.genes - 1);
        let gene = match &gene_cache {
            Some((k, gene)) if *k == g => gene.clone(),
            _ => {
                let gene = plan.gene(c, g);
                gene_cache = Some((g, gene.clone()));
                gene
            }
        };
        let gid = gene_id(gene.gg);
        let screen = v.rsid.is_none();

        // QTLs and screens → genes.
        let qtl = |s: &mut Sink, rng: &mut Rng, src: u8| -> io::Result<()> {
            let (bt, bname) = if src < 2 {
                (format!("ontology_terms/{}", term(0, 1)), term_name(0, 1))
            } else {
                biosample(rng)
            };
            let p = p_value(rng, 25.0);
            let splice = src == 1 || src == 3;
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &hex_key(&[plan.seed, gi, src as u64, 11]))
                .s("_from", &from)
                .s("_to", &format!("genes/{gid}"));
            match src {
                0 | 1 => {
                    o.s("biological_context", &bname)
                        .s("chr", c.name)
                        .f("neg_log10_pvalue", -p.log10())
                        .f("p_value", p)
                        .f("effect_size", sig(rng.range(-2.0, 2.0), 6))
                        .s("class", "observed data")
                        .s("method", if splice { "spliceQTL" } else { "eQTL" })
                        .s("label", if splice { "spliceQTL" } else { "eQTL" });
                    if splice {
                        o.s("intron_chr", c.name)
                            .s("intron_start", &format!("{}", gene.start + 1_000))
                            .s("intron_end", &format!("{}", gene.start + 4_000));
                    }
                    o.s("source", "AFGR")
                        .s("source_url", "https://github.com/smontgomlab/AFGR")
                        .s(
                            "name",
                            if splice {
                                "modulates splicing of"
                            } else {
                                "modulates expression of"
                            },
                        )
                        .s(
                            "inverse_name",
                            if splice {
                                "splicing modulated by"
                            } else {
                                "expression modulated by"
                            },
                        )
                        .s("biological_process", &go_term(if splice { 5 } else { 4 }))
                        .s("biosample_term", &bt)
                        .s(
                            "files_filesets",
                            &fs_handle(if splice { FS_AFGR_SQTL } else { FS_AFGR_EQTL }),
                        );
                }
                2 | 3 => {
                    let study = 1 + rng.below(100);
                    o.s("biosample_term", &bt)
                        .s("biological_process", &go_term(if splice { 5 } else { 4 }))
                        .s("study", &format!("studies/QTS{study:06}"))
                        .s("biological_context", &bname)
                        .s("label", if splice { "spliceQTL" } else { "eQTL" })
                        .s("class", "observed data")
                        .s("method", if splice { "spliceQTL" } else { "eQTL" })
                        .s("source", "EBI")
                        .s("source_url", &format!("ftp://ftp.ebi.ac.uk/pub/databases/spot/eQTL/susie/QTS{study:06}/QTD{study:06}/QTD{study:06}.credible_sets.tsv.gz"))
                        .s("name", if splice { "modulates splicing of" } else { "modulates expression of" })
                        .s("inverse_name", if splice { "splicing modulated by" } else { "expression modulated by" })
                        .s("molecular_trait_id", &gid)
                        .s("gene_id", &gid)
                        .s("credible_set_id", &format!("{gid}_L1"))
                        .s("variant_chromosome_position_ref_alt", &format!("{}_{}_{}_{}", c.name, pos + 1, v.r, v.a))
                        .os("rsid", v.rsid.as_deref())
                        .i("credible_set_size", 1 + rng.below(80) as i64)
                        .f("posterior_inclusion_probability", sig(rng.unit(), 12))
                        .f("p_value", p)
                        .f("neg_log10_pvalue", -p.log10())
                        .f("effect_size", sig(rng.range(-2.0, 2.0), 6))
                        .f("standard_error", sig(rng.range(0.01, 0.3), 6))
                        .f("z_score", sig(rng.range(-20.0, 20.0), 15))
                        .f("credible_set_min_r2", sig(rng.range(0.5, 1.0), 15))
                        .s("region", &format!("{}:{}-{}", c.name, pos.saturating_sub(1_000_000), pos + 1_000_000))
                        .s("files_filesets", &fs_handle(FS_EBI));
                    if splice {
                        o.s("intron_chr", chn(c))
                            .s("intron_start", &format!("{}", gene.start + 1_000))
                            .s("intron_end", &format!("{}", gene.start + 4_000));
                    }
                }
                _ => {
                    let es = sig(rng.range(-0.5, 0.5), 8);
                    o.f("effect_size", es)
                        .f("log2FC", sig(es * 1.45, 8))
                        .f("neg_log10_pvalue", -p.log10())
                        .f("neg_log10_pvalue_adj", sig(-p.log10() * 0.9, 10))
                        .f("power", sig(rng.unit(), 8))
                        .null("posterior_inclusion_probability")
                        .null("coefficient_stddev")
                        .b("significant", p < 0.05)
                        .s("class", "observed data")
                        .s("label", "variant effect on gene expression")
                        .s("name", "modulates expression of")
                        .s("inverse_name", "expression modulated by")
                        .s("source", "IGVF")
                        .s(
                            "source_url",
                            &format!(
                                "https://data.igvf.org/tabular-files/{}/",
                                fileset(FS_SCREEN)
                            ),
                        )
                        .s("files_filesets", &fs_handle(FS_SCREEN))
                        .s("method", "Variant-EFFECTS")
                        .s("crispr_modality", "prime editing")
                        .s("biological_context", &bname)
                        .s("biosample_term", &bt)
                        .null("treatments_term_ids");
                }
            }
            o.end();
            s.put("variants_genes")
        };
        if screen {
            qtl(s, &mut rng, 4)?;
        } else {
            for (src, p) in [(0u8, 0.25), (1, 0.1), (2, 0.1), (3, 0.05)] {
                if rng.chance(p) {
                    qtl(s, &mut rng, src)?;
                }
            }
        }

        // caQTL → genomic elements.
        if rng.chance(0.3) {
            let el = plan.element_at(c, pos);
            let (bt, bname) = biosample(&mut rng);
            let mut o = Obj::new(&mut s.buf);
            o.s(
                "_key",
                &format!("{}_{}_{}", v.key, el.key, &bt["ontology_terms/".len()..]),
            )
            .s("_from", &from)
            .s("_to", &format!("genomic_elements/{}", el.key));
            if let Some(rs) = &v.rsid {
                o.s("rsid", rs);
            }
            o.s("label", "caQTL")
                .s("method", "caQTL")
                .s("class", "observed data")
                .s("source", "ENCODE")
                .s(
                    "source_url",
                    &format!("https://www.encodeproject.org/files/{}", fileset(FS_CAQTL)),
                )
                .s("files_filesets", &fs_handle(FS_CAQTL))
                .s("biological_context", &bname)
                .s("biosample_term", &bt)
                .s("name", "modulates accessibility of")
                .s("inverse_name", "accessibility modulated by")
                .s(
                    "method_term",
                    &format!("ontology_terms/{}", term(6, 1 + rng.below(8))),
                );
            if rng.chance(0.3) {
                let p = p_value(&mut rng, 10.0);
                o.f("neg_log10_pvalue", -p.log10())
                    .f("p_value", p)
                    .f("beta", sig(rng.range(-1.0, 1.0), 6));
            }
            o.end();
            s.put("variants_genomic_elements")?;
        }

        // pQTL, allele-specific binding, SEMVAR → proteins.
        let roll = rng.unit();
        if roll < 0.15 && tfs > 0 {
            let mut o = Obj::new(&mut s.buf);
            if roll < 0.08 {
                let pid = protein_id(gene.gg, 0);
                let p = p_value(&mut rng, 80.0);
                o.s("_key", &format!("{}_{pid}_UKB", v.key))
                    .s("_from", &from)
                    .s("_to", &format!("proteins/{pid}"))
                    .os("rsid", v.rsid.as_deref())
                    .s("label", "pQTL")
                    .s("class", "observed data")
                    .s("method", "pQTL")
                    .f("neg_log10_pvalue", sig(-p.log10(), 3))
                    .f("beta", sig(rng.range(-0.5, 0.5), 3))
                    .f("se", sig(rng.range(0.001, 0.05), 2))
                    .s(
                        "regulatory_type",
                        if rng.chance(0.5) { "cis" } else { "trans" },
                    )
                    .s("gene", &format!("genes/{gid}"))
                    .s("gene_consequence", "missense_variant")
                    .s("biological_context", "blood plasma")
                    .s("biosample_term", &format!("ontology_terms/{}", term(2, 1)))
                    .s("files_filesets", &fs_handle(FS_UKB))
                    .s("source", "UKB")
                    .s("source_url", "https://metabolomips.org/ukbbpgwas/")
                    .s("name", "associated with levels of")
                    .s("inverse_name", "level associated with");
            } else {
                let tf = rng.below(tfs) * TF_STRIDE;
                let pid = protein_id(tf, 0);
                let motif = format!("motifs/{}_HUMAN_HOCOMOCOv11", symbol(tf));
                if roll < 0.13 {
                    let conc = *rng.pick(&["Concordant", "Discordant", "No Hit"]);
                    let pr = p_value(&mut rng, 6.0);
                    let (bt, bname) = biosample(&mut rng);
                    o.s(
                        "_key",
                        &format!(
                            "{}_{pid}_{}_ADASTRA_{}",
                            v.key,
                            conc.replace(' ', "_"),
                            rng.below(1000)
                        ),
                    )
                    .s("_from", &from)
                    .s("_to", &format!("proteins/{pid}"))
                    .s("chr", c.name)
                    .os("rsid", v.rsid.as_deref())
                    .s("motif_fc", &format!("{:?}", sig(rng.range(-3.0, 3.0), 16)))
                    .s("motif_pos", &format!("{}", rng.below(20)))
                    .s("motif_orient", if rng.chance(0.5) { "+" } else { "-" })
                    .s("motif_conc", conc)
                    .s("motif", &motif)
                    .s(
                        "es_mean_ref",
                        &format!("{:?}", sig(rng.range(-3.0, 3.0), 16)),
                    )
                    .s(
                        "es_mean_alt",
                        &format!("{:?}", sig(rng.range(-3.0, 3.0), 16)),
                    )
                    .f("p_value_adj_ref", pr)
                    .f("p_value_adj_alt", 1.0)
                    .f("neg_log10_pvalue_adj_ref", -pr.log10())
                    .f("neg_log10_pvalue_adj_alt", -0.0)
                    .s("biological_context", &bname)
                    .s("biosample_term", &bt)
                    .s("source", "ADASTRA")
                    .s(
                        "source_url",
                        "http://gtrd.biouml.org/#!table/gtrd_current.cells/Details/ID=430",
                    )
                    .s("label", "allele-specific binding")
                    .s("method", "ADASTRA")
                    .s("class", "observed data")
                    .s("files_filesets", &fs_handle(FS_ADASTRA))
                    .s("name", "modulates binding of")
                    .s("inverse_name", "binding modulated by")
                    .s("biological_process", &go_term(6));
                } else {
                    let ctx = format!("{}:{}-{}", c.name, pos.saturating_sub(7), pos + 8);
                    o.s("_key", &format!("{}_{pid}_{}", v.key, fileset(FS_SEMVAR)))
                        .s("_from", &from)
                        .s("_to", &format!("proteins/{pid}"))
                        .s("label", "predicted allele-specific binding")
                        .s("method", "SEMVAR")
                        .s("class", "prediction")
                        .null("biosample_term")
                        .null("biological_context")
                        .s("motif", &motif)
                        .s("ref_seq_context", &ctx)
                        .s("alt_seq_context", &ctx)
                        .f("ref_score", sig(rng.unit(), 16))
                        .f("alt_score", sig(rng.unit(), 16))
                        .f("variant_effect_score", sig(rng.range(-1.0, 1.0), 16))
                        .s(
                            "SEMpl_annotation",
                            pick_str(
                                &mut rng,
                                &[
                                    "binding_ablated",
                                    "binding_created",
                                    "binding_decreased",
                                    "binding_increased",
                                ],
                            ),
                        )
                        .f("SEMpl_baseline", sig(rng.range(-2.0, 0.0), 7))
                        .s("files_filesets", &fs_handle(FS_SEMVAR))
                        .s("name", "modulates binding of")
                        .s("inverse_name", "binding modulated by")
                        .s("biological_process", &go_term(6))
                        .s("source", "IGVF")
                        .s(
                            "source_url",
                            &format!("https://data.igvf.org/tabular-files/{}", fileset(FS_SEMVAR)),
                        );
                }
            }
            o.end();
            s.put("variants_proteins")?;
        }

        // GWAS → phenotypes.
        if !screen && rng.chance(0.02) {
            let onto = if rng.chance(0.5) { 0 } else { 7 };
            let (t, tname) = term_ref(plan, &mut rng, onto);
            let p = p_value(&mut rng, 30.0);
            let or = sig(rng.range(0.3, 3.0), 16);
            let tagged: Vec<String> = recent
                .iter()
                .rev()
                .take(1 + rng.below(3) as usize)
                .map(|t| {
                    format!(
                        "{{\"tag_chrom\": \"{}\", \"tag_pos\": {}, \"tag_ref\": \"{}\", \"tag_alt\": \"{}\", \"overall_r2\": \"{:?}\", \"pics_95perc_credset\": \"True\", \"AFR_1000G_prop\": \"0.0\", \"AMR_1000G_prop\": \"0.0\", \"EAS_1000G_prop\": \"0.0\", \"EUR_1000G_prop\": \"1.0\", \"SAS_1000G_prop\": \"0.0\", \"log10_ABF\": \"{:?}\", \"posterior_prob\": \"{:?}\"}}",
                        chn(c), t.pos + 1, t.r, t.a, sig(0.5 + (t.gi % 50) as f64 / 100.0, 12), sig(1.0 + (t.gi % 7) as f64, 16), sig((t.gi % 100) as f64 / 1000.0 + 0.001, 15)
                    )
                })
                .collect();
            let mut o = Obj::new(&mut s.buf);
            o.s("_to", &t)
                .s("_from", &from)
                .s("_key", &hex_key(&[plan.seed, gi, 21]))
                .s("study", &format!("studies/GCST{:06}", 1 + rng.below(100)))
                .null("equivalent_ontology_term")
                .s("lead_chrom", chn(c))
                .i("lead_pos", pos as i64)
                .s("lead_ref", &v.r)
                .s("lead_alt", &v.a)
                .s("phenotype_term", &tname)
                .s("direction", if or > 1.0 { "+" } else { "-" })
                .f("beta", 0.0)
                .f("beta_ci_lower", 0.0)
                .f("beta_ci_upper", 0.0)
                .f("odds_ratio", or)
                .f("oddsr_ci_lower", sig(or * 0.7, 16))
                .f("oddsr_ci_upper", sig(or * 1.4, 16))
                .f("p_val_mantissa", sig(p / 10f64.powf(p.log10().floor()), 6))
                .f("p_val_exponent", p.log10().floor())
                .f("p_value", p)
                .f("neg_log10_pvalue", -p.log10())
                .raw("tagged_variants", &format!("[{}]", tagged.join(", ")))
                .s("source", "OpenTargets")
                .s(
                    "source_url",
                    "https://data.igvf.org/reference-files/IGVFFI1309WDQG",
                )
                .s("version", "October 2022 (22.10)")
                .s("name", "associated with")
                .s("inverse_name", "associated with")
                .s("class", "observed data")
                .s("method", "GWAS")
                .s("label", "GWAS")
                .s("files_filesets", &fs_handle(FS_GWAS));
            o.end();
            s.put("variants_phenotypes")?;
        }

        // MPRA / STARR-seq → biosamples.
        if rng.chance(0.05) {
            let (bt, bname) = biosample(&mut rng);
            let el = plan.element_at(c, pos);
            let p = p_value(&mut rng, 8.0);
            let lfc = sig(rng.range(-2.0, 2.0), 6);
            let mut o = Obj::new(&mut s.buf);
            o.s(
                "_key",
                &format!(
                    "{}_{}_{}",
                    v.key,
                    &bt["ontology_terms/".len()..],
                    fileset(FS_MPRA_VARIANT)
                ),
            )
            .s("_from", &from)
            .s("_to", &bt)
            .s("genomic_element", &format!("genomic_elements/{}", el.key))
            .s("strand", "+")
            .i("bed_score", rng.below(1000) as i64)
            .f("log2FC", lfc)
            .f("DNA_count_ref", sig(rng.range(0.0, 100.0), 6))
            .f("RNA_count_ref", sig(rng.range(0.0, 100.0), 6))
            .f("DNA_count_alt", sig(rng.range(0.0, 100.0), 6))
            .f("RNA_count_alt", sig(rng.range(0.0, 100.0), 6))
            .f("neg_log10_pvalue", -p.log10())
            .f("neg_log10_pvalue_adj", sig(-p.log10() * 0.8, 10))
            .b("significant", p < 0.01)
            .f("postProbEffect", sig(rng.unit(), 6))
            .f("CI_lower_95", sig(lfc - 0.5, 6))
            .f("CI_upper_95", sig(lfc + 0.5, 6))
            .s("class", "observed data")
            .s("label", "variant effect")
            .s("name", "has regulatory activity in")
            .s("inverse_name", "regulatory activity of")
            .s(
                "method",
                pick_str(&mut rng, &["MPRA", "STARR-seq", "BlueSTARR"]),
            )
            .s("source", "IGVF")
            .s(
                "source_url",
                &format!(
                    "https://data.igvf.org/tabular-files/{}/",
                    fileset(FS_MPRA_VARIANT)
                ),
            )
            .s("files_filesets", &fs_handle(FS_MPRA_VARIANT))
            .s("biological_context", &bname)
            .s("biosample_term", &bt)
            .null("treatments_term_ids");
            o.end();
            s.put("variants_biosamples")?;
        }

        // PharmGKB → drugs.
        if !screen && rng.chance(0.003) {
            let drug = format!("PA{}", 166_000_000 + rng.below(500));
            let ann = 1_450_000_000 + gi;
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &format!("{ann}_{}", &drug))
                .s("_from", &from)
                .s("_to", &format!("drugs/{drug}"))
                .strs("gene_symbol", &[symbol(gene.gg)])
                .s("pmid", &format!("{}", 22_000_000 + gi % 1_000_000))
                .raw("study_parameters", &format!("[{{\"study_parameter_id\": \"SP{}\", \"study_type\": \"cohort\", \"study_cases\": \"{}\", \"study_controls\": \"{}\", \"p-value\": \"= 0.00{}\", \"biogeographical_groups\": \"European\"}}]", 900_000 + gi % 100_000, 50 + rng.below(500), 100 + rng.below(1000), 1 + rng.below(9)))
                .strs("phenotype_categories", &[*rng.pick(&["Efficacy", "Toxicity", "Dosage", "Metabolism/PK"])])
                .s("name", "associated with")
                .s("inverse_name", "associated with")
                .s("source", "pharmGKB")
                .s("source_url", &format!("https://www.pharmgkb.org/variantAnnotation/{ann}"))
                .s("class", "observed data")
                .s("method", "PharmGKB")
                .s("files_filesets", &fs_handle(FS_PHARMGKB));
            o.end();
            s.put("variants_drugs")?;
        }

        // ClinGen → diseases (and the disease–gene edge on that edge).
        if !screen && rng.chance(0.005) {
            let (d, _) = term_ref(plan, &mut rng, 4);
            let key = hex_key(&[plan.seed, gi, 31]);
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &key)
                .s("_from", &from)
                .s("_to", &d)
                .s("gene_id", &format!("genes/{gid}"))
                .s(
                    "assertion",
                    pick_str(
                        &mut rng,
                        &[
                            "Pathogenic",
                            "Likely Pathogenic",
                            "Uncertain Significance",
                            "Benign",
                        ],
                    ),
                )
                .strs(
                    "pmids",
                    &[format!(
                        "http://pubmed.ncbi.nlm.nih.gov/{}",
                        2_500_000 + gi % 1_000_000
                    )],
                )
                .s("name", "associated with")
                .s("inverse_name", "associated with")
                .s("source", "ClinGen")
                .s(
                    "source_url",
                    "https://search.clinicalgenome.org/kb/downloads",
                )
                .s("class", "observed data")
                .s("method", "ClinGen")
                .s("label", "ClinGen")
                .s("files_filesets", &fs_handle(FS_CLINGEN));
            o.end();
            s.put("variants_diseases")?;
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &hex_key(&[plan.seed, gi, 32]))
                .s("_from", &format!("variants_diseases/{key}"))
                .s("_to", &format!("genes/{gid}"))
                .s("name", "associated with")
                .s("inverse_name", "associated with")
                .s("inheritance_mode", "Autosomal dominant inheritance")
                .s("source", "ClinGen")
                .s(
                    "source_url",
                    "https://search.clinicalgenome.org/kb/downloads",
                )
                .s("class", "observed data")
                .s("method", "ClinGen")
                .s("label", "ClinGen")
                .s("files_filesets", &fs_handle(FS_CLINGEN));
            o.end();
            s.put("variants_diseases_genes")?;
        }

        // Coding variants: SNVs inside a gene's span.
        if vtype == "SNP" && pos >= gene.start && pos < gene.end && rng.chance(0.15) {
            let sym = symbol(gene.gg);
            let tid = transcript_id(gene.gg, 0);
            let pid = protein_id(gene.gg, 0);
            let cpos = pos - gene.start + 1;
            let aapos = (cpos - 1) / 3 + 1;
            let (ra, aa) = (*rng.pick(&AMINO), *rng.pick(&AMINO));
            let key = format!("{sym}_{tid}_p.{ra}{aapos}{aa}_c.{cpos}{}-{}", v.r, v.a);
            let score = |rng: &mut Rng, p: f64| {
                if rng.chance(p) {
                    Some(sig(rng.unit(), 6))
                } else {
                    None
                }
            };
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &key)
                .s("name", &key)
                .s("ref", ra)
                .s("alt", aa)
                .f("aapos", aapos as f64)
                .s("gene_name", &sym)
                .s("protein_name", &format!("{sym}_HUMAN"))
                .s("protein_id", &pid)
                .s("hgvsc", &format!("c.{cpos}{}>{}", v.r, v.a))
                .s("hgvsp", &format!("p.{ra}{aapos}{aa}"))
                .s(
                    "refcodon",
                    &format!("{}{}{}", v.r, *rng.pick(&BASES), *rng.pick(&BASES)),
                )
                .null("codonpos")
                .s("transcript_id", &tid);
            for k in [
                "SIFT_score",
                "SIFT4G_score",
                "Polyphen2_HDIV_score",
                "Polyphen2_HVAR_score",
                "VEST4_score",
                "REVEL_score",
                "MutPred_score",
                "BayesDel_addAF_score",
                "BayesDel_noAF_score",
                "VARITY_R_score",
                "VARITY_ER_score",
                "VARITY_R_LOO_score",
                "VARITY_ER_LOO_score",
                "ESM1b_score",
                "AlphaMissense_score",
                "CADD_raw_score",
            ] {
                match score(&mut rng, 0.5) {
                    Some(x) => o.f(k, x),
                    None => o.null(k),
                };
            }
            o.s("source", "dbNSFP 5.1a")
                .s("source_url", "http://database.liulab.science/dbNSFP");
            o.end();
            s.put("coding_variants")?;
            let mut o = Obj::new(&mut s.buf);
            o.s("_from", &from)
                .s("_to", &format!("coding_variants/{key}"))
                .s("_key", &format!("{}_{key}", v.key))
                .s("source", "dbNSFP 5.1a")
                .s("source_url", "http://database.liulab.science/dbNSFP")
                .s("name", "codes for")
                .s("inverse_name", "encoded by")
                .s("chr", chn(c))
                .f("pos", pos as f64)
                .s("ref", &v.r)
                .s("alt", &v.a);
            o.end();
            s.put("variants_coding_variants")?;
            let other = CV_METHODS[rng.below(CV_METHODS.len() as u64) as usize];
            for (n, (method, member)) in [("ESM-1v", "esm_1v_score"), other].into_iter().enumerate()
            {
                let mut o = Obj::new(&mut s.buf);
                o.s(
                    "_key",
                    &format!(
                        "{key}_{}_{}",
                        method.replace(' ', "_"),
                        fileset(FS_CODING + n)
                    ),
                )
                .s("_from", &format!("coding_variants/{key}"))
                .s("_to", &format!("ontology_terms/{}", term(5, 1 + n as u64)))
                .s("method", method)
                .s("class", "observed data")
                .s("label", "protein variant effect")
                .s("name", "has phenotype")
                .s("inverse_name", "phenotype of")
                .s("source", "IGVF")
                .s(
                    "source_url",
                    &format!(
                        "https://data.igvf.org/tabular-files/{}/",
                        fileset(FS_CODING + n)
                    ),
                )
                .s("files_filesets", &fs_handle(FS_CODING + n))
                .null("biosample_term")
                .null("biological_context")
                .f(member, sig(rng.range(-8.0, 2.0), 6));
                o.end();
                s.put("coding_variants_phenotypes")?;
            }
        }

        // TopLD: four pairs with earlier variants nearby (each pair stored once).
        if !recent.is_empty() {
            let mut taken = 0u64;
            for _ in 0..4 {
                let back = rng.below(recent.len() as u64) as usize;
                let bit = 1u64 << back;
                if taken & bit != 0 {
                    continue;
                }
                taken |= bit;
                let other = &recent[recent.len() - 1 - back];
                let anc = *rng.pick(&["AFR", "EAS", "EUR", "SAS"]);
                let mut o = Obj::new(&mut s.buf);
                o.s("_key", &hex_key(&[plan.seed, gi, other.gi, 41]))
                    .s("_from", &format!("variants/{}", other.key))
                    .s("_to", &from)
                    .s("chr", c.name)
                    .s("ancestry", anc)
                    .f("r2", sig(rng.range(0.2, 1.0), 6))
                    .f("d_prime", sig(rng.range(0.5, 1.0), 6))
                    .b("negated", rng.chance(0.2))
                    .s("variant_1_base_pair", &format!("{}:{}", other.r, other.a))
                    .s("variant_2_base_pair", &format!("{}:{}", v.r, v.a))
                    .s("variant_1_rsid", other.rsid.as_deref().unwrap_or(""))
                    .s("variant_2_rsid", v.rsid.as_deref().unwrap_or(""))
                    .s("label", "linkage disequilibrium")
                    .s("name", "correlated with")
                    .s("inverse_name", "correlated with")
                    .s("source", "TopLD")
                    .s("source_url", "http://topld.genetics.unc.edu/");
                o.end();
                s.put("variants_variants")?;
            }
        }
        if recent.len() == 32 {
            recent.pop_front();
        }
        recent.push_back(v);
    }
    Ok(())
}

fn pick_str<'a>(rng: &mut Rng, s: &[&'a str]) -> &'a str {
    s[rng.below(s.len() as u64) as usize]
}

fn chn(c: &Chrom) -> &'static str {
    &c.name[3..]
}
