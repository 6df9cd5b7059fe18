//! The runtime API end to end: compute dispatches with special registers, barriers across
//! SIMD-groups, fragment shading with varyings, helper lanes, discard and tile formats, and
//! statistics from the timing model. Texture instructions are in `texture_ops`.

use super::asm::{alu1, alu2, alu3, d32, enc, operand::*};
use crate::encoding::Opcode;
use crate::error::{Error, ExecErrorKind};
use crate::program::{Program, ProgramMetadata, Stage};
use crate::runtime::{FragmentSetup, Plane, Simulator, Varying};
use crate::timing::InstClass;

const STOP: [u8; 2] = [0x88, 0x00];

fn get_sr(d: u64, sr: u64) -> Vec<u8> {
    enc(
        Opcode::GetSr,
        &[("D", 2 * d), ("Dt", 2), ("SR", sr & 63), ("SRx", sr >> 6)],
    )
}

/// `device_store r<r>, u0_u1, r<off>, i32, 0b0001`.
fn store_i32(r: u64, off: u64) -> Vec<u8> {
    enc(
        Opcode::DeviceStore,
        &[
            ("F", 2),
            ("R", 2 * r),
            ("Rt", 1),
            ("At", 1),
            ("Ol", (2 * off) & 15),
            ("Oh", (2 * off) >> 4),
            ("Ot", 0),
            ("mask", 1),
        ],
    )
}

pub(super) fn load(code: &[Vec<u8>], meta: ProgramMetadata) -> Program {
    let mut bytes = code.concat();
    bytes.extend_from_slice(&STOP);
    Program::load(&bytes, meta).unwrap_or_else(|e| panic!("{e}"))
}

fn out_buffer(sim: &mut Simulator, words: u64) -> u64 {
    let addr = sim.alloc(4 * words, 16).expect("alloc");
    sim.set_uniform64(0, addr).expect("uniform");
    addr
}

#[test]
fn compute_dispatch_with_partial_simd_groups() {
    // out[gid] = gid * 3 over 3 workgroups of 40 threads.
    let program = load(
        &[
            get_sr(1, 80),
            enc(Opcode::Imadd, &alu3(d32(2), r32(1), imm(3), imm(0))),
            store_i32(2, 1),
        ],
        ProgramMetadata::compute(8),
    );
    let mut sim = Simulator::new();
    let out = out_buffer(&mut sim, 120);
    let stats = sim
        .dispatch_compute(&program, [3, 1, 1], [40, 1, 1])
        .expect("runs");
    let words = sim.read_u32s(out, 120).expect("read");
    assert!(
        words.iter().enumerate().all(|(i, &w)| w == 3 * i as u32),
        "{words:?}"
    );
    assert_eq!(
        stats.simd_groups, 6,
        "two SIMD-groups per 40-thread workgroup"
    );
    assert_eq!(stats.instructions, 6 * 4);
    assert_eq!(
        stats.thread_instructions,
        120 * 4,
        "missing threads never run"
    );
    assert_eq!(stats.count(InstClass::DeviceStore), 6);
    assert_eq!(stats.cycles.len(), 6);
}

