//! The `g13_run` target: G13 machine code -> decode, disassemble, load and run in the
//! simulator with a step limit.

use agxc::runtime_sim::program::{Program, ProgramMetadata};
use agxc::runtime_sim::runtime::{Config, Engine, FragmentSetup, Simulator, Varying};

/// The simulator's instruction budget per run: small, so that a fuzzed loop ends quickly.
const STEP_LIMIT: u64 = 20_000;

/// Byte 0 picks the stage (bit 0: compute or fragment), the register count (bits 1-2: 256,
/// 128, 64 or 32 halves), threadgroup memory (bit 4), a stack (bit 5) and the uninitialized
/// read check (bit 6) and the engine (bit 7: the fast one or the reference executor); the
/// rest is the code. Nothing may panic or run past the step limit;
/// every error is fine.
pub fn g13_run(data: &[u8]) {
    let Some((&head, code)) = data.split_first() else {
        return;
    };
    let _ = agxc::runtime_sim::disasm::disassemble(code);
    let _ = agxc::runtime_sim::decode::decode_program(code);

    let fragment = head & 1 == 1;
    let gpr_halves = 256 >> (head >> 1 & 3);
    let mut metadata = if fragment {
        ProgramMetadata::fragment(gpr_halves)
    } else {
        ProgramMetadata::compute(gpr_halves)
    };
    metadata.threadgroup_memory = if head & 0x10 != 0 { 4096 } else { 0 };
    metadata.stack_size = if head & 0x20 != 0 { 256 } else { 0 };
    let Ok(program) = Program::load(code, metadata) else {
        return;
    };
    let _ = program.disassemble();

    let mut sim = Simulator::with_config(Config {
        step_limit: STEP_LIMIT,
        max_instructions: 64 * STEP_LIMIT,
        check_uninitialized: head & 0x40 != 0,
        engine: if head & 0x80 != 0 {
            Engine::Reference
        } else {
            Engine::Fast
        },
        // One thread: the fuzzer runs one process per core.
        threads: 1,
        ..Config::default()
    });
    // One buffer, its address in u0..u15 (eight 64-bit pairs), so that loads and stores
    // through any of them land somewhere.
    let Ok(buffer) = sim.alloc(1 << 16, 256) else {
        return;
    };
    for pair in 0..8 {
        let _ = sim.set_uniform64(2 * pair, buffer);
    }
    if fragment {
        let setup = FragmentSetup {
            width: 5,
            height: 3,
            varyings: vec![Varying::default(); 4],
            clear: vec![[0.25; 4]; 2],
        };
        let _ = sim.shade_fragments(&program, &setup);
    } else {
        let _ = sim.dispatch_compute(&program, [2, 1, 1], [40, 1, 1]);
    }
}
