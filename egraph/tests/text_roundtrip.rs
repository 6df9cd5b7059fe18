//! The hand-written text-form corpus (`tests/ir_text/*.ir`): every file parses, verifies and
//! prints back exactly (its leading `;` comment lines aside), and together the files use every
//! pure operation and every effect form of the text form.

use agxc_egraph::ir::{
    parse_function, verify, AddressSpace, AtomicOp, Axis, BarrierKind, Builtin, Class, Const,
    CustomOpDef, DerivPrecision, EffectOp, Function, InstFlags, Interp, LodMode, Op, OpRegistry,
    OutputSlot, PureOp, Signature, Stage, TexDim, Type,
};
use std::collections::HashSet;
use std::path::PathBuf;

fn double(args: &[Const], _: Type) -> Const {
    Const::f32(args[0].as_f32() * 2.0)
}

static DOUBLE: CustomOpDef = CustomOpDef {
    name: "test.double",
    signature: Signature::Unary(Class::Float),
    eval: double,
    doc: "x * 2",
};

fn registry() -> OpRegistry {
    OpRegistry::with(&[&DOUBLE])
}

/// The corpus files and their texts without the leading comment lines.
fn corpus() -> Vec<(PathBuf, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ir_text");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/ir_text exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "ir"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "corpus files missing from {}",
        dir.display()
    );
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable corpus file");
            let body: String = text
                .lines()
                .skip_while(|l| l.starts_with(';'))
                .flat_map(|l| [l, "\n"])
                .collect();
            (path, body)
        })
        .collect()
}

fn parsed_corpus() -> Vec<Function> {
    corpus()
        .into_iter()
        .map(|(path, text)| {
            parse_function(&text, &registry()).unwrap_or_else(|e| panic!("{}:{e}", path.display()))
        })
        .collect()
}

#[test]
fn corpus_round_trips_and_verifies() {
    for (path, text) in corpus() {
        let func =
            parse_function(&text, &registry()).unwrap_or_else(|e| panic!("{}:{e}", path.display()));
        if let Err(e) = verify(&func) {
            panic!("{}:\n{e}", path.display());
        }
        assert_eq!(func.to_string(), text, "{}", path.display());
    }
}

#[test]
fn corpus_uses_every_pure_operation() {
    let mut seen = HashSet::new();
    for func in parsed_corpus() {
        func.for_each_inst(|_, i| {
            if let Op::Pure(op) = func.insts[i].op {
                seen.insert(op);
            }
        });
    }
    let missing: Vec<&str> = PureOp::ALL
        .iter()
        .filter(|op| !seen.contains(op))
        .map(|op| op.name())
        .collect();
    assert!(missing.is_empty(), "no corpus line uses {missing:?}");
}