#[test]
fn special_registers_of_a_3d_dispatch() {
    // out[index] = local.x | local.y << 8 | local.z << 16 | group.y << 24 for a 4x2x2 workgroup
    // and 1x2x1 groups, index = thread_position_in_grid.y * 4 + ... flattened by the kernel.
    let program = load(
        &[
            get_sr(1, 48),
            get_sr(2, 49),
            get_sr(3, 50),
            get_sr(4, 1),
            enc(
                Opcode::Bfi,
                &[alu3(d32(1), r32(1), r32(2), imm(8)), vec![("m2", 2)]].concat(),
            ),
            enc(
                Opcode::Bfi,
                &[alu3(d32(1), r32(1), r32(3), imm(16)), vec![("m2", 2)]].concat(),
            ),
            enc(
                Opcode::Bfi,
                &[alu3(d32(1), r32(1), r32(4), imm(24)), vec![("m2", 2)]].concat(),
            ),
            // linear index = 16 * group.y + thread_index_in_threadgroup
            get_sr(5, 51),
            enc(Opcode::Imadd, &alu3(d32(6), r32(4), imm(16), r32(5))),
            store_i32(1, 6),
        ],
        ProgramMetadata::compute(14),
    );
    let mut sim = Simulator::new();
    let out = out_buffer(&mut sim, 32);
    sim.dispatch_compute(&program, [1, 2, 1], [4, 2, 2])
        .expect("runs");
    let words = sim.read_u32s(out, 32).expect("read");
    for (i, &w) in words.iter().enumerate() {
        let (group_y, tid) = (i / 16, i % 16);
        let (x, y, z) = (tid % 4, (tid / 4) % 2, tid / 8);
        assert_eq!(
            w,
            (x | y << 8 | z << 16 | group_y << 24) as u32,
            "thread {i}"
        );
    }
}

/// `threadgroup_store` / `threadgroup_load` of a 32-bit register at index half `idx`.
fn tg(op: Opcode, r: u64, idx_half: u64) -> Vec<u8> {
    enc(
        op,
        &[
            ("R", 2 * r),
            ("Rt", 1),
            ("At", 2),
            ("F", 2),
            ("O", idx_half),
            ("Ot", 0),
            ("mask", 1),
        ],
    )
}

#[test]
fn barrier_orders_threadgroup_memory_across_simd_groups() {
    // tg[tid] = tid; barrier; out[gid] = tg[63 - tid]. Without the barrier SIMD-group 0 would read
    // entries SIMD-group 1 has not written yet.
    let program = load(
        &[
            get_sr(1, 51),
            tg(Opcode::ThreadgroupStore, 1, 2),
            enc(Opcode::ThreadgroupBarrier, &[]),
            enc(
                Opcode::Iadd,
                &[alu2(d32(3), imm(63), r32(1)), vec![("N", 1)]].concat(),
            ),
            tg(Opcode::ThreadgroupLoad, 4, 6),
            get_sr(5, 80),
            store_i32(4, 5),
        ],
        ProgramMetadata {
            threadgroup_memory: 256,
            ..ProgramMetadata::compute(12)
        },
    );
    let mut sim = Simulator::new();
    let out = out_buffer(&mut sim, 128);
    let stats = sim
        .dispatch_compute(&program, [2, 1, 1], [64, 1, 1])
        .expect("runs");
    let words = sim.read_u32s(out, 128).expect("read");
    for (i, &w) in words.iter().enumerate() {
        assert_eq!(w, 63 - (i % 64) as u32, "thread {i}");
    }
    assert_eq!(stats.count(InstClass::Barrier), 4);
}

#[test]
fn a_barrier_some_simd_groups_never_reach_is_a_deadlock() {
    // SIMD-group 1 jumps to a stop; SIMD-group 0 waits at the barrier.
    let mut code = vec![
        enc(Opcode::MovImm16, &[("D", 0), ("imm16", 0)]), // 0
        get_sr(1, 53),                                    // 4
        enc(
            Opcode::IfIcmp,
            &[
                ("cc", 0),
                ("n", 1),
                ("A", 2),
                ("At", 9),
                ("B", 0),
                ("Bt", 0),
            ],
        ), // 8
        enc(Opcode::JmpExecNone, &[("off", 16)]),         // 14 -> 30
        enc(Opcode::ThreadgroupBarrier, &[]),             // 20
        enc(Opcode::PopExec, &[("n", 1)]),                // 22
        STOP.to_vec(),                                    // 28
    ];
    code.push(STOP.to_vec()); // 30
    let program = Program::load(&code.concat(), ProgramMetadata::compute(4)).expect("loads");
    match Simulator::new().dispatch_compute(&program, [1, 1, 1], [64, 1, 1]) {
        Err(Error::Exec(e)) => {
            assert_eq!(e.kind, ExecErrorKind::BarrierDeadlock { stopped: 1 });
            assert_eq!(e.pc, 20);
        }
        other => panic!("expected a deadlock: {:?}", other.err()),
    }
}

