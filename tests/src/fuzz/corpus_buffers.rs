//! The `corpus_buffers` target: corpus shaders compiled for the G13 (-O0 and -O2) and run in
//! the simulator on fuzzed buffer contents, against the interpreter's model of the G13 on the
//! IR each binary was compiled from (with instruction selection's own expansions,
//! [`super::lowering`]; [`crate::run::numerics`] for the model), within each output's
//! tolerance. NaNs equal whatever their payload, also where integer outputs hold float bits
//! ([`same_nans`]). A run the interpreter refuses (a trap, an
//! index the fuzzed data puts out of bounds, a loop past the budget) is skipped: there is no
//! reference to compare with.

use agxc_backend_agx::Binary;
use agxc_egraph::interp::Limits;
use agxc_egraph::ir::Function;

use super::lowering::expand_like_isel;
use crate::corpus::{compare_outputs, load_corpus, OutputSpec, Outputs, ScalarType};
use crate::run::{prepare, Executor, Interpreter, Language, OptLevel, Prepared, G13};

/// A case prepared (lifted, its launch built from the manifest) and compiled at each level:
/// the IR each binary was compiled from (expanded as instruction selection expands it), and
/// the binary (`None` where the G13 refuses it).
struct Entry {
    name: String,
    prepared: Prepared,
    levels: [Option<(Function, Binary)>; 2],
}

/// The corpus cases with buffers, prepared and compiled once (a fuzz target builds this in
/// its `init`, outside the per-input timeout), and the check of one fuzzed input.
pub struct CorpusBuffers {
    cases: Vec<Entry>,
}

/// The interpreter as a model of the G13 (f32 denormals flushed), with budgets that keep one
/// input well inside the per-input timeout: fuzzed data can turn a loop bound into billions of
/// iterations, and a run over budget is skipped (the simulator then does not run either).
/// The simulator's share is larger (three runs, one on the reference executor, to check its
/// engines against each other), and the 10-second timeout is wall-clock time on a shared
/// machine: at 2^22 lane-instructions `sw_raytracing` took 10 s with ten processes on two
/// cores, hence 2^20.
fn model() -> Interpreter {
    let mut m = Interpreter::g13_model();
    m.limits = Limits {
        max_loop_iterations: 1 << 14,
        max_steps: 1 << 20,
        ..Limits::default()
    };
    m
}

impl CorpusBuffers {
    /// Every case of the SPIR-V and TGSI corpora (in that order, each in name order) that has
    /// a buffer to fuzz and runs in the interpreter within the fuzzing budget on its own
    /// inputs (a bigger one would spend every input on the budget).
    pub fn load() -> CorpusBuffers {
        CorpusBuffers::load_where(|_| true)
    }

    /// The cases of [`CorpusBuffers::load`] whose names `keep` accepts.
    pub fn load_where(keep: impl Fn(&str) -> bool) -> CorpusBuffers {
        let mut cases = Vec::new();
        for language in [Language::Spirv, Language::Tgsi] {
            let corpus = load_corpus(&language.corpus_dir())
                .unwrap_or_else(|e| panic!("the {} corpus does not load: {e}", language.name()));
            for case in corpus.iter().filter(|c| keep(&c.name)) {
                if case.manifest.buffers.is_empty() {
                    continue;
                }
                let Ok(prepared) = prepare(case, language) else {
                    continue;
                };
                if model().execute(&prepared.func, &prepared.launch).is_err() {
                    continue;
                }
                let levels = OptLevel::ALL.map(|level| {
                    let compiled = G13::new(level).compile(&prepared.func).ok()?;
                    let ir = expand_like_isel(compiled.ir_opt.as_ref().unwrap_or(&prepared.func));
                    Some((ir, compiled.binary))
                });
                cases.push(Entry {
                    name: case.name.clone(),
                    prepared,
                    levels,
                });
            }
        }
        CorpusBuffers { cases }
    }

    /// The cases' names, in the order byte 0 of an input picks them.
    pub fn names(&self) -> Vec<&str> {
        self.cases.iter().map(|e| e.name.as_str()).collect()
    }

    /// One input: byte 0 picks the case (modulo their number), byte 1's low bit the level
    /// (-O0, -O2); the rest overwrites the launch's buffers in binding order (each from its
    /// start, as far as the bytes go). Panics when the simulator fails on a run the
    /// interpreter completes, or when the two disagree.
    pub fn check(&self, data: &[u8]) {
        let [pick, level, rest @ ..] = data else {
            return;
        };
        if self.cases.is_empty() {
            return;
        }
        let entry = &self.cases[usize::from(*pick) % self.cases.len()];
        let index = usize::from(level & 1);
        let level = OptLevel::ALL[index];
        let Some((ir, binary)) = &entry.levels[index] else {
            return;
        };
        let mut launch = entry.prepared.launch.clone();
        let mut bytes = rest;
        for buffer in &mut launch.buffers {
            let n = bytes.len().min(buffer.data.len());
            buffer.data[..n].copy_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
        }
        let Ok(expected) = model().execute(ir, &launch) else {
            return;
        };
        let actual = match G13::new(level).run_binary(binary, &launch) {
            Ok(actual) => actual,
            Err(e) => panic!(
                "{} {level}: the interpreter ran, the simulator failed: {e}",
                entry.name
            ),
        };
        let mut expected = expected;
        same_nans(&launch.outputs, &mut expected, &actual);
        let mismatches = compare_outputs(&entry.name, &launch.outputs, &expected, &actual);
        if let Some(m) = mismatches.first() {
            panic!(
                "{} {level}: the G13 and the interpreter differ: {m}",
                entry.name
            );
        }
    }
}

/// Where an integer output holds float bits (`floatBitsToUint`, `packHalf2x16`) the NaN
/// payload shows: the G13 writes the default NaN (`0x7fc00000`, `0x7e00`; docs/g13.md,
/// "Floating point") where the interpreter keeps the operand's payload, and Vulkan leaves
/// payloads undefined. So a 32-bit word of `expected` that differs from `actual` takes
/// `actual`'s value where both are f32 NaNs, and a 16-bit half where both halves are f16
/// NaNs. A NaN against a number still differs. (The cost: an integer output that differs
/// only between two such bit patterns goes unnoticed.)
fn same_nans(specs: &[OutputSpec], expected: &mut Outputs, actual: &Outputs) {
    let f32_nan = |w: u32| w & 0x7fff_ffff > 0x7f80_0000;
    let f16_nan = |h: u32| h & 0x7fff > 0x7c00;
    for spec in specs {
        if !matches!(spec.elem, ScalarType::U32 | ScalarType::I32) {
            continue;
        }
        let (Some(e), Some(a)) = (expected.entries.get_mut(&spec.key), actual.get(&spec.key))
        else {
            continue;
        };
        for (e, a) in e.chunks_exact_mut(4).zip(a.chunks_exact(4)) {
            let ew = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
            let aw = u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
            let mut w = ew;
            if f32_nan(ew) && f32_nan(aw) {
                w = aw;
            } else {
                for shift in [0, 16] {
                    let (eh, ah) = (ew >> shift & 0xffff, aw >> shift & 0xffff);
                    if f16_nan(eh) && f16_nan(ah) {
                        w = w & !(0xffff << shift) | ah << shift;
                    }
                }
            }
            e.copy_from_slice(&w.to_le_bytes());
        }
    }
}
