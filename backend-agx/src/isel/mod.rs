//! Instruction selection: graph IR to a machine function over virtual registers.
//!
//! Pipeline position: first backend pass, after the optimizer's elaboration (or directly on a
//! front end's output at -O0). The output ([`MFunction`]) keeps the IR's structured control
//! flow as pseudo-instructions for `cflow`, which lowers them once registers are allocated.
//!
//! # How values become registers
//! Every IR value gets a register group when it is defined (32-bit types and `bool` a 32-bit
//! register, 16-bit types a half, `i64` a pair), computed where the IR computes it. Besides its
//! register a value may have a cheaper *form* its users can fold:
//! - a constant: an 8-bit integer immediate, the 8-bit float immediate (`float_imm`), or a
//!   `mov_imm` of 16 or 32 bits otherwise;
//! - a uniform register (push constants at constant offsets, ABI values);
//! - a float modifier: `fneg`/`fabs` of another value folds into float sources as `.neg`/`.abs`;
//! - a comparison: a `bool` from a compare fuses into `if_*cmp` and `*cmpsel`.
//!
//! When every user folds a form, the value's own instruction is dead, and [`dce`] removes it.
//! `fsat` folds into the single-use float instruction that produced its operand (the `.sat`
//! destination flag). Values handed on by `yield`, `break` and a body's final `continue` are
//! computed straight into the construct's registers where that is sound (`coalesce`).
//!
//! Operation-specific selection lives in the submodules: `float` (float arithmetic,
//! comparisons, `select`, target operations), `cmpsel` (the target's compare-and-select
//! operations), `int` and `int64`/`int64_ext` (integers of 16
//! and 32, and 64 bits), `divide` (integer division), `convert`, `memory` (loads, stores,
//! barriers), `atomic` (read-modify-writes), `stage_io` (built-ins, varyings, outputs,
//! derivatives), `vertex` (the vertex stage's attributes and outputs in memory),
//! `output_runs` (a location's outputs stored together) and `texture`; `build` has the small
//! instruction builders they share.

mod atomic;
mod build;
mod cmpsel;
mod coalesce;
mod convert;
pub mod dce;
mod divide;
mod float;
mod int;
mod int64;
mod int64_ext;
mod memory;
mod output_runs;
mod stage_io;
mod texture;
mod vertex;

use agxc_egraph::ir::{Block, Const, EffectOp, Function, Inst, Op, Stage, Type, Value, ValueDef};
use cranelift_entity::SecondaryMap;

use crate::abi::{Abi, UniformContent};
use crate::error::BackendError;
use crate::isa::{Cmp, FSrc, ICond, IntSrc, RegClass, Src, UReg};
use crate::mir::{MFunction, MInst, VReg};

/// Selects machine instructions for `func` under `abi`.
pub fn select(func: &Function, abi: &Abi) -> Result<MFunction, BackendError> {
    let mut isel = Isel::new(func, abi);
    isel.function()?;
    let mut m = isel.m;
    dce::remove_dead(&mut m);
    Ok(m)
}

/// A comparison a `bool` value stands for, foldable into `if_*cmp` and `*cmpsel`: the value is
/// `cmp` (negated if `invert`), and `bits` is the width of the compared operands (16 or 32),
/// which `*cmpsel` requires of its destination.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CondForm {
    pub cmp: Cmp<VReg>,
    pub invert: bool,
    pub bits: u32,
}

/// A float value that is another value with modifiers: `value = neg(abs?(base))`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FMod {
    pub base: Value,
    pub abs: bool,
    pub neg: bool,
}

/// The registers of the innermost enclosing loop: its body parameters and its results, and
/// where its body starts in the machine code.
struct LoopRegs {
    params: Vec<VReg>,
    results: Vec<VReg>,
    body: Block,
    start: usize,
}

