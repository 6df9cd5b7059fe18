//! The shader-db report (see `agxc_tests::shaderdb`): every corpus shader compiled at `-O2`,
//! one line each, totals and the comparison with Mesa's figures.
//!
//! Usage: `shaderdb [-O0|-O2] [--mesa STATS_JSON | --no-mesa] [DIR...]`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match agxc_tests::shaderdb::run_command(&args) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("shaderdb: error: {e}");
            ExitCode::FAILURE
        }
    }
}
