//! Memory instructions: device loads and stores (formats, masks, shifts, alignment, faults),
//! threadgroup memory, the stack and `uniform_store`.

use half::f16;

use super::asm::enc;
use super::harness::{get16, get32, set16, set32, Env};
use crate::encoding::Opcode;
use crate::error::{Error, ExecErrorKind};

enum Off {
    Imm(i16),
    Reg(u64, bool),
}

/// A device load/store: registers from half `r` (32-bit when `rt`), base the uniform pair u0_u1.
fn dev(op: Opcode, fmt: u64, r: u64, rt: bool, off: Off, mask: u64, shift: u64) -> Vec<u8> {
    let (o, ot, ou) = match off {
        Off::Imm(v) => (u64::from(v as u16), 1, 0),
        Off::Reg(n, unsigned) => (2 * n, 0, u64::from(unsigned)),
    };
    enc(
        op,
        &[
            ("F", fmt & 7),
            ("Fx", fmt >> 3),
            ("R", r & 63),
            ("Rx", r >> 6),
            ("Rt", u64::from(rt)),
            ("At", 1),
            ("Ol", o & 15),
            ("Oh", (o >> 4) & 15),
            ("Ox", o >> 8),
            ("Ot", ot),
            ("Ou", ou),
            ("s", shift),
            ("mask", mask),
        ],
    )
}

fn wait() -> Vec<u8> {
    enc(Opcode::Wait, &[("i", 0)])
}

/// An environment with a 256-byte buffer holding `words` at u0_u1.
fn env(words: &[u32]) -> (Env, u64) {
    let mut env = Env::default();
    let addr = env.memory.alloc(256, 16).expect("alloc");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    env.memory.write(addr, &bytes).expect("write");
    env.uniforms[0] = addr as u32;
    env.uniforms[1] = (addr >> 32) as u32;
    (env, addr)
}

