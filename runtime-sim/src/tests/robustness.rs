//! Robustness: bad binaries and bad programs are errors with a pc and a reason, never panics or
//! hangs.

use quickcheck::{QuickCheck, TestResult};

use super::asm::{alu1, alu2, d32, enc, operand::*};
use crate::decode::inst::Reg;
use crate::disasm::disassemble;
use crate::encoding::Opcode;
use crate::error::{DecodeErrorKind, Error, ExecErrorKind, LoadError, RuntimeError};
use crate::program::{Program, ProgramMetadata, Stage};
use crate::runtime::{Config, Engine, FragmentSetup, Simulator};

fn load_err(code: &[u8], meta: ProgramMetadata) -> LoadError {
    match Program::load(code, meta) {
        Err(e) => e,
        Ok(_) => panic!("expected a load error for {code:02x?}"),
    }
}

#[test]
fn truncated_and_unknown_encodings_are_decode_errors() {
    // fmadd with L = 1 needs 8 bytes; 4 remain.
    match load_err(&[0x3a, 0x81, 0x42, 0x42], ProgramMetadata::compute(8)) {
        LoadError::Decode(e) => {
            assert_eq!(e.pc, 0);
            assert_eq!(
                e.kind,
                DecodeErrorKind::Truncated {
                    needed: 8,
                    available: 4
                }
            );
        }
        other => panic!("{other}"),
    }
    // After a valid 2-byte stop, 0x7f is no instruction.
    match load_err(&[0x88, 0x00, 0x7f, 0x00], ProgramMetadata::compute(8)) {
        LoadError::Decode(e) => {
            assert_eq!(e.pc, 2);
            assert!(
                matches!(e.kind, DecodeErrorKind::UnknownEncoding { .. }),
                "{e}"
            );
        }
        other => panic!("{other}"),
    }
    // An odd 32-bit register in an ALU source is UNDEFINED in the document.
    let bad = enc(Opcode::Fadd, &[("A", 3), ("At", 9)]);
    assert!(matches!(
        load_err(&bad, ProgramMetadata::compute(8)),
        LoadError::Decode(e) if matches!(e.kind, DecodeErrorKind::UndefinedOperand { .. })
    ));
}

#[test]
fn registers_beyond_the_declared_count_are_rejected_at_load() {
    let code = [enc(Opcode::Rcp, &alu1(d32(4), r32(1))), vec![0x88, 0]].concat();
    assert_eq!(
        load_err(&code, ProgramMetadata::compute(8)),
        LoadError::RegisterOutOfRange {
            pc: 0,
            opcode: Opcode::Rcp,
            register: Reg::R32(4),
            declared: 8
        }
    );
    assert!(Program::load(&code, ProgramMetadata::compute(10)).is_ok());
}

#[test]
fn metadata_out_of_range_is_a_load_error() {
    let stop = [0x88, 0x00];
    let cases = [
        ("gpr_halves", ProgramMetadata::compute(0), 0, 1, 256),
        ("gpr_halves", ProgramMetadata::compute(257), 257, 1, 256),
        (
            "threadgroup_memory",
            ProgramMetadata {
                threadgroup_memory: u32::MAX,
                ..ProgramMetadata::compute(2)
            },
            u32::MAX,
            0,
            1 << 24,
        ),
        (
            "stack_size",
            ProgramMetadata {
                stack_size: (1 << 16) + 1,
                ..ProgramMetadata::compute(2)
            },
            (1 << 16) + 1,
            0,
            1 << 16,
        ),
    ];
    for (field, meta, value, min, max) in cases {
        assert_eq!(
            load_err(&stop, meta),
            LoadError::MetadataOutOfRange {
                field,
                value,
                min,
                max
            }
        );
    }
    // The largest accepted sizes load and run.
    let meta = ProgramMetadata {
        threadgroup_memory: 1 << 24,
        stack_size: 1 << 16,
        ..ProgramMetadata::compute(256)
    };
    let program = Program::load(&stop, meta).expect("loads");
    Simulator::new()
        .dispatch_compute(&program, [1, 1, 1], [32, 1, 1])
        .expect("runs");
}

