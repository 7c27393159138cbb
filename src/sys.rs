//! The few system calls the server needs that `std` does not offer, in one place: socket
//! options on the listener, the open-file limit, signals (SIGHUP, SIGTERM, SIGINT) and
//! descriptor identity.
#![allow(unsafe_code)]

use std::io;
use std::net::TcpListener;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

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

/// Sets `TCP_NODELAY` on a listening socket; Linux copies it to every accepted connection.
/// tiny_http writes responses through a 1 KiB buffer, so without it every keep-alive response
/// over ~1 KiB waits ~40 ms for a delayed ACK (Nagle).
pub fn set_nodelay(l: &TcpListener) -> io::Result<()> {
    set_int_opt(l.as_raw_fd(), libc::IPPROTO_TCP, libc::TCP_NODELAY, 1)
}

/// Whether `TCP_NODELAY` is set on a socket.
pub fn nodelay(fd: RawFd) -> io::Result<bool> {
    Ok(get_int_opt(fd, libc::IPPROTO_TCP, libc::TCP_NODELAY)? != 0)
}

/// Raises the soft open-file limit to the hard limit (tiny_http holds one thread and one
/// descriptor per open connection, and its accept loop dies on EMFILE). Returns the new limit.
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

static HUP: AtomicBool = AtomicBool::new(false);
static STOPS: AtomicUsize = AtomicUsize::new(0);

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
pub fn stop_listening(l: &TcpListener) -> io::Result<()> {
    // SAFETY: plain call on an open descriptor.
    if unsafe { libc::shutdown(l.as_raw_fd(), libc::SHUT_RDWR) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

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
