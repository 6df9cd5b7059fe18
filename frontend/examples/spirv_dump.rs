//! Lifts a SPIR-V file and prints the IR: `cargo run -p agxc-frontend --example spirv_dump -- x.spv [entry]`.

use agxc_frontend::spirv::{lift, LiftOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: spirv_dump FILE.spv [ENTRY]");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let options = LiftOptions {
        entry: args.next(),
        ..LiftOptions::default()
    };
    match lift(&bytes, &options) {
        Ok(func) => print!("{func}"),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
