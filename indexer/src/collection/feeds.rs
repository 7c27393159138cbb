//! The index builders fed during the final pass, and how each builds its sections.

use varcat_format::facets::FacetBuilder;
use varcat_format::fstmap::MultiMapBuilder;
use varcat_format::indexes::{IndexKind, IndexName};
use varcat_format::intervals::IntervalWriter;
use varcat_format::meta::names;
use varcat_format::numbers::NumberWriter;
use varcat_format::points::PointWriter;
use varcat_format::spool::Spool;
use varcat_format::width::Width;

use crate::derive::Ctx;
use crate::error::BuildError;
use crate::sorter::Sorter;
use crate::sortkey::KeyReader;

/// One index being fed during the final pass.
pub(super) enum Feed {
    Exact {
        field: &'static str,
        kind: IndexKind,
        sorter: Sorter,
    },
    Facet {
        field: &'static str,
        builder: FacetBuilder,
    },
    Number {
        field: &'static str,
        writer: NumberWriter,
    },
    Intervals {
        chr: &'static str,
        start: &'static str,
        end: &'static str,
        sorter: Sorter,
    },
    Points {
        chr: &'static str,
        pos: &'static str,
        sorter: Sorter,
    },
    Ends {
        chr: &'static str,
        end: &'static str,
        sorter: Sorter,
    },
}

/// What a [`Feed`] indexes, without its builder: what workers need to extract entries.
#[derive(Clone, Copy)]
pub(super) enum FeedDesc {
    Exact {
        field: &'static str,
        kind: IndexKind,
    },
    Facet {
        field: &'static str,
    },
    Number {
        field: &'static str,
    },
    Intervals {
        chr: &'static str,
        start: &'static str,
        end: &'static str,
    },
    /// Points and interval ends alike: (chr, position).
    Points {
        chr: &'static str,
        pos: &'static str,
    },
}

/// An index's name in the collection metadata and its sections (name, bytes).
pub(super) type BuiltIndex = (String, Vec<(String, Spool)>);

impl Feed {
    pub(super) fn desc(&self) -> FeedDesc {
        match *self {
            Feed::Exact { field, kind, .. } => FeedDesc::Exact { field, kind },
            Feed::Facet { field, .. } => FeedDesc::Facet { field },
            Feed::Number { field, .. } => FeedDesc::Number { field },
            Feed::Intervals {
                chr, start, end, ..
            } => FeedDesc::Intervals { chr, start, end },
            Feed::Points { chr, pos, .. } | Feed::Ends { chr, end: pos, .. } => {
                FeedDesc::Points { chr, pos }
            }
        }
    }

    /// Its sorter, if its entries are sorted (a facet or a number column is built as it is fed).
    fn sorter(&self) -> Option<&Sorter> {
        match self {
            Feed::Exact { sorter, .. }
            | Feed::Intervals { sorter, .. }
            | Feed::Points { sorter, .. }
            | Feed::Ends { sorter, .. } => Some(sorter),
            Feed::Facet { .. } | Feed::Number { .. } => None,
        }
    }

    /// Runs its sorter has spilled.
    pub(super) fn spills(&self) -> usize {
        self.sorter().map_or(0, Sorter::spills)
    }

    /// Entries its build reads: what the build's time goes with (0 without a sorter).
    pub(super) fn items(&self) -> u64 {
        self.sorter().map_or(0, Sorter::len)
    }

    /// Spools [`Feed::build`] needs (a number column writes its final layout into one).
    pub(super) fn spools(&self) -> usize {
        match self {
            Feed::Exact {
                kind: IndexKind::Adj,
                ..
            } => 4,
            Feed::Exact { .. } => 2,
            _ => 1,
        }
    }

