//! Pass 1: documents read (input files, or a derived table's generator), parsed on every core
//! and handed to an external sorter by `_key`, in input order.

use std::ops::Range;
use std::path::{Path, PathBuf};

use varcat_format::keys;

use super::env::Env;
use super::parse::{Parsed, Processor};
use super::payload::payload_into;
use super::Source;
use crate::derive::{Ctx, UnitBatch};
use crate::doc::Doc;
use crate::duplicates::OnDuplicate;
use crate::error::BuildError;
use crate::input::{Block, Lines};
use crate::parallel;
use crate::report::Report;
use crate::schema::Spec;
use crate::sorter::Sorter;
use crate::sortkey::SortKey;

/// What pass 1 leaves: the sorter holding every document, the keys' encoding chooser, and
/// the inputs (named in errors) with their duplicate policies.
pub(super) struct Pass1 {
    pub sorter: Sorter,
    pub keys: keys::Chooser,
    pub files: Vec<PathBuf>,
    pub policies: Vec<OnDuplicate>,
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

    /// Appends one line's outcome, with the sorter's key and payload for file `file` (carrying
    /// the line's `raw` text when given).
    fn push(&mut self, line: u64, file: u32, parsed: Result<Parsed, String>, raw: Option<&[u8]>) {
        let doc = parsed.map(|p| {
            let buf = &mut self.buf;
            let at = buf.len();
            buf.extend_from_slice(p.key.as_bytes());
            let key = at..buf.len();
            let at = buf.len();
            buf.extend_from_slice(&SortKey::new().str(p.key.as_bytes()).0);
            let sort_key = at..buf.len();
            let at = buf.len();
            payload_into(buf, p.flags, file, line, &p.rec, raw);
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

/// Units of a derived table per batch handed to a worker.
const UNITS_PER_BATCH: usize = 256;

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

/// Reads `source` into a sorter; counts what was read in the report.
pub(super) fn read(
    spec: &Spec,
    source: Source<'_>,
    ctx: &Ctx,
    env: &mut Env,
) -> Result<Pass1, BuildError> {
    let name = spec.name;
    let mut proc = Processor::new(spec);
    let mut sorter = env.reader_sorter();
    let mut read = 0u64;
    let mut keys = keys::Chooser::default();
    let (files, policies): (Vec<PathBuf>, Vec<OnDuplicate>) = match &source {
        Source::Files(f) => f.iter().map(|f| (f.path.clone(), f.on_duplicate)).unzip(),
        // A derived table's repeated keys (the same pair reached twice) are one document.
        Source::Derived(_) => (
            vec![PathBuf::from(format!("<derived {name}>"))],
            vec![OnDuplicate::Update],
        ),
    };
    match source {
        Source::Files(parts) => {
            // An `update` duplicate patches documents as read; where the collection reshapes
            // them as it reads them, the lines travel with their records to be patched then
            // prepared (see `merge`).
            let carry_raw = crate::schema::hooks(name).prepare.is_some()
                && parts.iter().any(|f| f.on_duplicate == OnDuplicate::Update);
            for (fi, file) in parts.iter().enumerate() {
                proc.keep_nulls = file.on_duplicate == OnDuplicate::Update;
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
                            out.push(line_no, fi as u32, parsed, carry_raw.then_some(bytes));
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
                            out.push(n, 0, parsed, None);
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
    Ok(Pass1 {
        sorter,
        keys,
        files,
        policies,
    })
}
