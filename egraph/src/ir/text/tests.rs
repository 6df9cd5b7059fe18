use super::*;
use crate::ir::arbitrary::Recipe;
use crate::ir::{verify, Block, Function, OpRegistry, Value};
use quickcheck::{QuickCheck, TestResult};

fn parse(text: &str) -> Result<Function, ParseError> {
    parse_function(text, &OpRegistry::new())
}

/// Everything the text form carries, compared field by field.
fn assert_same(a: &Function, b: &Function) {
    assert_eq!(a.name, b.name);
    assert_eq!(a.stage, b.stage);
    assert_eq!(a.modes, b.modes);
    assert_eq!(a.shared_memory, b.shared_memory);
    assert_eq!(a.push_constant_bytes, b.push_constant_bytes);
    assert_eq!(a.constant_data, b.constant_data);
    assert_eq!(a.entry, b.entry);
    assert_eq!(a.values.len(), b.values.len());
    for (v, data) in a.values.iter() {
        assert_eq!(*data, b.values[v], "{v}");
    }
    assert_eq!(a.blocks.len(), b.blocks.len());
    for (blk, data) in a.blocks.iter() {
        assert_eq!(*data, b.blocks[blk], "{blk}");
    }
    assert_eq!(a.insts.len(), b.insts.len());
    for (i, data) in a.insts.iter() {
        assert_eq!(*data, b.insts[i], "{i}");
    }
}

#[test]
fn random_functions_print_parse_and_reprint_identically() {
    fn prop(recipe: Recipe) -> TestResult {
        let func = recipe.lower();
        let text = func.to_string();
        let parsed = match parse(&text) {
            Ok(f) => f,
            Err(e) => return TestResult::error(format!("{e}\n{text}")),
        };
        if let Err(e) = verify(&parsed) {
            return TestResult::error(format!("{e}\n{text}"));
        }
        let reprinted = parsed.to_string();
        if reprinted != text {
            return TestResult::error(format!("first:\n{text}\nsecond:\n{reprinted}"));
        }
        // The lowering creates instructions in program order, so even the instruction numbers
        // (which the text does not carry) come back the same.
        assert_same(&func, &parsed);
        TestResult::passed()
    }
    QuickCheck::new()
        .tests(500)
        .quickcheck(prop as fn(Recipe) -> TestResult);
}

#[test]
fn random_functions_with_every_type_round_trip() {
    use crate::ir::arbitrary::Config;
    let config = Config {
        i64: true,
        max_stmts: 40,
        ..Config::default()
    };
    let mut g = quickcheck::Gen::from_size_and_seed(100, 17);
    for _ in 0..200 {
        let func = Recipe::generate(&mut g, &config).lower();
        let text = func.to_string();
        let parsed = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(parsed.to_string(), text);
        assert_same(&func, &parsed);
    }
}

#[test]
fn annotated_dumps_still_parse() {
    let text = "\
function @f compute local_size(1, 1, 1) {
block0:
    v0:bool = const true
    if v0 {
    block1:
        yield
    } else {
    block2:
        yield
    }
    return
}
";
    let func = parse(text).unwrap();
    let note = |i: crate::ir::Inst| Some(format!("note for\n{i}"));
    let dump = func.display().inst_names(true).annotate(&note).to_string();
    assert!(
        dump.contains("    if v0 {  ; inst1: note for inst1\n"),
        "{dump}"
    );
    assert!(
        dump.contains("    return  ; inst4: note for inst4\n"),
        "{dump}"
    );
    assert_eq!(parse(&dump).unwrap().to_string(), text);
    assert_eq!(
        func.display_inst(crate::ir::Inst::from_u32(1)).to_string(),
        "if v0"
    );
}

#[test]
fn entity_numbers_are_preserved_with_gaps() {
    let text = "\
function @f compute local_size(1, 1, 1) {
block3:
    v7:i32 = const 1
    v2:i32 = iadd v7, v7
    return
}
";
    let func = parse(text).unwrap();
    assert_eq!(func.entry, Block::from_u32(3));
    assert_eq!(func.values.len(), 8);
    assert_eq!(func.value_type(Value::from_u32(2)), crate::ir::Type::I32);
    assert_eq!(
        func.values[Value::from_u32(0)].def,
        crate::ir::ValueDef::Undefined
    );
    assert_eq!(
        func.blocks[Block::from_u32(0)],
        crate::ir::BlockData::default()
    );
    verify(&func).unwrap();
    assert_eq!(func.to_string(), text);
}

