//! Genomic elements (`genomic_elements`: cCREs, caQTL elements, tested elements) and their
//! edges to genes and biosamples.

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::ontology::biosample;
use super::perturbation;
use super::sink::Sink;
use super::*;

/// ENCODE cCRE classes.
pub(super) const CCRE_CLASSES: [&str; 4] = [
    "dELS: distal Enhancer-like signal",
    "pELS: proximal Enhancer-like signal",
    "CA: chromatin accessible",
    "PLS: Promoter-like signal",
];

/// The members of a cCRE after its `_key` (human and mouse alike).
pub(super) fn ccre(o: &mut Obj<'_>, name: &str, chr: &str, start: u64, end: u64, class: &str) {
    o.s("name", name)
        .s("chr", chr)
        .i("start", start as i64)
        .i("end", end as i64)
        .s("source_annotation", class)
        .s("method", "candidate Cis-Regulatory Elements")
        .s("type", "candidate cis regulatory element")
        .s("source", "ENCODE")
        .s(
            "source_url",
            &format!("https://www.encodeproject.org/files/{}", fileset(FS_CCRE)),
        )
        .s("files_filesets", &fs_handle(FS_CCRE));
}

/// Element `e` of chromosome `c`: one in three regulates a gene, one in ten is active in a
/// biosample.
pub(super) fn element(
    plan: &Plan,
    c: &Chrom,
    e: &Element,
    s: &mut Sink,
    rng: &mut Rng,
) -> io::Result<()> {
    let promoter = perturbation::promoter_of(plan, c, e);
    let mut o = Obj::new(&mut s.buf);
    o.s("_key", &e.key);
    match e.kind {
        0 => {
            let class = CCRE_CLASSES[rng.below(4) as usize];
            let name = format!("EH38E{:07}", hash(&[c.index as u64, e.start]) % 10_000_000);
            ccre(&mut o, &name, c.name, e.start, e.end, class);
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
                .s(
                    "method",
                    if promoter.is_some() {
                        "Perturb-seq"
                    } else {
                        "CRISPR screen"
                    },
                )
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
            if let Some(g) = &promoter {
                o.s("promoter_of", &format!("genes/{}", gene_id(g.gg)));
            }
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
    if e.kind == 2 {
        phenotype(plan, c, e, s)?;
    }
    if let Some(g) = promoter {
        perturbation::perturb_seq(plan, c, e, &g, s)?;
    }
    Ok(())
}

/// The phenotype a tested element was screened for (CRISPR growth/migration screens,
/// `genomic_elements_phenotypes`): one per tested element, from a generator of its own.
fn phenotype(plan: &Plan, c: &Chrom, e: &Element, s: &mut Sink) -> io::Result<()> {
    let mut rng = Rng::new(hash(&[plan.seed, 35, c.index as u64, e.start]));
    let k = 1 + rng.below(plan.terms);
    let go = term(3, k);
    let z = sig(rng.range(-4.0, 4.0), 8);
    let p = sig(rng.unit().max(1e-9), 9);
    let guides = 10 + rng.below(30);
    let hit = rng.below(guides + 1);
    let (bt, bname) = biosample(&mut rng);
    let mut o = Obj::new(&mut s.buf);
    o.s("_key", &format!("{}_{go}", e.key))
        .s("_from", &format!("genomic_elements/{}", e.key))
        .s("_to", &format!("ontology_terms/{go}"))
        .f("z_score", z)
        .f("p_value", p)
        .f("neg_log10_pvalue", -p.log10())
        .b("significant", p < 0.05)
        .i("num_guides", guides as i64)
        .i("num_guides_hit", hit as i64)
        .i("num_guides_nonhit", (guides - hit) as i64)
        .f("fraction_guides_hit", sig(hit as f64 / guides as f64, 6))
        .s("method", "CRISPR screen")
        .s("crispr_modality", "interference")
        .s("class", "observed data")
        .s("label", "regulatory element effect on phenotype")
        .s("name", "associated with")
        .s("inverse_name", "associated with")
        .s("source", "IGVF")
        .s(
            "source_url",
            &format!(
                "https://data.igvf.org/tabular-files/{}/",
                fileset(FS_ELEMENT_PHENOTYPE)
            ),
        )
        .s("files_filesets", &fs_handle(FS_ELEMENT_PHENOTYPE))
        .s("biological_context", &bname)
        .s("biosample_term", &bt)
        .null("treatments_term_ids");
    o.end();
    s.put("genomic_elements_phenotypes")
}
