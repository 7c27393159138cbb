//! Trait and disease associations of a variant: GWAS → phenotypes (`variants_phenotypes`),
//! ClinGen → diseases (`variants_diseases`, and `variants_diseases_genes` on those edges).

use std::collections::VecDeque;
use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::ontology::term_ref;
use super::sink::Sink;
use super::variants::*;
use super::*;

/// GWAS → phenotypes, tagging some of the `recent` variants.
pub(super) fn gwas(
    x: &Site,
    recent: &VecDeque<Var>,
    s: &mut Sink,
    rng: &mut Rng,
) -> io::Result<()> {
    let Site { plan, c, v, .. } = *x;
    let from = &x.from;
    let gi = v.gi;
    let pos = v.pos;
    let screen = v.screen();
    if !screen && rng.chance(0.02) {
        let onto = if rng.chance(0.5) { 0 } else { 7 };
        let (mut t, mut tname) = term_ref(plan, rng, onto);
        // Decided by a hash, not a draw, so every other document stays as it was.
        if hash(&[plan.seed, gi, 22]).is_multiple_of(COMMON_TRAIT_SHARE) {
            t = format!("ontology_terms/{}", term(onto, COMMON_TRAIT));
            tname = super::ontology::term_name(onto, COMMON_TRAIT);
        }
        let p = p_value(rng, 30.0);
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
            .s("_from", from)
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
    Ok(())
}

/// ClinGen → diseases (and the disease–gene edge on that edge).
pub(super) fn clingen(x: &Site, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let Site { plan, v, .. } = *x;
    let from = &x.from;
    let gid = &x.gid;
    let gi = v.gi;
    let screen = v.screen();
    if !screen && rng.chance(0.005) {
        let (d, _) = term_ref(plan, rng, 4);
        let key = hex_key(&[plan.seed, gi, 31]);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &key)
            .s("_from", from)
            .s("_to", &d)
            .s("gene_id", &format!("genes/{gid}"))
            .s(
                "assertion",
                pick_str(
                    rng,
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
            .s("inverse_name", "associated with");
        cite_clingen(&mut o);
        o.end();
        s.put("variants_diseases")?;
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &hex_key(&[plan.seed, gi, 32]))
            .s("_from", &format!("variants_diseases/{key}"))
            .s("_to", &format!("genes/{gid}"))
            .s("name", "associated with")
            .s("inverse_name", "associated with")
            .s("inheritance_mode", "Autosomal dominant inheritance");
        cite_clingen(&mut o);
        o.end();
        s.put("variants_diseases_genes")?;
    }
    Ok(())
}

/// The members that cite ClinGen, last in both of its documents.
fn cite_clingen(o: &mut Obj<'_>) {
    o.s("source", "ClinGen")
        .s(
            "source_url",
            "https://search.clinicalgenome.org/kb/downloads",
        )
        .s("class", "observed data")
        .s("method", "ClinGen")
        .s("label", "ClinGen")
        .s("files_filesets", &fs_handle(FS_CLINGEN));
}
