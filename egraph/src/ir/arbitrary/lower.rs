//! Lowering a recipe to a function with the builder.
//!
//! Every pick resolves to a value of the needed type in scope, or to a new constant when there
//! is none, so the result verifies whatever the recipe holds.

use super::{
    Addr, Case, Cond, ExitKind, Pick, PrivateAt, Recipe, Stmt, Trips, EPILOGUE_SLOT,
    EPILOGUE_TYPES, INPUT, INPUT_BYTES, OUTPUT, PRIVATE_BYTES, RECIPE_SLOTS, SINK_SLOT, SINK_SLOTS,
    SLOT_BYTES, TEXTURE, WINDOW,
};
use crate::ir::builder::Builder;
use crate::ir::constant::Const;
use crate::ir::effects::{
    AddressSpace, Builtin, EffectOp, FetchOp, LodMode, MemAccess, SampleOp, TexDim, TexTarget,
};
use crate::ir::entities::Value;
use crate::ir::function::{Function, Op, Stage};
use crate::ir::ops::PureOp;
use crate::ir::signature::Signature;
use crate::ir::types::Type;
use smallvec::{smallvec, SmallVec};
use std::collections::HashSet;

/// Largest number of bytes one load or store moves (one output slot).
const MAX_ACCESS_BYTES: u32 = SLOT_BYTES;

/// Window start positions, in 8-byte units: a window (and an 8-byte access at its last word)
/// stays in the buffer, and every window starts 8-byte aligned.
const WINDOW_STARTS: u32 = (INPUT_BYTES - 4 * WINDOW - 8) / 8;

/// Fetch coordinates are reduced modulo this: a little more than the texture's size, so some
/// fetches fall outside it.
const FETCH_COORD_RANGE: u32 = 10;

/// Fetch levels are reduced modulo this: one more than the texture's levels.
const FETCH_LEVEL_RANGE: u32 = 5;

/// The texture's target.
const TEX_2D: TexTarget = TexTarget {
    dim: TexDim::D2,
    arrayed: false,
};

/// The operand types and result type of `op` with type parameter `ty` (and conversion result
/// `to`), if its signature accepts them.
pub(super) fn shape(op: PureOp, ty: Type, to: Type) -> Option<(SmallVec<[Type; 4]>, Type)> {
    let sig = op.signature();
    let (args, result): (SmallVec<[Type; 4]>, Type) = match sig {
        Signature::Unary(_) => (smallvec![ty], ty),
        Signature::Binary(_) => (smallvec![ty, ty], ty),
        Signature::Ternary(_) => (smallvec![ty, ty, ty], ty),
        Signature::Compare(_) => (smallvec![ty, ty], Type::Bool),
        Signature::Select => (smallvec![Type::Bool, ty, ty], ty),
        Signature::Convert { .. } => (smallvec![ty], to),
        Signature::BitfieldInsert => (smallvec![ty, ty, Type::I32, Type::I32], ty),
        Signature::BitfieldExtract => (smallvec![ty, Type::I32, Type::I32], ty),
        Signature::CompareSelect { .. } => (smallvec![ty, ty, to, to], to),
    };
    sig.check(&args, result).ok().map(|()| (args, result))
}

pub(super) fn lower(recipe: &Recipe) -> Function {
    lower_counting(recipe).0
}

/// The function, and how many of its instructions the recipe's statements produced (all but
/// the prelude, the epilogue and the final `return`).
pub(super) fn lower_counting(recipe: &Recipe) -> (Function, usize) {
    let mut func = Function::new("random", Stage::Compute);
    func.modes.local_size = recipe.local_size.map(|n| n.max(1));
    let mut lowerer = Lowerer {
        b: Builder::new(&mut func),
        scope: Vec::new(),
        marks: Vec::new(),
        loops: Vec::new(),
        gid: None,
        in_base: None,
        out_base: None,
        results: HashSet::new(),
        used: HashSet::new(),
        next_sink: 0,
        sink_insts: 0,
    };
    lowerer.prelude();
    let before = lowerer.b.func().inst_count();
    lowerer.body(&recipe.stmts);
    let body = lowerer.b.func().inst_count() - before - lowerer.sink_insts;
    let last = lowerer.epilogue_values();
    lowerer.used.extend(last.iter().map(|&(_, v)| v));
    lowerer.sink();
    lowerer.epilogue(&last);
    lowerer.b.return_();
    // Only programs that use them carry the table and the private area, so the others lower
    // as they did before either existed.
    let (mut reads_table, mut private) = (false, false);
    func.for_each_inst(|_, i| match func.insts[i].op {
        Op::Effect(EffectOp::Load(a)) => {
            reads_table |= a.space == AddressSpace::Constant;
            private |= a.space == AddressSpace::Private;
        }
        Op::Effect(EffectOp::Store(a)) => private |= a.space == AddressSpace::Private,
        _ => {}
    });
    if reads_table {
        func.constant_data = super::table_bytes();
    }
    if private {
        func.private_bytes = PRIVATE_BYTES;
    }
    (func, body)
}

