//! The handler's share of a request's CPU. A bench build of varcat times every request in the
//! application (`App::answer`: routing, parameters, handler, JSON) and answers the sums at
//! `/api/__floor/handler`; the bench reads them around each run. A server without that path (a
//! normal build) leaves the figure to [`in_process_us`]: the same requests answered by the
//! server's `App` in this process, which moves with whatever else this process and the machine
//! do.

use std::time::Instant;

use varcat_server::http::App;

use super::server::open;

/// What the server's handler clock had counted when read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Reading {
    requests: u64,
    nanos: u64,
}

impl Reading {
    /// The mean µs per request the server spent in its application between `before` and this
    /// reading (None when it answered none).
    pub(super) fn us_since(&self, before: &Reading) -> Option<f64> {
        let n = self.requests.checked_sub(before.requests)?;
        let t = self.nanos.checked_sub(before.nanos)?;
        (n > 0).then(|| t as f64 / n as f64 / 1000.0)
    }
}

/// The reading in a body `{"requests":N,"handler_ns":T}`.
pub(super) fn parse(body: &[u8]) -> Option<Reading> {
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    Some(Reading {
        requests: v.get("requests")?.as_u64()?,
        nanos: v.get("handler_ns")?.as_u64()?,
    })
}

/// The server's handler clock now; None when it has none (404: built without the bench floor).
/// The server leaves these readings out of its sums.
pub(super) fn read(addr: &str) -> Result<Option<Reading>, String> {
    let mut c = open(addr).map_err(|e| e.to_string())?;
    let a = c.get("/api/__floor/handler").map_err(|e| e.to_string())?;
    match a.status {
        404 => Ok(None),
        200 => parse(&a.body)
            .map(Some)
            .ok_or_else(|| format!("/api/__floor/handler answered {:?}", a.text())),
        s => Err(format!("/api/__floor/handler answered {s}")),
    }
}

/// The handler's share measured in this process: `urls` answered by the server's own `App` on
/// one thread (routing, parameters, handler, JSON; no sockets, no HTTP parsing or writing),
/// mean µs per request over at least `secs` seconds, after one untimed pass over `urls`: this
/// process maps the catalog afresh, and the first touch of each page is a page fault the warm
/// server no longer takes.
pub(super) fn in_process_us(app: &App, urls: &[String], secs: f64) -> f64 {
    urls.iter().for_each(|u| {
        answer(app, u);
    });
    let t = Instant::now();
    let mut n = 0u64;
    while n < urls.len() as u64 || t.elapsed().as_secs_f64() < secs {
        answer(app, &urls[n as usize % urls.len()]);
        n += 1;
    }
    t.elapsed().as_secs_f64() * 1e6 / n as f64
}

/// The server's `App` over `catalog`, opened in this process (checksums not verified).
pub(super) fn open_app(catalog: &std::path::Path) -> Result<App, String> {
    varcat_server::http::Loaded::open(catalog, false)
        .map(|l| App::new(l, "/api"))
        .map_err(|e| format!("{}: {e}", catalog.display()))
}

/// A GET of `url` answered by `app`, its buffers then given back as the server gives them
/// back once an answer is written; the body's bytes.
fn answer(app: &App, url: &str) -> usize {
    let req = varcat_server::http::Request {
        method: "GET",
        url,
        ..Default::default()
    };
    let r = std::hint::black_box(app.handle(&req));
    let bytes = r.body.len();
    varcat_server::http::message::give_back(r);
    bytes
}

/// `--handlers R`: only the handlers, no server. Each group's URLs are answered by the
/// server's `App` in this process on one thread, one untimed pass then `rounds` timed ones, and
/// the median, fastest and slowest pass are printed in µs per answer with the mean answer's
/// bytes. No sockets and no other process, so the figure moves less with the machine than
/// the servers' do; under `valgrind --tool=cachegrind` its passes count instructions, which do
/// not move at all (`scripts/handler-instructions.sh`).
pub(super) fn passes(
    catalog: &std::path::Path,
    sets: &[(String, Vec<String>)],
    rounds: usize,
) -> Result<(), String> {
    let app = open_app(catalog)?;
    println!("\nhandlers in this process: µs per answer over {rounds} passes of each group's URLs");
    println!("| group | answers a pass | median | fastest | slowest | bytes an answer |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (g, urls) in sets {
        let pass = || {
            let t = Instant::now();
            let bytes: usize = urls.iter().map(|u| answer(&app, u)).sum();
            (
                t.elapsed().as_secs_f64() * 1e6 / urls.len().max(1) as f64,
                bytes,
            )
        };
        let (_, bytes) = pass();
        let mut us: Vec<f64> = (0..rounds).map(|_| pass().0).collect();
        us.sort_by(f64::total_cmp);
        let at = |i: usize| us.get(i).map_or("-".to_string(), |&u| format!("{u:.2}"));
        println!(
            "| {g} | {} | {} | {} | {} | {} |",
            urls.len(),
            at(rounds / 2),
            at(0),
            at(rounds.saturating_sub(1)),
            bytes / urls.len().max(1)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_readings_parse_and_give_the_mean_between_them() {
        let a = parse(br#"{"requests":10,"handler_ns":5000}"#).unwrap();
        let b = parse(br#"{"requests":30,"handler_ns":65000}"#).unwrap();
        assert_eq!(b.us_since(&a), Some(3.0));
        assert_eq!(a.us_since(&a), None, "no request between");
        assert_eq!(a.us_since(&b), None, "a counter that went back");
        for bad in [
            &br#"{"requests":10}"#[..],
            br#"{"requests":-1,"handler_ns":5}"#,
            br#"{"message":"no endpoint","code":"NOT_FOUND"}"#,
            b"not json",
        ] {
            assert_eq!(parse(bad), None, "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn test_a_server_without_the_clock_reads_none() {
        use std::io::{Read, Write};
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        std::thread::spawn(move || {
            for (i, mut s) in l.incoming().flatten().enumerate() {
                let mut b = [0u8; 1024];
                let _ = s.read(&mut b);
                let body = r#"{"requests":7,"handler_ns":700}"#;
                let answer = if i == 0 {
                    "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".to_string()
                } else {
                    format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{body}",
                        body.len()
                    )
                };
                let _ = s.write_all(answer.as_bytes());
            }
        });
        assert_eq!(read(&addr), Ok(None));
        assert_eq!(
            read(&addr),
            Ok(Some(Reading {
                requests: 7,
                nanos: 700
            }))
        );
    }
}
