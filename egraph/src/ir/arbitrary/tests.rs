use super::*;
use crate::ir::effects::{AddressSpace, EffectOp};
use crate::ir::entities::Inst;
use crate::ir::function::Op;
use crate::ir::{parse_function, verify, OpRegistry};
use quickcheck::{QuickCheck, TestResult};
use std::collections::{HashMap, HashSet};

fn ops_of(func: &Function) -> Vec<Op> {
    let mut ops = Vec::new();
    func.for_each_inst(|_, i| ops.push(func.insts[i].op));
    ops
}

#[test]
fn generated_functions_verify() {
    fn prop(recipe: Recipe) -> TestResult {
        match verify(&recipe.lower()) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(e.to_string()),
        }
    }
    QuickCheck::new()
        .tests(300)
        .quickcheck(prop as fn(Recipe) -> TestResult);
}

#[test]
fn shrunk_recipes_are_smaller_and_verify() {
    let mut g = Gen::from_size_and_seed(100, 7);
    for _ in 0..40 {
        let recipe = Recipe::arbitrary(&mut g);
        for smaller in recipe.shrink() {
            assert!(smaller.size() <= recipe.size());
            assert_ne!(smaller, recipe);
            if let Err(e) = verify(&smaller.lower()) {
                panic!("{e}\n{smaller:?}");
            }
        }
    }
}

#[test]
fn shrinking_reaches_a_fixed_point() {
    // Following the first candidate repeatedly must end (every candidate is strictly smaller).
    let mut g = Gen::from_size_and_seed(100, 11);
    for _ in 0..20 {
        let mut recipe = Recipe::arbitrary(&mut g);
        let mut steps = 0;
        while let Some(next) = recipe.shrink().last() {
            recipe = next;
            steps += 1;
            assert!(steps < 100_000, "shrinking does not terminate");
        }
    }
}

#[test]
fn default_config_covers_every_table_operation_and_construct() {
    let mut g = Gen::from_size_and_seed(100, 1);
    let mut seen_ops = HashSet::new();
    let (mut ifs, mut loops, mut breaks, mut continues, mut returns) = (0, 0, 0, 0, 0);
    let (mut loads, mut stores, mut f16s, mut i16s) = (0, 0, 0, 0);
    let (mut tables, mut private) = (0, 0);
    // Counted loops end their body with `continue`, switches (one-trip loops) with `break`.
    let (mut counted, mut switches) = (0, 0);
    for _ in 0..400 {
        let func = Recipe::arbitrary(&mut g).lower();
        func.for_each_inst(|_, i| {
            let data = &func.insts[i];
            if data.op == Op::Loop {
                let body = data.blocks[0];
                match func.blocks[body].insts.last().map(|&t| func.insts[t].op) {
                    Some(Op::Continue) => counted += 1,
                    Some(Op::Break) => switches += 1,
                    _ => {}
                }
            }
        });
        for op in ops_of(&func) {
            match op {
                Op::Pure(p) => {
                    seen_ops.insert(p);
                }
                Op::If => ifs += 1,
                Op::Loop => loops += 1,
                Op::Break => breaks += 1,
                Op::Continue => continues += 1,
                Op::Return => returns += 1,
                Op::Effect(EffectOp::Load(a)) => {
                    loads += 1;
                    tables += usize::from(a.space == AddressSpace::Constant);
                    private += usize::from(a.space == AddressSpace::Private);
                }
                Op::Effect(EffectOp::Store(a)) => {
                    stores += 1;
                    private += usize::from(a.space == AddressSpace::Private);
                }
                _ => {}
            }
        }
        for v in func.values.values() {
            match v.ty {
                Type::F16 => f16s += 1,
                Type::I16 => i16s += 1,
                _ => {}
            }
        }
    }
    let missing: Vec<_> = PureOp::ALL
        .iter()
        .filter(|op| !seen_ops.contains(op))
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
    // The counts include the loops' own exits and the final return; what matters is that each
    // construct shows up at all.
    for (what, n) in [
        ("if", ifs),
        ("loop", loops),
        ("break", breaks),
        ("continue", continues),
        ("return", returns),
        ("load", loads),
        ("store", stores),
        ("f16", f16s),
        ("i16", i16s),
        ("switch", switches),
        ("constant-table load", tables),
        ("private access", private),
    ] {
        assert!(n > 0, "no {what} generated");
    }
    assert!(loops >= counted + switches);
    assert!(continues > counted, "no early continue generated");
}