pub(crate) struct Isel<'f> {
    pub func: &'f Function,
    pub abi: &'f Abi,
    pub m: MFunction,
    regs: SecondaryMap<Value, Option<VReg>>,
    consts: SecondaryMap<Value, Option<Const>>,
    uniforms: SecondaryMap<Value, Option<UReg>>,
    fmods: SecondaryMap<Value, Option<FMod>>,
    conds: SecondaryMap<Value, Option<CondForm>>,
    /// The machine instruction (index into `m.insts`) that alone defines a value, for folding
    /// `fsat` into it.
    def_at: SecondaryMap<Value, Option<usize>>,
    uses: SecondaryMap<Value, u32>,
    /// Result registers of the enclosing `if`s, with where the current arm starts.
    if_results: Vec<(Vec<VReg>, usize)>,
    loops: Vec<LoopRegs>,
    /// The vertex index register (vertex stage).
    vertex_id: Option<VReg>,
    /// `4 * vertex`, the element index of the vertex's inputs and outputs (vertex stage).
    vertex_base: Option<VReg>,
    /// The IR block being selected.
    current_block: Option<Block>,
    /// Targets (group, region start) a value was coalesced into.
    coalesced: std::collections::HashSet<(u32, usize)>,
    /// The groups of `coalesced`.
    coalesced_groups: std::collections::HashSet<u32>,
    /// Instructions writing each group in `m.insts[..defs_counted]`.
    def_count: Vec<u32>,
    defs_counted: usize,
    /// The values whose register is (or was) in each group, and those whose recorded
    /// comparison reads it: what renaming a coalesced group must update.
    values_in: Vec<Vec<Value>>,
    conds_in: Vec<Vec<Value>>,
    /// Fragment varying components read by one `ld_var` at the start, and vertex attribute
    /// components read by one `device_load` at the start, by (location, component).
    varyings: std::collections::BTreeMap<(u32, u8), VReg>,
    /// The IR instruction being selected, for error messages.
    pub current: Option<Inst>,
}

/// The register class of an IR type.
pub(crate) fn class_of(ty: Type) -> RegClass {
    match ty {
        Type::Bool | Type::I32 | Type::F32 => RegClass::R32,
        Type::I16 | Type::F16 => RegClass::H16,
        Type::I64 => RegClass::R64,
    }
}

impl<'f> Isel<'f> {
    fn new(func: &'f Function, abi: &'f Abi) -> Self {
        let mut uses: SecondaryMap<Value, u32> = SecondaryMap::new();
        func.for_each_inst(|_, inst| {
            for &a in &func.insts[inst].args {
                uses[a] += 1;
            }
        });
        Isel {
            func,
            abi,
            m: MFunction {
                private_bytes: func.private_bytes,
                ..MFunction::default()
            },
            regs: SecondaryMap::new(),
            consts: SecondaryMap::new(),
            uniforms: SecondaryMap::new(),
            fmods: SecondaryMap::new(),
            conds: SecondaryMap::new(),
            def_at: SecondaryMap::new(),
            uses,
            if_results: Vec::new(),
            loops: Vec::new(),
            vertex_id: None,
            vertex_base: None,
            current_block: None,
            coalesced: Default::default(),
            coalesced_groups: Default::default(),
            def_count: Vec::new(),
            defs_counted: 0,
            values_in: Vec::new(),
            conds_in: Vec::new(),
            varyings: Default::default(),
            current: None,
        }
    }

    /// An error naming the current instruction.
    pub fn unsupported(&self, what: impl Into<String>) -> BackendError {
        match self.current {
            Some(inst) => BackendError::UnsupportedInst {
                inst,
                what: what.into(),
            },
            None => BackendError::Unsupported { what: what.into() },
        }
    }

    /// An internal invariant failure in isel.
    pub fn internal(&self, what: impl Into<String>) -> BackendError {
        let what = match self.current {
            Some(inst) => format!("{inst}: {}", what.into()),
            None => what.into(),
        };
        BackendError::Internal { pass: "isel", what }
    }

