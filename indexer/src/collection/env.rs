//! The state shared by every collection's build: scratch files, the report, progress, and the
//! memory budget's shares between the sorts.

use std::path::PathBuf;

use varcat_format::spool::Spool;

use crate::error::BuildError;
use crate::progress::Progress;
use crate::report::Report;
use crate::sorter::Sorter;

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
    /// Collections with more documents than this get 8-byte ordinals.
    pub wide_above: u64,
    /// Collections whose encoded records pass this many bytes may be zstd-compressed.
    pub zstd_above: u64,
    /// Heap bytes held for the rest of the build (key indexes), taken from the sort budget.
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
            wide_above: varcat_format::width::DEFAULT_WIDE_ABOVE,
            zstd_above: varcat_format::records::DEFAULT_ZSTD_ABOVE,
            pinned: 0,
            spool_seq: 0,
        }
    }

    pub(super) fn spool(&mut self) -> Result<Spool, BuildError> {
        self.spool_seq += 1;
        let p = self.tmp.join(format!("spool-{}", self.spool_seq));
        Spool::file(&p).map_err(|e| BuildError::io(p.display().to_string(), e))
    }

    /// A sorter for pass 1, which has the whole sort budget while it reads.
    pub(super) fn reader_sorter(&self) -> Sorter {
        Sorter::new(&self.tmp, self.sort_budget()).with_threads(self.threads)
    }

    /// One of `share` sorters filled while pass 1's output is read back: pass 1 keeps at most
    /// half the sort budget in memory for that (see [`finish_reader`]), they share the rest.
    pub(super) fn sorter(&self, share: usize) -> Sorter {
        let budget = (self.sort_budget() / 2 / share.max(1)).max(1 << 12);
        Sorter::new(&self.tmp, budget).with_threads(self.threads)
    }

    /// Where indexes spool what they build from their sorted entries (an adjacency's node
    /// lists).
    pub(super) fn scratch(&self) -> super::adjacency::Scratch {
        super::adjacency::Scratch {
            dir: self.tmp.clone(),
        }
    }

    /// The sort buffers' budget: `--mem-budget` less what is pinned (key indexes) and less the
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
    pub(super) fn pass2_batch_bytes(&self) -> usize {
        (self.reserve() / (128 * self.threads.max(1))).clamp(64 << 10, 4 << 20)
    }
}

/// Finishes a sorter whose output feeds sorters of [`Env::sorter`]: it keeps at most half the
/// sort budget in memory, so that the two together stay within it.
pub(super) fn finish_reader(s: Sorter, env: &mut Env) -> Result<crate::sorter::Sorted, BuildError> {
    env.report.spilled_runs += s.spills() as u64;
    Ok(s.finish_keeping(env.sort_budget() / 2)?)
}

/// Finishes a sorter, counting its spilled runs in the report.
pub(super) fn finish_sorter(s: Sorter, env: &mut Env) -> Result<crate::sorter::Sorted, BuildError> {
    env.report.spilled_runs += s.spills() as u64;
    Ok(s.finish()?)
}