pub(super) fn ld_var(d: u64, dt: u64, index: u64, mask: u64) -> Vec<u8> {
    enc(
        Opcode::LdVar,
        &[
            ("D", d & 63),
            ("Dx", d >> 6),
            ("Dt", dt),
            ("index", index),
            ("mask", mask),
        ],
    )
}

pub(super) fn st_tile(d: u64, rt: u64, mask: u64) -> Vec<u8> {
    enc(
        Opcode::StTile,
        &[("D", d), ("Dt", 2), ("F", 2), ("rt", rt), ("mask", mask)],
    )
}

#[test]
fn fragment_varyings_derivatives_and_helper_lanes() {
    let program = load(
        &[
            ld_var(0, 2, 0, 0b0011),
            ld_var(4, 2, 1, 0b0001),
            enc(Opcode::Dfdx, &alu1(d32(3), r32(0))),
            enc(Opcode::Dfdy, &alu1(d32(4), r32(1))),
            st_tile(0, 0, 0b1111),
            st_tile(8, 1, 0b0001),
        ],
        ProgramMetadata::fragment(10),
    );
    let x_plane = Plane {
        base: 1.0,
        ddx: 2.0,
        ddy: 0.5,
    };
    let y_plane = Plane {
        base: -1.0,
        ddx: 0.0,
        ddy: 4.0,
    };
    let setup = FragmentSetup {
        width: 5,
        height: 3,
        varyings: vec![
            Varying {
                planes: [x_plane, y_plane, Plane::default(), Plane::default()],
                flat: false,
            },
            Varying {
                planes: [Plane {
                    base: 7.0,
                    ddx: 100.0,
                    ddy: 100.0,
                }; 4],
                flat: true,
            },
        ],
        clear: vec![[0.0; 4], [9.0, 8.0, 7.0, 6.0]],
    };
    let out = Simulator::new()
        .shade_fragments(&program, &setup)
        .expect("runs");
    let plane =
        |p: Plane, x: u32, y: u32| (p.base + p.ddx * (x as f32 + 0.5)) + p.ddy * (y as f32 + 0.5);
    for y in 0..3 {
        for x in 0..5 {
            let px = out.targets[0].pixels[(y * 5 + x) as usize];
            assert_eq!(
                px,
                [plane(x_plane, x, y), plane(y_plane, x, y), 7.0, 2.0],
                "({x}, {y})"
            );
            let px1 = out.targets[1].pixels[(y * 5 + x) as usize];
            assert_eq!(px1, [4.0, 8.0, 7.0, 6.0], "({x}, {y})");
        }
    }
    // 3 x 2 quads = 6 quads: one SIMD-group of 24 threads, 9 of them helpers.
    assert_eq!(out.stats.simd_groups, 1);
    assert_eq!(out.stats.thread_instructions, 24 * 7);
}

#[test]
fn discarded_pixels_keep_the_clear_colour() {
    // Store (1, 1, 1, 1), then sample_mask 1, r7l with r7 = x ^ 1: odd-x pixels are discarded.
    let program = load(
        &[
            enc(
                Opcode::MovImm32,
                &[("D", 0), ("Dt", 2), ("imm32", u64::from(1.0f32.to_bits()))],
            ),
            st_tile(0, 0, 0b0001),
            get_sr(6, 80),
            enc(
                Opcode::Bitop,
                &[alu2(d32(7), r32(6), imm(1)), vec![("tt1", 1), ("tt2", 1)]].concat(),
            ),
            enc(
                Opcode::SampleMask,
                &[("Tt", 1), ("T", 1), ("St", 0), ("S", 14)],
            ),
            st_tile(0, 0, 0b0010),
        ],
        ProgramMetadata::fragment(16),
    );
    let setup = FragmentSetup {
        width: 4,
        height: 2,
        varyings: vec![],
        clear: vec![[0.5; 4]],
    };
    let out = Simulator::new()
        .shade_fragments(&program, &setup)
        .expect("runs");
    for y in 0..2 {
        for x in 0..4 {
            let px = out.targets[0].pixels[y * 4 + x];
            let expect = if x % 2 == 1 {
                [0.5; 4]
            } else {
                [1.0, 1.0, 0.5, 0.5]
            };
            assert_eq!(px, expect, "({x}, {y})");
        }
    }
}

