//! The verifier rejects malformed functions, naming the offending instruction (with its printed
//! line), block or value. Functions come from the text form (instructions are numbered in text
//! order from `inst0`) or from the builder, for defects the text form cannot express.

use agxc_egraph::ir::{
    parse_function, verify, Block, Builder, Const, EffectOp, Function, Inst, Op, OpRegistry,
    PureOp, Stage, Type, Value, ValueDef,
};

/// The verifier's messages for a function given as text.
fn errors_in(text: &str) -> Vec<String> {
    let func = parse_function(text, &OpRegistry::new()).unwrap_or_else(|e| panic!("{e}"));
    errors_of(&func)
}

fn errors_of(func: &Function) -> Vec<String> {
    match verify(func) {
        Ok(()) => Vec::new(),
        Err(e) => e.iter().map(|e| e.to_string()).collect(),
    }
}

/// A function of the given stage whose entry block holds `body` (instruction lines).
fn func(stage: &str, body: &str) -> String {
    let modes = if stage == "compute" {
        " local_size(1, 1, 1)"
    } else {
        ""
    };
    format!("function @f {stage}{modes} {{\nblock0:\n{body}}}\n")
}

fn compute(body: &str) -> String {
    func("compute", body)
}

#[track_caller]
fn assert_errors(text: &str, expected: &[&str]) {
    assert_eq!(errors_in(text), expected, "\n{text}");
}

// ---- types

#[test]
fn operand_type_mismatch() {
    let text = compute(
        "    v0:f32 = const 1.0
    v1:i32 = const 2
    v2:f32 = fadd v0, v1
    return
",
    );
    assert_errors(
        &text,
        &["inst2 (v2:f32 = fadd v0, v1): operand 1 has type i32, expected f32"],
    );
}

#[test]
fn result_type_mismatch_and_result_count() {
    let text = compute(
        "    v0:f32 = const 1.0
    v1:i32 = fadd v0, v0
    v2:bool, v3:bool = flt v0, v0
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst1 (v1:i32 = fadd v0, v0): result type i32 does not match the operation's result type f32",
            "inst2 (v2:bool, v3:bool = flt v0, v0): has 2 results, expected 1",
        ],
    );
}

#[test]
fn conversion_width_and_class() {
    let text = compute(
        "    v0:i32 = const 1
    v1:i16 = uext v0
    v2:f32 = bitcast v0
    v3:i64 = bitcast v0
    return
",
    );
    let errors = errors_in(&text);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(
        errors[0],
        "inst1 (v1:i16 = uext v0): result type i16 does not match the operation's result type integer wider than i32"
    );
    assert!(
        errors[1].starts_with("inst3 (v3:i64 = bitcast v0): result type i64 does not match"),
        "{}",
        errors[1]
    );
}

#[test]
fn constant_of_the_wrong_type() {
    let mut f = Function::new("f", Stage::Compute);
    let mut b = Builder::new(&mut f);
    b.append(Op::Const(Const::i32(7)), &[], &[Type::F32], &[]);
    b.return_();
    assert_eq!(
        errors_of(&f),
        ["inst0 (v0:f32 = const 7): constant has type i32, but its result has type f32"]
    );
}

#[test]
fn effect_operand_types() {
    let text = compute(
        "    v0:f32 = const 0.0
    v1:f32 = load storage(0, 0) [v0]
    v2:i32 = const 0
    store uniform(0, 0) [v2], v1
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst1 (v1:f32 = load storage(0, 0) [v0]): operands have types [f32], expected [i32]",
            "inst3 (store uniform(0, 0) [v2], v1): store to a read-only address space",
        ],
    );
    let text = func(
        "fragment",
        "    v0:f32 = const 0.0
    v1:f32, v2:f32, v3:f32, v4:f32 = sample 2d tex(0, 0) sampler(0, 0) implicit v0
    return
",
    );
    assert_errors(
        &text,
        &["inst1 (v1:f32, v2:f32, v3:f32, v4:f32 = sample 2d tex(0, 0) sampler(0, 0) implicit v0): a sample takes 2 float operands"],
    );
}

