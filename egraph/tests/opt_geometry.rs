//! The optimizer on a geometry function: per-vertex inputs, outputs and emission stay in the
//! control-flow skeleton in their order, pure arithmetic between them is simplified, and the
//! result emits what the input did.

use agxc_egraph::interp::{run_geometry, GeometryVertex, Limits, Resources};
use agxc_egraph::ir::{parse_function, EffectOp, Op, OpRegistry, OutputSlot};
use agxc_egraph::opt::{optimize, GenericTarget, OptOptions};

/// Two emits whose outputs are computed with redundant arithmetic (`x * 1.0 + 0.0`); the same
/// output slot is written before each emit, so neither write is dead.
const TEXT: &str = "\
function @gs geometry input(lines) output(line_strip) max_vertices(2) invocations(1) {
block0:
    v0:i32 = const 0
    v1:i32 = const 1
    v2:f32 = const 1.0
    v3:f32 = const 0.0
    v4:f32 = vertex_input 0.x v0
    v5:f32 = fmul v4, v2
    v6:f32 = fadd v5, v3
    output 0.x v6
    emit_vertex 0
    v7:f32 = vertex_input 0.x v1
    v8:f32 = fmul v7, v2
    v9:f32 = fadd v8, v3
    output 0.x v9
    emit_vertex 0
    end_primitive 0
    return
}
";

#[test]
fn effects_keep_their_order_and_results_are_unchanged() {
    let func = parse_function(TEXT, &OpRegistry::new()).unwrap();
    let out = optimize(&func, &GenericTarget::new(), &OptOptions::default()).unwrap();
    assert!(out.report.fallback.is_none(), "{}", out.report);

    let mut effects = Vec::new();
    let mut pure = 0;
    out.func.for_each_inst(|_, i| match out.func.insts[i].op {
        Op::Effect(e) => effects.push(e),
        Op::Pure(_) => pure += 1,
        _ => {}
    });
    let slot = OutputSlot::Location {
        location: 0,
        component: 0,
    };
    assert_eq!(
        effects,
        [
            EffectOp::VertexInput(slot),
            EffectOp::Output(slot),
            EffectOp::EmitVertex(0),
            EffectOp::VertexInput(slot),
            EffectOp::Output(slot),
            EffectOp::EmitVertex(0),
            EffectOp::EndPrimitive(0),
        ]
    );
    // `x * 1.0 + 0.0` is `x` only up to the sign of zero (-0.0 + 0.0 is +0.0), so the generic
    // rules keep the addition; the multiplication by one goes.
    assert!(pure <= 2, "{}", out.func);

    let x = |v: f32| GeometryVertex::new().with_location(0, [v, 0.0, 0.0, 0.0]);
    let input = [x(-0.0), x(2.5)];
    let res = Resources::new();
    let limits = Limits::default();
    let before = run_geometry(&func, &res, &input, &limits).unwrap().strips;
    let after = run_geometry(&out.func, &res, &input, &limits)
        .unwrap()
        .strips;
    assert_eq!(before, after);
    let first = before[0].vertices[0].get(slot).unwrap();
    assert_eq!(first.to_bits(), 0.0f32.to_bits(), "-0.0 + 0.0 is +0.0");
}
