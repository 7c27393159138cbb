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
use crate::schema::Index;
use crate::sorter::Sorter;
use crate::sortkey::KeyReader;

/// One stored index as the workers see it: its kind, and the schema's declaration it comes from
/// (the members its entries read). The builder feeds exactly the pairs [`Spec::stored`] lists.
///
/// [`Spec::stored`]: varcat_format::schema::Spec::stored
pub(super) type FeedDesc = (IndexKind, Index);

/// One index being fed during the final pass: what it stores and what builds it.
pub(super) struct Feed {
    pub(super) desc: FeedDesc,
    pub(super) sink: Sink,
}

/// What builds a stored index: the way its entries arrive, not another list of index kinds (a
/// facet and a number column are built as they are fed; every other kind sorts its entries).
pub(super) enum Sink {
    Sorted(Sorter),
    Facet(FacetBuilder),
    Number(NumberWriter),
}

/// An index's name in the collection metadata and its sections (name, bytes).
pub(super) type BuiltIndex = (String, Vec<(String, Spool)>);

impl Feed {
    pub(super) fn desc(&self) -> FeedDesc {
        self.desc
    }

    /// Its sorter, if its entries are sorted (a facet or a number column is built as it is fed).
    fn sorter(&self) -> Option<&Sorter> {
        match &self.sink {
            Sink::Sorted(sorter) => Some(sorter),
            Sink::Facet(_) | Sink::Number(_) => None,
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
        match self.desc.0 {
            IndexKind::Adj => 4,
            IndexKind::By | IndexKind::Fold | IndexKind::Tok => 2,
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
        let (kind, index) = self.desc;
        let ix = IndexName::new(kind, index.member());
        match self.sink {
            Sink::Sorted(sorter) => match kind {
                IndexKind::Adj => super::adjacency::build(
                    name,
                    index.member(),
                    sorter,
                    width,
                    spools,
                    ctx,
                    scratch,
                ),
                IndexKind::By | IndexKind::Fold | IndexKind::Tok => {
                    let (fst, post) = (names::map_fst(name, &ix), names::map_post(name, &ix));
                    let mut b = MultiMapBuilder::with_width(spool(), spool(), &fst, width)?;
                    for_each_value(sorter, |v, ords| Ok(b.insert(v, ords)?))?;
                    let (f, p) = b.finish()?;
                    Ok((ix.to_string(), vec![(fst, f), (post, p)]))
                }
                IndexKind::Intervals => {
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
                    Ok((
                        ix.to_string(),
                        vec![(names::index(name, &ix), iw.finish()?)],
                    ))
                }
                // Points and interval ends alike: (chr, position).
                _ => {
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
                        ix.to_string(),
                        vec![(names::index(name, &ix), pw.finish()?)],
                    ))
                }
            },
            Sink::Facet(builder) => {
                let mut out = spool();
                builder.write_width(&mut out, width)?;
                Ok((ix.to_string(), vec![(names::index(name, &ix), out)]))
            }
            Sink::Number(writer) => Ok((
                ix.to_string(),
                vec![(names::index(name, &ix), writer.finish_into(spool())?)],
            )),
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
