//! Compiles an IR text file for the G13 and prints the machine code after every backend pass,
//! the report and the ABI (a debugging aid).
//!
//! ```text
//! cargo run -p agxc-backend-agx --example dump -- shader.ir [-O2]
//! ```

use agxc_backend_agx::target::G13Target;
use agxc_backend_agx::{compile, CompileOptions};
use agxc_egraph::ir::parse_function;
use agxc_egraph::opt::{optimize, OptOptions, Target};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .ok_or("usage: dump FILE.ir [-O2]")?;
    let text = std::fs::read_to_string(path)?;
    let target = G13Target::new();
    let mut func = parse_function(&text, &target.registry())?;
    if args.iter().any(|a| a == "-O2") {
        func = optimize(&func, &target, &OptOptions::default())?.func;
        println!("=== optimized IR ===\n{func}");
    }
    let opts = CompileOptions {
        dump_passes: true,
        ..CompileOptions::default()
    };
    let binary = compile(&func, &opts)?;
    for d in &binary.dumps {
        println!("=== {} ===\n{}", d.pass, d.text);
    }
    println!("{}\n{}", binary.report(), binary.metadata.abi);
    Ok(())
}
