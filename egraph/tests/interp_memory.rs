//! Memory through the interpreter: multi-result loads and stores of every scalar type,
//! push constants, uniform buffers, buffer sizes, shared memory with barriers across the
//! workgroup, and the errors (out of bounds, misaligned, missing binding, read-only store,
//! divergent barrier).

mod interp_support;

use agxc_egraph::interp::{
    bytes_u32, f32_bytes, run_compute, u32_bytes, InterpError, Limits, Resources,
};
use agxc_egraph::ir::{AddressSpace, Binding, Builder, EffectOp, Function, MemAccess, Stage, Type};
use half::f16;
use interp_support::{f32s, i32s, parse, run_compute_text};

const MIXED: &str = "
function @mixed compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 0
    v6:i64, v1:f32, v2:i16, v3:i16, v4:f16, v5:f16 = load storage(0, 0) [v0]
    store storage(0, 1) [v0 + 8], v6, v5, v4, v3, v2, v1
    return
}
";

#[test]
fn multi_result_loads_and_stores_are_tightly_packed() {
    let mut input = Vec::new();
    input.extend(0x0102_0304_0506_0708i64.to_le_bytes());
    input.extend(1.5f32.to_le_bytes());
    input.extend((-2i16).to_le_bytes());
    input.extend(0x1234i16.to_le_bytes());
    input.extend(f16::from_f32(0.25).to_bits().to_le_bytes());
    input.extend(f16::from_f32(-3.0).to_bits().to_le_bytes());
    assert_eq!(input.len(), 20);
    let (res, _) = run_compute_text(MIXED, [1, 1, 1], &[input, vec![0xee; 28]]).unwrap();
    let mut expected = vec![0xee; 8];
    expected.extend(0x0102_0304_0506_0708i64.to_le_bytes());
    expected.extend(f16::from_f32(-3.0).to_bits().to_le_bytes());
    expected.extend(f16::from_f32(0.25).to_bits().to_le_bytes());
    expected.extend(0x1234i16.to_le_bytes());
    expected.extend((-2i16).to_le_bytes());
    expected.extend(1.5f32.to_le_bytes());
    assert_eq!(res.buffer_data(Binding::new(0, 1)).unwrap(), &expected[..]);
}

#[test]
fn scalars_are_aligned_to_their_size() {
    // Shifting the i64 to byte offset 4 misaligns it.
    let text = MIXED.replace("[v0 + 8]", "[v0 + 4]");
    let err = run_compute_text(&text, [1, 1, 1], &[vec![0; 20], vec![0; 28]]).unwrap_err();
    assert!(
        matches!(
            err,
            InterpError::Misaligned {
                offset: 4,
                size: 8,
                ..
            }
        ),
        "{err}"
    );
}

const BOOLS: &str = "
function @bools compute local_size(4, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:bool = load storage(0, 0) [v2]
    v4:bool = not v3
    store storage(0, 1) [v2], v4
    return
}
";

#[test]
fn bools_are_32_bit_words() {
    // Any non-zero word reads as true; a stored bool is the word 0 or 1.
    let (res, _) = run_compute_text(
        BOOLS,
        [1, 1, 1],
        &[u32_bytes(&[0, 1, 2, 0x8000_0000]), vec![0xff; 16]],
    )
    .unwrap();
    assert_eq!(i32s(&res, 1), [1, 0, 0, 0]);
}

const PUSH_AND_UNIFORM: &str = "
function @push compute local_size(2, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:f32 = load push [v2 + 8]
    v4:f32 = load uniform(1, 2) [v2]
    v5:f32 = fmul v3, v4
    store storage(0, 0) [v2], v5
    v6:i32 = buffer_size (0, 0)
    store storage(0, 1) [v2], v6
    return
}
";

#[test]
fn push_constants_uniforms_and_buffer_size() {
    let func = parse(PUSH_AND_UNIFORM);
    let mut res = Resources::new();
    res.set_push_constants(f32_bytes(&[0.0, 0.0, 2.0, -3.0]))
        .bind_uniform(Binding::new(1, 2), f32_bytes(&[10.0, 0.5]))
        .bind_storage(Binding::new(0, 0), vec![0; 8])
        .bind_storage(Binding::new(0, 1), vec![0; 8]);
    run_compute(&func, &mut res, [1, 1, 1], &Limits::default()).unwrap();
    assert_eq!(f32s(&res, 0), [20.0, -1.5]);
    assert_eq!(i32s(&res, 1), [8, 8]);
}

