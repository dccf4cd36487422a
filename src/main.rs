//! The `sitemap-lint` binary: parses the command line and hands over to the library (see `cli.rs`);
//! `walk.rs` resolves the paths to check.

mod cli;

/// mimalloc rather than the system allocator: a check allocates and frees a tree per piece of
/// a large file on each thread, and glibc's malloc returns those large blocks to the kernel and
/// faults them in again for the next piece (the kernel's page-fault path was a tenth of the
/// time). Version 2, without transparent huge pages: with them the peak memory of the 11.5 MB
/// benchmark file reached 4.2 x its size (the target is 4.5 x) for 3 ms (5%) of time when
/// run between other programs, as in the benchmark; version 3 reached 5.6 x.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
