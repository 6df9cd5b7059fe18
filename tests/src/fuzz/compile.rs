//! The compile targets: SPIR-V bytes, TGSI text and graph-IR text through `agxc::compile`.

use std::time::Duration;

use agxc::{Compiled, OptLevel, Options, SourceKind};

/// -O2 for one input in four (by a hash of its bytes, so that a crash reproduces), -O0
/// otherwise: equality saturation is the slow part, and -O0 reaches the backend with the
/// lifted IR as it is.
pub fn level_for(data: &[u8]) -> OptLevel {
    // FNV-1a: cheap, and any fixed hash does.
    let h = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    if h % 4 == 0 {
        OptLevel::O2
    } else {
        OptLevel::O0
    }
}

/// Compile options at `level`, the optimizer's time limit cut to one second (its node and
/// iteration limits stay the defaults), well inside the fuzzers' 10-second timeout.
pub fn options(level: OptLevel) -> Options {
    let mut opts = Options {
        opt_level: level,
        ..Options::default()
    };
    opts.limits.time = Duration::from_secs(1);
    opts
}

/// Compiles `data` at the level [`level_for`] picks; a successful compile must pass
/// [`check_compiled`].
pub fn compile_and_check(data: &[u8]) {
    if let Ok(compiled) = agxc::compile(data, &options(level_for(data))) {
        check_compiled(&compiled);
    }
}

/// What every compiled shader must satisfy: its code decodes in the simulator (the backend
/// never emits what it cannot encode).
pub fn check_compiled(compiled: &Compiled) {
    let code = &compiled.binary.code;
    if let Err(e) = agxc::runtime_sim::decode::decode_program(code) {
        panic!(
            "the backend emitted code that does not decode: {e}\n{}",
            compiled.binary.disassembly
        );
    }
}

/// `spirv_compile`: SPIR-V bytes -> `agxc::compile`. Inputs without the magic number would
/// stop at source detection, so they are skipped.
pub fn spirv_compile(data: &[u8]) {
    if data.len() < 4 || data[..4] != [0x03, 0x02, 0x23, 0x07] {
        return;
    }
    compile_and_check(data);
}

/// `tgsi_compile`: TGSI text -> `agxc::compile` (other text is skipped).
pub fn tgsi_compile(data: &[u8]) {
    if std::str::from_utf8(data).is_ok() && SourceKind::detect(data) == Some(SourceKind::Tgsi) {
        compile_and_check(data);
    }
}

/// `ir_compile`: graph-IR text -> parse, verify, `agxc::compile` (other text is skipped).
pub fn ir_compile(data: &[u8]) {
    if std::str::from_utf8(data).is_ok() && SourceKind::detect(data) == Some(SourceKind::Ir) {
        compile_and_check(data);
    }
}
