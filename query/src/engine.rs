//! Query primitives over a catalog: ordinal sets, their lazy intersection with predicates,
//! paging, and the name-search cascade. Handlers compose these; none re-implements them.
//!
//! Every set iterates in ascending ordinal order, which is each collection's output order, so
//! a page is found by walking the smallest set and testing membership in the others: the cost
//! grows with the page offset and the smallest set, never with the collection.

use roaring::{RoaringBitmap, RoaringTreemap};
use varcat_format::collection::Collection;
use varcat_format::indexes::IndexKind;
use varcat_format::postings::List;
use varcat_format::records::Member as Bytes;
use varcat_format::schema::{self, Member};
use varcat_format::text;

/// The name of member `m` in `coll`, read through an index of `kind` (None: the record
/// member). Debug builds check the use against the schema (`coll` has `m`'s members and
/// stores that index): a name the schema does not declare would find nothing in any catalog.
pub fn name_in(coll: &Collection, m: Member, kind: Option<IndexKind>) -> &'static str {
    if cfg!(debug_assertions) {
        if let Err(why) = schema::check_read(coll.name(), m, kind) {
            panic!("{why}");
        }
    }
    m.name()
}

/// Debug builds: checks that `coll` stores the whole-collection index of `kind` (intervals,
/// ends, points).
pub fn check_whole(coll: &Collection, kind: IndexKind) {
    if cfg!(debug_assertions) {
        if let Err(why) = schema::check(coll.name(), "", kind) {
            panic!("{why}");
        }
    }
}

/// Reads of record members by handle (the collection's own, name-keyed reads are not for
/// handlers: see `clippy.toml`).
pub trait Read {
    /// The JSON bytes of member `m` of record `o` (holding its decoded record block).
    fn raw(&self, o: u64, m: Member) -> Option<Bytes>;
    /// Member `m` of record `o` as a string (None when absent, null or not a string).
    fn str_of(&self, o: u64, m: Member) -> Option<String>;
}

#[allow(clippy::disallowed_methods)]
impl Read for Collection {
    fn raw(&self, o: u64, m: Member) -> Option<Bytes> {
        self.value(o, name_in(self, m, None))
    }

    fn str_of(&self, o: u64, m: Member) -> Option<String> {
        self.string(o, name_in(self, m, None))
    }
}

/// A set of record ordinals of one collection.
#[derive(Clone, Debug)]
pub enum Set<'a> {
    /// No ordinal.
    Empty,
    /// `0..n`.
    All(u64),
    /// A postings list (ascending).
    List(List),
    /// A facet bitmap (narrow collection).
    Bitmap(&'a RoaringBitmap),
    /// A facet bitmap of a wide collection.
    Treemap(&'a RoaringTreemap),
    /// An ascending, duplicate-free vector.
    Vec(Vec<u64>),
}

impl<'a> Set<'a> {
    /// A set from an unsorted vector.
    pub fn from_unsorted(mut v: Vec<u64>) -> Set<'a> {
        v.sort_unstable();
        v.dedup();
        Set::Vec(v)
    }

    /// A set from an optional postings list.
    pub fn from_list(l: Option<List>) -> Set<'a> {
        l.map_or(Set::Empty, Set::List)
    }

    /// The union of several sets.
    pub fn union(sets: impl IntoIterator<Item = Set<'a>>) -> Set<'a> {
        let mut sets = sets.into_iter();
        let Some(first) = sets.next() else {
            return Set::Empty;
        };
        // The union of one set (one gene's edges, most often) is that set, not a sorted copy.
        let Some(second) = sets.next() else {
            return first;
        };
        let mut v = Vec::new();
        for s in [first, second].into_iter().chain(sets) {
            if let Set::All(n) = s {
                return Set::All(n);
            }
            v.extend(s.iter());
        }
        Set::from_unsorted(v)
    }

    /// Size (exact; bitmaps count their members).
    pub fn len(&self) -> u64 {
        match self {
            Set::Empty => 0,
            Set::All(n) => *n,
            Set::List(l) => l.len() as u64,
            Set::Bitmap(b) => b.len(),
            Set::Treemap(t) => t.len(),
            Set::Vec(v) => v.len() as u64,
        }
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Membership.
    pub fn contains(&self, x: u64) -> bool {
        match self {
            Set::Empty => false,
            Set::All(n) => x < *n,
            Set::List(l) => {
                let (mut lo, mut hi) = (0, l.len());
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    match l.get(mid).cmp(&x) {
                        std::cmp::Ordering::Less => lo = mid + 1,
                        std::cmp::Ordering::Greater => hi = mid,
                        std::cmp::Ordering::Equal => return true,
                    }
                }
                false
            }
            Set::Bitmap(b) => u32::try_from(x).is_ok_and(|x| b.contains(x)),
            Set::Treemap(t) => t.contains(x),
            Set::Vec(v) => v.binary_search(&x).is_ok(),
        }
    }

    /// Members in ascending order.
    pub fn iter(&self) -> SetIter<'_> {
        match self {
            Set::Empty => SetIter::Range(0..0),
            Set::All(n) => SetIter::Range(0..*n),
            Set::List(l) => SetIter::List(l, 0..l.len()),
            Set::Bitmap(b) => SetIter::Bitmap(b.iter()),
            Set::Treemap(t) => SetIter::Treemap(Box::new(t.iter())),
            Set::Vec(v) => SetIter::Vec(v.iter()),
        }
    }

    /// Members as a vector.
    pub fn to_vec(&self) -> Vec<u64> {
        self.iter().collect()
    }
}

