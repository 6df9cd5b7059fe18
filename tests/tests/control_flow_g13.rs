//! Control flow on the G13 at -O2, end to end: a counted loop folds to its constant, a
//! value-only `if` is one select, a fall-through switch is one compare per case without flags.
//! Each is also run in the simulator.

use agxc::sim;
use agxc::{compile, Options};
use agxc_egraph::interp::Resources;
use agxc_egraph::ir::Binding;
use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use spirv::{
    AddressingModel, BuiltIn, Capability, Decoration, ExecutionMode, ExecutionModel,
    FunctionControl, MemoryModel, SelectionControl, StorageClass,
};

/// The mnemonics of a binary's disassembly, one per instruction.
fn mnemonics(asm: &str) -> Vec<String> {
    asm.lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .collect()
}

fn count(ops: &[String], name: &str) -> usize {
    ops.iter().filter(|o| o.as_str() == name).count()
}

/// Runs a compiled compute shader over `input` (one invocation per word, binding (0, 0) in,
/// (0, 1) out, 8 per group); returns the output words.
fn run(binary: &agxc_backend_agx::Binary, input: &[u32], out_binding: Binding) -> Vec<u32> {
    let mut res = Resources::new();
    let bytes: Vec<u8> = input.iter().flat_map(|w| w.to_le_bytes()).collect();
    res.bind_storage(Binding::new(0, 0), bytes.clone());
    res.bind_storage(Binding::new(0, 1), vec![0; bytes.len()]);
    sim::run_compute(binary, &mut res, [input.len() as u32 / 8, 1, 1]).expect("simulates");
    res.buffer_data(out_binding)
        .expect("bound")
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn counted_loop_folds_to_straight_code_with_its_constant() {
    // r = 0; for (k = 0; k < 4; k++) r += k; out[gid] = r
    let ir = "function @main compute local_size(8, 1, 1) {
block0:
    v0:i32 = const 0
    v1:i32 = const 4
    v2:i32 = const 1
    v9:i32 = builtin global_id.x
    v10:i32 = imul v9, v1
    v3:i32 = loop v0, v0 {
    block1(v4:i32, v5:i32):
        v6:bool = slt v5, v1
        if v6 {
        block2:
            yield
        } else {
        block3:
            break v4
        }
        v7:i32 = iadd v4, v5
        v8:i32 = iadd v5, v2
        continue v7, v8
    }
    store storage(0, 1) [v10], v3
    return
}";
    let c = compile(ir.as_bytes(), &Options::default()).expect("compiles");
    let asm = &c.binary.disassembly;
    let ops = mnemonics(asm);
    for stack in ["if_icmp", "while_icmp", "jmp_exec_any", "pop_exec"] {
        assert_eq!(count(&ops, stack), 0, "{asm}");
    }
    assert!(asm.contains("mov_imm") && asm.contains(", 6"), "{asm}");
    assert_eq!(run(&c.binary, &[0; 16], Binding::new(0, 1)), vec![6; 16]);
}

#[test]
fn two_armed_value_only_if_is_one_select() {
    let ir = "function @main compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:i32 = load storage(0, 0) [v2]
    v4:i32 = const 3
    v5:bool = slt v3, v4
    v6:i32 = if v5 {
    block1:
        v7:i32 = const 100
        yield v7
    } else {
    block2:
        v8:i32 = const 200
        yield v8
    }
    store storage(0, 1) [v2], v6
    return
}";
    let c = compile(ir.as_bytes(), &Options::default()).expect("compiles");
    let asm = &c.binary.disassembly;
    let ops = mnemonics(asm);
    assert_eq!(count(&ops, "icmpsel"), 1, "{asm}");
    assert_eq!(count(&ops, "if_icmp") + count(&ops, "pop_exec"), 0, "{asm}");
    let input: Vec<u32> = (0..16).collect();
    let want: Vec<u32> = input
        .iter()
        .map(|&x| if x < 3 { 100 } else { 200 })
        .collect();
    assert_eq!(run(&c.binary, &input, Binding::new(0, 1)), want);
}

