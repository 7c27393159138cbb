//! A read view of one stored collection: its records, its `_key` map and the indexes its
//! metadata lists. Both the server and the indexer's join steps read collections through it.
//!
//! Index names in [`CollectionMeta::indexes`] are section-name suffixes, parsed as
//! [`IndexName`]s: their [`IndexKind`] says which view opens them.

use crate::adjacency::Adjacency;
use crate::catalog::Catalog;
use crate::error::ReadError;
use crate::facets::Facet;
use crate::fstmap::{KeyMap, MultiMap};
use crate::indexes::{IndexKind, IndexName};
use crate::intervals::IntervalIndex;
use crate::keylookup::KeyLookup;
use crate::meta::{names, CollectionMeta, Meta, META_SECTION};
use crate::namemap::NameMap;
use crate::numbers::Numbers;
use crate::points::PointIndex;
use crate::records::{self, Member, RecordStore, StoredRecord};
use crate::schema::Handles;
use crate::width::Width;

/// One collection's views.
#[derive(Clone)]
pub struct Collection {
    /// Its metadata.
    pub meta: CollectionMeta,
    records: RecordStore,
    /// None for a collection without a key map (`meta.keyed` false).
    key: Option<KeyMap>,
    /// The schema stores its records in `_key` order (an ordinal is its key's rank).
    key_ordered: bool,
    field_ids: NameMap<u16>,
    by: NameMap<MultiMap>,
    fold: NameMap<MultiMap>,
    tok: NameMap<MultiMap>,
    facets: NameMap<Facet>,
    numbers: NameMap<Numbers>,
    intervals: Option<IntervalIndex>,
    ends: Option<PointIndex>,
    points: Option<PointIndex>,
    adj: NameMap<Adjacency>,
}

impl Collection {
    /// Opens the views of `meta`'s collection.
    pub fn open(cat: &Catalog, meta: &CollectionMeta) -> Result<Collection, ReadError> {
        let name = meta.name.as_str();
        let dict = cat.require(&records::dict_section(name))?;
        let codebook = cat.require(&crate::codebook::section(name))?;
        let records = RecordStore::open(
            cat.require(&names::records(name))?,
            dict.as_ref(),
            codebook.as_ref(),
            &names::records(name),
        )?;
        if records.len() as u64 != meta.documents {
            return Err(ReadError::invalid(
                &names::records(name),
                "record count differs from metadata",
            ));
        }
        if meta.fields.len() > u16::MAX as usize {
            return Err(ReadError::invalid(
                META_SECTION,
                format!("{name}: too many fields"),
            ));
        }
        let width = Width::from_bytes(meta.ordinal_width, name)?;
        let key = if meta.keyed {
            Some(KeyMap::open(
                cat.require(&names::key(name))?,
                &names::key(name),
            )?)
        } else {
            None
        };
        let field_ids = meta
            .fields
            .iter()
            .enumerate()
            .map(|(i, f)| (f.clone(), i as u16))
            .collect();
        let mut c = Collection {
            meta: meta.clone(),
            records,
            key,
            key_ordered: crate::schema::spec(name)
                .is_some_and(|s| matches!(s.order, crate::schema::Order::Key)),
            field_ids,
            by: NameMap::default(),
            fold: NameMap::default(),
            tok: NameMap::default(),
            facets: NameMap::default(),
            numbers: NameMap::default(),
            intervals: None,
            ends: None,
            points: None,
            adj: NameMap::default(),
        };
        for text in &meta.indexes {
            let ix: IndexName = text.parse().map_err(|e| {
                ReadError::invalid(META_SECTION, format!("{name}: unknown index {text} ({e})"))
            })?;
            let field = ix.field.clone();
            let section = names::index(name, &ix);
            match ix.kind {
                IndexKind::By | IndexKind::Fold | IndexKind::Tok => {
                    let map = MultiMap::open_with_width(
                        cat.require(&names::map_fst(name, &ix))?,
                        cat.require(&names::map_post(name, &ix))?,
                        &names::map_fst(name, &ix),
                        width,
                    )?;
                    let maps = match ix.kind {
                        IndexKind::By => &mut c.by,
                        IndexKind::Fold => &mut c.fold,
                        _ => &mut c.tok,
                    };
                    maps.insert(field, map);
                }
                IndexKind::Facet => {
                    let f = Facet::open_width(cat.require(&section)?.as_ref(), &section, width)?;
                    c.facets.insert(field, f);
                }
                IndexKind::Num => {
                    let col = Numbers::open(cat.require(&section)?, &section)?;
                    if col.len() as u64 != meta.documents {
                        return Err(ReadError::invalid(
                            &section,
                            "column length differs from record count",
                        ));
                    }
                    c.numbers.insert(field, col);
                }
                IndexKind::Intervals => {
                    c.intervals = Some(IntervalIndex::open_width(
                        cat.require(&section)?,
                        &section,
                        width,
                    )?);
                }
                IndexKind::Ends => {
                    c.ends = Some(PointIndex::open_width(
                        cat.require(&section)?,
                        &section,
                        width,
                    )?);
                }
                IndexKind::Points => {
                    c.points = Some(PointIndex::open_width(
                        cat.require(&section)?,
                        &section,
                        width,
                    )?);
                }
                IndexKind::Adj => {
                    let unresolved = MultiMap::open_with_width(
                        cat.require(&names::adj_unresolved_fst(name, &ix))?,
                        cat.require(&names::adj_unresolved_post(name, &ix))?,
                        &names::adj_unresolved_fst(name, &ix),
                        width,
                    )?;
                    let a = Adjacency::open_with_width(
                        cat.require(&section)?,
                        cat.require(&names::adj_post(name, &ix))?,
                        unresolved,
                        &section,
                        width,
                    )?;
                    c.adj.insert(field, a);
                }
            }
        }
        Ok(c)
    }

