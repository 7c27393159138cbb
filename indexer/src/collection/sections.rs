//! Where one collection's final pass writes: its records section, its key map and its index
//! feeds; finishing writes the key map and the indexes' sections into the catalog.

use std::io::Write;

use varcat_format::facets::FacetBuilder;
use varcat_format::fstmap::KeyMapBuilder;
use varcat_format::indexes::IndexKind;
use varcat_format::keys::KeyEncoding;
use varcat_format::meta::names;
use varcat_format::numbers::NumberWriter;
use varcat_format::records::{self, BlockOptions, RecordWriter};
use varcat_format::spool::Spool;
use varcat_format::width::Width;
use varcat_format::{CatalogWriter, CollectionMeta};

use super::env::{finish_sorter, Env};
use super::feeds::{Feed, Sink};
use super::records::KeyChunk;
use crate::derive::Ctx;
use crate::error::BuildError;
use crate::parallel;
use crate::schema::{Blocking, Index, Order, Spec};
use crate::sorter::Sorter;
use crate::sortkey::{KeyReader, SortKey};

/// Raw bytes of a `Blocking::Compact` block: a request reads a handful of scattered rows
/// (an LD page), each decompressing its block. At 1M, 1 KiB blocks of LD rows cost 2.5 % more
/// bytes than 4 KiB ones and an LD request 40 % fewer instructions (BENCHMARKS.md, "Clustered
/// records …").
const COMPACT_BLOCK: usize = 1024;

/// The final pass: records go straight into the catalog; index entries into sorters.
pub(super) struct Final<'s, 'w> {
    spec: &'s Spec,
    key_encoding: KeyEncoding,
    pub(super) records: RecordWriter<varcat_format::writer::SectionWriter<'w>>,
    /// A clustered collection's sorts ([`Spec::cluster`]).
    pub(super) cluster: Option<Cluster>,
    pub(super) keys: KeyFeed,
    pub(super) feeds: Vec<Feed>,
    pub(super) n: u64,
}

pub(super) enum KeyFeed {
    /// No key map: nothing looks the collection up by key (`Spec::keyed` is None).
    None,
    /// Keys arrive in order: the FST is built on its own thread (it is the costliest part of
    /// the final pass, and independent of the rest).
    Direct(parallel::Background<KeyChunk, Result<Spool, varcat_format::WriteError>>),
    Sorted(Sorter),
}

