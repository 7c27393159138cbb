//! The collections varcat stores: kept fields with their types, indexes and record order.
//!
//! This table is the one place that decides what a catalog holds. A field no endpoint returns
//! or filters on is not kept; a collection no endpoint uses is skipped. The order of [`SPECS`]
//! is the build order: a collection whose preparation or derivation reads another comes after it.

use crate::derive;

/// Node or edge collection (edges carry `_from`/`_to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Documents with `_key`.
    Node,
    /// Documents with `_from`/`_to` (and usually `_key`).
    Edge,
    /// Built by the indexer from other collections.
    Derived,
}

/// How a kept field is normalised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// Kept as given.
    Any,
    /// A string (numbers become strings).
    Str,
    /// An integer: `1234.0` and `"1234"` become `1234`.
    Int,
    /// A number: numeric strings become numbers.
    Num,
    /// A boolean.
    Bool,
    /// An array of strings: null elements are dropped (counted).
    StrArray,
}

/// A kept field.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// Member name.
    pub name: &'static str,
    /// Normalisation.
    pub ty: Ty,
}

const fn f(name: &'static str, ty: Ty) -> Field {
    Field { name, ty }
}

/// An index over a collection.
#[derive(Clone, Copy, Debug)]
pub enum Index {
    /// Exact value (each element of an array) → ordinals.
    Exact(&'static str),
    /// Exact, case-folded value and case-folded tokens → ordinals (name search tiers).
    Text(&'static str),
    /// Roaring bitmaps per value (few distinct values).
    Facet(&'static str),
    /// f64 column.
    Number(&'static str),
    /// Interval index over (chr, start, end); `with_ends` adds the by-end array.
    Intervals {
        /// Chromosome member.
        chr: &'static str,
        /// Start member (0-based).
        start: &'static str,
        /// End member (exclusive).
        end: &'static str,
    },
    /// Point index over (chr, pos).
    Points {
        /// Chromosome member.
        chr: &'static str,
        /// Position member (0-based).
        pos: &'static str,
    },
}

/// Record order (= ordinal order).
#[derive(Clone, Copy, Debug)]
pub enum Order {
    /// By `_key`, byte order.
    Key,
    /// By these members (strings in byte order, numbers numerically, missing last), then `_key`.
    Fields(&'static [&'static str]),
}

/// Per-document preparation run before a document is stored (derived members, renames).
pub type Prepare =
    fn(&mut serde_json::Map<String, serde_json::Value>, &derive::Ctx) -> Result<(), String>;

/// How a collection is built.
#[derive(Clone, Copy)]
pub struct Spec {
    /// Collection name.
    pub name: &'static str,
    /// Kind.
    pub kind: Kind,
    /// Kept fields (`_key`, `_from`, `_to` included where they apply).
    pub fields: &'static [Field],
    /// Fields seen in real data that no endpoint needs: dropped without a warning.
    pub known: &'static [&'static str],
    /// Record order.
    pub order: Order,
    /// Indexes.
    pub indexes: &'static [Index],
    /// Preparation hook.
    pub prepare: Option<Prepare>,
    /// For derived tables: the generator of their documents.
    pub derive: Option<derive::Generator>,
}

const NODE: Spec = Spec {
    name: "",
    kind: Kind::Node,
    fields: &[],
    known: &[],
    order: Order::Key,
    indexes: &[],
    prepare: None,
    derive: None,
};

use Ty::*;

const GENE_FIELDS: &[Field] = &[
    f("_key", Str),
    f("gene_id", Str),
    f("chr", Str),
    f("start", Int),
    f("end", Int),
    f("gene_type", Str),
    f("name", Str),
    f("symbol", Str),
    f("strand", Str),
    f("hgnc", Str),
    f("entrez", Str),
    f("mgi", Str),
    f("collections", StrArray),
    f("study_sets", StrArray),
    f("source", Str),
    f("version", Str),
    f("source_url", Str),
    f("synonyms", StrArray),
    f("organism", Str),
];
const GENE_INDEXES: &[Index] = &[
    Index::Text("name"),
    Index::Exact("hgnc"),
    Index::Exact("synonyms"),
    Index::Exact("gene_id"),
    Index::Exact("symbol"),
    Index::Intervals {
        chr: "chr",
        start: "start",
        end: "end",
    },
];
const GENE_KNOWN: &[&str] = &["version_number"];

const TRANSCRIPT_FIELDS: &[Field] = &[
    f("_key", Str),
    f("transcript_id", Str),
    f("name", Str),
    f("transcript_type", Str),
    f("chr", Str),
    f("start", Int),
    f("end", Int),
    f("strand", Str),
    f("gene_name", Str),
    f("source", Str),
    f("version", Str),
    f("source_url", Str),
    f("organism", Str),
    f("MANE_Select", Bool),
];
const TRANSCRIPT_INDEXES: &[Index] = &[
    Index::Facet("transcript_type"),
    Index::Intervals {
        chr: "chr",
        start: "start",
        end: "end",
    },
];

const STRUCTURE_FIELDS: &[Field] = &[
    f("_key", Str),
    f("name", Str),
    f("chr", Str),
    f("start", Int),
    f("end", Int),
    f("strand", Str),
    f("type", Str),
    f("gene_id", Str),
    f("gene_name", Str),
    f("transcript_id", Str),
    f("transcript_name", Str),
    f("protein_id", Str),
    f("exon_number", Str),
    f("exon_id", Str),
    f("organism", Str),
    f("source", Str),
    f("version", Str),
    f("source_url", Str),
];
const STRUCTURE_INDEXES: &[Index] = &[
    Index::Exact("gene_id"),
    Index::Exact("gene_name"),
    Index::Exact("transcript_id"),
    Index::Exact("transcript_name"),
    Index::Exact("protein_id"),
    Index::Facet("type"),
    Index::Intervals {
        chr: "chr",
        start: "start",
        end: "end",
    },
];
/// 4.10 order: (gene_id, transcript_id, start, _key).
const STRUCTURE_ORDER: Order = Order::Fields(&["gene_id", "transcript_id", "start"]);

const EDGE_BASE: &[Field] = &[
    f("_key", Str),
    f("_from", Str),
    f("_to", Str),
    f("source", Str),
    f("source_url", Str),
    f("version", Str),
    f("name", Str),
    f("inverse_name", Str),
    f("organism", Str),
];
const EDGE_ENDS: &[Index] = &[Index::Exact("_from"), Index::Exact("_to")];

/// Every collection varcat builds, in build order.
pub const SPECS: &[Spec] = &[
    Spec {
        name: "genes",
        fields: GENE_FIELDS,
        known: GENE_KNOWN,
        indexes: GENE_INDEXES,
        ..NODE
    },
    Spec {
        name: "mm_genes",
        fields: GENE_FIELDS,
        known: GENE_KNOWN,
        indexes: GENE_INDEXES,
        ..NODE
    },
    Spec {
        name: "transcripts",
        fields: TRANSCRIPT_FIELDS,
        indexes: TRANSCRIPT_INDEXES,
        ..NODE
    },
    Spec {
        name: "mm_transcripts",
        fields: TRANSCRIPT_FIELDS,
        indexes: TRANSCRIPT_INDEXES,
        ..NODE
    },
    Spec {
        name: "proteins",
        fields: &[
            f("_key", Str),
            f("name", Str),
            f("protein_id", Str),
            f("MANE_Select", Bool),
            f("source", Str),
            f("version", Str),
            f("source_url", Str),
            f("organism", Str),
            f("uniprot_collection", Str),
            f("uniprot_ids", StrArray),
            f("uniprot_names", StrArray),
            f("uniprot_full_names", StrArray),
            f("dbxrefs", Any),
            f("dbxref_ids", StrArray),
        ],
        indexes: &[
            Index::Exact("name"),
            Index::Exact("protein_id"),
            Index::Exact("uniprot_ids"),
            Index::Exact("uniprot_names"),
            Index::Exact("uniprot_full_names"),
            Index::Exact("dbxref_ids"),
            Index::Facet("organism"),
        ],
        prepare: Some(derive::protein_dbxref_ids),
        ..NODE
    },
    Spec {
        name: "genes_transcripts",
        kind: Kind::Edge,
        fields: EDGE_BASE,
        known: &["biological_process"],
        indexes: EDGE_ENDS,
        ..NODE
    },
    Spec {
        name: "transcripts_proteins",
        kind: Kind::Edge,
        fields: EDGE_BASE,
        known: &["biological_process"],
        indexes: EDGE_ENDS,
        ..NODE
    },
    Spec {
        name: "genes_structure",
        fields: STRUCTURE_FIELDS,
        order: STRUCTURE_ORDER,
        indexes: STRUCTURE_INDEXES,
        prepare: Some(derive::structure_protein_id),
        ..NODE
    },
    Spec {
        name: "mm_genes_structure",
        fields: STRUCTURE_FIELDS,
        order: STRUCTURE_ORDER,
        indexes: STRUCTURE_INDEXES,
        prepare: Some(derive::structure_protein_id),
        ..NODE
    },
    Spec {
        name: "genes_proteins",
        kind: Kind::Derived,
        fields: &[
            f("_key", Str),
            f("gene", Str),
            f("protein", Str),
            f("organism", Str),
        ],
        order: Order::Fields(&["gene", "protein"]),
        indexes: &[
            Index::Exact("gene"),
            Index::Exact("protein"),
            Index::Facet("organism"),
        ],
        derive: Some(derive::genes_proteins),
        ..NODE
    },
];

/// Collections seen in IGVF data that no endpoint reads: skipped with a note, not a warning.
pub const UNUSED: &[&str] = &[
    "transcripts_genes_structure",
    "coding_variants_proteins",
    "complexes_proteins",
    "complexes_terms",
    "genes_pathways",
    "pathways_pathways",
    "files_filesets",
];

/// The spec of collection `name`.
pub fn spec(name: &str) -> Option<&'static Spec> {
    SPECS.iter().find(|s| s.name == name)
}

impl Spec {
    /// The field id of `name` (its index in `fields`).
    pub fn field_id(&self, name: &str) -> Option<u16> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u16)
    }
}

/// A fingerprint of what the schema stores and how (names, fields, types, order, indexes), so a
/// catalog built by a different schema is recognised as stale even at the same version.
pub fn fingerprint() -> String {
    let mut text = String::new();
    for s in SPECS {
        text.push_str(&format!(
            "{}|{:?}|{:?}|{:?}|",
            s.name, s.kind, s.order, s.indexes
        ));
        for f in s.fields {
            text.push_str(&format!("{}:{:?},", f.name, f.ty));
        }
        text.push('\n');
    }
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
}