    fn function(&mut self) -> Result<(), BackendError> {
        let entry = self.func.entry;
        if self.func.stage == Stage::Fragment {
            self.load_varyings()?;
        }
        if self.func.stage == Stage::Vertex {
            // Threads past the vertex count do nothing (see the ABI's vertex section).
            let vid = self.vertex_index();
            let count = self
                .abi
                .uniform(UniformContent::VertexCount)
                .ok_or_else(|| self.internal("the ABI has no vertex count"))?;
            self.m.push(MInst::If {
                cmp: Cmp::Int {
                    cond: ICond::Ult,
                    a: Src::reg(vid),
                    b: Src::Uniform(UReg::U32(count)),
                },
                invert: false,
            });
            self.load_vertex_inputs()?;
            self.block(entry, true)?;
            self.m.push(MInst::EndIf);
        } else {
            self.block(entry, true)?;
        }
        Ok(())
    }

    fn block(&mut self, block: Block, is_entry: bool) -> Result<(), BackendError> {
        let insts = self.func.blocks[block].insts.clone();
        let insts = self.gather_outputs(insts);
        let mut i = 0;
        while i < insts.len() {
            let inst = insts[i];
            self.current = Some(inst);
            self.current_block = Some(block);
            let run = self.output_run_at(&insts[i..]);
            if run.len() > 1 {
                let (array, first) = run[0].0;
                let values: Vec<Value> = run.iter().map(|r| r.1).collect();
                self.output_run(array, first, &values)?;
                i += run.len();
                continue;
            }
            self.inst(inst, is_entry)?;
            i += 1;
        }
        Ok(())
    }

    fn inst(&mut self, inst: Inst, in_entry: bool) -> Result<(), BackendError> {
        let data = &self.func.insts[inst];
        let op = data.op;
        match op {
            Op::Const(c) => {
                let r = data.results[0];
                let reg = self.materialize_const(c);
                self.set(r, reg);
                self.consts[r] = Some(c);
            }
            Op::Pure(p) => self.pure(inst, p)?,
            Op::Custom(c) => {
                if !self.cmpsel(inst, c)? {
                    self.custom(inst, c)?
                }
            }
            Op::Effect(e) => self.effect(inst, e)?,
            Op::If => self.if_(inst)?,
            Op::Loop => self.loop_(inst)?,
            Op::Yield => {
                let (targets, start) = self
                    .if_results
                    .last()
                    .cloned()
                    .ok_or_else(|| self.internal("yield outside an if"))?;
                let args = data.args.clone();
                let args = self.coalesce_all(&targets, &args, start, false);
                self.copy_values(&targets, &args, false)?;
            }
            Op::Break => {
                let (targets, start) = self
                    .loops
                    .last()
                    .map(|l| (l.results.clone(), l.start))
                    .ok_or_else(|| self.internal("break outside a loop"))?;
                let args = data.args.clone();
                let args = self.coalesce_all(&targets, &args, start, false);
                // A value an earlier `break` coalesced into one result may be handed on here
                // as another: the copies must not overwrite it before reading it.
                self.copy_values(&targets, &args, true)?;
                self.m.push(MInst::Break);
            }
            Op::Continue => {
                let (targets, start, body) = self
                    .loops
                    .last()
                    .map(|l| (l.params.clone(), l.start, l.body))
                    .ok_or_else(|| self.internal("continue outside a loop"))?;
                let args = data.args.clone();
                // Only the continue ending the body: no code of the iteration follows it.
                let args = if self.current_block == Some(body) {
                    self.coalesce_all(&targets, &args, start, true)
                } else {
                    args.iter().map(|&a| Some(a)).collect()
                };
                self.copy_values(&targets, &args, true)?;
                self.m.push(MInst::Continue);
            }
            Op::Return => {
                // The entry block's final return is the end of the program.
                if !in_entry {
                    self.m.push(MInst::Exit);
                }
            }
            Op::Discard => {
                if self.func.stage != Stage::Fragment {
                    return Err(self.unsupported("discard outside a fragment shader"));
                }
                self.m.op(crate::isa::Instr::SampleMask {
                    targets: 1,
                    value: 0,
                });
                self.m.push(MInst::Exit);
            }
        }
        Ok(())
    }