impl<'s, 'w> Final<'s, 'w> {
    pub(super) fn new(
        w: &'w mut CatalogWriter,
        spec: &'s Spec,
        key_encoding: KeyEncoding,
        ctx: &Ctx,
        env: &mut Env,
    ) -> Result<Final<'s, 'w>, BuildError> {
        let sorters = 1
            + 2 * usize::from(spec.cluster.is_some())
            + spec
                .indexes
                .iter()
                .map(|i| if matches!(i, Index::Text(_)) { 3 } else { 1 })
                .sum::<usize>();
        let records = RecordWriter::with_options(
            w.section(&names::records(spec.name))?,
            env.spool()?,
            env.spool()?,
            BlockOptions {
                threads: env.threads,
                single_when_compressed: spec.records == Blocking::Single,
                zstd_worth: match spec.records {
                    Blocking::Compact | Blocking::Single => records::ZSTD_WORTH_COMPACT,
                    _ => records::ZSTD_WORTH,
                },
                codec: (spec.records == Blocking::Plain).then_some(records::Codec::None),
                zstd_above: env.zstd_above,
                target: match spec.records {
                    Blocking::Compact => records::BlockTarget::Raw(COMPACT_BLOCK),
                    _ => BlockOptions::default().target,
                },
                ..BlockOptions::default()
            },
        )
        .with_refs(
            // The collections built before with a key map (in key order for `ref`): their
            // handles can carry or be ordinals.
            ctx.built
                .keys()
                .filter_map(|n| Some((n.clone(), ctx.key_lookup_for(n, spec.handles)?)))
                .collect(),
            spec.handles,
        );
        let cluster = spec.cluster.map(|f| Cluster {
            field: spec
                .field_id(f)
                .expect("a spec clusters by one of its fields"),
            records: env.sorter(sorters),
            slots: env.sorter(sorters),
        });
        let keys = match spec.order {
            _ if spec.keyed.is_none() => KeyFeed::None,
            Order::Key => {
                let mut b = KeyMapBuilder::for_encoding(
                    env.spool()?,
                    &names::key(spec.name),
                    key_encoding,
                )?;
                KeyFeed::Direct(parallel::Background::spawn(
                    1,
                    move |chunks: parallel::Items<KeyChunk>| {
                        for (text, ends) in chunks {
                            let mut start = 0;
                            for (end, ord) in ends {
                                insert_key(
                                    &mut b,
                                    key_encoding,
                                    &text.as_bytes()[start..end],
                                    ord,
                                )?;
                                start = end;
                            }
                        }
                        b.finish()
                    },
                ))
            }
            Order::Fields(_) => KeyFeed::Sorted(env.sorter(sorters)),
        };
        let mut feeds = Vec::new();
        for desc in spec.stored() {
            let sink = match desc.0 {
                IndexKind::Facet => Sink::Facet(FacetBuilder::new()),
                IndexKind::Num => Sink::Number(NumberWriter::new(env.spool()?)),
                _ => Sink::Sorted(env.sorter(sorters)),
            };
            feeds.push(Feed { desc, sink });
        }
        Ok(Final {
            spec,
            key_encoding,
            records,
            cluster,
            keys,
            feeds,
            n: 0,
        })
    }

    pub(super) fn finish(self, env: &mut Env, ctx: &Ctx) -> Result<CollectionMeta, BuildError> {
        let name = self.spec.name;
        env.progress.phase(&format!("{name}: compressing records"));
        let width = Width::for_count(self.n, env.wide_above);
        let done = match self.cluster {
            None => self.records.finish()?,
            Some(c) => {
                let mut order = ClusterOrder {
                    sorted: finish_sorter(c.records, env)?,
                    slots: Some(c.slots),
                    next: 0,
                    spills: 0,
                };
                let done = self.records.finish_clustered(&mut order, width)?;
                env.report.spilled_runs += order.spills as u64;
                done
            }
        };
        let w = done.out.finish()?;
        w.add(&records::dict_section(name), &done.dict)?;
        w.add(&varcat_format::codebook::section(name), &done.codebook)?;
        env.progress.phase(&format!("{name}: writing indexes"));
        // Indexes are independent of one another: each is built into spools on one of
        // `env.threads` threads (their FSTs are most of this pass), then copied into the catalog
        // in feed order, so the bytes do not depend on the thread count. The `_key` FST may still
        // be finishing on its own thread meanwhile.
        let mut jobs = Vec::with_capacity(self.feeds.len());
        for (i, feed) in self.feeds.into_iter().enumerate() {
            env.report.spilled_runs += feed.spills() as u64;
            let spools = (0..feed.spools())
                .map(|_| env.spool())
                .collect::<Result<Vec<_>, _>>()?;
            jobs.push((i, feed, spools));
        }
        // Largest first (by entries), so that the index left running alone at the end is a
        // small one. At 10M it did not move `variants: writing indexes` (12–14 s).
        jobs.sort_by_key(|j| std::cmp::Reverse(j.1.items()));
        let mut built = Vec::with_capacity(jobs.len());
        let mut jobs = jobs.into_iter();
        let scratch = env.scratch();
        parallel::map_ordered(
            env.threads,
            || (),
            || Ok::<_, BuildError>(jobs.next()),
            |_, (i, feed, spools): (usize, Feed, Vec<Spool>)| {
                feed.build(name, width, spools, ctx, &scratch)
                    .map(|b| (i, b))
            },
            |r| {
                built.push(r?);
                Ok(())
            },
        )?;
        built.sort_by_key(|b| b.0);
        match self.keys {
            KeyFeed::None => {}
            KeyFeed::Direct(b) => {
                let mut s = b.finish()?;
                copy_section(w, &names::key(name), &mut s)?;
            }
            KeyFeed::Sorted(sorter) => {
                let mut sec = w.section(&names::key(name))?;
                let mut b =
                    KeyMapBuilder::for_encoding(&mut sec, &names::key(name), self.key_encoding)?;
                let mut s = finish_sorter(sorter, &mut *env)?;
                while let Some((k, p)) = s.next_item()? {
                    let key = KeyReader::new(&k).str().unwrap_or_default();
                    let ord = u64::from_le_bytes(p[..8].try_into().expect("8"));
                    insert_key(&mut b, self.key_encoding, &key, ord)?;
                }
                b.finish()?;
                sec.finish()?;
            }
        }
        let mut indexes = Vec::new();
        for (_, (index, sections)) in built {
            for (section, mut spool) in sections {
                copy_section(w, &section, &mut spool)?;
            }
            indexes.push(index);
        }
        Ok(CollectionMeta {
            name: name.to_string(),
            kind: self.spec.kind.word().into(),
            documents: self.n,
            fields: self
                .spec
                .fields
                .iter()
                .map(|f| f.name.to_string())
                .collect(),
            indexes,
            key_encoding: self.key_encoding,
            keyed: self.spec.keyed.is_some(),
            ordinal_width: width.bytes(),
        })
    }
}

