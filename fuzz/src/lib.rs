//! Helpers shared by agxc's cargo-fuzz targets (`fuzz_targets/`): compile options with bounded
//! optimizer time, the optimization level an input is compiled at, and the check every
//! successful compile must pass. See the README's "Fuzzing" section.

use std::time::Duration;

use agxc::{Compiled, OptLevel, Options};

/// -O2 for one input in four (by a hash of its bytes, so a crash reproduces), -O0 otherwise:
/// equality saturation is the slow part, and -O0 reaches the backend with the lifted IR as is.
pub fn level_for(data: &[u8]) -> OptLevel {
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
/// iteration limits stay the defaults).
pub fn options(level: OptLevel) -> Options {
    let mut opts = Options {
        opt_level: level,
        ..Options::default()
    };
    opts.limits.time = Duration::from_secs(1);
    opts
}

/// Compiles `data` at the level [`level_for`] picks; a successful compile must produce code
/// the simulator's decoder accepts (the backend never emits what it cannot encode).
pub fn compile_and_check(data: &[u8]) {
    if let Ok(compiled) = agxc::compile(data, &options(level_for(data))) {
        check(&compiled);
    }
}

/// What every compiled shader must satisfy.
pub fn check(compiled: &Compiled) {
    let code = &compiled.binary.code;
    if let Err(e) = agxc::runtime_sim::decode::decode_program(code) {
        panic!(
            "the backend emitted code that does not decode: {e}\n{}",
            compiled.binary.disassembly
        );
    }
}
