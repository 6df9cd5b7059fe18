//! Graph-IR text -> parse, verify, `agxc::compile`: no panic, no hang; compiled code decodes.
//! Seeds: `examples/*.ir` and the IR the corpus shaders lift to (`fuzz/seed.sh`).
//! The logic is `agxc_tests::fuzz::ir_compile`, which `cargo test` also runs on seeds.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agxc_tests::fuzz::ir_compile(data));