#[test]
fn restricted_configs_are_honoured() {
    let config = Config {
        f16: false,
        i16: false,
        loops: false,
        memory: false,
        exits: false,
        families: vec![Family::FloatArith, Family::Compare],
        exclude: vec![PureOp::Sin, PureOp::Cos],
        ..Config::default()
    };
    let mut g = Gen::from_size_and_seed(100, 3);
    for _ in 0..200 {
        let func = Recipe::generate(&mut g, &config).lower();
        verify(&func).unwrap();
        for v in func.values.values() {
            assert!(!matches!(v.ty, Type::F16 | Type::I16 | Type::I64), "{v:?}");
        }
        for op in ops_of(&func) {
            assert!(!matches!(op, Op::Loop | Op::Break | Op::Continue), "{op:?}");
            assert!(!matches!(op, Op::Effect(EffectOp::Load(_))), "{op:?}");
            if let Op::Pure(p) = op {
                assert!(!matches!(p, PureOp::Sin | PureOp::Cos), "{p:?}");
            }
        }
    }
}

#[test]
fn families_partition_the_table() {
    for &op in PureOp::ALL {
        let family = Family::of(op);
        assert!(Family::ALL.contains(&family));
    }
    assert_eq!(Family::of(PureOp::Fadd), Family::FloatArith);
    assert_eq!(Family::of(PureOp::Sdiv), Family::IntArith);
    assert_eq!(Family::of(PureOp::Xor), Family::Bitwise);
    assert_eq!(Family::of(PureOp::Ubfe), Family::Bitwise);
    assert_eq!(Family::of(PureOp::Fltu), Family::Compare);
    assert_eq!(Family::of(PureOp::Sext), Family::Convert);
    assert_eq!(Family::of(PureOp::Select), Family::Select);
}

/// The layout the module docs promise, written out by hand: the prelude, a counted loop with a
/// carried f32 (its initial value a fallback constant, since no f32 is in scope yet), a window
/// load, an `iadd` nothing uses (sunk into the first sink slot, byte 80, before the `continue`),
/// a gid-dependent break, and the epilogue (only f32 and i32 values are in scope at the end: the
/// bools were inside the loop; slots 34 and 35, bytes 272 and 280).
#[test]
fn lowering_follows_the_documented_layout() {
    let recipe = Recipe {
        stmts: vec![Stmt::Loop {
            trips: Trips::Const(3),
            carried: vec![(Type::F32, Pick(2), Pick(0))],
            body: vec![
                Stmt::Load {
                    ty: Type::F32,
                    count: 1,
                    addr: Addr::Window(9),
                },
                Stmt::Op {
                    op: PureOp::Iadd,
                    ty: Type::I32,
                    to: Type::I32,
                    args: [Pick(0); 4],
                },
                Stmt::Exit {
                    kind: ExitKind::Break,
                    cond: Cond::GidBit(1),
                    values: Pick(0),
                },
            ],
        }],
        local_size: [8, 1, 1],
    };
    let expected = "\
function @random compute local_size(8, 1, 1) {
block0:
    v0:i32 = builtin global_id.x
    v1:i32 = const 27
    v2:i32 = urem v0, v1
    v3:i32 = const 3
    v4:i32 = ishl v2, v3
    v5:i32 = const 320
    v6:i32 = imul v0, v5
    v7:i32 = const 3
    v8:i32 = const 0
    v9:f32 = const 0.5
    v10:f32 = loop v8, v9 {
    block1(v11:i32, v12:f32):
        v13:bool = uge v11, v7
        if v13 {
        block2:
            break v12
        } else {
        block3:
            yield
        }
        v14:i32 = const 1
        v15:i32 = iadd v11, v14
        v16:f32 = load storage(0, 0) [v4 + 4]
        v17:i32 = iadd v15, v15
        v18:i32 = const 2
        v19:i32 = and v0, v18
        v20:i32 = const 0
        v21:bool = ine v19, v20
        if v21 {
        block4:
            break v16
        } else {
        block5:
            yield
        }
        store storage(0, 1) [v6 + 80], v17
        continue v15, v16
    }
    store storage(0, 1) [v6 + 272], v10
    store storage(0, 1) [v6 + 280], v8
    return
}
";
    let func = recipe.lower();
    assert_eq!(func.to_string(), expected);
    verify(&func).unwrap();
    let reparsed = parse_function(expected, &OpRegistry::new()).unwrap();
    assert_eq!(reparsed.to_string(), expected);
}

