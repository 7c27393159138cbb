//! Molecular interactions and annotations of genes and their products: gene–gene (BioGRID,
//! COXPRESdb; `genes_genes`, `mm_genes_mm_genes`), protein–protein (IntAct, BioGRID;
//! `proteins_proteins`), GO annotations (`gene_products_terms`) and Reactome membership
//! (`genes_pathways`). Each gene's draws come from a generator of its own, so these
//! collections leave every other collection's bytes as they were.

use std::io;

use super::filesets::fs_handle;
use super::gencode::{HUMAN, MOUSE};
use super::json::Obj;
use super::ontology::go_term;
use super::sink::Sink;
use super::variants::hex_key;
use super::*;

/// Interaction types drawn for protein pairs (all in the client's enum).
const PPI_TYPES: [(&str, &str); 4] = [
    ("physical association", "MI:0915"),
    ("association", "MI:0914"),
    ("direct interaction", "MI:0407"),
    ("colocalization", "MI:0403"),
];
/// Detection methods, with their PSI-MI codes.
const DETECTION: [(&str, &str); 4] = [
    ("two hybrid", "MI:0018"),
    ("affinity chromatography technology", "MI:0004"),
    ("pull down", "MI:0096"),
    ("cross-linking study", "MI:0030"),
];
/// GO qualifiers, with the aspect they belong to.
const QUALIFIERS: [&str; 4] = ["enables", "involved in", "located in", "part of"];

/// A partner of gene `gg` among `n` genes: another gene, drawn.
fn partner(rng: &mut Rng, gg: u64, n: u64) -> u64 {
    if n < 2 {
        return gg;
    }
    (gg + 1 + rng.below(n - 1)) % n
}

/// The edges of human gene `gg`: one BioGRID genetic interaction for even genes and a
/// COXPRESdb co-expression for every third; three protein–protein interactions of its first
/// protein; two GO annotations per protein and one of its first transcript; membership of one
/// or two pathways.
pub(super) fn gene(plan: &Plan, gg: u64, s: &mut Sink) -> io::Result<()> {
    let mut rng = Rng::new(hash(&[plan.seed, 31, gg]));
    let gid = gene_id(gg);
    if gg.is_multiple_of(2) {
        let p = partner(&mut rng, gg, plan.genes);
        gene_gene(
            s,
            "genes_genes",
            &hex_key(&[plan.seed, 31, gg, 0]),
            &format!("genes/{gid}"),
            &format!("genes/{}", gene_id(p)),
            None,
            HUMAN.organism,
        )?;
    }
    if gg.is_multiple_of(3) {
        let p = partner(&mut rng, gg, plan.genes);
        gene_gene(
            s,
            "genes_genes",
            &hex_key(&[plan.seed, 31, gg, 1]),
            &format!("genes/{gid}"),
            &format!("genes/{}", gene_id(p)),
            Some(sig(rng.range(2.0, 8.0), 4)),
            HUMAN.organism,
        )?;
    }
    for j in 0..3u64 {
        let p = partner(&mut rng, gg, plan.genes);
        let (ty, code) = *rng.pick(&PPI_TYPES);
        let (det, det_code) = *rng.pick(&DETECTION);
        let intact = j != 2;
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &hex_key(&[plan.seed, 32, gg, j]))
            .s("_from", &format!("proteins/{}", protein_id(gg, 0)))
            .s("_to", &format!("proteins/{}", protein_id(p, rng.below(2))))
            .s("detection_method", det)
            .s("detection_method_code", det_code)
            .strs("interaction_type", &[ty])
            .strs("interaction_type_code", &[code]);
        if intact {
            o.null("confidence_value_biogrid")
                .f("confidence_value_intact", sig(rng.range(0.2, 1.0), 2));
        } else {
            o.f("confidence_value_biogrid", sig(rng.range(0.5, 1.0), 3))
                .null("confidence_value_intact");
        }
        let source = if intact { "IntAct" } else { "BioGRID" };
        o.s("source", source)
            .strs(
                "pmids",
                &[format!("{}", 20_000_000 + hash(&[gg, j]) % 9_000_000)],
            )
            .s("organism", HUMAN.organism)
            .s("name", "physically interacts with")
            .s("inverse_name", "physically interacts with")
            .s("molecular_function", &go_term(5))
            // IGVF's: the method is the interaction type(s), the label the detection method.
            .s("method", ty)
            .s("label", det)
            .s("class", "observed data")
            .s(
                "source_url",
                if intact {
                    "https://www.ebi.ac.uk/intact/"
                } else {
                    "https://thebiogrid.org/"
                },
            )
            .s("files_filesets", &fs_handle(FS_INTERACTIONS));
        o.end();
        s.put("proteins_proteins")?;
    }
    let sym = symbol(gg);
    let mut products: Vec<(String, String, &str)> = HUMAN
        .coding_transcripts()
        .map(|t| {
            (
                format!("proteins/{}", protein_id(gg, t)),
                uniprot(gg, t),
                "protein",
            )
        })
        .collect();
    let tid = transcript_id(gg, 0);
    products.push((format!("{}/{tid}", HUMAN.transcripts), tid.clone(), "RNA"));
    for (i, (from, id, ty)) in products.iter().enumerate() {
        let n = if *ty == "RNA" { 1 } else { 2 };
        for j in 0..n {
            let k = 1 + rng.below(plan.terms);
            let q = *rng.pick(&QUALIFIERS);
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &hex_key(&[plan.seed, 33, gg, i as u64, j]))
                .s("_from", from)
                .s("_to", &go_term(k))
                .s(
                    "db",
                    if *ty == "RNA" {
                        "RNAcentral"
                    } else {
                        "UniProtKB"
                    },
                )
                .s("gene_product_id", id)
                .s("gene_product_symbol", &sym)
                .s("gene_product_name", &format!("Synthetic protein {sym}"))
                .s("gene_product_type", ty)
                .strs("qualifier", &[q])
                .s("go_id", &term(3, k).replace('_', ":"))
                .strs("db_reference", &["GO_REF:0000043"])
                .s("evidence", ["IEA", "IDA", "IBA"][(k % 3) as usize])
                .strs("with", &[] as &[&str])
                .s(
                    "aspect",
                    ["F", "P", "C", "C"][QUALIFIERS.iter().position(|x| *x == q).unwrap_or(0)],
                )
                .strs("synonyms", &[sym.as_str()])
                .strs("taxon_id", &["taxon:9606"])
                .s("date", "20240101")
                .s("assigned_by", "UniProt")
                .s("annotation_extension", "")
                .s("gene_product_form_id", "")
                .s("organism", HUMAN.organism)
                .s("source", "Gene Ontology")
                .s(
                    "source_url",
                    "http://geneontology.org/gene-associations/goa_human.gaf.gz",
                )
                .s("class", "biological relationship")
                .null("method")
                .null("label")
                .s("files_filesets", &fs_handle(FS_GO))
                .s("name", q)
                .s("inverse_name", &format!("{q} (inverse)"));
            o.end();
            s.put("gene_products_terms")?;
        }
    }
    let count = pathways::count(plan);
    let mut member = vec![if 200 + gg / 20 < count {
        200 + gg / 20
    } else {
        gg % 200
    }];
    if gg.is_multiple_of(2) && !member.contains(&(gg % 200)) {
        member.push(gg % 200);
    }
    for p in member {
        let key = pathways::key(p);
        let mut o = Obj::new(&mut s.buf);
        o.s("source", "Reactome")
            .s(
                "source_url",
                "https://reactome.org/download/current/Ensembl2Reactome_All_Levels.txt",
            )
            .s("organism", HUMAN.organism)
            .s("class", "biological relationship")
            .null("method")
            .null("label")
            .s("files_filesets", &fs_handle(FS_REACTOME))
            .s("_key", &format!("{gid}_{key}"))
            .s("_from", &format!("genes/{gid}"))
            .s("_to", &format!("pathways/{key}"))
            .s("name", "belongs to")
            .s("inverse_name", "has part");
        o.end();
        s.put("genes_pathways")?;
    }
    Ok(())
}

