use ascii::AsciiString;

use std::io::Error as IoError;
use std::io::Result as IoResult;
use std::io::{BufReader, BufWriter, ErrorKind, Read};

use std::net::{SocketAddr, TcpStream};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use crate::common::{HTTPVersion, Method};
use crate::util::RefinedTcpStream;
use crate::util::{SequentialReader, SequentialReaderBuilder, SequentialWriterBuilder};
use crate::Request;

/// A ClientConnection is an object that will store a socket to a client
/// and return Request objects.
pub struct ClientConnection {
    // address of the client
    remote_addr: IoResult<Option<SocketAddr>>,

    // sequence of Readers to the stream, so that the data is not read in
    //  the wrong order
    source: SequentialReaderBuilder<BufReader<RefinedTcpStream>>,

    // sequence of Writers to the stream, to avoid writing response #2 before
    //  response #1
    sink: SequentialWriterBuilder<BufWriter<RefinedTcpStream>>,

    // Reader to read the next header from
    next_header_source: SequentialReader<BufReader<RefinedTcpStream>>,

    // set to true if we know that the previous request is the last one
    no_more_requests: bool,

    // true if the connection goes through SSL
    secure: bool,

    // varcat patch: the connection's socket (what a request exposes), the flag a request sets
    // when the connection must close after it, and the deadline of the response being written
    // (checked by the write stream).
    socket: Option<Arc<TcpStream>>,
    close: Arc<AtomicBool>,
    deadline: Arc<AtomicU64>,
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

impl ClientConnection {
    /// Creates a new `ClientConnection` that takes ownership of the `TcpStream`.
    pub fn new(
        write_socket: RefinedTcpStream,
        mut read_socket: RefinedTcpStream,
        socket: Option<Arc<TcpStream>>,
    ) -> ClientConnection {
        let deadline = Arc::new(AtomicU64::new(0));
        let write_socket = write_socket.with_deadline(deadline.clone());
        let remote_addr = read_socket.peer_addr();
        let secure = read_socket.secure();

        let mut source = SequentialReaderBuilder::new(BufReader::with_capacity(1024, read_socket));
        let first_header = source.next().unwrap();

        ClientConnection {
            source,
            sink: SequentialWriterBuilder::new(BufWriter::with_capacity(1024, write_socket)),
            remote_addr,
            next_header_source: first_header,
            no_more_requests: false,
            secure,
            socket,
            close: Arc::new(AtomicBool::new(false)),
            deadline,
        }
    }

    /// true if the connection is HTTPS
    pub fn secure(&self) -> bool {
        self.secure
    }

    /// Reads the next line from self.next_header_source.
    ///
    /// Reads until `CRLF` is reached. The next read will start
    ///  at the first byte of the new line.
    fn read_next_line(&mut self, budget: &mut usize) -> IoResult<AsciiString> {
        let mut buf = Vec::new();
        let mut prev_byte_was_cr = false;

        loop {
            // varcat patch: a request head (request line and headers) has a byte budget, so an
            // endless line cannot grow memory until the process dies.
            if *budget == 0 {
                return Err(IoError::new(ErrorKind::InvalidInput, "request head too large"));
            }
            *budget -= 1;
            let byte = self.next_header_source.by_ref().bytes().next();

            let byte = match byte {
                Some(b) => b?,
                None => return Err(IoError::new(ErrorKind::ConnectionAborted, "Unexpected EOF")),
            };

            // varcat patch: a bare LF ends a line too (RFC 9112 2.2 allows it); upstream waited
            // for a CRLF that never came.
            if byte == b'\n' {
                if prev_byte_was_cr {
                    buf.pop(); // removing the '\r'
                }
                // varcat patch: a line that is not ASCII is InvalidData (answered 400 with a
                // JSON body), told apart from a head over its budget (InvalidInput).
                return AsciiString::from_ascii(buf)
                    .map_err(|_| IoError::new(ErrorKind::InvalidData, "Header is not in ASCII"));
            }

            prev_byte_was_cr = byte == b'\r';

            buf.push(byte);
        }
    }

