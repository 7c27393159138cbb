//! The `Date` header's value, formatted once a second per thread.

/// The current time as an HTTP date (`Wed, 25 Nov 2026 21:15:00 GMT`), formatted once a second
/// per thread.
pub fn date_now() -> String {
    thread_local! {
        static LAST: std::cell::RefCell<(u64, String)> = const { std::cell::RefCell::new((u64::MAX, String::new())) };
    }
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    LAST.with(|l| {
        let mut l = l.borrow_mut();
        if l.0 != secs {
            *l = (secs, http_date(secs));
        }
        l.1.clone()
    })
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
        assert_eq!(date_now().len(), 29);
    }
}
