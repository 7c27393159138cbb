//! `GET /variants/predictions` (4.9): Genes predicted to be regulated by elements containing a variant.

use super::*;

/// The endpoint.
pub static ENDPOINT: Endpoint = Endpoint {
    path: "/variants/predictions",
    section: "4.9",
    summary: "Genes predicted to be regulated by elements containing a variant",
    accepts: Accepts {
        params: &[
            ID[0],
            ID[1],
            ID[2],
            ID[3],
            ID[4],
            FILESET.aliases(&["files_filesets"]),
            Param::new(
                "method",
                Kind::Enum(&["scE2G", "ENCODE-rE2G", "caQTL"]),
                "prediction method (default: scE2G and ENCODE-rE2G)",
            ),
        ],
        rules: &[Rule::AtLeastOne(&[
            "variant_id",
            "spdi",
            "hgvs",
            "rsid",
            "ca_id",
            "files_fileset",
        ])],
        paging: Paging::Paged {
            default: 25,
            max: 300,
        },
        organisms: HUMAN_MOUSE,
    },
    verbose: false,
    run: predictions::predictions,
    body: Body::Array(&predictions::PREDICTION),
    examples: &[
        "rsid=rs900004",
        "files_fileset=IGVFFI9000SCE",
        "hgvs=NC_000001.11:g.15001A%3EG",
    ],
};