#[test]
fn if_condition_must_be_bool() {
    let text = compute(
        "    v0:i32 = const 1
    if v0 {
    block1:
        yield
    } else {
    block2:
        yield
    }
    return
",
    );
    assert_errors(
        &text,
        &["inst1 (if v0): condition v0 has type i32, expected bool"],
    );
}

// ---- terminators

#[test]
fn missing_and_early_terminators() {
    let text = compute(
        "    v0:i32 = const 1
",
    );
    assert_errors(&text, &["block0: does not end in a terminator"]);
    let text = compute(
        "    return
    v0:i32 = const 1
",
    );
    assert_errors(
        &text,
        &[
            "inst0 (return): is a terminator but not the last instruction of block0",
            "block0: does not end in a terminator",
        ],
    );
}

#[test]
fn yield_outside_if_and_ending_a_loop_body() {
    let text = compute(
        "    yield
",
    );
    assert_errors(
        &text,
        &["inst0 (yield): `yield` ends block0, which is not an `if` arm"],
    );
    let text = compute(
        "    loop {
    block1:
        yield
    }
    return
",
    );
    assert_errors(
        &text,
        &["inst1 (yield): `yield` ends loop body block1; a loop body ends in `continue`, `break`, `return` or `discard`"],
    );
}

#[test]
fn break_and_continue_outside_loops() {
    let text = compute(
        "    v0:bool = const true
    if v0 {
    block1:
        break
    } else {
    block2:
        continue
    }
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst2 (break): `break` is not inside a loop",
            "inst3 (continue): `continue` is not inside a loop",
        ],
    );
}

#[test]
fn exits_pass_what_their_targets_expect() {
    let text = compute(
        "    v0:i32 = const 0
    v1:f32 = const 1.0
    v2:f32 = loop v0 {
    block1(v3:i32):
        v4:bool = const true
        v5:f32 = if v4 {
        block2:
            yield v3
        } else {
        block3:
            break v3
        }
        if v4 {
        block4:
            continue v1
        } else {
        block5:
            yield v1
        }
        continue v3, v3
    }
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst5 (yield v3): value 0 (v3) has type i32, but inst4 expects f32",
            "inst6 (break v3): value 0 (v3) has type i32, but inst2 expects f32",
            "inst8 (continue v1): value 0 (v1) has type f32, but inst2 expects i32",
            "inst9 (yield v1): passes 1 values, but inst7 expects 0",
            "inst10 (continue v3, v3): passes 2 values, but inst2 expects 1",
        ],
    );
}

// ---- structure

#[test]
fn loop_parameters_must_match_initial_values() {
    let text = compute(
        "    v0:i32 = const 0
    loop v0 {
    block1(v1:f32):
        break
    }
    loop v0 {
    block2:
        break
    }
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst1 (loop v0): initial value 0 (v0) has type i32, but block1's parameter has type f32",
            "inst3 (loop v0): passes 1 initial values, but its body block2 has 0 parameters",
        ],
    );
}

#[test]
fn block_counts_and_arm_parameters() {
    let text = compute(
        "    v0:bool = const true
    if v0 {
    block1:
        yield
    }
    loop {
    block2:
        break
    } else {
    block3:
        break
    }
    if v0 {
    block4(v1:i32):
        yield
    } else {
    block5:
        yield
    }
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst1 (if v0): owns 1 blocks, expected 2",
            "inst3 (loop): owns 2 blocks, expected 1",
            "inst6 (if v0): has block4 as an arm, but an `if` arm takes no parameters",
        ],
    );
    // A non-structured instruction owning a block.
    let mut f = Function::new("f", Stage::Compute);
    let mut b = Builder::new(&mut f);
    let block = b.func_mut().make_block(None);
    b.append(Op::Const(Const::i32(1)), &[], &[Type::I32], &[block]);
    b.switch_to(block);
    b.return_();
    b.switch_to(Block::from_u32(0));
    b.return_();
    assert_eq!(
        errors_of(&f),
        ["inst0 (v0:i32 = const 1): owns 1 blocks, expected 0"]
    );
}

