//! varcat patch: a request head (request line and headers) parsed in place with `httparse`,
//! into the path and header vectors a request owns, which are reused from one request of a
//! connection to the next (no allocation once they have grown to the client's usual head).
//! Upstream read the head a byte at a time through a `BufReader`, allocating each line.

use ascii::AsciiStr;

use crate::common::{HTTPVersion, Header, HeaderField, Method};

/// Headers parsed into an array on the stack; a head with more gets a vector sized by its
/// lines.
const INLINE_HEADERS: usize = 32;

/// Why a head was refused; each is answered and the connection closed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum BadHead {
    /// Not a request line: 400.
    RequestLine,
    /// A malformed header line: 400 in the request's version.
    Header(HTTPVersion),
    /// Bytes that are not ASCII in the request line or in a header (raw UTF-8 in a URL): 400
    /// with a JSON body naming the place.
    NotAscii(&'static str),
}

/// Parses `head` (a request line and headers up to and including the blank line) into
/// `path` and `headers` (cleared first, their allocations reused), returning the method and
/// version. What httparse refuses in a request line is read as upstream read it
/// ([`lenient`]).
pub(crate) fn parse_head(
    head: &[u8],
    path: &mut String,
    headers: &mut Vec<Header>,
) -> Result<(Method, HTTPVersion), BadHead> {
    let mut inline = [httparse::EMPTY_HEADER; INLINE_HEADERS];
    let mut many;
    let mut req = httparse::Request::new(&mut inline);
    let mut parsed = req.parse(head);
    if parsed == Err(httparse::Error::TooManyHeaders) {
        many = vec![httparse::EMPTY_HEADER; lines(head)];
        req = httparse::Request::new(&mut many);
        parsed = req.parse(head);
    }
    match parsed {
        Ok(httparse::Status::Complete(_)) => {
            let (Some(method), Some(target), Some(minor)) = (req.method, req.path, req.version)
            else {
                return Err(BadHead::RequestLine);
            };
            let method = request_line(method, target, path)?;
            copy_headers(req.headers, headers)?;
            Ok((method, HTTPVersion(1, minor)))
        }
        // The caller hands over a head up to its blank line: only blank lines (which httparse
        // skips before a request line) leave it partial.
        Ok(httparse::Status::Partial) => Err(BadHead::RequestLine),
        Err(_) => lenient(head, path, headers),
    }
}

/// Lines in `head`: at most one header each, so a vector this long holds them all (bounded by
/// the head's budget).
fn lines(head: &[u8]) -> usize {
    head.iter().filter(|&&b| b == b'\n').count() + 1
}

/// The method of a request line, its target copied into `path`. httparse lets bytes above
/// 0x7F through in a target.
fn request_line(method: &str, target: &str, path: &mut String) -> Result<Method, BadHead> {
    if !target.is_ascii() {
        return Err(BadHead::NotAscii("request target"));
    }
    let method = method.parse::<Method>().map_err(|()| BadHead::RequestLine)?;
    path.clear();
    path.push_str(target);
    Ok(method)
}

