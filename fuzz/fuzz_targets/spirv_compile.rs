//! SPIR-V bytes -> `agxc::compile` (lift, verify, optimize at -O2, G13 backend): no panic, no
//! hang; compiled code decodes. Seeds: the committed `.spv` files (`fuzz/seed.sh`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Inputs without the magic number stop at detection; keep them SPIR-V.
    if data.len() < 4 || data[..4] != [0x03, 0x02, 0x23, 0x07] {
        return;
    }
    agxc_fuzz::compile_and_check(data);
});