/// The documented buffers suffice: random programs, i64 included, run in the reference
/// interpreter over several workgroups without an out-of-bounds or misaligned access, and
/// never touch output bytes outside the slots of the invocations that ran.
#[test]
fn generated_programs_run_in_the_interpreter_with_the_documented_buffers() {
    use crate::interp::{run_compute, Limits, Resources};
    let config = Config {
        i64: true,
        ..Config::default()
    };
    let mut g = Gen::from_size_and_seed(100, 21);
    let groups = 3;
    let invocations = groups * config.local_size[0];
    let used = (invocations * INVOCATION_BYTES) as usize;
    for _ in 0..150 {
        let func = Recipe::generate(&mut g, &config).lower();
        let input: Vec<u8> = (0..INPUT_BYTES).map(|i| (i * 37 + 11) as u8).collect();
        // One spare slot's worth of canary bytes after the documented size.
        let mut output = vec![0u8; used + SLOT_BYTES as usize];
        output[used..].fill(0xa5);
        let mut res = Resources::new();
        res.bind_uniform(UNIFORM, input.clone());
        res.bind_storage(INPUT, input);
        res.bind_storage(OUTPUT, output);
        if let Err(e) = run_compute(&func, &mut res, [groups, 1, 1], &Limits::default()) {
            panic!("{e}\n{func}");
        }
        let out = res.buffer_data(OUTPUT).unwrap_or(&[]);
        assert!(out[used..].iter().all(|&b| b == 0xa5), "{func}");
    }
}

/// With textures on, programs sample and fetch, and run in the interpreter with the resources
/// [`bind_resources`] binds (the documented texture among them).
#[test]
fn texture_programs_sample_fetch_and_run_with_the_documented_resources() {
    use crate::interp::{run_compute, Limits};
    let config = Config {
        textures: true,
        ..Config::default()
    };
    let mut g = Gen::from_size_and_seed(100, 5);
    let (mut samples, mut fetches) = (0, 0);
    for _ in 0..150 {
        let func = Recipe::generate(&mut g, &config).lower();
        verify(&func).unwrap();
        // Samples and fetches print and parse back like everything else.
        let text = func.to_string();
        let parsed = parse_function(&text, &OpRegistry::new()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.to_string(), text);
        for op in ops_of(&func) {
            match op {
                Op::Effect(EffectOp::Sample(_)) => samples += 1,
                Op::Effect(EffectOp::Fetch(_)) => fetches += 1,
                _ => {}
            }
        }
        let input = InputBuffer::generate(&mut g, &config);
        let mut res = bind_resources(&input, 2 * config.local_size[0]);
        if let Err(e) = run_compute(&func, &mut res, [2, 1, 1], &Limits::default()) {
            panic!("{e}\n{func}");
        }
    }
    assert!(
        samples > 0 && fetches > 0,
        "{samples} samples, {fetches} fetches"
    );
}

/// The texture holds the documented texels: level 1 of an 8x8 texture is 4x4, and texel (3, 2)
/// component 1 there is ((15 + 6 + 7 + 2) mod 16) / 8 - 0.75 = 14/8 - 0.75 = 1.
#[test]
fn the_texture_holds_the_documented_texels() {
    let tex = texture();
    assert_eq!(tex.desc().levels, TEXTURE_LEVELS);
    assert_eq!(tex.desc().level_extent(1), [4, 4, 1]);
    assert_eq!(tex.texel(1, 0, 3, 2, 0)[1], 1.0);
    assert_eq!(texel(0, 0, 0, 0), -0.75);
    // Level 3 is 1x1: k = (21 + 2c) mod 16 = 5, 7, 9, 11.
    assert_eq!(tex.texel(3, 0, 0, 0, 0), [-0.125, 0.125, 0.375, 0.625]);
}