/// A clustered collection's sorts, filled in the records pass, each with a share of the sort
/// budget like an index's.
pub(super) struct Cluster {
    /// The field whose value orders the records.
    pub(super) field: u16,
    /// Records keyed by that value (a missing member sorts first), the ordinal ahead of each.
    pub(super) records: Sorter,
    /// (ordinal, position) pairs, filled as the records come back in stored order.
    slots: Sorter,
}

/// A clustered collection's records in stored order (sorted by the cluster field's value;
/// the sort is stable, so a node's edges keep ordinal order), each position noted by ordinal
/// in a second sort that gives the slots table.
struct ClusterOrder {
    sorted: crate::sorter::Sorted,
    slots: Option<Sorter>,
    /// The next record's position.
    next: u64,
    /// Runs the slots' sort spilled (for the report).
    spills: usize,
}

impl records::StoredOrder for ClusterOrder {
    fn next_record(&mut self) -> std::io::Result<Option<Vec<u8>>> {
        let Some((_, mut item)) = self.sorted.next_item()? else {
            return Ok(None);
        };
        let slots = self
            .slots
            .as_mut()
            .expect("positions come after the records");
        // The item is the ordinal, then the record.
        let ord = u64::from_le_bytes(item[..8].try_into().expect("8 bytes"));
        slots.push(&SortKey::new().u64(ord).0, &self.next.to_le_bytes())?;
        self.next += 1;
        item.drain(..8);
        Ok(Some(item))
    }

    fn positions(
        &mut self,
        each: &mut dyn FnMut(u64) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let slots = self.slots.take().expect("positions are read once");
        self.spills = slots.spills();
        let mut sorted = slots.finish()?;
        while let Some((_, p)) = sorted.next_item()? {
            each(u64::from_le_bytes(p[..8].try_into().expect("8 bytes")))?;
        }
        Ok(())
    }
}

/// Adds `key` to a key map in the collection's encoding (pass 1 saw every key, so the encoding
/// holds each of them).
fn insert_key<W: Write>(
    b: &mut KeyMapBuilder<W>,
    encoding: KeyEncoding,
    key: &[u8],
    ord: u64,
) -> Result<(), varcat_format::WriteError> {
    b.insert(&encoding.encode(key).unwrap_or_default(), ord)
}

fn copy_section(w: &mut CatalogWriter, name: &str, spool: &mut Spool) -> Result<(), BuildError> {
    let mut sec = w.section(name)?;
    spool.copy_into(&mut sec)?;
    sec.flush()?;
    sec.finish()?;
    Ok(())
}
