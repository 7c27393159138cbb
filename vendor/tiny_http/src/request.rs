use std::io::Error as IoError;
use std::io::{self, Cursor, ErrorKind, Read, Write};

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;

use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

use crate::conn_io::{lock, Shared, Writer};
use crate::util::FusedReader;
use crate::{HTTPVersion, Header, Method, Response, StatusCode};
use chunked_transfer::Decoder;

/// Represents an HTTP request made by a client.
///
/// A `Request` object is what is produced by the server, and is your what
/// your code must analyse and answer.
///
/// This object implements the `Send` trait, therefore you can dispatch your requests to
/// worker threads.
///
/// # Pipelining
///
/// varcat patch: a connection's requests are handed out one at a time: the next is read (from
/// the connection's buffer, where pipelined requests wait) once this one is answered.
///
/// # Automatic cleanup
///
/// If a `Request` object is destroyed without `into_writer` or `respond` being called,
/// an empty response with a 500 status code (internal server error) will automatically be
/// sent back to the client.
/// This means that if your code fails during the handling of a request, this "internal server
/// error" response will automatically be sent during the stack unwinding.
///
/// # Testing
///
/// If you want to build fake requests to test your server, use [`TestRequest`](crate::test::TestRequest).
pub struct Request {
    // where to read the body from
    data_reader: Option<Box<dyn Read + Send + 'static>>,

    // if this writer is empty, then the request has been answered
    response_writer: Option<Writer>,

    remote_addr: Option<SocketAddr>,

    // true if HTTPS, false if HTTP
    secure: bool,

    method: Method,

    path: String,

    http_version: HTTPVersion,

    headers: Vec<Header>,

    body_length: Option<usize>,

    // true if a `100 Continue` response must be sent when `as_reader()` is called
    must_send_continue: bool,

    // If Some, a message must be sent after responding
    notify_when_responded: Option<Sender<()>>,

    // varcat patch: the connection (its socket, the deadline cell its write stream checks, and
    // where the path and headers go back for the next request) and the flag that closes it
    // after this request.
    conn: Option<Arc<Shared>>,
    close: Arc<AtomicBool>,
    // Set when the connection must close after this request (its body is not read).
    close_after: bool,
}

struct NotifyOnDrop<R> {
    sender: Sender<()>,
    inner: R,
}

impl<R: Read> Read for NotifyOnDrop<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf)
    }
}
impl<R: Write> Write for NotifyOnDrop<R> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
impl<R> Drop for NotifyOnDrop<R> {
    fn drop(&mut self) {
        self.sender.send(()).unwrap();
    }
}

/// Error that can happen when building a `Request` object.
#[derive(Debug)]
pub enum RequestCreationError {
    /// The client sent an `Expect` header that was not recognized by tiny-http.
    ExpectationFailed,

    /// Error while reading data from the socket during the creation of the `Request`.
    CreationIoError(IoError),

    /// varcat patch: the body's framing is refused (why, naming the header).
    BadFraming(String),

    /// varcat patch: `Content-Length` above [`crate::MAX_REQUEST_BODY`]: answered 413 and the
    /// connection closed, the body unread.
    TooLarge(String),
}

/// varcat patch: a request body's reader that closes the connection when it is dropped before
/// the body's end: whatever is left is never drained (upstream read it whole into a buffer of
/// the announced length, or waited for bytes that never came), and nothing after it is read.
struct Body<R> {
    inner: R,
    done: bool,
    close: Arc<AtomicBool>,
}

impl<R: Read> Read for Body<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.done = true;
        }
        Ok(n)
    }
}

impl<R> Drop for Body<R> {
    fn drop(&mut self) {
        if !self.done {
            self.close.store(true, Ordering::SeqCst);
        }
    }
}

