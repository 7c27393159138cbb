//! The few system calls the server needs that `std` does not offer, in one place: socket
//! options on the listener, the open-file limit, signals (SIGHUP, SIGTERM, SIGINT) and
//! descriptor identity. Each function that calls libc allows `unsafe_code` for that call
//! alone (the crate denies it), with a SAFETY comment at the block.

use std::io;
use std::net::TcpListener;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

#[allow(unsafe_code)] // setsockopt has no std wrapper
fn set_int_opt(fd: RawFd, level: libc::c_int, opt: libc::c_int, v: libc::c_int) -> io::Result<()> {
    // SAFETY: fd is an open socket owned by the caller; the option value is a plain int that
    // lives for the duration of the call.
    let r = unsafe {
        libc::setsockopt(
            fd,
            level,
            opt,
            &v as *const libc::c_int as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[allow(unsafe_code)] // getsockopt has no std wrapper
fn get_int_opt(fd: RawFd, level: libc::c_int, opt: libc::c_int) -> io::Result<libc::c_int> {
    let mut v: libc::c_int = 0;
    let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: v and len are valid for writes of their sizes for the duration of the call.
    let r = unsafe {
        libc::getsockopt(
            fd,
            level,
            opt,
            &mut v as *mut libc::c_int as *mut libc::c_void,
            &mut len,
        )
    };
    if r == 0 {
        Ok(v)
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Lets SIGPIPE end the process again, as it does for ordinary command-line tools (Rust ignores
/// it, so `varcat query … | head` met a broken pipe and panicked). Only for the one-shot
/// commands: the server must keep ignoring it, since clients hang up mid-answer.
#[allow(unsafe_code)] // std offers no signal dispositions
pub fn default_sigpipe() {
    // SAFETY: installs the default disposition; no handler code runs in signal context.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}

/// Sets `TCP_NODELAY` on a listening socket; Linux copies it to every accepted connection.
/// tiny_http writes responses through a 1 KiB buffer, so without it every keep-alive response
/// over ~1 KiB waits ~40 ms for a delayed ACK (Nagle).
pub fn set_nodelay(l: &TcpListener) -> io::Result<()> {
    set_int_opt(l.as_raw_fd(), libc::IPPROTO_TCP, libc::TCP_NODELAY, 1)
}

/// Raises the accept queue of a listening socket to `backlog` (the kernel caps it at
/// `net.core.somaxconn`). `std` listens with 128: when hundreds of clients connect at once,
/// tiny_http's accept thread (which spawns a thread per connection) falls behind, the queue
/// overflows, and clients see their first request time out or reset.
#[allow(unsafe_code)] // std cannot re-listen with another backlog
pub fn set_backlog(l: &TcpListener, backlog: i32) -> io::Result<()> {
    // SAFETY: listen on an already listening socket only updates its backlog.
    if unsafe { libc::listen(l.as_raw_fd(), backlog) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Whether `TCP_NODELAY` is set on a socket.
pub fn nodelay(fd: RawFd) -> io::Result<bool> {
    Ok(get_int_opt(fd, libc::IPPROTO_TCP, libc::TCP_NODELAY)? != 0)
}

/// Raises the soft open-file limit to the hard limit (tiny_http holds one thread and one
/// descriptor per open connection, and its accept loop dies on EMFILE). Returns the new limit.
#[allow(unsafe_code)] // getrlimit/setrlimit have no std wrapper
pub fn raise_nofile_limit() -> io::Result<u64> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: rl is valid for writes.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if rl.rlim_cur < rl.rlim_max {
        rl.rlim_cur = rl.rlim_max;
        // SAFETY: rl is a valid rlimit.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &rl) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every target
    Ok(rl.rlim_cur as u64)
}

/// Sets `SO_SNDTIMEO` on a listening socket; Linux copies it to every accepted connection
/// (unlike `SO_RCVTIMEO`, it does not make `accept()` time out). A worker writing to a client
/// that does not read then gets an error after `t` instead of blocking forever.
#[allow(unsafe_code)] // SO_SNDTIMEO on a listener has no std wrapper
pub fn set_send_timeout(l: &TcpListener, t: std::time::Duration) -> io::Result<()> {
    let tv = libc::timeval {
        tv_sec: t.as_secs() as libc::time_t,
        tv_usec: t.subsec_micros() as libc::suseconds_t,
    };
    // SAFETY: tv lives for the duration of the call and its size is passed.
    let r = unsafe {
        libc::setsockopt(
            l.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_SNDTIMEO,
            &tv as *const libc::timeval as *const libc::c_void,
            std::mem::size_of::<libc::timeval>() as libc::socklen_t,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Cuts a connection at once: `SO_LINGER` of zero, so its last close resets it and drops what
/// is still queued to send (a connection shut down with megabytes queued stays open, and holds
/// them, until the client reads them all), then shut down so its thread's next read ends.
#[allow(unsafe_code)] // SO_LINGER has no std wrapper
pub fn abort_connection(s: &std::net::TcpStream) {
    let lg = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: lg lives for the duration of the call and its size is passed.
    unsafe {
        libc::setsockopt(
            s.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            &lg as *const libc::linger as *const libc::c_void,
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        );
    }
    let _ = s.shutdown(std::net::Shutdown::Both);
}

/// The `SO_SNDTIMEO` of a socket.
#[allow(unsafe_code)] // getsockopt has no std wrapper
pub fn send_timeout(fd: RawFd) -> io::Result<std::time::Duration> {
    let mut tv = libc::timeval {
        tv_sec: 0,
        tv_usec: 0,
    };
    let mut len = std::mem::size_of::<libc::timeval>() as libc::socklen_t;
    // SAFETY: tv and len are valid for writes of their sizes.
    let r = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_SNDTIMEO,
            &mut tv as *mut libc::timeval as *mut libc::c_void,
            &mut len,
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(std::time::Duration::from_secs(tv.tv_sec as u64)
        + std::time::Duration::from_micros(tv.tv_usec as u64))
}

static HUP: AtomicBool = AtomicBool::new(false);
static STOPS: AtomicUsize = AtomicUsize::new(0);

#[allow(unsafe_code)] // _exit is the one async-signal-safe exit
extern "C" fn on_signal(sig: libc::c_int) {
    // Only async-signal-safe work here: atomics, and _exit on a second stop request.
    if sig == libc::SIGHUP {
        HUP.store(true, Ordering::SeqCst);
    } else if STOPS.fetch_add(1, Ordering::SeqCst) >= 1 {
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(1) };
    }
}

/// Installs the handlers of SIGHUP (reload: [`take_reload_request`]) and SIGTERM/SIGINT
/// (graceful stop: [`stop_requested`]; a second one exits at once with status 1). The
/// handlers only set flags, which the server's threads poll; `SA_RESTART` keeps every other
/// blocking call undisturbed.
#[allow(unsafe_code)] // sigaction has no std wrapper
pub fn install_signal_handlers() -> io::Result<()> {
    for sig in [libc::SIGHUP, libc::SIGTERM, libc::SIGINT] {
        // SAFETY: sa is zeroed (a valid empty sigaction) and then filled in; the handler is an
        // extern "C" fn that only touches atomics and calls _exit.
        let r = unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut())
        };
        if r != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Runs `f` with the signal's number, on a thread of its own, when SIGINT, SIGTERM or SIGHUP
/// arrives. The three are blocked in the calling thread and every thread it starts afterwards
/// (call it before starting any), so they reach only that thread's `sigwait`; `f` may then do
/// what a signal handler may not (take locks, remove files) before exiting.
#[allow(unsafe_code)] // signal masks and sigwait have no std wrapper
pub fn on_stop_signal(f: impl FnOnce(i32) + Send + 'static) -> io::Result<()> {
    // SAFETY: the set is initialised by sigemptyset before use; pthread_sigmask only changes
    // this thread's mask.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        let r = libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        if r != 0 {
            return Err(io::Error::from_raw_os_error(r));
        }
        set
    };
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut sig = 0;
            // SAFETY: set is a valid signal set, blocked in this thread (inherited).
            while unsafe { libc::sigwait(&set, &mut sig) } != 0 {}
            f(sig)
        })?;
    Ok(())
}

/// True once after each SIGHUP.
pub fn take_reload_request() -> bool {
    HUP.swap(false, Ordering::SeqCst)
}

/// True after SIGTERM or SIGINT.
pub fn stop_requested() -> bool {
    STOPS.load(Ordering::SeqCst) > 0
}

/// Stops a listening socket from accepting: a blocked `accept()` on any descriptor of it
/// returns an error, new connections are refused; accepted connections are untouched.
#[allow(unsafe_code)] // shutdown of a listener has no std wrapper
pub fn stop_listening(l: &TcpListener) -> io::Result<()> {
    // SAFETY: plain call on an open descriptor.
    if unsafe { libc::shutdown(l.as_raw_fd(), libc::SHUT_RDWR) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[allow(unsafe_code)] // fstat of a descriptor has no std wrapper
fn file_id(fd: RawFd) -> Option<(u64, u64)> {
    // SAFETY: st is valid for writes; fstat on a closed descriptor just fails.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return None;
    }
    #[allow(clippy::unnecessary_cast)] // dev_t/ino_t widths differ between targets
    Some((st.st_dev as u64, st.st_ino as u64))
}

/// Whether descriptor `fd` is still open on the same socket as `l` (tiny_http's accept thread
/// owns a duplicate of the listener and closes it when it dies, which is how the server
/// notices a dead accept loop, whether it ended on an error or panicked).
pub fn same_socket(fd: RawFd, l: &TcpListener) -> bool {
    match (file_id(fd), file_id(l.as_raw_fd())) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// The line a SIGBUS writes before the process ends (a leaked buffer, replaced on each load).
static SIGBUS_LINE: std::sync::atomic::AtomicPtr<Vec<u8>> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// Sets the line a SIGBUS prints: it names the catalog being served. The previous line is
/// leaked on purpose (a handler may be reading it; a few bytes per reload).
pub fn set_sigbus_line(catalog: &std::path::Path) {
    let line = format!(
        "varcat: SIGBUS reading the mapped catalog {}: the file was truncated or changed in \
         place while served; exiting\n",
        catalog.display()
    );
    let leaked = Box::into_raw(Box::new(line.into_bytes()));
    SIGBUS_LINE.store(leaked, Ordering::SeqCst);
}

#[allow(unsafe_code)] // write and _exit are the async-signal-safe calls a handler may make
extern "C" fn on_sigbus(_: libc::c_int) {
    let line = SIGBUS_LINE.load(Ordering::SeqCst);
    // SAFETY: a non-null pointer is a leaked, never freed Vec; write(2) and _exit(2) are
    // async-signal-safe, and nothing here allocates or locks.
    unsafe {
        if let Some(v) = line.as_ref() {
            libc::write(2, v.as_ptr() as *const libc::c_void, v.len());
        }
        libc::_exit(128 + libc::SIGBUS);
    }
}

/// Installs the SIGBUS handler: a page of the mapped catalog that is gone (the file was
/// truncated under the mapping before the server noticed) ends the process with the line of
/// [`set_sigbus_line`] and status 135, rather than the bare "Bus error" of the default action.
#[allow(unsafe_code)] // sigaction has no std wrapper
pub fn install_sigbus_handler() -> io::Result<()> {
    // SAFETY: sa is zeroed (a valid empty sigaction) and then filled in; the handler only
    // calls write and _exit.
    let r = unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_sigbus as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGBUS, &sa, std::ptr::null_mut())
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// An inotify descriptor watching one file for writes, truncation and attribute changes.
pub struct FileWatch(std::os::fd::OwnedFd);

impl FileWatch {
    /// Watches the file at `path` (the inode it names now). None where inotify is not
    /// available (the caller then polls).
    #[allow(unsafe_code)] // inotify has no std wrapper
    pub fn new(path: &std::path::Path) -> Option<FileWatch> {
        use std::os::fd::FromRawFd;
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
        // SAFETY: plain calls; a returned descriptor is owned by the FileWatch at once.
        unsafe {
            let fd = libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC);
            if fd < 0 {
                return None;
            }
            let watch = FileWatch(std::os::fd::OwnedFd::from_raw_fd(fd));
            let mask = libc::IN_MODIFY | libc::IN_ATTRIB | libc::IN_CLOSE_WRITE;
            (libc::inotify_add_watch(fd, c.as_ptr(), mask) >= 0).then_some(watch)
        }
    }

    /// Waits at most `t` for an event; true if one came (events are drained).
    #[allow(unsafe_code)] // poll and read of an inotify descriptor have no std wrapper
    pub fn wait(&self, t: std::time::Duration) -> bool {
        let fd = self.0.as_raw_fd();
        let mut p = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: p is one valid pollfd; buf is valid for writes of its length.
        unsafe {
            if libc::poll(&mut p, 1, t.as_millis().min(60_000) as libc::c_int) <= 0 {
                return false;
            }
            let mut buf = [0u8; 4096];
            while libc::read(fd, buf.as_mut_ptr() as *mut libc::c_void, buf.len()) > 0 {}
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_nodelay_on_listener_is_inherited() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        set_nodelay(&l).unwrap();
        assert!(nodelay(l.as_raw_fd()).unwrap());
        let c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        assert!(
            nodelay(s.as_raw_fd()).unwrap(),
            "accepted socket lacks TCP_NODELAY"
        );
        drop(c);
    }

    #[test]
    fn test_send_timeout_is_inherited() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        set_send_timeout(&l, std::time::Duration::from_millis(1500)).unwrap();
        let c = std::net::TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (s, _) = l.accept().unwrap();
        assert_eq!(
            send_timeout(s.as_raw_fd()).unwrap(),
            std::time::Duration::from_millis(1500)
        );
        drop((c, s));
    }

    #[test]
    fn test_same_socket_and_stop_listening() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let dup = l.try_clone().unwrap();
        let fd = dup.as_raw_fd();
        assert!(same_socket(fd, &l));
        let other = TcpListener::bind("127.0.0.1:0").unwrap();
        assert!(!same_socket(other.as_raw_fd(), &l));
        // A blocked accept on the duplicate wakes with an error once the socket stops.
        let t = std::thread::spawn(move || dup.accept().map(|_| ()));
        std::thread::sleep(std::time::Duration::from_millis(100));
        stop_listening(&l).unwrap();
        assert!(t.join().unwrap().is_err());
        assert!(
            !same_socket(fd, &l),
            "the dead thread's descriptor is closed"
        );
        assert!(std::net::TcpStream::connect(addr).is_err());
    }
}
