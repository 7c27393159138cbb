//! The system calls only the bench needs, kept out of the server: dropping a file from the page
//! cache, which of its pages are resident, and the block device's read counters. Each function
//! that calls libc allows `unsafe_code` for that call alone (the crate denies it), with a
//! SAFETY comment at the block.

use std::io;
use std::os::fd::AsRawFd;

/// Drops the page cache of the file at `path` (`posix_fadvise(DONTNEED)`), for cold-cache
/// benchmarks. Pages still mapped by a running process stay resident: stop the server first.
#[allow(unsafe_code)] // posix_fadvise has no std wrapper
pub fn evict_page_cache(path: &std::path::Path) -> io::Result<()> {
    let f = std::fs::File::open(path)?;
    // SAFETY: f is an open file for the duration of the call.
    let r = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(r))
    }
}

/// The block device's read counters for the file system holding `path`: (reads completed,
/// sectors read) from `/sys/dev/block/MAJ:MIN/stat`, so a cold benchmark can count the disk
/// reads its requests caused. Errors where the file system has no block device (tmpfs,
/// overlay): the caller reports "n/a".
pub fn device_reads(path: &std::path::Path) -> io::Result<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let dev = std::fs::metadata(path)?.dev();
    let (major, minor) = (libc::major(dev), libc::minor(dev));
    let stat = std::fs::read_to_string(format!("/sys/dev/block/{major}:{minor}/stat"))?;
    // Fields: reads completed, reads merged, sectors read, ... (Documentation/block/stat.rst).
    let f: Vec<u64> = stat
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0))
        .collect();
    match (f.first(), f.get(2)) {
        (Some(&reads), Some(&sectors)) => Ok((reads, sectors)),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("/sys/dev/block/{major}:{minor}/stat: too few fields"),
        )),
    }
}

/// How many of the file's pages are in the page cache: (resident, total), via `mincore`.
pub fn resident_pages(path: &std::path::Path) -> io::Result<(usize, usize)> {
    let map = resident_map(path)?;
    Ok((map.iter().filter(|&&r| r).count(), map.len()))
}

/// Which of the file's 4 KiB pages are in the page cache (`mincore`), one flag per page, so a
/// cold benchmark can say which sections its requests read.
#[allow(unsafe_code)] // mmap and mincore have no std wrapper
pub fn resident_map(path: &std::path::Path) -> io::Result<Vec<bool>> {
    let f = std::fs::File::open(path)?;
    let len = f.metadata()?.len() as usize;
    if len == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: sysconf has no memory-safety preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as usize;
    let pages = len.div_ceil(page);
    // SAFETY: a fresh read-only shared mapping of an open file; unmapped below, never read.
    let addr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ,
            libc::MAP_SHARED,
            f.as_raw_fd(),
            0,
        )
    };
    if addr == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    let mut vec = vec![0u8; pages];
    // SAFETY: addr..addr+len is the mapping made above; vec has one byte per page.
    let r = unsafe { libc::mincore(addr, len, vec.as_mut_ptr()) };
    let err = io::Error::last_os_error();
    // SAFETY: unmapping exactly the mapping made above.
    unsafe { libc::munmap(addr, len) };
    if r != 0 {
        return Err(err);
    }
    // Pages larger than 4 KiB (some arm64 kernels) count as all of their 4 KiB parts.
    let per = page / 4096;
    Ok(vec
        .iter()
        .flat_map(|&b| std::iter::repeat_n(b & 1 != 0, per))
        .take(len.div_ceil(4096))
        .collect())
}

/// Clock ticks per second (`sysconf(_SC_CLK_TCK)`), the unit of `/proc/<pid>/stat` CPU times.
#[allow(unsafe_code)] // sysconf has no std wrapper
pub fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf has no memory-safety preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as u64
    } else {
        100
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_device_reads_count_up_or_report_no_device() {
        let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        match device_reads(here) {
            Ok((reads, sectors)) => {
                let (r2, s2) = device_reads(here).unwrap();
                assert!(r2 >= reads && s2 >= sectors, "counters never go down");
            }
            // No block device behind this file system (tmpfs, overlay): that is the error kind.
            Err(e) => assert_eq!(e.kind(), io::ErrorKind::NotFound, "{e}"),
        }
    }

    #[test]
    fn test_resident_map_has_a_flag_per_page_and_sees_fresh_writes() {
        let dir = std::env::temp_dir().join(format!("varcat-sys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("three-pages");
        std::fs::write(&path, vec![7u8; 2 * 4096 + 1]).unwrap();
        let map = resident_map(&path).unwrap();
        // Just written, so in the page cache whatever the file system.
        assert_eq!(map, vec![true; 3]);
        assert_eq!(resident_pages(&path).unwrap(), (3, 3));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