/// The innermost loop's facts that exits inside it need.
struct LoopFrame {
    /// The counter plus one: every `continue` passes it, so every iteration makes progress
    /// (`None` for a switch, which has no `continue`).
    next: Option<Value>,
    /// Types of the carried values (the loop's results and its body's parameters after the
    /// counter).
    carried: Vec<Type>,
}

struct Lowerer<'f> {
    b: Builder<'f>,
    /// Values in scope, oldest first.
    scope: Vec<(Type, Value)>,
    /// `scope` lengths at each open block.
    marks: Vec<usize>,
    loops: Vec<LoopFrame>,
    gid: Option<Value>,
    in_base: Option<Value>,
    out_base: Option<Value>,
    /// Values the recipe's statements produced (the candidates for sinking; not the constants,
    /// conditions and counters the lowering makes for them).
    results: HashSet<Value>,
    /// Values some pick resolved to.
    used: HashSet<Value>,
    /// Sink slots taken so far.
    next_sink: u32,
    /// Instructions the sinks inside the body added (not the recipe's own).
    sink_insts: usize,
}

impl Lowerer<'_> {
    fn add(&mut self, v: Value) {
        let ty = self.b.ty(v);
        self.scope.push((ty, v));
    }

    /// Adds a value a statement produced: an operation's, a load's, a sample's or a control
    /// construct's result.
    fn add_result(&mut self, v: Value) {
        self.add(v);
        self.results.insert(v);
    }

    fn push_scope(&mut self) {
        self.marks.push(self.scope.len());
    }

    fn pop_scope(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        self.scope.truncate(mark);
    }

    fn konst(&mut self, c: Const) -> Value {
        let v = self.b.konst(c);
        self.add(v);
        v
    }

    /// Stores the values the statements of the innermost open body (the function's, at the
    /// top level) produced and nothing used, one per sink slot while slots remain; called just
    /// before the body's terminator, so the stores run where the values are computed.
    fn sink(&mut self) {
        let mark = self.marks.last().copied().unwrap_or(0);
        let unused: Vec<Value> = self.scope[mark..]
            .iter()
            .map(|&(_, v)| v)
            .filter(|v| self.results.contains(v) && !self.used.contains(v))
            .collect();
        for v in unused {
            if self.next_sink == SINK_SLOTS {
                break;
            }
            let slot = SINK_SLOT + self.next_sink;
            self.next_sink += 1;
            let before = self.b.func().inst_count();
            self.store(slot, &[v]);
            self.sink_insts += self.b.func().inst_count() - before;
            self.used.insert(v);
        }
    }

    /// A value of type `ty` in scope chosen by `pick`, or a new constant.
    fn resolve(&mut self, ty: Type, pick: Pick) -> Value {
        let n = self.scope.iter().filter(|&&(t, _)| t == ty).count();
        if n == 0 {
            let p = pick.0;
            let c = match ty {
                Type::Bool => Const::bool(p % 2 == 1),
                Type::F16 | Type::F32 => Const::float(ty, f64::from(p) / 4.0),
                _ => Const::int(ty, i64::from(p)),
            };
            return self.konst(c);
        }
        let k = pick.0 as usize % n;
        let v = self
            .scope
            .iter()
            .rev()
            .filter(|&&(t, _)| t == ty)
            .nth(k)
            .map(|&(_, v)| v)
            .unwrap_or_else(|| unreachable!("k < n values of type {ty} are in scope"));
        self.used.insert(v);
        v
    }

    fn pure(&mut self, op: PureOp, args: &[Value]) -> Value {
        let v = self.b.pure(op, args);
        self.add(v);
        v
    }

    fn prelude(&mut self) {
        let gid = self
            .b
            .effect(EffectOp::Builtin(Builtin::GlobalId(0)), &[], &[Type::I32])[0];
        self.add(gid);
        let starts = self.konst(Const::u32(WINDOW_STARTS));
        let start = self.pure(PureOp::Urem, &[gid, starts]);
        let three = self.konst(Const::i32(3));
        let in_base = self.pure(PureOp::Ishl, &[start, three]);
        let stride = self.konst(Const::u32(super::INVOCATION_BYTES));
        let out_base = self.pure(PureOp::Imul, &[gid, stride]);
        self.gid = Some(gid);
        self.in_base = Some(in_base);
        self.out_base = Some(out_base);
    }

    fn body(&mut self, stmts: &[Stmt]) {
        for stmt in stmts {
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &Stmt) {
        match stmt {
            Stmt::Op { op, ty, to, args } => {
                let Some((types, result)) = shape(*op, *ty, *to) else {
                    return;
                };
                let vals: SmallVec<[Value; 4]> = types
                    .iter()
                    .zip(args)
                    .map(|(&t, &p)| self.resolve(t, p))
                    .collect();
                let v = self.b.pure_typed(*op, &vals, result);
                self.add_result(v);
            }
            Stmt::Const(c) => {
                self.konst(*c);
            }
            Stmt::Load { ty, count, addr } => self.load(*ty, *count, *addr),
            Stmt::Store {
                slot,
                ty,
                count,
                value,
            } => {
                let slot = u32::from(*slot) % RECIPE_SLOTS;
                let ty = if *ty == Type::Bool { Type::I32 } else { *ty };
                let count = clamp_count(ty, *count);
                let vals: Vec<Value> = (0..count)
                    .map(|i| self.resolve(ty, Pick(value.0.wrapping_add(i as u16))))
                    .collect();
                self.store(slot, &vals);
            }
            Stmt::PrivateStore {
                at,
                ty,
                count,
                value,
            } => self.private_store(*at, *ty, *count, *value),
            Stmt::If {
                cond,
                then_body,
                else_body,
                results,
            } => self.if_(*cond, then_body, else_body, results),
            Stmt::Loop {
                trips,
                carried,
                body,
            } => self.loop_(*trips, carried, body),
            Stmt::Switch {
                selector,
                cases,
                default,
                results,
            } => self.switch(*selector, cases, *default, results),
            Stmt::Exit { kind, cond, values } => self.exit(*kind, *cond, *values),
            Stmt::Sample { coords, lod } => self.sample(*coords, *lod),
            Stmt::Fetch { coords, level } => self.fetch(*coords, *level),
        }
    }

    /// An explicit-LOD sample of the texture at the f32 values `coords` picks.
    fn sample(&mut self, coords: [Pick; 2], lod: Pick) {
        let s = self.resolve(Type::F32, coords[0]);
        let t = self.resolve(Type::F32, coords[1]);
        let lod = self.resolve(Type::F32, lod);
        let op = SampleOp {
            texture: TEXTURE,
            sampler: TEXTURE,
            target: TEX_2D,
            lod: LodMode::Explicit,
            proj: false,
            shadow: false,
            min_lod: false,
            offset: [0; 3],
        };
        for v in self
            .b
            .effect(EffectOp::Sample(op), &[s, t, lod], &[Type::F32; 4])
        {
            self.add_result(v);
        }
    }

    /// A texel fetch at the i32 values `coords` picks (unsigned, modulo
    /// [`FETCH_COORD_RANGE`]), level modulo [`FETCH_LEVEL_RANGE`].
    fn fetch(&mut self, coords: [Pick; 2], level: Pick) {
        let mut args = Vec::new();
        for (p, range) in [
            (coords[0], FETCH_COORD_RANGE),
            (coords[1], FETCH_COORD_RANGE),
            (level, FETCH_LEVEL_RANGE),
        ] {
            let x = self.resolve(Type::I32, p);
            let range = self.konst(Const::u32(range));
            args.push(self.pure(PureOp::Urem, &[x, range]));
        }
        let op = FetchOp {
            texture: TEXTURE,
            target: TEX_2D,
            offset: [0; 3],
        };
        for v in self.b.effect(EffectOp::Fetch(op), &args, &[Type::F32; 4]) {
            self.add_result(v);
        }
    }

    /// The byte offset of the unit (a word, or an 8-byte unit when `align` is 8) an i32 value
    /// selects in `bytes` of memory: `(x % units) << shift`. The last unit is left out, so that
    /// a two-scalar access at the last one stays inside.
    fn selected_offset(&mut self, p: Pick, bytes: u32, align: u32) -> Value {
        let x = self.resolve(Type::I32, p);
        let (units, shift) = if align == 8 {
            (bytes / 8 - 1, 3)
        } else {
            (bytes / 4 - 1, 2)
        };
        let units = self.konst(Const::u32(units));
        let unit = self.pure(PureOp::Urem, &[x, units]);
        let shift = self.konst(Const::i32(shift));
        self.pure(PureOp::Ishl, &[unit, shift])
    }

    /// The offset value and constant offset of a private access aligned to `align`.
    fn private_offset(&mut self, at: PrivateAt, align: u32) -> (Value, u32) {
        match at {
            PrivateAt::Selected(p) => (self.selected_offset(p, PRIVATE_BYTES, align), 0),
            PrivateAt::Fixed(n) => {
                // The words `Selected` reaches, rounded down to the alignment.
                let word = u32::from(n) % (PRIVATE_BYTES / 4 - 1);
                (self.konst(Const::i32(0)), 4 * word / align * align)
            }
        }
    }

    /// Stores `count` values of `ty` (bools as i32) to private memory at `at`.
    fn private_store(&mut self, at: PrivateAt, ty: Type, count: u8, value: Pick) {
        let ty = if ty == Type::Bool { Type::I32 } else { ty };
        let count = clamp_count(ty, count);
        let (offset_value, offset) = self.private_offset(at, ty.bytes().max(4));
        let mut args = vec![offset_value];
        args.extend((0..count).map(|i| self.resolve(ty, Pick(value.0.wrapping_add(i as u16)))));
        let access = MemAccess {
            space: AddressSpace::Private,
            offset,
        };
        self.b.effect(EffectOp::Store(access), &args, &[]);
    }

    fn load(&mut self, ty: Type, count: u8, addr: Addr) {
        let ty = if ty == Type::Bool { Type::I32 } else { ty };
        let count = clamp_count(ty, count);
        // Every access is aligned to its scalar's size: windows start 8-byte aligned, and
        // 8-byte scalars round their word down to an even one.
        let align = ty.bytes().max(4);
        let (offset_value, offset) = match addr {
            Addr::Window(k) => (
                self.in_base
                    .unwrap_or_else(|| unreachable!("the prelude sets in_base")),
                4 * (u32::from(k) % WINDOW) / align * align,
            ),
            Addr::Gather(p) => (self.selected_offset(p, INPUT_BYTES, align), 0),
            Addr::Table(p) => (self.selected_offset(p, super::TABLE_BYTES, align), 0),
            Addr::Uniform(k) => {
                // Words 0..64, rounded down to the alignment; the count stays inside.
                let word = u32::from(k) % (INPUT_BYTES / 4 - 2);
                (self.konst(Const::i32(0)), 4 * word / align * align)
            }
            Addr::Strided(p, k) if align == 4 => {
                let x = self.resolve(Type::I32, p);
                let m = self.konst(Const::u32(31));
                let unit = self.pure(PureOp::Urem, &[x, m]);
                let two = self.konst(Const::i32(2));
                let pair = self.pure(PureOp::Imul, &[unit, two]);
                let k = self.konst(Const::i32(i32::from(k % 2)));
                let word = self.pure(PureOp::Iadd, &[pair, k]);
                (self.pure(PureOp::Ishl, &[word, two]), 0)
            }
            Addr::Strided(..) => (
                self.in_base
                    .unwrap_or_else(|| unreachable!("the prelude sets in_base")),
                0,
            ),
            Addr::Private(at) => self.private_offset(at, align),
        };
        let space = match addr {
            Addr::Uniform(_) => AddressSpace::Uniform(super::UNIFORM),
            Addr::Table(_) => AddressSpace::Constant,
            Addr::Private(_) => AddressSpace::Private,
            _ => AddressSpace::Storage(INPUT),
        };
        let access = MemAccess { space, offset };
        let types = vec![ty; count];
        for v in self
            .b
            .effect(EffectOp::Load(access), &[offset_value], &types)
        {
            self.add_result(v);
        }
    }

    /// Stores `values` (bools as i32 0/1) at the start of output slot `slot`.
    fn store(&mut self, slot: u32, values: &[Value]) {
        let out_base = self
            .out_base
            .unwrap_or_else(|| unreachable!("the prelude sets out_base"));
        let mut args = vec![out_base];
        for &v in values {
            let v = if self.b.ty(v) == Type::Bool {
                let one = self.konst(Const::i32(1));
                let zero = self.konst(Const::i32(0));
                self.pure(PureOp::Select, &[v, one, zero])
            } else {
                v
            };
            args.push(v);
        }
        let access = MemAccess {
            space: AddressSpace::Storage(OUTPUT),
            offset: slot * SLOT_BYTES,
        };
        self.b.effect(EffectOp::Store(access), &args, &[]);
    }

    fn cond(&mut self, cond: Cond) -> Value {
        match cond {
            Cond::Value(p) => self.resolve(Type::Bool, p),
            Cond::GidBit(n) => {
                let gid = self
                    .gid
                    .unwrap_or_else(|| unreachable!("the prelude sets gid"));
                let mask = self.konst(Const::i32(1 << (n % 8)));
                let bit = self.pure(PureOp::And, &[gid, mask]);
                let zero = self.konst(Const::i32(0));
                self.pure(PureOp::Ine, &[bit, zero])
            }
        }
    }

    fn if_(
        &mut self,
        cond: Cond,
        then_body: &[Stmt],
        else_body: &[Stmt],
        results: &[(Type, Pick, Pick)],
    ) {
        let c = self.cond(cond);
        let types: Vec<Type> = results.iter().map(|&(t, _, _)| t).collect();
        let (inst, [then_block, else_block]) = self.b.begin_if(c, &types);
        let parent = self.b.block();
        for (block, body, arm) in [(then_block, then_body, 0), (else_block, else_body, 1)] {
            self.b.switch_to(block);
            self.push_scope();
            self.body(body);
            let vals: Vec<Value> = results
                .iter()
                .map(|&(t, p_then, p_else)| self.resolve(t, if arm == 0 { p_then } else { p_else }))
                .collect();
            // A pure arm stays pure, so that if-conversion still finds arms to turn into
            // selects; its values live on through the `if`'s results.
            if body
                .iter()
                .any(|s| !matches!(s, Stmt::Op { .. } | Stmt::Const(_)))
            {
                self.sink();
            }
            self.b.yield_(&vals);
            self.pop_scope();
        }
        self.b.switch_to(parent);
        for v in self.b.results(inst).to_vec() {
            self.add_result(v);
        }
    }

    /// `loop counter=0, init... { if counter >= bound { break carried } ; next = counter + 1;
    /// body; continue next, updates }`.
    fn loop_(&mut self, trips: Trips, carried: &[(Type, Pick, Pick)], body: &[Stmt]) {
        let bound = match trips {
            Trips::Const(n) => self.konst(Const::i32(i32::from(n))),
            Trips::Data(p, max) => {
                let x = self.resolve(Type::I32, p);
                let max = self.konst(Const::i32(i32::from(max)));
                self.pure(PureOp::Umin, &[x, max])
            }
        };
        let zero = self.konst(Const::i32(0));
        let mut init = vec![zero];
        for &(t, p, _) in carried {
            init.push(self.resolve(t, p));
        }
        let types: Vec<Type> = carried.iter().map(|&(t, _, _)| t).collect();
        let (inst, body_block, params) = self.b.begin_loop(&init, &types);
        let parent = self.b.block();
        self.b.switch_to(body_block);
        self.push_scope();
        for &p in &params {
            self.add(p);
        }
        let counter = params[0];
        let done = self.pure(PureOp::Uge, &[counter, bound]);
        let (_, [exit_block, stay_block]) = self.b.begin_if(done, &[]);
        self.b.switch_to(exit_block);
        self.b.break_(&params[1..]);
        self.b.switch_to(stay_block);
        self.b.yield_(&[]);
        self.b.switch_to(body_block);
        let one = self.konst(Const::i32(1));
        let next = self.pure(PureOp::Iadd, &[counter, one]);
        self.loops.push(LoopFrame {
            next: Some(next),
            carried: types,
        });
        self.body(body);
        let mut args = vec![next];
        for &(t, _, p) in carried {
            args.push(self.resolve(t, p));
        }
        self.sink();
        self.b.continue_(&args);
        self.loops.pop();
        self.pop_scope();
        self.b.switch_to(parent);
        for v in self.b.results(inst).to_vec() {
            self.add_result(v);
        }
    }

    /// `if cond { EXIT } else {}`; `break`/`continue` outside loops are dropped.
    fn exit(&mut self, kind: ExitKind, cond: Cond, values: Pick) {
        let target = match kind {
            ExitKind::Return => None,
            ExitKind::Break | ExitKind::Continue => match self.loops.last() {
                Some(frame) if kind == ExitKind::Break || frame.next.is_some() => {
                    Some((frame.next, frame.carried.clone()))
                }
                _ => return,
            },
        };
        let c = self.cond(cond);
        let (_, [exit_block, stay_block]) = self.b.begin_if(c, &[]);
        let parent = self.b.block();
        self.b.switch_to(exit_block);
        self.push_scope();
        match (kind, target) {
            (ExitKind::Break, Some((_, carried))) => {
                let vals = self.resolve_all(&carried, values);
                self.b.break_(&vals);
            }
            (ExitKind::Continue, Some((Some(next), carried))) => {
                let mut vals = vec![next];
                vals.extend(self.resolve_all(&carried, values));
                self.b.continue_(&vals);
            }
            _ => {
                self.b.return_();
            }
        }
        self.pop_scope();
        self.b.switch_to(stay_block);
        self.b.yield_(&[]);
        self.b.switch_to(parent);
    }

    /// `loop { m_k = s == literal_k; if m_k [|| previous test] { case k; yield or break } ...;
    /// break values }` with `s = selector % 8` (see [`Stmt::Switch`]).
    fn switch(&mut self, selector: Pick, cases: &[Case], default: bool, results: &[(Type, Pick)]) {
        let x = self.resolve(Type::I32, selector);
        let eight = self.konst(Const::u32(8));
        let s = self.pure(PureOp::Urem, &[x, eight]);
        let types: Vec<Type> = results.iter().map(|&(t, _)| t).collect();
        let mut acc: Vec<Value> = results.iter().map(|&(t, p)| self.resolve(t, p)).collect();
        let (inst, body, _) = self.b.begin_loop(&[], &types);
        let parent = self.b.block();
        self.b.switch_to(body);
        self.push_scope();
        self.loops.push(LoopFrame {
            next: None,
            carried: types.clone(),
        });
        let mut previous: Option<Value> = None;
        for (k, case) in cases.iter().enumerate() {
            let test = if default && k + 1 == cases.len() {
                self.konst(Const::bool(true))
            } else {
                let lit = self.konst(Const::i32(i32::from(case.literal % 8)));
                let m = self.pure(PureOp::Ieq, &[s, lit]);
                match previous {
                    Some(p) => self.pure(PureOp::Or, &[m, p]),
                    None => m,
                }
            };
            let out_types: &[Type] = if case.falls { &types } else { &[] };
            let (if_inst, [then_block, else_block]) = self.b.begin_if(test, out_types);
            let here = self.b.block();
            self.b.switch_to(then_block);
            self.push_scope();
            self.body(&case.body);
            let vals = self.resolve_all(&types, case.values);
            self.sink();
            if case.falls {
                self.b.yield_(&vals);
            } else {
                self.b.break_(&vals);
            }
            self.pop_scope();
            self.b.switch_to(else_block);
            if case.falls {
                self.b.yield_(&acc);
            } else {
                self.b.yield_(&[]);
            }
            self.b.switch_to(here);
            if case.falls {
                acc = self.b.results(if_inst).to_vec();
                for &v in &acc {
                    self.add_result(v);
                }
                previous = Some(test);
            } else {
                previous = None;
            }
        }
        self.b.break_(&acc);
        self.loops.pop();
        self.pop_scope();
        self.b.switch_to(parent);
        for v in self.b.results(inst).to_vec() {
            self.add_result(v);
        }
    }

    fn resolve_all(&mut self, types: &[Type], first: Pick) -> Vec<Value> {
        types
            .iter()
            .enumerate()
            .map(|(i, &t)| self.resolve(t, Pick(first.0.wrapping_add(i as u16))))
            .collect()
    }

    /// The latest value of each type in scope, with its epilogue slot.
    fn epilogue_values(&self) -> Vec<(u32, Value)> {
        EPILOGUE_TYPES
            .into_iter()
            .enumerate()
            .filter_map(|(i, ty)| {
                let latest = self.scope.iter().rev().find(|&&(t, _)| t == ty)?;
                Some((EPILOGUE_SLOT + i as u32, latest.1))
            })
            .collect()
    }

    /// Stores the latest value of each type in its epilogue slot.
    fn epilogue(&mut self, last: &[(u32, Value)]) {
        for &(slot, v) in last {
            self.store(slot, &[v]);
        }
    }
}

/// How many scalars of `ty` one access moves: `count` clamped to 1 ..= what fits in a slot.
fn clamp_count(ty: Type, count: u8) -> usize {
    let fits = (MAX_ACCESS_BYTES / ty.bytes()).max(1) as usize;
    usize::from(count).clamp(1, fits)
}
