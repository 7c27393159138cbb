use std::io::Result as IoResult;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr};

use crate::connection::Connection;
#[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
use crate::ssl::SslStream;

pub(crate) enum Stream {
    Http(Connection),
    #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
    Https(SslStream),
}

impl Clone for Stream {
    fn clone(&self) -> Self {
        match self {
            Stream::Http(tcp_stream) => Stream::Http(tcp_stream.try_clone().unwrap()),
            #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
            Stream::Https(ssl_stream) => Stream::Https(ssl_stream.clone()),
        }
    }
}

impl From<Connection> for Stream {
    fn from(tcp_stream: Connection) -> Self {
        Stream::Http(tcp_stream)
    }
}

impl Stream {
    fn secure(&self) -> bool {
        match self {
            Stream::Http(_) => false,
            #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
            Stream::Https(_) => true,
        }
    }

    fn peer_addr(&mut self) -> IoResult<Option<SocketAddr>> {
        match self {
            Stream::Http(tcp_stream) => tcp_stream.peer_addr(),
            #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
            Stream::Https(ssl_stream) => ssl_stream.peer_addr(),
        }
    }

    fn shutdown(&mut self, how: Shutdown) -> IoResult<()> {
        match self {
            Stream::Http(tcp_stream) => tcp_stream.shutdown(how),
            #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
            Stream::Https(ssl_stream) => ssl_stream.shutdown(how),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> IoResult<usize> {
        match self {
            Stream::Http(tcp_stream) => tcp_stream.read(buf),
            #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
            Stream::Https(ssl_stream) => ssl_stream.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> IoResult<usize> {
        match self {
            Stream::Http(tcp_stream) => tcp_stream.write(buf),
            #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
            Stream::Https(ssl_stream) => ssl_stream.write(buf),
        }
    }

    // varcat patch: a TCP stream writes several buffers in one `writev`.
    fn write_vectored(&mut self, bufs: &[std::io::IoSlice<'_>]) -> IoResult<usize> {
        match self {
            Stream::Http(tcp_stream) => tcp_stream.write_vectored(bufs),
            #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
            Stream::Https(ssl_stream) => ssl_stream.write_vectored(bufs),
        }
    }

    fn flush(&mut self) -> IoResult<()> {
        match self {
            Stream::Http(tcp_stream) => tcp_stream.flush(),
            #[cfg(any(feature = "ssl-openssl", feature = "ssl-rustls"))]
            Stream::Https(ssl_stream) => ssl_stream.flush(),
        }
    }
}

pub struct RefinedTcpStream {
    stream: Stream,
    close_read: bool,
    close_write: bool,
    // varcat patch: when non-zero, the `now_us()` at which the response being written started
    // (set by the request); the pace of that response is kept here.
    deadline: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
    pace: Pace,
}

/// varcat patch: the write deadline of one response, moved on by what the client takes.
#[derive(Clone, Copy, Default)]
struct Pace {
    /// The response's start (the cell's value when this pace began).
    start: u64,
    /// Bytes written for it.
    written: u64,
    /// Of those, bytes the client had taken at the last check.
    taken: u64,
    /// `now_us()` after which a write fails.
    deadline: u64,
}

impl RefinedTcpStream {
    pub(crate) fn new<S>(stream: S) -> (RefinedTcpStream, RefinedTcpStream)
    where
        S: Into<Stream>,
    {
        let stream: Stream = stream.into();

        let (read, write) = (stream.clone(), stream);

        let read = RefinedTcpStream {
            stream: read,
            close_read: true,
            close_write: false,
            deadline: None,
            pace: Pace::default(),
        };

        let write = RefinedTcpStream {
            stream: write,
            close_read: false,
            close_write: true,
            deadline: None,
            pace: Pace::default(),
        };

        (read, write)
    }

    /// Returns true if this struct wraps around a secure connection.
    #[inline]
    pub(crate) fn secure(&self) -> bool {
        self.stream.secure()
    }

    pub(crate) fn peer_addr(&mut self) -> IoResult<Option<SocketAddr>> {
        self.stream.peer_addr()
    }

    /// varcat patch: writes fail once the deadline in `cell` has passed.
    pub(crate) fn with_deadline(
        mut self,
        cell: std::sync::Arc<std::sync::atomic::AtomicU64>,
    ) -> RefinedTcpStream {
        self.deadline = Some(cell);
        self
    }
}

impl Drop for RefinedTcpStream {
    fn drop(&mut self) {
        if self.close_read {
            self.stream.shutdown(Shutdown::Read).ok();
        }

        if self.close_write {
            self.stream.shutdown(Shutdown::Write).ok();
        }
    }
}

impl Read for RefinedTcpStream {
    fn read(&mut self, buf: &mut [u8]) -> IoResult<usize> {
        self.stream.read(buf)
    }
}

impl RefinedTcpStream {
    /// varcat patch: bytes written to the socket that its peer has not acknowledged yet
    /// (`SIOCOUTQ`; 0 when unknown): what the kernel queues is not what the client took.
    #[cfg(target_os = "linux")]
    #[allow(unsafe_code)] // ioctl has no std wrapper
    fn unsent(&self) -> u64 {
        use std::os::fd::AsRawFd;
        let fd = match &self.stream {
            Stream::Http(Connection::Tcp(s)) => s.as_raw_fd(),
            _ => return 0,
        };
        let mut n: libc::c_int = 0;
        // SAFETY: n is valid for writes of an int, which is what SIOCOUTQ stores.
        if unsafe { libc::ioctl(fd, libc::TIOCOUTQ, &mut n) } == 0 {
            n.max(0) as u64
        } else {
            0
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn unsent(&self) -> u64 {
        0
    }

    /// varcat patch: whether the response being written (started at `start`) has missed its
    /// deadline, moving the deadline on by what the client took since the last check.
    fn overdue(&mut self, start: u64) -> bool {
        let grace = crate::response_write_deadline().map_or(0, |d| d.as_micros() as u64);
        if self.pace.start != start {
            self.pace = Pace {
                start,
                written: 0,
                taken: 0,
                deadline: start + grace,
            };
            // The answer's first send: it began just now, well within a deadline of its own
            // (no clock read, which would cost as much as the check).
            if grace > 0 {
                return false;
            }
        }
        let now = crate::now_us();
        if now <= self.pace.deadline {
            return false;
        }
        let rate = crate::response_min_rate();
        if rate > 0 {
            let taken = self.pace.written.saturating_sub(self.unsent()).max(self.pace.taken);
            let earned = (taken - self.pace.taken).saturating_mul(1_000_000) / rate;
            self.pace.taken = taken;
            self.pace.deadline = (self.pace.deadline.saturating_add(earned)).min(now + grace);
        }
        now > self.pace.deadline
    }
}

impl Write for RefinedTcpStream {
    fn write(&mut self, buf: &[u8]) -> IoResult<usize> {
        self.send(|s| s.write(buf))
    }

    fn write_vectored(&mut self, bufs: &[std::io::IoSlice<'_>]) -> IoResult<usize> {
        self.send(|s| s.write_vectored(bufs))
    }

    fn flush(&mut self) -> IoResult<()> {
        self.stream.flush()
    }
}

impl RefinedTcpStream {
    /// One send by `f`: under a deadline, a send that timed out (SO_SNDTIMEO, a slice of the
    /// deadline) is tried again until the deadline passes; without one, it fails (varcat patch).
    fn send(&mut self, mut f: impl FnMut(&mut Stream) -> IoResult<usize>) -> IoResult<usize> {
        loop {
            let start = self
                .deadline
                .as_ref()
                .map_or(0, |c| c.load(std::sync::atomic::Ordering::Relaxed));
            if start != 0 && self.overdue(start) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the response's write deadline passed",
                ));
            }
            match f(&mut self.stream) {
                Err(e)
                    if start != 0
                        && matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ) => {}
                Ok(n) => {
                    self.pace.written += n as u64;
                    return Ok(n);
                }
                r => return r,
            }
        }
    }
}
