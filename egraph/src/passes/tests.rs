use super::*;
use crate::interp::{run_compute, Limits as RunLimits};
use crate::ir::arbitrary::{bind_resources, InputBuffer, Recipe, OUTPUT};
use crate::ir::{parse_function, verify, Op, OpRegistry, PureOp};
use crate::opt::{optimize, GenericTarget, OptOptions};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult};

fn parse(text: &str) -> Function {
    let f = parse_function(text, &OpRegistry::new()).expect("parses");
    verify(&f).expect("verifies");
    f
}

fn ops(f: &Function) -> Vec<Op> {
    let mut out = Vec::new();
    f.for_each_inst(|_, i| out.push(f.insts[i].op));
    out
}

fn count(f: &Function, op: Op) -> usize {
    ops(f).into_iter().filter(|&o| o == op).count()
}

/// Runs one pass on a copy of `f`, checking it verifies; returns the copy.
fn after(f: &Function, pass: Pass) -> Function {
    let mut g = f.clone();
    let mut log = Vec::new();
    run(&mut g, &[pass], &GenericTarget::new(), &mut log, None).expect("verifies after the pass");
    g
}

/// The output buffer after running `f` over 8 invocations on `input`.
fn outputs(f: &Function, input: &InputBuffer) -> Result<Vec<u8>, String> {
    let mut res = bind_resources(input, 8);
    run_compute(f, &mut res, [2, 1, 1], &RunLimits::default()).map_err(|e| e.to_string())?;
    Ok(res
        .buffer_data(OUTPUT)
        .map(|b| b.to_vec())
        .unwrap_or_default())
}

const COUNTED_SUM: &str = "function @main compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 0
    v1:i32 = const 4
    v2:i32 = const 1
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
    store storage(0, 1) [v0], v3
    return
}";

#[test]
fn counted_sum_unrolls_to_its_folded_constant() {
    // for (k = 0; k < 4; k++) r += k
    let f = parse(COUNTED_SUM);
    let g = after(&f, Pass::Unroll);
    assert_eq!(count(&g, Op::Loop), 0, "{g}");
    let opt = optimize(&f, &GenericTarget::new(), &OptOptions::default()).unwrap();
    let text = opt.func.to_string();
    assert_eq!(count(&opt.func, Op::Loop), 0, "{text}");
    assert_eq!(count(&opt.func, Op::If), 0, "{text}");
    assert!(text.contains("const 6"), "{text}");
    assert!(opt
        .report
        .passes
        .iter()
        .any(|p| p.pass == Pass::Unroll && p.changed));
}

#[test]
fn trip_counts() {
    let f = parse(COUNTED_SUM);
    let l = structured_post_order(&f, Op::Loop)[0];
    assert_eq!(unroll::trip_count(&f, l, 32), Some(5));
    assert_eq!(unroll::trip_count(&f, l, 4), None);
    // A bound that is not a constant: no count.
    let g = parse(&COUNTED_SUM.replace(
        "v6:bool = slt v5, v1",
        "v9:i32 = builtin global_id.x\n        v6:bool = slt v5, v9",
    ));
    let l = structured_post_order(&g, Op::Loop)[0];
    assert_eq!(unroll::trip_count(&g, l, 32), None);
}

use edit::structured_post_order;

const TWO_ARMED: &str = "function @main compute local_size(1, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 3
    v2:bool = slt v0, v1
    v3:i32 = if v2 {
    block1:
        v4:i32 = iadd v0, v1
        yield v4
    } else {
    block2:
        v5:i32 = imul v0, v1
        yield v5
    }
    store storage(0, 1) [v0], v3
    return
}";

