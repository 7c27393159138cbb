//! Motifs of transcription factors and their proteins (`motifs`, `motifs_proteins`), and
//! complexes of those proteins (`complexes`).

use std::io;

use super::filesets::fs_handle;
use super::json::Obj;
use super::ontology::go_term;
use super::sink::Sink;
use super::*;

/// One HOCOMOCO motif per transcription factor, used by its first protein.
pub(super) fn motifs(plan: &Plan, s: &mut Sink, rng: &mut Rng) -> io::Result<()> {
    for t in 0..plan.tf_count() {
        let gg = t * TF_STRIDE;
        let sym = symbol(gg);
        let key = format!("{sym}_HUMAN_HOCOMOCOv11");
        let len = 8 + rng.below(12);
        let pwm: Vec<String> = (0..len)
            .map(|_| {
                let v: Vec<String> = (0..4)
                    .map(|_| format!("\"{:?}\"", sig(rng.range(-3.5, 1.5), 16)))
                    .collect();
                format!("[{}]", v.join(", "))
            })
            .collect();
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &key)
            .s("name", &key)
            .s("tf_name", &format!("{sym}_HUMAN"))
            .s("source", "HOCOMOCOv11")
            .s(
                "source_url",
                &format!("hocomoco11.autosome.org/motif/{sym}_HUMAN.H11MO.0.B"),
            )
            .raw("pwm", &format!("[{}]", pwm.join(", ")))
            .i("length", len as i64)
            .s("class", "observed data")
            .s("method", "HOCOMOCO")
            .s("files_filesets", &fs_handle(FS_MOTIF));
        o.end();
        s.put("motifs")?;
        let pid = protein_id(gg, 0);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("{key}_{pid}"))
            .s("_from", &format!("motifs/{key}"))
            .s("_to", &format!("proteins/{pid}"))
            .s("name", "is used by")
            .s("inverse_name", "uses")
            .s("biological_process", &go_term(1))
            .s("source", "HOCOMOCOv11")
            .s("class", "observed data")
            .s("method", "HOCOMOCO")
            .s("files_filesets", &fs_handle(FS_MOTIF));
        o.end();
        s.put("motifs_proteins")?;
    }
    Ok(())
}

/// Complexes of TF proteins, three members each.
pub(super) fn complexes(plan: &Plan, s: &mut Sink) -> io::Result<()> {
    for i in 0..plan.tf_count().div_ceil(4) {
        let members: Vec<u64> = (0..3)
            .map(|j| ((i * 4 + j) * TF_STRIDE) % plan.genes.max(1))
            .collect();
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &format!("CPX-{}", 90_000 + i))
            .s(
                "name",
                &format!(
                    "{} complex",
                    members
                        .iter()
                        .map(|&g| symbol(g))
                        .collect::<Vec<_>>()
                        .join("-")
                ),
            )
            .strs("alias", &[format!("synthetic complex {i}")])
            .strs(
                "molecules",
                &members
                    .iter()
                    .map(|&g| format!("{}(1)", uniprot(g, 0)))
                    .collect::<Vec<_>>(),
            )
            .s(
                "evidence_code",
                "ECO:0000353(physical interaction evidence used in manual assertion)",
            )
            .null("experimental_evidence")
            .s(
                "description",
                "A synthetic transcription factor complex for benchmarks.",
            )
            .s("complex_assembly", "Heterotrimer")
            .s("complex_source", "psi-mi:\"MI:0469\"(IntAct)")
            .strs(
                "reactome_xref",
                &[format!("R-HSA-{}(identity)", 9_000_000 + i)],
            )
            .s("source", "EBI")
            .s("source_url", "https://www.ebi.ac.uk/complexportal/")
            .s("class", "biological relationship")
            .null("method")
            .null("label")
            .s("files_filesets", &fs_handle(FS_COMPLEX));
        o.end();
        s.put("complexes")?;
        let cpx = format!("CPX-{}", 90_000 + i);
        for (j, &g) in members.iter().enumerate() {
            let pid = protein_id(g, 0);
            let others: Vec<String> = members
                .iter()
                .filter(|&&m| m != g)
                .map(|&m| {
                    format!(
                        "{{\"participantId\": \"proteins/{}\", \"ranges\": [\"{}-{}\"]}}",
                        protein_id(m, 0),
                        10 + j * 40,
                        60 + j * 40
                    )
                })
                .collect();
            let mut o = Obj::new(&mut s.buf);
            o.s("_key", &format!("{cpx}_{pid}"))
                .s("_from", &format!("complexes/{cpx}"))
                .s("_to", &format!("proteins/{pid}"))
                .s("name", "contains")
                .s("inverse_name", "belongs to")
                .i("stoichiometry", 1)
                .s("chain_id", &format!("{}", (b'A' + j as u8) as char))
                .null("isoform_id")
                .null("number_of_paralogs")
                .null("paralogs")
                .raw("linked_features", &format!("[{}]", others.join(", ")))
                .s("source", "EBI")
                .s("source_url", "https://www.ebi.ac.uk/complexportal/")
                .s("class", "biological relationship")
                .null("method")
                .null("label")
                .s("files_filesets", &fs_handle(FS_COMPLEX));
            o.end();
            s.put("complexes_proteins")?;
        }
    }
    Ok(())
}
