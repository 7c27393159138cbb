//! VCF text to VCF text on several threads: the input is cut into chunks of whole lines, each
//! annotated by one of `workers` annotators (chunk `i` by worker `i mod workers`, so results
//! come back in input order by taking them round-robin), and written by a writer thread, which
//! also checks sortedness and feeds the live index, while the calling thread reads. One worker
//! runs inline: the same chunks, the same bytes.

use std::io::{BufRead, Write};
use std::sync::mpsc;

use crate::annotator::Annotator;
use crate::live_index::LiveIndex;
use crate::text::{self, Annotated, Ends};
use crate::timings::{Stage, Timings};
use crate::Sorted;

/// Input bytes per chunk: large enough that a chunk's hand-over costs nothing next to its
/// records, small enough that two workers stay busy on short inputs.
const CHUNK: usize = 1 << 18;

/// Where annotated chunks go, in input order.
pub struct Writer<'a> {
    /// The output.
    pub out: &'a mut (dyn Write + Send),
    /// Sortedness of the records so far.
    pub sorted: &'a mut Sorted,
    /// The index being built (dropped when the input turns out unsorted).
    pub index: Option<LiveIndex>,
    /// The input's name in messages.
    pub name: &'a str,
    /// The last line number read (the header's last at the start).
    pub line: u64,
    /// Uncompressed bytes written so far (the header included).
    pub written: u64,
    /// Malformed lines passed through so far.
    pub malformed: u64,
    /// Input contigs the catalog lacks, in order of first appearance.
    pub unknown: Vec<String>,
}

impl Writer<'_> {
    /// Writes chunk `a`; an error stops the run (the chunk's lines before it are written).
    fn take(&mut self, a: &Annotated, t: &mut Timings) -> Result<(), String> {
        for (l, reason) in &a.passed {
            self.malformed += 1;
            if self.malformed <= 10 || self.malformed.is_multiple_of(1000) {
                eprintln!(
                    "varcat annotate: warning: {}:{}: {reason} (passed through)",
                    self.name,
                    self.line + l
                );
            }
        }
        let mut chrom = "";
        for p in &a.placed {
            // Records come in contig blocks: check the name's text only when it changes.
            let name = &a.out[p.start..p.start + p.chrom_len];
            if name != chrom.as_bytes() {
                chrom = std::str::from_utf8(name).unwrap_or("");
            }
            self.sorted.see(chrom, p.pos);
            if !self.sorted.ok {
                self.index = None;
            }
            if let Some(ix) = &mut self.index {
                let base = self.written;
                ix.add(
                    chrom,
                    p.pos,
                    p.last,
                    base + p.start as u64,
                    base + p.end as u64,
                );
            }
        }
        for c in &a.unknown {
            if !self.unknown.contains(c) {
                self.unknown.push(c.clone());
            }
        }
        self.out
            .write_all(&a.out)
            .map_err(|e| format!("writing: {e}"))?;
        self.written += a.out.len() as u64;
        t.lap(Stage::Write);
        if let Some((l, reason)) = &a.stop {
            return Err(format!("{}:{}: {reason}", self.name, self.line + l));
        }
        self.line += a.lines;
        Ok(())
    }

    /// The message for a read error after the lines taken so far.
    fn read_error(&self, e: &std::io::Error) -> String {
        format!("{}:{}: {e}", self.name, self.line + 1)
    }
}

/// The next chunk of `input` (empty at the end), and the read error that ends it, if any.
fn read(input: &mut dyn BufRead) -> (Vec<u8>, Option<std::io::Error>) {
    text::read_chunk(input, CHUNK)
}

/// Annotates the records of `input` (after its header) into `w` with `anns` (one per worker),
/// under `lenient`; `ends` when indexing. Returns the per-stage times of every thread.
pub fn run(
    input: &mut dyn BufRead,
    w: &mut Writer<'_>,
    anns: &mut [Annotator<'_>],
    lenient: bool,
    ends: Option<&Ends>,
    timings: bool,
) -> Result<Timings, String> {
    let mut t = Timings::new(timings);
    if let [ann] = anns {
        let mut a = Annotated::default();
        loop {
            let (chunk, failed) = read(input);
            if chunk.is_empty() && failed.is_none() {
                return Ok(t);
            }
            t.lap(Stage::Decode);
            text::annotate_chunk(&chunk, ann, lenient, ends, &mut t, &mut a);
            w.take(&a, &mut t)?;
            if let Some(e) = failed {
                return Err(w.read_error(&e));
            }
        }
    }
    let n = anns.len();
    std::thread::scope(|s| {
        let mut to = Vec::with_capacity(n);
        let mut from = Vec::with_capacity(n);
        let mut handles = Vec::with_capacity(n);
        for ann in anns.iter_mut() {
            // Two chunks in flight per worker: one annotated, one waiting.
            let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(2);
            let (rtx, rrx) = mpsc::sync_channel::<Annotated>(2);
            to.push(tx);
            from.push(rrx);
            handles.push(s.spawn(move || {
                let mut wt = Timings::new(timings);
                while let Ok(chunk) = rx.recv() {
                    wt.skip();
                    let mut a = Annotated::default();
                    text::annotate_chunk(&chunk, ann, lenient, ends, &mut wt, &mut a);
                    if rtx.send(a).is_err() {
                        break;
                    }
                }
                wt
            }));
        }
        // The writer takes the chunks back in input order (chunk i from worker i mod n) on
        // its own thread, so reading and writing overlap. It stops at the first worker with
        // nothing more (the chunk after the last went to it), or at an error, dropping the
        // receivers: the workers then stop, and the reader's next send fails.
        let w = &mut *w;
        let writer = s.spawn(move || -> (Timings, Result<(), String>) {
            let mut wt = Timings::new(timings);
            let mut taken = 0usize;
            while let Ok(a) = from[taken % n].recv() {
                wt.skip();
                taken += 1;
                if let Err(e) = w.take(&a, &mut wt) {
                    return (wt, Err(e));
                }
            }
            (wt, Ok(()))
        });
        // Chunks in order, round robin; the bounded channels pace the reading. A read error
        // ends it, reported after the chunks before it are written.
        let mut failed = None;
        for sent in 0usize.. {
            let (chunk, e) = read(input);
            if chunk.is_empty() && e.is_none() {
                break;
            }
            t.lap(Stage::Decode);
            let stop = e.is_some();
            failed = e;
            if to[sent % n].send(chunk).is_err() || stop {
                break;
            }
        }
        drop(to);
        let mut result = Ok(());
        for h in handles {
            match h.join() {
                Ok(wt) => t.add(&wt),
                Err(_) => result = Err("an annotating thread panicked".to_string()),
            }
        }
        match writer.join() {
            Ok((wt, r)) => {
                t.add(&wt);
                result = result.and(r);
            }
            Err(_) => result = Err("the writing thread panicked".to_string()),
        }
        result?;
        Ok((t, failed))
    })
    .and_then(|(t, failed)| match failed {
        Some(e) => Err(w.read_error(&e)),
        None => Ok(t),
    })
}