    /// Reads a request from the stream.
    /// Blocks until the header has been read.
    fn read(&mut self) -> Result<Request, ReadError> {
        let (method, path, version, headers) = {
            // reading the request line
            let mut budget = crate::MAX_REQUEST_HEAD;
            let (method, path, version) = {
                let line = self
                    .read_next_line(&mut budget)
                    .map_err(|e| not_ascii(e, "request target"))?;

                parse_request_line(
                    line.as_str().trim(), // TODO: remove this conversion
                )?
            };

            // getting all headers
            let headers = {
                let mut headers = Vec::new();
                loop {
                    let line = self
                        .read_next_line(&mut budget)
                        .map_err(|e| not_ascii(e, "headers"))?;

                    if line.is_empty() {
                        break;
                    };
                    headers.push(match FromStr::from_str(line.as_str().trim()) {
                        // TODO: remove this conversion
                        Ok(h) => h,
                        _ => return Err(ReadError::WrongHeader(version)),
                    });
                }

                headers
            };

            (method, path, version, headers)
        };

        // building the writer for the request
        let writer = self.sink.next().unwrap();

        // follow-up for next potential request
        let mut data_source = self.source.next().unwrap();
        std::mem::swap(&mut self.next_header_source, &mut data_source);

        // building the next reader
        let request = crate::request::new_request(
            self.secure,
            method,
            path,
            version.clone(),
            headers,
            *self.remote_addr.as_ref().unwrap(),
            data_source,
            writer,
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
        .with_connection(self.socket.clone(), self.deadline.clone());

        // return the request
        Ok(request)
    }
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

        loop {
            let rq = match self.read() {
                Err(ReadError::WrongRequestLine) => {
                    let writer = self.sink.next().unwrap();
                    let response = Response::new_empty(StatusCode(400));
                    response
                        .raw_print(writer, HTTPVersion(1, 1), &[], false, None)
                        .ok();
                    return None; // we don't know where the next request would start,
                                 // se we have to close
                }

                Err(ReadError::WrongHeader(ver)) => {
                    let writer = self.sink.next().unwrap();
                    let response = Response::new_empty(StatusCode(400));
                    response.raw_print(writer, ver, &[], false, None).ok();
                    return None; // we don't know where the next request would start,
                                 // se we have to close
                }

                Err(ReadError::ReadIoError(ref err)) if err.kind() == ErrorKind::TimedOut => {
                    // request timeout
                    let writer = self.sink.next().unwrap();
                    let response = Response::new_empty(StatusCode(408));
                    response
                        .raw_print(writer, HTTPVersion(1, 1), &[], false, None)
                        .ok();
                    return None; // closing the connection
                }

                Err(ReadError::ExpectationFailed(ver)) => {
                    let writer = self.sink.next().unwrap();
                    let response = Response::new_empty(StatusCode(417));
                    response.raw_print(writer, ver, &[], true, None).ok();
                    return None; // TODO: should be recoverable, but needs handling in case of body
                }

                Err(ReadError::BadFraming(ver, why)) => {
                    // varcat patch: the JSON error body of the application, naming the header.
                    let writer = self.sink.next().unwrap();
                    let response = Response::from_data(framing_error(&why, "BAD_REQUEST"))
                        .with_status_code(StatusCode(400))
                        .with_header(
                            "Content-Type: application/json"
                                .parse::<crate::Header>()
                                .unwrap(),
                        );
                    response.raw_print(writer, ver, &[], false, None).ok();
                    return None; // the body's extent is unknown: nothing after it can be read
                }

                Err(ReadError::TooLarge(ver, why)) => {
                    // varcat patch: refused before any 100 Continue; the body is never read,
                    // so nothing after it on this connection can be.
                    let writer = self.sink.next().unwrap();
                    let response = Response::from_data(framing_error(&why, "PAYLOAD_TOO_LARGE"))
                        .with_status_code(StatusCode(413))
                        .with_header(
                            "Content-Type: application/json"
                                .parse::<crate::Header>()
                                .unwrap(),
                        );
                    response.raw_print(writer, ver, &[], false, None).ok();
                    return None; // the body's extent is unknown: nothing after it can be read
                }

                Err(ReadError::NotAscii(place)) => {
                    // varcat patch: upstream closed the connection without a word.
                    let why = format!(
                        "the {place} holds bytes that are not ASCII: percent-encode them \
                         (é is %C3%A9)"
                    );
                    let writer = self.sink.next().unwrap();
                    let response = Response::from_data(error_body(&why, "BAD_REQUEST", place))
                        .with_status_code(StatusCode(400))
                        .with_header(
                            "Content-Type: application/json"
                                .parse::<crate::Header>()
                                .unwrap(),
                        );
                    response
                        .raw_print(writer, HTTPVersion(1, 1), &[], false, None)
                        .ok();
                    return None; // the rest of the head is unread
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

            let lowercase = connection_header.map(|h| h.to_ascii_lowercase());

            match lowercase {
                Some(ref val) if val.contains("close") => self.no_more_requests = true,
                Some(ref val) if val.contains("upgrade") => self.no_more_requests = true,
                Some(ref val)
                    if !val.contains("keep-alive") && *rq.http_version() == HTTPVersion(1, 0) =>
                {
                    self.no_more_requests = true
                }
                None if *rq.http_version() == HTTPVersion(1, 0) => self.no_more_requests = true,
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

/// varcat patch: a line that could not be read: not ASCII (answered 400), or another error.
fn not_ascii(e: IoError, place: &'static str) -> ReadError {
    if e.kind() == ErrorKind::InvalidData {
        ReadError::NotAscii(place)
    } else {
        ReadError::ReadIoError(e)
    }
}

/// Parses a "HTTP/1.1" string.
fn parse_http_version(version: &str) -> Result<HTTPVersion, ReadError> {
    let (major, minor) = match version {
        "HTTP/0.9" => (0, 9),
        "HTTP/1.0" => (1, 0),
        "HTTP/1.1" => (1, 1),
        "HTTP/2.0" => (2, 0),
        "HTTP/3.0" => (3, 0),
        _ => return Err(ReadError::WrongRequestLine),
    };

    Ok(HTTPVersion(major, minor))
}

/// Parses the request line of the request.
/// eg. GET / HTTP/1.1
fn parse_request_line(line: &str) -> Result<(Method, String, HTTPVersion), ReadError> {
    let mut parts = line.split(' ');

    let method = parts.next().and_then(|w| w.parse().ok());
    let path = parts.next().map(ToOwned::to_owned);
    let version = parts.next().and_then(|w| parse_http_version(w).ok());

    method
        .and_then(|method| Some((method, path?, version?)))
        .ok_or(ReadError::WrongRequestLine)
}

#[cfg(test)]
mod test {
    #[test]
    fn test_parse_request_line() {
        let (method, path, ver) = super::parse_request_line("GET /hello HTTP/1.1").unwrap();

        assert!(method == crate::Method::Get);
        assert!(path == "/hello");
        assert!(ver == crate::common::HTTPVersion(1, 1));

        assert!(super::parse_request_line("GET /hello").is_err());
        assert!(super::parse_request_line("qsd qsd qsd").is_err());
    }
}