fn exec_err(code: &[u8]) -> crate::error::ExecError {
    let program = Program::load(code, ProgramMetadata::compute(256)).expect("loads");
    match Simulator::new().dispatch_compute(&program, [1, 1, 1], [32, 1, 1]) {
        Err(Error::Exec(e)) => e,
        other => panic!("expected an execution error: {:?}", other.err()),
    }
}

#[test]
fn bad_control_flow_is_an_error_with_its_pc() {
    // Running off the end.
    let e = exec_err(&enc(Opcode::MovImm32, &[("D", 2), ("Dt", 2)]));
    assert_eq!(
        (e.pc, e.kind),
        (6, ExecErrorKind::RanOffEnd),
        "the short mov_imm is 6 bytes"
    );
    // A jump before the code.
    let e = exec_err(&enc(
        Opcode::JmpExecAny,
        &[("off", u64::from((-100i32) as u32))],
    ));
    assert_eq!(e.pc, 0);
    assert_eq!(
        e.kind,
        ExecErrorKind::TargetOutOfRange {
            opcode: Opcode::JmpExecAny,
            target: -100,
            code_size: 6
        }
    );
    // A jump into the middle of an instruction.
    let code = [
        enc(Opcode::JmpExecAny, &[("off", 7)]),
        enc(Opcode::MovImm32, &[("Dt", 2)]),
        vec![0x88, 0],
    ]
    .concat();
    let e = exec_err(&code);
    assert_eq!(
        e.kind,
        ExecErrorKind::TargetNotInstruction {
            opcode: Opcode::JmpExecAny,
            target: 7
        }
    );
    // trap.
    assert_eq!(exec_err(&[0x08, 0x00]).kind, ExecErrorKind::Trap);
    // A return to an address the threads disagree on.
    let code = [
        enc(Opcode::GetSr, &[("D", 4), ("Dt", 2), ("SR", 52)]),
        enc(Opcode::Ret, &[("reg32", 2)]),
    ]
    .concat();
    assert!(matches!(
        exec_err(&code).kind,
        ExecErrorKind::Divergent { .. }
    ));
}

#[test]
fn a_runaway_loop_ends_at_the_configured_step_limit() {
    // jmp_exec_any 0: jumps to itself forever.
    let code = enc(Opcode::JmpExecAny, &[("off", 0)]);
    // In every mode: both engines, one host thread and several, compute and fragment.
    for stage in [Stage::Compute, Stage::Fragment] {
        let meta = ProgramMetadata {
            stage,
            gpr_halves: 2,
            threadgroup_memory: 0,
            stack_size: 0,
        };
        let program = Program::load(&code, meta).expect("loads");
        for engine in [Engine::Fast, Engine::FastCompiled, Engine::Reference] {
            for threads in [1, 2] {
                let config = Config {
                    step_limit: 5000,
                    engine,
                    threads,
                    ..Config::default()
                };
                let setup = FragmentSetup {
                    width: 64,
                    height: 64,
                    varyings: Vec::new(),
                    clear: vec![[0.0; 4]],
                };
                match dispatch(&program, config, 16, [3, 1, 1], [1, 1, 1], &setup).0 {
                    Err(Error::Exec(e)) => {
                        assert_eq!(e.kind, ExecErrorKind::StepLimit { limit: 5000 })
                    }
                    other => panic!("{stage:?} {engine:?} {threads}: {:?}", other.err()),
                }
            }
        }
    }
}