/// varcat patch: the body's length from the request's framing headers: `Ok(None)` for none,
/// `Ok(Some(None))` for chunked, `Ok(Some(Some(n)))` for `Content-Length: n`; an error (400,
/// connection closed) for a value that is not a plain decimal, two different lengths, a length
/// beside `Transfer-Encoding`, or a coding other than chunked; a plain decimal above
/// [`crate::MAX_REQUEST_BODY`] is `TooLarge` (413, connection closed, the body unread).
fn body_framing(headers: &[Header]) -> Result<Option<Option<usize>>, RequestCreationError> {
    let bad = |why: String| Err(RequestCreationError::BadFraming(why));
    let lengths: Vec<&str> = headers
        .iter()
        .filter(|h| h.field.equiv("Content-Length"))
        .map(|h| h.value.as_str().trim())
        .collect();
    let coding = headers
        .iter()
        .find(|h| h.field.equiv("Transfer-Encoding"))
        .map(|h| h.value.as_str().trim());
    if let Some(c) = coding {
        if !lengths.is_empty() {
            return bad("Content-Length together with Transfer-Encoding is refused".into());
        }
        if !c.eq_ignore_ascii_case("chunked") {
            return bad(format!("Transfer-Encoding must be chunked, got {c:?}"));
        }
        return Ok(Some(None));
    }
    let Some(first) = lengths.first() else {
        return Ok(None);
    };
    if lengths.iter().any(|l| l != first) {
        return bad("two different Content-Length headers".into());
    }
    if first.is_empty() || !first.bytes().all(|b| b.is_ascii_digit()) {
        return bad(format!(
            "Content-Length must be a decimal number of bytes, got {first:?}"
        ));
    }
    // Digits past usize are a length above the limit too, not a malformed one.
    match first.parse::<usize>() {
        Ok(n) if n <= crate::MAX_REQUEST_BODY => Ok(Some(Some(n))),
        _ => Err(RequestCreationError::TooLarge(format!(
            "request body larger than {} bytes (Content-Length: {first})",
            crate::MAX_REQUEST_BODY
        ))),
    }
}

impl From<IoError> for RequestCreationError {
    fn from(err: IoError) -> RequestCreationError {
        RequestCreationError::CreationIoError(err)
    }
}

/// Builds a new request.
///
/// After the request line and headers have been read from the socket, a new `Request` object
/// is built.
///
/// You must pass a `Read` that will allow the `Request` object to read from the incoming data.
/// It is the responsibility of the `Request` to read only the data of the request and not further.
///
/// The `Write` object will be used by the `Request` to write the response.
///
/// varcat patch: the body's source is made only for a request that has a body, and the
/// writer is the connection's own (no box, no allocation for a request without a body).
#[allow(clippy::too_many_arguments)]
pub(crate) fn new_request<R>(
    secure: bool,
    method: Method,
    path: String,
    version: HTTPVersion,
    headers: Vec<Header>,
    remote_addr: Option<SocketAddr>,
    source_data: impl FnOnce() -> R,
    writer: Writer,
    close: Arc<AtomicBool>,
) -> Result<Request, RequestCreationError>
where
    R: Read + Send + 'static,
{
    let framing = body_framing(&headers)?;

    // true if the client sent a `Expect: 100-continue` header
    let expects_continue = {
        match headers
            .iter()
            .find(|h: &&Header| h.field.equiv("Expect"))
            .map(|h| h.value.as_str())
        {
            None => false,
            Some(v) if v.eq_ignore_ascii_case("100-continue") => true,
            _ => return Err(RequestCreationError::ExpectationFailed),
        }
    };

    // varcat patch: a body is never read ahead of the application. A GET, HEAD or OPTIONS
    // has no use for one: the request is answered and the connection closed, the body unread.
    // Other methods get a reader that closes the connection if dropped before the body's end.
    let bodyless = matches!(method, Method::Get | Method::Head | Method::Options);
    let content_length = match framing {
        Some(Some(n)) => Some(n),
        _ => None,
    };
    let announced = matches!(framing, Some(None)) || content_length.is_some_and(|n| n > 0);
    let close_after = bodyless && announced;
    if close_after {
        close.store(true, Ordering::SeqCst);
    }
    let reader = match framing {
        _ if close_after => Box::new(io::empty()) as Box<dyn Read + Send + 'static>,
        None | Some(Some(0)) => Box::new(io::empty()) as Box<dyn Read + Send + 'static>,
        Some(Some(n)) => Box::new(Body {
            inner: source_data().take(n as u64),
            done: false,
            close: close.clone(),
        }) as Box<dyn Read + Send + 'static>,
        Some(None) => Box::new(Body {
            inner: FusedReader::new(Decoder::new(source_data())),
            done: false,
            close: close.clone(),
        }) as Box<dyn Read + Send + 'static>,
    };

    Ok(Request {
        data_reader: Some(reader),
        response_writer: Some(writer),
        remote_addr,
        secure,
        method,
        path,
        http_version: version,
        headers,
        body_length: content_length,
        must_send_continue: expects_continue,
        notify_when_responded: None,
        conn: None,
        close,
        close_after,
    })
}

