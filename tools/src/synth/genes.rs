//! Human genes (GENCODE v43, through [`HUMAN`]) with the proteins of their coding transcripts
//! (`proteins`, `transcripts_proteins`), and gene–disease edges (GenCC, `diseases_genes`).

use std::io;

use super::filesets::fs_handle;
use super::gencode::{GeneSpec, HUMAN};
use super::json::Obj;
use super::ontology::{go_term, term_ref};
use super::sink::Sink;
use super::*;

/// Gene `gene` of chromosome `c` and everything hanging off it.
pub(super) fn gene(
    plan: &Plan,
    c: &Chrom,
    gene: &Gene,
    s: &mut Sink,
    rng: &mut Rng,
) -> io::Result<()> {
    let gg = gene.gg;
    let (gid, sym) = (gene_id(gg), symbol(gg));
    let spec = GeneSpec {
        n: gg,
        symbol: &sym,
        chr: c.name,
        start: gene.start,
        end: gene.end,
        strand: gene.strand,
    };
    HUMAN.gene(s, &spec, |o| {
        if gg.is_multiple_of(2) {
            o.s("hgnc", &format!("HGNC:{}", 100_000 + gg));
        }
        if gg.is_multiple_of(5) {
            o.strs(
                "synonyms",
                &[
                    format!("{sym}L"),
                    format!("C{}orf{}", c.index + 1, gg % 997),
                ],
            );
        }
    })?;
    for t in HUMAN.coding_transcripts() {
        let tid = transcript_id(gg, t);
        let pid = protein_id(gg, t);
        let up = uniprot(gg, t);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &pid)
            .s("name", &sym)
            .s("protein_id", &format!("{pid}.{}", 1 + t))
            .b("MANE_Select", t == 0)
            .s("source", "GENCODE")
            .s("version", HUMAN.version)
            .s("source_url", HUMAN.url)
            .s("organism", HUMAN.organism)
            .s("uniprot_collection", if t == 0 { "Swiss-Prot" } else { "TrEMBL" })
            .strs("uniprot_ids", &[up.as_str()])
            .strs("uniprot_names", &[format!("{sym}_HUMAN")])
            .raw(
                "dbxrefs",
                &format!(
                    "[{{\"name\": \"AlphaFoldDB\", \"id\": \"{up}\"}}, {{\"name\": \"Bgee\", \"id\": \"{gid}\"}}, {{\"name\": \"HGNC\", \"id\": \"HGNC:{}\"}}, {{\"name\": \"RefSeq\", \"id\": \"NP_{:06}.1\"}}]",
                    100_000 + gg,
                    gg * 3 + t
                ),
            )
            .strs(
                "uniprot_full_names",
                &[format!("Synthetic protein {sym} isoform {}", t + 1)],
            );
        o.end();
        s.put("proteins")?;
        let mut o = Obj::new(&mut s.buf);
        o.s("_from", &format!("{}/{tid}", HUMAN.transcripts))
            .s("_to", &format!("proteins/{pid}"))
            .s("source", "GENCODE")
            .s("version", HUMAN.version)
            .s("source_url", HUMAN.url)
            .s("organism", HUMAN.organism)
            .s("name", "translates to")
            .s("inverse_name", "translated from")
            .s("biological_process", &go_term(3));
        o.end();
        s.put("transcripts_proteins")?;
    }
    // Gene–disease (GenCC), one gene in ten.
    if rng.chance(0.1) {
        let (d, dname) = term_ref(plan, rng, 4);
        let sgc = format!("SGC-{}", 900_000 + gg);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("{sgc}_{gid}"))
            .s("_from", &d)
            .s("_to", &format!("genes/{gid}"))
            .s("sgc_id", &format!("{sgc}.1"))
            .s("name", "associated_with")
            .s("inverse_name", "associated_with")
            .s("hgnc", &format!("HGNC:{}", 100_000 + gg))
            .s("gene_symbol", &sym)
            .s("term_name", &dname)
            .s(
                "classification",
                ["Definitive", "Strong", "Moderate", "Limited"][rng.below(4) as usize],
            )
            .s("moi_id", "HP:0000006")
            .s("moi_name", "Autosomal dominant")
            .s("submitter", "Synthetic Lab")
            .strs("pmids", &[format!("{}", 28_000_000 + gg)])
            .s("source", "GenCC")
            .s(
                "source_url",
                &format!("https://thegencc.org/submissions/{sgc}.1"),
            )
            .s("class", "observed data")
            .s("method", "GenCC")
            .s("label", "GenCC")
            .s("files_filesets", &fs_handle(FS_GENCC))
            .s("association_type", "disease_gene")
            .s("association_status", "validated");
        o.end();
        s.put("diseases_genes")?;
    }
    super::interactions::gene(plan, gg, s)?;
    super::screens::gene(plan, gg, s)
}
