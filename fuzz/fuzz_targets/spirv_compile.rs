//! SPIR-V bytes -> `agxc::compile` (-O2 for one input in four): no panic, no hang; compiled
//! code decodes. Seeds: the committed `.spv` files (`fuzz/seed.sh`).
//! The logic is `agxc_tests::fuzz::spirv_compile`, which `cargo test` also runs on seeds.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| agxc_tests::fuzz::spirv_compile(data));
