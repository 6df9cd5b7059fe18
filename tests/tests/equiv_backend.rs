//! Property (2): random programs compiled for the G13 at -O0 and -O2 and run in the simulator
//! compute what the reference interpreter computes, within the G13 error model's tolerances
//! (see `agxc_tests::equiv`).
//!
//! `AGXC_EQUIV_CASES` sets the programs per test (default below), `AGXC_EQUIV_SEED` the first
//! seed.

use agxc_tests::equiv::case::config;
use agxc_tests::equiv::{run, OptLevel, Property, Settings};

/// Programs per CI run at each level.
const CASES: u64 = 3000;

#[test]
fn backend_at_o0_matches_the_interpreter() {
    let summary = run(
        Property::Backend(OptLevel::O0),
        &config(false),
        &Settings::from_env(CASES),
    );
    summary.print();
    summary.assert_clean();
}

#[test]
fn backend_at_o2_matches_the_interpreter() {
    let summary = run(
        Property::Backend(OptLevel::O2),
        &config(false),
        &Settings::from_env(CASES),
    );
    summary.print();
    summary.assert_clean();
}

/// `fmax(+0, -0)` is `+0` in the IR (`-0` orders below `+0`; `ir/eval/float.rs`), in f32 and
/// f16: the shrunk form of the first counterexamples property (2) found (the backend's
/// `fcmpsel` modes did not order signed zeros; docs/g13.md: modes 3 and 7 are wrong for them).
#[test]
fn fmax_orders_negative_zero_below_positive_zero() {
    use agxc_egraph::ir::arbitrary::{Addr, InputBuffer, Pick, Recipe, Stmt};
    use agxc_egraph::ir::{Const, PureOp, Type};
    use agxc_tests::equiv::{check, report, Case, Outcome};
    for (ty, zero, negative_zero) in [
        (Type::F32, Const::f32(0.0), 0x8000_0000u32),
        (Type::F16, Const::f16(half::f16::ZERO), 0x8000_8000),
    ] {
        // fmax(+0, x) with x loaded from the invocation's window, which holds -0 everywhere.
        let recipe = Recipe {
            stmts: vec![
                Stmt::Load {
                    ty,
                    count: 1,
                    addr: Addr::Window(0),
                },
                Stmt::Const(zero),
                Stmt::Op {
                    op: PureOp::Fmax,
                    ty,
                    to: ty,
                    args: [Pick(0), Pick(1), Pick(0), Pick(0)],
                },
            ],
            local_size: [4, 1, 1],
        };
        let input = InputBuffer::from_bytes(
            std::iter::repeat_n(negative_zero.to_le_bytes(), 64)
                .flatten()
                .collect(),
        );
        let case = Case { recipe, input };
        for level in [OptLevel::O0, OptLevel::O2] {
            let property = Property::Backend(level);
            match check(&case, property, false) {
                Outcome::Pass(_) => {}
                Outcome::Fail(f) => panic!("{}", report::text(&property.name(), None, &case, &f)),
                Outcome::Harness(e) => panic!("{e}"),
            }
        }
    }
}

/// A loop whose body computes the counter's successor and a constant the `continue` also
/// passes: the shrunk form of a counterexample property (2) found in the 100,000-program soak
/// (seed 0x50a40000ca78), where the constant's register overwrote the successor's and the loop
/// never ended. Both values leave the loop through `break`s too, and instruction selection
/// computed both straight into the loop's result register; it now does that for one computed
/// value per register and loop (`isel::coalesce`; more forms in
/// `backend-agx/tests/e2e_soak_counterexamples.rs`).
#[test]
fn loop_carried_values_keep_their_registers() {
    use agxc_egraph::ir::arbitrary::{InputBuffer, Recipe};
    use agxc_egraph::ir::{parse_function, OpRegistry};
    use agxc_tests::equiv::{check_function, report, Case, Outcome};
    let text = "
function @random compute local_size(4, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 27
    v2:i32 = urem v0, v1
    v3:i32 = const 3
    v4:i32 = ishl v2, v3
    v5:i32 = const 128
    v6:i32 = imul v0, v5
    v7:i32 = const 1
    v8:i32 = const 0
    v9:i32 = loop v8, v5 {
    block1(v10:i32, v11:i32):
        v12:bool = uge v10, v7
        if v12 {
        block2:
            break v11
        } else {
        block3:
            yield
        }
        v13:i32 = const 1
        v14:i32 = iadd v10, v13
        v15:i32 = const 1
        v16:i32 = and v0, v15
        v17:i32 = const 0
        v18:bool = ine v16, v17
        if v18 {
        block4:
            yield
        } else {
        block5:
            if v18 {
            block6:
                break v14
            } else {
            block7:
                yield
            }
            if v18 {
            block8:
                break v17
            } else {
            block9:
                yield
            }
            yield
        }
        continue v14, v17
    }
    store storage(0, 1) [v6 + 88], v9
    return
}
";
    let func = parse_function(text, &OpRegistry::new()).expect("the counterexample parses");
    // The recipe only supplies the workgroup size; the function is the counterexample.
    let case = Case {
        recipe: Recipe {
            stmts: Vec::new(),
            local_size: [4, 1, 1],
        },
        input: InputBuffer::zeros(),
    };
    for level in [OptLevel::O0, OptLevel::O2] {
        let property = Property::Backend(level);
        match check_function(&case, &func, property, false) {
            Outcome::Pass(_) => {}
            Outcome::Fail(f) => panic!("{}", report::text(&property.name(), None, &case, &f)),
            Outcome::Harness(e) => panic!("{e}"),
        }
    }
}
