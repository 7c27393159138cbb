//! Keeping the served catalog in step with its file: a reload on SIGHUP or when another file is
//! renamed over the path (requests in flight finish on the mapping they started with; a bad
//! file is refused and the old one keeps serving), and, when the mapped file itself is changed
//! in place (`truncate`, `cp` over it), no more reads of the mapping until a valid file is at
//! the path again.
//!
//! A change in place is noticed through inotify on the mapped file (the thread wakes at the
//! first write or truncation) and, where inotify is unavailable, by `fstat` of the mapped
//! descriptor every [`TICK`]. What remains is the time between the first write and the
//! watcher marking the catalog down (scheduling latency, microseconds when idle) and the
//! requests already reading the mapping then: one of those may still meet a page that is gone,
//! and the SIGBUS handler ([`crate::sys::install_sigbus_handler`]) ends the process with a line
//! naming the catalog.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::http::{App, Loaded};
use crate::sys;

/// How often the path is checked for a file renamed over it.
pub const WATCH_INTERVAL: Duration = Duration::from_secs(1);
/// How often the mapped file is checked when no inotify event comes (and signals are polled).
pub const TICK: Duration = Duration::from_millis(50);
/// After a change in place, the file at the path is loaded once its size and modification
/// time have not changed for this long (a `cp` still writing it is not read half-written).
pub const STABLE: Duration = Duration::from_secs(1);

/// Identity of the file at a path (device, inode, size, modification time): a replacement
/// (rename over it) or a rewrite changes it.
type PathStamp = Option<(u64, u64, u64, i64, i64)>;

fn path_stamp(path: &Path) -> PathStamp {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some((m.dev(), m.ino(), m.size(), m.mtime(), m.mtime_nsec()))
}

/// Opens the catalog at `path` and swaps it in; a bad file is refused with one log line and
/// the current catalog keeps serving (or, if it was taken down, nothing does).
pub fn reload(app: &App, path: &Path, verify: bool, why: &str) -> bool {
    let start = Instant::now();
    let opened = std::panic::catch_unwind(|| Loaded::open(path, verify).map_err(|e| e.to_string()))
        .unwrap_or_else(|_| Err("the file could not be read (panic while opening)".into()));
    match opened {
        Ok(loaded) => {
            let (bytes, sum) = (loaded.cat.catalog.file_len(), loaded.cat.catalog.checksum());
            app.replace(loaded);
            sys::set_sigbus_line(path);
            eprintln!(
                "varcat: reloaded catalog {} ({bytes} bytes, checksum {sum:016x}{}) on {why} in {} ms",
                path.display(),
                if verify { ", all checksums verified" } else { "" },
                start.elapsed().as_millis()
            );
            true
        }
        Err(e) if app.unavailable().is_some() => {
            eprintln!(
                "varcat: reload on {why} refused, still answering 503: {}: {e}",
                path.display()
            );
            false
        }
        Err(e) => {
            eprintln!(
                "varcat: reload on {why} refused, still serving checksum {:016x}: {}: {e}",
                app.current().cat.catalog.checksum(),
                path.display()
            );
            false
        }
    }
}

/// Watches the catalog at `path` until the server stops: see the module documentation.
/// `verify` applies to reloads of a file renamed over the path; a file that replaces one
/// changed in place is always verified whole (the change may have been a partial copy).
pub fn watch_catalog(app: Arc<App>, path: PathBuf, verify: bool) {
    let mut inotify = sys::FileWatch::new(&path);
    let mut seen = path_stamp(&path);
    let mut last_check = Instant::now();
    // While the catalog is down: the path's stamp, since when it has held, and whether a load
    // of that stamp was already tried.
    let mut settling: Option<(PathStamp, Instant, bool)> = None;
    loop {
        match &inotify {
            Some(w) => {
                w.wait(TICK);
            }
            None => std::thread::sleep(TICK),
        }
        if sys::stop_requested() {
            return;
        }
        let hup = sys::take_reload_request();
        // Down (noticed here, or by a request that met the change first): wait for a file.
        if settling.is_none() && app.check_mapped_file().is_some() {
            settling = Some((path_stamp(&path), Instant::now(), false));
            continue;
        }
        if let Some((stamp, since, tried)) = &mut settling {
            let now = path_stamp(&path);
            if now != *stamp {
                (*stamp, *since, *tried) = (now, Instant::now(), false);
            }
            if now.is_some() && (hup || (!*tried && since.elapsed() >= STABLE)) {
                *tried = true;
                let why = if hup { "SIGHUP" } else { "file change" };
                if reload(&app, &path, true, why) {
                    settling = None;
                    seen = path_stamp(&path);
                    inotify = sys::FileWatch::new(&path);
                }
            }
            continue;
        }
        if hup {
            seen = path_stamp(&path);
            last_check = Instant::now();
            if reload(&app, &path, verify, "SIGHUP") {
                inotify = sys::FileWatch::new(&path);
            }
        } else if last_check.elapsed() >= WATCH_INTERVAL {
            last_check = Instant::now();
            let now = path_stamp(&path);
            if now.is_some() && now != seen {
                seen = now;
                if reload(&app, &path, verify, "file change") {
                    inotify = sys::FileWatch::new(&path);
                }
            }
        }
    }
}
