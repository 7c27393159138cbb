//! A record's index entries and reference checks, extracted on any thread into flat buffers.

use std::ops::Range;

use serde_json::Value;
use varcat_format::indexes::IndexKind;
use varcat_format::record::Record;
use varcat_format::schema::Index;

use super::adjacency;
use super::feeds::{Feed, FeedDesc, Sink};
use super::members::Members;
use super::records::{PendingItem, RefTally};
use crate::derive::Ctx;
use crate::error::BuildError;
use crate::normalize::index_values;
use crate::schema::{system, Kind, Place, Spec};
use crate::sortkey::SortKey;
use crate::validate;

/// A batch's reference checks and index entries, in flat buffers. They are built on a worker
/// and dropped by the thread that applies them: one allocation per entry, freed across threads,
/// contended on the allocator's locks (≈ 30 % of that thread's time in `variants`' records
/// pass, the pass's bottleneck).
#[derive(Default)]
pub(super) struct Extracted {
    /// Sort keys, back to back.
    keys: Vec<u8>,
    /// Facet values and dangling references' target collections, back to back.
    text: String,
    /// In record order, then reference and feed order: the order they are applied in.
    entries: Vec<Entry>,
    /// Why the batch's next record could not be extracted (the batch stops there).
    pub(super) error: Option<BuildError>,
}

/// One entry of [`Extracted`]; `feed` indexes the collection's feeds.
enum Entry {
    /// A reference checked, with its target collection (in `text`) when it dangles.
    Ref {
        end: &'static str,
        dangling: Option<Range<usize>>,
    },
    /// A sort key (in `keys`) for a sorter-fed index.
    Key { feed: usize, at: Range<usize> },
    /// A facet value (in `text`) of record `ord`.
    Value {
        feed: usize,
        ord: u64,
        at: Range<usize>,
    },
    /// A number column's value (every record has one, perhaps none).
    Number { feed: usize, value: Option<f64> },
}

impl Extracted {
    /// Appends a sort key built by `f` for feed `feed`.
    fn key(&mut self, feed: usize, f: impl FnOnce(&mut SortKey)) {
        let mut k = SortKey(std::mem::take(&mut self.keys));
        let at = k.0.len();
        f(&mut k);
        self.keys = k.0;
        self.entries.push(Entry::Key {
            feed,
            at: at..self.keys.len(),
        });
    }

    /// Appends `s` to `text`; returns where it lies.
    fn text(&mut self, s: &str) -> Range<usize> {
        let at = self.text.len();
        self.text.push_str(s);
        at..self.text.len()
    }

    /// Adds the entries to the reference tally and the index builders, in order; then reports
    /// the batch's error, if any.
    pub(super) fn apply(self, feeds: &mut [Feed], tally: &mut RefTally) -> Result<(), BuildError> {
        for e in &self.entries {
            match *e {
                Entry::Ref { end, ref dangling } => {
                    tally.add(end, dangling.clone().map(|r| self.text[r].to_string()))
                }
                Entry::Key { feed, ref at } => {
                    if let Sink::Sorted(sorter) = &mut feeds[feed].sink {
                        sorter.push(&self.keys[at.clone()], &[])?;
                    }
                }
                Entry::Value { feed, ord, ref at } => {
                    if let Sink::Facet(builder) = &mut feeds[feed].sink {
                        builder.add(&self.text[at.clone()], ord);
                    }
                }
                Entry::Number { feed, value } => {
                    if let Sink::Number(writer) = &mut feeds[feed].sink {
                        writer.push(value)?;
                    }
                }
            }
        }
        self.error.map_or(Ok(()), Err)
    }
}

