//! Lowering of individual constructs, checked by running the result or by looking at the IR.

use super::kernel::{lift_with, run, run_lifted, Kernel, LOCAL};
use crate::spirv::LiftOptions;
use agxc_egraph::ir::{Function, InstFlags, Op, PureOp, Stage};
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, InsertPoint, Instruction, Operand};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, LoopControl, MemoryModel, SelectionControl, StorageClass,
};

fn input(n: usize) -> Vec<u32> {
    (0..n as u32).map(|i| i * 7 % 23).collect()
}

/// Every instruction reachable from the entry block.
fn ops(func: &Function) -> Vec<(Op, InstFlags)> {
    let mut out = Vec::new();
    func.for_each_inst(|_, i| out.push((func.inst(i).op, func.inst(i).flags)));
    out
}

#[test]
fn loop_header_phis_carry_values() {
    let mut k = Kernel::new();
    let (header, body, cont, merge) = (k.b.id(), k.b.id(), k.b.id(), k.b.id());
    let (i2, acc2) = (k.b.id(), k.b.id());
    let (zero, one) = (k.u32(0), k.u32(1));
    let n = k.load_in(k.gid);
    let entry = k.entry;
    k.b.branch(header).unwrap();
    k.b.begin_block(Some(header)).unwrap();
    let i = k.b.phi(k.uint, None, [(zero, entry), (i2, cont)]).unwrap();
    let acc =
        k.b.phi(k.uint, None, [(zero, entry), (acc2, cont)])
            .unwrap();
    let more = k.b.u_less_than(k.boolean, None, i, n).unwrap();
    k.b.loop_merge(merge, cont, LoopControl::NONE, []).unwrap();
    k.b.branch_conditional(more, body, merge, []).unwrap();
    k.b.begin_block(Some(body)).unwrap();
    k.b.i_add(k.uint, Some(acc2), acc, i).unwrap();
    k.b.branch(cont).unwrap();
    k.b.begin_block(Some(cont)).unwrap();
    k.b.i_add(k.uint, Some(i2), i, one).unwrap();
    k.b.branch(header).unwrap();
    k.b.begin_block(Some(merge)).unwrap();
    k.store_out(k.gid, acc);
    let words = k.finish();
    let inp = input(16);
    let out = run(&words, &inp);
    for (x, y) in inp.iter().zip(&out) {
        assert_eq!(*y, x * x.saturating_sub(1) / 2, "sum of 0..{x}");
    }
}

#[test]
fn no_contraction_and_relaxed_precision_become_flags() {
    let mut k = Kernel::new();
    let x = k.load_in(k.gid);
    let x = k.b.bitcast(k.float, None, x).unwrap();
    let (m, r) = (k.b.id(), k.b.id());
    k.b.decorate(m, Decoration::NoContraction, []);
    k.b.decorate(r, Decoration::RelaxedPrecision, []);
    k.b.f_mul(k.float, Some(m), x, x).unwrap();
    let a = k.b.f_add(k.float, None, m, x).unwrap();
    k.b.f_sub(k.float, Some(r), a, x).unwrap();
    let bits = k.b.bitcast(k.uint, None, r).unwrap();
    k.store_out(k.gid, bits);
    let func = lift_with(&k.finish(), &LiftOptions::default());
    let all = ops(&func);
    let with = |op: PureOp, flag: InstFlags| {
        all.iter()
            .filter(|(o, f)| *o == Op::Pure(op) && f.contains(flag))
            .count()
    };
    assert_eq!(with(PureOp::Fmul, InstFlags::NO_CONTRACT), 1);
    assert_eq!(with(PureOp::Fadd, InstFlags::NO_CONTRACT), 0);
    assert_eq!(with(PureOp::Fsub, InstFlags::RELAXED), 1);
    assert_eq!(with(PureOp::Fsub, InstFlags::NO_CONTRACT), 0);
    // Only the decorated instructions carry flags.
    assert_eq!(all.iter().filter(|(_, f)| !f.is_empty()).count(), 2);
}

