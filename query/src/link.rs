//! The `Link` header of a page (RFC 8288): relative references to the next and the previous
//! page, made from the request's own path and query with only `page` changed, so a client
//! pages by following links instead of guessing that a full page means more.

use crate::endpoint::Endpoint;

use crate::handler::Answer;
use crate::params::Paging;
use crate::query::decode;

/// Whether another page follows `answer` of `ep` (None: `ep` is not paged). An empty page is
/// the last; any other page must say whether more follow.
pub fn more(ep: &Endpoint, answer: &Answer) -> Option<bool> {
    let Paging::Paged { .. } = ep.accepts.paging else {
        return None;
    };
    let more = answer.more.or((answer.body == b"[]").then_some(false));
    debug_assert!(
        more.is_some(),
        "{}: a page that does not say if more follow",
        ep.path
    );
    Some(more.unwrap_or(false))
}

/// The `Link` value for `answer`, page `page` of `ep` at `path?query` (None: `ep` is not paged,
/// or the page has neither a next nor a previous one).
pub fn of_answer(
    ep: &Endpoint,
    answer: &Answer,
    path: &str,
    query: &str,
    page: u64,
) -> Option<String> {
    header(path, query, page, more(ep, answer)?)
}

/// The `Link` value for page `page` of the answer at `path?query` (origin form, as received),
/// or None when there is neither a next page (`more`) nor a previous one (`page` 0).
pub fn header(path: &str, query: &str, page: u64, more: bool) -> Option<String> {
    if !more && page == 0 {
        return None;
    }
    // One string, written in place (this header is on most paged answers).
    let mut out = String::with_capacity(2 * (path.len() + query.len() + 32));
    if more {
        out.push('<');
        write_with_page(&mut out, path, query, page.saturating_add(1));
        out.push_str(">; rel=\"next\"");
    }
    if page > 0 {
        if more {
            out.push_str(", ");
        }
        out.push('<');
        write_with_page(&mut out, path, query, page - 1);
        out.push_str(">; rel=\"prev\"");
    }
    Some(out)
}

/// `path?query` with `page=N`: every other pair keeps its order and its encoding (nothing is
/// re-encoded); the first `page` pair gets the new value, later ones are dropped (the last
/// would otherwise win), and without one `page=N` is appended.
pub fn with_page(path: &str, query: &str, page: u64) -> String {
    let mut out = String::with_capacity(path.len() + query.len() + 12);
    write_with_page(&mut out, path, query, page);
    out
}

/// [`with_page`], appended to `out`.
fn write_with_page(out: &mut String, path: &str, query: &str, page: u64) {
    use std::fmt::Write;
    escape_into(out, path);
    out.push('?');
    let mut replaced = false;
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push('&');
        }
    };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let name = pair.split('=').next().unwrap_or("");
        if decode(name, true).is_ok_and(|n| n == "page") {
            if !replaced {
                sep(out);
                let _ = write!(out, "page={page}");
                replaced = true;
            }
        } else {
            sep(out);
            escape_into(out, pair);
        }
    }
    if !replaced {
        sep(out);
        let _ = write!(out, "page={page}");
    }
}

/// Copies `s`, percent-encoding what may not stand inside `<…>` in a header value (controls,
/// space, non-ASCII, `<`, `>`, `"`, `\`): a request target may carry them raw.
fn escape_into(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for b in s.bytes() {
        if b.is_ascii_graphic() && !matches!(b, b'<' | b'>' | b'"' | b'\\') {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 15)] as char);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_page_is_replaced_or_appended_and_nothing_else_changes() {
        assert_eq!(with_page("/api/genes", "", 1), "/api/genes?page=1");
        assert_eq!(
            with_page("/api/genes", "gene_name=PAK5&limit=25", 2),
            "/api/genes?gene_name=PAK5&limit=25&page=2"
        );
        assert_eq!(
            with_page("/api/genes", "page=3&gene_name=a+b%20c&limit=2", 4),
            "/api/genes?page=4&gene_name=a+b%20c&limit=2"
        );
        // `10.0` was accepted as 10; the link writes a plain integer.
        assert_eq!(with_page("/a", "x=1&page=10.0", 11), "/a?x=1&page=11");
        // An encoded name is still `page`; a repeated one is dropped.
        assert_eq!(
            with_page("/a", "pag%65=1&x=%2B&page=2", 0),
            "/a?page=0&x=%2B"
        );
        assert_eq!(with_page("/a", "x=1&&y=2", 1), "/a?x=1&y=2&page=1");
        assert_eq!(
            with_page("/a b", "q=<\"x\">", 1),
            "/a%20b?q=%3C%22x%22%3E&page=1"
        );
        assert_eq!(with_page("/a", "pages=1", 1), "/a?pages=1&page=1");
    }

    #[test]
    fn test_header_names_next_and_prev() {
        assert_eq!(header("/api/genes", "limit=2", 0, false), None);
        assert_eq!(
            header("/api/genes", "limit=2", 0, true).as_deref(),
            Some("</api/genes?limit=2&page=1>; rel=\"next\"")
        );
        assert_eq!(
            header("/api/genes", "limit=2&page=1", 1, true).as_deref(),
            Some(
                "</api/genes?limit=2&page=2>; rel=\"next\", \
                 </api/genes?limit=2&page=0>; rel=\"prev\""
            )
        );
        // Past the end: still a way back.
        assert_eq!(
            header("/api/genes", "page=9", 9, false).as_deref(),
            Some("</api/genes?page=8>; rel=\"prev\"")
        );
    }
}
