//! Studies: eQTL Catalogue datasets and GWAS (`studies`).

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::ontology::term_ref;
use super::sink::Sink;
use super::*;

/// A hundred studies of each kind.
pub(super) fn studies(plan: &Plan, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
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
        let (t, tname) = term_ref(plan, rng, 0);
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
    Ok(())
}