const SHARED: &str = "
function @shared compute local_size(8, 1, 1) shared(32) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:i32 = load shared [v2]
    v4:i32 = builtin workgroup_id.x
    v5:i32 = const 100
    v6:i32 = imul v4, v5
    v7:i32 = iadd v6, v0
    store shared [v2], v7
    barrier workgroup
    v8:i32 = const 7
    v9:i32 = isub v8, v0
    v10:i32 = imul v9, v1
    v11:i32 = load shared [v10]
    v12:i32 = builtin global_id.x
    v13:i32 = imul v12, v1
    store storage(0, 0) [v13], v3
    store storage(0, 1) [v13], v11
    return
}
";

#[test]
fn shared_memory_is_per_workgroup_and_zeroed() {
    let (res, stats) = run_compute_text(SHARED, [2, 1, 1], &[vec![0xff; 64], vec![0; 64]]).unwrap();
    // Every workgroup first reads zeros: the previous one's values are gone.
    assert_eq!(i32s(&res, 0), [0; 16]);
    // After the barrier each lane sees the value the mirrored lane wrote.
    let expected: Vec<i32> = (0..16).map(|g| (g / 8) * 100 + (7 - g % 8)).collect();
    assert_eq!(i32s(&res, 1), expected);
    assert_eq!(stats.workgroups, 2);
    assert_eq!(stats.lanes, 16);
}

#[test]
fn shared_memory_beyond_the_limit_is_refused_before_running() {
    // 4 GiB of shared memory per workgroup would exhaust the host rather than run.
    let huge = SHARED.replace("shared(32)", "shared(4294967295)");
    let err = run_compute(
        &parse(&huge),
        &mut Resources::new(),
        [1, 1, 1],
        &Limits::default(),
    )
    .unwrap_err();
    assert_eq!(
        err,
        InterpError::SharedMemory {
            bytes: u32::MAX,
            limit: 1 << 24
        }
    );
    let limits = Limits {
        max_shared_memory: 31,
        ..Limits::default()
    };
    let err = run_compute(&parse(SHARED), &mut Resources::new(), [1, 1, 1], &limits).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad launch: the function declares 32 bytes of shared memory, more than the limit of 31"
    );
}

const DIVERGENT_BARRIER: &str = "
function @bad_barrier compute local_size(4, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 2
    v2:bool = slt v0, v1
    if v2 {
    block1:
        barrier workgroup
        yield
    } else {
    block2:
        yield
    }
    return
}
";

