//! Building one collection: documents → normalised records → sorted, merged, stored, indexed.
//!
//! Pass 1 reads and encodes documents into an external sorter keyed by `_key`. Pass 2 merges
//! duplicate keys (later members over earlier, like `arangoimport --on-duplicate update`),
//! names repeated keyless edges, and re-sorts when the collection's order is not `_key`. The
//! final pass streams records into the catalog and index entries into sorters, from which the
//! index sections are written one after another. Memory stays within the budget throughout.

use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde_json::Value;
use varcat_format::facets::FacetBuilder;
use varcat_format::fstmap::{KeyMapBuilder, MultiMapBuilder};
use varcat_format::indexes::{IndexKind, IndexName};
use varcat_format::intervals::IntervalWriter;
use varcat_format::keys::{self, KeyEncoding};
use varcat_format::meta::names;
use varcat_format::numbers::NumberWriter;
use varcat_format::points::PointWriter;
use varcat_format::records::{json_bytes, Record, RecordBuf, RecordWriter};
use varcat_format::spool::Spool;
use varcat_format::{CatalogWriter, CollectionMeta};

use crate::derive::{Ctx, UnitBatch};
use crate::doc::{last_member, raw_members, Doc, RawMembers};
use crate::error::BuildError;
use crate::input::{fix_non_finite, Block, InputFile, Lines};
use crate::normalize::{index_values, normalize, Counts};
use crate::parallel;
use crate::progress::Progress;
use crate::report::Report;
use crate::schema::{Index, Kind, Order, Place, Prepare, Spec, MAX_INDEXED_BYTES};
use crate::sorter::Sorter;
use crate::sortkey::{KeyReader, SortKey};
use crate::validate;

/// Shared build state.
pub struct Env {
    /// Scratch directory.
    pub tmp: PathBuf,
    /// Memory budget for one sorting phase, bytes.
    pub budget: usize,
    /// Duplicate keys are errors.
    pub strict: bool,
    /// Threads for parsing and for building indexes.
    pub threads: usize,
    /// Summary being built.
    pub report: Report,
    /// Progress display.
    pub progress: Progress,
    /// Input files read, for the metadata.
    pub inputs: Vec<varcat_format::InputFile>,
    /// Bytes of input consumed so far (for the ETA).
    pub bytes_done: u64,
    /// The longest input line accepted, bytes.
    pub max_line: usize,
    /// Heap bytes held for the rest of the build (key sets), taken from the sort budget.
    pinned: usize,
    spool_seq: u64,
}

impl Env {
    /// New state.
    pub fn new(
        tmp: PathBuf,
        budget: usize,
        strict: bool,
        threads: usize,
        progress: Progress,
    ) -> Env {
        Env {
            tmp,
            budget,
            strict,
            threads: threads.max(1),
            report: Report::default(),
            progress,
            inputs: Vec::new(),
            bytes_done: 0,
            max_line: crate::build::DEFAULT_MAX_LINE,
            pinned: 0,
            spool_seq: 0,
        }
    }

    fn spool(&mut self) -> Result<Spool, BuildError> {
        self.spool_seq += 1;
        let p = self.tmp.join(format!("spool-{}", self.spool_seq));
        Spool::file(&p).map_err(|e| BuildError::io(p.display().to_string(), e))
    }

    /// A sorter for pass 1, which has the whole sort budget while it reads.
    fn reader_sorter(&self) -> Sorter {
        Sorter::new(&self.tmp, self.sort_budget()).with_threads(self.threads)
    }

    /// One of `share` sorters filled while pass 1's output is read back: pass 1 keeps at most
    /// half the sort budget in memory for that (see [`finish_reader`]), they share the rest.
    fn sorter(&self, share: usize) -> Sorter {
        Sorter::new(
            &self.tmp,
            (self.sort_budget() / 2 / share.max(1)).max(1 << 12),
        )
        .with_threads(self.threads)
    }

    /// The sort buffers' budget: `--mem-budget` less what is pinned (key sets) and less the
    /// reserve: a sixth of `--mem-budget`, at least 32 MiB per thread and
    /// 32 MiB more (but at most half), is left for everything else: batches being parsed,
    /// read and write buffers, FST builders, facet bitmaps, the allocator's slack. (Measured
    /// short: a sixteenth and 16 MiB, the heap at 1.04 × a 256 MiB flag at 1M variants and
    /// 0.998 × the 2 GiB default at 10M; then an eighth and 24 MiB, 1.02 × the 256 MiB flag at
    /// 1M in pass 1 of the LD table and 0.99 × the default at 10M once a sort's last buffer
    /// stayed in memory and spills ran on every thread; then a seventh, 0.96-0.98 × the
    /// default at 10M in five runs and 1.009 × in a sixth.)
    fn sort_budget(&self) -> usize {
        self.budget - self.reserve() - self.pinned
    }

    /// Bytes that may still be held for the rest of the build: a quarter of `--mem-budget` in
    /// all, so sorts keep at least a quarter of it whatever the reserve.
    pub fn pin_room(&self) -> usize {
        (self.budget / 4).saturating_sub(self.pinned)
    }

    /// Holds `bytes` (at most [`Env::pin_room`]) for the rest of the build.
    pub fn pin(&mut self, bytes: usize) {
        assert!(bytes <= self.pin_room(), "pinned beyond the room");
        self.pinned += bytes;
    }