    /// Collection name.
    pub fn name(&self) -> &str {
        &self.meta.name
    }

    /// Number of records.
    pub fn len(&self) -> u64 {
        self.records.len() as u64
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The field id of member `name`.
    pub fn field(&self, name: &str) -> Option<u16> {
        self.field_ids.get(name).copied()
    }

    /// The ordinal of the record with `_key` = `key` (None in a collection without a key map:
    /// nothing is meant to look its documents up by key).
    pub fn ord(&self, key: &str) -> Option<u64> {
        #[cfg(debug_assertions)]
        registry::note(self.name(), "key", self.key.is_some());
        let id = self.records.id();
        if let Some(o) = crate::codebook::remembered(id, key.as_bytes()) {
            return Some(o);
        }
        // Kept as a decoded reference is: the rows of a page often name one record again
        // (a gene's edges, each naming the gene).
        let o = self.key_lookup()?.ord(key)?;
        crate::codebook::remember(id, key.as_bytes(), o);
        Some(o)
    }

    /// The `_key` of record `ord`, read from the key map backwards: names a record known by
    /// ordinal without reading it. None past the end, without a key map, or when the schema
    /// orders the records by other members (an ordinal is then not its key's rank).
    pub fn key_of(&self, ord: u64) -> Option<String> {
        if !self.key_ordered {
            return None;
        }
        self.key_lookup()?.key_of(ord)
    }

    /// Its key map as an adjacency's targets resolve handles with it (None without one).
    pub fn key_lookup(&self) -> Option<KeyLookup> {
        Some(KeyLookup {
            map: self.key.clone()?,
            encoding: self.meta.key_encoding,
            len: self.len(),
            index: None,
        })
    }

    /// Its key map when its records are in key order, so that an ordinal reads back as its
    /// key (what `ref` members of other collections are decoded with).
    pub fn ordered_key_lookup(&self) -> Option<KeyLookup> {
        self.key_lookup().filter(|_| self.key_ordered)
    }

    /// Its key map as other collections' records that store its handles `how` read it: none
    /// for text, in key order for `ref` (an ordinal reads back as its key), any for `link`.
    pub fn key_lookup_for(&self, how: Handles) -> Option<KeyLookup> {
        match how {
            Handles::Text => None,
            Handles::Ordinals => self.ordered_key_lookup(),
            Handles::Linked => self.key_lookup(),
        }
    }

    /// Links this collection's adjacencies to their targets' key maps (`get` finds a target
    /// by name), so handles resolve to node ordinals, and its records' `ref` and `link`
    /// members to their targets. A `ref` target the catalog lacks (or holds without a key map
    /// in key order) leaves the records unreadable: refused.
    pub fn link<'c>(
        &mut self,
        get: impl Fn(&str) -> Option<&'c Collection>,
    ) -> Result<(), ReadError> {
        self.link_with(&get, |t| get(t).and_then(Collection::key_lookup))
    }

