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

pub(crate) const fn f(name: &'static str, ty: Ty) -> Field {
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
    /// Interval index over (chr, start, end).
    Intervals {
        /// Chromosome member.
        chr: &'static str,
        /// Start member (0-based).
        start: &'static str,
        /// End member (exclusive).
        end: &'static str,
    },
    /// The intervals' ends as a point index over (chr, end), for nearest-feature queries.
    Ends {
        /// Chromosome member.
        chr: &'static str,
        /// End member.
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
pub type Prepare = fn(&mut crate::doc::Doc<'_>, &derive::Ctx) -> Result<(), String>;

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
    /// Numeric columns (member names; `a.b` reads member `b` of object member `a`).
    pub numbers: &'static [&'static str],
    /// Preparation hook.
    pub prepare: Option<Prepare>,
    /// For derived tables: the generator of their documents.
    pub derive: Option<derive::Generator>,
}

pub(crate) const NODE: Spec = Spec {
    name: "",
    kind: Kind::Node,
    fields: &[],
    known: &[],
    order: Order::Key,
    indexes: &[],
    numbers: &[],
    prepare: None,
    derive: None,
};

mod associations;
mod elements;
mod genes;
mod variants;

pub use variants::AF_SOURCES;

/// Every collection varcat builds, in build order: nodes, then edges (so dangling references
/// are counted against complete node collections), then derived tables.
pub const SPECS: &[Spec] = &[
    genes::GENES,
    genes::MM_GENES,
    genes::TRANSCRIPTS,
    genes::MM_TRANSCRIPTS,
    genes::PROTEINS,
    variants::VARIANTS,
    variants::MM_VARIANTS,
    variants::CODING_VARIANTS,
    associations::STUDIES,
    associations::DRUGS,
    elements::ONTOLOGY_TERMS,
    elements::GENOMIC_ELEMENTS,
    elements::MM_GENOMIC_ELEMENTS,
    elements::PATHWAYS,
    elements::MOTIFS,
    elements::COMPLEXES,
    genes::GENES_TRANSCRIPTS,
    genes::TRANSCRIPTS_PROTEINS,
    genes::GENES_STRUCTURE,
    genes::MM_GENES_STRUCTURE,
    variants::VARIANTS_CODING_VARIANTS,
    variants::CODING_VARIANTS_PHENOTYPES,
    associations::VARIANTS_GENES,
    associations::VARIANTS_PROTEINS,
    associations::VARIANTS_GENOMIC_ELEMENTS,
    associations::VARIANTS_PHENOTYPES,
    associations::VARIANTS_BIOSAMPLES,
    associations::VARIANTS_DRUGS,
    associations::VARIANTS_DISEASES,
    associations::VARIANTS_DISEASES_GENES,
    elements::DISEASES_GENES,
    associations::VARIANTS_VARIANTS,
    elements::GENOMIC_ELEMENTS_GENES,
    elements::GENOMIC_ELEMENTS_BIOSAMPLES,
    elements::MOTIFS_PROTEINS,
    elements::ONTOLOGY_TERMS_ONTOLOGY_TERMS,
    genes::GENES_PROTEINS,
    variants::CODING_VARIANT_SCORES,
    associations::VARIANT_LD_PREDICTIONS,
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

/// The longest string an index takes, bytes (`_key`, `_from`, `_to` and every element of an
/// indexed member): an FST builder holds some hundred bytes of state per byte of the key it is
/// adding, so one 20 MB name took 2.8 GB whatever `--mem-budget` said.
pub const MAX_INDEXED_BYTES: usize = 64 << 10;

/// Where a collection's documents lie on the genome: the members of an interval or point index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// Chromosome member.
    pub chr: &'static str,
    /// Start (or position) member.
    pub start: &'static str,
    /// End member (intervals only).
    pub end: Option<&'static str>,
}

impl Spec {
    /// The coordinates the collection's region indexes read (none for most collections).
    pub fn places(&self) -> impl Iterator<Item = Place> + '_ {
        self.indexes.iter().filter_map(|i| match *i {
            Index::Intervals { chr, start, end } => Some(Place {
                chr,
                start,
                end: Some(end),
            }),
            Index::Points { chr, pos } => Some(Place {
                chr,
                start: pos,
                end: None,
            }),
            _ => None,
        })
    }

    /// Whether member `name` feeds a key map (exact, text or facet index).
    pub fn is_indexed_text(&self, name: &str) -> bool {
        matches!(name, "_key" | "_from" | "_to")
            || self.indexes.iter().any(|i| {
                matches!(*i, Index::Exact(f) | Index::Text(f) | Index::Facet(f) if f == name)
                    || matches!(*i, Index::Intervals { chr, .. } | Index::Points { chr, .. } if chr == name)
            })
    }

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
            "{}|{:?}|{:?}|{:?}|{:?}|",
            s.name, s.kind, s.order, s.indexes, s.numbers
        ));
        for f in s.fields {
            text.push_str(&format!("{}:{:?},", f.name, f.ty));
        }
        text.push('\n');
    }
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
}