/// The members of a [`Set`] in ascending order: one enum rather than a boxed iterator, so
/// walking a set allocates nothing (a point look-up walked two).
pub enum SetIter<'s> {
    /// `Empty` and `All`.
    Range(std::ops::Range<u64>),
    /// A postings list and the positions still to visit.
    List(&'s List, std::ops::Range<usize>),
    /// A facet bitmap.
    Bitmap(roaring::bitmap::Iter<'s>),
    /// A wide facet bitmap (its iterator is large, and such collections rare: boxed).
    Treemap(Box<roaring::treemap::Iter<'s>>),
    /// An ascending vector.
    Vec(std::slice::Iter<'s, u64>),
}

impl Iterator for SetIter<'_> {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        match self {
            SetIter::Range(r) => r.next(),
            SetIter::List(l, r) => r.next().map(|i| l.get(i)),
            SetIter::Bitmap(b) => b.next().map(u64::from),
            SetIter::Treemap(t) => t.next(),
            SetIter::Vec(v) => v.next().copied(),
        }
    }

    /// The greatest member, without walking the others (a filter reads ahead from its
    /// driver's first to its last member).
    fn last(self) -> Option<u64> {
        match self {
            SetIter::Range(mut r) => r.next_back(),
            SetIter::List(l, mut r) => r.next_back().map(|i| l.get(i)),
            SetIter::Bitmap(mut b) => b.next_back().map(u64::from),
            SetIter::Treemap(mut t) => t.next_back(),
            SetIter::Vec(mut v) => v.next_back().copied(),
        }
    }

    /// Exact (as the boxed iterators' were): `collect` sizes its vector once.
    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            SetIter::Range(r) => r.size_hint(),
            SetIter::List(_, r) => r.size_hint(),
            SetIter::Bitmap(b) => b.size_hint(),
            SetIter::Treemap(t) => t.size_hint(),
            SetIter::Vec(v) => v.size_hint(),
        }
    }
}

/// A predicate on ordinals (threshold on a numeric column, a member test…).
pub type Pred<'a> = Box<dyn Fn(u64) -> bool + 'a>;

/// The most candidates whose records a filter with predicates reads ahead (see
/// [`Filter::lazy`]): a 10 kb region's variants, an identifier's few records.
const PREFETCH_CANDIDATES: u64 = 1024;

/// The conjunction of sets and predicates over one collection of `universe` records.
pub struct Filter<'a> {
    universe: u64,
    sets: Vec<Set<'a>>,
    preds: Vec<Pred<'a>>,
    /// The collection, when known: its records are read ahead for predicates.
    coll: Option<&'a Collection>,
}

