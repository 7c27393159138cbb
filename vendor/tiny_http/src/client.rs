use std::io::Error as IoError;
use std::io::Result as IoResult;
use std::io::{ErrorKind, Write};

use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::common::{HTTPVersion, Method};
use crate::conn_io::{lock, BodySource, Shared, Writer};
use crate::head::{parse_head, BadHead};
use crate::util::RefinedTcpStream;
use crate::Request;

/// A ClientConnection is an object that will store a socket to a client
/// and return Request objects.
pub struct ClientConnection {
    // address of the client
    remote_addr: IoResult<Option<SocketAddr>>,

    // varcat patch: the connection's buffered input and its output, shared with the request
    // being answered (upstream chained a reader and a writer per request through channels).
    shared: Arc<Shared>,

    // set to true if we know that the previous request is the last one
    no_more_requests: bool,

    // true if the connection goes through SSL
    secure: bool,

    // varcat patch: the flag a request sets when the connection must close after it.
    close: Arc<AtomicBool>,
}

/// Error that can happen when reading a request.
#[derive(Debug)]
enum ReadError {
    WrongRequestLine,
    WrongHeader(HTTPVersion),
    /// the client sent an unrecognized `Expect` header
    ExpectationFailed(HTTPVersion),
    ReadIoError(IoError),
    /// varcat patch: the request's framing cannot be trusted (its body's length is unknown or
    /// refused); answered 400 and the connection closed.
    BadFraming(HTTPVersion, String),
    /// varcat patch: `Content-Length` above the body limit; answered 413 and the connection
    /// closed.
    TooLarge(HTTPVersion, String),
    /// varcat patch: bytes that are not ASCII in the request line or a header (raw UTF-8 in a
    /// URL): answered 400 with a JSON body naming the place, and the connection closed.
    NotAscii(&'static str),
}

impl From<BadHead> for ReadError {
    fn from(b: BadHead) -> ReadError {
        match b {
            BadHead::RequestLine => ReadError::WrongRequestLine,
            BadHead::Header(v) => ReadError::WrongHeader(v),
            BadHead::NotAscii(place) => ReadError::NotAscii(place),
        }
    }
}

impl ClientConnection {
    /// Creates a new `ClientConnection` that takes ownership of the `TcpStream`.
    pub fn new(
        write_socket: RefinedTcpStream,
        mut read_socket: RefinedTcpStream,
        socket: Option<Arc<TcpStream>>,
    ) -> ClientConnection {
        let remote_addr = read_socket.peer_addr();
        let secure = read_socket.secure();
        ClientConnection {
            shared: Arc::new(Shared::new(read_socket, write_socket, socket)),
            remote_addr,
            no_more_requests: false,
            secure,
            close: Arc::new(AtomicBool::new(false)),
        }
    }

    /// true if the connection is HTTPS
    pub fn secure(&self) -> bool {
        self.secure
    }

    /// varcat patch: a writer to this connection (for the answers tiny_http gives itself).
    fn writer(&self) -> Writer {
        Writer::Conn(self.shared.clone())
    }

    /// Reads a request from the stream.
    /// Blocks until the header has been read.
    ///
    /// varcat patch: the head is read into the connection's buffer (one `recv` when it comes
    /// in one segment; none when a pipelined head is already there) and parsed in place; a
    /// request line and its headers share a budget of [`crate::MAX_REQUEST_HEAD`] bytes, past
    /// which the connection is closed.
    fn read(&mut self) -> Result<Request, ReadError> {
        let mut spare = std::mem::take(&mut *lock(&self.shared.spare));
        let (method, version) = {
            let mut inbound = lock(&self.shared.inbound);
            let end = loop {
                if let Some(end) = inbound.head_end() {
                    break end;
                }
                if inbound.buffered() >= crate::MAX_REQUEST_HEAD {
                    return Err(ReadError::ReadIoError(IoError::new(
                        ErrorKind::InvalidInput,
                        "request head too large",
                    )));
                }
                match inbound.fill(crate::MAX_REQUEST_HEAD) {
                    Ok(0) => {
                        return Err(ReadError::ReadIoError(IoError::new(
                            ErrorKind::ConnectionAborted,
                            "Unexpected EOF",
                        )))
                    }
                    Ok(_) => {}
                    Err(e) => return Err(ReadError::ReadIoError(e)),
                }
            };
            let parsed = parse_head(inbound.head(end), &mut spare.path, &mut spare.headers);
            inbound.consume_to(end);
            parsed?
        };

        // building the next reader
        let shared = &self.shared;
        let request = crate::request::new_request(
            self.secure,
            method,
            spare.path,
            version.clone(),
            spare.headers,
            *self.remote_addr.as_ref().unwrap(),
            || BodySource(shared.clone()),
            Writer::Conn(shared.clone()),
            self.close.clone(),
        )
        .map_err(|e| {
            use crate::request;
            match e {
                request::RequestCreationError::CreationIoError(e) => ReadError::ReadIoError(e),
                request::RequestCreationError::ExpectationFailed => {
                    ReadError::ExpectationFailed(version.clone())
                }
                request::RequestCreationError::BadFraming(why) => {
                    ReadError::BadFraming(version.clone(), why)
                }
                request::RequestCreationError::TooLarge(why) => {
                    ReadError::TooLarge(version.clone(), why)
                }
            }
        })?
        .with_connection(self.shared.clone());

        // return the request
        Ok(request)
    }
}

impl ClientConnection {
    /// varcat patch: an answer tiny_http gives itself, written and flushed at once.
    fn refuse<R: std::io::Read>(
        &self,
        response: crate::Response<R>,
        ver: HTTPVersion,
        head_only: bool,
    ) {
        let mut writer = self.writer();
        if response
            .raw_print(&mut writer, ver, &[], head_only, None)
            .is_ok()
        {
            writer.flush().ok();
        }
    }
}

/// varcat patch: whether `value` holds `token`, ignoring case, without allocating (upstream
/// lower-cased a copy of the header for each request).
fn mentions(value: &str, token: &str) -> bool {
    value
        .as_bytes()
        .windows(token.len())
        .any(|w| w.eq_ignore_ascii_case(token.as_bytes()))
}

impl Iterator for ClientConnection {
    type Item = Request;

