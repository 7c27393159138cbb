//! Admission of requests to the handlers: how many are computed at once (a bound on the
//! handlers' work and memory, whatever the number of connections), and how many may wait.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use varcat_format::records::DecodeCache;

/// Times a request looks for a free slot before it sleeps in line.
const SPINS: u32 = 256;

/// Admission of requests to the handlers: at most `threads` computed at once, at most `queue`
/// waiting; past that a request is refused at once (503). A free slot is taken with one atomic
/// operation and given back with another: the lock and the condition variable are only for
/// requests that must wait, and a slot given back wakes a sleeper only if there is one.
pub struct Slots {
    free: AtomicUsize,
    /// Threads asleep on `freed` (queued requests and batch items), or about to be.
    asleep: AtomicUsize,
    /// Requests waiting in line (counted against `queue`).
    queued: Mutex<usize>,
    freed: Condvar,
    queue: usize,
    /// One set of decode caches per slot: a slot's holder reads through them (installed as its
    /// thread's) and gives them back with the slot. Without this each connection's thread grew
    /// caches of its own (about 5 MiB each once warm: memory by connections, not by slots) that
    /// were cold for most requests at 64 connections (region pages cost 94 µs of CPU there
    /// against 40 at one connection).
    caches: Mutex<Vec<DecodeCache>>,
}

impl Slots {
    pub fn new(threads: usize, queue: usize) -> Slots {
        Slots {
            free: AtomicUsize::new(threads.max(1)),
            asleep: AtomicUsize::new(0),
            queued: Mutex::new(0),
            freed: Condvar::new(),
            queue,
            caches: Mutex::new((0..threads.max(1)).map(|_| DecodeCache::new()).collect()),
        }
    }

    /// The slot just taken (counted in `free` already): its decode caches become the thread's.
    fn taken(&self) -> Slot<'_> {
        let cache = self
            .caches
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default();
        // The thread's own caches are empty: a thread reads only while it holds a slot.
        drop(cache.install());
        Slot(self)
    }

    /// Takes a free slot if there is one, without waiting.
    fn try_take(&self) -> bool {
        self.free
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |f| f.checked_sub(1))
            .is_ok()
    }

    /// Watches `free` for about a handler's length before giving up: a slot's holder running on
    /// another core gives it back within microseconds, sooner than a sleep and a wake-up
    /// (two system calls and two switches) would hand it over.
    fn spin_take(&self) -> bool {
        for _ in 0..SPINS {
            std::hint::spin_loop();
            if self.free.load(Ordering::Relaxed) > 0 && self.try_take() {
                return true;
            }
        }
        false
    }

    /// Sleeps until a slot is free and takes it (`guard` is the line's lock).
    fn await_free<'s>(
        &self,
        mut guard: std::sync::MutexGuard<'s, usize>,
    ) -> std::sync::MutexGuard<'s, usize> {
        loop {
            // Counted asleep before the last look at `free`: a slot given back after that look
            // sees the sleeper and wakes it (both orders are sequentially consistent).
            self.asleep.fetch_add(1, Ordering::SeqCst);
            if self.try_take() {
                self.asleep.fetch_sub(1, Ordering::SeqCst);
                return guard;
            }
            guard = self.freed.wait(guard).unwrap_or_else(|e| e.into_inner());
            self.asleep.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Takes a slot, waiting however long the line (for work of a request already admitted).
    pub fn wait(&self) -> Slot<'_> {
        if !self.try_take() {
            let line = self.queued.lock().unwrap_or_else(|e| e.into_inner());
            drop(self.await_free(line));
        }
        self.taken()
    }

    /// Takes a slot, waiting in line if there is room in it; `None` when the line is full.
    pub fn take(&self) -> Option<Slot<'_>> {
        if self.try_take() || self.spin_take() {
            return Some(self.taken());
        }
        let mut line = self.queued.lock().unwrap_or_else(|e| e.into_inner());
        if self.try_take() {
            return Some(self.taken());
        }
        if *line >= self.queue {
            return None;
        }
        *line += 1;
        let mut line = self.await_free(line);
        *line -= 1;
        Some(self.taken())
    }
}

/// A taken slot, given back when dropped.
pub struct Slot<'a>(&'a Slots);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let slots = self.0;
        // The caches go back before the slot does, so a slot taken always finds a set.
        let cache = DecodeCache::new().install();
        if let Ok(mut caches) = slots.caches.lock() {
            caches.push(cache);
        }
        slots.free.fetch_add(1, Ordering::SeqCst);
        if slots.asleep.load(Ordering::SeqCst) > 0 {
            // Under the lock: a sleeper counted is either still before its wait (and holds the
            // lock, so this notification comes after it sleeps) or asleep.
            let _line = slots.queued.lock().unwrap_or_else(|e| e.into_inner());
            slots.freed.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn test_a_slot_given_back_wakes_a_request_waiting_in_line() {
        let slots = Slots::new(1, 1);
        let first = slots.take().expect("a free slot");
        std::thread::scope(|s| {
            let waiting = s.spawn(|| slots.take().is_some());
            // Once the waiting request is asleep in line, the line is full.
            let t = Instant::now();
            while slots.asleep.load(Ordering::SeqCst) == 0 {
                assert!(t.elapsed() < Duration::from_secs(10), "never queued");
                std::thread::yield_now();
            }
            assert!(slots.take().is_none(), "past the queue");
            drop(first);
            assert!(waiting.join().unwrap(), "the waiting request got no slot");
        });
        let counts = (
            slots.free.load(Ordering::SeqCst),
            *slots.queued.lock().unwrap(),
            slots.asleep.load(Ordering::SeqCst),
        );
        assert_eq!(counts, (1, 0, 0));
    }

    #[test]
    fn test_slots_bound_the_handlers_computing_at_once_and_lose_no_wake_up() {
        let slots = Slots::new(2, 64);
        let (now, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|s| {
            for t in 0..8 {
                let (slots, now, most) = (&slots, &now, &most);
                s.spawn(move || {
                    for i in 0..2000 {
                        let _slot = if (t + i) % 2 == 0 {
                            slots.take().expect("room in line")
                        } else {
                            slots.wait()
                        };
                        let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(n, Ordering::SeqCst);
                        if i % 64 == 0 {
                            std::thread::yield_now();
                        }
                        now.fetch_sub(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert!(most.load(Ordering::SeqCst) <= 2, "more handlers than slots");
        assert_eq!(slots.free.load(Ordering::SeqCst), 2, "a slot lost");
        assert_eq!(slots.asleep.load(Ordering::SeqCst), 0);
    }

    /// However many threads take turns, there are as many decode caches as slots: a holder's
    /// thread has one installed while it holds the slot, and gives it back with the slot.
    #[test]
    fn test_decode_caches_are_one_per_slot_whatever_the_threads() {
        let slots = Slots::new(3, 64);
        let count = || slots.caches.lock().unwrap().len();
        std::thread::scope(|s| {
            for _ in 0..40 {
                s.spawn(|| {
                    for _ in 0..50 {
                        let slot = slots.take().expect("room in line");
                        // Installed here: swapping in an empty set hands back the slot's.
                        let mine = DecodeCache::new().install();
                        drop(mine.install());
                        drop(slot);
                    }
                });
            }
        });
        assert_eq!(count(), 3);
        let held = slots.take().unwrap();
        assert_eq!(count(), 2, "the holder's thread has one");
        drop(held);
        assert_eq!(count(), 3);
    }
}
