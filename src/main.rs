//! The `agxc` command-line program (see `agxc --help` and the README).

mod cli;

use clap::Parser;
use cli::{run, Cli, Command};
use tracing_subscriber::EnvFilter;

fn main() -> std::process::ExitCode {
    // Without RUST_LOG the filter passes errors only, and nothing logs any: leave tracing's
    // no-op dispatcher in place rather than set up a subscriber every process would pay for.
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(EnvFilter::from_default_env())
            .with_writer(std::io::stderr)
            .init();
    }
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Compile(args) => run::compile_cmd(args),
        Command::Run(args) => run::run_cmd(args),
        Command::Disasm { bin } => run::disasm_cmd(bin),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("agxc: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
