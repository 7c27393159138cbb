//! `GET /motifs/proteins` (4.21): Proteins and complexes that use a motif.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/motifs/proteins",
    section: "4.21",
    summary: "Proteins and complexes that use a motif",
    accepts: Accepts {
        params: &[
            Param::new(
                "tf_name",
                Kind::Id,
                "transcription factor, e.g. ATF1_HUMAN (HOCOMOCO) or AHR (SEMpl)",
            ),
            Param::new(
                "source",
                Kind::Enum(&["IGVF", "HOCOMOCOv11"]),
                "motif source",
            ),
            Param::new("method", Kind::Enum(&["HOCOMOCO", "SEMpl"]), "method"),
            FILESET,
        ],
        rules: &[],
        paging: Paging::Paged {
            default: 25,
            max: 1000,
        },
        organisms: HUMAN,
    },
    verbose: true,
    run: motifs::motifs_proteins,
    body: Body::Array(&motifs::MOTIF_PROTEIN),
    examples: &["tf_name=TSTA1&verbose=true", "source=HOCOMOCOv11"],
};