/// Appends a record's reference checks and index entries to `out` (reads only the feeds'
/// descriptions, so it runs on any thread).
pub(super) fn extract(
    spec: &Spec,
    places: &[Place],
    descs: &[FeedDesc],
    it: &PendingItem<'_>,
    ctx: &Ctx,
    out: &mut Extracted,
) -> Result<(), BuildError> {
    let (key, ord) = (it.key, it.ord);
    let r = Record::new(it.rec);
    let m = Members::new(spec, &r);
    // A document whose coordinates cannot be placed (counted in pass 1) is in no region index.
    let placed = places.is_empty() || {
        let coords: Vec<(&str, Option<Value>)> = places
            .iter()
            .flat_map(|p| [Some(p.chr), Some(p.start), p.end])
            .flatten()
            .map(|n| (n, m.get(n)))
            .collect();
        let get = |n: &str| coords.iter().find(|c| c.0 == n).and_then(|c| c.1.as_ref());
        validate::unplaced(places, get)
            .map_err(|e| BuildError::Usage(format!("{key}: {e}")))?
            .is_none()
    };
    // An edge's ends, each resolved once: for the reference tally and its adjacency entries.
    let mut ends: Vec<(&str, String, Option<u64>)> = Vec::new();
    if spec.kind == Kind::Edge {
        for end in [system::FROM, system::TO] {
            let Some(Value::String(h)) = m.get(end) else {
                continue;
            };
            let node = ctx.resolve(&h).map(|(_, o)| o);
            let dangling = node
                .is_none()
                .then(|| out.text(h.split_once('/').map_or("", |x| x.0)));
            out.entries.push(Entry::Ref { end, dangling });
            ends.push((end, h, node));
        }
    }
    for (feed, desc) in descs.iter().enumerate() {
        match *desc {
            (IndexKind::Adj, Index::Exact(field)) => {
                let Some(v) = m.get(field) else { continue };
                let mut handles = index_values(&v);
                handles.sort();
                handles.dedup();
                for h in &handles {
                    let node = match ends.iter().find(|e| e.0 == field && e.1 == *h) {
                        Some(e) => e.2,
                        None => ctx.resolve(h).map(|(_, o)| o),
                    };
                    out.key(feed, |k| adjacency::entry(k, h, node, ord));
                }
            }
            (kind, Index::Exact(field) | Index::Text(field)) => {
                let Some(v) = m.get(field) else { continue };
                let mut vals: Vec<String> = match kind {
                    IndexKind::By => index_values(&v),
                    IndexKind::Fold => index_values(&v)
                        .iter()
                        .map(|s| varcat_format::text::fold(s))
                        .collect(),
                    _ => index_values(&v)
                        .iter()
                        .flat_map(|s| varcat_format::text::tokens(s))
                        .collect(),
                };
                vals.sort();
                vals.dedup();
                for val in &vals {
                    out.key(feed, |k| {
                        k.str(val.as_bytes()).ord(ord);
                    });
                }
            }
            (_, Index::Facet(field)) => {
                for val in m.get(field).map(|v| index_values(&v)).unwrap_or_default() {
                    let at = out.text(&val);
                    out.entries.push(Entry::Value { feed, ord, at });
                }
            }
            (_, Index::Number(field)) => {
                let value = m.get(field).and_then(|v| match v {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().parse::<f64>().ok(),
                    _ => None,
                });
                out.entries.push(Entry::Number { feed, value });
            }
            (_, Index::Intervals { .. } | Index::Points { .. } | Index::Ends { .. }) if !placed => {
            }
            (_, Index::Intervals { chr, start, end }) => {
                if let (Some(Value::String(c)), Some(s), Some(e)) =
                    (m.get(chr), m.get(start), m.get(end))
                {
                    if let (Some(s), Some(e)) = (coordinate(&s, key)?, coordinate(&e, key)?) {
                        // An empty interval overlaps no region.
                        if s < e {
                            out.key(feed, |k| {
                                k.str(c.as_bytes()).u32(s).u32(e).ord(ord);
                            });
                        }
                    }
                }
            }
            // Points and interval ends alike: (chr, position).
            (_, Index::Points { chr, pos } | Index::Ends { chr, end: pos }) => {
                if let (Some(Value::String(c)), Some(p)) = (m.get(chr), m.get(pos)) {
                    if let Some(p) = coordinate(&p, key)? {
                        out.key(feed, |k| {
                            k.str(c.as_bytes()).u32(p).ord(ord);
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// A placed document's coordinate as u32 (pass 1 checked the ceiling).
fn coordinate(v: &Value, key: &str) -> Result<Option<u32>, BuildError> {
    validate::coordinate("coordinate", Some(v))
        .map_err(|e| BuildError::Usage(format!("{key}: {e}")))
}