impl Request {
    /// varcat patch: ties the request to its connection: its socket, the deadline cell of its
    /// write stream, and where the request's path and headers go back when it is dropped.
    pub(crate) fn with_connection(mut self, conn: Arc<Shared>) -> Request {
        self.conn = Some(conn);
        self
    }

    /// varcat patch: the connection's socket (TCP only): to cut the connection, or read its
    /// options.
    pub fn socket(&self) -> Option<Arc<TcpStream>> {
        self.conn.as_ref().and_then(|c| c.socket.clone())
    }

    /// varcat patch: whether the connection closes after this request (its body is not read).
    pub fn closes_connection(&self) -> bool {
        self.close_after || self.close.load(Ordering::SeqCst)
    }

    /// Returns true if the request was made through HTTPS.
    #[inline]
    pub fn secure(&self) -> bool {
        self.secure
    }

    /// Returns the method requested by the client (eg. `GET`, `POST`, etc.).
    #[inline]
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// Returns the resource requested by the client.
    #[inline]
    pub fn url(&self) -> &str {
        &self.path
    }

    /// Returns a list of all headers sent by the client.
    #[inline]
    pub fn headers(&self) -> &[Header] {
        &self.headers
    }

    /// Returns the HTTP version of the request.
    #[inline]
    pub fn http_version(&self) -> &HTTPVersion {
        &self.http_version
    }

    /// Returns the length of the body in bytes.
    ///
    /// Returns `None` if the length is unknown.
    #[inline]
    pub fn body_length(&self) -> Option<usize> {
        self.body_length
    }

    /// Returns the address of the client that sent this request.
    ///
    /// The address is always `Some` for TCP listeners, but always `None` for UNIX listeners
    /// (as the remote address of a UNIX client is almost always unnamed).
    ///
    /// Note that this is gathered from the socket. If you receive the request from a proxy,
    /// this function will return the address of the proxy and not the address of the actual
    /// user.
    #[inline]
    pub fn remote_addr(&self) -> Option<&SocketAddr> {
        self.remote_addr.as_ref()
    }

    /// Sends a response with a `Connection: upgrade` header, then turns the `Request` into a `Stream`.
    ///
    /// The main purpose of this function is to support websockets.
    /// If you detect that the request wants to use some kind of protocol upgrade, you can
    ///  call this function to obtain full control of the socket stream.
    ///
    /// If you call this on a non-websocket request, tiny-http will wait until this `Stream` object
    ///  is destroyed before continuing to read or write on the socket. Therefore you should always
    ///  destroy it as soon as possible.
    pub fn upgrade<R: Read>(
        mut self,
        protocol: &str,
        response: Response<R>,
    ) -> Box<dyn ReadWrite + Send> {
        use crate::util::CustomStream;

        response
            .raw_print(
                self.response_writer.as_mut().unwrap().by_ref(),
                self.http_version.clone(),
                &self.headers,
                false,
                Some(protocol),
            )
            .ok(); // TODO: unused result

        self.response_writer.as_mut().unwrap().flush().ok(); // TODO: unused result

        let writer: Box<dyn Write + Send> = Box::new(self.extract_writer_impl());
        let stream = CustomStream::new(self.extract_reader_impl(), writer);
        if let Some(sender) = self.notify_when_responded.take() {
            let stream = NotifyOnDrop {
                sender,
                inner: stream,
            };
            Box::new(stream) as Box<dyn ReadWrite + Send>
        } else {
            Box::new(stream) as Box<dyn ReadWrite + Send>
        }
    }