    fn if_(&mut self, inst: Inst) -> Result<(), BackendError> {
        let data = &self.func.insts[inst];
        let cond = data.args[0];
        let results = data.results.clone();
        let [then_b, else_b] = [data.blocks[0], data.blocks[1]];
        let (cmp, invert) = self.branch_condition(cond);
        let regs: Vec<VReg> = results
            .iter()
            .map(|&r| self.m.new_group(class_of(self.func.value_type(r))))
            .collect();
        self.m.push(MInst::If { cmp, invert });
        self.if_results.push((regs.clone(), self.m.insts.len()));
        self.block(then_b, false)?;
        self.m.push(MInst::Else);
        if let Some(top) = self.if_results.last_mut() {
            top.1 = self.m.insts.len();
        }
        self.block(else_b, false)?;
        self.m.push(MInst::EndIf);
        self.if_results.pop();
        self.current = Some(inst);
        for (&r, &reg) in results.iter().zip(&regs) {
            self.set(r, reg);
        }
        Ok(())
    }

    fn loop_(&mut self, inst: Inst) -> Result<(), BackendError> {
        let data = &self.func.insts[inst];
        let init = data.args.clone();
        let results = data.results.clone();
        let body = data.blocks[0];
        let params = self.func.blocks[body].params.clone();
        let param_regs: Vec<VReg> = params
            .iter()
            .map(|&p| self.m.new_group(class_of(self.func.value_type(p))))
            .collect();
        let result_regs: Vec<VReg> = results
            .iter()
            .map(|&r| self.m.new_group(class_of(self.func.value_type(r))))
            .collect();
        let init: Vec<Option<Value>> = init.iter().map(|&v| Some(v)).collect();
        self.copy_values(&param_regs, &init, false)?;
        for (&p, &reg) in params.iter().zip(&param_regs) {
            self.set(p, reg);
        }
        self.m.push(MInst::Loop);
        self.loops.push(LoopRegs {
            params: param_regs,
            results: result_regs.clone(),
            body,
            start: self.m.insts.len(),
        });
        self.block(body, false)?;
        self.loops.pop();
        self.m.push(MInst::EndLoop);
        self.current = Some(inst);
        for (&r, &reg) in results.iter().zip(&result_regs) {
            self.set(r, reg);
        }
        Ok(())
    }

    /// Coalesces what it can of `values` into `targets` (see [`coalesce`]); returns the values
    /// that still need a copy (`None` where the value already is in its target).
    fn coalesce_all(
        &mut self,
        targets: &[VReg],
        values: &[Value],
        start: usize,
        check_reads: bool,
    ) -> Vec<Option<Value>> {
        let mut out = Vec::with_capacity(values.len());
        for (k, (&t, &v)) in targets.iter().zip(values).enumerate() {
            // A parameter read by another operand of the same continue keeps its old value
            // until that copy.
            let read_by_other = check_reads
                && values
                    .iter()
                    .enumerate()
                    .any(|(j, &w)| j != k && self.reg(w).group == t.group);
            let once = !values[..k].contains(&v);
            if !read_by_other && once && self.coalesce_into(t, v, start, check_reads) {
                out.push(None);
            } else {
                out.push(Some(v));
            }
        }
        out
    }

    /// Gives `from`'s values and recorded comparisons the registers of `to` (a coalesced
    /// group).
    fn retarget_values(&mut self, from: u32, to: u32) {
        let fix = |r: VReg| {
            if r.group == from {
                VReg { group: to, ..r }
            } else {
                r
            }
        };
        for v in std::mem::take(grow(&mut self.values_in, from)) {
            if let Some(reg) = &mut self.regs[v] {
                if reg.group == from {
                    *reg = fix(*reg);
                    grow(&mut self.values_in, to).push(v);
                }
            }
        }
        for v in std::mem::take(grow(&mut self.conds_in, from)) {
            if let Some(c) = &mut self.conds[v] {
                c.cmp = c.cmp.map(&mut |r| fix(r));
                grow(&mut self.conds_in, to).push(v);
            }
        }
        if let Some(v) = &mut self.vertex_id {
            *v = fix(*v);
        }
    }

    /// How many instructions write group `g`.
    fn defs_of(&mut self, g: u32) -> u32 {
        for inst in &self.m.insts[self.defs_counted..] {
            inst.for_each_def(|r| *grow(&mut self.def_count, r.group) += 1);
        }
        self.defs_counted = self.m.insts.len();
        self.def_count.get(g as usize).copied().unwrap_or(0)
    }

