//! Graph-IR text -> parse, verify, `agxc::compile`: no panic, no hang; compiled code decodes.
//! Seeds: `examples/*.ir` and the IR the corpus shaders lift to (`fuzz/seed.sh`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if std::str::from_utf8(data).is_err()
        || agxc::SourceKind::detect(data) != Some(agxc::SourceKind::Ir)
    {
        return;
    }
    agxc_fuzz::compile_and_check(data);
});