/// One gene–gene edge: a BioGRID genetic interaction, or (with a z-score) a COXPRESdb
/// co-expression.
fn gene_gene(
    s: &mut Sink,
    coll: &'static str,
    key: &str,
    from: &str,
    to: &str,
    z: Option<f64>,
    organism: &str,
) -> io::Result<()> {
    let mut o = Obj::new(&mut s.buf);
    o.s("_key", key).s("_from", from).s("_to", to);
    match z {
        None => {
            o.s("detection_method", "genetic interference")
                .s("detection_method_code", "MI:0254")
                .strs(
                    "interaction_type",
                    &["positive genetic interaction (sensu BioGRID)"],
                )
                .strs("interaction_type_code", &["MI:2373"])
                .null("confidence_value_biogrid")
                .null("confidence_value_intact")
                .s("source", "BioGRID")
                .strs("pmids", &["25000000"])
                .i("z_score", 0)
                .s("name", "interacts with")
                .s("inverse_name", "interacts with")
                .s("molecular_function", &go_term(5))
                .s("method", "positive genetic interaction (sensu BioGRID)")
                .s("label", "genetic interference")
                .s("class", "observed data")
                .s("source_url", "https://thebiogrid.org/")
                .s("files_filesets", &fs_handle(FS_INTERACTIONS));
        }
        Some(z) => {
            o.s("source", "COXPRESdb")
                .s("source_url", "https://coxpresdb.jp/")
                .f("z_score", z)
                .s("name", "coexpressed with")
                .s("inverse_name", "coexpressed with")
                .null("associated_process")
                .s("method", "COXPRESdb")
                .s("label", "co-expression")
                .s("class", "observed data")
                .s("files_filesets", &fs_handle(FS_COXPRESDB));
        }
    }
    o.s("organism", organism);
    o.end();
    s.put(coll)
}

/// Mouse gene–gene interactions: one BioGRID edge per even mouse gene.
pub(super) fn mouse(plan: &Plan, genes: u64, s: &mut Sink) -> io::Result<()> {
    for g in (0..genes).step_by(2) {
        let mut rng = Rng::new(hash(&[plan.seed, 34, g]));
        let p = partner(&mut rng, g, genes);
        gene_gene(
            s,
            "mm_genes_mm_genes",
            &hex_key(&[plan.seed, 34, g]),
            &format!("mm_genes/{}", MOUSE.gene_id(g)),
            &format!("mm_genes/{}", MOUSE.gene_id(p)),
            None,
            MOUSE.organism,
        )?;
    }
    Ok(())
}
