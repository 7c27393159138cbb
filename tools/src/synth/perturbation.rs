//! Perturbed promoters: half of the tested elements are the promoter of the gene they lie in
//! (`promoter_of`, method Perturb-seq). Each has a Perturb-seq edge to that gene (the
//! perturbation efficiency) and to up to two neighbouring genes (responses,
//! `genomic_elements_genes`), and Multiome Perturb-seq edges to the next two elements, whose
//! accessibility it changes (`genomic_elements_genomic_elements`). Drawn from generators of
//! their own, so the rest of the catalog is the same with or without them.

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::ontology::biosample;
use super::sink::Sink;
use super::*;

/// The gene element `e` is the promoter of, if it is a perturbed promoter.
pub(super) fn promoter_of(plan: &Plan, c: &Chrom, e: &Element) -> Option<Gene> {
    let mut rng = Rng::new(hash(&[plan.seed, 36, c.index as u64, e.start]));
    (e.kind == 2 && c.genes > 0 && rng.chance(0.5)).then(|| plan.gene_at(c, e.start))
}

/// A Perturb-seq effect: p-value, log2 fold change, significance.
fn effect(rng: &mut Rng, strong: bool) -> (f64, f64, bool) {
    let p = if strong {
        sig(rng.unit().max(1e-12) * 1e-6, 9)
    } else {
        sig(rng.unit().max(1e-12), 9)
    };
    let lfc = if strong {
        sig(rng.range(-3.0, -1.0), 6)
    } else {
        sig(rng.range(-1.0, 1.0), 6)
    };
    (p, lfc, p < 0.01)
}

/// The statistics members of an effect (`p_value_adj` three times `p_value`, capped at 1).
fn stats(o: &mut Obj<'_>, (p, lfc, significant): (f64, f64, bool)) {
    let padj = (p * 3.0).min(1.0);
    o.f("log2FC", lfc)
        .f("p_value", p)
        .f("p_value_adj", sig(padj, 9))
        .f("neg_log10_pvalue", sig(-p.log10(), 9))
        .f("neg_log10_pvalue_adj", sig(-padj.log10(), 9))
        .b("significant", significant);
}

/// The Perturb-seq and Multiome Perturb-seq edges of promoter `e` of gene `g`.
pub(super) fn perturb_seq(
    plan: &Plan,
    c: &Chrom,
    e: &Element,
    g: &Gene,
    s: &mut Sink,
) -> io::Result<()> {
    let mut rng = Rng::new(hash(&[plan.seed, 37, c.index as u64, e.start]));
    let (bt, bname) = biosample(&mut rng);
    let local = g.gg - c.first_gene;
    // The promoter's own gene first (efficiency), then its neighbours (responses).
    let mut targets = vec![(g.gg, true)];
    for n in [local.checked_sub(1), Some(local + 1)]
        .into_iter()
        .flatten()
    {
        if n < c.genes {
            targets.push((plan.gene(c, n).gg, false));
        }
    }
    for (gg, own) in targets {
        let gid = gene_id(gg);
        let mut o = Obj::new(&mut s.buf);
        o.s(
            "_key",
            &format!("{}_{gid}_{}", e.key, fileset(FS_PERTURB_SEQ)),
        )
        .s("_from", &format!("genomic_elements/{}", e.key))
        .s("_to", &format!("genes/{gid}"));
        let x = effect(&mut rng, own);
        stats(&mut o, x);
        o.f("effect_size", x.1)
            .s("method", "Perturb-seq")
            .s("crispr_modality", "interference")
            .s("class", "observed data")
            .s(
                "label",
                if own {
                    "perturbation efficiency"
                } else {
                    "variant effect on gene expression"
                },
            )
            .s("source", "IGVF")
            .s(
                "source_url",
                &format!(
                    "https://data.igvf.org/tabular-files/{}/",
                    fileset(FS_PERTURB_SEQ)
                ),
            )
            .s("files_filesets", &fs_handle(FS_PERTURB_SEQ))
            .s("biological_context", &bname)
            .s("biosample_term", &bt)
            .null("treatments_term_ids")
            .s("name", "modulates expression of")
            .s("inverse_name", "expression modulated by");
        o.end();
        s.put("genomic_elements_genes")?;
    }
    let index = e.start / ELEMENT_PITCH;
    for peak in (index + 1..index + 3).filter(|&i| i < c.elements) {
        let to = plan.element(c, peak);
        let mut o = Obj::new(&mut s.buf);
        o.s(
            "_key",
            &format!("{}_{}_{}", e.key, to.key, fileset(FS_MULTIOME)),
        )
        .s("_from", &format!("genomic_elements/{}", e.key))
        .s("_to", &format!("genomic_elements/{}", to.key))
        .s("name", "modulates accessibility of")
        .s("inverse_name", "accessibility modulated by")
        .s(
            "label",
            "promoter perturbation effect on chromatin accessibility",
        )
        .s("class", "observed data")
        .s("method", "Multiome Perturb-seq")
        .s("source", "IGVF")
        .s(
            "source_url",
            &format!(
                "https://data.igvf.org/tabular-files/{}/",
                fileset(FS_MULTIOME)
            ),
        )
        .s("files_filesets", &fs_handle(FS_MULTIOME))
        .s("biological_context", &bname)
        .s("biosample_term", &bt)
        .null("treatments_term_ids")
        .s("crispr_modality", "interference");
        stats(&mut o, effect(&mut rng, false));
        o.end();
        s.put("genomic_elements_genomic_elements")?;
    }
    Ok(())
}
