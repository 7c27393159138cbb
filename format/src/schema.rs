//! The collections a catalog holds: their names and kept members, how each member is
//! normalised, record order and indexes. The builder stores what this says and the server reads
//! by the names it declares, so both link this module and neither spells a name again.
//!
//! A field no endpoint returns or filters on is not kept; a collection no endpoint uses is
//! skipped. Each collection has a module of its own named for it ([`variants_genes`]): its
//! `NAME`, one constant per kept member named as the member is (`variants_genes::method` is
//! `"method"`) and its `FIELDS`. [`SPECS`] lists the collections in build order: one whose
//! build reads another comes after it. [`check`] validates a (collection, member, index) triple.

use crate::indexes::{IndexKind, IndexName};

#[macro_use]
mod members;

mod associations;
mod check;
mod element_pairs;
mod elements;
mod filesets;
mod genome;
mod interactions;
mod screens;
pub mod system;
mod variation;

pub use associations::*;
pub use check::{check, check_member, check_read};
pub use element_pairs::*;
pub use elements::*;
pub use filesets::*;
pub use genome::*;
pub use interactions::*;
pub use members::{Coll, Member};
pub use screens::*;
pub use variation::*;

/// How a collection's records store the handles (`"<target>/<key>"`) of other collections'
/// records, when every value of a member names one collection built before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handles {
    /// As strings.
    Text,
    /// As the target's ordinals alone (`ref`): targets in key order only.
    Ordinals,
    /// As the key with the target's ordinal beside it (`link`): any target with a key map.
    Linked,
}

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

impl Kind {
    /// The kind's name in catalog metadata.
    pub const fn word(self) -> &'static str {
        match self {
            Kind::Node => "node",
            Kind::Edge => "edge",
            Kind::Derived => "derived",
        }
    }
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

/// An index over a collection, as the schema declares it, with the members it reads. It is not
/// [`IndexKind`], the kind of index a catalog stores: one declaration may store several
/// (a text index is stored as three), and a stored kind says nothing of members; [`Spec::stored`]
/// pairs them, and both builder and reader go through it.
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

/// What a collection stores.
#[derive(Clone, Copy, Debug)]
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
    /// Why the collection has a key map (`<c>.key`: `_key` → ordinal): the requests that turn
    /// one of its keys into an ordinal (an endpoint's identifier, or the stored handles that
    /// name its documents, resolved by joins and verbose expansion). `None`: nothing does, and
    /// it has no key map (pure edges: at 100k their key maps were 95 % of all key-map bytes).
    pub keyed: Option<&'static str>,
    /// Whether its records keep the `_key` member. False only where no shape prints it and
    /// nothing looks it up (its one role, the row order, is the ordinal order): its records
    /// then leave it out (docs/DESIGN.md#the-schema-what-a-catalog-holds).
    pub key_stored: bool,
    /// How its records are blocked (FORMAT.md "Records").
    pub records: Blocking,
    /// How members holding handles of one collection built before it (with a key map) are
    /// stored. Edges keep the key with the target's ordinal beside it (`link`), so that joins
    /// and verbose expansion read the target's record without a key-map walk (at 10M a
    /// quarter of a cold verbose request's pages were `variants.key`). LD stores the ordinal
    /// alone (`ref`, targets in key order): fewer bytes where they matter most (12 × 10⁹
    /// rows), and a decode names each key by a key-map walk. Nodes keep text.
    pub handles: Handles,
    /// The field whose value orders the stored records (a node's edges stored together,
    /// FORMAT.md "Records", clustered stores): the field of the end the heavy requests read
    /// in pages (`variants_genes._to`: a gene's eQTLs, at 10M ≈ 300 edges that were one cold
    /// read each in key order). `None`: stored in ordinal order.
    pub cluster: Option<&'static str>,
}

