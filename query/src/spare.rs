//! Each thread's spare answer buffers. A server answers a request and writes it on the same
//! thread, then gives the answer's buffers back here, so the next answer on that thread starts
//! with their capacity instead of allocating and regrowing its body and header list (a region
//! page of 29 KB grew through four allocations and copied itself three times). A thread keeps
//! at most [`KEEP`] bytes of body: a larger body is freed and a buffer of [`KEEP`] bytes kept
//! in its place, so that after a large answer the next still starts with that much room.

use std::borrow::Cow;
use std::cell::Cell;

/// Largest body capacity a thread keeps for its next answer.
pub const KEEP: usize = 32 << 10;

/// An answer's extra headers.
pub type Headers = Vec<(&'static str, Cow<'static, str>)>;

thread_local! {
    static BODY: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    static HEADERS: Cell<Headers> = const { Cell::new(Vec::new()) };
}

/// An empty body buffer with room for at least `min` bytes (the thread's spare, if any).
pub fn body(min: usize) -> Vec<u8> {
    let mut b = BODY.with(Cell::take);
    b.reserve(min);
    b
}

/// An empty header list (the thread's spare, if any).
pub fn headers() -> Headers {
    HEADERS.with(Cell::take)
}

/// Gives `body` back for the thread's next answer (emptied; one past [`KEEP`] is freed and an
/// empty buffer of [`KEEP`] bytes kept instead, unless the thread holds a spare already).
pub fn give_body(mut body: Vec<u8>) {
    body.clear();
    BODY.with(|spare| {
        let held = spare.take();
        spare.set(if held.capacity() >= body.capacity().min(KEEP) {
            held
        } else if body.capacity() <= KEEP {
            body
        } else {
            // Not a shrinking realloc: that would copy the freed answer's first KEEP bytes.
            drop(body);
            Vec::with_capacity(KEEP)
        });
    });
}

/// Gives `headers` back for the thread's next answer (emptied).
pub fn give_headers(mut headers: Headers) {
    headers.clear();
    if headers.capacity() <= 64 {
        HEADERS.with(|spare| spare.set(headers));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_a_body_given_back_is_the_next_one_taken_empty() {
        let mut b = body(100);
        b.extend_from_slice(b"[1,2]");
        let (ptr, cap) = (b.as_ptr(), b.capacity());
        give_body(b);
        let again = body(10);
        assert_eq!(
            (again.as_ptr(), again.capacity(), again.len()),
            (ptr, cap, 0)
        );
    }

    #[test]
    fn test_a_body_past_the_limit_is_not_kept() {
        give_body(Vec::new());
        give_body(Vec::with_capacity(KEEP + 1));
        // The large one is not kept, but the room of one as large as may be is.
        assert_eq!(body(0).capacity(), KEEP);
    }

    #[test]
    fn test_headers_given_back_come_back_empty() {
        let mut h = headers();
        h.push(("Vary", "Accept".into()));
        give_headers(h);
        let again = headers();
        assert!(again.is_empty() && again.capacity() >= 1);
    }
}
