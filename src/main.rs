//! The `sitemap-lint` binary: parses the command line and hands over to the library (see `cli.rs`);
//! `walk.rs` resolves the paths to check.

mod cli;
mod discover;
mod walk;

fn main() -> std::process::ExitCode {
    cli::main()
}
