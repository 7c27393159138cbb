//! Replays every committed fuzz seed through the same functions the fuzz targets call, so CI
//! exercises them on the stable toolchain without a fuzzer.

use crate::util::root;

fn replay(target: &str, f: fn(&[u8])) {
    let dir = root().join("fuzz/seeds").join(target);
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        f(&bytes);
        n += 1;
    }
    assert!(n > 0, "no seeds in {}", dir.display());
}

#[test]
fn test_seeds_replay() {
    replay("query_string", varcat::fuzzing::query_string);
    replay("region", varcat::fuzzing::region);
    replay("values", varcat::fuzzing::values);
    replay("params", varcat::fuzzing::params);
    replay("catalog_open", varcat::fuzzing::catalog_open);
    replay("adjacency", varcat::fuzzing::adjacency);
    replay("annotate", varcat::fuzzing::annotate);
}

#[test]
fn test_request_seeds_replay() {
    // The request target builds the sample catalog itself; here the one the tests built is used.
    static APP: std::sync::OnceLock<varcat_server::http::App> = std::sync::OnceLock::new();
    let app = APP.get_or_init(|| {
        let loaded = varcat_server::http::Loaded::open(crate::util::catalog(), false).unwrap();
        varcat_server::http::App::new(loaded, "/api")
    });
    let dir = root().join("fuzz/seeds/request");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(e.unwrap().path()).unwrap();
        varcat::fuzzing::request_with(app, &bytes);
        n += 1;
    }
    assert!(n > 0, "no seeds in {}", dir.display());
}
