//! Overexpression screens: MORF effects (`genes_transcripts_genes`) of every fifth human gene's
//! first coding transcript on two readout genes. Each gene's draws come from a generator of its
//! own, so this collection leaves every other collection's bytes as they were.

use std::io;

use super::filesets::fs_handle;
use super::gencode::HUMAN;
use super::json::Obj;
use super::ontology::biosample;
use super::sink::Sink;
use super::*;

/// The MORF effects of gene `gg`'s construct (none unless `gg` is a multiple of 5): readout
/// genes drawn among the others, about a third of the effects significant.
pub(super) fn gene(plan: &Plan, gg: u64, s: &mut Sink) -> io::Result<()> {
    if !gg.is_multiple_of(5) || plan.genes < 2 {
        return Ok(());
    }
    let Some(t) = HUMAN.coding_transcripts().next() else {
        return Ok(());
    };
    let mut rng = Rng::new(hash(&[plan.seed, 36, gg]));
    let gid = gene_id(gg);
    let construct = format!("genes_transcripts/{gid}_{}", HUMAN.transcript_id(gg, t));
    let (bt, bname) = biosample(&mut rng);
    for j in 0..2u64 {
        // Another gene (the two readouts may coincide: distinct rows, as distinct screens).
        let readout = (gg + 1 + rng.below(plan.genes - 1)) % plan.genes;
        let p = sig(10f64.powf(-rng.range(0.5, 9.0)), 4);
        let padj = sig((p * 40.0).min(1.0), 4);
        let log2fc = sig(rng.range(-3.0, 3.0), 4);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("{gid}_{j}"))
            .s("_from", &construct)
            .s("_to", &format!("genes/{}", gene_id(readout)))
            .s("morf_id", &format!("ccsbBroad304_{:05}", gg))
            .s("transcript_mapping_method", "exact ORF match")
            .f("log2FC", log2fc)
            .f("standard_error", sig(rng.range(0.05, 0.5), 3))
            .f("base_mean", sig(rng.range(5.0, 5000.0), 4))
            .f("p_value", p)
            .f("p_value_adj", padj)
            .f("neg_log10_pvalue", sig(-p.log10(), 6))
            .f("neg_log10_pvalue_adj", sig(-padj.log10(), 6))
            .b("significant", padj < 0.05)
            .s("name", "modulates expression of")
            .s("inverse_name", "expression modulated by")
            .s("label", "MORF overexpression effect")
            .s("class", "observed data")
            .s("method", "MORF screen")
            .s("source", "IGVF")
            .s(
                "source_url",
                &format!("https://data.igvf.org/analysis-sets/{}/", fileset(FS_MORF)),
            )
            .s("files_filesets", &fs_handle(FS_MORF))
            .s("biological_context", &bname)
            .s("biosample_term", &bt)
            .null("treatments_term_ids");
        o.end();
        s.put("genes_transcripts_genes")?;
    }
    Ok(())
}
