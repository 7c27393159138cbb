//! `varcat annotate --timings`: where the record loop's wall time goes, as sums of the gaps
//! between `Instant`s taken at each stage boundary (one clock read per stage per record, and
//! none when off), so the side-by-side benchmark can split a run into decode, look-up, format
//! and write/compress. With several threads the sums add up every thread's time (waits for
//! another thread are not charged), so they can exceed the wall time.

use std::time::{Duration, Instant};

/// A stage of the record loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading a line (inflating BGZF input), splitting and checking its columns.
    Decode,
    /// Trimming, matching the alleles and reading the fields' values from the catalog.
    Lookup,
    /// Rendering the INFO column.
    Format,
    /// Writing the record (copying into the output buffer, file writes, handing BGZF blocks to
    /// the compressing threads and waiting for them), and the final flush.
    Write,
}

/// Per-stage sums; a disabled one records nothing.
#[derive(Clone, Debug)]
pub struct Timings {
    on: bool,
    last: Instant,
    sums: [Duration; 4],
    /// The index post-pass, when one ran.
    pub index: Option<Duration>,
}

impl Timings {
    /// Timings that record when `on`; the clock starts now.
    pub fn new(on: bool) -> Timings {
        Timings {
            on,
            last: Instant::now(),
            sums: [Duration::ZERO; 4],
            index: None,
        }
    }

    /// True when recording.
    pub fn on(&self) -> bool {
        self.on
    }

    /// Charges the time since the previous lap (or the start) to `stage`.
    #[inline]
    pub fn lap(&mut self, stage: Stage) {
        if self.on {
            let now = Instant::now();
            self.sums[stage as usize] += now - self.last;
            self.last = now;
        }
    }

    /// Restarts the clock without charging the time since the previous lap (waiting for
    /// another thread).
    #[inline]
    pub fn skip(&mut self) {
        if self.on {
            self.last = Instant::now();
        }
    }

    /// Adds `other`'s sums (another thread's) to these.
    pub fn add(&mut self, other: &Timings) {
        for (a, b) in self.sums.iter_mut().zip(other.sums) {
            *a += b;
        }
    }

    /// The sum for `stage`.
    pub fn get(&self, stage: Stage) -> Duration {
        self.sums[stage as usize]
    }
}

impl std::fmt::Display for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |st| self.get(st).as_secs_f64();
        write!(
            f,
            "decode {:.3}s, look-up {:.3}s, format {:.3}s, write/compress {:.3}s",
            s(Stage::Decode),
            s(Stage::Lookup),
            s(Stage::Format),
            s(Stage::Write)
        )?;
        if let Some(i) = self.index {
            write!(f, ", index {:.3}s", i.as_secs_f64())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_sum_per_stage_and_off_records_nothing() {
        let mut t = Timings::new(true);
        std::thread::sleep(Duration::from_millis(5));
        t.lap(Stage::Lookup);
        t.lap(Stage::Format);
        assert!(t.get(Stage::Lookup) >= Duration::from_millis(5));
        assert!(t.get(Stage::Format) < t.get(Stage::Lookup));
        assert_eq!(t.get(Stage::Decode), Duration::ZERO);
        assert!(t.to_string().starts_with("decode 0.000s, look-up 0.0"));

        let mut off = Timings::new(false);
        std::thread::sleep(Duration::from_millis(2));
        off.lap(Stage::Decode);
        assert_eq!(off.get(Stage::Decode), Duration::ZERO);
    }
}