/// Copies parsed headers into `headers`, reusing its entries' allocations; values trimmed.
fn copy_headers(parsed: &[httparse::Header<'_>], headers: &mut Vec<Header>) -> Result<(), BadHead> {
    for (n, h) in parsed.iter().enumerate() {
        let (Ok(name), Ok(value)) = (AsciiStr::from_ascii(h.name), AsciiStr::from_ascii(h.value))
        else {
            return Err(BadHead::NotAscii("headers"));
        };
        let value = value.trim();
        match headers.get_mut(n) {
            Some(slot) => {
                slot.field.set(name);
                slot.value.clear();
                slot.value.push_str(value);
            }
            None => headers.push(Header {
                field: HeaderField::from_ascii(name.to_owned()),
                value: value.to_owned(),
            }),
        }
    }
    headers.truncate(parsed.len());
    Ok(())
}

/// A head whose request line httparse refused, read as upstream read it: the line split at
/// spaces into any ASCII method, a target of any ASCII bytes (control characters included:
/// the application sees them, and escapes them where it logs them) and one of the versions
/// upstream knew (0.9, 1.0, 1.1, and 2.0 and 3.0, which the caller answers 505); then the
/// headers with httparse.
fn lenient(
    head: &[u8],
    path: &mut String,
    headers: &mut Vec<Header>,
) -> Result<(Method, HTTPVersion), BadHead> {
    let lf = head.iter().position(|&b| b == b'\n').unwrap_or(head.len());
    let line = std::str::from_utf8(&head[..lf])
        .ok()
        .filter(|l| l.is_ascii())
        .ok_or(BadHead::NotAscii("request target"))?;
    let mut parts = line.trim().split(' ');
    let (Some(method), Some(target), Some(version)) = (
        parts.next().and_then(|m| m.parse::<Method>().ok()),
        parts.next(),
        parts.next().and_then(known_version),
    ) else {
        return Err(BadHead::RequestLine);
    };
    let rest = &head[(lf + 1).min(head.len())..];
    let mut inline = [httparse::EMPTY_HEADER; INLINE_HEADERS];
    let mut many;
    let mut parsed = httparse::parse_headers(rest, &mut inline);
    if parsed == Err(httparse::Error::TooManyHeaders) {
        many = vec![httparse::EMPTY_HEADER; lines(rest)];
        parsed = httparse::parse_headers(rest, &mut many);
    }
    match parsed {
        Ok(httparse::Status::Complete((_, parsed))) => copy_headers(parsed, headers)?,
        _ if !rest.is_ascii() => return Err(BadHead::NotAscii("headers")),
        _ => return Err(BadHead::Header(version)),
    }
    path.clear();
    path.push_str(target);
    Ok((method, version))
}

/// The versions upstream's request line parser knew.
fn known_version(v: &str) -> Option<HTTPVersion> {
    Some(match v {
        "HTTP/0.9" => HTTPVersion(0, 9),
        "HTTP/1.0" => HTTPVersion(1, 0),
        "HTTP/1.1" => HTTPVersion(1, 1),
        "HTTP/2.0" => HTTPVersion(2, 0),
        "HTTP/3.0" => HTTPVersion(3, 0),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ascii::AsciiString;

    fn parse(head: &[u8]) -> Result<(Method, HTTPVersion, String, Vec<String>), BadHead> {
        let (mut path, mut headers) = (String::new(), Vec::new());
        let (m, v) = parse_head(head, &mut path, &mut headers)?;
        Ok((m, v, path, headers.iter().map(|h| h.to_string()).collect()))
    }

    #[test]
    fn test_a_head_is_parsed_into_method_path_version_and_trimmed_headers() {
        let (m, v, path, headers) =
            parse(b"GET /api/health?x=1 HTTP/1.1\r\nHost: a\r\nX-Y:  b c \r\n\r\n").unwrap();
        assert_eq!((m, v), (Method::Get, HTTPVersion(1, 1)));
        assert_eq!(path, "/api/health?x=1");
        assert_eq!(headers, ["Host: a", "X-Y: b c"]);
        // Bare LF ends lines too; HTTP/1.0; a method upstream did not name.
        let (m, v, _, headers) = parse(b"PROPFIND / HTTP/1.0\nA: 1\n\n").unwrap();
        assert_eq!(m, Method::NonStandard(AsciiString::from_ascii("PROPFIND").unwrap()));
        assert_eq!((v, headers.len()), (HTTPVersion(1, 0), 1));
    }

    #[test]
    fn test_versions_upstream_knew_are_read_and_others_refused() {
        let (_, v, path, headers) = parse(b"GET /x HTTP/2.0\r\nHost: a\r\n\r\n").unwrap();
        assert_eq!((v, path.as_str(), headers.len()), (HTTPVersion(2, 0), "/x", 1));
        assert_eq!(parse(b"GET / HTTP/3.0\r\n\r\n").unwrap().1, HTTPVersion(3, 0));
        assert_eq!(parse(b"GET / HTTP/0.9\n\n").unwrap().1, HTTPVersion(0, 9));
        for bad in [&b"GET / HTTP/9.9\r\n\r\n"[..], b"GET /\r\n\r\n", b"HTTP/2.0\r\n\r\n"] {
            assert_eq!(parse(bad).unwrap_err(), BadHead::RequestLine, "{bad:?}");
        }
    }

    #[test]
    fn test_request_lines_httparse_refuses_are_read_as_upstream_read_them() {
        // Control characters in the method and target reach the application (which escapes
        // them in its access log); so does a trailing space.
        let (m, v, path, headers) =
            parse(b"GE\x1b[31mT /api/health\x07?x=\"\\ HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        assert_eq!(m.as_str(), "GE\x1b[31mT");
        assert_eq!((v, path.as_str()), (HTTPVersion(1, 1), "/api/health\x07?x=\"\\"));
        assert_eq!(headers, ["Host: x"]);
        assert_eq!(parse(b"GET /a HTTP/1.0 \r\n\r\n").unwrap().2, "/a");
    }

    #[test]
    fn test_malformed_heads_are_refused_and_not_ascii_is_named() {
        for bad in [
            &b"\r\n\r\n"[..],
            b"\n\n",
            b"THIS IS NOT HTTP\r\n\r\n",
            b"GET  / HTTP/1.1\r\n\r\n",
            b"\x00\x01\x02\r\n\r\n",
        ] {
            assert_eq!(parse(bad).unwrap_err(), BadHead::RequestLine, "{bad:?}");
        }
        for bad in [
            &b"GET / HTTP/1.1\r\nNo-Colon\r\n\r\n"[..],
            b"GET / HTTP/1.1\r\nTransfer-Encoding : chunked\r\n\r\n",
            b"GET / HTTP/1.1\r\n Folded: x\r\n\r\n",
        ] {
            assert_eq!(
                parse(bad).unwrap_err(),
                BadHead::Header(HTTPVersion(1, 1)),
                "{bad:?}"
            );
        }
        let target = BadHead::NotAscii("request target");
        assert_eq!(parse("GET /PAKé HTTP/1.1\r\n\r\n".as_bytes()).unwrap_err(), target);
        assert_eq!(parse("GÉT / HTTP/1.1\r\n\r\n".as_bytes()).unwrap_err(), target);
        assert_eq!(
            parse(b"GET / HTTP/1.1\r\nX: \xff\xfe\r\n\r\n").unwrap_err(),
            BadHead::NotAscii("headers")
        );
    }

    #[test]
    fn test_header_vectors_are_reused_and_any_count_is_read() {
        let (mut path, mut headers) = (String::new(), Vec::new());
        let first = b"GET /a HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n";
        parse_head(first, &mut path, &mut headers).unwrap();
        let cap = (path.capacity(), headers.capacity());
        let second = b"GET /b HTTP/1.1\r\nC: 3\r\n\r\n";
        parse_head(second, &mut path, &mut headers).unwrap();
        assert_eq!((path.as_str(), headers.len()), ("/b", 1));
        assert_eq!(headers[0].to_string(), "C: 3");
        assert_eq!((path.capacity(), headers.capacity()), cap);
        let many = format!("GET / HTTP/1.1\r\n{}\r\n", "X-A: b\r\n".repeat(3000));
        let (_, _, _, headers) = parse(many.as_bytes()).unwrap();
        assert_eq!(headers.len(), 3000);
    }
}
