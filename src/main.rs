fn main() -> std::process::ExitCode {
    varcat::cli::main()
}