#[test]
fn load_mask_gaps_skip_memory_not_registers() {
    let (mut env, _) = env(&[10, 20, 30, 40]);
    let code = [
        dev(Opcode::DeviceLoad, 2, 8, true, Off::Imm(0), 0b1011, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, u32::MAX, |_| {}).expect("runs");
    assert_eq!(
        (get32(&g, 4, 0), get32(&g, 5, 0), get32(&g, 6, 0)),
        (10, 20, 40)
    );
}

#[test]
fn offsets_scale_by_element_size_and_shift_and_round_down() {
    let words: Vec<u32> = (0..64).map(|i| 100 + i).collect();
    let (mut env, _) = env(&words);
    // Per-lane register offset (r1 = lane): i32 element lane.
    let code = [
        dev(Opcode::DeviceLoad, 2, 8, true, Off::Reg(1, false), 1, 0),
        wait(),
    ]
    .concat();
    let g = env
        .run(&code, u32::MAX, |g| set32(g, 1, |l| l as u32))
        .expect("runs");
    assert!((0..32).all(|l| get32(&g, 4, l) == 100 + l as u32));
    // shift 1: offset << (2 + 1) = element 2 * offset.
    let code = [
        dev(Opcode::DeviceLoad, 2, 8, true, Off::Imm(3), 1, 1),
        wait(),
    ]
    .concat();
    let g = env.run(&code, u32::MAX, |_| {}).expect("runs");
    assert_eq!(get32(&g, 4, 0), 106);
    // A 16-bit load at byte offset 6 = element 3 of i16.
    let code = [
        dev(Opcode::DeviceLoad, 1, 8, true, Off::Imm(3), 1, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, u32::MAX, |_| {}).expect("runs");
    assert_eq!(get32(&g, 4, 0), 0, "upper half of word 1 (101) is 0");
    // A misaligned base rounds down: base + 2 with i32 reads word 0.
    env.uniforms[0] += 2;
    let code = [
        dev(Opcode::DeviceLoad, 2, 8, true, Off::Imm(0), 1, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, u32::MAX, |_| {}).expect("runs");
    assert_eq!(get32(&g, 4, 0), 100);
}

#[test]
fn signed_and_unsigned_register_offsets() {
    let (mut env, _) = env(&[1, 2, 3, 4]);
    env.uniforms[0] += 8; // base at word 2
    let code = [
        dev(Opcode::DeviceLoad, 2, 8, true, Off::Reg(1, false), 1, 0),
        wait(),
    ]
    .concat();
    let g = env
        .run(&code, 1, |g| set32(g, 1, |_| u32::MAX))
        .expect("signed -1");
    assert_eq!(get32(&g, 4, 0), 2);
    let code = [
        dev(Opcode::DeviceLoad, 2, 8, true, Off::Reg(1, true), 1, 0),
        wait(),
    ]
    .concat();
    match env.run(&code, 1, |g| set32(g, 1, |_| u32::MAX)) {
        Err(Error::Exec(e)) => assert!(
            matches!(e.kind, ExecErrorKind::DeviceFault { thread: 0, .. }),
            "{e}"
        ),
        other => panic!(
            "unsigned 0xffffffff * 4 is far out of bounds: {:?}",
            other.err()
        ),
    }
}

#[test]
fn integer_and_normalised_formats_unpack() {
    // Bytes: 0xff, 0x80, 0x01, 0x00 | 0x0000ffff as i16 pieces.
    let (mut env, _) = env(&[0x0001_80ff, 0x8000_7fff]);
    // i8 into 32-bit registers: zero-extended.
    let code = [
        dev(Opcode::DeviceLoad, 0, 8, true, Off::Imm(0), 0b0111, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, 1, |_| {}).expect("i8");
    assert_eq!(
        (get32(&g, 4, 0), get32(&g, 5, 0), get32(&g, 6, 0)),
        (0xff, 0x80, 0x01)
    );
    // unorm8 into f32 and f16 registers.
    let code = [
        dev(Opcode::DeviceLoad, 4, 8, true, Off::Imm(0), 0b0011, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, 1, |_| {}).expect("unorm8");
    assert_eq!(f32::from_bits(get32(&g, 4, 0)), 1.0);
    assert_eq!(f32::from_bits(get32(&g, 5, 0)), (128.0f64 / 255.0) as f32);
    let code = [
        dev(Opcode::DeviceLoad, 4, 8, false, Off::Imm(0), 0b0010, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, 1, |_| {}).expect("unorm8 to f16");
    assert_eq!(get16(&g, 8, 0), f16::from_f32(128.0 / 255.0).to_bits());
    // snorm8: 0x80 = -128 clamps to -1.0; 0xff = -1 -> -1/127.
    let code = [
        dev(Opcode::DeviceLoad, 5, 8, true, Off::Imm(0), 0b0011, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, 1, |_| {}).expect("snorm8");
    assert_eq!(f32::from_bits(get32(&g, 4, 0)), (-1.0f64 / 127.0) as f32);
    assert_eq!(f32::from_bits(get32(&g, 5, 0)), -1.0);
    // snorm16 of the second word: 0x7fff -> 1.0, 0x8000 -> -1.0.
    let code = [
        dev(Opcode::DeviceLoad, 7, 8, true, Off::Imm(2), 0b0011, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, 1, |_| {}).expect("snorm16");
    assert_eq!(
        (
            f32::from_bits(get32(&g, 4, 0)),
            f32::from_bits(get32(&g, 5, 0))
        ),
        (1.0, -1.0)
    );
}

#[test]
fn bit_packed_formats_read_one_word() {
    // rgb10a2: r = 1023, g = 512, b = 0, a = 3.
    let word = 1023 | 512 << 10 | 3 << 30;
    let (mut env, _) = env(&[0, word]);
    let code = [
        dev(Opcode::DeviceLoad, 8, 8, true, Off::Imm(1), 0b0001, 2),
        wait(),
    ]
    .concat();
    let g = env.run(&code, 1, |_| {}).expect("rgb10a2");
    let got: Vec<f32> = (4..8).map(|r| f32::from_bits(get32(&g, r, 0))).collect();
    assert_eq!(
        got,
        [1.0, 512.0 / 1023.0, 0.0, 1.0],
        "shift and mask are ignored"
    );
    // rgb9e5: mantissas 256, 128, 1 with exponent 16 (bias 15, 9 mantissa bits): m * 2^(16-24).
    let word = 256 | 128 << 9 | 1 << 18 | 16 << 27;
    let (mut env, _) = self::env(&[word]);
    let code = [
        dev(Opcode::DeviceLoad, 13, 8, true, Off::Imm(0), 0b0001, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, 1, |_| {}).expect("rgb9e5");
    let got: Vec<f32> = (4..7).map(|r| f32::from_bits(get32(&g, r, 0))).collect();
    assert_eq!(got, [1.0, 0.5, 1.0 / 256.0]);
    // rg11b10f: r = 1.0 (exponent 15, mantissa 0), g = 0.5, b = 2.0 (10-bit: exponent 16).
    let word = (15 << 6) | (14 << 6) << 11 | (16 << 5) << 22;
    let (mut env, _) = self::env(&[word]);
    let code = [
        dev(Opcode::DeviceLoad, 12, 8, true, Off::Imm(0), 0b0001, 0),
        wait(),
    ]
    .concat();
    let g = env.run(&code, 1, |_| {}).expect("rg11b10f");
    let got: Vec<f32> = (4..7).map(|r| f32::from_bits(get32(&g, r, 0))).collect();
    assert_eq!(got, [1.0, 0.5, 2.0]);
}

#[test]
fn stores_convert_and_respect_masks_and_the_execution_mask() {
    let (mut env, addr) = env(&[0; 8]);
    // unorm8 store of r4..r5 with mask 0b0101 (bytes 0 and 2), from lane 0 only.
    let code = dev(Opcode::DeviceStore, 4, 8, true, Off::Imm(0), 0b0101, 0);
    env.run(&code, 1, |g| {
        set32(g, 4, |_| 0.5f32.to_bits());
        set32(g, 5, |_| 2.0f32.to_bits());
    })
    .expect("store");
    // 0.5 * 255 = 127.5 rounds to even 128; 2.0 clamps to 255.
    assert_eq!(env.memory.read(addr, 4).expect("read"), [128, 0, 255, 0]);
    // i32 store with per-lane offsets from all 32 lanes, then bit-packed rgb10a2 from lane 0.
    let code = dev(Opcode::DeviceStore, 2, 8, true, Off::Reg(1, false), 1, 0);
    env.run(&code, u32::MAX, |g| {
        set32(g, 1, |l| l as u32);
        set32(g, 4, |l| 1000 + l as u32);
    })
    .expect("store");
    let words: Vec<u32> = env
        .memory
        .read(addr, 128)
        .expect("read")
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert!(words.iter().enumerate().all(|(i, &w)| w == 1000 + i as u32));
    let code = dev(Opcode::DeviceStore, 8, 8, true, Off::Imm(0), 1, 0);
    env.run(&code, 1, |g| {
        set32(g, 4, |_| 1.0f32.to_bits());
        set32(g, 5, |_| 0.0f32.to_bits());
        set32(g, 6, |_| (512.0f32 / 1023.0).to_bits());
        set32(g, 7, |_| 1.0f32.to_bits());
    })
    .expect("rgb10a2 store");
    let w = u32::from_le_bytes(
        env.memory
            .read(addr, 4)
            .expect("read")
            .try_into()
            .expect("4 bytes"),
    );
    assert_eq!(w, 1023 | 512 << 20 | 3 << 30);
}

/// rg11b10f stores of infinities and of finite values too large for the small floats: +inf
/// stays infinite (exponent 31, mantissa 0), a large finite value becomes the largest finite
/// value (exponent 30, mantissa all ones: 65024 for 11 bits, 64512 for 10 bits), -inf is 0.
#[test]
fn rg11b10f_stores_of_huge_values_saturate() {
    let (mut env, addr) = env(&[0; 4]);
    let code = dev(Opcode::DeviceStore, 12, 8, true, Off::Imm(0), 1, 0);
    env.run(&code, 1, |g| {
        set32(g, 4, |_| f32::INFINITY.to_bits());
        set32(g, 5, |_| 1.0e30f32.to_bits());
        set32(g, 6, |_| f32::NEG_INFINITY.to_bits());
    })
    .expect("rg11b10f store");
    let w = u32::from_le_bytes(
        env.memory
            .read(addr, 4)
            .expect("read")
            .try_into()
            .expect("4 bytes"),
    );
    assert_eq!(w, (31 << 6) | ((30 << 6) | 0x3f) << 11);
    env.run(&code, 1, |g| {
        set32(g, 4, |_| 1.0f32.to_bits());
        set32(g, 5, |_| 0.0f32.to_bits());
        set32(g, 6, |_| 65535.0f32.to_bits());
    })
    .expect("rg11b10f store");
    let w = u32::from_le_bytes(
        env.memory
            .read(addr, 4)
            .expect("read")
            .try_into()
            .expect("4 bytes"),
    );
    // 1.0 is exponent 15; 65535 would round up to 2^16, past the 10-bit float's largest finite
    // value 64512.
    assert_eq!(w, (15 << 6) | ((30 << 5) | 0x1f) << 22);
}

#[test]
fn out_of_bounds_accesses_fault() {
    let (mut env, addr) = env(&[0; 4]);
    let code = dev(Opcode::DeviceStore, 2, 8, true, Off::Imm(64), 1, 0);
    match env.run(&code, 1, |_| {}) {
        Err(Error::Exec(e)) => assert_eq!(
            e.kind,
            ExecErrorKind::DeviceFault {
                thread: 0,
                access: "store",
                address: addr + 256,
                len: 4
            }
        ),
        other => panic!("expected a fault: {:?}", other.err()),
    }
}

#[test]
fn threadgroup_memory_round_trip_and_bounds() {
    // threadgroup_store r4 (32-bit) to base 0 (immediate, At = 2), index r2l (per lane), i32;
    // then threadgroup_load r5 from index r3l.
    let store = enc(
        Opcode::ThreadgroupStore,
        &[
            ("R", 8),
            ("Rt", 1),
            ("At", 2),
            ("F", 2),
            ("O", 4),
            ("Ot", 0),
            ("mask", 1),
        ],
    );
    let load = enc(
        Opcode::ThreadgroupLoad,
        &[
            ("R", 10),
            ("Rt", 1),
            ("At", 2),
            ("F", 2),
            ("O", 6),
            ("Ot", 0),
            ("mask", 1),
        ],
    );
    let mut env = Env::default();
    let g = env
        .run(&[store.clone(), load].concat(), u32::MAX, |g| {
            set16(g, 4, |l| l as u16);
            set16(g, 6, |l| (31 - l) as u16);
            set32(g, 4, |l| 7 * l as u32);
        })
        .expect("runs");
    assert!((0..32).all(|l| get32(&g, 5, l) == 7 * (31 - l as u32)));
    // Index 64 * 4 = 256 is past the 256-byte threadgroup memory.
    match Env::default().run(&store, 1, |g| set16(g, 4, |_| 64)) {
        Err(Error::Exec(e)) => assert_eq!(
            e.kind,
            ExecErrorKind::ThreadgroupFault {
                thread: 0,
                access: "store",
                offset: 256,
                len: 4,
                size: 256
            }
        ),
        other => panic!("expected a fault: {:?}", other.err()),
    }
}

#[test]
fn stack_spills_and_fills_per_thread() {
    // stack_store r3 at sp + 16; clobber r3; stack_adjust +8; stack_get_ptr r8;
    // stack_load r3 from sp + 8 (the same bytes).
    let stack = |op, offset: u64| {
        enc(
            op,
            &[
                ("F", 2),
                ("R", 6),
                ("Rt", 1),
                ("Ol", offset & 15),
                ("Oh", offset >> 4),
                ("Ot", 1),
                ("mask", 1),
            ],
        )
    };
    let code = [
        stack(Opcode::StackStore, 16),
        enc(Opcode::MovImm32, &[("D", 6), ("Dt", 2), ("imm32", 0)]),
        enc(Opcode::StackAdjust, &[("v1", 8)]),
        enc(Opcode::StackGetPtr, &[("R", 16)]),
        stack(Opcode::StackLoad, 8),
    ]
    .concat();
    let g = Env::default()
        .run(&code, u32::MAX, |g| set32(g, 3, |l| 50 + l as u32))
        .expect("runs");
    assert!(
        (0..32).all(|l| get32(&g, 3, l) == 50 + l as u32),
        "each thread has its own stack"
    );
    assert_eq!(get32(&g, 8, 0), 8, "stack_get_ptr reads sp");
    // Moving sp past the 64-byte stack is a fault; so is an access past it.
    let far = enc(Opcode::StackAdjust, &[("v2", 5)]); // +80
    match Env::default().run(&far, 1, |_| {}) {
        Err(Error::Exec(e)) => assert!(
            matches!(
                e.kind,
                ExecErrorKind::StackFault {
                    access: "adjust",
                    ..
                }
            ),
            "{e}"
        ),
        other => panic!("expected a fault: {:?}", other.err()),
    }
    match Env::default().run(&stack(Opcode::StackLoad, 64), 1, |_| {}) {
        Err(Error::Exec(e)) => assert_eq!(
            e.kind,
            ExecErrorKind::StackFault {
                thread: 0,
                access: "load",
                offset: 64,
                len: 4,
                size: 64
            }
        ),
        other => panic!("expected a fault: {:?}", other.err()),
    }
}

#[test]
fn uniform_store_writes_uniform_halves() {
    // uniform_store r2l, r2h to 16-bit uniforms 8 and 9 (u4l, u4h), i16, mask 0b0011.
    let code = enc(
        Opcode::UniformStore,
        &[("F", 1), ("R", 4), ("Ol", 8), ("Ot", 1), ("mask", 3)],
    );
    let mut env = Env::default();
    env.run(&code, 0b1100, |g| {
        set32(g, 2, |l| {
            0x1111_0000u32.wrapping_mul(l as u32 + 1) + l as u32
        })
    })
    .expect("runs");
    // The lowest active thread (2) supplies the value: 0x3333_0002.
    assert_eq!(env.uniforms[4], 0x3333_0002);
}

#[test]
fn loads_of_one_address_by_every_active_lane_fill_only_the_active_lanes() {
    // Four words at one address for every lane (a uniform buffer's vec4), under a partial
    // mask (lanes 0-3 active: r0l set by the test), then the same load with the address in
    // a register that differs in an inactive lane only, and in an active one.
    let (mut env, _) = env(&[5, 6, 7, 8, 9]);
    let load = dev(Opcode::DeviceLoad, 2, 8, true, Off::Reg(1, true), 0b1111, 0);
    let code = [load.clone(), wait()].concat();
    type Offsets = fn(usize) -> u32;
    let cases: [(Offsets, usize); 3] = [
        (|_| 0, 3),
        (|l| u32::from(l >= 4), 3),
        (|l| u32::from(l == 2), 2),
    ];
    for (offsets, lane) in cases {
        let g = env
            .run(&code, u32::MAX, |g| {
                set32(g, 1, offsets);
                set16(g, 0, |l| u16::from(l >= 4));
                g.exec = 0xf;
                set32(g, 4, |_| 99);
            })
            .expect("runs");
        let base = offsets(lane) as usize;
        for k in 0..4 {
            assert_eq!(get32(&g, 4 + k as u8, lane), [5, 6, 7, 8, 9][base + k]);
            assert_eq!(get32(&g, 4 + k as u8, 4), if k == 0 { 99 } else { 0 });
        }
    }
}