#[test]
fn quoted_names_round_trip() {
    let mut func = Function::new("main entry \"q\"\\\n", crate::ir::Stage::Vertex);
    crate::ir::Builder::new(&mut func).return_();
    let text = func.to_string();
    assert!(
        text.starts_with("function @\"main entry \\\"q\\\"\\\\\\n\" vertex {\n"),
        "{text}"
    );
    assert_eq!(parse(&text).unwrap().name, func.name);
}

// ---- errors, each with its line and column

fn error(text: &str) -> (u32, u32, ParseErrorKind) {
    let e = parse(text).unwrap_err();
    (e.line, e.column, e.kind)
}

const HEAD: &str = "function @f compute local_size(1, 1, 1) {\nblock0:\n";

#[test]
fn unknown_mnemonic() {
    let text = format!("{HEAD}    v0:f32 = const 1.0\n    v1:f32 = fmadd v0, v0\n");
    assert_eq!(
        error(&text),
        (4, 14, ParseErrorKind::UnknownOp("fmadd".into()))
    );
    let e = parse(&text).unwrap_err();
    assert_eq!(e.to_string(), "4:14: unknown operation `fmadd`");
}

#[test]
fn unknown_suffix() {
    let text = format!("{HEAD}    v0:f32 = const 1.0\n    v1:f32 = fadd.fast v0, v0\n");
    assert_eq!(
        error(&text),
        (
            4,
            14,
            ParseErrorKind::UnknownSuffix {
                op: "fadd".into(),
                suffix: "fast".into()
            }
        )
    );
    let text = format!("{HEAD}    v0:f32 = const 1.0\n    v1:f32 = ddx.rough v0\n");
    assert!(matches!(
        error(&text),
        (4, 14, ParseErrorKind::UnknownSuffix { .. })
    ));
}

#[test]
fn bad_type() {
    let text = format!("{HEAD}    v0:f33 = const 1\n");
    assert_eq!(
        error(&text),
        (3, 8, ParseErrorKind::UnknownType("f33".into()))
    );
    let text = format!("{HEAD}    v0 = const 1\n");
    assert!(matches!(error(&text), (3, 5, ParseErrorKind::UnknownOp(_))));
}

#[test]
fn malformed_literals() {
    for (ty, lit) in [
        ("i16", "70000"),
        ("f32", "1.2.3"),
        ("bool", "1"),
        ("i32", "0xg"),
    ] {
        let text = format!("{HEAD}    v0:{ty} = const {lit}\n");
        let (line, col, kind) = error(&text);
        // `    v0:` is 7 columns, then the type, ` = const `, and the literal.
        let literal_col = 8 + ty.len() as u32 + 9;
        assert_eq!((line, col), (3, literal_col), "{ty} {lit}");
        assert!(matches!(kind, ParseErrorKind::BadLiteral(_)), "{kind:?}");
    }
    let text = format!("{HEAD}    v0:i32 = const\n");
    assert!(matches!(
        error(&text),
        (
            3,
            19,
            ParseErrorKind::Expected {
                expected: "a literal",
                ..
            }
        )
    ));
}

#[test]
fn duplicate_definitions() {
    let text = format!("{HEAD}    v0:i32 = const 1\n    v0:i32 = const 2\n");
    assert_eq!(
        error(&text),
        (
            4,
            5,
            ParseErrorKind::DuplicateValue {
                value: Value::from_u32(0),
                line: 3
            }
        )
    );
    let text = format!(
        "{HEAD}    v0:bool = const true\n    if v0 {{\n    block1:\n        yield\n    }} else {{\n    block1:\n        yield\n    }}\n"
    );
    assert_eq!(
        error(&text),
        (
            8,
            5,
            ParseErrorKind::DuplicateBlock {
                block: Block::from_u32(1),
                line: 5
            }
        )
    );
}