#[test]
fn blocks_owned_twice_or_with_a_wrong_parent() {
    let mut f = Function::new("f", Stage::Compute);
    let mut b = Builder::new(&mut f);
    let c = b.bool(true);
    let (first, [then_block, else_block]) = b.begin_if(c, &[]);
    for arm in [then_block, else_block] {
        b.switch_to(arm);
        b.yield_(&[]);
    }
    b.switch_to(Block::from_u32(0));
    // A second `if` reusing the first one's arms.
    b.append(Op::If, &[c], &[], &[then_block, else_block]);
    b.return_();
    let errors = errors_of(&f);
    assert_eq!(
        errors,
        [
            "block1: is owned by inst1 but its parent field says inst4",
            "block2: is owned by inst1 but its parent field says inst4",
            "inst4 (if v0): owns block1, which inst1 already owns",
            "inst4 (if v0): owns block2, which inst1 already owns",
        ],
        "first if is {first}"
    );
}

#[test]
fn entry_block_rules_and_cycles() {
    // A loop whose body is the entry block: a cycle the walk must not follow.
    let mut f = Function::new("f", Stage::Compute);
    let entry = f.entry;
    let mut b = Builder::new(&mut f);
    b.append(Op::Loop, &[], &[], &[entry]);
    b.return_();
    assert_eq!(
        errors_of(&f),
        [
            "block0: is the entry block but its parent field says inst0",
            "inst0 (loop): owns block0, the entry block",
        ]
    );
    // Entry parameters.
    let mut f = Function::new("f", Stage::Compute);
    let p = f.make_value(Type::I32, ValueDef::Param(f.entry, 0));
    let entry = f.entry;
    f.blocks[entry].params.push(p);
    Builder::new(&mut f).return_();
    assert_eq!(
        errors_of(&f),
        ["block0: is the entry block but has parameters"]
    );
}

#[test]
fn dangling_entities_and_instructions_placed_twice() {
    let mut f = Function::new("f", Stage::Compute);
    let mut b = Builder::new(&mut f);
    let x = b.f32(1.0);
    let ghost = Value::from_u32(999);
    b.append(Op::Pure(PureOp::Fadd), &[x, ghost], &[Type::F32], &[]);
    let dup = b.f32(2.0);
    b.return_();
    let dup_inst = Inst::from_u32(2);
    assert_eq!(f.values[dup].def, ValueDef::Result(dup_inst, 0));
    let entry = f.entry;
    f.blocks[entry].insts.insert(3, dup_inst);
    f.blocks[entry].insts.push(Inst::from_u32(77));
    assert_eq!(
        errors_of(&f),
        [
            "inst1 (v1:f32 = fadd v0, v999): refers to v999, which does not exist",
            "inst2 (v2:f32 = const 2.0): appears in block0 but was already placed earlier",
            "inst3 (return): is a terminator but not the last instruction of block0",
            "block0: lists inst77, which does not exist",
            "block0: does not end in a terminator",
        ]
    );
}

// ---- scope and definitions

#[test]
fn uses_must_be_dominated() {
    let text = compute(
        "    v0:i32 = iadd v1, v1
    v1:i32 = const 1
    v2:bool = const true
    v3:i32 = if v2 {
    block1:
        v4:i32 = iadd v3, v1
        yield v4
    } else {
    block2:
        yield v1
    }
    v5:i32 = iadd v4, v3
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst0 (v0:i32 = iadd v1, v1): operand 0 (v1, result 0 of inst1) is not in scope here",
            "inst0 (v0:i32 = iadd v1, v1): operand 1 (v1, result 0 of inst1) is not in scope here",
            "inst4 (v4:i32 = iadd v3, v1): operand 0 (v3, result 0 of inst3) is not in scope here",
            "inst7 (v5:i32 = iadd v4, v3): operand 0 (v4, result 0 of inst4) is not in scope here",
        ],
    );
}

