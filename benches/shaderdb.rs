//! The shader-db report as a benchmark: `cargo bench --bench shaderdb [-- DIR...]` prints, for
//! every corpus shader compiled at `-O2`, its instructions, registers, occupancy, spills and
//! bytes beside Mesa's figures, with totals and the geometric means (see
//! `agxc_tests::shaderdb`, which the `shaderdb` binary and the invariants test share).

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
