//! Human variants (`variants`, with their FAVOR annotations) and what their associations
//! share.

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::sink::Sink;
use super::*;

pub(super) const BASES: [&str; 4] = ["A", "C", "G", "T"];
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

/// A variant as generated.
pub(super) struct Var {
    pub gi: u64,
    pub key: String,
    pub pos: u64,
    pub r: String,
    pub a: String,
    /// `SNP`, `deletion` or `insertion`.
    pub vtype: &'static str,
    pub rsid: Option<String>,
}

impl Var {
    /// A variant from a screen: no rsid, no annotations.
    pub fn screen(&self) -> bool {
        self.rsid.is_none()
    }
}

/// A variant on its chromosome and the gene whose slot holds it: what its associations
/// refer to.
pub(super) struct Site<'a> {
    pub plan: &'a Plan,
    pub c: &'a Chrom,
    pub v: &'a Var,
    /// `variants/<key>`, the `_from` of its edges.
    pub from: String,
    pub gene: &'a Gene,
    /// `gene`'s id.
    pub gid: String,
}

/// Global variant `gi` at `pos` on `c`: an SNV, a short deletion or a short insertion.
pub(super) fn draw(c: &Chrom, gi: u64, pos: u64, rng: &mut Rng) -> Var {
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
    Var {
        gi,
        key: format!("{}:{pos}:{r}:{a}", c.acc),
        pos,
        r,
        a,
        vtype,
        rsid: rsid(gi),
    }
}

/// The variant's HGVS genomic notation.
fn hgvs(c: &Chrom, v: &Var) -> String {
    let (pos, r, a) = (v.pos, &v.r, &v.a);
    match v.vtype {
        "SNP" => format!("{}:g.{}{r}>{a}", c.acc, pos + 1),
        "deletion" if r.len() == 1 => format!("{}:g.{}del", c.acc, pos + 1),
        "deletion" => format!("{}:g.{}_{}del", c.acc, pos + 1, pos + r.len() as u64),
        _ => format!("{}:g.{pos}_{}ins{a}", c.acc, pos + 1),
    }
}

/// The variant's document: screen variants cite their screen, others carry annotations.
pub(super) fn doc(c: &Chrom, v: &Var, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let chn = chn(c);
    let hgvs = &hgvs(c, v);
    let mut o = Obj::new(&mut s.buf);
    o.s("_key", &v.key)
        .s("name", &v.key)
        .s("chr", c.name)
        .i("pos", v.pos as i64)
        .s("ref", &v.r)
        .s("alt", &v.a)
        .s("variation_type", v.vtype)
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

/// A sha256-like hex key (64 hex digits) from some numbers.
pub(super) fn hex_key(parts: &[u64]) -> String {
    let h = hash(parts);
    format!(
        "{:016x}{:016x}{:016x}{:016x}",
        mix(h),
        mix(h ^ 1),
        mix(h ^ 2),
        mix(h ^ 3)
    )
}

/// A p-value between 10^-0.5 and 10^-`max_exp`.
pub(super) fn p_value(rng: &mut Rng, max_exp: f64) -> f64 {
    sig(10f64.powf(-rng.range(0.5, max_exp)), 7)
}

/// One of `s`.
pub(super) fn pick_str<'a>(rng: &mut Rng, s: &[&'a str]) -> &'a str {
    s[rng.below(s.len() as u64) as usize]
}

/// The chromosome without its `chr` prefix.
pub(super) fn chn(c: &Chrom) -> &'static str {
    &c.name[3..]
}