#[test]
fn two_armed_value_only_if_becomes_one_select() {
    let f = parse(TWO_ARMED);
    let g = after(&f, Pass::IfConvert);
    assert_eq!(count(&g, Op::If), 0, "{g}");
    assert_eq!(count(&g, Op::Pure(PureOp::Select)), 1, "{g}");
    // Stores are never speculated: the same shape with a store in an arm keeps its branch.
    let h = parse(&TWO_ARMED.replace(
        "v4:i32 = iadd v0, v1\n",
        "v4:i32 = iadd v0, v1\n        store storage(0, 1) [v0], v4\n",
    ));
    let h2 = after(&h, Pass::IfConvert);
    assert_eq!(count(&h2, Op::If), 1, "{h2}");
}

#[test]
fn if_conversion_respects_the_arm_budget() {
    let f = parse(TWO_ARMED);
    let mut g = f.clone();
    assert!(!ifconv::run(&mut g, &|_, _| 10.0, 5.0));
    assert!(ifconv::run(&mut g, &|_, _| 10.0, 10.0));
}

const SWITCH: &str = "function @main compute local_size(1, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 0
    v2:i32 = const 1
    v3:i32 = const 10
    v4:i32 = const 20
    v5:bool = const true
    v6:i32 = loop {
    block1:
        v7:bool = ieq v0, v1
        if v7 {
        block2:
            break v3
        } else {
        block3:
            yield
        }
        v8:bool = ieq v0, v2
        if v8 {
        block4:
            break v4
        } else {
        block5:
            yield
        }
        if v5 {
        block6:
            break v0
        } else {
        block7:
            yield
        }
        return
    }
    store storage(0, 1) [v1], v6
    return
}";

#[test]
fn a_one_trip_switch_loop_becomes_selects() {
    let f = parse(SWITCH);
    let mut g = f.clone();
    let mut log = Vec::new();
    run(
        &mut g,
        PRE_SATURATION,
        &GenericTarget::new(),
        &mut log,
        None,
    )
    .unwrap();
    assert_eq!(count(&g, Op::Loop), 0, "{g}");
    assert_eq!(count(&g, Op::If), 0, "{g}");
    assert_eq!(count(&g, Op::Return), 1, "{g}");
    assert_eq!(count(&g, Op::Pure(PureOp::Select)), 2, "{g}");
    for x in 0..4u8 {
        let input = InputBuffer::zeros();
        let _ = x;
        assert_eq!(outputs(&f, &input), outputs(&g, &input));
    }
}

#[test]
fn sinking_refuses_to_copy_effects() {
    // Both arms of the `if` holding the break fall through, and what follows stores: the loop
    // stays (copying the store into both arms would duplicate it).
    let f = parse(
        "function @main compute local_size(1, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 0
    v2:bool = ieq v0, v1
    loop {
    block1:
        if v2 {
        block2:
            if v2 {
            block3:
                break
            } else {
            block4:
                yield
            }
            yield
        } else {
        block5:
            yield
        }
        store storage(0, 1) [v1], v0
        break
    }
    return
}",
    );
    let g = after(&f, Pass::Flatten);
    assert_eq!(count(&g, Op::Loop), 1, "{g}");
    assert_eq!(count(&g, Op::Return), 1, "{g}");
}

#[test]
fn dead_and_pass_through_loop_values_go() {
    // v5 is carried unchanged, v6 only feeds itself, v7 is a result nobody reads.
    let f = parse(
        "function @main compute local_size(1, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 1
    v2:i32, v3:i32, v20:i32 = loop v0, v0, v0 {
    block1(v4:i32, v5:i32, v6:i32):
        v8:i32 = iadd v4, v1
        v9:i32 = imul v6, v6
        v10:bool = ult v8, v5
        if v10 {
        block2:
            yield
        } else {
        block3:
            break v8, v5, v9
        }
        continue v8, v5, v9
    }
    store storage(0, 1) [v0], v2, v3
    return
}",
    );
    let g = after(&f, Pass::SimplifyCf);
    let l = structured_post_order(&g, Op::Loop)[0];
    assert_eq!(g.insts[l].args.len(), 1, "{g}");
    assert_eq!(g.insts[l].results.len(), 1, "{g}");
    assert_eq!(count(&g, Op::Pure(PureOp::Imul)), 0, "{g}");
}