#[test]
fn missing_or_malformed_block_label() {
    let text = format!("{HEAD}    v0:bool = const true\n    if v0 {{\n    blk1:\n");
    assert!(matches!(
        error(&text),
        (
            5,
            5,
            ParseErrorKind::Expected {
                expected: "a block label (`blockN:`)",
                ..
            }
        )
    ));
    let text = "function @f compute {\n    return\n}\n";
    assert!(matches!(
        error(text),
        (
            2,
            5,
            ParseErrorKind::Expected {
                expected: "a block label (`blockN:`)",
                ..
            }
        )
    ));
}

#[test]
fn undefined_value() {
    let text = format!("{HEAD}    v0:i32 = const 1\n    v1:i32 = iadd v0, v7\n    return\n}}\n");
    assert_eq!(
        error(&text),
        (4, 23, ParseErrorKind::UndefinedValue(Value::from_u32(7)))
    );
}

#[test]
fn unknown_atomic_operation() {
    // `    v1:i32 = atomic ` is 20 characters: `fadd` starts at column 21.
    let text =
        format!("{HEAD}    v0:i32 = const 0\n    v1:i32 = atomic fadd storage(0, 0) [v0], v0\n");
    assert_eq!(
        error(&text),
        (
            4,
            21,
            ParseErrorKind::UnknownAttribute {
                what: "atomic operation",
                word: "fadd".into()
            }
        )
    );
}

#[test]
fn unknown_attributes() {
    let text = format!("{HEAD}    v0:i32 = builtin global_id.w\n");
    assert_eq!(
        error(&text),
        (
            3,
            22,
            ParseErrorKind::UnknownAttribute {
                what: "built-in",
                word: "global_id.w".into()
            }
        )
    );
    let text = format!("{HEAD}    v0:i32 = const 0\n    v1:f32 = load scratch [v0]\n");
    assert!(matches!(
        error(&text),
        (
            4,
            19,
            ParseErrorKind::UnknownAttribute {
                what: "address space",
                ..
            }
        )
    ));
    let text = format!("{HEAD}    v0:i32 = const 0\n    v1:f32, v2:f32, v3:f32, v4:f32 = fetch 4d tex(0, 0) v0, v0, v0\n");
    assert!(matches!(
        error(&text),
        (
            4,
            44,
            ParseErrorKind::UnknownAttribute {
                what: "texture target",
                ..
            }
        )
    ));
}

#[test]
fn header_errors() {
    assert_eq!(
        error("function @f tessellation {\n"),
        (1, 13, ParseErrorKind::UnknownStage("tessellation".into()))
    );
    // A geometry stage states all four of its modes, in order.
    assert_eq!(
        error("function @f geometry {\n"),
        (
            1,
            22,
            ParseErrorKind::Expected {
                expected: "`input(PRIMITIVE)`",
                found: "`{`".into()
            }
        )
    );
    assert_eq!(
        error("function @f geometry input(quads) {\n"),
        (
            1,
            28,
            ParseErrorKind::UnknownAttribute {
                what: "input primitive",
                word: "quads".into()
            }
        )
    );
    assert_eq!(
        error("function @f geometry input(points) output(points) max_vertices(1) {\n"),
        (
            1,
            67,
            ParseErrorKind::Expected {
                expected: "`invocations(N)`",
                found: "`{`".into()
            }
        )
    );
    assert_eq!(
        error("function @f compute fast_math {\n"),
        (1, 21, ParseErrorKind::UnknownMode("fast_math".into()))
    );
    assert!(matches!(
        error("function @f compute local_size(1, -1, 1) {\n"),
        (1, 35, ParseErrorKind::BadNumber { .. })
    ));
    assert!(matches!(
        error("func @f compute {\n"),
        (
            1,
            1,
            ParseErrorKind::Expected {
                expected: "`function`",
                ..
            }
        )
    ));
    assert_eq!(
        error("function @\"f compute {\n").2,
        ParseErrorKind::UnterminatedString
    );
}