/// How a collection's records are grouped into blocks, for the way requests read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocking {
    /// Blocks of ≈ 4 KiB, zstd by the one rule: neighbouring ordinals are read together.
    Blocks,
    /// One record per block, zstd whenever it saves a tenth (as `Compact`): requests read
    /// single records at scattered ordinals (a coding variant's phenotype edges), so a read
    /// decompresses its record only, and the rule's half (paid for whole blocks) does not
    /// apply. With `link` handles (an incompressible ordinal each) a 10M build's trial came
    /// out above half, and the records were stored as they are: 71 → 130 B per record.
    Single,
    /// Blocks of ≈ 1 KiB, zstd whenever it saves a tenth of their size (not a half): a
    /// collection whose bytes dominate the catalog (LD, 12 × 10⁹ rows, its handles already
    /// ordinals so that zstd saves less than half of what is left), read a few scattered rows
    /// at a time (each decompresses its block: 4 KiB blocks were half an LD request's
    /// instructions at 1M).
    Compact,
    /// Never compressed: a request reads hundreds of its records (every score of a gene's
    /// coding variants), and decompressing them cost +17–21 % instructions per request even
    /// in one-record frames (BENCHMARKS.md "64-bit ordinals …").
    Plain,
}

/// The defaults a spec overrides: a node collection in key order without indexes.
const NODE: Spec = Spec {
    name: "",
    kind: Kind::Node,
    fields: &[],
    known: &[],
    order: Order::Key,
    indexes: &[],
    numbers: &[],
    keyed: None,
    key_stored: true,
    records: Blocking::Blocks,
    handles: Handles::Text,
    cluster: None,
};

/// Declares [`SPECS`] and [`COLLS`] from one list of collection modules in build order: each
/// module's spec is the constant named as the module in capitals (`genes`: `GENES`), and a
/// compile-time check holds each spec's name to its module's.
macro_rules! catalog {
    ($($coll:ident => $spec:ident),* $(,)?) => {
        /// Every collection varcat builds, in build order: nodes, then edges (so dangling
        /// references are counted against complete node collections), then derived tables.
        pub const SPECS: &[Spec] = &[$($spec),*];

        /// Every collection's handle, in [`SPECS`] order.
        pub const COLLS: &[Coll] = &[$($coll::COLL),*];

        $(const _: () = assert!(
            members::eq($spec.name, $coll::NAME),
            concat!(stringify!($spec), " is not the spec of ", stringify!($coll))
        );)*
    };
}

catalog! {
    genes => GENES,
    mm_genes => MM_GENES,
    transcripts => TRANSCRIPTS,
    mm_transcripts => MM_TRANSCRIPTS,
    proteins => PROTEINS,
    variants => VARIANTS,
    mm_variants => MM_VARIANTS,
    coding_variants => CODING_VARIANTS,
    studies => STUDIES,
    drugs => DRUGS,
    ontology_terms => ONTOLOGY_TERMS,
    genomic_elements => GENOMIC_ELEMENTS,
    mm_genomic_elements => MM_GENOMIC_ELEMENTS,
    pathways => PATHWAYS,
    motifs => MOTIFS,
    complexes => COMPLEXES,
    files_filesets => FILES_FILESETS,
    genes_transcripts => GENES_TRANSCRIPTS,
    transcripts_proteins => TRANSCRIPTS_PROTEINS,
    genes_structure => GENES_STRUCTURE,
    mm_genes_structure => MM_GENES_STRUCTURE,
    variants_coding_variants => VARIANTS_CODING_VARIANTS,
    coding_variants_phenotypes => CODING_VARIANTS_PHENOTYPES,
    variants_genes => VARIANTS_GENES,
    variants_proteins => VARIANTS_PROTEINS,
    variants_genomic_elements => VARIANTS_GENOMIC_ELEMENTS,
    variants_phenotypes => VARIANTS_PHENOTYPES,
    variants_biosamples => VARIANTS_BIOSAMPLES,
    variants_drugs => VARIANTS_DRUGS,
    variants_diseases => VARIANTS_DISEASES,
    variants_diseases_genes => VARIANTS_DISEASES_GENES,
    diseases_genes => DISEASES_GENES,
    variants_variants => VARIANTS_VARIANTS,
    genomic_elements_genes => GENOMIC_ELEMENTS_GENES,
    genomic_elements_biosamples => GENOMIC_ELEMENTS_BIOSAMPLES,
    motifs_proteins => MOTIFS_PROTEINS,
    ontology_terms_ontology_terms => ONTOLOGY_TERMS_ONTOLOGY_TERMS,
    genomic_elements_phenotypes => GENOMIC_ELEMENTS_PHENOTYPES,
    genes_genes => GENES_GENES,
    mm_genes_mm_genes => MM_GENES_MM_GENES,
    proteins_proteins => PROTEINS_PROTEINS,
    complexes_proteins => COMPLEXES_PROTEINS,
    gene_products_terms => GENE_PRODUCTS_TERMS,
    genes_pathways => GENES_PATHWAYS,
    pathways_pathways => PATHWAYS_PATHWAYS,
    genomic_elements_genomic_elements => GENOMIC_ELEMENTS_GENOMIC_ELEMENTS,
    genes_transcripts_genes => GENES_TRANSCRIPTS_GENES,
    genes_proteins => GENES_PROTEINS,
    coding_variant_scores => CODING_VARIANT_SCORES,
    variant_ld_predictions => VARIANT_LD_PREDICTIONS,
}