#[test]
fn switch_with_fall_through_literals_to_merge_and_merge_phi() {
    let mut k = Kernel::new();
    let (case2, case3, merge) = (k.b.id(), k.b.id(), k.b.id());
    let ptr = k.b.type_pointer(None, StorageClass::Function, k.uint);
    let var = k.b.variable(ptr, None, StorageClass::Function, None);
    let (c0, c10, c20, c1000, c4) = (k.u32(0), k.u32(10), k.u32(20), k.u32(1000), k.u32(4));
    k.b.store(var, c0, None, []).unwrap();
    let x = k.load_in(k.gid);
    let sel = k.b.u_mod(k.uint, None, x, c4).unwrap();
    let header = k.entry;
    k.b.selection_merge(merge, SelectionControl::NONE).unwrap();
    // case 1 goes straight to the merge; case 3 falls through into case 2; default is the merge.
    k.b.switch(
        sel,
        merge,
        [
            (Operand::LiteralBit32(1), merge),
            (Operand::LiteralBit32(3), case3),
            (Operand::LiteralBit32(2), case2),
        ],
    )
    .unwrap();
    k.b.begin_block(Some(case3)).unwrap();
    let v = k.b.load(k.uint, None, var, None, []).unwrap();
    let v = k.b.i_add(k.uint, None, v, c1000).unwrap();
    k.b.store(var, v, None, []).unwrap();
    k.b.branch(case2).unwrap();
    k.b.begin_block(Some(case2)).unwrap();
    let v = k.b.load(k.uint, None, var, None, []).unwrap();
    let t = k.b.i_add(k.uint, None, v, c20).unwrap();
    k.b.branch(merge).unwrap();
    k.b.begin_block(Some(merge)).unwrap();
    let result = k.b.phi(k.uint, None, [(c10, header), (t, case2)]).unwrap();
    k.store_out(k.gid, result);
    let inp: Vec<u32> = (0..16).collect();
    let out = run(&k.finish(), &inp);
    for (x, y) in inp.iter().zip(&out) {
        let want = match x % 4 {
            2 => 20,
            3 => 1020,
            _ => 10,
        };
        assert_eq!(*y, want, "selector {}", x % 4);
    }
}

/// A kernel storing `spec_const(SpecId 3, default 7) * 2`, computed by `OpSpecConstantOp`.
fn spec_kernel() -> Vec<u32> {
    let mut k = Kernel::new();
    let spec = k.b.spec_constant_bit32(k.uint, 7);
    k.b.decorate(spec, Decoration::SpecId, [Operand::LiteralBit32(3)]);
    let two = k.u32(2);
    let id = k.b.id();
    let op = Instruction::new(
        spirv::Op::SpecConstantOp,
        Some(k.uint),
        Some(id),
        vec![
            Operand::LiteralSpecConstantOpInteger(spirv::Op::IMul),
            Operand::IdRef(spec),
            Operand::IdRef(two),
        ],
    );
    k.b.insert_types_global_values(InsertPoint::End, op);
    k.store_out(k.gid, id);
    k.finish()
}

#[test]
fn specialization_constants_take_defaults_or_overrides() {
    let words = spec_kernel();
    let inp = vec![0; LOCAL as usize];
    let out = run(&words, &inp);
    assert!(out.iter().all(|&v| v == 14), "{out:?}");
    let options = LiftOptions {
        specialization: vec![(3, 5)],
        ..LiftOptions::default()
    };
    let out = run_lifted(&lift_with(&words, &options), &inp);
    assert!(out.iter().all(|&v| v == 10), "{out:?}");
}

#[test]
fn workgroup_size_constant_overrides_local_size() {
    let mut k = Kernel::new();
    let uvec3 = k.b.type_vector(k.uint, 3);
    let x = k.b.spec_constant_bit32(k.uint, 4);
    k.b.decorate(x, Decoration::SpecId, [Operand::LiteralBit32(0)]);
    let one = k.u32(1);
    let size = k.b.spec_constant_composite(uvec3, [x, one, one]);
    k.b.decorate(
        size,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::WorkgroupSize)],
    );
    let words = k.finish();
    assert_eq!(
        lift_with(&words, &LiftOptions::default()).modes.local_size,
        [4, 1, 1]
    );
    let options = LiftOptions {
        specialization: vec![(0, 2)],
        ..LiftOptions::default()
    };
    assert_eq!(lift_with(&words, &options).modes.local_size, [2, 1, 1]);
}

