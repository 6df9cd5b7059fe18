//! The `agxc` command-line program (see `agxc --help` and the README).

mod cli;

use std::io::IsTerminal;

use clap::Parser;
use cli::{run, Cli, Command};
use tracing_subscriber::EnvFilter;

fn main() -> std::process::ExitCode {
    restore_sigpipe();
    // Without RUST_LOG the filter passes errors only, and nothing logs any: leave tracing's
    // no-op dispatcher in place rather than set up a subscriber every process would pay for.
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(EnvFilter::from_default_env())
            .with_writer(std::io::stderr)
            // Colour only for a terminal: logs redirected to a file or a pipe stay plain text.
            .with_ansi(std::io::stderr().is_terminal())
            .init();
    }
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Compile(args) => run::compile_cmd(args),
        Command::Run(args) => run::run_cmd(args),
        Command::Disasm { bin } => run::disasm_cmd(bin),
        Command::Asm { source, output } => cli::asm::asm_cmd(source, output.as_deref()),
        Command::Amber { scripts, opt } => run::amber_cmd(scripts, opt),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agxc: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Rust ignores SIGPIPE, so writing to a pipe whose reader has gone (`agxc ... | head`) fails
/// with an error, or panics inside `println!`. A command-line filter should end quietly
/// instead, as C programs do: restore the default action, which ends the process when the
/// pipe closes.
#[cfg(unix)]
fn restore_sigpipe() {
    // SAFETY: `signal` with `SIG_DFL` changes only this process's disposition of SIGPIPE; it
    // runs first thing in `main`, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}