    /// What `--mem-budget` keeps outside the sort buffers (see [`Env::sort_budget`]): every
    /// thread holds batches and allocator arenas of its own, so the floor grows with them.
    fn reserve(&self) -> usize {
        let floor = (32 << 20) * (self.threads.max(1) + 1);
        (self.budget / 6).max(floor).min(self.budget / 2)
    }

    /// Bytes of records per pass-2 batch: with two batches per thread in flight, their records
    /// take at most a thirty-second of the reserve (1 MiB each at the default 2 GiB).
    fn pass2_batch_bytes(&self) -> usize {
        (self.reserve() / (128 * self.threads.max(1))).clamp(64 << 10, 4 << 20)
    }
}

/// Where documents come from.
pub enum Source<'a> {
    /// Input files (parts of one collection).
    Files(&'a [InputFile]),
    /// A derived table.
    Derived(crate::derive::Generator),
}

const FLAG_KEYLESS: u8 = 1;

/// Payload carried through the sorters: flags, origin (file index, line) and the record.
fn payload(flags: u8, file: u32, line: u64, rec: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(13 + rec.len());
    payload_into(&mut p, flags, file, line, rec);
    p
}

/// Appends [`payload`]'s bytes to `out`.
fn payload_into(out: &mut Vec<u8>, flags: u8, file: u32, line: u64, rec: &[u8]) {
    out.push(flags);
    out.extend_from_slice(&file.to_le_bytes());
    out.extend_from_slice(&line.to_le_bytes());
    out.extend_from_slice(rec);
}

fn split_payload(p: &[u8]) -> (u8, u32, u64, &[u8]) {
    let file = u32::from_le_bytes(p[1..5].try_into().expect("4"));
    let line = u64::from_le_bytes(p[5..13].try_into().expect("8"));
    (p[0], file, line, &p[13..])
}

struct Processor<'a> {
    spec: &'a Spec,
    /// The spec's coordinates ([`Spec::places`]).
    places: Vec<Place>,
    /// The collection's preparation hook.
    prepare: Option<Prepare>,
    counts: Counts,
    unknown: BTreeMap<String, u64>,
}

/// A batch parsed on a worker, ready for the sorter: every document's key, sort key and
/// payload in one buffer (thousands of small buffers allocated on a worker and freed on the
/// reading thread contended on the allocator's per-thread locks).
struct EncodedBatch {
    buf: Vec<u8>,
    docs: Vec<(u64, Result<Encoded, String>)>,
}

/// Where one document's parts lie in [`EncodedBatch::buf`].
struct Encoded {
    key: Range<usize>,
    sort_key: Range<usize>,
    payload: Range<usize>,
    non_finite: u64,
    unplaced: Option<String>,
}

impl EncodedBatch {
    fn new(docs: usize) -> EncodedBatch {
        EncodedBatch {
            buf: Vec::new(),
            docs: Vec::with_capacity(docs),
        }
    }

    /// Appends one line's outcome, with the sorter's key and payload for file `file`.
    fn push(&mut self, line: u64, file: u32, parsed: Result<Parsed, String>) {
        let doc = parsed.map(|p| {
            let buf = &mut self.buf;
            let at = buf.len();
            buf.extend_from_slice(p.key.as_bytes());
            let key = at..buf.len();
            let at = buf.len();
            buf.extend_from_slice(&SortKey::new().str(p.key.as_bytes()).0);
            let sort_key = at..buf.len();
            let at = buf.len();
            payload_into(buf, p.flags, file, line, &p.rec);
            Encoded {
                key,
                sort_key,
                payload: at..buf.len(),
                non_finite: p.non_finite,
                unplaced: p.unplaced,
            }
        });
        self.docs.push((line, doc));
    }

    /// Hands the batch's documents to the sorter, in order, and their keys to the key
    /// encoding's chooser; returns how many there were. The first that failed is an error,
    /// naming `file` and its line.
    fn sort_into(
        self,
        name: &str,
        file: &Path,
        keys: &mut keys::Chooser,
        sorter: &mut Sorter,
        env: &mut Env,
    ) -> Result<u64, BuildError> {
        let buf = &self.buf;
        let mut n = 0;
        for (line, doc) in self.docs {
            let doc = doc.map_err(|reason| BuildError::Input {
                file: file.to_path_buf(),
                line,
                reason,
            })?;
            env.report.non_finite += doc.non_finite;
            if let Some(reason) = doc.unplaced {
                let at = format!("{}:{line}", file.display());
                if env.strict {
                    return Err(BuildError::Input {
                        file: file.to_path_buf(),
                        line,
                        reason: format!("{reason} (coordinates that cannot be placed)"),
                    });
                }
                env.report.unplaced(name, at, &reason);
            }
            keys.see(&buf[doc.key]);
            sorter.push(&buf[doc.sort_key], &buf[doc.payload])?;
            n += 1;
        }
        Ok(n)
    }
}

/// What [`Processor::process`] makes of a document: key, flags, record, and why its
/// coordinates cannot be placed.
type Processed = (String, u8, Vec<u8>, Option<String>);

/// Units of a derived table per batch handed to a worker.
const UNITS_PER_BATCH: usize = 256;

/// One input line, parsed and encoded.
struct Parsed {
    key: String,
    flags: u8,
    rec: Vec<u8>,
    /// Why its coordinates cannot be placed, if they cannot.
    unplaced: Option<String>,
    /// `NaN`/`Infinity` tokens replaced by null.
    non_finite: u64,
}

