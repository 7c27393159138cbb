//! PharmGKB drugs (`drugs`) and variants' associations with them (`variants_drugs`).

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::pathways::WORDS;
use super::sink::Sink;
use super::variants::Site;
use super::*;

/// Five hundred drugs; one in four names an EFO term.
pub(super) fn drugs(plan: &Plan, s: &mut Sink) -> io::Result<()> {
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
    Ok(())
}

/// PharmGKB → drugs.
pub(super) fn pharmgkb(x: &Site, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let Site { v, gene, .. } = *x;
    let from = &x.from;
    let gi = v.gi;
    let screen = v.screen();
    if !screen && rng.chance(0.003) {
        let drug = format!("PA{}", 166_000_000 + rng.below(500));
        let ann = 1_450_000_000 + gi;
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("{ann}_{}", &drug))
            .s("_from", from)
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
    Ok(())
}
