//! The `Date` header's value, formatted once a second per thread.

use std::cell::RefCell;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Length of an HTTP date.
const LEN: usize = 29;

/// A thread's last formatted date and the span of the monotonic clock it holds for.
struct Cached {
    from: Instant,
    until: Instant,
    text: [u8; LEN],
}

/// Appends the HTTP date (`Wed, 25 Nov 2026 21:15:00 GMT`) of `now` (a monotonic time the caller has already read, so that a
/// request reads the clock once): the wall clock is read only when `now` leaves the second the
/// thread formatted last.
pub fn write_date(now: Instant, out: &mut Vec<u8>) {
    thread_local! {
        static LAST: RefCell<Option<Cached>> = const { RefCell::new(None) };
    }
    LAST.with_borrow_mut(|last| {
        let fresh = last
            .as_ref()
            .is_some_and(|c| (c.from..c.until).contains(&now));
        if !fresh {
            // The wall clock at `now` (read a moment later).
            let since = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .saturating_sub(Instant::now().saturating_duration_since(now));
            let mut text = [0u8; LEN];
            let date = http_date(since.as_secs());
            let n = date.len().min(LEN);
            text[..n].copy_from_slice(&date.as_bytes()[..n]);
            let left = Duration::from_secs(1) - Duration::from_nanos(since.subsec_nanos().into());
            *last = Some(Cached {
                from: now,
                until: now + left,
                text,
            });
        }
        out.extend_from_slice(&last.as_ref().expect("just set").text);
    });
}

/// `secs` since the Unix epoch as an HTTP date (IMF-fixdate, RFC 9110 §5.6.7).
fn http_date(secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{}, {day:02} {} {year} {:02}:{:02}:{:02} GMT",
        DAYS[(days % 7) as usize],
        MONTHS[(month - 1) as usize],
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_http_date() {
        assert_eq!(http_date(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(http_date(951_782_400), "Tue, 29 Feb 2000 00:00:00 GMT");
        assert_eq!(http_date(1_795_641_300), "Wed, 25 Nov 2026 21:15:00 GMT");
        let mut out = Vec::new();
        write_date(Instant::now(), &mut out);
        assert_eq!(out.len(), LEN);
    }

    #[test]
    fn test_a_date_is_formatted_again_once_its_second_is_over() {
        let now = Instant::now();
        let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
        write_date(now, &mut a);
        write_date(now, &mut b);
        assert_eq!(a, b, "the same instant, another date");
        let Some(before) = now.checked_sub(Duration::from_secs(2)) else {
            return;
        };
        write_date(before, &mut c);
        assert_ne!(a, c, "the date of two seconds before reused");
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let near: Vec<String> = (secs - 4..=secs).map(http_date).collect();
        let c = String::from_utf8(c).unwrap();
        assert!(near.contains(&c), "{c} is not near the wall clock");
    }
}