/// Bytes of input per batch handed to a parsing worker.
const BATCH_BYTES: usize = 1 << 20;

/// The next block of lines (None at end of file); records the raw bytes read so far.
fn read_block(
    lines: &mut Lines,
    raw_read: &std::cell::Cell<u64>,
) -> Result<Option<Block>, BuildError> {
    let block = lines.next_block(BATCH_BYTES)?;
    raw_read.set(lines.bytes_read());
    Ok(block)
}

impl<'a> Processor<'a> {
    /// A processor for the same collection with its own counts (one per parsing worker).
    fn fresh(&self) -> Processor<'a> {
        Processor::new(self.spec)
    }

    fn new(spec: &'a Spec) -> Processor<'a> {
        Processor {
            spec,
            places: spec.places().collect(),
            prepare: crate::schema::hooks(spec.name).prepare,
            counts: Counts::default(),
            unknown: BTreeMap::new(),
        }
    }

    /// Adds a worker's counts to these.
    fn absorb(&mut self, other: Processor<'_>) {
        self.counts.null_elements += other.counts.null_elements;
        self.counts.non_integer += other.counts.non_integer;
        for (f, n) in other.unknown {
            *self.unknown.entry(f).or_insert(0) += n;
        }
    }

    /// Parses and encodes one input line.
    fn parse(&mut self, line: &str, ctx: &Ctx) -> Result<Parsed, String> {
        let fixed = fix_non_finite(line);
        let (text, non_finite) = match &fixed {
            Some((s, n)) => (s.as_str(), *n),
            None => (line, 0),
        };
        let doc = Doc::parse(text).map_err(|e| e.to_string())?;
        let (key, flags, rec, unplaced) = self.process(doc, ctx)?;
        Ok(Parsed {
            key,
            flags,
            rec,
            unplaced,
            non_finite,
        })
    }

    /// Validates and encodes one document; returns (key, flags, record, why its coordinates
    /// cannot be placed).
    fn process(&mut self, mut doc: Doc<'_>, ctx: &Ctx) -> Result<Processed, String> {
        let mut flags = 0;
        let key = match self.spec.kind {
            Kind::Node | Kind::Derived => match doc.get("_key") {
                Some(Value::String(k)) if !k.is_empty() => k.clone(),
                Some(Value::Number(n)) => n.to_string(),
                _ => return Err("document has no _key".into()),
            },
            Kind::Edge => {
                let end = |f: &str| match doc.get(f) {
                    Some(Value::String(s))
                        if s.split_once('/')
                            .is_some_and(|(c, k)| !c.is_empty() && !k.is_empty()) =>
                    {
                        Ok(s.clone())
                    }
                    _ => Err(format!(
                        "edge has no valid {f} (expected \"collection/key\")"
                    )),
                };
                let (from, to) = (end("_from")?, end("_to")?);
                match doc.get("_key") {
                    Some(Value::String(k)) if !k.is_empty() => k.clone(),
                    _ => {
                        // Handles contain no spaces, so this key cannot collide with a real one.
                        flags |= FLAG_KEYLESS;
                        let k = format!("{from} {to}");
                        doc.insert("_key".into(), Value::String(k.clone()));
                        k
                    }
                }
            }
        };
        if key.len() > MAX_INDEXED_BYTES {
            return Err(validate::too_long("_key"));
        }
        doc.insert("_key".into(), Value::String(key.clone()));
        if let Some(prepare) = self.prepare {
            prepare(&mut doc, ctx)?;
        }
        let mut rb = RecordBuf::new();
        let mut coords: Vec<(String, Value)> = Vec::new();
        // Only kept members are parsed; the others were checked for syntax only.
        for (name, member) in doc.into_members() {
            if let Some(id) = self.spec.field_id(&name) {
                let value = member
                    .value()
                    .map_err(|e| format!("invalid JSON in member {name}: {e}"))?;
                let v = normalize(value, self.spec.fields[id as usize].ty, &mut self.counts);
                if !v.is_null() {
                    let json = json_bytes(&v);
                    validate::indexed_length(self.spec, &name, &v, &json)?;
                    rb.set(id, json);
                }
                if validate::is_coordinate(&self.places, &name) {
                    coords.push((name.into_owned(), v));
                }
            } else if !self.spec.known.contains(&name.as_ref()) {
                *self.unknown.entry(name.into_owned()).or_insert(0) += 1;
            }
        }
        let unplaced = validate::unplaced(&self.places, |n| {
            // A later duplicate member wins, as it does in the record.
            coords.iter().rev().find(|c| c.0 == n).map(|c| &c.1)
        })?;
        Ok((key, flags, rb.encode(), unplaced))
    }
}

/// A member of an encoded record as a JSON value; `a.b` is member `b` of object member `a`.
fn member(spec: &Spec, rec: &Record<'_>, name: &str) -> Option<Value> {
    Members::new(spec, rec).get(name)
}

/// The members of one encoded record, each read at most once: a variant's `annotations` object
/// feeds some thirty number columns. A column `a.b` finds `b` among the raw members of `a` and
/// parses that value alone (building the whole object once per record was most of the final
/// pass).
struct Members<'s, 'r> {
    spec: &'s Spec,
    rec: &'r Record<'r>,
    /// By field id: the parsed member (None when absent or not JSON).
    parsed: Vec<OnceCell<Option<Value>>>,
    /// By field id: the raw members of an object member (empty when absent or not an object).
    objects: Vec<OnceCell<RawMembers<'r>>>,
}

