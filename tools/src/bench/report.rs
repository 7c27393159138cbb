//! Figures as the report prints them.

pub(super) fn fmt_us(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.1} ms", us / 1000.0)
    } else if us >= 1000.0 {
        format!("{:.2} ms", us / 1000.0)
    } else {
        format!("{us:.0} µs")
    }
}

/// µs to a tenth (CPU shares a few µs apart).
pub(super) fn fmt_tenths(us: f64) -> String {
    if us.abs() >= 1000.0 {
        fmt_us(us)
    } else {
        format!("{us:.1} µs")
    }
}
