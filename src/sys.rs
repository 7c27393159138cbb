//! The few system calls the server needs that `std` does not offer, in one place: socket
//! options on the listener, the open-file limit.
#![allow(unsafe_code)]

use std::io;
use std::net::TcpListener;
use std::os::fd::{AsRawFd, RawFd};

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
}
