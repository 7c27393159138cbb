//! The kinds of index a collection stores, by the names its sections and its metadata give them.
//!
//! A collection's metadata lists its indexes as [`IndexName`]s (`by.gene_id`, `facet.method`,
//! `intervals`); the builder names the sections it writes from them and the reader opens them
//! by them (see [`crate::meta::names`]), so both sides spell a kind's word in one place.

use std::fmt;
use std::str::FromStr;

/// What an index maps, named by the word its sections carry after the collection name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IndexKind {
    /// `by.<field>`: exact value (each element of an array) → ordinals (FST + postings).
    By,
    /// `fold.<field>`: case-folded value → ordinals, for prefix search (FST + postings).
    Fold,
    /// `tok.<field>`: case-folded token → ordinals, for token search (FST + postings).
    Tok,
    /// `facet.<field>`: a roaring bitmap per value.
    Facet,
    /// `num.<field>`: an f64 column.
    Num,
    /// `intervals`: the collection's (chr, start, end) interval index.
    Intervals,
    /// `ends`: the intervals' ends as a point index (nearest-feature queries).
    Ends,
    /// `points`: the collection's (chr, pos) point index.
    Points,
    /// `adj.<end>`: an edge end's node ordinal → edge ordinals, per target collection
    /// ([`crate::adjacency`]); it replaces the end's exact-value map.
    Adj,
}

impl IndexKind {
    /// Every kind.
    pub const ALL: [IndexKind; 9] = [
        IndexKind::By,
        IndexKind::Fold,
        IndexKind::Tok,
        IndexKind::Facet,
        IndexKind::Num,
        IndexKind::Intervals,
        IndexKind::Ends,
        IndexKind::Points,
        IndexKind::Adj,
    ];

    /// The word in section and index names.
    pub const fn word(self) -> &'static str {
        match self {
            IndexKind::By => "by",
            IndexKind::Fold => "fold",
            IndexKind::Tok => "tok",
            IndexKind::Facet => "facet",
            IndexKind::Num => "num",
            IndexKind::Intervals => "intervals",
            IndexKind::Ends => "ends",
            IndexKind::Points => "points",
            IndexKind::Adj => "adj",
        }
    }

    /// Whether an index of this kind is over one member (`by.<field>`) rather than the whole
    /// collection's coordinates (`intervals`).
    pub const fn per_field(self) -> bool {
        !matches!(
            self,
            IndexKind::Intervals | IndexKind::Ends | IndexKind::Points
        )
    }

    /// The kind an exact index of `field` is stored as: an edge end's (`_from`, `_to`) is an
    /// ordinal adjacency, any other member's a value map.
    pub fn exact(field: &str) -> IndexKind {
        match field {
            "_from" | "_to" => IndexKind::Adj,
            _ => IndexKind::By,
        }
    }

    /// Whether it is stored as an FST section (`.fst`) and its postings (`.post`).
    pub const fn is_value_map(self) -> bool {
        matches!(self, IndexKind::By | IndexKind::Fold | IndexKind::Tok)
    }
}

impl fmt::Display for IndexKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for IndexKind {
    type Err = String;

    fn from_str(s: &str) -> Result<IndexKind, String> {
        IndexKind::ALL
            .into_iter()
            .find(|k| k.word() == s)
            .ok_or_else(|| format!("unknown index kind {s:?}"))
    }
}

/// One index of a collection as its metadata lists it: `<kind>.<field>`, or `<kind>` alone for
/// the whole-collection kinds. The collection's section names start with it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IndexName {
    /// Its kind.
    pub kind: IndexKind,
    /// The member it indexes (`a.b` is member `b` of object member `a`); empty for the
    /// whole-collection kinds.
    pub field: String,
}

impl IndexName {
    /// The index of `kind` over `field` (give `""` for the whole-collection kinds).
    pub fn new(kind: IndexKind, field: &str) -> IndexName {
        IndexName {
            kind,
            field: field.to_string(),
        }
    }
}

impl fmt::Display for IndexName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind.per_field() {
            write!(f, "{}.{}", self.kind, self.field)
        } else {
            write!(f, "{}", self.kind)
        }
    }
}

impl FromStr for IndexName {
    type Err = String;

    /// The kind is the text before the first `.`; the field, which may hold dots, the rest.
    fn from_str(s: &str) -> Result<IndexName, String> {
        let (word, field) = match s.split_once('.') {
            Some((w, f)) => (w, Some(f)),
            None => (s, None),
        };
        let kind: IndexKind = word.parse()?;
        match (kind.per_field(), field) {
            (true, Some(f)) if !f.is_empty() => Ok(IndexName::new(kind, f)),
            (false, None) => Ok(IndexName::new(kind, "")),
            (true, _) => Err(format!("index {s:?} names no field")),
            (false, Some(_)) => Err(format!("index {s:?} takes no field")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn test_words_are_the_stored_ones() {
        // Catalogs on disk carry these words: they never change.
        let words: Vec<String> = IndexKind::ALL.iter().map(|k| k.to_string()).collect();
        assert_eq!(
            words,
            [
                "by",
                "fold",
                "tok",
                "facet",
                "num",
                "intervals",
                "ends",
                "points",
                "adj"
            ]
        );
        for k in IndexKind::ALL {
            assert_eq!(k.word().parse::<IndexKind>(), Ok(k));
        }
        assert!("By".parse::<IndexKind>().is_err());
        assert!("".parse::<IndexKind>().is_err());
    }

    #[test]
    fn test_index_names_parse_as_metadata_spells_them() {
        let n: IndexName = "facet.annotations.GENCODE_category".parse().unwrap();
        assert_eq!(
            n,
            IndexName::new(IndexKind::Facet, "annotations.GENCODE_category")
        );
        assert_eq!(
            "intervals".parse(),
            Ok(IndexName::new(IndexKind::Intervals, ""))
        );
        for bad in ["by", "by.", "ends.chr", "points.", "bogus.x", "", ".x"] {
            assert!(bad.parse::<IndexName>().is_err(), "{bad}");
        }
    }

    fn kind() -> impl Strategy<Value = IndexKind> {
        prop::sample::select(IndexKind::ALL.to_vec())
    }

    proptest! {
        /// Display then FromStr gives the index back, for any member name, dots included.
        #[test]
        fn prop_index_name_round_trips(k in kind(), field in "[A-Za-z0-9_.]{1,20}") {
            let n = IndexName::new(k, if k.per_field() { &field } else { "" });
            let text = n.to_string();
            prop_assert_eq!(text.parse::<IndexName>(), Ok(n));
            prop_assert!(text.starts_with(k.word()));
        }

        /// Whatever text parses prints back as itself (one spelling per index).
        #[test]
        fn prop_parsed_names_print_as_given(text in "[a-z]{0,9}(\\.[A-Za-z_.]{0,6})?") {
            if let Ok(n) = text.parse::<IndexName>() {
                prop_assert_eq!(n.to_string(), text);
            }
        }
    }
}
