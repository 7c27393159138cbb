//! `varcat-bench`: the load and floor benchmark of `varcat serve` (`varcat_tools::bench`).

fn main() -> std::process::ExitCode {
    varcat_tools::bench::main()
}
