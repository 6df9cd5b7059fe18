//! The assembler inverts the disassembler: for every corpus binary (the SPIR-V corpus, the
//! generated TGSI corpus and the non-geometry graw shaders), at -O0 and -O2, `agxc disasm`'s
//! listing (the simulator's decoder and printer, which share no code with the assembler's
//! parser) assembled by `isa::assemble` gives back the same bytes, and so does the backend's
//! own listing (`Binary::disassembly`).

use std::path::PathBuf;

use agxc::backend_agx::isa::assemble;
use agxc::runtime_sim::disasm::disassemble;
use agxc::{compile, OptLevel, Options};
use agxc_tests::corpus::{corpus_dir, load_corpus};
use agxc_tests::shaderdb::find_shaders;
use agxc_tests::softpipe::graw_corpus_dir;

/// Every corpus shader: (name, source, entry point).
fn shaders() -> Vec<(String, PathBuf, Option<String>)> {
    let mut out = Vec::new();
    let mut cases = 0;
    for dir in [corpus_dir("spirv"), corpus_dir("tgsi").join("gen")] {
        cases += load_corpus(&dir).expect("corpus loads").len();
        for s in find_shaders(&dir).expect("corpus readable") {
            out.push((s.name, s.path, s.entry));
        }
    }
    assert_eq!(out.len(), cases, "every corpus case has a shader");
    for sub in ["fragment-shader", "vertex-shader", "programs"] {
        let dir = graw_corpus_dir().join(sub);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("graw directory")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "tgsi"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).expect("TGSI text");
            if !text.starts_with("GEOM") {
                let name = format!("graw/{sub}/{}", path.file_name().unwrap().to_string_lossy());
                out.push((name, path, None));
            }
        }
    }
    out
}

fn round_trip(level: OptLevel) {
    let shaders = shaders();
    let mut bytes = 0;
    for (name, path, entry) in &shaders {
        let source = std::fs::read(path).expect("read");
        let opts = Options {
            entry: entry.clone(),
            opt_level: level,
            ..Options::default()
        };
        let compiled = compile(&source, &opts).unwrap_or_else(|e| panic!("{name}: compile: {e}"));
        // The preamble, when there is one, is a program too.
        if let Some(p) = &compiled.binary.preamble {
            let again = assemble(&disassemble(&p.code))
                .unwrap_or_else(|e| panic!("{name} preamble ({level:?}): {e}"));
            assert_eq!(again.code, p.code, "{name}: preamble ({level:?})");
            let backend = assemble(&p.disassembly)
                .unwrap_or_else(|e| panic!("{name} preamble listing ({level:?}): {e}"));
            assert_eq!(backend.code, p.code, "{name}: preamble listing ({level:?})");
            bytes += p.code.len();
        }
        let code = &compiled.binary.code;
        let listing = disassemble(code);
        let again =
            assemble(&listing).unwrap_or_else(|e| panic!("{name} ({level:?}): {e}\n{listing}"));
        assert!(
            again.code == *code,
            "{name} ({level:?}): disasm then asm changed the bytes\n{listing}\nre-assembled:\n{}",
            disassemble(&again.code)
        );
        // The text alone (offsets and byte columns cut off) says the same.
        let text: String = listing
            .lines()
            .map(|l| format!("{}\n", l.get(33..).unwrap_or_default()))
            .collect();
        let from_text = assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(
            from_text.code, *code,
            "{name}: text without bytes ({level:?})"
        );
        let backend = assemble(&compiled.binary.disassembly)
            .unwrap_or_else(|e| panic!("{name} backend listing ({level:?}): {e}"));
        assert_eq!(backend.code, *code, "{name}: backend listing ({level:?})");
        bytes += code.len();
    }
    assert!(shaders.len() > 200, "{} shaders", shaders.len());
    agxc_tests::corpus::announce(&format!(
        "asm round trip at {level:?}: {} binaries, {bytes} bytes, identical after disasm + asm",
        shaders.len()
    ));
}

#[test]
fn disasm_then_asm_is_the_identity_on_the_corpus_at_o0() {
    round_trip(OptLevel::O0);
}

#[test]
fn disasm_then_asm_is_the_identity_on_the_corpus_at_o2() {
    round_trip(OptLevel::O2);
}
