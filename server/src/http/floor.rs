//! Benchmark aid, compiled only into a bench build (the `bench-floor` feature, which no
//! workspace package enables, so the shipped binary never has it): `GET {base}/__floor?bytes=N`
//! answers a fixed JSON body of N bytes (2 ≤ N ≤ 16 MiB) through the same server, worker and
//! response path as an endpoint, without routing or a handler: the HTTP floor BENCHMARKS.md
//! compares every endpoint with. Not in the endpoint table.

use varcat_query::handler::Answer;

/// The body size `{rest}?{query}` (below the base path) asks the floor for, if it is the floor.
pub fn bytes(rest: &str, query: &str) -> Option<usize> {
    if rest != "/__floor" {
        return None;
    }
    let n: usize = query.strip_prefix("bytes=")?.parse().ok()?;
    (2..=16 << 20).contains(&n).then_some(n)
}

/// A fixed body of `n` bytes: `[`, spaces, `]`.
pub fn answer(n: usize) -> Answer {
    let mut body = vec![b' '; n];
    (body[0], body[n - 1]) = (b'[', b']');
    body.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_floor_sizes() {
        assert_eq!(bytes("/__floor", "bytes=2"), Some(2));
        assert_eq!(bytes("/__floor", "bytes=1"), None);
        assert_eq!(bytes("/__floor", "bytes=16777217"), None);
        assert_eq!(bytes("/genes", "bytes=10"), None);
        assert_eq!(answer(4).body, b"[  ]");
    }
}