impl<'s, 'r> Members<'s, 'r> {
    fn new(spec: &'s Spec, rec: &'r Record<'r>) -> Members<'s, 'r> {
        Members {
            spec,
            rec,
            parsed: (0..spec.fields.len()).map(|_| OnceCell::new()).collect(),
            objects: (0..spec.fields.len()).map(|_| OnceCell::new()).collect(),
        }
    }

    /// Member `name` (`a.b`: member `b` of object member `a`).
    fn get(&self, name: &str) -> Option<Value> {
        let (top, sub) = match name.split_once('.') {
            Some((t, s)) => (t, Some(s)),
            None => (name, None),
        };
        let id = self.spec.field_id(top)?;
        let bytes = || self.rec.get(id);
        match sub {
            None => self.parsed[id as usize]
                .get_or_init(|| serde_json::from_slice(bytes()?).ok())
                .clone(),
            Some(s) => {
                let members = self.objects[id as usize].get_or_init(|| {
                    bytes()
                        .and_then(|b| raw_members(b).ok())
                        .unwrap_or_default()
                });
                serde_json::from_str(last_member(members, s)?.get()).ok()
            }
        }
    }
}

/// Builds `spec`'s collection from `source` into `w`.
pub fn build(
    w: &mut CatalogWriter,
    spec: &Spec,
    source: Source<'_>,
    ctx: &Ctx,
    env: &mut Env,
) -> Result<CollectionMeta, BuildError> {
    let name = spec.name;
    let mut proc = Processor::new(spec);
    let mut sorter = env.reader_sorter();
    let mut read = 0u64;
    let mut keys = keys::Chooser::default();
    let files: Vec<PathBuf> = match &source {
        Source::Files(f) => f.iter().map(|f| f.path.clone()).collect(),
        Source::Derived(_) => vec![PathBuf::from(format!("<derived {name}>"))],
    };
    match source {
        Source::Files(parts) => {
            for (fi, file) in parts.iter().enumerate() {
                let mut lines = Lines::open(file, env.max_line)?;
                let raw_read = std::cell::Cell::new(0u64);
                let mut docs = 0u64;
                // Parsing and encoding run on every core; the sorter gets documents in file
                // order, so the catalog does not depend on the thread count.
                let states = parallel::map_ordered(
                    env.threads,
                    || proc.fresh(),
                    || read_block(&mut lines, &raw_read),
                    |p: &mut Processor, block: Block| {
                        let mut out = EncodedBatch::new(block.text.len() >> 9);
                        for (line_no, bytes) in block.lines() {
                            let parsed = match std::str::from_utf8(bytes) {
                                Ok(line) if line.trim().is_empty() => continue,
                                Ok(line) => p.parse(line, ctx),
                                Err(_) => Err("line is not valid UTF-8".into()),
                            };
                            out.push(line_no, fi as u32, parsed);
                        }
                        out
                    },
                    |batch: EncodedBatch| {
                        docs += batch.sort_into(name, &file.path, &mut keys, &mut sorter, env)?;
                        env.progress
                            .tick(name, read + docs, env.bytes_done + raw_read.get());
                        Ok(())
                    },
                )?;
                for st in states {
                    proc.absorb(st);
                }
                read += docs;
                env.bytes_done += file.bytes;
                let digest = lines.finish();
                env.inputs.push(varcat_format::InputFile {
                    name: file.name.clone(),
                    bytes: file.bytes,
                    xxh3: format!("{digest:016x}"),
                    documents: docs,
                });
            }
        }
        Source::Derived(g) => {
            // As for files: units computed and documents encoded on every core, sorted in
            // order. A document's "line" (in errors) is its unit's 1-based number.
            let mut units = (g.units)(ctx);
            let mut first = 0u64;
            let states = parallel::map_ordered(
                env.threads,
                || proc.fresh(),
                || {
                    let b = units.next_batch(first, UNITS_PER_BATCH);
                    first += b.as_ref().map_or(0, |b| b.len() as u64);
                    Ok::<_, BuildError>(b)
                },
                |p: &mut Processor, batch: UnitBatch| {
                    let mut out = EncodedBatch::new(batch.len());
                    let mut made = Vec::new();
                    for (n, unit) in (batch.first + 1..).zip(batch.units()) {
                        (g.docs)(ctx, unit, &mut made);
                        for doc in made.drain(..) {
                            let parsed = p.process(Doc::from_map(doc), ctx).map(
                                |(key, flags, rec, unplaced)| Parsed {
                                    key,
                                    flags,
                                    rec,
                                    unplaced,
                                    non_finite: 0,
                                },
                            );
                            out.push(n, 0, parsed);
                        }
                    }
                    out
                },
                |batch: EncodedBatch| {
                    read += batch.sort_into(name, &files[0], &mut keys, &mut sorter, env)?;
                    env.progress.tick(name, read, env.bytes_done);
                    Ok(())
                },
            )?;
            for st in states {
                proc.absorb(st);
            }
        }
    }
    env.report.null_elements += proc.counts.null_elements;
    env.report.non_integer += proc.counts.non_integer;
    for (f, n) in proc.unknown {
        Report::bump(&mut env.report.unknown_fields, (name.to_string(), f), n);
    }
    Report::bump(&mut env.report.read, name.to_string(), read);

    // Pass 2: merge duplicates, then order.
    env.progress.phase(&format!("{name}: sorting"));
    let sorted = finish_reader(sorter, env)?;
    let mut stream = match spec.order {
        Order::Key => Stream::groups(sorted),
        Order::Fields(_) => {
            env.progress.phase(&format!("{name}: ordering"));
            let mut reorder = env.sorter(1);
            let mut groups = Stream::groups(sorted);
            while let Some((key, rec)) = groups.next(spec, &files, env)? {
                let k = order_key(spec, &rec, &key);
                reorder.push(&k, &payload(0, 0, 0, &rec))?;
            }
            drop(groups);
            Stream::Reordered(finish_reader(reorder, env)?)
        }
    };
    env.progress.phase(&format!("{name}: writing records"));
    let mut fin = Final::new(w, spec, KeyEncoding::choose(&keys), env)?;
    let descs: Vec<FeedDesc> = fin.feeds.iter().map(Feed::desc).collect();
    let places: Vec<Place> = spec.places().collect();
    let (threads, batch_bytes) = (env.threads, env.pass2_batch_bytes());
    let env_cell = std::cell::RefCell::new(&mut *env);
    let mut tally = RefTally::default();
    let (records, key_feed, feeds, n) =
        (&mut fin.records, &mut fin.keys, &mut fin.feeds, &mut fin.n);
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
                let next = stream.next(spec, &files, &mut env_cell.borrow_mut())?;
                let Some((key, rec)) = next else { break };
                let ord = records.push(&rec)?;
                *n += 1;
                if let KeyFeed::Sorted(s) = key_feed {
                    s.push(&SortKey::new().str(key.as_bytes()).0, &ord.to_le_bytes())?;
                }
                batch.push(ord, &key, &rec);
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
    let meta = fin.finish(env)?;
    Report::bump(&mut env.report.documents, name.to_string(), meta.documents);
    Ok(meta)
}

