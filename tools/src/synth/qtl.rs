//! Molecular associations of a variant: expression and splicing QTLs and screens → genes
//! (`variants_genes`), caQTLs → elements (`variants_genomic_elements`), protein QTLs and
//! binding → proteins (`variants_proteins`), reporter assays → biosamples
//! (`variants_biosamples`).

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::ontology::{biosample, go_term, term_name};
use super::sink::Sink;
use super::variants::*;
use super::*;

/// One `variants_genes` edge from source `src`: 0/1 AFGR eQTL/sQTL, 2/3 EBI eQTL/sQTL, 4 a
/// screen.
fn qtl(x: &Site, s: &mut Sink, rng: &mut Rng, src: u8) -> io::Result<()> {
    let Site {
        plan, c, v, gene, ..
    } = *x;
    let from = &x.from;
    let gid = &x.gid;
    let gi = v.gi;
    let pos = v.pos;
    let (bt, bname) = if src < 2 {
        (format!("ontology_terms/{}", term(0, 1)), term_name(0, 1))
    } else {
        biosample(rng)
    };
    let p = p_value(rng, 25.0);
    let splice = src == 1 || src == 3;
    let mut o = Obj::new(&mut s.buf);
    o.s("_key", &hex_key(&[plan.seed, gi, src as u64, 11]))
        .s("_from", from)
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
                .s("molecular_trait_id", gid)
                .s("gene_id", gid)
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
}

/// QTLs and screens → genes: a screen variant has its screen result, others each QTL by chance.
pub(super) fn genes(x: &Site, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    if x.v.screen() {
        qtl(x, s, rng, 4)?;
    } else {
        for (src, p) in [(0u8, 0.25), (1, 0.1), (2, 0.1), (3, 0.05)] {
            if rng.chance(p) {
                qtl(x, s, rng, src)?;
            }
        }
    }
    Ok(())
}

/// caQTL → genomic elements.
pub(super) fn elements(x: &Site, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let Site { plan, c, v, .. } = *x;
    let from = &x.from;
    let pos = v.pos;
    if rng.chance(0.3) {
        let el = plan.element_at(c, pos);
        let (bt, bname) = biosample(rng);
        let mut o = Obj::new(&mut s.buf);
        o.s(
            "_key",
            &format!("{}_{}_{}", v.key, el.key, &bt["ontology_terms/".len()..]),
        )
        .s("_from", from)
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
            let p = p_value(rng, 10.0);
            o.f("neg_log10_pvalue", -p.log10())
                .f("p_value", p)
                .f("beta", sig(rng.range(-1.0, 1.0), 6));
        }
        o.end();
        s.put("variants_genomic_elements")?;
    }
    Ok(())
}

/// pQTL, allele-specific binding, SEMVAR → proteins.
pub(super) fn proteins(x: &Site, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let Site {
        plan, c, v, gene, ..
    } = *x;
    let from = &x.from;
    let gid = &x.gid;
    let pos = v.pos;
    let tfs = plan.tf_count();
    let roll = rng.unit();
    if roll < 0.15 && tfs > 0 {
        let mut o = Obj::new(&mut s.buf);
        if roll < 0.08 {
            let pid = protein_id(gene.gg, 0);
            let p = p_value(rng, 80.0);
            o.s("_key", &format!("{}_{pid}_UKB", v.key))
                .s("_from", from)
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
                let pr = p_value(rng, 6.0);
                let (bt, bname) = biosample(rng);
                o.s(
                    "_key",
                    &format!(
                        "{}_{pid}_{}_ADASTRA_{}",
                        v.key,
                        conc.replace(' ', "_"),
                        rng.below(1000)
                    ),
                )
                .s("_from", from)
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
                    .s("_from", from)
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
                            rng,
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
    Ok(())
}

/// MPRA / STARR-seq → biosamples.
pub(super) fn biosamples(x: &Site, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let Site { plan, c, v, .. } = *x;
    let from = &x.from;
    let pos = v.pos;
    if rng.chance(0.05) {
        let (bt, bname) = biosample(rng);
        let el = plan.element_at(c, pos);
        let p = p_value(rng, 8.0);
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
        .s("_from", from)
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
        .s("method", pick_str(rng, &["MPRA", "STARR-seq", "BlueSTARR"]))
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
    Ok(())
}
