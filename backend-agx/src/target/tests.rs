//! The G13 target's tests: soundness of every rule, the lowerings, accuracy, texture choices.

use super::*;
use agxc_egraph::ir::{
    AddressSpace, Binding, Builder, Const, EffectOp, Function, LodMode, MemAccess, OpRegistry,
    SampleOp, Stage, TexDim, TexTarget, Type, Value,
};
use agxc_egraph::opt::analysis::{eval_kind, node_type};
use agxc_egraph::opt::term::Term;
use agxc_egraph::opt::{optimize, probe, soundness, Kind, OptOptions};
use std::sync::OnceLock;

fn g13() -> &'static G13Target {
    static T: OnceLock<G13Target> = OnceLock::new();
    T.get_or_init(G13Target::new)
}

/// The one test that enumerates every rule the G13 optimizes with, generic and target.
#[test]
fn every_rule_generic_and_g13_is_sound() {
    let rules = g13().rules();
    assert!(rules.iter().any(|r| r.name == "sin-to-sin-pt"));
    assert!(rules.iter().any(|r| r.name == "fma-add-mul-left"));
    match soundness::check_rules(rules, &soundness::CheckConfig::default()) {
        Ok(stats) => assert_eq!(stats.len(), rules.len()),
        Err(errors) => {
            let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("{} unsound rule(s):\n{}", errors.len(), text.join("\n"));
        }
    }
}