/// Pass 2's records in ordinal order.
enum Stream {
    /// Pass 1's sorted output, equal keys merged (see [`resolve_group`]).
    Groups {
        sorted: crate::sorter::Sorted,
        /// The first item of the next group, already read.
        ahead: Option<(Vec<u8>, Vec<u8>)>,
        /// Records of the last group not yet handed out.
        ready: std::collections::VecDeque<(String, Vec<u8>)>,
    },
    /// Records in field order, key last (see [`order_key`]).
    Reordered(crate::sorter::Sorted),
}

impl Stream {
    fn groups(sorted: crate::sorter::Sorted) -> Stream {
        Stream::Groups {
            sorted,
            ahead: None,
            ready: Default::default(),
        }
    }

    /// The next record's key and bytes.
    fn next(
        &mut self,
        spec: &Spec,
        files: &[PathBuf],
        env: &mut Env,
    ) -> Result<Option<(String, Vec<u8>)>, BuildError> {
        match self {
            Stream::Reordered(s) => {
                let Some((_, p)) = s.next_item()? else {
                    return Ok(None);
                };
                let (_, _, _, rec) = split_payload(&p);
                let key = member(spec, &Record::new(rec), "_key")
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                Ok(Some((key, rec.to_vec())))
            }
            Stream::Groups {
                sorted,
                ahead,
                ready,
            } => loop {
                if let Some(r) = ready.pop_front() {
                    return Ok(Some(r));
                }
                let Some(first) = ahead
                    .take()
                    .map_or_else(|| sorted.next_item(), |a| Ok(Some(a)))?
                else {
                    return Ok(None);
                };
                let mut group = vec![first];
                while let Some(item) = sorted.next_item()? {
                    if item.0 == group[0].0 {
                        group.push(item);
                    } else {
                        *ahead = Some(item);
                        break;
                    }
                }
                ready.extend(resolve_group(spec, group, files, env)?);
            },
        }
    }
}

/// Turns a group of equal keys into the records to store.
fn resolve_group(
    spec: &Spec,
    group: Vec<(Vec<u8>, Vec<u8>)>,
    files: &[PathBuf],
    env: &mut Env,
) -> Result<Vec<(String, Vec<u8>)>, BuildError> {
    let key_of = |k: &[u8]| {
        String::from_utf8_lossy(&KeyReader::new(k).str().unwrap_or_default()).into_owned()
    };
    if group.len() == 1 {
        let (k, p) = &group[0];
        return Ok(vec![(key_of(k), split_payload(p).3.to_vec())]);
    }
    let key = key_of(&group[0].0);
    let (flags, _, _, _) = split_payload(&group[0].1);
    if flags & FLAG_KEYLESS != 0 {
        // Repeated (from, to) pairs without keys stay distinct: `<from> <to> #<n>` in input order.
        let key_id = spec.field_id("_key").expect("every spec keeps _key");
        let mut out = Vec::new();
        for (i, (_, p)) in group.iter().enumerate() {
            let rec = Record::new(split_payload(p).3);
            let k = if i == 0 {
                key.clone()
            } else {
                format!("{key} #{:06}", i + 1)
            };
            let mut rb = RecordBuf::new();
            for (id, v) in rec.members() {
                rb.set(id, v.to_vec());
            }
            rb.set(key_id, json_bytes(&Value::String(k.clone())));
            out.push((k, rb.encode()));
        }
        Report::bump(
            &mut env.report.derived_keys,
            spec.name.to_string(),
            group.len() as u64 - 1,
        );
        return Ok(out);
    }
    if env.strict {
        let (_, fi, line, _) = split_payload(&group[1].1);
        return Err(BuildError::Input {
            file: files.get(fi as usize).cloned().unwrap_or_default(),
            line,
            reason: format!("duplicate _key {key} in {} (--strict)", spec.name),
        });
    }
    let mut rb = RecordBuf::new();
    for (_, p) in &group {
        for (id, v) in Record::new(split_payload(p).3).members() {
            rb.set(id, v.to_vec());
        }
    }
    Report::bump(
        &mut env.report.merged,
        spec.name.to_string(),
        group.len() as u64 - 1,
    );
    Ok(vec![(key, rb.encode())])
}

