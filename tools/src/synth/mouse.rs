//! A small mouse catalog: GENCODE vM36 genes (through [`MOUSE`]), a cCRE and twenty variants
//! per gene, all on chr1 (`mm_*`).

use std::io;

use super::elements::{ccre, CCRE_CLASSES};
use super::gencode::{GeneSpec, MOUSE};
use super::json::Obj;
use super::sink::Sink;
use super::variants::BASES;
use super::*;

/// The mouse chromosome and its GRCm39 RefSeq accession.
const CHR: &str = "chr1";
const ACC: &str = "NC_000067.7";

/// Fifty genes and one per hundred human genes.
pub(super) fn mouse(plan: &Plan, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let genes = 50 + plan.genes / 100;
    super::interactions::mouse(plan, genes, s)?;
    for g in 0..genes {
        let sym = format!("Syn{}", g + 1);
        let start = 3_000_000 + g * GENE_PITCH;
        let end = start + 20_000 + rng.below(50_000);
        let spec = GeneSpec {
            n: g,
            symbol: &sym,
            chr: CHR,
            start,
            end,
            strand: "+",
        };
        MOUSE.gene(s, &spec, |o| {
            o.s("mgi", &format!("MGI:{}", 1_900_000 + g))
                .strs("synonyms", &[format!("{sym}a")])
                .s("entrez", &format!("ENTREZ:{}", 70_000 + g));
        })?;
        let es = start + 1_000;
        let mut o = Obj::new(&mut s.buf);
        o.s(
            "_key",
            &format!(
                "candidate_cis_regulatory_element_{CHR}_{es}_{}_GRCm39_{}",
                es + 350,
                fileset(FS_CCRE)
            ),
        );
        ccre(
            &mut o,
            &format!("EM10E{:07}", g),
            CHR,
            es,
            es + 350,
            CCRE_CLASSES[0],
        );
        o.end();
        s.put("mm_genomic_elements")?;
        for v in 0..20u64 {
            let pos = start + v * 997;
            let (r, a) = (rng.below(4) as usize, rng.below(3) as usize);
            let (r, a) = (BASES[r], BASES[(r + 1 + a) % 4]);
            let spdi = format!("{ACC}:{pos}:{r}:{a}");
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &spdi)
                .s("chr", CHR)
                .i("pos", pos as i64)
                .strs("rsid", &[format!("rs{}", 580_000_000 + g * 20 + v)])
                .s("ref", r)
                .s("alt", a)
                .s("organism", MOUSE.organism)
                .strs("strain", &["129S1_SvImJ", "A_J"][..1 + (v % 2) as usize])
                .s("qual", "999")
                .s("filter", "PASS")
                .s("fi", "1")
                .s("name", &spdi)
                .s("spdi", &spdi)
                .s("hgvs", &format!("{ACC}:g.{}{r}>{a}", pos + 1))
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