/// A named predicate recognising one effect form.
type Form = (&'static str, Box<dyn Fn(&EffectOp) -> bool>);

/// Each effect form of the text form.
fn effect_forms() -> Vec<Form> {
    let mut forms: Vec<Form> = vec![
        (
            "load storage",
            Box::new(
                |e| matches!(e, EffectOp::Load(a) if matches!(a.space, AddressSpace::Storage(_))),
            ),
        ),
        (
            "load uniform",
            Box::new(
                |e| matches!(e, EffectOp::Load(a) if matches!(a.space, AddressSpace::Uniform(_))),
            ),
        ),
        (
            "load push",
            Box::new(|e| matches!(e, EffectOp::Load(a) if a.space == AddressSpace::PushConstant)),
        ),
        (
            "load shared",
            Box::new(|e| matches!(e, EffectOp::Load(a) if a.space == AddressSpace::Workgroup)),
        ),
        (
            "load with offset",
            Box::new(|e| matches!(e, EffectOp::Load(a) if a.offset != 0)),
        ),
        (
            "store storage",
            Box::new(
                |e| matches!(e, EffectOp::Store(a) if matches!(a.space, AddressSpace::Storage(_))),
            ),
        ),
        (
            "store shared",
            Box::new(|e| matches!(e, EffectOp::Store(a) if a.space == AddressSpace::Workgroup)),
        ),
        (
            "buffer_size",
            Box::new(|e| matches!(e, EffectOp::BufferSize(_))),
        ),
        (
            "barrier workgroup",
            Box::new(|e| *e == EffectOp::Barrier(BarrierKind::Workgroup)),
        ),
        (
            "barrier memory",
            Box::new(|e| *e == EffectOp::Barrier(BarrierKind::Memory)),
        ),
        (
            "output location",
            Box::new(|e| matches!(e, EffectOp::Output(OutputSlot::Location { .. }))),
        ),
        (
            "output position",
            Box::new(|e| matches!(e, EffectOp::Output(OutputSlot::Position(_)))),
        ),
        (
            "output point_size",
            Box::new(|e| *e == EffectOp::Output(OutputSlot::PointSize)),
        ),
        (
            "output frag_depth",
            Box::new(|e| *e == EffectOp::Output(OutputSlot::FragDepth)),
        ),
        (
            "sample proj",
            Box::new(|e| matches!(e, EffectOp::Sample(s) if s.proj)),
        ),
        (
            "sample shadow",
            Box::new(|e| matches!(e, EffectOp::Sample(s) if s.shadow)),
        ),
        (
            "sample min_lod",
            Box::new(|e| matches!(e, EffectOp::Sample(s) if s.min_lod)),
        ),
        (
            "sample offset",
            Box::new(|e| matches!(e, EffectOp::Sample(s) if s.offset != [0; 3])),
        ),
        ("fetch", Box::new(|e| matches!(e, EffectOp::Fetch(_)))),
        (
            "fetch offset",
            Box::new(|e| matches!(e, EffectOp::Fetch(f) if f.offset != [0; 3])),
        ),
        ("tex_size", Box::new(|e| matches!(e, EffectOp::TexSize(_)))),
        (
            "tex_size arrayed",
            Box::new(|e| matches!(e, EffectOp::TexSize(s) if s.target.arrayed)),
        ),
        (
            "tex_levels",
            Box::new(|e| matches!(e, EffectOp::TexLevels(_))),
        ),
        ("demote", Box::new(|e| *e == EffectOp::Demote)),
        (
            "vertex_input location",
            Box::new(|e| matches!(e, EffectOp::VertexInput(OutputSlot::Location { .. }))),
        ),
        (
            "vertex_input position",
            Box::new(|e| matches!(e, EffectOp::VertexInput(OutputSlot::Position(_)))),
        ),
        (
            "vertex_input point_size",
            Box::new(|e| *e == EffectOp::VertexInput(OutputSlot::PointSize)),
        ),
        (
            "emit_vertex",
            Box::new(|e| matches!(e, EffectOp::EmitVertex(_))),
        ),
        (
            "end_primitive",
            Box::new(|e| matches!(e, EffectOp::EndPrimitive(_))),
        ),
    ];
    for interp in [Interp::Perspective, Interp::Linear, Interp::Flat] {
        forms.push((
            "input interpolation",
            Box::new(move |e| matches!(e, EffectOp::Input(s) if s.interp == interp)),
        ));
    }
    for axis in [Axis::X, Axis::Y] {
        for p in [
            DerivPrecision::Default,
            DerivPrecision::Fine,
            DerivPrecision::Coarse,
        ] {
            forms.push((
                "derivative",
                Box::new(move |e| *e == EffectOp::Derivative(axis, p)),
            ));
        }
    }
    for lod in [
        LodMode::Implicit,
        LodMode::Bias,
        LodMode::Explicit,
        LodMode::Grad,
        LodMode::Gather(0),
        LodMode::Gather(1),
        LodMode::Gather(2),
        LodMode::Gather(3),
    ] {
        forms.push((
            "sample lod",
            Box::new(move |e| matches!(e, EffectOp::Sample(s) if s.lod == lod)),
        ));
    }
    for dim in [TexDim::D1, TexDim::D2, TexDim::D3, TexDim::Cube] {
        for arrayed in [false, true] {
            forms.push(("sample target", Box::new(move |e| {
                matches!(e, EffectOp::Sample(s) if s.target.dim == dim && s.target.arrayed == arrayed)
            })));
        }
    }
    let mut builtins = vec![
        Builtin::LocalIndex,
        Builtin::FrontFacing,
        Builtin::HelperInvocation,
        Builtin::VertexIndex,
        Builtin::InstanceIndex,
        Builtin::PrimitiveId,
        Builtin::InvocationId,
    ];
    for c in 0..3 {
        builtins.extend([
            Builtin::GlobalId(c),
            Builtin::LocalId(c),
            Builtin::WorkgroupId(c),
            Builtin::WorkgroupSize(c),
            Builtin::NumWorkgroups(c),
        ]);
    }
    builtins.extend((0..4).map(Builtin::FragCoord));
    for op in AtomicOp::ALL {
        forms.push((
            "atomic",
            Box::new(move |e| matches!(e, EffectOp::Atomic(o, _) if *o == op)),
        ));
    }
    forms.push((
        "atomic shared",
        Box::new(|e| matches!(e, EffectOp::Atomic(_, a) if a.space == AddressSpace::Workgroup)),
    ));
    forms.push((
        "atomic storage",
        Box::new(
            |e| matches!(e, EffectOp::Atomic(_, a) if matches!(a.space, AddressSpace::Storage(_))),
        ),
    ));
    for b in builtins {
        forms.push(("builtin", Box::new(move |e| *e == EffectOp::Builtin(b))));
    }
    forms
}

#[test]
fn corpus_uses_every_effect_and_structural_form() {
    let funcs = parsed_corpus();
    let mut effects = Vec::new();
    let mut ops = HashSet::new();
    let mut flags = HashSet::new();
    let mut const_types = HashSet::new();
    let mut loop_without_init = false;
    for func in &funcs {
        func.for_each_inst(|_, i| {
            let data = &func.insts[i];
            if let Op::Effect(e) = data.op {
                effects.push(e);
            }
            if let Op::Const(c) = data.op {
                const_types.insert(c.ty());
            }
            if data.op == Op::Loop && data.args.is_empty() {
                loop_without_init = true;
            }
            ops.insert(data.op.name());
            flags.insert((
                data.flags.contains(InstFlags::NO_CONTRACT),
                data.flags.contains(InstFlags::RELAXED),
            ));
        });
    }
    for (what, form) in effect_forms() {
        assert!(
            effects.iter().any(&form),
            "no corpus line uses the form: {what}"
        );
    }
    for word in [
        "if",
        "loop",
        "yield",
        "break",
        "continue",
        "return",
        "discard",
        "const",
        "test.double",
    ] {
        assert!(ops.contains(word), "no corpus line uses `{word}`");
    }
    assert!(loop_without_init, "no `loop {{` without initial values");
    for f in [(true, false), (false, true), (true, true)] {
        assert!(flags.contains(&f), "flag combination {f:?} unused");
    }
    assert_eq!(
        const_types.len(),
        Type::ALL.len(),
        "constants of every type"
    );
    let stages: HashSet<_> = funcs.iter().map(|f| f.stage).collect();
    assert_eq!(stages.len(), 4);
    assert!(funcs
        .iter()
        .any(|f| f.stage.geometry().is_some_and(|g| g.invocations > 1)));
    assert!(funcs.iter().any(|f| f.stage == Stage::Fragment
        && !f.modes.origin_upper_left
        && f.modes.pixel_center_integer
        && f.modes.depth_replacing
        && f.modes.early_fragment_tests));
    assert!(funcs.iter().any(|f| f.shared_memory > 0));
}

#[test]
fn corpus_constants_mean_what_they_say() {
    // The literals of every_pure_op.ir, read independently of the parser: bit patterns from
    // IEEE 754 and Rust's own conversions.
    let funcs = parsed_corpus();
    let func = funcs
        .iter()
        .find(|f| f.name == "every_pure_op")
        .expect("every_pure_op.ir is in the corpus");
    let mut consts = Vec::new();
    func.for_each_inst(|_, i| {
        if let Op::Const(c) = func.insts[i].op {
            consts.push((c.ty(), c.bits()));
        }
    });
    assert_eq!(
        consts,
        vec![
            (Type::Bool, 0),
            (Type::I16, 0x8000),
            (Type::I32, 0x7fff_ffff),
            (Type::I64, 0x8000_0000_0000_0000),
            (Type::F16, 0xc100), // -2.5 = -1.25 * 2^1: sign, exponent 16, mantissa 0x100
            (Type::F32, 0x8000_0000),
            (Type::F32, 1),
            (Type::F32, 0x7fc0_0000),
            (Type::F32, 0xff80_0000),
            (Type::F16, 0x7c00),
            (Type::F32, 0x4b80_0000), // 2^24
            (Type::F32, 0.1f32.to_bits() as u64),
        ]
    );
}