    /// Allows to read the body of the request.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # extern crate rustc_serialize;
    /// # extern crate tiny_http;
    /// # use rustc_serialize::json::Json;
    /// # use std::io::Read;
    /// # fn get_content_type(_: &tiny_http::Request) -> &'static str { "" }
    /// # fn main() {
    /// # let server = tiny_http::Server::http("0.0.0.0:0").unwrap();
    /// let mut request = server.recv().unwrap();
    ///
    /// if get_content_type(&request) == "application/json" {
    ///     let mut content = String::new();
    ///     request.as_reader().read_to_string(&mut content).unwrap();
    ///     let json: Json = content.parse().unwrap();
    /// }
    /// # }
    /// ```
    ///
    /// If the client sent a `Expect: 100-continue` header with the request, calling this
    ///  function will send back a `100 Continue` response.
    #[inline]
    pub fn as_reader(&mut self) -> &mut dyn Read {
        // varcat patch: the interim 100 is the bare status line (RFC 9110 §15.2: no
        // Content-Length on a 1xx; upstream sent Content-Length: 0, Date and Server), and an
        // HTTP/1.0 client's expectation is ignored (RFC 9110 §10.1.1).
        if self.must_send_continue {
            if self.http_version >= (1, 1) {
                let w = self.response_writer.as_mut().unwrap();
                w.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").ok();
                w.flush().ok();
            }
            self.must_send_continue = false;
        }

        self.data_reader.as_mut().unwrap()
    }

