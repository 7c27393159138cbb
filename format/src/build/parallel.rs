//! The build's use of more than one core, in two shapes, both deterministic: an ordered
//! parallel map (workers transform batches; results are consumed in input order, so the
//! catalog's bytes do not depend on the thread count) and a background consumer (one thread owns
//! a builder that would otherwise serialise the pipeline, such as the `_key` FST).

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::Mutex;
use std::thread::{self, JoinHandle};

/// The default number of parsing threads: the cores available.
pub fn threads() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work` over the batches `produce` yields, on `workers` threads each with its own state
/// from `init`, and hands every result to `consume` in the order the batches were produced.
/// Stops at the first error of `produce` or `consume`; returns the workers' states.
///
/// At most four batches per worker are in flight, which bounds the memory it adds.
pub fn map_ordered<B, R, S, E>(
    workers: usize,
    init: impl Fn() -> S + Sync,
    produce: impl FnMut() -> Result<Option<B>, E>,
    work: impl Fn(&mut S, B) -> R + Sync,
    consume: impl FnMut(R) -> Result<(), E>,
) -> Result<Vec<S>, E>
where
    B: Send,
    R: Send,
    S: Send,
{
    map_ordered_with(workers, 4, init, produce, work, consume)
}

/// [`map_ordered`] with at most `per_worker` batches per worker in flight.
pub fn map_ordered_with<B, R, S, E>(
    workers: usize,
    per_worker: usize,
    init: impl Fn() -> S + Sync,
    mut produce: impl FnMut() -> Result<Option<B>, E>,
    work: impl Fn(&mut S, B) -> R + Sync,
    mut consume: impl FnMut(R) -> Result<(), E>,
) -> Result<Vec<S>, E>
where
    B: Send,
    R: Send,
    S: Send,
{
    if workers <= 1 {
        let mut st = init();
        while let Some(b) = produce()? {
            consume(work(&mut st, b))?;
        }
        return Ok(vec![st]);
    }
    let in_flight = workers * per_worker.max(1);
    let (job_tx, job_rx) = mpsc::sync_channel::<(u64, B)>(in_flight);
    let job_rx = Mutex::new(job_rx);
    let (res_tx, res_rx) = mpsc::channel::<(u64, thread::Result<R>)>();
    thread::scope(|sc| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let (res_tx, job_rx, work, init) = (res_tx.clone(), &job_rx, &work, &init);
                sc.spawn(move || {
                    let mut st = init();
                    loop {
                        let job = job_rx.lock().map_or(Err(mpsc::RecvError), |rx| rx.recv());
                        let Ok((seq, b)) = job else { break };
                        // A panic is carried back and resumed in order, not left to hang the
                        // consumer waiting for a result that never comes.
                        let r = panic::catch_unwind(AssertUnwindSafe(|| work(&mut st, b)));
                        if res_tx.send((seq, r)).is_err() {
                            break;
                        }
                    }
                    st
                })
            })
            .collect();
        drop(res_tx);
        let mut run = || -> Result<(), E> {
            let (mut next_in, mut next_out, mut exhausted) = (0u64, 0u64, false);
            let mut pending = BTreeMap::new();
            loop {
                while !exhausted && next_in - next_out < in_flight as u64 {
                    match produce()? {
                        Some(b) => {
                            job_tx
                                .send((next_in, b))
                                .expect("workers outlive the producer");
                            next_in += 1;
                        }
                        None => exhausted = true,
                    }
                }
                if next_out == next_in {
                    return Ok(());
                }
                let (seq, r) = res_rx.recv().expect("a worker holds every job in flight");
                pending.insert(seq, r);
                while let Some(r) = pending.remove(&next_out) {
                    match r {
                        Ok(r) => consume(r)?,
                        Err(p) => panic::resume_unwind(p),
                    }
                    next_out += 1;
                }
            }
        };
        let result = run();
        drop(job_tx);
        drop(res_rx);
        let states = handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| panic::resume_unwind(p)))
            .collect();
        result.map(|()| states)
    })
}

/// A consumer on its own thread: items pushed here reach `f` on that thread, in order.
pub struct Background<T: Send + 'static, R: Send + 'static> {
    tx: Option<SyncSender<Vec<T>>>,
    batch: Vec<T>,
    /// Items per message (enough that the channel costs nothing per item).
    per_message: usize,
    handle: JoinHandle<R>,
}

impl<T: Send + 'static, R: Send + 'static> Background<T, R> {
    /// Starts `f`, which reads items until the channel closes and returns its result; items
    /// travel `per_message` at a time.
    pub fn spawn(
        per_message: usize,
        f: impl FnOnce(Items<T>) -> R + Send + 'static,
    ) -> Background<T, R> {
        Background::with_depth(per_message, 4, f)
    }

    /// Like [`Background::spawn`], with up to `depth` messages waiting for the thread (a
    /// producer that sends in bursts blocks less often).
    pub fn with_depth(
        per_message: usize,
        depth: usize,
        f: impl FnOnce(Items<T>) -> R + Send + 'static,
    ) -> Background<T, R> {
        let per_message = per_message.max(1);
        let (tx, rx) = mpsc::sync_channel(depth);
        let handle = thread::spawn(move || {
            f(Items {
                rx,
                cur: Vec::new().into_iter(),
            })
        });
        Background {
            tx: Some(tx),
            batch: Vec::with_capacity(per_message),
            per_message,
            handle,
        }
    }

    /// Hands `item` to the thread. If the thread has stopped (it failed), items are dropped and
    /// [`Background::finish`] returns its result.
    pub fn push(&mut self, item: T) {
        self.batch.push(item);
        if self.batch.len() >= self.per_message {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let b = std::mem::replace(&mut self.batch, Vec::with_capacity(self.per_message));
        if let Some(tx) = &self.tx {
            if tx.send(b).is_err() {
                self.tx = None;
            }
        }
    }

    /// Closes the stream and waits for the thread's result.
    pub fn finish(mut self) -> R {
        self.flush();
        self.tx = None;
        self.handle
            .join()
            .unwrap_or_else(|p| panic::resume_unwind(p))
    }
}

/// The items a [`Background`] thread receives, in push order.
pub struct Items<T> {
    rx: Receiver<Vec<T>>,
    cur: std::vec::IntoIter<T>,
}

impl<T> Iterator for Items<T> {
    type Item = T;
    fn next(&mut self) -> Option<T> {
        loop {
            if let Some(t) = self.cur.next() {
                return Some(t);
            }
            self.cur = self.rx.recv().ok()?.into_iter();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]
        #[test]
        fn prop_map_ordered_equals_sequential_map(xs in prop::collection::vec(any::<u32>(), 0..300), workers in 1usize..5) {
            let mut it = xs.chunks(7).map(<[u32]>::to_vec);
            let mut got = Vec::new();
            let states = map_ordered::<_, _, _, ()>(
                workers,
                || 0usize,
                || Ok(it.next()),
                |n, b: Vec<u32>| { *n += b.len(); b.iter().map(|x| x.wrapping_mul(3)).collect::<Vec<_>>() },
                |r| { got.extend(r); Ok(()) },
            ).unwrap();
            let want: Vec<u32> = xs.iter().map(|x| x.wrapping_mul(3)).collect();
            prop_assert_eq!(got, want);
            prop_assert_eq!(states.iter().sum::<usize>(), xs.len());
        }
    }

    #[test]
    fn test_map_ordered_stops_at_the_first_error_in_order() {
        let mut n = 0u32;
        let mut seen = Vec::new();
        let r = map_ordered(
            2,
            || (),
            || {
                n += 1;
                Ok::<_, u32>((n <= 100).then_some(n))
            },
            |_, b| b,
            |b| {
                if b == 10 {
                    return Err(b);
                }
                seen.push(b);
                Ok(())
            },
        );
        assert_eq!(r.err(), Some(10));
        assert_eq!(seen, (1..10).collect::<Vec<_>>());
    }

    #[test]
    #[should_panic(expected = "boom")]
    fn test_map_ordered_resumes_a_worker_panic() {
        let mut n = 0u32;
        let _ = map_ordered::<_, _, _, ()>(
            2,
            || (),
            || {
                n += 1;
                Ok((n <= 20).then_some(n))
            },
            |_, b| {
                assert!(b != 5, "boom");
                b
            },
            |_| Ok(()),
        );
    }

    #[test]
    fn test_background_sees_every_item_in_order() {
        for per_message in [1, 7, 4096] {
            let mut bg =
                Background::spawn(per_message, |items: Items<u32>| items.collect::<Vec<_>>());
            for i in 0..10_000 {
                bg.push(i);
            }
            assert_eq!(bg.finish(), (0..10_000).collect::<Vec<_>>());
        }
    }
}