    /// Copies `values` into `targets` (`None`: nothing to copy). With `parallel`, the targets
    /// may be among the sources (loop parameters at a `continue`, results a value was coalesced
    /// into at a `break`): sources that a copy would overwrite are saved first.
    fn copy_values(
        &mut self,
        targets: &[VReg],
        values: &[Option<Value>],
        parallel: bool,
    ) -> Result<(), BackendError> {
        if targets.len() != values.len() {
            return Err(self.internal("operand count differs from the construct's"));
        }
        let pairs: Vec<(VReg, Value)> = targets
            .iter()
            .zip(values)
            .filter_map(|(&t, v)| v.map(|v| (t, v)))
            .collect();
        let targets: Vec<VReg> = pairs.iter().map(|p| p.0).collect();
        let mut sources: Vec<VReg> = pairs.iter().map(|p| self.reg(p.1)).collect();
        if parallel {
            for i in 0..targets.len() {
                // A source read after target i is written must be saved before.
                let clobbered = sources[i + 1..].iter().any(|s| s.group == targets[i].group);
                if clobbered {
                    for s in sources.iter_mut().skip(i + 1) {
                        if s.group == targets[i].group {
                            let tmp = self.m.new_group(s.class);
                            self.mov(tmp, *s);
                            *s = tmp;
                        }
                    }
                }
            }
        }
        for (&t, &s) in targets.iter().zip(&sources) {
            if t != s {
                self.mov(t, s);
            }
        }
        Ok(())
    }

    // ---- values and their forms -------------------------------------------------------

    /// Records `reg` as the register of `v`. If the instruction just pushed writes exactly
    /// `reg`, it is remembered as `v`'s definition (for folding `fsat` and for coalescing).
    pub fn set(&mut self, v: Value, reg: VReg) {
        self.regs[v] = Some(reg);
        grow(&mut self.values_in, reg.group).push(v);
        if let Some(last) = self.m.insts.last() {
            let mut exact = false;
            let mut other = false;
            last.for_each_def(|d| {
                if *d == reg {
                    exact = true;
                } else {
                    other = true;
                }
            });
            if exact && !other {
                self.def_at[v] = Some(self.m.insts.len() - 1);
            }
        }
    }

    /// The register of `v` (every value is given one when defined; a missing one is an IR
    /// whose use does not follow its definition, which the verifier rejects).
    pub fn reg(&self, v: Value) -> VReg {
        self.regs[v].unwrap_or_else(|| {
            // Verified IR defines every value before its uses; reaching here is a backend bug.
            panic!("invariant: isel reached a use of {v} before its definition")
        })
    }

    /// The constant `v` is, if any.
    pub fn konst(&self, v: Value) -> Option<Const> {
        self.consts[v]
    }

    /// Records that `v` is the constant `c`.
    pub fn set_const(&mut self, v: Value, c: Const) {
        self.consts[v] = Some(c);
    }

    /// Marks `v` as also available in uniform `u`.
    pub fn set_uniform(&mut self, v: Value, u: UReg) {
        self.uniforms[v] = Some(u);
    }

    /// Records that `v` is a comparison.
    pub fn set_cond(&mut self, v: Value, cond: CondForm) {
        self.conds[v] = Some(cond);
        cond.cmp
            .map(&mut |r: VReg| grow(&mut self.conds_in, r.group).push(v));
    }

    /// Records that `v` is `base` with float modifiers.
    pub fn set_fmod(&mut self, v: Value, m: FMod) {
        self.fmods[v] = Some(m);
    }

    /// How many IR instructions use `v`.
    pub fn use_count(&self, v: Value) -> u32 {
        self.uses[v]
    }

    /// The machine instruction that alone defines `v`, if known.
    pub fn def_index(&self, v: Value) -> Option<usize> {
        self.def_at[v]
    }

    /// The IR instruction defining `v`, if `v` is an instruction result.
    pub fn def_inst(&self, v: Value) -> Option<Inst> {
        match self.func.values[v].def {
            ValueDef::Result(inst, _) => Some(inst),
            _ => None,
        }
    }

