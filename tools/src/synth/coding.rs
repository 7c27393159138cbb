//! Coding variants: SNVs inside a gene's span (`coding_variants`, `variants_coding_variants`,
//! `coding_variants_phenotypes`).

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::sink::Sink;
use super::variants::*;
use super::*;

const AMINO: [&str; 20] = [
    "A", "R", "N", "D", "C", "Q", "E", "G", "H", "I", "L", "K", "M", "F", "P", "S", "T", "W", "Y",
    "V",
];
const CV_METHODS: [(&str, &str); 5] = [
    ("MutPred2", "pathogenicity_score"),
    ("SGE", "score"),
    ("VAMP-seq", "score"),
    ("DUAL-IPA", "dualipa_abun_score"),
    ("Variant painting via fluorescence", "localization_score"),
];

/// The coding variant of an SNV inside its gene (15% of them; every one in a gene that
/// [`dense_coding`] names), with two phenotype scores.
pub(super) fn coding(x: &Site, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let Site { plan, v, gene, .. } = *x;
    let inside = v.vtype == "SNP" && v.pos >= gene.start && v.pos < gene.end;
    if inside && rng.chance(0.15) {
        emit(x, s, rng)
    } else if inside && dense_coding(gene) {
        // Its own generator, so that the shared stream (and every other document) is unchanged.
        emit(x, s, &mut Rng::new(hash(&[plan.seed, v.gi, 23])))
    } else {
        Ok(())
    }
}

/// A coding variant of `x`'s SNV, its link to the variant and its two scores.
fn emit(x: &Site, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    let Site { c, v, gene, .. } = *x;
    let from = &x.from;
    let pos = v.pos;
    {
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
        for &k in varcat_format::schema::CODING_SCORES {
            match score(rng, 0.5) {
                Some(x) => o.f(k, x),
                None => o.null(k),
            };
        }
        o.s("source", "dbNSFP 5.1a")
            .s("source_url", "http://database.liulab.science/dbNSFP");
        o.end();
        s.put("coding_variants")?;
        let mut o = Obj::new(&mut s.buf);
        o.s("_from", from)
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
        for (n, (method, member)) in [("ESM-1v", "esm_1v_score"), other].into_iter().enumerate() {
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
    Ok(())
}