#[test]
fn loop_values_are_not_visible_after_the_loop() {
    // The text-form example's mistake: a value of the loop body used after the loop.
    let text = compute(
        "    v0:i32 = const 4
    loop v0 {
    block1(v1:i32):
        v2:bool = slt v1, v0
        break
    }
    v3:bool = not v2
    v4:i32 = iadd v1, v1
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst4 (v3:bool = not v2): operand 0 (v2, result 0 of inst2) is not in scope here",
            "inst5 (v4:i32 = iadd v1, v1): operand 0 (v1, parameter 0 of block1) is not in scope here",
            "inst5 (v4:i32 = iadd v1, v1): operand 1 (v1, parameter 0 of block1) is not in scope here",
        ],
    );
}

#[test]
fn undefined_values_and_wrong_definitions() {
    let mut f = Function::new("f", Stage::Compute);
    let ghost = f.make_value(Type::F32, ValueDef::Undefined);
    let mut b = Builder::new(&mut f);
    let x = b.pure(PureOp::Fneg, &[ghost]);
    let y = b.f32(3.0);
    b.return_();
    f.values[y].def = ValueDef::Result(Inst::from_u32(0), 0);
    assert_eq!(
        errors_of(&f),
        [
            "inst0 (v1:f32 = fneg v0): operand 0 (v0) is undefined",
            "inst1 (v2:f32 = const 3.0): defines v2, but the value's definition says result 0 of inst0",
        ],
        "{x}"
    );
}

#[test]
fn values_defined_twice() {
    let mut f = Function::new("f", Stage::Compute);
    let mut b = Builder::new(&mut f);
    let x = b.f32(1.0);
    b.return_();
    // A second instruction claiming the same result value.
    let twin = f.make_inst(agxc_egraph::ir::InstData {
        op: Op::Const(Const::f32(1.0)),
        args: Default::default(),
        results: [x].into_iter().collect(),
        blocks: Default::default(),
        flags: Default::default(),
    });
    let entry = f.entry;
    f.blocks[entry].insts.insert(1, twin);
    assert_eq!(
        errors_of(&f),
        ["inst2 (v0:f32 = const 1.0): defines v0, which is already defined earlier",]
    );
}

// ---- stage rules

#[test]
fn fragment_only_operations_in_compute() {
    let text = compute(
        "    v0:f32 = const 0.5
    v1:f32 = ddx.fine v0
    v2:f32, v3:f32, v4:f32, v5:f32 = sample 2d tex(0, 0) sampler(0, 0) bias v0, v0, v0
    v6:f32 = builtin frag_coord.x
    v7:f32 = input 0.x perspective
    output frag_depth v0
    demote
    discard
",
    );
    assert_errors(
        &text,
        &[
            "inst1 (v1:f32 = ddx.fine v0): `ddx` is only allowed in fragment shaders, not in a compute shader",
            "inst2 (v2:f32, v3:f32, v4:f32, v5:f32 = sample 2d tex(0, 0) sampler(0, 0) bias v0, v0, v0): `sample` with bias LOD is only allowed in fragment shaders, not in a compute shader",
            "inst3 (v6:f32 = builtin frag_coord.x): `builtin frag_coord.x` is only allowed in fragment shaders, not in a compute shader",
            "inst4 (v7:f32 = input 0.x perspective): `input` with perspective interpolation is only allowed in fragment shaders, not in a compute shader",
            "inst5 (output frag_depth v0): `output frag_depth` is only allowed in fragment shaders, not in a compute shader",
            "inst6 (demote): `demote` is only allowed in fragment shaders, not in a compute shader",
            "inst7 (discard): `discard` is only allowed in fragment shaders, not in a compute shader",
        ],
    );
}