    /// `v` as an integer source: an 8-bit immediate if it is a small constant, a uniform if it
    /// lives in one, else its register.
    pub fn src(&self, v: Value) -> Src<VReg> {
        if let Some(c) = self.consts[v] {
            if c.ty() != Type::I64 && c.bits() <= 0xff {
                return Src::Imm(c.bits() as u8);
            }
        }
        if let Some(u) = self.uniforms[v] {
            return Src::Uniform(u);
        }
        Src::reg(self.reg(v))
    }

    /// `v` as a select operand (`*cmpsel` x/y): like [`Isel::src`].
    pub fn sel_src(&self, v: Value) -> Src<VReg> {
        self.src(v)
    }

    /// `v` as a zero-extended `iadd`/`imadd` source.
    pub fn int_src(&self, v: Value) -> IntSrc<VReg> {
        IntSrc::zext(self.src(v))
    }

    /// `v` as a float source, folding `fneg`/`fabs` and float immediates.
    pub fn fsrc(&self, v: Value) -> FSrc<VReg> {
        let (base, abs, neg) = self.strip_mods(v);
        if let Some(c) = self.consts[base] {
            let x = match c.ty() {
                Type::F32 => c.as_f32(),
                Type::F16 => c.as_f64() as f32,
                _ => f32::NAN,
            };
            let x = if abs { x.abs() } else { x };
            let x = if neg { -x } else { x };
            if let Some(code) = crate::isa::float_imm(x) {
                return FSrc::imm(code);
            }
        }
        let src = match self.uniforms[base] {
            Some(u) => Src::Uniform(u),
            None => Src::reg(self.reg(base)),
        };
        FSrc { src, abs, neg }
    }

    /// `v` without its float modifiers: the base value and the modifiers (abs first, then neg).
    fn strip_mods(&self, v: Value) -> (Value, bool, bool) {
        let (mut base, mut abs, mut neg) = (v, false, false);
        // Modifiers compose from the outside in: neg(abs(x)) is x.abs.neg, abs(neg(x)) is x.abs.
        let mut outer: Vec<FMod> = Vec::new();
        while let Some(m) = self.fmods[base] {
            outer.push(m);
            base = m.base;
        }
        for m in outer.iter().rev() {
            if m.abs {
                abs = true;
                neg = false;
            }
            if m.neg {
                neg = !neg;
            }
        }
        (base, abs, neg)
    }

    /// The comparison `cond` stands for, or `cond != 0`.
    pub fn cond_form(&self, cond: Value) -> CondForm {
        if let Some(c) = self.conds[cond] {
            return c;
        }
        if let Some(c) = self.consts[cond] {
            // A constant condition: compare two immediates.
            return CondForm {
                cmp: Cmp::Int {
                    cond: ICond::Ueq,
                    a: Src::Imm(0),
                    b: Src::Imm(0),
                },
                invert: c.bits() == 0,
                bits: 32,
            };
        }
        CondForm {
            cmp: Cmp::Int {
                cond: ICond::Ueq,
                a: Src::reg(self.reg(cond)),
                b: Src::Imm(0),
            },
            invert: true,
            bits: 32,
        }
    }

    /// The condition of an `if`: fused comparisons of any width, else `cond != 0`.
    fn branch_condition(&self, cond: Value) -> (Cmp<VReg>, bool) {
        let c = self.cond_form(cond);
        (c.cmp, c.invert)
    }

    /// A register holding a 32-bit uniform (a copy; dead if every user folds the uniform).
    pub fn uniform_reg(&mut self, u: UReg) -> VReg {
        let class = match u {
            UReg::U16(_) => RegClass::H16,
            UReg::U32(_) => RegClass::R32,
            UReg::U64(_) => RegClass::R64,
        };
        let dst = self.m.new_group(class);
        match u {
            UReg::U64(n) => {
                self.mov_src(dst.word(0), Src::Uniform(UReg::U32(n)));
                self.mov_src(dst.word(1), Src::Uniform(UReg::U32(n + 1)));
            }
            _ => self.mov_src(dst, Src::Uniform(u)),
        }
        dst
    }