#[test]
fn integer_and_float_remainders_follow_spirv() {
    // (opcode, divisor bits, expected from the dividend)
    type Expect = fn(u32) -> u32;
    let cases: [(spirv::Op, u32, Expect); 4] = [
        (spirv::Op::SMod, (-7i32) as u32, |a| {
            (a as i32 % -7 + if a as i32 % -7 > 0 { -7 } else { 0 }) as u32
        }),
        (spirv::Op::SMod, 5, |a| (a as i32).rem_euclid(5) as u32),
        (spirv::Op::FMod, (-2.5f32).to_bits(), |a| {
            let x = f32::from_bits(a);
            (x - -2.5 * (x / -2.5).floor()).to_bits()
        }),
        (spirv::Op::FRem, (-2.5f32).to_bits(), |a| {
            let x = f32::from_bits(a);
            (x - -2.5 * (x / -2.5).trunc()).to_bits()
        }),
    ];
    let inp: Vec<u32> = [
        -17i32,
        -7,
        -6,
        -1,
        0,
        1,
        6,
        7,
        13,
        22,
        -22,
        3,
        i32::MIN + 1,
        100,
        -100,
        35,
    ]
    .iter()
    .map(|&a| a as u32)
    .collect();
    let finp: Vec<u32> = [
        -7.25f32, -5.0, -2.5, -0.75, 0.0, 0.5, 2.5, 3.75, 6.0, 7.5, -8.0, 1e3, -1e3, 0.1, 9.99,
        -0.1,
    ]
    .iter()
    .map(|x| x.to_bits())
    .collect();
    for (op, divisor, expect) in cases {
        let float = matches!(op, spirv::Op::FMod | spirv::Op::FRem);
        let mut k = Kernel::new();
        let ty = if float { k.float } else { k.int };
        let d = k.b.constant_bit32(ty, divisor);
        let a = k.load_in(k.gid);
        let a = k.b.bitcast(ty, None, a).unwrap();
        let r = match op {
            spirv::Op::SMod => k.b.s_mod(ty, None, a, d),
            spirv::Op::FMod => k.b.f_mod(ty, None, a, d),
            _ => k.b.f_rem(ty, None, a, d),
        }
        .unwrap();
        let r = k.b.bitcast(k.uint, None, r).unwrap();
        k.store_out(k.gid, r);
        let data = if float { &finp } else { &inp };
        let out = run(&k.finish(), data);
        for (x, y) in data.iter().zip(&out) {
            assert_eq!(*y, expect(*x), "{op:?}({:#x}, {divisor:#x})", x);
        }
    }
}

#[test]
fn shuffle_undefined_component_and_composite_select() {
    let mut k = Kernel::new();
    let uvec2 = k.b.type_vector(k.uint, 2);
    let two = k.u32(2);
    let four = k.u32(4);
    let g2 = k.b.i_mul(k.uint, None, k.gid, two).unwrap();
    let v = k.b.composite_construct(uvec2, None, [k.gid, g2]).unwrap();
    // Component 1 of the shuffle is undefined (0xFFFFFFFF).
    let w =
        k.b.vector_shuffle(uvec2, None, v, v, [1, 0xFFFF_FFFF])
            .unwrap();
    let small = k.b.u_less_than(k.boolean, None, k.gid, four).unwrap();
    let s = k.b.select(uvec2, None, small, v, w).unwrap();
    let s0 = k.b.composite_extract(k.uint, None, s, [0]).unwrap();
    k.store_out(k.gid, s0);
    let inp = vec![0; 16];
    let out = run(&k.finish(), &inp);
    for (g, y) in out.iter().enumerate() {
        let g = g as u32;
        assert_eq!(*y, if g < 4 { g } else { 2 * g });
    }
}

#[test]
fn single_return_callee_is_inlined_without_a_loop() {
    let mut k = Kernel::new();
    let fn_ty = k.b.type_function(k.uint, [k.uint]);
    let callee = k.b.id();
    let x = k.load_in(k.gid);
    let r = k.b.function_call(k.uint, None, callee, [x]).unwrap();
    k.store_out(k.gid, r);
    let uint = k.uint;
    let words = k.finish_with(|b| {
        b.begin_function(uint, Some(callee), FunctionControl::NONE, fn_ty)
            .unwrap();
        let p = b.function_parameter(uint).unwrap();
        b.begin_block(None).unwrap();
        let d = b.i_add(uint, None, p, p).unwrap();
        b.ret_value(d).unwrap();
        b.end_function().unwrap();
    });
    let func = lift_with(&words, &LiftOptions::default());
    assert!(
        !ops(&func).iter().any(|(op, _)| *op == Op::Loop),
        "no wrapper loop:\n{func}"
    );
    let inp = input(8);
    let out = run_lifted(&func, &inp);
    for (x, y) in inp.iter().zip(&out) {
        assert_eq!(*y, 2 * x);
    }
}

