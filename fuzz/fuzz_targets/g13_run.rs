//! G13 machine code -> decode, disassemble, load and run in the simulator with a step limit:
//! no panic, no hang. Seeds: the corpus shaders compiled with `--emit bin` (`fuzz/seed.sh`),
//! behind a byte that picks the stage.
//! The logic is `agxc_tests::fuzz::g13_run`, which `cargo test` also runs on seeds.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agxc_tests::fuzz::g13_run(data));