    /// Blocks until the next Request is available.
    /// Returns None when no new Requests will come from the client.
    fn next(&mut self) -> Option<Request> {
        use crate::{Response, StatusCode};

        // the client sent a "connection: close" header in this previous request
        //  or is using HTTP 1.0, meaning that no new request will come
        if self.no_more_requests || self.close.load(Ordering::SeqCst) {
            return None;
        }

        let json = || {
            "Content-Type: application/json"
                .parse::<crate::Header>()
                .unwrap()
        };
        loop {
            let rq = match self.read() {
                Err(ReadError::WrongRequestLine) => {
                    self.refuse(Response::new_empty(StatusCode(400)), HTTPVersion(1, 1), false);
                    return None; // we don't know where the next request would start,
                                 // se we have to close
                }

                Err(ReadError::WrongHeader(ver)) => {
                    self.refuse(Response::new_empty(StatusCode(400)), ver, false);
                    return None; // we don't know where the next request would start,
                                 // se we have to close
                }

                Err(ReadError::ReadIoError(ref err)) if err.kind() == ErrorKind::TimedOut => {
                    // request timeout
                    self.refuse(Response::new_empty(StatusCode(408)), HTTPVersion(1, 1), false);
                    return None; // closing the connection
                }

                Err(ReadError::ExpectationFailed(ver)) => {
                    self.refuse(Response::new_empty(StatusCode(417)), ver, true);
                    return None; // TODO: should be recoverable, but needs handling in case of body
                }

                Err(ReadError::BadFraming(ver, why)) => {
                    // varcat patch: the JSON error body of the application, naming the header.
                    let response = Response::from_data(framing_error(&why, "BAD_REQUEST"))
                        .with_status_code(StatusCode(400))
                        .with_header(json());
                    self.refuse(response, ver, false);
                    return None; // the body's extent is unknown: nothing after it can be read
                }

                Err(ReadError::TooLarge(ver, why)) => {
                    // varcat patch: refused before any 100 Continue; the body is never read,
                    // so nothing after it on this connection can be.
                    let response = Response::from_data(framing_error(&why, "PAYLOAD_TOO_LARGE"))
                        .with_status_code(StatusCode(413))
                        .with_header(json());
                    self.refuse(response, ver, false);
                    return None; // the body's extent is unknown: nothing after it can be read
                }

                Err(ReadError::NotAscii(place)) => {
                    // varcat patch: upstream closed the connection without a word.
                    let why = format!(
                        "the {place} holds bytes that are not ASCII: percent-encode them \
                         (é is %C3%A9)"
                    );
                    let response = Response::from_data(error_body(&why, "BAD_REQUEST", place))
                        .with_status_code(StatusCode(400))
                        .with_header(json());
                    self.refuse(response, HTTPVersion(1, 1), false);
                    return None; // the head is refused whole
                }

                Err(ReadError::ReadIoError(_)) => return None,

                Ok(rq) => rq,
            };

            // checking HTTP version
            if *rq.http_version() > (1, 1) {
                // varcat patch: answer through the request's own writer. Upstream took a
                // second writer from the sink, which waits for the request's writer to finish:
                // the connection thread deadlocked and the client got no answer at all.
                let response = Response::from_string(
                    "This server only supports HTTP versions 1.0 and 1.1".to_owned(),
                )
                .with_status_code(StatusCode(505));
                let mut writer = rq.into_writer();
                response
                    .raw_print(&mut writer, HTTPVersion(1, 1), &[], false, None)
                    .ok();
                writer.flush().ok();
                continue;
            }

            // updating the status of the connection
            let connection_header = rq
                .headers()
                .iter()
                .find(|h| h.field.equiv("Connection"))
                .map(|h| h.value.as_str());

            let http10 = *rq.http_version() == HTTPVersion(1, 0);
            match connection_header {
                Some(val) if mentions(val, "close") => self.no_more_requests = true,
                Some(val) if mentions(val, "upgrade") => self.no_more_requests = true,
                Some(val) if !mentions(val, "keep-alive") && http10 => {
                    self.no_more_requests = true
                }
                None if http10 => self.no_more_requests = true,
                _ => (),
            };

            // returning the request
            return Some(rq);
        }
    }
}

/// varcat patch: the error body for a request whose framing is refused (`why` names the header).
fn framing_error(why: &str, code: &str) -> Vec<u8> {
    let header = if why.contains("Transfer-Encoding") && !why.contains("Content-Length") {
        "Transfer-Encoding"
    } else {
        "Content-Length"
    };
    error_body(why, code, header)
}

/// varcat patch: the application's JSON error body, one issue at `path`.
fn error_body(why: &str, code: &str, path: &str) -> Vec<u8> {
    let why = why.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "{{\"message\":\"{why}\",\"code\":\"{code}\",\"issues\":[{{\"message\":\"{why}\",\"path\":[\"{path}\"]}}]}}"
    )
    .into_bytes()
}