    /// The ABI's uniform holding `content`.
    pub fn abi_uniform(&self, content: UniformContent) -> Result<u16, BackendError> {
        self.abi
            .uniform(content)
            .ok_or_else(|| self.internal(format!("the ABI has no uniform for {content}")))
    }

    fn pure(&mut self, inst: Inst, p: agxc_egraph::ir::PureOp) -> Result<(), BackendError> {
        use agxc_egraph::ir::PureOp::*;
        let data = &self.func.insts[inst];
        let args: Vec<Value> = data.args.to_vec();
        let r = data.results[0];
        let ty = self.func.value_type(r);
        let arg_ty = args.first().map(|&a| self.func.value_type(a)).unwrap_or(ty);
        match p {
            Fcvt | Uext | Sext | Itrunc | F2u | F2s | U2f | S2f | Bitcast => {
                self.conversion(p, args[0], r, arg_ty, ty)
            }
            Select => self.select(args[0], args[1], args[2], r, ty),
            _ if arg_ty.is_float() => self.float_op(inst, p, &args, r, ty),
            _ if arg_ty == Type::I64 => self.int64_op(p, &args, r),
            _ => self.int_op(p, &args, r, arg_ty),
        }
    }

    fn effect(&mut self, inst: Inst, e: EffectOp) -> Result<(), BackendError> {
        let data = &self.func.insts[inst];
        let args: Vec<Value> = data.args.to_vec();
        let results: Vec<Value> = data.results.to_vec();
        match e {
            EffectOp::Load(access) => self.load(access, args[0], &results),
            EffectOp::Store(access) => self.store(access, args[0], &args[1..]),
            EffectOp::BufferSize(b) => {
                let u = self.abi_uniform(UniformContent::BufferSize(b))?;
                self.uniform_value(results[0], UReg::U32(u));
                Ok(())
            }
            EffectOp::Barrier(kind) => {
                self.barrier(kind);
                Ok(())
            }
            EffectOp::Builtin(b) => self.builtin(b, results[0]),
            EffectOp::Input(slot) => self.input(slot, results[0]),
            EffectOp::Output(slot) => self.output(slot, args[0]),
            EffectOp::Derivative(axis, precision) => {
                self.derivative(axis, precision, args[0], results[0])
            }
            EffectOp::ImageLoad(op) => self.image_load(&op, &args, &results),
            EffectOp::ImageSize(op) => self.image_size(&op, &results),
            EffectOp::ImageStore(op) => self.image_store(&op, &args),
            EffectOp::Sample(s) => self.sample(&s, &args, &results),
            EffectOp::Fetch(f) => self.fetch(&f, &args, &results),
            EffectOp::TexSize(s) => self.tex_size(&s, args[0], &results),
            EffectOp::TexLevels(b) => {
                let u = self.abi_uniform(UniformContent::TextureLevels(b))?;
                self.uniform_value(results[0], UReg::U32(u));
                Ok(())
            }
            EffectOp::Demote => {
                if self.func.stage != Stage::Fragment {
                    return Err(self.unsupported("demote outside a fragment shader"));
                }
                self.m.op(crate::isa::Instr::SampleMask {
                    targets: 1,
                    value: 0,
                });
                Ok(())
            }
            EffectOp::VertexInput(_) | EffectOp::EmitVertex(_) | EffectOp::EndPrimitive(_) => {
                Err(self.unsupported("a geometry-stage operation"))
            }
            EffectOp::Atomic(op, access) => self.atomic(op, access, &args, &results),
        }
    }

    /// Defines `v` as the value of uniform `u` (a register copy for users that need one).
    pub fn uniform_value(&mut self, v: Value, u: UReg) {
        let reg = self.uniform_reg(u);
        self.set(v, reg);
        self.set_uniform(v, u);
    }
}

/// The entry of `v` for group `g`, `v` grown to hold it.
pub(crate) fn grow<T: Default>(v: &mut Vec<T>, g: u32) -> &mut T {
    let g = g as usize;
    if v.len() <= g {
        v.resize_with(g + 1, T::default);
    }
    &mut v[g]
}