#[test]
fn structural_errors() {
    // Missing `}` at the end: reported at the end of the input.
    let text = format!("{HEAD}    return\n");
    assert!(matches!(
        error(&text),
        (
            4,
            1,
            ParseErrorKind::Expected {
                expected: "an instruction or `}`",
                ..
            }
        )
    ));
    // Trailing tokens after an instruction.
    let text = format!("{HEAD}    v0:i32 = const 1\n    return v0 v0\n}}\n");
    assert!(matches!(
        error(&text),
        (
            4,
            15,
            ParseErrorKind::Expected {
                expected: "end of line",
                ..
            }
        )
    ));
    // Text after the function.
    let text = format!("{HEAD}    return\n}}\nreturn\n");
    assert!(matches!(
        error(&text),
        (5, 1, ParseErrorKind::Expected { .. })
    ));
    // An unexpected character.
    let text = format!("{HEAD}    v0:i32 = const 1 $\n");
    assert_eq!(error(&text), (3, 22, ParseErrorKind::UnexpectedChar('$')));
    // `const` needs exactly one result.
    let text = format!("{HEAD}    v0:i32, v1:i32 = const 1\n");
    assert_eq!(error(&text), (3, 22, ParseErrorKind::ConstResults(2)));
}

#[test]
fn entity_limits() {
    let text = format!("{HEAD}    v99999999:i32 = const 1\n");
    assert_eq!(
        error(&text),
        (3, 5, ParseErrorKind::EntityTooLarge(99_999_999))
    );
    let mut text = String::from(HEAD);
    text.push_str("    v0:bool = const true\n");
    for i in 0..=crate::ir::verify::MAX_NESTING {
        text.push_str(&format!("    if v0 {{\n    block{}:\n", i + 1));
    }
    let (line, _, kind) = error(&text);
    assert_eq!(
        kind,
        ParseErrorKind::TooDeep(crate::ir::verify::MAX_NESTING)
    );
    assert_eq!(line, 4 + 2 * crate::ir::verify::MAX_NESTING as u32);
}

/// Runs a function that verifies in the interpreter on a tiny launch of its stage, with small
/// budgets; errors are fine, panics are not.
fn run_briefly(f: &Function) {
    use crate::interp::{
        run_compute, run_fragment, run_geometry, run_vertex, FragmentGrid, GeometryVertex, Limits,
        Resources,
    };
    use crate::ir::Stage;
    let limits = Limits {
        max_loop_iterations: 50,
        max_steps: 20_000,
        max_lanes: 64,
        max_shared_memory: 1 << 12,
    };
    let mut res = Resources::new();
    let _ = match f.stage {
        Stage::Compute => run_compute(f, &mut res, [2, 1, 1], &limits).map(|_| ()),
        Stage::Fragment => run_fragment(f, &mut res, &FragmentGrid::new(3, 3), &limits).map(|_| ()),
        Stage::Vertex => run_vertex(f, &res, 4, &Default::default(), &limits).map(|_| ()),
        Stage::Geometry(g) => {
            let vertices = vec![GeometryVertex::new(); 2 * g.input.vertex_count() as usize];
            run_geometry(f, &res, &vertices, &limits).map(|_| ())
        }
    };
}

/// Mutated texts (characters removed, inserted, swapped, the text cut short) never make the
/// parser panic, and whatever still parses verifies and prints without panicking; whatever also
/// verifies runs in the interpreter without panicking.
#[test]
fn mutated_texts_never_panic() {
    use quickcheck::{Arbitrary, Gen};
    let mut g = Gen::from_size_and_seed(100, 5);
    let noise = [
        'v', '1', '0', '{', '}', ':', ',', '-', '.', '\n', ' ', 'x', '"', '@', '+',
    ];
    let (mut parsed, mut rejected) = (0, 0);
    for _ in 0..100 {
        let text = Recipe::arbitrary(&mut g).lower().to_string();
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..30 {
            let mut m = chars.clone();
            let i = u32::arbitrary(&mut g) as usize % m.len();
            let j = u32::arbitrary(&mut g) as usize % m.len();
            match u8::arbitrary(&mut g) % 4 {
                0 => {
                    m.remove(i);
                }
                1 => m.insert(i, *g.choose(&noise).unwrap_or(&'v')),
                2 => m.truncate(i),
                _ => m.swap(i, j),
            }
            let s: String = m.into_iter().collect();
            match parse(&s) {
                Ok(f) => {
                    parsed += 1;
                    if verify(&f).is_ok() {
                        run_briefly(&f);
                    }
                    let _ = f.display().inst_names(true).to_string();
                }
                Err(e) => {
                    rejected += 1;
                    assert!(e.line >= 1 && e.column >= 1);
                }
            }
        }
    }
    // Both paths were exercised.
    assert!(
        parsed > 100 && rejected > 100,
        "{parsed} parsed, {rejected} rejected"
    );
}
