//! The command line of `varcat-bench`.

use std::path::PathBuf;

use lexopt::prelude::*;

pub(super) const GROUPS: [&str; 11] = [
    "health",
    "point",
    "region",
    "assoc",
    "verbose",
    "name",
    "closure",
    "summary",
    "phenotype",
    "scores",
    "lookup",
];

pub(super) const USAGE: &str = "\
usage: varcat-bench <catalog> --variants N [--seed S] [--conns 1,64] [--secs 5] [--threads 2]
                    [--groups health,point,region,assoc,verbose,name,closure,summary,
                              phenotype,scores,lookup] [--cold]
                    [--cold-secs 2] [--no-warm] [--urls 4096] [--bin target/release/varcat]
                    [--peer-threads 1] [--handlers R]
The catalog must come from `varcat synth --variants N --seed S` (query targets come from the
generator's plan). --peer-threads: threads of the h2o and axum floors (1: one event loop each, as
the field's single-threaded figures; 2 on two cores: event loops on every core, the fair peer
of varcat's threads at many connections). --handlers R: no servers; each group's URLs answered
in this process, R timed passes (µs per answer; instructions under cachegrind).";

pub(super) struct Args {
    pub(super) catalog: PathBuf,
    pub(super) variants: u64,
    pub(super) seed: u64,
    pub(super) conns: Vec<usize>,
    pub(super) secs: f64,
    pub(super) cold_secs: f64,
    pub(super) cold_requests: usize,
    pub(super) threads: usize,
    pub(super) groups: Vec<String>,
    pub(super) warm: bool,
    pub(super) cold: bool,
    pub(super) bin: PathBuf,
    pub(super) urls: usize,
    pub(super) peer_threads: usize,
    /// `--handlers R`: only the handlers, in this process, R timed passes (0: the servers).
    pub(super) handlers: usize,
}

pub(super) fn parse_args() -> Result<Args, String> {
    parse_from(std::env::args_os().skip(1))
}

/// The arguments `args` (without the program's name).
fn parse_from(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Args, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut a = Args {
        catalog: PathBuf::new(),
        variants: 0,
        seed: 1,
        conns: vec![64],
        secs: 5.0,
        cold_secs: 10.0,
        cold_requests: 1000,
        threads: 2,
        groups: GROUPS.iter().map(|s| s.to_string()).collect(),
        warm: true,
        cold: false,
        bin: exe.with_file_name("varcat"),
        urls: 4096,
        peer_threads: 1,
        handlers: 0,
    };
    let mut p = lexopt::Parser::from_args(args);
    let s = crate::args::value;
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("variants") => a.variants = s(&mut p)?.parse().map_err(|_| "--variants N")?,
            Long("seed") => a.seed = s(&mut p)?.parse().map_err(|_| "--seed N")?,
            Long("conns") => {
                a.conns = s(&mut p)?
                    .split(',')
                    .map(|c| c.trim().parse().map_err(|_| "--conns N[,N…]"))
                    .collect::<Result<_, _>>()?
            }
            Long("secs") => a.secs = s(&mut p)?.parse().map_err(|_| "--secs S")?,
            Long("cold-secs") => a.cold_secs = s(&mut p)?.parse().map_err(|_| "--cold-secs S")?,
            Long("cold-requests") => {
                a.cold_requests = s(&mut p)?.parse().map_err(|_| "--cold-requests N")?
            }
            Long("threads") => a.threads = s(&mut p)?.parse().map_err(|_| "--threads N")?,
            Long("peer-threads") => {
                a.peer_threads = s(&mut p)?
                    .parse()
                    .ok()
                    .filter(|&n| (1..=64).contains(&n))
                    .ok_or("--peer-threads N (1 to 64)")?
            }
            Long("handlers") => {
                a.handlers = s(&mut p)?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--handlers R (passes, at least 1)")?
            }
            Long("urls") => a.urls = s(&mut p)?.parse().map_err(|_| "--urls N")?,
            Long("groups") => a.groups = s(&mut p)?.split(',').map(str::to_string).collect(),
            Long("bin") => a.bin = PathBuf::from(s(&mut p)?),
            Long("cold") => a.cold = true,
            Long("no-warm") => a.warm = false,
            Long("help") => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            Value(v) if a.catalog.as_os_str().is_empty() => a.catalog = PathBuf::from(v),
            other => return Err(other.unexpected().to_string()),
        }
    }
    if a.catalog.as_os_str().is_empty() || a.variants == 0 {
        return Err(USAGE.into());
    }
    for g in &a.groups {
        if !GROUPS.contains(&g.as_str()) {
            return Err(format!("unknown group {g:?}; groups: {}", GROUPS.join(",")));
        }
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Result<Args, String> {
        parse_from(line.split(' ').map(std::ffi::OsString::from))
    }

    #[test]
    fn test_handlers_takes_a_number_of_passes_of_at_least_one() {
        let a = parse("c.varcat --variants 10 --groups point,region --handlers 3").unwrap();
        assert_eq!((a.handlers, a.groups.len(), a.variants), (3, 2, 10));
        assert_eq!(parse("c.varcat --variants 10").unwrap().handlers, 0);
        for bad in ["--handlers 0", "--handlers x", "--handlers -1"] {
            let e = parse(&format!("c.varcat --variants 10 {bad}")).err();
            assert!(e.is_some_and(|e| e.contains("--handlers")), "{bad}");
        }
        assert!(parse("c.varcat --variants 10 --groups nope").is_err());
    }
}