    /// [`Collection::link`], with the adjacencies' key maps from `lookup` (a build's carry
    /// the fingerprints of their keys).
    pub fn link_with<'c>(
        &mut self,
        get: impl Fn(&str) -> Option<&'c Collection>,
        lookup: impl Fn(&str) -> Option<KeyLookup>,
    ) -> Result<(), ReadError> {
        for a in self.adj.values_mut() {
            let names: Vec<String> = a.targets().map(str::to_string).collect();
            for t in names {
                if let Some(k) = lookup(&t) {
                    a.link(&t, k);
                }
            }
        }
        for (r, how) in self.records.codebook().refs() {
            let target = get(&r.target);
            match target.and_then(|t| t.key_lookup_for(how)) {
                Some(k) => r.link(k, target.map_or(u64::MAX, |t| t.records.id())),
                // A `link` still prints its handle: joins then walk the key map as usual.
                None if how == Handles::Linked => {}
                None => {
                    return Err(ReadError::invalid(
                        &crate::codebook::section(self.name()),
                        format!(
                            "its records refer to {} by ordinal, and the catalog has no key map of it in key order",
                            r.target
                        ),
                    ))
                }
            }
        }
        Ok(())
    }

    /// The ordinal adjacency of edge end `field` (`_from`, `_to`).
    pub fn adjacency(&self, field: &str) -> Option<&Adjacency> {
        let found = self.adj.get(field);
        #[cfg(debug_assertions)]
        registry::note(self.name(), &format!("adj.{field}"), found.is_some());
        found
    }

    /// Calls `f` with every stored key (in the collection's key encoding, see
    /// [`crate::keys::KeyEncoding::encode`]) and its ordinal, in stored-key order (none without
    /// a key map).
    pub fn for_each_key(&self, mut f: impl FnMut(&[u8], u64)) {
        let len = self.len();
        let Some(map) = &self.key else { return };
        map.for_each(|k, v| {
            if v < len {
                f(k, v);
            }
        });
    }

    /// Reads ahead the records of `ords` if they lie close together (see
    /// [`crate::records::RecordStore::prefetch`]).
    pub fn prefetch(&self, ords: &[u64]) {
        self.records.prefetch(ords);
    }

    /// Records per zstd block of the record store.
    pub fn records_per_block(&self) -> usize {
        self.records.per_block()
    }

    /// The record store (its codec and codebook, for `varcat info`).
    pub fn record_store(&self) -> &RecordStore {
        &self.records
    }

    /// The record with ordinal `ord`.
    pub fn record(&self, ord: u64) -> Option<StoredRecord> {
        self.records.get(ord)
    }

    /// The JSON bytes of the member with id `field` (see [`Collection::field`]) of record
    /// `ord`, decoded alone.
    pub fn member(&self, ord: u64, field: u16) -> Option<Member> {
        self.records.member(ord, field)
    }

    /// The JSON bytes of member `field` of record `ord`.
    pub fn value(&self, ord: u64, field: &str) -> Option<Member> {
        let id = self.field(field)?;
        self.records.member(ord, id)
    }

    /// Member `name` of object member `field` of record `ord` (`null` for a null member).
    pub fn inner_value(&self, ord: u64, field: &str, name: &str) -> Option<Vec<u8>> {
        let id = self.field(field)?;
        self.records.inner(ord, id, name)
    }

    /// The member `field` of record `ord` as a string (None when absent, null or not a string).
    pub fn string(&self, ord: u64, field: &str) -> Option<String> {
        serde_json::from_slice::<String>(&self.value(ord, field)?).ok()
    }

    /// The exact-value index of `field`.
    pub fn by(&self, field: &str) -> Option<&MultiMap> {
        let found = self.by.get(field);
        #[cfg(debug_assertions)]
        registry::note(self.name(), &format!("by.{field}"), found.is_some());
        found
    }

    /// The folded-value index of `field`.
    pub fn fold(&self, field: &str) -> Option<&MultiMap> {
        let found = self.fold.get(field);
        #[cfg(debug_assertions)]
        registry::note(self.name(), &format!("fold.{field}"), found.is_some());
        found
    }

    /// The token index of `field`.
    pub fn tokens(&self, field: &str) -> Option<&MultiMap> {
        let found = self.tok.get(field);
        #[cfg(debug_assertions)]
        registry::note(self.name(), &format!("tok.{field}"), found.is_some());
        found
    }

    /// The facet of `field`.
    pub fn facet(&self, field: &str) -> Option<&Facet> {
        let found = self.facets.get(field);
        #[cfg(debug_assertions)]
        registry::note(self.name(), &format!("facet.{field}"), found.is_some());
        found
    }

    /// The numeric column of `field`.
    pub fn number(&self, field: &str) -> Option<&Numbers> {
        let found = self.numbers.get(field);
        #[cfg(debug_assertions)]
        registry::note(self.name(), &format!("num.{field}"), found.is_some());
        found
    }

    /// The interval index.
    pub fn intervals(&self) -> Option<&IntervalIndex> {
        // Handlers probe for it to learn whether the collection is placed: only a read counts.
        #[cfg(debug_assertions)]
        if self.intervals.is_some() {
            registry::note(self.name(), "intervals", true);
        }
        self.intervals.as_ref()
    }

    /// The intervals' ends as a point index (nearest-feature queries).
    pub fn ends(&self) -> Option<&PointIndex> {
        // Handlers probe for it to learn whether the collection is placed: only a read counts.
        #[cfg(debug_assertions)]
        if self.ends.is_some() {
            registry::note(self.name(), "ends", true);
        }
        self.ends.as_ref()
    }

    /// The point index.
    pub fn points(&self) -> Option<&PointIndex> {
        // Handlers probe for it to learn whether the collection is placed: only a read counts.
        #[cfg(debug_assertions)]
        if self.points.is_some() {
            registry::note(self.name(), "points", true);
        }
        self.points.as_ref()
    }

    /// Memory held by decoded facets (bytes, approximate).
    pub fn facet_memory(&self) -> usize {
        self.facets.values().map(Facet::memory).sum()
    }
}