#[test]
fn fragment_kill_demote_and_modes() {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    b.capability(Capability::DemoteToHelperInvocation);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let float = b.type_float(32, None);
    let boolean = b.type_bool();
    let v4 = b.type_vector(float, 4);
    let ptr_in = b.type_pointer(None, StorageClass::Input, v4);
    let coord = b.variable(ptr_in, None, StorageClass::Input, None);
    b.decorate(
        coord,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::FragCoord)],
    );
    let ptr_out = b.type_pointer(None, StorageClass::Output, v4);
    let color = b.variable(ptr_out, None, StorageClass::Output, None);
    b.decorate(color, Decoration::Location, [Operand::LiteralBit32(0)]);
    let ten = b.constant_bit32(float, 10f32.to_bits());
    let fn_ty = b.type_function(void, []);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .unwrap();
    b.begin_block(None).unwrap();
    let (kill, rest, demote, merge) = (b.id(), b.id(), b.id(), b.id());
    let c = b.load(v4, None, coord, None, []).unwrap();
    let x = b.composite_extract(float, None, c, [0]).unwrap();
    let far = b.f_ord_greater_than(boolean, None, x, ten).unwrap();
    b.selection_merge(rest, SelectionControl::NONE).unwrap();
    b.branch_conditional(far, kill, rest, []).unwrap();
    b.begin_block(Some(kill)).unwrap();
    b.kill().unwrap();
    b.begin_block(Some(rest)).unwrap();
    let y = b.composite_extract(float, None, c, [1]).unwrap();
    let low = b.f_ord_greater_than(boolean, None, y, ten).unwrap();
    b.selection_merge(merge, SelectionControl::NONE).unwrap();
    b.branch_conditional(low, demote, merge, []).unwrap();
    b.begin_block(Some(demote)).unwrap();
    // rspirv's builder ends the block at a demote; SPIR-V does not.
    let demote_inst = Instruction::new(spirv::Op::DemoteToHelperInvocation, None, None, vec![]);
    b.insert_into_block(InsertPoint::End, demote_inst).unwrap();
    b.branch(merge).unwrap();
    b.begin_block(Some(merge)).unwrap();
    b.store(color, c, None, []).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::Fragment, main, "main", [coord, color]);
    b.execution_mode(main, ExecutionMode::OriginUpperLeft, []);
    b.execution_mode(main, ExecutionMode::EarlyFragmentTests, []);
    let func = lift_with(&b.module().assemble(), &LiftOptions::default());
    assert_eq!(func.stage, Stage::Fragment);
    assert!(func.modes.origin_upper_left && func.modes.early_fragment_tests);
    assert!(!func.modes.depth_replacing);
    let all = ops(&func);
    assert_eq!(all.iter().filter(|(op, _)| *op == Op::Discard).count(), 1);
    assert_eq!(
        all.iter()
            .filter(|(op, _)| matches!(op, Op::Effect(agxc_egraph::ir::EffectOp::Demote)))
            .count(),
        1
    );
    // The four components of the colour are written once, at the return.
    assert_eq!(
        all.iter()
            .filter(|(op, _)| matches!(op, Op::Effect(agxc_egraph::ir::EffectOp::Output(_))))
            .count(),
        4
    );
}