#[test]
fn the_step_limit_stops_a_straight_run_at_the_exact_instruction() {
    // A loop of seven `iadd r1, r1, 1` (one straight run for the fast engine) and a jump
    // back: with a limit that falls inside the run, both engines must stop at the same
    // instruction, on one host thread and on several.
    let add = enc(Opcode::Iadd, &alu2(d32(1), r32(1), imm(1)));
    let body: Vec<u8> = (0..7).flat_map(|_| add.clone()).collect();
    let back = -(body.len() as i64) as u32;
    let code = [
        body.clone(),
        enc(Opcode::JmpExecAny, &[("off", u64::from(back))]),
    ]
    .concat();
    let program = Program::load(&code, ProgramMetadata::compute(4)).expect("loads");
    // 8 instructions per iteration: 3 more than a multiple of 8 ends at the fourth `iadd`.
    let limit = 8 * 100 + 3;
    for engine in [Engine::Fast, Engine::FastCompiled, Engine::Reference] {
        for threads in [1, 2] {
            let config = Config {
                step_limit: limit,
                engine,
                threads,
                ..Config::default()
            };
            let setup = FragmentSetup::default();
            match dispatch(&program, config, 16, [3, 1, 1], [1, 1, 1], &setup).0 {
                Err(Error::Exec(e)) => {
                    assert_eq!(e.kind, ExecErrorKind::StepLimit { limit });
                    assert_eq!(e.pc as usize, 3 * add.len(), "{engine:?} {threads}");
                }
                other => panic!("{engine:?} {threads}: {:?}", other.err()),
            }
        }
    }
}

#[test]
fn dispatches_are_bounded_by_grid_size_and_instruction_budget() {
    // Three instructions per SIMD-group.
    let code = [
        enc(Opcode::Iadd, &[]),
        enc(Opcode::Iadd, &[]),
        vec![0x88, 0x00],
    ]
    .concat();
    let program = Program::load(&code, ProgramMetadata::compute(4)).expect("loads");
    for engine in [Engine::Fast, Engine::FastCompiled, Engine::Reference] {
        for threads in [1, 2] {
            let config = Config {
                engine,
                threads,
                max_instructions: 30,
                max_grid_threads: 1 << 20,
                ..Config::default()
            };
            let mut sim = Simulator::with_config(config);
            // Ten workgroups of one SIMD-group: 30 instructions, within the budget.
            let stats = sim
                .dispatch_compute(&program, [10, 1, 1], [32, 1, 1])
                .expect("within the budget");
            assert_eq!(stats.instructions, 30);
            // The eleventh workgroup passes it, whichever thread runs it.
            assert_eq!(
                sim.dispatch_compute(&program, [100, 1, 1], [32, 1, 1]),
                Err(Error::Runtime(RuntimeError::InstructionBudget {
                    limit: 30,
                    item: 10,
                    what: "workgroup",
                }))
            );
            // 2^20 threads fit; one more workgroup does not, and nothing runs.
            assert!(sim
                .dispatch_compute(&program, [1 << 15, 1, 1], [32, 1, 1])
                .is_err());
            assert!(matches!(
                sim.dispatch_compute(&program, [(1 << 15) + 1, 1, 1], [32, 1, 1]),
                Err(Error::Runtime(RuntimeError::GridTooLarge { .. }))
            ));
            assert!(matches!(
                sim.dispatch_compute(&program, [65535, 65535, 65535], [1024, 1, 1]),
                Err(Error::Runtime(RuntimeError::GridTooLarge { max, .. })) if max == 1 << 20
            ));
        }
    }
}

#[test]
fn stage_mismatches_are_dispatch_errors() {
    let program = Program::load(&[0x88, 0], ProgramMetadata::compute(2)).expect("loads");
    let setup = FragmentSetup {
        width: 2,
        height: 2,
        varyings: vec![],
        clear: vec![],
    };
    assert_eq!(
        Simulator::new().shade_fragments(&program, &setup),
        Err(Error::Runtime(RuntimeError::WrongStage {
            call: "shade_fragments",
            needed: "fragment",
            got: "compute"
        }))
    );
    assert_eq!(
        Simulator::new().dispatch_compute(&program, [1, 1, 1], [2048, 1, 1]),
        Err(Error::Runtime(RuntimeError::WorkgroupSize {
            size: [2048, 1, 1],
            max: 1024
        }))
    );
    // 2^16 * 2^16 threads overflows u32: still the size error, not a wrapped count.
    assert!(matches!(
        Simulator::new().dispatch_compute(&program, [1, 1, 1], [1 << 16, 1 << 16, 1]),
        Err(Error::Runtime(RuntimeError::WorkgroupSize { .. }))
    ));
    let fragment = Program::load(&[0x88, 0], ProgramMetadata::fragment(2)).expect("loads");
    let huge = FragmentSetup {
        width: u32::MAX,
        height: u32::MAX,
        ..setup
    };
    assert!(matches!(
        Simulator::new().shade_fragments(&fragment, &huge),
        Err(Error::Runtime(RuntimeError::FragmentGrid { .. }))
    ));
    // ld_var in a compute program.
    let code = [
        enc(Opcode::LdVar, &[("D", 0), ("Dt", 2), ("mask", 1)]),
        vec![0x88, 0],
    ]
    .concat();
    let program = Program::load(&code, ProgramMetadata::compute(4)).expect("loads");
    match Simulator::new().dispatch_compute(&program, [1, 1, 1], [1, 1, 1]) {
        Err(Error::Exec(e)) => assert!(matches!(e.kind, ExecErrorKind::WrongStage { .. }), "{e}"),
        other => panic!("expected a stage error: {:?}", other.err()),
    }
}

