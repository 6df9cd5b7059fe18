//! Writes every corpus case's G13 binary (code bytes and disassembly) at -O0 and -O2 to a
//! directory, so that a refactoring that must not change generated code can be checked with
//! `diff -r` between a dump made before and one made after.
//!
//! `AGXC_BINARIES_DIR=/tmp/before cargo test -p agxc-tests --test corpus_binaries -- --ignored`
//! (the test is ignored: it compares nothing by itself).

use std::fs;
use std::path::PathBuf;

use agxc_tests::corpus::load_corpus;
use agxc_tests::run::{prepare, Language, OptLevel, G13};

#[test]
#[ignore = "writes the corpus binaries to AGXC_BINARIES_DIR for a before/after diff"]
fn dump_corpus_binaries() {
    let Some(dir) = std::env::var_os("AGXC_BINARIES_DIR").map(PathBuf::from) else {
        panic!("set AGXC_BINARIES_DIR to the directory to write");
    };
    let mut written = 0;
    for language in [Language::Spirv, Language::Tgsi] {
        let cases = load_corpus(&language.corpus_dir()).expect("corpus loads");
        for case in &cases {
            let out = dir.join(language.name()).join(&case.name);
            fs::create_dir_all(&out).expect("dump directory");
            let prepared = match prepare(case, language) {
                Ok(p) => p,
                Err(e) => {
                    fs::write(out.join("error.txt"), e.to_string()).expect("write");
                    continue;
                }
            };
            for level in OptLevel::ALL {
                let name = format!("g13{level}");
                match G13::new(level).compile(&prepared.func) {
                    Ok(c) => {
                        let b = &c.binary;
                        fs::write(out.join(format!("{name}.bin")), &b.code).expect("write");
                        let text = format!("{}\n{}", b.report(), b.disassembly);
                        fs::write(out.join(format!("{name}.asm")), text).expect("write");
                        written += 1;
                    }
                    Err(e) => {
                        fs::write(out.join(format!("{name}.err")), e.to_string()).expect("write")
                    }
                }
            }
        }
    }
    eprintln!("{written} binaries written to {}", dir.display());
    assert!(written > 0);
}
