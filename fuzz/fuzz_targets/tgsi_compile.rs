//! TGSI text -> `agxc::compile`: no panic, no hang; compiled code decodes. Seeds: the TGSI
//! corpus (`fuzz/seed.sh`).
//! The logic is `agxc_tests::fuzz::tgsi_compile`, which `cargo test` also runs on seeds.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agxc_tests::fuzz::tgsi_compile(data));
