//! Tests of the optimizer as a whole: the rule families, extraction, elaboration, limits, dumps.

use super::probe::best;
use super::*;
use crate::ir::{
    AddressSpace, Binding, Builder, EffectOp, Function, InstFlags, LodMode, MemAccess, PureOp,
    SampleOp, Stage, TexDim, TexTarget, Type,
};
use std::sync::OnceLock;

fn generic() -> &'static GenericTarget {
    static T: OnceLock<GenericTarget> = OnceLock::new();
    T.get_or_init(GenericTarget::new)
}

fn probe(text: &str) -> String {
    best(generic(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

// ---- the soundness check of every generic rule

#[test]
fn every_generic_rule_is_sound() {
    let cfg = soundness::CheckConfig::default();
    match soundness::check_rules(generic().rules(), &cfg) {
        Ok(stats) => assert_eq!(stats.len(), generic().rules().len()),
        Err(errors) => {
            let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("{} unsound rule(s):\n{}", errors.len(), text.join("\n"));
        }
    }
}

#[test]
fn the_checker_rejects_an_unsound_rule() {
    let reg = crate::ir::OpRegistry::new();
    let bad = [
        RuleSpec::new(
            "bad-fadd-zero",
            "x + 0 == x (false for -0)",
            "(fadd ?x 0.0)",
            "?x",
        ),
        RuleSpec::new(
            "bad-fmul-zero",
            "x * 0 == 0 (false for inf)",
            "(fmul ?x 0)",
            "0",
        ),
        RuleSpec::new(
            "bad-isub-swap",
            "x - y == y - x",
            "(isub ?x ?y)",
            "(isub ?y ?x)",
        ),
    ];
    for spec in bad {
        let rule = Rule::from_spec(&spec, &reg).expect("well-formed");
        let res = soundness::check_rule(&rule, &soundness::CheckConfig::default());
        assert!(
            matches!(res, Err(soundness::Unsound::Mismatch(_))),
            "{}: {res:?}",
            spec.name
        );
    }
}

// ---- one line per family

#[test]
fn fadd_of_fmul_fuses() {
    assert_eq!(probe("(fadd (fmul ?a ?b) ?c)"), "(fma ?a ?b ?c)");
    assert_eq!(probe("(fadd ?c (fmul ?a ?b))"), "(fma ?a ?b ?c)");
}

#[test]
fn no_contraction_on_either_operation_prevents_fusion() {
    assert_eq!(
        probe("(fadd.nocontract (fmul ?a ?b) ?c)"),
        "(fadd.nocontract (fmul ?a ?b) ?c)"
    );
    assert_eq!(
        probe("(fadd (fmul.nocontract ?a ?b) ?c)"),
        "(fadd (fmul.nocontract ?a ?b) ?c)"
    );
    assert_eq!(
        probe("(fsub.nocontract ?c (fmul ?a ?b))"),
        "(fsub.nocontract ?c (fmul ?a ?b))"
    );
}

#[test]
fn subtraction_and_negation_fuse_with_operand_negation() {
    assert_eq!(probe("(fsub ?c (fmul ?a ?b))"), "(fma (fneg ?a) ?b ?c)");
    assert_eq!(probe("(fsub (fmul ?a ?b) ?c)"), "(fma ?a ?b (fneg ?c))");
    // The negation stays outside when that is as cheap (a free modifier either way).
    let neg = probe("(fneg (fadd (fmul ?a ?b) ?c))");
    assert!(
        neg == "(fneg (fma ?a ?b ?c))" || neg == "(fma (fneg ?a) ?b (fneg ?c))",
        "{neg}"
    );
    assert_eq!(
        probe("(fadd (fneg (fmul ?a ?b)) ?c)"),
        "(fma (fneg ?a) ?b ?c)"
    );
}

#[test]
fn algebra_and_strength_reduction() {
    assert_eq!(probe("(fmul ?x 1.0:f32)"), "?x");
    assert_eq!(probe("(fadd ?x 0.0:f32)"), "(fadd ?x 0.0:f32)");
    assert_eq!(probe("(fmul ?x 0.0:f32)"), "(fmul ?x 0.0:f32)");
    assert_eq!(probe("(fsub ?x 0.0:f32)"), "?x");
    assert_eq!(probe("(imul ?x:i32 8:i32)"), "(ishl ?x 3:i32)");
    assert_eq!(probe("(fdiv ?x 4.0:f32)"), "(fmul ?x 0.25:f32)");
    assert_eq!(probe("(fdiv ?x 3.0:f32)"), "(fdiv ?x 3.0:f32)");
    assert_eq!(probe("(isub (iadd ?x:i32 ?y:i32) ?y:i32)"), "?x");
    assert_eq!(probe("(fneg (fneg ?x))"), "?x");
    assert_eq!(probe("(fadd 1.5:f32 2.0:f32)"), "3.5:f32");
    assert_eq!(probe("(iadd (iadd ?x:i32 3:i32) 4:i32)"), "(iadd ?x 7:i32)");
    // Constants move right, so that they meet and fold.
    assert_eq!(probe("(iadd (iadd 3:i32 ?x:i32) 4:i32)"), "(iadd ?x 7:i32)");
}

#[test]
fn comparisons_selects_and_bitfields() {
    assert_eq!(probe("(select (not ?c:bool) ?a ?b)"), "(select ?c ?b ?a)");
    assert_eq!(probe("(select ?c:bool ?a ?a)"), "?a");
    assert_eq!(
        probe("(select (slt ?a:i32 ?b:i32) ?a:i32 ?b:i32)"),
        "(smin ?a ?b)"
    );
    assert_eq!(
        probe("(and (ushr ?x:i32 8:i32) 255:i32)"),
        "(ubfe ?x 8:i32 8:i32)"
    );
    assert_eq!(probe("(pow ?x 2.0:f32)"), "(fmul ?x ?x)");
}

// ---- functions through the whole pipeline

fn ssbo(binding: u32) -> MemAccess {
    MemAccess {
        space: AddressSpace::Storage(Binding::new(0, binding)),
        offset: 0,
    }
}

/// A compute function that loads `n` floats, applies `body`, and stores its results.
fn function(
    n: usize,
    body: impl FnOnce(&mut Builder<'_>, &[crate::ir::Value]) -> Vec<crate::ir::Value>,
) -> Function {
    staged(Stage::Compute, n, body)
}

/// The same in any stage.
fn staged(
    stage: Stage,
    n: usize,
    body: impl FnOnce(&mut Builder<'_>, &[crate::ir::Value]) -> Vec<crate::ir::Value>,
) -> Function {
    let mut f = Function::new("t", stage);
    let mut b = Builder::new(&mut f);
    let zero = b.i32(0);
    let ins = b
        .effect(EffectOp::Load(ssbo(0)), &[zero], &vec![Type::F32; n])
        .to_vec();
    let outs = body(&mut b, &ins);
    b.effect(EffectOp::Store(ssbo(1)), &[vec![zero], outs].concat(), &[]);
    b.return_();
    f
}

fn opt(f: &Function) -> Optimized {
    let out = optimize(f, generic(), &OptOptions::default()).expect("optimizes");
    assert_eq!(out.report.fallback, None, "{}", out.report);
    assert!(crate::ir::verify(&out.func).is_ok());
    out
}

fn sample_op(dim: TexDim, lod: LodMode) -> SampleOp {
    SampleOp {
        texture: Binding::new(0, 2),
        sampler: Binding::new(0, 2),
        target: TexTarget {
            dim,
            arrayed: false,
        },
        lod,
        proj: false,
        shadow: false,
        min_lod: false,
        offset: [0; 3],
    }
}

/// The LOD modes of the function's samples, in order.
fn sample_modes(f: &Function) -> Vec<LodMode> {
    let mut modes = Vec::new();
    f.for_each_inst(|_, i| {
        if let crate::ir::Op::Effect(EffectOp::Sample(s)) = f.insts[i].op {
            modes.push(s.lod);
        }
    });
    modes
}

fn grad_sample(
    dim: TexDim,
    grads: impl Fn(&mut Builder<'_>, &[crate::ir::Value]) -> Vec<crate::ir::Value>,
) -> Function {
    function(9, |b, v| {
        let n = dim.coords();
        let mut args = v[..n].to_vec();
        args.extend(grads(b, v));
        b.effect(
            EffectOp::Sample(sample_op(dim, LodMode::Grad)),
            &args,
            &[Type::F32; 4],
        )
        .to_vec()
    })
}

#[test]
fn txd_on_a_cube_map_extracts_to_txl() {
    let f = grad_sample(TexDim::Cube, |_, v| v[3..9].to_vec());
    let out = opt(&f);
    assert_eq!(sample_modes(&out.func), vec![LodMode::Explicit]);
    assert!(out.func.to_string().contains("tex_size cube"));
    assert_eq!(out.report.fired("txd-cube-to-txl"), 1);
}

#[test]
fn txd_on_a_2d_texture_stays_unless_the_gradients_are_zero() {
    let f = grad_sample(TexDim::D2, |_, v| v[3..7].to_vec());
    assert_eq!(sample_modes(&opt(&f).func), vec![LodMode::Grad]);
    let f = grad_sample(TexDim::D2, |b, _| {
        let z = b.f32(0.0);
        vec![z; 4]
    });
    let out = opt(&f);
    assert_eq!(sample_modes(&out.func), vec![LodMode::Explicit]);
    assert!(out.func.to_string().contains("0xff800000"), "{}", out.func);
}

#[test]
fn projector_and_zero_bias_are_lowered() {
    let f = staged(Stage::Fragment, 4, |b, v| {
        let mut op = sample_op(TexDim::D2, LodMode::Bias);
        op.proj = true;
        let zero = b.f32(0.0);
        b.effect(
            EffectOp::Sample(op),
            &[v[0], v[1], v[2], zero],
            &[Type::F32; 4],
        )
        .to_vec()
    });
    let out = opt(&f);
    let text = out.func.to_string();
    assert_eq!(sample_modes(&out.func), vec![LodMode::Implicit], "{text}");
    assert_eq!(text.matches("fdiv").count(), 2, "{text}");
    assert!(!text.contains(" proj"), "{text}");
}

#[test]
fn flags_survive_elaboration() {
    let f = function(3, |b, v| {
        b.set_flags(InstFlags::NO_CONTRACT);
        let m = b.pure(PureOp::Fmul, &[v[0], v[1]]);
        b.set_flags(InstFlags::RELAXED);
        let s = b.pure(PureOp::Fadd, &[m, v[2]]);
        b.set_flags(InstFlags::NONE);
        vec![s]
    });
    let text = opt(&f).func.to_string();
    assert!(text.contains("fmul.nocontract"), "{text}");
    assert!(text.contains("fadd.relaxed"), "{text}");
}

#[test]
fn loop_invariants_are_hoisted_and_single_arm_values_sunk() {
    // loop { x = a * b (invariant); i' = i + 1; if i' < 4 { yield } else { break x + acc } }
    let mut f = Function::new("t", Stage::Compute);
    let mut b = Builder::new(&mut f);
    let zero = b.i32(0);
    let v = b
        .effect(EffectOp::Load(ssbo(0)), &[zero], &[Type::F32; 3])
        .to_vec();
    // A trip count the control-flow passes cannot know (so the loop stays a loop).
    let n = b.effect(
        EffectOp::Builtin(crate::ir::Builtin::GlobalId(0)),
        &[],
        &[Type::I32],
    )[0];
    // Used only in the else arm of the `if` below: must move into that arm.
    let only_else = b.pure(PureOp::Exp2, &[v[2]]);
    let (lp, body, params) = b.begin_loop(&[zero, v[2]], &[Type::F32]);
    let outer = b.block();
    b.switch_to(body);
    let inv = b.pure(PureOp::Fdiv, &[v[0], v[1]]);
    let acc = b.pure(PureOp::Fadd, &[inv, params[1]]);
    let one = b.i32(1);
    let next = b.pure(PureOp::Iadd, &[params[0], one]);
    let more = b.pure(PureOp::Slt, &[next, n]);
    let (_, [t, e]) = b.begin_if(more, &[]);
    b.switch_to(t);
    b.yield_(&[]);
    b.switch_to(e);
    b.break_(&[acc]);
    b.switch_to(body);
    b.continue_(&[next, acc]);
    b.switch_to(outer);
    let r = b.results(lp)[0];
    let c = b.pure(PureOp::Flt, &[r, v[0]]);
    let (iff, [t, e]) = b.begin_if(c, &[Type::F32]);
    b.switch_to(t);
    b.yield_(&[r]);
    b.switch_to(e);
    // A store keeps the branch (if-conversion never speculates one).
    b.effect(EffectOp::Store(ssbo(2)), &[zero, only_else], &[]);
    b.yield_(&[only_else]);
    b.switch_to(outer);
    let res = b.results(iff)[0];
    b.effect(EffectOp::Store(ssbo(1)), &[zero, res], &[]);
    b.return_();

    let out = opt(&f).func;
    let text = out.to_string();
    // The division is in the entry block (before the loop), the exp2 inside the else arm.
    let entry = &out.blocks[out.entry];
    let in_entry = |name: &str| {
        entry
            .insts
            .iter()
            .any(|&i| out.insts[i].op == crate::ir::Op::Pure(PureOp::from_name(name).unwrap()))
    };
    assert!(in_entry("fdiv"), "{text}");
    assert!(!in_entry("exp2"), "{text}");
    assert!(text.contains("exp2"), "{text}");
}

#[test]
fn common_subexpressions_are_shared_and_dead_code_removed() {
    let f = function(2, |b, v| {
        let a = b.pure(PureOp::Fmul, &[v[0], v[1]]);
        let c = b.pure(PureOp::Fmul, &[v[0], v[1]]);
        let _dead = b.pure(PureOp::Sin, &[v[0]]);
        let s = b.pure(PureOp::Fsub, &[a, c]);
        vec![s, a]
    });
    let text = opt(&f).func.to_string();
    assert_eq!(text.matches("fmul").count(), 1, "{text}");
    assert!(!text.contains("sin"), "{text}");
}

#[test]
fn atomics_are_never_merged_reordered_or_dropped() {
    // Two identical atomics with unused results, and a load between atomics to the same word:
    // each is an effect with its own place, so all stay, in order.
    let text = "
function @a compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 0
    v1:i32 = const 1
    v2:i32 = atomic add storage(0, 0) [v0], v1
    v3:i32 = atomic add storage(0, 0) [v0], v1
    v4:i32 = load storage(0, 0) [v0]
    v5:i32 = atomic xchg storage(0, 0) [v0], v1
    store storage(0, 1) [v0], v4
    return
}
";
    let f = crate::ir::parse_function(text, &crate::ir::OpRegistry::new()).expect("parses");
    let out = opt(&f).func.to_string();
    let add = out.find("atomic add").expect("first add kept");
    let second = out[add + 1..].find("atomic add").expect("second add kept") + add + 1;
    let load = out.find("= load").expect("load kept");
    let xchg = out.find("atomic xchg").expect("exchange kept");
    assert!(add < second && second < load && load < xchg, "{out}");
}

#[test]
fn optimization_is_deterministic() {
    let f = synth::shader_like(800, 3);
    let a = opt(&f);
    let b = opt(&f);
    assert_eq!(a.func.to_string(), b.func.to_string());
    assert_eq!(a.report.firings, b.report.firings);
}

// ---- incremental search

fn saturated(f: &Function, search: runner::Search) -> (EGraph, Report) {
    let mut eg = EGraph::default();
    to_egraph::lower(f, &mut eg).expect("lowers");
    eg.rebuild();
    runner::saturate_with(eg, generic().rules(), &Limits::default(), search)
}

#[test]
fn incremental_search_reaches_the_e_graph_a_full_search_does() {
    for seed in 0..4 {
        let f = synth::shader_like(700, seed);
        let (inc, inc_report) = saturated(&f, runner::Search::Incremental);
        let (full, full_report) = saturated(&f, runner::Search::Full);
        assert_eq!(
            (inc.total_size(), inc.number_of_classes()),
            (full.total_size(), full.number_of_classes()),
            "seed {seed}"
        );
        assert_eq!(inc_report.firings, full_report.firings, "seed {seed}");
        assert_eq!(inc_report.iterations, full_report.iterations, "seed {seed}");
        // Every rule searched the whole e-graph once, and only what changed afterwards.
        assert_eq!(inc_report.full_searches, generic().rules().len());
        assert!(inc_report.incremental_searches > 0);
        assert_eq!(full_report.incremental_searches, 0);
    }
}

// ---- extraction

fn cost_of(target: &dyn Target) -> impl Fn(&Node, &Facts) -> f64 + Copy + '_ {
    move |n: &Node, f: &Facts| cost::extraction_cost(target.cost(n, f), n)
}

#[test]
fn dag_extraction_is_never_worse_than_egg_tree_extraction() {
    for seed in 0..4 {
        let f = synth::shader_like(400, seed);
        let mut eg = EGraph::default();
        let mut lowered = to_egraph::lower(&f, &mut eg).expect("lowers");
        eg.rebuild();
        let (eg, _) = runner::saturate(eg, generic().rules(), &Limits::default());
        lowered.skeleton.canonicalize(|id| eg.find(id));
        let roots = lowered.skeleton.roots();
        let dag = extract::dag(&eg, &roots, cost_of(generic()));
        let baseline = extract::egg_tree_dag_cost(&eg, &roots, cost_of(generic()));
        assert!(
            dag.dag_cost <= baseline + 1e-9,
            "seed {seed}: dag {} > egg tree {}",
            dag.dag_cost,
            baseline
        );
    }
}

#[test]
fn deep_sharing_keeps_available_terms_ahead_of_unavailable_ones() {
    // v[i+1] = v[i] + v[i-1] for 2000 levels: tree costs grow like Fibonacci numbers and
    // exceed f64's range. On top, a class offers `sin` (unavailable: infinite cost) or another
    // operation (some of them order before `sin` in the class, some after).
    for other in [
        PureOp::Sqrt,
        PureOp::Fabs,
        PureOp::Fneg,
        PureOp::Floor,
        PureOp::Cos,
    ] {
        let mut eg = EGraph::default();
        let leaf = |eg: &mut EGraph, n| {
            eg.add(Node::leaf(Kind::Leaf {
                value: crate::ir::Value::from_u32(n),
                ty: Type::F32,
            }))
        };
        let mut v = vec![leaf(&mut eg, 0), leaf(&mut eg, 1)];
        for i in 1..2000 {
            let next = eg.add(Node::new(Kind::pure(PureOp::Fadd), &[v[i], v[i - 1]]));
            v.push(next);
        }
        let top = v[v.len() - 1];
        let sin = eg.add(Node::new(Kind::pure(PureOp::Sin), &[top]));
        let alt = eg.add(Node::new(Kind::pure(other), &[top]));
        eg.union(sin, alt);
        eg.rebuild();
        let cost = |n: &Node, _: &Facts| match n.kind {
            k if k == Kind::pure(PureOp::Sin) => f64::INFINITY,
            _ => 1.0,
        };
        for ex in [
            extract::tree(&eg, &[eg.find(sin)], cost),
            extract::dag(&eg, &[eg.find(sin)], cost),
        ] {
            assert!(ex.unavailable.is_empty(), "{other:?}: {:?}", ex.unavailable);
            assert_eq!(ex.choice[&eg.find(sin)].kind, Kind::pure(other));
            // Two leaves, 1999 additions, the top.
            assert_eq!(ex.dag_cost, 2002.0);
        }
    }
}

#[test]
fn dag_extraction_pays_a_shared_value_once() {
    // Class r2 = { h(s), k(y) }: h(s) costs 0.75 more than k(y) as a tree, but s is needed by
    // root r1 anyway, so h(s) is cheaper in the DAG.
    let mut eg = EGraph::default();
    let leaf = |eg: &mut EGraph, n| {
        eg.add(Node::leaf(Kind::Leaf {
            value: crate::ir::Value::from_u32(n),
            ty: Type::F32,
        }))
    };
    let x = leaf(&mut eg, 0);
    let y = leaf(&mut eg, 1);
    let s = eg.add(Node::new(Kind::pure(PureOp::Sin), &[x])); // expensive, shared
    let r1 = eg.add(Node::new(Kind::pure(PureOp::Fabs), &[s]));
    let h = eg.add(Node::new(Kind::pure(PureOp::Fneg), &[s])); // free
    let k = eg.add(Node::new(Kind::pure(PureOp::Sqrt), &[y])); // cheaper than sin, dearer than fneg
    eg.union(h, k);
    eg.rebuild();
    let roots = [eg.find(r1), eg.find(h)];
    let cost = cost_of(generic());
    let tree = extract::tree(&eg, &roots, cost);
    let dag = extract::dag(&eg, &roots, cost);
    let baseline = extract::egg_tree_dag_cost(&eg, &roots, cost);
    assert_eq!(dag.choice[&eg.find(h)].kind, Kind::pure(PureOp::Fneg));
    assert!(
        dag.dag_cost + 1.0 < tree.dag_cost,
        "{} vs {}",
        dag.dag_cost,
        tree.dag_cost
    );
    assert!(dag.dag_cost + 1.0 < baseline);
}

// ---- limits and reports

#[test]
fn a_ten_thousand_instruction_function_stays_within_the_node_limit() {
    let f = synth::shader_like(10_000, 11);
    let out = opt(&f);
    let r = &out.report;
    assert!(
        !matches!(
            r.stop_reason,
            StopReason::NodeLimit(_) | StopReason::TimeLimit(_)
        ),
        "{r}"
    );
    assert!(r.nodes <= r.node_limit, "{r}");
    assert!(r.insts_after <= r.insts_before, "{r}");
}

#[test]
fn the_time_limit_stops_a_run_under_the_mock_clock_and_times_are_real() {
    // egg reads a mock clock the optimizer keeps at the real time (`clock`): the limit still
    // sees time pass, within the first iteration's search.
    let f = synth::shader_like(2_000, 3);
    let limits = Limits {
        time: std::time::Duration::from_nanos(1),
        ..Limits::default()
    };
    let out = optimize(
        &f,
        generic(),
        &OptOptions {
            limits,
            ..OptOptions::default()
        },
    )
    .expect("optimizes");
    assert!(
        matches!(out.report.stop_reason, StopReason::TimeLimit(_)),
        "{}",
        out.report
    );
    let r = opt(&f).report;
    assert!(r.search_time > 0.0 && r.apply_time > 0.0, "{r}");
    assert!(r.search_time + r.apply_time <= r.saturation_time, "{r}");
}

#[test]
fn the_report_counts_rule_firings() {
    let f = function(3, |b, v| {
        let m = b.pure(PureOp::Fmul, &[v[0], v[1]]);
        let s = b.pure(PureOp::Fadd, &[m, v[2]]);
        let one = b.f32(1.0);
        let t = b.pure(PureOp::Fmul, &[s, one]);
        vec![t]
    });
    let out = opt(&f);
    assert_eq!(out.report.fired("fma-add-mul-left"), 1);
    assert_eq!(out.report.fired("fmul-one"), 1);
    assert_eq!(out.report.stop_reason, StopReason::Saturated);
    let text = out.report.to_string();
    assert!(text.contains("fma-add-mul-left"), "{text}");
    assert!(text.contains("stop reason: saturated"), "{text}");
}

// ---- dumps

fn dump_options(max: usize) -> OptOptions {
    OptOptions {
        dump: DumpOptions {
            dot: true,
            max_dot_nodes: max,
            ..DumpOptions::default()
        },
        ..OptOptions::default()
    }
}

#[test]
fn dot_dump_marks_the_extracted_nodes() {
    let f = function(3, |b, v| {
        let m = b.pure(PureOp::Fmul, &[v[0], v[1]]);
        vec![b.pure(PureOp::Fadd, &[m, v[2]])]
    });
    let out = optimize(&f, generic(), &dump_options(dump::DOT_NODE_LIMIT)).expect("optimizes");
    let dot = out.dumps.dot.expect("requested");
    let marked: Vec<&str> = dot
        .lines()
        .filter(|l| l.contains("class=\"extracted\""))
        .collect();
    assert!(marked.iter().any(|l| l.contains("label=\"fma\"")), "{dot}");
    // The unfused forms are in the e-graph but not extracted.
    assert!(
        dot.lines()
            .any(|l| l.contains("label=\"fadd\"") && !l.contains("extracted")),
        "{dot}"
    );
    assert!(
        !marked.iter().any(|l| l.contains("label=\"fadd\"")),
        "{dot}"
    );
    assert!(!dot.contains("truncated"), "{dot}");
}

#[test]
fn a_truncated_dot_dump_says_so() {
    let f = synth::shader_like(300, 5);
    let out = optimize(&f, generic(), &dump_options(20)).expect("optimizes");
    let dot = out.dumps.dot.expect("requested");
    assert!(
        dot.starts_with("// truncated:"),
        "{}",
        &dot[..200.min(dot.len())]
    );
    assert!(dot.contains("truncated [shape=note"));
    let boxes = dot
        .lines()
        .filter(|l| l.trim_start().starts_with('"') && l.contains("[label="))
        .count();
    assert!(boxes <= 20, "{boxes} e-nodes in a dump limited to 20");
}

#[test]
fn svg_dump_runs_graphviz_or_reports_why_not() {
    let f = function(2, |b, v| vec![b.pure(PureOp::Fmul, &[v[0], v[1]])]);
    let opts = OptOptions {
        dump: DumpOptions {
            svg: true,
            ..DumpOptions::default()
        },
        ..OptOptions::default()
    };
    let out = optimize(&f, generic(), &opts).expect("optimizes");
    match out.dumps.svg.expect("requested") {
        Ok(svg) => assert!(svg.contains("<svg") && svg.contains("extracted")),
        Err(dump::DumpError::GraphvizMissing(_)) => {}
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn explanations_name_the_rules_used() {
    let mut fadd = None;
    let f = function(3, |b, v| {
        let m = b.pure(PureOp::Fmul, &[v[0], v[1]]);
        let s = b.pure(PureOp::Fadd, &[m, v[2]]);
        fadd = Some(s);
        vec![s]
    });
    let v = fadd.expect("built");
    let opts = OptOptions {
        dump: DumpOptions {
            explain: vec![v],
            ..DumpOptions::default()
        },
        ..OptOptions::default()
    };
    let out = optimize(&f, generic(), &opts).expect("optimizes");
    let (_, text) = &out.dumps.explanations[0];
    assert!(text.contains("fma-add-mul-left"), "{text}");
    assert!(text.contains("(fma"), "{text}");
}

// ---- end to end: the interpreter agrees before and after

struct ExactOnly(Vec<Rule>);

impl Target for ExactOnly {
    fn name(&self) -> &'static str {
        "exact-only"
    }
    fn ops(&self) -> &[&'static crate::ir::CustomOpDef] {
        &[]
    }
    fn rules(&self) -> &[Rule] {
        &self.0
    }
    fn cost(&self, node: &Node, facts: &Facts) -> OpCost {
        cost::generic_cost(node, facts)
    }
}

#[test]
fn exact_rules_preserve_what_the_interpreter_computes() {
    use crate::interp::{run_compute, Limits as RunLimits, Resources};
    let target = ExactOnly(
        generic()
            .rules()
            .iter()
            .filter(|r| r.tolerance == Tolerance::Exact)
            .cloned()
            .collect(),
    );
    for seed in 0..6 {
        let f = synth::shader_like(600, 100 + seed);
        let out = optimize(&f, &target, &OptOptions::default()).expect("optimizes");
        assert_eq!(out.report.fallback, None);
        let mut rng = synth::Rng::new(seed);
        let mut input = Vec::new();
        for i in 0..12 {
            let bits = if i < 8 {
                (rng.range(-4.0, 4.0) as f32).to_bits()
            } else {
                rng.below(64) as u32
            };
            input.extend(bits.to_le_bytes());
        }
        let run = |func: &Function| {
            let mut res = Resources::new();
            res.bind_storage(Binding::new(0, 0), input.clone());
            res.bind_storage(Binding::new(0, 1), vec![0; 256]);
            run_compute(func, &mut res, [1, 1, 1], &RunLimits::default())
                .map(|_| res.buffer_data(Binding::new(0, 1)).map(|b| b.to_vec()))
        };
        let before = run(&f);
        let after = run(&out.func);
        let (Ok(Some(before)), Ok(Some(after))) = (&before, &after) else {
            panic!("seed {seed}: {before:?} / {after:?}");
        };
        let words = |b: &[u8]| -> Vec<u32> {
            b.chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        };
        for (i, (x, y)) in words(before).iter().zip(words(after)).enumerate() {
            let nan = |w: u32| f32::from_bits(w).is_nan();
            assert!(
                *x == y || (nan(*x) && nan(y)),
                "seed {seed}, word {i}: {x:#x} vs {y:#x}"
            );
        }
    }
}

// ---- storage images

#[test]
fn image_loads_are_not_merged_across_an_image_store() {
    // The two loads of texel (0, 0) read different values (the store between them writes it),
    // so both stay, in order around the store.
    let text = "
function @rmw compute local_size(1, 1, 1) {
block0:
    v0:i32 = const 0
    v1:f32, v2:f32, v3:f32, v4:f32 = image_load 2d rgba32f img(0, 1) v0, v0
    v5:f32 = fadd v1, v1
    image_store 2d rgba32f img(0, 1) v0, v0, v5, v2, v3, v4
    v6:f32, v7:f32, v8:f32, v9:f32 = image_load 2d rgba32f img(0, 1) v0, v0
    store storage(0, 0) [v0], v6
    return
}
";
    let f = crate::ir::parse_function(text, &crate::ir::OpRegistry::new()).expect("parses");
    let out = opt(&f).func.to_string();
    let load = out.find("image_load").expect("first load");
    let store = out.find("image_store").expect("store");
    let second = out.rfind("image_load").expect("second load");
    assert!(load < store && store < second, "{out}");
}