/// Collections seen in IGVF data that no endpoint reads: skipped with a note, not a warning.
pub const UNUSED: &[&str] = &[
    "transcripts_genes_structure",
    "coding_variants_proteins",
    "complexes_terms",
];

/// The spec of collection `name`.
pub fn spec(name: &str) -> Option<&'static Spec> {
    SPECS.iter().find(|s| s.name == name)
}

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

    /// Whether its records hold member `name` when a document has it: every kept field but an
    /// unstored `_key` ([`Spec::key_stored`]; the key still orders the rows).
    pub fn stores(&self, name: &str) -> bool {
        self.key_stored || name != "_key"
    }

    /// The field id of `name` (its index in `fields`).
    pub fn field_id(&self, name: &str) -> Option<u16> {
        self.fields
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u16)
    }

    /// The indexes a catalog stores for the collection, in the order its metadata lists them:
    /// each declared index (a text index is three: `by`, `fold`, `tok`), then the numeric
    /// columns (as [`Index::Number`]); each with the kind it is stored as. The builder feeds
    /// exactly these, and [`Spec::index_names`] names them.
    pub fn stored(&self) -> impl Iterator<Item = (IndexKind, Index)> + '_ {
        let declared = self.indexes.iter().flat_map(|&i| {
            let kinds: &[IndexKind] = match i {
                Index::Exact(f) => match IndexKind::exact(f) {
                    IndexKind::Adj => &[IndexKind::Adj],
                    _ => &[IndexKind::By],
                },
                Index::Text(_) => &[IndexKind::By, IndexKind::Fold, IndexKind::Tok],
                Index::Facet(_) => &[IndexKind::Facet],
                Index::Number(_) => &[IndexKind::Num],
                Index::Intervals { .. } => &[IndexKind::Intervals],
                Index::Ends { .. } => &[IndexKind::Ends],
                Index::Points { .. } => &[IndexKind::Points],
            };
            kinds.iter().map(move |&k| (k, i))
        });
        let columns = self
            .numbers
            .iter()
            .map(|&f| (IndexKind::Num, Index::Number(f)));
        declared.chain(columns)
    }

    /// The names of the indexes a catalog stores for the collection ([`Spec::stored`]).
    pub fn index_names(&self) -> impl Iterator<Item = IndexName> + '_ {
        self.stored().map(|(k, i)| IndexName::new(k, i.member()))
    }
}

impl Index {
    /// The member an index of one member reads; `""` for the whole-collection indexes
    /// (intervals, ends, points), which read coordinates.
    pub const fn member(self) -> &'static str {
        match self {
            Index::Exact(f) | Index::Text(f) | Index::Facet(f) | Index::Number(f) => f,
            Index::Intervals { .. } | Index::Ends { .. } | Index::Points { .. } => "",
        }
    }
}

/// A fingerprint of what the schema stores and how (names, fields, types, order, indexes), so a
/// catalog built by a different schema is recognised as stale even at the same version.
pub fn fingerprint() -> String {
    let mut text = String::new();
    for s in SPECS {
        text.push_str(&format!(
            "{}|{:?}|{:?}|{:?}|{:?}|{}|",
            s.name,
            s.kind,
            s.order,
            s.indexes,
            s.numbers,
            s.keyed.is_some()
        ));
        if !s.key_stored {
            text.push_str("no _key|");
        }
        for f in s.fields {
            text.push_str(&format!("{}:{:?},", f.name, f.ty));
        }
        text.push('\n');
    }
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
}
