//! G13 machine code -> decode, disassemble, load and run in the simulator with a step limit:
//! no panic, no hang. Byte 0 picks the stage and the register count; the rest is the code.
//! Seeds: the corpus shaders compiled with `--emit bin` (`fuzz/seed.sh`), behind a zero byte.
#![no_main]

use agxc::runtime_sim::program::{Program, ProgramMetadata};
use agxc::runtime_sim::runtime::{Config, FragmentSetup, Simulator, Varying};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&head, code)) = data.split_first() else {
        return;
    };
    // Neither may panic on any bytes.
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
        step_limit: 20_000,
        check_uninitialized: head & 0x40 != 0,
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
});
