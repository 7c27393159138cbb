//! The final pass: records written into the catalog in ordinal order by the reading thread,
//! their index entries and reference checks extracted on workers and applied in order.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use super::entries::{extract, Extracted};
use super::env::Env;
use super::feeds::{Feed, FeedDesc};
use super::merge::Stream;
use super::sections::{Final, KeyFeed};
use crate::derive::Ctx;
use crate::error::BuildError;
use crate::parallel;
use crate::report::Report;
use crate::schema::{Place, Spec};
use crate::sortkey::SortKey;
use varcat_format::record::Record;

/// Writes `stream`'s records into `fin` and feeds its indexes; counts references in the
/// report.
pub(super) fn write(
    fin: &mut Final,
    spec: &Spec,
    mut stream: Stream<'_>,
    files: &[PathBuf],
    ctx: &Ctx,
    env: &mut Env,
) -> Result<(), BuildError> {
    let name = spec.name;
    let descs: Vec<FeedDesc> = fin.feeds.iter().map(Feed::desc).collect();
    let places: Vec<Place> = spec.places().collect();
    let (threads, batch_bytes) = (env.threads, env.pass2_batch_bytes());
    let env_cell = std::cell::RefCell::new(&mut *env);
    let mut tally = RefTally::default();
    let (records, cluster, key_feed, feeds, n) = (
        &mut fin.records,
        &mut fin.cluster,
        &mut fin.keys,
        &mut fin.feeds,
        &mut fin.n,
    );
    // The main thread reads, merges and writes records in ordinal order and hands batches to
    // workers, which extract their index entries (parsing members is most of this pass) while
    // the next batch is read; entries are applied in ordinal order, so the indexes do not
    // depend on the thread count.
    // Two batches per worker keep both busy; more only hold memory.
    parallel::map_ordered_with(
        threads,
        2,
        || (),
        || {
            let mut batch = Pending::new(batch_bytes);
            while !batch.is_full() {
                let next = stream.next(spec, files, &mut env_cell.borrow_mut())?;
                let Some((key, rec)) = next else { break };
                let ord = match cluster {
                    None => records.push(rec)?,
                    Some(c) => {
                        // Stored in the order of the cluster field's value (a missing
                        // member sorts first), ordinal ahead of the record for the slots.
                        let ord = records.note(rec)?;
                        let value = Record::new(rec).get(c.field).unwrap_or_default();
                        let mut item = Vec::with_capacity(8 + rec.len());
                        item.extend_from_slice(&ord.to_le_bytes());
                        item.extend_from_slice(rec);
                        c.records.push(value, &item)?;
                        ord
                    }
                };
                *n += 1;
                if let KeyFeed::Sorted(s) = key_feed {
                    s.push(&SortKey::new().str(key.as_bytes()).0, &ord.to_le_bytes())?;
                }
                batch.push(ord, key, rec);
            }
            if let KeyFeed::Direct(b) = key_feed {
                // The batch's keys travel as one buffer (one allocation freed on the FST
                // thread, not one per key: frees across threads contend on allocator locks).
                if !batch.items.is_empty() {
                    b.push(batch.key_chunk());
                }
            }
            Ok::<_, BuildError>((!batch.items.is_empty()).then_some(batch))
        },
        |_, batch: Pending| {
            let mut x = Extracted::default();
            for it in batch.items() {
                if let Err(e) = extract(spec, &places, &descs, &it, ctx, &mut x) {
                    x.error = Some(e);
                    break;
                }
            }
            x
        },
        |x: Extracted| x.apply(feeds, &mut tally),
    )?;
    drop(stream);
    tally.report(name, &mut env.report);
    Ok(())
}

/// A batch of pass 2: records written but not yet indexed, in one buffer.
struct Pending {
    keys: String,
    recs: Vec<u8>,
    items: Vec<(u64, Range<usize>, Range<usize>)>,
    /// Record bytes that end the batch.
    limit: usize,
}

/// Records per pass-2 batch (its bytes are bounded by [`Env::pass2_batch_bytes`]).
const PENDING_RECORDS: usize = 4096;

/// Keys for the key FST's thread: their text, and the end and ordinal of each.
pub(super) type KeyChunk = (String, Vec<(usize, u64)>);

/// One pending record.
pub(super) struct PendingItem<'a> {
    pub(super) ord: u64,
    pub(super) key: &'a str,
    pub(super) rec: &'a [u8],
}

impl Pending {
    fn new(limit: usize) -> Pending {
        Pending {
            keys: String::new(),
            recs: Vec::with_capacity(limit),
            items: Vec::with_capacity(PENDING_RECORDS),
            limit,
        }
    }

    fn push(&mut self, ord: u64, key: &str, rec: &[u8]) {
        let k = self.keys.len();
        self.keys.push_str(key);
        let r = self.recs.len();
        self.recs.extend_from_slice(rec);
        self.items
            .push((ord, k..self.keys.len(), r..self.recs.len()));
    }

    fn is_full(&self) -> bool {
        self.items.len() >= PENDING_RECORDS || self.recs.len() >= self.limit
    }

    fn items(&self) -> Vec<PendingItem<'_>> {
        self.items
            .iter()
            .map(|(ord, k, r)| PendingItem {
                ord: *ord,
                key: &self.keys[k.clone()],
                rec: &self.recs[r.clone()],
            })
            .collect()
    }

    /// The keys for the key FST's thread.
    fn key_chunk(&self) -> KeyChunk {
        let ends = self.items.iter().map(|(ord, k, _)| (k.end, *ord)).collect();
        (self.keys.clone(), ends)
    }
}

/// References a collection's records make, counted as its records are written and added to
/// the report once: a report entry per reference cost two `String`s and a map lookup, on the
/// thread that writes the records.
#[derive(Default)]
pub(super) struct RefTally {
    checked: BTreeMap<&'static str, u64>,
    dangling: BTreeMap<(&'static str, String), u64>,
}

impl RefTally {
    pub(super) fn add(&mut self, end: &'static str, dangling: Option<String>) {
        Report::bump(&mut self.checked, end, 1);
        if let Some(target) = dangling {
            Report::bump(&mut self.dangling, (end, target), 1);
        }
    }

    fn report(self, name: &str, report: &mut Report) {
        for (end, n) in self.checked {
            Report::bump(&mut report.references, (name.into(), end.into()), n);
        }
        for ((end, target), n) in self.dangling {
            Report::bump(&mut report.dangling, (name.into(), end.into(), target), n);
        }
    }
}