impl<'a> Filter<'a> {
    /// Everything in a collection of `universe` records.
    pub fn new(universe: u64) -> Filter<'a> {
        Filter {
            universe,
            sets: Vec::new(),
            preds: Vec::new(),
            coll: None,
        }
    }

    /// Everything in `coll` (none when the catalog lacks it).
    pub fn over(coll: Option<&'a Collection>) -> Filter<'a> {
        Filter {
            coll,
            ..Filter::new(coll.map_or(0, |c| c.len()))
        }
    }

    /// Adds a set to intersect with.
    pub fn and(&mut self, s: Set<'a>) -> &mut Self {
        self.sets.push(s);
        self
    }

    /// Adds a set when `s` is `Some`.
    pub fn and_opt(&mut self, s: Option<Set<'a>>) -> &mut Self {
        if let Some(s) = s {
            self.sets.push(s);
        }
        self
    }

    /// Adds every condition of `other` (a filter over the same collection).
    pub fn and_filter(&mut self, other: Filter<'a>) -> &mut Self {
        debug_assert_eq!(self.universe, other.universe, "filters of one collection");
        self.sets.extend(other.sets);
        self.preds.extend(other.preds);
        self.coll = self.coll.or(other.coll);
        self
    }

    /// Adds a predicate.
    pub fn pred(&mut self, p: impl Fn(u64) -> bool + 'a) -> &mut Self {
        self.preds.push(Box::new(p));
        self
    }

    /// The page `[offset, offset + limit)` of the members.
    pub fn page(&self, offset: u64, limit: u64) -> Vec<u64> {
        self.lazy()
            .skip(offset.min(usize::MAX as u64) as usize)
            .take(limit.min(usize::MAX as u64) as usize)
            .collect()
    }

    /// The page `[offset, offset + limit)` of the members and whether more follow it: one
    /// member past the page is looked at (never rendered), so paging needs no second query.
    pub fn window(&self, offset: u64, limit: u64) -> (Vec<u64>, bool) {
        let mut page = self.page(offset, limit.saturating_add(1));
        let more = page.len() as u64 > limit;
        page.truncate(limit.min(usize::MAX as u64) as usize);
        (page, more)
    }

    /// True when there is at least one member.
    pub fn any(&self) -> bool {
        self.lazy().next().is_some()
    }

    /// All members.
    pub fn collect(&self) -> Vec<u64> {
        self.lazy().collect()
    }

    /// Members lazily in ascending order: walks the smallest set, tests the rest.
    ///
    /// With predicates (which may read each candidate's record: a variant's frequency) and
    /// few candidates, their records are read ahead first. A region's variants are neighbours
    /// in the file: one disk read instead of one per page when the catalog is cold (the page
    /// rendered later reads ahead too, but the predicates would have read them already).
    pub fn lazy(&self) -> impl Iterator<Item = u64> + '_ {
        let driver = (0..self.sets.len()).min_by_key(|&i| self.sets[i].len());
        let universe = self.universe;
        if let (Some(c), Some(i), false) = (self.coll, driver, self.preds.is_empty()) {
            if self.sets[i].len() <= PREFETCH_CANDIDATES {
                // Sets iterate in ascending order: the first and last bound the span.
                let mut it = self.sets[i].iter();
                if let Some(lo) = it.next() {
                    c.prefetch(&[lo, it.last().unwrap_or(lo)]);
                }
            }
        }
        let base = match driver {
            Some(i) => self.sets[i].iter(),
            None => SetIter::Range(0..universe),
        };
        base.filter(move |&x| x < universe)
            .filter(move |&x| {
                self.sets
                    .iter()
                    .enumerate()
                    .all(|(i, s)| Some(i) == driver || s.contains(x))
            })
            .filter(move |&x| self.preds.iter().all(|p| p(x)))
    }
}

/// Name-search tiers of a text field (docs/DESIGN.md#name-search): exact → [prefix] → all tokens →
/// Levenshtein ≤ 1 on the first token. Each tier is built only when asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// The stored value equals the query.
    Exact,
    /// The folded value starts with the folded query.
    Prefix,
    /// Every query token is a token of the value.
    Tokens,
    /// The first query token is within edit distance 1 of a token of the value.
    Fuzzy,
}

/// Tiers for names (genes, pathways).
pub const NAME_TIERS: &[Tier] = &[Tier::Exact, Tier::Tokens, Tier::Fuzzy];
/// Tiers for `biological_context`.
pub const CONTEXT_TIERS: &[Tier] = &[Tier::Exact, Tier::Prefix, Tier::Tokens, Tier::Fuzzy];
/// Tiers for disease names.
pub const DISEASE_TIERS: &[Tier] = &[Tier::Exact, Tier::Tokens];

/// The set of `coll` records whose `field` matches `query` at `tier`.
#[allow(clippy::disallowed_methods)]
pub fn tier_set<'a>(coll: &'a Collection, field: Member, query: &str, tier: Tier) -> Set<'a> {
    let kind = match tier {
        Tier::Exact => IndexKind::By,
        Tier::Prefix => IndexKind::Fold,
        Tier::Tokens | Tier::Fuzzy => IndexKind::Tok,
    };
    let field = name_in(coll, field, Some(kind));
    match tier {
        Tier::Exact => Set::from_list(coll.by(field).and_then(|m| m.get(query.as_bytes()))),
        Tier::Prefix => match coll.fold(field) {
            Some(m) => Set::union(
                m.prefix(text::fold(query).as_bytes())
                    .into_iter()
                    .map(Set::List),
            ),
            None => Set::Empty,
        },
        Tier::Tokens => {
            let toks = text::tokens(query);
            let Some(m) = coll.tokens(field) else {
                return Set::Empty;
            };
            if toks.is_empty() {
                return Set::Empty;
            }
            let lists: Vec<Set> = toks
                .iter()
                .map(|t| Set::from_list(m.get(t.as_bytes())))
                .collect();
            let mut f = Filter::new(coll.len());
            for l in lists {
                f.and(l);
            }
            Set::Vec(f.collect())
        }
        Tier::Fuzzy => {
            let toks = text::tokens(query);
            match (toks.first(), coll.tokens(field)) {
                (Some(t), Some(m)) => Set::union(m.fuzzy(t, 1).into_iter().map(Set::List)),
                _ => Set::Empty,
            }
        }
    }
}

