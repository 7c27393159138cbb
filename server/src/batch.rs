//! Batch answers on the wire: a POST batch's items ([`varcat_query::batch`] reads the request
//! and answers each value) streamed one at a time. Each item is computed when the previous one
//! has been handed to the socket, so a batch holds one item in memory however long its answer,
//! and a client that does not read holds its own connection and one item.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use varcat_query::batch::{self, item_with_error, Batch};
use varcat_query::endpoint::Endpoint;
use varcat_query::error::ApiError;
use varcat_query::handler::Ctx;

use crate::http::Loaded;

/// A batch being answered: the items of the JSON array, computed one at a time.
pub struct Items {
    loaded: Arc<Loaded>,
    ep: &'static Endpoint,
    path_params: Vec<(&'static str, String)>,
    batch: Batch,
    /// The next value to answer.
    next: usize,
    /// Pieces computed and not yet taken (the first item's, computed before the answer starts
    /// since it decides the whole request's error; an item's results apart from the bytes
    /// around them, so they are never copied).
    pending: VecDeque<Vec<u8>>,
}

/// Why an answer stopped before its end (the connection is then cut, so the client sees an
/// incomplete answer, never a complete-looking wrong one).
#[derive(Debug)]
pub struct Stopped(pub Arc<str>);

/// Starts a batch: the request is read and its first value answered, so an error of the whole
/// request is known before any byte of the answer is sent.
pub fn start(
    loaded: Arc<Loaded>,
    ep: &'static Endpoint,
    path_params: &[(&'static str, String)],
    query: &str,
    body: &[u8],
) -> Result<Items, ApiError> {
    let batch = batch::read(ep, query, body)?;
    let mut items = Items {
        loaded,
        ep,
        path_params: path_params.to_vec(),
        batch,
        next: 0,
        pending: VecDeque::new(),
    };
    let pieces = items.item(0, b"[")?;
    items.next = 1;
    items.pending = pieces;
    Ok(items)
}

impl Items {
    /// The next piece of the answer (`None` after the closing `]`). A catalog taken down
    /// meanwhile (its file changed in place) stops the answer.
    pub fn next_piece(&mut self) -> Option<Result<Vec<u8>, Stopped>> {
        if let Some(piece) = self.pending.pop_front() {
            return Some(Ok(piece));
        }
        let n = self.batch.len();
        if self.next > n {
            return None;
        }
        if self.next == n {
            self.next += 1;
            return Some(Ok(b"]".to_vec()));
        }
        if let Some(why) = self.loaded.gone() {
            return Some(Err(Stopped(why)));
        }
        let i = self.next;
        self.next += 1;
        let mut out = b",".to_vec();
        let done = catch_unwind(AssertUnwindSafe(|| self.item(i, b",")));
        match done {
            Ok(Ok(pieces)) => {
                self.pending = pieces;
                self.pending.pop_front().map(Ok)
            }
            // The whole request's error, past the first value (which was answered): the error
            // stands for this value alone.
            Ok(Err(e)) => {
                item_with_error(&mut out, self.batch.id(i), &e);
                Some(Ok(out))
            }
            Err(_) => {
                if let Some(why) = self.loaded.check_mapped_file() {
                    return Some(Err(Stopped(why)));
                }
                eprintln!(
                    "varcat: internal error answering value {i} of a batch to {}",
                    self.ep.path
                );
                let e = ApiError::internal("internal error; the request has been logged");
                item_with_error(&mut out, self.batch.id(i), &e);
                Some(Ok(out))
            }
        }
    }

    /// The whole answer in memory (`varcat query --post`, tests).
    pub fn collect(mut self) -> Result<Vec<u8>, Stopped> {
        let mut out = Vec::new();
        while let Some(piece) = self.next_piece() {
            out.extend_from_slice(&piece?);
        }
        Ok(out)
    }

    /// The pieces of value `i`'s item, after `before`; `Err` is the error of the whole
    /// request.
    fn item(&self, i: usize, before: &[u8]) -> Result<VecDeque<Vec<u8>>, ApiError> {
        let ctx = Ctx {
            cat: &self.loaded.cat,
        };
        self.batch.item(&ctx, self.ep, &self.path_params, i, before)
    }
}