/// Every collection of a catalog, opened.
#[derive(Clone)]
pub struct Collections {
    /// The catalog.
    pub catalog: Catalog,
    /// Its metadata.
    pub meta: Meta,
    by_name: NameMap<Collection>,
}

impl Collections {
    /// Opens the metadata and every collection it lists.
    pub fn open(catalog: Catalog) -> Result<Collections, ReadError> {
        let meta = Meta::from_bytes(catalog.require(META_SECTION)?.as_ref())?;
        Collections::with_meta(catalog, meta)
    }

    /// Opens the collections listed in `meta` (the indexer passes metadata not yet written).
    pub fn with_meta(catalog: Catalog, meta: Meta) -> Result<Collections, ReadError> {
        let mut by_name = NameMap::default();
        for cm in &meta.collections {
            by_name.insert(cm.name.clone(), Collection::open(&catalog, cm)?);
        }
        let unlinked = by_name.clone();
        for c in by_name.values_mut() {
            c.link(|n| unlinked.get(n))?;
        }
        Ok(Collections {
            catalog,
            meta,
            by_name,
        })
    }

    /// The collection `name`, if the catalog has it.
    pub fn get(&self, name: &str) -> Option<&Collection> {
        self.by_name.get(name)
    }

    /// Resolves a document handle `collection/key` to its collection and ordinal.
    pub fn resolve(&self, handle: &str) -> Option<(&Collection, u64)> {
        let (coll, key) = handle.split_once('/')?;
        let c = self.get(coll)?;
        Some((c, c.ord(key)?))
    }
}

/// Debug builds note every (collection, index) a reader asks for, and whether the catalog had
/// it, so that a test can hold the indexes the schema declares against those the server reads
/// (docs/DESIGN.md#the-schema-what-a-catalog-holds). `index` is a section-name suffix (`by.spdi`, `points`) or
/// `key` for the key map.
#[cfg(debug_assertions)]
pub mod registry {
    use std::collections::BTreeSet;
    use std::sync::Mutex;

    static ASKED: Mutex<BTreeSet<(String, String, bool)>> = Mutex::new(BTreeSet::new());

    pub(crate) fn note(coll: &str, index: &str, present: bool) {
        let mut set = ASKED.lock().unwrap_or_else(|e| e.into_inner());
        let key = (coll.to_string(), index.to_string(), present);
        set.insert(key);
    }

    /// What was asked for so far: (collection, index, whether it was there).
    pub fn asked() -> BTreeSet<(String, String, bool)> {
        ASKED.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