/// Runs the cascade: the first tier whose set, together with `base`'s conditions, has any
/// member wins and is returned as a filter (tiers are never mixed).
pub fn cascade<'a>(
    coll: &'a Collection,
    field: Member,
    query: &str,
    tiers: &[Tier],
    base: impl Fn() -> Filter<'a>,
) -> Filter<'a> {
    for &tier in tiers {
        let mut f = base();
        f.and(tier_set(coll, field, query, tier));
        if f.any() {
            return f;
        }
    }
    let mut f = base();
    f.and(Set::Empty);
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_filter_intersects_and_pages() {
        let mut bm = RoaringBitmap::new();
        bm.extend([1u32, 3, 5, 7, 9, 11]);
        let mut f = Filter::new(10);
        f.and(Set::Vec(vec![1, 2, 3, 5, 9, 11]))
            .and(Set::Bitmap(&bm))
            .pred(|x| x != 5);
        assert_eq!(f.collect(), vec![1, 3, 9]);
        assert_eq!(f.page(1, 1), vec![3]);
        assert_eq!(f.page(3, 5), Vec::<u64>::new());
        assert_eq!(f.page(u64::MAX, 5), Vec::<u64>::new());
        assert!(Filter::new(0).collect().is_empty());
        assert_eq!(Filter::new(3).collect(), vec![0, 1, 2]);
        assert_eq!(
            Set::union([Set::Vec(vec![3, 1]), Set::Vec(vec![2, 3])]).to_vec(),
            vec![1, 2, 3]
        );
    }

    #[test]
    fn test_sets_keep_ordinals_past_2_pow_32() {
        // A wide collection's ordinals pass through sets and pages unnarrowed.
        let top = 1u64 << 32;
        let mut tm = RoaringTreemap::new();
        tm.extend([5, top - 1, top, top + 7, top * 3]);
        let mut f = Filter::new(top * 2);
        f.and(Set::Vec(vec![top - 1, top, top + 7, top * 3]))
            .and(Set::Treemap(&tm))
            .pred(move |x| x != top);
        assert_eq!(f.collect(), vec![top - 1, top + 7]);
        assert_eq!(f.window(1, 1), (vec![top + 7], false));
        assert!(Set::Treemap(&tm).contains(top * 3));
        let mut bm = RoaringBitmap::new();
        bm.insert(7);
        // A narrow bitmap holds no ordinal past 2³², not even one equal to 7 modulo 2³².
        assert!(!Set::Bitmap(&bm).contains(top + 7));
        assert!(Set::All(top + 1).contains(top));
    }

    #[test]
    fn test_every_kind_of_set_walks_its_members_in_order() {
        let blob: Vec<u8> = [3u32, 5, 9, 12]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let many =
            varcat_format::postings::Postings::new(varcat_format::Bytes::from_vec(blob)).list(0);
        let bitmap: RoaringBitmap = [4u32, 1, 70_000].into_iter().collect();
        let treemap: RoaringTreemap = [1u64 << 40, 2].into_iter().collect();
        let cases: Vec<(Set, Vec<u64>)> = vec![
            (Set::Empty, vec![]),
            (Set::All(3), vec![0, 1, 2]),
            (Set::List(List::One(7)), vec![7]),
            (Set::List(many), vec![5, 9, 12]),
            (Set::Bitmap(&bitmap), vec![1, 4, 70_000]),
            (Set::Treemap(&treemap), vec![2, 1 << 40]),
            (Set::from_unsorted(vec![8, 3, 8, 1]), vec![1, 3, 8]),
        ];
        for (set, want) in &cases {
            assert_eq!(
                set.iter().size_hint(),
                (want.len(), Some(want.len())),
                "{set:?}"
            );
            assert_eq!(set.iter().collect::<Vec<_>>(), *want, "{set:?}");
            assert_eq!(set.iter().last(), want.last().copied(), "{set:?}");
            let mut after_first = set.iter();
            after_first.next();
            assert_eq!(
                after_first.last(),
                want.get(1..).and_then(|w| w.last().copied()),
                "{set:?}"
            );
            assert_eq!(set.len(), want.len() as u64, "{set:?}");
        }
        // A filter walks the smallest set and tests the others.
        let mut f = Filter::new(100_000);
        f.and(Set::Bitmap(&bitmap))
            .and(Set::All(10))
            .pred(|x| x != 1);
        assert_eq!(f.collect(), vec![4]);
        assert_eq!(Filter::new(3).collect(), vec![0, 1, 2]);
    }
}
