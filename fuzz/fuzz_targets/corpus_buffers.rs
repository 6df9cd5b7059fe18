//! Compiled corpus shaders run with fuzzed buffer contents: the G13 binary in the simulator
//! against the reference interpreter's model of the G13 (f32 denormals flushed) on the IR the
//! binary was compiled from, compared with the case's tolerances; NaNs compare equal whatever
//! their payload (`agxc_tests::corpus::compare_outputs`). A run the interpreter refuses (an
//! index the fuzzed data puts out of bounds, a loop past its budget) is skipped: there is no
//! reference to compare with.
//!
//! Input: byte 0 picks the case (SPIR-V and TGSI corpora together, in name order), byte 1's
//! low bit the level (-O0, -O2); the rest overwrites the launch's buffers in binding order
//! (each from its start, as far as the bytes go). Seeds: `fuzz/seed.sh` writes one per case
//! and level.
#![no_main]

use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

use agxc::egraph::ir::Function;
use agxc_tests::corpus::{compare_outputs, load_corpus};
use agxc_tests::run::{prepare, Executor, Interpreter, Language, OptLevel, Prepared, G13};
use libfuzzer_sys::fuzz_target;

/// A case prepared once (lifted, its launch built from the manifest).
struct Entry {
    name: String,
    prepared: Prepared,
}

fn cases() -> &'static [Entry] {
    static CASES: OnceLock<Vec<Entry>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut out = Vec::new();
        for language in [Language::Spirv, Language::Tgsi] {
            let cases = load_corpus(&language.corpus_dir()).expect("the corpus loads");
            for case in cases {
                if let Ok(prepared) = prepare(&case, language) {
                    out.push(Entry {
                        name: case.name.clone(),
                        prepared,
                    });
                }
            }
        }
        out
    })
}

/// The IR and binary of a case at a level, compiled on first use.
type Compiled = Option<(Function, agxc::backend_agx::Binary)>;

fn compiled(index: usize, level: OptLevel) -> Compiled {
    static CACHE: OnceLock<Mutex<BTreeMap<(usize, OptLevel), Compiled>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
    cache
        .entry((index, level))
        .or_insert_with(|| {
            let g13 = G13::new(level);
            let ir = g13.lower(&cases()[index].prepared.func).ok()?.into_owned();
            let binary = g13.compile(&cases()[index].prepared.func).ok()?;
            Some((ir, binary))
        })
        .clone()
}

fuzz_target!(|data: &[u8]| {
    let [pick, level, rest @ ..] = data else {
        return;
    };
    let cases = cases();
    if cases.is_empty() {
        return;
    }
    let index = usize::from(*pick) % cases.len();
    let level = if level & 1 == 0 {
        OptLevel::O0
    } else {
        OptLevel::O2
    };
    let Some((ir, binary)) = compiled(index, level) else {
        return;
    };
    let entry = &cases[index];
    let mut launch = entry.prepared.launch.clone();
    let mut bytes = rest;
    for buffer in &mut launch.buffers {
        let n = bytes.len().min(buffer.data.len());
        buffer.data[..n].copy_from_slice(&bytes[..n]);
        bytes = &bytes[n..];
    }
    let Ok(model) = Interpreter::g13_model().execute(&ir, &launch) else {
        return;
    };
    let actual = match G13::new(level).run_binary(&binary, &launch) {
        Ok(actual) => actual,
        Err(e) => panic!(
            "{} {level}: the interpreter ran, the simulator failed: {e}",
            entry.name
        ),
    };
    let mismatches = compare_outputs(&entry.name, &launch.outputs, &model, &actual);
    if let Some(m) = mismatches.first() {
        panic!(
            "{} {level}: the G13 and the interpreter differ: {m}",
            entry.name
        );
    }
});
