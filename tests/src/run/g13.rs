//! The G13 executor: a lifted function compiled by the library's pipeline
//! (`agxc::compile_function`: at -O0 as lifted, at -O2 after the e-graph optimizer) and run in the G13 simulator on the same
//! [`Launch`] as the reference interpreter, so that its outputs compare with the same recordings
//! and the same tolerances.
//!
//! [`run_g13_corpus`] runs a corpus through the interpreter and through [`G13`] at each
//! requested level, and reports every G13 run twice: against the oracle's recording and against
//! the interpreter's model of the G13 on the IR it ran (the second pins a backend difference on
//! the backend; the first finds what agxc gets wrong as a whole). The G13's legitimate float
//! behaviours (flushed f32 denormals, contracted multiply-adds at -O2) are models of the
//! interpreter, not allowances: [`super::numerics`] says how each element is checked.
//!
//! With [`super::DUMP_ENV`] set, each case's directory under `<dump>/<language>/` receives the
//! lifted IR, the interpreter's outputs (`interp-*`) and per level the binary's report and
//! disassembly (`g13-O0.asm`), the optimized IR (`g13-O2-ir.txt`), the G13's outputs
//! (`g13-O0-*`) and the G13 model's (`model-O0-*`).
//!
//! Every simulator error is a failure of the run: decode and execution errors, the
//! register-cache hint sanitizer and the wait checks (`agxc_runtime_sim::Error`), so a case
//! that passes ran clean. Every binary runs in each simulator mode of
//! `agxc::sim::crosscheck` (the fast engine on the default and on three host
//! threads, the reference engine on one), which must agree byte for byte, statistics included.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use agxc::sim::crosscheck::{run_compute_cross_checked, run_fragment_cross_checked};
use agxc::sim::{SimError, SimOptions};
use agxc::{compile_function, Compiled, OptLevel, Options};
use agxc_backend_agx::Binary;
use agxc_egraph::ir::{Binding, Function};

use super::corpus_run::{CorpusOptions, CorpusRun};
use super::error::RunError;
use super::executor::{Executor, Interpreter};
use super::launch::{Launch, LaunchStage};
use super::numerics::{compare_with_oracle, split_fused, Models};
use super::prepare::{prepare, Language};
use super::report::{CaseReport, Outcome};
use crate::corpus::{compare_outputs, load_corpus, Case, CorpusError, OutputKey, Outputs};

