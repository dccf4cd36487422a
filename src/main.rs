//! The `sitemap-lint` binary: parses the command line and hands over to the library (see `cli.rs`).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
