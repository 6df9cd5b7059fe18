//! Corpus shaders compiled for the G13 (-O0, -O2) and run in the simulator on fuzzed buffer
//! contents, against the interpreter's model of the G13. Byte 0 picks the case, byte 1 the
//! level, the rest overwrites the buffers. Seeds: `fuzz/seed.sh` writes one per case and
//! level. The logic is `agxc_tests::fuzz::CorpusBuffers`, which `cargo test` also runs.
#![no_main]

use std::sync::OnceLock;

use agxc_tests::fuzz::CorpusBuffers;
use libfuzzer_sys::fuzz_target;

/// Every case, prepared and compiled once, in `init` (outside the per-input timeout).
static CASES: OnceLock<CorpusBuffers> = OnceLock::new();

fuzz_target!(
    init: {
        let cases = CASES.get_or_init(CorpusBuffers::load);
        let names = cases.names();
        eprintln!("corpus_buffers: {} cases: {}", names.len(), names.join(" "));
    },
    |data: &[u8]| CASES.get_or_init(CorpusBuffers::load).check(data)
);