/// Why a G13 run failed.
#[derive(Debug, thiserror::Error)]
pub enum G13Error {
    /// The pipeline (optimizer or backend) rejected the function.
    #[error("{0}")]
    Compile(#[from] agxc::Error),
    /// The simulator stopped: a wrong binary (decode, execution, hint sanitizer, wait check)
    /// or a resource the run could not bind.
    #[error("simulator: {0}")]
    Simulate(#[from] SimError),
}

/// Compiles for the G13 (the library's pipeline, [`agxc::compile_function`]) and runs the
/// simulator.
#[derive(Debug, Clone)]
pub struct G13 {
    /// The pipeline's options: the level, the optimizer's limits, the backend's settings.
    pub options: Options,
}

impl G13 {
    /// The executor at `level` with the pipeline's default options.
    pub fn new(level: OptLevel) -> G13 {
        G13 {
            options: Options {
                opt_level: level,
                ..Options::default()
            },
        }
    }

    /// The optimization level.
    pub fn level(&self) -> OptLevel {
        self.options.opt_level
    }

    /// `func` compiled at this executor's level: the binary and (at -O2) the optimized IR.
    pub fn compile(&self, func: &Function) -> Result<Compiled, G13Error> {
        Ok(compile_function(func, &self.options)?)
    }

    fn run(&self, func: &Function, launch: &Launch) -> Result<Outputs, G13Error> {
        let compiled = self.compile(func)?;
        self.run_binary(&compiled.binary, launch)
    }

    /// Runs a binary compiled for `launch`'s stage in the simulator.
    pub fn run_binary(&self, binary: &Binary, launch: &Launch) -> Result<Outputs, G13Error> {
        let mut res = launch.resources();
        let targets = match &launch.stage {
            LaunchStage::Compute { groups } => {
                run_compute_cross_checked(binary, &mut res, *groups, &SimOptions::default())?;
                None
            }
            LaunchStage::Fragment(grid) => {
                let out =
                    run_fragment_cross_checked(binary, &mut res, grid, &SimOptions::default())?;
                Some((
                    out.targets,
                    grid.width as usize * grid.height as usize,
                    grid.clear,
                ))
            }
        };
        let mut outputs = Outputs::default();
        for spec in &launch.outputs {
            let bytes = match (spec.key, &targets) {
                (OutputKey::Buffer { set, binding }, _) => res
                    .buffer_data(Binding::new(set, binding))
                    .map(<[u8]>::to_vec),
                (OutputKey::Target { location }, Some((targets, pixels, clear))) => {
                    Some(target_bytes(targets.get(&location), *pixels, *clear))
                }
                (OutputKey::Target { .. }, None) => None,
                (OutputKey::Image { set, binding }, _) => res
                    .texture(Binding::new(set, binding))
                    .map(|t| t.data().to_vec()),
            };
            if let Some(bytes) = bytes {
                outputs.insert(spec.key, bytes);
            }
        }
        Ok(outputs)
    }
}

impl Executor for G13 {
    fn name(&self) -> &'static str {
        match self.level() {
            OptLevel::O0 => "g13 -O0",
            OptLevel::O2 => "g13 -O2",
        }
    }

    fn execute(&self, func: &Function, launch: &Launch) -> Result<Outputs, RunError> {
        self.run(func, launch).map_err(|e| self.error(launch, e))
    }
}

impl G13 {
    fn error(&self, launch: &Launch, e: G13Error) -> RunError {
        RunError::Executor {
            case: launch.case.clone(),
            executor: self.name(),
            source: Box::new(e),
        }
    }
}

/// A render target as the corpus stores it (RGBA32F rows top to bottom); a location the shader
/// never writes keeps the clear colour, as with the interpreter.
fn target_bytes(texels: Option<&Vec<[f32; 4]>>, pixels: usize, clear: [f32; 4]) -> Vec<u8> {
    let cleared;
    let texels = match texels {
        Some(t) => t.as_slice(),
        None => {
            cleared = vec![clear; pixels];
            cleared.as_slice()
        }
    };
    texels
        .iter()
        .flat_map(|px| px.iter().flat_map(|c| c.to_le_bytes()))
        .collect()
}

/// One level's reports: the G13 outputs against the oracle's recordings (with the G13's float
/// behaviours explained by [`super::numerics`]) and against the interpreter as the G13 computes
/// floats, on the IR the G13 ran.
#[derive(Debug)]
pub struct G13LevelRun {
    /// The level.
    pub level: OptLevel,
    /// Against the oracle's recordings.
    pub vs_oracle: CorpusRun,
    /// Against the interpreter's model of the G13 ([`super::numerics`]).
    pub vs_interp: CorpusRun,
}

/// Runs `language`'s corpus (the cases `options` select) through the interpreter and through
/// [`G13`] at each of `levels`, comparing every G13 run with the recording and with the
/// interpreter's model of the G13 on the IR it ran ([`super::numerics`]). A case the
/// interpreter cannot run fails its comparison with the interpreter with the interpreter's
/// error.
pub fn run_g13_corpus(
    language: Language,
    levels: &[OptLevel],
    options: &CorpusOptions,
) -> Result<Vec<G13LevelRun>, CorpusError> {
    let dir = options.dir.clone().unwrap_or_else(|| language.corpus_dir());
    let cases = load_corpus(&dir)?;
    let selected = |name: &str| {
        options
            .only
            .as_ref()
            .is_none_or(|only| only.iter().any(|n| n == name))
    };
    let mut by_level: BTreeMap<OptLevel, (Vec<CaseReport>, Vec<CaseReport>)> = BTreeMap::new();
    let dump = options.dump.as_deref().map(|d| d.join(language.name()));
    for case in cases.iter().filter(|c| selected(&c.name)) {
        let dump = dump.as_ref().map(|d| d.join(&case.name));
        for (level, pair) in run_case_g13(case, language, levels, dump.as_deref()) {
            let entry = by_level.entry(level).or_default();
            entry.0.push(pair.0);
            entry.1.push(pair.1);
        }
    }
    let corpus: Vec<String> = cases.into_iter().map(|c| c.name).collect();
    Ok(by_level
        .into_iter()
        .map(|(level, (oracle, interp))| G13LevelRun {
            level,
            vs_oracle: CorpusRun {
                reports: oracle,
                corpus: corpus.clone(),
            },
            vs_interp: CorpusRun {
                reports: interp,
                corpus: corpus.clone(),
            },
        })
        .collect())
}

/// Writes a debugging dump file; a dump that cannot be written is reported on stderr and
/// does not change the run's outcome.
fn write_dump(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    let written = fs::create_dir_all(dir).and_then(|()| fs::write(&path, bytes));
    if let Err(e) = written {
        let _ = writeln!(std::io::stderr(), "dump {}: {e}", path.display());
    }
}

fn dump_outputs(dir: &Path, prefix: &str, outputs: &Outputs) {
    for (key, bytes) in &outputs.entries {
        write_dump(dir, &format!("{prefix}-{}", key.file_name()), bytes);
    }
}

/// A run error repeated in a second report (reports own their errors): the message, under the
/// executor that failed, so that its step stays `run`.
fn repeat(e: &RunError, case: &str) -> RunError {
    let executor = match e {
        RunError::Executor { executor, .. } => executor,
        _ => "interp",
    };
    RunError::Executor {
        case: case.to_owned(),
        executor,
        source: e.to_string().into(),
    }
}

/// One case at every level: `(level, (vs oracle, vs interpreter))`.
fn run_case_g13(
    case: &Case,
    language: Language,
    levels: &[OptLevel],
    dump: Option<&Path>,
) -> Vec<(OptLevel, (CaseReport, CaseReport))> {
    let start = Instant::now();
    let report = |outcome, elapsed| CaseReport {
        case: case.name.clone(),
        stage: case.manifest.stage,
        outcome,
        elapsed,
    };
    let setup = || -> Result<_, RunError> { Ok((case.read_expected()?, prepare(case, language)?)) };
    let (expected, prepared) = match setup() {
        Ok(s) => s,
        Err(first) => {
            // Lifting again gives each report its own error (deterministic and quick to fail).
            let failed =
                || Outcome::Failed(setup().err().unwrap_or_else(|| repeat(&first, &case.name)));
            let elapsed = start.elapsed();
            return levels
                .iter()
                .map(|&l| (l, (report(failed(), elapsed), report(failed(), elapsed))))
                .collect();
        }
    };
    let reference = Interpreter::new().execute(&prepared.func, &prepared.launch);
    if let Some(dir) = dump {
        write_dump(dir, "ir.txt", prepared.func.to_string().as_bytes());
        if let Ok(outputs) = &reference {
            dump_outputs(dir, "interp", outputs);
        }
    }
    let setup_time = start.elapsed();
    let specs = &prepared.launch.outputs;
    let outcome = |mismatches: Vec<_>| {
        if mismatches.is_empty() {
            Outcome::Passed
        } else {
            Outcome::Mismatched(mismatches)
        }
    };
    levels
        .iter()
        .map(|&level| {
            let run_start = Instant::now();
            let g13 = G13::new(level);
            let run = g13_level(&g13, &prepared.func, &prepared.launch, &reference, dump);
            let elapsed = setup_time + run_start.elapsed();
            let pair = match run {
                Err(e) => {
                    let again = repeat(&e, &case.name);
                    (
                        report(Outcome::Failed(e), elapsed),
                        report(Outcome::Failed(again), elapsed),
                    )
                }
                Ok(run) => {
                    let models = match (&run.g13_model, &run.oracle_model) {
                        (Ok(g13), Ok(oracle)) => Some(Models { g13, oracle }),
                        _ => None,
                    };
                    let vs_oracle =
                        compare_with_oracle(&case.name, specs, &expected, &run.actual, models);
                    let vs_interp = match &run.g13_model {
                        Ok(model) => {
                            outcome(compare_outputs(&case.name, specs, model, &run.actual))
                        }
                        Err(e) => Outcome::Failed(repeat(e, &case.name)),
                    };
                    (
                        report(outcome(vs_oracle), elapsed),
                        report(vs_interp, elapsed),
                    )
                }
            };
            (level, pair)
        })
        .collect()
}

/// One level's G13 run and the interpreter's two models of it ([`super::numerics`]).
struct LevelRun {
    actual: Outputs,
    g13_model: Result<Outputs, RunError>,
    oracle_model: Result<Outputs, RunError>,
}

/// Lowers, compiles and simulates `func` at `g13`'s level and runs the models on the IR it
/// compiled: the reference run is the oracle model at -O0 (nothing is fused there).
fn g13_level(
    g13: &G13,
    func: &Function,
    launch: &Launch,
    reference: &Result<Outputs, RunError>,
    dump: Option<&Path>,
) -> Result<LevelRun, RunError> {
    let prefix = format!("g13{}", g13.level());
    let compiled = g13.compile(func).map_err(|e| g13.error(launch, e));
    if let Some(dir) = dump {
        let asm = match &compiled {
            Ok(c) => format!("{}\n{}", c.binary.report(), c.binary.disassembly),
            Err(e) => e.to_string(),
        };
        write_dump(dir, &format!("{prefix}.asm"), asm.as_bytes());
        if let Ok(Compiled {
            ir_opt: Some(ir), ..
        }) = &compiled
        {
            write_dump(dir, &format!("{prefix}-ir.txt"), ir.to_string().as_bytes());
        }
    }
    let compiled = compiled?;
    let (ir, binary) = (compiled.ir_opt.as_ref().unwrap_or(func), &compiled.binary);
    let actual = g13
        .run_binary(binary, launch)
        .map_err(|e| g13.error(launch, e))?;
    let g13_model = Interpreter::g13_model().execute(ir, launch);
    let oracle_model = match g13.level() {
        OptLevel::O0 => clone_result(reference, &launch.case),
        OptLevel::O2 => Interpreter::new().execute(&split_fused(ir), launch),
    };
    if let Some(dir) = dump {
        dump_outputs(dir, &prefix, &actual);
        if let Ok(outputs) = &g13_model {
            dump_outputs(dir, &format!("model{}", g13.level()), outputs);
        }
    }
    Ok(LevelRun {
        actual,
        g13_model,
        oracle_model,
    })
}

fn clone_result(r: &Result<Outputs, RunError>, case: &str) -> Result<Outputs, RunError> {
    match r {
        Ok(o) => Ok(o.clone()),
        Err(e) => Err(repeat(e, case)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{OutputSpec, ScalarType, Tolerance};
    use crate::run::launch::BoundBuffer;
    use agxc_egraph::interp::{BufferKind, FragmentGrid, Varying};
    use agxc_egraph::ir::{
        AddressSpace, Builder, Builtin, EffectOp, MemAccess, OutputSlot, PureOp, Stage, Type,
    };

    fn spec(key: OutputKey, bytes: usize) -> OutputSpec {
        OutputSpec {
            key,
            bytes,
            elem: ScalarType::F32,
            tolerance: Tolerance::default(),
            row_pixels: None,
        }
    }

    fn floats(bytes: &[u8]) -> Vec<f32> {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// out[i] = in[i] * 2.0 + 1.0 over 2 workgroups of 2 (the -O2 form may fuse it).
    fn scale_add() -> Function {
        let mut func = Function::new("scale_add", Stage::Compute);
        func.modes.local_size = [2, 1, 1];
        let mut b = Builder::new(&mut func);
        let i = b.effect(EffectOp::Builtin(Builtin::GlobalId(0)), &[], &[Type::I32])[0];
        let four = b.i32(4);
        let offset = b.pure(PureOp::Imul, &[i, four]);
        let at = |binding| MemAccess {
            space: AddressSpace::Storage(Binding::new(0, binding)),
            offset: 0,
        };
        let x = b.effect(EffectOp::Load(at(0)), &[offset], &[Type::F32])[0];
        let two = b.f32(2.0);
        let one = b.f32(1.0);
        let doubled = b.pure(PureOp::Fmul, &[x, two]);
        let y = b.pure(PureOp::Fadd, &[doubled, one]);
        b.effect(EffectOp::Store(at(1)), &[offset, y], &[]);
        b.return_();
        func
    }

    fn compute_launch(buffers: Vec<BoundBuffer>) -> Launch {
        Launch {
            case: "t".into(),
            stage: LaunchStage::Compute { groups: [2, 1, 1] },
            buffers,
            push: Vec::new(),
            textures: Vec::new(),
            outputs: vec![spec(OutputKey::Buffer { set: 0, binding: 1 }, 16)],
        }
    }

    #[test]
    fn compute_runs_at_both_levels() {
        let input: Vec<u8> = [0.5f32, -2.0, 3.0, 1e9]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        let launch = compute_launch(vec![
            BoundBuffer {
                binding: Binding::new(0, 0),
                kind: BufferKind::Storage,
                data: input,
            },
            BoundBuffer {
                binding: Binding::new(0, 1),
                kind: BufferKind::Storage,
                data: vec![0; 16],
            },
        ]);
        let func = scale_add();
        for level in OptLevel::ALL {
            let out = G13::new(level).execute(&func, &launch).expect("runs");
            let key = OutputKey::Buffer { set: 0, binding: 1 };
            // All exact in f32: 2e9 + 1 rounds back to 2e9 (spacing 128 there).
            assert_eq!(
                floats(out.get(&key).expect("buffer read back")),
                [2.0, -3.0, 7.0, 2e9],
                "{level}"
            );
        }
    }

    #[test]
    fn a_missing_buffer_is_a_run_error_naming_the_executor() {
        let launch = compute_launch(Vec::new());
        let err = G13::new(OptLevel::O0)
            .execute(&scale_add(), &launch)
            .expect_err("the shader's buffers are not bound");
        assert_eq!(err.step(), "run");
        let text = err.to_string();
        assert!(
            text.contains("g13 -O0") && text.contains("missing"),
            "{text}"
        );
    }

    #[test]
    fn fragment_targets_are_rows_top_to_bottom() {
        // Target 0 = (frag_coord.x, frag_coord.y) in x and y; target 1 is never written.
        let mut func = Function::new("coords", Stage::Fragment);
        let mut b = Builder::new(&mut func);
        for c in 0..2u8 {
            let v = b.effect(EffectOp::Builtin(Builtin::FragCoord(c)), &[], &[Type::F32])[0];
            let slot = OutputSlot::Location {
                location: 0,
                component: c,
            };
            b.effect(EffectOp::Output(slot), &[v], &[]);
        }
        b.return_();
        let clear = [9.0, 8.0, 7.0, 6.0];
        let t0 = OutputKey::Target { location: 0 };
        let t1 = OutputKey::Target { location: 1 };
        let launch = Launch {
            case: "t".into(),
            stage: LaunchStage::Fragment(FragmentGrid::new(3, 2).with_clear(clear)),
            buffers: Vec::new(),
            push: Vec::new(),
            textures: Vec::new(),
            outputs: vec![spec(t0, 96), spec(t1, 96)],
        };
        let out = G13::new(OptLevel::O0)
            .execute(&func, &launch)
            .expect("runs");
        let t0 = floats(out.get(&t0).expect("target 0"));
        // Pixel (2, 1) is the sixth: centre (2.5, 1.5); z and w keep the clear colour.
        assert_eq!(t0[20..24], [2.5, 1.5, 7.0, 6.0]);
        assert_eq!(t0[0..2], [0.5, 0.5]);
        let t1 = floats(out.get(&t1).expect("target 1"));
        assert!(t1.chunks(4).all(|px| px == clear), "{t1:?}");
    }

    /// Every 32- and 16-bit type read flat from location 0 (output as its bits), plus an
    /// interpolated read of location 1 and a flat numeric i32 at location 1.
    const FLAT: &str = "
function @flat fragment {
block0:
    v0:i32 = input 0.x flat
    v1:f32 = input 0.y flat
    v2:i16 = input 0.z flat
    v3:f16 = input 0.w flat
    v4:f32 = fcvt v3
    v5:f32 = input 1.x linear
    v6:i32 = input 2.x flat
    output 0.x v0
    output 0.y v1
    output 0.z v2
    output 0.w v4
    output 1.x v5
    output 1.y v6
    return
}
";

    fn flat_launch(words: [u32; 4]) -> Launch {
        let grid = FragmentGrid::new(3, 2)
            .with_varying(0, Varying::words(words))
            .with_varying(
                1,
                Varying::affine([0.5, 0.0, 0.0, 0.0], [0.25, 0.0, 0.0, 0.0], [0.0; 4]),
            )
            .with_varying(2, Varying::constant([-7.9, 0.0, 0.0, 0.0]));
        Launch {
            case: "t".into(),
            stage: LaunchStage::Fragment(grid),
            buffers: Vec::new(),
            push: Vec::new(),
            textures: Vec::new(),
            outputs: vec![
                spec(OutputKey::Target { location: 0 }, 96),
                spec(OutputKey::Target { location: 1 }, 96),
            ],
        }
    }

    #[test]
    fn flat_varyings_are_words_on_the_g13() {
        let func =
            agxc_egraph::ir::parse_function(FLAT, &Default::default()).expect("test IR parses");
        // 0xDEADBEEF has no exact f32; 0xffc00001 is a quiet NaN with a payload; 0x0001_8001
        // gives the i16 input 0x8001 = -32767; the f16 input reads 0.75.
        let launch = flat_launch([0xDEAD_BEEF, 0xffc0_0001, 0x0001_8001, 0.75f32.to_bits()]);
        for level in OptLevel::ALL {
            let out = G13::new(level).execute(&func, &launch).expect("runs");
            let t0 = out
                .get(&OutputKey::Target { location: 0 })
                .expect("target 0");
            let words: Vec<u32> = t0
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            // Pixel (2, 1), the last one.
            assert_eq!(
                words[20..24],
                [
                    0xDEAD_BEEF,
                    0xffc0_0001,
                    (-32767i32) as u32,
                    0.75f32.to_bits()
                ],
                "{level}"
            );
            let t1 = floats(
                out.get(&OutputKey::Target { location: 1 })
                    .expect("target 1"),
            );
            // Interpolated: 0.5 + 0.25 * 2.5 at x = 2; the numeric flat i32 -7.9 reads -7.
            assert_eq!(t1[20], 1.125, "{level}");
            assert_eq!(t1[21].to_bits(), (-7i32) as u32, "{level}");
            // The interpreter reads the same words.
            let reference = Interpreter::new().execute(&func, &launch).expect("runs");
            assert_eq!(reference, out, "{level}");
        }
    }

    #[test]
    fn a_signalling_nan_word_travels_bit_for_bit() {
        let func =
            agxc_egraph::ir::parse_function(FLAT, &Default::default()).expect("test IR parses");
        let launch = flat_launch([1, 0x7f80_0001, 0, 0]);
        let reference = Interpreter::new().execute(&func, &launch).expect("runs");
        let t0 = reference
            .get(&OutputKey::Target { location: 0 })
            .expect("target 0");
        assert_eq!(t0[4..8], 0x7f80_0001u32.to_le_bytes());
        for level in OptLevel::ALL {
            let out = G13::new(level).execute(&func, &launch).expect("runs");
            assert_eq!(reference, out, "{level}");
        }
    }
}
