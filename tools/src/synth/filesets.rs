//! The file sets every document cites (`files_filesets`).

use std::io;

use super::json::Obj;
use super::ontology::term_name;
use super::sink::Sink;
use super::{fileset, term, FILESETS};

/// The `files_filesets` reference to file set `i`.
pub(super) fn fs_handle(i: usize) -> String {
    format!("files_filesets/{}", fileset(i))
}

/// Every file set, one per source (the `FS_*` roles).
pub(super) fn files_filesets(s: &mut Sink) -> io::Result<()> {
    for i in 0..FILESETS {
        let acc = fileset(i);
        let mut o = Obj::new(&mut s.buf);
        o.s("_key", &acc)
            .s("name", &acc)
            .s("file_set_id", &format!("IGVFFS{:04}SYN", 7000 + i))
            .s("lab", "/labs/synthetic-lab/")
            .strs("preferred_assay_titles", &["Synthetic assay"])
            .strs("assay_term_ids", &[format!("OBI:{:07}", i + 1)])
            .s("method", "synthetic")
            .s("class", "observed data")
            .strs("software", &["varcat-synth"])
            .strs(
                "samples",
                &[format!("ontology_terms/{}", term(1, 1 + i as u64))],
            )
            .strs("sample_ids", &[format!("IGVFSM{:04}SYN", i)])
            .strs("simple_sample_summaries", &[term_name(1, 1 + i as u64)])
            .null("donors")
            .null("treatments_term_ids")
            .null("publication")
            .strs("collections", &["ENCODE"])
            .s("source", "IGVF")
            .s(
                "source_url",
                &format!("https://data.igvf.org/tabular-files/{acc}/"),
            )
            .s(
                "download_link",
                &format!("https://api.data.igvf.org/tabular-files/{acc}/@@download/{acc}.tsv.gz"),
            )
            .null("cell_annotation")
            .null("cell_annotation_term")
            .null("genome_browser_link")
            .null("crispr_modality")
            .null("browser_index_file")
            .s("version", "IGVF_catalog_v1.0");
        o.end();
        s.put("files_filesets")?;
    }
    Ok(())
}