#[test]
fn compute_and_vertex_only_operations_in_fragment() {
    let text = func(
        "fragment",
        "    v0:i32 = builtin global_id.x
    barrier workgroup
    v1:f32 = load shared [v0]
    v2:i32 = builtin vertex_index
    output position.x v1
    output point_size v1
    barrier memory
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst0 (v0:i32 = builtin global_id.x): `builtin global_id.x` is only allowed in compute shaders, not in a fragment shader",
            "inst1 (barrier workgroup): `barrier workgroup` is only allowed in compute shaders, not in a fragment shader",
            "inst2 (v1:f32 = load shared [v0]): workgroup-shared memory is only allowed in compute shaders, not in a fragment shader",
            "inst2 (v1:f32 = load shared [v0]): accesses workgroup-shared memory, but the function declares none",
            "inst3 (v2:i32 = builtin vertex_index): `builtin vertex_index` is only allowed in vertex shaders, not in a fragment shader",
            "inst4 (output position.x v1): `output position.x` is only allowed in vertex and geometry shaders, not in a fragment shader",
            "inst5 (output point_size v1): `output point_size` is only allowed in vertex and geometry shaders, not in a fragment shader",
        ],
    );
}

#[test]
fn stage_io_rules_in_vertex_and_compute() {
    let text = func(
        "vertex",
        "    v0:f32 = input 0.x linear
    v1:f32 = input 0.y flat
    v2:f32, v3:f32, v4:f32, v5:f32 = sample 2d tex(0, 0) sampler(0, 0) implicit v0, v1
    output 0.x v1
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst0 (v0:f32 = input 0.x linear): `input` with linear interpolation is only allowed in fragment shaders, not in a vertex shader",
            "inst2 (v2:f32, v3:f32, v4:f32, v5:f32 = sample 2d tex(0, 0) sampler(0, 0) implicit v0, v1): `sample` with implicit LOD is only allowed in fragment shaders, not in a vertex shader",
        ],
    );
    let text = compute(
        "    v0:f32 = input 0.x flat
    output 0.x v0
    return
",
    );
    assert_errors(
        &text,
        &[
            "inst0 (v0:f32 = input 0.x flat): `input` is only allowed in fragment and vertex shaders, not in a compute shader",
            "inst1 (output 0.x v0): `output 0.x` is only allowed in fragment, vertex and geometry shaders, not in a compute shader",
        ],
    );
}

#[test]
fn components_and_workgroup_size() {
    let mut f = Function::new("f", Stage::Compute);
    f.modes.local_size = [0, 1, 1];
    let mut b = Builder::new(&mut f);
    b.effect(
        EffectOp::Builtin(agxc_egraph::ir::Builtin::GlobalId(3)),
        &[],
        &[Type::I32],
    );
    b.return_();
    assert_eq!(
        errors_of(&f),
        [
            "function @f: local_size [0, 1, 1] has a zero dimension",
            "inst0 (v0:i32 = builtin global_id.w): component 3 is out of range for global_id (at most 2)",
        ]
    );
}

#[test]
fn every_error_is_reported_not_just_the_first() {
    let text = compute(
        "    v0:f32 = const 1.0
    v1:i32 = fadd v0, v0
    v2:f32 = ddx v0
    v3:bool = flt v9, v0
    v9:f32 = const 2.0
",
    );
    assert_errors(
        &text,
        &[
            "block0: does not end in a terminator",
            "inst1 (v1:i32 = fadd v0, v0): result type i32 does not match the operation's result type f32",
            "inst3 (v3:bool = flt v9, v0): operand 0 (v9, result 0 of inst4) is not in scope here",
            "inst2 (v2:f32 = ddx v0): `ddx` is only allowed in fragment shaders, not in a compute shader",
        ],
    );
}

#[test]
fn well_formed_functions_pass() {
    let text = func(
        "fragment",
        "    v0:f32 = input 0.x perspective
    v1:f32 = ddx v0
    output 0.x v1
    return
",
    );
    assert_errors(&text, &[]);
}