/// `flat in uint` at location 0 and `noperspective in float` at location 1, component 0, and
/// `in float` at location 1, component 1, written out as `(bits(u), a, b, 0)`.
#[test]
fn interpolation_decorations_reach_the_inputs_and_flat_reads_raw_words() {
    use agxc_egraph::interp::{run_fragment, FragmentGrid, Limits, Resources, Varying};
    use agxc_egraph::ir::{EffectOp, InputSlot, Interp, Type};
    let mut b = Builder::new();
    b.set_version(1, 0);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let float = b.type_float(32, None);
    let uint = b.type_int(32, 0);
    let v4 = b.type_vector(float, 4);
    let in_uint = b.type_pointer(None, StorageClass::Input, uint);
    let in_float = b.type_pointer(None, StorageClass::Input, float);
    let u = b.variable(in_uint, None, StorageClass::Input, None);
    b.decorate(u, Decoration::Location, [Operand::LiteralBit32(0)]);
    b.decorate(u, Decoration::Flat, []);
    let a = b.variable(in_float, None, StorageClass::Input, None);
    b.decorate(a, Decoration::Location, [Operand::LiteralBit32(1)]);
    b.decorate(a, Decoration::NoPerspective, []);
    let c = b.variable(in_float, None, StorageClass::Input, None);
    b.decorate(c, Decoration::Location, [Operand::LiteralBit32(1)]);
    b.decorate(c, Decoration::Component, [Operand::LiteralBit32(1)]);
    let out_ptr = b.type_pointer(None, StorageClass::Output, v4);
    let color = b.variable(out_ptr, None, StorageClass::Output, None);
    b.decorate(color, Decoration::Location, [Operand::LiteralBit32(0)]);
    let zero = b.constant_bit32(float, 0);
    let fn_ty = b.type_function(void, []);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .unwrap();
    b.begin_block(None).unwrap();
    let uv = b.load(uint, None, u, None, []).unwrap();
    let ub = b.bitcast(float, None, uv).unwrap();
    let av = b.load(float, None, a, None, []).unwrap();
    let cv = b.load(float, None, c, None, []).unwrap();
    let all = b.composite_construct(v4, None, [ub, av, cv, zero]).unwrap();
    b.store(color, all, None, []).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::Fragment, main, "main", [u, a, c, color]);
    b.execution_mode(main, ExecutionMode::OriginUpperLeft, []);
    let func = lift_with(&b.module().assemble(), &LiftOptions::default());
    let mut inputs = Vec::new();
    func.for_each_inst(|_, i| {
        if let Op::Effect(EffectOp::Input(slot)) = func.inst(i).op {
            inputs.push((slot, func.value_type(func.inst(i).results[0])));
        }
    });
    inputs.sort();
    let slot = |location, component, interp| InputSlot {
        location,
        component,
        interp,
    };
    assert_eq!(
        inputs,
        [
            (slot(0, 0, Interp::Flat), Type::I32),
            (slot(1, 0, Interp::Linear), Type::F32),
            (slot(1, 1, Interp::Perspective), Type::F32),
        ]
    );
    // 0xDEADBEEF is beyond f32's exact integers: a flat input reads the word itself.
    let grid = FragmentGrid::new(2, 1)
        .with_varying(0, Varying::words([0xDEAD_BEEF, 0, 0, 0]))
        .with_varying(
            1,
            Varying::affine([1.0, 2.0, 0.0, 0.0], [0.5, 0.25, 0.0, 0.0], [0.0; 4]),
        );
    let out = run_fragment(&func, &mut Resources::new(), &grid, &Limits::default())
        .unwrap_or_else(|e| panic!("runs: {e}"));
    let p = out.pixel(0, 1, 0).unwrap_or_default();
    assert_eq!(p[0].to_bits(), 0xDEAD_BEEF);
    // At x = 1.5: 1 + 0.5 * 1.5 and 2 + 0.25 * 1.5.
    assert_eq!([p[1], p[2]], [1.75, 2.375]);
}

#[test]
fn empty_structures_are_type_errors_not_panics() {
    // GLSL.std.450 members (Length = 66, Modf = 35, Frexp = 51) and extended arithmetic given
    // an empty structure where a scalar or vector belongs.
    for (opcode, ext) in [
        (None, 66),
        (None, 35),
        (None, 51),
        (Some(spirv::Op::IAddCarry), 0),
    ] {
        let mut k = Kernel::new();
        let glsl = k.b.ext_inst_import("GLSL.std.450");
        let empty = k.b.type_struct([]);
        let c = k.b.constant_composite(empty, []);
        let r = match opcode {
            None => {
                k.b.ext_inst(k.float, None, glsl, ext, [Operand::IdRef(c)])
                    .unwrap()
            }
            Some(_) => {
                let pair = k.b.type_struct([k.uint, k.uint]);
                k.b.i_add_carry(pair, None, c, c).unwrap()
            }
        };
        let _ = r;
        let words = k.finish();
        let e = crate::spirv::lift(&words, &LiftOptions::default())
            .expect_err("an empty structure is not a number");
        assert!(
            matches!(
                e,
                crate::spirv::SpirvError::TypeMismatch { .. }
                    | crate::spirv::SpirvError::Invalid { .. }
            ),
            "{e:?}"
        );
    }
}