    /// Builds the index of collection `name` into `spools` (as many as [`Feed::spools`]).
    pub(super) fn build(
        self,
        name: &str,
        width: Width,
        mut spools: Vec<Spool>,
        ctx: &Ctx,
        scratch: &super::adjacency::Scratch,
    ) -> Result<BuiltIndex, BuildError> {
        let mut spool = || spools.pop().expect("Feed::spools counts them");
        let points = match self {
            Feed::Ends { .. } => IndexName::new(IndexKind::Ends, ""),
            _ => IndexName::new(IndexKind::Points, ""),
        };
        match self {
            Feed::Exact {
                field,
                kind: IndexKind::Adj,
                sorter,
            } => super::adjacency::build(name, field, sorter, width, spools, ctx, scratch),
            Feed::Exact {
                field,
                kind,
                sorter,
            } => {
                let ix = IndexName::new(kind, field);
                let (fst, post) = (names::map_fst(name, &ix), names::map_post(name, &ix));
                let mut b = MultiMapBuilder::with_width(spool(), spool(), &fst, width)?;
                for_each_value(sorter, |v, ords| Ok(b.insert(v, ords)?))?;
                let (f, p) = b.finish()?;
                Ok((ix.to_string(), vec![(fst, f), (post, p)]))
            }
            Feed::Facet { field, builder } => {
                let mut out = spool();
                builder.write_width(&mut out, width)?;
                let ix = IndexName::new(IndexKind::Facet, field);
                Ok((ix.to_string(), vec![(names::index(name, &ix), out)]))
            }
            Feed::Number { field, writer } => {
                let ix = IndexName::new(IndexKind::Num, field);
                Ok((
                    ix.to_string(),
                    vec![(names::index(name, &ix), writer.finish_into(spool())?)],
                ))
            }
            Feed::Intervals { sorter, .. } => {
                let mut iw = IntervalWriter::with_width(spool(), width);
                let mut s = sorter.finish()?;
                while let Some((k, _)) = s.next_item()? {
                    let mut r = KeyReader::new(&k);
                    let (Some(c), Some(st), Some(en), Some(o)) =
                        (r.str(), r.u32(), r.u32(), r.ord())
                    else {
                        continue;
                    };
                    iw.push(&String::from_utf8_lossy(&c), st, en, o)?;
                }
                let ix = IndexName::new(IndexKind::Intervals, "");
                Ok((
                    ix.to_string(),
                    vec![(names::index(name, &ix), iw.finish()?)],
                ))
            }
            Feed::Points { sorter, .. } | Feed::Ends { sorter, .. } => {
                let mut pw = PointWriter::with_width(spool(), width);
                let mut s = sorter.finish()?;
                while let Some((k, _)) = s.next_item()? {
                    let mut r = KeyReader::new(&k);
                    let (Some(c), Some(p), Some(o)) = (r.str(), r.u32(), r.ord()) else {
                        continue;
                    };
                    pw.push(&String::from_utf8_lossy(&c), p, o)?;
                }
                Ok((
                    points.to_string(),
                    vec![(names::index(name, &points), pw.finish()?)],
                ))
            }
        }
    }
}

/// Calls `f(value, ordinals)` for each distinct value of a value map's sorted `(value, ordinal)`
/// entries, in value order, with its ordinals ascending and without repeats.
pub(super) fn for_each_value(
    sorter: Sorter,
    mut f: impl FnMut(&[u8], &[u64]) -> Result<(), BuildError>,
) -> Result<(), BuildError> {
    let mut s = sorter.finish()?;
    let mut cur: Option<Vec<u8>> = None;
    let mut ords: Vec<u64> = Vec::new();
    while let Some((k, _)) = s.next_item()? {
        let mut r = KeyReader::new(&k);
        let (Some(v), Some(o)) = (r.str(), r.ord()) else {
            continue;
        };
        if cur.as_deref() != Some(&*v) {
            if let Some(c) = cur.take() {
                f(&c, &ords)?;
            }
            ords.clear();
            cur = Some(v.into_owned());
        }
        if ords.last() != Some(&o) {
            ords.push(o);
        }
    }
    if let Some(c) = cur {
        f(&c, &ords)?;
    }
    Ok(())
}