fn best(text: &str) -> String {
    probe::best(g13(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn sin_and_cos_extract_to_the_sin_pt_sequence() {
    for (text, turns) in [
        ("(sin ?x)", "(fmul ?x 0.15915494:f32)"),
        ("(cos ?x)", "(fma ?x 0.15915494:f32 0.25:f32)"),
    ] {
        let s = best(text);
        assert!(s.starts_with("(fmul (g13.sin_pt_1 "), "{s}");
        assert!(s.contains("(g13.sin_pt_2 (g13.sin_pt_1 "), "{s}");
        assert!(s.contains(turns), "{s}");
        assert!(s.contains("(floor "), "{s}");
        assert!(
            !s.contains("(sin ") && !s.contains("(cos ") && !s.contains("fract"),
            "{s}"
        );
    }
    let s = best("(sin ?x:f16)");
    assert!(s.starts_with("(fcvt:f16 (fmul (g13.sin_pt_1"), "{s}");
}

#[test]
fn tan_as_sin_over_cos_lowers_both() {
    let s = best("(fdiv (sin ?x) (cos ?x))");
    assert!(s.starts_with("(fdiv (fmul (g13.sin_pt_1"), "{s}");
    assert_eq!(s.matches("g13.sin_pt_2").count(), 2, "{s}");
}

#[test]
fn sqrt_and_saturate_use_the_g13_forms() {
    assert_eq!(best("(sqrt ?x)"), "(fmul ?x (g13.rsqrt_special ?x))");
    assert_eq!(
        best("(fsat (fadd (fmul ?a ?b) ?c))"),
        "(g13.fmadd_sat ?a ?b ?c)"
    );
    assert_eq!(best("(fsat (fmul ?a ?b))"), "(g13.fmul_sat ?a ?b)");
    assert_eq!(best("(rcp (sqrt ?x))"), "(rsqrt ?x)");
}

#[test]
fn divisions_share_their_divisor_part() {
    // Two divisions by one uniform (an input here): one reciprocal estimate.
    let s = best("(iadd (udiv ?a:i32 ?d:i32) (urem ?b:i32 ?d:i32))");
    assert!(s.contains("(g13.urcp ?d)"), "{s}");
    assert!(!s.contains("udiv") && !s.contains("urem"), "{s}");
    // By a constant the reciprocal folds: no `rcp` left.
    let s = best("(fdiv ?a 3.0:f32)");
    assert!(!s.contains("rcp") && !s.contains("fdiv"), "{s}");
    assert!(s.contains("0.33333334:f32"), "{s}");
}

#[test]
fn integer_division_by_constants_extracts_without_a_reciprocal() {
    for text in [
        "(urem ?x:i32 3:i32)",
        "(udiv ?x:i32 7:i32)",
        "(sdiv ?x:i32 -7:i32)",
        "(srem ?x:i16 10:i16)",
    ] {
        let s = best(text);
        for op in ["rcp", "udiv", "sdiv", "urem", "srem"] {
            assert!(!s.contains(op), "{text}: {s}");
        }
        assert!(s.contains("mulhi"), "{text}: {s}");
    }
    assert_eq!(
        best("(sdiv ?x:i32 4:i32)"),
        "(sshr (iadd ?x (ushr (sshr ?x 31:i32) 30:i32)) 2:i32)"
    );
}

#[test]
fn select_of_a_comparison_extracts_to_compare_and_select() {
    assert_eq!(
        best("(select (flt ?a ?b) ?x ?y)"),
        "(g13.fcmpsel_lt ?a ?b ?x ?y)"
    );
    // An f32 comparison selecting i32 values; unordered conditions swap the selected values.
    assert_eq!(
        best("(select (fltu ?a ?b) ?x:i32 ?y:i32)"),
        "(g13.fcmpsel_ge ?a ?b ?y ?x)"
    );
    assert_eq!(
        best("(select (fneu ?a:f16 ?b:f16) ?x:i16 ?y:i16)"),
        "(g13.fcmpsel_eq ?a ?b ?y ?x)"
    );
    assert_eq!(
        best("(select (sle ?a:i32 ?b:i32) ?x ?y)"),
        "(g13.icmpsel_sgt ?a ?b ?y ?x)"
    );
    assert_eq!(
        best("(select (ine ?a:i16 ?b:i16) ?x:f16 ?y:f16)"),
        "(g13.icmpsel_eq ?a ?b ?y ?x)"
    );
    assert_eq!(
        best("(select (ieq ?p:bool ?q:bool) ?x ?y)"),
        "(g13.icmpsel_eq ?p ?q ?x ?y)"
    );
    // Source modifiers stay free operands of the fused form.
    assert_eq!(
        best("(select (fle (fabs ?a) ?b) ?x ?y)"),
        "(g13.fcmpsel_le (fabs ?a) ?b ?x ?y)"
    );
}

#[test]
fn negated_and_swapped_comparisons_fuse_too() {
    // The generic rules add equivalent comparisons (`fgt a b` is `flt b a`), so any of the
    // equally cheap fused forms may come out.
    for text in [
        "(select (not (fle ?a ?b)) ?x ?y)",
        "(select (fgt ?a ?b) ?x ?y)",
        "(select (fgeu ?a ?b) ?x:i32 ?y:i32)",
        "(select (sge ?a:i32 ?b:i32) ?x ?y)",
        "(select (not (ult ?a:i32 ?b:i32)) ?x ?y)",
        "(select (sgt ?a:i16 ?b:i16) ?x:i16 ?y:i16)",
    ] {
        let s = best(text);
        assert!(
            s.starts_with("(g13.fcmpsel_") || s.starts_with("(g13.icmpsel_"),
            "{text}: {s}"
        );
        assert!(!s.contains("select ") && !s.contains("(not"), "{text}: {s}");
    }
}

#[test]
fn compare_and_select_is_not_formed_where_one_instruction_cannot_do_it() {
    // f32 comparison, f16 selection: registers of different widths.
    assert_eq!(
        best("(select (flt ?a ?b) ?x:f16 ?y:f16)"),
        "(select (flt ?a ?b) ?x ?y)"
    );
    // 64-bit comparison.
    assert_eq!(
        best("(select (ult ?a:i64 ?b:i64) ?x ?y)"),
        "(select (ult ?a ?b) ?x ?y)"
    );
    // Ordered "not equal" has no condition code.
    assert_eq!(
        best("(select (fne ?a ?b) ?x ?y)"),
        "(select (fne ?a ?b) ?x ?y)"
    );
}

/// A flattened term over one variable, evaluated with the IR's evaluation functions.
struct Compiled(Vec<(Kind, Vec<usize>)>);

impl Compiled {
    fn new(t: &Term) -> Compiled {
        fn go(t: &Term, out: &mut Vec<(Kind, Vec<usize>)>) -> usize {
            match t {
                Term::Var(..) => out.push((
                    Kind::Leaf {
                        value: Value::from_u32(0),
                        ty: Type::F32,
                    },
                    vec![],
                )),
                Term::Node(k, kids) => {
                    let ids = kids.iter().map(|kid| go(kid, out)).collect();
                    out.push((*k, ids));
                }
                Term::Lit(_) => panic!("extracted terms have typed constants"),
            }
            out.len() - 1
        }
        let mut v = Vec::new();
        go(t, &mut v);
        Compiled(v)
    }

    fn eval(&self, x: f32) -> f32 {
        let mut vals: Vec<Const> = Vec::with_capacity(self.0.len());
        for (k, kids) in &self.0 {
            let v = match k {
                Kind::Leaf { .. } => Const::f32(x),
                Kind::Const(c) => *c,
                _ => {
                    let args: Vec<Const> = kids.iter().map(|&i| vals[i]).collect();
                    let tys: Vec<Option<Type>> = args.iter().map(|a| Some(a.ty())).collect();
                    let ty = node_type(*k, &tys).expect("well-typed");
                    eval_kind(*k, &args, ty).expect("an operation")
                }
            };
            vals.push(v);
        }
        vals.last().expect("non-empty").as_f32()
    }
}

fn lowered(text: &str) -> Compiled {
    let s = best(text);
    let reg = OpRegistry::with(&ops::OPS);
    Compiled::new(&Term::parse(&s, &reg).expect("extracted term parses"))
}

fn max_error(c: &Compiled, f: fn(f64) -> f64, lo: f64, hi: f64, points: usize) -> f64 {
    (0..points)
        .map(|i| {
            let x = (lo + (hi - lo) * i as f64 / (points - 1) as f64) as f32;
            (c.eval(x) as f64 - f(x as f64)).abs()
        })
        .fold(0.0, f64::max)
}

#[test]
fn sin_cos_accuracy() {
    let sin = lowered("(sin ?x)");
    let cos = lowered("(cos ?x)");
    let pi = core::f64::consts::PI;
    let bound = 2f64.powi(-11);
    let es = max_error(&sin, f64::sin, -pi, pi, 1_000_000);
    let ec = max_error(&cos, f64::cos, -pi, pi, 1_000_000);
    println!("max abs error on [-pi, pi]: sin {es:e}, cos {ec:e}");
    assert!(
        es <= bound && ec <= bound,
        "sin {es:e}, cos {ec:e} on [-pi, pi]"
    );
    let es = max_error(&sin, f64::sin, -1000.0, 1000.0, 1_000_000);
    let ec = max_error(&cos, f64::cos, -1000.0, 1000.0, 1_000_000);
    println!("max abs error on [-1000, 1000]: sin {es:e}, cos {ec:e}");
    assert!(
        es <= rules::SIN_COS_ERROR_1000 && ec <= rules::SIN_COS_ERROR_1000,
        "sin {es:e}, cos {ec:e} on [-1000, 1000] exceed the documented bound"
    );
}

// ---- texture choices under the G13's costs

fn ssbo(binding: u32) -> MemAccess {
    MemAccess {
        space: AddressSpace::Storage(Binding::new(0, binding)),
        offset: 0,
    }
}

fn grad_sample(dim: TexDim, constant_grads: bool) -> Function {
    let mut f = Function::new("t", Stage::Compute);
    let mut b = Builder::new(&mut f);
    let zero = b.i32(0);
    let v = b
        .effect(EffectOp::Load(ssbo(0)), &[zero], &[Type::F32; 9])
        .to_vec();
    let n = dim.coords();
    let mut args = v[..n].to_vec();
    for i in 0..2 * n {
        args.push(if constant_grads {
            b.f32(0.01 * (i + 1) as f32)
        } else {
            v[3 + i]
        });
    }
    let op = SampleOp {
        texture: Binding::new(0, 2),
        sampler: Binding::new(0, 2),
        target: TexTarget {
            dim,
            arrayed: false,
        },
        lod: LodMode::Grad,
        proj: false,
        shadow: false,
        min_lod: false,
        offset: [0; 3],
    };
    let r = b
        .effect(EffectOp::Sample(op), &args, &[Type::F32; 4])
        .to_vec();
    b.effect(EffectOp::Store(ssbo(1)), &[vec![zero], r].concat(), &[]);
    b.return_();
    f
}

fn lod_mode(dim: TexDim, constant_grads: bool) -> LodMode {
    let f = grad_sample(dim, constant_grads);
    let out = optimize(&f, g13(), &OptOptions::default()).expect("optimizes");
    assert_eq!(out.report.fallback, None);
    assert!(out.report.unavailable.is_empty(), "{}", out.report);
    let mut mode = None;
    out.func.for_each_inst(|_, i| {
        if let agxc_egraph::ir::Op::Effect(EffectOp::Sample(s)) = out.func.insts[i].op {
            mode = Some(s.lod);
        }
    });
    mode.expect("a sample")
}

#[test]
fn txd_on_a_cube_map_extracts_to_txl() {
    assert_eq!(lod_mode(TexDim::Cube, false), LodMode::Explicit);
}

/// Without a preamble, `txd-to-txl`'s LOD arithmetic runs in every thread even when the
/// gradients are constants (uniform work costs in full, `target::cost::UNIFORM_FACTOR`), so
/// gradient sampling stays native off cube maps.
#[test]
fn txd_stays_native_off_cube_maps() {
    assert_eq!(lod_mode(TexDim::D2, false), LodMode::Grad);
    assert_eq!(lod_mode(TexDim::D2, true), LodMode::Grad);
    assert_eq!(lod_mode(TexDim::D3, true), LodMode::Grad);
}

// ---- end to end: the optimized function runs on the reference interpreter

#[test]
fn lowered_sin_and_cos_run_on_the_interpreter() {
    use agxc_egraph::interp::{bytes_f32, f32_bytes, run_compute, Limits, Resources};
    use agxc_egraph::ir::{Builtin, PureOp};
    let n = 256u32;
    let mut f = Function::new("t", Stage::Compute);
    f.modes.local_size = [n, 1, 1];
    let mut b = Builder::new(&mut f);
    let id = b.effect(EffectOp::Builtin(Builtin::GlobalId(0)), &[], &[Type::I32])[0];
    let four = b.i32(4);
    let off = b.pure(PureOp::Imul, &[id, four]);
    let x = b.effect(EffectOp::Load(ssbo(0)), &[off], &[Type::F32])[0];
    let s = b.pure(PureOp::Sin, &[x]);
    let c = b.pure(PureOp::Cos, &[x]);
    let out = MemAccess {
        space: AddressSpace::Storage(Binding::new(0, 1)),
        offset: 0,
    };
    let eight = b.i32(8);
    let off2 = b.pure(PureOp::Imul, &[id, eight]);
    b.effect(EffectOp::Store(out), &[off2, s, c], &[]);
    b.return_();

    let opt = optimize(&f, g13(), &OptOptions::default()).expect("optimizes");
    assert_eq!(opt.report.fallback, None);
    let text = opt.func.to_string();
    assert!(text.contains("g13.sin_pt_1") && !text.contains(" sin ") && !text.contains(" cos "));

    let xs: Vec<f32> = (0..n)
        .map(|i| -core::f32::consts::PI + 2.0 * core::f32::consts::PI * i as f32 / n as f32)
        .collect();
    let mut res = Resources::new();
    res.bind_storage(Binding::new(0, 0), f32_bytes(&xs));
    res.bind_storage(Binding::new(0, 1), vec![0; 8 * n as usize]);
    run_compute(&opt.func, &mut res, [1, 1, 1], &Limits::default()).expect("runs");
    let got = bytes_f32(res.buffer_data(Binding::new(0, 1)).expect("bound"));
    for (i, &x) in xs.iter().enumerate() {
        let (s, c) = (got[2 * i] as f64, got[2 * i + 1] as f64);
        let x = x as f64;
        assert!((s - x.sin()).abs() <= 2f64.powi(-11), "sin({x}) = {s}");
        assert!((c - x.cos()).abs() <= 2f64.powi(-11), "cos({x}) = {c}");
    }
}