#[test]
fn pass_dumps_name_every_pass() {
    let f = parse(COUNTED_SUM);
    let opts = OptOptions {
        dump: crate::opt::DumpOptions {
            passes: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let opt = optimize(&f, &GenericTarget::new(), &opts).unwrap();
    let names: Vec<&str> = opt.dumps.passes.iter().map(|(n, _)| n.as_str()).collect();
    let want: Vec<&str> = PRE_SATURATION
        .iter()
        .chain(POST_SATURATION)
        .map(|p| p.name())
        .collect();
    assert_eq!(names[..want.len()], want[..]);
    assert!(opt.report.to_string().contains("unroll*"));
}

/// Every pass, and the pipelines, keep random programs' outputs bit for bit.
#[test]
fn passes_keep_random_programs_meaning() {
    fn prop(recipe: Recipe, input: InputBuffer) -> TestResult {
        let f = recipe.lower();
        let Ok(want) = outputs(&f, &input) else {
            return TestResult::discard();
        };
        let pipelines: [&[Pass]; 6] = [
            &[Pass::SimplifyCf],
            &[Pass::Flatten],
            &[Pass::Unroll],
            &[Pass::IfConvert],
            PRE_SATURATION,
            POST_SATURATION,
        ];
        for passes in pipelines {
            let mut g = f.clone();
            let mut log = Vec::new();
            if let Err(e) = run(&mut g, passes, &GenericTarget::new(), &mut log, None) {
                return TestResult::error(e.to_string());
            }
            match outputs(&g, &input) {
                Ok(got) if got == want => {}
                Ok(_) => return TestResult::error(format!("{passes:?} changed the output:\n{g}")),
                Err(e) => return TestResult::error(format!("{passes:?}: {e}\n{g}")),
            }
        }
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(400)
        .quickcheck(prop as fn(Recipe, InputBuffer) -> TestResult);
}

/// The random programs give the passes work: switches flatten, counted loops unroll.
#[test]
fn random_programs_exercise_the_passes() {
    let mut g = Gen::from_size_and_seed(100, 3);
    let (mut flattened, mut unrolled, mut converted) = (0, 0, 0);
    for _ in 0..300 {
        let f = Recipe::arbitrary(&mut g).lower();
        let mut h = f.clone();
        let mut log = Vec::new();
        run(
            &mut h,
            PRE_SATURATION,
            &GenericTarget::new(),
            &mut log,
            None,
        )
        .unwrap();
        for r in &log {
            match (r.pass, r.changed) {
                (Pass::Flatten, true) => flattened += 1,
                (Pass::Unroll, true) => unrolled += 1,
                (Pass::IfConvert, true) => converted += 1,
                _ => {}
            }
        }
    }
    assert!(flattened >= 20, "{flattened} flattened");
    assert!(unrolled >= 10, "{unrolled} unrolled");
    assert!(converted >= 20, "{converted} converted");
}

#[test]
fn a_trip_count_the_e_graph_makes_constant_unrolls_after_saturation() {
    // The bound is (gid & 0) + 4: only the e-graph's algebra sees it is 4, so the loop is
    // unrolled after the first saturation and the function goes through a second one.
    let text = COUNTED_SUM.replace(
        "v6:bool = slt v5, v1",
        "v9:i32 = builtin global_id.x\n        v10:i32 = and v9, v0\n        v11:i32 = iadd v10, v1\n        v6:bool = slt v5, v11",
    );
    let f = parse(&text);
    let pre = after(&f, Pass::Unroll);
    assert_eq!(count(&pre, Op::Loop), 1, "{pre}");
    let opt = optimize(&f, &GenericTarget::new(), &OptOptions::default()).unwrap();
    assert_eq!(opt.report.rounds, 2, "{}", opt.report);
    assert_eq!(count(&opt.func, Op::Loop), 0, "{}", opt.func);
    assert!(opt.func.to_string().contains("const 6"), "{}", opt.func);
}

/// `idx = 0; for (i = 0; i < 3; i++) if (x < split[i]) idx = i + 1;` (a shadow-cascade search
/// over a uniform buffer) after `filler` unrelated operations, and `taps` the same loop summing
/// four-component loads from a storage buffer instead.
fn search_after(filler: usize, four_component: bool) -> String {
    let mut chain = String::new();
    let mut last = "v10".to_string();
    for k in 0..filler {
        chain += &format!("    v{}:i32 = imul {last}, v1\n", 100 + k);
        last = format!("v{}", 100 + k);
    }
    let body = if four_component {
        "        v20:i32, v21:i32, v22:i32, v23:i32 = load storage(0, 0) [v8]
        v24:i32 = iadd v20, v21
        v25:i32 = iadd v22, v23
        v26:i32 = iadd v24, v25
        v9:i32 = iadd v4, v26"
    } else {
        "        v20:i32 = load uniform(0, 2) [v8]
        v27:bool = slt v10, v20
        v28:i32 = iadd v5, v2
        v9:i32 = select v27, v28, v4"
    };
    format!(
        "function @main compute local_size(1, 1, 1) {{
block0:
    v0:i32 = const 0
    v1:i32 = const 3
    v2:i32 = const 1
    v3:i32 = const 16
    v10:i32 = builtin global_id.x
{chain}    v6:i32 = loop v0, v0 {{
    block1(v4:i32, v5:i32):
        v7:bool = slt v5, v1
        if v7 {{
        block2:
            yield
        }} else {{
        block3:
            break v4
        }}
        v8:i32 = imul v5, v3
{body}
        v11:i32 = iadd v5, v2
        continue v9, v11
    }}
    v12:i32 = iadd v6, {last}
    store storage(0, 1) [v0], v12
    return
}}"
    )
}

#[test]
fn a_small_saving_unrolls_in_a_large_function_unless_the_copies_load_much() {
    // The cascade search saves a fixed few instructions however long the rest of the function
    // is: it unrolls next to 200 unrelated operations as it does alone.
    for filler in [0, 200] {
        let f = parse(&search_after(filler, false));
        let g = after(&f, Pass::Unroll);
        assert_eq!(count(&g, Op::Loop), 0, "{g}");
    }
    // Three four-component loads in flight at once need the larger margin, which a long
    // function does not give.
    let f = parse(&search_after(200, true));
    let g = after(&f, Pass::Unroll);
    assert_eq!(count(&g, Op::Loop), 1, "{g}");
}

const RELAXED: &str = "function @main compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 0
    v1:f32 = load storage(0, 0) [v0]
    v2:f32 = const 1.5
    v3:f32 = fmul.relaxed v1, v2
    v4:f32 = fadd.relaxed v3, v1
    v5:bool = flt.relaxed v4, v2
    v6:f32 = fadd v4, v2
    v7:f32 = select v5, v6, v3
    store storage(0, 1) [v0], v7
    return
}";

#[test]
fn relax_precision_computes_relaxed_arithmetic_in_f16() {
    let f = parse(RELAXED);
    let g = after(&f, Pass::RelaxPrecision);
    let text = g.to_string();
    // The multiply, the add and the compare in f16; `v1` narrowed once (shared by the
    // multiply and the add); the unrelaxed add stays f32 and reads the widened `v4`.
    assert!(text.contains("f16 = fmul"), "{text}");
    assert!(text.contains("f16 = fadd"), "{text}");
    assert!(text.contains("v6:f32 = fadd v4, v2"), "{text}");
    assert!(text.contains("v5:bool = flt "), "{text}");
    assert!(!text.contains(".relaxed"), "{text}");
    let narrow = text.lines().filter(|l| l.contains("f16 = fcvt v1")).count();
    assert_eq!(narrow, 1, "{text}");
    // Without relaxed flags nothing changes.
    let plain = parse(&RELAXED.replace(".relaxed", ""));
    assert_eq!(
        after(&plain, Pass::RelaxPrecision).to_string(),
        plain.to_string()
    );
}