#[test]
fn timing_model_counts_latency_and_issue() {
    // Three dependent fadds: each waits 2 cycles for the previous result: issue at 0, 2, 4,
    // results at 2, 4, 6; stop issues at 5 (interval 1 after the last fadd) and completes at 7.
    let program = load(
        &[
            enc(Opcode::Fadd, &alu2(d32(0), r32(1), r32(1))),
            enc(Opcode::Fadd, &alu2(d32(0), r32(0), r32(1))),
            enc(Opcode::Fadd, &alu2(d32(0), r32(0), r32(1))),
        ],
        ProgramMetadata::compute(4),
    );
    let stats = Simulator::new()
        .dispatch_compute(&program, [1, 1, 1], [32, 1, 1])
        .expect("runs");
    assert_eq!(stats.cycles, [7]);
    // Three independent rcp: issue at 0, 3, 6 (interval 3), last result at 6 + 5 = 11.
    let program = load(
        &[
            enc(Opcode::Rcp, &alu1(d32(0), r32(1))),
            enc(Opcode::Rcp, &alu1(d32(2), r32(1))),
            enc(Opcode::Rcp, &alu1(d32(3), r32(1))),
        ],
        ProgramMetadata::compute(8),
    );
    let stats = Simulator::new()
        .dispatch_compute(&program, [1, 1, 1], [32, 1, 1])
        .expect("runs");
    assert_eq!(stats.cycles, [11]);
    assert_eq!(stats.occupancy.map(|o| o.threads_per_core), Some(1024));
    let big = ProgramMetadata {
        gpr_halves: 200,
        ..ProgramMetadata::compute(8)
    };
    assert_eq!(load(&[], big).occupancy().threads_per_core, 512);
    let _ = Stage::Compute;
}

#[test]
fn ld_tile_reads_back_and_tile_formats_quantise() {
    // st_tile r0 (0.3) as unorm8 to rt 0 component x; ld_tile into r1; st_tile r1 to rt 1 as i32;
    // st_tile r0 as f16 to rt 1 component y.
    let program = load(
        &[
            enc(
                Opcode::MovImm32,
                &[("D", 0), ("Dt", 2), ("imm32", u64::from(0.3f32.to_bits()))],
            ),
            enc(
                Opcode::StTile,
                &[("D", 0), ("Dt", 2), ("F", 4), ("rt", 0), ("mask", 1)],
            ),
            enc(
                Opcode::LdTile,
                &[("D", 2), ("Dt", 2), ("F", 4), ("rt", 0), ("mask", 1)],
            ),
            enc(
                Opcode::StTile,
                &[("D", 2), ("Dt", 2), ("F", 2), ("rt", 1), ("mask", 1)],
            ),
            enc(
                Opcode::StTile,
                &[("D", 0), ("Dt", 2), ("F", 3), ("rt", 1), ("mask", 2)],
            ),
        ],
        ProgramMetadata::fragment(4),
    );
    let setup = FragmentSetup {
        width: 1,
        height: 1,
        varyings: vec![],
        clear: vec![[0.0; 4]; 2],
    };
    let out = Simulator::new()
        .shade_fragments(&program, &setup)
        .expect("runs");
    let unorm = (0.3f32 * 255.0).round() / 255.0;
    assert_eq!(out.targets[0].pixels[0][0], unorm);
    assert_eq!(
        out.targets[1].pixels[0][0], unorm,
        "ld_tile read the stored value back"
    );
    assert_eq!(
        out.targets[1].pixels[0][1],
        half::f16::from_f32(0.3).to_f32()
    );
}