/// Input buffers have the documented size and, over a few draws, every kind of special value
/// the module promises (looked for as aligned f32 words and f16 halves).
#[test]
fn input_buffers_are_rich_in_special_values() {
    let mut g = Gen::from_size_and_seed(100, 9);
    let (mut nan, mut neg_zero, mut inf, mut denormal, mut int_max) = (0, 0, 0, 0, 0);
    let mut f16_denormal = 0;
    for _ in 0..50 {
        let buf = InputBuffer::arbitrary(&mut g);
        assert_eq!(buf.bytes().len(), INPUT_BYTES as usize);
        for w in buf.bytes().chunks(4) {
            let bits = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            let f = f32::from_bits(bits);
            nan += f.is_nan() as u32;
            neg_zero += (bits == 0x8000_0000) as u32;
            inf += f.is_infinite() as u32;
            denormal += f.is_subnormal() as u32;
            int_max += (bits as i32 == i32::MAX) as u32;
            for h in [bits as u16, (bits >> 16) as u16] {
                f16_denormal += (h & 0x7c00 == 0 && h & 0x3ff != 0) as u32;
            }
        }
    }
    for (what, n) in [
        ("NaN", nan),
        ("-0", neg_zero),
        ("infinity", inf),
        ("f32 denormal", denormal),
        ("i32 maximum", int_max),
        ("f16 denormal", f16_denormal),
    ] {
        assert!(n > 0, "no {what} in 50 buffers");
    }
}

#[test]
fn input_buffers_shrink_to_zeros() {
    let mut g = Gen::from_size_and_seed(100, 13);
    let mut buf = InputBuffer::arbitrary(&mut g);
    let mut steps = 0;
    // Always taking the last candidate (one unit zeroed) must reach all zeros.
    while let Some(next) = buf.shrink().last() {
        let nonzero = |b: &InputBuffer| b.bytes().iter().filter(|&&x| x != 0).count();
        assert!(nonzero(&next) < nonzero(&buf));
        buf = next;
        steps += 1;
        assert!(steps <= INPUT_BYTES as usize);
    }
    assert!(buf.bytes().iter().all(|&b| b == 0));
}

/// A constant and an `fadd` of it with itself (the only f32 in scope) lower to two
/// instructions besides the prelude and epilogue.
#[test]
fn body_insts_counts_what_the_statements_lower_to() {
    let recipe = Recipe {
        stmts: vec![
            Stmt::Const(Const::f32(1.5)),
            Stmt::Op {
                op: PureOp::Fadd,
                ty: Type::F32,
                to: Type::F32,
                args: [Pick(0), Pick(1), Pick(0), Pick(0)],
            },
        ],
        local_size: [4, 1, 1],
    };
    assert_eq!(recipe.body_insts(), 2);
    assert_eq!(
        Recipe {
            stmts: vec![],
            local_size: [4, 1, 1]
        }
        .body_insts(),
        0
    );
}

/// What the interpreter's runs did with private memory, per lane: which bytes were stored.
#[derive(Default)]
struct PrivateUse {
    written: HashMap<([u32; 3], usize), Vec<bool>>,
    /// Loads reading some stored byte.
    stored_reads: usize,
    /// Loads reading only bytes never written (undefined; zeros in the interpreter).
    zero_reads: usize,
    /// Stores over some byte stored before.
    overwrites: usize,
}

impl crate::interp::Observer for PrivateUse {
    fn before(&mut self, _: &crate::interp::Run<'_>, _: Inst, _: &[usize]) -> Result<(), String> {
        Ok(())
    }