/// The sort key of a record under an `Order::Fields` order (then `_key`).
fn order_key(spec: &Spec, rec: &[u8], key: &str) -> Vec<u8> {
    let Order::Fields(fields) = spec.order else {
        return SortKey::new().str(key.as_bytes()).0.clone();
    };
    let rec = Record::new(rec);
    let m = Members::new(spec, &rec);
    let mut k = SortKey::new();
    for f in fields {
        match m.get(f) {
            Some(Value::String(s)) => k.str(s.as_bytes()),
            Some(Value::Number(n)) => k.f64(n.as_f64().unwrap_or(f64::NAN)),
            _ => k.missing(),
        };
    }
    k.str(key.as_bytes());
    k.0
}

/// One index being fed during the final pass.
enum Feed {
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
        writer: NumberWriter<Spool>,
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
enum FeedDesc {
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
type BuiltIndex = (String, Vec<(String, Spool)>);

impl Feed {
    fn desc(&self) -> FeedDesc {
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

    /// Runs its sorter has spilled.
    fn spills(&self) -> usize {
        match self {
            Feed::Exact { sorter, .. }
            | Feed::Intervals { sorter, .. }
            | Feed::Points { sorter, .. }
            | Feed::Ends { sorter, .. } => sorter.spills(),
            Feed::Facet { .. } | Feed::Number { .. } => 0,
        }
    }

    /// Spools [`Feed::build`] needs (a number column already has its own).
    fn spools(&self) -> usize {
        match self {
            Feed::Exact { .. } => 2,
            Feed::Number { .. } => 0,
            _ => 1,
        }
    }

    /// Builds the index of collection `name` into `spools` (as many as [`Feed::spools`]).
    fn build(self, name: &str, mut spools: Vec<Spool>) -> Result<BuiltIndex, BuildError> {
        let mut spool = || spools.pop().expect("Feed::spools counts them");
        let points = match self {
            Feed::Ends { .. } => IndexName::new(IndexKind::Ends, ""),
            _ => IndexName::new(IndexKind::Points, ""),
        };
        match self {
            Feed::Exact {
                field,
                kind,
                sorter,
            } => {
                let ix = IndexName::new(kind, field);
                let (fst, post) = (names::map_fst(name, &ix), names::map_post(name, &ix));
                let mut b = MultiMapBuilder::new(spool(), spool(), &fst)?;
                let mut s = sorter.finish()?;
                let mut cur: Option<Vec<u8>> = None;
                let mut ords: Vec<u32> = Vec::new();
                while let Some((k, _)) = s.next_item()? {
                    let mut r = KeyReader::new(&k);
                    let (Some(v), Some(o)) = (r.str(), r.u32()) else {
                        continue;
                    };
                    if cur.as_deref() != Some(&*v) {
                        if let Some(c) = cur.take() {
                            b.insert(&c, &ords)?;
                        }
                        ords.clear();
                        cur = Some(v.into_owned());
                    }
                    if ords.last() != Some(&o) {
                        ords.push(o);
                    }
                }
                if let Some(c) = cur {
                    b.insert(&c, &ords)?;
                }
                let (f, p) = b.finish()?;
                Ok((ix.to_string(), vec![(fst, f), (post, p)]))
            }
            Feed::Facet { field, builder } => {
                let mut out = spool();
                builder.write(&mut out)?;
                let ix = IndexName::new(IndexKind::Facet, field);
                Ok((ix.to_string(), vec![(names::index(name, &ix), out)]))
            }
            Feed::Number { field, writer } => {
                let ix = IndexName::new(IndexKind::Num, field);
                Ok((
                    ix.to_string(),
                    vec![(names::index(name, &ix), writer.finish()?)],
                ))
            }
            Feed::Intervals { sorter, .. } => {
                let mut iw = IntervalWriter::new(spool());
                let mut s = sorter.finish()?;
                while let Some((k, _)) = s.next_item()? {
                    let mut r = KeyReader::new(&k);
                    let (Some(c), Some(st), Some(en), Some(o)) =
                        (r.str(), r.u32(), r.u32(), r.u32())
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
                let mut pw = PointWriter::new(spool());
                let mut s = sorter.finish()?;
                while let Some((k, _)) = s.next_item()? {
                    let mut r = KeyReader::new(&k);
                    let (Some(c), Some(p), Some(o)) = (r.str(), r.u32(), r.u32()) else {
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

/// A batch of pass 2: records written but not yet indexed, in one buffer.
struct Pending {
    keys: String,
    recs: Vec<u8>,
    items: Vec<(u32, Range<usize>, Range<usize>)>,
    /// Record bytes that end the batch.
    limit: usize,
}

/// Records per pass-2 batch (its bytes are bounded by [`Env::pass2_batch_bytes`]).
const PENDING_RECORDS: usize = 4096;

/// Keys for the key FST's thread: their text, and the end and ordinal of each.
type KeyChunk = (String, Vec<(usize, u64)>);

/// One pending record.
struct PendingItem<'a> {
    ord: u32,
    key: &'a str,
    rec: &'a [u8],
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

    fn push(&mut self, ord: u32, key: &str, rec: &[u8]) {
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
        let ends = self
            .items
            .iter()
            .map(|(ord, k, _)| (k.end, *ord as u64))
            .collect();
        (self.keys.clone(), ends)
    }
}

/// A batch's reference checks and index entries, in flat buffers. They are built on a worker
/// and dropped by the thread that applies them: one allocation per entry, freed across threads,
/// contended on the allocator's locks (≈ 30 % of that thread's time in `variants`' records
/// pass, the pass's bottleneck).
#[derive(Default)]
struct Extracted {
    /// Sort keys, back to back.
    keys: Vec<u8>,
    /// Facet values and dangling references' target collections, back to back.
    text: String,
    /// In record order, then reference and feed order: the order they are applied in.
    entries: Vec<Entry>,
    /// Why the batch's next record could not be extracted (the batch stops there).
    error: Option<BuildError>,
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
        ord: u32,
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
    fn apply(self, feeds: &mut [Feed], tally: &mut RefTally) -> Result<(), BuildError> {
        for e in &self.entries {
            match *e {
                Entry::Ref { end, ref dangling } => {
                    tally.add(end, dangling.clone().map(|r| self.text[r].to_string()))
                }
                Entry::Key { feed, ref at } => match &mut feeds[feed] {
                    Feed::Exact { sorter, .. }
                    | Feed::Intervals { sorter, .. }
                    | Feed::Points { sorter, .. }
                    | Feed::Ends { sorter, .. } => sorter.push(&self.keys[at.clone()], &[])?,
                    Feed::Facet { .. } | Feed::Number { .. } => {}
                },
                Entry::Value { feed, ord, ref at } => {
                    if let Feed::Facet { builder, .. } = &mut feeds[feed] {
                        builder.add(&self.text[at.clone()], ord);
                    }
                }
                Entry::Number { feed, value } => {
                    if let Feed::Number { writer, .. } = &mut feeds[feed] {
                        writer.push(value)?;
                    }
                }
            }
        }
        self.error.map_or(Ok(()), Err)
    }
}

/// The final pass: records go straight into the catalog; index entries into sorters.
struct Final<'s, 'w> {
    spec: &'s Spec,
    key_encoding: KeyEncoding,
    records: RecordWriter<varcat_format::writer::SectionWriter<'w>>,
    keys: KeyFeed,
    feeds: Vec<Feed>,
    n: u64,
}

enum KeyFeed {
    /// Keys arrive in order: the FST is built on its own thread (it is the costliest part of
    /// the final pass, and independent of the rest).
    Direct(parallel::Background<KeyChunk, Result<Spool, varcat_format::WriteError>>),
    Sorted(Sorter),
}

impl<'s, 'w> Final<'s, 'w> {
    fn new(
        w: &'w mut CatalogWriter,
        spec: &'s Spec,
        key_encoding: KeyEncoding,
        env: &mut Env,
    ) -> Result<Final<'s, 'w>, BuildError> {
        let sorters = 1 + spec
            .indexes
            .iter()
            .map(|i| if matches!(i, Index::Text(_)) { 3 } else { 1 })
            .sum::<usize>();
        let records = RecordWriter::new(w.section(&names::records(spec.name))?, env.spool()?);
        let keys = match spec.order {
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
        for ix in spec.indexes {
            match *ix {
                Index::Exact(field) => feeds.push(Feed::Exact {
                    field,
                    kind: IndexKind::By,
                    sorter: env.sorter(sorters),
                }),
                Index::Text(field) => {
                    for kind in [IndexKind::By, IndexKind::Fold, IndexKind::Tok] {
                        feeds.push(Feed::Exact {
                            field,
                            kind,
                            sorter: env.sorter(sorters),
                        });
                    }
                }
                Index::Facet(field) => feeds.push(Feed::Facet {
                    field,
                    builder: FacetBuilder::new(),
                }),
                Index::Number(field) => feeds.push(Feed::Number {
                    field,
                    writer: NumberWriter::new(env.spool()?),
                }),
                Index::Intervals { chr, start, end } => feeds.push(Feed::Intervals {
                    chr,
                    start,
                    end,
                    sorter: env.sorter(sorters),
                }),
                Index::Points { chr, pos } => feeds.push(Feed::Points {
                    chr,
                    pos,
                    sorter: env.sorter(sorters),
                }),
                Index::Ends { chr, end } => feeds.push(Feed::Ends {
                    chr,
                    end,
                    sorter: env.sorter(sorters),
                }),
            }
        }
        for field in spec.numbers {
            feeds.push(Feed::Number {
                field,
                writer: NumberWriter::new(env.spool()?),
            });
        }
        Ok(Final {
            spec,
            key_encoding,
            records,
            keys,
            feeds,
            n: 0,
        })
    }

    fn finish(self, env: &mut Env) -> Result<CollectionMeta, BuildError> {
        let name = self.spec.name;
        env.progress.phase(&format!("{name}: writing indexes"));
        let w = self.records.finish()?.finish()?;
        // Indexes are independent of one another: each is built into spools on one of
        // `env.threads` threads (their FSTs are most of this pass), then copied into the catalog
        // in feed order, so the bytes do not depend on the thread count. The `_key` FST may still
        // be finishing on its own thread meanwhile.
        let mut jobs = Vec::with_capacity(self.feeds.len());
        for feed in self.feeds {
            env.report.spilled_runs += feed.spills() as u64;
            let spools = (0..feed.spools())
                .map(|_| env.spool())
                .collect::<Result<Vec<_>, _>>()?;
            jobs.push((feed, spools));
        }
        let mut built = Vec::with_capacity(jobs.len());
        let mut jobs = jobs.into_iter();
        parallel::map_ordered(
            env.threads,
            || (),
            || Ok::<_, BuildError>(jobs.next()),
            |_, (feed, spools): (Feed, Vec<Spool>)| feed.build(name, spools),
            |r| {
                built.push(r?);
                Ok(())
            },
        )?;
        match self.keys {
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
                    let ord = u32::from_le_bytes(p[..4].try_into().expect("4"));
                    insert_key(&mut b, self.key_encoding, &key, ord as u64)?;
                }
                b.finish()?;
                sec.finish()?;
            }
        }
        let mut indexes = Vec::new();
        for (index, sections) in built {
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
        })
    }
}

/// Appends a record's reference checks and index entries to `out` (reads only the feeds'
/// descriptions, so it runs on any thread).
fn extract(
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
    if spec.kind == Kind::Edge {
        for end in ["_from", "_to"] {
            let Some(Value::String(h)) = m.get(end) else {
                continue;
            };
            let dangling =
                (!ctx.exists(&h)).then(|| out.text(h.split_once('/').map_or("", |x| x.0)));
            out.entries.push(Entry::Ref { end, dangling });
        }
    }
    for (feed, desc) in descs.iter().enumerate() {
        match *desc {
            FeedDesc::Exact { field, kind } => {
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
                        k.str(val.as_bytes()).u32(ord);
                    });
                }
            }
            FeedDesc::Facet { field } => {
                for val in m.get(field).map(|v| index_values(&v)).unwrap_or_default() {
                    let at = out.text(&val);
                    out.entries.push(Entry::Value { feed, ord, at });
                }
            }
            FeedDesc::Number { field } => {
                let value = m.get(field).and_then(|v| match v {
                    Value::Number(n) => n.as_f64(),
                    Value::String(s) => s.trim().parse::<f64>().ok(),
                    _ => None,
                });
                out.entries.push(Entry::Number { feed, value });
            }
            FeedDesc::Intervals { .. } | FeedDesc::Points { .. } if !placed => {}
            FeedDesc::Intervals { chr, start, end } => {
                if let (Some(Value::String(c)), Some(s), Some(e)) =
                    (m.get(chr), m.get(start), m.get(end))
                {
                    if let (Some(s), Some(e)) = (coordinate(&s, key)?, coordinate(&e, key)?) {
                        // An empty interval overlaps no region.
                        if s < e {
                            out.key(feed, |k| {
                                k.str(c.as_bytes()).u32(s).u32(e).u32(ord);
                            });
                        }
                    }
                }
            }
            FeedDesc::Points { chr, pos } => {
                if let (Some(Value::String(c)), Some(p)) = (m.get(chr), m.get(pos)) {
                    if let Some(p) = coordinate(&p, key)? {
                        out.key(feed, |k| {
                            k.str(c.as_bytes()).u32(p).u32(ord);
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// References a collection's records make, counted as its records are written and added to
/// the report once: a report entry per reference cost two `String`s and a map lookup, on the
/// thread that writes the records.
#[derive(Default)]
struct RefTally {
    checked: BTreeMap<&'static str, u64>,
    dangling: BTreeMap<(&'static str, String), u64>,
}

impl RefTally {
    fn add(&mut self, end: &'static str, dangling: Option<String>) {
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

/// A placed document's coordinate as u32 (pass 1 checked the ceiling).
fn coordinate(v: &Value, key: &str) -> Result<Option<u32>, BuildError> {
    validate::coordinate("coordinate", Some(v))
        .map_err(|e| BuildError::Usage(format!("{key}: {e}")))
}

/// Finishes a sorter whose output feeds sorters of [`Env::sorter`]: it keeps at most half the
/// sort budget in memory, so that the two together stay within it.
fn finish_reader(s: Sorter, env: &mut Env) -> Result<crate::sorter::Sorted, BuildError> {
    env.report.spilled_runs += s.spills() as u64;
    Ok(s.finish_keeping(env.sort_budget() / 2)?)
}

/// Finishes a sorter, counting its spilled runs in the report.
fn finish_sorter(s: Sorter, env: &mut Env) -> Result<crate::sorter::Sorted, BuildError> {
    env.report.spilled_runs += s.spills() as u64;
    Ok(s.finish()?)
}

fn copy_section(w: &mut CatalogWriter, name: &str, spool: &mut Spool) -> Result<(), BuildError> {
    let mut sec = w.section(name)?;
    spool.copy_into(&mut sec)?;
    sec.flush()?;
    sec.finish()?;
    Ok(())
}
