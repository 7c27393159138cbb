//! Parameters many endpoints share: the file-set filter, the biological-context search, the
//! element region, and how an ontology term id is described.

use crate::params::{Kind, Param};

/// The file-set filter most endpoints share.
pub const FILESET: Param = Param::new(
    "files_fileset",
    Kind::Id,
    "file set accession (IGVFFI…, ENCFF…)",
);

/// The biological-context name search of 4.1 and 4.5.
pub const BIOLOGICAL_CONTEXT: Param = Param::new(
    "biological_context",
    Kind::Text,
    "exact, else prefix, else all tokens, else one typo",
);

/// The element region of 4.5 and 4.11.
pub const ELEMENT_REGION: Param = Param::new(
    "region",
    Kind::Region(None),
    "elements overlapping chr<name>:<start>-<end>",
);

/// How an ontology term id parameter is described.
pub const TERM_PATH: &str = "ontology term id, PREFIX_ID (e.g. UBERON_0003663)";
