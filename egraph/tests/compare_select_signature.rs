//! A target operation with the compare-and-select signature `(T, T, U, U) -> U` works
//! everywhere a target operation goes: the text form (parse, print, round trip), the verifier,
//! the builder, the interpreter, rule terms and the rule soundness checker.
//!
//! The operation here is a made-up one (`example.fltsel`: `a < b ? x : y`, ordered); the G13's
//! own compare-and-select operations live with its target in `agxc-backend-agx`.

use agxc_egraph::interp::{run_compute, FloatMode, Limits, Resources};
use agxc_egraph::ir::{
    parse_function, verify, Binding, Class, Const, CustomOp, CustomOpDef, OpRegistry, Signature,
    Type,
};
use agxc_egraph::opt::rules::{Rule, RuleSpec};
use agxc_egraph::opt::soundness::{check_rules, CheckConfig, Unsound};
use agxc_egraph::opt::term::{Term, TermError};

fn fltsel(args: &[Const], _result: Type) -> Const {
    // Ordered: false (select y) when either operand is NaN.
    if args[0].as_f64() < args[1].as_f64() {
        args[2]
    } else {
        args[3]
    }
}

static FLTSEL: CustomOpDef = CustomOpDef {
    name: "example.fltsel",
    signature: Signature::CompareSelect {
        compare: Class::Float,
        select: Class::Any,
    },
    eval: fltsel,
    doc: "a < b ? x : y",
};

fn registry() -> OpRegistry {
    OpRegistry::with(&[&FLTSEL])
}

const TEXT: &str = "function @sel compute local_size(4, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 4
    v2:i32 = imul v0, v1
    v3:f32 = load storage(0, 0) [v2]
    v4:f32 = load storage(0, 1) [v2]
    v5:i32 = load storage(0, 2) [v2]
    v6:i32 = load storage(0, 3) [v2]
    v7:i32 = example.fltsel v3, v4, v5, v6
    store storage(0, 9) [v2], v7
    return
}
";

#[test]
fn the_text_form_round_trips_and_verifies() {
    let f = parse_function(TEXT, &registry()).expect("parses");
    assert_eq!(f.to_string(), TEXT);
    verify(&f).expect("verifies");
}

#[test]
fn the_verifier_names_the_operand_that_does_not_fit() {
    for (bad, what) in [
        // Compared operands of different types.
        (
            "v7:i32 = example.fltsel v3, v5, v5, v6",
            "operand 1 has type i32, expected f32",
        ),
        // Compared operands that are not floats.
        (
            "v7:i32 = example.fltsel v5, v6, v5, v6",
            "operand 0 has type i32, expected float",
        ),
        // Result type is the selected type.
        (
            "v7:f32 = example.fltsel v3, v4, v5, v6",
            "result type f32 does not match",
        ),
        // Three operands.
        (
            "v7:i32 = example.fltsel v3, v4, v5",
            "expects 4 operands, got 3",
        ),
    ] {
        let text = TEXT.replace("v7:i32 = example.fltsel v3, v4, v5, v6", bad);
        let f = parse_function(&text, &registry()).expect("parses");
        let err = verify(&f).expect_err(bad).to_string();
        assert!(err.contains(what), "{bad}: {err}");
    }
}

#[test]
fn the_interpreter_evaluates_it_through_its_definition() {
    let f = parse_function(TEXT, &registry()).expect("parses");
    let a = [1.0f32, f32::NAN, -0.0, 2.0];
    let b = [2.0f32, 1.0, 0.0, f32::NAN];
    let x = [10u32, 11, 12, 13];
    let y = [20u32, 21, 22, 23];
    let mut res = Resources::new();
    let words = |v: &[u32]| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    let floats = |v: &[f32]| v.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    res.bind_storage(Binding::new(0, 0), floats(&a));
    res.bind_storage(Binding::new(0, 1), floats(&b));
    res.bind_storage(Binding::new(0, 2), words(&x));
    res.bind_storage(Binding::new(0, 3), words(&y));
    res.bind_storage(Binding::new(0, 9), vec![0; 16]);
    run_compute(&f, &mut res, [1, 1, 1], &Limits::default()).expect("runs");
    // 1 < 2; NaN < 1 is false; -0 < +0 is false; 2 < NaN is false.
    assert_eq!(
        res.buffer_data(Binding::new(0, 9)).expect("bound"),
        &words(&[10, 21, 22, 23])[..]
    );
}

#[test]
fn flushing_denormals_touches_the_compared_operands_only() {
    // The G13's model: f32 denormal operands of the comparison read as zeros, the selected
    // operand is moved as bits.
    let op = CustomOp::new(&FLTSEL);
    let tiny = Const::f32(f32::from_bits(1));
    let two_tiny = Const::f32(f32::from_bits(2));
    let eval = |mode: FloatMode, args: &[Const]| mode.eval_custom(op, args, Type::F32);
    // 2^-149 < 2^-148 in IEEE; both are 0 when flushed, and 0 < 0 is false.
    let args = [tiny, two_tiny, Const::f32(1.0), Const::f32(2.0)];
    assert_eq!(eval(FloatMode::Ieee, &args), Const::f32(1.0));
    assert_eq!(eval(FloatMode::FlushF32Denormals, &args), Const::f32(2.0));
    // A selected denormal keeps its bits.
    let args = [Const::f32(1.0), Const::f32(2.0), tiny, Const::f32(0.0)];
    assert_eq!(eval(FloatMode::FlushF32Denormals, &args).bits(), 1);
}

#[test]
fn rule_terms_use_four_operands_of_two_types() {
    let reg = registry();
    let t = Term::parse("(example.fltsel ?a ?b ?x:i16 ?y:i16)", &reg).expect("parses");
    assert_eq!(t.to_string(), "(example.fltsel ?a ?b ?x:i16 ?y:i16)");
    assert!(matches!(
        Term::parse("(example.fltsel ?a ?b ?x)", &reg),
        Err(TermError::Arity {
            expected: 4,
            got: 3,
            ..
        })
    ));
}

#[test]
fn the_soundness_checker_covers_rules_with_the_operation() {
    let reg = registry();
    let sound = RuleSpec::new(
        "select-flt-to-fltsel",
        "(a < b ? x : y) == fltsel(a, b, x, y)",
        "(select (flt ?a ?b) ?x ?y)",
        "(example.fltsel ?a ?b ?x ?y)",
    );
    let rules = Rule::from_specs(&[sound], &reg).expect("builds");
    let stats = check_rules(&rules, &CheckConfig::default()).expect("sound");
    assert!(stats[0].firings >= 3, "{stats:?}");
    // `<=` is not `<` (equal operands, and -0 against +0): the checker must notice.
    let wrong = RuleSpec::new(
        "select-fle-to-fltsel",
        "wrong on purpose",
        "(select (fle ?a ?b) ?x ?y)",
        "(example.fltsel ?a ?b ?x ?y)",
    );
    let rules = Rule::from_specs(&[wrong], &reg).expect("builds");
    let errors = check_rules(&rules, &CheckConfig::default()).expect_err("unsound");
    assert!(matches!(errors[0], Unsound::Mismatch(_)), "{errors:?}");
}
