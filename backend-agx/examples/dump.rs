//! Prints the passes of a compile of an IR file (a debugging aid).
use agxc_backend_agx::{compile, CompileOptions};
use agxc_egraph::ir::parse_function;

fn main() {
    let path = std::env::args().nth(1).expect("usage: dump FILE.ir [-O2]");
    let text = std::fs::read_to_string(&path).expect("readable file");
    let target = agxc_backend_agx::target::G13Target::new();
    let reg = agxc_egraph::opt::Target::registry(&target);
    let mut f = parse_function(&text, &reg).expect("IR parses");
    if std::env::args().any(|a| a == "-O2") {
        f = agxc_egraph::opt::optimize(&f, &target, &Default::default())
            .expect("optimizes")
            .func;
        println!("{f}");
    }
    let opts = CompileOptions {
        dump_passes: true,
        ..CompileOptions::default()
    };
    match compile(&f, &opts) {
        Ok(b) => {
            for d in &b.dumps {
                println!("=== {} ===\n{}", d.pass, d.text);
            }
            println!("{}", b.report());
            println!("{}", b.metadata.abi);
        }
        Err(e) => println!("error: {e}"),
    }
}