    fn after(
        &mut self,
        run: &crate::interp::Run<'_>,
        inst: Inst,
        lanes: &[usize],
    ) -> Result<(), String> {
        let data = &run.func().insts[inst];
        let (access, store) = match data.op {
            Op::Effect(EffectOp::Load(a)) => (a, false),
            Op::Effect(EffectOp::Store(a)) => (a, true),
            _ => return Ok(()),
        };
        if access.space != AddressSpace::Private {
            return Ok(());
        }
        let values = if store {
            &data.args[1..]
        } else {
            &data.results[..]
        };
        let bytes: u32 = values
            .iter()
            .map(|&v| run.func().value_type(v).bytes())
            .sum();
        for &lane in lanes {
            let base = run
                .value(data.args[0], lane)
                .map_or(0, |c| c.as_u64() as u32);
            let at = base.wrapping_add(access.offset) as usize;
            let written = self
                .written
                .entry((run.group(), lane))
                .or_insert_with(|| vec![false; PRIVATE_BYTES as usize]);
            let range = at..at + bytes as usize;
            let seen = written[range.clone()].iter().any(|&w| w);
            if store {
                self.overwrites += usize::from(seen);
                written[range].fill(true);
            } else if seen {
                self.stored_reads += 1;
            } else {
                self.zero_reads += 1;
            }
        }
        Ok(())
    }
}

/// Default programs declare private memory and use it every way the module docs promise:
/// stores and loads at selected and at constant offsets, of every scalar type; and when run,
/// loads that read back what a store left, loads of bytes never written, and stores over
/// earlier ones.
#[test]
fn programs_store_to_and_load_from_private_memory() {
    use crate::interp::{run_compute_observed, Limits};
    use crate::ir::function::ValueDef;
    let config = Config::default();
    let mut g = Gen::from_size_and_seed(100, 17);
    let (mut programs, mut loads, mut stores, mut constant, mut selected) = (0, 0, 0, 0, 0);
    let mut types = HashSet::new();
    let mut used = PrivateUse::default();
    for _ in 0..400 {
        let func = Recipe::generate(&mut g, &config).lower();
        let mut any = false;
        func.for_each_inst(|_, i| {
            let data = &func.insts[i];
            let (access, ty) = match data.op {
                Op::Effect(EffectOp::Load(a)) => (a, func.value_type(data.results[0])),
                Op::Effect(EffectOp::Store(a)) => (a, func.value_type(data.args[1])),
                _ => return,
            };
            if access.space != AddressSpace::Private {
                return;
            }
            any = true;
            types.insert(ty);
            if matches!(data.op, Op::Effect(EffectOp::Load(_))) {
                loads += 1;
            } else {
                stores += 1;
            }
            match func.values[data.args[0]].def {
                ValueDef::Result(d, _) if matches!(func.insts[d].op, Op::Const(_)) => constant += 1,
                _ => selected += 1,
            }
        });
        assert_eq!(func.private_bytes, if any { PRIVATE_BYTES } else { 0 });
        programs += usize::from(any);
        let input = InputBuffer::generate(&mut g, &config);
        let mut res = bind_resources(&input, 2 * config.local_size[0]);
        if let Err(e) =
            run_compute_observed(&func, &mut res, [2, 1, 1], &Limits::default(), &mut used)
        {
            panic!("{e}\n{func}");
        }
    }
    eprintln!(
        "private memory over 400 programs: {programs} use it; {loads} loads, {stores} stores \
         ({selected} at selected offsets, {constant} at constant ones), types {types:?}; run: \
         {} loads of stored bytes, {} of zeros, {} overwrites",
        used.stored_reads, used.zero_reads, used.overwrites
    );
    for (what, n) in [
        ("program using private memory", programs),
        ("private load", loads),
        ("private store", stores),
        ("access at a constant offset", constant),
        ("access at a selected offset", selected),
        ("load of stored bytes", used.stored_reads),
        ("load of never-written bytes", used.zero_reads),
        ("overwrite", used.overwrites),
    ] {
        assert!(n > 0, "no {what}");
    }
    for ty in [Type::I32, Type::F32, Type::I16, Type::F16] {
        assert!(types.contains(&ty), "no private access of {ty}");
    }
}