/// Random bytes as code: loading, disassembling and running (compute and fragment, with a small
/// step limit and some memory bound) never panic and always finish.
#[test]
fn random_bytes_never_panic() {
    fn property(code: Vec<u8>, stage_bit: bool) -> TestResult {
        let _ = disassemble(&code);
        let stage = if stage_bit {
            Stage::Fragment
        } else {
            Stage::Compute
        };
        let meta = ProgramMetadata {
            stage,
            gpr_halves: 256,
            threadgroup_memory: 64,
            stack_size: 16,
        };
        let Ok(program) = Program::load(&code, meta) else {
            return TestResult::passed();
        };
        let config = Config {
            step_limit: 2000,
            check_uninitialized: true,
            ..Config::default()
        };
        let setup = FragmentSetup {
            width: 3,
            height: 3,
            varyings: vec![Default::default(); 2],
            clear: vec![[0.0; 4]; 2],
        };
        same_on_every_engine(&program, config, 256, [2, 1, 1], [40, 1, 1], &setup);
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(2000)
        .quickcheck(property as fn(Vec<u8>, bool) -> TestResult);
}

/// A plausible value for field `name` of width `width` from the random word `r`: operand types,
/// masks, modes and register numbers are biased toward encodings the decoder accepts, so that most
/// generated programs get past it and run.
pub(super) fn plausible(name: &str, width: u32, r: u64) -> u64 {
    let pick = |options: &[u64]| options[(r % options.len() as u64) as usize];
    match name {
        "At" | "Bt" | "Ct" if width == 4 => pick(&[0, 1, 2, 3, 5, 6, 9, 10, 11]),
        "At" | "Bt" | "Ct" | "Xt" | "Yt" if width == 3 => pick(&[0, 1, 2, 3, 4, 6, 7]),
        "srct" => pick(&[0, 1, 9]),
        "mask" => (r % 15) + 1,
        "lod" => pick(&[0, 1, 2, 4, 5, 6, 9, 12, 13]),
        "mode" => pick(&[0, 1, 4, 5, 6, 7, 8, 9, 10, 11]),
        "round" | "q2" | "q6" | "U" | "Tt" => r % 2,
        "cc" => pick(&[0, 1, 2, 4, 5, 6]),
        "F" | "Fx" | "s" => r % 2,
        "A" | "B" | "C" | "D" | "R" | "X" | "Y" | "O" | "Ol" | "Al" => r & ((1 << width) - 2),
        "Ax" | "Bx" | "Cx" | "Dx" | "Rx" | "Xx" | "Yx" | "Ox" | "Oh" | "Ah" | "Tx" | "Sx" => 0,
        "off" => r % 64,
        _ => r & ((1u64 << width.min(63)) - 1),
    }
}

/// Random instruction streams built from valid encodings with random field values: these get
/// past the decoder far more often than raw bytes.
#[test]
fn random_valid_encodings_never_panic() {
    use crate::encoding::{encodings, Length, Seg};
    fn property(picks: Vec<(u8, u64)>, stage_bit: bool) -> TestResult {
        let all: Vec<_> = encodings().collect();
        let mut code = vec![0x62, 0x00, 0x00, 0x00]; // mov_imm r0l, 0
        for (k, (which, seed)) in picks.iter().take(8).enumerate() {
            let e = all[usize::from(*which) % all.len()];
            let mut bits = u128::from(e.value);
            for (i, seg) in e.segs.iter().enumerate() {
                if let Seg::Field { name, hi, lo, .. } = *seg {
                    let r = seed.rotate_left((7 * i + 3 * k) as u32)
                        ^ (i as u64).wrapping_mul(0x9e37_79b9);
                    let v = plausible(name, u32::from(hi - lo + 1), r);
                    bits |= u128::from(v & ((1u64 << (hi - lo + 1).min(63)) - 1)) << lo;
                }
            }
            let len = match e.length {
                Length::Fixed(n) => n,
                Length::LongBit { bit, short, long } => {
                    if bits >> bit & 1 == 1 {
                        long
                    } else {
                        short
                    }
                }
            };
            code.extend_from_slice(&bits.to_le_bytes()[..usize::from(len)]);
        }
        code.extend_from_slice(&[0x88, 0]);
        let _ = disassemble(&code);
        let stage = if stage_bit {
            Stage::Fragment
        } else {
            Stage::Compute
        };
        let meta = ProgramMetadata {
            stage,
            gpr_halves: 256,
            threadgroup_memory: 64,
            stack_size: 16,
        };
        if let Ok(program) = Program::load(&code, meta) {
            let config = Config {
                step_limit: 500,
                check_uninitialized: false,
                ..Config::default()
            };
            let setup = FragmentSetup {
                width: 3,
                height: 2,
                varyings: vec![Default::default(); 16],
                clear: vec![[0.0; 4]; 8],
            };
            same_on_every_engine(&program, config, 4096, [1, 1, 1], [33, 1, 1], &setup);
            LOADED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(3000)
        .quickcheck(property as fn(Vec<(u8, u64)>, bool) -> TestResult);
    // Enough of the programs must get past the decoder for the property to exercise execution.
    assert!(LOADED.load(std::sync::atomic::Ordering::Relaxed) > 300);
}

static LOADED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// What a dispatch left behind: its result, and on success the device memory.
type Outcome = (Result<String, Error>, Option<Vec<u8>>);

/// Runs `program` (a buffer of `bytes` bytes at `u0_u1`) with `config` on one engine and host
/// thread count.
fn dispatch(
    program: &Program,
    config: Config,
    bytes: u64,
    groups: [u32; 3],
    workgroup: [u32; 3],
    setup: &FragmentSetup,
) -> Outcome {
    let mut sim = Simulator::with_config(config);
    let addr = sim.alloc(bytes, 16).expect("small allocation");
    sim.set_uniform64(0, addr).expect("uniform");
    let result = match program.metadata().stage {
        Stage::Compute => sim
            .dispatch_compute(program, groups, workgroup)
            .map(|stats| format!("{stats:?}")),
        Stage::Fragment => sim
            .shade_fragments(program, setup)
            .map(|out| format!("{:?}", (out.stats, out.targets))),
    };
    let memory = result
        .is_ok()
        .then(|| sim.read(addr, bytes).expect("read back"));
    (result, memory)
}

/// Runs a random program on both engines, one host thread each, and requires identical
/// results, statistics, errors and memory; then on several threads, which must not panic
/// (random programs race between workgroups, so their results may differ).
fn same_on_every_engine(
    program: &Program,
    config: Config,
    bytes: u64,
    groups: [u32; 3],
    workgroup: [u32; 3],
    setup: &FragmentSetup,
) {
    let run = |engine, threads| {
        let c = Config {
            engine,
            threads,
            ..config
        };
        dispatch(program, c, bytes, groups, workgroup, setup)
    };
    let reference = run(Engine::Reference, 1);
    for engine in [Engine::Fast, Engine::FastCompiled] {
        let fast = run(engine, 1);
        assert_eq!(
            reference,
            fast,
            "the reference and {engine:?} disagree on\n{}",
            program.disassemble()
        );
    }
    let _ = run(Engine::Fast, 2);
    let _ = run(Engine::FastCompiled, 2);
}
