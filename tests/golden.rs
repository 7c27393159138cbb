//! Golden answers: every example of the landing page, plain, with `verbose=true`, `page=1` and
//! `limit=2&page=1`, answered by the catalog built from testdata with the working tree, must be
//! byte for byte the answers in `tests/golden/sample-v2.txt`, which the format-v2 code rendered
//! (issue 24: the v3 format must not change a single answer).
//!
//! The file is what `scripts/golden.sh` writes: for each request a line `### <path?query>`, the
//! body, a newline, the status code and a newline. Only status and body are compared (no
//! headers: nothing that varies between runs, such as a date).
//!
//! Regenerating, only when an answer change is intended (a new or changed example, a fixed
//! bug), never to make a format change pass: with the binary of the commit whose answers are
//! meant,
//!
//! ```sh
//! cargo build --release
//! target/release/varcat build testdata/catalog -o /tmp/sample.varcat
//! scripts/golden.sh target/release/varcat /tmp/sample.varcat tests/golden/sample-v2.txt
//! ```
//!
//! (or `VARCAT_GOLDEN_WRITE=1 cargo test --test e2e golden`, which writes the file from this
//! test's server), and commit the file on its own, saying which answers changed and why.

use std::fmt::Write as _;

use crate::util::{request, root, server};

const GOLDEN: &str = "tests/golden/sample-v2.txt";

/// The landing page's example links, in page order (as `scripts/golden.sh` extracts them).
fn examples(addr: &str) -> Vec<String> {
    let page = request(addr, "GET", "/", &[]);
    assert_eq!(page.status, 200, "landing page");
    let html = page.text();
    html.split("class=\"example\" href=\"")
        .skip(1)
        .map(|s| s[..s.find('"').expect("closing quote")].replace("&amp;", "&"))
        .collect()
}

/// One section of the golden file for `target`, exactly as `scripts/golden.sh` writes it.
fn section(addr: &str, target: &str) -> String {
    let r = request(addr, "GET", target, &[]);
    let body = String::from_utf8(r.body).expect("UTF-8 body");
    format!("### {target}\n{body}\n{}\n", r.status)
}

/// Splits the golden text into (target, whole section) pairs.
fn sections(text: &str) -> Vec<(&str, &str)> {
    let mut starts: Vec<usize> = text.match_indices("### /").map(|(i, _)| i).collect();
    // A section begins at the start of the file or after a newline (a body never holds one).
    starts.retain(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n');
    starts.push(text.len());
    starts
        .windows(2)
        .map(|w| {
            let s = &text[w[0]..w[1]];
            (&s[4..s.find('\n').unwrap_or(s.len())], s)
        })
        .collect()
}

#[test]
fn golden_answers_are_unchanged() {
    let addr = &server().addr;
    let examples = examples(addr);
    assert!(examples.len() > 100, "few examples: {}", examples.len());
    let mut got = String::new();
    for u in &examples {
        let sep = if u.contains('?') { '&' } else { '?' };
        for v in [
            u.clone(),
            format!("{u}{sep}verbose=true"),
            format!("{u}{sep}page=1"),
            format!("{u}{sep}limit=2&page=1"),
        ] {
            write!(got, "{}", section(addr, &v)).unwrap();
        }
    }
    let path = root().join(GOLDEN);
    if std::env::var_os("VARCAT_GOLDEN_WRITE").is_some() {
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap();
    if got == want {
        return;
    }
    let (g, w) = (sections(&got), sections(&want));
    for (i, ((gt, gs), (wt, ws))) in g.iter().zip(&w).enumerate() {
        assert_eq!(
            gt, wt,
            "request {i}: the examples changed ({gt} where {GOLDEN} has {wt}); regenerate \
             the file if intended (see tests/golden.rs)"
        );
        if gs != ws {
            let at = gs
                .bytes()
                .zip(ws.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            let around = |s: &str| {
                let mut from = at.saturating_sub(80);
                let mut to = (at + 80).min(s.len());
                while !s.is_char_boundary(from) {
                    from -= 1;
                }
                while !s.is_char_boundary(to) {
                    to += 1;
                }
                s[from..to].to_string()
            };
            panic!(
                "first differing answer: {gt} (byte {at} of its section)\n--- got ---\n{}\n--- want ---\n{}",
                around(gs),
                around(ws)
            );
        }
    }
    panic!(
        "{} requests answered, {GOLDEN} holds {}; regenerate the file if the examples \
         changed on purpose (see tests/golden.rs)",
        g.len(),
        w.len()
    );
}