#[test]
fn barrier_in_divergent_control_flow_is_an_error() {
    let err = run_compute_text(DIVERGENT_BARRIER, [1, 1, 1], &[]).unwrap_err();
    assert!(
        matches!(
            err,
            InterpError::DivergentBarrier {
                active: 2,
                running: 4,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().starts_with("inst4:"), "{err}");
}

const RETURN_THEN_BARRIER: &str = "
function @ok_barrier compute local_size(4, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 2
    v2:bool = slt v0, v1
    if v2 {
    block1:
        return
    } else {
    block2:
        yield
    }
    barrier workgroup
    return
}
";

#[test]
fn lanes_that_returned_do_not_hold_a_barrier_up() {
    assert!(run_compute_text(RETURN_THEN_BARRIER, [1, 1, 1], &[]).is_ok());
}

const SAME_ADDRESS: &str = "
function @race compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin local_index
    v1:i32 = const 0
    store storage(0, 0) [v1], v0
    return
}
";

#[test]
fn stores_happen_in_lane_order() {
    let (res, _) = run_compute_text(SAME_ADDRESS, [1, 1, 1], &[vec![0; 4]]).unwrap();
    assert_eq!(i32s(&res, 0), [7]);
}

/// A one-lane shader loading an f32 from `space` at `offset + constant`.
fn load_at(space: AddressSpace, offset: i32, constant: u32) -> Function {
    let mut func = Function::new("load_at", Stage::Compute);
    let mut b = Builder::new(&mut func);
    let off = b.i32(offset);
    b.effect(
        EffectOp::Load(MemAccess {
            space,
            offset: constant,
        }),
        &[off],
        &[Type::F32],
    );
    b.return_();
    func
}

fn run(func: &Function, res: &mut Resources) -> Result<(), InterpError> {
    run_compute(func, res, [1, 1, 1], &Limits::default()).map(|_| ())
}

#[test]
fn out_of_bounds_and_misaligned_accesses_are_errors() {
    let storage = AddressSpace::Storage(Binding::new(0, 0));
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), vec![0; 16]);
    assert!(run(&load_at(storage, 12, 0), &mut res).is_ok());
    let err = run(&load_at(storage, 12, 4), &mut res).unwrap_err();
    assert!(
        matches!(
            err,
            InterpError::OutOfBounds {
                offset: 16,
                size: 4,
                len: 16,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "inst1: 4-byte access at byte offset 16 is outside storage(0, 0) (16 bytes)"
    );
    let err = run(&load_at(storage, -4, 0), &mut res).unwrap_err();
    assert!(
        matches!(err, InterpError::OutOfBounds { offset: -4, .. }),
        "{err}"
    );
    let err = run(&load_at(storage, 2, 0), &mut res).unwrap_err();
    assert!(
        matches!(
            err,
            InterpError::Misaligned {
                offset: 2,
                size: 4,
                ..
            }
        ),
        "{err}"
    );
    let err = run(&load_at(AddressSpace::PushConstant, 0, 0), &mut res).unwrap_err();
    assert!(
        matches!(err, InterpError::OutOfBounds { len: 0, .. }),
        "{err}"
    );
}

#[test]
fn missing_or_mismatched_bindings_are_errors() {
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), vec![0; 16]);
    let err = run(
        &load_at(AddressSpace::Storage(Binding::new(0, 1)), 0, 0),
        &mut res,
    )
    .unwrap_err();
    assert_eq!(err.to_string(), "inst1: no storage buffer bound at (0, 1)");
    // A storage buffer is not a uniform buffer.
    let err = run(
        &load_at(AddressSpace::Uniform(Binding::new(0, 0)), 0, 0),
        &mut res,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            InterpError::MissingBuffer {
                kind: "uniform",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn stores_to_uniform_buffers_are_errors() {
    let mut func = Function::new("store_uniform", Stage::Compute);
    let mut b = Builder::new(&mut func);
    let off = b.i32(0);
    let v = b.f32(1.0);
    b.effect(
        EffectOp::Store(MemAccess {
            space: AddressSpace::Uniform(Binding::new(0, 0)),
            offset: 0,
        }),
        &[off, v],
        &[],
    );
    b.return_();
    let mut res = Resources::new();
    res.bind_uniform(Binding::new(0, 0), vec![0; 4]);
    // Rejected by the verifier or by the store itself; either way the error names inst2.
    let err = run(&func, &mut res).unwrap_err();
    assert!(err.to_string().contains("inst2"), "{err}");
    assert_eq!(bytes_u32(res.buffer_data(Binding::new(0, 0)).unwrap()), [0]);
}

/// A function reading its own constant data at a dynamic offset (the table of a large constant
/// array), as the SPIR-V front end emits it.
const TABLE: &str = "
function @table compute local_size(4, 1, 1) constants(0x3fc00000, 0x00000007, 0xbf800000, 0xfffffffe) {
block0:
    v0:i32 = builtin local_id.x
    v1:i32 = const 1
    v2:i32 = umin v0, v1
    v3:i32 = const 8
    v4:i32 = imul v2, v3
    v5:f32, v6:i32 = load constant [v4]
    v7:i32 = imul v0, v3
    store storage(0, 0) [v7], v5, v6
    return
}
";

#[test]
fn constant_data_is_read_only_memory_of_the_function() {
    let func = parse(TABLE);
    assert_eq!(
        bytes_u32(&func.constant_data),
        [0x3fc0_0000, 7, 0xbf80_0000, 0xffff_fffe]
    );
    // The text form prints the data back as it was read.
    assert_eq!(parse(&func.to_string()).constant_data, func.constant_data);
    let (res, _) = run_compute_text(TABLE, [1, 1, 1], &[vec![0; 32]]).unwrap();
    let out = bytes_u32(res.buffer_data(Binding::new(0, 0)).unwrap());
    // Lanes 1..4 clamp to entry 1.
    let one = [0xbf80_0000, 0xffff_fffe];
    assert_eq!(out[..2], [0x3fc0_0000, 7]);
    for lane in 1..4 {
        assert_eq!(out[2 * lane..2 * lane + 2], one);
    }
    // Past the end of the data is an error, and so is a store to it.
    let err = run_compute_text(
        &TABLE.replace("[v4]", "[v4 + 12]"),
        [1, 1, 1],
        &[vec![0; 32]],
    )
    .unwrap_err();
    assert!(err.to_string().contains("constant"), "{err}");
    let store = TABLE.replace(
        "store storage(0, 0) [v7], v5, v6",
        "store constant [v7], v5, v6",
    );
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), vec![0; 32]);
    assert!(run(&parse(&store), &mut res).is_err());
}