    /// Turns the `Request` into a writer.
    ///
    /// The writer has a raw access to the stream to the user.
    /// This function is useful for things like CGI.
    ///
    /// Note that the destruction of the `Writer` object may trigger
    /// some events. For exemple if a client has sent multiple requests and the requests
    /// have been processed in parallel, the destruction of a writer will trigger
    /// the writing of the next response.
    /// Therefore you should always destroy the `Writer` as soon as possible.
    #[inline]
    pub fn into_writer(mut self) -> Box<dyn Write + Send + 'static> {
        let writer = Box::new(self.extract_writer_impl());
        if let Some(sender) = self.notify_when_responded.take() {
            let writer = NotifyOnDrop {
                sender,
                inner: writer,
            };
            Box::new(writer) as Box<dyn Write + Send + 'static>
        } else {
            writer
        }
    }

    /// Extract the response `Writer` object from the Request, dropping this `Writer` has the same side effects
    /// as the object returned by `into_writer` above.
    ///
    /// This may only be called once on a single request.
    fn extract_writer_impl(&mut self) -> Writer {
        use std::mem;

        assert!(self.response_writer.is_some());

        let mut writer = None;
        mem::swap(&mut self.response_writer, &mut writer);
        writer.unwrap()
    }

    /// Extract the body `Reader` object from the Request.
    ///
    /// This may only be called once on a single request.
    fn extract_reader_impl(&mut self) -> Box<dyn Read + Send + 'static> {
        use std::mem;

        assert!(self.data_reader.is_some());

        let mut reader = None;
        mem::swap(&mut self.data_reader, &mut reader);
        reader.unwrap()
    }

    /// Sends a response to this request.
    #[inline]
    pub fn respond<R>(mut self, response: Response<R>) -> Result<(), IoError>
    where
        R: Read,
    {
        let res = self.respond_impl(response);
        if let Some(sender) = self.notify_when_responded.take() {
            sender.send(()).unwrap();
        }
        res
    }

    fn respond_impl<R>(&mut self, response: Response<R>) -> Result<(), IoError>
    where
        R: Read,
    {
        let mut writer = self.extract_writer_impl();

        let do_not_send_body = self.method == Method::Head;

        // varcat patch: the answer is written under the write deadline (and minimum rate), if
        // one is set: the cell holds when the answer started.
        let deadline = self.conn.as_ref().map(|c| &c.deadline);
        if let (Some(cell), Some(_)) = (deadline, crate::response_write_deadline()) {
            cell.store(crate::now_us(), Ordering::SeqCst);
        }
        let written = response
            .raw_print(
                writer.by_ref(),
                self.http_version.clone(),
                &self.headers,
                do_not_send_body,
                None,
            )
            .and_then(|()| writer.flush());
        // varcat patch: a client that hung up reads nothing more: the connection ends here.
        // Upstream went on reading the requests it had sent (thousands, when pipelined) and
        // computing answers nobody would read.
        if written.is_err() {
            self.close.store(true, Ordering::SeqCst);
        }
        let written = Self::ignore_client_closing_errors(written);
        if let Some(cell) = deadline {
            cell.store(0, Ordering::SeqCst);
        }
        written
    }

    /// varcat patch: sends a whole response the application formatted itself (status line,
    /// headers, blank line, body) in one write, under the write deadline, with what `respond`
    /// does after (a failed write closes the connection; the next response may follow).
    /// `respond` writes a response in many small sends (the head in pieces, the body in 8 KiB
    /// chunks through a 1 KiB buffer): with `TCP_NODELAY` each is a segment and a wake-up of
    /// the client, which tripled the cost of a 30 KB answer on loopback.
    pub fn respond_raw(self, bytes: &[u8]) -> Result<(), IoError> {
        self.respond_with(|w| w.write_all(bytes))
    }

    /// varcat patch: `respond_raw` of a response in two parts, its head and its body, sent
    /// together by `writev` (as one write when the socket takes it whole) instead of copied
    /// into one buffer first.
    pub fn respond_raw_parts(self, head: &[u8], body: &[u8]) -> Result<(), IoError> {
        self.respond_with(|w| {
            let mut parts = [std::io::IoSlice::new(head), std::io::IoSlice::new(body)];
            let mut parts = &mut parts[..];
            while !parts.is_empty() {
                match w.write_vectored(parts) {
                    Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                    Ok(n) => std::io::IoSlice::advance_slices(&mut parts, n),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        })
    }

    /// varcat patch: sends a response the application writes itself, all of it (status line,
    /// headers, body and its framing) through `write`, as it produces it (an answer streamed
    /// piece by piece), under the write deadline and minimum rate; then as `respond_raw`.
    pub fn respond_with(
        mut self,
        write: impl FnOnce(&mut dyn Write) -> Result<(), IoError>,
    ) -> Result<(), IoError> {
        let mut writer = self.extract_writer_impl();
        let deadline = self.conn.as_ref().map(|c| &c.deadline);
        if let (Some(cell), Some(_)) = (deadline, crate::response_write_deadline()) {
            cell.store(crate::now_us(), Ordering::SeqCst);
        }
        let written = write(&mut writer).and_then(|()| writer.flush());
        if let Some(cell) = deadline {
            cell.store(0, Ordering::SeqCst);
        }
        if written.is_err() {
            self.close.store(true, Ordering::SeqCst);
        }
        drop(writer);
        if let Some(sender) = self.notify_when_responded.take() {
            sender.send(()).unwrap();
        }
        Self::ignore_client_closing_errors(written)
    }

    /// varcat patch: the connection closes after this request's response (one whose end the
    /// client can only tell by the connection closing: an HTTP/1.0 answer of unknown length).
    pub fn close_after_response(&self) {
        self.close.store(true, Ordering::SeqCst);
    }

    fn ignore_client_closing_errors(result: io::Result<()>) -> io::Result<()> {
        result.or_else(|err| match err.kind() {
            ErrorKind::BrokenPipe => Ok(()),
            ErrorKind::ConnectionAborted => Ok(()),
            ErrorKind::ConnectionRefused => Ok(()),
            ErrorKind::ConnectionReset => Ok(()),
            _ => Err(err),
        })
    }

    pub(crate) fn with_notify_sender(mut self, sender: Sender<()>) -> Self {
        self.notify_when_responded = Some(sender);
        self
    }
}

impl fmt::Debug for Request {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> Result<(), fmt::Error> {
        write!(
            formatter,
            "Request({} {} from {:?})",
            self.method, self.path, self.remote_addr
        )
    }
}

impl Drop for Request {
    fn drop(&mut self) {
        if self.response_writer.is_some() {
            let response = Response::empty(500);
            let _ = self.respond_impl(response); // ignoring any potential error
            if let Some(sender) = self.notify_when_responded.take() {
                sender.send(()).unwrap();
            }
        }
        // varcat patch: the path and headers are reused by the connection's next request.
        if let Some(conn) = &self.conn {
            let mut spare = lock(&conn.spare);
            spare.path = std::mem::take(&mut self.path);
            spare.headers = std::mem::take(&mut self.headers);
        }
    }
}

/// Dummy trait that regroups the `Read` and `Write` traits.
///
/// Automatically implemented on all types that implement both `Read` and `Write`.
pub trait ReadWrite: Read + Write {}
impl<T> ReadWrite for T where T: Read + Write {}

#[cfg(test)]
mod tests {
    use super::Request;

    #[test]
    fn must_be_send() {
        #![allow(dead_code)]
        fn f<T: Send>(_: &T) {}
        fn bar(rq: &Request) {
            f(rq);
        }
    }
}
