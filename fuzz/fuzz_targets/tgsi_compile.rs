//! TGSI text -> `agxc::compile`: no panic, no hang; compiled code decodes. Seeds: the TGSI
//! corpus (`fuzz/seed.sh`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if agxc::SourceKind::detect(data) != Some(agxc::SourceKind::Tgsi) {
        return;
    }
    agxc_fuzz::compile_and_check(text.as_bytes());
});