/// A compute shader: `r = 0; switch (in[gid] % 8) { case 0: r += 100; /* falls */ case 1:
/// r += 10; break; case 2: r = 7; /* falls */ case 3: r += 1; break; default: r = 5; }
/// out[gid] = r`, in = binding 0, out = binding 1.
fn fall_through_switch() -> Vec<u32> {
    let mut b = Builder::new();
    b.set_version(1, 3);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let uint = b.type_int(32, 0);
    let uvec3 = b.type_vector(uint, 3);
    let arr = b.type_runtime_array(uint);
    b.decorate(arr, Decoration::ArrayStride, [Operand::LiteralBit32(4)]);
    let block = b.type_struct([arr]);
    b.decorate(block, Decoration::Block, []);
    b.member_decorate(block, 0, Decoration::Offset, [Operand::LiteralBit32(0)]);
    let ptr_block = b.type_pointer(None, StorageClass::StorageBuffer, block);
    let ptr_elem = b.type_pointer(None, StorageClass::StorageBuffer, uint);
    let inp = b.variable(ptr_block, None, StorageClass::StorageBuffer, None);
    let out = b.variable(ptr_block, None, StorageClass::StorageBuffer, None);
    for (var, binding) in [(inp, 0), (out, 1)] {
        b.decorate(var, Decoration::DescriptorSet, [Operand::LiteralBit32(0)]);
        b.decorate(var, Decoration::Binding, [Operand::LiteralBit32(binding)]);
    }
    let ptr_in = b.type_pointer(None, StorageClass::Input, uvec3);
    let gid_var = b.variable(ptr_in, None, StorageClass::Input, None);
    b.decorate(
        gid_var,
        Decoration::BuiltIn,
        [Operand::BuiltIn(BuiltIn::GlobalInvocationId)],
    );
    let fn_ty = b.type_function(void, []);
    let main = b
        .begin_function(void, None, FunctionControl::NONE, fn_ty)
        .unwrap();
    b.begin_block(None).unwrap();
    let ptr_fn = b.type_pointer(None, StorageClass::Function, uint);
    let var = b.variable(ptr_fn, None, StorageClass::Function, None);
    let k = |b: &mut Builder, v: u32| b.constant_bit32(uint, v);
    let zero = k(&mut b, 0);
    let eight = k(&mut b, 8);
    b.store(var, zero, None, []).unwrap();
    let g = b.load(uvec3, None, gid_var, None, []).unwrap();
    let gid = b.composite_extract(uint, None, g, [0]).unwrap();
    let p = b.access_chain(ptr_elem, None, inp, [zero, gid]).unwrap();
    let x = b.load(uint, None, p, None, []).unwrap();
    let sel = b.u_mod(uint, None, x, eight).unwrap();
    let [c0, c1, c2, c3, dflt, merge] = [(); 6].map(|_| b.id());
    b.selection_merge(merge, SelectionControl::NONE).unwrap();
    b.switch(
        sel,
        dflt,
        [
            (Operand::LiteralBit32(0), c0),
            (Operand::LiteralBit32(1), c1),
            (Operand::LiteralBit32(2), c2),
            (Operand::LiteralBit32(3), c3),
        ],
    )
    .unwrap();
    let add = |b: &mut Builder, n: u32| {
        let v = b.load(uint, None, var, None, []).unwrap();
        let c = b.constant_bit32(uint, n);
        let s = b.i_add(uint, None, v, c).unwrap();
        b.store(var, s, None, []).unwrap();
    };
    let set = |b: &mut Builder, n: u32| {
        let c = b.constant_bit32(uint, n);
        b.store(var, c, None, []).unwrap();
    };
    for (label, body, next) in [
        (c0, 0, c1),
        (c1, 1, merge),
        (c2, 2, c3),
        (c3, 3, merge),
        (dflt, 4, merge),
    ] {
        b.begin_block(Some(label)).unwrap();
        match body {
            0 => add(&mut b, 100),
            1 => add(&mut b, 10),
            2 => set(&mut b, 7),
            3 => add(&mut b, 1),
            _ => set(&mut b, 5),
        }
        b.branch(next).unwrap();
    }
    b.begin_block(Some(merge)).unwrap();
    let r = b.load(uint, None, var, None, []).unwrap();
    let q = b.access_chain(ptr_elem, None, out, [zero, gid]).unwrap();
    b.store(q, r, None, []).unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();
    b.entry_point(ExecutionModel::GLCompute, main, "main", [gid_var, inp, out]);
    b.execution_mode(main, ExecutionMode::LocalSize, [8, 1, 1]);
    b.module().assemble()
}

#[test]
fn fall_through_switch_is_one_compare_per_case_without_flags() {
    let words = fall_through_switch();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let c = compile(&bytes, &Options::default()).expect("compiles");
    let asm = &c.binary.disassembly;
    let ops = mnemonics(asm);
    // No branches left, no flag values: the cases are selects on `sel == literal`, at most one
    // compare-and-select per case literal.
    for stack in ["if_icmp", "while_icmp", "pop_exec", "jmp_exec_any"] {
        assert_eq!(count(&ops, stack), 0, "{asm}");
    }
    let compares = asm
        .lines()
        .filter(|l| l.contains("icmpsel") && l.contains("ueq"))
        .count();
    assert!(compares <= 4, "{compares} compares:\n{asm}");
    let input: Vec<u32> = (0..32).collect();
    let want: Vec<u32> = input
        .iter()
        .map(|x| match x % 8 {
            0 => 110,
            1 => 10,
            2 => 8,
            3 => 1,
            _ => 5,
        })
        .collect();
    assert_eq!(run(&c.binary, &input, Binding::new(0, 1)), want);
}
